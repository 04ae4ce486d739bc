/* gpu_fp32.c: the FP32-accurate mode (3xTF32 on the HRPB kernel) on the
 * device, through the public API. Every product runs three ways on the same
 * fresh operands: HRPB in FP32 precision, HRPB in TF32, and cuSPARSE (FP32 on
 * CUDA cores). FP32 mode must write every element of a NaN-poisoned C, land
 * within 2x of cuSPARSE's relative error against float64 as a geomean over
 * all products, within 3x on each one (or within two roundings, 1.2e-7,
 * where cuSPARSE is all but exact), and be far more accurate than TF32. The
 * per-product margin is wider because a small product's error is one noisy
 * draw: on the same operands, rounding ties to even or away from zero moved
 * single products' errors by 0.58x to 1.34x. Generated edge cases, the
 * bundled matrices, N from 1 to 513, both layouts, padded leading
 * dimensions, beta, panel heights 16 and 32, and heavily split panels (a
 * pretend GPU of few SMs).
 * `gpu_fp32 --quick` (for compute-sanitizer) runs N = 7 and 129 only. */
#include "harness.h"
#include "matgen.h"
#include "reference.h"
#include "rng.h"

#include <cuda_runtime.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint64_t seed = 3000;
static int n_first = 0, n_step = 1; /* which of check_matrix's N run */
static double worst_ratio, log_ratio_sum;
static int ratio_count;

/* The plan variants a matrix runs with. */
typedef struct variant {
    const char *name;
    int panel_rows, num_sms; /* num_sms 0: the GPU's */
} variant;

static tcspmm_plan *make_plan(const tcspmm_csr *A, tcspmm_path path, tcspmm_precision precision,
                              const variant *v, int64_t n)
{
    tcspmm_options opt;
    tcspmm_options_init(&opt);
    opt.path = path;
    opt.precision = precision;
    opt.panel_rows = v->panel_rows;
    opt.expected_n = n;
    if (v->num_sms) {
        opt.num_sms = v->num_sms;
        opt.blocks_per_sm = 1;
    }
    tcspmm_plan *plan = NULL;
    CHECK_OK(tcspmm_plan_create(A, &opt, &plan));
    return plan;
}

/* C = alpha*A*B + beta*C0 on plan; the comparison with t->ref. */
static compare_result run(tcspmm_plan *plan, const tcspmm_csr *A, const test_operands *t,
                          int64_t n, tcspmm_layout layout, float alpha, float beta, double tol)
{
    compare_result r = {0};
    r.rel_err = INFINITY;
    float *dB = NULL, *dC = NULL;
    int ok = cudaMalloc((void **)&dB, t->bsize * sizeof(float) + 4) == cudaSuccess &&
             cudaMalloc((void **)&dC, t->csize * sizeof(float) + 4) == cudaSuccess &&
             cudaMemcpy(dB, t->B, t->bsize * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess &&
             cudaMemcpy(dC, t->C0, t->csize * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess;
    CHECK(ok);
    if (ok) {
        tcspmm_status st = tcspmm_spmm(plan, n, alpha, dB, t->ldb, beta, dC, t->ldc, layout, NULL);
        CHECK_OK(st);
        ok = st == TCSPMM_SUCCESS && cudaDeviceSynchronize() == cudaSuccess &&
             cudaMemcpy(t->C, dC, t->csize * sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess;
        CHECK(ok);
    }
    if (ok) r = compare_to_reference(t->C, t->ldc, layout, t->ref, A->rows, n, tol);
    cudaFree(dB);
    cudaFree(dC);
    return r;
}

static void check_product(tcspmm_plan *fp32, tcspmm_plan *tf32, tcspmm_plan *cus,
                          const tcspmm_csr *A, int64_t n, tcspmm_layout layout, int pad,
                          float beta, const char *what)
{
    const float alpha = 1.25f;
    test_operands t;
    test_operands_make(&t, A, n, layout, pad, beta, seed);
    seed += 2;
    CHECK_OK(reference_spmm(A, n, alpha, t.B, t.ldb, beta, t.C0, t.ldc, layout, t.ref));
    compare_result r32 = run(fp32, A, &t, n, layout, alpha, beta, 1e-5);
    /* The TF32 run is the comparison here (gpu_hrpb holds TF32 to 1e-3 and to
     * its rounded inputs): a product of one element can cancel against
     * beta C past 1e-3 (1x1 at N = 1: 1.29e-3, with other seeds). */
    compare_result rtf = run(tf32, A, &t, n, layout, alpha, beta, 1e-2);
    compare_result rcu = run(cus, A, &t, n, layout, alpha, beta, 1e-5);
    const double bound = fmax(3.0 * rcu.rel_err, 1.2e-7);
    /* Where TF32 is visibly coarse, the split must buy at least 8x. */
    const int split_helps = rtf.rel_err < 1e-5 || r32.rel_err * 8.0 < rtf.rel_err;
    const int ok = r32.pass && rtf.pass && rcu.pass && r32.rel_err <= bound && split_helps;
    CHECK(r32.pass && rtf.pass && rcu.pass);
    CHECK(r32.rel_err <= bound);
    CHECK(split_helps);
    if (rcu.rel_err > 0 && r32.rel_err > 0) {
        double ratio = r32.rel_err / rcu.rel_err;
        if (ratio > worst_ratio) worst_ratio = ratio;
        log_ratio_sum += log(ratio);
        ratio_count++;
    }
    printf("%-34s n=%-4lld %s pad=%d beta=%-4g fp32 %.2e  tf32 %.2e  cusparse %.2e  %s\n", what,
           (long long)n, layout == TCSPMM_LAYOUT_ROW_MAJOR ? "row" : "col", pad, beta,
           r32.rel_err, rtf.rel_err, rcu.rel_err, ok ? "ok" : "FAIL");
    test_operands_free(&t);
}

static void check_matrix(const tcspmm_csr *A, const variant *v, const char *name)
{
    const int64_t ns[] = {1, 3, 7, 33, 128, 129, 513};
    for (int k = n_first; k < (int)(sizeof ns / sizeof ns[0]); k += n_step) {
        int64_t n = ns[k];
        tcspmm_plan *fp32 = make_plan(A, TCSPMM_PATH_HRPB, TCSPMM_PRECISION_FP32, v, n);
        tcspmm_plan *tf32 = make_plan(A, TCSPMM_PATH_HRPB, TCSPMM_PRECISION_TF32, v, n);
        tcspmm_plan *cus = make_plan(A, TCSPMM_PATH_CUSPARSE, TCSPMM_PRECISION_TF32, v, n);
        if (fp32 && tf32 && cus) {
            tcspmm_info info;
            CHECK_OK(tcspmm_plan_info(fp32, &info));
            CHECK(info.path == TCSPMM_PATH_HRPB && info.precision == TCSPMM_PRECISION_FP32);
            char what[96];
            snprintf(what, sizeof what, "%s %s", name, v->name);
            tcspmm_layout layout = (tcspmm_layout)(k % 2);
            check_product(fp32, tf32, cus, A, n, layout, 0, 0.0f, what);
            check_product(fp32, tf32, cus, A, n, (tcspmm_layout)!layout, k % 3 ? 3 : 0, -0.5f, what);
        }
        tcspmm_plan_destroy(fp32);
        tcspmm_plan_destroy(tf32);
        tcspmm_plan_destroy(cus);
    }
}

int main(int argc, char **argv)
{
    tests_require_gpu();
    if (argc > 1 && !strcmp(argv[1], "--quick")) n_first = 2, n_step = 3; /* N = 7, 129 */
    const variant variants[] = {{"TM=16", 16, 0}, {"TM=32", 32, 0}, {"TM=16 split", 16, 3}};
    for (int c = 0; c < matgen_num_cases(); c++) {
        tcspmm_csr A;
        const char *name = "";
        CHECK_OK(matgen_case(c, 500 + c, &A, &name));
        check_matrix(&A, &variants[c % 3], name);
        tcspmm_csr_free(&A);
    }
    const char *files[] = {"cora.mtx", "ted_B.mtx.gz", "lp_stocfor3.mtx.gz", "astro-ph.mtx.gz"};
    for (int f = 0; f < 4; f++) {
        tcspmm_csr A;
        tcspmm_status st = tcspmm_read_mtx(tests_data(files[f]), &A);
        CHECK_OK(st);
        if (st) continue;
        rng_fill(A.values, (size_t)A.nnz, 71 + f); /* pattern files hold ones */
        check_matrix(&A, &variants[f % 3], files[f]);
        tcspmm_csr_free(&A);
    }
    const double geomean = ratio_count ? exp(log_ratio_sum / ratio_count) : 0.0;
    printf("fp32 error / cusparse error: worst %.2f, geomean %.2f over %d products\n", worst_ratio,
           geomean, ratio_count);
    CHECK(ratio_count > 0 && geomean <= 2.0);
    return tests_finish();
}
