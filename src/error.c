/* error.c: status names and the thread-local "what went wrong and where". */
#include "error.h"

#include <cuda_runtime.h>
#include <cusparse.h>
#include <stdarg.h>
#include <stdio.h>

static _Thread_local char last_error[1024];

const char *tcspmm_last_error(void) { return last_error; }

void tcspmm_clear_error(void) { last_error[0] = '\0'; }

tcspmm_status tcspmm_fail(tcspmm_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return st;
}

const char *tcspmm_status_string(tcspmm_status status)
{
    switch (status) {
    case TCSPMM_SUCCESS: return "TCSPMM_SUCCESS";
    case TCSPMM_ERROR_INVALID_ARGUMENT: return "TCSPMM_ERROR_INVALID_ARGUMENT";
    case TCSPMM_ERROR_INVALID_MATRIX: return "TCSPMM_ERROR_INVALID_MATRIX";
    case TCSPMM_ERROR_IO: return "TCSPMM_ERROR_IO";
    case TCSPMM_ERROR_PARSE: return "TCSPMM_ERROR_PARSE";
    case TCSPMM_ERROR_UNSUPPORTED: return "TCSPMM_ERROR_UNSUPPORTED";
    case TCSPMM_ERROR_OVERFLOW: return "TCSPMM_ERROR_OVERFLOW";
    case TCSPMM_ERROR_HOST_OUT_OF_MEMORY: return "TCSPMM_ERROR_HOST_OUT_OF_MEMORY";
    case TCSPMM_ERROR_NO_DEVICE: return "TCSPMM_ERROR_NO_DEVICE";
    case TCSPMM_ERROR_DEVICE_OUT_OF_MEMORY: return "TCSPMM_ERROR_DEVICE_OUT_OF_MEMORY";
    case TCSPMM_ERROR_CUDA: return "TCSPMM_ERROR_CUDA";
    case TCSPMM_ERROR_CUSPARSE: return "TCSPMM_ERROR_CUSPARSE";
    }
    return "TCSPMM_ERROR_UNKNOWN";
}

tcspmm_status tcspmm_cuda_status(int code, const char *what, const char *file, int line)
{
    if (code == cudaSuccess) return TCSPMM_SUCCESS;
    cudaError_t e = (cudaError_t)code;
    /* Reported now: a later launch check must not find it again (errors
     * that are not sticky, such as a failed allocation, stay in the
     * runtime's last-error slot until read). */
    cudaGetLastError();
    tcspmm_status st = TCSPMM_ERROR_CUDA;
    if (e == cudaErrorMemoryAllocation) st = TCSPMM_ERROR_DEVICE_OUT_OF_MEMORY;
    if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver ||
        e == cudaErrorDevicesUnavailable)
        st = TCSPMM_ERROR_NO_DEVICE;
    return tcspmm_fail(st, "%s failed at %s:%d: %s (%s)", what, file, line,
                       cudaGetErrorString(e), cudaGetErrorName(e));
}

tcspmm_status tcspmm_cusparse_status(int code, const char *what, const char *file, int line)
{
    if (code == CUSPARSE_STATUS_SUCCESS) return TCSPMM_SUCCESS;
    cusparseStatus_t s = (cusparseStatus_t)code;
    tcspmm_status st = s == CUSPARSE_STATUS_ALLOC_FAILED ? TCSPMM_ERROR_DEVICE_OUT_OF_MEMORY
                                                         : TCSPMM_ERROR_CUSPARSE;
    return tcspmm_fail(st, "%s failed at %s:%d: %s (%s)", what, file, line,
                       cusparseGetErrorString(s), cusparseGetErrorName(s));
}
