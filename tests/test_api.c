/* test_api.c: the public API on the CPU: options and their checks, status
 * names, the thread-local error message, CSR validation, plans without a GPU,
 * tcspmm_spmm_host against a naive triple loop, products that add nothing
 * to C (alpha = 0, no entries), B and C that overlap, and the comparison
 * with the float64 reference that every product test uses. */
#include "harness.h"
#include "matgen.h"
#include "plan.h"
#include "reference.h"
#include "rng.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static tcspmm_csr small_matrix(void)
{
    /* 3 x 4: [1 0 2 0; 0 0 0 0; 0 -3 0 4] */
    static int64_t rp[] = {0, 2, 2, 4};
    static int32_t ci[] = {0, 2, 1, 3};
    static float v[] = {1, 2, -3, 4};
    tcspmm_csr A = {3, 4, 4, rp, ci, v};
    return A;
}

static void test_status_and_errors(void)
{
    CHECK(strcmp(tcspmm_status_string(TCSPMM_ERROR_PARSE), "TCSPMM_ERROR_PARSE") == 0);
    CHECK(strcmp(tcspmm_status_string(TCSPMM_SUCCESS), "TCSPMM_SUCCESS") == 0);
    tcspmm_options opt;
    tcspmm_plan *plan = (tcspmm_plan *)&opt; /* not a plan: set to NULL on failure */
    CHECK(tcspmm_plan_create(NULL, NULL, &plan) == TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(tcspmm_last_error(), "tcspmm_plan_create") != NULL && plan == NULL);
    plan = (tcspmm_plan *)&opt;
    CHECK(tcspmm_plan_create_device(NULL, NULL, &plan) == TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(plan == NULL);
    tcspmm_options_init(&opt);
    CHECK(opt.panel_rows == 16 && opt.expected_n == 128 && opt.path == TCSPMM_PATH_AUTO);
    opt.panel_rows = 8;
    tcspmm_csr A = small_matrix();
    CHECK(tcspmm_plan_create(&A, &opt, &plan) == TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(tcspmm_last_error(), "panel_rows") != NULL);
    CHECK(plan == NULL);
    opt.panel_rows = 16;
    CHECK(opt.rule_only == 0 && opt.measure_at_first_call == 0);
    opt.measure_at_first_call = 2;
    CHECK(tcspmm_plan_create(&A, &opt, &plan) == TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(tcspmm_last_error(), "measure_at_first_call") != NULL);
    CHECK(plan == NULL);
    opt.measure_at_first_call = 0;
    opt.expected_n = ((int64_t)1 << 31) + 1; /* n tiles past it would overflow */
    CHECK(tcspmm_plan_create(&A, &opt, &plan) == TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(tcspmm_last_error(), "expected_n") != NULL && plan == NULL);
    opt.expected_n = (int64_t)1 << 31; /* the largest taken */
    opt.path = TCSPMM_PATH_CPU;
    CHECK_OK(tcspmm_plan_create(&A, &opt, &plan));
    tcspmm_plan_destroy(plan);
    plan = NULL;
    opt.expected_n = 128;
    opt.host_threads = -1;
    CHECK(tcspmm_plan_create(&A, &opt, &plan) == TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(tcspmm_last_error(), "host_threads") != NULL && plan == NULL);
    opt.host_threads = 4097; /* libgomp crashed on 100,000 */
    CHECK(tcspmm_plan_create(&A, &opt, &plan) == TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(tcspmm_last_error(), "at most 4096") != NULL && plan == NULL);
    opt.host_threads = 0;
    opt.reserved[11] = 1;
    CHECK(tcspmm_plan_create(&A, &opt, &plan) == TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(tcspmm_last_error(), "reserved[11] is 1") != NULL && plan == NULL);
    opt.reserved[11] = 0;
    const tcspmm_precision precisions[] = {TCSPMM_PRECISION_TF32, TCSPMM_PRECISION_FP32,
                                           TCSPMM_PRECISION_BF16, TCSPMM_PRECISION_FP16};
    for (int p = 0; p < 4; p++) { /* every precision is a valid option */
        opt.precision = precisions[p];
        CHECK_OK(tcspmm_plan_create(&A, &opt, &plan));
        tcspmm_plan_destroy(plan);
        plan = NULL;
    }
    opt.path = TCSPMM_PATH_SPARSE24; /* the sparse tensor cores have no fp32 mode */
    opt.precision = TCSPMM_PRECISION_FP32;
    CHECK(tcspmm_plan_create(&A, &opt, &plan) == TCSPMM_ERROR_UNSUPPORTED);
    CHECK(strstr(tcspmm_last_error(), "no fp32 mode") != NULL && plan == NULL);
    CHECK(strcmp(tcspmm_path_name(TCSPMM_PATH_HRPB), "hrpb") == 0);
    CHECK(strcmp(tcspmm_precision_name(TCSPMM_PRECISION_FP32), "fp32") == 0);
}

/* compare_to_reference, which every product test's verdict comes from: a
 * NaN or an Inf fails whatever the tolerance, the relative Frobenius error
 * just above tol fails and just below passes, and an all-zero reference
 * takes the absolute error. */
static void test_compare(void)
{
    const double ref[6] = {1, -2, 3, 0.5, 0, 4};
    float C[6];
    for (int k = 0; k < 6; k++) C[k] = (float)ref[k];
    double norm = 0;
    for (int k = 0; k < 6; k++) norm += ref[k] * ref[k];
    compare_result r = compare_to_reference(C, 3, TCSPMM_LAYOUT_ROW_MAJOR, ref, 2, 3, 1e-6);
    CHECK(r.pass && r.rel_err == 0 && r.nonfinite == 0);
    C[4] = 1e-3f; /* rel err 1e-3 / sqrt(norm) */
    const double rel = 1e-3f / sqrt(norm);
    CHECK(compare_to_reference(C, 3, TCSPMM_LAYOUT_ROW_MAJOR, ref, 2, 3, rel * 1.01).pass);
    CHECK(!compare_to_reference(C, 3, TCSPMM_LAYOUT_ROW_MAJOR, ref, 2, 3, rel * 0.99).pass);
    const float bad[2] = {NAN, INFINITY};
    for (int b = 0; b < 2; b++) {
        C[4] = bad[b];
        r = compare_to_reference(C, 3, TCSPMM_LAYOUT_ROW_MAJOR, ref, 2, 3, 1e30);
        CHECK(!r.pass && r.nonfinite == 1 && isinf(r.rel_err));
    }
    C[4] = 0;
    /* column-major: (i, j) at j * ld + i; the padding row (ld 3 > 2 rows) unread */
    float Ccol[9];
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++) Ccol[j * 3 + i] = (float)ref[i * 3 + j];
    for (int j = 0; j < 3; j++) Ccol[j * 3 + 2] = NAN;
    CHECK(compare_to_reference(Ccol, 3, TCSPMM_LAYOUT_COL_MAJOR, ref, 2, 3, 1e-6).pass);
    const double zero[2] = {0, 0};
    const float small[2] = {3e-4f, 4e-4f}; /* absolute error 5e-4 */
    CHECK(compare_to_reference(small, 2, TCSPMM_LAYOUT_ROW_MAJOR, zero, 1, 2, 6e-4).pass);
    CHECK(!compare_to_reference(small, 2, TCSPMM_LAYOUT_ROW_MAJOR, zero, 1, 2, 4e-4).pass);
}

static void test_validate(void)
{
    tcspmm_csr A = small_matrix();
    CHECK_OK(tcspmm_csr_validate(&A));
    A.col_idx[1] = 4; /* out of range */
    CHECK(tcspmm_csr_validate(&A) == TCSPMM_ERROR_INVALID_MATRIX);
    CHECK(strstr(tcspmm_last_error(), "row 0") != NULL);
    A.col_idx[1] = 2;
    A.values[3] = NAN;
    CHECK(tcspmm_csr_validate(&A) == TCSPMM_ERROR_INVALID_MATRIX);
    CHECK(strstr(tcspmm_last_error(), "row 2") != NULL);
    A.values[3] = 4;
    A.col_idx[2] = 3; /* row 2 becomes unsorted: 3, 3 */
    CHECK(tcspmm_csr_validate(&A) == TCSPMM_ERROR_INVALID_MATRIX);
    A.col_idx[2] = 1;
    /* The first bad row_ptr is named: row 0 ending past nnz (row 1, from 5
     * back to 2, is bad too), then row 1 running back within nnz (were it
     * missed, row 0's entries 0 2 1 would be named out of order). */
    A.row_ptr[1] = 5;
    CHECK(tcspmm_csr_validate(&A) == TCSPMM_ERROR_INVALID_MATRIX);
    CHECK(strstr(tcspmm_last_error(), "row 0 has a bad row_ptr") != NULL);
    A.row_ptr[1] = 3;
    CHECK(tcspmm_csr_validate(&A) == TCSPMM_ERROR_INVALID_MATRIX);
    CHECK(strstr(tcspmm_last_error(), "row 1 has a bad row_ptr") != NULL);
    A.row_ptr[1] = 2;
    A.row_ptr[3] = 5;
    CHECK(tcspmm_csr_validate(&A) == TCSPMM_ERROR_INVALID_MATRIX);
    A.row_ptr[3] = 4;
    CHECK_OK(tcspmm_csr_validate(&A));
}

/* C = alpha*A*B + beta*C by the definition, dense, in float64. */
static void naive(const tcspmm_csr *A, int64_t n, double alpha, const float *B, int64_t ldb,
                  double beta, const float *C0, int64_t ldc, tcspmm_layout layout, double *out)
{
    for (int64_t i = 0; i < A->rows; i++)
        for (int64_t j = 0; j < n; j++) {
            double s = 0;
            for (int64_t k = 0; k < A->cols; k++) {
                double a = 0;
                for (int64_t p = A->row_ptr[i]; p < A->row_ptr[i + 1]; p++)
                    if (A->col_idx[p] == k) a += A->values[p];
                s += a * B[dense_index(k, j, ldb, layout)];
            }
            out[i * n + j] = alpha * s + (beta != 0 ? beta * C0[dense_index(i, j, ldc, layout)] : 0);
        }
}

static void check_host_product(const tcspmm_csr *A, int64_t n, tcspmm_layout layout, int pad,
                               float alpha, float beta, uint64_t seed)
{
    test_operands t;
    test_operands_make(&t, A, n, layout, pad, beta, seed);
    tcspmm_options opt;
    tcspmm_options_init(&opt);
    opt.path = TCSPMM_PATH_CPU;
    tcspmm_plan *plan = NULL;
    CHECK_OK(tcspmm_plan_create(A, &opt, &plan));
    CHECK_OK(tcspmm_spmm_host(plan, n, alpha, t.B, t.ldb, beta, t.C, t.ldc, layout));
    naive(A, n, alpha, t.B, t.ldb, beta, t.C0, t.ldc, layout, t.ref);
    compare_result r = compare_to_reference(t.C, t.ldc, layout, t.ref, A->rows, n, 1e-6);
    CHECK(r.pass);
    if (!r.pass) fprintf(stderr, "  n=%lld layout=%d rel_err=%g nonfinite=%lld\n", (long long)n,
                         (int)layout, r.rel_err, (long long)r.nonfinite);
    tcspmm_plan_destroy(plan);
    test_operands_free(&t);
}

static void test_host_spmm(void)
{
    tcspmm_csr A = small_matrix();
    const int64_t ns[] = {1, 3, 8, 17};
    for (int t = 0; t < 4; t++)
        for (int layout = 0; layout < 2; layout++) {
            check_host_product(&A, ns[t], (tcspmm_layout)layout, 0, 1.0f, 0.0f, 11 + t);
            check_host_product(&A, ns[t], (tcspmm_layout)layout, 3, -0.5f, 1.5f, 23 + t);
        }
    tcspmm_csr R;
    CHECK_OK(matgen_random(37, 53, 0.1, 5, &R));
    for (int layout = 0; layout < 2; layout++)
        check_host_product(&R, 7, (tcspmm_layout)layout, 2, 2.0f, -1.0f, 99);
    tcspmm_csr_free(&R);
}

/* alpha = 0, or a matrix without entries (3 x 4 or 3 x 0): C = beta*C
 * exactly, and B, which holds an infinity and NaNs, is not read
 * (tests/gpu_scale_only.c does the same on the GPU paths). */
static void test_products_adding_nothing(void)
{
    static int64_t empty_rows[] = {0, 0, 0, 0};
    const tcspmm_csr A = small_matrix(), Z = {3, 4, 0, empty_rows, NULL, NULL},
                     E = {3, 0, 0, empty_rows, NULL, NULL};
    const tcspmm_csr *mats[] = {&A, &Z, &E};
    const float alphas[] = {0.0f, 1.5f, 1.5f}, betas[] = {0.0f, 0.5f, 1.0f, -2.0f};
    for (int m = 0; m < 3; m++) {
        tcspmm_plan *plan = NULL;
        CHECK_OK(tcspmm_plan_create(mats[m], NULL, &plan));
        if (!plan) continue;
        for (int layout = 0; layout < 2; layout++)
            for (int b = 0; b < 4; b++) {
                const int row_major = layout == TCSPMM_LAYOUT_ROW_MAJOR;
                const int64_t n = 2, ldb = row_major ? 3 : 5, ldc = row_major ? 3 : 4;
                float B[16], C0[12], C[12];
                for (int i = 0; i < 16; i++) B[i] = i % 3 == 0 ? INFINITY : i % 3 == 1 ? NAN : -NAN;
                rng_fill(C0, 12, 40 + b);
                if (betas[b] == 0.0f) C0[5] = NAN;
                memcpy(C, C0, sizeof C);
                CHECK_OK(tcspmm_spmm_host(plan, n, alphas[m], B, ldb, betas[b], C, ldc,
                                          (tcspmm_layout)layout));
                int64_t wrong = 0;
                for (int64_t i = 0; i < 3; i++)
                    for (int64_t j = 0; j < n; j++) {
                        const int64_t e = dense_index(i, j, ldc, (tcspmm_layout)layout);
                        wrong += C[e] != (betas[b] == 0.0f ? 0.0f : betas[b] * C0[e]);
                    }
                CHECK(wrong == 0);
            }
        tcspmm_plan_destroy(plan);
    }
}

/* B and C that share an element are refused, with C untouched; B and C as
 * column blocks of one row-major matrix, or row blocks of one column-major
 * one, are not. */
static void test_overlap(void)
{
    tcspmm_csr A = small_matrix(); /* 3 x 4: B is 4 x n, C 3 x n */
    tcspmm_plan *plan = NULL;
    CHECK_OK(tcspmm_plan_create(&A, NULL, &plan));
    if (!plan) return;
    const tcspmm_layout row = TCSPMM_LAYOUT_ROW_MAJOR, col = TCSPMM_LAYOUT_COL_MAJOR;
    float X[40], X0[40];
    rng_fill(X0, 40, 77);
    memcpy(X, X0, sizeof X);
    CHECK(tcspmm_spmm_host(plan, 2, 1.0f, X, 2, 0.0f, X, 2, row) == TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(tcspmm_last_error(), "B and C overlap") != NULL);
    CHECK(tcspmm_spmm_host(plan, 2, 1.0f, X, 2, 0.0f, X + 7, 2, row) ==
          TCSPMM_ERROR_INVALID_ARGUMENT); /* B's last element is C's first */
    CHECK(tcspmm_spmm_host(plan, 2, 1.0f, X + 5, 2, 0.0f, X, 2, row) ==
          TCSPMM_ERROR_INVALID_ARGUMENT); /* C's last element is B's first */
    CHECK(tcspmm_spmm_host(plan, 2, 1.0f, X, 4, 0.0f, X + 1, 4, row) ==
          TCSPMM_ERROR_INVALID_ARGUMENT); /* one matrix, columns 0-1 and 1-2 */
    CHECK(tcspmm_spmm_host(plan, 2, 1.0f, X, 7, 0.0f, X + 3, 7, col) ==
          TCSPMM_ERROR_INVALID_ARGUMENT); /* one matrix, rows 0-3 and 3-5 */
    CHECK(tcspmm_spmm_host(plan, 2, 1.0f, X, 4, 0.0f, X + 2, 3, row) ==
          TCSPMM_ERROR_INVALID_ARGUMENT); /* interleaved at two pitches */
    CHECK(memcmp(X, X0, sizeof X) == 0);

    double ref[6];
    CHECK_OK(tcspmm_spmm_host(plan, 2, 1.0f, X, 2, 0.0f, X + 8, 2, row)); /* just past B */
    naive(&A, 2, 1.0, X0, 2, 0.0, X0 + 8, 2, row, ref);
    CHECK(compare_to_reference(X + 8, 2, row, ref, 3, 2, 1e-6).pass);
    memcpy(X, X0, sizeof X);
    CHECK_OK(tcspmm_spmm_host(plan, 2, 1.0f, X, 4, 0.0f, X + 2, 4, row)); /* columns 0-1, 2-3 */
    naive(&A, 2, 1.0, X0, 4, 0.0, X0 + 2, 4, row, ref);
    CHECK(compare_to_reference(X + 2, 4, row, ref, 3, 2, 1e-6).pass);
    memcpy(X, X0, sizeof X);
    CHECK_OK(tcspmm_spmm_host(plan, 2, 1.0f, X, 7, 0.0f, X + 4, 7, col)); /* rows 0-3, 4-6 */
    naive(&A, 2, 1.0, X0, 7, 0.0, X0 + 4, 7, col, ref);
    CHECK(compare_to_reference(X + 4, 7, col, ref, 3, 2, 1e-6).pass);
    tcspmm_plan_destroy(plan);
}

static void test_cpu_plan(void)
{
    tcspmm_csr A = small_matrix();
    tcspmm_plan *plan = NULL;
    CHECK_OK(tcspmm_plan_create(&A, NULL, &plan));
    tcspmm_info info;
    CHECK_OK(tcspmm_plan_info(plan, &info));
    CHECK(info.rows == 3 && info.cols == 4 && info.nnz == 4);
    tcspmm_plan *device_plan = NULL;
    CHECK(tcspmm_plan_create_device(NULL, NULL, &device_plan) == TCSPMM_ERROR_INVALID_ARGUMENT);
    tcspmm_csr huge = A;
    huge.rows = INT32_MAX;
    CHECK(tcspmm_plan_create_device(&huge, NULL, &device_plan) == TCSPMM_ERROR_UNSUPPORTED);
    CHECK(device_plan == NULL);
    if (!info.has_gpu) {
        CHECK(info.path == TCSPMM_PATH_CPU);
        /* HRPB was built for the metrics, then freed: the cpu path multiplies with A */
        CHECK(info.hrpb_bytes > 0 && plan->hrpb.packed == NULL && plan->hrpb.block_ptr == NULL);
        CHECK(plan->split.vp_panel == NULL && plan->A.row_ptr != NULL);
        CHECK(strstr(info.path_reason, "no CUDA device") != NULL);
        CHECK(tcspmm_plan_create_device(&A, NULL, &device_plan) == TCSPMM_ERROR_NO_DEVICE);
        CHECK(device_plan == NULL && strstr(tcspmm_last_error(), "no CUDA device") != NULL);
        float B[4] = {1, 2, 3, 4}, C[3];
        CHECK(tcspmm_spmm(plan, 1, 1.0f, B, 1, 0.0f, C, 1, TCSPMM_LAYOUT_ROW_MAJOR, NULL) ==
              TCSPMM_ERROR_NO_DEVICE);
        CHECK(strstr(tcspmm_last_error(), "tcspmm_spmm_host") != NULL);
        /* 16-bit B or C: as float ones, refused without a GPU */
        CHECK(tcspmm_spmm_ex(plan, 1, 1.0f, B, TCSPMM_R_32F, 1, 0.0f, C, TCSPMM_R_16BF, 1,
                             TCSPMM_LAYOUT_ROW_MAJOR, NULL) == TCSPMM_ERROR_NO_DEVICE);
        CHECK(tcspmm_spmm_ex(plan, 1, 1.0f, B, TCSPMM_R_16F, 1, 0.0f, C, TCSPMM_R_32F, 1,
                             TCSPMM_LAYOUT_ROW_MAJOR, NULL) == TCSPMM_ERROR_NO_DEVICE);
    }
    float B[8], C[6];
    rng_fill(B, 8, 3);
    CHECK(tcspmm_spmm_host(plan, 2, 1.0f, B, 1, 0.0f, C, 2, TCSPMM_LAYOUT_ROW_MAJOR) ==
          TCSPMM_ERROR_INVALID_ARGUMENT); /* ldb < n */
    CHECK(tcspmm_spmm_host(plan, 2, NAN, B, 2, 0.0f, C, 2, TCSPMM_LAYOUT_ROW_MAJOR) ==
          TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(tcspmm_spmm_host(plan, -1, 1.0f, B, 2, 0.0f, C, 2, TCSPMM_LAYOUT_ROW_MAJOR) ==
          TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(tcspmm_spmm_host(plan, 0, 1.0f, B, 0, 0.0f, C, 1, TCSPMM_LAYOUT_ROW_MAJOR) ==
          TCSPMM_ERROR_INVALID_ARGUMENT); /* every leading dimension is at least 1 */
    CHECK(strstr(tcspmm_last_error(), "needs ldb >= 1") != NULL);
    tcspmm_path path = TCSPMM_PATH_SPARSE24;
    CHECK_OK(tcspmm_plan_path_for(plan, 0, TCSPMM_LAYOUT_COL_MAJOR, 0.0f, &path));
    CHECK(path == info.path);
    CHECK(tcspmm_plan_path_for(plan, -1, TCSPMM_LAYOUT_ROW_MAJOR, 0.0f, &path) ==
          TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(tcspmm_plan_path_for(plan, 8, (tcspmm_layout)2, 0.0f, &path) ==
          TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(tcspmm_last_error(), "layout 2") != NULL);
    CHECK(tcspmm_plan_path_for(plan, 8, TCSPMM_LAYOUT_ROW_MAJOR, NAN, &path) ==
          TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(tcspmm_spmm_ex(plan, 1, 1.0f, B, (tcspmm_datatype)9, 1, 0.0f, C, TCSPMM_R_32F, 1,
                         TCSPMM_LAYOUT_ROW_MAJOR, NULL) == TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(tcspmm_last_error(), "unknown element type") != NULL);
    /* each entry point names itself */
    CHECK(tcspmm_spmm_ex(plan, -1, 1.0f, B, TCSPMM_R_32F, 1, 0.0f, C, TCSPMM_R_32F, 1,
                         TCSPMM_LAYOUT_ROW_MAJOR, NULL) == TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(strncmp(tcspmm_last_error(), "tcspmm_spmm_ex: n = -1", 22) == 0);
    CHECK(tcspmm_spmm(plan, -1, 1.0f, B, 1, 0.0f, C, 1, TCSPMM_LAYOUT_ROW_MAJOR, NULL) ==
          TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(strncmp(tcspmm_last_error(), "tcspmm_spmm: n = -1", 19) == 0);
    CHECK_OK(tcspmm_plan_destroy(plan));
    CHECK_OK(tcspmm_plan_destroy(NULL));
}

int main(void)
{
    test_status_and_errors();
    test_compare();
    test_validate();
    test_host_spmm();
    test_products_adding_nothing();
    test_overlap();
    test_cpu_plan();
    return tests_finish();
}
