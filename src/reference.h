/* reference.h: the float64 CPU reference SpMM and the comparison of a result
 * against it, used by the tests and by spmm_run --check. */
#ifndef TCSPMM_REFERENCE_H
#define TCSPMM_REFERENCE_H

#include "tcspmm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ref (rows x n, row-major, float64) = alpha*A*B + beta*C0, with OpenMP,
 * in a loop of its own (not the CPU path's cpu_spmm, which it checks). C0
 * is not read when beta == 0. */
tcspmm_status reference_spmm(const tcspmm_csr *A, int64_t n, double alpha, const float *B,
                             int64_t ldb, double beta, const float *C0, int64_t ldc,
                             tcspmm_layout layout, double *ref);

/* ref (A's cols x n, row-major, float64) = alpha*A^T*B + beta*C0, from A
 * itself (B has A's rows; C0 A's cols): a check of a product by a
 * transposed copy of A that does not trust the transpose. */
tcspmm_status reference_spmm_transposed(const tcspmm_csr *A, int64_t n, double alpha,
                                        const float *B, int64_t ldb, double beta, const float *C0,
                                        int64_t ldc, tcspmm_layout layout, double *ref);

typedef struct compare_result {
    double rel_err;     /* ||C - ref||_F / ||ref||_F (abs norm if ref is 0); Inf if any
                           element of C is not finite */
    double max_abs_err;
    int64_t nonfinite;  /* NaN/Inf elements of C: unwritten or broken */
    int pass;           /* rel_err <= tol and nonfinite == 0 */
} compare_result;

compare_result compare_to_reference(const float *C, int64_t ldc, tcspmm_layout layout,
                                    const double *ref, int64_t rows, int64_t n, double tol);

/* Element (i, j) of a dense matrix in a layout. */
static inline int64_t dense_index(int64_t i, int64_t j, int64_t ld, tcspmm_layout layout)
{
    return layout == TCSPMM_LAYOUT_ROW_MAJOR ? i * ld + j : j * ld + i;
}

#ifdef __cplusplus
}
#endif

#endif
