/* path_trial.c: the auto path's measured choice between HRPB and cuSPARSE,
 * per call shape (path_trial.h). */
#include "path_trial.h"

#include "error.h"
#include "gpu_timer.h"

tcspmm_path path_trial_lookup(const path_trial *t, int64_t n, tcspmm_layout layout, float beta)
{
    const int range = gpu_timer_n_range(n);
    for (int i = 0; i < t->num_done; i++)
        if (t->done[i].n_range == range && t->done[i].layout == (int)layout &&
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

/* The measurement of a new shape: cuSPARSE's algorithms and the HRPB kernel
 * raced on one scratch C; cuSPARSE remembers its own times. *path: HRPB if
 * its median beat that of the algorithm the call would run on cuSPARSE. */
static tcspmm_status measure(const hrpb_gpu *hrpb, cusparse_path *cusparse, int64_t rows,
                             const gpu_product *call, const float *dC, int64_t ldc,
                             tcspmm_path *path)
{
    enum { HRPB = CUSPARSE_PATH_NUM_ALGS, CANDIDATES };
    gpu_product op = *call;
    gpu_timer t;
    TCSPMM_TRY(gpu_timer_create(&t, op.stream));
    tcspmm_status st = gpu_timer_scratch_c(rows, dC, ldc, &op);
    cusparse_path_call calls[CUSPARSE_PATH_NUM_ALGS];
    hrpb_call h = {hrpb, op};
    gpu_timer_fn fns[CANDIDATES];
    void *args[CANDIDATES];
    float ms[CANDIDATES];
    cusparse_path_candidates(cusparse, &op, calls, fns, args);
    fns[HRPB] = run_hrpb_call;
    args[HRPB] = &h;
    if (!st) st = gpu_timer_race(&t, fns, args, CANDIDATES, ms);
    if (op.C) cudaFreeAsync(op.C, (cudaStream_t)op.stream);
    gpu_timer_destroy(&t);
    TCSPMM_TRY(st);
    cusparse_path_remember(cusparse, op.n, op.layout, op.beta, ms);
    int alg = 0, i = 0;
    TCSPMM_TRY(cusparse_path_pick_alg(cusparse, op.n, op.alpha, op.B, op.ldb, op.beta, dC, ldc,
                                      op.layout, op.stream, &alg));
    while (cusparse_path_algs[i] != alg) i++;
    *path = ms[HRPB] < ms[i] ? TCSPMM_PATH_HRPB : TCSPMM_PATH_CUSPARSE;
    return TCSPMM_SUCCESS;
}

tcspmm_status path_trial_pick(path_trial *t, const hrpb_gpu *hrpb, cusparse_path *cusparse,
                              int64_t rows, int64_t n, float alpha, const float *dB, int64_t ldb,
                              float beta, const float *dC, int64_t ldc, tcspmm_layout layout,
                              void *stream, tcspmm_path *path)
{
    *path = path_trial_lookup(t, n, layout, beta);
    if (*path != TCSPMM_PATH_AUTO) return TCSPMM_SUCCESS;
    const gpu_product call = {n, ldb, 0, alpha, beta, dB, NULL, layout, stream};
    TCSPMM_TRY(measure(hrpb, cusparse, rows, &call, dC, ldc, path));
    const int range = gpu_timer_n_range(n);
    int slot = t->num_done < PATH_TRIAL_SLOTS ? t->num_done++ : range % PATH_TRIAL_SLOTS;
    t->done[slot].n_range = range;
    t->done[slot].layout = (int)layout;
    t->done[slot].beta_nonzero = beta != 0.0f;
    t->done[slot].path = *path;
    return TCSPMM_SUCCESS;
}
