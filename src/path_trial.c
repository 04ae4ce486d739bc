/* path_trial.c: the auto path's measured choice between HRPB and cuSPARSE,
 * per call shape (path_trial.h). */
#include "path_trial.h"

#include "error.h"
#include "gpu_timer.h"

enum { TRIAL_WARMUP = 2 };

tcspmm_path path_trial_lookup(const path_trial *t, int64_t n, tcspmm_layout layout, float beta)
{
    for (int i = 0; i < t->num_done; i++)
        if (t->done[i].n_range == gpu_timer_n_range(n) && t->done[i].layout == (int)layout &&
            t->done[i].beta_nonzero == (beta != 0.0f))
            return t->done[i].path;
    return TCSPMM_PATH_AUTO;
}

/* One HRPB product, as a candidate of gpu_timer_race. */
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

/* ms[0], ms[1]: the medians of cuSPARSE (its algorithm alg) and of the HRPB
 * kernel on the call's operands, raced on one scratch C. */
static tcspmm_status race(const hrpb_gpu *hrpb, cusparse_path *cusparse, int alg, int64_t rows,
                          const gpu_product *call, const float *dC, int64_t ldc, float ms[2])
{
    cusparse_path_call c = {cusparse, alg, *call};
    gpu_timer t;
    TCSPMM_TRY(gpu_timer_create(&t, call->stream));
    tcspmm_status st = gpu_timer_scratch_c(rows, dC, ldc, &c.op);
    hrpb_call h = {hrpb, c.op};
    const gpu_timer_fn fns[2] = {cusparse_path_run, run_hrpb_call};
    void *const args[2] = {&c, &h};
    if (!st) st = gpu_timer_race(&t, fns, args, 2, TRIAL_WARMUP, ms);
    if (c.op.C) cudaFreeAsync(c.op.C, (cudaStream_t)call->stream);
    gpu_timer_destroy(&t);
    return st;
}

tcspmm_status path_trial_pick(path_trial *t, const hrpb_gpu *hrpb, cusparse_path *cusparse,
                              int64_t rows, int64_t n, float alpha, const float *dB, int64_t ldb,
                              float beta, const float *dC, int64_t ldc, tcspmm_layout layout,
                              void *stream, tcspmm_path *path)
{
    *path = path_trial_lookup(t, n, layout, beta);
    if (*path != TCSPMM_PATH_AUTO) return TCSPMM_SUCCESS;
    int alg = 0;
    TCSPMM_TRY(cusparse_path_pick_alg(cusparse, n, alpha, dB, ldb, beta, dC, ldc, layout, stream,
                                      &alg));
    const gpu_product call = {n, ldb, 0, alpha, beta, dB, NULL, layout, stream};
    float ms[2];
    TCSPMM_TRY(race(hrpb, cusparse, alg, rows, &call, dC, ldc, ms));
    *path = ms[1] < ms[0] ? TCSPMM_PATH_HRPB : TCSPMM_PATH_CUSPARSE;
    int slot = t->num_done < PATH_TRIAL_SLOTS ? t->num_done++ : gpu_timer_n_range(n) % PATH_TRIAL_SLOTS;
    t->done[slot].n_range = gpu_timer_n_range(n);
    t->done[slot].layout = (int)layout;
    t->done[slot].beta_nonzero = beta != 0.0f;
    t->done[slot].path = *path;
    return TCSPMM_SUCCESS;
}
