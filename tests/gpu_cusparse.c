/* gpu_cusparse.c: the cuSPARSE path, and the measured auto path that keeps
 * A for both cuSPARSE and HRPB, through the public API on the device,
 * against the float64 reference: both layouts, padded leading dimensions
 * (whose gaps in C must be left alone), beta != 0 (the first call of a
 * shape times cuSPARSE's algorithms, and on a measured plan HRPB too, on a
 * copy of C, which must leave the caller's C as it was), N = 1, 7, 128,
 * 513, bundled real matrices and edge cases; C is poisoned with NaN
 * before every run, B is fresh for every check. A plan
 * measuring at the first call must report no path for a shape before its
 * first call and the same HRPB or cuSPARSE after every call, for every N of
 * the shape's range; the dense test and rule_only keep a plan unmeasured.
 * A plan measuring later runs HRPB, correctly, until its calls have cost
 * what measuring does, and is measured within the calls that
 * path_trial_due allows for the time of one. Also tcspmm_spmm_host on
 * cuSPARSE, measured and HRPB plans, whose A lives on the device, and
 * callers whose C alternates between two buffers and leading dimensions. */
#include "harness.h"
#include "matgen.h"
#include "path_trial.h"
#include "reference.h"

#include <cuda_runtime.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint64_t seed = 1000;

/* The product of t's B and C (copied into dB and dC) on plan, against the
 * reference. */
static compare_result product_vs_reference(tcspmm_plan *plan, const tcspmm_csr *A, int64_t n,
                                           tcspmm_layout layout, float alpha, float beta,
                                           double tol, test_operands *t, float *dB, float *dC)
{
    CHECK(cudaMemcpy(dB, t->B, t->bsize * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK(cudaMemcpy(dC, t->C0, t->csize * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK_OK(tcspmm_spmm(plan, n, alpha, dB, t->ldb, beta, dC, t->ldc, layout, NULL));
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(cudaMemcpy(t->C, dC, t->csize * sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK_OK(reference_spmm(A, n, alpha, t->B, t->ldb, beta, t->C0, t->ldc, layout, t->ref));
    compare_result r = compare_to_reference(t->C, t->ldc, layout, t->ref, A->rows, n, tol);
    const int64_t gaps = test_operands_padding_changed(t, A->rows, n, layout);
    if (gaps) printf("%lld elements past C's rows x n changed FAIL\n", (long long)gaps);
    CHECK(r.pass && gaps == 0);
    return r;
}

/* One product against the reference; returns the path the plan reports for
 * its shape after it (a shape measured before it keeps its path). */
static tcspmm_path check_product(tcspmm_plan *plan, const tcspmm_csr *A, int64_t n,
                                 tcspmm_layout layout, int pad, float alpha, float beta, double tol,
                                 const char *what)
{
    test_operands t;
    test_operands_make(&t, A, n, layout, pad, beta, seed);
    seed += 2;
    float *dB = NULL, *dC = NULL;
    CHECK(cudaMalloc((void **)&dB, t.bsize * sizeof(float) + 4) == cudaSuccess);
    CHECK(cudaMalloc((void **)&dC, t.csize * sizeof(float) + 4) == cudaSuccess);
    tcspmm_path before = TCSPMM_PATH_CPU, after = TCSPMM_PATH_CPU;
    CHECK_OK(tcspmm_plan_path_for(plan, n, layout, beta, &before));
    compare_result r = product_vs_reference(plan, A, n, layout, alpha, beta, tol, &t, dB, dC);
    CHECK_OK(tcspmm_plan_path_for(plan, n, layout, beta, &after));
    CHECK(before == TCSPMM_PATH_AUTO || before == after);
    printf("%-28s n=%-4lld %s pad=%d beta=%g %s: rel_err=%.2e nonfinite=%lld %s\n", what,
           (long long)n, layout == TCSPMM_LAYOUT_ROW_MAJOR ? "row" : "col", pad, beta,
           tcspmm_path_name(after), r.rel_err, (long long)r.nonfinite, r.pass ? "ok" : "FAIL");
    cudaFree(dB);
    cudaFree(dC);
    test_operands_free(&t);
    return after;
}

/* check_product on a plan that has measured its shape by the end of it,
 * unless A has no entries: such a product only scales C, and measures
 * nothing. */
static void check_measured_product(tcspmm_plan *plan, const tcspmm_csr *A, int64_t n,
                                   tcspmm_layout layout, int pad, float alpha, float beta,
                                   double tol, const char *what)
{
    tcspmm_path after = check_product(plan, A, n, layout, pad, alpha, beta, tol, what);
    CHECK(after == TCSPMM_PATH_CUSPARSE || after == TCSPMM_PATH_HRPB ||
          (A->nnz == 0 && after == TCSPMM_PATH_AUTO));
}

/* tcspmm_spmm_host on a GPU plan (A copied back from the device) against
 * the float64 reference: the host path accumulates in float64 too. */
static void check_host_product(const tcspmm_plan *plan, const tcspmm_csr *A, const char *what)
{
    test_operands t;
    test_operands_make(&t, A, 7, TCSPMM_LAYOUT_COL_MAJOR, 2, 0.5f, seed);
    seed += 2;
    CHECK_OK(tcspmm_spmm_host(plan, 7, -1.5f, t.B, t.ldb, 0.5f, t.C, t.ldc, TCSPMM_LAYOUT_COL_MAJOR));
    CHECK_OK(reference_spmm(A, 7, -1.5f, t.B, t.ldb, 0.5f, t.C0, t.ldc, TCSPMM_LAYOUT_COL_MAJOR,
                            t.ref));
    compare_result r = compare_to_reference(t.C, t.ldc, TCSPMM_LAYOUT_COL_MAJOR, t.ref, A->rows, 7,
                                            1e-6);
    CHECK(r.pass);
    if (!r.pass) printf("%s: spmm_host on a GPU plan: rel_err=%.2e FAIL\n", what, r.rel_err);
    test_operands_free(&t);
}

/* Every product of check_product on a plan of path (AUTO: the default,
 * measured where the rule is unsure, here at the first call of a shape);
 * expect: the plan's info.path. Each shape runs twice, so the second call
 * takes the first one's choice. */
static void check_matrix(const tcspmm_csr *A, tcspmm_path path, tcspmm_path expect, double tol,
                         const char *what)
{
    tcspmm_plan *plan = tests_plan(A, path, 1);
    if (!plan) return;
    tcspmm_info info;
    CHECK_OK(tcspmm_plan_info(plan, &info));
    CHECK(info.path == expect);
    const int64_t ns[] = {1, 7, 128, 513};
    for (int t = 0; t < 4; t++)
        for (int layout = 0; layout < 2; layout++)
            for (int again = 0; again < 2; again++) {
                check_measured_product(plan, A, ns[t], (tcspmm_layout)layout, 0, 1.0f, 0.0f, tol,
                                       what);
                if (ns[t] <= 128)
                    check_measured_product(plan, A, ns[t], (tcspmm_layout)layout, 5, -0.75f, 0.5f,
                                           tol, what);
            }
    /* N = 5 shares N = 7's range (5-8): its calls take N = 7's choice */
    tcspmm_path at5 = TCSPMM_PATH_CPU, at7 = TCSPMM_PATH_CPU;
    CHECK_OK(tcspmm_plan_path_for(plan, 5, TCSPMM_LAYOUT_ROW_MAJOR, 0.0f, &at5));
    CHECK_OK(tcspmm_plan_path_for(plan, 7, TCSPMM_LAYOUT_ROW_MAJOR, 0.0f, &at7));
    CHECK(at5 == at7 && (at5 != TCSPMM_PATH_AUTO || A->nnz == 0));
    check_host_product(plan, A, what);
    tcspmm_plan_destroy(plan);
}

/* A measured plan with the default options: a shape runs HRPB (checked
 * against the reference on its first calls) until its calls have cost what
 * measuring would, then is measured (within 50,000 calls: at 1 us a call
 * path_trial_due would ask about 50,000), and is right after. The calls
 * run back to back, one in a hundred synchronized, a solver's pace; the
 * line printed compares the count with what path_trial_due asks at the
 * fastest of five calls timed here (on a shared GPU those may differ). */
static void check_measured_later(const tcspmm_csr *A, const char *what)
{
    tcspmm_plan *plan = NULL;
    CHECK_OK(tcspmm_plan_create(A, NULL, &plan));
    if (!plan) return;
    const int64_t n = 24;
    const tcspmm_layout row = TCSPMM_LAYOUT_ROW_MAJOR;
    tcspmm_path path = TCSPMM_PATH_CPU;
    for (int i = 0; i < 3; i++) /* three short calls cost far less than measuring */
        CHECK((path = check_product(plan, A, n, row, 0, 1.0f, 0.0f, 1e-3, what)) == TCSPMM_PATH_AUTO);
    test_operands t;
    test_operands_make(&t, A, n, row, 0, 0.0f, seed++);
    float *dB = NULL, *dC = NULL;
    CHECK(cudaMalloc((void **)&dB, t.bsize * sizeof(float)) == cudaSuccess);
    CHECK(cudaMalloc((void **)&dC, t.csize * sizeof(float)) == cudaSuccess);
    CHECK(cudaMemcpy(dB, t.B, t.bsize * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess);
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start) == cudaSuccess && cudaEventCreate(&stop) == cudaSuccess);
    float call_ms = 1e30f;
    for (int i = 0; i < 5; i++) {
        float ms = 0.0f;
        CHECK(cudaEventRecord(start, NULL) == cudaSuccess);
        CHECK_OK(tcspmm_spmm(plan, n, 1.0f, dB, t.ldb, 0.0f, dC, t.ldc, row, NULL));
        CHECK(cudaEventRecord(stop, NULL) == cudaSuccess);
        CHECK(cudaEventSynchronize(stop) == cudaSuccess);
        CHECK(cudaEventElapsedTime(&ms, start, stop) == cudaSuccess);
        if (ms < call_ms) call_ms = ms;
    }
    int64_t expected = 1; /* calls path_trial_due asks at that time (a power of two above) */
    while (call_ms > 0.0f && expected < (INT64_C(1) << 40) && !path_trial_due(expected, call_ms))
        expected *= 2;
    int64_t calls = 0;
    for (; calls < 50000 && path == TCSPMM_PATH_AUTO; calls++) {
        CHECK_OK(tcspmm_spmm(plan, n, 1.0f, dB, t.ldb, 0.0f, dC, t.ldc, row, NULL));
        if (calls % 100 == 99) CHECK(cudaDeviceSynchronize() == cudaSuccess);
        CHECK_OK(tcspmm_plan_path_for(plan, n, row, 0.0f, &path));
    }
    CHECK(path == TCSPMM_PATH_HRPB || path == TCSPMM_PATH_CUSPARSE);
    printf("%-28s n=%lld measured after %lld more calls of %.3f ms (due at %lld to %lld): %s\n",
           what, (long long)n, (long long)calls, call_ms, (long long)expected / 2,
           (long long)expected, tcspmm_path_name(path));
    check_measured_product(plan, A, n, row, 0, 1.0f, 0.0f, 1e-3, what); /* the measured path */
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(dB);
    cudaFree(dC);
    test_operands_free(&t);
    tcspmm_plan_destroy(plan);
}

/* A caller whose C alternates between two buffers and two leading
 * dimensions (32 and 36) on every call: on a plan of path (AUTO measuring at
 * the first call), twelve calls of N = 32, row-major, beta = 0.5, each with
 * fresh B and C checked against the reference. The change of buffers alone
 * would keep CSR_ALG3's preprocessing; the change of shape makes the
 * cuSPARSE path preprocess CSR_ALG3 again every time, until it gives
 * CSR_ALG3 up (after three) for its next fastest algorithm, and a measured
 * plan may then turn to HRPB: the products must stay right across both
 * switches, and the shape (one range of N) must stay measured. */
static void check_alternating_c(const tcspmm_csr *A, tcspmm_path path, const char *what)
{
    tcspmm_plan *plan = tests_plan(A, path, 1);
    if (!plan) return;
    const int64_t n = 32;
    const tcspmm_layout row = TCSPMM_LAYOUT_ROW_MAJOR;
    const size_t rows = (size_t)(A->rows > A->cols ? A->rows : A->cols);
    float *dB = NULL, *dC[2] = {NULL, NULL};
    CHECK(cudaMalloc((void **)&dB, (rows * (n + 4) + 1) * sizeof(float)) == cudaSuccess);
    CHECK(cudaMalloc((void **)&dC[0], (rows * (n + 4) + 1) * sizeof(float)) == cudaSuccess);
    CHECK(cudaMalloc((void **)&dC[1], (rows * (n + 4) + 1) * sizeof(float)) == cudaSuccess);
    int passed = 0;
    for (int call = 0; call < 12; call++) {
        test_operands t;
        test_operands_make(&t, A, n, row, 4 * (call % 2), 0.5f, seed++);
        passed += product_vs_reference(plan, A, n, row, -1.25f, 0.5f, 1e-3, &t, dB, dC[call % 2]).pass;
        test_operands_free(&t);
    }
    tcspmm_path measured = TCSPMM_PATH_AUTO;
    CHECK_OK(tcspmm_plan_path_for(plan, n, row, 0.5f, &measured));
    CHECK(path == TCSPMM_PATH_AUTO
              ? measured == TCSPMM_PATH_HRPB || measured == TCSPMM_PATH_CUSPARSE
              : measured == path);
    printf("%-28s n=%lld C alternating, %s plan: %d of 12 right, now %s\n", what, (long long)n,
           tcspmm_path_name(path), passed, tcspmm_path_name(measured));
    cudaFree(dB);
    cudaFree(dC[0]);
    cudaFree(dC[1]);
    tcspmm_plan_destroy(plan);
}

/* The auto path's plan-time choice on A at N = 128, with and without
 * measurement. */
static tcspmm_path auto_choice(const tcspmm_csr *A, int rule_only)
{
    tcspmm_options opt;
    tcspmm_options_init(&opt);
    opt.rule_only = rule_only;
    tcspmm_plan *plan = NULL;
    tcspmm_info info;
    info.path = TCSPMM_PATH_CPU;
    CHECK_OK(tcspmm_plan_create(A, &opt, &plan));
    if (plan) CHECK_OK(tcspmm_plan_info(plan, &info));
    tcspmm_plan_destroy(plan);
    return info.path;
}

int main(void)
{
    tests_require_gpu();
    const char *files[] = {"cora.mtx", "ted_B.mtx.gz", "lp_stocfor3.mtx.gz", "de2010.mtx.gz"};
    for (int f = 0; f < 4; f++) {
        tcspmm_csr A;
        CHECK_OK(tests_read(tests_data(files[f]), 41 + f, &A));
        check_matrix(&A, TCSPMM_PATH_CUSPARSE, TCSPMM_PATH_CUSPARSE, 1e-5, files[f]);
        /* ted_B's dense bricks (alpha 0.29) go to HRPB at plan time; the
         * others (alpha 0.07-0.10) are measured */
        tcspmm_path expect = f == 1 ? TCSPMM_PATH_HRPB : TCSPMM_PATH_AUTO;
        check_matrix(&A, TCSPMM_PATH_AUTO, expect, 1e-3, files[f]);
        if (expect == TCSPMM_PATH_AUTO) check_measured_later(&A, files[f]);
        check_alternating_c(&A, TCSPMM_PATH_CUSPARSE, files[f]);
        if (expect == TCSPMM_PATH_AUTO) check_alternating_c(&A, TCSPMM_PATH_AUTO, files[f]);
        tcspmm_path rule = auto_choice(&A, 1);
        CHECK(rule == TCSPMM_PATH_HRPB || rule == TCSPMM_PATH_CUSPARSE);
        tcspmm_csr_free(&A);
    }
    for (int c = 0; c < matgen_num_cases(); c++) {
        tcspmm_csr A;
        const char *name = "";
        CHECK_OK(matgen_case(c, 77 + c, &A, &name));
        check_matrix(&A, TCSPMM_PATH_CUSPARSE, TCSPMM_PATH_CUSPARSE, 1e-5, name);
        tcspmm_path measured = auto_choice(&A, 0);
        if (measured == TCSPMM_PATH_AUTO) check_matrix(&A, TCSPMM_PATH_AUTO, measured, 1e-3, name);
        tcspmm_plan *plan = NULL; /* HRPB through the public API, checked on the host */
        tcspmm_options opt;
        tcspmm_options_init(&opt);
        opt.path = TCSPMM_PATH_HRPB;
        CHECK_OK(tcspmm_plan_create(&A, &opt, &plan));
        if (plan) check_host_product(plan, &A, name);
        tcspmm_plan_destroy(plan);
        tcspmm_csr_free(&A);
    }
    return tests_finish();
}
