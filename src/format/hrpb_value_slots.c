/* hrpb_value_slots.c: where each entry of a CSR lies among the packed
 * values of its HRPB (hrpb_value_index, per row of the panels), so that a
 * plan whose matrix gets new values writes them in place. */
#include "hrpb.h"

#include <omp.h>

#include "../error.h"

tcspmm_status hrpb_value_slots(const hrpb *h, const tcspmm_csr *A, int threads, uint32_t *slot)
{
    if (!h || !A || (A->nnz > 0 && !slot))
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "hrpb_value_slots: null argument");
    if (A->rows != h->rows || A->nnz != h->nnz || !h->packed)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "hrpb_value_slots: A is not the matrix of this HRPB");
    if (h->size_ptr[h->num_blocks] / 4 > (int64_t)UINT32_MAX)
        return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED,
                           "hrpb_value_slots: %lld packed bytes; updatable values need fewer than "
                           "2^32 floats", (long long)h->size_ptr[h->num_blocks]);
    if (threads == 0) threads = omp_get_max_threads();
    int missing = 0;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024) reduction(| : missing)
    for (int64_t i = 0; i < h->rows; i++) {
        const int64_t row = hrpb_row_of(h, i);
        for (int64_t k = A->row_ptr[row]; k < A->row_ptr[row + 1]; k++) {
            int64_t at = hrpb_value_index(h->block_ptr, h->active_cols, h->size_ptr, h->packed,
                                          i / h->panel_rows, (int)(i % h->panel_rows),
                                          A->col_idx[k]);
            missing |= at < 0;
            slot[k] = (uint32_t)at;
        }
    }
    if (missing)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "hrpb_value_slots: an entry of A is not in this HRPB");
    return TCSPMM_SUCCESS;
}
