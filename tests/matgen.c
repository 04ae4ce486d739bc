/* matgen.c: the test matrix builders of matgen.h. Each builder is a rule
 * (is (i, j) an entry?) evaluated over the whole index space in row order, so
 * columns come out sorted and unique. */
#include "matgen.h"

#include <stdlib.h>

#include "error.h"
#include "format/csr.h"
#include "harness.h"
#include "rng.h"

typedef struct rule {
    double density;                 /* background probability of an entry */
    int64_t r0, r1, c0, c1;         /* rows [r0,r1) x cols [c0,c1) all present */
    int64_t heavy_r0, heavy_r1;     /* rows with heavy_density instead */
    double heavy_density;
    int empty_rows, empty_cols;     /* the patterns of matgen_empty_rows/_cols */
    int64_t gap_r0, gap_r1;         /* rows [gap_r0, gap_r1) empty */
} rule;

static int is_entry(const rule *r, int64_t i, int64_t j, int64_t cols, uint64_t *rng)
{
    double u = rng_uniform(rng); /* drawn for every (i, j): the stream never depends on the rule */
    if (r->empty_rows && (i % 3 == 1 || (i >= 16 && i < 32))) return 0;
    if (r->empty_cols && (j % 5 == 2 || j >= cols - 7)) return 0;
    if (i >= r->gap_r0 && i < r->gap_r1) return 0;
    if (i >= r->r0 && i < r->r1 && j >= r->c0 && j < r->c1) return 1;
    double d = (i >= r->heavy_r0 && i < r->heavy_r1) ? r->heavy_density : r->density;
    return u < d;
}

static tcspmm_status build(int64_t rows, int64_t cols, const rule *r, uint64_t seed,
                           tcspmm_csr *out)
{
    if (rows < 0 || cols < 0 || cols > INT32_MAX)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "matgen: bad size %lld x %lld",
                           (long long)rows, (long long)cols);
    uint64_t rng = seed;
    int64_t nnz = 0; /* first pass counts, second fills: same stream */
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++) nnz += is_entry(r, i, j, cols, &rng);
    TCSPMM_TRY(csr_alloc(rows, cols, nnz, out));
    rng = seed;
    uint64_t value_rng = seed ^ 0x5DEECE66Dull;
    int64_t k = 0;
    for (int64_t i = 0; i < rows; i++) {
        for (int64_t j = 0; j < cols; j++) {
            if (!is_entry(r, i, j, cols, &rng)) continue;
            out->col_idx[k] = (int32_t)j;
            out->values[k] = (float)(2.0 * rng_uniform(&value_rng) - 1.0);
            k++;
        }
        out->row_ptr[i + 1] = k;
    }
    return TCSPMM_SUCCESS;
}

static rule background(double density)
{
    rule r = {0};
    r.density = density;
    return r;
}

tcspmm_status matgen_random(int64_t rows, int64_t cols, double density, uint64_t seed,
                            tcspmm_csr *out)
{
    rule r = background(density);
    return build(rows, cols, &r, seed, out);
}

tcspmm_status matgen_empty_rows(int64_t rows, int64_t cols, double density, uint64_t seed,
                                tcspmm_csr *out)
{
    rule r = background(density);
    r.empty_rows = 1;
    return build(rows, cols, &r, seed, out);
}

tcspmm_status matgen_empty_cols(int64_t rows, int64_t cols, double density, uint64_t seed,
                                tcspmm_csr *out)
{
    rule r = background(density);
    r.empty_cols = 1;
    return build(rows, cols, &r, seed, out);
}

tcspmm_status matgen_dense_row(int64_t rows, int64_t cols, int64_t dense_row, double density,
                               uint64_t seed, tcspmm_csr *out)
{
    rule r = background(density);
    r.r0 = dense_row;
    r.r1 = dense_row + 1;
    r.c1 = cols;
    return build(rows, cols, &r, seed, out);
}

tcspmm_status matgen_long_row_gap(int64_t rows, int64_t cols, double density, uint64_t seed,
                                  tcspmm_csr *out)
{
    rule r = background(density);
    r.r0 = 5;
    r.r1 = 6;
    r.c1 = cols;
    r.gap_r0 = 6;
    r.gap_r1 = rows - 5;
    return build(rows, cols, &r, seed, out);
}

tcspmm_status matgen_dense_block(int64_t rows, int64_t cols, int64_t r0, int64_t c0,
                                 double density, uint64_t seed, tcspmm_csr *out)
{
    rule r = background(density);
    r.r0 = r0;
    r.r1 = r0 + 16;
    r.c0 = c0;
    r.c1 = c0 + 16;
    return build(rows, cols, &r, seed, out);
}

tcspmm_status matgen_single(int64_t rows, int64_t cols, int64_t i, int64_t j, uint64_t seed,
                            tcspmm_csr *out)
{
    rule r = background(0.0);
    r.r0 = i;
    r.r1 = i + 1;
    r.c0 = j;
    r.c1 = j + 1;
    return build(rows, cols, &r, seed, out);
}

tcspmm_status matgen_heavy_panel(int64_t rows, int64_t cols, double density, int64_t heavy_row0,
                                 int64_t heavy_rows, double heavy_density, uint64_t seed,
                                 tcspmm_csr *out)
{
    rule r = background(density);
    r.heavy_r0 = heavy_row0;
    r.heavy_r1 = heavy_row0 + heavy_rows;
    r.heavy_density = heavy_density;
    return build(rows, cols, &r, seed, out);
}

enum { NUM_CASES = 14 };

int matgen_num_cases(void) { return NUM_CASES; }

tcspmm_status matgen_case(int index, uint64_t seed, tcspmm_csr *out, const char **name)
{
    switch (index) {
    case 0: *name = "random 100x77 density 0.1";
        return matgen_random(100, 77, 0.1, seed, out);
    case 1: *name = "empty rows and an empty panel 70x50";
        return matgen_empty_rows(70, 50, 0.2, seed, out);
    case 2: *name = "empty columns 48x90";
        return matgen_empty_cols(48, 90, 0.15, seed, out);
    case 3: *name = "dense row 5 of 37x200";
        return matgen_dense_row(37, 200, 5, 0.02, seed, out);
    case 4: *name = "dense 16x16 block at (16,32) of 64x64";
        return matgen_dense_block(64, 64, 16, 32, 0.05, seed, out);
    case 5: *name = "dense 16x16 block at (5,9) of 41x43";
        return matgen_dense_block(41, 43, 5, 9, 0.03, seed, out);
    case 6: *name = "single non-zero at (37,50) of 45x61";
        return matgen_single(45, 61, 37, 50, seed, out);
    case 7: *name = "wide 20x300";
        return matgen_random(20, 300, 0.05, seed, out);
    case 8: *name = "tall 300x20";
        return matgen_random(300, 20, 0.1, seed, out);
    case 9: *name = "odd sizes 33x35";
        return matgen_random(33, 35, 0.3, seed, out);
    case 10: *name = "odd sizes 17x3";
        return matgen_random(17, 3, 0.5, seed, out);
    case 11: *name = "heavy panel rows 32..47 of 160x600";
        return matgen_heavy_panel(160, 600, 0.01, 32, 16, 0.6, seed, out);
    case 12: *name = "no entries 19x23";
        return matgen_random(19, 23, 0.0, seed, out);
    case 13: *name = "1x1";
        return matgen_single(1, 1, 0, 0, seed, out);
    default:
        *name = "";
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "matgen_case: no case %d (0..%d)",
                           index, NUM_CASES - 1);
    }
}

void matgen_each_case(uint64_t seed, void (*check)(const tcspmm_csr *A, const char *name))
{
    for (int c = 0; c < matgen_num_cases(); c++) {
        tcspmm_csr A;
        const char *name = "";
        const tcspmm_status st = matgen_case(c, seed + (uint64_t)c, &A, &name);
        CHECK_OK(st);
        if (st) continue; /* A was not made */
        check(&A, name);
        tcspmm_csr_free(&A);
    }
}
