/* reference.c: the float64 CPU reference SpMM and the comparison of a float
 * result against it (relative Frobenius error, NaN/Inf never pass). */
#include "reference.h"

#include "error.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

void csr_row_times_b(const tcspmm_csr *A, int64_t i, int64_t n, const float *B, int64_t ldb,
                     tcspmm_layout layout, double *acc)
{
    memset(acc, 0, (size_t)n * sizeof(double));
    for (int64_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
        double a = A->values[k];
        int64_t col = A->col_idx[k];
        if (layout == TCSPMM_LAYOUT_ROW_MAJOR) {
            const float *b = B + col * ldb;
            for (int64_t j = 0; j < n; j++) acc[j] += a * b[j];
        } else {
            for (int64_t j = 0; j < n; j++) acc[j] += a * B[j * ldb + col];
        }
    }
}

tcspmm_status csr_spmm_f64(const tcspmm_csr *A, int64_t n, double alpha, const float *B,
                           int64_t ldb, double beta, const float *Cin, int64_t ldc,
                           tcspmm_layout layout, double *out64, float *out32)
{
    /* every thread's accumulator, allocated before any row is written */
    const int threads = omp_get_max_threads();
    const size_t len = (size_t)(n > 0 ? n : 1);
    double *acc = malloc((size_t)threads * len * sizeof(double));
    if (!acc) return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "csr_spmm_f64: out of memory");
#pragma omp parallel for num_threads(threads) schedule(dynamic, 64)
    for (int64_t i = 0; i < A->rows; i++) {
        double *mine = acc + (size_t)omp_get_thread_num() * len;
        csr_row_times_b(A, i, n, B, ldb, layout, mine);
        for (int64_t j = 0; j < n; j++) {
            int64_t ij = dense_index(i, j, ldc, layout);
            double c = alpha * mine[j] + (beta != 0.0 ? beta * (double)Cin[ij] : 0.0);
            if (out64) out64[i * n + j] = c;
            else out32[ij] = (float)c;
        }
    }
    free(acc);
    return TCSPMM_SUCCESS;
}

tcspmm_status reference_spmm(const tcspmm_csr *A, int64_t n, double alpha, const float *B,
                             int64_t ldb, double beta, const float *C0, int64_t ldc,
                             tcspmm_layout layout, double *ref)
{
    return csr_spmm_f64(A, n, alpha, B, ldb, beta, C0, ldc, layout, ref, NULL);
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
