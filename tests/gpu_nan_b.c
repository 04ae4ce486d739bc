/* gpu_nan_b.c: a NaN in B reaches C. On every GPU path (HRPB in TF32 and
 * FP32, cuSPARSE, sparse24 in tf32) and both layouts, B holds the NaNs
 * programs meet: 0x7fffffff (what GPU arithmetic makes: 0/0, inf - inf),
 * its negation 0xffffffff, 0x7fc00000 (the CPU's), and two signalling NaNs
 * whose payload lies in the 13 bits TF32 drops, 0x7f800001 and 0xff801fff
 * (NaN-boxing and bit-level I/O make them). Each sits in a row k
 * of B that A's column k touches, in its own column j of B (A stores no
 * zero). Then C(i, j) is NaN for every row i with A(i, k) != 0. Other rows
 * may be NaN only where the path promises nothing better: none on cuSPARSE,
 * the rest of the panel on HRPB, any on sparse24 (the tensor-core paths
 * multiply A's zeros by B, README). Every element that is not NaN is finite
 * and, all together, they match the float64 reference (within 1e-3), the
 * NaN columns' included. (HRPB's TF32 rounding once carried the
 * first two into the sign bit and read them as zeros; cvt.rna, which the
 * sparse24 path rounds B with, read the last two as infinities.) */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

/* One product with the NaNs of nan_bits in B. reach: the rows of C a NaN
 * of B(k, j) may spread to in column j, besides the rows whose A has an
 * entry in column k, which must be NaN: those of the aligned groups of
 * reach rows holding such a row (1: none). Every other element must be
 * finite and, with the rest, match the float64 reference. */
static void check_plan(tcspmm_plan *plan, const tcspmm_csr *A, int64_t n, tcspmm_layout layout,
                       int64_t reach, const char *what)
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

    /* Per element of C (row-major, rows x n): 2 must be NaN, 1 may be. */
    unsigned char *nan_ok = calloc((size_t)(A->rows * n), 1);
    if (!nan_ok) {
        fprintf(stderr, "gpu_nan_b: out of memory\n");
        exit(1);
    }
    for (int q = 0; q < NUM_NANS; q++)
        for (int64_t i = 0; i < A->rows; i++)
            for (int64_t e = A->row_ptr[i]; e < A->row_ptr[i + 1]; e++) {
                if (A->col_idx[e] != k[q]) continue;
                const int64_t group = i / reach * reach;
                for (int64_t r = group; r < group + reach && r < A->rows; r++)
                    if (!nan_ok[r * n + j[q]]) nan_ok[r * n + j[q]] = 1;
                nan_ok[i * n + j[q]] = 2;
            }
    /* The reference with B's NaNs zeroed: right wherever C must not be NaN. */
    for (int q = 0; q < NUM_NANS; q++) t.B[dense_index(k[q], j[q], t.ldb, layout)] = 0.0f;
    CHECK_OK(reference_spmm(A, n, 1.0, t.B, t.ldb, 0.5, t.C0, t.ldc, layout, t.ref));
    int64_t reached = 0, missing = 0, spread = 0, bad = 0;
    double diff = 0.0, norm = 0.0;
    for (int64_t i = 0; i < A->rows; i++)
        for (int64_t c = 0; c < n; c++) {
            const double r = t.ref[i * n + c], x = t.C[dense_index(i, c, t.ldc, layout)];
            if (nan_ok[i * n + c] == 2) {
                reached++;
                missing += !isnan(x);
            } else if (nan_ok[i * n + c] == 1 && isnan(x)) {
                spread++;
            } else {
                bad += !isfinite(x);
                diff += (x - r) * (x - r);
                norm += r * r;
            }
        }
    const double rel = sqrt(diff / norm);
    printf("%s, %s, n = %lld: %lld of %lld NaN targets not NaN, %lld NaNs spread within %lld "
           "rows; the rest rel_err %.2e, %lld not finite\n",
           what, layout == TCSPMM_LAYOUT_ROW_MAJOR ? "row-major" : "column-major", (long long)n,
           (long long)missing, (long long)reached, (long long)spread, (long long)reach, rel,
           (long long)bad);
    CHECK(reached > 0 && missing == 0);
    CHECK(bad == 0 && rel < 1e-3);
    free(nan_ok);
    cudaFree(dB);
    cudaFree(dC);
    test_operands_free(&t);
}

/* How far a NaN of B may spread on a plan (check_plan's reach). cuSPARSE:
 * nowhere. The tensor-core paths multiply zeros of A by B (README): HRPB
 * within a panel (its bricks' zeros), sparse24 in any row (a compressed
 * slot without an entry reads a row of B too). */
static void check_path(const tcspmm_csr *A, tcspmm_path path, tcspmm_precision precision,
                       const char *what)
{
    tcspmm_plan *plan = tests_plan_at(A, path, precision);
    if (!plan) return;
    tcspmm_info info;
    CHECK_OK(tcspmm_plan_info(plan, &info));
    const int64_t reach = path == TCSPMM_PATH_CUSPARSE ? 1
                          : path == TCSPMM_PATH_HRPB   ? info.panel_rows
                                                       : A->rows;
    const int64_t ns[] = {40, 129};
    for (int i = 0; i < 2; i++) {
        check_plan(plan, A, ns[i], TCSPMM_LAYOUT_ROW_MAJOR, reach, what);
        check_plan(plan, A, ns[i], TCSPMM_LAYOUT_COL_MAJOR, reach, what);
    }
    tcspmm_plan_destroy(plan);
}

/* Whether A stores no zero: then an entry of A is a non-zero, and a row
 * without one in column k has no IEEE reason to be NaN. */
static int no_stored_zero(const tcspmm_csr *A)
{
    for (int64_t e = 0; e < A->nnz; e++)
        if (A->values[e] == 0.0f) return 0;
    return 1;
}

int main(void)
{
    tests_require_gpu();
    tcspmm_csr A, S;
    CHECK_OK(matgen_random(333, 250, 0.04, seed++, &A));
    CHECK_OK(sp24_gen(300, 256, SP24_1TO2, 0.3, seed++, &S));
    CHECK(no_stored_zero(&A) && no_stored_zero(&S));
    check_path(&A, TCSPMM_PATH_HRPB, TCSPMM_PRECISION_TF32, "hrpb tf32");
    check_path(&A, TCSPMM_PATH_HRPB, TCSPMM_PRECISION_FP32, "hrpb fp32");
    check_path(&A, TCSPMM_PATH_CUSPARSE, TCSPMM_PRECISION_TF32, "cusparse");
    check_path(&S, TCSPMM_PATH_SPARSE24, TCSPMM_PRECISION_TF32, "sparse24 tf32");
    tcspmm_csr_free(&A);
    tcspmm_csr_free(&S);
    return tests_finish();
}
