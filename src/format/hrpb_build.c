/* hrpb_build.c: the CSR -> HRPB builder of hrpb.h and hrpb_free.
 *
 * The count pass merges each panel's TM sorted rows, which yields the
 * panel's active columns in increasing order with the rows holding each one;
 * it records every entry's active-column index (pos, one int32 per entry)
 * and the panel's blocks and packed bytes. A prefix sum turns those into
 * each panel's first block and first byte, and the fill pass walks the
 * panel's rows block by block (pos says where each entry goes) and writes
 * where the prefix sum put it. Panels only write their own slices, so the
 * bytes do not depend on the number of threads or on the schedule. */
#include "hrpb.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "../error.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define MAX_TM 32
#define BRICK_ROWS_MAX (MAX_TM / HRPB_BRICK_M)

/* The merge cursor of one panel: the next column of each of its rows
 * (INT32_MAX once a row is done; rows past the matrix are done at once). */
typedef struct panel_merge {
    int32_t col[MAX_TM];
    int64_t at[MAX_TM], end[MAX_TM];
} panel_merge;

static inline void merge_start(panel_merge *m, const tcspmm_csr *A, int64_t row0, int tm)
{
    for (int r = 0; r < tm; r++) {
        int64_t i = row0 + r;
        m->at[r] = i < A->rows ? A->row_ptr[i] : 0;
        m->end[r] = i < A->rows ? A->row_ptr[i + 1] : 0;
        m->col[r] = m->at[r] < m->end[r] ? A->col_idx[m->at[r]] : INT32_MAX;
    }
}

/* The next active column (INT32_MAX when the panel is done); *rows gets bit
 * r set for every row r of the panel holding it. Columns are < INT32_MAX
 * because cols <= 2^31 - 1. With SSE2 (every x86-64) the minimum and the
 * row mask take a few vector instructions per 4 rows. */
#if defined(__SSE2__)
static inline __m128i min_epi32(__m128i a, __m128i b)
{
    __m128i a_greater = _mm_cmpgt_epi32(a, b);
    return _mm_or_si128(_mm_and_si128(a_greater, b), _mm_andnot_si128(a_greater, a));
}

static inline int32_t merge_next(const panel_merge *m, int tm, uint32_t *rows)
{
    __m128i v[MAX_TM / 4], low = _mm_loadu_si128((const __m128i *)m->col);
    for (int i = 0; i < tm / 4; i++) {
        v[i] = _mm_loadu_si128((const __m128i *)(m->col + 4 * i));
        low = min_epi32(low, v[i]);
    }
    low = min_epi32(low, _mm_shuffle_epi32(low, _MM_SHUFFLE(1, 0, 3, 2)));
    low = min_epi32(low, _mm_shuffle_epi32(low, _MM_SHUFFLE(2, 3, 0, 1)));
    uint32_t mask = 0;
    for (int i = 0; i < tm / 4; i++)
        mask |= (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(v[i], low))) << (4 * i);
    *rows = mask;
    return _mm_cvtsi128_si32(low);
}
#else
static inline int32_t merge_next(const panel_merge *m, int tm, uint32_t *rows)
{
    int32_t t[MAX_TM]; /* a tree of minima: short dependency chains */
    for (int r = 0; r < tm; r++) t[r] = m->col[r];
    for (int w = tm / 2; w >= 1; w /= 2)
        for (int r = 0; r < w; r++) t[r] = t[r + w] < t[r] ? t[r + w] : t[r];
    uint32_t mask = 0;
    for (int r = 0; r < tm; r++) mask |= (uint32_t)(m->col[r] == t[0]) << r;
    *rows = mask;
    return t[0];
}
#endif

/* Gives the entries of the rows in `rows` at the cursor the active-column
 * index `active`, moves those rows on, and returns how many there were. */
static inline int merge_advance(panel_merge *m, const int32_t *col_idx, uint32_t rows,
                                int32_t active, int32_t *pos)
{
    int count = 0;
    while (rows) {
        int r = __builtin_ctz(rows);
        rows &= rows - 1;
        pos[m->at[r]] = active;
        int64_t k = ++m->at[r];
        m->col[r] = k < m->end[r] ? col_idx[k] : INT32_MAX;
        count++;
    }
    return count;
}

/* Bytes of a packed block: header, patterns, values, padding to 16. */
static inline int64_t block_bytes(int nbricks, int nnz)
{
    int64_t raw = HRPB_HEADER_BYTES + 8 * (int64_t)nbricks + 4 * (int64_t)nnz;
    return (raw + HRPB_ALIGN - 1) / HRPB_ALIGN * HRPB_ALIGN;
}

/* Set bits of x < 256 (builds need not target a CPU with popcnt). */
static inline int bit_count8(unsigned x)
{
    int n = 0;
    for (; x; x &= x - 1) n++;
    return n;
}

/* Brick occupancy of one active column as bits 2*brick_col + brick_row. */
static inline unsigned brick_bits_of(uint32_t rows, int slot)
{
    unsigned halves = (rows & 0xFFFFu ? 1u : 0u) | (rows >> 16 ? 2u : 0u);
    return halves << (2 * (slot / HRPB_BRICK_K));
}

/* Count pass: the blocks and packed bytes of panel p, and pos[k] for its
 * entries. */
static inline void count_panel(const tcspmm_csr *A, int64_t p, int tm, int32_t *pos,
                               int64_t *blocks, int64_t *bytes)
{
    panel_merge m;
    merge_start(&m, A, p * tm, tm);
    int64_t nblocks = 0, nbytes = 0, active = 0;
    int block_nnz = 0;
    unsigned bricks = 0;
    for (;;) {
        uint32_t rows;
        int32_t c = merge_next(&m, tm, &rows);
        if (c == INT32_MAX) break;
        int slot = (int)(active % HRPB_TK);
        bricks |= brick_bits_of(rows, slot);
        block_nnz += merge_advance(&m, A->col_idx, rows, (int32_t)active, pos);
        if (slot == HRPB_TK - 1) {
            nbytes += block_bytes(bit_count8(bricks), block_nnz);
            nblocks++;
            block_nnz = 0;
            bricks = 0;
        }
        active++;
    }
    if (active % HRPB_TK) {
        nbytes += block_bytes(bit_count8(bricks), block_nnz);
        nblocks++;
    }
    *blocks = nblocks;
    *bytes = nbytes;
}

/* One block being filled: the pattern and the values (at their bit
 * positions) of each brick, indexed [brick column][brick row]. */
typedef struct block_tile {
    uint64_t pattern[HRPB_BRICK_COLS][BRICK_ROWS_MAX];
    float value[HRPB_BRICK_COLS][BRICK_ROWS_MAX][64];
} block_tile;

/* Packs the tile (nnz entries) as block b at byte offset off and clears its
 * patterns. Returns the bytes written. */
static int64_t emit_block(hrpb *h, int64_t b, int64_t off, block_tile *t, int tm, int nnz)
{
    uint8_t *dst = h->packed + off;
    uint64_t patterns[HRPB_MAX_BRICKS];
    uint8_t brick_of[HRPB_MAX_BRICKS][2]; /* brick column, brick row */
    int nbricks = 0;
    memset(dst, 0, HRPB_HEADER_BYTES);
    for (int bc = 0; bc < HRPB_BRICK_COLS; bc++) {
        dst[bc] = (uint8_t)nbricks; /* col_ptr[bc] */
        for (int br = 0; br < tm / HRPB_BRICK_M; br++) {
            uint64_t pat = t->pattern[bc][br];
            if (!pat) continue;
            dst[5 + nbricks] = (uint8_t)br; /* brick_row */
            patterns[nbricks] = pat;
            brick_of[nbricks][0] = (uint8_t)bc;
            brick_of[nbricks][1] = (uint8_t)br;
            nbricks++;
            t->pattern[bc][br] = 0;
        }
    }
    dst[4] = (uint8_t)nbricks; /* col_ptr[4] */
    memcpy(dst + HRPB_HEADER_BYTES, patterns, 8 * (size_t)nbricks); /* little endian hosts */
    float *v = (float *)(dst + HRPB_HEADER_BYTES + 8 * nbricks);
    for (int j = 0; j < nbricks; j++) {
        const float *src = t->value[brick_of[j][0]][brick_of[j][1]];
        for (uint64_t bits = patterns[j]; bits; bits &= bits - 1)
            *v++ = src[__builtin_ctzll(bits)];
    }
    int64_t bytes = block_bytes(nbricks, nnz);
    uint8_t *tail = (uint8_t *)v;
    memset(tail, 0, (size_t)(dst + bytes - tail));
    h->size_ptr[b] = off;
    return bytes;
}

/* Fill pass: writes panel p's active columns, size_ptr entries and packed
 * blocks, starting at block h->block_ptr[p] and byte offset off. Each row's
 * entries of a block are consecutive, and pos gives their slots. */
static inline void fill_panel(const tcspmm_csr *A, int64_t p, int tm, const int32_t *pos,
                              int64_t off, hrpb *h, block_tile *t)
{
    int64_t at[MAX_TM], end[MAX_TM];
    for (int r = 0; r < tm; r++) {
        int64_t i = p * tm + r;
        at[r] = i < A->rows ? A->row_ptr[i] : 0;
        end[r] = i < A->rows ? A->row_ptr[i + 1] : 0;
    }
    for (int64_t b = h->block_ptr[p]; b < h->block_ptr[p + 1]; b++) {
        int32_t *act = h->active_cols + b * HRPB_TK;
        const int64_t limit = (b - h->block_ptr[p] + 1) * HRPB_TK; /* 2^31 at block 2^27 */
        int nnz = 0;
        for (int s = 0; s < HRPB_TK; s++) act[s] = -1; /* pads stay -1 */
        for (int r = 0; r < tm; r++) {
            int64_t k = at[r];
            const int br = r / HRPB_BRICK_M, row_bits = (r % HRPB_BRICK_M) * HRPB_BRICK_K;
            for (; k < end[r] && pos[k] < limit; k++) {
                int slot = pos[k] % HRPB_TK, bc = slot / HRPB_BRICK_K;
                int bit = row_bits + slot % HRPB_BRICK_K;
                act[slot] = A->col_idx[k];
                t->pattern[bc][br] |= 1ull << bit;
                t->value[bc][br][bit] = A->values[k];
            }
            nnz += (int)(k - at[r]);
            at[r] = k;
        }
        off += emit_block(h, b, off, t, tm, nnz);
    }
}

void hrpb_free(hrpb *h)
{
    if (!h) return;
    free(h->block_ptr);
    free(h->active_cols);
    free(h->size_ptr);
    free(h->packed);
    free(h->row_map);
    memset(h, 0, sizeof *h);
}

void hrpb_drop_blocks(hrpb *h)
{
    free(h->active_cols);
    free(h->size_ptr);
    free(h->packed);
    h->active_cols = NULL;
    h->size_ptr = NULL;
    h->packed = NULL;
}

tcspmm_status hrpb_build(const tcspmm_csr *A, int panel_rows, int threads, hrpb *out)
{
    if (!out) return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "hrpb_build: out is NULL");
    memset(out, 0, sizeof *out);
    if (!A || !A->row_ptr)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "hrpb_build: A is NULL or empty");
    if (panel_rows != 16 && panel_rows != 32)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "hrpb_build: panel_rows is %d; it must be 16 or 32", panel_rows);
    if (threads < 0)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "hrpb_build: threads is %d", threads);
    if (A->rows < 0 || A->cols < 0 || A->cols > INT32_MAX || A->nnz < 0)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "hrpb_build: bad CSR size %lld x %lld (nnz %lld)",
                           (long long)A->rows, (long long)A->cols, (long long)A->nnz);
    if (threads == 0) threads = omp_get_max_threads();
    const int tm = panel_rows;
    hrpb *h = out;
    h->panel_rows = tm;
    h->rows = A->rows;
    h->cols = A->cols;
    h->nnz = A->nnz;
    h->num_panels = (A->rows + tm - 1) / tm;
    const int64_t np = h->num_panels;

    /* Count pass: block_ptr[p + 1] and panel_off[p + 1] get panel p's
     * blocks and bytes, then become prefix sums. */
    h->block_ptr = malloc(((size_t)np + 1) * sizeof(int64_t));
    int64_t *panel_off = malloc(((size_t)np + 1) * sizeof(int64_t));
    int32_t *pos = malloc(((size_t)A->nnz + 1) * sizeof(int32_t));
    if (!h->block_ptr || !panel_off || !pos) {
        free(panel_off);
        free(pos);
        hrpb_free(h);
        return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY,
                           "hrpb_build: cannot allocate 2 x %lld panel offsets and %lld entry "
                           "positions", (long long)np + 1, (long long)A->nnz);
    }
    h->block_ptr[0] = 0;
    panel_off[0] = 0;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 64)
    for (int64_t p = 0; p < np; p++) {
        if (tm == 16) count_panel(A, p, 16, pos, &h->block_ptr[p + 1], &panel_off[p + 1]);
        else count_panel(A, p, 32, pos, &h->block_ptr[p + 1], &panel_off[p + 1]);
    }
    for (int64_t p = 0; p < np; p++) {
        h->block_ptr[p + 1] += h->block_ptr[p];
        panel_off[p + 1] += panel_off[p];
    }
    const int64_t nb = h->block_ptr[np], bytes = panel_off[np];
    h->num_blocks = nb;
    if (nb >= INT32_MAX) { /* block indices and nb + 1 fit an int32 */
        free(panel_off);
        free(pos);
        hrpb_free(h);
        return tcspmm_fail(TCSPMM_ERROR_OVERFLOW,
                           "hrpb_build: %lld blocks; at most 2^31-1 are supported", (long long)nb);
    }

    /* Fill pass. */
    h->active_cols = malloc(((size_t)nb * HRPB_TK + 1) * sizeof(int32_t));
    h->size_ptr = malloc(((size_t)nb + 1) * sizeof(int64_t));
    h->packed = aligned_alloc(HRPB_ALIGN, (size_t)(bytes ? bytes : HRPB_ALIGN));
    if (!h->active_cols || !h->size_ptr || !h->packed) {
        free(panel_off);
        free(pos);
        hrpb_free(h);
        return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY,
                           "hrpb_build: cannot allocate %lld blocks in %lld packed bytes",
                           (long long)nb, (long long)bytes);
    }
    int64_t bricks = 0;
#pragma omp parallel num_threads(threads) reduction(+ : bricks)
    {
        block_tile tile;
        memset(tile.pattern, 0, sizeof tile.pattern);
#pragma omp for schedule(dynamic, 64)
        for (int64_t p = 0; p < np; p++) {
            if (tm == 16) fill_panel(A, p, 16, pos, panel_off[p], h, &tile);
            else fill_panel(A, p, 32, pos, panel_off[p], h, &tile);
        }
#pragma omp for schedule(static)
        for (int64_t b = 0; b < nb; b++) bricks += h->packed[h->size_ptr[b] + 4];
    }
    h->size_ptr[nb] = bytes;
    h->num_bricks = bricks;
    free(panel_off);
    free(pos);
    return TCSPMM_SUCCESS;
}
