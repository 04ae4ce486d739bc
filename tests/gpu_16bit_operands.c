/* gpu_16bit_operands.c: tcspmm_spmm_ex with bf16 and fp16 B and C on plans
 * whose kernels take floats (HRPB in TF32 and FP32, cuSPARSE, a measured auto
 * plan, sparse24 in tf32), which take them through float copies, but for a
 * B that HRPB's TF32 kernel reads as it is (row-major, ldb a multiple of 4:
 * here all n but 7) on an HRPB plan or on an auto plan's shapes measured
 * faster on HRPB (printed): every pair
 * of B and C types with a 16-bit one, both layouts, n = 1, 7, 33 and 129
 * with leading dimensions 3 past the minimum, n = 32 with none (the copies
 * move four elements at a time along one line) and n = 36 with 4 (four at a
 * time, line by line), beta 0 (C poisoned with NaN) and 0.25. Each product is checked against float64 on the 16-bit inputs as
 * given, within the plan's precision and C's rounding: a B read other than
 * exactly (an fp16 B rounded to bf16) misses the 1e-5 of the FP32 and
 * cuSPARSE plans. The gaps past ldc must stay as they were. One call is
 * also captured into a CUDA graph and replayed on new operands. On a
 * measured auto plan, a bf16 B read as it is with C through its copy must
 * not reach the measurement of the copy's shape (check_typed_shape); on a
 * shape measured faster on cuSPARSE, bf16 B and C are timed through the
 * copies and as they are on HRPB, and the faster kept (check_typed_trial). */
#include <cuda_runtime.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "format/sparse24.h"
#include "harness.h"
#include "matgen.h"
#include "plan.h"
#include "reference.h"
#include "sparse24_gen.h"

static uint64_t seed = 16000;

static const char *type_name(tcspmm_datatype t)
{
    return t == TCSPMM_R_16BF ? "bf16" : t == TCSPMM_R_16F ? "fp16" : "f32";
}

static size_t type_bytes(tcspmm_datatype t) { return t == TCSPMM_R_32F ? 4 : 2; }

static tcspmm_precision half_precision(tcspmm_datatype t)
{
    return t == TCSPMM_R_16BF ? TCSPMM_PRECISION_BF16 : TCSPMM_PRECISION_FP16;
}

/* x as an element of type t holds it (rounded to nearest even); NaN stays NaN. */
static float as_stored(float x, tcspmm_datatype t)
{
    if (t == TCSPMM_R_32F || isnan(x)) return x;
    return sp24_round(x, half_precision(t));
}

/* count floats, each already as_stored, into elements of type t at out. */
static void to_elements(const float *x, size_t count, tcspmm_datatype t, void *out)
{
    if (t == TCSPMM_R_32F) {
        memcpy(out, x, count * 4);
        return;
    }
    const uint16_t nan16 = t == TCSPMM_R_16BF ? 0x7fc0 : 0x7e00;
    uint16_t *h = out;
    for (size_t e = 0; e < count; e++)
        h[e] = isnan(x[e]) ? nan16 : sp24_half_bits(x[e], half_precision(t));
}

static void from_elements(const void *in, size_t count, tcspmm_datatype t, float *x)
{
    if (t == TCSPMM_R_32F) {
        memcpy(x, in, count * 4);
        return;
    }
    const uint16_t *h = in;
    for (size_t e = 0; e < count; e++) {
        const float v = sp24_half_value(h[e], half_precision(t));
        x[e] = isnan(v) ? NAN : v;
    }
}

/* The tolerance for plan's arithmetic and C's type. */
static double tolerance(const tcspmm_plan *plan, tcspmm_datatype c_type)
{
    tcspmm_info info;
    tcspmm_plan_info(plan, &info);
    const int exact = info.path == TCSPMM_PATH_CUSPARSE || info.precision == TCSPMM_PRECISION_FP32;
    const double arithmetic = exact ? 1e-5 : 1e-3;
    const double rounding = c_type == TCSPMM_R_16BF ? 1e-2 : c_type == TCSPMM_R_16F ? 2e-3 : 0.0;
    return arithmetic > rounding ? arithmetic : rounding;
}

/* Device copies of t's B and C0 as elements of their types, landed before it
 * returns (a copy from pageable memory may return before its DMA ends). */
static void upload(const test_operands *t, tcspmm_datatype b_type, tcspmm_datatype c_type,
                   void *dB, void *dC)
{
    void *b = malloc(t->bsize * 4 + 4), *c = malloc(t->csize * 4 + 4);
    to_elements(t->B, t->bsize, b_type, b);
    to_elements(t->C0, t->csize, c_type, c);
    CHECK(cudaMemcpy(dB, b, t->bsize * type_bytes(b_type), cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK(cudaMemcpy(dC, c, t->csize * type_bytes(c_type), cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK(cudaDeviceSynchronize() == cudaSuccess); /* check_graph's stream does not wait for them */
    free(b);
    free(c);
}

/* Operands from seed with B and C0 as their types hold them. */
static void make_operands(test_operands *t, const tcspmm_csr *A, int64_t n, int pad,
                          tcspmm_layout layout, float beta, tcspmm_datatype b_type,
                          tcspmm_datatype c_type)
{
    test_operands_make(t, A, n, layout, pad, beta, seed++);
    for (size_t e = 0; e < t->bsize; e++) t->B[e] = as_stored(t->B[e], b_type);
    for (size_t e = 0; e < t->csize; e++) t->C0[e] = as_stored(t->C0[e], c_type);
}

/* C (from dC, of c_type) against the float64 reference of t, and its gaps. */
static void check_result(const test_operands *t, const tcspmm_csr *A, int64_t n,
                         tcspmm_layout layout, float alpha, float beta, tcspmm_datatype c_type,
                         const void *dC, double tol, const char *what)
{
    void *c = malloc(t->csize * 4 + 4);
    CHECK(cudaMemcpy(c, dC, t->csize * type_bytes(c_type), cudaMemcpyDeviceToHost) == cudaSuccess);
    from_elements(c, t->csize, c_type, t->C);
    free(c);
    CHECK_OK(reference_spmm(A, n, alpha, t->B, t->ldb, beta, t->C0, t->ldc, layout, t->ref));
    const compare_result r = compare_to_reference(t->C, t->ldc, layout, t->ref, A->rows, n, tol);
    const int64_t gaps = test_operands_padding_changed(t, A->rows, n, layout);
    CHECK(r.pass);
    CHECK(gaps == 0);
    if (!r.pass || gaps)
        printf("  %s, n = %lld, %s, beta %g: rel_err %.2e (tol %.0e), %lld not finite, "
               "%lld gaps changed\n",
               what, (long long)n, layout == TCSPMM_LAYOUT_ROW_MAJOR ? "row-major" : "column-major",
               beta, r.rel_err, tol, (long long)r.nonfinite, (long long)gaps);
}

/* One product of plan with B of b_type and C of c_type, checked. */
static void check_types(tcspmm_plan *plan, const tcspmm_csr *A, int64_t n, int pad,
                        tcspmm_layout layout, float beta, tcspmm_datatype b_type,
                        tcspmm_datatype c_type, const char *what)
{
    const float alpha = 1.5f;
    test_operands t;
    make_operands(&t, A, n, pad, layout, beta, b_type, c_type);
    void *dB = NULL, *dC = NULL;
    CHECK(cudaMalloc(&dB, t.bsize * 4 + 4) == cudaSuccess);
    CHECK(cudaMalloc(&dC, t.csize * 4 + 4) == cudaSuccess);
    upload(&t, b_type, c_type, dB, dC);
    char label[256];
    snprintf(label, sizeof label, "%s, B %s, C %s", what, type_name(b_type), type_name(c_type));
    CHECK_OK(tcspmm_spmm_ex(plan, n, alpha, dB, b_type, t.ldb, beta, dC, c_type, t.ldc, layout,
                            NULL));
    check_result(&t, A, n, layout, alpha, beta, c_type, dC, tolerance(plan, c_type), label);
    cudaFree(dB);
    cudaFree(dC);
    test_operands_free(&t);
}

/* n and how far the leading dimensions run past their minimum. */
typedef struct width {
    int64_t n;
    int pad;
} width;

/* Every pair of types with a 16-bit one, layouts, widths and beta on plan. */
static void check_plan(tcspmm_plan *plan, const tcspmm_csr *A, const width *ws, int count,
                       const char *what)
{
    static const tcspmm_datatype types[] = {TCSPMM_R_32F, TCSPMM_R_16BF, TCSPMM_R_16F};
    if (!plan) return;
    for (int l = 0; l < 2; l++)
        for (int i = 0; i < count; i++)
            for (int b = 0; b < 3; b++)
                for (int c = 0; c < 3; c++) {
                    if (b == 0 && c == 0) continue;
                    const float beta = (b + c + i) % 2 ? 0.25f : 0.0f;
                    check_types(plan, A, ws[i].n, ws[i].pad,
                                l ? TCSPMM_LAYOUT_COL_MAJOR : TCSPMM_LAYOUT_ROW_MAJOR, beta,
                                types[b], types[c], what);
                }
}

/* A bf16 B and fp16 C call on plan captured into a graph after one direct
 * call of its shape, replayed on new operands in the same buffers. */
static void check_graph(tcspmm_plan *plan, const tcspmm_csr *A, const char *what)
{
    if (!plan) return;
    const int64_t n = 40;
    const float alpha = 1.5f, beta = 0.25f;
    const tcspmm_layout layout = TCSPMM_LAYOUT_ROW_MAJOR;
    const tcspmm_datatype bt = TCSPMM_R_16BF, ct = TCSPMM_R_16F;
    test_operands t;
    make_operands(&t, A, n, 3, layout, beta, bt, ct);
    void *dB = NULL, *dC = NULL;
    CHECK(cudaMalloc(&dB, t.bsize * 4 + 4) == cudaSuccess);
    CHECK(cudaMalloc(&dC, t.csize * 4 + 4) == cudaSuccess);
    cudaStream_t stream;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess);
    upload(&t, bt, ct, dB, dC);
    CHECK_OK(tcspmm_spmm_ex(plan, n, alpha, dB, bt, t.ldb, beta, dC, ct, t.ldc, layout, stream));
    CHECK(cudaStreamSynchronize(stream) == cudaSuccess);
    cudaGraph_t graph = NULL;
    cudaGraphExec_t exec = NULL;
    CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal) == cudaSuccess);
    CHECK_OK(tcspmm_spmm_ex(plan, n, alpha, dB, bt, t.ldb, beta, dC, ct, t.ldc, layout, stream));
    CHECK(cudaStreamEndCapture(stream, &graph) == cudaSuccess);
    CHECK(graph && cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
    test_operands_free(&t);
    make_operands(&t, A, n, 3, layout, beta, bt, ct); /* new B and C: the graph must read them */
    upload(&t, bt, ct, dB, dC);
    if (exec) {
        CHECK(cudaGraphLaunch(exec, stream) == cudaSuccess);
        CHECK(cudaStreamSynchronize(stream) == cudaSuccess);
        char label[256];
        snprintf(label, sizeof label, "%s, graph of B bf16, C fp16", what);
        check_result(&t, A, n, layout, alpha, beta, ct, dC, tolerance(plan, ct), label);
        cudaGraphExecDestroy(exec);
    }
    if (graph) cudaGraphDestroy(graph);
    cudaStreamDestroy(stream);
    cudaFree(dB);
    cudaFree(dC);
    test_operands_free(&t);
}

/* A measuring auto plan (one whose plan-time rule left the choice to a
 * measurement) whose shape n = 33, row-major, beta != 0 was measured
 * faster on HRPB, called with a bf16 B that the HRPB kernel reads as it is
 * and an fp16 C, which goes through a float copy whose product has beta 0:
 * the B goes to HRPB, not to a measurement of that other shape (which
 * races float operands), so the beta 0 shape stays unmeasured. Where the
 * rule chose the path, or the shape was measured faster on cuSPARSE,
 * nothing is checked (printed). */
static void check_typed_shape(const tcspmm_csr *A, const char *name)
{
    const int64_t n = 33;
    const tcspmm_layout row = TCSPMM_LAYOUT_ROW_MAJOR;
    tcspmm_plan *plan = tests_plan(A, TCSPMM_PATH_AUTO, 1);
    if (!plan) return;
    tcspmm_path path = TCSPMM_PATH_AUTO, path0 = TCSPMM_PATH_AUTO;
    check_types(plan, A, n, 3, row, 0.25f, TCSPMM_R_32F, TCSPMM_R_32F, name); /* measures */
    CHECK_OK(tcspmm_plan_path_for(plan, n, row, 0.25f, &path));
    CHECK_OK(tcspmm_plan_path_for(plan, n, row, 0.0f, &path0));
    const int checked = path == TCSPMM_PATH_HRPB && path0 == TCSPMM_PATH_AUTO;
    if (checked) {
        check_types(plan, A, n, 3, row, 0.25f, TCSPMM_R_16BF, TCSPMM_R_16F, name);
        CHECK_OK(tcspmm_plan_path_for(plan, n, row, 0.0f, &path0));
        CHECK(path0 == TCSPMM_PATH_AUTO);
    }
    printf("  %s, auto: n = 33, beta 0.25: %s, beta 0: %s; %s\n", name, tcspmm_path_name(path),
           tcspmm_path_name(path0), checked ? "checked" : "not checked");
    tcspmm_plan_destroy(plan);
}

/* A measuring auto plan whose shape n, row-major, beta 0 was measured
 * faster on cuSPARSE (or, where it was not, made to look so), called with a
 * bf16 B and C that the HRPB kernel reads and writes as they are: the plan
 * times two calls through the float copies and two on HRPB, then keeps the
 * faster (path_trial_typed); every call is checked. */
static void check_typed_trial(const tcspmm_csr *A, int64_t n, const char *name)
{
    const tcspmm_layout row = TCSPMM_LAYOUT_ROW_MAJOR;
    tcspmm_plan *plan = tests_plan(A, TCSPMM_PATH_AUTO, 1);
    if (!plan) return;
    tcspmm_info info;
    CHECK_OK(tcspmm_plan_info(plan, &info));
    if (info.path != TCSPMM_PATH_AUTO) { /* the plan-time rule chose: nothing is timed */
        printf("  %s, auto: n = %lld: the rule chose %s; not checked\n", name, (long long)n,
               tcspmm_path_name(info.path));
        tcspmm_plan_destroy(plan);
        return;
    }
    tcspmm_path path = TCSPMM_PATH_AUTO;
    check_types(plan, A, n, 0, row, 0.0f, TCSPMM_R_32F, TCSPMM_R_32F, name); /* measures */
    CHECK_OK(tcspmm_plan_path_for(plan, n, row, 0.0f, &path));
    const int shape = gpu_timer_shape(n, row, 0.0f);
    if (path == TCSPMM_PATH_HRPB)
        plan->trial.shape[shape].path = plan->trial.shape[shape].path_no_alg3 =
            TCSPMM_PATH_CUSPARSE;
    const path_trial_typed *r = &plan->trial.typed[shape][1];
    for (int call = 0; call < 6; call++)
        check_types(plan, A, n, 0, row, 0.0f, TCSPMM_R_16BF, TCSPMM_R_16BF, name);
    CHECK(path != TCSPMM_PATH_AUTO);
    CHECK(r->runs[0] == 2 && r->runs[1] == 2);
    CHECK(r->ms[0] > 0.0f && r->ms[1] > 0.0f);
    CHECK(r->n[0] == n && r->n[1] == n);
    CHECK(r->path == (r->ms[1] <= r->ms[0] ? TCSPMM_PATH_HRPB : TCSPMM_PATH_CUSPARSE));
    printf("  %s, auto: n = %lld, beta 0 measured on floats: %s%s; bf16 B and C: %s (through "
           "copies %.4f ms, as they are on HRPB %.4f ms)\n",
           name, (long long)n, tcspmm_path_name(path),
           path == TCSPMM_PATH_HRPB ? " (taken as cusparse here)" : "", tcspmm_path_name(r->path),
           r->ms[0], r->ms[1]);
    tcspmm_plan_destroy(plan);
}

/* Every plan that takes floats only, on A. */
static void check_matrix(const tcspmm_csr *A, const width *ws, int count, const char *name)
{
    struct {
        tcspmm_path path;
        tcspmm_precision precision;
        const char *what;
    } plans[] = {{TCSPMM_PATH_HRPB, TCSPMM_PRECISION_TF32, "hrpb tf32"},
                 {TCSPMM_PATH_HRPB, TCSPMM_PRECISION_FP32, "hrpb fp32"},
                 {TCSPMM_PATH_CUSPARSE, TCSPMM_PRECISION_TF32, "cusparse"}};
    char what[160];
    for (size_t p = 0; p < sizeof plans / sizeof plans[0]; p++) {
        tcspmm_plan *plan = tests_plan_at(A, plans[p].path, plans[p].precision);
        snprintf(what, sizeof what, "%s, %s", name, plans[p].what);
        check_plan(plan, A, ws, count, what);
        check_graph(plan, A, what);
        tcspmm_plan_destroy(plan);
    }
    tcspmm_plan *measured = tests_plan(A, TCSPMM_PATH_AUTO, 1);
    snprintf(what, sizeof what, "%s, auto (measured)", name);
    check_plan(measured, A, ws, count, what);
    /* Which row-major shapes were measured faster on HRPB: their later
     * calls read and write 16-bit operands as they are. */
    for (int i = 0; measured && i < count; i++)
        for (int b = 0; b < 2; b++) {
            tcspmm_path path = TCSPMM_PATH_AUTO;
            CHECK_OK(tcspmm_plan_path_for(measured, ws[i].n, TCSPMM_LAYOUT_ROW_MAJOR,
                                          b ? 0.25f : 0.0f, &path));
            printf("  %s: n = %lld, row-major, beta %s: %s\n", what, (long long)ws[i].n,
                   b ? "0.25" : "0", tcspmm_path_name(path));
        }
    tcspmm_plan_destroy(measured);
    check_typed_shape(A, name);
}

int main(void)
{
    tests_require_gpu();
    static const width all_n[] = {{1, 3}, {7, 3}, {33, 3}, {129, 3}, {32, 0}, {36, 4}};
    static const width wide_n[] = {{33, 3}, {129, 3}, {64, 0}};
    tcspmm_csr A;
    CHECK_OK(matgen_dense_row(70, 45, 3, 0.1, seed++, &A)); /* odd sizes, one dense row */
    check_matrix(&A, all_n, 6, "70 x 45 with a dense row");
    tcspmm_csr_free(&A);
    CHECK_OK(matgen_empty_cols(37, 61, 0.2, seed++, &A));
    check_matrix(&A, all_n, 6, "37 x 61 with empty columns");
    tcspmm_csr_free(&A);
    CHECK_OK(tests_read(tests_data("cora.mtx"), seed++, &A));
    check_matrix(&A, wide_n, 3, "cora");
    tcspmm_csr_free(&A);
    /* on an H200 its auto plan measured cuSPARSE faster at n = 32 and 64 (at 0687827) */
    CHECK_OK(tests_read(tests_data("de2010.mtx.gz"), seed++, &A));
    for (int64_t n = 32; n <= 64; n *= 2) check_typed_trial(&A, n, "de2010");
    tcspmm_csr_free(&A);

    /* sparse24 in tf32 on a 1:2 matrix: its kernels take floats only */
    CHECK_OK(sp24_gen(203, 96, SP24_1TO2, 0.3, seed++, &A));
    tcspmm_plan *plan = tests_plan_at(&A, TCSPMM_PATH_SPARSE24, TCSPMM_PRECISION_TF32);
    check_plan(plan, &A, all_n, 6, "203 x 96 1:2, sparse24 tf32");
    tcspmm_plan_destroy(plan);
    tcspmm_csr_free(&A);
    return tests_finish();
}
