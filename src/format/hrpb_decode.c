/* hrpb_decode.c: reading HRPB back on the host: hrpb_to_csr (which also
 * checks every byte of the layout against hrpb.h, for the round-trip tests)
 * and hrpb_spmm_cpu, the executor that decodes bricks the way the kernel
 * does. */
#include "hrpb.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "../error.h"
#include "csr.h"
#include "../reference.h"

#define MAX_BLOCK_NNZ (2 * HRPB_BRICK_M * HRPB_TK)

/* The entries of one block in the kernel's decode order: brick columns in
 * order, their bricks in order, lanes 0..31, then each lane's bits lane and
 * lane + 32. A lane's value index is the popcount of the pattern below its
 * bit. Within one row, entries come in increasing column order. */
typedef struct block_entries {
    int count;
    uint8_t row[MAX_BLOCK_NNZ];  /* row in the panel */
    uint8_t slot[MAX_BLOCK_NNZ]; /* active column in the block, 0..15 */
    float value[MAX_BLOCK_NNZ];
} block_entries;

static void decode_block(const hrpb *h, int64_t b, block_entries *e)
{
    const uint8_t *blk = h->packed + h->size_ptr[b];
    const uint8_t *col_ptr = blk, *brick_row = blk + 5;
    const uint8_t *pattern_bytes = blk + HRPB_HEADER_BYTES;
    int nbricks = col_ptr[4];
    const float *values = (const float *)(pattern_bytes + 8 * nbricks);
    int value_base = 0;
    e->count = 0;
    for (int bc = 0; bc < HRPB_BRICK_COLS; bc++) {
        for (int j = col_ptr[bc]; j < col_ptr[bc + 1]; j++) {
            uint64_t pattern;
            memcpy(&pattern, pattern_bytes + 8 * j, 8);
            for (int lane = 0; lane < 32; lane++) {
                for (int half = 0; half < 2; half++) {
                    int bit = lane + 32 * half;
                    if (!((pattern >> bit) & 1)) continue;
                    int index = __builtin_popcountll(pattern & ((1ull << bit) - 1));
                    e->row[e->count] = (uint8_t)(brick_row[j] * HRPB_BRICK_M + bit / HRPB_BRICK_K);
                    e->slot[e->count] = (uint8_t)(bc * HRPB_BRICK_K + bit % HRPB_BRICK_K);
                    e->value[e->count] = values[value_base + index];
                    e->count++;
                }
            }
            value_base += __builtin_popcountll(pattern);
        }
    }
}

static int all_zero(const uint8_t *p, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        if (p[i]) return 0;
    return 1;
}

/* Checks block b of panel p against hrpb.h; *prev_col is the panel's last
 * active column so far (-1 at its start). Returns 0 if it breaks a rule. */
static int block_ok(const hrpb *h, int64_t p, int64_t b, int64_t *prev_col)
{
    int64_t off = h->size_ptr[b], end = h->size_ptr[b + 1];
    if (off % HRPB_ALIGN || end - off < HRPB_HEADER_BYTES || end > h->size_ptr[h->num_blocks])
        return 0;
    const uint8_t *blk = h->packed + off;
    int brick_rows = h->panel_rows / HRPB_BRICK_M, nbricks = blk[4];
    if (blk[0] != 0 || nbricks > brick_rows * HRPB_BRICK_COLS) return 0;
    if (!all_zero(blk + 5 + nbricks, 8 - nbricks) || !all_zero(blk + 13, 3)) return 0;
    int last_block = b == h->block_ptr[p + 1] - 1, nnz = 0;
    int64_t panel_rows_here = h->rows - p * h->panel_rows; /* rows in the panel (partial last) */
    const int32_t *act = h->active_cols + b * HRPB_TK;
    for (int s = 0; s < HRPB_TK; s++) {
        if (act[s] == -1) { /* pads: only at the end of the panel's last block */
            if (!last_block) return 0;
            continue;
        }
        if (act[s] <= *prev_col || act[s] >= h->cols || (s > 0 && act[s - 1] == -1)) return 0;
        *prev_col = act[s];
    }
    if (act[0] == -1) return 0; /* a block holds at least one active column */
    for (int bc = 0; bc < HRPB_BRICK_COLS; bc++) {
        if (blk[bc + 1] < blk[bc]) return 0;
        for (int j = blk[bc]; j < blk[bc + 1]; j++) {
            uint64_t pattern;
            memcpy(&pattern, blk + HRPB_HEADER_BYTES + 8 * j, 8);
            int br = blk[5 + j];
            if (pattern == 0 || br >= brick_rows || (j > blk[bc] && br <= blk[5 + j - 1]))
                return 0;
            for (int bit = 0; bit < 64; bit++) {
                if (!((pattern >> bit) & 1)) continue;
                int64_t row = (int64_t)br * HRPB_BRICK_M + bit / HRPB_BRICK_K;
                if (act[bc * HRPB_BRICK_K + bit % HRPB_BRICK_K] < 0 || row >= panel_rows_here)
                    return 0;
            }
            nnz += __builtin_popcountll(pattern);
        }
    }
    int64_t used = HRPB_HEADER_BYTES + 8 * (int64_t)nbricks + 4 * (int64_t)nnz;
    int64_t want = (used + HRPB_ALIGN - 1) / HRPB_ALIGN * HRPB_ALIGN;
    return end - off == want && all_zero(blk + used, want - used);
}

static tcspmm_status bad_layout(const char *what, int64_t p, int64_t b, tcspmm_csr *out,
                                block_entries *e)
{
    tcspmm_csr_free(out);
    free(e);
    return tcspmm_fail(TCSPMM_ERROR_INVALID_MATRIX, "hrpb_to_csr: %s (panel %lld, block %lld)",
                       what, (long long)p, (long long)b);
}

tcspmm_status hrpb_to_csr(const hrpb *h, tcspmm_csr *out)
{
    if (!h || !out) return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "hrpb_to_csr: NULL argument");
    memset(out, 0, sizeof *out);
    const int tm = h->panel_rows;
    if ((tm != 16 && tm != 32) || h->num_panels != (h->rows + tm - 1) / tm ||
        h->block_ptr[0] != 0 || h->block_ptr[h->num_panels] != h->num_blocks ||
        h->size_ptr[0] != 0)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_MATRIX,
                           "hrpb_to_csr: panel_rows, num_panels, block_ptr or size_ptr ends are "
                           "inconsistent");
    block_entries *e = malloc(sizeof *e);
    if (!e) return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "hrpb_to_csr: out of memory");
    tcspmm_status st = csr_alloc(h->rows, h->cols, h->nnz, out);
    if (st != TCSPMM_SUCCESS) {
        free(e);
        return st;
    }

    /* Pass 1: check every block and count the entries of each row. */
    int64_t bricks = 0;
    for (int64_t p = 0; p < h->num_panels; p++) {
        if (h->block_ptr[p + 1] < h->block_ptr[p])
            return bad_layout("block_ptr decreases", p, h->block_ptr[p], out, e);
        int64_t prev_col = -1;
        for (int64_t b = h->block_ptr[p]; b < h->block_ptr[p + 1]; b++) {
            if (!block_ok(h, p, b, &prev_col))
                return bad_layout("a block breaks the layout of hrpb.h", p, b, out, e);
            decode_block(h, b, e);
            for (int i = 0; i < e->count; i++)
                out->row_ptr[hrpb_row_of(h, p * tm + e->row[i]) + 1]++;
            bricks += h->packed[h->size_ptr[b] + 4];
        }
    }
    for (int64_t i = 0; i < h->rows; i++) out->row_ptr[i + 1] += out->row_ptr[i];
    if (bricks != h->num_bricks || out->row_ptr[h->rows] != h->nnz)
        return bad_layout("num_bricks or nnz differ from the blocks", -1, -1, out, e);

    /* Pass 2: place the entries; each row's come in increasing column order. */
    int64_t *next = malloc(((size_t)h->rows + 1) * sizeof(int64_t));
    if (!next) {
        tcspmm_csr_free(out);
        free(e);
        return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "hrpb_to_csr: out of memory");
    }
    memcpy(next, out->row_ptr, ((size_t)h->rows + 1) * sizeof(int64_t));
    for (int64_t p = 0; p < h->num_panels; p++) {
        for (int64_t b = h->block_ptr[p]; b < h->block_ptr[p + 1]; b++) {
            decode_block(h, b, e);
            for (int i = 0; i < e->count; i++) {
                int64_t k = next[hrpb_row_of(h, p * tm + e->row[i])]++;
                out->col_idx[k] = h->active_cols[b * HRPB_TK + e->slot[i]];
                out->values[k] = e->value[i];
            }
        }
    }
    free(next);
    free(e);
    return TCSPMM_SUCCESS;
}

tcspmm_status hrpb_spmm_cpu(const hrpb *h, int64_t n, float alpha, const float *B,
                            int64_t ldb, float beta, float *C, int64_t ldc,
                            tcspmm_layout layout)
{
    if (!h || n < 0 || (layout != TCSPMM_LAYOUT_ROW_MAJOR && layout != TCSPMM_LAYOUT_COL_MAJOR))
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "hrpb_spmm_cpu: NULL HRPB, negative n or unknown layout");
    if (n == 0 || h->rows == 0) return TCSPMM_SUCCESS;
    int row_major = layout == TCSPMM_LAYOUT_ROW_MAJOR;
    int64_t min_ldb = row_major ? n : (h->cols > 1 ? h->cols : 1);
    int64_t min_ldc = row_major ? n : h->rows;
    if (!C || (!B && h->cols > 0) || ldb < min_ldb || ldc < min_ldc)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "hrpb_spmm_cpu: NULL B or C, or ldb=%lld < %lld or ldc=%lld < %lld",
                           (long long)ldb, (long long)min_ldb, (long long)ldc, (long long)min_ldc);
    const int tm = h->panel_rows;
    /* every thread's accumulator and block, allocated before any row of C is
     * written (no more threads than panels) */
    const int threads = h->num_panels < omp_get_max_threads() ? (int)h->num_panels
                                                              : omp_get_max_threads();
    const size_t acc_len = (size_t)tm * (size_t)n;
    double *acc = malloc((size_t)threads * acc_len * sizeof(double));
    block_entries *entries = malloc((size_t)threads * sizeof(block_entries));
    if (!acc || !entries) {
        free(acc);
        free(entries);
        return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY,
                           "hrpb_spmm_cpu: cannot allocate %d x %lld accumulators", tm,
                           (long long)n);
    }
#pragma omp parallel for num_threads(threads) schedule(dynamic, 16)
    for (int64_t p = 0; p < h->num_panels; p++) {
        double *mine = acc + (size_t)omp_get_thread_num() * acc_len;
        block_entries *e = entries + omp_get_thread_num();
        memset(mine, 0, acc_len * sizeof(double));
        for (int64_t b = h->block_ptr[p]; b < h->block_ptr[p + 1]; b++) {
            decode_block(h, b, e);
            for (int i = 0; i < e->count; i++) {
                double a = e->value[i];
                int64_t col = h->active_cols[b * HRPB_TK + e->slot[i]];
                double *row = mine + (int64_t)e->row[i] * n;
                for (int64_t j = 0; j < n; j++) row[j] += a * B[dense_index(col, j, ldb, layout)];
            }
        }
        for (int64_t r = 0; r < tm && p * tm + r < h->rows; r++) {
            int64_t i = hrpb_row_of(h, p * tm + r);
            for (int64_t j = 0; j < n; j++) {
                float *c = C + dense_index(i, j, ldc, layout);
                double old = beta != 0.0f ? (double)beta * (double)*c : 0.0;
                *c = (float)((double)alpha * mine[r * n + j] + old);
            }
        }
    }
    free(acc);
    free(entries);
    return TCSPMM_SUCCESS;
}
