/* csr_gpu.c: upload, device copy, download and freeing of a device CSR
 * (csr_gpu.h), the checks of a caller's device CSR, and
 * tcspmm_csr_free_device. */
#include "csr_gpu.h"

#include "device_copy.h"
#include "error.h"
#include "format/csr.h"
#include "host_upload.h"

#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

/* *dst = a device copy of bytes bytes of src: host memory through u, or
 * device memory where u is NULL. */
static tcspmm_status copy_in(host_upload *u, void **dst, const void *src, size_t bytes)
{
    return u ? host_upload_copy(u, dst, src, bytes)
             : device_copy_in(dst, src, bytes, cudaMemcpyDeviceToDevice);
}

static tcspmm_status copy_arrays(const tcspmm_csr *A, host_upload *u, csr_gpu *out)
{
    memset(out, 0, sizeof *out);
    out->rows = A->rows;
    out->cols = A->cols;
    out->nnz = A->nnz;
    const size_t entry_bytes = (size_t)A->nnz * sizeof(int32_t); /* as sizeof(float) */
    tcspmm_status st = copy_in(u, (void **)&out->row_ptr, A->row_ptr,
                               ((size_t)A->rows + 1) * sizeof(int64_t));
    if (!st) st = copy_in(u, (void **)&out->col_idx, A->col_idx, entry_bytes);
    if (!st && A->values) /* a pattern has none */
        st = copy_in(u, (void **)&out->values, A->values, entry_bytes);
    return st;
}

tcspmm_status csr_gpu_upload(const tcspmm_csr *A, csr_gpu *out)
{
    memset(out, 0, sizeof *out);
    host_upload u;
    tcspmm_status st = host_upload_open(&u, csr_gpu_upload_bytes(A));
    if (!st) st = copy_arrays(A, &u, out);
    st = host_upload_close(&u, st);
    if (st) csr_gpu_free(out);
    return st;
}

tcspmm_status csr_gpu_copy(const tcspmm_csr *dA, csr_gpu *out)
{
    tcspmm_status st = copy_arrays(dA, NULL, out);
    if (st) csr_gpu_free(out);
    return st;
}

tcspmm_status csr_gpu_download(const csr_gpu *A, tcspmm_csr *out)
{
    TCSPMM_TRY(csr_alloc(A->rows, A->cols, A->nnz, out));
    tcspmm_status st = TCSPMM_CUDA(cudaMemcpy(out->row_ptr, A->row_ptr,
                                              ((size_t)A->rows + 1) * sizeof(int64_t),
                                              cudaMemcpyDeviceToHost));
    if (!st && A->nnz)
        st = TCSPMM_CUDA(cudaMemcpy(out->col_idx, A->col_idx, (size_t)A->nnz * sizeof(int32_t),
                                    cudaMemcpyDeviceToHost));
    if (!st && A->nnz && A->values) /* a pattern has none: out's are left to fill */
        st = TCSPMM_CUDA(cudaMemcpy(out->values, A->values, (size_t)A->nnz * sizeof(float),
                                    cudaMemcpyDeviceToHost));
    if (st) tcspmm_csr_free(out);
    return st;
}

void csr_gpu_free(csr_gpu *A)
{
    cudaFree(A->row_ptr);
    cudaFree(A->col_idx);
    cudaFree(A->values);
    memset(A, 0, sizeof *A);
}

tcspmm_status csr_gpu_check_caller_sizes(const tcspmm_csr *dA, const char *fn, const char *host_fn)
{
    if (dA->rows < 0 || dA->cols < 0 || dA->nnz < 0 || !dA->row_ptr ||
        (dA->nnz > 0 && (!dA->col_idx || !dA->values)))
        return tcspmm_fail(TCSPMM_ERROR_INVALID_MATRIX, "%s: a negative size or a NULL array", fn);
    if (dA->cols > INT32_MAX)
        return tcspmm_fail(TCSPMM_ERROR_OVERFLOW, "csr: more than 2^31-1 columns");
    if (!csr_gpu_fits(dA->rows, dA->nnz))
        return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED,
                           "%s: %lld rows and %lld entries; device input needs both below 2^31-1 "
                           "(use %s)", fn, (long long)dA->rows, (long long)dA->nnz, host_fn);
    return TCSPMM_SUCCESS;
}

tcspmm_status csr_gpu_check_caller_arrays(const tcspmm_csr *dA, const char *fn, const char *host_fn)
{
    const void *arrays[3] = {dA->row_ptr, dA->col_idx, dA->values};
    const char *names[3] = {"row_ptr", "col_idx", "values"};
    for (int i = 0; i < (dA->nnz > 0 ? 3 : 1); i++) {
        char what[96], instead[96];
        snprintf(what, sizeof what, "%s: %s", fn, names[i]);
        snprintf(instead, sizeof instead, "use %s for host arrays", host_fn);
        TCSPMM_TRY(check_device_pointer(arrays[i], what, instead));
    }
    return TCSPMM_SUCCESS;
}

void tcspmm_csr_free_device(tcspmm_csr *A)
{
    if (!A) return;
    csr_gpu g = {A->rows, A->cols, A->nnz, A->row_ptr, A->col_idx, A->values};
    csr_gpu_free(&g);
    memset(A, 0, sizeof *A);
}
