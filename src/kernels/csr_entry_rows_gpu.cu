/* csr_entry_rows_gpu.cu: csr_gpu_entry_rows, the row of every entry of a
 * device CSR, which the device builders that work per entry need (HRPB's
 * build, A^T's sort).
 *
 * entry_rows: warp w owns row w and writes w for each of its entries, lane l
 * the entries start + l, + 32, ...: coalesced stores, no search. A long row
 * keeps one warp busy for length / 32 stores; the rest run beside it. */
#include <cuda_runtime.h>

#include "../csr_gpu.h"
#include "../error.h"

enum { THREADS = 256, WARPS = THREADS / 32 };

__global__ static void entry_rows(const int64_t *__restrict__ row_ptr, int64_t rows,
                                  int32_t *__restrict__ row_of)
{
    const int64_t i = (int64_t)blockIdx.x * WARPS + threadIdx.x / 32;
    if (i >= rows) return;
    for (int64_t k = row_ptr[i] + threadIdx.x % 32; k < row_ptr[i + 1]; k += 32) row_of[k] = (int32_t)i;
}

extern "C" tcspmm_status csr_gpu_entry_rows(const int64_t *row_ptr, int64_t rows, int32_t *row_of)
{
    if (rows == 0) return TCSPMM_SUCCESS;
    entry_rows<<<(unsigned)((rows + WARPS - 1) / WARPS), THREADS>>>(row_ptr, rows, row_of);
    return TCSPMM_CUDA(cudaGetLastError());
}
