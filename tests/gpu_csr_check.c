/* gpu_csr_check.c: the device's entry checks and structure detection
 * (csr_gpu_check) against the host's (tcspmm_csr_validate, sparse24_detect):
 * the same first bad row for a column out of range, negative, repeated or
 * out of order and for NaN and Inf values, in rows that are short, long and
 * last; the same structure on the edge cases and on 2:4 and 1:2 matrices,
 * also once an explicit zero or a third entry sits in a group, counted by
 * value and on every entry (as for a plan whose values change); and a plan
 * refusing a bad matrix on the GPU with the host's message. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csr_gpu.h"
#include "format/csr.h"
#include "harness.h"
#include "matgen.h"
#include "sparse24_gen.h"

/* Host and device agree on A: the same error (status and message) and structure, counted
 * by value or on every entry. */
static void agree_counting(const tcspmm_csr *A, int every_entry, const char *what)
{
    tcspmm_status host_st = tcspmm_csr_validate(A);
    char host_msg[512];
    snprintf(host_msg, sizeof host_msg, "%s", tcspmm_last_error());
    csr_gpu dA;
    sp24_structure s = SP24_NONE;
    CHECK_OK(csr_gpu_upload(A, &dA));
    tcspmm_status dev_st = csr_gpu_check(&dA, every_entry, &s);
    char dev_msg[512] = "";
    if (dev_st) snprintf(dev_msg, sizeof dev_msg, "%s", tcspmm_last_error());
    csr_gpu_free(&dA);
    int same_error = dev_st == host_st && (host_st == TCSPMM_SUCCESS || !strcmp(host_msg, dev_msg));
    int same_structure = host_st != TCSPMM_SUCCESS || s == sparse24_detect(A, every_entry);
    if (!same_error || !same_structure)
        fprintf(stderr, "  %s (every entry %d): host '%s', device '%s'; structure %d vs %d\n",
                what, every_entry, host_st ? host_msg : "", dev_msg, (int)s,
                host_st ? -1 : (int)sparse24_detect(A, every_entry));
    CHECK(same_error && same_structure);
}

static void agree(const tcspmm_csr *A, const char *what)
{
    agree_counting(A, 0, what);
    agree_counting(A, 1, what);
}

/* A copy of A with entry k of row `row` (k counted from the row's start, or
 * from its end when negative) given column col (if col != -2) and value v. */
static void corrupt(const tcspmm_csr *A, int64_t row, int64_t k, int32_t col, float v,
                    const char *what)
{
    tcspmm_csr B;
    CHECK_OK(csr_copy(A, &B));
    int64_t at = k >= 0 ? B.row_ptr[row] + k : B.row_ptr[row + 1] + k;
    CHECK(at >= B.row_ptr[row] && at < B.row_ptr[row + 1]);
    if (col != -2) B.col_idx[at] = col;
    B.values[at] = v;
    agree(&B, what);
    tcspmm_csr_free(&B);
}

static void test_bad_entries(void)
{
    tcspmm_csr A; /* row 7 dense: a long row; the others about 30 entries */
    CHECK_OK(matgen_dense_row(300, 200, 7, 0.15, 17, &A));
    agree(&A, "valid");
    const int64_t last = A.rows - 1;
    CHECK(A.row_ptr[last + 1] - A.row_ptr[last] >= 1 && A.row_ptr[41] - A.row_ptr[40] >= 3 &&
          A.row_ptr[4] - A.row_ptr[3] >= 2);
    corrupt(&A, 3, 0, (int32_t)A.cols, 1.0f, "column == cols");
    corrupt(&A, 3, 1, -1, 1.0f, "negative column");
    corrupt(&A, 7, 150, 3, 1.0f, "out of order in the dense row");
    corrupt(&A, 7, 100, A.col_idx[A.row_ptr[7] + 99], 1.0f, "repeated column in the dense row");
    corrupt(&A, last, -1, -2, NAN, "NaN in the last row");
    corrupt(&A, last, 0, -2, -INFINITY, "-Inf at the start of the last row");
    corrupt(&A, 40, 2, -2, INFINITY, "Inf");
    tcspmm_csr_free(&A);
}

static void test_structures(void)
{
    matgen_each_case(500, agree);
    const sp24_structure kinds[] = {SP24_2TO4, SP24_1TO2};
    for (int i = 0; i < 2; i++) {
        tcspmm_csr A;
        CHECK_OK(sp24_gen(97, 130, kinds[i], 0.2, 40 + i, &A));
        agree(&A, kinds[i] == SP24_2TO4 ? "2:4" : "1:2");
        /* An explicit zero next to an entry keeps the structure; a value
         * there breaks it. Row 5's first entry gets a neighbour in its group. */
        int64_t k = A.row_ptr[5];
        int32_t c = A.col_idx[k];
        int32_t free_col = -1; /* a column of c's group (2:4) or pair (1:2) the row lacks */
        const int span = kinds[i] == SP24_2TO4 ? 4 : 2;
        for (int32_t j = c / span * span; j < c / span * span + span; j++) {
            int present = 0;
            for (int64_t q = A.row_ptr[5]; q < A.row_ptr[6]; q++) present |= A.col_idx[q] == j;
            if (!present) free_col = j;
        }
        CHECK(free_col >= 0);
        tcspmm_csr B; /* A with (5, free_col) inserted */
        CHECK_OK(csr_alloc(A.rows, A.cols, A.nnz + 1, &B));
        int64_t out = 0;
        for (int64_t r = 0; r < A.rows; r++) {
            B.row_ptr[r] = out;
            int inserted = r != 5;
            for (int64_t q = A.row_ptr[r]; q < A.row_ptr[r + 1]; q++) {
                if (!inserted && free_col < A.col_idx[q]) {
                    B.col_idx[out] = free_col, B.values[out++] = 0.0f;
                    inserted = 1;
                }
                B.col_idx[out] = A.col_idx[q], B.values[out++] = A.values[q];
            }
            if (!inserted) B.col_idx[out] = free_col, B.values[out++] = 0.0f;
        }
        B.row_ptr[A.rows] = out;
        agree(&B, "explicit zero in a group");
        CHECK(sparse24_detect(&B, 0) == kinds[i]);
        for (int64_t q = B.row_ptr[5]; q < B.row_ptr[6]; q++)
            if (B.col_idx[q] == free_col) B.values[q] = 0.5f;
        agree(&B, "one more entry in a group");
        tcspmm_csr_free(&B);
        tcspmm_csr_free(&A);
    }
}

/* A row spanning many chunks of entries (src/kernels/csr_chunks.h), then a
 * run of empty rows: the device still finds each entry's row and left
 * neighbours; bad entries at a chunk's first entry and in the middle of the
 * long row are reported at that row; a pair broken across a chunk's start
 * is seen. */
static void test_long_rows(void)
{
    tcspmm_csr A;
    CHECK_OK(matgen_long_row_gap(6000, 3000, 0.02, 61, &A));
    agree(&A, "a long row, then a gap of empty rows");
    const int64_t start = A.row_ptr[5], chunk = 256;
    const int64_t at_chunk = (start / chunk + 2) * chunk - start; /* a chunk's first entry */
    CHECK(A.row_ptr[6] - A.row_ptr[5] == 3000 && A.row_ptr[A.rows - 5] == A.row_ptr[6]);
    corrupt(&A, 5, at_chunk, A.col_idx[start + at_chunk - 1], 1.0f,
            "repeated column at a chunk's first entry");
    corrupt(&A, 5, 1700, -2, NAN, "NaN in the middle of a long row");
    corrupt(&A, 5, -1, 3000, 1.0f, "column == cols at the long row's end");
    corrupt(&A, A.rows - 1, 0, -2, INFINITY, "Inf after the gap");
    tcspmm_csr_free(&A);

    /* 1:2 with rows of about 1,800 entries: entry k, a chunk's first, moved
     * into the pair of entry k - 1 (columns still increasing). */
    CHECK_OK(sp24_gen(40, 4096, SP24_1TO2, 0.1, 62, &A));
    agree(&A, "1:2 with long rows");
    int64_t k = -1; /* a chunk's first entry, inside a row, that can move */
    for (int64_t r = 0; r < A.rows && k < 0; r++)
        for (int64_t q = (A.row_ptr[r] / chunk + 1) * chunk; q < A.row_ptr[r + 1] && k < 0; q += chunk)
            if (A.col_idx[q - 1] % 2 == 0 && A.col_idx[q - 1] + 1 < A.col_idx[q]) k = q;
    CHECK(k > 0);
    if (k > 0) {
        A.col_idx[k] = A.col_idx[k - 1] + 1;
        CHECK(sparse24_detect(&A, 0) != SP24_1TO2);
        agree(&A, "a pair broken across a chunk's start");
    }
    tcspmm_csr_free(&A);
}

/* A plan with a GPU checks on the device and says what the host says. */
static void test_plan_refuses(void)
{
    tcspmm_csr A;
    CHECK_OK(matgen_random(64, 48, 0.2, 3, &A));
    int64_t row = 20;
    while (A.row_ptr[row + 1] == A.row_ptr[row]) row++;
    A.values[A.row_ptr[row]] = NAN;
    char expect[32];
    snprintf(expect, sizeof expect, "row %lld ", (long long)row);
    tcspmm_plan *plan = NULL;
    CHECK(tcspmm_plan_create(&A, NULL, &plan) == TCSPMM_ERROR_INVALID_MATRIX);
    CHECK(plan == NULL && strstr(tcspmm_last_error(), expect) != NULL);
    tcspmm_csr_free(&A);
}

int main(void)
{
    tests_require_gpu();
    test_bad_entries();
    test_structures();
    test_long_rows();
    test_plan_refuses();
    return tests_finish();
}
