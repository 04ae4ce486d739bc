/* csr_gpu.c: upload, device copy, download and freeing of a device CSR
 * (csr_gpu.h), the checks of a caller's device CSR, and
 * tcspmm_csr_free_device.
 *
 * Large arrays go up through two small pinned staging buffers: all host
 * threads copy a piece into one while the copy engine sends the other. On
 * the lent H100's host a plain cudaMemcpy from pageable memory ran at 7-10
 * GB/s, this at about 16 GB/s (pinning included); pinning costs about 0.5 ms
 * per MB, and 4 or 8 MB buffers were no faster (bench/NOTES.md), hence 2 MB
 * buffers, and below 16 MB the plain copy (csr_gpu_upload_staged). */
#include "csr_gpu.h"

#include "device_copy.h"
#include "error.h"
#include "format/csr.h"

#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

enum { STAGE_BYTES = 2 << 20, PIECE = 64 << 10 };

typedef struct stager {
    void *buf[2];
    cudaEvent_t sent[2]; /* buf[i] may be refilled once sent[i] has passed */
    cudaStream_t stream;
    int next;
} stager;

static tcspmm_status stager_open(stager *s)
{
    memset(s, 0, sizeof *s);
    TCSPMM_TRY(TCSPMM_CUDA(cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking)));
    for (int i = 0; i < 2; i++) {
        TCSPMM_TRY(TCSPMM_CUDA(cudaMallocHost(&s->buf[i], STAGE_BYTES)));
        TCSPMM_TRY(TCSPMM_CUDA(cudaEventCreateWithFlags(&s->sent[i], cudaEventDisableTiming)));
    }
    return TCSPMM_SUCCESS;
}

/* Waits for the last copy and frees; returns the first error. */
static tcspmm_status stager_close(stager *s)
{
    tcspmm_status st = s->stream ? TCSPMM_CUDA(cudaStreamSynchronize(s->stream)) : TCSPMM_SUCCESS;
    for (int i = 0; i < 2; i++) {
        if (s->sent[i]) cudaEventDestroy(s->sent[i]);
        cudaFreeHost(s->buf[i]);
    }
    if (s->stream) cudaStreamDestroy(s->stream);
    return st;
}

static tcspmm_status stager_send(stager *s, void *dst, const void *src, size_t bytes)
{
    for (size_t off = 0; off < bytes; off += STAGE_BYTES) {
        const size_t len = bytes - off < STAGE_BYTES ? bytes - off : STAGE_BYTES;
        const int i = s->next;
        s->next ^= 1;
        TCSPMM_TRY(TCSPMM_CUDA(cudaEventSynchronize(s->sent[i])));
        char *stage = s->buf[i];
        const char *from = (const char *)src + off;
        const int64_t pieces = (int64_t)((len + PIECE - 1) / PIECE);
#pragma omp parallel for schedule(static)
        for (int64_t p = 0; p < pieces; p++) {
            size_t at = (size_t)p * PIECE;
            memcpy(stage + at, from + at, len - at < PIECE ? len - at : PIECE);
        }
        TCSPMM_TRY(TCSPMM_CUDA(cudaMemcpyAsync((char *)dst + off, stage, len,
                                               cudaMemcpyHostToDevice, s->stream)));
        TCSPMM_TRY(TCSPMM_CUDA(cudaEventRecord(s->sent[i], s->stream)));
    }
    return TCSPMM_SUCCESS;
}

/* *dst = a device copy of bytes bytes of src (host memory when staged
 * through an open s, else of the given kind). */
static tcspmm_status copy_in(stager *s, void **dst, const void *src, size_t bytes,
                             enum cudaMemcpyKind kind)
{
    if (!s->stream || bytes == 0) return device_copy_in(dst, src, bytes, kind);
    TCSPMM_TRY(TCSPMM_CUDA(cudaMalloc(dst, bytes)));
    return stager_send(s, *dst, src, bytes);
}

static tcspmm_status copy_arrays(const tcspmm_csr *A, stager *s, enum cudaMemcpyKind kind,
                                 csr_gpu *out)
{
    memset(out, 0, sizeof *out);
    out->rows = A->rows;
    out->cols = A->cols;
    out->nnz = A->nnz;
    const size_t entry_bytes = (size_t)A->nnz * sizeof(int32_t); /* as sizeof(float) */
    tcspmm_status st = copy_in(s, (void **)&out->row_ptr, A->row_ptr,
                               ((size_t)A->rows + 1) * sizeof(int64_t), kind);
    if (!st) st = copy_in(s, (void **)&out->col_idx, A->col_idx, entry_bytes, kind);
    if (!st && A->values) /* a pattern has none */
        st = copy_in(s, (void **)&out->values, A->values, entry_bytes, kind);
    return st;
}

tcspmm_status csr_gpu_upload(const tcspmm_csr *A, csr_gpu *out)
{
    stager s = {0};
    tcspmm_status st = csr_gpu_upload_staged(A) ? stager_open(&s) : TCSPMM_SUCCESS;
    if (!st) st = copy_arrays(A, &s, cudaMemcpyHostToDevice, out);
    tcspmm_status closed = stager_close(&s);
    if (!st) st = closed;
    if (st) csr_gpu_free(out);
    return st;
}

tcspmm_status csr_gpu_copy(const tcspmm_csr *dA, csr_gpu *out)
{
    stager none = {0};
    tcspmm_status st = copy_arrays(dA, &none, cudaMemcpyDeviceToDevice, out);
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
