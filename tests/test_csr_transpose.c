/* test_csr_transpose.c: tcspmm_csr_transpose on every matgen edge case and
 * on a bundled real matrix, with 1 and several threads:
 *  - A^T passes tcspmm_csr_validate and has A's non-zeros;
 *  - every entry (i, j, v) of A is found in row j of A^T as (i, v), by a
 *    binary search of that row;
 *  - transposing twice gives A back, array for array;
 *  - the result does not depend on the number of threads;
 * and bad input: NULL, an unsorted row, a NaN value. */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "matgen.h"

/* Whether row j of T holds (i, v). */
static int holds(const tcspmm_csr *T, int64_t j, int32_t i, float v)
{
    int64_t lo = T->row_ptr[j], hi = T->row_ptr[j + 1];
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (T->col_idx[mid] < i) lo = mid + 1;
        else hi = mid;
    }
    return lo < T->row_ptr[j + 1] && T->col_idx[lo] == i && T->values[lo] == v;
}

static void check_transpose(const tcspmm_csr *A, const char *what)
{
    tcspmm_csr T, TT, T1;
    omp_set_num_threads(7);
    CHECK_OK(tcspmm_csr_transpose(A, &T));
    CHECK(T.rows == A->cols && T.cols == A->rows && T.nnz == A->nnz);
    CHECK_OK(tcspmm_csr_validate(&T));
    int64_t found = 0;
    for (int64_t i = 0; i < A->rows; i++)
        for (int64_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)
            found += holds(&T, A->col_idx[k], (int32_t)i, A->values[k]);
    CHECK(found == A->nnz);
    CHECK_OK(tcspmm_csr_transpose(&T, &TT));
    CHECK(tests_csr_equal(A, &TT));
    omp_set_num_threads(1);
    CHECK_OK(tcspmm_csr_transpose(A, &T1));
    CHECK(tests_csr_equal(&T, &T1));
    printf("%-36s %lld x %lld, nnz %lld: %lld of %lld entries found in A^T\n", what,
           (long long)A->rows, (long long)A->cols, (long long)A->nnz, (long long)found,
           (long long)A->nnz);
    tcspmm_csr_free(&T);
    tcspmm_csr_free(&TT);
    tcspmm_csr_free(&T1);
}

int main(void)
{
    matgen_each_case(300, check_transpose);
    tcspmm_csr A;
    CHECK_OK(matgen_random(9, 0, 0.5, 1, &A)); /* no columns: A^T has no rows */
    check_transpose(&A, "9 x 0");
    tcspmm_csr_free(&A);
    CHECK_OK(tcspmm_read_mtx(tests_data("lp_stocfor3.mtx.gz"), &A)); /* rectangular, real */
    check_transpose(&A, "lp_stocfor3");

    tcspmm_csr T;
    CHECK(tcspmm_csr_transpose(NULL, &T) == TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(tcspmm_csr_transpose(&A, NULL) == TCSPMM_ERROR_INVALID_ARGUMENT);
    const int64_t *row_ptr = A.row_ptr; /* in place: refused, A left as it was */
    CHECK(tcspmm_csr_transpose(&A, &A) == TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(A.row_ptr == row_ptr && strstr(tcspmm_last_error(), "out must not be A") != NULL);
    int64_t row = 0; /* the first row with two entries: swap them, out of order */
    while (A.row_ptr[row + 1] - A.row_ptr[row] < 2) row++;
    int32_t *first = &A.col_idx[A.row_ptr[row]], saved = first[0];
    first[0] = first[1];
    first[1] = saved;
    CHECK(tcspmm_csr_transpose(&A, &T) == TCSPMM_ERROR_INVALID_MATRIX);
    CHECK(T.row_ptr == NULL && strstr(tcspmm_last_error(), "row") != NULL);
    first[1] = first[0];
    first[0] = saved;
    A.values[A.nnz / 2] = NAN;
    CHECK(tcspmm_csr_transpose(&A, &T) == TCSPMM_ERROR_INVALID_MATRIX);
    printf("bad input: %s\n", tcspmm_last_error());
    tcspmm_csr_free(&A);
    return tests_finish();
}
