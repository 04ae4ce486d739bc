/* path_trial.h: the auto path's measured choice. Where the plan-time rule
 * is unsure (auto_path.h), the plan keeps A both as HRPB and as a cuSPARSE
 * CSR and times the two per shape of call (range of N as gpu_timer_n_range
 * has it, layout, beta zero or not); later calls of that shape take the
 * faster.
 *
 * When: measuring costs about PATH_TRIAL_COST_MS plus some thirty products
 * (mostly CUDA loading cuSPARSE's kernels on their first use), more than a
 * short solve spends in all its products. So, as in renting skis before
 * buying, a shape's calls first run HRPB, whose kernels are loaded already,
 * and the shape is measured once those calls have cost about what measuring
 * would (path_trial_due): a short solve never pays for it, a long one pays
 * at most about twice. The cost of a call comes from timing the shape's
 * second call with two events, read on a later call without waiting. A
 * plan made with measure_at_first_call measures at the shape's first call
 * instead. */
#ifndef TCSPMM_PATH_TRIAL_H
#define TCSPMM_PATH_TRIAL_H

#include "cusparse_path.h"
#include "gpu_timer.h"
#include "kernels/hrpb_gpu.h"
#include "tcspmm.h"

#include <cuda_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What measuring costs beyond its products (on an H200
 * a plan's first measurement took 47-75 ms in all, 40 of them loading
 * cuSPARSE's kernels: bench/results/auto-measured-2026-11-26/); and the
 * products one measurement runs (4 candidates, 1 + GPU_TIMER_CHOICE_RUNS
 * rounds). */
enum {
    PATH_TRIAL_COST_MS = 50,
    PATH_TRIAL_PRODUCTS = (CUSPARSE_PATH_NUM_ALGS + 1) * (1 + GPU_TIMER_CHOICE_RUNS)
};

typedef struct path_trial_shape {
    tcspmm_path path;        /* measured: HRPB or CUSPARSE; AUTO until then */
    tcspmm_path path_no_alg3; /* the same, for calls cuSPARSE runs without CSR_ALG3 */
    int64_t calls;           /* calls run on HRPB until then */
    float call_ms;           /* the second of them, timed; < 0 until read */
    cudaEvent_t start, stop; /* around the second call, until read */
} path_trial_shape;

/* Calls with bf16 or fp16 operands that the HRPB kernel takes as they are,
 * of a shape whose product through float copies of them runs on cuSPARSE
 * (measured faster there on floats): the copies cost passes over B and C
 * that the measurement did not see. So the plan times such calls each way
 * as they run, the second call each way (a first call may load kernels or
 * grow scratch), and keeps the faster per column: two calls through the
 * copies, two with the operands as they are, then the choice once both
 * times are read (not waiting for them), kept from then on. One call each
 * way, timed by events on the caller's stream, so the host's launches are
 * in the times: the copies' three more launches count where the stream
 * runs dry between them. Per shape of call, and whether C is 16-bit. */
typedef struct path_trial_typed {
    tcspmm_path path;             /* CUSPARSE (the copies) or HRPB; AUTO until chosen */
    int runs[2];                  /* calls run each way: 0 the copies, 1 HRPB */
    float ms[2];                  /* the timed call of each way; < 0 until read */
    int64_t n[2];                 /* its columns (the shape's range spans up to 2x) */
    cudaEvent_t start[2], stop[2]; /* around it, until read */
} path_trial_typed;

typedef struct path_trial {
    path_trial_shape shape[GPU_TIMER_SHAPES]; /* by gpu_timer_shape */
    path_trial_typed typed[GPU_TIMER_SHAPES][2]; /* by gpu_timer_shape, C 16-bit */
    int at_first_call;                        /* tcspmm_options.measure_at_first_call */
} path_trial;

/* Every shape not measured, none of its calls timed. */
void path_trial_init(path_trial *t, int at_first_call);

/* The path measured for a call of this shape, or TCSPMM_PATH_AUTO before
 * it is measured (its calls then run HRPB); alg3: whether cuSPARSE may run
 * CSR_ALG3 for the call (cusparse_path_takes_alg3). */
tcspmm_path path_trial_lookup(const path_trial *t, int64_t n, tcspmm_layout layout, float beta,
                              int alg3);

/* The faster path by a measurement's medians (cusparse_path_race: ms[i]
 * for cusparse_path_algs[i], -1 where not offered; ms[CUSPARSE_PATH_NUM_ALGS]
 * for HRPB): HRPB if it beat every cuSPARSE algorithm the call may run
 * (CSR_ALG3 only where alg3), else CUSPARSE. */
tcspmm_path path_trial_faster(const float ms[CUSPARSE_PATH_NUM_ALGS + 1], int alg3);

/* Whether calls products of call_ms each (call_ms < 0: not known yet) have
 * cost what measuring would: PATH_TRIAL_COST_MS plus PATH_TRIAL_PRODUCTS
 * such products. */
int path_trial_due(int64_t calls, float call_ms);

/* The path for this call. A measured shape's. Else, where the shape is due
 * (or at_first_call) and no graph capture forbids it, it is measured now:
 * on the call's alpha, beta and B into a scratch C (a copy of dC when
 * beta != 0; the caller's C is not touched), cuSPARSE's algorithms and the
 * HRPB kernel raced (gpu_timer_race: in turns, L2 flushed, the median of
 * GPU_TIMER_CHOICE_RUNS each), cuSPARSE keeping its algorithms' times as
 * its own tuning; HRPB wins if it beat the algorithms the call may run
 * (path_trial_faster, asked again per call: a call CSR_ALG3 may not run
 * on, or cuSPARSE giving CSR_ALG3 up, can turn the choice to HRPB);
 * this synchronizes stream. A measurement that fails for want of memory
 * returns that; any other failure leaves the shape on HRPB, the error
 * cleared. Else HRPB, and *stop, where not NULL, is an event the caller
 * records on stream right after running it (this call is timed). */
tcspmm_status path_trial_pick(path_trial *t, const hrpb_gpu *hrpb, cusparse_path *cusparse,
                              int64_t n, float alpha, const float *dB, int64_t ldb,
                              float beta, const float *dC, int64_t ldc, tcspmm_layout layout,
                              void *stream, tcspmm_path *path, cudaEvent_t *stop);

/* The path of a call of path_trial_typed's kind (c16: C is 16-bit):
 * CUSPARSE (through the float copies) or HRPB (the operands as they
 * are). *stop, where not NULL, is an event the caller records on stream
 * right after the whole product, copies included (this call is timed; its
 * start is recorded here). While stream is captured nothing is timed, and
 * a call not chosen yet takes the copies. */
tcspmm_status path_trial_typed_pick(path_trial *t, int64_t n, tcspmm_layout layout, float beta,
                                    int c16, void *stream, tcspmm_path *path, cudaEvent_t *stop);

/* Destroys the events of shapes still being timed. */
void path_trial_free(path_trial *t);

#ifdef __cplusplus
}
#endif

#endif
