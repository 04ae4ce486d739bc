/* families.c: the seeded matrix families of families.h and the parser of
 * their spec strings. Every random draw comes from a splitmix stream keyed by
 * (seed, row) or (seed, edge), so work can be split over OpenMP threads in
 * any way and still give the same bytes. Builders count each row's entries,
 * take a prefix sum, then fill rows in parallel. */
#include "families.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "format/csr.h"
#include "rng.h"

#define MAX_DIM INT32_MAX /* rows and columns of every family */

/* ------------------------------------------------------------------ */
/* Random streams */

/* The start of an independent stream for item `index` of a seeded family. */
static uint64_t substream(uint64_t seed, uint64_t index)
{
    uint64_t s = seed;
    uint64_t t = rng_next(&s) ^ (index * 0xD1B54A32D192ED03ull);
    return rng_next(&t);
}

static float signed_unit(uint64_t *state) { return (float)(2.0 * rng_uniform(state) - 1.0); }

/* A value in [-1, 1] that depends only on (seed, i, j). */
static float value_at(uint64_t seed, int64_t i, int64_t j)
{
    uint64_t s = substream(substream(seed, (uint64_t)i), (uint64_t)j);
    return signed_unit(&s);
}

static int compare_int32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Sorts x[0..n) and removes repeats; returns the new length. */
static int64_t sort_unique(int32_t *x, int64_t n)
{
    qsort(x, (size_t)n, sizeof *x, compare_int32);
    int64_t m = 0;
    for (int64_t k = 0; k < n; k++)
        if (m == 0 || x[m - 1] != x[k]) x[m++] = x[k];
    return m;
}

/* ------------------------------------------------------------------ */
/* Shared building steps */

/* Allocates out with row_ptr the prefix sum of counts[0..rows). */
static tcspmm_status alloc_from_counts(int64_t rows, int64_t cols, const int64_t *counts,
                                       tcspmm_csr *out)
{
    int64_t nnz = 0;
    for (int64_t i = 0; i < rows; i++) {
        if (counts[i] > INT64_MAX - nnz)
            return tcspmm_fail(TCSPMM_ERROR_OVERFLOW, "families: entry count overflows int64");
        nnz += counts[i];
    }
    TCSPMM_TRY(csr_alloc(rows, cols, nnz, out));
    for (int64_t i = 0; i < rows; i++) out->row_ptr[i + 1] = out->row_ptr[i] + counts[i];
    return TCSPMM_SUCCESS;
}

static tcspmm_status alloc_counts(int64_t rows, int64_t **counts)
{
    *counts = calloc((size_t)rows + 1, sizeof **counts);
    if (!*counts)
        return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY,
                           "families: cannot allocate row counts for %lld rows", (long long)rows);
    return TCSPMM_SUCCESS;
}

/* a * b into *r when it fits in [0, limit]. */
static int product_fits(int64_t a, int64_t b, int64_t limit, int64_t *r)
{
    int64_t p;
    if (a < 0 || b < 0 || __builtin_mul_overflow(a, b, &p) || p > limit) return 0;
    *r = p;
    return 1;
}

/* ------------------------------------------------------------------ */
/* Stencils */

typedef struct stencil {
    int64_t nx, ny, nz;
    int count;          /* offsets, the centre included */
    int dx[27], dy[27], dz[27];
} stencil;

/* Offsets in (dz, dy, dx) lexicographic order, which is column order. */
static stencil make_stencil(int64_t nx, int64_t ny, int64_t nz, int dims, int full_box)
{
    stencil s = {nx, ny, nz, 0, {0}, {0}, {0}};
    int zr = dims == 3 ? 1 : 0;
    for (int dz = -zr; dz <= zr; dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                if (!full_box && abs(dx) + abs(dy) + abs(dz) > 1) continue;
                s.dx[s.count] = dx;
                s.dy[s.count] = dy;
                s.dz[s.count] = dz;
                s.count++;
            }
    return s;
}

static int in_grid(const stencil *s, int64_t row, int o, int64_t *col)
{
    int64_t x = row % s->nx, y = row / s->nx % s->ny, z = row / s->nx / s->ny;
    int64_t X = x + s->dx[o], Y = y + s->dy[o], Z = z + s->dz[o];
    if (X < 0 || X >= s->nx || Y < 0 || Y >= s->ny || Z < 0 || Z >= s->nz) return 0;
    *col = X + s->nx * (Y + s->ny * Z);
    return 1;
}

static tcspmm_status build_stencil(const stencil *s, tcspmm_csr *out)
{
    int64_t rows;
    if (!product_fits(s->nx, s->ny, MAX_DIM, &rows) || !product_fits(rows, s->nz, MAX_DIM, &rows))
        return tcspmm_fail(TCSPMM_ERROR_OVERFLOW,
                           "stencil: %lld x %lld x %lld points exceed 2^31-1 rows",
                           (long long)s->nx, (long long)s->ny, (long long)s->nz);
    int64_t *counts;
    TCSPMM_TRY(alloc_counts(rows, &counts));
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < rows; i++) {
        int64_t col;
        for (int o = 0; o < s->count; o++) counts[i] += in_grid(s, i, o, &col);
    }
    tcspmm_status st = alloc_from_counts(rows, rows, counts, out);
    free(counts);
    TCSPMM_TRY(st);
    float diagonal = (float)(s->count - 1);
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < rows; i++) {
        int64_t k = out->row_ptr[i], col;
        for (int o = 0; o < s->count; o++) {
            if (!in_grid(s, i, o, &col)) continue;
            out->col_idx[k] = (int32_t)col;
            out->values[k] = col == i ? diagonal : -1.0f;
            k++;
        }
    }
    return TCSPMM_SUCCESS;
}

tcspmm_status family_stencil2d(int64_t nx, int64_t ny, int points, tcspmm_csr *out)
{
    memset(out, 0, sizeof *out);
    if (nx < 1 || ny < 1 || (points != 5 && points != 9))
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "stencil2d: need NX, NY >= 1 and P in {5, 9} (got %lld, %lld, %d)",
                           (long long)nx, (long long)ny, points);
    stencil s = make_stencil(nx, ny, 1, 2, points == 9);
    return build_stencil(&s, out);
}

tcspmm_status family_stencil3d(int64_t nx, int64_t ny, int64_t nz, int points,
                               tcspmm_csr *out)
{
    memset(out, 0, sizeof *out);
    if (nx < 1 || ny < 1 || nz < 1 || (points != 7 && points != 27))
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "stencil3d: need NX, NY, NZ >= 1 and P in {7, 27} (got %lld, %lld, "
                           "%lld, %d)",
                           (long long)nx, (long long)ny, (long long)nz, points);
    stencil s = make_stencil(nx, ny, nz, 3, points == 27);
    return build_stencil(&s, out);
}

/* ------------------------------------------------------------------ */
/* Buckets: rows whose columns arrive in any order, then get sorted and merged */

/* Sorts and merges each bucket of cols (bucket i is [start[i], start[i] +
 * counts[i])), then packs them into out with value(i, j) from seed. */
static tcspmm_status pack_buckets(int64_t rows, int64_t cols, const int64_t *start,
                                  int64_t *counts, int32_t *bucket_cols, uint64_t seed,
                                  int symmetric_values, tcspmm_csr *out)
{
#pragma omp parallel for schedule(dynamic, 64)
    for (int64_t i = 0; i < rows; i++)
        counts[i] = sort_unique(bucket_cols + start[i], counts[i]);
    TCSPMM_TRY(alloc_from_counts(rows, cols, counts, out));
#pragma omp parallel for schedule(dynamic, 64)
    for (int64_t i = 0; i < rows; i++) {
        int64_t k = out->row_ptr[i];
        for (int64_t t = 0; t < counts[i]; t++, k++) {
            int64_t j = bucket_cols[start[i] + t];
            out->col_idx[k] = (int32_t)j;
            out->values[k] = symmetric_values && j < i ? value_at(seed, j, i) : value_at(seed, i, j);
        }
    }
    return TCSPMM_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* R-MAT */

typedef struct rmat_params {
    int scale;
    double a, ab, abc; /* cumulative quadrant probabilities */
    uint64_t seed;
} rmat_params;

static void rmat_edge(const rmat_params *p, int64_t e, int64_t *row, int64_t *col)
{
    uint64_t s = substream(p->seed, (uint64_t)e);
    int64_t r = 0, c = 0;
    for (int level = 0; level < p->scale; level++) {
        /* Quadrants [0,a) (0,0), [a,ab) (0,1), [ab,abc) (1,0), [abc,1) (1,1),
         * without branches (they are unpredictable). */
        double u = rng_uniform(&s);
        int past_a = u >= p->a, past_ab = u >= p->ab, past_abc = u >= p->abc;
        r = r << 1 | past_ab;
        c = c << 1 | (past_a ^ past_ab ^ past_abc);
    }
    *row = r;
    *col = c;
}

tcspmm_status family_rmat(int scale, int64_t edge_factor, double a, double b, double c,
                          uint64_t seed, tcspmm_csr *out)
{
    memset(out, 0, sizeof *out);
    double d = 1.0 - a - b - c;
    if (scale < 1 || scale > 30 || edge_factor < 1 || !(a >= 0 && b >= 0 && c >= 0) ||
        d < -1e-9)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "rmat: need 1 <= SCALE <= 30, EDGE_FACTOR >= 1, A, B, C >= 0 and "
                           "A + B + C <= 1 (got %d, %lld, %g, %g, %g)",
                           scale, (long long)edge_factor, a, b, c);
    int64_t n = (int64_t)1 << scale, edges;
    if (!product_fits(n, edge_factor, INT64_MAX / 8, &edges))
        return tcspmm_fail(TCSPMM_ERROR_OVERFLOW, "rmat: 2^%d x %lld edges overflow", scale,
                           (long long)edge_factor);
    rmat_params p = {scale, a, a + b, a + b + c, seed};
    int64_t *counts, *start = NULL;
    int32_t *bucket_cols = NULL;
    TCSPMM_TRY(alloc_counts(n, &counts));
    start = malloc(((size_t)n + 1) * sizeof *start);
    bucket_cols = malloc((size_t)edges * sizeof *bucket_cols);
    tcspmm_status st = TCSPMM_SUCCESS;
    if (!start || !bucket_cols) {
        st = tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "rmat: cannot hold %lld edges",
                         (long long)edges);
        goto done;
    }
#pragma omp parallel for schedule(static)
    for (int64_t e = 0; e < edges; e++) {
        int64_t r, col;
        rmat_edge(&p, e, &r, &col);
#pragma omp atomic
        counts[r]++;
    }
    start[0] = 0;
    for (int64_t i = 0; i < n; i++) start[i + 1] = start[i] + counts[i], counts[i] = 0;
    /* Threads fill each row in any order; pack_buckets sorts them. */
#pragma omp parallel for schedule(static)
    for (int64_t e = 0; e < edges; e++) {
        int64_t r, col, slot;
        rmat_edge(&p, e, &r, &col);
#pragma omp atomic capture
        slot = counts[r]++;
        bucket_cols[start[r] + slot] = (int32_t)col;
    }
    st = pack_buckets(n, n, start, counts, bucket_cols, substream(seed, UINT64_MAX), 0, out);
done:
    free(counts);
    free(start);
    free(bucket_cols);
    return st;
}

/* ------------------------------------------------------------------ */
/* Random geometric graph */

/* Inverse of the Z-order (Morton) code m: even bits to x, odd bits to y. */
static void morton_decode(uint64_t m, int64_t *x, int64_t *y)
{
    *x = *y = 0;
    for (int b = 0; b < 32; b++) {
        *x |= (int64_t)((m >> (2 * b)) & 1) << b;
        *y |= (int64_t)((m >> (2 * b + 1)) & 1) << b;
    }
}

typedef struct point_grid {
    int64_t n, g;        /* points, cells per side */
    double *x, *y;       /* coordinates, in Z order of cells */
    int64_t *cell_start; /* g*g + 1: points of cell (cx, cy) are
                            [cell_start[rank], cell_start[rank+1]) */
    int64_t *rank;       /* g*g: Z-order rank of cell cy*g + cx */
} point_grid;

static void grid_free(point_grid *G)
{
    free(G->x);
    free(G->y);
    free(G->cell_start);
    free(G->rank);
}

static int64_t cell_of(const point_grid *G, double v)
{
    int64_t c = (int64_t)(v * (double)G->g);
    return c < G->g ? c : G->g - 1;
}

/* Draws the points and sorts them by the Z order of their cell (counting
 * sort, stable in draw order). */
static tcspmm_status grid_build(int64_t n, int64_t g, uint64_t seed, point_grid *G)
{
    memset(G, 0, sizeof *G);
    G->n = n;
    G->g = g;
    int64_t cells = g * g;
    double *x0 = malloc((size_t)n * sizeof *x0), *y0 = malloc((size_t)n * sizeof *y0);
    int64_t *point_cell = malloc((size_t)n * sizeof *point_cell);
    G->x = malloc((size_t)n * sizeof *G->x);
    G->y = malloc((size_t)n * sizeof *G->y);
    G->cell_start = calloc((size_t)cells + 1, sizeof *G->cell_start);
    G->rank = malloc((size_t)cells * sizeof *G->rank);
    tcspmm_status st = TCSPMM_SUCCESS;
    if (!x0 || !y0 || !point_cell || !G->x || !G->y || !G->cell_start || !G->rank) {
        st = tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY,
                         "geometric: cannot hold %lld points on %lld cells", (long long)n,
                         (long long)cells);
        grid_free(G);
        goto done;
    }
    int64_t next = 0, side = 1;
    while (side < g) side *= 2;
    for (uint64_t m = 0; m < (uint64_t)(side * side); m++) {
        int64_t cx, cy;
        morton_decode(m, &cx, &cy);
        if (cx < g && cy < g) G->rank[cy * g + cx] = next++;
    }
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++) {
        uint64_t s = substream(seed, (uint64_t)i);
        x0[i] = rng_uniform(&s);
        y0[i] = rng_uniform(&s);
        point_cell[i] = G->rank[cell_of(G, y0[i]) * g + cell_of(G, x0[i])];
    }
    for (int64_t i = 0; i < n; i++) G->cell_start[point_cell[i] + 1]++;
    for (int64_t c = 0; c < cells; c++) G->cell_start[c + 1] += G->cell_start[c];
    for (int64_t i = 0; i < n; i++) {
        int64_t slot = G->cell_start[point_cell[i]]++;
        G->x[slot] = x0[i];
        G->y[slot] = y0[i];
    }
    for (int64_t c = cells; c > 0; c--) G->cell_start[c] = G->cell_start[c - 1];
    G->cell_start[0] = 0;
done:
    free(x0);
    free(y0);
    free(point_cell);
    return st;
}

/* Visits the neighbours j != i of point i within radius; with cols NULL it
 * only counts them. Returns the count. */
static int64_t grid_neighbours(const point_grid *G, int64_t i, double r2, int32_t *cols)
{
    int64_t cx = cell_of(G, G->x[i]), cy = cell_of(G, G->y[i]), count = 0;
    for (int64_t y = cy - 1; y <= cy + 1; y++)
        for (int64_t x = cx - 1; x <= cx + 1; x++) {
            if (x < 0 || y < 0 || x >= G->g || y >= G->g) continue;
            int64_t c = G->rank[y * G->g + x];
            for (int64_t j = G->cell_start[c]; j < G->cell_start[c + 1]; j++) {
                double ddx = G->x[i] - G->x[j], ddy = G->y[i] - G->y[j];
                if (j == i || ddx * ddx + ddy * ddy > r2) continue;
                if (cols) cols[count] = (int32_t)j;
                count++;
            }
        }
    return count;
}

tcspmm_status family_geometric(int64_t n, double radius, uint64_t seed, tcspmm_csr *out)
{
    memset(out, 0, sizeof *out);
    if (n < 1 || n > MAX_DIM || !(radius > 0 && radius < 2))
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "geometric: need 1 <= N <= 2^31-1 and 0 < radius < 2 (got %lld, %g)",
                           (long long)n, radius);
    /* Cells of side >= radius, so neighbours lie in the 3 x 3 cells around;
     * at most about one cell per point. */
    double per_side = floor(1.0 / radius), cap = floor(sqrt((double)n)) + 1;
    int64_t g = (int64_t)(per_side < cap ? per_side : cap);
    if (g < 1) g = 1;
    point_grid G;
    TCSPMM_TRY(grid_build(n, g, seed, &G));
    int64_t *counts, *start = NULL;
    int32_t *bucket_cols = NULL;
    tcspmm_status st = alloc_counts(n, &counts);
    if (st != TCSPMM_SUCCESS) goto done;
    double r2 = radius * radius;
#pragma omp parallel for schedule(dynamic, 256)
    for (int64_t i = 0; i < n; i++) counts[i] = grid_neighbours(&G, i, r2, NULL);
    start = malloc(((size_t)n + 1) * sizeof *start);
    if (!start) {
        st = tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "geometric: out of memory");
        goto done;
    }
    start[0] = 0;
    for (int64_t i = 0; i < n; i++) start[i + 1] = start[i] + counts[i];
    bucket_cols = malloc((size_t)(start[n] ? start[n] : 1) * sizeof *bucket_cols);
    if (!bucket_cols) {
        st = tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY,
                         "geometric: cannot hold %lld entries", (long long)start[n]);
        goto done;
    }
#pragma omp parallel for schedule(dynamic, 256)
    for (int64_t i = 0; i < n; i++) grid_neighbours(&G, i, r2, bucket_cols + start[i]);
    st = pack_buckets(n, n, start, counts, bucket_cols, substream(seed, UINT64_MAX), 1, out);
done:
    grid_free(&G);
    free(counts);
    free(start);
    free(bucket_cols);
    return st;
}

/* ------------------------------------------------------------------ */
/* Banded and uniform random rows */

/* Writes k distinct columns of [lo, lo + w), k <= w, sorted, into cols. */
static void sample_columns(int64_t lo, int64_t w, int64_t k, uint64_t *s, int32_t *cols)
{
    if (2 * k >= w) { /* selection sampling: one pass over the window */
        int64_t chosen = 0;
        for (int64_t t = 0; t < w && chosen < k; t++)
            if ((double)(w - t) * rng_uniform(s) < (double)(k - chosen))
                cols[chosen++] = (int32_t)(lo + t);
        return;
    }
    int64_t have = 0; /* draw the missing ones until k distinct remain */
    while (have < k) {
        for (int64_t t = have; t < k; t++)
            cols[t] = (int32_t)(lo + (int64_t)(rng_uniform(s) * (double)w));
        have = sort_unique(cols, k);
    }
}

/* Row i samples from the window [lo(i), lo(i) + w(i)). */
typedef struct row_window {
    int64_t rows, cols, bandwidth; /* bandwidth < 0: the whole row */
} row_window;

static void window_of(const row_window *W, int64_t i, int64_t *lo, int64_t *w)
{
    if (W->bandwidth < 0) {
        *lo = 0;
        *w = W->cols;
        return;
    }
    int64_t a = i - W->bandwidth > 0 ? i - W->bandwidth : 0;
    int64_t b = i + W->bandwidth < W->cols - 1 ? i + W->bandwidth : W->cols - 1;
    *lo = a;
    *w = b >= a ? b - a + 1 : 0;
}

static tcspmm_status build_windowed(const row_window *W, int64_t nnz_per_row, uint64_t seed,
                                    tcspmm_csr *out)
{
    int64_t *counts;
    TCSPMM_TRY(alloc_counts(W->rows, &counts));
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < W->rows; i++) {
        int64_t lo, w;
        window_of(W, i, &lo, &w);
        counts[i] = nnz_per_row < w ? nnz_per_row : w;
    }
    tcspmm_status st = alloc_from_counts(W->rows, W->cols, counts, out);
    free(counts);
    TCSPMM_TRY(st);
#pragma omp parallel for schedule(dynamic, 64)
    for (int64_t i = 0; i < W->rows; i++) {
        int64_t lo, w, b = out->row_ptr[i], k = out->row_ptr[i + 1] - b;
        window_of(W, i, &lo, &w);
        uint64_t s = substream(seed, (uint64_t)i);
        sample_columns(lo, w, k, &s, out->col_idx + b);
        for (int64_t t = 0; t < k; t++) out->values[b + t] = signed_unit(&s);
    }
    return TCSPMM_SUCCESS;
}

tcspmm_status family_banded(int64_t n, int64_t bandwidth, int64_t nnz_per_row, uint64_t seed,
                            tcspmm_csr *out)
{
    memset(out, 0, sizeof *out);
    int64_t total;
    if (n < 1 || n > MAX_DIM || bandwidth < 0 || nnz_per_row < 1)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "banded: need 1 <= N <= 2^31-1, BANDWIDTH >= 0, NNZ_PER_ROW >= 1 "
                           "(got %lld, %lld, %lld)",
                           (long long)n, (long long)bandwidth, (long long)nnz_per_row);
    /* a row holds at most its window of 2 * BANDWIDTH + 1 columns (n at most) */
    const int64_t window = bandwidth < n && 2 * bandwidth + 1 < n ? 2 * bandwidth + 1 : n;
    const int64_t per_row = nnz_per_row < window ? nnz_per_row : window;
    if (!product_fits(n, per_row, INT64_MAX / 8, &total))
        return tcspmm_fail(TCSPMM_ERROR_OVERFLOW, "banded: %lld x %lld entries overflow",
                           (long long)n, (long long)nnz_per_row);
    row_window W = {n, n, bandwidth < n ? bandwidth : n};
    return build_windowed(&W, nnz_per_row, seed, out);
}

tcspmm_status family_uniform(int64_t rows, int64_t cols, int64_t nnz_per_row, uint64_t seed,
                             tcspmm_csr *out)
{
    memset(out, 0, sizeof *out);
    int64_t total;
    if (rows < 1 || rows > MAX_DIM || cols < 1 || cols > MAX_DIM || nnz_per_row < 1)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "uniform: need 1 <= ROWS, COLS <= 2^31-1 and NNZ_PER_ROW >= 1 "
                           "(got %lld, %lld, %lld)",
                           (long long)rows, (long long)cols, (long long)nnz_per_row);
    if (!product_fits(rows, nnz_per_row < cols ? nnz_per_row : cols, INT64_MAX / 8, &total))
        return tcspmm_fail(TCSPMM_ERROR_OVERFLOW, "uniform: %lld x %lld entries overflow",
                           (long long)rows, (long long)nnz_per_row);
    row_window W = {rows, cols, -1};
    return build_windowed(&W, nnz_per_row, seed, out);
}

/* ------------------------------------------------------------------ */
/* Block-diagonal replication */

tcspmm_status family_blockdiag(int64_t k, const tcspmm_csr *A, tcspmm_csr *out)
{
    memset(out, 0, sizeof *out);
    int64_t rows, cols, nnz;
    if (k < 1)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "blockdiag: need K >= 1 (got %lld)",
                           (long long)k);
    if (!product_fits(k, A->rows, MAX_DIM, &rows) || !product_fits(k, A->cols, MAX_DIM, &cols) ||
        !product_fits(k, A->nnz, INT64_MAX / 8, &nnz))
        return tcspmm_fail(TCSPMM_ERROR_OVERFLOW,
                           "blockdiag: %lld copies of %lld x %lld (%lld entries) exceed 2^31-1 "
                           "rows or columns",
                           (long long)k, (long long)A->rows, (long long)A->cols,
                           (long long)A->nnz);
    TCSPMM_TRY(csr_alloc(rows, cols, nnz, out));
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < rows; i++) {
        int64_t copy = i / A->rows, r = i % A->rows, shift = copy * A->nnz;
        out->row_ptr[i + 1] = shift + A->row_ptr[r + 1];
        for (int64_t t = A->row_ptr[r]; t < A->row_ptr[r + 1]; t++) {
            out->col_idx[shift + t] = (int32_t)(A->col_idx[t] + copy * A->cols);
            out->values[shift + t] = A->values[t];
        }
    }
    return TCSPMM_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Magnitude pruning to keep-of-group_size (2:4, 1:2) */

/* The mask (bit i: v[i]) of the keep entries of v[0..width) with the
 * largest |v|, the lower position winning ties. width <= 4. */
static unsigned keep_largest(const float *v, int width, int keep)
{
    unsigned kept = 0;
    for (int round = 0; round < keep && round < width; round++) {
        int best = -1;
        for (int t = 0; t < width; t++)
            if (!(kept >> t & 1) && (best < 0 || fabsf(v[t]) > fabsf(v[best]))) best = t;
        kept |= 1u << best;
    }
    return kept;
}

static int64_t kept_per_row(int64_t cols, int group_size, int keep)
{
    int64_t rest = cols % group_size;
    return cols / group_size * keep + (rest < keep ? rest : keep);
}

static tcspmm_status check_pruning(int group_size, int keep)
{
    if ((group_size == 4 && keep == 2) || (group_size == 2 && keep == 1)) return TCSPMM_SUCCESS;
    return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                       "prune: only 2:4 and 1:2 are supported (got %d:%d)", keep, group_size);
}

tcspmm_status family_prune_random(int64_t rows, int64_t cols, int group_size, int keep,
                                  uint64_t seed, tcspmm_csr *out)
{
    memset(out, 0, sizeof *out);
    TCSPMM_TRY(check_pruning(group_size, keep));
    int64_t per_row = kept_per_row(cols, group_size, keep), nnz;
    if (rows < 1 || rows > MAX_DIM || cols < 1 || cols > MAX_DIM)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "prune: need 1 <= ROWS, COLS <= 2^31-1 (got %lld, %lld)",
                           (long long)rows, (long long)cols);
    if (!product_fits(rows, per_row, INT64_MAX / 8, &nnz))
        return tcspmm_fail(TCSPMM_ERROR_OVERFLOW, "prune: %lld x %lld entries overflow",
                           (long long)rows, (long long)per_row);
    TCSPMM_TRY(csr_alloc(rows, cols, nnz, out));
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < rows; i++) {
        uint64_t s = substream(seed, (uint64_t)i);
        int64_t k = i * per_row;
        out->row_ptr[i + 1] = k + per_row;
        for (int64_t g0 = 0; g0 < cols; g0 += group_size) {
            int width = (int)(cols - g0 < group_size ? cols - g0 : group_size);
            float v[4];
            for (int t = 0; t < width; t++) v[t] = signed_unit(&s);
            unsigned kept = keep_largest(v, width, keep);
            for (int t = 0; t < width; t++)
                if (kept >> t & 1) {
                    out->col_idx[k] = (int32_t)(g0 + t);
                    out->values[k++] = v[t];
                }
        }
    }
    return TCSPMM_SUCCESS;
}

/* Walks row i of A group by group; writes the kept entries at out_k when
 * out is not NULL. Returns how many are kept. */
static int64_t prune_row(const tcspmm_csr *A, int64_t i, int group_size, int keep,
                         tcspmm_csr *out, int64_t out_k)
{
    int64_t kept_count = 0, t = A->row_ptr[i], e = A->row_ptr[i + 1];
    while (t < e) {
        int64_t group = A->col_idx[t] / group_size;
        int width = 0;
        while (t + width < e && A->col_idx[t + width] / group_size == group) width++;
        unsigned kept = keep_largest(A->values + t, width, keep);
        for (int u = 0; u < width; u++) {
            if (!(kept >> u & 1)) continue;
            if (out) {
                out->col_idx[out_k + kept_count] = A->col_idx[t + u];
                out->values[out_k + kept_count] = A->values[t + u];
            }
            kept_count++;
        }
        t += width;
    }
    return kept_count;
}

tcspmm_status family_prune(const tcspmm_csr *A, int group_size, int keep, tcspmm_csr *out)
{
    memset(out, 0, sizeof *out);
    TCSPMM_TRY(check_pruning(group_size, keep));
    TCSPMM_TRY(tcspmm_csr_validate(A)); /* groups rely on sorted, unique columns */
    int64_t *counts;
    TCSPMM_TRY(alloc_counts(A->rows, &counts));
#pragma omp parallel for schedule(dynamic, 256)
    for (int64_t i = 0; i < A->rows; i++) counts[i] = prune_row(A, i, group_size, keep, NULL, 0);
    tcspmm_status st = alloc_from_counts(A->rows, A->cols, counts, out);
    free(counts);
    TCSPMM_TRY(st);
#pragma omp parallel for schedule(dynamic, 256)
    for (int64_t i = 0; i < A->rows; i++)
        prune_row(A, i, group_size, keep, out, out->row_ptr[i]);
    return TCSPMM_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Spec strings */

#define MAX_ARGS 8
#define MAX_NESTING 16 /* levels of specs in specs (blockdiag:K:SPEC, ...), the outer included */

typedef struct spec_ctx {
    const char *spec;              /* the whole spec, for messages */
    const char *family;            /* its family's name */
    int depth;                     /* 1 for the outer spec, +1 per spec inside */
    const char *names[MAX_ARGS];   /* parameter names */
    char name_text[128];           /* storage of names */
    char *args[MAX_ARGS];          /* parameter texts, into a copy of spec */
    int count;
} spec_ctx;

static tcspmm_status spec_fail(const spec_ctx *c, int index, const char *problem)
{
    return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "gen spec '%s': %s='%s' %s", c->spec,
                       c->names[index], c->args[index], problem);
}

static tcspmm_status arg_int(const spec_ctx *c, int index, int64_t lo, int64_t hi, int64_t *v)
{
    *v = 0;
    char *end;
    const char *text = c->args[index];
    errno = 0;
    long long x = strtoll(text, &end, 10);
    const int digits = isdigit((unsigned char)text[0]) ||
                       (text[0] == '-' && isdigit((unsigned char)text[1])); /* no '+', no space */
    if (!digits || *end || errno || x < lo || x > hi) {
        char problem[96];
        snprintf(problem, sizeof problem, "is not an integer in [%lld, %lld]", (long long)lo,
                 (long long)hi);
        return spec_fail(c, index, problem);
    }
    *v = x;
    return TCSPMM_SUCCESS;
}

/* A real in [lo, hi] (open at lo when lo_open). */
static tcspmm_status arg_real(const spec_ctx *c, int index, double lo, int lo_open, double hi,
                              double *v)
{
    *v = 0;
    char *end;
    const char *text = c->args[index];
    errno = 0;
    double x = strtod(text, &end);
    if (!*text || isspace((unsigned char)*text) || *end || errno || !isfinite(x) || x < lo || (lo_open && x == lo) || x > hi) {
        char problem[96];
        snprintf(problem, sizeof problem, "is not a number in %c%g, %g]", lo_open ? '(' : '[',
                 lo, hi);
        return spec_fail(c, index, problem);
    }
    *v = x;
    return TCSPMM_SUCCESS;
}

static tcspmm_status arg_seed(const spec_ctx *c, int index, uint64_t *v)
{
    *v = 0;
    char *end;
    const char *text = c->args[index];
    errno = 0;
    unsigned long long x = strtoull(text, &end, 10);
    if (!isdigit((unsigned char)*text) || *end || errno)
        return spec_fail(c, index, "is not an unsigned 64-bit integer");
    *v = x;
    return TCSPMM_SUCCESS;
}

/* The matrix of parameter index: "gen:SPEC", a spec, or a Matrix Market file. */
static tcspmm_status arg_matrix(const spec_ctx *c, int index, tcspmm_csr *out);

static tcspmm_status build_stencil2d_spec(const spec_ctx *c, tcspmm_csr *out)
{
    int64_t nx, ny, p;
    TCSPMM_TRY(arg_int(c, 0, 1, MAX_DIM, &nx));
    TCSPMM_TRY(arg_int(c, 1, 1, MAX_DIM, &ny));
    TCSPMM_TRY(arg_int(c, 2, 0, 100, &p));
    if (p != 5 && p != 9) return spec_fail(c, 2, "must be 5 or 9");
    return family_stencil2d(nx, ny, (int)p, out);
}

static tcspmm_status build_stencil3d_spec(const spec_ctx *c, tcspmm_csr *out)
{
    int64_t nx, ny, nz, p;
    TCSPMM_TRY(arg_int(c, 0, 1, MAX_DIM, &nx));
    TCSPMM_TRY(arg_int(c, 1, 1, MAX_DIM, &ny));
    TCSPMM_TRY(arg_int(c, 2, 1, MAX_DIM, &nz));
    TCSPMM_TRY(arg_int(c, 3, 0, 100, &p));
    if (p != 7 && p != 27) return spec_fail(c, 3, "must be 7 or 27");
    return family_stencil3d(nx, ny, nz, (int)p, out);
}

static tcspmm_status build_rmat_spec(const spec_ctx *c, tcspmm_csr *out)
{
    int64_t scale, edge_factor;
    double a, b, cc;
    uint64_t seed;
    TCSPMM_TRY(arg_int(c, 0, 1, 30, &scale));
    TCSPMM_TRY(arg_int(c, 1, 1, INT32_MAX, &edge_factor));
    TCSPMM_TRY(arg_real(c, 2, 0, 0, 1, &a));
    TCSPMM_TRY(arg_real(c, 3, 0, 0, 1, &b));
    TCSPMM_TRY(arg_real(c, 4, 0, 0, 1, &cc));
    TCSPMM_TRY(arg_seed(c, 5, &seed));
    if (a + b + cc > 1 + 1e-9) return spec_fail(c, 4, "makes A + B + C exceed 1");
    return family_rmat((int)scale, edge_factor, a, b, cc, seed, out);
}

static tcspmm_status build_geometric_spec(const spec_ctx *c, tcspmm_csr *out)
{
    int64_t n;
    double r;
    uint64_t seed;
    TCSPMM_TRY(arg_int(c, 0, 1, MAX_DIM, &n));
    TCSPMM_TRY(arg_real(c, 1, 0, 1, 1e9, &r));
    TCSPMM_TRY(arg_seed(c, 2, &seed));
    /* R >= 1 is an average degree: (n - 1) * pi * radius^2 = R. */
    double radius = r < 1 ? r : sqrt(r / (3.14159265358979323846 * (double)(n > 1 ? n - 1 : 1)));
    if (radius >= 1) return spec_fail(c, 1, "asks for a radius of 1 or more");
    return family_geometric(n, radius, seed, out);
}

static tcspmm_status build_banded_spec(const spec_ctx *c, tcspmm_csr *out)
{
    int64_t n, bandwidth, per_row;
    uint64_t seed;
    TCSPMM_TRY(arg_int(c, 0, 1, MAX_DIM, &n));
    TCSPMM_TRY(arg_int(c, 1, 0, MAX_DIM, &bandwidth));
    TCSPMM_TRY(arg_int(c, 2, 1, MAX_DIM, &per_row));
    TCSPMM_TRY(arg_seed(c, 3, &seed));
    return family_banded(n, bandwidth, per_row, seed, out);
}

static tcspmm_status build_uniform_spec(const spec_ctx *c, tcspmm_csr *out)
{
    int64_t rows, cols, per_row;
    uint64_t seed;
    TCSPMM_TRY(arg_int(c, 0, 1, MAX_DIM, &rows));
    TCSPMM_TRY(arg_int(c, 1, 1, MAX_DIM, &cols));
    TCSPMM_TRY(arg_int(c, 2, 1, MAX_DIM, &per_row));
    TCSPMM_TRY(arg_seed(c, 3, &seed));
    return family_uniform(rows, cols, per_row, seed, out);
}

static tcspmm_status build_blockdiag_spec(const spec_ctx *c, tcspmm_csr *out)
{
    int64_t k;
    tcspmm_csr A;
    TCSPMM_TRY(arg_int(c, 0, 1, MAX_DIM, &k));
    TCSPMM_TRY(arg_matrix(c, 1, &A));
    tcspmm_status st = family_blockdiag(k, &A, out);
    tcspmm_csr_free(&A);
    return st;
}

static tcspmm_status build_prune_random_spec(const spec_ctx *c, int group_size, int keep,
                                             tcspmm_csr *out)
{
    int64_t rows, cols;
    uint64_t seed;
    TCSPMM_TRY(arg_int(c, 0, 1, MAX_DIM, &rows));
    TCSPMM_TRY(arg_int(c, 1, 1, MAX_DIM, &cols));
    TCSPMM_TRY(arg_seed(c, 2, &seed));
    return family_prune_random(rows, cols, group_size, keep, seed, out);
}

static tcspmm_status build_prune24_spec(const spec_ctx *c, tcspmm_csr *out)
{
    return build_prune_random_spec(c, 4, 2, out);
}

static tcspmm_status build_prune12_spec(const spec_ctx *c, tcspmm_csr *out)
{
    return build_prune_random_spec(c, 2, 1, out);
}

static tcspmm_status build_prune_file_spec(const spec_ctx *c, int group_size, int keep,
                                           tcspmm_csr *out)
{
    tcspmm_csr A;
    TCSPMM_TRY(arg_matrix(c, 0, &A));
    tcspmm_status st = family_prune(&A, group_size, keep, out);
    tcspmm_csr_free(&A);
    return st;
}

static tcspmm_status build_prune24file_spec(const spec_ctx *c, tcspmm_csr *out)
{
    return build_prune_file_spec(c, 4, 2, out);
}

static tcspmm_status build_prune12file_spec(const spec_ctx *c, tcspmm_csr *out)
{
    return build_prune_file_spec(c, 2, 1, out);
}

typedef struct family_entry {
    const char *name;
    const char *params;  /* ':'-separated parameter names */
    int tail;            /* the last parameter takes the rest of the spec */
    tcspmm_status (*build)(const spec_ctx *c, tcspmm_csr *out);
    const char *description;
} family_entry;

static const family_entry families[] = {
    {"stencil2d", "NX:NY:P", 0, build_stencil2d_spec,
     "2D Dirichlet Laplacian, row = x + NX*y; P=5: 4 and -1 (axis neighbours), P=9: 8 and -1"},
    {"stencil3d", "NX:NY:NZ:P", 0, build_stencil3d_spec,
     "3D Dirichlet Laplacian, row = x + NX*(y + NY*z); P=7: 6 and -1, P=27: 26 and -1"},
    {"rmat", "SCALE:EDGE_FACTOR:A:B:C:SEED", 0, build_rmat_spec,
     "R-MAT, 2^SCALE vertices (SCALE <= 30), EDGE_FACTOR*2^SCALE drawn edges, quadrant "
     "probabilities A, B, C, D = 1-A-B-C; duplicates merged, self loops kept"},
    {"geometric", "N:R:SEED", 0, build_geometric_spec,
     "random geometric graph of N points in the unit square; R < 1 is the radius, R >= 1 the "
     "expected average degree; rows in Z order of cells, symmetric values, no self loops"},
    {"banded", "N:BANDWIDTH:NNZ_PER_ROW:SEED", 0, build_banded_spec,
     "N x N, row i holds NNZ_PER_ROW distinct uniform columns of [i-BANDWIDTH, i+BANDWIDTH] "
     "(all of them when the window is smaller)"},
    {"uniform", "ROWS:COLS:NNZ_PER_ROW:SEED", 0, build_uniform_spec,
     "ROWS x COLS, each row holds NNZ_PER_ROW distinct uniform columns (at most COLS)"},
    {"blockdiag", "K:FILE_OR_SPEC", 1, build_blockdiag_spec,
     "K copies of a matrix along the diagonal; FILE_OR_SPEC (the rest of the spec) is a .mtx "
     "file or another spec"},
    {"prune24", "ROWS:COLS:SEED", 0, build_prune24_spec,
     "random dense ROWS x COLS pruned to 2:4: each aligned group of 4 columns of a row keeps "
     "its 2 largest |values| (ties: lower column)"},
    {"prune12", "ROWS:COLS:SEED", 0, build_prune12_spec,
     "random dense ROWS x COLS pruned to 1:2: each aligned pair keeps its larger |value|"},
    {"prune24file", "FILE_OR_SPEC", 1, build_prune24file_spec,
     "the entries of a .mtx file (or spec) pruned to 2:4 by magnitude"},
    {"prune12file", "FILE_OR_SPEC", 1, build_prune12file_spec,
     "the entries of a .mtx file (or spec) pruned to 1:2 by magnitude"},
};

#define NUM_FAMILIES ((int)(sizeof families / sizeof families[0]))

int family_count(void) { return NUM_FAMILIES; }

void family_describe(int index, const char **name, const char **params,
                     const char **description)
{
    const family_entry *f = &families[index];
    *name = f->name;
    *params = f->params;
    *description = f->description;
}

/* The family whose name is the text before the first ':' of spec, or NULL. */
static const family_entry *find_family(const char *spec)
{
    size_t len = strcspn(spec, ":");
    for (int f = 0; f < NUM_FAMILIES; f++)
        if (strlen(families[f].name) == len && strncmp(spec, families[f].name, len) == 0)
            return &families[f];
    return NULL;
}

/* Splits spec, at nesting depth, into c's parameter texts (inside text, a copy of spec). */
static tcspmm_status split_spec(const family_entry *f, const char *spec, int depth, char *text,
                                spec_ctx *c)
{
    memset(c, 0, sizeof *c);
    c->spec = spec;
    c->family = f->name;
    c->depth = depth;
    snprintf(c->name_text, sizeof c->name_text, "%s", f->params);
    int wanted = 0;
    for (char *p = c->name_text; p; wanted++) {
        c->names[wanted] = p;
        p = strchr(p, ':');
        if (p) *p++ = '\0';
    }
    char *rest = strchr(text, ':');
    rest = rest ? rest + 1 : NULL;
    while (rest && c->count < wanted) {
        c->args[c->count++] = rest;
        char *colon = c->count == wanted && f->tail ? NULL : strchr(rest, ':');
        if (colon) *colon = '\0';
        rest = colon ? colon + 1 : NULL;
    }
    if (c->count != wanted || rest)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "gen spec '%s': %s takes %d parameter%s %s:%s (got %s)", spec,
                           f->name, wanted, wanted == 1 ? "" : "s", f->name, f->params,
                           rest ? "more" : "fewer");
    return TCSPMM_SUCCESS;
}

/* family_generate for a spec at nesting depth (1: not inside another spec). */
static tcspmm_status generate_at(const char *spec, int depth, tcspmm_csr *out)
{
    memset(out, 0, sizeof *out);
    if (!spec) return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "gen spec is NULL");
    if (strncmp(spec, "gen:", 4) == 0) spec += 4;
    const family_entry *f = find_family(spec);
    if (!f) {
        char names[512] = "";
        for (int k = 0; k < NUM_FAMILIES; k++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                     k ? ", " : "", families[k].name);
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "gen spec '%s': unknown family '%.*s' (known: %s)", spec,
                           (int)strcspn(spec, ":"), spec, names);
    }
    size_t len = strlen(spec) + 1;
    char *text = malloc(len);
    if (text) memcpy(text, spec, len);
    if (!text) return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "gen spec: out of memory");
    spec_ctx c;
    tcspmm_status st = split_spec(f, spec, depth, text, &c);
    if (st == TCSPMM_SUCCESS) st = f->build(&c, out);
    free(text);
    if (st != TCSPMM_SUCCESS && strstr(tcspmm_last_error(), "gen spec '") == NULL) {
        char cause[1024]; /* a family's or the reader's message: say which spec */
        snprintf(cause, sizeof cause, "%s", tcspmm_last_error());
        tcspmm_fail(st, "gen spec '%s': %s", spec, cause);
    }
    return st;
}

tcspmm_status family_generate(const char *spec, tcspmm_csr *out)
{
    return generate_at(spec, 1, out);
}

/* Owns the nesting bound: an inner spec one level deeper than c's, at most MAX_NESTING. */
static tcspmm_status arg_matrix(const spec_ctx *c, int index, tcspmm_csr *out)
{
    const char *text = c->args[index];
    if (!*text) return spec_fail(c, index, "is empty");
    if (strncmp(text, "gen:", 4) != 0 && !find_family(text)) return tcspmm_read_mtx(text, out);
    if (c->depth >= MAX_NESTING) /* the spec shortened: the message must fit */
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "gen spec '%.60s%s': %s nests specs more than %d levels deep",
                           c->spec, strlen(c->spec) > 60 ? "..." : "", c->family, MAX_NESTING);
    return generate_at(text, c->depth + 1, out);
}
