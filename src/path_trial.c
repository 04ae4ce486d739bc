/* path_trial.c: the auto path's measured choice between HRPB and cuSPARSE,
 * per call shape (path_trial.h). */
#include "path_trial.h"

#include "error.h"
#include "gpu_timer.h"

tcspmm_path path_trial_lookup(const path_trial *t, int64_t n, tcspmm_layout layout, float beta)
{
    for (int i = 0; i < t->num_done; i++)
        if (t->done[i].n == n && t->done[i].layout == (int)layout &&
            t->done[i].beta_nonzero == (beta != 0.0f))
            return t->done[i].path;
    return TCSPMM_PATH_AUTO;
}

/* One HRPB product of the trial, into the scratch C. */
typedef struct hrpb_call {
    const hrpb_gpu *hrpb;
    gpu_product op;
} hrpb_call;

static tcspmm_status run_hrpb_call(void *arg)
{
    const hrpb_call *c = arg;
    const gpu_product *o = &c->op;
    return hrpb_gpu_spmm(c->hrpb, o->n, o->alpha, o->B, o->ldb, o->beta, o->C, o->ldc, o->layout,
                         o->stream);
}

/* The median time of the HRPB kernel on this call's operands. */
static tcspmm_status time_hrpb(hrpb_call *c, const float *dC, int64_t ldc, int64_t rows,
                               float *median)
{
    gpu_timer t;
    TCSPMM_TRY(gpu_timer_create(&t, c->op.stream));
    float runs[GPU_TIMER_CHOICE_RUNS];
    tcspmm_status st = gpu_timer_scratch_c(rows, dC, ldc, &c->op);
    if (!st) st = gpu_timer_run(&t, run_hrpb_call, c, 1, GPU_TIMER_CHOICE_RUNS, runs);
    if (c->op.C) cudaFreeAsync(c->op.C, (cudaStream_t)c->op.stream);
    gpu_timer_destroy(&t);
    TCSPMM_TRY(st);
    *median = runs[GPU_TIMER_CHOICE_RUNS / 2];
    return TCSPMM_SUCCESS;
}

tcspmm_status path_trial_pick(path_trial *t, const hrpb_gpu *hrpb, cusparse_path *cusparse,
                              int64_t rows, int64_t n, float alpha, const float *dB, int64_t ldb,
                              float beta, const float *dC, int64_t ldc, tcspmm_layout layout,
                              void *stream, tcspmm_path *path)
{
    *path = path_trial_lookup(t, n, layout, beta);
    if (*path != TCSPMM_PATH_AUTO) return TCSPMM_SUCCESS;
    int alg = 0;
    float cusparse_ms = 0.0f, hrpb_ms = 0.0f;
    TCSPMM_TRY(cusparse_path_pick_alg(cusparse, n, alpha, dB, ldb, beta, dC, ldc, layout, stream,
                                      &alg, &cusparse_ms));
    hrpb_call c = {hrpb, {n, ldb, 0, alpha, beta, dB, NULL, layout, stream}};
    TCSPMM_TRY(time_hrpb(&c, dC, ldc, rows, &hrpb_ms));
    *path = hrpb_ms < cusparse_ms ? TCSPMM_PATH_HRPB : TCSPMM_PATH_CUSPARSE;
    int slot = t->num_done < PATH_TRIAL_SLOTS ? t->num_done++ : (int)(n % PATH_TRIAL_SLOTS);
    t->done[slot].n = n;
    t->done[slot].layout = (int)layout;
    t->done[slot].beta_nonzero = beta != 0.0f;
    t->done[slot].path = *path;
    return TCSPMM_SUCCESS;
}
