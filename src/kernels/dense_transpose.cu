/* dense_transpose.cu: T = S' + beta*T for dense matrices: a column-major B
 * copied to row-major, so that the HRPB kernel can gather whole rows of B
 * with 16-byte loads, and a row-major product added into a column-major C.
 *
 * Each thread block owns a 32 x 32 tile (32 rows of S's column-major view,
 * 32 columns), numbered along the rows first; its 32 x 8 threads read the
 * tile along the rows (contiguous in S) into shared memory padded to 33
 * words, then write it along the columns (contiguous in T). */
#include <cuda_runtime.h>

#include "../error.h"
#include "hrpb_gpu_internal.h"

enum { TILE = 32, TILE_ROWS = 8 };

__global__ void __launch_bounds__(TILE * TILE_ROWS)
dense_transpose_kernel(const float *__restrict__ S, int64_t lds, int64_t rows, int64_t n,
                       float beta, float *__restrict__ T, int64_t ldt, int64_t tiles_i)
{
    __shared__ float tile[TILE][TILE + 1];
    const int64_t i0 = (int64_t)(blockIdx.x % tiles_i) * TILE;
    const int64_t j0 = (int64_t)(blockIdx.x / tiles_i) * TILE;
    for (int jj = threadIdx.y; jj < TILE; jj += TILE_ROWS) {
        int64_t i = i0 + threadIdx.x, j = j0 + jj;
        if (i < rows && j < n) tile[jj][threadIdx.x] = S[j * lds + i];
    }
    __syncthreads();
    for (int ii = threadIdx.y; ii < TILE; ii += TILE_ROWS) {
        int64_t i = i0 + ii, j = j0 + threadIdx.x;
        if (i < rows && j < n) {
            float *t = T + i * ldt + j;
            *t = beta == 0.0f ? tile[threadIdx.x][ii] : tile[threadIdx.x][ii] + beta * *t;
        }
    }
}

extern "C" tcspmm_status dense_transpose_to_row_major(const float *dS, int64_t lds,
                                                      int64_t rows, int64_t n, float beta,
                                                      float *dT, int64_t ldt, void *stream)
{
    if (rows == 0 || n == 0) return TCSPMM_SUCCESS;
    const int64_t tiles_i = (rows + TILE - 1) / TILE, tiles_j = (n + TILE - 1) / TILE;
    if (tiles_i > 0x7fffffff / tiles_j)
        return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED,
                           "dense_transpose_to_row_major: %lld x %lld is too large",
                           (long long)rows, (long long)n);
    dim3 block(TILE, TILE_ROWS);
    dense_transpose_kernel<<<(unsigned)(tiles_i * tiles_j), block, 0, (cudaStream_t)stream>>>(
        dS, lds, rows, n, beta, dT, ldt, tiles_i);
    return TCSPMM_CUDA(cudaGetLastError());
}
