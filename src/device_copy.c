/* device_copy.c: device_alloc and device_copy_in (device_copy.h). */
#include "device_copy.h"

#include "error.h"

tcspmm_status device_alloc(void **p, size_t bytes)
{
    *p = NULL;
    return bytes ? TCSPMM_CUDA(cudaMalloc(p, bytes)) : TCSPMM_SUCCESS;
}

tcspmm_status device_copy_in(void **dst, const void *src, size_t bytes, enum cudaMemcpyKind kind)
{
    TCSPMM_TRY(device_alloc(dst, bytes));
    if (bytes == 0) return TCSPMM_SUCCESS;
    return TCSPMM_CUDA(cudaMemcpy(*dst, src, bytes, kind));
}
