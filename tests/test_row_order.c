/* test_row_order.c: the clustered row order (row_order.h):
 *  - a permutation of the rows on every matgen edge case, TM 16 and 32;
 *  - the same order for 1 and several threads, also across several chunks;
 *  - its active-column counts equal a count made here from the orders;
 *  - on a 2D 5-point stencil whose rows were shuffled at random, the
 *    clustered panels have a higher alpha than the grid's own row-by-row
 *    order;
 *  - csr_permute_rows moves whole rows;
 *  - the order is the one of the greedy rule of row_order.h, followed here
 *    the slow way (every pick looks at every row), on random matrices;
 *  - a column held by exactly 1,024 rows (COLUMN_CAP) still gathers its
 *    rows; one held by 1,025 is left out of the candidates;
 *  - a 64-row matrix of 2^31 - 1 columns is ordered with little memory
 *    (the column index grows with the entries, not the columns);
 *  - a matrix of 2^31 - 1 rows keeps its natural order.
 * (HRPB built on clustered rows is checked against A by test_hrpb.) */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "format/csr.h"
#include "format/row_order.h"
#include "harness.h"
#include "matgen.h"
#include "rng.h"

static uint64_t next_seed = 5000;

static int is_permutation(const int64_t *order, int64_t n)
{
    unsigned char *seen = calloc((size_t)n + 1, 1);
    int ok = 1;
    for (int64_t i = 0; i < n && ok; i++) {
        ok = order[i] >= 0 && order[i] < n && !seen[order[i]];
        if (ok) seen[order[i]] = 1;
    }
    free(seen);
    return ok;
}

static int cmp_int32(const void *a, const void *b)
{
    const int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Active columns summed over panels of tm rows of A's rows in order
 * (NULL: A's order): each panel's columns sorted, the distinct ones counted
 * (no array over all columns: A may have 2^31 - 1 of them). */
static int64_t active_columns(const tcspmm_csr *A, const int64_t *order, int tm)
{
    int32_t *cols = malloc(((size_t)A->nnz + 1) * sizeof(int32_t));
    int64_t total = 0;
    for (int64_t p = 0; p < A->rows; p += tm) {
        int64_t n = 0;
        for (int64_t i = p; i < p + tm && i < A->rows; i++) {
            const int64_t r = order ? order[i] : i;
            for (int64_t e = A->row_ptr[r]; e < A->row_ptr[r + 1]; e++) cols[n++] = A->col_idx[e];
        }
        qsort(cols, (size_t)n, sizeof(int32_t), cmp_int32);
        for (int64_t j = 0; j < n; j++) total += j == 0 || cols[j] != cols[j - 1];
    }
    free(cols);
    return total;
}

/* Orders A with 1 and 5 threads; checks both and returns the first. */
static int64_t *checked_order(const tcspmm_csr *A, int tm, const char *what)
{
    int64_t *one = malloc((size_t)(A->rows + 1) * sizeof(int64_t));
    int64_t *many = malloc((size_t)(A->rows + 1) * sizeof(int64_t));
    row_order_stats s1, s5;
    CHECK_OK(row_order_cluster(A, tm, 1, one, &s1));
    CHECK_OK(row_order_cluster(A, tm, 5, many, &s5));
    int perm = is_permutation(one, A->rows);
    int same = !memcmp(one, many, (size_t)A->rows * sizeof(int64_t)) &&
               s1.natural_cols == s5.natural_cols && s1.clustered_cols == s5.clustered_cols;
    int counted = s1.natural_cols == active_columns(A, NULL, tm) &&
                  s1.clustered_cols == active_columns(A, one, tm);
    CHECK(perm);
    CHECK(same);
    CHECK(counted);
    if (!perm || !same || !counted)
        fprintf(stderr, "  %s TM=%d: permutation %d, same for 1 and 5 threads %d, counts %d\n",
                what, tm, perm, same, counted);
    free(many);
    return one;
}

static void check_both_heights(const tcspmm_csr *A, const char *name)
{
    for (int tm = 16; tm <= 32; tm += 16) free(checked_order(A, tm, name));
}

static void test_edge_cases(void)
{
    matgen_each_case(next_seed, check_both_heights);
    next_seed += (uint64_t)matgen_num_cases();
}

/* A g x g grid's 5-point stencil with its rows in a random order. */
static void shuffled_stencil(int64_t g, tcspmm_csr *A)
{
    const int64_t n = g * g;
    int64_t *perm = malloc((size_t)n * sizeof(int64_t));
    for (int64_t i = 0; i < n; i++) perm[i] = i;
    uint64_t r = next_seed++;
    for (int64_t i = n - 1; i > 0; i--) {
        int64_t j = (int64_t)(rng_next(&r) % (uint64_t)(i + 1)), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    CHECK_OK(csr_alloc(n, n, 5 * n, A));
    int64_t e = 0;
    for (int64_t i = 0; i < n; i++) {
        const int64_t p = perm[i], x = p % g, y = p / g;
        const int64_t cand[5] = {y > 0 ? p - g : -1, x > 0 ? p - 1 : -1, p,
                                 x < g - 1 ? p + 1 : -1, y < g - 1 ? p + g : -1};
        for (int k = 0; k < 5; k++)
            if (cand[k] >= 0) {
                A->col_idx[e] = (int32_t)cand[k];
                A->values[e++] = (float)(2.0 * rng_uniform(&r) - 1.0);
            }
        A->row_ptr[i + 1] = e;
    }
    A->nnz = e;
    free(perm);
}

static void test_shuffled_stencil(void)
{
    tcspmm_csr A;
    shuffled_stencil(384, &A); /* 147456 rows: two chunks */
    CHECK_OK(tcspmm_csr_validate(&A));
    int64_t *order = checked_order(&A, 16, "shuffled stencil");
    const int64_t natural = active_columns(&A, NULL, 16), clustered = active_columns(&A, order, 16);
    printf("  shuffled 384^2 stencil: alpha %.3f in its order, %.3f clustered\n",
           (double)A.nnz / (16.0 * (double)natural), (double)A.nnz / (16.0 * (double)clustered));
    /* The grid's own row-by-row order: 16 rows of one grid line hold 80
     * entries in 50 columns (16 + 16 + 16 + 2), alpha 0.1. */
    CHECK((double)A.nnz / (16.0 * (double)clustered) > 0.1);

    tcspmm_csr P;
    CHECK_OK(csr_permute_rows(&A, order, &P));
    int rows_moved = P.nnz == A.nnz;
    for (int64_t i = 0; i < A.rows && rows_moved; i++) {
        const int64_t from = A.row_ptr[order[i]], len = A.row_ptr[order[i] + 1] - from;
        rows_moved = P.row_ptr[i + 1] - P.row_ptr[i] == len &&
                     !memcmp(P.col_idx + P.row_ptr[i], A.col_idx + from, (size_t)len * 4) &&
                     !memcmp(P.values + P.row_ptr[i], A.values + from, (size_t)len * 4);
    }
    CHECK(rows_moved);
    tcspmm_csr_free(&P);
    free(order);
    tcspmm_csr_free(&A);
}

/* The greedy rule of row_order.h the slow way, for A of one chunk whose
 * columns hold at most 1024 rows (so none is left out of the candidates):
 * each panel starts from the first unplaced row, then adds the unplaced row
 * sharing a column with the panel of the best score, the lower on ties,
 * else the first unplaced row. */
static void slow_order(const tcspmm_csr *A, int tm, int64_t *order)
{
    unsigned char *placed = calloc((size_t)A->rows + 1, 1);
    unsigned char *in_panel = calloc((size_t)A->cols + 1, 1);
    for (int64_t pos = 0; pos < A->rows; pos++) {
        if (pos % tm == 0) memset(in_panel, 0, (size_t)A->cols);
        int64_t best = -1, best_score = 0;
        for (int64_t q = 0; q < A->rows && pos % tm; q++) {
            int64_t cnt = 0;
            for (int64_t e = A->row_ptr[q]; e < A->row_ptr[q + 1]; e++)
                cnt += in_panel[A->col_idx[e]];
            const int64_t score = 3 * cnt - (A->row_ptr[q + 1] - A->row_ptr[q]);
            if (!placed[q] && cnt > 0 && (best < 0 || score > best_score)) {
                best = q;
                best_score = score;
            }
        }
        for (int64_t q = 0; best < 0; q++)
            if (!placed[q]) best = q;
        placed[best] = 1;
        for (int64_t e = A->row_ptr[best]; e < A->row_ptr[best + 1]; e++)
            in_panel[A->col_idx[e]] = 1;
        order[pos] = best;
    }
    free(placed);
    free(in_panel);
}

/* Random matrices of up to 600 rows, at densities from a few entries per
 * row (many ties of score) to dense: the order is the slow rule's. */
static void test_greedy_rule(void)
{
    int same = 1;
    for (int k = 0; k < 60 && same; k++) {
        uint64_t r = next_seed++;
        const int64_t rows = 1 + (int64_t)(rng_next(&r) % 600);
        const int64_t cols = 1 + (int64_t)(rng_next(&r) % 900);
        const double density =
            k % 3 == 0 ? 0.3 * rng_uniform(&r) : 6.0 * rng_uniform(&r) / (double)cols;
        const int tm = k % 2 ? 32 : 16;
        tcspmm_csr A;
        CHECK_OK(matgen_random(rows, cols, density, next_seed++, &A));
        int64_t *fast = checked_order(&A, tm, "random");
        int64_t *slow = malloc((size_t)rows * sizeof(int64_t));
        slow_order(&A, tm, slow);
        same = !memcmp(fast, slow, (size_t)rows * sizeof(int64_t));
        if (!same)
            fprintf(stderr, "  %lld x %lld, density %g, TM=%d: not the greedy rule's order\n",
                    (long long)rows, (long long)cols, density, tm);
        free(fast);
        free(slow);
        tcspmm_csr_free(&A);
    }
    CHECK(same);
}

/* 2h rows: row i holds column i + 1, and the even ones column 0 too, so
 * column 0 is held by h rows and no other column is shared. Columns held by
 * more than COLUMN_CAP = 1,024 rows are left out of the candidates
 * (row_order.c): at h = 1,024 the order is the greedy rule's, panel 0
 * gathering rows 0, 2, ..., 30; at h = 1,025 no row shares a candidate
 * column and the order is the natural one. */
static void test_column_cap(void)
{
    for (int64_t h = 1024; h <= 1025; h++) {
        tcspmm_csr A;
        CHECK_OK(csr_alloc(2 * h, 2 * h + 1, 3 * h, &A));
        int64_t e = 0;
        for (int64_t i = 0; i < 2 * h; i++) {
            if (i % 2 == 0) A.col_idx[e++] = 0;
            A.col_idx[e++] = (int32_t)(i + 1);
            A.row_ptr[i + 1] = e;
        }
        rng_fill(A.values, (size_t)e, next_seed++);
        CHECK_OK(tcspmm_csr_validate(&A));
        int64_t *order = checked_order(&A, 16, "one column of h rows");
        int64_t *expect = malloc((size_t)A.rows * sizeof(int64_t));
        if (h == 1024) slow_order(&A, 16, expect);
        else
            for (int64_t i = 0; i < A.rows; i++) expect[i] = i;
        int gathered = 1;
        for (int64_t i = 0; i < 16; i++) gathered &= order[i] == (h == 1024 ? 2 * i : i);
        CHECK(gathered);
        CHECK(!memcmp(order, expect, (size_t)A.rows * sizeof(int64_t)));
        free(expect);
        free(order);
        tcspmm_csr_free(&A);
    }
}

static long max_rss_kb(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

/* 64 rows, one entry each, in 2^31 - 1 columns: row i in column
 * (i % 4 + 1) * 2^29 - 2, so rows 4 apart share a column. Clustered,
 * panel j holds rows j, j + 4, ..., j + 60 (one column each, against four
 * per natural panel), and the order takes little memory (the column index
 * over all columns would take 32 GiB). */
static void test_wide_hypersparse(void)
{
    tcspmm_csr A;
    CHECK_OK(csr_alloc(64, INT32_MAX, 64, &A));
    for (int64_t i = 0; i < 64; i++) {
        A.row_ptr[i + 1] = i + 1;
        A.col_idx[i] = (int32_t)((i % 4 + 1) * ((int64_t)1 << 29) - 2);
        A.values[i] = 1.0f;
    }
    CHECK_OK(tcspmm_csr_validate(&A));
    const long rss0 = max_rss_kb();
    int64_t *order = checked_order(&A, 16, "64 x (2^31 - 1)");
    CHECK(max_rss_kb() - rss0 < 64 * 1024);
    int grouped = 1;
    for (int64_t i = 0; i < 64; i++) grouped &= order[i] == i / 16 + 4 * (i % 16);
    CHECK(grouped);
    CHECK(active_columns(&A, NULL, 16) == 16 && active_columns(&A, order, 16) == 4);
    free(order);
    tcspmm_csr_free(&A);
}

/* 2^31 - 1 rows (only the sizes are read: no arrays behind them): the
 * natural order, no clustering and no error. */
static void test_rows_beyond_order(void)
{
    tcspmm_csr A = {0};
    A.rows = INT32_MAX;
    A.cols = 1;
    int64_t *order = (int64_t *)&A; /* must come back NULL */
    row_order_stats s = {1, 1};
    CHECK_OK(row_order_cluster_new(&A, 16, 0, &order, &s));
    CHECK(order == NULL && s.natural_cols == 0 && s.clustered_cols == 0);
}

static void test_errors(void)
{
    tcspmm_csr A;
    CHECK_OK(matgen_random(40, 40, 0.1, next_seed++, &A));
    int64_t order[40];
    row_order_stats s;
    CHECK(row_order_cluster(&A, 8, 0, order, &s) == TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(row_order_cluster(&A, 16, 0, NULL, &s) == TCSPMM_ERROR_INVALID_ARGUMENT);
    tcspmm_csr_free(&A);
}

int main(void)
{
    test_wide_hypersparse();
    test_rows_beyond_order();
    test_edge_cases();
    test_greedy_rule();
    test_column_cap();
    test_shuffled_stencil();
    test_errors();
    return tests_finish();
}
