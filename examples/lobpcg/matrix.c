/* matrix.c: the symmetry check and the Gershgorin norm of a CSR matrix. */
#include "matrix.h"

#include <math.h>
#include <stdint.h>

#include "fail.h"

/* The position of column col in row row of A, or -1 (rows are sorted). */
static int64_t find_entry(const tcspmm_csr *A, int64_t row, int64_t col)
{
    int64_t lo = A->row_ptr[row], hi = A->row_ptr[row + 1];
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (A->col_idx[mid] < col) lo = mid + 1;
        else hi = mid;
    }
    return lo < A->row_ptr[row + 1] && A->col_idx[lo] == col ? lo : -1;
}

int matrix_check_symmetric(const tcspmm_csr *A)
{
    if (A->rows != A->cols)
        return lobpcg_fail("the matrix is %lld x %lld; LOBPCG needs a square symmetric matrix",
                           (long long)A->rows, (long long)A->cols);
    int64_t bad = INT64_MAX; /* the first entry without its mirror */
#pragma omp parallel for schedule(dynamic, 1024) reduction(min : bad)
    for (int64_t i = 0; i < A->rows; i++)
        for (int64_t t = A->row_ptr[i]; t < A->row_ptr[i + 1]; t++) {
            int64_t u = find_entry(A, A->col_idx[t], i);
            float a = A->values[t], b = u < 0 ? 0.0f : A->values[u];
            if (fabsf(a - b) > 1e-6f * fmaxf(fabsf(a), fabsf(b)) && t < bad) bad = t;
        }
    if (bad == INT64_MAX) return 0;
    int64_t row = 0;
    while (A->row_ptr[row + 1] <= bad) row++;
    int64_t u = find_entry(A, A->col_idx[bad], row);
    return lobpcg_fail("the matrix is not symmetric: a(%lld,%lld) = %g but a(%lld,%lld) = %g "
                       "(1-based); LOBPCG needs a symmetric matrix",
                       (long long)row + 1, (long long)A->col_idx[bad] + 1, A->values[bad],
                       (long long)A->col_idx[bad] + 1, (long long)row + 1,
                       u < 0 ? 0.0 : A->values[u]);
}

double matrix_gershgorin_norm(const tcspmm_csr *A)
{
    double norm = 0;
#pragma omp parallel for schedule(static) reduction(max : norm)
    for (int64_t i = 0; i < A->rows; i++) {
        double sum = 0;
        for (int64_t t = A->row_ptr[i]; t < A->row_ptr[i + 1]; t++) sum += fabs(A->values[t]);
        if (sum > norm) norm = sum;
    }
    return norm;
}
