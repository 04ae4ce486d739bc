/* hrpb_metrics.c: the TCU-synergy metrics of an HRPB (cuTeSpMM paper,
 * sections 4 and 6.4) written into tcspmm_info.
 *
 *   alpha         = mean non-zeros per active column of a brick / 16, where
 *                   a brick column (one of its 4) is active when it holds an
 *                   entry: nnz / (16 * active brick columns), in [1/16, 1].
 *   beta          = mean bricks per non-empty brick column of a block
 *                   (1 for TM = 16, up to 2 for TM = 32).
 *   brick_density = nnz / (64 * bricks).
 *   synergy       = the paper's classes (Table 1), applied to alpha, the
 *                   "average fraction of non-zeros per column in a brick":
 *                   low alpha < 12.5% (2/16), medium 12.5% <= alpha < 25%
 *                   (4/16), high alpha >= 25%.
 *   oi_shared     = 512 * alpha * beta: the paper's modeled shared-memory
 *                   operational intensity, 512 * alpha for TM = brick_m,
 *                   and by equation (1) B's shared-memory traffic shrinks by
 *                   beta more when TM = 32 reuses B across a brick column. */
#include "hrpb.h"

#include <string.h>

/* Panels with at most v blocks. */
static int64_t panels_at_most(const hrpb *h, int64_t v)
{
    int64_t count = 0;
#pragma omp parallel for schedule(static) reduction(+ : count)
    for (int64_t p = 0; p < h->num_panels; p++) count += h->block_ptr[p + 1] - h->block_ptr[p] <= v;
    return count;
}

void hrpb_count(const hrpb *h, hrpb_counts *c)
{
    const int64_t nb = h->num_blocks;
    int64_t nnz = 0, active_brick_cols = 0, nonempty_brick_cols = 0;
#pragma omp parallel for schedule(static) reduction(+ : nnz, active_brick_cols, nonempty_brick_cols)
    for (int64_t b = 0; b < nb; b++) {
        const uint8_t *blk = h->packed + h->size_ptr[b];
        for (int j = 0; j < blk[4]; j++) {
            uint64_t pattern;
            memcpy(&pattern, blk + HRPB_HEADER_BYTES + 8 * j, 8);
            nnz += __builtin_popcountll(pattern);
            for (int c = 0; c < HRPB_BRICK_K; c++)
                active_brick_cols += (pattern & (0x1111111111111111ull << c)) != 0;
        }
        for (int bc = 0; bc < HRPB_BRICK_COLS; bc++) nonempty_brick_cols += blk[bc + 1] > blk[bc];
    }
    c->nnz = nnz;
    c->active_brick_cols = active_brick_cols;
    c->nonempty_brick_cols = nonempty_brick_cols;
    c->packed_bytes = h->size_ptr ? h->size_ptr[nb] : 0;
}

void hrpb_metrics_counted(const hrpb *h, const hrpb_counts *c, tcspmm_info *info)
{
    const int64_t np = h->num_panels, nb = h->num_blocks;
    int64_t bmin = np ? INT64_MAX : 0, bmax = 0;
#pragma omp parallel for schedule(static) reduction(min : bmin) reduction(max : bmax)
    for (int64_t p = 0; p < np; p++) {
        int64_t blocks = h->block_ptr[p + 1] - h->block_ptr[p];
        bmin = blocks < bmin ? blocks : bmin;
        bmax = blocks > bmax ? blocks : bmax;
    }
    /* The lower median: the least v with more than (np - 1) / 2 panels at
     * most v, by bisection on [bmin, bmax]. */
    int64_t lo = bmin, hi = bmax;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (panels_at_most(h, mid) > (np - 1) / 2) hi = mid;
        else lo = mid + 1;
    }

    info->panel_rows = h->panel_rows;
    info->panels = np;
    info->blocks = nb;
    info->bricks = h->num_bricks;
    info->alpha = c->active_brick_cols ? (double)c->nnz / (16.0 * (double)c->active_brick_cols) : 0.0;
    info->beta = c->nonempty_brick_cols ? (double)h->num_bricks / (double)c->nonempty_brick_cols : 0.0;
    info->brick_density = h->num_bricks ? (double)c->nnz / (64.0 * (double)h->num_bricks) : 0.0;
    info->oi_shared = 512.0 * info->alpha * info->beta;
    info->synergy = h->num_bricks == 0      ? ""
                    : info->alpha < 0.125 ? "low"
                    : info->alpha < 0.25  ? "medium"
                                          : "high";
    info->hrpb_bytes = (np + 1) * (int64_t)sizeof(int64_t) +
                       nb * HRPB_TK * (int64_t)sizeof(int32_t) +
                       (nb + 1) * (int64_t)sizeof(int64_t) + c->packed_bytes;
    info->csr_bytes = (h->rows + 1) * (int64_t)sizeof(int64_t) +
                      h->nnz * (int64_t)(sizeof(int32_t) + sizeof(float));
    info->blocks_per_panel_min = bmin;
    info->blocks_per_panel_median = lo;
    info->blocks_per_panel_max = bmax;
}

void hrpb_metrics(const hrpb *h, tcspmm_info *info)
{
    hrpb_counts c;
    hrpb_count(h, &c);
    hrpb_metrics_counted(h, &c, info);
}
