/* dense_transpose.cu: a column-major dense matrix copied to row-major, so
 * that the HRPB kernel can gather whole rows of B with 16-byte loads.
 *
 * Each thread block owns a 32 x 32 tile (32 rows of the matrix, 32 columns);
 * its 32 x 8 threads read the tile along the rows (contiguous in the source)
 * into shared memory padded to 33 words, then write it along the columns
 * (contiguous in the destination). */
#include <cuda_runtime.h>

#include "../error.h"
#include "hrpb_gpu_internal.h"

enum { TILE = 32, TILE_ROWS = 8 };

__global__ void __launch_bounds__(TILE * TILE_ROWS)
dense_transpose_kernel(const float *__restrict__ S, int64_t lds, int64_t rows, int64_t n,
                       float *__restrict__ T, int64_t ldt)
{
    __shared__ float tile[TILE][TILE + 1];
    int64_t i0 = (int64_t)blockIdx.x * TILE, j0 = (int64_t)blockIdx.y * TILE;
    for (int jj = threadIdx.y; jj < TILE; jj += TILE_ROWS) {
        int64_t i = i0 + threadIdx.x, j = j0 + jj;
        if (i < rows && j < n) tile[jj][threadIdx.x] = S[j * lds + i];
    }
    __syncthreads();
    for (int ii = threadIdx.y; ii < TILE; ii += TILE_ROWS) {
        int64_t i = i0 + ii, j = j0 + threadIdx.x;
        if (i < rows && j < n) T[i * ldt + j] = tile[threadIdx.x][ii];
    }
}

extern "C" tcspmm_status dense_transpose_to_row_major(const float *dS, int64_t lds,
                                                      int64_t rows, int64_t n, float *dT,
                                                      int64_t ldt, void *stream)
{
    if (rows == 0 || n == 0) return TCSPMM_SUCCESS;
    int64_t gx = (rows + TILE - 1) / TILE, gy = (n + TILE - 1) / TILE;
    if (gx > 0x7fffffff || gy > 65535)
        return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED,
                           "dense_transpose_to_row_major: %lld x %lld is too large",
                           (long long)rows, (long long)n);
    dim3 grid((unsigned)gx, (unsigned)gy), block(TILE, TILE_ROWS);
    dense_transpose_kernel<<<grid, block, 0, (cudaStream_t)stream>>>(dS, lds, rows, n, dT, ldt);
    return TCSPMM_CUDA(cudaGetLastError());
}
