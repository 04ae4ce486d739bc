/* gpu_timer.h: timing GPU work the one way the library's choices (cuSPARSE
 * algorithm tuning, the auto path's measured choice) and spmm_run --bench
 * all use (path_trial.h's two events that tell when to measure are apart):
 * CUDA events around each run on one stream, L2 evicted before every run by
 * writing a buffer twice its size (a solver's products find A and B cold
 * too; the run then also writes back the dirty lines it evicts, as every
 * candidate does), runs sorted for the median; the scratch C those runs write; and
 * whether a stream is capturing, which timing (and whatever must run now,
 * not in a graph) has to ask first. */
#ifndef TCSPMM_GPU_TIMER_H
#define TCSPMM_GPU_TIMER_H

#include "tcspmm.h"

#include <cuda_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Timed runs behind each choice the library measures (their median decides),
 * and the most candidates one timing in turns weighs. */
enum { GPU_TIMER_CHOICE_RUNS = 7, GPU_TIMER_MAX_CANDIDATES = 8 };

typedef struct gpu_timer {
    cudaEvent_t start, stop;
    void *flush; /* written before every timed run */
    size_t flush_bytes;
    cudaStream_t stream;
} gpu_timer;

/* Events and the flush buffer (stream-ordered on stream) of the current device. */
tcspmm_status gpu_timer_create(gpu_timer *t, void *stream);
void gpu_timer_destroy(gpu_timer *t);

typedef tcspmm_status (*gpu_timer_fn)(void *arg);

/* Times count (<= GPU_TIMER_MAX_CANDIDATES) candidates fn[i](arg[i])
 * against each other in turns: one untimed round (it also finds the
 * candidates not offered, and pays for first uses: kernels loaded,
 * preprocessing) and `warmup` - 1 more, then reps rounds that each run
 * every candidate once after the L2 flush, in a new random order each
 * round. A candidate is thus timed under the same mix of loads as the
 * others: after the same predecessors, with a clock still ramping up from
 * idle, or lowered at the card's power limit (where timing one candidate's
 * runs after another's lets each inherit the clocks the one before left).
 * ms[i * reps .. + reps): candidate i's times sorted ascending, or all -1
 * where its first run answered TCSPMM_ERROR_UNSUPPORTED (not offered: not
 * run again, the error cleared). Returns any other failure unchanged. */
tcspmm_status gpu_timer_turns(gpu_timer *t, const gpu_timer_fn *fn, void *const *arg, int count,
                              int warmup, int reps, float *ms);

/* The operands of one timed product C = alpha*A*B + beta*C, A being the
 * path's. */
typedef struct gpu_product {
    int64_t n, ldb, ldc;
    float alpha, beta;
    const float *B;
    float *C;
    tcspmm_layout layout;
    void *stream;
} gpu_product;

/* Whether e (from a CUDA call) says a graph capture forbids the call now
 * (another stream of this process capturing in global mode, or the legacy
 * stream syncing with a capturing one); the error is cleared then. */
int gpu_capture_forbids(cudaError_t e);

/* *capturing = whether work enqueued on stream now goes into a graph rather
 * than running (what it writes is there only once the graph is launched,
 * and nothing may wait for it); 1 also where a capture forbids the query
 * (gpu_capture_forbids). Another failure of the query is returned. */
tcspmm_status gpu_stream_capturing(void *stream, int *capturing);

/* p->C = fresh device memory for a rows x p->n C in p->layout, for timed
 * products that must leave the caller's C alone. Its leading dimension, in
 * p->ldc, is the inner size, rounded up to a multiple of 4 where ldc is
 * one, so that the timed products run as they would on the caller's C
 * (CSR_ALG3 and 16-byte C stores need it). When p->beta != 0 (the products
 * read C) it holds a copy of C (leading dimension ldc), else it is left
 * unwritten. Allocated and copied in stream order on p->stream; free it
 * with cudaFreeAsync. */
tcspmm_status gpu_timer_scratch_c(int64_t rows, const float *C, int64_t ldc, gpu_product *p);

/* The range of N a measured choice covers: N = 1, 2, 3, 4, 5-8, ..., 33-64,
 * 65-128, ... (the bit length of n - 1, with 3 apart from 4: the HRPB path
 * reads a column-major B in place up to N = 3 and transposes it above, and
 * its kernel changes its shape at 32, 64 and 128). A solver whose block
 * shrinks as columns converge then pays for a few measurements, not one per
 * width. */
int gpu_timer_n_range(int64_t n);

/* What one measured choice covers, as an index below GPU_TIMER_SHAPES: a
 * range of N, a layout, and whether beta is zero (an algorithm's speed then
 * includes reading C). Every shape has its own index, so a plan's tables of
 * choices hold them all and never forget one. */
enum { GPU_TIMER_SHAPES = 65 * 2 * 2 };
int gpu_timer_shape(int64_t n, tcspmm_layout layout, float beta);

/* Times count (<= GPU_TIMER_MAX_CANDIDATES) candidates against each other
 * with gpu_timer_turns, one untimed round and GPU_TIMER_CHOICE_RUNS timed
 * ones. ms[i]: the median of candidate i, or -1 where it is not offered. */
tcspmm_status gpu_timer_race(gpu_timer *t, const gpu_timer_fn *fn, void *const *arg, int count,
                             float *ms);

/* Sorts n times ascending (ms[n / 2] is then the median). */
void gpu_timer_sort(float *ms, int n);

#ifdef __cplusplus
}
#endif

#endif
