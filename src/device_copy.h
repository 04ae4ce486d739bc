/* device_copy.h: the allocate and allocate-and-copy steps every upload shares. */
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

/* *dst = a fresh device copy of bytes bytes of src (host or device memory,
 * as kind says); NULL, with nothing allocated, when bytes is 0. */
tcspmm_status device_copy_in(void **dst, const void *src, size_t bytes, enum cudaMemcpyKind kind);

#ifdef __cplusplus
}
#endif

#endif
