/* device_copy.c: device_copy_in (device_copy.h). */
#include "device_copy.h"

#include "error.h"

tcspmm_status device_copy_in(void **dst, const void *src, size_t bytes, enum cudaMemcpyKind kind)
{
    *dst = NULL;
    if (bytes == 0) return TCSPMM_SUCCESS;
    TCSPMM_TRY(TCSPMM_CUDA(cudaMalloc(dst, bytes)));
    return TCSPMM_CUDA(cudaMemcpy(*dst, src, bytes, kind));
}
