/* row_order.c: the clustered row order of row_order.h, the permutation of a
 * CSR's rows by it, and HRPB built in it.
 *
 * Candidates for a panel come from a column index (for each column A holds,
 * the rows holding it, in increasing order; made by sorting the entries by
 * column, so its time and size grow with nnz, not with A's columns): the
 * rows sharing a column with the panel, each with cnt = how many of the
 * panel's columns it holds. Adding row r scores 3 * cnt(r) - len(r) (twice:
 * its shared columns count, its new columns count half against it). Columns
 * held by more than COLUMN_CAP rows say little about which rows belong
 * together and would make the candidate lists long: they are left out of
 * the candidates (not of the counts of active columns).
 * Each chunk of CHUNK_ROWS rows forms its panels from its own rows only. */
#include "row_order.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "../error.h"
#include "csr.h"

enum { CHUNK_ROWS = 1 << 17, COLUMN_CAP = 1024, RADIX_BITS = 11, RADIX = 1 << RADIX_BITS };

/* The column index over the columns A holds, numbered in increasing order:
 * entry e of A lies in index column col_of[e], whose rows are
 * row_of[col_ptr[t] .. col_ptr[t+1]), in increasing order. */
typedef struct column_index {
    int32_t *col_of;
    int64_t *col_ptr;
    int32_t *row_of;
} column_index;

static void column_index_free(column_index *ix)
{
    free(ix->col_of);
    free(ix->col_ptr);
    free(ix->row_of);
}

/* Sorts item[0 .. n) stably by its bits 32 .. 32 + key_bits - 1, in LSD
 * radix passes of RADIX_BITS bits through spare; each thread counts and
 * moves its own slice (count: room for threads x RADIX counts). Returns
 * whichever of item and spare holds the result. */
static uint64_t *sort_by_high_bits(uint64_t *item, uint64_t *spare, int64_t n, int key_bits,
                                   int threads, int64_t *count)
{
    for (int shift = 32; shift < 32 + key_bits; shift += RADIX_BITS) {
#pragma omp parallel num_threads(threads)
        {
            const int t = omp_get_thread_num(), nt = omp_get_num_threads();
            const int64_t lo = n * t / nt, hi = n * (t + 1) / nt;
            int64_t *at = count + (size_t)t * RADIX;
            memset(at, 0, RADIX * sizeof(int64_t));
            for (int64_t j = lo; j < hi; j++) at[item[j] >> shift & (RADIX - 1)]++;
#pragma omp barrier
#pragma omp single
            { /* each slice's first place per digit: digits in order, then slices */
                int64_t sum = 0;
                for (int d = 0; d < RADIX; d++)
                    for (int u = 0; u < nt; u++) {
                        const int64_t c = count[(size_t)u * RADIX + d];
                        count[(size_t)u * RADIX + d] = sum;
                        sum += c;
                    }
            }
            for (int64_t j = lo; j < hi; j++) spare[at[item[j] >> shift & (RADIX - 1)]++] = item[j];
        }
        uint64_t *t = item;
        item = spare;
        spare = t;
    }
    return item;
}

/* The entry of A in row i and column c, which the row holds. */
static int64_t entry_at(const tcspmm_csr *A, int64_t i, int64_t c)
{
    int64_t lo = A->row_ptr[i], hi = A->row_ptr[i + 1] - 1;
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (A->col_idx[mid] < c) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Whether pair j of the sorted (column, row) pairs is its column's first. */
static int starts_column(const uint64_t *sorted, int64_t j)
{
    return j == 0 || sorted[j] >> 32 != sorted[j - 1] >> 32;
}

/* The index from A's entries as (column, row) pairs in one uint64 each,
 * sorted by column (rows stay in order: the sort is stable). */
static tcspmm_status column_index_build(const tcspmm_csr *A, int threads, column_index *ix)
{
    const int64_t m = A->rows, nnz = A->nnz;
    const size_t n = (size_t)(nnz > 0 ? nnz : 1);
    int key_bits = 0;
    while (((int64_t)1 << key_bits) < A->cols) key_bits++;
    uint64_t *item = large_alloc(n * sizeof(uint64_t)), *spare = large_alloc(n * sizeof(uint64_t));
    int64_t *count = malloc((size_t)threads * RADIX * sizeof(int64_t));
    if (!item || !spare || !count) {
        free(item);
        free(spare);
        free(count);
        return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY,
                           "row_order: cannot allocate the column index of %lld entries",
                           (long long)nnz);
    }
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024)
    for (int64_t i = 0; i < m; i++)
        for (int64_t e = A->row_ptr[i]; e < A->row_ptr[i + 1]; e++)
            item[e] = (uint64_t)A->col_idx[e] << 32 | (uint64_t)i;
    uint64_t *sorted = sort_by_high_bits(item, spare, nnz, key_bits, threads, count);
    free(sorted == item ? spare : item);
    free(count);
    int64_t cols = 0;
    for (int64_t j = 0; j < nnz; j++) cols += starts_column(sorted, j);
    ix->col_of = large_alloc(n * sizeof(int32_t));
    ix->col_ptr = malloc(((size_t)cols + 1) * sizeof(int64_t));
    ix->row_of = large_alloc(n * sizeof(int32_t));
    if (!ix->col_of || !ix->col_ptr || !ix->row_of) {
        free(sorted);
        return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY,
                           "row_order: cannot allocate the column index of %lld entries",
                           (long long)nnz);
    }
    for (int64_t j = 0, t = 0; j < nnz; j++)
        if (starts_column(sorted, j)) ix->col_ptr[t++] = j;
    ix->col_ptr[cols] = nnz;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 256)
    for (int64_t t = 0; t < cols; t++)
        for (int64_t j = ix->col_ptr[t]; j < ix->col_ptr[t + 1]; j++) {
            const int64_t c = (int64_t)(sorted[j] >> 32), i = (int64_t)(uint32_t)sorted[j];
            ix->row_of[j] = (int32_t)i;
            ix->col_of[entry_at(A, i, c)] = (int32_t)t;
        }
    free(sorted);
    return TCSPMM_SUCCESS;
}

/* A set of columns (open addressing, keys + 1 so that 0 is empty) that
 * remembers its keys for a quick clear. Probing starts at column_hash(c). */
typedef struct column_set {
    int64_t *slot;
    int64_t *keys;
    int64_t count, capacity; /* capacity: a power of two */
} column_set;

static uint64_t column_hash(int64_t c)
{
    return (uint64_t)c * 0x9e3779b97f4a7c15ull >> 20;
}

/* Inserts c; 1 when it was new, 0 when present, -1 out of memory. */
static int column_set_insert(column_set *s, int64_t c)
{
    if (2 * (s->count + 1) > s->capacity) {
        int64_t cap = s->capacity ? 2 * s->capacity : 1024;
        int64_t *slot = calloc((size_t)cap, sizeof(int64_t));
        int64_t *keys = realloc(s->keys, (size_t)cap * sizeof(int64_t));
        if (!slot || !keys) {
            free(slot);
            if (keys) s->keys = keys;
            return -1;
        }
        free(s->slot);
        s->slot = slot;
        s->keys = keys;
        s->capacity = cap;
        for (int64_t j = 0; j < s->count; j++) {
            uint64_t h = column_hash(s->keys[j]);
            while (slot[h & (cap - 1)]) h++;
            slot[h & (cap - 1)] = s->keys[j] + 1;
        }
    }
    for (uint64_t h = column_hash(c);; h++) {
        int64_t *p = &s->slot[h & (s->capacity - 1)];
        if (*p == c + 1) return 0;
        if (*p == 0) {
            *p = c + 1;
            s->keys[s->count++] = c;
            return 1;
        }
    }
}

static void column_set_clear(column_set *s)
{
    for (int64_t j = 0; j < s->count; j++) {
        uint64_t h = column_hash(s->keys[j]);
        while (s->slot[h & (s->capacity - 1)] != s->keys[j] + 1) h++;
        s->slot[h & (s->capacity - 1)] = 0;
    }
    s->count = 0;
}

/* One thread's workspace for a chunk: cnt[local row], the candidate list,
 * the placed flags and the panel's columns. */
typedef struct chunk_work {
    int32_t *cnt;
    int32_t *touched;
    int64_t num_touched, touched_cap;
    unsigned char *placed;
    column_set cols;
} chunk_work;

static void chunk_work_free(chunk_work *w)
{
    free(w->cnt);
    free(w->touched);
    free(w->placed);
    free(w->cols.slot);
    free(w->cols.keys);
}

/* Places local row r of chunk [r0, r1) in the panel: its new columns into
 * the set, and the counts of the unplaced rows of the chunk sharing them.
 * 0, or -1 out of memory. */
static int place_row(const tcspmm_csr *A, const column_index *ix, int64_t r0, int64_t r1,
                     int64_t r, chunk_work *w)
{
    w->placed[r] = 1;
    const int64_t row = r0 + r;
    for (int64_t e = A->row_ptr[row]; e < A->row_ptr[row + 1]; e++) {
        const int fresh = column_set_insert(&w->cols, A->col_idx[e]);
        if (fresh < 0) return -1;
        const int64_t t = ix->col_of[e], lo = ix->col_ptr[t], hi = ix->col_ptr[t + 1];
        if (!fresh || hi - lo > COLUMN_CAP) continue;
        /* the column's rows from r0 on: a binary search */
        int64_t a = lo, b = hi;
        while (a < b) {
            int64_t mid = a + (b - a) / 2;
            if (ix->row_of[mid] < r0) a = mid + 1;
            else b = mid;
        }
        for (; a < hi && ix->row_of[a] < r1; a++) {
            const int64_t q = ix->row_of[a] - r0;
            if (w->placed[q]) continue;
            if (w->cnt[q]++ == 0) {
                if (w->num_touched == w->touched_cap) {
                    int64_t cap = w->touched_cap ? 2 * w->touched_cap : 1024;
                    int32_t *t = realloc(w->touched, (size_t)cap * sizeof(int32_t));
                    if (!t) return -1;
                    w->touched = t;
                    w->touched_cap = cap;
                }
                w->touched[w->num_touched++] = (int32_t)q;
            }
        }
    }
    return 0;
}

/* The panels of chunk [r0, r1) into order[r0 .. r1); adds the active
 * columns of both orders to *natural and *clustered. 0, or -1 out of memory. */
static int order_chunk(const tcspmm_csr *A, const column_index *ix, int panel_rows, int64_t r0,
                       int64_t r1, int64_t *order, chunk_work *w, int64_t *natural,
                       int64_t *clustered)
{
    const int64_t len = r1 - r0;
    memset(w->placed, 0, (size_t)len);
    for (int64_t p = r0; p < r1; p += panel_rows) { /* the natural panels' columns */
        const int64_t end = p + panel_rows < r1 ? p + panel_rows : r1;
        for (int64_t e = A->row_ptr[p]; e < A->row_ptr[end]; e++)
            if (column_set_insert(&w->cols, A->col_idx[e]) < 0) return -1;
        *natural += w->cols.count;
        column_set_clear(&w->cols);
    }
    int64_t next = 0, pos = r0; /* next: no unplaced row below it */
    while (pos < r1) {
        while (w->placed[next]) next++;
        if (place_row(A, ix, r0, r1, next, w)) return -1;
        order[pos++] = r0 + next;
        for (int k = 1; k < panel_rows && pos < r1; k++) {
            int64_t best = -1, best_score = 0;
            for (int64_t j = 0; j < w->num_touched; j++) {
                const int64_t q = w->touched[j];
                if (w->placed[q]) continue;
                const int64_t score =
                    3 * (int64_t)w->cnt[q] - (A->row_ptr[r0 + q + 1] - A->row_ptr[r0 + q]);
                if (best < 0 || score > best_score || (score == best_score && q < best)) {
                    best = q;
                    best_score = score;
                }
            }
            if (best < 0) { /* nothing shares a column: the next row in order */
                while (w->placed[next]) next++;
                best = next;
            }
            if (place_row(A, ix, r0, r1, best, w)) return -1;
            order[pos++] = r0 + best;
        }
        *clustered += w->cols.count;
        column_set_clear(&w->cols);
        for (int64_t j = 0; j < w->num_touched; j++) w->cnt[w->touched[j]] = 0;
        w->num_touched = 0;
    }
    return 0;
}

tcspmm_status row_order_cluster(const tcspmm_csr *A, int panel_rows, int threads, int64_t *order,
                                row_order_stats *stats)
{
    if (!A || !order || !stats || (panel_rows != 16 && panel_rows != 32))
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "row_order_cluster: null argument or panel_rows %d (16 or 32)",
                           panel_rows);
    if (A->rows >= INT32_MAX)
        return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED,
                           "row_order_cluster: %lld rows (the order needs fewer than 2^31 - 1)",
                           (long long)A->rows);
    memset(stats, 0, sizeof *stats);
    if (threads <= 0) threads = omp_get_max_threads();
    column_index ix = {0};
    tcspmm_status st = column_index_build(A, threads, &ix);
    const int64_t chunks = (A->rows + CHUNK_ROWS - 1) / CHUNK_ROWS;
    int failed = 0;
    int64_t natural = 0, clustered = 0;
    if (!st) {
#pragma omp parallel num_threads(threads) reduction(+ : natural, clustered) reduction(| : failed)
        {
            chunk_work w = {0};
            w.cnt = calloc(CHUNK_ROWS, sizeof(int32_t));
            w.placed = malloc(CHUNK_ROWS);
            failed |= !w.cnt || !w.placed;
#pragma omp for schedule(dynamic, 1)
            for (int64_t ch = 0; ch < chunks; ch++) {
                if (failed) continue;
                const int64_t r0 = ch * CHUNK_ROWS;
                const int64_t r1 = r0 + CHUNK_ROWS < A->rows ? r0 + CHUNK_ROWS : A->rows;
                failed |= order_chunk(A, &ix, panel_rows, r0, r1, order, &w, &natural,
                                      &clustered) != 0;
            }
            chunk_work_free(&w);
        }
        if (failed)
            st = tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY,
                             "row_order_cluster: out of memory for a chunk's workspace");
    }
    column_index_free(&ix);
    stats->natural_cols = natural;
    stats->clustered_cols = clustered;
    return st;
}

tcspmm_status row_order_cluster_new(const tcspmm_csr *A, int panel_rows, int threads,
                                    int64_t **order, row_order_stats *stats)
{
    *order = NULL;
    if (!A || !stats)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "row_order_cluster_new: null matrix or stats");
    if (A->rows >= INT32_MAX) { /* beyond row_order_cluster: the natural order */
        memset(stats, 0, sizeof *stats);
        return TCSPMM_SUCCESS;
    }
    int64_t *o = malloc((size_t)(A->rows > 0 ? A->rows : 1) * sizeof(int64_t));
    if (!o) return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "row_order: no room for an order");
    tcspmm_status st = row_order_cluster(A, panel_rows, threads, o, stats);
    if (st) free(o);
    else *order = o;
    return st;
}

tcspmm_status csr_permute_rows(const tcspmm_csr *A, const int64_t *order, tcspmm_csr *out)
{
    TCSPMM_TRY(csr_alloc(A->rows, A->cols, A->nnz, out));
    for (int64_t i = 0; i < A->rows; i++)
        out->row_ptr[i + 1] = out->row_ptr[i] + A->row_ptr[order[i] + 1] - A->row_ptr[order[i]];
#pragma omp parallel for schedule(dynamic, 1024)
    for (int64_t i = 0; i < A->rows; i++) {
        const int64_t from = A->row_ptr[order[i]], count = A->row_ptr[order[i] + 1] - from;
        memcpy(out->col_idx + out->row_ptr[i], A->col_idx + from, (size_t)count * sizeof(int32_t));
        memcpy(out->values + out->row_ptr[i], A->values + from, (size_t)count * sizeof(float));
    }
    return TCSPMM_SUCCESS;
}

tcspmm_status hrpb_build_ordered(const tcspmm_csr *A, const int64_t *order, int panel_rows,
                                 int threads, hrpb *out)
{
    if (!order) return hrpb_build(A, panel_rows, threads, out);
    tcspmm_csr permuted;
    TCSPMM_TRY(csr_permute_rows(A, order, &permuted));
    tcspmm_status st = hrpb_build(&permuted, panel_rows, threads, out);
    tcspmm_csr_free(&permuted);
    return st;
}

tcspmm_status hrpb_build_clustered(const tcspmm_csr *A, int panel_rows, int threads, hrpb *out)
{
    int64_t *order;
    row_order_stats stats;
    TCSPMM_TRY(row_order_cluster_new(A, panel_rows, threads, &order, &stats));
    tcspmm_status st = hrpb_build_ordered(A, order, panel_rows, threads, out);
    if (st) {
        free(order);
        return st;
    }
    out->row_map = order;
    return TCSPMM_SUCCESS;
}
