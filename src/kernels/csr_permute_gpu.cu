/* csr_permute_gpu.cu: a device CSR with its rows reordered (csr_gpu.h), for
 * the HRPB build of a clustered row order (src/format/row_order.h).
 *
 * row_length: thread i writes the length of row order[i] of A.
 * copy_rows: warp w owns chunk w of the result's entries (csr_chunks.h) and
 * copies their column indices and values, lane by lane, from the rows
 * order[i] of A of the rows i it meets. */
#include <cuda_runtime.h>

#include "../csr_gpu.h"
#include "../device_copy.h"
#include "../error.h"
#include "csr_chunks.h"
#include "device_scan.h"

enum { THREADS = 256 };

__global__ void row_length(const int64_t *__restrict__ row_ptr, const int64_t *__restrict__ order,
                           int64_t rows, int64_t *__restrict__ length)
{
    const int64_t i = (int64_t)blockIdx.x * THREADS + threadIdx.x;
    if (i < rows) length[i] = row_ptr[order[i] + 1] - row_ptr[order[i]];
}

__global__ void copy_rows(const int64_t *__restrict__ row_ptr, const int32_t *__restrict__ col_idx,
                          const float *__restrict__ values, const int64_t *__restrict__ order,
                          int64_t rows, int64_t nnz, const int64_t *__restrict__ out_ptr,
                          int32_t *__restrict__ out_col, float *__restrict__ out_val)
{
    csr_warp_walk_own_chunk(out_ptr, rows, nnz, [&](int64_t i, int64_t start, int64_t lo, int64_t hi) {
        const int64_t shift = row_ptr[order[i]] - start; /* A's index of out's entry k: k + shift */
        for (int64_t k = lo + threadIdx.x % 32; k < hi; k += 32) {
            out_col[k] = col_idx[k + shift];
            out_val[k] = values[k + shift];
        }
    });
}

/* out = A's rows in order, given the order on the device. */
static tcspmm_status permute(const csr_gpu *A, const int64_t *d_order, csr_gpu *out,
                             int64_t *length)
{
    const int64_t rows = A->rows;
    TCSPMM_TRY(device_alloc((void **)&out->row_ptr, (size_t)(rows + 1) * sizeof(int64_t)));
    TCSPMM_TRY(device_alloc((void **)&out->col_idx, (size_t)A->nnz * sizeof(int32_t)));
    TCSPMM_TRY(device_alloc((void **)&out->values, (size_t)A->nnz * sizeof(float)));
    TCSPMM_TRY(TCSPMM_CUDA(cudaMemset(length + rows, 0, sizeof(int64_t))));
    if (rows > 0) {
        row_length<<<(unsigned)((rows + THREADS - 1) / THREADS), THREADS>>>(A->row_ptr, d_order,
                                                                             rows, length);
        TCSPMM_TRY(TCSPMM_CUDA(cudaGetLastError()));
    }
    TCSPMM_TRY(device_exclusive_sum_i64(length, out->row_ptr, rows + 1));
    if (A->nnz > 0) {
        copy_rows<<<csr_chunk_blocks(A->nnz), CSR_CHUNK_THREADS>>>(
            A->row_ptr, A->col_idx, A->values, d_order, rows, A->nnz, out->row_ptr, out->col_idx,
            out->values);
        TCSPMM_TRY(TCSPMM_CUDA(cudaGetLastError()));
    }
    return TCSPMM_CUDA(cudaDeviceSynchronize());
}

extern "C" tcspmm_status csr_gpu_permute_rows(const csr_gpu *A, const int64_t *d_order,
                                              csr_gpu *out)
{
    memset(out, 0, sizeof *out);
    if (!A || !d_order || !csr_gpu_fits(A->rows, A->nnz))
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "csr_gpu_permute_rows: null argument or sizes past 2^31 - 1");
    out->rows = A->rows;
    out->cols = A->cols;
    out->nnz = A->nnz;
    int64_t *length = NULL;
    tcspmm_status st = device_alloc((void **)&length, (size_t)(A->rows + 1) * sizeof(int64_t));
    if (!st) st = permute(A, d_order, out, length);
    cudaFree(length);
    if (st) csr_gpu_free(out);
    return st;
}
