/* error.h: the thread-local error message and the helpers that set it.
 * Every failing path calls tcspmm_fail (or a CUDA/cuSPARSE wrapper below),
 * which records "what failed and where" and returns the status to pass up. */
#ifndef TCSPMM_ERROR_H
#define TCSPMM_ERROR_H

#include "tcspmm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Formats the message (printf style), stores it for this thread, returns st. */
tcspmm_status tcspmm_fail(tcspmm_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Clears this thread's message; called at the start of every public call. */
void tcspmm_clear_error(void);

/* Maps a CUDA runtime error code (an int, so C files need no CUDA header)
 * to a status and records "<what> at <file>:<line>: <cuda message>".
 * Returns TCSPMM_SUCCESS when code is 0. */
tcspmm_status tcspmm_cuda_status(int code, const char *what, const char *file, int line);

/* The same for a cusparseStatus_t. */
tcspmm_status tcspmm_cusparse_status(int code, const char *what, const char *file, int line);

#define TCSPMM_CUDA(call) tcspmm_cuda_status((int)(call), #call, __FILE__, __LINE__)
#define TCSPMM_CUSPARSE(call) tcspmm_cusparse_status((int)(call), #call, __FILE__, __LINE__)

/* A CUDA call made after a step whose status is st (a variable): its
 * failure is reported only where st is success, so that the first error's
 * message stays. The status to go on with. */
#define TCSPMM_CUDA_AFTER(st, call) ((st) ? ((void)(call), (st)) : TCSPMM_CUDA(call))

/* Evaluates a status expression and returns from the caller if it failed. */
#define TCSPMM_TRY(expr)                                                        \
    do {                                                                       \
        tcspmm_status try_st_ = (expr);                                        \
        if (try_st_ != TCSPMM_SUCCESS) return try_st_;                         \
    } while (0)

#ifdef __cplusplus
}
#endif

#endif
