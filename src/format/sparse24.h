/* sparse24.h: structured sparsity (2:4 and 1:2) of a CSR matrix: detection,
 * and the compressed form the sparse tensor cores read (mma.sp), with its
 * exact CPU decompression. This header is the contract between the host
 * compressor (sparse24_compress.c) and the kernels (kernels/sp24_mma.cu).
 *
 * Structure (counted on entries whose value is not zero, or, for a plan
 * whose values change, on every entry of the pattern):
 *   2:4  every aligned group of 4 columns of every row holds at most 2 entries;
 *   1:2  every aligned pair of columns holds at most 1 (so it is also 2:4,
 *        and reports 1:2). A matrix with no entries reports 1:2.
 *
 * Compressed form, for precision BF16/FP16 (needs 2:4) or TF32 (needs 1:2):
 *   values  rows_pad x cols_pad/2 elements, row-major. Compressed column c
 *           of a row holds, for 16-bit types, slot c%2 of group c/2 (logical
 *           columns 4*(c/2) .. +3); for TF32 the one value of pair c (logical
 *           columns 2c, 2c+1). Elements are bf16/fp16 bit patterns (uint16_t)
 *           rounded to nearest even, or floats rounded to TF32 (nearest, ties
 *           away from zero, as cvt.rna.tf32.f32).
 *   nibble  each 4 compressed bytes (a 16-bit group, a TF32 pair) have a 4-bit
 *           code: two ordered 2-bit indices, the lower in the lower bits
 *           ([0, 2.1, -8.9, 0] gives 0b1001). A 16-bit group with fewer than 2
 *           entries is filled with the lowest unused index and a zero value
 *           (no entry: 0b0100); so a lone entry takes slot 0 only at index 0
 *           of its group, else slot 1. TF32 uses the 16-bit halves' indices of its
 *           value: 0b0100 for the first column of the pair, 0b1110 for the
 *           second (an empty pair is 0b0100 with a zero value).
 *   meta    the codes, reordered offline into what each lane of a warp passes
 *           to mma.sp, so a warp fetches them with one coalesced 128-byte load.
 *           A k-tile is SP24_KTILE_BYTES = 64 compressed bytes of a row (64
 *           logical columns for 16-bit types, 32 for TF32) = two mma k-steps
 *           (m16n8k32 / m16n8k16) of 8 codes each. For every 16-row tile t and
 *           k-tile kt there are 32 uint32 words, word `lane` at
 *           meta[(t * k_tiles + kt) * 32 + lane]: with g = lane / 4, q = lane % 4,
 *           step = q / 2 (the mma's sparsity selector) and half = q % 2,
 *             bits  0..15  codes 4*half .. 4*half+3 of k-step `step`, row g
 *             bits 16..31  the same codes of row g + 8,
 *           code i at bits 4*i (i = 0..3) of its 16-bit half. The Hopper
 *           kernel (wgmma.sp) reads the same words: warp w of a warpgroup
 *           passes its 16-row tile's word with selector = k-step.
 * Padding rows and columns hold zero values with code 0b0100. */
#ifndef TCSPMM_SPARSE24_H
#define TCSPMM_SPARSE24_H

#include "host_device.h"
#include "tcspmm.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SP24_ROW_TILE 128    /* rows_pad is a multiple of this */
#define SP24_KTILE_BYTES 64  /* compressed bytes of a row per k-tile */
#define SP24_META_WORDS 32   /* uint32 per 16-row tile per k-tile */
#define SP24_CODE_EMPTY 0x4u /* indices (0, 1) */
#define SP24_CODE_TF32_HI 0xEu /* indices (2, 3): the second value of a TF32 pair */

typedef enum sp24_structure {
    SP24_NONE = 0,
    SP24_2TO4 = 1,
    SP24_1TO2 = 2
} sp24_structure;

/* Structure of a validated CSR (duplicates in a row are summed first),
 * counting the entries whose value is not zero, or every entry (the
 * pattern's structure, which no new values can break). */
sp24_structure sparse24_detect(const tcspmm_csr *A, int every_entry);

/* "2:4", "1:2" or "none". */
const char *sparse24_structure_name(sp24_structure s);

typedef struct sp24 {
    tcspmm_precision precision; /* TF32, BF16 or FP16 */
    int64_t rows, cols;         /* logical M x K */
    int64_t rows_pad, cols_pad; /* multiples of SP24_ROW_TILE, sp24_ktile_cols() */
    int elem_bytes;             /* 2 (bf16, fp16) or 4 (tf32) */
    void *values;               /* rows_pad * cols_pad / 2 elements */
    uint32_t *meta;             /* rows_pad / 16 * k_tiles * 32 words */
} sp24;

/* Logical columns per k-tile: 64 for 16-bit types, 32 for TF32. */
int sp24_ktile_cols(tcspmm_precision precision);

/* The bytes of s's values and of its metadata, from its padded sizes. */
void sp24_sizes(const sp24 *s, size_t *value_bytes, size_t *meta_bytes);

/* Compresses a validated CSR for a precision (TF32: the matrix must be 1:2;
 * BF16, FP16: 2:4), its structure counted as sparse24_detect counts it with
 * every_entry (with every_entry, an entry whose value is zero keeps its
 * slot, so new values of the same pattern go to the same places).
 * TCSPMM_ERROR_UNSUPPORTED, with the first offending row and group in the
 * message, when it is not, for FP32, or when a value overflows the
 * precision. OpenMP over 16-row tiles (threads: 0 = all). */
tcspmm_status sp24_compress(const tcspmm_csr *A, tcspmm_precision precision, int threads,
                            int every_entry, sp24 *out);

/* dense (rows x cols, row-major, leading dimension ld >= cols) = the matrix
 * the compressed form holds: the input with each value rounded to the
 * precision (sp24_round), exactly. */
tcspmm_status sp24_decompress(const sp24 *s, float *dense, int64_t ld);

void sp24_free(sp24 *s);

/* x rounded as the kernel of that precision sees it (bf16/fp16: nearest
 * even; tf32: nearest, ties away; fp32: unchanged). fp16 overflow gives inf. */
float sp24_round(float x, tcspmm_precision precision);

/* The smallest magnitude that sp24_round takes to infinity: finite values
 * below it in magnitude fit the precision (FP32: infinity). */
float sp24_overflow_limit(tcspmm_precision precision);

/* The bf16 or fp16 bit pattern of x (nearest even), for callers that give
 * B in 16 bits (precision BF16 or FP16). */
uint16_t sp24_half_bits(float x, tcspmm_precision precision);

/* The value of a bf16 or fp16 bit pattern (precision BF16 or FP16). */
float sp24_half_value(uint16_t bits, tcspmm_precision precision);

/* The slot, in its compressed row, of the entry at column col of a row
 * compressed counting every entry (sp24_compress with every_entry), whose
 * columns increase strictly (no duplicates, as tcspmm_csr_validate asks);
 * prev_col and next_col are the columns of the row's entries left and
 * right of it (-1: none). 16-bit types: a group's entries take slots 0 and
 * 1 in column order, and a lone one slot 0 only at index 0 of its group;
 * tf32 (elem_bytes 4): its pair's one slot. */
TCSPMM_HOST_DEVICE static inline int64_t sp24_entry_slot(int32_t col, int32_t prev_col,
                                                       int32_t next_col, int elem_bytes)
{
    if (elem_bytes == 4) return col / 2;
    const int32_t group = col / 4;
    const int second = prev_col >= 0 && prev_col / 4 == group;
    const int first = next_col >= 0 && next_col / 4 == group;
    return 2 * (int64_t)group + (second ? 1 : first ? 0 : col % 4 != 0);
}

/* values[k] = entry k of A as s holds it (rounded to s's precision), for s
 * compressed from A's pattern counting every entry; s's meta is not read.
 * OpenMP over rows. */
void sp24_entry_values(const sp24 *s, const tcspmm_csr *A, float *values);

/* Where the code of (row, code index c) lives: c counts the 4-byte units of
 * the compressed row (c = compressed column for TF32, c / 2 of it for 16-bit
 * types). Gives the word index into meta and the bit shift of the code. */
void sp24_code_position(const sp24 *s, int64_t row, int64_t c, int64_t *word, int *shift);

#ifdef __cplusplus
}
#endif

#endif
