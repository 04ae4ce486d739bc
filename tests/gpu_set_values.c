/* gpu_set_values.c: tcspmm_plan_set_values on the GPU paths. On the edge
 * cases, a matrix with a long row, the bundled matrices, a 1:2 and a 2:4
 * matrix, plans made with opt.updatable_values on every path (auto
 * measured at its first call, HRPB in TF32 with 16- and 32-row panels, in
 * FP32 and on clustered rows,
 * cuSPARSE, cpu, sparse24 in TF32, BF16 and FP16), from host arrays and
 * (auto, HRPB) from device arrays: a product, then new values from host
 * memory, a product, new values from device memory, a product and one more
 * at n = 32 with unpadded leading dimensions (so cuSPARSE may run
 * CSR_ALG3), all on a stream of their own and each product against the
 * float64 reference of A with its newest values (C poisoned, fresh B each
 * time). Also: value sources worked out on the host (for an HRPB built
 * there) give the bytes of an HRPB built from the new values; a CUDA graph
 * of a product captured before an update computes with the new values
 * (HRPB, cuSPARSE at N = 1 and 32 with its preprocessing kept, sparse24 in
 * each precision); a NaN in device values is refused, naming its index, and the plan
 * keeps its values. The sparse24 path: its matrices hold explicit zeros
 * (which keep their slots, so new values go where the pattern says); the
 * device's placement gives the bytes of a host compression of the new
 * values; the auto path takes it for a structured pattern and not for one
 * whose explicit zeros alone make the structure (nor does a sparse24 plan
 * of that pattern get made); values that overflow bf16, fp16 or tf32 are
 * refused, naming their index, and the largest that do not are taken, from
 * host and device memory, and give the right product (with B scaled by
 * 2^-4, so that it stays finite). An update from host memory returns while
 * another stream is held by a host function: it waits for its own stream
 * only. tcspmm_spmm_host after every device-value update. Updates of 17 MB
 * of pageable values from the host (HRPB, cuSPARSE, sparse24 in bf16) go
 * through the plan's page-locked buffers, kept from the first update to the
 * second, and are checked on the device (test_staged_updates); an HRPB
 * plan's second such update does not wait for a held stream. */
#include <cuda_runtime.h>
#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "csr_gpu.h"
#include "device_csr.h"
#include "format/csr.h"
#include "format/hrpb.h"
#include "harness.h"
#include "host_upload.h"
#include "kernels/hrpb_gpu.h"
#include "kernels/sp24_gpu_internal.h"
#include "loadbalance/wave_split.h"
#include "matgen.h"
#include "plan.h"
#include "reference.h"
#include "rng.h"
#include "sparse24_gen.h"

static uint64_t seed = 11000;
static cudaStream_t stream;

/* A plan's bound against float64: 1e-2 in bf16 and fp16; 1e-5 where every
 * product is FP32-accurate (FP32 mode, cuSPARSE, the CPU); else 1e-3 (TF32,
 * and auto plans, which may run it). */
static double tolerance(const tcspmm_plan *plan)
{
    tcspmm_info info;
    CHECK_OK(tcspmm_plan_info(plan, &info));
    if (info.precision == TCSPMM_PRECISION_BF16 || info.precision == TCSPMM_PRECISION_FP16)
        return 1e-2;
    if (info.precision == TCSPMM_PRECISION_FP32 || info.path == TCSPMM_PATH_CUSPARSE ||
        info.path == TCSPMM_PATH_CPU)
        return 1e-5;
    return 1e-3;
}

/* One product on stream (on the host for a cpu plan) against the float64
 * reference of A, with B scaled by b_scale (a power of 2). */
static void check_product_n(tcspmm_plan *plan, const tcspmm_csr *A, int64_t n, int pad,
                            float b_scale, const char *what)
{
    tcspmm_info info;
    CHECK_OK(tcspmm_plan_info(plan, &info));
    char label[320];
    snprintf(label, sizeof label, "%s (path %s, %s)", what, tcspmm_path_name(info.path),
             tcspmm_precision_name(info.precision));
    tests_check_spmm_scaled(plan, A, n, pad, info.path == TCSPMM_PATH_CPU, tolerance(plan), b_scale,
                            seed++, stream, label);
}

/* n = 19 with padded leading dimensions (21). */
static void check_product(tcspmm_plan *plan, const tcspmm_csr *A, const char *what)
{
    check_product_n(plan, A, 19, 2, 1.0f, what);
}

/* A product after A took the largest value that fits (near FLT_MAX for
 * bf16 and tf32): B scaled by 2^-4 keeps 1.5 * A * B finite, and a value
 * dropped or clamped below what the precision holds leaves the product off
 * by far more than the tolerance. */
static void check_largest(tcspmm_plan *plan, const tcspmm_csr *A, const char *what)
{
    check_product_n(plan, A, 19, 2, 0x1p-4f, what);
}

/* A copy of values in device memory (free with cudaFree), ordered on
 * stream: every device array of the test is written and read on stream (a
 * plain cudaMemcpy from pageable memory may return before its copy lands,
 * and stream does not wait for the legacy stream). */
static float *on_device(const float *values, int64_t count)
{
    float *d = NULL;
    CHECK(cudaMalloc((void **)&d, (size_t)count * 4 + 4) == cudaSuccess);
    CHECK(cudaMemcpyAsync(d, values, (size_t)count * 4, cudaMemcpyHostToDevice, stream) ==
          cudaSuccess);
    return d;
}

/* A product, new values from the host, a product, new values from the
 * device, a product. now holds A with the values the plan has. */
static void check_updates(tcspmm_plan *plan, tcspmm_csr *now, const char *what)
{
    char label[320];
    snprintf(label, sizeof label, "%s, original values", what);
    check_product(plan, now, label);
    rng_fill(now->values, (size_t)now->nnz, seed++);
    CHECK_OK(tcspmm_plan_set_values(plan, now->values, stream));
    snprintf(label, sizeof label, "%s, values from the host", what);
    check_product(plan, now, label);
    rng_fill(now->values, (size_t)now->nnz, seed++);
    float *d = on_device(now->values, now->nnz);
    CHECK_OK(tcspmm_plan_set_values(plan, d, stream));
    CHECK(cudaStreamSynchronize(stream) == cudaSuccess);
    cudaFree(d);
    snprintf(label, sizeof label, "%s, values from the device", what);
    check_product(plan, now, label);
    snprintf(label, sizeof label, "%s, values from the device, n = 32 (CSR_ALG3 may run)", what);
    check_product_n(plan, now, 32, 0, 1.0f, label);
    snprintf(label, sizeof label, "%s, values from the device, on the host", what);
    tests_check_spmm(plan, now, 5, 0, 1, tolerance(plan), seed++, stream, label); /* A copied back */
}

typedef struct plan_kind {
    tcspmm_path path;
    tcspmm_precision precision;
    tcspmm_row_order order;
    int from_device;
    int panel_rows;
} plan_kind;

static tcspmm_options updatable_options(tcspmm_path path, tcspmm_precision precision)
{
    tcspmm_options opt;
    tcspmm_options_init(&opt);
    opt.path = path;
    opt.precision = precision;
    opt.updatable_values = 1;
    return opt;
}

static void check_kind(const tcspmm_csr *A, plan_kind k, const char *what)
{
    tcspmm_options opt = updatable_options(k.path, k.precision);
    opt.row_order = k.order;
    opt.panel_rows = k.panel_rows;
    opt.measure_at_first_call = 1;
    opt.expected_n = 19;
    tcspmm_plan *plan = NULL;
    csr_gpu g = {0};
    if (k.from_device) {
        tcspmm_csr dA;
        device_csr_upload(A, &g, &dA);
        CHECK_OK(tcspmm_plan_create_device(&dA, &opt, &plan));
        csr_gpu_free(&g); /* the plan must not need it */
    } else {
        CHECK_OK(tcspmm_plan_create(A, &opt, &plan));
    }
    if (!plan) return;
    char label[160];
    snprintf(label, sizeof label, "%s: %s %s%s%s%s", what, tcspmm_path_name(k.path),
             tcspmm_precision_name(k.precision),
             k.order == TCSPMM_ROW_ORDER_CLUSTERED ? " clustered" : "",
             k.from_device ? " from device arrays" : "", k.panel_rows == 32 ? " 32-row panels" : "");
    tcspmm_csr now;
    CHECK_OK(csr_copy(A, &now));
    check_updates(plan, &now, label);
    tcspmm_csr_free(&now);
    tcspmm_plan_destroy(plan);
}

static void check_matrix(const tcspmm_csr *A, const char *what)
{
    const plan_kind kinds[] = {
        {TCSPMM_PATH_AUTO, TCSPMM_PRECISION_TF32, TCSPMM_ROW_ORDER_NATURAL, 0, 16},
        {TCSPMM_PATH_AUTO, TCSPMM_PRECISION_TF32, TCSPMM_ROW_ORDER_NATURAL, 1, 16},
        {TCSPMM_PATH_HRPB, TCSPMM_PRECISION_TF32, TCSPMM_ROW_ORDER_NATURAL, 0, 16},
        {TCSPMM_PATH_HRPB, TCSPMM_PRECISION_TF32, TCSPMM_ROW_ORDER_CLUSTERED, 1, 16},
        {TCSPMM_PATH_HRPB, TCSPMM_PRECISION_TF32, TCSPMM_ROW_ORDER_NATURAL, 0, 32},
        {TCSPMM_PATH_HRPB, TCSPMM_PRECISION_FP32, TCSPMM_ROW_ORDER_NATURAL, 0, 16},
        {TCSPMM_PATH_CUSPARSE, TCSPMM_PRECISION_TF32, TCSPMM_ROW_ORDER_NATURAL, 0, 16},
        {TCSPMM_PATH_CPU, TCSPMM_PRECISION_TF32, TCSPMM_ROW_ORDER_NATURAL, 0, 16},
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) check_kind(A, kinds[i], what);
}

/* A plan on path in precision whose values may change; NULL, with a failed
 * check, if it cannot be made. */
static tcspmm_plan *updatable_plan(const tcspmm_csr *A, tcspmm_path path, tcspmm_precision precision)
{
    tcspmm_options opt = updatable_options(path, precision);
    tcspmm_plan *plan = NULL;
    CHECK_OK(tcspmm_plan_create(A, &opt, &plan));
    return plan;
}

/* A graph of a product on path captured before an update launches with
 * the new values (on the cuSPARSE path with the preprocessing it captured:
 * N = 1 preprocesses, and so does CSR_ALG3 where the race takes it). */
static void test_graph(const tcspmm_csr *A, tcspmm_path path, tcspmm_precision precision, int64_t n)
{
    tcspmm_plan *plan = updatable_plan(A, path, precision);
    if (!plan) return;
    tcspmm_csr now;
    CHECK_OK(csr_copy(A, &now));
    test_operands t;
    test_operands_make(&t, A, n, TCSPMM_LAYOUT_ROW_MAJOR, 0, 0.0f, seed++);
    float *dB = on_device(t.B, (int64_t)t.bsize), *dC = on_device(t.C0, (int64_t)t.csize);
    CHECK_OK(tcspmm_spmm(plan, n, 1.0f, dB, t.ldb, 0.0f, dC, t.ldc, TCSPMM_LAYOUT_ROW_MAJOR, stream));
    cudaGraph_t graph = NULL;
    cudaGraphExec_t exec = NULL;
    CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal) == cudaSuccess);
    CHECK_OK(tcspmm_spmm(plan, n, 1.0f, dB, t.ldb, 0.0f, dC, t.ldc, TCSPMM_LAYOUT_ROW_MAJOR, stream));
    CHECK(cudaStreamEndCapture(stream, &graph) == cudaSuccess);
    CHECK(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
    rng_fill(now.values, (size_t)now.nnz, seed++);
    CHECK_OK(tcspmm_plan_set_values(plan, now.values, stream));
    CHECK(cudaMemcpyAsync(dC, t.C0, t.csize * 4, cudaMemcpyHostToDevice, stream) == cudaSuccess);
    CHECK(cudaGraphLaunch(exec, stream) == cudaSuccess);
    CHECK(cudaMemcpyAsync(t.C, dC, t.csize * 4, cudaMemcpyDeviceToHost, stream) == cudaSuccess);
    CHECK(cudaStreamSynchronize(stream) == cudaSuccess);
    CHECK_OK(reference_spmm(&now, n, 1.0f, t.B, t.ldb, 0.0f, t.C0, t.ldc, TCSPMM_LAYOUT_ROW_MAJOR,
                            t.ref));
    compare_result r = compare_to_reference(t.C, t.ldc, TCSPMM_LAYOUT_ROW_MAJOR, t.ref, A->rows, n,
                                            tolerance(plan));
    if (!r.pass)
        printf("graph after an update (path %s, n %lld): rel_err %.2e FAIL\n",
               tcspmm_path_name(path), (long long)n, r.rel_err);
    CHECK(r.pass);
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaFree(dB);
    cudaFree(dC);
    test_operands_free(&t);
    tcspmm_csr_free(&now);
    tcspmm_plan_destroy(plan);
}

/* The value sources worked out on the host (for an HRPB built there, as
 * when the device has no room to build it) and uploaded: new values
 * gathered on the device give the bytes of an HRPB built from them. */
static void test_host_sources(const tcspmm_csr *A)
{
    hrpb h, back, fresh;
    wave_split w;
    hrpb_gpu *g = NULL;
    CHECK_OK(hrpb_build(A, 16, 0, &h));
    CHECK_OK(wave_split_build(&h, 1, 132, 4, &w));
    CHECK_OK(hrpb_gpu_upload(&h, &w, TCSPMM_PRECISION_TF32, &g));
    int64_t *block_values = malloc(((size_t)h.num_blocks + 1) * sizeof(int64_t));
    uint32_t *source = malloc((size_t)A->nnz * sizeof(uint32_t));
    CHECK_OK(hrpb_value_sources(&h, A, 0, block_values, source));
    CHECK_OK(hrpb_gpu_upload_value_sources(g, block_values, h.num_blocks, source, A->nnz));
    CHECK(cudaDeviceSynchronize() == cudaSuccess); /* those uploads ran on the legacy stream */
    tcspmm_csr now;
    CHECK_OK(csr_copy(A, &now));
    rng_fill(now.values, (size_t)now.nnz, seed++);
    float *d = on_device(now.values, now.nnz);
    CHECK_OK(hrpb_gpu_set_values(g, d, stream));
    CHECK(cudaStreamSynchronize(stream) == cudaSuccess);
    CHECK_OK(hrpb_gpu_download(g, &h, &back));
    CHECK_OK(hrpb_build(&now, 16, 0, &fresh));
    CHECK(back.size_ptr[back.num_blocks] == fresh.size_ptr[fresh.num_blocks] &&
          !memcmp(back.packed, fresh.packed, (size_t)fresh.size_ptr[fresh.num_blocks]));
    cudaFree(d);
    hrpb_free(&fresh);
    hrpb_free(&back);
    tcspmm_csr_free(&now);
    free(source);
    free(block_values);
    hrpb_gpu_free(g);
    wave_split_free(&w);
    hrpb_free(&h);
}

/* New values refused with status want and a message holding expect; the
 * plan's products still use now's values. values: host or device. */
static void check_refused(tcspmm_plan *plan, const tcspmm_csr *now, const float *values,
                          tcspmm_status want, const char *expect, const char *what)
{
    tcspmm_status st = tcspmm_plan_set_values(plan, values, stream);
    if (st != want || !strstr(tcspmm_last_error(), expect))
        printf("%s: status %s, message '%s'\n", what, tcspmm_status_string(st), tcspmm_last_error());
    CHECK(st == want && strstr(tcspmm_last_error(), expect) != NULL);
    check_product(plan, now, what);
}

static void test_nan(const tcspmm_csr *A)
{
    tcspmm_plan *plan = updatable_plan(A, TCSPMM_PATH_HRPB, TCSPMM_PRECISION_TF32);
    if (!plan) return;
    float *bad = malloc((size_t)A->nnz * 4);
    rng_fill(bad, (size_t)A->nnz, seed++);
    bad[5] = NAN;
    bad[A->nnz - 1] = -INFINITY;
    float *d = on_device(bad, A->nnz);
    check_refused(plan, A, d, TCSPMM_ERROR_INVALID_MATRIX, "values[5] is NaN", "NaN on the device");
    cudaFree(d);
    free(bad);
    tcspmm_plan_destroy(plan);
}

/* S (2:4) with one explicit zero added where its group already holds two
 * entries: 2:4 by its values, not by its pattern. */
static void add_explicit_zero(const tcspmm_csr *S, tcspmm_csr *out)
{
    int64_t row = -1, col = -1;
    for (int64_t i = 0; i < S->rows && row < 0; i++)
        for (int64_t k = S->row_ptr[i]; k + 1 < S->row_ptr[i + 1] && row < 0; k++) {
            int32_t c0 = S->col_idx[k], c1 = S->col_idx[k + 1];
            if (c0 / 4 != c1 / 4) continue;
            for (int32_t c = (c0 / 4) * 4; c < (c0 / 4) * 4 + 4 && row < 0; c++)
                if (c != c0 && c != c1 && c < S->cols) row = i, col = c;
        }
    CHECK(row >= 0);
    CHECK_OK(csr_alloc(S->rows, S->cols, S->nnz + 1, out));
    int64_t w = 0;
    for (int64_t i = 0; i < S->rows; i++) {
        out->row_ptr[i] = w;
        int placed = i != row;
        for (int64_t k = S->row_ptr[i]; k <= S->row_ptr[i + 1]; k++) {
            if (!placed && (k == S->row_ptr[i + 1] || S->col_idx[k] > col)) {
                out->col_idx[w] = (int32_t)col;
                out->values[w++] = 0.0f;
                placed = 1;
            }
            if (k < S->row_ptr[i + 1]) {
                out->col_idx[w] = S->col_idx[k];
                out->values[w++] = S->values[k];
            }
        }
    }
    out->row_ptr[S->rows] = w;
    CHECK(w == S->nnz + 1);
}

/* A structured test matrix whose every third entry is an explicit zero. */
static void structured_with_zeros(sp24_structure structure, uint64_t gen_seed, tcspmm_csr *out)
{
    CHECK_OK(sp24_gen(200, 168, structure, 0.1, gen_seed, out));
    for (int64_t k = 0; k < out->nnz; k += 3) out->values[k] = 0.0f;
}


/* HRPB's TF32 rounding turns values within 2^-12 of FLT_MAX into Inf, as
 * tf32's: an HRPB plan refuses them as new values (the largest below is
 * taken, and multiplied right); an auto plan of a matrix holding one takes cuSPARSE and says why;
 * a forced HRPB plan of it is refused. */
static void test_hrpb_limit(void)
{
    tcspmm_csr H;
    CHECK_OK(matgen_random(90, 70, 0.1, seed++, &H));
    tcspmm_plan *plan = updatable_plan(&H, TCSPMM_PATH_HRPB, TCSPMM_PRECISION_TF32);
    float *v = malloc((size_t)H.nnz * 4);
    rng_fill(v, (size_t)H.nnz, seed++);
    if (plan) {
        v[H.nnz / 2] = FLT_MAX;
        check_refused(plan, &H, v, TCSPMM_ERROR_UNSUPPORTED, "overflows tf32, the HRPB", "HRPB");
    }
    v[H.nnz / 2] = -nextafterf(sp24_overflow_limit(TCSPMM_PRECISION_TF32), 0.0f); /* fits */
    memcpy(H.values, v, (size_t)H.nnz * 4);
    if (plan) {
        CHECK_OK(tcspmm_plan_set_values(plan, v, stream));
        check_largest(plan, &H, "HRPB, the largest value that fits");
    }
    tcspmm_plan_destroy(plan);
    H.values[H.nnz / 3] = -FLT_MAX;
    tcspmm_options opt = updatable_options(TCSPMM_PATH_AUTO, TCSPMM_PRECISION_TF32);
    plan = NULL;
    CHECK_OK(tcspmm_plan_create(&H, &opt, &plan));
    tcspmm_info info;
    if (plan && !tcspmm_plan_info(plan, &info))
        CHECK(info.path == TCSPMM_PATH_CUSPARSE && strstr(info.path_reason, "TF32 rounding"));
    tcspmm_plan_destroy(plan);
    opt.path = TCSPMM_PATH_HRPB;
    plan = NULL;
    CHECK(tcspmm_plan_create(&H, &opt, &plan) == TCSPMM_ERROR_UNSUPPORTED && plan == NULL);
    CHECK(strstr(tcspmm_last_error(), "turns into Inf") != NULL);
    free(v);
    tcspmm_csr_free(&H);
}

static void test_structure_refusals(void)
{
    tcspmm_csr S, Z;
    CHECK_OK(sp24_gen(96, 128, SP24_2TO4, 0.0, 21, &S));
    add_explicit_zero(&S, &Z);

    /* Z's pattern is not 2:4: no updatable sparse24 plan, and auto says so */
    tcspmm_options opt = updatable_options(TCSPMM_PATH_SPARSE24, TCSPMM_PRECISION_BF16);
    tcspmm_plan *plan = NULL;
    tcspmm_status st = tcspmm_plan_create(&Z, &opt, &plan);
    CHECK(st == TCSPMM_ERROR_UNSUPPORTED && strstr(tcspmm_last_error(), "every entry") != NULL);
    tcspmm_plan_destroy(plan);
    plan = NULL;
    opt.path = TCSPMM_PATH_AUTO;
    CHECK_OK(tcspmm_plan_create(&Z, &opt, &plan));
    tcspmm_info info;
    if (plan && !tcspmm_plan_info(plan, &info))
        CHECK(strcmp(info.structure, "none") == 0 && info.path != TCSPMM_PATH_SPARSE24);
    tcspmm_plan_destroy(plan);
    plan = NULL;
    opt.updatable_values = 0; /* by its values it is 2:4 */
    CHECK_OK(tcspmm_plan_create(&Z, &opt, &plan));
    if (plan && !tcspmm_plan_info(plan, &info))
        CHECK(strcmp(info.structure, "2:4") == 0 && info.path == TCSPMM_PATH_SPARSE24);
    tcspmm_plan_destroy(plan);

    /* values beyond each precision's range, from host and device memory */
    const struct { tcspmm_precision p; sp24_structure s; float big; const char *name; } over[] = {
        {TCSPMM_PRECISION_BF16, SP24_2TO4, FLT_MAX, "overflows bf16"},
        {TCSPMM_PRECISION_FP16, SP24_2TO4, 65520.0f, "overflows fp16"},
        {TCSPMM_PRECISION_TF32, SP24_1TO2, -FLT_MAX, "overflows tf32"},
    };
    for (int i = 0; i < 3; i++) {
        tcspmm_csr T;
        structured_with_zeros(over[i].s, 60 + i, &T);
        plan = updatable_plan(&T, TCSPMM_PATH_SPARSE24, over[i].p);
        if (plan) {
            float *v = malloc((size_t)T.nnz * 4);
            rng_fill(v, (size_t)T.nnz, seed++);
            v[T.nnz / 2] = over[i].big;
            char expect[64];
            snprintf(expect, sizeof expect, "values[%lld] = ", (long long)(T.nnz / 2));
            check_refused(plan, &T, v, TCSPMM_ERROR_UNSUPPORTED, expect, over[i].name);
            float *d = on_device(v, T.nnz);
            check_refused(plan, &T, d, TCSPMM_ERROR_UNSUPPORTED, over[i].name, over[i].name);
            cudaFree(d);
            v[T.nnz / 2] = copysignf(nextafterf(sp24_overflow_limit(over[i].p), 0.0f),
                                     over[i].big); /* the largest that fits */
            memcpy(T.values, v, (size_t)T.nnz * 4);
            CHECK_OK(tcspmm_plan_set_values(plan, v, stream));
            check_largest(plan, &T, "the largest value that fits, from the host");
            d = on_device(v, T.nnz);
            CHECK_OK(tcspmm_plan_set_values(plan, d, stream));
            CHECK(cudaStreamSynchronize(stream) == cudaSuccess);
            cudaFree(d);
            check_largest(plan, &T, "the largest value that fits, from the device");
            free(v);
        }
        tcspmm_plan_destroy(plan);
        tcspmm_csr_free(&T);
    }
    tcspmm_csr_free(&Z);
    tcspmm_csr_free(&S);
    test_hrpb_limit();
}

/* The device's placement of new values (sp24_gpu_set_values through the
 * pattern) gives the bytes of the host's compression of them, counting
 * every entry; the metadata does not change. */
static void test_sparse24_bytes(sp24_structure structure, tcspmm_precision p)
{
    tcspmm_csr A;
    structured_with_zeros(structure, 70 + (int)p, &A);
    sp24 old, fresh;
    sp24_gpu *g = NULL;
    csr_gpu pattern = {0};
    CHECK_OK(sp24_compress(&A, p, 0, 1, &old));
    CHECK_OK(sp24_gpu_upload(&old, &g));
    CHECK_OK(csr_gpu_upload(&A, &pattern));
    CHECK(cudaDeviceSynchronize() == cudaSuccess); /* those uploads ran on the legacy stream */
    rng_fill(A.values, (size_t)A.nnz, seed++);
    float *d = on_device(A.values, A.nnz);
    CHECK_OK(sp24_gpu_set_values(g, pattern.row_ptr, pattern.col_idx, d, stream));
    CHECK_OK(sp24_compress(&A, p, 0, 1, &fresh));
    size_t vbytes, mbytes;
    sp24_sizes(&fresh, &vbytes, &mbytes);
    void *back = malloc(vbytes);
    CHECK(cudaMemcpyAsync(back, g->values, vbytes, cudaMemcpyDeviceToHost, stream) == cudaSuccess);
    CHECK(cudaStreamSynchronize(stream) == cudaSuccess);
    CHECK(memcmp(back, fresh.values, vbytes) == 0);
    CHECK(memcmp(old.meta, fresh.meta, mbytes) == 0);
    tcspmm_csr held; /* what the device holds, entry by entry: the new values rounded */
    CHECK_OK(sp24_gpu_download_entries(g, &pattern, &held));
    int64_t wrong = 0;
    for (int64_t k = 0; k < A.nnz && held.values; k++)
        wrong += held.values[k] != sp24_round(A.values[k], p) || held.col_idx[k] != A.col_idx[k];
    CHECK(held.nnz == A.nnz && wrong == 0);
    tcspmm_csr_free(&held);
    free(back);
    cudaFree(d);
    csr_gpu_free(&pattern);
    sp24_gpu_free(g);
    sp24_free(&fresh);
    sp24_free(&old);
    tcspmm_csr_free(&A);
}

static atomic_int released;

/* Holds its stream until released (or 10 s have passed). */
static void CUDART_CB hold_stream(void *arg)
{
    (void)arg;
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do clock_gettime(CLOCK_MONOTONIC, &t);
    while (!atomic_load(&released) && t.tv_sec - t0.tv_sec < 10);
}

/* An update from host memory waits for its own stream, not for another
 * stream's work (the first such update allocates the plan's buffer; the
 * second is checked). A control first: a product on the test's stream and
 * its synchronization must not wait for the held stream either; where they
 * do (compute-sanitizer serializes kernels) the check cannot tell and is
 * skipped, saying so. */
static void check_no_device_wait(const tcspmm_csr *A, tcspmm_path path, tcspmm_precision p)
{
    tcspmm_plan *plan = updatable_plan(A, path, p);
    if (!plan) return;
    tcspmm_csr now;
    CHECK_OK(csr_copy(A, &now));
    rng_fill(now.values, (size_t)now.nnz, seed++);
    CHECK_OK(tcspmm_plan_set_values(plan, now.values, stream));
    test_operands t;
    test_operands_make(&t, A, 8, TCSPMM_LAYOUT_ROW_MAJOR, 0, 0.0f, seed++);
    float *dB = on_device(t.B, (int64_t)t.bsize), *dC = on_device(t.C0, (int64_t)t.csize);
    CHECK_OK(tcspmm_spmm(plan, 8, 1.0f, dB, t.ldb, 0.0f, dC, t.ldc, TCSPMM_LAYOUT_ROW_MAJOR,
                         stream)); /* its first call may set up scratch */
    CHECK(cudaStreamSynchronize(stream) == cudaSuccess);
    cudaStream_t other;
    CHECK(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking) == cudaSuccess);
    atomic_store(&released, 0);
    CHECK(cudaLaunchHostFunc(other, hold_stream, NULL) == cudaSuccess);
    CHECK_OK(tcspmm_spmm(plan, 8, 1.0f, dB, t.ldb, 0.0f, dC, t.ldc, TCSPMM_LAYOUT_ROW_MAJOR, stream));
    CHECK(cudaStreamSynchronize(stream) == cudaSuccess);
    const cudaError_t holding = cudaStreamQuery(other); /* an error is no skip */
    CHECK(holding == cudaSuccess || holding == cudaErrorNotReady);
    if (holding == cudaErrorNotReady) {
        rng_fill(now.values, (size_t)now.nnz, seed++);
        CHECK_OK(tcspmm_plan_set_values(plan, now.values, stream));
        const cudaError_t held = cudaStreamQuery(other);
        if (held != cudaErrorNotReady)
            printf("%s: the update waited for another stream\n", tcspmm_path_name(path));
        CHECK(held == cudaErrorNotReady);
    } else {
        printf("%s: streams serialized here; the no-wait check is skipped\n",
               tcspmm_path_name(path));
        CHECK_OK(tcspmm_plan_set_values(plan, now.values, stream));
    }
    atomic_store(&released, 1);
    CHECK(cudaStreamSynchronize(other) == cudaSuccess);
    cudaStreamDestroy(other);
    cudaFree(dB);
    cudaFree(dC);
    test_operands_free(&t);
    check_product(plan, &now, "after an update beside a held stream");
    tcspmm_csr_free(&now);
    tcspmm_plan_destroy(plan);
}

/* Pageable updates from host memory of 8 MB or more go through page-locked
 * buffers that the plan opens at the first and keeps, and are checked on
 * the device: two updates of about 4.2M values (17 MB) on a plan of path,
 * each followed by a product, through the same buffers, which sent every
 * piece of both (the staging's buffer index has turned that far); then
 * values with a NaN and a -Inf after it, and on the tensor-core paths with
 * FLT_MAX, in the last piece sent (so that the check must wait for the
 * whole copy), refused, naming the first, the plan keeping its values;
 * then an update from page-locked values, which bypasses the staging. */
static void test_staged_updates(const tcspmm_csr *A, tcspmm_path path, tcspmm_precision p)
{
    const size_t bytes = (size_t)A->nnz * sizeof(float);
    CHECK(host_upload_staged(bytes));
    tcspmm_plan *plan = updatable_plan(A, path, p);
    if (!plan) return;
    const host_upload *u = &plan->values_upload;
    tcspmm_csr now;
    CHECK_OK(csr_copy(A, &now));
    char label[160];
    char *area = NULL;
    for (int update = 1; update <= 2; update++) {
        rng_fill(now.values, (size_t)now.nnz, seed++);
        CHECK_OK(tcspmm_plan_set_values(plan, now.values, stream));
        snprintf(label, sizeof label, "%s %s, 17 MB of values from the host, update %d",
                 tcspmm_path_name(path), tcspmm_precision_name(p), update);
        check_product(plan, &now, label);
        if (update == 1) area = u->area;
    }
    const int supported = tests_page_lock_supported();
    const size_t stage = host_upload_stage_bytes(bytes), pieces = (bytes + stage - 1) / stage;
    if (supported)
        CHECK(area && u->area == area && u->stage_bytes == stage &&
              u->next == (int)(2 * pieces % HOST_UPLOAD_STAGES));
    else
        CHECK(!u->area);

    float *bad = malloc(bytes);
    CHECK(bad != NULL);
    if (bad) {
        const int64_t at = now.nnz - 3;
        rng_fill(bad, (size_t)now.nnz, seed++);
        bad[at] = NAN;
        bad[now.nnz - 1] = -INFINITY;
        char expect[64];
        snprintf(expect, sizeof expect, "values[%lld] is NaN", (long long)at);
        snprintf(label, sizeof label, "%s %s, refused", tcspmm_path_name(path), tcspmm_precision_name(p));
        check_refused(plan, &now, bad, TCSPMM_ERROR_INVALID_MATRIX, expect, label);
        if (path != TCSPMM_PATH_CUSPARSE) {
            bad[at] = FLT_MAX;
            bad[now.nnz - 1] = 1.0f;
            snprintf(expect, sizeof expect, "values[%lld] = %g overflows", (long long)at,
                     (double)FLT_MAX);
            check_refused(plan, &now, bad, TCSPMM_ERROR_UNSUPPORTED, expect, label);
        }
    }
    free(bad);

    float *locked = NULL;
    CHECK(cudaMallocHost((void **)&locked, bytes) == cudaSuccess);
    if (locked) {
        const int next = u->next;
        rng_fill(now.values, (size_t)now.nnz, seed++);
        memcpy(locked, now.values, bytes);
        CHECK_OK(tcspmm_plan_set_values(plan, locked, stream));
        snprintf(label, sizeof label, "%s %s, 17 MB of page-locked values", tcspmm_path_name(path),
                 tcspmm_precision_name(p));
        check_product(plan, &now, label);
        CHECK(u->next == next);
        cudaFreeHost(locked);
    }
    tcspmm_csr_free(&now);
    tcspmm_plan_destroy(plan);
}

int main(void)
{
    tests_require_gpu();
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess);
    matgen_each_case(800, check_matrix);
    tcspmm_csr L; /* a row of 3000 entries: its values are mapped by many warps */
    CHECK_OK(matgen_long_row_gap(6000, 3000, 0.02, 98, &L));
    check_matrix(&L, "a long row, then a gap of empty rows");
    tcspmm_csr_free(&L);
    const char *files[] = {"cora.mtx", "ted_B.mtx.gz", "lp_stocfor3.mtx.gz"};
    for (int f = 0; f < 3; f++) {
        tcspmm_csr A;
        CHECK_OK(tests_read(tests_data(files[f]), 101 + f, &A));
        check_matrix(&A, files[f]);
        if (f == 0) {
            test_graph(&A, TCSPMM_PATH_HRPB, TCSPMM_PRECISION_TF32, 32);
            test_graph(&A, TCSPMM_PATH_CUSPARSE, TCSPMM_PRECISION_TF32, 1);
            test_graph(&A, TCSPMM_PATH_CUSPARSE, TCSPMM_PRECISION_TF32, 32);
            test_nan(&A);
            check_no_device_wait(&A, TCSPMM_PATH_HRPB, TCSPMM_PRECISION_TF32);
        }
        test_host_sources(&A);
        tcspmm_csr_free(&A);
    }
    const struct { sp24_structure s; tcspmm_precision p; } structured[] = {
        {SP24_1TO2, TCSPMM_PRECISION_TF32},
        {SP24_2TO4, TCSPMM_PRECISION_BF16},
        {SP24_2TO4, TCSPMM_PRECISION_FP16},
    };
    for (int i = 0; i < 3; i++) {
        tcspmm_csr S;
        structured_with_zeros(structured[i].s, 40 + i, &S);
        plan_kind k = {TCSPMM_PATH_SPARSE24, structured[i].p, TCSPMM_ROW_ORDER_NATURAL, 0, 16};
        check_kind(&S, k, sparse24_structure_name(structured[i].s));
        k.from_device = 1;
        check_kind(&S, k, sparse24_structure_name(structured[i].s));
        k.path = TCSPMM_PATH_AUTO; /* a structured pattern goes to the sparse tensor cores */
        tcspmm_plan *plan = updatable_plan(&S, TCSPMM_PATH_AUTO, structured[i].p);
        tcspmm_info info;
        if (plan && !tcspmm_plan_info(plan, &info)) CHECK(info.path == TCSPMM_PATH_SPARSE24);
        tcspmm_plan_destroy(plan);
        check_kind(&S, k, sparse24_structure_name(structured[i].s));
        test_sparse24_bytes(structured[i].s, structured[i].p);
        test_graph(&S, TCSPMM_PATH_SPARSE24, structured[i].p, 32);
        if (i == 0) check_matrix(&S, "1:2");
        if (i == 1) check_no_device_wait(&S, TCSPMM_PATH_SPARSE24, structured[i].p);
        tcspmm_csr_free(&S);
    }
    test_structure_refusals();
    tcspmm_csr big;
    CHECK_OK(matgen_random(100003, 997, 0.042, 4005, &big));
    test_staged_updates(&big, TCSPMM_PATH_HRPB, TCSPMM_PRECISION_TF32);
    test_staged_updates(&big, TCSPMM_PATH_CUSPARSE, TCSPMM_PRECISION_TF32);
    check_no_device_wait(&big, TCSPMM_PATH_HRPB, TCSPMM_PRECISION_TF32);
    tcspmm_csr_free(&big);
    CHECK_OK(sp24_gen(4096, 2304, SP24_2TO4, 0.1, 4006, &big));
    test_staged_updates(&big, TCSPMM_PATH_SPARSE24, TCSPMM_PRECISION_BF16);
    tcspmm_csr_free(&big);
    cudaStreamDestroy(stream);
    return tests_finish();
}
