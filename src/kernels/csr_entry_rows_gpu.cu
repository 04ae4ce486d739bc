/* csr_entry_rows_gpu.cu: csr_gpu_entry_rows, the row of every entry of a
 * device CSR, which the device builders that work per entry need (HRPB's
 * build, A^T's sort).
 *
 * entry_rows: warp w owns chunk w of the entries (csr_chunks.h) and writes
 * each entry's row, lane l the entries l, l + 32, ... of each of its rows. */
#include <cuda_runtime.h>

#include "../csr_gpu.h"
#include "../error.h"
#include "csr_chunks.h"

__global__ static void entry_rows(const int64_t *__restrict__ row_ptr, int64_t rows, int64_t nnz,
                                  int32_t *__restrict__ row_of)
{
    csr_warp_walk_own_chunk(row_ptr, rows, nnz, [&](int64_t i, int64_t, int64_t lo, int64_t hi) {
        for (int64_t k = lo + threadIdx.x % 32; k < hi; k += 32) row_of[k] = (int32_t)i;
    });
}

extern "C" tcspmm_status csr_gpu_entry_rows(const int64_t *row_ptr, int64_t rows, int64_t nnz,
                                            int32_t *row_of)
{
    if (nnz == 0) return TCSPMM_SUCCESS;
    entry_rows<<<csr_chunk_blocks(nnz), CSR_CHUNK_THREADS>>>(row_ptr, rows, nnz, row_of);
    return TCSPMM_CUDA(cudaGetLastError());
}
