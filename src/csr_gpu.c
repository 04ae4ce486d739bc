/* csr_gpu.c: upload, device copy, download and freeing of a device CSR
 * (csr_gpu.h), the checks of a caller's device CSR, and
 * tcspmm_csr_free_device.
 *
 * Large arrays go up through three staging buffers that the host's threads
 * fill in turn while the copy engine sends the others. The buffers are
 * ordinary memory on huge pages, page-locked with cudaHostRegister for the
 * one upload: on the lent H200's host that cost 0.13-0.3 ms per MB, where
 * cudaMallocHost cost 0.5-0.6; and larger buffers send faster (2, 4, 8 MB:
 * 24, 31-33, 45 GB/s), so a larger upload gets larger ones
 * (csr_gpu_stage_bytes; bench/results/upload-stages-h200-2026-11-29/).
 * Below 16 MB, or on a device that cannot page-lock such memory, a plain
 * cudaMemcpy (csr_gpu_upload_staged). */
#include "csr_gpu.h"

#include "device_copy.h"
#include "error.h"
#include "format/csr.h"

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { STAGES = 3, PIECE = 64 << 10 };

typedef struct stager {
    char *area;                /* STAGES buffers of stage_bytes, page-locked */
    size_t stage_bytes;
    cudaEvent_t sent[STAGES];  /* buffer i may be refilled once sent[i] has passed */
    cudaStream_t stream;
    int next, registered;
} stager;

size_t csr_gpu_stage_bytes(size_t upload_bytes)
{
    const size_t MB = (size_t)1 << 20;
    return upload_bytes < 128 * MB ? 2 * MB : upload_bytes < 256 * MB ? 4 * MB : 8 * MB;
}

static tcspmm_status stager_open(stager *s, size_t upload_bytes)
{
    memset(s, 0, sizeof *s);
    s->stage_bytes = csr_gpu_stage_bytes(upload_bytes);
    TCSPMM_TRY(TCSPMM_CUDA(cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking)));
    for (int i = 0; i < STAGES; i++)
        TCSPMM_TRY(TCSPMM_CUDA(cudaEventCreateWithFlags(&s->sent[i], cudaEventDisableTiming)));
    s->area = large_alloc(STAGES * s->stage_bytes);
    if (!s->area)
        return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "upload: cannot allocate %zu MB of staging",
                           STAGES * s->stage_bytes >> 20);
    TCSPMM_TRY(TCSPMM_CUDA(cudaHostRegister(s->area, STAGES * s->stage_bytes, cudaHostRegisterDefault)));
    s->registered = 1;
    return TCSPMM_SUCCESS;
}

/* Waits for the last copy and frees; returns the first error. */
static tcspmm_status stager_close(stager *s)
{
    tcspmm_status st = s->stream ? TCSPMM_CUDA(cudaStreamSynchronize(s->stream)) : TCSPMM_SUCCESS;
    for (int i = 0; i < STAGES; i++)
        if (s->sent[i]) cudaEventDestroy(s->sent[i]);
    if (s->registered) cudaHostUnregister(s->area);
    free(s->area);
    if (s->stream) cudaStreamDestroy(s->stream);
    return st;
}

static tcspmm_status stager_send(stager *s, void *dst, const void *src, size_t bytes)
{
    for (size_t off = 0; off < bytes; off += s->stage_bytes) {
        const size_t len = bytes - off < s->stage_bytes ? bytes - off : s->stage_bytes;
        const int i = s->next;
        s->next = (s->next + 1) % STAGES;
        TCSPMM_TRY(TCSPMM_CUDA(cudaEventSynchronize(s->sent[i])));
        char *stage = s->area + (size_t)i * s->stage_bytes;
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

/* Whether the current device can page-lock ordinary host memory (where it
 * cannot, large arrays go by plain copies too). */
static int host_register_supported(void)
{
    int dev, supported = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&supported, cudaDevAttrHostRegisterSupported, dev) != cudaSuccess)
        cudaGetLastError();
    return supported;
}

tcspmm_status csr_gpu_upload(const tcspmm_csr *A, csr_gpu *out)
{
    stager s = {0};
    const int staged = csr_gpu_upload_staged(A) && host_register_supported();
    tcspmm_status st = staged ? stager_open(&s, csr_gpu_upload_bytes(A)) : TCSPMM_SUCCESS;
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
