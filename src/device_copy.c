/* device_copy.c: device_alloc, device_copy_in and check_device_pointer
 * (device_copy.h). */
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

tcspmm_status check_device_pointer(const void *p, const char *what, const char *instead)
{
    struct cudaPointerAttributes attr;
    cudaError_t e = cudaPointerGetAttributes(&attr, p);
    if (e != cudaSuccess) return tcspmm_cuda_status(e, "cudaPointerGetAttributes", __FILE__, __LINE__);
    if (attr.type != cudaMemoryTypeDevice && attr.type != cudaMemoryTypeManaged)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "%s is not device memory (%s)", what,
                           instead);
    return TCSPMM_SUCCESS;
}
