/* sparse24_compress.c: the compressed 2:4 / 1:2 form of a CSR matrix (values,
 * ordered metadata reordered for the warps, sparse24.h), its exact
 * decompression (dense, or entry by entry for a compressed pattern), and
 * the roundings to bf16, fp16 and tf32. */
#include "sparse24.h"

#include "csr.h"

#include "../error.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

static uint32_t float_bits(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static float bits_float(uint32_t u)
{
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

static uint16_t float_to_bf16(float x)
{
    uint32_t u = float_bits(x);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) return (uint16_t)((u >> 16) | 0x40u); /* NaN */
    u += 0x7FFFu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

static uint16_t float_to_fp16(float x)
{
    uint32_t u = float_bits(x), sign = (u >> 16) & 0x8000u, ax = u & 0x7FFFFFFFu;
    if (ax >= 0x7F800000u) return (uint16_t)(sign | (ax > 0x7F800000u ? 0x7E00u : 0x7C00u));
    if (ax >= 0x477FF000u) return (uint16_t)(sign | 0x7C00u); /* 65520 and up: inf */
    if (ax < 0x38800000u) /* below 2^-14: subnormal, in units of 2^-24 */
        return (uint16_t)(sign | (uint32_t)lrintf(fabsf(x) * 16777216.0f));
    uint32_t mant = ax & 0x7FFFFFu, h = (((ax >> 23) - 112u) << 10) | (mant >> 13);
    uint32_t rest = mant & 0x1FFFu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) h++;
    return (uint16_t)(sign | h);
}

static float fp16_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
    if (e == 0) return (sign ? -1.0f : 1.0f) * ldexpf((float)m, -24);
    if (e == 31) return bits_float(sign | 0x7F800000u | (m << 13));
    return bits_float(sign | ((e + 112u) << 23) | (m << 13));
}

static float tf32_round(float x)
{
    uint32_t u = float_bits(x);
    if ((u & 0x7F800000u) == 0x7F800000u) return x;
    return bits_float((u + 0x1000u) & 0xFFFFE000u);
}

float sp24_round(float x, tcspmm_precision precision)
{
    switch (precision) {
    case TCSPMM_PRECISION_BF16: return bits_float((uint32_t)float_to_bf16(x) << 16);
    case TCSPMM_PRECISION_FP16: return fp16_to_float(float_to_fp16(x));
    case TCSPMM_PRECISION_TF32: return tf32_round(x);
    case TCSPMM_PRECISION_FP32: break;
    }
    return x;
}

float sp24_overflow_limit(tcspmm_precision precision)
{
    switch (precision) {
    case TCSPMM_PRECISION_BF16: return bits_float(0x7F7F8000u); /* a tie, odd below: rounds up */
    case TCSPMM_PRECISION_FP16: return 65520.0f;                 /* halfway past 65504 */
    case TCSPMM_PRECISION_TF32: return bits_float(0x7F7FF000u); /* ties away: rounds up */
    case TCSPMM_PRECISION_FP32: break;
    }
    return INFINITY;
}

/* sp24_half_bits, which the compression inlines */
static uint16_t half_bits(float x, tcspmm_precision precision)
{
    return precision == TCSPMM_PRECISION_BF16 ? float_to_bf16(x) : float_to_fp16(x);
}

uint16_t sp24_half_bits(float x, tcspmm_precision precision) { return half_bits(x, precision); }

float sp24_half_value(uint16_t bits, tcspmm_precision precision)
{
    return precision == TCSPMM_PRECISION_BF16 ? bits_float((uint32_t)bits << 16)
                                              : fp16_to_float(bits);
}

int sp24_ktile_cols(tcspmm_precision precision)
{
    return precision == TCSPMM_PRECISION_TF32 ? SP24_KTILE_BYTES / 2 : SP24_KTILE_BYTES;
}

static int64_t round_up(int64_t x, int64_t m) { return (x + m - 1) / m * m; }

void sp24_sizes(const sp24 *s, size_t *value_bytes, size_t *meta_bytes)
{
    *value_bytes = (size_t)(s->rows_pad * (s->cols_pad / 2) * s->elem_bytes);
    *meta_bytes = (size_t)(s->rows_pad / 16 * (s->cols_pad / sp24_ktile_cols(s->precision)) *
                           SP24_META_WORDS) * sizeof(uint32_t);
}

void sp24_code_position(const sp24 *s, int64_t row, int64_t c, int64_t *word, int *shift)
{
    int64_t k_tiles = s->cols_pad / sp24_ktile_cols(s->precision);
    int64_t tile = row / 16, in_tile = row % 16, kt = c / 16, in_kt = c % 16;
    int64_t step = in_kt / 8, half = (in_kt % 8) / 4, lane = (in_tile % 8) * 4 + step * 2 + half;
    *word = (tile * k_tiles + kt) * SP24_META_WORDS + lane;
    *shift = (int)((in_tile / 8) * 16 + (in_kt % 4) * 4);
}

static float load_value(const sp24 *s, int64_t index)
{
    if (s->elem_bytes == 4) return ((const float *)s->values)[index];
    return sp24_half_value(((const uint16_t *)s->values)[index], s->precision);
}

/* The code of a group of four columns whose entries are the set bits of its
 * 4-bit mask: the ordered index pair (lower index in bits 0-1), a group of
 * fewer than two entries filled with the lowest unused index; 0xFF: three
 * or four entries. */
static const uint8_t GROUP_CODE[16] = {4, 4, 4, 4, 8, 8, 9, 0xFF, 12, 12, 13, 0xFF, 14, 0xFF, 0xFF, 0xFF};

/* The code of unit u of a row (taken[j]: column j holds an entry), its
 * values stored in the 4 bytes at v (one tf32 value or two 16-bit ones);
 * 0xFF when the unit holds too many entries. A unit is a group of four
 * columns (bf16, fp16) or a pair (tf32). */
static uint32_t compress_unit(const sp24 *s, int64_t u, const float *dense, const uint8_t *taken,
                              void *v)
{
    if (s->elem_bytes == 4) {
        const int hi = taken[2 * u + 1];
        if (taken[2 * u] && hi) return 0xFF;
        *(float *)v = tf32_round(dense[2 * u + hi]);
        return hi ? SP24_CODE_TF32_HI : SP24_CODE_EMPTY;
    }
    const uint8_t *t = taken + 4 * u;
    const uint32_t code = GROUP_CODE[t[0] | t[1] << 1 | t[2] << 2 | t[3] << 3];
    if (code == 0xFF) return code;
    ((uint16_t *)v)[0] = half_bits(dense[4 * u + (code & 3u)], s->precision);
    ((uint16_t *)v)[1] = half_bits(dense[4 * u + (code >> 2)], s->precision);
    return code;
}

/* Compresses dense row `row` (taken as above) into its values and the
 * metadata words of its tile, four units (one 16-bit code field of a
 * word) at a time; returns the first unit holding too many entries, or -1. */
static int64_t compress_row(sp24 *s, int64_t row, const float *dense, const uint8_t *taken)
{
    const int64_t units = s->cols_pad * s->elem_bytes / 8; /* a multiple of 16 */
    char *v = (char *)s->values + (size_t)(row * (s->cols_pad / 2) * s->elem_bytes);
    for (int64_t c = 0; c < units; c += 4) {
        uint32_t codes = 0;
        for (int q = 0; q < 4; q++) { /* 4 bytes of values per unit: one tf32, two 16-bit */
            const uint32_t code = compress_unit(s, c + q, dense, taken, v + (c + q) * 4);
            if (code == 0xFF) return c + q;
            codes |= code << (4 * q);
        }
        int64_t word;
        int shift;
        sp24_code_position(s, row, c, &word, &shift); /* c % 4 == 0: the field's lowest code */
        s->meta[word] |= codes << shift;
    }
    return -1;
}

/* Compresses the 16 rows of tile t (dense, taken: a row's scratch); returns
 * the first row holding too many entries in a unit (its unit in
 * *bad_unit), or -1. */
static int64_t compress_tile(const tcspmm_csr *A, sp24 *s, int64_t t, int every_entry,
                             float *dense, uint8_t *taken, int64_t *bad_unit)
{
    const int64_t k_tiles = s->cols_pad / sp24_ktile_cols(s->precision);
    memset(s->meta + t * k_tiles * SP24_META_WORDS, 0, (size_t)k_tiles * SP24_META_WORDS * 4);
    for (int64_t row = t * 16; row < t * 16 + 16; row++) {
        memset(dense, 0, (size_t)s->cols_pad * sizeof(float));
        memset(taken, 0, (size_t)s->cols_pad);
        if (row < A->rows)
            for (int64_t k = A->row_ptr[row]; k < A->row_ptr[row + 1]; k++) {
                const int32_t c = A->col_idx[k]; /* duplicates are summed; -0.0 kept */
                dense[c] = taken[c] ? dense[c] + A->values[k] : A->values[k];
                taken[c] = 1;
            }
        for (int64_t j = 0; !every_entry && j < s->cols_pad; j++) taken[j] = dense[j] != 0.0f;
        const int64_t unit = compress_row(s, row, dense, taken);
        if (unit >= 0) {
            *bad_unit = unit;
            return row;
        }
    }
    return -1;
}

tcspmm_status sp24_compress(const tcspmm_csr *A, tcspmm_precision precision, int threads,
                            int every_entry, sp24 *out)
{
    memset(out, 0, sizeof *out);
    if (precision == TCSPMM_PRECISION_FP32)
        return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED,
                           "sp24_compress: the sparse tensor cores have no fp32 mode");
    out->precision = precision;
    out->rows = A->rows;
    out->cols = A->cols;
    out->elem_bytes = precision == TCSPMM_PRECISION_TF32 ? 4 : 2;
    out->rows_pad = round_up(A->rows > 0 ? A->rows : 1, SP24_ROW_TILE);
    out->cols_pad = round_up(A->cols > 0 ? A->cols : 1, sp24_ktile_cols(precision));
    const int64_t row_bytes = out->cols_pad / 2 * out->elem_bytes; /* the metadata take less */
    if (out->rows_pad > (int64_t)(SIZE_MAX < INT64_MAX ? SIZE_MAX : INT64_MAX) / row_bytes)
        return tcspmm_fail(TCSPMM_ERROR_OVERFLOW,
                           "sp24_compress: %lld x %lld compressed for %s overflows memory sizes",
                           (long long)A->rows, (long long)A->cols,
                           tcspmm_precision_name(precision));
    const int64_t tiles = out->rows_pad / 16;
    size_t value_bytes, meta_bytes;
    sp24_sizes(out, &value_bytes, &meta_bytes);
    out->values = large_alloc(value_bytes); /* every byte is written below (or freed) */
    out->meta = large_alloc(meta_bytes);
    if (!out->values || !out->meta) {
        sp24_free(out);
        return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY,
                           "sp24_compress: out of memory for %lld x %lld",
                           (long long)A->rows, (long long)A->cols);
    }
    int64_t bad_row = -1, bad_unit = -1;
    int alloc_failed = 0;
#pragma omp parallel num_threads(threads > 0 ? threads : omp_get_max_threads())
    {
        float *dense = malloc((size_t)out->cols_pad * sizeof(float));
        uint8_t *taken = malloc((size_t)out->cols_pad);
        if (!dense || !taken) {
#pragma omp atomic write
            alloc_failed = 1;
        }
#pragma omp for schedule(dynamic, 4)
        for (int64_t t = 0; t < tiles; t++) {
            if (!dense || !taken) continue;
            int64_t unit = -1, row = compress_tile(A, out, t, every_entry, dense, taken, &unit);
            if (row < 0) continue;
#pragma omp critical(sp24_bad)
            if (bad_row < 0 || row < bad_row) bad_row = row, bad_unit = unit;
        }
        free(dense);
        free(taken);
    }
    if (alloc_failed) {
        sp24_free(out);
        return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "sp24_compress: out of memory");
    }
    if (bad_row >= 0) {
        int width = out->elem_bytes == 4 ? 2 : 4;
        sp24_free(out);
        return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED,
                           "sp24_compress: row %lld, columns %lld..%lld hold more than %d "
                           "entries: the matrix is not %s",
                           (long long)bad_row, (long long)(bad_unit * width),
                           (long long)(bad_unit * width + width - 1), width / 2,
                           width == 2 ? "1:2 (needed for tf32)" : "2:4");
    }
    const int64_t first = csr_first_beyond(A->values, A->nnz, sp24_overflow_limit(precision), threads);
    if (first < 0) return TCSPMM_SUCCESS;
    sp24_free(out);
    return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED, "sp24_compress: value %g (entry %lld) overflows %s",
                       (double)A->values[first], (long long)first, tcspmm_precision_name(precision));
}

void sp24_entry_values(const sp24 *s, const tcspmm_csr *A, float *values)
{
    const int64_t row_slots = s->cols_pad / 2;
#pragma omp parallel for schedule(dynamic, 64)
    for (int64_t i = 0; i < A->rows; i++) {
        const int64_t start = A->row_ptr[i], end = A->row_ptr[i + 1];
        for (int64_t k = start; k < end; k++) {
            int64_t slot = sp24_entry_slot(A->col_idx[k], k > start ? A->col_idx[k - 1] : -1,
                                           k + 1 < end ? A->col_idx[k + 1] : -1, s->elem_bytes);
            values[k] = load_value(s, i * row_slots + slot);
        }
    }
}

/* Decompresses row `row` into d; 0 on a corrupt code. */
static int decompress_row(const sp24 *s, int64_t row, float *d)
{
    int64_t units = s->cols_pad * s->elem_bytes / 8;
    memset(d, 0, (size_t)s->cols * sizeof(float));
    for (int64_t c = 0; c < units; c++) {
        int64_t word;
        int shift;
        sp24_code_position(s, row, c, &word, &shift);
        uint32_t code = (s->meta[word] >> shift) & 0xFu, i0 = code & 3u, i1 = code >> 2;
        if (s->elem_bytes == 4) {
            if (code != SP24_CODE_EMPTY && code != SP24_CODE_TF32_HI) return 0;
            int64_t col = 2 * c + (code == SP24_CODE_TF32_HI);
            if (col < s->cols) d[col] = load_value(s, row * (s->cols_pad / 2) + c);
            continue;
        }
        if (i0 >= i1) return 0;
        int64_t v = row * (s->cols_pad / 2) + 2 * c;
        if (4 * c + i0 < s->cols) d[4 * c + i0] = load_value(s, v);
        if (4 * c + i1 < s->cols) d[4 * c + i1] = load_value(s, v + 1);
    }
    return 1;
}

tcspmm_status sp24_decompress(const sp24 *s, float *dense, int64_t ld)
{
    int64_t bad_row = -1;
#pragma omp parallel for schedule(dynamic, 64)
    for (int64_t row = 0; row < s->rows; row++) {
        if (decompress_row(s, row, dense + row * ld)) continue;
#pragma omp critical(sp24_bad_code)
        if (bad_row < 0 || row < bad_row) bad_row = row;
    }
    if (bad_row >= 0)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "sp24_decompress: a corrupt metadata code in row %lld",
                           (long long)bad_row);
    return TCSPMM_SUCCESS;
}

void sp24_free(sp24 *s)
{
    free(s->values);
    free(s->meta);
    memset(s, 0, sizeof *s);
}
