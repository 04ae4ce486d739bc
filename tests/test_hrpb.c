/* test_hrpb.c: the HRPB builder, decoder, CPU executor and metrics.
 *  - the exact bytes of hand-built blocks (TM 16 and 32) against hrpb.h;
 *  - HRPB -> CSR round trips (hrpb_to_csr also checks every layout rule) on
 *    the matgen edge cases and the bundled data/ matrices, TM 16 and 32, in
 *    A's row order and in the clustered one (row map back to A's rows);
 *  - hrpb_spmm_cpu against the float64 reference for several N, both
 *    layouts, padded leading dimensions, alpha/beta, poisoned C;
 *  - the same bytes with 1 and several threads;
 *  - the synergy metrics on matrices whose values are known by hand;
 *  - argument errors. */
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "format/hrpb.h"
#include "format/row_order.h"
#include "harness.h"
#include "matgen.h"
#include "reference.h"
#include "rng.h"

static uint64_t next_seed = 1000;

static int hrpb_equal(const hrpb *a, const hrpb *b)
{
    return a->panel_rows == b->panel_rows && a->rows == b->rows && a->cols == b->cols &&
           a->nnz == b->nnz && a->num_panels == b->num_panels &&
           a->num_blocks == b->num_blocks && a->num_bricks == b->num_bricks &&
           !memcmp(a->block_ptr, b->block_ptr, ((size_t)a->num_panels + 1) * sizeof(int64_t)) &&
           !memcmp(a->active_cols, b->active_cols, (size_t)a->num_blocks * HRPB_TK * sizeof(int32_t)) &&
           !memcmp(a->size_ptr, b->size_ptr, ((size_t)a->num_blocks + 1) * sizeof(int64_t)) &&
           !memcmp(a->packed, b->packed, (size_t)a->size_ptr[a->num_blocks]);
}

/* HRPB of A in its own row order, or (clustered) of its rows in the
 * clustered order of row_order.h, with the row map back to A's rows. */
static void build_in_order(const tcspmm_csr *A, int tm, int clustered, hrpb *h)
{
    CHECK_OK(clustered ? hrpb_build_clustered(A, tm, 0, h) : hrpb_build(A, tm, 0, h));
}

static void check_round_trip(const tcspmm_csr *A, int tm, int clustered, const char *what)
{
    hrpb h;
    tcspmm_csr back;
    build_in_order(A, tm, clustered, &h);
    CHECK_OK(hrpb_to_csr(&h, &back));
    int same = tests_csr_equal(A, &back);
    CHECK(same);
    if (!same)
        fprintf(stderr, "  round trip differs: %s, TM=%d, %s rows\n", what, tm,
                clustered ? "clustered" : "natural");
    CHECK(h.num_panels == (A->rows + tm - 1) / tm);
    CHECK((uintptr_t)h.packed % HRPB_ALIGN == 0);
    tcspmm_csr_free(&back);
    hrpb_free(&h);
}

/* Same bytes whatever the thread count. */
static void check_threads(const tcspmm_csr *A, int tm)
{
    hrpb one, many;
    CHECK_OK(hrpb_build(A, tm, 1, &one));
    CHECK_OK(hrpb_build(A, tm, 7, &many));
    CHECK(hrpb_equal(&one, &many));
    hrpb_free(&one);
    hrpb_free(&many);
}

/* hrpb_spmm_cpu vs reference_spmm. Both accumulate in float64, in different
 * orders, so they differ by about 1e-16 relative before C is rounded to
 * float; the rounding of C itself costs at most 2^-24 (6e-8) relative per
 * element, hence in Frobenius norm. A tolerance of 1e-7 bounds both, and
 * any decoding mistake (a wrong, missing or misplaced value) is orders of
 * magnitude larger. Padding between leading dimensions must stay as it was. */
static void check_spmm(const hrpb *h, const tcspmm_csr *A, int64_t n, tcspmm_layout layout,
                       float alpha, float beta, const char *what)
{
    int row_major = layout == TCSPMM_LAYOUT_ROW_MAJOR;
    int64_t ldb = (row_major ? n : A->cols) + 3, ldc = (row_major ? n : A->rows) + 2;
    int64_t b_len = (row_major ? A->cols : n) * ldb, c_len = (row_major ? A->rows : n) * ldc;
    float *B = malloc((size_t)(b_len + 1) * sizeof(float));
    float *C = malloc((size_t)(c_len + 1) * sizeof(float));
    float *C0 = malloc((size_t)(c_len + 1) * sizeof(float));
    double *ref = malloc((size_t)(A->rows * n + 1) * sizeof(double));
    rng_fill(B, (size_t)b_len, next_seed++);
    if (beta != 0.0f) rng_fill(C0, (size_t)c_len, next_seed++);
    else
        for (int64_t i = 0; i < c_len; i++) C0[i] = NAN;
    memcpy(C, C0, (size_t)c_len * sizeof(float));
    CHECK_OK(reference_spmm(A, n, alpha, B, ldb, beta, C0, ldc, layout, ref));
    CHECK_OK(hrpb_spmm_cpu(h, n, alpha, B, ldb, beta, C, ldc, layout));
    compare_result r = compare_to_reference(C, ldc, layout, ref, A->rows, n, 1e-7);
    CHECK(r.pass);
    if (!r.pass)
        fprintf(stderr, "  spmm %s TM=%d n=%lld %s alpha=%g beta=%g: rel_err %.3g, %lld non-finite\n",
                what, h->panel_rows, (long long)n, row_major ? "row" : "col", alpha, beta,
                r.rel_err, (long long)r.nonfinite);
    int64_t lead = row_major ? n : A->rows, touched_padding = 0;
    for (int64_t i = 0; i < c_len; i++)
        if (i % ldc >= lead && memcmp(&C[i], &C0[i], sizeof(float))) touched_padding++;
    CHECK(touched_padding == 0);
    free(B);
    free(C);
    free(C0);
    free(ref);
}

/* Round trips, thread counts and products with N in ns[0..count). */
static void check_all(const tcspmm_csr *A, const char *what, const int64_t *ns, int count)
{
    CHECK_OK(tcspmm_csr_validate(A));
    for (int tm = 16; tm <= 32; tm += 16) {
        check_threads(A, tm);
        for (int clustered = 0; clustered < 2; clustered++) {
            check_round_trip(A, tm, clustered, what);
            hrpb h;
            build_in_order(A, tm, clustered, &h);
            for (int i = 0; i < count; i++) {
                for (int layout = 0; layout < 2; layout++) {
                    check_spmm(&h, A, ns[i], (tcspmm_layout)layout, 1.0f, 0.0f, what);
                    check_spmm(&h, A, ns[i], (tcspmm_layout)layout, -0.75f, 0.5f, what);
                }
            }
            hrpb_free(&h);
        }
    }
}

/* Reads the packed block b of h. */
static const uint8_t *block_bytes_of(const hrpb *h, int64_t b) { return h->packed + h->size_ptr[b]; }

static uint64_t pattern_of(const uint8_t *blk, int j)
{
    uint64_t p;
    memcpy(&p, blk + 16 + 8 * j, 8);
    return p;
}

/* A CSR from (row, col) pairs listed row by row, with random values. */
static void csr_from_pairs(int64_t rows, int64_t cols, const int *pairs, int count,
                           tcspmm_csr *A)
{
    A->rows = rows;
    A->cols = cols;
    A->nnz = count;
    A->row_ptr = calloc((size_t)rows + 1, sizeof(int64_t));
    A->col_idx = malloc((size_t)count * sizeof(int32_t));
    A->values = malloc((size_t)count * sizeof(float));
    rng_fill(A->values, (size_t)count, next_seed++);
    for (int k = 0; k < count; k++) {
        A->row_ptr[pairs[2 * k] + 1]++;
        A->col_idx[k] = pairs[2 * k + 1];
    }
    for (int64_t i = 0; i < rows; i++) A->row_ptr[i + 1] += A->row_ptr[i];
}

/* The exact bytes of blocks worked out by hand from hrpb.h. */
static void test_layout_by_hand(void)
{
    /* TM = 16: active columns 0, 2, 5, 15 -> slots 0..3, one brick. */
    const int pairs16[] = {0, 0, 1, 5, 8, 2, 15, 15};
    tcspmm_csr A;
    csr_from_pairs(16, 16, pairs16, 4, &A);
    CHECK_OK(tcspmm_csr_validate(&A));
    hrpb h;
    CHECK_OK(hrpb_build(&A, 16, 0, &h));
    CHECK(h.num_panels == 1 && h.num_blocks == 1 && h.num_bricks == 1);
    CHECK(h.block_ptr[0] == 0 && h.block_ptr[1] == 1);
    const int32_t act16[16] = {0, 2, 5, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
    CHECK(!memcmp(h.active_cols, act16, sizeof act16));
    CHECK(h.size_ptr[0] == 0 && h.size_ptr[1] == 48); /* 16 + 8 + 4*4 = 40 -> 48 */
    const uint8_t *blk = block_bytes_of(&h, 0);
    const uint8_t head16[16] = {0, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    CHECK(!memcmp(blk, head16, 16));
    /* (0,0): bit 0; (1,5): row 1 slot 2, bit 6; (8,2): row 8 slot 1, bit 33;
     * (15,15): row 15 slot 3, bit 63. Values follow in bit order. */
    CHECK(pattern_of(blk, 0) == (1ull | 1ull << 6 | 1ull << 33 | 1ull << 63));
    const float *v = (const float *)(blk + 24);
    CHECK(v[0] == A.values[0] && v[1] == A.values[1] && v[2] == A.values[2] && v[3] == A.values[3]);
    const uint8_t zeros[8] = {0};
    CHECK(!memcmp(blk + 40, zeros, 8));
    hrpb_free(&h);
    tcspmm_csr_free(&A);

    /* TM = 32, 40 x 40: panel 0 has active columns 7, 30 (slots 0, 1) with
     * bricks in brick rows 0 and 1 of brick column 0; panel 1 (rows 32..39,
     * partial) has column 1. */
    const int pairs32[] = {2, 7, 20, 7, 21, 30, 33, 1};
    csr_from_pairs(40, 40, pairs32, 4, &A);
    CHECK_OK(tcspmm_csr_validate(&A));
    CHECK_OK(hrpb_build(&A, 32, 0, &h));
    CHECK(h.num_panels == 2 && h.num_blocks == 2 && h.num_bricks == 3);
    CHECK(h.block_ptr[1] == 1 && h.block_ptr[2] == 2);
    CHECK(h.active_cols[0] == 7 && h.active_cols[1] == 30 && h.active_cols[2] == -1);
    CHECK(h.active_cols[16] == 1 && h.active_cols[17] == -1 && h.active_cols[31] == -1);
    /* block 0: 16 + 2*8 + 3*4 = 44 -> 48; block 1: 16 + 8 + 4 = 28 -> 32 */
    CHECK(h.size_ptr[0] == 0 && h.size_ptr[1] == 48 && h.size_ptr[2] == 80);
    blk = block_bytes_of(&h, 0);
    const uint8_t head32[16] = {0, 2, 2, 2, 2, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    CHECK(!memcmp(blk, head32, 16));
    CHECK(pattern_of(blk, 0) == 1ull << 8);                  /* (2,7): row 2 slot 0 */
    CHECK(pattern_of(blk, 1) == (1ull << 16 | 1ull << 21)); /* (20,7), (21,30) */
    v = (const float *)(blk + 32);
    CHECK(v[0] == A.values[0] && v[1] == A.values[1] && v[2] == A.values[2]);
    blk = block_bytes_of(&h, 1);
    const uint8_t head32b[16] = {0, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    CHECK(!memcmp(blk, head32b, 16));
    CHECK(pattern_of(blk, 0) == 1ull << 4); /* (33,1): row 1 of the panel, slot 0 */
    CHECK(((const float *)(blk + 24))[0] == A.values[3]);
    hrpb_free(&h);
    tcspmm_csr_free(&A);
}

static const int64_t small_ns[] = {1, 3, 8, 17}, big_ns[] = {1, 5};

static void check_small_ns(const tcspmm_csr *A, const char *name)
{
    check_all(A, name, small_ns, 4);
}

static void test_edge_cases(void)
{
    matgen_each_case(next_seed, check_small_ns);
    next_seed += (uint64_t)matgen_num_cases();
    /* No rows at all, and rows but no columns. */
    tcspmm_csr A;
    CHECK_OK(matgen_random(0, 5, 0.5, next_seed++, &A));
    check_round_trip(&A, 16, 1, "0 x 5");
    tcspmm_csr_free(&A);
    CHECK_OK(matgen_random(21, 0, 0.5, next_seed++, &A));
    check_round_trip(&A, 32, 1, "21 x 0");
    tcspmm_csr_free(&A);
    /* A larger matrix with one heavy panel: many blocks per panel, and
     * enough panels for the threads to share. */
    CHECK_OK(matgen_heavy_panel(1000, 1500, 0.004, 480, 32, 0.5, next_seed++, &A));
    check_all(&A, "heavy panel 1000x1500", big_ns, 2);
    tcspmm_csr_free(&A);
}

static void test_bundled(void)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", tests_data("."));
    DIR *d = opendir(dir);
    int found = 0;
    for (struct dirent *ent; d && (ent = readdir(d));) {
        if (!strstr(ent->d_name, ".mtx")) continue;
        tcspmm_csr A;
        CHECK_OK(tests_read(tests_data(ent->d_name), 121, &A));
        printf("  %s: %lld x %lld, %lld entries\n", ent->d_name, (long long)A.rows,
               (long long)A.cols, (long long)A.nnz);
        check_all(&A, ent->d_name, big_ns, 2);
        tcspmm_csr_free(&A);
        found++;
    }
    if (d) closedir(d);
    printf("  %d bundled matrices in %s\n", found, dir);
    CHECK(found >= 5); /* data/ holds five: a wrong TCSPMM_DATA must not pass unnoticed */
}

static void test_metrics(void)
{
    tcspmm_info info;
    hrpb h;
    tcspmm_csr A;
    /* One fully dense 16x16 block in a 64x64 matrix: 4 full bricks. */
    CHECK_OK(matgen_dense_block(64, 64, 16, 32, 0.0, next_seed++, &A));
    CHECK_OK(hrpb_build(&A, 16, 0, &h));
    memset(&info, 0, sizeof info);
    hrpb_metrics(&h, &info);
    CHECK(info.panel_rows == 16 && info.panels == 4 && info.blocks == 1 && info.bricks == 4);
    CHECK(info.alpha == 1.0 && info.beta == 1.0 && info.brick_density == 1.0);
    CHECK(info.oi_shared == 512.0 && !strcmp(info.synergy, "high"));
    /* panels 8 + blocks 64 + size_ptr 16 + packed 16 + 4*8 + 256*4 */
    CHECK(info.hrpb_bytes == 40 + 64 + 16 + 1072);
    CHECK(info.csr_bytes == 65 * 8 + 256 * 8);
    CHECK(info.blocks_per_panel_min == 0 && info.blocks_per_panel_median == 0 &&
          info.blocks_per_panel_max == 1);
    hrpb_free(&h);
    tcspmm_csr_free(&A);

    /* Dense 32x16 with TM = 32: 8 bricks, 2 per brick column. */
    CHECK_OK(matgen_random(32, 16, 1.0, next_seed++, &A));
    CHECK_OK(hrpb_build(&A, 32, 0, &h));
    hrpb_metrics(&h, &info);
    CHECK(info.bricks == 8 && info.alpha == 1.0 && info.beta == 2.0 && info.oi_shared == 1024.0);
    hrpb_free(&h);
    tcspmm_csr_free(&A);

    /* 3 dense rows of 16: each active brick column holds 3 -> alpha 3/16. */
    CHECK_OK(matgen_random(3, 16, 1.0, next_seed++, &A));
    CHECK_OK(hrpb_build(&A, 16, 0, &h));
    hrpb_metrics(&h, &info);
    CHECK(info.alpha == 3.0 / 16.0 && !strcmp(info.synergy, "medium"));
    CHECK(info.brick_density == 12.0 / 64.0);
    hrpb_free(&h);
    tcspmm_csr_free(&A);

    /* 2 dense rows: alpha exactly 2/16, the least that is medium. */
    CHECK_OK(matgen_random(2, 16, 1.0, next_seed++, &A));
    CHECK_OK(hrpb_build(&A, 16, 0, &h));
    hrpb_metrics(&h, &info);
    CHECK(info.alpha == 2.0 / 16.0 && !strcmp(info.synergy, "medium"));
    hrpb_free(&h);
    tcspmm_csr_free(&A);

    /* Two panels of 0 and 3 blocks: the median is the lower one, 0. */
    CHECK_OK(matgen_dense_row(32, 48, 16, 0.0, next_seed++, &A));
    CHECK_OK(hrpb_build(&A, 16, 0, &h));
    hrpb_metrics(&h, &info);
    CHECK(info.panels == 2 && info.blocks_per_panel_max == 3 && info.blocks_per_panel_median == 0);
    hrpb_free(&h);
    tcspmm_csr_free(&A);

    /* A single entry: alpha 1/16, low; an empty matrix: no synergy class. */
    CHECK_OK(matgen_single(45, 61, 37, 50, next_seed++, &A));
    CHECK_OK(hrpb_build(&A, 16, 0, &h));
    hrpb_metrics(&h, &info);
    CHECK(info.alpha == 1.0 / 16.0 && !strcmp(info.synergy, "low"));
    CHECK(info.brick_density == 1.0 / 64.0 && info.oi_shared == 32.0);
    hrpb_free(&h);
    tcspmm_csr_free(&A);
    CHECK_OK(matgen_random(19, 23, 0.0, next_seed++, &A));
    CHECK_OK(hrpb_build(&A, 16, 0, &h));
    hrpb_metrics(&h, &info);
    CHECK(info.blocks == 0 && !strcmp(info.synergy, "") && info.alpha == 0.0);
    hrpb_free(&h);
    tcspmm_csr_free(&A);

    /* Blocks per panel against a sort, on uneven panels. */
    CHECK_OK(matgen_heavy_panel(16 * 37, 900, 0.01, 160, 16, 0.7, next_seed++, &A));
    CHECK_OK(hrpb_build(&A, 16, 0, &h));
    hrpb_metrics(&h, &info);
    int64_t counts[37];
    for (int p = 0; p < 37; p++) counts[p] = h.block_ptr[p + 1] - h.block_ptr[p];
    for (int i = 1; i < 37; i++) /* insertion sort */
        for (int j = i; j > 0 && counts[j - 1] > counts[j]; j--) {
            int64_t t = counts[j];
            counts[j] = counts[j - 1];
            counts[j - 1] = t;
        }
    CHECK(info.blocks_per_panel_min == counts[0] && info.blocks_per_panel_max == counts[36]);
    CHECK(info.blocks_per_panel_median == counts[18]);
    CHECK(counts[36] > counts[18]); /* the heavy panel is heavier */
    hrpb_free(&h);
    tcspmm_csr_free(&A);
}

static void test_errors(void)
{
    tcspmm_csr A;
    hrpb h;
    CHECK_OK(matgen_random(20, 20, 0.2, next_seed++, &A));
    CHECK(hrpb_build(&A, 8, 0, &h) == TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(tcspmm_last_error(), "panel_rows") != NULL);
    CHECK(hrpb_build(&A, 0, 0, &h) == TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(hrpb_build(&A, 64, 0, &h) == TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(hrpb_build(&A, 16, -1, &h) == TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(hrpb_build(NULL, 16, 0, &h) == TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(hrpb_build(&A, 16, 0, NULL) == TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK_OK(hrpb_build(&A, 16, 0, &h));
    float B[20 * 4], C[20 * 4];
    rng_fill(B, 80, next_seed++);
    CHECK(hrpb_spmm_cpu(&h, 4, 1.0f, B, 3, 0.0f, C, 4, TCSPMM_LAYOUT_ROW_MAJOR) ==
          TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(hrpb_spmm_cpu(&h, 4, 1.0f, B, 20, 0.0f, C, 19, TCSPMM_LAYOUT_COL_MAJOR) ==
          TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(hrpb_spmm_cpu(&h, -1, 1.0f, B, 4, 0.0f, C, 4, TCSPMM_LAYOUT_ROW_MAJOR) ==
          TCSPMM_ERROR_INVALID_ARGUMENT);
    /* A corrupted block is caught by the decoder's layout checks. */
    if (h.num_blocks > 0) {
        h.packed[h.size_ptr[0] + 13] = 1; /* a header byte that must be 0 */
        tcspmm_csr back;
        CHECK(hrpb_to_csr(&h, &back) == TCSPMM_ERROR_INVALID_MATRIX);
        h.packed[h.size_ptr[0] + 13] = 0;
        const int32_t first = h.active_cols[0];
        h.active_cols[0] = (int32_t)A.cols; /* out of range */
        CHECK(hrpb_to_csr(&h, &back) == TCSPMM_ERROR_INVALID_MATRIX);
        h.active_cols[0] = first;
        if (h.active_cols[1] != -1) { /* an active column repeated */
            const int32_t second = h.active_cols[1];
            h.active_cols[1] = first;
            CHECK(hrpb_to_csr(&h, &back) == TCSPMM_ERROR_INVALID_MATRIX);
            h.active_cols[1] = second;
        }
        CHECK_OK(hrpb_to_csr(&h, &back)); /* and the block, mended, decodes */
        tcspmm_csr_free(&back);
    }
    hrpb_free(&h);
    tcspmm_csr_free(&A);
}

int main(void)
{
    test_layout_by_hand();
    test_edge_cases();
    test_metrics();
    test_errors();
    test_bundled();
    return tests_finish();
}
