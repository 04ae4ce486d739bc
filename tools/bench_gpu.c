/* bench_gpu.c: spmm_run --bench on the GPU (see bench_gpu.h). */
#include "bench_gpu.h"

#include "cusparse_path.h"
#include "error.h"
#include "format/sparse24.h"
#include "gpu_timer.h"
#include "reference.h"
#include "rng.h"

#include <cuda_runtime.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

typedef struct timer {
    gpu_timer gpu;
    float *times; /* reps of them per contender: ours, each cuSPARSE algorithm, then
                     (16-bit operands) ours with float B and C */
} timer;

/* One timed call of either tcspmm_spmm_ex (cusparse == NULL) or cuSPARSE
 * alg (float B and C). */
typedef struct call {
    tcspmm_plan *plan;
    cusparse_path *cusparse;
    int alg;
    int64_t n;
    float alpha, beta;
    const void *B;
    void *C;
    tcspmm_datatype b_type, c_type;
    int64_t ldb, ldc;
    tcspmm_layout layout;
} call;

static tcspmm_status run_call(void *arg)
{
    const call *c = arg;
    if (c->cusparse)
        return cusparse_path_spmm(c->cusparse, c->alg, c->n, c->alpha, c->B, c->ldb, c->beta, c->C,
                                  c->ldc, c->layout, NULL);
    return tcspmm_spmm_ex(c->plan, c->n, c->alpha, c->B, c->b_type, c->ldb, c->beta, c->C,
                          c->c_type, c->ldc, c->layout, NULL);
}

static size_t type_bytes(tcspmm_datatype t) { return t == TCSPMM_R_32F ? 4 : 2; }

/* Whether c's B or C is 16-bit. */
static int typed(const call *c) { return c->b_type != TCSPMM_R_32F || c->c_type != TCSPMM_R_32F; }

/* Device-to-device copy bandwidth (bytes read + written per second). */
static tcspmm_status copy_bandwidth(timer *t, double *gbs)
{
    size_t bytes = (size_t)256 << 20;
    void *a = NULL, *b = NULL;
    tcspmm_status st = TCSPMM_CUDA(cudaMalloc(&a, bytes));
    if (!st) st = TCSPMM_CUDA(cudaMalloc(&b, bytes));
    if (!st) st = TCSPMM_CUDA(cudaMemset(a, 1, bytes));
    float best = 1e30f;
    for (int r = 0; !st && r < 20; r++) {
        float ms = 0;
        st = TCSPMM_CUDA(cudaEventRecord(t->gpu.start, NULL));
        if (!st) st = TCSPMM_CUDA(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, NULL));
        if (!st) st = TCSPMM_CUDA(cudaEventRecord(t->gpu.stop, NULL));
        if (!st) st = TCSPMM_CUDA(cudaEventSynchronize(t->gpu.stop));
        if (!st) st = TCSPMM_CUDA(cudaEventElapsedTime(&ms, t->gpu.start, t->gpu.stop));
        if (!st && r >= 2 && ms < best) best = ms;
    }
    cudaFree(a);
    cudaFree(b);
    if (!st) *gbs = 2.0 * (double)bytes / (best * 1e-3) / 1e9;
    return st;
}

tcspmm_status bench_upload_random(float **d, size_t count, uint64_t seed)
{
    return bench_upload_random_typed((void **)d, count, TCSPMM_R_32F, seed);
}

tcspmm_status bench_upload_random_typed(void **d, size_t count, tcspmm_datatype t, uint64_t seed)
{
    const size_t bytes = (count ? count : 1) * type_bytes(t);
    float *h = malloc((count ? count : 1) * sizeof(float));
    uint16_t *bits = t == TCSPMM_R_32F ? NULL : malloc(bytes);
    if (!h || (t != TCSPMM_R_32F && !bits)) {
        free(h);
        free(bits);
        return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "bench: out of host memory");
    }
    rng_fill(h, count, seed);
    const tcspmm_precision p = t == TCSPMM_R_16BF ? TCSPMM_PRECISION_BF16 : TCSPMM_PRECISION_FP16;
    for (size_t i = 0; bits && i < count; i++) bits[i] = sp24_half_bits(h[i], p);
    tcspmm_status st = TCSPMM_CUDA(cudaMalloc(d, bytes));
    if (!st)
        st = TCSPMM_CUDA(cudaMemcpy(*d, bits ? (const void *)bits : h, count * type_bytes(t),
                                    cudaMemcpyHostToDevice));
    free(h);
    free(bits);
    return st;
}

/* h = the count elements of type t at d, as floats (16-bit ones widened). */
static tcspmm_status download_floats(const void *d, size_t count, tcspmm_datatype t, float *h)
{
    if (t == TCSPMM_R_32F) return TCSPMM_CUDA(cudaMemcpy(h, d, count * 4, cudaMemcpyDeviceToHost));
    uint16_t *bits = malloc((count ? count : 1) * 2);
    if (!bits) return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "bench: out of host memory");
    tcspmm_status st = TCSPMM_CUDA(cudaMemcpy(bits, d, count * 2, cudaMemcpyDeviceToHost));
    const tcspmm_precision p = t == TCSPMM_R_16BF ? TCSPMM_PRECISION_BF16 : TCSPMM_PRECISION_FP16;
    for (size_t i = 0; !st && i < count; i++) h[i] = sp24_half_value(bits[i], p);
    free(bits);
    return st;
}

/* One call c on A, checked within tol against the float64 product of the B
 * and C it is given as their types hold them; C poisoned (NaN in every
 * type) first where beta is 0, so that an element not written fails. */
static tcspmm_status check_call(const tcspmm_csr *A, const call *c, double tol, bench_result *out)
{
    const size_t nb = (size_t)A->cols * c->n, nc = (size_t)A->rows * c->n;
    float *B = malloc((nb ? nb : 1) * sizeof(float));
    float *C0 = malloc((nc ? nc : 1) * sizeof(float));
    float *C = malloc((nc ? nc : 1) * sizeof(float));
    double *ref = malloc((nc ? nc : 1) * sizeof(double));
    tcspmm_status st = B && C0 && C && ref ? TCSPMM_SUCCESS
                       : tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "bench: out of host memory");
    if (!st) st = download_floats(c->B, nb, c->b_type, B);
    if (!st)
        st = c->beta != 0.0f ? download_floats(c->C, nc, c->c_type, C0)
                             : TCSPMM_CUDA(cudaMemset(c->C, 0xff, nc * type_bytes(c->c_type)));
    if (!st) st = run_call((void *)c);
    if (!st) st = download_floats(c->C, nc, c->c_type, C);
    if (!st)
        st = reference_spmm(A, c->n, c->alpha, B, c->ldb, c->beta, C0, c->ldc, c->layout, ref);
    if (!st) {
        const compare_result cmp =
            compare_to_reference(C, c->ldc, c->layout, ref, A->rows, c->n, tol);
        out->typed_checked = 1;
        out->typed_rel_err = cmp.rel_err;
        out->typed_nonfinite = cmp.nonfinite;
        out->typed_pass = cmp.pass;
    }
    free(B);
    free(C0);
    free(C);
    free(ref);
    return st;
}

/* *ms = the time of call c alone, from the host's clock to the device's
 * end: for a process's first call of a kind, which may load its kernels. */
static tcspmm_status first_call_ms(const call *c, double *ms)
{
    TCSPMM_TRY(TCSPMM_CUDA(cudaDeviceSynchronize()));
    const double t0 = omp_get_wtime();
    TCSPMM_TRY(run_call((void *)c));
    TCSPMM_TRY(TCSPMM_CUDA(cudaDeviceSynchronize()));
    *ms = (omp_get_wtime() - t0) * 1e3;
    return TCSPMM_SUCCESS;
}

/* Ours (typed: B and C of c's types; and with floats, float_c, where those
 * are 16-bit) and every cuSPARSE algorithm timed in turns (gpu_timer_turns:
 * 3 warm-up rounds, then reps rounds in a random order each). */
static tcspmm_status bench_all(timer *t, tcspmm_plan *plan, const tcspmm_csr *A, const call *c,
                               const call *float_c, int reps, bench_result *out)
{
    enum { MOST = 2 + CUSPARSE_PATH_NUM_ALGS };
    const int contenders = 1 + CUSPARSE_PATH_NUM_ALGS + typed(c);
    cusparse_path *sp = NULL;
    TCSPMM_TRY(cusparse_path_create(A, NULL, &sp));
    call calls[MOST];
    gpu_timer_fn fns[MOST];
    void *args[MOST];
    for (int i = 0; i < contenders; i++) {
        const int alg = i >= 1 && i <= CUSPARSE_PATH_NUM_ALGS;
        calls[i] = i == 0 ? *c : *float_c;
        calls[i].cusparse = alg ? sp : NULL;
        calls[i].alg = alg ? cusparse_path_algs[i - 1] : 0;
        fns[i] = run_call;
        args[i] = &calls[i];
    }
    /* ours first on its own, so that its failure (any, unlike a cuSPARSE
     * algorithm's "not offered") is what the bench returns */
    tcspmm_status st = run_call(&calls[0]);
    if (!st) st = gpu_timer_turns(&t->gpu, fns, args, contenders, 3, reps, t->times);
    cusparse_path_destroy(sp);
    TCSPMM_TRY(st);
    const float *ours = t->times;
    out->time_ms = ours[reps / 2];
    out->time_spread = (ours[reps * 9 / 10] - ours[reps / 10]) / out->time_ms;
    out->float_ms = typed(c) ? t->times[(contenders - 1) * reps + reps / 2] : -1.0;
    out->cusparse_ms = 1e30;
    for (int i = 0; i < CUSPARSE_PATH_NUM_ALGS; i++) {
        const double ms = t->times[(i + 1) * reps + reps / 2]; /* -1: not offered for this layout */
        out->cusparse_alg_ms[i] = ms;
        if (ms >= 0 && ms < out->cusparse_ms) {
            out->cusparse_ms = ms;
            out->cusparse_alg = cusparse_path_alg_name(cusparse_path_algs[i]);
        }
    }
    if (!out->cusparse_alg)
        return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED,
                           "bench: no cuSPARSE SpMM algorithm takes this shape, so there is no "
                           "baseline to compare with");
    TCSPMM_TRY(copy_bandwidth(t, &out->copy_gbs));
    tcspmm_info info;
    tcspmm_path path;
    TCSPMM_TRY(tcspmm_plan_info(plan, &info));
    TCSPMM_TRY(tcspmm_plan_path_for(plan, c->n, c->layout, c->beta, &path));
    /* A's compulsory bytes: what the path stores (HRPB; the 2:4 / 1:2 values,
     * half the columns, and their 4-bit codes, one per 4 value bytes; CSR
     * with the 32- or 64-bit indices cusparse_path_create gives it). */
    int eb = info.precision == TCSPMM_PRECISION_TF32 ? 4 : 2;
    double structured = (double)A->rows * A->cols * eb * 9 / 16;
    int64_t index_bytes = cusparse_path_index_bytes(A->nnz);
    int64_t a_bytes = path == TCSPMM_PATH_HRPB       ? info.hrpb_bytes
                      : path == TCSPMM_PATH_SPARSE24 ? (int64_t)structured
                                                          : (A->rows + 1 + A->nnz) * index_bytes + A->nnz * 4;
    out->min_bytes = a_bytes + (A->cols * (int64_t)type_bytes(c->b_type) +
                                A->rows * (c->beta != 0.0f ? 2 : 1) * (int64_t)type_bytes(c->c_type)) *
                                   c->n;
    out->roofline_frac = (double)out->min_bytes / (out->time_ms * 1e-3) / (out->copy_gbs * 1e9);
    return TCSPMM_SUCCESS;
}

tcspmm_status bench_gpu(tcspmm_plan *plan, const tcspmm_csr *A, int64_t n, tcspmm_layout layout,
                        float alpha, float beta, tcspmm_datatype b_type, tcspmm_datatype c_type,
                        int reps, uint64_t seed, double typed_tol, bench_result *out)
{
    memset(out, 0, sizeof *out);
    if (reps < 3) reps = 3;
    out->reps = reps;
    int row_major = layout == TCSPMM_LAYOUT_ROW_MAJOR;
    call f = {plan, NULL, 0, n, alpha, beta, NULL, NULL, TCSPMM_R_32F, TCSPMM_R_32F,
              row_major ? n : A->cols, row_major ? n : A->rows, layout};
    call c = f;
    c.b_type = b_type;
    c.c_type = c_type;
    timer t = {0};
    t.times = malloc((size_t)reps * (2 + CUSPARSE_PATH_NUM_ALGS) * sizeof(float));
    tcspmm_status st = t.times ? gpu_timer_create(&t.gpu, NULL)
                               : tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "bench: out of host memory");
    if (!st) st = bench_upload_random((float **)&f.B, (size_t)A->cols * n, seed);
    if (!st) st = bench_upload_random((float **)&f.C, (size_t)A->rows * n, seed + 1);
    if (b_type == TCSPMM_R_32F) c.B = f.B;
    else if (!st) st = bench_upload_random_typed((void **)&c.B, (size_t)A->cols * n, b_type, seed);
    if (c_type == TCSPMM_R_32F) c.C = f.C;
    else if (!st) st = bench_upload_random_typed(&c.C, (size_t)A->rows * n, c_type, seed + 1);
    out->typed_first_ms = -1.0;
    if (!st && typed(&c)) st = first_call_ms(&c, &out->typed_first_ms);
    if (!st && typed(&c) && typed_tol > 0) st = check_call(A, &c, typed_tol, out);
    if (!st) st = bench_all(&t, plan, A, &c, &f, reps, out);
    if (c.B != f.B) cudaFree((void *)c.B);
    if (c.C != f.C) cudaFree(c.C);
    cudaFree((void *)f.B);
    cudaFree(f.C);
    gpu_timer_destroy(&t.gpu);
    free(t.times);
    return st;
}

double bench_median_ms(double *ms, int n)
{
    for (int i = 1; i < n; i++) /* insertion sort */
        for (int j = i; j > 0 && ms[j] < ms[j - 1]; j--) {
            double t = ms[j];
            ms[j] = ms[j - 1];
            ms[j - 1] = t;
        }
    return ms[n / 2];
}
