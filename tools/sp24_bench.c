/* sp24_bench.c: the structured-sparsity benchmark of issue 5. In one run and
 * at one precision it times, on the same 2:4 (bf16/fp16) or 1:2 (tf32)
 * matrix: our kernel (sp24_gpu_spmm, B given in 16 bits and in fp32, and
 * at bf16/fp16 B and C both in 16 bits; on an H100 the wgmma.sp kernel, and
 * the mma.sp kernel as well for comparison),
 * cuSPARSELt's cusparseLtMatmul (when built with TCSPMM_HAVE_CUSPARSELT; its
 * best algorithm from cusparseLtMatmulSearch), dense cuBLAS (cublasGemmEx) on
 * the decompressed matrix, and, at tf32, the HRPB path (tcspmm_spmm with
 * TCSPMM_PATH_HRPB). B and C are row-major, alpha = 1, beta = 0; C is fp32
 * except in "ours 16-bit B, C" and in cuSPARSELt at bf16/fp16, which writes
 * C in the input type (it refuses fp32 C there): "vs cuSPARSELt, 16-bit C"
 * compares the two that write the same bytes.
 * TFLOP/s count 2*M*N*K. Each time is the median of --reps runs timed with
 * CUDA events after 3 warm-up runs, the L2 flushed before each run, the
 * contenders taking turns in a new random order every round
 * (time_contenders, gpu_timer_turns). Outputs are cross-checked: one more
 * run of each into a C filled with NaN, against cuBLAS's; an element left
 * unwritten or a relative difference above CHECK_BOUND makes the exit
 * status 1.
 *
 * --ours-only times our kernel alone (its three ways of B and C), so that
 * the GPU runs it back to back, as when sampling its clock and power.
 *
 *   sp24_bench [--precision bf16|fp16|tf32] [--m 4096,8192,16384]
 *              [--n 64,128,512,4096,8192] [--reps 10] [--no-hrpb] [--ours-only] */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef TCSPMM_HAVE_CUSPARSELT
#include <cusparseLt.h>
#endif

#include "error.h"
#include "format/sparse24.h"
#include "gpu_timer.h"
#include "kernels/sp24_gpu.h"
#include "kernels/sp24_wgmma.h"
#include "rng.h"
#include "sparse24_gen.h"

#define MAX_LIST 8

typedef struct bench_ctx {
    gpu_timer timer; /* everything runs on its stream */
    int reps;
    int failed; /* an output differed from cuBLAS's by more than CHECK_BOUND */
} bench_ctx;

/* The relative difference to cuBLAS an output may have (issue 5's bound for
 * bf16 and fp16 against float64; measured differences are 2e-4 and below). */
#define CHECK_BOUND 1e-2

/* One call that the benchmark times (none: fn NULL), and its median
 * milliseconds. */
typedef struct contender {
    gpu_timer_fn fn;
    float ms;
} contender;

#define MAX_REPS 256

/* Times the contenders that have a fn in turns (gpu_timer_turns: 3 warm-up
 * rounds, then ctx->reps rounds in a new random order each, the L2 flushed
 * before every run); a contender's ms is the median of its runs, -1 where
 * it has no fn or is not offered. The large products run the card at its
 * power limit, where it lowers its clocks by what ran in the last moments:
 * timed one contender after another, each took the clocks its predecessor
 * left (on an H200 at bf16 16384 x 8192, ours with fp32 B, which also
 * packs B, measured faster than ours with 16-bit B timed just before it,
 * and the ratio to cuSPARSELt moved by 0.83x-0.95x between runs). In
 * turns every contender is timed under the same mix of loads. */
static tcspmm_status time_contenders(bench_ctx *ctx, contender *c, int count, void *arg)
{
    static float ms[GPU_TIMER_MAX_CANDIDATES * MAX_REPS];
    gpu_timer_fn fn[GPU_TIMER_MAX_CANDIDATES];
    void *args[GPU_TIMER_MAX_CANDIDATES];
    int which[GPU_TIMER_MAX_CANDIDATES], k = 0;
    for (int j = 0; j < count; j++) {
        c[j].ms = -1.0f;
        if (!c[j].fn) continue;
        if (k == GPU_TIMER_MAX_CANDIDATES)
            return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "bench: more than %d contenders",
                               GPU_TIMER_MAX_CANDIDATES);
        fn[k] = c[j].fn;
        args[k] = arg;
        which[k++] = j;
    }
    TCSPMM_TRY(gpu_timer_turns(&ctx->timer, fn, args, k, 3, ctx->reps, ms));
    for (int i = 0; i < k; i++) c[which[i]].ms = ms[i * ctx->reps + ctx->reps / 2];
    return TCSPMM_SUCCESS;
}

/* ------------------------------------------------------------------ */
typedef struct problem {
    int64_t m, k, n;
    tcspmm_precision precision;
    cudaStream_t stream;
    sp24_gpu *ours;
    void *dA_dense;   /* m x k row-major, bf16/fp16/fp32: the decompressed matrix */
    void *dB16, *dB32; /* k x n row-major: in the 16-bit type (not for tf32), in fp32 */
    float *dC;        /* m x n row-major (room for floats; 16-bit outputs use half) */
    cublasHandle_t cublas;
    tcspmm_plan *hrpb;
#ifdef TCSPMM_HAVE_CUSPARSELT
    cusparseLtHandle_t lt;
    /* the plan points at its descriptors and algorithm selection: they live
     * as long as it does (on setup's stack, later runs overwrote them) */
    cusparseLtMatDescriptor_t lt_a, lt_b, lt_c;
    cusparseLtMatmulDescriptor_t lt_mm;
    cusparseLtMatmulAlgSelection_t lt_sel;
    cusparseLtMatmulPlan_t lt_plan;
    void *lt_compressed, *lt_workspace;
    int lt_ready;
#endif
} problem;

static int data_16(const problem *p)
{
    return p->precision == TCSPMM_PRECISION_BF16 ? SP24_DATA_BF16 : SP24_DATA_FP16;
}

static tcspmm_status run_ours_16(void *arg)
{
    problem *p = (problem *)arg;
    return sp24_gpu_spmm(p->ours, p->n, 1.0f, p->dB16, data_16(p), p->n, 0.0f, p->dC,
                         SP24_DATA_FP32, p->n, TCSPMM_LAYOUT_ROW_MAJOR, p->stream);
}

static tcspmm_status run_ours_16c(void *arg)
{
    problem *p = (problem *)arg;
    return sp24_gpu_spmm(p->ours, p->n, 1.0f, p->dB16, data_16(p), p->n, 0.0f, p->dC,
                         data_16(p), p->n, TCSPMM_LAYOUT_ROW_MAJOR, p->stream);
}

static tcspmm_status run_ours_32(void *arg)
{
    problem *p = (problem *)arg;
    return sp24_gpu_spmm(p->ours, p->n, 1.0f, p->dB32, SP24_DATA_FP32, p->n, 0.0f, p->dC,
                         SP24_DATA_FP32, p->n, TCSPMM_LAYOUT_ROW_MAJOR, p->stream);
}

/* The mma.sp warp kernel on the same handle (where ours is wgmma.sp): B
 * in 16 bits, or fp32 at tf32. */
static tcspmm_status run_warp_kernel(void *arg)
{
    problem *p = (problem *)arg;
    TCSPMM_TRY(sp24_gpu_set_kernel(p->ours, SP24_KERNEL_MMA_SP));
    tcspmm_status st = p->precision == TCSPMM_PRECISION_TF32 ? run_ours_32(p) : run_ours_16(p);
    TCSPMM_TRY(sp24_gpu_set_kernel(p->ours, SP24_KERNEL_WGMMA));
    return st;
}

static tcspmm_status cublas_status(cublasStatus_t s, const char *what)
{
    if (s == CUBLAS_STATUS_SUCCESS) return TCSPMM_SUCCESS;
    return tcspmm_fail(TCSPMM_ERROR_CUDA, "%s failed: cuBLAS status %d", what, (int)s);
}

/* Row-major C = A * B as column-major C^T = B^T * A^T. */
static tcspmm_status run_cublas(void *arg)
{
    problem *p = (problem *)arg;
    const float one = 1.0f, zero = 0.0f;
    int tf32 = p->precision == TCSPMM_PRECISION_TF32;
    cudaDataType t = tf32 ? CUDA_R_32F
                     : p->precision == TCSPMM_PRECISION_BF16 ? CUDA_R_16BF : CUDA_R_16F;
    return cublas_status(
        cublasGemmEx(p->cublas, CUBLAS_OP_N, CUBLAS_OP_N, (int)p->n, (int)p->m, (int)p->k, &one,
                     tf32 ? p->dB32 : p->dB16, t, (int)p->n, p->dA_dense, t, (int)p->k, &zero,
                     p->dC, CUDA_R_32F, (int)p->n,
                     tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F,
                     CUBLAS_GEMM_DEFAULT),
        "cublasGemmEx");
}

static tcspmm_status run_hrpb(void *arg)
{
    problem *p = (problem *)arg;
    return tcspmm_spmm(p->hrpb, p->n, 1.0f, (const float *)p->dB32, p->n, 0.0f, p->dC, p->n,
                       TCSPMM_LAYOUT_ROW_MAJOR, p->stream);
}

#ifdef TCSPMM_HAVE_CUSPARSELT
static tcspmm_status lt_status(cusparseStatus_t s, const char *what)
{
    if (s == CUSPARSE_STATUS_SUCCESS) return TCSPMM_SUCCESS;
    return tcspmm_fail(TCSPMM_ERROR_CUSPARSE, "%s failed: %s", what, cusparseLtGetErrorString(s));
}

static tcspmm_status run_cusparselt(void *arg)
{
    problem *p = (problem *)arg;
    const float one = 1.0f, zero = 0.0f;
    const void *b = p->precision == TCSPMM_PRECISION_TF32 ? p->dB32 : p->dB16;
    return lt_status(cusparseLtMatmul(&p->lt, &p->lt_plan, &one, p->lt_compressed, b, &zero,
                                      p->dC, p->dC, p->lt_workspace, &p->stream, 1),
                     "cusparseLtMatmul");
}

/* Descriptors, plan, compression of A and the algorithm search. */
static tcspmm_status cusparselt_setup(problem *p)
{
    cusparseLtMatDescriptor_t *a = &p->lt_a, *b = &p->lt_b, *c = &p->lt_c;
    cusparseLtMatmulDescriptor_t *mm = &p->lt_mm;
    cusparseLtMatmulAlgSelection_t *sel = &p->lt_sel;
    cudaDataType t = p->precision == TCSPMM_PRECISION_TF32 ? CUDA_R_32F
                     : p->precision == TCSPMM_PRECISION_BF16 ? CUDA_R_16BF : CUDA_R_16F;
    size_t compressed = 0, buffer = 0, workspace = 0;
    void *dbuf = NULL;
    const float one = 1.0f, zero = 0.0f;
    TCSPMM_TRY(lt_status(cusparseLtInit(&p->lt), "cusparseLtInit"));
    TCSPMM_TRY(lt_status(cusparseLtStructuredDescriptorInit(&p->lt, a, p->m, p->k, p->k, 16, t,
                                                            CUSPARSE_ORDER_ROW,
                                                            CUSPARSELT_SPARSITY_50_PERCENT),
                         "cusparseLtStructuredDescriptorInit"));
    TCSPMM_TRY(lt_status(cusparseLtDenseDescriptorInit(&p->lt, b, p->k, p->n, p->n, 16, t,
                                                       CUSPARSE_ORDER_ROW),
                         "cusparseLtDenseDescriptorInit(B)"));
    /* cuSPARSELt offers no fp32 C for 16-bit inputs here: C is in the input type */
    TCSPMM_TRY(lt_status(cusparseLtDenseDescriptorInit(&p->lt, c, p->m, p->n, p->n, 16, t,
                                                       CUSPARSE_ORDER_ROW),
                         "cusparseLtDenseDescriptorInit(C)"));
    TCSPMM_TRY(lt_status(cusparseLtMatmulDescriptorInit(&p->lt, mm, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                                        CUSPARSE_OPERATION_NON_TRANSPOSE, a, b,
                                                        c, c, CUSPARSE_COMPUTE_32F),
                         "cusparseLtMatmulDescriptorInit"));
    TCSPMM_TRY(lt_status(cusparseLtMatmulAlgSelectionInit(&p->lt, sel, mm,
                                                           CUSPARSELT_MATMUL_ALG_DEFAULT),
                         "cusparseLtMatmulAlgSelectionInit"));
    TCSPMM_TRY(lt_status(cusparseLtMatmulPlanInit(&p->lt, &p->lt_plan, mm, sel),
                         "cusparseLtMatmulPlanInit"));
    TCSPMM_TRY(lt_status(cusparseLtSpMMACompressedSize(&p->lt, &p->lt_plan, &compressed, &buffer),
                         "cusparseLtSpMMACompressedSize"));
    TCSPMM_TRY(TCSPMM_CUDA(cudaMalloc(&p->lt_compressed, compressed)));
    TCSPMM_TRY(TCSPMM_CUDA(cudaMalloc(&dbuf, buffer ? buffer : 1)));
    TCSPMM_TRY(lt_status(cusparseLtSpMMACompress(&p->lt, &p->lt_plan, p->dA_dense,
                                                 p->lt_compressed, dbuf, p->stream),
                         "cusparseLtSpMMACompress"));
    TCSPMM_TRY(TCSPMM_CUDA(cudaStreamSynchronize(p->stream)));
    cudaFree(dbuf);
    TCSPMM_TRY(lt_status(cusparseLtMatmulGetWorkspace(&p->lt, &p->lt_plan, &workspace),
                         "cusparseLtMatmulGetWorkspace"));
    TCSPMM_TRY(TCSPMM_CUDA(cudaMalloc(&p->lt_workspace, workspace ? workspace : 1)));
    const void *bptr = p->precision == TCSPMM_PRECISION_TF32 ? p->dB32 : p->dB16;
    TCSPMM_TRY(lt_status(cusparseLtMatmulSearch(&p->lt, &p->lt_plan, &one, p->lt_compressed, bptr,
                                                &zero, p->dC, p->dC, p->lt_workspace,
                                                &p->stream, 1),
                         "cusparseLtMatmulSearch"));
    /* the algorithm the search chose (its split K among them) may need more */
    size_t searched = 0;
    TCSPMM_TRY(lt_status(cusparseLtMatmulGetWorkspace(&p->lt, &p->lt_plan, &searched),
                         "cusparseLtMatmulGetWorkspace"));
    if (searched > workspace) {
        fprintf(stderr, "cuSPARSELt: the searched plan needs %zu workspace bytes (%zu before)\n",
                searched, workspace);
        cudaFree(p->lt_workspace);
        p->lt_workspace = NULL;
        TCSPMM_TRY(TCSPMM_CUDA(cudaMalloc(&p->lt_workspace, searched)));
    }
    p->lt_ready = 1;
    return TCSPMM_SUCCESS;
}

static void cusparselt_teardown(problem *p)
{
    if (p->lt_ready) {
        cusparseLtMatmulPlanDestroy(&p->lt_plan);
        cusparseLtDestroy(&p->lt);
    }
    cudaFree(p->lt_compressed);
    cudaFree(p->lt_workspace);
    p->lt_compressed = p->lt_workspace = NULL;
    p->lt_ready = 0;
}
#endif

/* ------------------------------------------------------------------ */
/* Relative Frobenius difference of a C to a reference copy, on the first
 * `count` elements: of host's floats, of dC's floats (rel_diff), or of dC's
 * 16-bit elements of the precision (rel_diff_16); host holds count floats. */
static double host_rel_diff(const float *host, const float *ref, size_t count)
{
    double d2 = 0.0, r2 = 0.0;
    for (size_t i = 0; i < count; i++) {
        double d = (double)host[i] - ref[i];
        d2 += d * d;
        r2 += (double)ref[i] * ref[i];
    }
    return sqrt(d2 / (r2 > 0 ? r2 : 1));
}

static double rel_diff(const float *dC, const float *ref, size_t count, float *host)
{
    if (TCSPMM_CUDA(cudaMemcpy(host, dC, count * sizeof(float), cudaMemcpyDeviceToHost)))
        return NAN;
    return host_rel_diff(host, ref, count);
}

static double rel_diff_16(const void *dC, const float *ref, size_t count, float *host,
                          tcspmm_precision precision)
{
    uint16_t *bits = (uint16_t *)host + count; /* the upper half of host's floats */
    if (TCSPMM_CUDA(cudaMemcpy(bits, dC, count * 2, cudaMemcpyDeviceToHost))) return NAN;
    for (size_t i = 0; i < count; i++) host[i] = sp24_half_value(bits[i], precision);
    return host_rel_diff(host, ref, count);
}

static int parse_list(const char *s, int64_t *out)
{
    int n = 0;
    while (*s && n < MAX_LIST) {
        out[n++] = strtoll(s, (char **)&s, 10);
        if (*s == ',') s++;
    }
    return n;
}

static double tflops(const problem *p, float ms)
{
    return ms > 0 ? 2.0 * (double)p->m * (double)p->n * (double)p->k / (ms * 1e-3) / 1e12 : 0.0;
}

/* One more run of fn into p's C, filled with 0xff bytes first (NaN in fp32,
 * fp16 and bf16), for the check. */
static tcspmm_status run_poisoned(gpu_timer_fn fn, problem *p, size_t c_bytes)
{
    TCSPMM_TRY(TCSPMM_CUDA(cudaMemsetAsync(p->dC, 0xff, c_bytes, p->stream)));
    return fn(p);
}

/* Builds the matrix for size m = k, then times every n. */
static tcspmm_status bench_size(bench_ctx *ctx, int64_t m, const int64_t *ns, int nn,
                                tcspmm_precision prec, int with_hrpb, int ours_only)
{
    problem p;
    memset(&p, 0, sizeof p);
    p.m = p.k = m;
    p.precision = prec;
    p.stream = ctx->timer.stream;
    int tf32 = prec == TCSPMM_PRECISION_TF32;
    tcspmm_csr A;
    sp24 s;
    TCSPMM_TRY(sp24_gen(m, m, tf32 ? SP24_1TO2 : SP24_2TO4, 0.0, 42 + (uint64_t)m, &A));
    TCSPMM_TRY(sp24_compress(&A, prec, 0, 0, &s));
    TCSPMM_TRY(sp24_gpu_upload(&s, &p.ours));
    /* the decompressed (rounded) matrix, dense, for cuBLAS and cuSPARSELt */
    size_t mk = (size_t)(m * m), es = tf32 ? 4 : 2;
    float *dense = (float *)malloc(mk * sizeof(float));
    if (!dense) return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "bench: dense A");
    TCSPMM_TRY(sp24_decompress(&s, dense, m));
    if (!tf32) {
        uint16_t *h = (uint16_t *)dense; /* in place: element i only reads float i >= i/2 */
        for (size_t i = 0; i < mk; i++) h[i] = sp24_half_bits(dense[i], prec);
    }
    TCSPMM_TRY(TCSPMM_CUDA(cudaMalloc(&p.dA_dense, mk * es)));
    TCSPMM_TRY(TCSPMM_CUDA(cudaMemcpy(p.dA_dense, dense, mk * es, cudaMemcpyHostToDevice)));
    free(dense);
    sp24_free(&s);
    TCSPMM_TRY(cublas_status(cublasCreate(&p.cublas), "cublasCreate"));
    TCSPMM_TRY(cublas_status(cublasSetStream(p.cublas, ctx->timer.stream), "cublasSetStream"));
    if (with_hrpb && tf32 && !ours_only) {
        tcspmm_options opt;
        tcspmm_options_init(&opt);
        opt.path = TCSPMM_PATH_HRPB;
        if (tcspmm_plan_create(&A, &opt, &p.hrpb) != TCSPMM_SUCCESS) {
            fprintf(stderr, "HRPB plan: %s\n", tcspmm_last_error());
            p.hrpb = NULL;
        }
    }
    tcspmm_csr_free(&A);

    for (int i = 0; i < nn; i++) {
        p.n = ns[i];
        size_t kn = (size_t)(p.k * p.n), mn = (size_t)(p.m * p.n);
        float *hb = (float *)malloc(kn * sizeof(float)), *ref = (float *)malloc(mn * sizeof(float)),
              *host = (float *)malloc(mn * sizeof(float));
        uint16_t *hb16 = (uint16_t *)malloc(kn * sizeof(uint16_t));
        rng_fill(hb, kn, 7 + (uint64_t)p.n);
        for (size_t j = 0; j < kn && !tf32; j++) hb16[j] = sp24_half_bits(hb[j], prec);
        TCSPMM_TRY(TCSPMM_CUDA(cudaMalloc(&p.dB32, kn * 4)));
        TCSPMM_TRY(TCSPMM_CUDA(cudaMalloc(&p.dB16, kn * 2)));
        TCSPMM_TRY(TCSPMM_CUDA(cudaMalloc((void **)&p.dC, mn * 4)));
        TCSPMM_TRY(TCSPMM_CUDA(cudaMemcpy(p.dB32, hb, kn * 4, cudaMemcpyHostToDevice)));
        TCSPMM_TRY(TCSPMM_CUDA(cudaMemcpy(p.dB16, hb16, kn * 2, cudaMemcpyHostToDevice)));

        enum { BLAS, OURS16, OURS16C, OURS32, WARP, LT, HRPB, CONTENDERS };
        contender c[CONTENDERS] = {
            {ours_only ? NULL : run_cublas, -1.0f},
            {tf32 ? NULL : run_ours_16, -1.0f}, /* 16-bit B */
            {tf32 ? NULL : run_ours_16c, -1.0f}, /* 16-bit B and C */
            {run_ours_32, -1.0f},                /* fp32 B */
            {!ours_only && sp24_gpu_kernel(p.ours) == SP24_KERNEL_WGMMA ? run_warp_kernel : NULL,
             -1.0f},
            {NULL, -1.0f}, /* cuSPARSELt, once set up */
            {p.hrpb ? run_hrpb : NULL, -1.0f}};
#ifdef TCSPMM_HAVE_CUSPARSELT
        if (!ours_only) {
            if (cusparselt_setup(&p) == TCSPMM_SUCCESS)
                c[LT].fn = run_cusparselt;
            else
                fprintf(stderr, "cuSPARSELt: %s\n", tcspmm_last_error());
        }
#endif
        const tcspmm_status timed = time_contenders(ctx, c, CONTENDERS, &p);
        /* each output against cuBLAS's, from one more run of each into a C
         * poisoned first, so that an element a contender leaves unwritten
         * reads as NaN */
        double diff[CONTENDERS];
        for (int j = 0; j < CONTENDERS; j++) diff[j] = NAN;
        if (!timed && c[BLAS].fn && run_poisoned(c[BLAS].fn, &p, mn * 4) == TCSPMM_SUCCESS &&
            !TCSPMM_CUDA(cudaMemcpy(ref, p.dC, mn * 4, cudaMemcpyDeviceToHost)))
            for (int j = OURS16; j < CONTENDERS; j++) {
                if (!c[j].fn) continue;
                const int c16 = j == OURS16C || (j == LT && !tf32);
                diff[j] = run_poisoned(c[j].fn, &p, mn * (c16 ? 2 : 4)) != TCSPMM_SUCCESS ? NAN
                          : c16 ? rel_diff_16(p.dC, ref, mn, host, prec)
                                : rel_diff(p.dC, ref, mn, host);
                if (!(diff[j] <= CHECK_BOUND)) {
                    fprintf(stderr, "sp24_bench: %s %lld x %lld, contender %d: difference %.3g "
                            "to cuBLAS (bound %g)\n", tcspmm_precision_name(prec),
                            (long long)p.m, (long long)p.n, j, diff[j], CHECK_BOUND);
                    ctx->failed = 1;
                }
            }
#ifdef TCSPMM_HAVE_CUSPARSELT
        cusparselt_teardown(&p);
#endif
        TCSPMM_TRY(timed);
        const float t_blas = c[BLAS].ms, t16 = c[OURS16].ms, t16c = c[OURS16C].ms,
                    t32 = c[OURS32].ms, t_warp = c[WARP].ms, t_lt = c[LT].ms, t_hrpb = c[HRPB].ms;
        const double d16 = diff[OURS16], d16c = diff[OURS16C], d32 = diff[OURS32],
                     d_warp = diff[WARP], d_lt = diff[LT], d_hrpb = diff[HRPB];
        float t_ours = tf32 ? t32 : t16;
        printf("| %s | %5lld | %5lld | %8.4f %6.1f | %8.4f %6.1f | %8.4f %6.1f | %8.4f %6.1f | "
               "%8.4f %6.1f | %8.4f %6.1f | %8.4f %6.1f | %5.2f | %5.2f | %5.2f | "
               "%.1e %.1e %.1e %.1e %.1e %.1e |\n",
               tcspmm_precision_name(prec), (long long)p.m, (long long)p.n, t16, tflops(&p, t16),
               t16c, tflops(&p, t16c), t32, tflops(&p, t32), t_warp, tflops(&p, t_warp), t_lt,
               tflops(&p, t_lt), t_blas, tflops(&p, t_blas), t_hrpb, tflops(&p, t_hrpb),
               t_lt > 0 && t_ours > 0 ? t_lt / t_ours : 0.0,
               t_lt > 0 && t16c > 0 ? t_lt / t16c : 0.0,
               t_blas > 0 && t_ours > 0 ? t_blas / t_ours : 0.0, d16, d16c, d32, d_warp, d_lt,
               d_hrpb);
        fflush(stdout);
        cudaFree(p.dB32);
        cudaFree(p.dB16);
        cudaFree(p.dC);
        free(hb);
        free(hb16);
        free(ref);
        free(host);
    }
    if (p.hrpb) tcspmm_plan_destroy(p.hrpb);
    cublasDestroy(p.cublas);
    cudaFree(p.dA_dense);
    sp24_gpu_free(p.ours);
    return TCSPMM_SUCCESS;
}

int main(int argc, char **argv)
{
    int64_t ms[MAX_LIST] = {4096, 8192, 16384}, ns[MAX_LIST] = {64, 128, 512, 4096, 8192};
    int nm = 3, nn = 5, with_hrpb = 1, ours_only = 0;
    tcspmm_precision prec = TCSPMM_PRECISION_BF16;
    bench_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.reps = 10;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--precision") && i + 1 < argc) {
            const char *v = argv[++i];
            prec = !strcmp(v, "tf32") ? TCSPMM_PRECISION_TF32
                   : !strcmp(v, "fp16") ? TCSPMM_PRECISION_FP16 : TCSPMM_PRECISION_BF16;
        } else if (!strcmp(argv[i], "--m") && i + 1 < argc) {
            nm = parse_list(argv[++i], ms);
        } else if (!strcmp(argv[i], "--n") && i + 1 < argc) {
            nn = parse_list(argv[++i], ns);
        } else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
            ctx.reps = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--no-hrpb")) {
            with_hrpb = 0;
        } else if (!strcmp(argv[i], "--ours-only")) {
            ours_only = 1;
        } else {
            fprintf(stderr, "usage: %s [--precision bf16|fp16|tf32] [--m list] [--n list] "
                            "[--reps R] [--no-hrpb] [--ours-only]\n", argv[0]);
            return 2;
        }
    }
    if (ctx.reps < 1) ctx.reps = 1;
    if (ctx.reps > MAX_REPS) ctx.reps = MAX_REPS;
    cudaStream_t stream = NULL;
    if (TCSPMM_CUDA(cudaStreamCreate(&stream)) || gpu_timer_create(&ctx.timer, stream)) {
        fprintf(stderr, "%s\n", tcspmm_last_error());
        return 1;
    }
    struct cudaDeviceProp prop;
    if (TCSPMM_CUDA(cudaGetDeviceProperties(&prop, 0))) {
        fprintf(stderr, "%s\n", tcspmm_last_error());
        return 1;
    }
#ifdef TCSPMM_HAVE_CUSPARSELT
    const char *lt = "cuSPARSELt: yes";
#else
    const char *lt = "cuSPARSELt: not built in (TCSPMM_HAVE_CUSPARSELT undefined)";
#endif
    printf("device: %s, %s; median of %d, L2 flushed, the contenders in a random order each "
           "round; ms and TFLOP/s (2*M*N*K); ours = %s; mma.sp = the warp kernel (16-bit B; tf32: "
           "fp32 B) where ours is wgmma.sp; vs = time(other) / time(ours); diff = rel. Frobenius "
           "difference to cuBLAS of one more run into a C filled with NaN (nan: the contender did "
           "not run, or left an element unwritten, which fails the run, as does a difference "
           "above %g)\n\n",
           prop.name, lt, ctx.reps, sp24_kernel_name(sp24_kernel_default()), CHECK_BOUND);
    printf("| prec | M=K | N | ours 16-bit B | ours 16-bit B, C | ours fp32 B | mma.sp | "
           "cuSPARSELt | cuBLAS dense | HRPB | vs cuSPARSELt | vs cuSPARSELt, 16-bit C | "
           "vs cuBLAS | diff ours16 ours16c ours32 mma.sp Lt HRPB |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < nm; i++) {
        if (bench_size(&ctx, ms[i], ns, nn, prec, with_hrpb, ours_only) != TCSPMM_SUCCESS) {
            fprintf(stderr, "M = %lld: %s\n", (long long)ms[i], tcspmm_last_error());
            return 1;
        }
    }
    return ctx.failed;
}
