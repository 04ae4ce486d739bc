/* row_order.h: a row order that gathers rows sharing columns into the same
 * HRPB panel. A panel's cost grows with its active columns (each one is a row
 * of B gathered, a quarter of a brick column of tensor-core work), while its
 * useful work is its non-zeros; so panels of rows with similar columns raise
 * alpha (non-zeros per active column / 16) and speed the kernel up. */
#ifndef TCSPMM_ROW_ORDER_H
#define TCSPMM_ROW_ORDER_H

#include "hrpb.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Active columns summed over the panels, in the given order and in the
 * clustered one: alpha = nnz / (16 * active columns) for 16-row panels. */
typedef struct row_order_stats {
    int64_t natural_cols;
    int64_t clustered_cols;
} row_order_stats;

/* order[i] = the row of A that goes i-th (a permutation of 0 .. rows - 1)
 * for panels of panel_rows rows, and the active columns of both orders.
 * Greedy: a panel starts from the first row not yet placed and adds, 15 (or
 * 31) times, the row with the best score: its columns in the panel's set
 * minus half its columns outside it (ties: the lower row). Rows are cut into
 * fixed chunks whose panels are formed independently with OpenMP (threads:
 * 0 = all), so the order is the same for any thread count. Time and memory
 * grow with A's rows and entries, not with its columns. A must be
 * validated; rows < 2^31 - 1. */
tcspmm_status row_order_cluster(const tcspmm_csr *A, int panel_rows, int threads, int64_t *order,
                                row_order_stats *stats);

/* row_order_cluster into a fresh array *order (the caller frees it; NULL
 * on failure). A of 2^31 - 1 rows or more keeps its natural order: *order
 * NULL, stats zero. */
tcspmm_status row_order_cluster_new(const tcspmm_csr *A, int panel_rows, int threads,
                                    int64_t **order, row_order_stats *stats);

/* out = A with its rows in order (out's row i is A's row order[i]). */
tcspmm_status csr_permute_rows(const tcspmm_csr *A, const int64_t *order, tcspmm_csr *out);

/* hrpb_build of A's rows in order (order NULL: of A). out->row_map stays
 * NULL: the caller sets it to order (hrpb.h), which it owns. */
tcspmm_status hrpb_build_ordered(const tcspmm_csr *A, const int64_t *order, int panel_rows,
                                 int threads, hrpb *out);

/* hrpb_build_ordered in the clustered order, whether or not it has fewer
 * active columns (the plan keeps it only when it has). */
tcspmm_status hrpb_build_clustered(const tcspmm_csr *A, int panel_rows, int threads, hrpb *out);

#ifdef __cplusplus
}
#endif

#endif
