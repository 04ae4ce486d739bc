/* csr_gpu.c: upload and freeing of a device CSR (csr_gpu.h). */
#include "csr_gpu.h"

#include "error.h"

#include <cuda_runtime.h>
#include <string.h>

static tcspmm_status upload(void **dst, const void *src, size_t bytes)
{
    if (bytes == 0) return TCSPMM_SUCCESS;
    TCSPMM_TRY(TCSPMM_CUDA(cudaMalloc(dst, bytes)));
    return TCSPMM_CUDA(cudaMemcpy(*dst, src, bytes, cudaMemcpyHostToDevice));
}

tcspmm_status csr_gpu_upload(const tcspmm_csr *A, csr_gpu *out)
{
    memset(out, 0, sizeof *out);
    out->rows = A->rows;
    out->cols = A->cols;
    out->nnz = A->nnz;
    tcspmm_status st = upload((void **)&out->row_ptr, A->row_ptr,
                              ((size_t)A->rows + 1) * sizeof(int64_t));
    if (!st) st = upload((void **)&out->col_idx, A->col_idx, (size_t)A->nnz * sizeof(int32_t));
    if (!st) st = upload((void **)&out->values, A->values, (size_t)A->nnz * sizeof(float));
    if (st) csr_gpu_free(out);
    return st;
}

void csr_gpu_free(csr_gpu *A)
{
    cudaFree(A->row_ptr);
    cudaFree(A->col_idx);
    cudaFree(A->values);
    memset(A, 0, sizeof *A);
}
