/* device_scan.cu: device_exclusive_sum_i32 and _i64 (device_scan.h): CUB's
 * scan with its temporary storage allocated and freed per call. */
#include <cub/device/device_scan.cuh>

#include "../device_copy.h"
#include "../error.h"
#include "device_scan.h"

template <typename T>
static tcspmm_status exclusive_sum(const T *in, T *out, int64_t count)
{
    size_t need = 0;
    void *temp = NULL;
    TCSPMM_TRY(TCSPMM_CUDA(cub::DeviceScan::ExclusiveSum(NULL, need, in, out, count)));
    TCSPMM_TRY(device_alloc_cub_temp(&temp, need));
    tcspmm_status st = TCSPMM_CUDA(cub::DeviceScan::ExclusiveSum(temp, need, in, out, count));
    if (!st) st = TCSPMM_CUDA(cudaGetLastError());
    cudaFree(temp);
    return st;
}

extern "C" tcspmm_status device_exclusive_sum_i32(const int32_t *in, int32_t *out, int64_t count)
{
    return exclusive_sum(in, out, count);
}

extern "C" tcspmm_status device_exclusive_sum_i64(const int64_t *in, int64_t *out, int64_t count)
{
    return exclusive_sum(in, out, count);
}
