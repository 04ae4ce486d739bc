/* hrpb_kernel.h: the HRPB SpMM kernel on TF32 tensor cores (cuTeSpMM,
 * Algorithm 1), a template over its tile sizes and operand types, and
 * hrpb_kernel_of, which gives its instance for a launch. Its instances come
 * in three families, each built in a file of its own and so a module of its
 * own, which the CUDA runtime loads at the first use of one of its kernels:
 * hrpb_kernels_tf32.cu (float B and C, TF32), hrpb_kernels_fp32.cu (float B
 * and C, 3xTF32) and hrpb_kernels_16bit.cu (a bf16 or fp16 B). On an H200
 * the first occupancy query of a process, which loads the module, took
 * 29-37 ms with all 106 kernels in one module and 3.1 ms with the 18 of
 * TF32's own, and the first plan of the 27-point stencil went from 30x-54x
 * one cuSPARSE SpMM to 17.5x-22.0x (one run at 45.1x; bench/results/
 * plan-first-modules-h200-2026-11-29/). The host side is hrpb_tf32.cu.
 *
 * C = alpha*A*B + beta*C. One thread block per (virtual panel, N tile of
 * 32*WARPS columns); the grid's y dimension strides over the N tiles.
 *
 * Per HRPB block (16 active columns = 4 brick columns = 2 brick-column
 * pairs) the thread block does three things, each on a different block of
 * the pipeline (b = the block being multiplied):
 *   - copy (cp.async): the packed bytes of block b + STAGES and the 16 B rows
 *     of block b + STAGES - 1 (restricted to the N tile) into shared-memory
 *     stages (three, or two: see DEEP_STAGES below);
 *   - decode: block b + 1's bricks into a dense TM x 16 A tile held in
 *     m16n8k8 fragment order and already rounded to TF32. Warp w decodes
 *     brick columns w, w + WARPS, ...: lane l takes bits l and l + 32 of the
 *     pattern (rows l/4 and l/4 + 8, column l%4), value index by popcount;
 *   - multiply block b: warp w owns the TM x 32 tile of C at columns 32w.. of
 *     the N tile, TM/16 x 4 accumulators of 16x8. Per brick-column pair it
 *     reads its A fragment (one 16-byte load per brick row) and two 16-byte
 *     B loads, and issues mma.m16n8k8 (k = the pair's 8 active columns) for
 *     each of its 4 n8 tiles. A pair without bricks is skipped.
 * One __syncthreads per HRPB block orders all three. The MMAs of block b are
 * issued before the decode of block b + 1, so the tensor cores run while the
 * decode's chain of shared-memory loads does (decode first was 2-3% slower
 * at N = 128 and 512: bench/results/hrpb-mma-first-2026-11-26/). With one
 * warp (N <= 32) nothing is shared: the warp decodes block b in registers
 * just before its MMAs, its packed bytes are copied with its B rows (block
 * b + STAGES - 1), and there are no decoded buffers in shared memory. Panel
 * row i is row row_map[i] of C when the rows were reordered (row_map not
 * NULL).
 *
 * FP32-accurate mode (SPLIT, 3xTF32): every A value and B element x is split
 * as x = hi + lo with hi = tf32(x) and lo = tf32(x - hi) where it is decoded
 * or loaded (A's split happens once per thread block, in the decode step, so
 * HRPB keeps one float per non-zero and the kernel reads no more bytes), and
 * each MMA becomes three, lo*hi + hi*lo + hi*hi (lo*lo, about one FP32
 * rounding of the product, is dropped), into a zeroed fragment that is then
 * added to the accumulators with FP32 adds: the tensor cores round their sums
 * toward zero, and keeping their sums short keeps that error at the size of
 * an FP32 dot product's.
 *
 * Column order inside a warp's 32 columns: n8 tile s, MMA column q is the
 * warp's column 4q + s. So lane (g = lane/4, t = lane%4) reads its B
 * operands of all four tiles as one float4 (columns 4g..4g+3 of a B row),
 * and holds columns 8t..8t+7 of rows g and g + 8 of C (tile s: columns
 * 8t + s and 8t + 4 + s): two float4 stores per row (two float4 atomic
 * adds on sm_90 for the parts of a split panel). A row-major C whose rows
 * are not 16-byte aligned goes through shared memory instead, and out 32
 * columns of one row per store (N > 8; see the epilogue). That path takes
 * each row's index of C from shared memory, where the lanes holding c_row
 * put it, so that nothing else of the panel stays live to the epilogue:
 * reading the row map there made FP32's four-warp, three-stage kernel with
 * 16-byte B copies spill and schedule its MMAs worse, 1.07x slower at
 * N = 128 (bench/results/fp32-c-rows-2026-11-27/).
 *
 * Copies: thread t copies B chunk (4 floats) t % (8*WARPS) of rows
 * 4*(t / (8*WARPS)) + i, i = 0..3 (their 4 active columns are one int4);
 * padding column -1 is zero-filled without reading B. Chunks at columns >= n
 * are not copied: a product column depends only on its own B column and
 * those outputs are never stored. The chunk that n cuts goes element by
 * element, so no copy reads past the end of B. A float B whose rows lie
 * under 16 bytes apart (column-major, or row-major with ldb < 4) is copied
 * element by element down the columns instead (thread t: row t % 16, every
 * 2*WARPS-th column from t / 16), so that a warp reads 16 rows of two
 * columns: a column-major B read in place with this mapping was 1.00x-1.17x
 * faster at n = 1 than with the chunks, and in TF32 faster than a
 * transpose first at n = 2 and 3 (in FP32 mode not on two small matrices
 * with scattered columns; bench/results/colb-direct-h200-2026-11-29/). The
 * B stage is 16 rows of 32*WARPS + 8 floats: the pad puts the 8 lanes of
 * each quarter-warp of a B-fragment read (rows t, columns 4g..4g+3) in 32
 * different banks.
 *
 * 16-bit B (bf16 or fp16, TF32 arithmetic only, row-major B whose rows start
 * 8 bytes apart: hrpb_gpu_reads_b): the stages hold B's own 2-byte elements,
 * half the bytes of the gather, and each lane widens its four elements of a
 * row to floats as it reads them. Widening is exact and every bf16 or fp16
 * value is a TF32 value, so the MMAs see what a float copy of B would give
 * them. A copy chunk is eight elements (16 bytes; each thread copies two
 * rows of one) where B is 16-byte aligned with ldb a multiple of 8, else four
 * (8 bytes, four rows as for floats), one cp.async per row (zeros for
 * padding columns); the chunk that n cuts goes in pieces that read only
 * B's elements, zeros after them. Rows are padded by 16 elements (again 32
 * bytes). With such a B the kernel can also write C in B's type (CK): each
 * lane's eight columns of a row, alpha * sum + beta * C in float, rounded
 * to nearest even once, as one 16-byte store where C allows, else element
 * by element. There are no 16-bit atomics that round once, so the parts of
 * a split panel add their alpha * sums into float rows the plan keeps, and
 * the last part to finish an N tile rounds them into C with beta and zeroes
 * them (hrpb_split_meet in hrpb_gpu_internal.h). */
#ifndef TCSPMM_HRPB_KERNEL_H
#define TCSPMM_HRPB_KERNEL_H

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "c_store.h"
#include "dependent_launch.h"
#include "hrpb_gpu_internal.h"
#include "sp24_gpu.h"
#include "tf32_round.h"

enum { MAX_WARPS = 4 };

/* Copy stages: three, or two where that lets more thread blocks share an SM
 * (TF32, TM = 16, one warp: 28 instead of 19; two: 14 instead of 11; four: 8
 * instead of 7). The launch takes two stages only when its blocks make at
 * least two waves of three-stage blocks: there the warps hide more latency
 * than the third stage does (on an H200, 1.18x-1.27x faster at N = 32, up
 * to 1.06x at N = 128 and 512 and 1.056x (up to 1.13x) at N = 64, a few
 * long-panel products 1-2.5% slower), while with fewer waves a panel's
 * serial chain of blocks can bound the time, and one block of lookahead made
 * such products up to 1.27x slower. Four stages (5 blocks of four warps)
 * were slower at N = 128. FP32 (3xTF32) has two stages with one and two
 * warps (24 instead of 19 blocks; 11 instead of 10): 1.019x-1.023x at
 * N = 8-32, up to 1.12x, and 1.024x at N = 64; not with four warps: 1.015x
 * at N = 128 but 0.999x at N = 512, down to 0.959x. TM = 32 (whose
 * registers, not shared memory, limit the blocks) was not measured.
 * bench/NOTES.md, bench/results/hrpb-stages-2026-11-26/,
 * hrpb-two-warps-2026-11-26/ and fp32-two-stages-2026-11-27/. */
enum { DEEP_STAGES = 3, SHALLOW_STAGES = 2, SHALLOW_MIN_WAVES = 2 };

template <int TM, int WARPS, bool SPLIT>
constexpr bool has_shallow(void)
{
    return TM == 16 && (!SPLIT || WARPS <= 2);
}

/* Split panels add their partial sums atomically: sm_90 has 16-byte float4
 * atomics on global memory (two per row of a lane's 8 columns instead of 8). */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define VEC_ATOMICS 1
#else
#define VEC_ATOMICS 0
#endif

/* s[0 .. 7] += x[0 .. 7] atomically, s on a 32-byte boundary (the float
 * sums of a split panel's rows under a 16-bit C). */
__device__ __forceinline__ void add_to_sums(float *s, const float (&x)[8])
{
#if VEC_ATOMICS
    atomicAdd(reinterpret_cast<float4 *>(s), make_float4(x[0], x[1], x[2], x[3]));
    atomicAdd(reinterpret_cast<float4 *>(s) + 1, make_float4(x[4], x[5], x[6], x[7]));
#else
#pragma unroll
    for (int q = 0; q < 8; q++) atomicAdd(s + q, x[q]);
#endif
}

/* The columns q < left of 8 (c_sj apart) of a row of C = x + beta * C,
 * rounded once to CT (c_store.h): 16-byte stores where vec (row-major, c
 * 16-byte aligned) and all 8 are in, else one element at a time. */
template <typename CT>
__device__ __forceinline__ void store_row8(CT *c, int64_t c_sj, const float (&x)[8], float beta,
                                           bool vec, int64_t left)
{
    constexpr int W = 16 / sizeof(CT);
    if (vec && left >= 8) {
#pragma unroll
        for (int q = 0; q < 8; q += W)
            store_c<CT, W, false>(c + q, 1.0f, *reinterpret_cast<const float(*)[W]>(x + q), beta);
        return;
    }
#pragma unroll
    for (int q = 0; q < 8; q++)
        if (q < left) {
            const float v[1] = {x[q]};
            store_c<CT, 1, false>(c + q * c_sj, 1.0f, v, beta);
        }
}

/* Whether this thread block is the last part of split panel split (1 + its
 * index) to finish N tile tile (hrpb_split_meet): each part adds its sums,
 * then takes a ticket; the part with the last one puts the ticket back to
 * zero. flag: a word of shared memory no warp reads now. */
__device__ __forceinline__ bool last_part(const hrpb_split_meet &m, int split, int64_t tile,
                                          int *flag)
{
    /* The barrier puts every thread's adds before thread 0's atomic, whose
     * release (cumulative, through the barrier) publishes them with the
     * ticket; its acquire, before the second barrier, lets the last part's
     * threads read every part's adds (cooperative groups' grid sync orders
     * a block's writes the same way). */
    __syncthreads();
    if (threadIdx.x == 0) {
        int32_t *ticket = m.tickets + (int64_t)(split - 1) * m.ld_tickets + tile;
        int taken;
        asm volatile("atom.acq_rel.gpu.global.add.s32 %0, [%1], 1;\n"
                     : "=r"(taken)
                     : "l"(ticket)
                     : "memory");
        const bool last = taken == m.parts[split - 1] - 1;
        if (last) *ticket = 0;
        *flag = last;
    }
    __syncthreads();
    return *flag != 0;
}

/* ------------------------------------------------------------------ */
/* PTX wrappers */

/* smem: a shared-memory address (__cvta_generic_to_shared). */
__device__ __forceinline__ void cp_async16(unsigned smem, const void *gmem)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem), "l"(gmem) : "memory");
}

/* 16 bytes of the B row of active column col, or zeros (gmem not read) for
 * a padding column (col < 0). */
__device__ __forceinline__ void cp_async16_row(unsigned smem, const void *gmem, int col)
{
    asm volatile("{\n .reg .pred pad;\n setp.lt.s32 pad, %2, 0;\n"
                 " cp.async.cg.shared.global [%0], [%1], 16, pad;\n}\n" ::"r"(smem),
                 "l"(gmem), "r"(col)
                 : "memory");
}

/* BYTES (8 or 16) bytes at gmem, of which the first src_bytes are read and
 * the rest zero-filled (0: gmem not read). */
template <int BYTES>
__device__ __forceinline__ void cp_async_part(unsigned smem, const void *gmem, int src_bytes)
{
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(smem), "l"(gmem),
                 "n"(BYTES), "r"(src_bytes)
                 : "memory");
}

__device__ __forceinline__ void cp_async4(unsigned smem, const void *gmem, int src_bytes)
{
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(smem), "l"(gmem),
                 "r"(src_bytes)
                 : "memory");
}

/* A 16-bit B chunk of BYTES (8 or 16) that n cuts: its first `elements`
 * (< BYTES / 2) elements at gmem, zeros after them (all zeros and gmem not
 * read where row is false: a padding column); pairs of elements by 4-byte
 * cp.async, an odd last element by a plain load. One cp.async of BYTES with a smaller source
 * size would read only those elements (PTX ISA), but compute-sanitizer's
 * memcheck counts all BYTES and reports a read past B's end where the chunk
 * ends B. */
template <int BYTES>
__device__ __forceinline__ void copy_cut_chunk16(unsigned smem, const uint8_t *gmem,
                                                 int elements, bool row)
{
#pragma unroll
    for (int e = 0; e < BYTES / 2; e += 2) {
        if (e + 1 < elements) {
            cp_async4(smem + 2 * e, gmem + 2 * e, row ? 4 : 0);
        } else {
            const unsigned last =
                e < elements && row ? *reinterpret_cast<const unsigned short *>(gmem + 2 * e) : 0u;
            asm volatile("st.shared.u32 [%0], %1;\n" ::"r"(smem + 2 * e), "r"(last) : "memory");
        }
    }
}

__device__ __forceinline__ void cp_async_commit(void)
{
    asm volatile("cp.async.commit_group;\n" ::: "memory");
}

template <int PENDING>
__device__ __forceinline__ void cp_async_wait(void)
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(PENDING) : "memory");
}

/* x rounded to TF32, to nearest (ties to even on sm_90, where cvt.rn.tf32
 * exists; away from zero below, tf32_round.h): a NaN stays a NaN, an
 * infinity infinite.
 * Adding half a TF32 ulp (bit 12) to the bits, which the tensor cores then
 * read the top 19 of, was 1.1-1.3% faster (the F2FP of cvt writes in place
 * and costs a move into the MMA's register pair), but a NaN's carry could
 * run through the sign: 0x7fffffff, the NaN GPU arithmetic makes, read as
 * -0 and vanished from C (bench/results/nan-b-2026-11-27/). */
__device__ __forceinline__ unsigned tf32_bits(float x)
{
#if __CUDA_ARCH__ >= 900
    unsigned r;
    asm("cvt.rn.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
    return r;
#else
    return tf32_rna_bits(x);
#endif
}

/* (x0, x1) rounded to TF32 as one 64-bit value (an MMA operand pair lands in
 * a register pair). */
__device__ __forceinline__ unsigned long long tf32_pair(float x0, float x1)
{
    return (unsigned long long)tf32_bits(x1) << 32 | tf32_bits(x0);
}

/* What the TF32 pair hi leaves out of (x0, x1), rounded to TF32: x = hi + lo
 * to about 2^-22 relative. hi's low 13 bits are cleared to read it as a float. */
__device__ __forceinline__ unsigned long long tf32_rest_pair(float x0, float x1,
                                                             unsigned long long hi)
{
    const float h0 = __uint_as_float((unsigned)hi & 0xffffe000u);
    const float h1 = __uint_as_float((unsigned)(hi >> 32) & 0xffffe000u);
    return tf32_pair(x0 - h0, x1 - h1);
}

/* The float bits of the 16-bit element in the low (half 0) or high (half 1)
 * half of w, bf16 or fp16 as BK says: exact, and already a TF32 value (its
 * low 13 bits are zero), so no rounding follows. */
template <int BK>
__device__ __forceinline__ unsigned widened_bits(unsigned w, int half)
{
    const unsigned h = half ? w >> 16 : w & 0xffffu;
    if constexpr (BK == SP24_DATA_BF16) return h << 16;
    return __float_as_uint(__half2float(__ushort_as_half((unsigned short)h)));
}

/* d (16x8) += a (16x8, row) * b (8x8, col) in TF32, f32 accumulators. */
__device__ __forceinline__ void mma_tf32_16x8x8(float d[4], uint4 a, unsigned long long b)
{
    asm volatile("{\n .reg .b32 b0, b1;\n mov.b64 {b0, b1}, %8;\n"
                 " mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {b0,b1}, {%0,%1,%2,%3};\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a.x), "r"(a.y), "r"(a.z), "r"(a.w), "l"(b));
}

/* ------------------------------------------------------------------ */
/* The kernel */

/* How the kernel holds an element of B: a float, or the bits of a 16-bit
 * one (BK: SP24_DATA_FP32, _BF16 or _FP16 of sp24_gpu.h). */
template <int BK>
struct b_element {
    typedef float type;
};
template <>
struct b_element<SP24_DATA_BF16> {
    typedef unsigned short type;
};
template <>
struct b_element<SP24_DATA_FP16> {
    typedef unsigned short type;
};

/* The element type of a C of type CK (SP24_DATA_*), for c_store.h. */
template <int CK>
struct c_element {
    typedef float type;
};
template <>
struct c_element<SP24_DATA_BF16> {
    typedef __nv_bfloat16 type;
};
template <>
struct c_element<SP24_DATA_FP16> {
    typedef __half type;
};

/* The active columns of the B rows one thread copies (ROWS consecutive,
 * loaded as one vector). */
template <int ROWS>
struct col_group {
    typedef int4 type;
};
template <>
struct col_group<2> {
    typedef int2 type;
};

/* The copy stages of a thread block. The B stages, once the last block is
 * multiplied, also hold the C tile a staged epilogue writes (C_LD floats a
 * row, and the rows' indices). */
template <int TM, int WARPS, int STAGES, int BK>
struct hrpb_stages {
    typedef typename b_element<BK>::type belem;
    static constexpr int EB = sizeof(belem);
    static constexpr int NT = 32 * WARPS;    /* N columns of a tile */
    static constexpr int LDB = NT + 32 / EB; /* padded B row, elements */
    static constexpr int B_STAGE_BYTES = HRPB_TK * LDB * EB;
    static constexpr int C_LD = 33;
    static constexpr int C_TILE_BYTES = WARPS * TM * (C_LD + 2) * 4;
    static constexpr int B_BYTES =
        STAGES * B_STAGE_BYTES > C_TILE_BYTES ? STAGES * B_STAGE_BYTES : C_TILE_BYTES;
    static constexpr int A_BYTES = HRPB_HEADER_BYTES + (TM / 16) * 4 * 8 + TM * HRPB_TK * 4;
    alignas(16) unsigned char b[B_BYTES];         /* B rows of blocks b .. b + STAGES - 1 */
    alignas(16) unsigned char a[STAGES][A_BYTES]; /* packed blocks b+1 .. (1 warp: b ..) */
};

/* One decoded block: frag[h][r][p][lane] = lane's m16n8k8 A fragment of
 * brick row r, brick columns 2p and 2p + 1 (TF32 bits; h = 0: the values,
 * h = 1 (SPLIT only): what TF32 left out of them); present[c] has bit r set
 * when brick (r, c) is stored. */
template <int TM, bool SPLIT>
struct hrpb_decoded {
    uint4 frag[SPLIT ? 2 : 1][TM / 16][2][32];
    unsigned char present[4];
};

/* Shared memory of a thread block: the stages, then the decoded blocks b and
 * b + 1. One warp decodes in registers (nothing to share): no decoded blocks. */
template <int TM, int WARPS, int STAGES, bool SPLIT, int BK>
struct hrpb_smem : hrpb_stages<TM, WARPS, STAGES, BK> {
    alignas(16) hrpb_decoded<TM, SPLIT> d[2];
};
template <int TM, int STAGES, bool SPLIT, int BK>
struct hrpb_smem<TM, 1, STAGES, SPLIT, BK> : hrpb_stages<TM, 1, STAGES, BK> {};

/* The minimum blocks per SM of __launch_bounds__: for TM = 16, as many as
 * the shared memory of an H100 holds (228 KB, 1 KB of it reserved per
 * block), so that registers do not limit occupancy below that, with two
 * caps for two stages, where registers would spill:
 *   - four warps: at most 8 (64 registers). The 10 that fit get 48 and spill
 *     in the loop (1.57x slower); 9 (56 registers, a small spill) were 0.995x
 *     at N = 128, down to 0.88x.
 *   - two warps: at most 14 (72 registers). The 15 that fit get 64 and spill
 *     (1.023x at N = 64, against 1.056x for 14). In FP32 at most 11 (80
 *     registers; a 4-byte spill outside the main loop).
 *   - one warp, FP32: at most 24 (80 registers, as six warps share an SM
 *     sub-partition's registers; 24 bytes spilled at the start and reloaded
 *     in the epilogue, none in the block loop). The 28 that fit get 72 and
 *     spill 44-68 bytes. Built for GPUs before sm_90, whose shared memory
 *     holds at most 19 such blocks, at most 20 (96 registers): at 24, sm_80
 *     code reloads a spilled value in the block loop.
 * TM = 32 would spill under these caps and is left to the compiler. A
 * 16-bit B's kernel, whose stages are smaller, has its float twin's bound
 * and so the same registers. */
template <int TM, int WARPS, int STAGES, bool SPLIT>
constexpr int min_blocks_per_sm(void)
{
    constexpr int by_smem =
        (228 * 1024) / (int)(sizeof(hrpb_smem<TM, WARPS, STAGES, SPLIT, SP24_DATA_FP32>) + 1024);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
    constexpr int one_warp_split_cap = 20;
#else
    constexpr int one_warp_split_cap = 24;
#endif
    constexpr int cap = WARPS == MAX_WARPS ? 8
                        : WARPS == 2       ? (SPLIT ? 11 : 14)
                                           : (SPLIT ? one_warp_split_cap : by_smem);
    return TM != 16 ? 1 : by_smem > cap ? cap : by_smem;
}

template <int TM, int WARPS, int STAGES, bool VEC, bool SPLIT, int BK, int CK>
__global__ void __launch_bounds__(32 * WARPS, (min_blocks_per_sm<TM, WARPS, STAGES, SPLIT>()))
hrpb_tf32_kernel(const hrpb_vpanel *__restrict__ vpanels, const int64_t *__restrict__ size_ptr,
                 const int32_t *__restrict__ active_cols, const uint8_t *__restrict__ packed,
                 const int64_t *__restrict__ row_map, int64_t rows, int64_t n, int64_t n_tiles,
                 float alpha, const void *B, int64_t b_sk, int64_t b_sj, float beta, void *C,
                 int64_t c_si, int64_t c_sj, bool c_vec, bool c_staged, hrpb_split_meet meet)
{
    typedef hrpb_smem<TM, WARPS, STAGES, SPLIT, BK> smem_t;
    typedef typename smem_t::belem belem;
    constexpr int EB = smem_t::EB;
    static_assert(EB == 4 || !SPLIT, "16-bit B: TF32 only");
    static_assert(CK == SP24_DATA_FP32 || CK == BK, "a 16-bit C: B's type");
    constexpr int H = SPLIT ? 2 : 1; /* TF32 parts of an operand */
    /* A copy chunk is 16 bytes of a B row (four floats, or eight 16-bit
     * elements), or 8 (four 16-bit elements) where B's rows are only 8-byte
     * aligned; each thread copies ROWS rows of one chunk column. */
    constexpr int CHUNK = EB == 2 && VEC ? 8 : 4, ROWS = 16 / CHUNK;
    constexpr int NT = smem_t::NT, LDB = smem_t::LDB, CHUNKS = NT / CHUNK;
    typedef typename col_group<ROWS>::type cols_t;
    constexpr int A_CHUNKS = smem_t::A_BYTES / 16, BR = TM / 16;
    /* Brick columns a warp decodes. B rows are copied B_AHEAD blocks ahead of
     * the MMAs. One warp decodes block it in registers just before its MMAs,
     * so its packed bytes travel with its B rows; several warps decode block
     * it + 1 into shared memory, so packed bytes go one block further ahead.
     * Copy group k holds block k's B rows and packed block k (one warp) or
     * k + 1 (several; group 0 also packed block 0). */
    constexpr int COLS = HRPB_BRICK_COLS / WARPS;
    constexpr bool REG_DECODE = WARPS == 1;
    constexpr int B_AHEAD = STAGES - 1;
    __shared__ __align__(16) smem_t sm;

    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int g = lane / 4, t = lane % 4;
    const int copy_row = ROWS * (tid / CHUNKS), copy_chunk = tid % CHUNKS;

    const hrpb_vpanel vp = vpanels[blockIdx.x];
    const int64_t blk0 = vp.first_block;
    const int nblk = vp.blocks; /* < 2^27: at most cols / 16 */
    /* A float B whose rows lie under 16 bytes apart is copied by columns
     * (Copies, at the top): whole sectors where active columns run on. */
    const bool by_column = !VEC && EB == 4 && b_sk < 4;
    /* Block b's active columns copy_row .. copy_row + ROWS - 1 (aligned; by
     * column: only the first, column tid % 16) at my_cols[HRPB_TK * b]. */
    const int32_t *my_cols = active_cols + blk0 * HRPB_TK + (by_column ? tid % 16 : copy_row);
    const int64_t *my_sizes = size_ptr + blk0;
    /* The rows of C of this lane's accumulators (rows g and g + 8 of each
     * brick row; -1 past the last row) and whether the panel is split, read
     * now so that the epilogue does not wait for them. */
    const bool split = vp.split != 0;
    int64_t c_row[BR][2];
    {
        const int64_t row0 = vp.panel * TM;
#pragma unroll
        for (int r = 0; r < BR; r++)
#pragma unroll
            for (int h = 0; h < 2; h++) {
                const int64_t i = row0 + 16 * r + g + 8 * h;
                c_row[r][h] = i >= rows ? -1 : row_map ? row_map[i] : i;
            }
    }

    for (int64_t tile = blockIdx.y; tile < n_tiles; tile += gridDim.y) {
        const int64_t n0 = tile * NT;
        /* This thread's B chunk: columns j..j+3 of the tile. */
        const int64_t j = n0 + copy_chunk * CHUNK;
        const bool chunk_in = j < n, chunk_whole = j + CHUNK <= n;
        const int cut_elements = (int)(n - j); /* read where chunk_in && !chunk_whole */
        /* By column: this thread's first column, tid / 16. */
        const int first_column = tid / 16;
        /* B at this thread's first column (b_sj == 1 unless by column). */
        const uint8_t *Bj = static_cast<const uint8_t *>(B) +
                            (by_column ? (n0 + first_column) * b_sj : j) * EB;

        /* Shared addresses: stage 0 of this thread's A chunk and B chunk (by
         * column: row tid % 16). */
        const unsigned a_smem = (unsigned)__cvta_generic_to_shared(&sm.a[0][0]) + 16 * tid;
        const unsigned b_smem =
            (unsigned)__cvta_generic_to_shared(sm.b) +
            (by_column ? tid % 16 * LDB : copy_row * LDB + copy_chunk * CHUNK) * EB;
        /* VEC: the host passes b_sk < 2^30, so b_sk * EB fits 32 bits; the
         * offset of a row (times up to 2^31 rows) needs the 64 bits */
        const uint64_t row_bytes = VEC ? (uint32_t)(b_sk * EB) : (uint64_t)b_sk * EB;

        /* The packed bytes [begin, end) of a block into A stage s. */
        auto issue_a = [&](int64_t begin, int64_t end, int s) {
            const uint8_t *src = packed + begin + 16 * tid;
            const int chunks = (int)((uint32_t)(end - begin) / 16) - tid;
#pragma unroll
            for (int i = 0; i < (A_CHUNKS + NT - 1) / NT; i++)
                if (i * NT < chunks)
                    cp_async16(a_smem + s * smem_t::A_BYTES + 16 * i * NT, src + 16 * i * NT);
        };
        /* This thread's chunk of the B rows of active columns col into B
         * stage s (by column: its row's elements, of active column col.x). */
        auto issue_b = [&](cols_t col, int s) {
            const int *cs = reinterpret_cast<const int *>(&col);
            const unsigned dst = b_smem + s * smem_t::B_STAGE_BYTES;
            if (by_column) {
                const uint8_t *src = Bj + (uint64_t)max(col.x, 0) * row_bytes;
                const int64_t step = 2 * WARPS * b_sj * EB;
#pragma unroll 8
                for (int jj = first_column; jj < NT && n0 + jj < n; jj += 2 * WARPS, src += step)
                    cp_async4(dst + jj * EB, src, col.x < 0 ? 0 : 4);
            } else if constexpr (EB == 2) {
                if (chunk_whole) {
#pragma unroll
                    for (int i = 0; i < ROWS; i++)
                        cp_async_part<CHUNK * 2>(dst + i * LDB * EB,
                                                 Bj + (unsigned)max(cs[i], 0) * row_bytes,
                                                 cs[i] < 0 ? 0 : CHUNK * 2);
                } else if (chunk_in) { /* the chunk that n cuts */
#pragma unroll
                    for (int i = 0; i < ROWS; i++)
                        copy_cut_chunk16<CHUNK * 2>(dst + i * LDB * EB,
                                                    Bj + (unsigned)max(cs[i], 0) * row_bytes,
                                                    cut_elements, cs[i] >= 0);
                }
            } else if (VEC && chunk_whole) {
#pragma unroll
                for (int i = 0; i < 4; i++)
                    cp_async16_row(dst + i * LDB * 4, Bj + (unsigned)max(cs[i], 0) * row_bytes,
                                   cs[i]);
            } else if (chunk_in) { /* rows 16-byte copies cannot take, or the chunk that n cuts */
#pragma unroll
                for (int i = 0; i < 4; i++) {
                    const float *src = reinterpret_cast<const float *>(
                        Bj + (unsigned)max(cs[i], 0) * row_bytes);
#pragma unroll
                    for (int e = 0; e < 4; e++)
                        if (j + e < n)
                            cp_async4(dst + (i * LDB + e) * 4, src + e, cs[i] < 0 ? 0 : 4);
                }
            }
        };
        /* Brick columns c = warp + k * WARPS of the block in A stage s, each
         * passed on as emit(k, f, present): f[0][r] = lane's A elements of
         * brick (r, c) as a TF32 pair (zeros where no brick), f[1][r] (SPLIT)
         * what TF32 left out of them, present bit r set when brick (r, c) is
         * stored. */
        auto decode = [&](int s, auto &&emit) {
            const unsigned char *a = sm.a[s];
            const int nbricks = a[4];
            const unsigned long long *pattern =
                reinterpret_cast<const unsigned long long *>(a + HRPB_HEADER_BYTES);
            const float *values =
                reinterpret_cast<const float *>(a + HRPB_HEADER_BYTES + 8 * nbricks);
            const unsigned below = (1u << lane) - 1u;
            /* Lane j < nbricks: the value count of brick j. */
            const int count = lane < nbricks ? __popcll(pattern[lane]) : 0;
#pragma unroll
            for (int k = 0; k < COLS; k++) {
                const int c = warp + k * WARPS;
                const int j0 = a[c], j1 = a[c + 1];
                int value0 = __reduce_add_sync(0xffffffffu, lane < j0 ? count : 0);
                float x[BR][2];
                unsigned long long f[H][BR];
                unsigned present = 0;
#pragma unroll
                for (int r = 0; r < BR; r++) x[r][0] = x[r][1] = 0.0f;
#pragma unroll
                for (int q = 0; q < BR; q++) {
                    const int jb = j0 + q;
                    if (jb >= j1) break;
                    const unsigned long long p = pattern[jb];
                    const unsigned lo = (unsigned)p, hi = (unsigned)(p >> 32);
                    const int lo_count = __popc(lo);
                    const float x0 = lo >> lane & 1u ? values[value0 + __popc(lo & below)] : 0.0f;
                    const float x1 =
                        hi >> lane & 1u ? values[value0 + lo_count + __popc(hi & below)] : 0.0f;
                    value0 += lo_count + __popc(hi);
                    const int r = BR == 1 ? 0 : a[5 + jb];
#pragma unroll
                    for (int rr = 0; rr < BR; rr++)
                        if (rr == r) {
                            x[rr][0] = x0;
                            x[rr][1] = x1;
                        }
                    present |= 1u << r;
                }
#pragma unroll
                for (int r = 0; r < BR; r++) {
                    f[0][r] = tf32_pair(x[r][0], x[r][1]);
                    if constexpr (SPLIT) f[H - 1][r] = tf32_rest_pair(x[r][0], x[r][1], f[0][r]);
                }
                emit(k, f, present);
            }
        };
        /* The block in A stage s decoded into shared buffer d (several warps). */
        auto decode_to_smem = [&](int s, hrpb_decoded<TM, SPLIT> &d) {
            decode(s, [&](int k, const unsigned long long (&f)[H][BR], unsigned present) {
                const int c = warp + k * WARPS;
#pragma unroll
                for (int h = 0; h < H; h++)
#pragma unroll
                    for (int r = 0; r < BR; r++) {
                        unsigned *frag = &d.frag[h][r][c / 2][lane].x + 2 * (c % 2);
                        *reinterpret_cast<unsigned long long *>(frag) = f[h][r];
                    }
                if (lane == 0) d.present[c] = (unsigned char)present;
            });
        };

        float acc[BR][4][4];
#pragma unroll
        for (int r = 0; r < BR; r++)
#pragma unroll
            for (int s = 0; s < 4; s++)
#pragma unroll
                for (int e = 0; e < 4; e++) acc[r][s][e] = 0.0f;

        /* The next packed block to copy is a_blk (bytes [a_begin, a_end), into
         * stage a_stage); the next B rows are block b_blk's (active columns
         * cols, into stage b_stage). Block k lives in stage k % STAGES. Each
         * copy reads the offsets of the block after it now, so that their
         * loads are done by the time they are needed. */
        int a_blk = 0, b_blk = 0, a_stage = 0, b_stage = 0;
        int64_t a_begin = my_sizes[0], a_end = nblk > 0 ? my_sizes[1] : a_begin;
        auto cols_of = [&](int b) {
            cols_t c = {};
            if (by_column)
                c.x = my_cols[HRPB_TK * b];
            else
                c = *reinterpret_cast<const cols_t *>(my_cols + HRPB_TK * b);
            return c;
        };
        cols_t cols = nblk > 0 ? cols_of(0) : cols_t{};
        auto copy_next_a = [&]() {
            if (a_blk < nblk) {
                issue_a(a_begin, a_end, a_stage);
                a_begin = a_end;
                if (a_blk + 1 < nblk) a_end = my_sizes[a_blk + 2];
            }
            a_blk++;
            a_stage = a_stage == STAGES - 1 ? 0 : a_stage + 1;
        };
        auto copy_next_b = [&]() {
            if (b_blk < nblk) {
                issue_b(cols, b_stage);
                if (b_blk + 1 < nblk) cols = cols_of(b_blk + 1);
            }
            b_blk++;
            b_stage = b_stage == STAGES - 1 ? 0 : b_stage + 1;
        };

        /* Prologue: copy groups 0 .. B_AHEAD - 1, then (several warps) block
         * 0 decoded. */
        if constexpr (!REG_DECODE) copy_next_a();
        for (int k = 0; k < B_AHEAD; k++) {
            copy_next_a();
            copy_next_b();
            cp_async_commit();
        }
        if constexpr (!REG_DECODE) {
            cp_async_wait<B_AHEAD - 1>();
            __syncthreads();
            if (nblk > 0) decode_to_smem(0, sm.d[0]);
        }

        const bool warp_active = n0 + 32 * warp < n;
        const belem *bfrag = reinterpret_cast<const belem *>(sm.b) + t * LDB + 32 * warp + 4 * g;
        int s0 = 0; /* stage of block it */
        for (int it = 0; it < nblk; it++) {
            const int s1 = s0 == STAGES - 1 ? 0 : s0 + 1;
            /* Group it is here; the stages block it - 1 used are free. */
            cp_async_wait<B_AHEAD - 1>();
            __syncthreads();
            copy_next_a();
            copy_next_b();
            cp_async_commit();

            if (warp_active) {
                unsigned long long f[COLS][H][BR]; /* one warp: block it, decoded here */
                unsigned present; /* byte c: the brick rows stored in brick column c */
                if constexpr (REG_DECODE) {
                    present = 0;
                    decode(s0, [&](int k, const unsigned long long (&fk)[H][BR], unsigned p) {
#pragma unroll
                        for (int h = 0; h < H; h++)
#pragma unroll
                            for (int r = 0; r < BR; r++) f[k][h][r] = fk[h][r];
                        present |= p << 8 * k;
                    });
                } else
                    present = *reinterpret_cast<const unsigned *>(sm.d[it & 1].present);
                /* Part h of brick row r's A fragment of brick-column pair p. */
                auto a_frag = [&](int h, int r, int p) -> uint4 {
                    if constexpr (REG_DECODE) {
                        const unsigned long long x0 = f[2 * p][h][r], x1 = f[2 * p + 1][h][r];
                        return make_uint4((unsigned)x0, (unsigned)(x0 >> 32), (unsigned)x1,
                                          (unsigned)(x1 >> 32));
                    } else
                        return sm.d[it & 1].frag[h][r][p][lane];
                };
                const belem *brow = bfrag + s0 * (HRPB_TK * LDB);
#pragma unroll
                for (int p = 0; p < 2; p++) {
                    const unsigned pair = present >> (16 * p);
                    if ((pair & 0xffffu) == 0) continue;
                    unsigned long long b[H][4];
                    if constexpr (EB == 2) {
                        const uint2 v0 = *reinterpret_cast<const uint2 *>(brow + 8 * p * LDB);
                        const uint2 v1 = *reinterpret_cast<const uint2 *>(brow + (8 * p + 4) * LDB);
                        const unsigned w0[2] = {v0.x, v0.y}, w1[2] = {v1.x, v1.y};
#pragma unroll
                        for (int s = 0; s < 4; s++)
                            b[0][s] = (unsigned long long)widened_bits<BK>(w1[s / 2], s % 2) << 32 |
                                      widened_bits<BK>(w0[s / 2], s % 2);
                    } else {
                        const float4 v0 = *reinterpret_cast<const float4 *>(brow + 8 * p * LDB);
                        const float4 v1 =
                            *reinterpret_cast<const float4 *>(brow + (8 * p + 4) * LDB);
                        const float x0[4] = {v0.x, v0.y, v0.z, v0.w},
                                    x1[4] = {v1.x, v1.y, v1.z, v1.w};
#pragma unroll
                        for (int s = 0; s < 4; s++) {
                            b[0][s] = tf32_pair(x0[s], x1[s]);
                            if constexpr (SPLIT)
                                b[H - 1][s] = tf32_rest_pair(x0[s], x1[s], b[0][s]);
                        }
                    }
#pragma unroll
                    for (int r = 0; r < BR; r++) {
                        if (BR > 1 && (pair & (0x101u << r)) == 0) continue;
                        const uint4 a = a_frag(0, r, p);
                        if constexpr (SPLIT) {
                            const uint4 a_lo = a_frag(H - 1, r, p);
#pragma unroll
                            for (int s = 0; s < 4; s++) {
                                float d[4] = {0.0f, 0.0f, 0.0f, 0.0f};
                                mma_tf32_16x8x8(d, a_lo, b[0][s]);
                                mma_tf32_16x8x8(d, a, b[H - 1][s]);
                                mma_tf32_16x8x8(d, a, b[0][s]);
#pragma unroll
                                for (int e = 0; e < 4; e++) acc[r][s][e] += d[e];
                            }
                        } else {
#pragma unroll
                            for (int s = 0; s < 4; s++) mma_tf32_16x8x8(acc[r][s], a, b[0][s]);
                        }
                    }
                }
            }
            if constexpr (!REG_DECODE)
                if (it + 1 < nblk) decode_to_smem(s1, sm.d[(it + 1) & 1]);
            s0 = s1;
        }

        /* The parts of a split panel add into rows the beta pre-pass writes,
         * which may still be running (dependent_launch.h). */
        if (split) wait_for_pass();
        /* Epilogue: lane (g, t) holds columns 8t .. 8t + 7 of the warp's 32
         * (tile s: 8t + s in e = 0, 2 and 8t + 4 + s in e = 1, 3) of rows g
         * (e = 0, 1) and g + 8 (e = 2, 3) of each brick row. */
        if (CK == SP24_DATA_FP32 && c_staged && !split) {
            /* Rows of C that 16-byte stores cannot write (row-major, ldc not
             * a multiple of 4 or C misaligned; n > 8), and columns of a
             * column-major C whose 32-byte sectors the panels straddle (ldc
             * not a multiple of 8 or C misaligned): the warp's TM x 32 tile
             * goes through shared memory (the B stages, free once every
             * warp has passed the barrier; rows padded to 33 words, so that
             * the fragment writes and the reads below are free of bank
             * conflicts). Each store then writes 32 consecutive columns of
             * one row (row-major; unstaged: 4 scattered words in each of 8
             * rows), or TM consecutive rows of 32 / TM columns (column-
             * major: lanes 0-15 column jj, lanes 16-31 column jj + 16 at
             * TM = 16; unstaged: 8 rows, whose 32 bytes then straddle two
             * sectors). Sectors written in parts appear to cost a read from
             * DRAM each where C is larger than the L2: at n = 128 the whole
             * column-major product (B's transpose included) took 1.3x-1.5x
             * the time with such a C as with ldc a multiple of 8 on a 1M-row
             * 2D Laplacian and cnr-2000; staged, about half that excess is left
             * (bench/results/colmajor-parts-h200-2026-11-29/). The tile's
             * rows of C follow the tiles, as c_row gave them. */
            constexpr int C_LD = smem_t::C_LD;
            __syncthreads();
            float *tile = reinterpret_cast<float *>(sm.b) + warp * (TM * C_LD);
            int64_t *tile_rows =
                reinterpret_cast<int64_t *>(reinterpret_cast<float *>(sm.b) + WARPS * TM * C_LD) +
                warp * TM;
#pragma unroll
            for (int r = 0; r < BR; r++)
#pragma unroll
                for (int h = 0; h < 2; h++) {
                    if (t == 0) tile_rows[16 * r + g + 8 * h] = c_row[r][h];
#pragma unroll
                    for (int s = 0; s < 4; s++) {
                        float *row = tile + (16 * r + g + 8 * h) * C_LD + 8 * t + s;
                        row[0] = alpha * acc[r][s][2 * h];
                        row[4] = alpha * acc[r][s][2 * h + 1];
                    }
                }
            __syncwarp();
            /* lane: row lane % TM of columns lane / TM * TM, ... (column-
             * major: c_si is 1, where a staged row-major C has ldc >= n > 8;
             * only four-warp blocks, n >= 128, stage a column-major C, and a
             * 16-bit B, and so C, is row-major: hrpb_gpu_reads_b), or
             * column lane of rows 0, 1, ... (row-major). A C of one row with
             * ldc 1 (both strides 1) is written right by either. */
            if (EB == 4 && WARPS == MAX_WARPS && c_si == 1) {
                const int k = lane % TM, jj0 = lane / TM * TM;
                const int64_t i = tile_rows[k], j0 = n0 + 32 * warp + jj0;
                float *c = static_cast<float *>(C) + i + j0 * c_sj;
                for (int e = 0; e < TM && i >= 0 && j0 + e < n; e++, c += c_sj) {
                    const float v = tile[k * C_LD + jj0 + e];
                    *c = beta == 0.0f ? v : v + beta * *c;
                }
            } else {
                const int64_t j = n0 + 32 * warp + lane;
                for (int k = 0; k < TM && j < n; k++) {
                    const int64_t i = tile_rows[k];
                    if (i < 0) break;
                    float *c = static_cast<float *>(C) + i * c_si + j * c_sj;
                    const float v = tile[k * C_LD + lane];
                    *c = beta == 0.0f ? v : v + beta * *c;
                }
            }
        } else if constexpr (CK != SP24_DATA_FP32) {
            typedef typename c_element<CK>::type ct;
            const int64_t jc = n0 + 32 * warp + 8 * t;
            /* This lane's columns jc.. of the sums (hrpb_split_meet) of its
             * rows g + 8h of brick row r of split panel vp.split (1 + its index). */
            auto sums_at = [&](int r, int h) -> float * {
                const int64_t row = (int64_t)(vp.split - 1) * TM + 16 * r + g + 8 * h;
                return meet.sums + row * meet.ld + jc;
            };
            /* f(r, h, i) for each row i of C this lane holds columns jc.. of */
            auto each_row = [&](auto f) {
#pragma unroll
                for (int r = 0; r < BR; r++)
#pragma unroll
                    for (int h = 0; h < 2; h++)
                        if (c_row[r][h] >= 0 && jc < n) f(r, h, c_row[r][h]);
            };
            each_row([&](int r, int h, int64_t i) {
                float x[8];
#pragma unroll
                for (int s = 0; s < 4; s++) {
                    x[s] = alpha * acc[r][s][2 * h];
                    x[4 + s] = alpha * acc[r][s][2 * h + 1];
                }
                if (!split)
                    store_row8<ct>(static_cast<ct *>(C) + i * c_si + jc * c_sj, c_sj, x, beta,
                                   c_vec, n - jc);
                else /* jc + 8 <= meet.ld: the rows of sums are padded */
                    add_to_sums(sums_at(r, h), x);
            });
            /* The last part to finish the tile rounds its rows' sums into C
             * with beta and puts them back to zero. */
            if (split && last_part(meet, vp.split, tile, reinterpret_cast<int *>(sm.b)))
                each_row([&](int r, int h, int64_t i) {
                    float4 *s = reinterpret_cast<float4 *>(sums_at(r, h));
                    const float4 lo = __ldcg(s), hi = __ldcg(s + 1);
                    s[0] = s[1] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
                    const float x[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
                    store_row8<ct>(static_cast<ct *>(C) + i * c_si + jc, 1, x, beta, c_vec,
                                   n - jc);
                });
        } else {
            const int64_t jc = n0 + 32 * warp + 8 * t;
#pragma unroll
            for (int r = 0; r < BR; r++)
#pragma unroll
                for (int h = 0; h < 2; h++) {
                    const int64_t i = c_row[r][h];
                    if (i < 0 || jc >= n) continue;
                    float x[8];
#pragma unroll
                    for (int s = 0; s < 4; s++) {
                        x[s] = alpha * acc[r][s][2 * h];
                        x[4 + s] = alpha * acc[r][s][2 * h + 1];
                    }
                    float *c = static_cast<float *>(C) + i * c_si + jc * c_sj;
                    if (c_vec && jc + 8 <= n && (!split || VEC_ATOMICS)) { /* row-major, 16-byte aligned */
                        float4 *c4 = reinterpret_cast<float4 *>(c);
                        float4 lo = make_float4(x[0], x[1], x[2], x[3]);
                        float4 hi = make_float4(x[4], x[5], x[6], x[7]);
#if VEC_ATOMICS
                        if (split) { /* beta was applied by the pre-pass */
                            atomicAdd(c4, lo);
                            atomicAdd(c4 + 1, hi);
                            continue;
                        }
#endif
                        if (beta != 0.0f) {
                            const float4 o = c4[0], p = c4[1];
                            lo = make_float4(lo.x + beta * o.x, lo.y + beta * o.y, lo.z + beta * o.z,
                                             lo.w + beta * o.w);
                            hi = make_float4(hi.x + beta * p.x, hi.y + beta * p.y, hi.z + beta * p.z,
                                             hi.w + beta * p.w);
                        }
                        c4[0] = lo;
                        c4[1] = hi;
                        continue;
                    }
#pragma unroll
                    for (int q = 0; q < 8; q++) {
                        if (jc + q >= n) break;
                        float *cq = c + q * c_sj;
                        if (split)
                            atomicAdd(cq, x[q]);
                        else
                            *cq = beta == 0.0f ? x[q] : x[q] + beta * *cq;
                    }
                }
        }
        __syncthreads(); /* the next N tile reuses the stages */
    }
}

typedef void (*hrpb_kernel_fn)(const hrpb_vpanel *, const int64_t *, const int32_t *,
                               const uint8_t *, const int64_t *, int64_t, int64_t, int64_t, float,
                               const void *, int64_t, int64_t, float, void *, int64_t, int64_t,
                               bool, bool, hrpb_split_meet);

/* The instance of one family (SPLIT: 3xTF32; B's elements BK, C's CK, as
 * SP24_DATA_*) for panel height TM, warps per block, two copy stages where
 * the kernel has them (shallow) or three, and 16-byte B copies (vec). */
template <int TM, int WARPS, bool SPLIT, int BK, int CK>
hrpb_kernel_fn hrpb_kernel_of_warps(bool shallow, bool vec)
{
    if constexpr (has_shallow<TM, WARPS, SPLIT>())
        if (shallow)
            return vec ? hrpb_tf32_kernel<TM, WARPS, SHALLOW_STAGES, true, SPLIT, BK, CK>
                       : hrpb_tf32_kernel<TM, WARPS, SHALLOW_STAGES, false, SPLIT, BK, CK>;
    return vec ? hrpb_tf32_kernel<TM, WARPS, DEEP_STAGES, true, SPLIT, BK, CK>
               : hrpb_tf32_kernel<TM, WARPS, DEEP_STAGES, false, SPLIT, BK, CK>;
}

template <int TM, bool SPLIT, int BK, int CK>
hrpb_kernel_fn hrpb_kernel_of_tm(int warps, bool shallow, bool vec)
{
    return warps == 1   ? hrpb_kernel_of_warps<TM, 1, SPLIT, BK, CK>(shallow, vec)
           : warps == 2 ? hrpb_kernel_of_warps<TM, 2, SPLIT, BK, CK>(shallow, vec)
                        : hrpb_kernel_of_warps<TM, MAX_WARPS, SPLIT, BK, CK>(shallow, vec);
}

/* The same for panel height tm (16 or 32) and warps (1, 2 or 4). Only the
 * family's own file instantiates it; the declarations below keep every
 * other file from building kernels. A 16-bit B has kernels in TF32 only,
 * with a float C or one of B's type. */
template <bool SPLIT, int BK, int CK>
hrpb_kernel_fn hrpb_kernel_of(int tm, int warps, bool shallow, bool vec)
{
    return tm == 32 ? hrpb_kernel_of_tm<32, SPLIT, BK, CK>(warps, shallow, vec)
                    : hrpb_kernel_of_tm<16, SPLIT, BK, CK>(warps, shallow, vec);
}

#define HRPB_KERNEL_FAMILY(SPLIT, BK, CK) \
    template hrpb_kernel_fn hrpb_kernel_of<SPLIT, BK, CK>(int, int, bool, bool)
extern HRPB_KERNEL_FAMILY(false, SP24_DATA_FP32, SP24_DATA_FP32); /* hrpb_kernels_tf32.cu */
extern HRPB_KERNEL_FAMILY(true, SP24_DATA_FP32, SP24_DATA_FP32);  /* hrpb_kernels_fp32.cu */
extern HRPB_KERNEL_FAMILY(false, SP24_DATA_BF16, SP24_DATA_FP32); /* hrpb_kernels_16bit.cu */
extern HRPB_KERNEL_FAMILY(false, SP24_DATA_BF16, SP24_DATA_BF16);
extern HRPB_KERNEL_FAMILY(false, SP24_DATA_FP16, SP24_DATA_FP32);
extern HRPB_KERNEL_FAMILY(false, SP24_DATA_FP16, SP24_DATA_FP16);

#endif
