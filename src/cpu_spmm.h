/* cpu_spmm.h: the CPU path's product (tcspmm_spmm_host), from a CSR. */
#ifndef TCSPMM_CPU_SPMM_H
#define TCSPMM_CPU_SPMM_H

#include "tcspmm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* C = alpha*A*B + beta*C, each row accumulated in float64 with OpenMP and
 * rounded to float once; C (in layout, leading dimension ldc) is not read
 * when beta == 0. The tests check it against reference_spmm, a loop of its
 * own. */
tcspmm_status cpu_spmm(const tcspmm_csr *A, int64_t n, double alpha, const float *B, int64_t ldb,
                       double beta, float *C, int64_t ldc, tcspmm_layout layout);

#ifdef __cplusplus
}
#endif

#endif
