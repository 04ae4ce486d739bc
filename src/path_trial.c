/* path_trial.c: the auto path's measured choice between HRPB and cuSPARSE,
 * per call shape, and when to measure it (path_trial.h). */
#include "path_trial.h"

#include "error.h"
#include "gpu_timer.h"
#include "kernels/sp24_gpu.h"

void path_trial_init(path_trial *t, int at_first_call)
{
    for (int i = 0; i < GPU_TIMER_SHAPES; i++) {
        t->shape[i] = (path_trial_shape){.path = TCSPMM_PATH_AUTO,
                                         .path_no_alg3 = TCSPMM_PATH_AUTO,
                                         .call_ms = -1.0f};
        for (int c16 = 0; c16 < 2; c16++)
            t->typed[i][c16] = (path_trial_typed){.path = TCSPMM_PATH_AUTO, .ms = {-1.0f, -1.0f}};
    }
    t->at_first_call = at_first_call;
}

/* A shape's measured path for a call (TCSPMM_PATH_AUTO: not measured). */
static tcspmm_path measured_path(const path_trial_shape *s, int alg3)
{
    return alg3 ? s->path : s->path_no_alg3;
}

tcspmm_path path_trial_lookup(const path_trial *t, int64_t n, tcspmm_layout layout, float beta,
                              int alg3)
{
    return measured_path(&t->shape[gpu_timer_shape(n, layout, beta)], alg3);
}

tcspmm_path path_trial_faster(const float ms[CUSPARSE_PATH_NUM_ALGS + 1], int alg3)
{
    const int best = cusparse_path_fastest(ms, alg3);
    return best >= 0 && ms[CUSPARSE_PATH_NUM_ALGS] >= ms[best] ? TCSPMM_PATH_CUSPARSE
                                                              : TCSPMM_PATH_HRPB;
}

int path_trial_due(int64_t calls, float call_ms)
{
    return call_ms >= 0.0f &&
           (double)calls * call_ms >= PATH_TRIAL_COST_MS + (double)PATH_TRIAL_PRODUCTS * call_ms;
}

static void forget_events(cudaEvent_t *start, cudaEvent_t *stop)
{
    if (*start) cudaEventDestroy(*start);
    if (*stop) cudaEventDestroy(*stop);
    *start = *stop = NULL;
}

static void forget_timing(path_trial_shape *s) { forget_events(&s->start, &s->stop); }

/* *ms = the time between start and stop once stop has passed (not waiting
 * for it), the events then destroyed; *ms unchanged while it has not. An
 * event the caller never recorded (its call failed) gives no time. */
static tcspmm_status read_events(cudaEvent_t *start, cudaEvent_t *stop, float *ms)
{
    if (!*stop) return TCSPMM_SUCCESS;
    cudaError_t e = cudaEventQuery(*stop);
    if (e == cudaErrorNotReady) {
        cudaGetLastError(); /* not an error; clears nothing else a query can set */
        return TCSPMM_SUCCESS;
    }
    if (gpu_capture_forbids(e)) return TCSPMM_SUCCESS; /* read on a later call */
    if (e != cudaSuccess) return TCSPMM_CUDA(e);
    if (cudaEventElapsedTime(ms, *start, *stop) != cudaSuccess) {
        cudaGetLastError();
        *ms = -1.0f;
    }
    forget_events(start, stop);
    return TCSPMM_SUCCESS;
}

/* call_ms from the timed call (read_events): a call whose time could not
 * be read leaves it < 0, and a later call is timed instead. */
static tcspmm_status read_timing(path_trial_shape *s)
{
    return read_events(&s->start, &s->stop, &s->call_ms);
}

/* *start = a new event recorded on stream, and *stop a new event; both
 * NULL where that fails (the error cleared: the call is simply not timed). */
static void start_timing(void *stream, cudaEvent_t *start, cudaEvent_t *stop)
{
    if (cudaEventCreate(start) != cudaSuccess || cudaEventCreate(stop) != cudaSuccess ||
        cudaEventRecord(*start, (cudaStream_t)stream) != cudaSuccess) {
        cudaGetLastError();
        forget_events(start, stop);
    }
}

/* The HRPB kernel as the rival of cuSPARSE's algorithms in a race. */
static tcspmm_status run_hrpb(const void *hrpb, const gpu_product *o)
{
    return hrpb_gpu_spmm(hrpb, o->n, o->alpha, o->B, SP24_DATA_FP32, o->ldb, o->beta, o->C,
                         SP24_DATA_FP32, o->ldc, o->layout, o->stream);
}

/* The measurement of a shape: cuSPARSE's algorithms and the HRPB kernel in
 * one race (cuSPARSE keeps its algorithms' times as its tuning); the faster
 * path with CSR_ALG3 and without. */
static tcspmm_status measure(const hrpb_gpu *hrpb, cusparse_path *cusparse, const gpu_product *call,
                             const float *dC, int64_t ldc, path_trial_shape *s)
{
    float ms[CUSPARSE_PATH_NUM_ALGS + 1];
    TCSPMM_TRY(cusparse_path_race(cusparse, call, dC, ldc, run_hrpb, hrpb, ms));
    s->path = path_trial_faster(ms, 1);
    s->path_no_alg3 = path_trial_faster(ms, 0);
    return TCSPMM_SUCCESS;
}

/* The waiting part of path_trial_pick once no graph is being captured on
 * stream: reads the timed call, measures where due, else times this call
 * when none is timed yet (a failure to time is no failure of the call).
 * Its caller, tcspmm_spmm_ex, relaxes this thread's capture mode
 * (call_scope.h), so that another thread's capture is not broken by it. */
static tcspmm_status wait_or_measure(path_trial *t, path_trial_shape *s, const hrpb_gpu *hrpb,
                                     cusparse_path *cusparse, const gpu_product *call, const float *dC, int64_t ldc,
                                     int alg3, tcspmm_path *path, cudaEvent_t *stop)
{
    TCSPMM_TRY(read_timing(s));
    if (t->at_first_call || path_trial_due(s->calls, s->call_ms)) {
        const cudaError_t q = cudaStreamQuery((cudaStream_t)call->stream);
        if (q == cudaErrorNotReady) cudaGetLastError(); /* busy: measuring waits for it */
        else if (gpu_capture_forbids(q)) return TCSPMM_SUCCESS; /* the legacy stream, while another
                                                               captures: later */
        else if (q != cudaSuccess) return TCSPMM_CUDA(q);
        forget_timing(s);
        tcspmm_status st = measure(hrpb, cusparse, call, dC, ldc, s);
        if (st == TCSPMM_ERROR_DEVICE_OUT_OF_MEMORY) return st; /* the plan stops measuring */
        if (st) { /* this shape stays on HRPB; the product still runs */
            tcspmm_clear_error();
            cudaGetLastError();
            s->path = s->path_no_alg3 = TCSPMM_PATH_HRPB;
        }
        *path = measured_path(s, alg3);
        return TCSPMM_SUCCESS;
    }
    if (s->calls >= 1 && s->call_ms < 0.0f && !s->stop) { /* time this one */
        start_timing(call->stream, &s->start, &s->stop); /* or a later one, where that failed */
        *stop = s->stop;
    }
    s->calls++;
    return TCSPMM_SUCCESS;
}

tcspmm_status path_trial_pick(path_trial *t, const hrpb_gpu *hrpb, cusparse_path *cusparse,
                              int64_t n, float alpha, const float *dB, int64_t ldb,
                              float beta, const float *dC, int64_t ldc, tcspmm_layout layout,
                              void *stream, tcspmm_path *path, cudaEvent_t *stop)
{
    *stop = NULL;
    path_trial_shape *s = &t->shape[gpu_timer_shape(n, layout, beta)];
    const int alg3 = cusparse_path_takes_alg3(cusparse, dB, ldb, dC, ldc);
    *path = measured_path(s, alg3);
    if (*path != TCSPMM_PATH_AUTO) return TCSPMM_SUCCESS;
    *path = TCSPMM_PATH_HRPB;
    int capturing;
    TCSPMM_TRY(gpu_stream_capturing(stream, &capturing));
    if (capturing) return TCSPMM_SUCCESS; /* the graph keeps HRPB */
    const gpu_product call = {n, ldb, 0, alpha, beta, dB, NULL, layout, stream};
    return wait_or_measure(t, s, hrpb, cusparse, &call, dC, ldc, alg3, path, stop);
}

tcspmm_status path_trial_typed_pick(path_trial *t, int64_t n, tcspmm_layout layout, float beta,
                                    int c16, void *stream, tcspmm_path *path, cudaEvent_t *stop)
{
    static const tcspmm_path ways[2] = {TCSPMM_PATH_CUSPARSE, TCSPMM_PATH_HRPB};
    *stop = NULL;
    path_trial_typed *r = &t->typed[gpu_timer_shape(n, layout, beta)][c16 != 0];
    *path = r->path;
    if (*path != TCSPMM_PATH_AUTO) return TCSPMM_SUCCESS;
    for (int w = 0; w < 2; w++) {
        const int timing = r->stop[w] != NULL;
        TCSPMM_TRY(read_events(&r->start[w], &r->stop[w], &r->ms[w]));
        if (timing && !r->stop[w] && r->ms[w] < 0.0f) r->runs[w] = 1; /* time another */
    }
    if (r->ms[0] >= 0.0f && r->ms[1] >= 0.0f) {
        const int hrpb_faster = (double)r->ms[1] / r->n[1] <= (double)r->ms[0] / r->n[0];
        *path = r->path = hrpb_faster ? TCSPMM_PATH_HRPB : TCSPMM_PATH_CUSPARSE;
        return TCSPMM_SUCCESS;
    }
    *path = TCSPMM_PATH_CUSPARSE;
    int capturing;
    TCSPMM_TRY(gpu_stream_capturing(stream, &capturing));
    if (capturing) return TCSPMM_SUCCESS;
    const int w = r->runs[0] < 2 ? 0 : r->runs[1] < 2 ? 1 : 0;
    *path = ways[w];
    if (r->runs[w]++ == 1) {
        r->n[w] = n;
        start_timing(stream, &r->start[w], &r->stop[w]);
        if (!r->stop[w]) r->runs[w] = 1; /* not timed: the next call of this way is */
        *stop = r->stop[w];
    }
    return TCSPMM_SUCCESS;
}

void path_trial_free(path_trial *t)
{
    for (int i = 0; i < GPU_TIMER_SHAPES; i++) {
        forget_timing(&t->shape[i]);
        for (int c16 = 0; c16 < 2; c16++)
            for (int w = 0; w < 2; w++)
                forget_events(&t->typed[i][c16].start[w], &t->typed[i][c16].stop[w]);
    }
}
