/* hrpb.h: the HRPB format (hierarchical row-panel blocking, cuTeSpMM paper
 * section 3.2) as the TF32 kernel consumes it, its builder, its CPU executor
 * and its synergy metrics. This header is the contract between the host
 * preprocessor (src/format/hrpb*.c) and the device code (src/kernels/hrpb_kernel.h,
 * hrpb_tf32.cu, hrpb_build_gpu.cu, hrpb_values_gpu.cu).
 *
 * Rows are cut into panels of TM rows (16 or 32). In each panel the active
 * columns (those holding at least one entry of the panel) are compacted to the
 * left in increasing column order and cut into blocks of HRPB_TK = 16 active
 * columns; the last block of a panel is padded with column -1. Each block is
 * cut into bricks of 16 rows x 4 columns: TM/16 brick rows by 4 brick columns.
 *
 * Brick pattern: bit i (0..63) is the row-major position i of the brick, row
 * i/4, column i%4. So bits lane and lane+32 are exactly the two A-fragment
 * elements lane `lane` holds in mma.m16n8k4 TF32 (rows lane/4 and lane/4+8,
 * column lane%4). A brick's values follow in increasing bit order: the value
 * of bit i is values[popcount(pattern & ((1ull << i) - 1))].
 *
 * Packed block b lives at byte offset size_ptr[b] of `packed`; offsets are
 * multiples of 16 and the block's bytes are size_ptr[b+1] - size_ptr[b]:
 *   bytes  0..4    uint8 col_ptr[5]: bricks j of brick column c are
 *                  col_ptr[c] <= j < col_ptr[c+1]; col_ptr[4] = nbricks
 *   bytes  5..12   uint8 brick_row[8]: brick row (0, or 0..1 for TM=32) of
 *                  brick j < nbricks; the rest are 0
 *   bytes 13..15   0
 *   bytes 16..     uint64 pattern[nbricks] (little endian)
 *   then           float values[]: brick 0's values, then brick 1's, ...
 *   then           zero bytes up to the next multiple of 16.
 * Bricks are ordered by brick column, then brick row (CSC-like); only
 * bricks holding at least one entry are stored. Explicit zeros of A are
 * entries and set their bit.
 *
 * Rows may be reordered (row_order.h) before the build: row_map[i] is then
 * the row of A (and of C) that the panels' row i is; NULL means row i.
 *
 * After a build on the GPU (hrpb_gpu.h) the host keeps only the sizes,
 * block_ptr and row_map; active_cols, size_ptr and packed are NULL there. */
#ifndef TCSPMM_HRPB_H
#define TCSPMM_HRPB_H

#include "host_device.h"
#include "tcspmm.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HRPB_TK 16
#define HRPB_BRICK_M 16
#define HRPB_BRICK_K 4
#define HRPB_BRICK_COLS (HRPB_TK / HRPB_BRICK_K)
#define HRPB_MAX_BRICKS 8   /* per block, for TM = 32 */
#define HRPB_HEADER_BYTES 16
#define HRPB_ALIGN 16

typedef struct hrpb {
    int panel_rows;       /* TM: 16 or 32 */
    int64_t rows, cols, nnz;
    int64_t num_panels;   /* ceil(rows / TM) */
    int64_t num_blocks;
    int64_t num_bricks;
    int64_t *block_ptr;   /* num_panels + 1 (the paper's blockedRowPtr) */
    int32_t *active_cols; /* num_blocks * HRPB_TK; -1 pads */
    int64_t *size_ptr;    /* num_blocks + 1 byte offsets into packed */
    uint8_t *packed;      /* size_ptr[num_blocks] bytes, 16-byte aligned */
    int64_t *row_map;     /* NULL, or rows entries: the row of A of each panel row */
} hrpb;

/* The row of A that row i of the panels holds. */
static inline int64_t hrpb_row_of(const hrpb *h, int64_t i)
{
    return h->row_map ? h->row_map[i] : i;
}

/* Set bits of x, on the host and on the device. */
TCSPMM_HOST_DEVICE static inline int hrpb_popcount64(uint64_t x)
{
#if defined(__CUDA_ARCH__)
    return __popcll(x);
#else
    return __builtin_popcountll(x);
#endif
}

/* Where the value of the entry in column c of row r (0 .. TM-1) of panel p
 * lies: *block gets its block, and the result is its place among that
 * block's values (the values of the bricks before its own and of the bits
 * below its own), or -1 when the panel holds no such entry. c is found among
 * the panel's active columns (increasing; the -1 pads of the last block sort
 * last when compared unsigned). On the host (hrpb_value_sources) and the
 * device (kernels/hrpb_values_gpu.cu). */
TCSPMM_HOST_DEVICE static inline int hrpb_value_place(const int64_t *block_ptr,
                                                    const int32_t *active_cols,
                                                    const int64_t *size_ptr, const uint8_t *packed,
                                                    int64_t p, int r, int32_t c, int64_t *block)
{
    int64_t lo = block_ptr[p] * HRPB_TK, hi = block_ptr[p + 1] * HRPB_TK;
    const int64_t end = hi;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if ((uint32_t)active_cols[mid] < (uint32_t)c) lo = mid + 1;
        else hi = mid;
    }
    if (lo == end || active_cols[lo] != c) return -1;
    *block = lo / HRPB_TK;
    const int slot = (int)(lo % HRPB_TK), brick_col = slot / HRPB_BRICK_K;
    const int bit = (r % HRPB_BRICK_M) * HRPB_BRICK_K + slot % HRPB_BRICK_K;
    const uint8_t *b = packed + size_ptr[*block]; /* col_ptr[5], brick_row[8], pad, patterns */
    const uint64_t *pattern = (const uint64_t *)(b + HRPB_HEADER_BYTES);
    int before = 0;
    for (int j = 0; j < b[brick_col + 1]; j++) {
        if (j >= b[brick_col] && b[5 + j] == r / HRPB_BRICK_M)
            return pattern[j] >> bit & 1 ? before + hrpb_popcount64(pattern[j] & ((1ull << bit) - 1))
                                         : -1;
        before += hrpb_popcount64(pattern[j]);
    }
    return -1;
}

/* The values block b holds (its patterns' set bits). */
TCSPMM_HOST_DEVICE static inline int hrpb_block_values(const int64_t *size_ptr, const uint8_t *packed,
                                                     int64_t b)
{
    const uint8_t *block = packed + size_ptr[b];
    const uint64_t *pattern = (const uint64_t *)(block + HRPB_HEADER_BYTES);
    int count = 0;
    for (int j = 0; j < block[4]; j++) count += hrpb_popcount64(pattern[j]);
    return count;
}

/* The values of block b, in order, lie at packed + hrpb_values_offset(...)
 * bytes (after its header and patterns). */
TCSPMM_HOST_DEVICE static inline int64_t hrpb_values_offset(const int64_t *size_ptr,
                                                          const uint8_t *packed, int64_t b)
{
    return size_ptr[b] + HRPB_HEADER_BYTES + 8 * (int64_t)packed[size_ptr[b] + 4];
}

/* For a plan whose values change: block_values[b] (num_blocks + 1) = the
 * values of the blocks before b, and source[block_values[b] + i] = the
 * entry of A (the CSR h was built from, in A's own row order; h->row_map
 * maps panel rows to A's rows) whose value is block b's value i. Writing
 * new values then walks the packed values in order. OpenMP (threads: 0 =
 * all). TCSPMM_ERROR_UNSUPPORTED for 2^32 entries or more;
 * TCSPMM_ERROR_INVALID_ARGUMENT when A is not h's matrix. */
tcspmm_status hrpb_value_sources(const hrpb *h, const tcspmm_csr *A, int threads,
                                 int64_t *block_values, uint32_t *source);

/* Builds HRPB from a validated CSR with OpenMP (threads: 0 = all). The result
 * is byte for byte the same for any thread count. */
tcspmm_status hrpb_build(const tcspmm_csr *A, int panel_rows, int threads, hrpb *out);
void hrpb_free(hrpb *h);

/* Frees active_cols, size_ptr and packed but keeps the sizes, block_ptr and row_map:
 * what a plan keeps on the host once the device has the blocks. */
void hrpb_drop_blocks(hrpb *h);

/* Decodes HRPB back to CSR (the round-trip test). */
tcspmm_status hrpb_to_csr(const hrpb *h, tcspmm_csr *out);

/* C = alpha*A*B + beta*C on host arrays, decoding bricks exactly as the
 * kernel does (popcount below each lane's bit), accumulating in float64. */
tcspmm_status hrpb_spmm_cpu(const hrpb *h, int64_t n, float alpha, const float *B,
                            int64_t ldb, float beta, float *C, int64_t ldc,
                            tcspmm_layout layout);

/* What the metrics need from the packed blocks (the GPU builder counts them
 * on the device, where its packed blocks live). */
typedef struct hrpb_counts {
    int64_t nnz;                 /* set pattern bits */
    int64_t active_brick_cols;   /* brick columns (4 per brick) holding an entry */
    int64_t nonempty_brick_cols; /* a block's brick columns holding a brick */
    int64_t packed_bytes;        /* size_ptr[num_blocks] */
} hrpb_counts;

void hrpb_count(const hrpb *h, hrpb_counts *c);

/* Synergy metrics of section 4 of the paper, written into info's HRPB fields
 * (panel_rows, panels, blocks, bricks, alpha, beta, brick_density, synergy,
 * oi_shared, hrpb_bytes, csr_bytes, blocks_per_panel_*). hrpb_metrics_counted
 * reads only the sizes and block_ptr of h. */
void hrpb_metrics(const hrpb *h, tcspmm_info *info);
void hrpb_metrics_counted(const hrpb *h, const hrpb_counts *c, tcspmm_info *info);

#ifdef __cplusplus
}
#endif

#endif
