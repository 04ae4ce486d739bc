/* sp24_wgmma.cu: the 2:4 / 1:2 SpMM on Hopper's warpgroup sparse tensor-core
 * instruction (wgmma.mma_async.sp; built for sm_90a only), with TMA loads
 * through an mbarrier pipeline: the kernel, its tensor maps and its launch
 * (sp24_wgmma.h). The compressed layout it reads is format/sparse24.h's. */
#include "sp24_wgmma.h"

#include "../error.h"
#include "../format/sparse24.h"
#include "c_store.h"
#include "dependent_launch.h"

#include <cuda.h>
#include <cudaTypedefs.h>
#include <new>
#include <type_traits>

#define WG 128          /* threads of a warpgroup */
#define ROW_BYTES 128   /* a 128-byte swizzled row: two k-tiles of A, or one of a B column */
#define EMPTY_META 0x44444444u /* eight codes 0b0100: a valid pattern for zero values */
#define META_BYTES (SP24_META_WORDS * 4) /* per k-tile and 16-row tile */
#define GROUP_M 16      /* tiles along M that run next to each other (L2 reuse of B) */
#define WINDOW_FLOATS (16 * 32) /* a consumer warp's C window: 16 rows x 32 columns */
#define PART_PAD 8 /* split K: floats after each row of a part's sums in shared memory */
#define MAX_SPLITS 8 /* split K into at most this many parts (the portable cluster size) */

/* ------------------------------------------------------------------ */
/* PTX wrappers: mbarrier, TMA, wgmma. */

__device__ __forceinline__ uint32_t smem_u32(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void mbar_init(uint64_t *bar, int count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_u32(bar)), "r"(count));
}

__device__ __forceinline__ void mbar_expect_tx(uint64_t *bar, uint32_t bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_u32(bar)),
                 "r"(bytes)
                 : "memory");
}

/* Arrives on this CTA's mbarrier bar. Release at CTA scope, as a plain
 * arrive: it tells the producer that a stage's bytes were read (by
 * wgmma, complete at its wait), not that anything was written; release at
 * cluster scope made every stage 1.5x slower on the H100. */
__device__ __forceinline__ void mbar_arrive(uint64_t *bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_u32(bar)) : "memory");
}

/* Arrives on the mbarrier at bar's offset in the shared memory of CTA rank
 * of the cluster (this CTA's own included). */
__device__ __forceinline__ void mbar_arrive_cluster(uint64_t *bar, uint32_t rank)
{
    asm volatile("{\n"
                 ".reg .b32 remote;\n"
                 "mapa.shared::cluster.u32 remote, %0, %1;\n"
                 "mbarrier.arrive.shared::cluster.b64 _, [remote];\n"
                 "}" ::"r"(smem_u32(bar)),
                 "r"(rank)
                 : "memory");
}

__device__ __forceinline__ void mbar_wait(uint64_t *bar, uint32_t parity)
{
    asm volatile("{\n"
                 ".reg .pred done;\n"
                 "wait_%=:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
                 "@!done bra wait_%=;\n"
                 "}" ::"r"(smem_u32(bar)),
                 "r"(parity)
                 : "memory");
}

__device__ __forceinline__ uint32_t cluster_rank()
{
    uint32_t r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}

/* Every thread of every CTA of the cluster, with the memory order of a
 * release and an acquire. */
__device__ __forceinline__ void cluster_sync()
{
    asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;" ::: "memory");
}

/* The 16 bytes at local's offset in the shared memory of CTA rank of the
 * cluster (this CTA's own included). */
__device__ __forceinline__ float4 ld_cluster_f4(uint32_t local, uint32_t rank)
{
    float4 v;
    asm volatile("{\n"
                 ".reg .b32 remote;\n"
                 "mapa.shared::cluster.u32 remote, %4, %5;\n"
                 "ld.shared::cluster.v4.f32 {%0, %1, %2, %3}, [remote];\n"
                 "}"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "r"(local), "r"(rank)
                 : "memory");
    return v;
}

/* The two consumer warpgroups (named barrier 1; the producer's is not in it). */
__device__ __forceinline__ void consumers_sync()
{
    asm volatile("bar.sync 1, %0;" ::"n"(2 * WG) : "memory");
}

/* Starts fetching a tensor map's descriptor, so that the first TMA load
 * through it does not wait for that. */
__device__ __forceinline__ void prefetch_map(const CUtensorMap *map)
{
    asm volatile("prefetch.tensormap [%0];" ::"l"((uint64_t)map) : "memory");
}

/* A box of a 2-D tensor map (coordinates in elements, inner first) into
 * shared memory, completing bytes on bar. */
__device__ __forceinline__ void tma_load(void *dst, const CUtensorMap *map, uint64_t *bar, int x,
                                         int y)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%3, %4}], [%2];" ::"r"(smem_u32(dst)),
                 "l"((uint64_t)map), "r"(smem_u32(bar)), "r"(x), "r"(y)
                 : "memory");
}

/* The same box into the same shared-memory offset of every CTA of the
 * cluster in cta_mask, completing bytes on each one's mbarrier at bar's
 * offset. */
__device__ __forceinline__ void tma_load_multicast(void *dst, const CUtensorMap *map,
                                                   uint64_t *bar, int x, int y, uint16_t cta_mask)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 ".multicast::cluster [%0], [%1, {%3, %4}], [%2], %5;" ::"r"(smem_u32(dst)),
                 "l"((uint64_t)map), "r"(smem_u32(bar)), "r"(x), "r"(y), "h"(cta_mask)
                 : "memory");
}

/* Shared-memory matrix descriptor of a K-major tile whose rows are ROW (128
 * or 64) bytes, swizzled as wide (8-row atoms of 8 ROW bytes, the layout TMA
 * writes with CU_TENSOR_MAP_SWIZZLE_128B or _64B). Moving along K inside the
 * row adds bytes / 16. */
template <int ROW> __device__ __forceinline__ uint64_t tile_desc(const void *tile)
{
    static_assert(ROW == 128 || ROW == 64, "128- or 64-byte rows");
    return (uint64_t)((smem_u32(tile) & 0x3FFFF) >> 4) | (uint64_t)1 << 16 |
           (uint64_t)(8 * ROW >> 4) << 32 | (uint64_t)(ROW == 128 ? 1 : 2) << 62;
}

/* The same for an N-major B tile (16-bit types, read transposed): 64-column
 * boxes of 128-byte rows, one row per k, 128-byte swizzled; the boxes of the
 * next 64 columns lie half_bytes further. Moving along K adds 128 bytes a k. */
__device__ __forceinline__ uint64_t nmajor_desc(const void *tile, uint32_t half_bytes)
{
    return (uint64_t)((smem_u32(tile) & 0x3FFFF) >> 4) | (uint64_t)(half_bytes >> 4) << 16 |
           (uint64_t)(1024 >> 4) << 32 | (uint64_t)1 << 62;
}

__device__ __forceinline__ void wgmma_fence()
{
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}
__device__ __forceinline__ void wgmma_commit()
{
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}

/* Waits until at most PENDING wgmma groups are in flight. */
template <int PENDING> __device__ __forceinline__ void wgmma_wait()
{
    asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(PENDING) : "memory");
}

/* Keeps the metadata words in their registers up to here. wgmma.sp reads
 * its metadata register while the group is in flight, but ptxas (CUDA 13.0)
 * treats the register as free once the instruction has issued, and put the
 * next stage's words there (wrong products on the H100). Placed after the
 * wait that retires the words' group, a store of them under a predicate that
 * is false at run time (never) but not to ptxas keeps them live until then,
 * so no other value takes their registers. tools/check_meta_regs.py checks
 * the SASS. */
template <int N>
__device__ __forceinline__ void hold_words(const uint32_t (&words)[N], bool never, uint32_t sink)
{
#pragma unroll
    for (int i = 0; i < N; i++)
        asm volatile("{\n.reg .pred p;\nsetp.ne.u32 p, %1, 0;\n@p st.shared.b32 [%2], %0;\n}" ::"r"(
                         words[i]),
                     "r"((uint32_t)never), "r"(sink + 4 * i)
                     : "memory");
}

/* Keeps the compiler from moving accesses of the accumulators across the
 * asynchronous wgmma region. */
template <int MW, int ACC> __device__ __forceinline__ void fence_operands(float (&acc)[MW][ACC])
{
#pragma unroll
    for (int i = 0; i < MW; i++)
#pragma unroll
        for (int j = 0; j < ACC; j++) asm volatile("" : "+f"(acc[i][j])::"memory");
}

#define D8(i)                                                                                 \
    "+f"(d[i + 0]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]),           \
        "+f"(d[i + 5]), "+f"(d[i + 6]), "+f"(d[i + 7])
#define REGS32                                                                                \
    "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, "  \
    "%19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}"
#define REGS64                                                                                \
    "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, "  \
    "%19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, "   \
    "%36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, "   \
    "%53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}"
#define REGS128                                                                               \
    "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, "  \
    "%19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, "   \
    "%36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, "   \
    "%53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, "   \
    "%70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, "   \
    "%87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, "     \
    "%103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, "    \
    "%117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}"
/* The operands after the accumulators: descriptors, metadata, selector;
 * scale-d is always 1 (the accumulators start at zero), A K-major, B K-major
 * or (16-bit types, TB) N-major. */
#define TAIL32_16 ", %32, %33, %34, %35, one, 1, 1, 0, %36;\n}"
#define TAIL64_16 ", %64, %65, %66, %67, one, 1, 1, 0, %68;\n}"
#define TAIL32_TF ", %32, %33, %34, %35, one, 1, 1;\n}"
#define TAIL64_TF ", %64, %65, %66, %67, one, 1, 1;\n}"
#define TAIL128_16 ", %128, %129, %130, %131, one, 1, 1, 0, %132;\n}"
#define TAIL128_TF ", %128, %129, %130, %131, one, 1, 1;\n}"
#define WGMMA_HEAD "{\n.reg .pred one;\nsetp.ne.b32 one, 1, 0;\nwgmma.mma_async.sp.sync.aligned."
#define IN_OPS "l"(da), "l"(db), "r"(e), "n"(SEL)
#define IN_OPS_16 IN_OPS, "n"(TB ? 1 : 0)

/* d (64 x BN per warpgroup, f32) += A (64 x K-step, compressed, descriptor da)
 * * B (K-step x BN, descriptor db; TB: N-major, read transposed, 16-bit
 * types only), metadata e from the lane pairs SEL. */
template <tcspmm_precision ELEM, int BN, int SEL, bool TB> struct wgmma_sp;
#define WGMMA_SP(ELEM, BN, SHAPE_TYPES, REGS, TAIL, OPS, ...)                                  \
    template <int SEL, bool TB> struct wgmma_sp<ELEM, BN, SEL, TB> {                           \
        static __device__ __forceinline__ void run(float *d, uint64_t da, uint64_t db,         \
                                                   uint32_t e)                                 \
        {                                                                                      \
            asm volatile(WGMMA_HEAD SHAPE_TYPES " " REGS TAIL : __VA_ARGS__ : OPS);            \
        }                                                                                      \
    };
#define ACC32 D8(0), D8(8), D8(16), D8(24)
#define ACC64 ACC32, D8(32), D8(40), D8(48), D8(56)
#define ACC128 ACC64, D8(64), D8(72), D8(80), D8(88), D8(96), D8(104), D8(112), D8(120)
WGMMA_SP(TCSPMM_PRECISION_BF16, 256, "m64n256k32.f32.bf16.bf16", REGS128, TAIL128_16, IN_OPS_16,
         ACC128)
WGMMA_SP(TCSPMM_PRECISION_FP16, 256, "m64n256k32.f32.f16.f16", REGS128, TAIL128_16, IN_OPS_16,
         ACC128)
WGMMA_SP(TCSPMM_PRECISION_TF32, 256, "m64n256k16.f32.tf32.tf32", REGS128, TAIL128_TF, IN_OPS,
         ACC128)
WGMMA_SP(TCSPMM_PRECISION_BF16, 128, "m64n128k32.f32.bf16.bf16", REGS64, TAIL64_16, IN_OPS_16,
         ACC64)
WGMMA_SP(TCSPMM_PRECISION_FP16, 128, "m64n128k32.f32.f16.f16", REGS64, TAIL64_16, IN_OPS_16, ACC64)
WGMMA_SP(TCSPMM_PRECISION_TF32, 128, "m64n128k16.f32.tf32.tf32", REGS64, TAIL64_TF, IN_OPS, ACC64)
WGMMA_SP(TCSPMM_PRECISION_BF16, 64, "m64n64k32.f32.bf16.bf16", REGS32, TAIL32_16, IN_OPS_16, ACC32)
WGMMA_SP(TCSPMM_PRECISION_FP16, 64, "m64n64k32.f32.f16.f16", REGS32, TAIL32_16, IN_OPS_16, ACC32)
WGMMA_SP(TCSPMM_PRECISION_TF32, 64, "m64n64k16.f32.tf32.tf32", REGS32, TAIL32_TF, IN_OPS, ACC32)

/* ------------------------------------------------------------------ */
/* The work unit u of a launch, for the block of rank `rank` in its cluster
 * of CL: part u % splits of the K range of set u / splits, a set being CL
 * tiles next to each other along M, the rank-th of them (split K: CL is 1
 * and the parts of a tile are the blocks of one cluster); sets in groups of
 * GROUP_M tiles along M for each tile along N, so that the units running at
 * the same time share B in L2. */
struct work_unit {
    int64_t m0, n0;
    int kb0, kb1; /* stages [kb0, kb1) of the K range */
};

template <int BM, int BN, int CL>
__device__ __forceinline__ work_unit unit_at(int u, int clusters_m, int tiles_n, int k_stages,
                                             int splits, uint32_t rank)
{
    constexpr int GROUP = GROUP_M / CL;
    const int set = u / splits, part = u % splits;
    const int first = set / (GROUP * tiles_n) * GROUP;
    const int in_group = set % (GROUP * tiles_n), group = min(GROUP, clusters_m - first);
    work_unit w;
    w.m0 = ((int64_t)(first + in_group % group) * CL + rank) * BM;
    w.n0 = (int64_t)(in_group / group) * BN;
    w.kb0 = (int)((int64_t)k_stages * part / splits);
    w.kb1 = (int)((int64_t)k_stages * (part + 1) / splits);
    return w;
}

/* What the kernel's producer and consumers share: the launch's geometry
 * and the shared-memory ring. A stage holds KT k-tiles of format/sparse24.h:
 * A_ROW = 64 KT compressed bytes of each of the unit's BM rows of A
 * (swizzled by A_ROW bytes), the matching KT x 128 bytes of each of the BN
 * packed B columns (NMAJOR: the caller's row-major 16-bit B, as BN / 64
 * boxes of 64 columns by the stage's k), 128-byte swizzled, then the
 * metadata words of those KT k-tiles of the BM / 16 row tiles. Tiles of 256
 * columns take one k-tile a stage, so that five stages fit. */
template <tcspmm_precision ELEM, int BN, int MW, int STAGES, bool NMAJOR, int CL> struct ring {
    static constexpr int BM = 2 * MW * 64, ELEM_BYTES = ELEM == TCSPMM_PRECISION_TF32 ? 4 : 2;
    static constexpr int KT = BN > 128 ? 1 : 2, A_ROW = KT * SP24_KTILE_BYTES;
    static constexpr int A_BYTES = BM * A_ROW, B_BYTES = KT * BN * ROW_BYTES;
    static constexpr int STAGE_BYTES = A_BYTES + B_BYTES + BM / 16 * KT * META_BYTES;
    static constexpr int K_ROWS = KT * ROW_BYTES / ELEM_BYTES; /* NMAJOR: k of a stage */
    static constexpr bool CAN_SPLIT = MW == 1 && BN <= 128; /* split K: 128 x 128 and 128 x 64 */
    /* C stored evict first: in these tiles, in bf16 and fp16 (store_c, c_store.h) */
    static constexpr bool C_EVICT_FIRST = CAN_SPLIT && ELEM != TCSPMM_PRECISION_TF32;
    static_assert(!NMAJOR || ELEM_BYTES == 2, "only 16-bit B is read transposed");
    /* after the stages: their full and empty barriers, then each consumer
     * warp's C window (16 rows x 32 floats) */
    static constexpr int WINDOW_OFFSET = STAGES * STAGE_BYTES + 128;
    static_assert(!CAN_SPLIT || BM * (BN + PART_PAD) * 4 <= STAGES * STAGE_BYTES,
                  "split K leaves a part's sums in the stages");
    uint8_t *smem;
    uint64_t *full, *empty;
    int units, clusters_m, tiles_n, k_stages, splits;
    bool split_k;  /* splits > 1 (CAN_SPLIT only): one unit a block, parts added in the cluster */
    uint32_t rank; /* of this block in its cluster of CL */
};

/* Stage s of the ring: the stage kb of unit w's K range, loaded by TMA
 * (A and the metadata the block's own; B the cluster's: in a pair, each
 * block loads half of the stage's B boxes, box h by rank h % 2, into both),
 * completing its bytes on the stage's full barrier. */
template <tcspmm_precision ELEM, int BN, int MW, int STAGES, bool NMAJOR, int CL>
__device__ __forceinline__ void load_stage(const ring<ELEM, BN, MW, STAGES, NMAJOR, CL> &r,
                                           const CUtensorMap *a_map, const CUtensorMap *b_map,
                                           const CUtensorMap *meta_map, const work_unit &w,
                                           int kb, int s)
{
    typedef ring<ELEM, BN, MW, STAGES, NMAJOR, CL> R;
    constexpr int X = ROW_BYTES / R::ELEM_BYTES; /* elements of a 128-byte box row */
    /* NMAJOR: 64 columns by the stage's k; else a k-tile of BOX_COLS
     * columns, the boxes of a k-tile next to each other */
    constexpr int BOX_COLS = BN < 128 ? BN : 128, PER_KTILE = BN / BOX_COLS;
    constexpr int B_BOXES = NMAJOR ? BN / 64 : R::KT * PER_KTILE;
    static_assert(CL == 1 || B_BOXES % 2 == 0, "a pair loads half of the B boxes each");
    uint8_t *sa = r.smem + s * R::STAGE_BYTES, *sb = sa + R::A_BYTES;
    mbar_expect_tx(&r.full[s], R::STAGE_BYTES);
    tma_load(sa, a_map, &r.full[s], kb * (R::A_ROW / R::ELEM_BYTES), (int)w.m0);
#pragma unroll
    for (int h = 0; h < B_BOXES; h++) {
        uint8_t *dst = sb + h * (NMAJOR ? R::K_ROWS : BOX_COLS) * ROW_BYTES;
        const int x = NMAJOR ? (int)w.n0 + 64 * h : (R::KT * kb + h / PER_KTILE) * X;
        const int y = NMAJOR ? kb * R::K_ROWS : (int)w.n0 + BOX_COLS * (h % PER_KTILE);
        if constexpr (CL == 1)
            tma_load(dst, b_map, &r.full[s], x, y);
        else if (h % 2 == (int)r.rank)
            tma_load_multicast(dst, b_map, &r.full[s], x, y, 3);
    }
    tma_load(sb + R::B_BYTES, meta_map, &r.full[s], kb * R::KT * SP24_META_WORDS,
             (int)(w.m0 / 16));
}

/* The producer (one thread): fills the stages of the block's units in turn,
 * from the preloaded-th on (the kernel loaded the first ones as it started);
 * in a pair, a stage is refilled once the consumers of both blocks have
 * released it. */
template <tcspmm_precision ELEM, int BN, int MW, int STAGES, bool NMAJOR, int CL>
__device__ __forceinline__ void produce(const ring<ELEM, BN, MW, STAGES, NMAJOR, CL> &r,
                                        const CUtensorMap *a_map, const CUtensorMap *b_map,
                                        const CUtensorMap *meta_map, int after_pack,
                                        int preloaded)
{
    typedef ring<ELEM, BN, MW, STAGES, NMAJOR, CL> R;
    if (after_pack) wait_for_pass(); /* B is packed by the kernel before this one */
    int it = 0;
    for (int u = blockIdx.x / CL; u < r.units; u += gridDim.x / CL) {
        const work_unit w =
            unit_at<R::BM, BN, CL>(u, r.clusters_m, r.tiles_n, r.k_stages, r.splits, r.rank);
        for (int kb = w.kb0; kb < w.kb1; kb++, it++) {
            if (it < preloaded) continue;
            const int s = it % STAGES, use = it / STAGES;
            if (use > 0) mbar_wait(&r.empty[s], (use + 1) & 1);
            load_stage(r, a_map, b_map, meta_map, w, kb, s);
        }
    }
}

/* A consumer warp's rows of an interior tile of row-major C (c0: its first
 * row and the tile's first column; ldc and c0 multiples of 4 elements):
 * C = alpha * acc + beta * C, 32 columns at a time through the warp's
 * window in shared memory, so that each store writes four whole 128-byte
 * rows. Writing the fragments directly touches eight lines with 32 bytes
 * each per store; on the H100 those stores took 9-19% of the time of the
 * large products, and whole rows took back about 40% of that. The window's
 * 16-byte units are swizzled (unit ^ row % 8), so neither the fragment
 * writes nor the row reads conflict in banks. */
template <int MW, int ACC, typename CT, bool EVICT_FIRST>
__device__ __forceinline__ void store_lines(const float (&acc)[MW][ACC], float *window, CT *c0,
                                            int64_t ldc, float alpha, float beta)
{
    const int lane = threadIdx.x % 32, g = lane / 4, q = lane % 4;
#pragma unroll
    for (int i = 0; i < MW; i++) {
#pragma unroll
        for (int h = 0; h < ACC / 16; h++) {
#pragma unroll
            for (int jj = 0; jj < 4; jj++) { /* n8 chunk 4h + jj: rows g and g + 8 */
                const int j = 4 * (4 * h + jj), unit = ((2 * jj + q / 2) ^ g) * 4 + 2 * (q % 2);
                *(float2 *)(window + g * 32 + unit) =
                    make_float2(alpha * acc[i][j], alpha * acc[i][j + 1]);
                *(float2 *)(window + (g + 8) * 32 + unit) =
                    make_float2(alpha * acc[i][j + 2], alpha * acc[i][j + 3]);
            }
            __syncwarp();
#pragma unroll
            for (int k = 0; k < 4; k++) { /* row lane / 8 + 4k, columns 4 (lane % 8) + 0..3 */
                const int row = lane / 8 + 4 * k, unit = lane % 8;
                const float4 v = *(const float4 *)(window + row * 32 + ((unit ^ (row % 8)) * 4));
                const float quad[4] = {v.x, v.y, v.z, v.w};
                store_c<CT, 4, EVICT_FIRST>(c0 + (int64_t)(i * 64 + row) * ldc + 32 * h + 4 * unit,
                                            1.0f, quad, beta);
            }
            __syncwarp();
        }
    }
}

/* Consumer warpgroup c (0 or 1) owns rows c*MW*64 .. +MW*64 of each unit:
 * per stage it issues, for each of its MW 64-row slices, two wgmma.sp
 * k-steps per k-tile (selector = k-step % 2, so the two k-steps of a k-tile
 * share one metadata word) as one wgmma group, and releases the stage once
 * that group has retired (lane i of each warp in the block of rank i of the
 * cluster): at once, or, where one group stays in flight, after the next
 * stage's group is issued (a unit's last stage: after the wait that ends
 * the unit).
 * Warp w: rows 16w .. 16w+15 of each slice (its metadata is the 16-row
 * tile's lane-ordered word, read from the stage).
 * Thread: the m64nBN accumulator fragment, rows g and g + 8 (g = lane / 4)
 * and columns 8j + 2q, 8j + 2q + 1 (q = lane % 4) of each n8 chunk j,
 * written to C at the end of each unit: an interior tile of a row-major C
 * through store_lines (lines), any other directly, with edge masks; or, when
 * K is split (one unit a block), into shared memory for add_parts. */
template <tcspmm_precision ELEM, int BN, int MW, int STAGES, bool NMAJOR, int CL, typename CT>
__device__ __forceinline__ void consume(const ring<ELEM, BN, MW, STAGES, NMAJOR, CL> &r, int c,
                                        int k_tiles, int64_t tiles_16, int64_t m, int64_t n,
                                        float alpha, float beta, CT *__restrict__ C,
                                        int64_t ldc, int row_major, int lines)
{
    typedef ring<ELEM, BN, MW, STAGES, NMAJOR, CL> R;
    constexpr int ACC = BN / 2; /* floats per thread of one m64nBN fragment */
    /* descriptor steps (16-byte units) from a stage's B to k-step 1 and to
     * the second k-tile */
    constexpr int B_STEP1 = NMAJOR ? 32 * ROW_BYTES >> 4 : 4;
    constexpr int B_STEP2 = NMAJOR ? 64 * ROW_BYTES >> 4 : BN * ROW_BYTES >> 4;
    constexpr int KT = R::KT;
    /* One wgmma group stays in flight in the tiles that never split K (256 x
     * 128, 128 x 256): on the H200, at the issue's 18 large products, 0.997x
     * to 1.076x the speed of waiting for each stage's group (faster at 15);
     * in the 128 x 128 and 128 x 64 tiles it was slower at all 12 sizes
     * with N <= 128 (2-5%; bf16 8192 x 128 0.7%)
     * (bench/results/sp24-groups-in-flight-2026-11-29/). */
    constexpr bool IN_FLIGHT = !R::CAN_SPLIT;
    constexpr bool EVICT_FIRST = R::C_EVICT_FIRST;
    const int t = threadIdx.x % WG, warp = t / 32, lane = t % 32;
    const int g = lane / 4, q = lane % 4;
    const bool pairs = row_major && (ldc % 2 == 0) && ((uintptr_t)C % (2 * sizeof(CT)) == 0);
    /* Descriptors of stage 0; a stage, a slice or a k-step moves the start
     * address, which is the descriptor's low field (bytes / 16). */
    const uint64_t a_desc0 = tile_desc<R::A_ROW>(r.smem + c * MW * 64 * R::A_ROW);
    const uint64_t b_desc0 = NMAJOR ? nmajor_desc(r.smem + R::A_BYTES, R::K_ROWS * ROW_BYTES)
                                    : tile_desc<ROW_BYTES>(r.smem + R::A_BYTES);
    const bool never = k_tiles < 0; /* false, but not to ptxas */
    const uint32_t sink = smem_u32(r.smem);
    /* Stage s is read: lane i of each warp arrives on its empty barrier in
     * the block of rank i of the cluster. */
    auto release = [&](int s) {
        __syncwarp();
        if constexpr (CL == 1) {
            if (lane == 0) mbar_arrive(&r.empty[s]);
        } else if (lane < CL) {
            mbar_arrive_cluster(&r.empty[s], lane);
        }
    };
    float acc[MW][ACC];
    int it = 0;
    for (int u = blockIdx.x / CL; u < r.units; u += gridDim.x / CL) {
        const work_unit w =
            unit_at<R::BM, BN, CL>(u, r.clusters_m, r.tiles_n, r.k_stages, r.splits, r.rank);
#pragma unroll
        for (int i = 0; i < MW; i++)
#pragma unroll
            for (int j = 0; j < ACC; j++) acc[i][j] = 0.0f;

        /* Whether slice i's 16-row tile of this warp exists (else its
         * metadata, zero-filled by TMA, becomes the empty pattern). */
        bool meta_live[MW];
#pragma unroll
        for (int i = 0; i < MW; i++)
            meta_live[i] = (w.m0 + (int64_t)(c * MW + i) * 64) / 16 + warp < tiles_16;

        /* Stage kb of the unit: its metadata words into e (16-row tile r of
         * the unit, k-tile kt at word (KT r + kt) * 32 + lane), its wgmma
         * group issued; then, IN_FLIGHT, the previous stage's group (whose
         * words are `held`) retires, its words are held up to there, and its
         * stage is released (on a unit's first stage no group is left to
         * retire; the wait is still made, so that every path through the
         * code is one that runs); else this stage's group is waited for and
         * this stage released. */
        auto step = [&](int kb, uint32_t(&e)[MW * KT], const uint32_t(&held)[MW * KT]) {
            const int s = it % STAGES;
            mbar_wait(&r.full[s], (it / STAGES) & 1);
            const uint32_t *sm =
                (const uint32_t *)(r.smem + s * R::STAGE_BYTES + R::A_BYTES + R::B_BYTES);
#pragma unroll
            for (int i = 0; i < MW; i++) {
                const uint32_t *row = sm + ((c * MW + i) * 4 + warp) * KT * SP24_META_WORDS + lane;
#pragma unroll
                for (int kt = 0; kt < KT; kt++)
                    e[i * KT + kt] = meta_live[i] && KT * kb + kt < k_tiles
                                         ? row[kt * SP24_META_WORDS]
                                         : EMPTY_META;
            }
            const uint32_t stage = s * (R::STAGE_BYTES >> 4);
            fence_operands(acc);
            wgmma_fence();
#pragma unroll
            for (int i = 0; i < MW; i++) {
                /* k-step k: A bytes 32k of the slice's rows; B k-tile k / 2,
                 * bytes 64 (k % 2), or (NMAJOR) B rows 32k of each box */
                const uint64_t da = a_desc0 + stage + i * (64 * R::A_ROW >> 4);
                const uint64_t db = b_desc0 + stage;
#pragma unroll
                for (int kt = 0; kt < KT; kt++) {
                    wgmma_sp<ELEM, BN, 0, NMAJOR>::run(acc[i], da + 4 * kt, db + kt * B_STEP2,
                                                       e[i * KT + kt]);
                    wgmma_sp<ELEM, BN, 1, NMAJOR>::run(acc[i], da + 4 * kt + 2,
                                                       db + kt * B_STEP2 + B_STEP1,
                                                       e[i * KT + kt]);
                }
            }
            wgmma_commit();
            if constexpr (IN_FLIGHT) {
                wgmma_wait<1>();
                hold_words(held, never, sink);
                if (kb > w.kb0) release((it - 1) % STAGES);
            } else {
                wgmma_wait<0>();
                fence_operands(acc);
                release(s);
            }
            it++;
        };
        /* The two sets of metadata words, declared here, not before the unit
         * loop, where they stayed live through each epilogue and spilled.
         * Zeroed because, where a group stays in flight, a unit's first stage
         * holds e1 before any stage wrote it. */
        uint32_t e0[MW * KT] = {}, e1[MW * KT] = {};
        if constexpr (IN_FLIGHT) {
            /* The stages alternate between the two sets of words, so that a
             * set is not written while its group is in flight: two stages a
             * pass, and the odd one after the loop (no path skips a step and
             * comes back). The last group retires here, both sets held. */
            int kb = w.kb0;
            for (; kb + 1 < w.kb1; kb += 2) {
                step(kb, e0, e1);
                step(kb + 1, e1, e0);
            }
            if (kb < w.kb1) step(kb, e0, e1);
            wgmma_wait<0>();
            hold_words(e0, never, sink);
            hold_words(e1, never, sink);
            fence_operands(acc);
            if (w.kb1 > w.kb0) release((it - 1) % STAGES);
        } else {
            /* two stages a pass here too: one a pass was 0.97x-0.98x as
             * fast at bf16 and fp16 4096 x 512 and fp16 8192 x 128 on the
             * H200 (bench/results/sp24-every-path-2026-11-29/) */
            for (int kb = w.kb0; kb < w.kb1; kb += 2) {
                step(kb, e0, e1);
                if (kb + 1 < w.kb1) step(kb + 1, e1, e0);
            }
        }

        if (r.split_k) { /* the block's only unit: its stages are free once both
                            consumer warpgroups have read them */
            consumers_sync();
            float *part = (float *)r.smem;
#pragma unroll
            for (int i = 0; i < MW; i++)
#pragma unroll
                for (int j = 0; j < ACC; j += 2) {
                    const int row = (c * MW + i) * 64 + warp * 16 + g + 8 * ((j / 2) % 2);
                    *(float2 *)(part + row * (BN + PART_PAD) + 8 * (j / 4) + 2 * q) =
                        make_float2(acc[i][j], acc[i][j + 1]);
                }
            continue;
        }
        if (lines && w.m0 + R::BM <= m && w.n0 + BN <= n) { /* interior tile */
            float *window = (float *)(r.smem + R::WINDOW_OFFSET) + (c * 4 + warp) * WINDOW_FLOATS;
            store_lines<MW, ACC, CT, EVICT_FIRST>(
                acc, window, C + (w.m0 + c * MW * 64 + warp * 16) * ldc + w.n0, ldc, alpha, beta);
            continue;
        }
#pragma unroll
        for (int i = 0; i < MW; i++) {
#pragma unroll
            for (int j = 0; j < ACC; j += 2) {
                int64_t row = w.m0 + (c * MW + i) * 64 + warp * 16 + g + 8 * ((j / 2) % 2);
                int64_t col = w.n0 + 8 * (j / 4) + 2 * q;
                if (row >= m || col >= n) continue;
                const float v[2] = {acc[i][j], acc[i][j + 1]};
                if (pairs && col + 1 < n) {
                    store_c<CT, 2, EVICT_FIRST>(C + row * ldc + col, alpha, v, beta);
                    continue;
                }
                CT *p0 = C + (row_major ? row * ldc + col : col * ldc + row);
                store_c<CT, 1, EVICT_FIRST>(p0, alpha, {v[0]}, beta);
                if (col + 1 < n)
                    store_c<CT, 1, EVICT_FIRST>(row_major ? p0 + 1 : p0 + ldc, alpha, {v[1]}, beta);
            }
        }
    }
}

/* Split K: the blocks of a cluster have each left the sums of one part of a
 * tile's K range (at m0, n0) in their shared memory, rows BN + PART_PAD
 * floats apart. Block `rank` of the `parts` adds rows BM rank / parts ..
 * BM (rank + 1) / parts - 1 of all of them, in rank order (so a product
 * gives the same C on every run), and writes C = alpha * sum + beta * C
 * there. Thread: four neighbouring columns of a row, the block's threads
 * moving along the rows (row-major C) or down the columns (column-major
 * C), so that neighbouring threads write neighbouring addresses. */
template <int BM, int BN, typename CT, bool EVICT_FIRST>
__device__ __forceinline__ void add_parts(const float *part, uint32_t rank, int parts,
                                          int64_t m0, int64_t n0, int64_t m, int64_t n,
                                          float alpha, float beta, CT *__restrict__ C,
                                          int64_t ldc, int row_major)
{
    constexpr int QUADS = BN / 4;
    const int row0 = BM * (int)rank / parts, rows = BM * ((int)rank + 1) / parts - row0;
    const bool quads = row_major && ldc % 4 == 0 && (uintptr_t)C % (4 * sizeof(CT)) == 0;
    const uint32_t base = smem_u32(part);
    for (int t = threadIdx.x; t < rows * QUADS; t += blockDim.x) {
        const int row = row0 + (row_major ? t / QUADS : t % rows);
        const int quad = row_major ? t % QUADS : t / rows;
        const int64_t i = m0 + row, j = n0 + 4 * quad;
        if (i >= m || j >= n) continue; /* nothing read for what is not stored */
        const uint32_t at = base + (uint32_t)(row * (BN + PART_PAD) + 4 * quad) * 4;
        float4 got[MAX_SPLITS]; /* every part's load in flight before the first add */
#pragma unroll
        for (int p = 0; p < MAX_SPLITS; p++)
            if (p < parts) got[p] = ld_cluster_f4(at, (uint32_t)p);
        float4 sum = got[0];
#pragma unroll
        for (int p = 1; p < MAX_SPLITS; p++)
            if (p < parts) {
                sum.x += got[p].x;
                sum.y += got[p].y;
                sum.z += got[p].z;
                sum.w += got[p].w;
            }
        const float v[4] = {sum.x, sum.y, sum.z, sum.w};
        if (quads && j + 4 <= n) {
            store_c<CT, 4, EVICT_FIRST>(C + i * ldc + j, alpha, v, beta);
            continue;
        }
        for (int k = 0; k < 4 && j + k < n; k++)
            store_c<CT, 1, EVICT_FIRST>(row_major ? C + i * ldc + j + k : C + (j + k) * ldc + i,
                                        alpha, {v[k]}, beta);
    }
}

/* sp24_wgmma_spmm: C = alpha*A*B + beta*C in BM x BN tiles, BM = 2 * MW * 64.
 *
 * Persistent, in clusters of CL blocks (1 or 2): cluster i of gridDim.x / CL
 * takes the work units u = i, i + gridDim.x / CL, ...; a unit is CL tiles
 * next to each other along M (one per block of the cluster; a pair shares
 * B, which each block loads half of into both). In a pair, the second tile
 * of an odd number along M lies past A's rows: it reads zeros and writes
 * nothing. Split K (splits > 1, CL = 1): one unit a block, the launch in
 * clusters of `splits` blocks, block p of a cluster taking part p of one
 * tile's K range; the cluster adds the parts in shared memory (add_parts).
 * Three warpgroups, whose shared-memory stage ring (struct ring) runs on
 * across units, so the loads of a block's next unit overlap the stores of
 * this one: warpgroup 0 is the producer (its first thread; produce), 1 and
 * 2 the consumers (consume). A stage's full barrier counts its bytes, its
 * empty barrier the CL x 8 consumer warps of the cluster that have finished
 * reading it. C's elements are CT: float, or the precision's 16-bit type
 * (c_store.h). lines: C is row-major, not split, its rows aligned to four
 * elements, and the launch gave the consumer warps their C windows
 * (store_lines).
 * after_pack: launched as a dependent of the packing of B (dependent_launch.h). */
template <tcspmm_precision ELEM, int BN, int MW, int STAGES, bool NMAJOR, int CL, typename CT>
__global__ void __launch_bounds__(3 * WG, 1)
    sp24_wgmma_spmm_kernel(const __grid_constant__ CUtensorMap a_map,
                           const __grid_constant__ CUtensorMap b_map,
                           const __grid_constant__ CUtensorMap meta_map, int k_tiles,
                           int64_t tiles_16, int clusters_m, int tiles_n, int splits, int64_t m,
                           int64_t n, float alpha, float beta, CT *__restrict__ C, int64_t ldc,
                           int row_major, int lines, int after_pack)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    typedef ring<ELEM, BN, MW, STAGES, NMAJOR, CL> R;
    extern __shared__ uint8_t smem_raw[];
    R r;
    /* the same offset in every block of a cluster, as multicast needs */
    r.smem = smem_raw + ((1024 - (smem_u32(smem_raw) & 1023)) & 1023);
    r.full = (uint64_t *)(r.smem + STAGES * R::STAGE_BYTES);
    r.empty = r.full + STAGES;
    r.units = clusters_m * tiles_n * splits;
    r.clusters_m = clusters_m;
    r.tiles_n = tiles_n;
    r.k_stages = (k_tiles + R::KT - 1) / R::KT;
    r.splits = splits;
    r.split_k = R::CAN_SPLIT && splits > 1; /* a constant false for the others */
    r.rank = CL == 1 ? 0 : cluster_rank();
    /* warp-uniform by construction, so the compiler keeps it (and the
     * descriptors built from it) in uniform registers */
    const int wg = __shfl_sync(0xffffffffu, threadIdx.x / WG, 0);

    /* split K: the block's only unit */
    const work_unit own =
        unit_at<R::BM, BN, CL>(blockIdx.x, clusters_m, tiles_n, r.k_stages, splits, 0);
    int preloaded = 0; /* stages thread 0 loaded before the block's barrier */
    if (threadIdx.x == 0) {
        prefetch_map(&a_map);
        prefetch_map(&b_map);
        prefetch_map(&meta_map);
        for (int s = 0; s < STAGES; s++) {
            mbar_init(&r.full[s], 1);
            mbar_init(&r.empty[s], CL * 2 * WG / 32);
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        /* Split K (the shortest products): the block's loads complete on
         * its own barriers only, so its first stages need not wait for the
         * block's barrier and the producer's code. On the H100 after an L2
         * flush they reached the consumers 0.1-0.3 us sooner (at about
         * 3.3 us); with unsplit tiles the effect was 1-4% either way,
         * depending on C's type, so they load as before. */
        if (r.split_k && !after_pack)
            for (; preloaded < STAGES && preloaded < own.kb1 - own.kb0; preloaded++)
                load_stage(r, &a_map, &b_map, &meta_map, own, own.kb0 + preloaded, preloaded);
    }
    if constexpr (CL == 1)
        __syncthreads();
    else
        cluster_sync(); /* every block's barriers exist before any is used */

    if (wg == 0) {
        if (threadIdx.x == 0) produce(r, &a_map, &b_map, &meta_map, after_pack, preloaded);
    } else {
        consume(r, wg - 1, k_tiles, tiles_16, m, n, alpha, beta, C, ldc, row_major, lines);
    }
    if (r.split_k) {
        cluster_sync(); /* every part's sums lie in its block's shared memory */
        add_parts<R::BM, BN, CT, R::C_EVICT_FIRST>((const float *)r.smem, cluster_rank(), splits,
                                                   own.m0, own.n0, m, n, alpha, beta, C, ldc,
                                                   row_major);
    }
    /* No block leaves while another may still use its shared memory. Split
     * K: the other blocks only read it, and each has used what it read by
     * the time it arrives, so the arrival needs no release (with one, the
     * wait took about 0.45 us longer at fp16 4096 x 64 on the H100). */
    if (r.split_k)
        asm volatile("barrier.cluster.arrive.relaxed;\nbarrier.cluster.wait;" ::: "memory");
    else if (CL > 1)
        cluster_sync();
#else
    __trap(); /* built for sm_90a only (CMakeLists.txt) */
#endif
}

/* ------------------------------------------------------------------ */
/* Host side. */

/* A row-major outer x inner matrix of elem_bytes elements, rows ld
 * elements apart, read in boxes of box_bytes x box_outer, swizzled by
 * box_bytes (128 or 64) when swizzled (elements past inner or outer read
 * as zeros). */
static tcspmm_status encode_tiled(CUtensorMap *map, CUtensorMapDataType type, int elem_bytes,
                                  const void *base, int64_t inner, int64_t outer, int64_t ld,
                                  int box_bytes, int box_outer, bool swizzled)
{
    static PFN_cuTensorMapEncodeTiled_v12000 encode = [] {
        void *fn = NULL;
        cudaDriverEntryPointQueryResult found;
#if CUDART_VERSION >= 12050
        cudaError_t err = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000,
                                                           cudaEnableDefault, &found);
#else
        cudaError_t err = cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &fn,
                                                  cudaEnableDefault, &found);
#endif
        if (err != cudaSuccess) cudaGetLastError(); /* reported below, not left pending */
        return err == cudaSuccess && found == cudaDriverEntryPointSuccess
                   ? (PFN_cuTensorMapEncodeTiled_v12000)fn
                   : (PFN_cuTensorMapEncodeTiled_v12000)NULL;
    }();
    if (!encode)
        return tcspmm_fail(TCSPMM_ERROR_CUDA,
                           "sp24_wgmma: the driver has no cuTensorMapEncodeTiled");
    cuuint64_t dims[2] = {(cuuint64_t)inner, (cuuint64_t)outer};
    cuuint64_t strides[1] = {(cuuint64_t)(ld * elem_bytes)};
    cuuint32_t box[2] = {(cuuint32_t)(box_bytes / elem_bytes), (cuuint32_t)box_outer};
    cuuint32_t unit[2] = {1, 1};
    CUresult r = encode(map, type, 2, (void *)base, dims, strides, box, unit,
                        CU_TENSOR_MAP_INTERLEAVE_NONE,
                        !swizzled          ? CU_TENSOR_MAP_SWIZZLE_NONE
                        : box_bytes == 128 ? CU_TENSOR_MAP_SWIZZLE_128B
                                           : CU_TENSOR_MAP_SWIZZLE_64B,
                        CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS)
        return tcspmm_fail(TCSPMM_ERROR_CUDA,
                           "sp24_wgmma: cuTensorMapEncodeTiled(%lld x %lld, box %u x %u) "
                           "failed with CUresult %d",
                           (long long)outer, (long long)inner, box[1], box[0], (int)r);
    return TCSPMM_SUCCESS;
}

/* The stage shapes the maps are encoded for. A's and the metadata's boxes:
 * {tile height, k-tiles a stage} of slot a_slot; B's: {box columns, k-tiles
 * a stage} of slot b_slot. A k-contiguous B has the same boxes for 128- and
 * 256-column tiles (these load two boxes of 128 columns a k-tile), so only
 * a B read transposed (NM) has the third slot. */
static const int A_SLOTS[3][2] = {{256, 2}, {128, 2}, {128, 1}};
static const int B_SLOTS[3][2] = {{128, 2}, {64, 2}, {128, 1}};
template <int BM, int KT> constexpr int a_slot() { return KT == 1 ? 2 : BM == 128; }
template <int BN, int KT, bool NM> constexpr int b_slot()
{
    return BN == 64 ? 1 : KT == 1 && NM ? 2 : 0;
}

/* Pairs: tiles in clusters of two along M that load B once (multicast),
 * from PAIR_MIN_WAVES waves of 256 x 128 tiles on. tf32, whose 4-byte B
 * tiles are twice the bytes per k of a 16-bit one, always pairs there: on
 * an H200 (contenders in random turns, three rounds in one call) pairs of
 * 256 x 128 tiles were 2.8% faster at 4096^3 and 7-8% faster at 16384 x
 * 1024. Below 3 waves pairs were 0-7% slower on the H100, and up to 5%
 * slower on the H200 at 16 bits. tf32 pairs 128 x 256 tiles in place of
 * 256 x 128 ones except on lean cards (LEAN_DRAM_RATE): against 256 x 128
 * pairs in alternating processes, M = K = 4096..16384, N = 1024..8192,
 * the H200 was 1.009x-1.070x faster (mean of 4-5 rounds) at all ten sizes
 * that pair, the H100 0.98x-1.00x up to 8192^2 and 0.84x-0.86x at
 * M = 16384 (bench/results/sp24-tf32-wide-pairs-2026-11-27,
 * -card-2026-11-29). Either shape pairs where 256 x 128 pairs would (their
 * waves). */
#define PAIR_MIN_WAVES 3

/* What the card changes (for tf32, only the shape of its pairs, above). For
 * bf16 and fp16: 128 x 256 tiles run where they
 * cost no more than 256 x 128 ones, up to WIDE_MAX_MACS multiply-adds
 * (M x N x K). On a card with fewer than LEAN_DRAM_RATE bytes of peak DRAM
 * bandwidth per SM and SM cycle (sp24_wgmma_dram_rate: the H100 SXM 12.8,
 * the H200 18.4; the two have the same SMs, SM clock and L2) that bound is
 * WIDE_MAX_MACS_LEAN, and from PAIRS16_MIN_MACS 256 x 128 tiles run in
 * pairs; elsewhere 16-bit tiles never pair.
 * 128 x 256 tiles: an m64n256k32 wgmma.sp reads 10% fewer shared-memory
 * bytes per flop than two m64n128k32 (Nsight Compute at fp16 8192^2 had the
 * 256 x 128 kernel at 90% of the shared-memory wavefront peak), but a
 * 128 x 256 tile reads 25% more bytes from L2 per flop (a column of B is
 * twice the bytes of a compressed row of A). Against 256 x 128 tiles in
 * alternating processes, M = K = 4096..16384, N = 512..8192, by cuSPARSELt's
 * time in the same process over ours: up to 2^37, H200 0.996x-1.07x
 * (geomean 1.034x), H100 0.96x-1.08x (1.037x); above it the H100 lost
 * (0.92x-1.03x, geomean 0.976x). On the H200, by time, three rounds, M = K =
 * 8192, N = 4096, 8192 (2^38, 2^39): 1.007x-1.034x; M = K = 16384 (2^40,
 * 2^41): 0.979x-1.004x. tf32 in single 128 x 256 tiles was 2%-49% slower
 * on the H200 than its pairs of 256 x 128 tiles.
 * 16-bit pairs, against single 256 x 128 tiles in alternating processes: on
 * the H200 slower at all twelve sizes M = K = 4096..16384, N = 4096, 8192
 * (no pairs 1.026x geomean; 1.002x-1.025x at M = 16384); on the H100, by
 * time, three rounds, M = K = 16384 0.989x-1.104x (1.058x-1.104x but bf16
 * 16384 x 4096; M = K = 8192, the same kernel in both builds, 0.988x-1.014x)
 * (bench/results/sp24-wide-tiles-2026-11-27, sp24-pairs-16bit-2026-11-27,
 * sp24-card-rule-2026-11-27). On the H100 at fp16 16384 x 8192 single
 * tiles had DRAM at 46%-65% of its peak (Nsight Compute), so not the bound,
 * and moved 9%-16% more L2 bytes than pairs; launched back to back at the
 * 700 W cap, both ran at the same SM and memory clocks, and single tiles
 * took 8%-10% longer. */
#define LEAN_DRAM_RATE 16.0
#define WIDE_MAX_MACS 549755813888.0          /* 2^39 */
#define WIDE_MAX_MACS_LEAN 137438953472.0     /* 2^37 */
#define PAIRS16_MIN_MACS 1099511627776.0      /* 2^40 */

/* The tensor maps of one uploaded matrix. A's and its metadata's depend
 * only on the matrix and the stage shape, so they are encoded once; B's
 * again only when B's buffer, kind, ld or width changes. Index: the slots
 * above. */
struct sp24_wgmma_maps {
    CUtensorMap a[3], meta[3], b[3];
    CUtensorMapDataType type;
    int elem_bytes;
    int64_t cols_pad;
    const void *b_base; /* the B the b maps describe: its kind, ld and width */
    int b_kind;
    int64_t b_ld, b_n;
    /* clusters that run at once (0: not asked, -1: none): of two blocks,
     * 256 x 128 and 128 x 256 ([wide]), and of the parts of a split K
     * ([BN == 64][parts]) */
    int pairs_fit[2], split_fit[2][MAX_SPLITS + 1];
    /* bf16 and fp16 run 128 x 256 tiles up to, and pairs from, these many
     * multiply-adds (the card's: WIDE_MAX_MACS*, PAIRS16_MIN_MACS) */
    double wide_max_macs, pairs16_min_macs;
    bool tf32_wide_pairs; /* tf32 pairs 128 x 256 tiles (not on lean cards) */
};

/* B's maps for a call: the packed buffer (n_pad rows of cols_pad, k
 * contiguous), or the caller's B, k-contiguous (KMAJOR: boxes of a k-tile
 * by the box columns) or as boxes of 64 columns by a stage's k (NMAJOR,
 * read transposed). */
static tcspmm_status b_maps_for(sp24_wgmma_maps *m, const sp24_wgmma_args *a)
{
    const int packed = a->b_kind == SP24_WGMMA_B_PACKED;
    const int64_t ld = packed ? m->cols_pad : a->ldb, n = packed ? a->n_pad : a->n;
    if (m->b_base == a->b && m->b_kind == a->b_kind && m->b_ld == ld && m->b_n == n)
        return TCSPMM_SUCCESS;
    m->b_base = NULL;
    const int slots = a->b_kind == SP24_WGMMA_B_NMAJOR ? 3 : 2; /* b_slot */
    for (int w = 0; w < slots; w++)
        TCSPMM_TRY(a->b_kind == SP24_WGMMA_B_NMAJOR
                       ? encode_tiled(&m->b[w], m->type, m->elem_bytes, a->b, n, a->cols, ld,
                                      ROW_BYTES, B_SLOTS[w][1] * ROW_BYTES / m->elem_bytes, true)
                       : encode_tiled(&m->b[w], m->type, m->elem_bytes, a->b,
                                      packed ? m->cols_pad : a->cols, n, ld, ROW_BYTES,
                                      B_SLOTS[w][0], true));
    m->b_base = a->b;
    m->b_kind = a->b_kind;
    m->b_ld = ld;
    m->b_n = n;
    return TCSPMM_SUCCESS;
}

extern "C" tcspmm_status sp24_wgmma_maps_new(tcspmm_precision precision, const void *values,
                                             const uint32_t *meta, int64_t rows_pad,
                                             int64_t cols_pad, sp24_wgmma_maps **out)
{
    *out = NULL;
    sp24_wgmma_maps *m = new (std::nothrow) sp24_wgmma_maps();
    if (!m) return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "sp24_wgmma: tensor maps");
    m->type = precision == TCSPMM_PRECISION_TF32   ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32
              : precision == TCSPMM_PRECISION_BF16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
                                                   : CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
    m->elem_bytes = precision == TCSPMM_PRECISION_TF32 ? 4 : 2;
    m->cols_pad = cols_pad;
    const int64_t meta_words = cols_pad / sp24_ktile_cols(precision) * SP24_META_WORDS;
    double dram_rate = 0;
    tcspmm_status st = sp24_wgmma_dram_rate(&dram_rate);
    const bool lean = dram_rate > 0 && dram_rate < LEAN_DRAM_RATE;
    m->wide_max_macs = lean ? WIDE_MAX_MACS_LEAN : WIDE_MAX_MACS;
    m->pairs16_min_macs = lean ? PAIRS16_MIN_MACS : INFINITY;
    m->tf32_wide_pairs = !lean;
    for (int h = 0; h < 3 && !st; h++) {
        const int bm = A_SLOTS[h][0], kt = A_SLOTS[h][1];
        st = encode_tiled(&m->a[h], m->type, m->elem_bytes, values, cols_pad / 2, rows_pad,
                          cols_pad / 2, kt * SP24_KTILE_BYTES, bm, true);
        if (!st)
            st = encode_tiled(&m->meta[h], CU_TENSOR_MAP_DATA_TYPE_UINT32, 4, meta, meta_words,
                              rows_pad / 16, meta_words, kt * META_BYTES, bm / 16, false);
    }
    if (st) {
        delete m;
        return st;
    }
    *out = m;
    return TCSPMM_SUCCESS;
}

extern "C" void sp24_wgmma_maps_free(sp24_wgmma_maps *m) { delete m; }

extern "C" void sp24_wgmma_set_pairs16_min_macs(sp24_wgmma_maps *m, double macs)
{
    m->pairs16_min_macs = macs;
}

extern "C" void sp24_wgmma_set_tf32_wide_pairs(sp24_wgmma_maps *m, int wide)
{
    m->tf32_wide_pairs = wide != 0;
}

extern "C" int sp24_wgmma_pairs_fit(const sp24_wgmma_maps *m, int wide)
{
    return m->pairs_fit[wide != 0];
}

extern "C" tcspmm_status sp24_wgmma_dram_rate(double *bytes_per_sm_cycle)
{
    int dev = 0, mem_khz = 0, bus_bits = 0, sm_khz = 0, sms = 0;
    *bytes_per_sm_cycle = 0;
    TCSPMM_TRY(TCSPMM_CUDA(cudaGetDevice(&dev)));
    TCSPMM_TRY(TCSPMM_CUDA(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, dev)));
    TCSPMM_TRY(
        TCSPMM_CUDA(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, dev)));
    TCSPMM_TRY(TCSPMM_CUDA(cudaDeviceGetAttribute(&sm_khz, cudaDevAttrClockRate, dev)));
    TCSPMM_TRY(TCSPMM_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)));
    if (sm_khz > 0 && sms > 0) /* two transfers a memory clock (DDR) */
        *bytes_per_sm_cycle = 2.0 * mem_khz * (bus_bits / 8.0) / ((double)sm_khz * sms);
    return TCSPMM_SUCCESS;
}

#define MIN_PART_STAGES 4 /* split K into parts of at least this many stages */
/* For n > 128. Calibrated on the H100 (bf16, M = K = 4096..16384, N = 128,
 * 512): a 128 x 128 block runs at about 0.78 of a 256 x 128 block's rate,
 * and split K cost about 30% of the product when its parts were added
 * atomically after a beta pass over C. It now adds them inside a cluster;
 * 1.1 in place of 1.3 changed nothing beyond noise there (bench/NOTES.md,
 * sixteenth session), so 1.3 stays. */
#define MID_SPEED 0.78
#define SPLIT_PENALTY 1.3

/* A launch shape: the tile configuration's grid and how K is split. */
typedef struct launch_shape {
    int clusters_m, tiles_n, splits, k_tiles; /* clusters_m: of CL tiles along M, one a block */
    double cost; /* waves x a part's work (in 256 x 128 x 128-k stages) / a block's speed */
} launch_shape;

/* The blocks a shape of single blocks (not pairs) launches: tiles x parts. */
static int64_t blocks(const launch_shape &sh)
{
    return (int64_t)sh.clusters_m * sh.tiles_n * sh.splits;
}

template <tcspmm_precision ELEM, int BN, int MW, int STAGES, int CL> struct wgmma_config {
    static constexpr int BM = 2 * MW * 64;
    static constexpr int WINDOWS = 8 * WINDOW_FLOATS * 4; /* bytes */
    typedef ring<ELEM, BN, MW, STAGES, false, CL> R;
    static constexpr int SMEM = STAGES * R::STAGE_BYTES + 128 + WINDOWS + 1024;

    /* speed: a block's throughput relative to the 256 x 128 one. K is split
     * when the tiles leave SMs idle, in 128 x 128 and 128 x 64 tiles only
     * (ring::CAN_SPLIT): where 256-row tiles would split K 4 ways (bf16,
     * fp16 and tf32, 4096 x 256 on the H100), 128-row tiles split 2 ways
     * were 7-14% faster; where they would split 2 ways, 128-row tiles
     * unsplit cost the model about as much. The
     * parts of a tile are a cluster, and all clusters run in one wave: where
     * that many do not fit, K is split fewer ways (on the H100, clusters of
     * 4 fit 30 times, of 3 39 times). */
    static tcspmm_status shape(const sp24_wgmma_args *a, double speed, launch_shape *sh)
    {
        sh->clusters_m = (int)((a->rows + CL * BM - 1) / (CL * BM));
        sh->tiles_n = (int)((a->n + BN - 1) / BN);
        sh->k_tiles = (int)(a->cols_pad / sp24_ktile_cols(a->precision));
        int64_t tiles = (int64_t)CL * sh->clusters_m * sh->tiles_n;
        int64_t k_stages = (sh->k_tiles + R::KT - 1) / R::KT;
        int64_t splits = R::CAN_SPLIT ? a->num_sms / tiles : 1;
        if (splits > k_stages / MIN_PART_STAGES) splits = k_stages / MIN_PART_STAGES;
        sh->splits = (int)(splits < 1 ? 1 : splits > MAX_SPLITS ? MAX_SPLITS : splits);
        for (; sh->splits > 1; sh->splits--) {
            int fit = 0;
            TCSPMM_TRY(clusters_fit(sh->splits, SMEM - WINDOWS,
                                    &a->maps->split_fit[BN == 64][sh->splits], &fit));
            if (tiles <= fit) break;
        }
        int64_t waves = (tiles * sh->splits + a->num_sms - 1) / a->num_sms;
        sh->cost = (double)waves * (BM * BN * R::KT / 65536.0) *
                   ((k_stages + sh->splits - 1) / sh->splits) /
                   speed * (sh->splits > 1 ? SPLIT_PENALTY : 1.0);
        return TCSPMM_SUCCESS;
    }

    /* C's 16-bit element type (BF16, FP16 only) */
    typedef std::conditional_t<ELEM == TCSPMM_PRECISION_BF16, __nv_bfloat16, __half> half_c;

    template <bool NM, typename CT> static tcspmm_status prepare_kernel()
    {
        return TCSPMM_CUDA(
            cudaFuncSetAttribute(sp24_wgmma_spmm_kernel<ELEM, BN, MW, STAGES, NM, CL, CT>,
                                 cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM));
    }

    static tcspmm_status prepare()
    {
        TCSPMM_TRY((prepare_kernel<false, float>()));
        if constexpr (ELEM != TCSPMM_PRECISION_TF32) {
            TCSPMM_TRY((prepare_kernel<true, float>()));
            TCSPMM_TRY((prepare_kernel<false, half_c>()));
            TCSPMM_TRY((prepare_kernel<true, half_c>()));
        }
        return TCSPMM_SUCCESS;
    }

    /* The launch of a cluster of `cluster` blocks with smem bytes of shared
     * memory each; attrs has room for one more attribute after the
     * cluster's. */
    static cudaLaunchConfig_t config(cudaLaunchAttribute (&attrs)[2], cudaStream_t stream,
                                     int cluster, int smem)
    {
        attrs[0].id = cudaLaunchAttributeClusterDimension;
        attrs[0].val.clusterDim.x = (unsigned)cluster;
        attrs[0].val.clusterDim.y = attrs[0].val.clusterDim.z = 1;
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = dim3((unsigned)cluster);
        cfg.blockDim = dim3(3 * WG);
        cfg.dynamicSmemBytes = (size_t)smem;
        cfg.stream = stream;
        cfg.attrs = attrs;
        cfg.numAttrs = cluster > 1;
        return cfg;
    }

    /* *fit: how many clusters of `cluster` blocks with smem bytes each run
     * on the device at once (0: none, as where that many blocks of this size
     * cannot share a GPC), asked of the device once and kept in *known. */
    static tcspmm_status clusters_fit(int cluster, int smem, int *known, int *fit)
    {
        if (*known == 0) {
            cudaLaunchAttribute attrs[2];
            cudaLaunchConfig_t cfg = config(attrs, 0, cluster, smem);
            int count = 0;
            TCSPMM_TRY(TCSPMM_CUDA(cudaOccupancyMaxActiveClusters(
                &count, sp24_wgmma_spmm_kernel<ELEM, BN, MW, STAGES, false, CL, float>, &cfg)));
            *known = count > 0 ? count : -1;
        }
        *fit = *known > 0 ? *known : 0;
        return TCSPMM_SUCCESS;
    }

    /* fit: the clusters of CL blocks that run at once (the SMs for single
     * blocks, clusters_fit for pairs); the grid is persistent, as many as
     * fit. Split K: one block a unit, in clusters of the parts of a tile. */
    static tcspmm_status launch(const sp24_wgmma_args *a, const launch_shape &sh, int fit,
                                cudaStream_t stream)
    {
        TCSPMM_TRY(b_maps_for(a->maps, a));
        int64_t units = (int64_t)sh.clusters_m * sh.tiles_n * sh.splits;
        if (units > INT32_MAX / 2)
            return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED,
                               "sp24_wgmma: %lld x %lld output needs %lld work units",
                               (long long)a->rows, (long long)a->n, (long long)units);
        /* the C windows only where store_lines can run (else a larger L1) */
        const int lines = a->row_major && sh.splits == 1 && a->ldc % 4 == 0 &&
                          (uintptr_t)a->C % (a->c16 ? 8 : 16) == 0;
        cudaLaunchAttribute attrs[2];
        cudaLaunchConfig_t cfg = config(attrs, stream, sh.splits > 1 ? sh.splits : CL,
                                        lines ? SMEM : SMEM - WINDOWS);
        cfg.gridDim = dim3((unsigned)(sh.splits > 1 ? units : CL * (units < fit ? units : fit)));
        /* B was packed just before (sp24_mma.cu) */
        const int after_pack = a->b_kind == SP24_WGMMA_B_PACKED;
        if (after_pack) dependent_launch_attribute(&attrs[cfg.numAttrs++]); /* sm_90 only */
        const bool nmajor = a->b_kind == SP24_WGMMA_B_NMAJOR;
        tcspmm_status st;
        if constexpr (ELEM == TCSPMM_PRECISION_TF32)
            st = start<false, float>(cfg, a, sh, lines, after_pack);
        else if (a->c16)
            st = nmajor ? start<true, half_c>(cfg, a, sh, lines, after_pack)
                        : start<false, half_c>(cfg, a, sh, lines, after_pack);
        else
            st = nmajor ? start<true, float>(cfg, a, sh, lines, after_pack)
                        : start<false, float>(cfg, a, sh, lines, after_pack);
        TCSPMM_TRY(st);
        return TCSPMM_CUDA(cudaGetLastError());
    }

    /* The launch of the kernel for B's kind (NM: read transposed) and C's
     * element type. */
    template <bool NM, typename CT>
    static tcspmm_status start(const cudaLaunchConfig_t &cfg, const sp24_wgmma_args *a,
                               const launch_shape &sh, int lines, int after_pack)
    {
        const sp24_wgmma_maps *maps = a->maps;
        return TCSPMM_CUDA(cudaLaunchKernelEx(
            &cfg, sp24_wgmma_spmm_kernel<ELEM, BN, MW, STAGES, NM, CL, CT>,
            maps->a[a_slot<BM, R::KT>()], maps->b[b_slot<BN, R::KT, NM>()],
            maps->meta[a_slot<BM, R::KT>()], sh.k_tiles, a->rows_pad / 16,
            sh.clusters_m, sh.tiles_n, sh.splits, a->rows, a->n, a->alpha, a->beta, (CT *)a->C,
            a->ldc, a->row_major, lines, after_pack));
    }
};

/* n <= 64: 128 x 64 tiles. n <= 128: 128 x 128, since with one column of
 * tiles each unit streams its rows of A from DRAM once and the product is
 * memory-bound: half-height tiles move the same bytes per flop and need half
 * the split K (on the H100, bf16 and tf32, M = K = 4096..16384, N = 128 they
 * were the fastest shape tried or tied with it; 256 x 128 with split K was
 * up to 1.2x slower); but 128 x 64 where its split K keeps more SMs busy
 * (the clusters of the parts fill the GPCs unevenly: at M = 4096, 32 tiles
 * in 3 parts against 64 in 2: bf16 and fp16 1.005x-1.02x with 16-bit B,
 * 0.98x with fp32 B; at M = 2048 1.07x-1.12x). Else 256 x 128 (three stages of 64 KB; in
 * clusters of two as PAIR_MIN_WAVES says, tf32 pairing 128 x 256 tiles on cards that are
 * not lean) or 128 x 128 (four stages), whichever shape's cost is lower; and for bf16 and
 * fp16, 128 x 256 (five stages of one k-tile, 41 KB) in place of 256 x 128 up to the
 * card's WIDE_MAX_MACS*. */
template <tcspmm_precision ELEM> struct wgmma_configs {
    typedef wgmma_config<ELEM, 128, 2, 3, 1> big;
    typedef wgmma_config<ELEM, 128, 2, 3, 2> big_pairs;
    typedef wgmma_config<ELEM, 256, 1, 5, 1> wide; /* bf16, fp16 */
    typedef wgmma_config<ELEM, 256, 1, 5, 2> wide_pairs; /* tf32 */
    typedef wgmma_config<ELEM, 128, 1, 4, 1> mid;
    typedef wgmma_config<ELEM, 64, 1, 4, 1> small;
};

template <tcspmm_precision ELEM> static tcspmm_status prepare_precision()
{
    TCSPMM_TRY(wgmma_configs<ELEM>::big::prepare());
    TCSPMM_TRY(wgmma_configs<ELEM>::big_pairs::prepare());
    if constexpr (ELEM == TCSPMM_PRECISION_TF32) /* tf32 runs 128 x 256 tiles only in pairs */
        TCSPMM_TRY(wgmma_configs<ELEM>::wide_pairs::prepare());
    else
        TCSPMM_TRY(wgmma_configs<ELEM>::wide::prepare());
    TCSPMM_TRY(wgmma_configs<ELEM>::mid::prepare());
    return wgmma_configs<ELEM>::small::prepare();
}

/* Launches the product in clusters of two tiles of configuration P along M,
 * of shape p, where such clusters fit on the device (*launched = 1);
 * pairs_fit: the maps' count of them. */
template <typename P>
static tcspmm_status launch_pairs(const sp24_wgmma_args *a, const launch_shape &p, int *pairs_fit,
                                  cudaStream_t stream, int *launched)
{
    int fit = 0;
    TCSPMM_TRY(P::clusters_fit(2, P::SMEM, pairs_fit, &fit));
    *launched = fit > 0;
    return fit > 0 ? P::launch(a, p, fit, stream) : TCSPMM_SUCCESS;
}

template <tcspmm_precision ELEM>
static tcspmm_status run_precision(const sp24_wgmma_args *a, cudaStream_t stream)
{
    typedef typename wgmma_configs<ELEM>::big big;
    typedef typename wgmma_configs<ELEM>::mid mid;
    typedef typename wgmma_configs<ELEM>::small small;
    launch_shape s, m, b;
    if (a->n <= 128) TCSPMM_TRY(small::shape(a, 1.0, &s));
    if (a->n <= 64) return small::launch(a, s, a->num_sms, stream);
    TCSPMM_TRY(mid::shape(a, MID_SPEED, &m));
    if (a->n <= 128) /* split K: the tile width that keeps more SMs busy (128 x 128 if tied) */
        return s.splits > 1 && blocks(s) > blocks(m) ? small::launch(a, s, a->num_sms, stream)
                                                     : mid::launch(a, m, a->num_sms, stream);
    TCSPMM_TRY(big::shape(a, 1.0, &b));
    if (b.cost > m.cost) return mid::launch(a, m, a->num_sms, stream);
    const double macs = (double)a->rows * a->n * a->cols;
    if (ELEM == TCSPMM_PRECISION_TF32 || macs >= a->maps->pairs16_min_macs) {
        typedef typename wgmma_configs<ELEM>::big_pairs big_pairs;
        launch_shape p;
        TCSPMM_TRY(big_pairs::shape(a, 1.0, &p));
        int launched = 0;
        if (2 * (int64_t)p.clusters_m * p.tiles_n >= PAIR_MIN_WAVES * (int64_t)a->num_sms) {
            if constexpr (ELEM == TCSPMM_PRECISION_TF32)
                if (a->maps->tf32_wide_pairs) {
                    typedef typename wgmma_configs<ELEM>::wide_pairs wide_pairs;
                    launch_shape wp;
                    TCSPMM_TRY(wide_pairs::shape(a, 1.0, &wp));
                    TCSPMM_TRY(launch_pairs<wide_pairs>(a, wp, &a->maps->pairs_fit[1], stream,
                                                        &launched));
                }
            if (!launched)
                TCSPMM_TRY(
                    launch_pairs<big_pairs>(a, p, &a->maps->pairs_fit[0], stream, &launched));
            if (launched) return TCSPMM_SUCCESS;
        }
    }
    if constexpr (ELEM != TCSPMM_PRECISION_TF32)
        if (macs <= a->maps->wide_max_macs) { /* 128 x 256 if no dearer */
            typedef typename wgmma_configs<ELEM>::wide wide;
            launch_shape w;
            TCSPMM_TRY(wide::shape(a, 1.0, &w));
            if (w.cost <= b.cost) return wide::launch(a, w, a->num_sms, stream);
        }
    return big::launch(a, b, a->num_sms, stream);
}

extern "C" int sp24_wgmma_usable(void)
{
    int dev = 0, major = 0, minor = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return major == 9 && minor == 0;
}

extern "C" tcspmm_status sp24_wgmma_prepare(tcspmm_precision p)
{
    if (p == TCSPMM_PRECISION_TF32) return prepare_precision<TCSPMM_PRECISION_TF32>();
    if (p == TCSPMM_PRECISION_BF16) return prepare_precision<TCSPMM_PRECISION_BF16>();
    return prepare_precision<TCSPMM_PRECISION_FP16>();
}

extern "C" tcspmm_status sp24_wgmma_check_sizes(int64_t rows, int64_t rows_pad, int64_t cols_pad,
                                                int64_t n, int64_t n_pad)
{
    if (rows_pad > INT32_MAX || n_pad > INT32_MAX || cols_pad > INT32_MAX)
        return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED,
                           "sp24_wgmma: %lld x %lld (n = %lld) exceeds the tensor maps' range",
                           (long long)rows, (long long)cols_pad, (long long)n);
    return TCSPMM_SUCCESS;
}

extern "C" tcspmm_status sp24_wgmma_spmm(const sp24_wgmma_args *a, cudaStream_t stream)
{
    if (a->precision == TCSPMM_PRECISION_TF32)
        return run_precision<TCSPMM_PRECISION_TF32>(a, stream);
    if (a->precision == TCSPMM_PRECISION_BF16)
        return run_precision<TCSPMM_PRECISION_BF16>(a, stream);
    return run_precision<TCSPMM_PRECISION_FP16>(a, stream);
}
