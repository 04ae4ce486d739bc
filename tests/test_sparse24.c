/* test_sparse24.c: CPU tests of the 2:4 / 1:2 format: detection on hand-made
 * and generated matrices (by value and by every entry), compression of
 * hand-made groups with every index pair, the metadata word order,
 * rounding and each precision's overflow limit, decompression round trips,
 * and, counting every entry, the slot of each entry that the device's
 * placement of new values assumes. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "format/csr.h"
#include "format/sparse24.h"
#include "harness.h"
#include "sparse24_gen.h"

/* A rows x cols CSR of entries (row, col, value) given in row, column order. */
typedef struct entry { int64_t row, col; float value; } entry;

static tcspmm_status csr_from_entries(int64_t rows, int64_t cols, const entry *e, int64_t count,
                                      tcspmm_csr *out)
{
    TCSPMM_TRY(csr_alloc(rows, cols, count, out));
    for (int64_t k = 0; k < count; k++) {
        out->row_ptr[e[k].row + 1]++;
        out->col_idx[k] = (int32_t)e[k].col;
        out->values[k] = e[k].value;
    }
    for (int64_t i = 0; i < rows; i++) out->row_ptr[i + 1] += out->row_ptr[i];
    return TCSPMM_SUCCESS;
}

static sp24_structure detect_entries(int64_t cols, const entry *e, int64_t count, int every_entry)
{
    tcspmm_csr A;
    sp24_structure s = SP24_NONE;
    CHECK_OK(csr_from_entries(1, cols, e, count, &A));
    s = sparse24_detect(&A, every_entry);
    tcspmm_csr_free(&A);
    return s;
}

static void test_detect_hand_made(void)
{
    entry one_per_pair[] = {{0, 0, 1.f}, {0, 2, 2.f}, {0, 5, 3.f}, {0, 7, 4.f}};
    entry two_in_pair[] = {{0, 0, 1.f}, {0, 1, 2.f}, {0, 6, 3.f}};
    entry three_in_group[] = {{0, 4, 1.f}, {0, 5, 2.f}, {0, 7, 3.f}};
    entry explicit_zero[] = {{0, 0, 1.f}, {0, 1, 0.f}, {0, 2, 3.f}};
    entry straddling[] = {{0, 2, 1.f}, {0, 3, 1.f}, {0, 4, 1.f}, {0, 5, 1.f}};
    entry zero_in_pair[] = {{0, 0, 1.f}, {0, 1, 0.f}, {0, 6, 3.f}};
    for (int every = 0; every < 2; every++) {
        CHECK(detect_entries(8, one_per_pair, 4, every) == SP24_1TO2);
        CHECK(detect_entries(8, two_in_pair, 3, every) == SP24_2TO4);
        CHECK(detect_entries(8, three_in_group, 3, every) == SP24_NONE);
        CHECK(detect_entries(8, straddling, 4, every) == SP24_2TO4); /* groups are aligned */
        CHECK(detect_entries(8, NULL, 0, every) == SP24_1TO2);
    }
    CHECK(detect_entries(8, explicit_zero, 3, 0) == SP24_1TO2);
    CHECK(detect_entries(8, explicit_zero, 3, 1) == SP24_NONE); /* the zero counts */
    CHECK(detect_entries(8, zero_in_pair, 3, 0) == SP24_1TO2);
    CHECK(detect_entries(8, zero_in_pair, 3, 1) == SP24_2TO4);
    CHECK(strcmp(sparse24_structure_name(SP24_1TO2), "1:2") == 0);
    CHECK(strcmp(sparse24_structure_name(SP24_2TO4), "2:4") == 0);
    CHECK(strcmp(sparse24_structure_name(SP24_NONE), "none") == 0);
}

static void test_detect_generated(void)
{
    tcspmm_csr A;
    CHECK_OK(sp24_gen(203, 141, SP24_2TO4, 0.0, 11, &A));
    CHECK(strcmp(sparse24_structure_name(sparse24_detect(&A, 0)), "2:4") == 0);
    /* one more entry in row 5's group 0 (which holds 2, drop = 0) makes it none */
    int64_t k5 = A.row_ptr[5], extra_col = 0;
    CHECK(A.row_ptr[6] - k5 > 2 && A.col_idx[k5 + 1] < 4 && A.col_idx[k5 + 2] >= 4);
    while (extra_col == A.col_idx[k5] || extra_col == A.col_idx[k5 + 1]) extra_col++;
    tcspmm_csr B;
    CHECK_OK(csr_alloc(A.rows, A.cols, A.nnz + 1, &B));
    int inserted = 0;
    for (int64_t i = 0, out = 0; i < A.rows; i++) {
        for (int64_t k = A.row_ptr[i]; k < A.row_ptr[i + 1]; k++) {
            if (i == 5 && !inserted && A.col_idx[k] > extra_col) {
                inserted = 1;
                B.col_idx[out] = (int32_t)extra_col;
                B.values[out++] = 0.5f;
            }
            B.col_idx[out] = A.col_idx[k];
            B.values[out++] = A.values[k];
        }
        B.row_ptr[i + 1] = out;
    }
    CHECK(B.row_ptr[B.rows] == B.nnz && tcspmm_csr_validate(&B) == TCSPMM_SUCCESS);
    CHECK(sparse24_detect(&B, 0) == SP24_NONE);
    tcspmm_csr_free(&B);
    tcspmm_csr_free(&A);

    CHECK_OK(sp24_gen(77, 130, SP24_1TO2, 0.3, 12, &A));
    CHECK(sparse24_detect(&A, 0) == SP24_1TO2);
    tcspmm_csr_free(&A);
}

/* The code and the two stored values of unit c of row `row`. */
static uint32_t code_at(const sp24 *s, int64_t row, int64_t c)
{
    int64_t word;
    int shift;
    sp24_code_position(s, row, c, &word, &shift);
    return (s->meta[word] >> shift) & 0xFu;
}

/* Every index pair of a 16-bit group, every single position, and an empty
 * group, in a 1 x 64 bf16 matrix (one k-tile): groups 0..10. */
static void test_compress_pairs_16bit(tcspmm_precision precision)
{
    static const int pairs[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
    static const uint32_t pair_codes[6] = {0x4, 0x8, 0xC, 0x9, 0xD, 0xE};
    static const uint32_t single_codes[4] = {0x4, 0x4, 0x8, 0xC};
    entry e[16];
    int count = 0;
    for (int p = 0; p < 6; p++)
        for (int j = 0; j < 2; j++)
            e[count++] = (entry){0, 4 * p + pairs[p][j], (float)(p + 1) * (j ? -0.5f : 0.25f)};
    for (int i = 0; i < 4; i++) e[count++] = (entry){0, 4 * (6 + i) + i, 1.5f + (float)i};
    tcspmm_csr A;
    sp24 s;
    CHECK_OK(csr_from_entries(1, 64, e, count, &A));
    CHECK_OK(sp24_compress(&A, precision, 1, 0, &s));
    CHECK(s.rows_pad == SP24_ROW_TILE && s.cols_pad == 64 && s.elem_bytes == 2);
    for (int p = 0; p < 6; p++) CHECK(code_at(&s, 0, p) == pair_codes[p]);
    for (int i = 0; i < 4; i++) CHECK(code_at(&s, 0, 6 + i) == single_codes[i]);
    CHECK(code_at(&s, 0, 10) == SP24_CODE_EMPTY);
    CHECK(code_at(&s, 5, 3) == SP24_CODE_EMPTY); /* a padding row */
    /* stored values: slot 0 and slot 1 of each unit, decoded as bf16/fp16 */
    float dense[64];
    CHECK_OK(sp24_decompress(&s, dense, 64));
    for (int k = 0; k < count; k++) CHECK(dense[e[k].col] == e[k].value);
    const uint16_t *v = (const uint16_t *)s.values;
    CHECK(v[2 * 6] != 0 && v[2 * 6 + 1] == 0); /* single at 0: value in slot 0 */
    CHECK(v[2 * 7] == 0 && v[2 * 7 + 1] != 0); /* single at 1: zero filler at index 0 */
    CHECK(v[2 * 10] == 0 && v[2 * 10 + 1] == 0);
    /* the blog's example: [0, 2.1, -8.9, 0] gives 0b1001 */
    entry blog[2] = {{0, 1, 2.1f}, {0, 2, -8.9f}};
    tcspmm_csr_free(&A);
    sp24_free(&s);
    CHECK_OK(csr_from_entries(1, 4, blog, 2, &A));
    CHECK_OK(sp24_compress(&A, precision, 1, 0, &s));
    CHECK(code_at(&s, 0, 0) == 0x9);
    tcspmm_csr_free(&A);
    sp24_free(&s);
}

static void test_compress_pairs_tf32(void)
{
    entry e[3] = {{0, 0, 0.75f}, {0, 3, -2.0f}, {0, 7, 3.0f}};
    tcspmm_csr A;
    sp24 s;
    CHECK_OK(csr_from_entries(1, 32, e, 3, &A));
    CHECK_OK(sp24_compress(&A, TCSPMM_PRECISION_TF32, 1, 0, &s));
    CHECK(s.cols_pad == 32 && s.elem_bytes == 4);
    CHECK(code_at(&s, 0, 0) == 0x4); /* first of the pair */
    CHECK(code_at(&s, 0, 1) == 0xE); /* second of the pair */
    CHECK(code_at(&s, 0, 2) == 0x4); /* empty */
    CHECK(code_at(&s, 0, 3) == 0xE);
    const float *v = (const float *)s.values;
    CHECK(v[0] == 0.75f && v[1] == -2.0f && v[2] == 0.0f && v[3] == 3.0f);
    tcspmm_csr_free(&A);
    sp24_free(&s);
}

/* Word positions worked out by hand from sparse24.h's layout. */
static void test_metadata_order(void)
{
    /* bf16, 32 x 128 (2 k-tiles): row 9, column 54 = group 13 (k-step 1,
     * half 1, code 1 of its half) -> lane 1*4 + 2 + 1 = 7, upper half (row
     * 9 = g + 8): word 7 holds codes 0x4 except 0x8 at bits 20..23. */
    entry e[2] = {{9, 54, 1.0f}, {19, 75, 2.0f}};
    tcspmm_csr A;
    sp24 s;
    CHECK_OK(csr_from_entries(32, 128, e, 2, &A));
    CHECK_OK(sp24_compress(&A, TCSPMM_PRECISION_BF16, 2, 0, &s));
    CHECK(s.meta[7] == 0x44844444u);
    /* row 19 (tile 1, g = 3, lower half), column 75 = group 18 (k-tile 1,
     * k-step 0, half 0, code 2), single at index 3 -> (0, 3) = 0xC:
     * word (1 * 2 + 1) * 32 + 12 = 108, bits 8..11. */
    CHECK(s.meta[108] == 0x44444C44u);
    int64_t other = 0;
    for (int64_t w = 0; w < s.rows_pad / 16 * 2 * 32; w++)
        other += (w != 7 && w != 108 && s.meta[w] != 0x44444444u);
    CHECK(other == 0);
    tcspmm_csr_free(&A);
    sp24_free(&s);

    /* tf32, 16 x 64: row 2, column 23 = pair 11 (k-step 1, half 0, code 3),
     * the second of its pair -> 0xE at bits 12..15 of lane 2*4 + 2 = 10. */
    entry t[1] = {{2, 23, 1.0f}};
    CHECK_OK(csr_from_entries(16, 64, t, 1, &A));
    CHECK_OK(sp24_compress(&A, TCSPMM_PRECISION_TF32, 2, 0, &s));
    CHECK(s.meta[10] == 0x4444E444u);
    tcspmm_csr_free(&A);
    sp24_free(&s);
}

static void test_rounding(void)
{
    CHECK(sp24_round(1.00390625f, TCSPMM_PRECISION_BF16) == 1.0f);       /* tie to even */
    CHECK(sp24_round(1.01171875f, TCSPMM_PRECISION_BF16) == 1.015625f);  /* tie to even */
    CHECK(sp24_round(1.0f + ldexpf(1.0f, -11), TCSPMM_PRECISION_FP16) == 1.0f);
    CHECK(sp24_round(1.0f + 3 * ldexpf(1.0f, -11), TCSPMM_PRECISION_FP16) ==
          1.0f + ldexpf(1.0f, -9));
    CHECK(isinf(sp24_round(65520.0f, TCSPMM_PRECISION_FP16)));
    CHECK(sp24_round(65519.0f, TCSPMM_PRECISION_FP16) == 65504.0f);
    CHECK(sp24_round(ldexpf(1.0f, -25), TCSPMM_PRECISION_FP16) == 0.0f);
    CHECK(sp24_round(3 * ldexpf(1.0f, -25), TCSPMM_PRECISION_FP16) == ldexpf(1.0f, -23));
    CHECK(sp24_round(-1.0f - ldexpf(1.0f, -11), TCSPMM_PRECISION_TF32) ==
          -1.0f - ldexpf(1.0f, -10)); /* tie away from zero */
    CHECK(sp24_round(0.1f, TCSPMM_PRECISION_FP32) == 0.1f);
}

/* Decompression gives back the CSR's matrix with every value rounded. */
static void check_round_trip(const tcspmm_csr *A, tcspmm_precision precision)
{
    sp24 s;
    CHECK_OK(sp24_compress(A, precision, 0, 0, &s));
    int64_t ld = A->cols + 3;
    float *dense = malloc((size_t)(A->rows * ld + 1) * sizeof(float));
    float *want = calloc((size_t)(A->rows * ld + 1), sizeof(float));
    CHECK_OK(sp24_decompress(&s, dense, ld));
    for (int64_t i = 0; i < A->rows; i++)
        for (int64_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)
            want[i * ld + A->col_idx[k]] = sp24_round(A->values[k], precision);
    int64_t bad = 0;
    for (int64_t i = 0; i < A->rows; i++)
        bad += memcmp(dense + i * ld, want + i * ld, (size_t)A->cols * sizeof(float)) != 0;
    CHECK(bad == 0);
    free(dense);
    free(want);
    sp24_free(&s);
}

static void test_round_trips(void)
{
    static const int64_t sizes[][2] = {{1, 1}, {5, 3}, {17, 37}, {130, 65}, {203, 256}, {64, 1}};
    for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; t++) {
        tcspmm_csr A;
        CHECK_OK(sp24_gen(sizes[t][0], sizes[t][1], SP24_2TO4, 0.25, 100 + t, &A));
        check_round_trip(&A, TCSPMM_PRECISION_BF16);
        check_round_trip(&A, TCSPMM_PRECISION_FP16);
        tcspmm_csr_free(&A);
        CHECK_OK(sp24_gen(sizes[t][0], sizes[t][1], SP24_1TO2, 0.25, 200 + t, &A));
        check_round_trip(&A, TCSPMM_PRECISION_TF32);
        check_round_trip(&A, TCSPMM_PRECISION_BF16); /* a 1:2 matrix is also 2:4 */
        tcspmm_csr_free(&A);
    }
    /* values exact in bf16 come back exactly as given */
    entry e[3] = {{0, 0, 0.375f}, {1, 6, -12.5f}, {2, 9, 1024.0f}};
    tcspmm_csr A;
    sp24 s;
    float dense[3 * 10];
    CHECK_OK(csr_from_entries(3, 10, e, 3, &A));
    CHECK_OK(sp24_compress(&A, TCSPMM_PRECISION_BF16, 1, 0, &s));
    CHECK_OK(sp24_decompress(&s, dense, 10));
    CHECK(dense[0] == 0.375f && dense[16] == -12.5f && dense[29] == 1024.0f && dense[1] == 0.0f);
    tcspmm_csr_free(&A);
    sp24_free(&s);
}

static void test_compress_rejects(void)
{
    tcspmm_csr A;
    sp24 s;
    CHECK_OK(sp24_gen(40, 40, SP24_2TO4, 0.0, 7, &A));
    CHECK(sp24_compress(&A, TCSPMM_PRECISION_TF32, 0, 0, &s) == TCSPMM_ERROR_UNSUPPORTED);
    CHECK(strstr(tcspmm_last_error(), "1:2") != NULL);
    CHECK(sp24_compress(&A, TCSPMM_PRECISION_FP32, 0, 0, &s) == TCSPMM_ERROR_UNSUPPORTED);
    tcspmm_csr_free(&A);
    entry three[3] = {{0, 4, 1.f}, {0, 5, 2.f}, {0, 6, 3.f}};
    CHECK_OK(csr_from_entries(1, 8, three, 3, &A));
    CHECK(sp24_compress(&A, TCSPMM_PRECISION_BF16, 0, 0, &s) == TCSPMM_ERROR_UNSUPPORTED);
    CHECK(strstr(tcspmm_last_error(), "columns 4..7") != NULL);
    tcspmm_csr_free(&A);
    entry big[1] = {{0, 0, 1e6f}};
    CHECK_OK(csr_from_entries(1, 4, big, 1, &A));
    CHECK(sp24_compress(&A, TCSPMM_PRECISION_FP16, 0, 0, &s) == TCSPMM_ERROR_UNSUPPORTED);
    CHECK(strstr(tcspmm_last_error(), "overflows fp16") != NULL);
    CHECK_OK(sp24_compress(&A, TCSPMM_PRECISION_BF16, 0, 0, &s));
    sp24_free(&s);
    A.values[0] = -FLT_MAX; /* rounds past the largest bf16 and tf32 */
    CHECK(sp24_compress(&A, TCSPMM_PRECISION_BF16, 0, 0, &s) == TCSPMM_ERROR_UNSUPPORTED);
    CHECK(strstr(tcspmm_last_error(), "overflows bf16") != NULL);
    CHECK(sp24_compress(&A, TCSPMM_PRECISION_TF32, 0, 0, &s) == TCSPMM_ERROR_UNSUPPORTED);
    CHECK(strstr(tcspmm_last_error(), "overflows tf32") != NULL);
    tcspmm_csr_free(&A);
    /* 2^60 rows of 64 columns: 2^67 bytes of tf32 values. Refused before A's
     * arrays are read, so a header alone stands for the matrix. */
    tcspmm_csr huge = {(int64_t)1 << 60, 64, 0, NULL, NULL, NULL};
    CHECK(sp24_compress(&huge, TCSPMM_PRECISION_TF32, 0, 0, &s) == TCSPMM_ERROR_OVERFLOW);
    CHECK(strstr(tcspmm_last_error(), "overflows memory sizes") != NULL && s.values == NULL);
}

/* sp24_overflow_limit is where each rounding starts to give infinity. */
static void test_overflow_limits(void)
{
    const tcspmm_precision p[3] = {TCSPMM_PRECISION_BF16, TCSPMM_PRECISION_FP16,
                                   TCSPMM_PRECISION_TF32};
    for (int i = 0; i < 3; i++) {
        float limit = sp24_overflow_limit(p[i]), below = nextafterf(limit, 0.0f);
        CHECK(isinf(sp24_round(limit, p[i])) && isinf(sp24_round(-limit, p[i])));
        CHECK(isfinite(sp24_round(below, p[i])) && isfinite(sp24_round(-below, p[i])));
    }
    CHECK(isinf(sp24_overflow_limit(TCSPMM_PRECISION_FP32)));
}

/* Counting every entry, an explicit zero keeps its slot: in a group holding
 * (1: 0.0, 3: 5.0) the code is indices (1, 3), not (0, 3) as by value. */
static void test_compress_every_entry_hand_made(void)
{
    entry e[2] = {{0, 1, 0.f}, {0, 3, 5.f}};
    tcspmm_csr A;
    CHECK_OK(csr_from_entries(1, 4, e, 2, &A));
    for (int every = 0; every < 2; every++) {
        sp24 s;
        int64_t word;
        int shift;
        CHECK_OK(sp24_compress(&A, TCSPMM_PRECISION_FP16, 1, every, &s));
        sp24_code_position(&s, 0, 0, &word, &shift);
        uint32_t code = (s.meta[word] >> shift) & 0xFu;
        CHECK(code == (every ? 0xDu : 0xCu));
        CHECK(sp24_half_value(((uint16_t *)s.values)[1], TCSPMM_PRECISION_FP16) == 5.0f);
        sp24_free(&s);
    }
    tcspmm_csr_free(&A);
}

/* Counting every entry, on generated matrices with explicit zeros: each
 * entry's value lands in the slot sp24_entry_slot names (where the device
 * puts new values), so sp24_entry_values gives the values back, and the
 * metadata does not depend on the values. Values are markers exact in the
 * precision. */
static void check_entry_slots(sp24_structure structure, tcspmm_precision p)
{
    tcspmm_csr A;
    CHECK_OK(sp24_gen(70, 90, structure, 0.3, 31, &A));
    for (int64_t k = 0; k < A.nnz; k += 4) A.values[k] = 0.0f;
    sp24 by_zeros, s;
    CHECK_OK(sp24_compress(&A, p, 1, 1, &by_zeros));
    for (int64_t k = 0; k < A.nnz; k++) A.values[k] = (float)(k % 1000 + 1);
    CHECK_OK(sp24_compress(&A, p, 1, 1, &s));
    size_t value_bytes, meta_bytes;
    sp24_sizes(&s, &value_bytes, &meta_bytes);
    CHECK(memcmp(by_zeros.meta, s.meta, meta_bytes) == 0);
    float *back = malloc((size_t)A.nnz * sizeof(float));
    sp24_entry_values(&s, &A, back);
    CHECK(memcmp(back, A.values, (size_t)A.nnz * sizeof(float)) == 0);
    /* the slot rule itself, on hand-made rows: (1, 3); (2); (0); (1, 2) + (5) */
    CHECK(sp24_entry_slot(1, -1, 3, 2) == 0 && sp24_entry_slot(3, 1, -1, 2) == 1);
    CHECK(sp24_entry_slot(2, -1, -1, 2) == 1 && sp24_entry_slot(0, -1, -1, 2) == 0);
    CHECK(sp24_entry_slot(2, 1, 5, 2) == 1 && sp24_entry_slot(5, 2, -1, 2) == 3);
    CHECK(sp24_entry_slot(5, 2, -1, 4) == 2);
    free(back);
    sp24_free(&by_zeros);
    sp24_free(&s);
    tcspmm_csr_free(&A);
}

int main(void)
{
    test_detect_hand_made();
    test_detect_generated();
    test_compress_pairs_16bit(TCSPMM_PRECISION_BF16);
    test_compress_pairs_16bit(TCSPMM_PRECISION_FP16);
    test_compress_pairs_tf32();
    test_metadata_order();
    test_rounding();
    test_round_trips();
    test_compress_rejects();
    test_overflow_limits();
    test_compress_every_entry_hand_made();
    check_entry_slots(SP24_2TO4, TCSPMM_PRECISION_FP16);
    check_entry_slots(SP24_1TO2, TCSPMM_PRECISION_TF32);
    return tests_finish();
}
