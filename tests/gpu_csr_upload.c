/* gpu_csr_upload.c: the upload of a host CSR to the device (csr_gpu_upload).
 * A CSR of 8 MB or more goes up through page-locked staging buffers in
 * pieces (host_upload_staged), a smaller one by one copy: for both, with values and as
 * a pattern, the download gives back every byte of row_ptr, col_idx and
 * values (also of a CSR large enough for larger staging buffers); and
 * plans from the large CSR on the HRPB and cuSPARSE paths (which
 * upload it) multiply within 1e-3 of float64. The large arrays' lengths are
 * not multiples of the staging pieces.
 *
 * Plans of large CSRs (staged): of the large CSR on the auto path too; the
 * large CSR with a NaN, a bad column or both, refused at the first bad row,
 * as on the host; and a large matrix whose pattern is dense but whose
 * values are 1:2 (explicit zeros) goes to the sparse tensor cores on auto,
 * and multiplies right there and forced on HRPB. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csr_gpu.h"
#include "format/csr.h"
#include "harness.h"
#include "host_upload.h"
#include "matgen.h"
#include "rng.h"

/* A up and back down: the same arrays; values too unless pattern. */
static void check_round_trip(const tcspmm_csr *A, int pattern, const char *what)
{
    tcspmm_csr up = *A;
    if (pattern) up.values = NULL;
    csr_gpu dA;
    tcspmm_csr back;
    CHECK_OK(csr_gpu_upload(&up, &dA));
    CHECK_OK(csr_gpu_download(&dA, &back));
    csr_gpu_free(&dA);
    const size_t entries = (size_t)A->nnz * 4;
    const int same_rows = !memcmp(back.row_ptr, A->row_ptr, ((size_t)A->rows + 1) * 8);
    const int same_cols = !memcmp(back.col_idx, A->col_idx, entries);
    const int same_values = pattern || !memcmp(back.values, A->values, entries);
    if (!(same_rows && same_cols && same_values))
        printf("%s%s: row_ptr %s, col_idx %s, values %s\n", what, pattern ? " (pattern)" : "",
               same_rows ? "same" : "differ", same_cols ? "same" : "differ",
               same_values ? "same" : "differ");
    CHECK(same_rows && same_cols && same_values);
    tcspmm_csr_free(&back);
}

static void check_plans(const tcspmm_csr *A, const char *what)
{
    const tcspmm_path paths[] = {TCSPMM_PATH_HRPB, TCSPMM_PATH_CUSPARSE, TCSPMM_PATH_AUTO};
    for (size_t p = 0; p < sizeof paths / sizeof *paths; p++) {
        tcspmm_plan *plan = tests_plan(A, paths[p], 0);
        if (!plan) continue;
        tests_check_spmm(plan, A, 7, 3, 0, 1e-3, 4100 + (uint64_t)p, NULL, what);
        CHECK_OK(tcspmm_plan_destroy(plan));
    }
}

/* A copy of A with a NaN in row nan_row and a column out of order in row
 * col_row (-1: none): refused at the first of them, as on the host. */
static void check_refused(const tcspmm_csr *A, int64_t nan_row, int64_t col_row)
{
    tcspmm_csr B;
    CHECK_OK(csr_copy(A, &B));
    if (nan_row >= 0) B.values[B.row_ptr[nan_row]] = NAN;
    if (col_row >= 0) B.col_idx[B.row_ptr[col_row] + 1] = B.col_idx[B.row_ptr[col_row]];
    const int64_t first = nan_row < 0 ? col_row : col_row < 0 || nan_row < col_row ? nan_row : col_row;
    char expect[32];
    snprintf(expect, sizeof expect, "row %lld ", (long long)first);
    tcspmm_plan *plan = NULL;
    CHECK(tcspmm_plan_create(&B, NULL, &plan) == TCSPMM_ERROR_INVALID_MATRIX);
    CHECK(plan == NULL && strstr(tcspmm_last_error(), expect) != NULL);
    if (plan || !strstr(tcspmm_last_error(), expect))
        fprintf(stderr, "  NaN in row %lld, bad column in row %lld: '%s'\n", (long long)nan_row,
                (long long)col_row, tcspmm_last_error());
    if (plan) tcspmm_plan_destroy(plan);
    tcspmm_csr_free(&B);
}

/* rows x cols (cols even), every entry present, one of each aligned pair
 * of columns zero, the other in [0.5, 1.5) or its negative: a dense
 * pattern with 1:2 values. */
static void dense_pattern_1to2(int64_t rows, int64_t cols, uint64_t seed, tcspmm_csr *out)
{
    CHECK_OK(csr_alloc(rows, cols, rows * cols, out));
    for (int64_t i = 0; i <= rows; i++) out->row_ptr[i] = i * cols;
    for (int64_t k = 0; k < rows * cols; k += 2) {
        const uint64_t r = rng_next(&seed);
        out->col_idx[k] = (int32_t)(k % cols);
        out->col_idx[k + 1] = (int32_t)(k % cols + 1);
        out->values[k] = out->values[k + 1] = 0.0f;
        out->values[k + (int64_t)(r & 1)] = (float)((r & 2 ? -1.0 : 1.0) * (0.5 + rng_uniform(&seed)));
    }
}

int main(void)
{
    tests_require_gpu();
    tcspmm_csr big, small;
    /* about 4.2M entries: 0.8 MB of row_ptr, 16.7 MB (10^6 bytes) each of col_idx and values */
    CHECK_OK(matgen_random(100003, 997, 0.042, 4001, &big));
    CHECK_OK(matgen_random(1003, 517, 0.05, 4002, &small));
    tcspmm_csr big_pattern = big, small_pattern = small;
    big_pattern.values = small_pattern.values = NULL;
    tests_check_staged(csr_gpu_upload_bytes(&big), 2u << 20, "the large CSR");
    tests_check_staged(csr_gpu_upload_bytes(&big_pattern), 2u << 20, "the large pattern");
    CHECK(!host_upload_staged(csr_gpu_upload_bytes(&small)) &&
          !host_upload_staged(csr_gpu_upload_bytes(&small_pattern)));
    CHECK(((size_t)big.nnz * 4) % (64 << 10) != 0);
    for (int pattern = 0; pattern < 2; pattern++) {
        check_round_trip(&big, pattern, "staged upload");
        check_round_trip(&small, pattern, "plain upload");
    }
    tcspmm_csr larger; /* about 17M entries, 138 MB: staged in 4 MB buffers, not 2 */
    CHECK_OK(matgen_random(200003, 4001, 0.0213, 4004, &larger));
    tests_check_staged(csr_gpu_upload_bytes(&larger), 4u << 20, "the larger CSR");
    check_round_trip(&larger, 0, "staged upload in 4 MB buffers");
    tcspmm_csr_free(&larger);
    check_plans(&big, "plans from the staged upload's matrix");
    int64_t r1 = 20001, r2 = 70001; /* rows with two entries or more */
    while (big.row_ptr[r1 + 1] - big.row_ptr[r1] < 2) r1++;
    while (big.row_ptr[r2 + 1] - big.row_ptr[r2] < 2) r2++;
    check_refused(&big, r1, -1);
    check_refused(&big, -1, r2);
    check_refused(&big, r2, r1);
    check_refused(&big, r1, r2);
    tcspmm_csr_free(&big);

    tcspmm_csr pairs;
    dense_pattern_1to2(4201, 512, 4003, &pairs);
    tests_check_staged(csr_gpu_upload_bytes(&pairs), 2u << 20, "the dense 1:2 pattern");
    CHECK(sparse24_detect(&pairs, 0) == SP24_1TO2 &&
          sparse24_detect(&pairs, 1) == SP24_NONE);
    tcspmm_plan *plan = tests_plan(&pairs, TCSPMM_PATH_AUTO, 0);
    if (plan) {
        tcspmm_info info;
        CHECK_OK(tcspmm_plan_info(plan, &info));
        CHECK(info.path == TCSPMM_PATH_SPARSE24);
        tests_check_spmm(plan, &pairs, 9, 1, 0, 1e-3, 4110, NULL, "dense pattern, 1:2 values, auto");
        CHECK_OK(tcspmm_plan_destroy(plan));
    }
    plan = tests_plan(&pairs, TCSPMM_PATH_HRPB, 0);
    if (plan) {
        tests_check_spmm(plan, &pairs, 9, 1, 0, 1e-3, 4111, NULL, "dense pattern, 1:2 values, HRPB");
        CHECK_OK(tcspmm_plan_destroy(plan));
    }
    tcspmm_csr_free(&pairs);
    tcspmm_csr_free(&small);
    return tests_finish();
}
