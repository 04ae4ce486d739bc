/* device_scope.c: device_scope_enter and device_scope_leave (device_scope.h). */
#include "device_scope.h"

#include <cuda_runtime.h>

#include "error.h"

tcspmm_status device_scope_enter(device_scope *s, int device)
{
    s->changed = 0;
    TCSPMM_TRY(TCSPMM_CUDA(cudaGetDevice(&s->caller)));
    if (s->caller == device) return TCSPMM_SUCCESS;
    TCSPMM_TRY(TCSPMM_CUDA(cudaSetDevice(device)));
    s->changed = 1;
    return TCSPMM_SUCCESS;
}

void device_scope_leave(const device_scope *s)
{
    if (s->changed && cudaSetDevice(s->caller) != cudaSuccess) cudaGetLastError();
}
