/* host_upload.c: uploads of host arrays (host_upload.h).
 *
 * A large upload goes through three staging buffers that the host's threads
 * fill in turn while the copy engine sends the others. The buffers are
 * ordinary memory on huge pages (large_alloc), page-locked with
 * cudaHostRegister while the upload is open: on the lent H200's host that cost
 * 0.13-0.3 ms per MB, where cudaMallocHost cost 0.5-0.6; and larger buffers
 * send faster (2, 4, 8 MB: 24, 31-33, 45 GB/s), so a larger upload gets
 * larger ones. A plain cudaMemcpy from pageable memory ran at 5.5-6 GB/s there
 * (bench/results/upload-stages-h200-2026-11-29/); it is what an upload does
 * where the staging cannot be allocated or page-locked. */
#include "host_upload.h"

#include "device_copy.h"
#include "error.h"
#include "format/csr.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { PIECE = 64 << 10 }; /* what one host thread copies at a time */

size_t host_upload_stage_bytes(size_t total_bytes)
{
    const size_t MB = (size_t)1 << 20;
    return total_bytes < 128 * MB ? 2 * MB : total_bytes < 256 * MB ? 4 * MB : 8 * MB;
}

/* Whether the current device can page-lock ordinary host memory. */
static int host_register_supported(void)
{
    int dev, supported = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&supported, cudaDevAttrHostRegisterSupported, dev) != cudaSuccess)
        cudaGetLastError();
    return supported;
}

tcspmm_status host_upload_open(host_upload *u, size_t total_bytes)
{
    memset(u, 0, sizeof *u);
    if (!host_upload_staged(total_bytes) || !host_register_supported()) return TCSPMM_SUCCESS;
    u->stage_bytes = host_upload_stage_bytes(total_bytes);
    const size_t area_bytes = HOST_UPLOAD_STAGES * u->stage_bytes;
    TCSPMM_TRY(TCSPMM_CUDA(cudaStreamCreateWithFlags(&u->stream, cudaStreamNonBlocking)));
    for (int i = 0; i < HOST_UPLOAD_STAGES; i++)
        TCSPMM_TRY(TCSPMM_CUDA(cudaEventCreateWithFlags(&u->sent[i], cudaEventDisableTiming)));
    u->area = large_alloc(area_bytes);
    if (u->area && cudaHostRegister(u->area, area_bytes, cudaHostRegisterDefault) == cudaSuccess)
        return TCSPMM_SUCCESS;
    if (u->area) cudaGetLastError(); /* the registration's error */
    free(u->area); /* staging only speeds the upload up: without it, plain copies */
    u->area = NULL;
    return TCSPMM_SUCCESS;
}

tcspmm_status host_upload_send(host_upload *u, void *dst_bytes, const void *src_bytes, size_t bytes)
{
    if (!u->area) return TCSPMM_CUDA(cudaMemcpy(dst_bytes, src_bytes, bytes, cudaMemcpyHostToDevice));
    char *dst = dst_bytes;
    const char *src = src_bytes;
    for (size_t off = 0; off < bytes; off += u->stage_bytes) {
        const size_t len = bytes - off < u->stage_bytes ? bytes - off : u->stage_bytes;
        const int i = u->next;
        u->next = (u->next + 1) % HOST_UPLOAD_STAGES;
        TCSPMM_TRY(TCSPMM_CUDA(cudaEventSynchronize(u->sent[i])));
        char *stage = u->area + (size_t)i * u->stage_bytes;
        const int64_t pieces = (int64_t)((len + PIECE - 1) / PIECE);
#pragma omp parallel for schedule(static)
        for (int64_t p = 0; p < pieces; p++) {
            const size_t at = (size_t)p * PIECE;
            memcpy(stage + at, src + off + at, len - at < PIECE ? len - at : PIECE);
        }
        TCSPMM_TRY(TCSPMM_CUDA(cudaMemcpyAsync(dst + off, stage, len, cudaMemcpyHostToDevice, u->stream)));
        TCSPMM_TRY(TCSPMM_CUDA(cudaEventRecord(u->sent[i], u->stream)));
    }
    return TCSPMM_SUCCESS;
}

tcspmm_status host_upload_copy(host_upload *u, void **dst, const void *src, size_t bytes)
{
    TCSPMM_TRY(device_alloc(dst, bytes));
    return bytes ? host_upload_send(u, *dst, src, bytes) : TCSPMM_SUCCESS;
}

tcspmm_status host_upload_close(host_upload *u, tcspmm_status st)
{
    if (u->stream) st = TCSPMM_CUDA_AFTER(st, cudaStreamSynchronize(u->stream));
    for (int i = 0; i < HOST_UPLOAD_STAGES; i++)
        if (u->sent[i]) cudaEventDestroy(u->sent[i]);
    if (u->area) st = TCSPMM_CUDA_AFTER(st, cudaHostUnregister(u->area));
    free(u->area);
    if (u->stream) cudaStreamDestroy(u->stream);
    memset(u, 0, sizeof *u);
    return st;
}
