/* gpu_scale_only.c: products that add nothing to C, on the GPU paths:
 * alpha = 0, and matrices without entries (37 x 29 with none, 37 x 0, and
 * 0 x 29, whose products return at once). On HRPB (TF32 and FP32),
 * cuSPARSE, the auto path measured at its first call (on these and on cora,
 * which the rule is unsure of) and sparse24 (tf32; bf16 with a bf16 C), in
 * both layouts, for beta 0 (C poisoned with NaN), 0.5, 1 and -2: each plan
 * is made, C = beta*C exactly, B (infinities and NaNs) is not read, C's
 * padding is left alone, and a measured plan does not measure on such a
 * call. Also: B and C that share an element are refused with C untouched,
 * and B and C side by side in one matrix are multiplied. */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/sparse24.h"
#include "harness.h"
#include "matgen.h"
#include "reference.h"
#include "rng.h"
#include "sparse24_gen.h"

static uint64_t seed = 1300;

/* One call of plan with alpha (0 unless A has no entries): C, of bf16 when
 * c16, must come back as beta * C0 exactly, its padding as it was. */
static void check_scale(tcspmm_plan *plan, const tcspmm_csr *A, int64_t n, tcspmm_layout layout,
                        float alpha, float beta, int c16, const char *what)
{
    const int row_major = layout == TCSPMM_LAYOUT_ROW_MAJOR;
    const int64_t ldb = (row_major ? n : A->cols) + 1, ldc = (row_major ? n : A->rows) + 3;
    const size_t bsize = (size_t)((row_major ? A->cols : n) * ldb) + 1,
                 csize = (size_t)((row_major ? A->rows : n) * ldc);
    const size_t esize = c16 ? 2 : 4;
    float *B = malloc(bsize * 4), *C0 = malloc(csize * 4 + 4);
    unsigned char *c_bytes = malloc(csize * esize + 4), *c_back = malloc(csize * esize + 4);
    for (size_t e = 0; e < bsize; e++) B[e] = e % 3 == 0 ? INFINITY : e % 3 == 1 ? NAN : -NAN;
    rng_fill(C0, csize, seed++);
    if (beta == 0.0f)
        for (size_t e = 0; e < csize; e += 7) C0[e] = NAN;
    for (size_t e = 0; e < csize; e++) {
        if (c16) {
            const uint16_t h = sp24_half_bits(C0[e], TCSPMM_PRECISION_BF16);
            memcpy(c_bytes + 2 * e, &h, 2);
            C0[e] = sp24_half_value(h, TCSPMM_PRECISION_BF16); /* the bf16 value C holds */
        } else {
            memcpy(c_bytes + 4 * e, &C0[e], 4);
        }
    }
    void *dB = NULL, *dC = NULL;
    CHECK(cudaMalloc(&dB, bsize * 4) == cudaSuccess);
    CHECK(cudaMalloc(&dC, csize * esize + 4) == cudaSuccess);
    CHECK(cudaMemcpy(dB, B, bsize * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK(cudaMemcpy(dC, c_bytes, csize * esize, cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK_OK(tcspmm_spmm_ex(plan, n, alpha, dB, TCSPMM_R_32F, ldb, beta, dC,
                            c16 ? TCSPMM_R_16BF : TCSPMM_R_32F, ldc, layout, NULL));
    CHECK(cudaMemcpy(c_back, dC, csize * esize, cudaMemcpyDeviceToHost) == cudaSuccess);
    int64_t wrong = 0, padding = 0;
    for (int64_t o = 0; o < (row_major ? A->rows : n); o++)
        for (int64_t i = 0; i < ldc; i++) {
            const size_t e = (size_t)(o * ldc + i);
            if (i >= (row_major ? n : A->rows)) {
                padding += memcmp(c_back + e * esize, c_bytes + e * esize, esize) != 0;
                continue;
            }
            float got;
            if (c16) {
                uint16_t h;
                memcpy(&h, c_back + 2 * e, 2);
                got = sp24_half_value(h, TCSPMM_PRECISION_BF16);
            } else {
                memcpy(&got, c_back + 4 * e, 4);
            }
            wrong += got != (beta == 0.0f ? 0.0f : beta * C0[e]);
        }
    if (wrong || padding)
        printf("%s, %lld x %lld, n = %lld, %s, alpha %g, beta %g: %lld wrong, %lld padding changed\n",
               what, (long long)A->rows, (long long)A->cols, (long long)n,
               row_major ? "row-major" : "column-major", alpha, beta, (long long)wrong,
               (long long)padding);
    CHECK(wrong == 0 && padding == 0);
    cudaFree(dB);
    cudaFree(dC);
    free(B);
    free(C0);
    free(c_bytes);
    free(c_back);
}

static tcspmm_plan *plan_of(const tcspmm_csr *A, tcspmm_path path, tcspmm_precision precision)
{
    tcspmm_options opt;
    tcspmm_options_init(&opt);
    opt.path = path;
    opt.precision = precision;
    opt.measure_at_first_call = path == TCSPMM_PATH_AUTO;
    tcspmm_plan *plan = NULL;
    CHECK_OK(tcspmm_plan_create(A, &opt, &plan));
    return plan;
}

/* Every layout, beta and n of check_scale on one plan; a measured plan must
 * still be unmeasured afterwards. Gives the plan's path. */
static tcspmm_path check_plan(const tcspmm_csr *A, tcspmm_path path, tcspmm_precision precision,
                              int c16, const char *what)
{
    tcspmm_plan *plan = plan_of(A, path, precision);
    if (!plan) return TCSPMM_PATH_CPU;
    const float alpha = A->nnz ? 0.0f : 1.5f, betas[] = {0.0f, 0.5f, 1.0f, -2.0f};
    const int64_t ns[] = {1, 37, 128};
    for (int layout = 0; layout < 2; layout++)
        for (int b = 0; b < 4; b++)
            for (int k = 0; k < 3; k++)
                check_scale(plan, A, ns[k], (tcspmm_layout)layout, alpha, betas[b], c16, what);
    tcspmm_info info;
    CHECK_OK(tcspmm_plan_info(plan, &info));
    tcspmm_path measured = TCSPMM_PATH_CPU;
    CHECK_OK(tcspmm_plan_path_for(plan, 37, TCSPMM_LAYOUT_ROW_MAJOR, 0.5f, &measured));
    CHECK(measured == info.path); /* AUTO on a measured plan: nothing was measured */
    printf("%s, %lld x %lld with %lld entries, alpha %g: done (path %s)\n", what,
           (long long)A->rows, (long long)A->cols, (long long)A->nnz, alpha,
           tcspmm_path_name(info.path));
    tcspmm_plan_destroy(plan);
    return info.path;
}

/* B and C in one device buffer: refused where they share an element (C
 * left as it was), multiplied where they lie side by side. */
static void check_overlap(const tcspmm_csr *A, tcspmm_path path, const char *what)
{
    tcspmm_plan *plan = plan_of(A, path, TCSPMM_PRECISION_TF32);
    if (!plan) return;
    const int64_t n = 24, ld = 2 * n, rows = A->rows > A->cols ? A->rows : A->cols;
    const size_t size = (size_t)(rows * ld);
    float *X = malloc(size * 4), *back = malloc(size * 4), *dX = NULL;
    rng_fill(X, size, seed++);
    CHECK(cudaMalloc((void **)&dX, size * 4) == cudaSuccess);
    CHECK(cudaMemcpy(dX, X, size * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    const tcspmm_layout row = TCSPMM_LAYOUT_ROW_MAJOR;
    CHECK(tcspmm_spmm(plan, n, 1.0f, dX, ld, 0.0f, dX, ld, row, NULL) == TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(tcspmm_last_error(), "B and C overlap") != NULL);
    CHECK(tcspmm_spmm(plan, n, 1.0f, dX, ld, 0.0f, dX + n - 1, ld, row, NULL) ==
          TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(cudaMemcpy(back, dX, size * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(memcmp(back, X, size * 4) == 0);
    /* B in columns 0 .. n-1, C in columns n .. 2n-1 of one row-major matrix */
    CHECK_OK(tcspmm_spmm(plan, n, 1.0f, dX, ld, 0.0f, dX + n, ld, row, NULL));
    CHECK(cudaMemcpy(back, dX, size * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
    double *ref = malloc((size_t)(A->rows * n) * sizeof(double));
    CHECK_OK(reference_spmm(A, n, 1.0, X, ld, 0.0, X + n, ld, row, ref));
    compare_result r = compare_to_reference(back + n, ld, row, ref, A->rows, n, 1e-3);
    int64_t b_changed = 0;
    for (int64_t k = 0; k < A->cols; k++) b_changed += memcmp(back + k * ld, X + k * ld, n * 4) != 0;
    printf("%s: B and C side by side: rel_err %.2e, %lld rows of B changed\n", what, r.rel_err,
           (long long)b_changed);
    CHECK(r.pass && b_changed == 0);
    free(ref);
    cudaFree(dX);
    free(X);
    free(back);
    tcspmm_plan_destroy(plan);
}

int main(void)
{
    tests_require_gpu();
    static int64_t empty_rows[38];
    tcspmm_csr M, S, S16;
    CHECK_OK(matgen_random(37, 29, 0.1, seed++, &M));
    CHECK_OK(sp24_gen(40, 64, SP24_1TO2, 0.3, seed++, &S));
    CHECK_OK(sp24_gen(40, 64, SP24_2TO4, 0.3, seed++, &S16));
    const tcspmm_csr Z = {37, 29, 0, empty_rows, NULL, NULL}, E = {37, 0, 0, empty_rows, NULL, NULL},
                     R = {0, 29, 0, empty_rows, NULL, NULL};
    const tcspmm_csr *mats[] = {&M, &Z, &E, &R};
    for (int m = 0; m < 4; m++) {
        check_plan(mats[m], TCSPMM_PATH_HRPB, TCSPMM_PRECISION_TF32, 0, "hrpb tf32");
        check_plan(mats[m], TCSPMM_PATH_HRPB, TCSPMM_PRECISION_FP32, 0, "hrpb fp32");
        check_plan(mats[m], TCSPMM_PATH_CUSPARSE, TCSPMM_PRECISION_TF32, 0, "cusparse");
        check_plan(mats[m], TCSPMM_PATH_AUTO, TCSPMM_PRECISION_TF32, 0, "auto, measured");
    }
    tcspmm_csr cora; /* a plan the rule is unsure of: measured, but not by these calls */
    CHECK_OK(tests_read(tests_data("cora.mtx"), 91, &cora));
    CHECK(check_plan(&cora, TCSPMM_PATH_AUTO, TCSPMM_PRECISION_TF32, 0, "auto, measured, cora") ==
          TCSPMM_PATH_AUTO);
    tcspmm_csr_free(&cora);
    check_plan(&S, TCSPMM_PATH_SPARSE24, TCSPMM_PRECISION_TF32, 0, "sparse24 tf32");
    check_plan(&S16, TCSPMM_PATH_SPARSE24, TCSPMM_PRECISION_BF16, 1, "sparse24 bf16, bf16 C");
    check_plan(&Z, TCSPMM_PATH_SPARSE24, TCSPMM_PRECISION_TF32, 0, "sparse24 tf32");
    check_plan(&R, TCSPMM_PATH_SPARSE24, TCSPMM_PRECISION_TF32, 0, "sparse24 tf32");
    check_overlap(&M, TCSPMM_PATH_HRPB, "hrpb");
    check_overlap(&M, TCSPMM_PATH_CUSPARSE, "cusparse");
    tcspmm_csr_free(&M);
    tcspmm_csr_free(&S);
    tcspmm_csr_free(&S16);
    return tests_finish();
}
