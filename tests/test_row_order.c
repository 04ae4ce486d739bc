/* test_row_order.c: the clustered row order (row_order.h):
 *  - a permutation of the rows on every matgen edge case, TM 16 and 32;
 *  - the same order for 1 and several threads, also across several chunks;
 *  - its active-column counts equal a count made here from the orders;
 *  - on a 2D 5-point stencil whose rows were shuffled at random, the
 *    clustered panels have a higher alpha than the grid's own row-by-row
 *    order;
 *  - csr_permute_rows moves whole rows. (HRPB built on clustered rows is
 *    checked against A by test_hrpb.) */
#include <stdlib.h>
#include <string.h>

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

/* Active columns summed over panels of tm rows of A's rows in order
 * (NULL: A's order), counted with a column stamp. */
static int64_t active_columns(const tcspmm_csr *A, const int64_t *order, int tm)
{
    int64_t *stamp = malloc(((size_t)A->cols + 1) * sizeof(int64_t)), total = 0;
    for (int64_t c = 0; c < A->cols; c++) stamp[c] = -1;
    for (int64_t i = 0; i < A->rows; i++) {
        const int64_t r = order ? order[i] : i, panel = i / tm;
        for (int64_t e = A->row_ptr[r]; e < A->row_ptr[r + 1]; e++)
            if (stamp[A->col_idx[e]] != panel) {
                stamp[A->col_idx[e]] = panel;
                total++;
            }
    }
    free(stamp);
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
    test_edge_cases();
    test_shuffled_stencil();
    test_errors();
    return tests_finish();
}
