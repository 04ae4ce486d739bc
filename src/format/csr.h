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

#ifdef __cplusplus
}
#endif

#endif
