/* dense_transpose.cu: a column-major dense matrix copied to row-major, so
 * that the HRPB kernel can gather whole rows of B with 16-byte loads.
 *
 * Each thread block of 256 threads owns a tile of TN columns (8, 16 or 32:
 * the fewest that cover n, up to 32) by TILE / TN rows, so that every
 * thread moves TILE / 256 elements however narrow B is: eight where such
 * tiles make two or more waves of resident blocks, else four (more blocks
 * to share a small matrix). It reads the tile down the columns (contiguous
 * in the source) into shared memory, then writes it along the rows
 * (contiguous in the destination). Rows of the tile in shared memory are
 * padded by 32 / TN words, so that both phases are free of bank conflicts.
 * The grid is one-dimensional, and consecutive blocks take the column
 * tiles of one range of rows: the parts of a row of the destination are
 * then written close together in time, and its 32-byte sectors are whole
 * in the L2 before they go to DRAM.
 *
 * On an H200, against four elements a thread and a range's column tiles
 * far apart: 2.1x-2.2x as fast at n = 100 on matrices of 0.3-1M rows
 * (rows of 400 bytes, half of them off a sector boundary), 1.08x-1.15x at
 * n = 48, 64 and 128 there; eight elements a thread on B of 0.3-1.3M
 * elements (17-81K rows at n = 16) were 0.90x-0.95x as fast
 * (bench/results/transpose-h200-2026-11-29/). */
#include <cuda_runtime.h>

#include "../error.h"
#include "hrpb_gpu_internal.h"

enum { THREADS = 256, BLOCKS_PER_SM = 8 };

template <int TN, int TILE>
__global__ void __launch_bounds__(THREADS, BLOCKS_PER_SM)
dense_transpose_kernel(const float *__restrict__ S, int64_t lds, int64_t rows, int64_t n,
                       float *__restrict__ T, int64_t ldt, unsigned col_tiles)
{
    constexpr int TR = TILE / TN, PAD = 32 / TN, PASSES = TILE / THREADS;
    static_assert(TR % 32 == 0 && TR <= THREADS && THREADS % TR == 0 && TILE % THREADS == 0,
                  "each warp reads 32 rows of one column; each thread the same columns");
    __shared__ float tile[TN][TR + PAD];
    /* one column tile where n <= 32: no division (with it, column-major
     * products of small matrices at n = 8-32 ran 0.98x-1.00x as fast as
     * before, without it 1.00x) */
    const unsigned row_tile = col_tiles == 1 ? blockIdx.x : blockIdx.x / col_tiles;
    const int64_t i0 = (int64_t)row_tile * TR,
                  j0 = (int64_t)(blockIdx.x - row_tile * col_tiles) * TN;
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

/* The thread blocks of tiles of TILE elements over rows x n. */
template <int TN, int TILE> static int64_t tiles(int64_t rows, int64_t n)
{
    return (rows + TILE / TN - 1) / (TILE / TN) * ((n + TN - 1) / TN);
}

/* blocks: tiles<TN, TILE>(rows, n) */
template <int TN, int TILE>
static tcspmm_status launch(const float *dS, int64_t lds, int64_t rows, int64_t n, float *dT,
                            int64_t ldt, int64_t blocks, cudaStream_t stream)
{
    if (blocks > 0x7fffffff)
        return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED,
                           "dense_transpose_to_row_major: %lld x %lld is too large",
                           (long long)rows, (long long)n);
    dense_transpose_kernel<TN, TILE><<<(unsigned)blocks, THREADS, 0, stream>>>(
        dS, lds, rows, n, dT, ldt, (unsigned)((n + TN - 1) / TN));
    return TCSPMM_CUDA(cudaGetLastError());
}

/* Tiles of eight elements a thread where they make two or more waves of
 * resident blocks, else of four. */
template <int TN>
static tcspmm_status launch_tn(const float *dS, int64_t lds, int64_t rows, int64_t n, float *dT,
                               int64_t ldt, int num_sms, cudaStream_t stream)
{
    const int64_t eights = tiles<TN, 8 * THREADS>(rows, n);
    if (eights >= 2 * (int64_t)num_sms * BLOCKS_PER_SM)
        return launch<TN, 8 * THREADS>(dS, lds, rows, n, dT, ldt, eights, stream);
    return launch<TN, 4 * THREADS>(dS, lds, rows, n, dT, ldt, tiles<TN, 4 * THREADS>(rows, n),
                                   stream);
}

extern "C" tcspmm_status dense_transpose_to_row_major(const float *dS, int64_t lds,
                                                      int64_t rows, int64_t n, float *dT,
                                                      int64_t ldt, int num_sms, void *stream)
{
    if (rows == 0 || n == 0) return TCSPMM_SUCCESS;
    cudaStream_t s = (cudaStream_t)stream;
    if (n <= 8) return launch_tn<8>(dS, lds, rows, n, dT, ldt, num_sms, s);
    if (n <= 16) return launch_tn<16>(dS, lds, rows, n, dT, ldt, num_sms, s);
    return launch_tn<32>(dS, lds, rows, n, dT, ldt, num_sms, s);
}
