/* gpu_nan_b.c: a NaN in B reaches C. On every GPU path (HRPB in TF32 and
 * FP32, cuSPARSE, sparse24 in tf32) and both layouts, B holds the NaNs
 * programs meet: 0x7fffffff (what GPU arithmetic makes: 0/0, inf - inf),
 * its negation 0xffffffff, 0x7fc00000 (the CPU's), and two signalling NaNs
 * whose payload lies in the 13 bits TF32 drops, 0x7f800001 and 0xff801fff
 * (NaN-boxing and bit-level I/O make them). Each sits in a row k
 * of B that A's column k touches, in its own column j of B. Then C(i, j) is
 * NaN for every row i with A(i, k) != 0, and the columns of C without a
 * NaN match the float64 reference. (HRPB's TF32 rounding once carried the
 * first two into the sign bit and read them as zeros; cvt.rna, which the
 * sparse24 path rounds B with, read the last two as infinities.) */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "matgen.h"
#include "reference.h"
#include "sparse24_gen.h"

static uint64_t seed = 900;

enum { NUM_NANS = 5 };
static const uint32_t nan_bits[NUM_NANS] = {0x7fffffffu, 0xffffffffu, 0x7fc00000u, 0x7f800001u,
                                            0xff801fffu};

static float from_bits(uint32_t u)
{
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

static void check_plan(tcspmm_plan *plan, const tcspmm_csr *A, int64_t n, tcspmm_layout layout,
                       const char *what)
{
    test_operands t;
    test_operands_make(&t, A, n, layout, 1, 0.5f, seed++);
    int64_t k[NUM_NANS], j[NUM_NANS];
    for (int q = 0; q < NUM_NANS; q++) {
        k[q] = A->col_idx[(q + 1) * A->nnz / (NUM_NANS + 1)]; /* a column A touches */
        j[q] = (q * 37 + 3) % n;
        t.B[dense_index(k[q], j[q], t.ldb, layout)] = from_bits(nan_bits[q]);
    }
    float *dB = NULL, *dC = NULL;
    test_operands_upload(&t, &dB, &dC);
    CHECK_OK(tcspmm_spmm(plan, n, 1.0f, dB, t.ldb, 0.5f, dC, t.ldc, layout, NULL));
    CHECK(cudaMemcpy(t.C, dC, t.csize * sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess);

    int64_t missing = 0, reached = 0;
    for (int q = 0; q < NUM_NANS; q++)
        for (int64_t i = 0; i < A->rows; i++)
            for (int64_t e = A->row_ptr[i]; e < A->row_ptr[i + 1]; e++)
                if (A->col_idx[e] == k[q]) {
                    reached++;
                    missing += !isnan(t.C[dense_index(i, j[q], t.ldc, layout)]);
                }
    /* The other columns against float64, with the NaN columns of B zeroed. */
    for (int q = 0; q < NUM_NANS; q++) t.B[dense_index(k[q], j[q], t.ldb, layout)] = 0.0f;
    CHECK_OK(reference_spmm(A, n, 1.0, t.B, t.ldb, 0.5, t.C0, t.ldc, layout, t.ref));
    double diff = 0.0, norm = 0.0;
    int64_t bad = 0;
    for (int64_t i = 0; i < A->rows; i++)
        for (int64_t c = 0; c < n; c++) {
            int nan_column = 0;
            for (int q = 0; q < NUM_NANS; q++) nan_column |= c == j[q];
            if (nan_column) continue;
            const double r = t.ref[i * n + c], x = t.C[dense_index(i, c, t.ldc, layout)];
            bad += !isfinite(x);
            diff += (x - r) * (x - r);
            norm += r * r;
        }
    const double rel = sqrt(diff / norm);
    printf("%s, %s, n = %lld: %lld of %lld NaN targets not NaN; other columns rel_err %.2e, "
           "%lld not finite\n",
           what, layout == TCSPMM_LAYOUT_ROW_MAJOR ? "row-major" : "column-major", (long long)n,
           (long long)missing, (long long)reached, rel, (long long)bad);
    CHECK(reached > 0 && missing == 0);
    CHECK(bad == 0 && rel < 1e-3);
    cudaFree(dB);
    cudaFree(dC);
    test_operands_free(&t);
}

static void check_path(const tcspmm_csr *A, tcspmm_path path, tcspmm_precision precision,
                       const char *what)
{
    tcspmm_options opt;
    tcspmm_options_init(&opt);
    opt.path = path;
    opt.precision = precision;
    tcspmm_plan *plan = NULL;
    CHECK_OK(tcspmm_plan_create(A, &opt, &plan));
    if (!plan) return;
    const int64_t ns[] = {40, 129};
    for (int i = 0; i < 2; i++) {
        check_plan(plan, A, ns[i], TCSPMM_LAYOUT_ROW_MAJOR, what);
        check_plan(plan, A, ns[i], TCSPMM_LAYOUT_COL_MAJOR, what);
    }
    tcspmm_plan_destroy(plan);
}

int main(void)
{
    tests_require_gpu();
    tcspmm_csr A, S;
    CHECK_OK(matgen_random(333, 250, 0.04, seed++, &A));
    CHECK_OK(sp24_gen(300, 256, SP24_1TO2, 0.3, seed++, &S));
    check_path(&A, TCSPMM_PATH_HRPB, TCSPMM_PRECISION_TF32, "hrpb tf32");
    check_path(&A, TCSPMM_PATH_HRPB, TCSPMM_PRECISION_FP32, "hrpb fp32");
    check_path(&A, TCSPMM_PATH_CUSPARSE, TCSPMM_PRECISION_TF32, "cusparse");
    check_path(&S, TCSPMM_PATH_SPARSE24, TCSPMM_PRECISION_TF32, "sparse24 tf32");
    tcspmm_csr_free(&A);
    tcspmm_csr_free(&S);
    return tests_finish();
}
