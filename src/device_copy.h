/* device_copy.h: the allocate and allocate-and-copy steps every upload shares,
 * the pool that per-call scratch comes from, and the check that a caller's
 * pointer is device memory. */
#ifndef TCSPMM_DEVICE_COPY_H
#define TCSPMM_DEVICE_COPY_H

#include <cuda_runtime.h>

#include "tcspmm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* *p = bytes bytes of fresh device memory; NULL, with nothing allocated,
 * when bytes is 0. */
tcspmm_status device_alloc(void **p, size_t bytes);

/* *p = device scratch of bytes bytes for a CUB call, one byte at least: a
 * CUB call given NULL answers its size query again instead of running. */
tcspmm_status device_alloc_cub_temp(void **p, size_t bytes);

/* A stream-ordered memory pool on the current device that keeps the memory
 * it has held, or NULL where the device has no such pools or none can be
 * made (no error is left pending). The device's default pool hands unused
 * memory back to the driver at every synchronization (release threshold 0),
 * and mapping a B-sized scratch again made column-major HRPB products that
 * synchronize between calls up to 2.9x slower on an H100
 * (bench/results/colmajor-2026-11-26/). */
cudaMemPool_t device_keeping_pool(void);

/* *dst = a fresh device copy of bytes bytes of src (host or device memory,
 * as kind says); NULL, with nothing allocated, when bytes is 0. */
tcspmm_status device_copy_in(void **dst, const void *src, size_t bytes, enum cudaMemcpyKind kind);

/* *on_device = whether p is device (or managed) memory; *page_locked
 * (where not NULL) = whether it is page-locked host memory (cudaMallocHost,
 * cudaHostRegister). Memory of a device other than the current one is
 * refused, naming what: the call's kernels would fault on it (without peer
 * access) and poison the whole CUDA context. */
tcspmm_status is_device_memory(const void *p, const char *what, int *on_device, int *page_locked);

/* Refuses host pointers where device memory is needed (a kernel reading
 * them would fault and poison the whole CUDA context): "<what> is not
 * device memory (<instead>)"; and another device's, as above. */
tcspmm_status check_device_pointer(const void *p, const char *what, const char *instead);

/* Refuses device memory where the host reads or writes it (a host access
 * would crash): "<what> is device memory (<instead>)". Host, pinned and
 * managed memory pass. */
tcspmm_status check_host_pointer(const void *p, const char *what, const char *instead);

#ifdef __cplusplus
}
#endif

#endif
