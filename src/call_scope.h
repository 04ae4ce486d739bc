/* call_scope.h: what a public call that works on a plan's GPU keeps for its
 * caller: the current device, which the call sets to the plan's for its
 * work, and the thread's stream-capture mode, which it relaxes so that its
 * allocations and synchronizations outside any capture of its own do not
 * break another thread's global-mode capture; and a CUDA error pending
 * when the call starts, which stays the caller's (src/call_scope.c). */
#ifndef TCSPMM_CALL_SCOPE_H
#define TCSPMM_CALL_SCOPE_H

#include "error.h"

#include <cuda_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct call_scope {
    int caller_device;
    enum cudaStreamCaptureMode caller_mode;
    int restore_device, restore_mode; /* what leave gives back */
} call_scope;

/* Makes device current (device < 0: keeps the current one, which the call
 * may change: leave makes the caller's current again) and this thread's
 * capture mode relaxed, remembering both. A failure is returned as the CUDA
 * error, with nothing changed and no message written. */
cudaError_t call_scope_enter(call_scope *s, int device);

/* Gives back what enter changed. */
void call_scope_leave(const call_scope *s);

/* TCSPMM_ERROR_CUDA, naming it, if this thread's CUDA runtime already holds
 * an error when public call fn starts (one the caller has not read, or a
 * fault of earlier work): fn then does nothing and leaves it there for the
 * caller, since its own launch checks would report it as theirs. (A query
 * that answers cudaErrorNotReady leaves nothing pending: CUDA 13, measured
 * by tests/gpu_pending_error.c.) */
tcspmm_status call_scope_check_pending(const char *fn);

/* How public call fn that works on device starts: call_scope_check_pending,
 * then call_scope_enter, either failure returned as a status with its
 * message (nothing changed then). */
tcspmm_status call_scope_open(call_scope *s, int device, const char *fn);

#ifdef __cplusplus
}
#endif

#endif
