/* path_trial.h: the auto path's measured choice. Where the plan-time rule
 * is unsure (auto_path.h), the plan keeps A both as HRPB and as a cuSPARSE
 * CSR, and the first call of each shape (range of N as gpu_timer_n_range
 * has it, layout, beta zero or not) times the two; later calls of that shape
 * take the faster. */
#ifndef TCSPMM_PATH_TRIAL_H
#define TCSPMM_PATH_TRIAL_H

#include "cusparse_path.h"
#include "kernels/hrpb_gpu.h"
#include "tcspmm.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { PATH_TRIAL_SLOTS = 16 };

typedef struct path_trial {
    struct {
        int n_range; /* gpu_timer_n_range */
        int layout, beta_nonzero;
        tcspmm_path path;      /* TCSPMM_PATH_HRPB or TCSPMM_PATH_CUSPARSE */
    } done[PATH_TRIAL_SLOTS];
    int num_done;
} path_trial;

/* The path measured for a call of this shape, or TCSPMM_PATH_AUTO before
 * the shape's first call. */
tcspmm_path path_trial_lookup(const path_trial *t, int64_t n, tcspmm_layout layout, float beta);

/* The path for this call: looked up, or, on the first call of its shape,
 * measured. The measurement runs on the call's alpha, beta and B into a
 * scratch C (a copy of dC when beta != 0; the caller's C is not touched):
 * cuSPARSE's algorithms and the HRPB kernel raced (gpu_timer_race:
 * interleaved, L2 flushed, the median of GPU_TIMER_CHOICE_RUNS each), the
 * cuSPARSE path keeping its algorithms' times as its own tuning; HRPB wins
 * if it beat the algorithm the call would run. It synchronizes stream.
 * rows: A's. */
tcspmm_status path_trial_pick(path_trial *t, const hrpb_gpu *hrpb, cusparse_path *cusparse,
                              int64_t rows, int64_t n, float alpha, const float *dB, int64_t ldb,
                              float beta, const float *dC, int64_t ldc, tcspmm_layout layout,
                              void *stream, tcspmm_path *path);

#ifdef __cplusplus
}
#endif

#endif
