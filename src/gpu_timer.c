/* gpu_timer.c: event timing of GPU work with L2 flushed before each run,
 * the scratch C of timed products, whether a capture forbids a call, and
 * whether a stream is capturing (gpu_timer.h). */
#include "gpu_timer.h"

#include "error.h"
#include "rng.h"

#include <stdlib.h>
#include <string.h>

tcspmm_status gpu_timer_create(gpu_timer *t, void *stream)
{
    memset(t, 0, sizeof *t);
    t->stream = (cudaStream_t)stream;
    int dev = 0, l2 = 0;
    TCSPMM_TRY(TCSPMM_CUDA(cudaGetDevice(&dev)));
    TCSPMM_TRY(TCSPMM_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev)));
    t->flush_bytes = 2 * (size_t)(l2 > 0 ? l2 : 64 << 20);
    tcspmm_status st = TCSPMM_CUDA(cudaMallocAsync(&t->flush, t->flush_bytes, t->stream));
    if (!st) st = TCSPMM_CUDA(cudaEventCreate(&t->start));
    if (!st) st = TCSPMM_CUDA(cudaEventCreate(&t->stop));
    if (st) gpu_timer_destroy(t);
    return st;
}

void gpu_timer_destroy(gpu_timer *t)
{
    if (t->flush) cudaFreeAsync(t->flush, t->stream);
    if (t->start) cudaEventDestroy(t->start);
    if (t->stop) cudaEventDestroy(t->stop);
    t->flush = NULL;
    t->start = t->stop = NULL;
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* *ms = one run of fn(arg) after the L2 flush (round r picks the fill byte). */
static tcspmm_status time_once(gpu_timer *t, gpu_timer_fn fn, void *arg, int r, float *ms)
{
    TCSPMM_TRY(TCSPMM_CUDA(cudaMemsetAsync(t->flush, r & 0xff, t->flush_bytes, t->stream)));
    TCSPMM_TRY(TCSPMM_CUDA(cudaEventRecord(t->start, t->stream)));
    TCSPMM_TRY(fn(arg));
    TCSPMM_TRY(TCSPMM_CUDA(cudaEventRecord(t->stop, t->stream)));
    TCSPMM_TRY(TCSPMM_CUDA(cudaEventSynchronize(t->stop)));
    return TCSPMM_CUDA(cudaEventElapsedTime(ms, t->start, t->stop));
}

tcspmm_status gpu_timer_turns(gpu_timer *t, const gpu_timer_fn *fn, void *const *arg, int count,
                              int warmup, int reps, float *ms)
{
    int offered[GPU_TIMER_MAX_CANDIDATES], order[GPU_TIMER_MAX_CANDIDATES];
    if (count > GPU_TIMER_MAX_CANDIDATES)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "gpu_timer_turns: %d candidates, at most %d", count,
                           GPU_TIMER_MAX_CANDIDATES);
    for (int i = 0; i < count; i++) {
        tcspmm_status st = fn[i](arg[i]);
        offered[i] = st != TCSPMM_ERROR_UNSUPPORTED;
        if (offered[i]) TCSPMM_TRY(st);
        else tcspmm_clear_error(); /* not offered here: not a failure of the call */
    }
    for (int w = 1; w < warmup; w++)
        for (int i = 0; i < count; i++)
            if (offered[i]) TCSPMM_TRY(fn[i](arg[i]));
    uint64_t rng = 0x5EED;
    for (int r = 0; r < reps; r++) {
        for (int i = 0; i < count; i++) order[i] = i;
        for (int i = count - 1; i > 0; i--) { /* Fisher-Yates */
            const int j = (int)(rng_next(&rng) % (uint64_t)(i + 1)), k = order[i];
            order[i] = order[j];
            order[j] = k;
        }
        for (int i = 0; i < count; i++) {
            const int c = order[i];
            if (offered[c]) TCSPMM_TRY(time_once(t, fn[c], arg[c], r, &ms[c * reps + r]));
        }
    }
    for (int i = 0; i < count; i++) {
        if (offered[i]) gpu_timer_sort(ms + i * reps, reps);
        else
            for (int r = 0; r < reps; r++) ms[i * reps + r] = -1.0f;
    }
    return TCSPMM_SUCCESS;
}

tcspmm_status gpu_timer_race(gpu_timer *t, const gpu_timer_fn *fn, void *const *arg, int count,
                             float *ms)
{
    float runs[GPU_TIMER_MAX_CANDIDATES * GPU_TIMER_CHOICE_RUNS];
    TCSPMM_TRY(gpu_timer_turns(t, fn, arg, count, 1, GPU_TIMER_CHOICE_RUNS, runs));
    for (int i = 0; i < count; i++)
        ms[i] = runs[i * GPU_TIMER_CHOICE_RUNS + GPU_TIMER_CHOICE_RUNS / 2];
    return TCSPMM_SUCCESS;
}

int gpu_capture_forbids(cudaError_t e)
{
    if (e != cudaErrorStreamCaptureUnsupported && e != cudaErrorStreamCaptureImplicit &&
        e != cudaErrorStreamCaptureInvalidated)
        return 0;
    cudaGetLastError();
    return 1;
}

tcspmm_status gpu_stream_capturing(void *stream, int *capturing)
{
    enum cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    const cudaError_t e = cudaStreamIsCapturing((cudaStream_t)stream, &status);
    *capturing = 1;
    if (gpu_capture_forbids(e)) return TCSPMM_SUCCESS;
    TCSPMM_TRY(TCSPMM_CUDA(e));
    *capturing = status != cudaStreamCaptureStatusNone;
    return TCSPMM_SUCCESS;
}

tcspmm_status gpu_timer_scratch_c(int64_t rows, const float *C, int64_t ldc, gpu_product *p)
{
    const int row_major = p->layout == TCSPMM_LAYOUT_ROW_MAJOR;
    const int64_t inner = row_major ? p->n : rows, outer = row_major ? rows : p->n;
    cudaStream_t stream = (cudaStream_t)p->stream;
    /* A leading dimension divisible by 4 where the caller's is, so that the
     * timed products (CSR_ALG3, the HRPB kernel's 16-byte C stores) may run
     * as the caller's; never above ldc, so the size cannot overflow. */
    const int64_t padded = (inner + 3) / 4 * 4;
    p->ldc = inner == 0 ? 1 : ldc % 4 == 0 ? padded : inner;
    p->C = NULL;
    TCSPMM_TRY(TCSPMM_CUDA(
        cudaMallocAsync((void **)&p->C, (size_t)(outer * p->ldc + 1) * sizeof(float), stream)));
    if (p->beta == 0.0f || inner == 0 || outer == 0) return TCSPMM_SUCCESS;
    tcspmm_status st = TCSPMM_CUDA(cudaMemcpy2DAsync(
        p->C, (size_t)p->ldc * sizeof(float), C, (size_t)ldc * sizeof(float),
        (size_t)inner * sizeof(float), (size_t)outer, cudaMemcpyDeviceToDevice, stream));
    if (st) {
        cudaFreeAsync(p->C, stream);
        p->C = NULL;
    }
    return st;
}

int gpu_timer_n_range(int64_t n)
{
    int bits = 0;
    for (uint64_t v = n > 1 ? (uint64_t)(n - 1) : 0; v; v >>= 1) bits++;
    return bits + (n > 3);
}

int gpu_timer_shape(int64_t n, tcspmm_layout layout, float beta)
{
    return (gpu_timer_n_range(n) * 2 + (layout == TCSPMM_LAYOUT_COL_MAJOR)) * 2 + (beta != 0.0f);
}

void gpu_timer_sort(float *ms, int n)
{
    qsort(ms, (size_t)n, sizeof(float), cmp_float);
}
