/* device_copy.c: device_alloc, device_alloc_cub_temp, device_keeping_pool,
 * device_copy_in, is_device_memory, check_device_pointer and
 * check_host_pointer (device_copy.h). */
#include "device_copy.h"

#include "error.h"

tcspmm_status device_alloc(void **p, size_t bytes)
{
    *p = NULL;
    return bytes ? TCSPMM_CUDA(cudaMalloc(p, bytes)) : TCSPMM_SUCCESS;
}

tcspmm_status device_alloc_cub_temp(void **p, size_t bytes)
{
    return device_alloc(p, bytes > 0 ? bytes : 1);
}

cudaMemPool_t device_keeping_pool(void)
{
    struct cudaMemPoolProps props = {0};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    int pools = 0;
    cudaMemPool_t pool = NULL;
    uint64_t keep = UINT64_MAX;
    if (cudaGetDevice(&props.location.id) != cudaSuccess ||
        cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, props.location.id) !=
            cudaSuccess ||
        !pools || cudaMemPoolCreate(&pool, &props) != cudaSuccess) {
        cudaGetLastError(); /* the caller goes on without it */
        return NULL;
    }
    if (cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep) != cudaSuccess) {
        cudaGetLastError();
        cudaMemPoolDestroy(pool);
        return NULL;
    }
    return pool;
}

tcspmm_status device_copy_in(void **dst, const void *src, size_t bytes, enum cudaMemcpyKind kind)
{
    TCSPMM_TRY(device_alloc(dst, bytes));
    if (bytes == 0) return TCSPMM_SUCCESS;
    return TCSPMM_CUDA(cudaMemcpy(*dst, src, bytes, kind));
}

tcspmm_status is_device_memory(const void *p, const char *what, int *on_device, int *page_locked)
{
    struct cudaPointerAttributes attr;
    TCSPMM_TRY(TCSPMM_CUDA(cudaPointerGetAttributes(&attr, p)));
    *on_device = attr.type == cudaMemoryTypeDevice || attr.type == cudaMemoryTypeManaged;
    if (page_locked) *page_locked = attr.type == cudaMemoryTypeHost;
    if (attr.type != cudaMemoryTypeDevice) return TCSPMM_SUCCESS;
    int current = 0;
    TCSPMM_TRY(TCSPMM_CUDA(cudaGetDevice(&current)));
    if (attr.device != current)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "%s is memory of device %d, and this call runs on device %d: copy it "
                           "there first", what, attr.device, current);
    return TCSPMM_SUCCESS;
}

tcspmm_status check_device_pointer(const void *p, const char *what, const char *instead)
{
    int on_device = 0;
    TCSPMM_TRY(is_device_memory(p, what, &on_device, NULL));
    if (!on_device)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "%s is not device memory (%s)", what,
                           instead);
    return TCSPMM_SUCCESS;
}

tcspmm_status check_host_pointer(const void *p, const char *what, const char *instead)
{
    struct cudaPointerAttributes attr;
    TCSPMM_TRY(TCSPMM_CUDA(cudaPointerGetAttributes(&attr, p)));
    if (attr.type == cudaMemoryTypeDevice)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "%s is device memory (%s)", what, instead);
    return TCSPMM_SUCCESS;
}
