/* host_upload.h: copies of host arrays into device memory, the large ones
 * through page-locked staging buffers (host_upload.c). An upload may hold
 * several arrays: open it with their total size, copy (into fresh device
 * memory) or send (into existing) each, close. It may also stay open for
 * later copies, keeping its buffers locked, as a plan does for new values. */
#ifndef TCSPMM_HOST_UPLOAD_H
#define TCSPMM_HOST_UPLOAD_H

#include <cuda_runtime.h>
#include <stddef.h>

#include "tcspmm.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { HOST_UPLOAD_STAGES = 3 };

typedef struct host_upload {
    char *area;          /* HOST_UPLOAD_STAGES buffers of stage_bytes, page-locked; NULL: not staged */
    size_t stage_bytes;
    cudaEvent_t sent[HOST_UPLOAD_STAGES]; /* buffer i may be refilled once sent[i] has passed */
    cudaStream_t stream;
    int next;
} host_upload;

/* Whether an upload of total_bytes is staged (where the device can
 * page-lock ordinary memory): from 8 MB; smaller ones go by plain copies.
 * On the lent H200's host a plain copy ran at 5.5-6 GB/s and a staged one
 * cost about 1 ms (page-locking the three 2 MB buffers) plus 24 GB/s, which
 * pays from about 7 MB (host_upload.c). */
static inline int host_upload_staged(size_t total_bytes)
{
    return total_bytes >= ((size_t)8 << 20);
}

/* The size of each staging buffer of a staged upload of total_bytes: 2 MB
 * below 128 MB, 4 MB below 256 MB, else 8 MB. */
size_t host_upload_stage_bytes(size_t total_bytes);

/* Starts an upload of about total_bytes on the current device (staged
 * where host_upload_staged says so and the staging can be set up). */
tcspmm_status host_upload_open(host_upload *u, size_t total_bytes);

/* *dst = a fresh device copy of bytes bytes of the host array src; NULL,
 * with nothing allocated, when bytes is 0. The copy may still be in flight
 * until host_upload_close. */
tcspmm_status host_upload_copy(host_upload *u, void **dst, const void *src, size_t bytes);

/* Sends bytes bytes of the host array src into the device memory dst:
 * through the staging buffers, the copy in flight on u->stream until close
 * (or a synchronization of u->stream), where u is staged (u->area set);
 * else by a plain copy, done when this returns. */
tcspmm_status host_upload_send(host_upload *u, void *dst, const void *src, size_t bytes);

/* Waits for the copies and frees the staging (also of an upload whose
 * opening failed, or a zeroed one); returns st, the caller's status so
 * far, where that is an error (keeping its message), else the wait's. */
tcspmm_status host_upload_close(host_upload *u, tcspmm_status st);

#ifdef __cplusplus
}
#endif

#endif
