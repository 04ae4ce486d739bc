/* sp24_pack_inline.h: B packed by the wgmma.sp kernel itself (sp24_wgmma.cu),
 * in the producer warpgroup's three idle warps while the tensor cores run,
 * in place of a packing pass before the kernel (sp24_mma.cu's pack_b).
 *
 * The packed copy is pack_b's: n_pad rows of k_pad elements, k contiguous;
 * fp32 rounded to TF32 (ties away) or to bf16/fp16 (ties to even); zero
 * outside k x n. It is cut into chunks of 128 columns by a group of four
 * stages (eight k-tiles), a chunk into pieces of 32 columns by 64 k (16
 * pieces in tf32, 32 in bf16/fp16). The packer warps of every block claim pieces
 * from one counter, in the order the work units will read them
 * (piece_at), pack them, and add each to its chunk's count; the producer
 * waits for a chunk's count before its TMA reads the chunk (wait_packed).
 *
 * Claiming, rather than a fixed share per block, means no piece waits for
 * a block that is not running: the product cannot deadlock however few
 * blocks are resident. The counts only grow: call e of a handle (epoch
 * e >= 1) has finished a chunk when its count reaches e times its pieces,
 * so they are never reset. The claim counter is reset, with the count of
 * finished packer warps, by the last of those warps, for the next call on
 * the stream (which starts after this kernel ends). */
#ifndef TCSPMM_SP24_PACK_INLINE_H
#define TCSPMM_SP24_PACK_INLINE_H

#include "c_store.h"

#include <stdint.h>

#define PACK_GROUP_STAGES 4 /* stages (of two k-tiles) in a chunk */
#define PACK_CHUNK_COLS 128 /* columns in a chunk */
#define PACK_SPAN 64        /* k of a piece */

/* The handle's words the packing shares: the claim counter, the count of
 * packer warps that found nothing left, then the chunks' counts
 * (n_chunks x k_groups, chunk-column major). */
enum { PACK_CLAIM = 0, PACK_DONE = 1, PACK_COUNTS = 2 };

/* What a launch packs, and in which order. */
struct b_pack_job {
    const void *src; /* the caller's B (NULL: nothing to pack) */
    void *dst;       /* the packed copy */
    uint32_t *sync;  /* PACK_* words */
    int64_t ld, k, n, k_pad;
    uint32_t epoch;
    int row_major, src16; /* src16: B's elements are the packed 16-bit type, else fp32 */
    int n_chunks, k_groups, k_tiles, k_stages;
    int k_chunk, pieces; /* k of a chunk (8 k-tiles) and its pieces: 4 x k_chunk / PACK_SPAN */
    /* The order: windows of `window` chunk columns (those the first units
     * share); in each, chunk rows by rank, all the window's chunks of a rank
     * together. Rank r is group r / splits of part r % splits of the K range
     * (the parts of a split K all start at once); `ranks` is splits times the
     * most groups a part has, so some ranks of short parts are empty. */
    int window, splits, ranks;
};

/* The first chunk row (group) of part p of the K range, the parts being
 * those of unit_at; k_groups for p = splits. */
__host__ __device__ inline int pack_part_group(const b_pack_job &j, int p)
{
    return p >= j.splits ? j.k_groups
                         : (int)((int64_t)j.k_stages * p / j.splits / PACK_GROUP_STAGES);
}

/* The slots of a call's claim order (each a piece or empty). */
__host__ __device__ inline uint32_t pack_slots(const b_pack_job &j)
{
    return (uint32_t)j.n_chunks * (uint32_t)j.ranks * (uint32_t)j.pieces;
}

/* The pieces a chunk row holds: four per 64 k below k_pad. */
__device__ __forceinline__ uint32_t pack_pieces_in_group(const b_pack_job &j, int g)
{
    const int64_t k = j.k_pad - (int64_t)g * j.k_chunk;
    return 4u * (uint32_t)min((int64_t)j.pieces / 4, (k + PACK_SPAN - 1) / PACK_SPAN);
}

/* Slot s of the claim order: chunk (c, g), the piece's first k k0 and its
 * column group cg (columns 32 cg .. of the chunk); false for an empty slot. */
__device__ __forceinline__ bool pack_piece_at(const b_pack_job &j, uint32_t s, int &c, int &g,
                                              int64_t &k0, int &cg)
{
    const uint32_t per_window = (uint32_t)j.window * (uint32_t)j.ranks * (uint32_t)j.pieces;
    const int w = (int)(s / per_window);
    const uint32_t r = s % per_window;
    const uint32_t width = (uint32_t)min(j.window, j.n_chunks - w * j.window);
    const int rank = (int)(r / (width * j.pieces)), piece = (int)(r % j.pieces);
    const int part = rank % j.splits;
    c = w * j.window + (int)(r / j.pieces % width);
    g = pack_part_group(j, part) + rank / j.splits;
    k0 = (int64_t)g * j.k_chunk + (int64_t)(piece / 4) * PACK_SPAN;
    cg = piece % 4;
    return g < pack_part_group(j, part + 1) && k0 < j.k_pad;
}

/* Element i of B as a float. */
template <typename T> __device__ __forceinline__ float pack_load(const b_pack_job &j, int64_t i)
{
    if constexpr (sizeof(T) == 2)
        if (j.src16) return to_float(__ldg((const T *)j.src + i));
    return __ldg((const float *)j.src + i);
}

/* One piece by one warp: columns n0 .. n0 + 31 by k0 .. k0 + 63 (those
 * below k_pad), all 64 reads in flight at once. Row-major B: lane l takes
 * column n0 + l (each read a warp's 32 neighbouring elements) and writes
 * its 64 k as one run. Column-major B: lane l takes k0 + l and k0 + 32 + l
 * of each of the 32 columns. */
template <typename T>
__device__ __forceinline__ void pack_piece(const b_pack_job &j, int64_t n0, int64_t k0)
{
    const int lane = threadIdx.x % 32;
    T *dst = (T *)j.dst;
    float x[PACK_SPAN];
    if (j.row_major) {
        const int64_t col = n0 + lane;
#pragma unroll
        for (int e = 0; e < PACK_SPAN; e++)
            x[e] = col < j.n && k0 + e < j.k ? pack_load<T>(j, (k0 + e) * j.ld + col) : 0.0f;
        c_vector<T, 8> *out = (c_vector<T, 8> *)(dst + col * j.k_pad + k0);
#pragma unroll
        for (int v = 0; v < PACK_SPAN / 8; v++) {
            if (k0 + 8 * v >= j.k_pad) break; /* k_pad: a multiple of 32 */
            c_vector<T, 8> o;
#pragma unroll
            for (int e = 0; e < 8; e++) o.e[e] = to_operand<T>(x[8 * v + e]);
            out[v] = o;
        }
    } else {
#pragma unroll
        for (int c = 0; c < 32; c++)
#pragma unroll
            for (int h = 0; h < 2; h++) {
                const int64_t kk = k0 + 32 * h + lane;
                x[2 * c + h] = n0 + c < j.n && kk < j.k ? pack_load<T>(j, (n0 + c) * j.ld + kk)
                                                        : 0.0f;
            }
#pragma unroll
        for (int c = 0; c < 32; c++)
#pragma unroll
            for (int h = 0; h < 2; h++) {
                const int64_t kk = k0 + 32 * h + lane;
                if (kk < j.k_pad) dst[(n0 + c) * j.k_pad + kk] = to_operand<T>(x[2 * c + h]);
            }
    }
}

/* A packer warp: claims and packs pieces until none is left (the next
 * claim in flight while it packs), adding each to its chunk's count once
 * its bytes are visible to TMA (the async proxy) at the scope of the GPU:
 * every lane's proxy fence, the warp's barrier (which orders the lanes'
 * writes before lane 0's), then lane 0's release. */
template <typename T> __device__ __forceinline__ void pack_b_inline(const b_pack_job &j)
{
    const int lane = threadIdx.x % 32;
    const uint32_t slots = pack_slots(j);
    uint32_t next = lane == 0 ? atomicAdd(&j.sync[PACK_CLAIM], 1u) : 0u;
    for (;;) {
        const uint32_t s = __shfl_sync(0xffffffffu, next, 0);
        if (s >= slots) break;
        if (lane == 0) next = atomicAdd(&j.sync[PACK_CLAIM], 1u);
        int c, g, cg;
        int64_t k0;
        if (!pack_piece_at(j, s, c, g, k0, cg)) continue;
        pack_piece<T>(j, (int64_t)c * PACK_CHUNK_COLS + 32 * cg, k0);
        asm volatile("fence.proxy.async.global;" ::: "memory");
        __syncwarp();
        if (lane == 0)
            asm volatile("red.release.gpu.global.add.u32 [%0], 1;" ::"l"(
                             &j.sync[PACK_COUNTS + (int64_t)c * j.k_groups + g])
                         : "memory");
    }
    if (lane == 0 && atomicAdd(&j.sync[PACK_DONE], 1u) == 3u * gridDim.x - 1u) {
        atomicExch(&j.sync[PACK_CLAIM], 0u);
        atomicExch(&j.sync[PACK_DONE], 0u);
    }
}

/* The producer, before its TMA reads stage kb of the columns at n0: returns
 * once that stage's chunk is packed (at once without a job). */
__device__ __forceinline__ void wait_packed(const b_pack_job &j, int64_t n0, int kb)
{
    if (!j.src) return;
    const int g = kb / PACK_GROUP_STAGES;
    const uint32_t *count = &j.sync[PACK_COUNTS + n0 / PACK_CHUNK_COLS * j.k_groups + g];
    const uint32_t target = j.epoch * pack_pieces_in_group(j, g);
    for (;;) {
        uint32_t v;
        asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(count) : "memory");
        if ((int32_t)(v - target) >= 0) break;
        __nanosleep(100);
    }
    asm volatile("fence.proxy.async.global;" ::: "memory");
}

#endif
