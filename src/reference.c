/* reference.c: the float64 CPU reference SpMM and the comparison of a float
 * result against it (relative Frobenius error, NaN/Inf never pass). */
#include "reference.h"

#include <math.h>
#include <omp.h>

/* row = alpha * row + beta * C0's row i (C0 not read where beta is 0). */
static void scale_row(double *row, int64_t i, int64_t n, double alpha, double beta,
                      const float *C0, int64_t ldc, tcspmm_layout layout)
{
    for (int64_t j = 0; j < n; j++)
        row[j] = alpha * row[j] + (beta != 0.0 ? beta * C0[dense_index(i, j, ldc, layout)] : 0.0);
}

tcspmm_status reference_spmm(const tcspmm_csr *A, int64_t n, double alpha, const float *B,
                             int64_t ldb, double beta, const float *C0, int64_t ldc,
                             tcspmm_layout layout, double *ref)
{
    /* Written apart from the CPU path's cpu_spmm, so that a fault there
     * shows against it: each entry a(i,k) adds a * B(k,:) to ref's row i
     * in place, which is then scaled and given beta * C0. */
#pragma omp parallel for schedule(dynamic, 64)
    for (int64_t i = 0; i < A->rows; i++) {
        double *row = ref + i * n;
        for (int64_t j = 0; j < n; j++) row[j] = 0.0;
        for (int64_t e = A->row_ptr[i]; e < A->row_ptr[i + 1]; e++)
            for (int64_t j = 0; j < n; j++)
                row[j] += (double)A->values[e] * B[dense_index(A->col_idx[e], j, ldb, layout)];
        scale_row(row, i, n, alpha, beta, C0, ldc, layout);
    }
    return TCSPMM_SUCCESS;
}

tcspmm_status reference_spmm_transposed(const tcspmm_csr *A, int64_t n, double alpha,
                                        const float *B, int64_t ldb, double beta, const float *C0,
                                        int64_t ldc, tcspmm_layout layout, double *ref)
{
    /* Each thread owns a range of ref's rows (A's columns) and scans all of
     * A, adding a(i,k) * B(i,:) into row k where k is its own. */
#pragma omp parallel
    {
        const int64_t t = omp_get_thread_num(), nt = omp_get_num_threads();
        const int64_t lo = A->cols * t / nt, hi = A->cols * (t + 1) / nt;
        for (int64_t k = lo; k < hi; k++)
            for (int64_t j = 0; j < n; j++) ref[k * n + j] = 0.0;
        for (int64_t i = 0; i < A->rows; i++)
            for (int64_t e = A->row_ptr[i]; e < A->row_ptr[i + 1]; e++) {
                const int64_t k = A->col_idx[e];
                if (k < lo || k >= hi) continue;
                for (int64_t j = 0; j < n; j++)
                    ref[k * n + j] += (double)A->values[e] * B[dense_index(i, j, ldb, layout)];
            }
        for (int64_t k = lo; k < hi; k++) scale_row(ref + k * n, k, n, alpha, beta, C0, ldc, layout);
    }
    return TCSPMM_SUCCESS;
}

compare_result compare_to_reference(const float *C, int64_t ldc, tcspmm_layout layout,
                                    const double *ref, int64_t rows, int64_t n, double tol)
{
    double diff2 = 0.0, ref2 = 0.0, max_abs = 0.0;
    int64_t nonfinite = 0;
#pragma omp parallel for reduction(+ : diff2, ref2, nonfinite) reduction(max : max_abs)
    for (int64_t i = 0; i < rows; i++) {
        for (int64_t j = 0; j < n; j++) {
            double c = C[dense_index(i, j, ldc, layout)], r = ref[i * n + j];
            if (!isfinite(c)) {
                nonfinite++;
                continue;
            }
            double d = fabs(c - r);
            diff2 += d * d;
            ref2 += r * r;
            if (d > max_abs) max_abs = d;
        }
    }
    compare_result res;
    res.rel_err = nonfinite ? INFINITY : ref2 > 0.0 ? sqrt(diff2 / ref2) : sqrt(diff2);
    res.max_abs_err = max_abs;
    res.nonfinite = nonfinite;
    res.pass = nonfinite == 0 && res.rel_err <= tol;
    return res;
}
