/* cpu_spmm.c: the CPU path's product (cpu_spmm.h): each thread sums A's row
 * times B into a float64 accumulator of its own, then writes the row. */
#include "cpu_spmm.h"

#include "error.h"
#include "reference.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* acc[0..n) = sum_k A(i,k) * B(k, 0..n) in float64 (one row of A*B). */
static void row_times_b(const tcspmm_csr *A, int64_t i, int64_t n, const float *B, int64_t ldb,
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

tcspmm_status cpu_spmm(const tcspmm_csr *A, int64_t n, double alpha, const float *B, int64_t ldb,
                       double beta, float *C, int64_t ldc, tcspmm_layout layout)
{
    /* every thread's accumulator, allocated before any row is written */
    const int threads = omp_get_max_threads();
    const size_t len = (size_t)(n > 0 ? n : 1);
    double *acc = malloc((size_t)threads * len * sizeof(double));
    if (!acc) return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "cpu_spmm: out of memory");
#pragma omp parallel for num_threads(threads) schedule(dynamic, 64)
    for (int64_t i = 0; i < A->rows; i++) {
        double *mine = acc + (size_t)omp_get_thread_num() * len;
        row_times_b(A, i, n, B, ldb, layout, mine);
        for (int64_t j = 0; j < n; j++) {
            int64_t ij = dense_index(i, j, ldc, layout);
            C[ij] = (float)(alpha * mine[j] + (beta != 0.0 ? beta * (double)C[ij] : 0.0));
        }
    }
    free(acc);
    return TCSPMM_SUCCESS;
}
