/* call_scope.c: call_scope_enter and call_scope_leave (call_scope.h). */
#include "call_scope.h"

cudaError_t call_scope_enter(call_scope *s, int device)
{
    s->set_device = s->set_mode = 0;
    cudaError_t e = cudaGetDevice(&s->caller_device);
    if (e == cudaSuccess && device >= 0 && device != s->caller_device) {
        e = cudaSetDevice(device);
        s->set_device = e == cudaSuccess;
    }
    if (e == cudaSuccess) {
        s->caller_mode = cudaStreamCaptureModeRelaxed;
        e = cudaThreadExchangeStreamCaptureMode(&s->caller_mode);
        s->set_mode = e == cudaSuccess;
    }
    if (e != cudaSuccess) {
        call_scope_leave(s);
        cudaGetLastError();
    }
    return e;
}

void call_scope_leave(const call_scope *s)
{
    enum cudaStreamCaptureMode mode = s->caller_mode;
    if (s->set_mode) cudaThreadExchangeStreamCaptureMode(&mode);
    if (s->set_device) cudaSetDevice(s->caller_device);
}
