/* hrpb_build_gpu.cu: hrpb_gpu_build, HRPB built on the device from a device
 * CSR, byte for byte what hrpb_build (src/format/hrpb_build.c) writes on the
 * host. It exists for plan time: the host build walks every entry on the
 * CPU and then uploads the result; here the CSR goes up once and every pass
 * runs with one thread per entry or per block.
 *
 * Passes (k: an entry, in row i of panel p = i / TM, row r = i % TM of it):
 *  1. csr_gpu_entry_rows: i of every k (src/kernels/csr_entry_rows_gpu.cu).
 *  2. mark_first: first[k] = 1 when no earlier row of the panel holds k's
 *     column (binary search in each): the panel's active columns are its
 *     first entries, one per column.
 *  3. an exclusive sum of first[] (fx); a panel's active columns are the
 *     firsts in its entry range, its blocks ceil(that / 16); an exclusive sum
 *     of those is block_ptr.
 *  4. place_entries: k's active-column index is the number of firsts of its
 *     panel with a smaller column = the sum over the panel's rows of the
 *     firsts before the row's lower bound of the column. That gives k's
 *     block, slot, brick and pattern bit: firsts write active_cols, and
 *     every entry ORs its bit into its brick's pattern (atomicOr).
 *  5. block_sizes: each block's bricks and entries give its packed bytes (an
 *     exclusive sum of them is size_ptr) and the metrics' counts.
 *  6. write_headers (per block) and write_values (per entry, at the popcount
 *     of the bits below it plus the entries of the bricks before its own).
 * Entries are counted in int32: the caller builds on the host when nnz or
 * rows reach 2^31. */
#include <cuda_runtime.h>

#include <stdlib.h>
#include <string.h>

#include "../device_copy.h"
#include "../error.h"
#include "device_scan.h"
#include "hrpb_gpu_internal.h"

enum { THREADS = 256, BRICK_SLOTS = HRPB_BRICK_COLS * 2 /* brick column x brick row (TM <= 32) */ };

static unsigned grid_for(int64_t items) { return (unsigned)((items + THREADS - 1) / THREADS); }

/* The first position in [lo, hi) of a sorted row whose column is >= c. */
__device__ static int64_t lower_bound(const int32_t *col_idx, int64_t lo, int64_t hi, int32_t c)
{
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (col_idx[mid] < c) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* first[k] for k < nnz, and first[nnz] = 0 (the sum's end). */
template <int TM>
__global__ static void mark_first(const int64_t *row_ptr, const int32_t *col_idx,
                                  const int32_t *entry_row, int32_t nnz, int32_t *first)
{
    int32_t k = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    if (k > nnz) return;
    if (k == nnz) {
        first[k] = 0;
        return;
    }
    const int32_t i = entry_row[k], c = col_idx[k];
    int is_first = 1;
    for (int64_t j = (int64_t)(i / TM) * TM; j < i && is_first; j++) {
        int64_t end = row_ptr[j + 1], at = lower_bound(col_idx, row_ptr[j], end, c);
        is_first = !(at < end && col_idx[at] == c);
    }
    first[k] = is_first;
}

/* blocks[p] = HRPB blocks of panel p, and blocks[num_panels] = 0. */
template <int TM>
__global__ static void panel_blocks(const int64_t *row_ptr, int64_t rows, int64_t num_panels,
                                    const int32_t *fx, int64_t *blocks)
{
    int64_t p = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (p > num_panels) return;
    if (p == num_panels) {
        blocks[p] = 0;
        return;
    }
    int64_t r0 = p * TM, r1 = r0 + TM < rows ? r0 + TM : rows;
    int64_t active = fx[row_ptr[r1]] - fx[row_ptr[r0]];
    blocks[p] = (active + HRPB_TK - 1) / HRPB_TK;
}

/* Where entry k goes inside its block: the block, the slot (its active
 * column's place in the block), the brick slot and the pattern bit. */
struct entry_place {
    int64_t block;
    int slot, brick, bit;
};

template <int TM>
__device__ static entry_place place_of(int32_t i, int32_t active, const int64_t *block_ptr)
{
    entry_place e;
    const int r = i % TM;
    e.block = block_ptr[i / TM] + active / HRPB_TK;
    e.slot = active % HRPB_TK;
    e.brick = (e.slot / HRPB_BRICK_K) * 2 + r / HRPB_BRICK_M;
    e.bit = (r % HRPB_BRICK_M) * HRPB_BRICK_K + e.slot % HRPB_BRICK_K;
    return e;
}

/* pos[k] = k's active-column index in its panel; writes active_cols for
 * firsts and ORs k's bit into its brick's pattern (patterns: BRICK_SLOTS
 * per block, zeroed; active_cols: -1 filled). */
template <int TM>
__global__ static void place_entries(const int64_t *row_ptr, int64_t rows, const int32_t *col_idx,
                                     const int32_t *entry_row, const int32_t *fx,
                                     const int64_t *block_ptr, int32_t nnz, int32_t *pos,
                                     int32_t *active_cols, unsigned long long *patterns)
{
    int32_t k = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    if (k >= nnz) return;
    const int32_t i = entry_row[k], c = col_idx[k];
    const int64_t row0 = (int64_t)(i / TM) * TM, row_end = row0 + TM < rows ? row0 + TM : rows;
    int32_t active = 0;
    for (int64_t j = row0; j < row_end; j++) {
        int64_t begin = row_ptr[j];
        int64_t at = j == i ? k : lower_bound(col_idx, begin, row_ptr[j + 1], c);
        active += fx[at] - fx[begin];
    }
    pos[k] = active;
    entry_place e = place_of<TM>(i, active, block_ptr);
    if (fx[k + 1] - fx[k]) active_cols[e.block * HRPB_TK + e.slot] = c;
    atomicOr(&patterns[e.block * BRICK_SLOTS + e.brick], 1ull << e.bit);
}

__device__ static unsigned long long warp_sum(unsigned long long x)
{
    for (int d = 16; d > 0; d /= 2) x += __shfl_down_sync(0xffffffffu, x, d);
    return x;
}

/* bytes[b] = packed bytes of block b (bytes[num_blocks] = 0), and
 * counts += {entries, active brick columns, non-empty brick columns of a
 * block, bricks} as hrpb_count defines them. */
__global__ static void block_sizes(const unsigned long long *patterns, int64_t num_blocks,
                                   int64_t *bytes, unsigned long long *counts)
{
    int64_t b = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long nnz = 0, active_cols = 0, nonempty_cols = 0, bricks = 0;
    if (b < num_blocks) {
        for (int bc = 0; bc < HRPB_BRICK_COLS; bc++) {
            int any = 0;
            for (int br = 0; br < 2; br++) {
                unsigned long long pat = patterns[b * BRICK_SLOTS + bc * 2 + br];
                if (!pat) continue;
                any = 1;
                bricks++;
                nnz += __popcll(pat);
                for (int c = 0; c < HRPB_BRICK_K; c++)
                    active_cols += (pat & (0x1111111111111111ull << c)) != 0;
            }
            nonempty_cols += any;
        }
        int64_t raw = HRPB_HEADER_BYTES + 8 * (int64_t)bricks + 4 * (int64_t)nnz;
        bytes[b] = (raw + HRPB_ALIGN - 1) / HRPB_ALIGN * HRPB_ALIGN;
    } else if (b == num_blocks) {
        bytes[b] = 0;
    }
    nnz = warp_sum(nnz);
    active_cols = warp_sum(active_cols);
    nonempty_cols = warp_sum(nonempty_cols);
    bricks = warp_sum(bricks);
    if (threadIdx.x % 32 == 0 && nnz + active_cols + nonempty_cols + bricks > 0) {
        atomicAdd(&counts[0], nnz);
        atomicAdd(&counts[1], active_cols);
        atomicAdd(&counts[2], nonempty_cols);
        atomicAdd(&counts[3], bricks);
    }
}

/* Block b's header (col_ptr, brick_row) and patterns, bricks in brick
 * column then brick row order; packed is zeroed. */
__global__ static void write_headers(const unsigned long long *patterns, const int64_t *size_ptr,
                                     int64_t num_blocks, uint8_t *packed)
{
    int64_t b = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= num_blocks) return;
    uint8_t *dst = packed + size_ptr[b];
    union {
        uint4 v;
        uint8_t byte[HRPB_HEADER_BYTES];
    } header = {};
    unsigned long long *pattern_out = (unsigned long long *)(dst + HRPB_HEADER_BYTES);
    int nbricks = 0;
    for (int bc = 0; bc < HRPB_BRICK_COLS; bc++) {
        header.byte[bc] = (uint8_t)nbricks;
        for (int br = 0; br < 2; br++) {
            unsigned long long pat = patterns[b * BRICK_SLOTS + bc * 2 + br];
            if (!pat) continue;
            header.byte[5 + nbricks] = (uint8_t)br;
            pattern_out[nbricks++] = pat;
        }
    }
    header.byte[4] = (uint8_t)nbricks;
    *(uint4 *)dst = header.v;
}

/* Entry k's value at its place among its block's values. */
template <int TM>
__global__ static void write_values(const float *values, const int32_t *entry_row,
                                    const int32_t *pos, const int64_t *block_ptr,
                                    const unsigned long long *patterns, const int64_t *size_ptr,
                                    int32_t nnz, uint8_t *packed)
{
    int32_t k = (int32_t)(blockIdx.x * blockDim.x + threadIdx.x);
    if (k >= nnz) return;
    entry_place e = place_of<TM>(entry_row[k], pos[k], block_ptr);
    const unsigned long long *pat = patterns + e.block * BRICK_SLOTS;
    int nbricks = 0, before = __popcll(pat[e.brick] & ((1ull << e.bit) - 1));
    for (int q = 0; q < BRICK_SLOTS; q++) {
        nbricks += pat[q] != 0;
        if (q < e.brick) before += __popcll(pat[q]);
    }
    float *out = (float *)(packed + size_ptr[e.block] + HRPB_HEADER_BYTES + 8 * nbricks);
    out[before] = values[k];
}

/* The temporaries of one build. */
struct build_scratch {
    int32_t *entry_row, *first, *fx;
    int64_t *panel_blocks, *block_ptr, *block_bytes;
    unsigned long long *patterns, *counts;
};

static void scratch_free(build_scratch *s)
{
    cudaFree(s->entry_row);
    cudaFree(s->first);
    cudaFree(s->fx);
    cudaFree(s->panel_blocks);
    cudaFree(s->block_ptr);
    cudaFree(s->block_bytes);
    cudaFree(s->patterns);
    cudaFree(s->counts);
}

#define LAUNCH_CHECK() TCSPMM_TRY(TCSPMM_CUDA(cudaGetLastError()))

template <int TM>
static tcspmm_status build(const csr_gpu *A, build_scratch *s, hrpb *shape, hrpb_counts *counts,
                           hrpb_gpu *g)
{
    const int32_t nnz = (int32_t)A->nnz;
    const int64_t np = shape->num_panels;
    TCSPMM_TRY(device_alloc((void **)&s->entry_row, (size_t)nnz * sizeof(int32_t)));
    TCSPMM_TRY(device_alloc((void **)&s->first, ((size_t)nnz + 1) * sizeof(int32_t)));
    TCSPMM_TRY(device_alloc((void **)&s->fx, ((size_t)nnz + 1) * sizeof(int32_t)));
    TCSPMM_TRY(csr_gpu_entry_rows(A->row_ptr, A->rows, nnz, s->entry_row));
    mark_first<TM><<<grid_for((int64_t)nnz + 1), THREADS>>>(A->row_ptr, A->col_idx, s->entry_row,
                                                           nnz, s->first);
    LAUNCH_CHECK();
    TCSPMM_TRY(device_exclusive_sum_i32(s->first, s->fx, (int64_t)nnz + 1));

    TCSPMM_TRY(device_alloc((void **)&s->panel_blocks, ((size_t)np + 1) * sizeof(int64_t)));
    TCSPMM_TRY(device_alloc((void **)&s->block_ptr, ((size_t)np + 1) * sizeof(int64_t)));
    panel_blocks<TM><<<grid_for(np + 1), THREADS>>>(A->row_ptr, A->rows, np, s->fx,
                                                    s->panel_blocks);
    LAUNCH_CHECK();
    TCSPMM_TRY(device_exclusive_sum_i64(s->panel_blocks, s->block_ptr, np + 1));
    TCSPMM_TRY(TCSPMM_CUDA(cudaMemcpy(shape->block_ptr, s->block_ptr,
                                      ((size_t)np + 1) * sizeof(int64_t), cudaMemcpyDeviceToHost)));
    const int64_t nb = shape->block_ptr[np];
    shape->num_blocks = nb;
    if (nb >= INT32_MAX)
        return tcspmm_fail(TCSPMM_ERROR_OVERFLOW,
                           "hrpb_gpu_build: %lld blocks; at most 2^31-1 are supported",
                           (long long)nb);

    TCSPMM_TRY(device_alloc((void **)&g->active_cols, (size_t)nb * HRPB_TK * sizeof(int32_t)));
    TCSPMM_TRY(device_alloc((void **)&s->patterns, (size_t)nb * BRICK_SLOTS * 8));
    if (nb > 0) {
        TCSPMM_TRY(TCSPMM_CUDA(cudaMemset(g->active_cols, 0xff, (size_t)nb * HRPB_TK * 4)));
        TCSPMM_TRY(TCSPMM_CUDA(cudaMemset(s->patterns, 0, (size_t)nb * BRICK_SLOTS * 8)));
    }
    int32_t *pos = s->first; /* first[] is in fx from here on */
    if (nnz > 0) {
        place_entries<TM><<<grid_for(nnz), THREADS>>>(A->row_ptr, A->rows, A->col_idx,
                                                      s->entry_row, s->fx, s->block_ptr, nnz, pos,
                                                      g->active_cols, s->patterns);
        LAUNCH_CHECK();
    }

    TCSPMM_TRY(device_alloc((void **)&s->block_bytes, ((size_t)nb + 1) * sizeof(int64_t)));
    TCSPMM_TRY(device_alloc((void **)&g->size_ptr, ((size_t)nb + 1) * sizeof(int64_t)));
    TCSPMM_TRY(device_alloc((void **)&s->counts, 4 * sizeof(unsigned long long)));
    TCSPMM_TRY(TCSPMM_CUDA(cudaMemset(s->counts, 0, 4 * sizeof(unsigned long long))));
    block_sizes<<<grid_for(nb + 1), THREADS>>>(s->patterns, nb, s->block_bytes, s->counts);
    LAUNCH_CHECK();
    TCSPMM_TRY(device_exclusive_sum_i64(s->block_bytes, g->size_ptr, nb + 1));
    unsigned long long c[4];
    int64_t packed_bytes = 0;
    TCSPMM_TRY(TCSPMM_CUDA(cudaMemcpy(c, s->counts, sizeof c, cudaMemcpyDeviceToHost)));
    TCSPMM_TRY(TCSPMM_CUDA(cudaMemcpy(&packed_bytes, g->size_ptr + nb, sizeof packed_bytes,
                                      cudaMemcpyDeviceToHost)));

    TCSPMM_TRY(device_alloc((void **)&g->packed, (size_t)packed_bytes));
    if (nb > 0) {
        TCSPMM_TRY(TCSPMM_CUDA(cudaMemset(g->packed, 0, (size_t)packed_bytes)));
        write_headers<<<grid_for(nb), THREADS>>>(s->patterns, g->size_ptr, nb, g->packed);
        LAUNCH_CHECK();
    }
    if (nnz > 0) {
        write_values<TM><<<grid_for(nnz), THREADS>>>(A->values, s->entry_row, pos, s->block_ptr,
                                                     s->patterns, g->size_ptr, nnz, g->packed);
        LAUNCH_CHECK();
    }
    TCSPMM_TRY(TCSPMM_CUDA(cudaDeviceSynchronize()));
    shape->num_bricks = (int64_t)c[3];
    counts->nnz = (int64_t)c[0];
    counts->active_brick_cols = (int64_t)c[1];
    counts->nonempty_brick_cols = (int64_t)c[2];
    counts->packed_bytes = packed_bytes;
    return TCSPMM_SUCCESS;
}

extern "C" tcspmm_status hrpb_gpu_build(const csr_gpu *A, int panel_rows, hrpb *shape,
                                        hrpb_counts *counts, hrpb_gpu **out)
{
    if (!A || !shape || !counts || !out)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "hrpb_gpu_build: null argument");
    *out = NULL;
    memset(shape, 0, sizeof *shape);
    if (panel_rows != 16 && panel_rows != 32)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "hrpb_gpu_build: panel_rows is %d; it must be 16 or 32", panel_rows);
    if (!csr_gpu_fits(A->rows, A->nnz) || A->cols < 0 || A->cols > INT32_MAX)
        return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED,
                           "hrpb_gpu_build: %lld x %lld with %lld entries; the device build "
                           "needs rows and nnz below 2^31-1 and cols from 0 to 2^31-1",
                           (long long)A->rows, (long long)A->cols, (long long)A->nnz);
    shape->panel_rows = panel_rows;
    shape->rows = A->rows;
    shape->cols = A->cols;
    shape->nnz = A->nnz;
    shape->num_panels = (A->rows + panel_rows - 1) / panel_rows;
    shape->block_ptr = (int64_t *)malloc(((size_t)shape->num_panels + 1) * sizeof(int64_t));
    hrpb_gpu *g = (hrpb_gpu *)calloc(1, sizeof *g);
    if (!shape->block_ptr || !g) {
        free(g);
        hrpb_free(shape);
        return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY,
                           "hrpb_gpu_build: cannot allocate %lld panel offsets",
                           (long long)shape->num_panels + 1);
    }
    g->panel_rows = panel_rows;
    g->rows = A->rows;
    g->cols = A->cols;
    build_scratch s = {};
    tcspmm_status st = panel_rows == 16 ? build<16>(A, &s, shape, counts, g)
                                        : build<32>(A, &s, shape, counts, g);
    scratch_free(&s);
    if (st) {
        hrpb_gpu_free(g);
        hrpb_free(shape);
        return st;
    }
    *out = g;
    return TCSPMM_SUCCESS;
}
