/* dense_transpose.cu: a column-major dense matrix copied to row-major, so
 * that the HRPB kernel can gather whole rows of B with 16-byte loads.
 *
 * Each thread block of 256 threads owns a tile of TN columns (8, 16 or 32:
 * the fewest that cover n, up to 32) by 1024 / TN rows, so that every
 * thread moves four elements however narrow B is. It reads the tile down
 * the columns (contiguous in the source) into shared memory, then writes it
 * along the rows (contiguous in the destination). Rows of the tile in
 * shared memory are padded by 32 / TN words, so that both phases are free
 * of bank conflicts. */
#include <cuda_runtime.h>

#include "../error.h"
#include "hrpb_gpu_internal.h"

enum { THREADS = 256, TILE_ELEMS = 1024 };

template <int TN>
__global__ void __launch_bounds__(THREADS, 8)
dense_transpose_kernel(const float *__restrict__ S, int64_t lds, int64_t rows, int64_t n,
                       float *__restrict__ T, int64_t ldt)
{
    constexpr int TR = TILE_ELEMS / TN, PAD = 32 / TN, PASSES = TILE_ELEMS / THREADS;
    __shared__ float tile[TN][TR + PAD];
    const int64_t i0 = (int64_t)blockIdx.x * TR, j0 = (int64_t)blockIdx.y * TN;
    { /* thread: row i0 + r of columns c, c + THREADS / TR, ... */
        const int r = threadIdx.x % TR, c = threadIdx.x / TR;
        const bool row_in = i0 + r < rows;
        const float *s = S + (j0 + c) * lds + i0 + r;
#pragma unroll
        for (int p = 0; p < PASSES; p++) {
            const int jj = c + p * (THREADS / TR);
            if (row_in && j0 + jj < n) tile[jj][r] = s[(int64_t)p * (THREADS / TR) * lds];
        }
    }
    __syncthreads();
    { /* thread: column j0 + c of rows r, r + THREADS / TN, ... */
        const int c = threadIdx.x % TN, r = threadIdx.x / TN;
        const bool col_in = j0 + c < n;
        float *t = T + (i0 + r) * ldt + j0 + c;
#pragma unroll
        for (int p = 0; p < PASSES; p++) {
            const int ii = r + p * (THREADS / TN);
            if (col_in && i0 + ii < rows) t[(int64_t)p * (THREADS / TN) * ldt] = tile[c][ii];
        }
    }
}

template <int TN>
static tcspmm_status launch(const float *dS, int64_t lds, int64_t rows, int64_t n, float *dT,
                            int64_t ldt, cudaStream_t stream)
{
    constexpr int TR = TILE_ELEMS / TN;
    const int64_t gx = (rows + TR - 1) / TR, gy = (n + TN - 1) / TN;
    if (gx > 0x7fffffff || gy > 65535)
        return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED,
                           "dense_transpose_to_row_major: %lld x %lld is too large",
                           (long long)rows, (long long)n);
    dense_transpose_kernel<TN><<<dim3((unsigned)gx, (unsigned)gy), THREADS, 0, stream>>>(
        dS, lds, rows, n, dT, ldt);
    return TCSPMM_CUDA(cudaGetLastError());
}

extern "C" tcspmm_status dense_transpose_to_row_major(const float *dS, int64_t lds,
                                                      int64_t rows, int64_t n, float *dT,
                                                      int64_t ldt, void *stream)
{
    if (rows == 0 || n == 0) return TCSPMM_SUCCESS;
    cudaStream_t s = (cudaStream_t)stream;
    if (n <= 8) return launch<8>(dS, lds, rows, n, dT, ldt, s);
    if (n <= 16) return launch<16>(dS, lds, rows, n, dT, ldt, s);
    return launch<32>(dS, lds, rows, n, dT, ldt, s);
}
