/* csr.h: host CSR helpers shared by the reader, the builders and the plan. */
#ifndef TCSPMM_CSR_H
#define TCSPMM_CSR_H

#include "tcspmm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Allocates the arrays of an rows x cols CSR with room for nnz entries
 * (row_ptr zeroed). Checks the sizes against the index types. */
tcspmm_status csr_alloc(int64_t rows, int64_t cols, int64_t nnz, tcspmm_csr *out);

/* Deep copy. */
tcspmm_status csr_copy(const tcspmm_csr *A, tcspmm_csr *out);

/* The checks of tcspmm_csr_validate that read only the sizes and row_ptr;
 * csr_gpu_check does the entries' on the device. */
tcspmm_status csr_validate_row_ptr(const tcspmm_csr *A);

/* The errors tcspmm_csr_validate gives for the first bad row and for
 * row_ptr[0] != 0 or row_ptr[rows] != nnz. */
tcspmm_status csr_fail_bad_row(int64_t row);
tcspmm_status csr_fail_row_ptr_ends(int64_t first, int64_t last, int64_t nnz);

/* The first index k < count with |values[k]| not below limit (NaN and, for
 * a limit of INFINITY, the infinities included), or -1; OpenMP (threads:
 * 0 = all). csr_gpu_first_beyond is its device twin. */
int64_t csr_first_beyond(const float *values, int64_t count, float limit, int threads);

/* malloc for arrays of megabytes, backed by huge pages where the system
 * allows (large_alloc.c); free() releases it. */
void *large_alloc(size_t bytes);

#ifdef __cplusplus
}
#endif

#endif
