/* hrpb_value_sources.c: for each value of an HRPB, in packed order, the
 * entry of the CSR it came from (hrpb_value_place per entry), so that a plan
 * whose matrix gets new values writes them block by block in place. */
#include "hrpb.h"

#include <omp.h>

#include "../error.h"

tcspmm_status hrpb_value_sources(const hrpb *h, const tcspmm_csr *A, int threads,
                                 int64_t *block_values, uint32_t *source)
{
    if (!h || !A || !block_values || (A->nnz > 0 && !source))
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "hrpb_value_sources: null argument");
    if (A->rows != h->rows || A->nnz != h->nnz || !h->packed)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "hrpb_value_sources: A is not the matrix of this HRPB");
    if (A->nnz > (int64_t)UINT32_MAX)
        return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED,
                           "hrpb_value_sources: %lld entries; updatable values need fewer than 2^32",
                           (long long)A->nnz);
    if (threads == 0) threads = omp_get_max_threads();
    const int64_t nb = h->num_blocks;
    block_values[0] = 0;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t b = 0; b < nb; b++) block_values[b + 1] = hrpb_block_values(h->size_ptr, h->packed, b);
    for (int64_t b = 0; b < nb; b++) block_values[b + 1] += block_values[b];
    if (block_values[nb] != A->nnz)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "hrpb_value_sources: %lld values in the HRPB, %lld entries in A",
                           (long long)block_values[nb], (long long)A->nnz);
    int missing = 0;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024) reduction(| : missing)
    for (int64_t i = 0; i < h->rows; i++) {
        const int64_t row = hrpb_row_of(h, i);
        for (int64_t k = A->row_ptr[row]; k < A->row_ptr[row + 1]; k++) {
            int64_t b = 0;
            int place = hrpb_value_place(h->block_ptr, h->active_cols, h->size_ptr, h->packed,
                                         i / h->panel_rows, (int)(i % h->panel_rows),
                                         A->col_idx[k], &b);
            if (place < 0) missing = 1;
            else source[block_values[b] + place] = (uint32_t)k;
        }
    }
    if (missing)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "hrpb_value_sources: an entry of A is not in this HRPB");
    return TCSPMM_SUCCESS;
}
