/* call_scope.c: call_scope_enter, call_scope_leave,
 * call_scope_check_pending and call_scope_open (call_scope.h). */
#include "call_scope.h"

cudaError_t call_scope_enter(call_scope *s, int device)
{
    s->restore_device = s->restore_mode = 0;
    cudaError_t e = cudaGetDevice(&s->caller_device);
    if (e == cudaSuccess && device != s->caller_device) {
        if (device >= 0) e = cudaSetDevice(device);
        s->restore_device = e == cudaSuccess;
    }
    if (e == cudaSuccess) {
        s->caller_mode = cudaStreamCaptureModeRelaxed;
        e = cudaThreadExchangeStreamCaptureMode(&s->caller_mode);
        s->restore_mode = e == cudaSuccess;
    }
    if (e != cudaSuccess) {
        call_scope_leave(s);
        cudaGetLastError();
    }
    return e;
}

/* Gives back what enter changed. Both calls succeeded with these arguments
 * when enter made them; a failure now is cleared, not left to the caller. */
void call_scope_leave(const call_scope *s)
{
    enum cudaStreamCaptureMode mode = s->caller_mode;
    if (s->restore_mode && cudaThreadExchangeStreamCaptureMode(&mode) != cudaSuccess)
        cudaGetLastError();
    if (s->restore_device && cudaSetDevice(s->caller_device) != cudaSuccess) cudaGetLastError();
}

tcspmm_status call_scope_check_pending(const char *fn)
{
    const cudaError_t e = cudaPeekAtLastError();
    if (e == cudaSuccess) return TCSPMM_SUCCESS;
    return tcspmm_fail(TCSPMM_ERROR_CUDA,
                       "%s: a CUDA error from before this call was pending: %s (%s); nothing "
                       "was done and the error is left for the caller (cudaGetLastError)",
                       fn, cudaGetErrorString(e), cudaGetErrorName(e));
}

tcspmm_status call_scope_open(call_scope *s, int device, const char *fn)
{
    TCSPMM_TRY(call_scope_check_pending(fn));
    return TCSPMM_CUDA(call_scope_enter(s, device));
}
