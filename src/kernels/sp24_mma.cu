/* sp24_mma.cu: the 2:4 / 1:2 sparse tensor-core SpMM (sp24_gpu.h): the
 * packing of B into the kernel's precision and the mma.sp kernel, with its
 * upload and launch, and the choice between it and the Hopper kernel
 * (sp24_wgmma.cu). The compressed layout it reads is format/sparse24.h's. */
#include "sp24_gpu_internal.h"

#include "../device_copy.h"
#include "../error.h"
#include "../gpu_timer.h"
#include "../host_upload.h"
#include "c_store.h"
#include "dependent_launch.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdlib.h>

/* The kernel's element type: the mma.sp flavour and what B is packed into. */
enum { ELEM_TF32 = 0, ELEM_BF16 = 1, ELEM_FP16 = 2 };

#define PACK_K 64      /* pack_b: a 64 (k) x 32 (n) tile of B per block ... */
#define PACK_N 32
#define PACK_ROWS 8    /* ... with 32 x 8 threads */
#define N_ALIGN 128    /* packed B has a multiple of this many columns of C */
#define STAGES 4       /* cp.async pipeline depth */
#define B_TILE_BYTES 128 /* packed B bytes of one column n per k-tile */

/* ------------------------------------------------------------------ */
/* The kernel's element types, and tf32's rounding (to nearest, ties away). */

template <int ELEM> struct elem_traits;
template <> struct elem_traits<ELEM_TF32> {
    typedef float type;
    static __device__ type from_float(float x) { return sp24_tf32_rna(x); }
};
template <> struct elem_traits<ELEM_BF16> {
    typedef __nv_bfloat16 type;
};
template <> struct elem_traits<ELEM_FP16> {
    typedef __half type;
};

/* Two consecutive elements of packed B, stored together. */
__device__ __forceinline__ void store_pair(float *p, float x0, float x1)
{
    *(float2 *)p = make_float2(elem_traits<ELEM_TF32>::from_float(x0),
                               elem_traits<ELEM_TF32>::from_float(x1));
}
__device__ __forceinline__ void store_pair(__nv_bfloat16 *p, float x0, float x1)
{
    *(__nv_bfloat162 *)p = __floats2bfloat162_rn(x0, x1);
}
__device__ __forceinline__ void store_pair(__half *p, float x0, float x1)
{
    *(__half2 *)p = __floats2half2_rn(x0, x1);
}

/* pack_b: Bp (n_pad rows of k_pad, k contiguous) = B (k x n, in layout with
 * ldb) converted to the element type, zero outside k x n; a launch packs
 * n from n_first on, a y block per PACK_N of them (launch_pack). Each block
 * owns a PACK_K x PACK_N tile of (k, n), staged through shared memory so
 * that the reads run along B's contiguous dimension (a warp reads 32
 * consecutive elements) and the writes along k (a warp writes 64
 * consecutive elements, two per thread). Thread (x, y) reads column x
 * (row-major B) or k x and x + 32 (column-major) of rows y, y + 8, ..., and
 * writes k 2x, 2x + 1 of packed rows y, y + 8, y + 16, y + 24. The Hopper
 * kernel that reads Bp may start meanwhile and waits for this pass before
 * its first load (dependent_launch.h). */
template <typename In, int ELEM>
__global__ void pack_b(const In *__restrict__ B, int64_t ldb, int row_major, int64_t k,
                       int64_t n, int64_t n_first, int64_t k_pad,
                       typename elem_traits<ELEM>::type *__restrict__ Bp)
{
    __shared__ float tile[PACK_N][PACK_K + 1]; /* [n][k] */
    dependents_may_start();
    const int64_t k0 = (int64_t)blockIdx.x * PACK_K, n0 = n_first + (int64_t)blockIdx.y * PACK_N;
    const int x = threadIdx.x, y = threadIdx.y;
    if (row_major) { /* element (k, n) at k * ldb + n */
        const In *src = B + (k0 + y) * ldb + n0 + x;
        const bool in_n = n0 + x < n;
#pragma unroll
        for (int i = 0; i < PACK_K / PACK_ROWS; i++, src += PACK_ROWS * ldb)
            tile[x][y + PACK_ROWS * i] =
                in_n && k0 + y + PACK_ROWS * i < k ? to_float(*src) : 0.0f;
    } else { /* element (k, n) at n * ldb + k */
        const In *src = B + (n0 + y) * ldb + k0 + x;
#pragma unroll
        for (int i = 0; i < PACK_N / PACK_ROWS; i++, src += PACK_ROWS * ldb)
#pragma unroll
            for (int h = 0; h < PACK_K / 32; h++) {
                const bool in = n0 + y + PACK_ROWS * i < n && k0 + x + 32 * h < k;
                tile[y + PACK_ROWS * i][x + 32 * h] = in ? to_float(src[32 * h]) : 0.0f;
            }
    }
    __syncthreads();
    if (k0 + 2 * x >= k_pad) return; /* k_pad is a multiple of 32, maybe not of PACK_K */
    typename elem_traits<ELEM>::type *dst = Bp + (n0 + y) * k_pad + k0 + 2 * x;
#pragma unroll
    for (int i = 0; i < PACK_N / PACK_ROWS; i++, dst += PACK_ROWS * k_pad)
        store_pair(dst, tile[y + PACK_ROWS * i][2 * x], tile[y + PACK_ROWS * i][2 * x + 1]);
}

/* pack_b over all n_pad rows of Bp, in launches of at most 65535 y blocks
 * (the grid's limit; the y blocks looping over n inside one launch made the
 * pass 9-19% slower on an H200, bench/results/pack-past-2-21-2026-11-26/). */
template <typename In, int ELEM>
static void launch_pack(const In *B, int64_t ldb, int row_major, int64_t k, int64_t n,
                        int64_t n_pad, int64_t k_pad, typename elem_traits<ELEM>::type *Bp,
                        cudaStream_t stream)
{
    for (int64_t first = 0; first < n_pad; first += (int64_t)65535 * PACK_N) {
        const int64_t blocks = (n_pad - first) / PACK_N;
        const dim3 grid((unsigned)((k_pad + PACK_K - 1) / PACK_K),
                        (unsigned)(blocks < 65535 ? blocks : 65535));
        pack_b<In, ELEM><<<grid, dim3(32, PACK_ROWS), 0, stream>>>(B, ldb, row_major, k, n, first,
                                                                  k_pad, Bp);
    }
}

/* ------------------------------------------------------------------ */
/* Warp-level primitives. */

__device__ __forceinline__ void cp_async16(void *smem, const void *gmem)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N> __device__ __forceinline__ void cp_async_wait()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

__device__ __forceinline__ void ldmatrix_x4(uint32_t r[4], const void *smem)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(s));
}

/* d += A(16 x k, 2:4 or 1:2, compressed in a) * B(k x 8) with metadata e
 * from the thread pair SEL of each group of four lanes. */
template <int ELEM, int SEL> struct mma_sp;
#define MMA_SP_ASM(shape_types)                                                               \
    asm volatile("mma.sp::ordered_metadata.sync.aligned." shape_types                         \
                 " {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11},"                   \
                 " {%0, %1, %2, %3}, %12, %13;\n"                                             \
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])                             \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),          \
                   "r"(b[2]), "r"(b[3]), "r"(e), "n"(SEL))
template <int SEL> struct mma_sp<ELEM_TF32, SEL> {
    static __device__ __forceinline__ void run(float d[4], const uint32_t a[4], const uint32_t b[4],
                                               uint32_t e)
    {
        MMA_SP_ASM("m16n8k16.row.col.f32.tf32.tf32.f32");
    }
};
template <int SEL> struct mma_sp<ELEM_BF16, SEL> {
    static __device__ __forceinline__ void run(float d[4], const uint32_t a[4], const uint32_t b[4],
                                               uint32_t e)
    {
        MMA_SP_ASM("m16n8k32.row.col.f32.bf16.bf16.f32");
    }
};
template <int SEL> struct mma_sp<ELEM_FP16, SEL> {
    static __device__ __forceinline__ void run(float d[4], const uint32_t a[4], const uint32_t b[4],
                                               uint32_t e)
    {
        MMA_SP_ASM("m16n8k32.row.col.f32.f16.f16.f32");
    }
};

/* ------------------------------------------------------------------ */
/* sp24_spmm: C = alpha*A*B + beta*C on the sparse tensor cores.
 *
 * Block: a BM x BN tile of C, looping over k-tiles (64 compressed bytes of A
 * per row = two mma k-steps; B_TILE_BYTES of packed B per column), staged
 * by cp.async through STAGES shared-memory buffers. A rows (64 B) and B
 * columns (128 B) are stored with their 16-byte chunks XOR-swizzled so each
 * ldmatrix phase hits 8 distinct bank groups.
 * Warp: a (BM/WM) x (BN/WN) sub-tile: MT x NT mma tiles of 16 x 8. Per
 * k-tile it reads one metadata word per 16-row tile (lane-ordered, so one
 * conflict-free 32-bit load), and per k-step the A fragments (ldmatrix.x4 of
 * 16 rows x 32 B) and the B fragments (ldmatrix.x4 of 8 columns x 64 B),
 * then issues MT*NT mma.sp with sparsity selector = k-step.
 * Thread: 4 accumulators per mma tile (rows g, g+8; columns 2q, 2q+1 where
 * g = lane/4, q = lane%4), written to C (elements CT: c_store.h) with edge
 * masks. */
template <int ELEM, int BM, int BN, int WM, int WN, typename CT>
__global__ void __launch_bounds__(WM *WN * 32)
    sp24_spmm(const uint8_t *__restrict__ A, const uint32_t *__restrict__ meta,
              const uint8_t *__restrict__ Bp, int64_t a_row_bytes, int64_t b_col_bytes,
              int k_tiles, int64_t m, int64_t n, float alpha, float beta, CT *__restrict__ C,
              int64_t ldc, int row_major)
{
    constexpr int THREADS = WM * WN * 32, MT = BM / WM / 16, NT = BN / WN / 8;
    constexpr int A_BYTES = BM * SP24_KTILE_BYTES, B_BYTES = BN * B_TILE_BYTES;
    constexpr int E_BYTES = BM / 16 * SP24_META_WORDS * 4;
    constexpr int STAGE_BYTES = A_BYTES + B_BYTES + E_BYTES;
    extern __shared__ __align__(128) uint8_t smem[];

    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    const int wm = warp / WN, wn = warp % WN;
    const int64_t m0 = (int64_t)blockIdx.y * BM, n0 = (int64_t)blockIdx.x * BN;
    const uint8_t *a_block = A + m0 * a_row_bytes;
    const uint8_t *b_block = Bp + n0 * b_col_bytes;
    const uint8_t *e_block = (const uint8_t *)meta + (m0 / 16) * k_tiles * (SP24_META_WORDS * 4);

    auto load_stage = [&](int stage, int kt) {
        uint8_t *sa = smem + stage * STAGE_BYTES, *sb = sa + A_BYTES, *se = sb + B_BYTES;
        for (int i = tid; i < BM * 4; i += THREADS) {
            int r = i / 4, c = i % 4;
            cp_async16(sa + r * 64 + ((c ^ ((r >> 1) & 3)) * 16),
                       a_block + r * a_row_bytes + (int64_t)kt * SP24_KTILE_BYTES + c * 16);
        }
        for (int i = tid; i < BN * 8; i += THREADS) {
            int r = i / 8, c = i % 8;
            cp_async16(sb + r * 128 + ((c ^ (r & 7)) * 16),
                       b_block + r * b_col_bytes + (int64_t)kt * B_TILE_BYTES + c * 16);
        }
        for (int i = tid; i < BM / 16 * 8; i += THREADS) {
            int t = i / 8, c = i % 8;
            cp_async16(se + t * 128 + c * 16,
                       e_block + ((int64_t)t * k_tiles + kt) * (SP24_META_WORDS * 4) + c * 16);
        }
    };

    float acc[MT][NT][4];
#pragma unroll
    for (int i = 0; i < MT; i++)
#pragma unroll
        for (int j = 0; j < NT; j++)
#pragma unroll
            for (int r = 0; r < 4; r++) acc[i][j][r] = 0.0f;

#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < k_tiles) load_stage(s, s);
        cp_async_commit();
    }

    for (int kt = 0; kt < k_tiles; kt++) {
        cp_async_wait<STAGES - 2>();
        __syncthreads();
        if (kt + STAGES - 1 < k_tiles) load_stage((kt + STAGES - 1) % STAGES, kt + STAGES - 1);
        cp_async_commit();

        const uint8_t *sa = smem + (kt % STAGES) * STAGE_BYTES, *sb = sa + A_BYTES,
                      *se = sb + B_BYTES;
        uint32_t e[MT];
#pragma unroll
        for (int i = 0; i < MT; i++)
            e[i] = ((const uint32_t *)se)[(wm * MT + i) * SP24_META_WORDS + lane];
#pragma unroll
        for (int step = 0; step < 2; step++) {
            uint32_t a[MT][4], b[NT][4];
#pragma unroll
            for (int i = 0; i < MT; i++) {
                int r = wm * MT * 16 + i * 16 + (lane & 15), c = 2 * step + (lane >> 4);
                ldmatrix_x4(a[i], sa + r * 64 + ((c ^ ((r >> 1) & 3)) * 16));
            }
#pragma unroll
            for (int j = 0; j < NT; j++) {
                int r = wn * NT * 8 + j * 8 + (lane & 7), c = 4 * step + (lane >> 3);
                ldmatrix_x4(b[j], sb + r * 128 + ((c ^ (r & 7)) * 16));
            }
#pragma unroll
            for (int i = 0; i < MT; i++)
#pragma unroll
                for (int j = 0; j < NT; j++) {
                    if (step == 0) mma_sp<ELEM, 0>::run(acc[i][j], a[i], b[j], e[i]);
                    else mma_sp<ELEM, 1>::run(acc[i][j], a[i], b[j], e[i]);
                }
        }
    }
    cp_async_wait<0>();

    const int g = lane / 4, q = lane % 4;
#pragma unroll
    for (int i = 0; i < MT; i++)
#pragma unroll
        for (int j = 0; j < NT; j++)
#pragma unroll
            for (int r = 0; r < 4; r++) {
                int64_t row = m0 + wm * MT * 16 + i * 16 + g + (r / 2) * 8;
                int64_t col = n0 + wn * NT * 8 + j * 8 + 2 * q + (r % 2);
                if (row >= m || col >= n) continue;
                store_c<CT, 1, false>(C + (row_major ? row * ldc + col : col * ldc + row), alpha,
                                      {acc[i][j][r]}, beta);
            }
}

/* ------------------------------------------------------------------ */
/* Host side. */

template <int ELEM, int BM, int BN, int WM, int WN> struct spmm_config {
    static constexpr int THREADS = WM * WN * 32;
    static constexpr int SMEM =
        STAGES * (BM * SP24_KTILE_BYTES + BN * B_TILE_BYTES + BM / 16 * SP24_META_WORDS * 4);
    /* a 16-bit C has the kernel's element type (c16: BF16 and FP16 only) */
    typedef typename elem_traits<ELEM>::type half_c;

    static tcspmm_status prepare()
    {
        TCSPMM_TRY(TCSPMM_CUDA(cudaFuncSetAttribute(sp24_spmm<ELEM, BM, BN, WM, WN, float>,
                                                    cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                    SMEM)));
        if constexpr (ELEM == ELEM_TF32) return TCSPMM_SUCCESS;
        return TCSPMM_CUDA(cudaFuncSetAttribute(sp24_spmm<ELEM, BM, BN, WM, WN, half_c>,
                                                cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                SMEM));
    }
    /* dC: float, or (c16) the precision's 16-bit type */
    static tcspmm_status launch(const sp24_gpu *g, int64_t n, float alpha, float beta, void *dC,
                                int c16, int64_t ldc, int row_major, cudaStream_t stream)
    {
        return c16 ? start<half_c>(g, n, alpha, beta, (half_c *)dC, ldc, row_major, stream)
                   : start<float>(g, n, alpha, beta, (float *)dC, ldc, row_major, stream);
    }
    template <typename CT>
    static tcspmm_status start(const sp24_gpu *g, int64_t n, float alpha, float beta, CT *dC,
                               int64_t ldc, int row_major, cudaStream_t stream)
    {
        dim3 grid((unsigned)((n + BN - 1) / BN), (unsigned)row_blocks(g));
        int k_tiles = (int)(g->cols_pad / sp24_ktile_cols(g->precision));
        sp24_spmm<ELEM, BM, BN, WM, WN, CT><<<grid, THREADS, SMEM, stream>>>(
            (const uint8_t *)g->values, g->meta, (const uint8_t *)g->b_packed,
            g->cols_pad / 2 * g->elem_bytes, g->cols_pad * g->elem_bytes, k_tiles, g->rows, n,
            alpha, beta, dC, ldc, row_major);
        return TCSPMM_CUDA(cudaGetLastError());
    }
    /* Blocks along M: those that hold a row of A (rows_pad is a multiple of
     * the big tiles' rows, so 64-row blocks past the last row would only
     * multiply padding). */
    static int64_t row_blocks(const sp24_gpu *g)
    {
        return (g->rows + BM - 1) / BM;
    }
    static int64_t blocks(const sp24_gpu *g, int64_t n)
    {
        return row_blocks(g) * ((n + BN - 1) / BN);
    }
};

/* The configurations' rows per thread block (mma_sp_takes_rows). */
enum { BIG_BM = 128, SMALL_BM = 64 };

template <int ELEM> struct configs {
    typedef spmm_config<ELEM, BIG_BM, 128, 2, 2> big;
    typedef spmm_config<ELEM, SMALL_BM, 64, 2, 2> small;
};
static_assert(configs<ELEM_TF32>::big::SMEM == configs<ELEM_BF16>::big::SMEM &&
                  configs<ELEM_TF32>::big::SMEM == configs<ELEM_FP16>::big::SMEM,
              "one shared-memory size for the big tiles of every precision");

static int small_device_emulated; /* sp24_emulate_small_device */

extern "C" void sp24_emulate_small_device(int on) { small_device_emulated = on != 0; }

/* Whether the current device runs wgmma.sp (as emulated). */
static int wgmma_usable(void)
{
    return !small_device_emulated && sp24_wgmma_usable();
}

/* Whether the current device gives a thread block the big tiles' shared
 * memory (100 KB; compute capability 8.6, 8.9 and 12.x give 99 KB). */
static int big_tiles_fit(void)
{
    if (small_device_emulated) return 0;
    int dev = 0, optin = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) !=
            cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return optin >= configs<ELEM_TF32>::big::SMEM;
}

template <int ELEM>
static tcspmm_status run_elem(sp24_gpu *g, int64_t n, float alpha, const void *dB, int b_type,
                              int64_t ldb, float beta, void *dC, int c16, int64_t ldc,
                              int row_major, int b_in_place, cudaStream_t stream)
{
    typedef typename elem_traits<ELEM>::type T;
    int64_t n_pad = (n + N_ALIGN - 1) / N_ALIGN * N_ALIGN;
    if (!b_in_place) {
        T *bp = (T *)g->b_packed;
        if (b_type == SP24_DATA_FP32)
            launch_pack<float, ELEM>((const float *)dB, ldb, row_major, g->cols, n, n_pad,
                                     g->cols_pad, bp, stream);
        else if (b_type == SP24_DATA_BF16)
            launch_pack<__nv_bfloat16, ELEM>((const __nv_bfloat16 *)dB, ldb, row_major, g->cols,
                                             n, n_pad, g->cols_pad, bp, stream);
        else
            launch_pack<__half, ELEM>((const __half *)dB, ldb, row_major, g->cols, n, n_pad,
                                      g->cols_pad, bp, stream);
        TCSPMM_TRY(TCSPMM_CUDA(cudaGetLastError()));
    }
    if (g->kernel == SP24_KERNEL_WGMMA) {
        int kind = !b_in_place ? SP24_WGMMA_B_PACKED
                   : row_major ? SP24_WGMMA_B_NMAJOR
                               : SP24_WGMMA_B_KMAJOR;
        sp24_wgmma_args a = {g->precision, g->maps, b_in_place ? dB : g->b_packed, kind, ldb,
                             g->rows, g->rows_pad, g->cols, g->cols_pad, n, n_pad, alpha, beta,
                             dC, c16, ldc, row_major, g->num_sms};
        return sp24_wgmma_spmm(&a, stream);
    }
    if (g->kernel == SP24_KERNEL_MMA_SP && configs<ELEM>::big::blocks(g, n) >= g->num_sms)
        return configs<ELEM>::big::launch(g, n, alpha, beta, dC, c16, ldc, row_major, stream);
    return configs<ELEM>::small::launch(g, n, alpha, beta, dC, c16, ldc, row_major, stream);
}

template <int ELEM> static tcspmm_status prepare_elem(int big)
{
    if (big) TCSPMM_TRY(configs<ELEM>::big::prepare());
    return configs<ELEM>::small::prepare();
}

static int elem_of(tcspmm_precision p)
{
    return p == TCSPMM_PRECISION_TF32 ? ELEM_TF32 : p == TCSPMM_PRECISION_BF16 ? ELEM_BF16
                                                                                : ELEM_FP16;
}

extern "C" tcspmm_status sp24_gpu_upload(const sp24 *s, sp24_gpu **out)
{
    *out = NULL;
    if (s->precision == TCSPMM_PRECISION_FP32 || !s->values || !s->meta)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "sp24_gpu_upload: not a compressed tf32/bf16/fp16 matrix");
    if (!sp24_gpu_takes_rows(s->rows))
        return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED,
                           "sp24_gpu_upload: %lld rows exceed the %s kernel's bound",
                           (long long)s->rows, sp24_kernel_name(sp24_kernel_default()));
    sp24_gpu *g = (sp24_gpu *)calloc(1, sizeof *g);
    if (!g) return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "sp24_gpu_upload: out of memory");
    g->precision = s->precision;
    g->rows = s->rows;
    g->cols = s->cols;
    g->rows_pad = s->rows_pad;
    g->cols_pad = s->cols_pad;
    g->elem_bytes = s->elem_bytes;
    size_t vbytes, ebytes;
    sp24_sizes(s, &vbytes, &ebytes);
    int device = 0;
    tcspmm_status st = TCSPMM_CUDA(cudaGetDevice(&device));
    if (!st) st = TCSPMM_CUDA(cudaDeviceGetAttribute(&g->num_sms, cudaDevAttrMultiProcessorCount,
                                                     device));
    host_upload u = {0}; /* closed below also when not opened */
    if (!st) st = host_upload_open(&u, vbytes + ebytes);
    if (!st) st = host_upload_copy(&u, &g->values, s->values, vbytes);
    if (!st) st = host_upload_copy(&u, (void **)&g->meta, s->meta, ebytes);
    st = host_upload_close(&u, st);
    const int big = big_tiles_fit();
    g->kernel = sp24_kernel_default();
    if (!st) {
        int e = elem_of(s->precision);
        st = e == ELEM_TF32 ? prepare_elem<ELEM_TF32>(big)
             : e == ELEM_BF16 ? prepare_elem<ELEM_BF16>(big) : prepare_elem<ELEM_FP16>(big);
    }
    if (!st && g->kernel == SP24_KERNEL_WGMMA) st = sp24_wgmma_prepare(s->precision);
    if (!st && g->kernel == SP24_KERNEL_WGMMA)
        st = sp24_wgmma_maps_new(s->precision, g->values, g->meta, g->rows_pad, g->cols_pad,
                                 &g->maps);
    if (st) {
        sp24_gpu_free(g);
        return st;
    }
    *out = g;
    return TCSPMM_SUCCESS;
}

/* The mma.sp kernel's grid has a y block per BM padded rows, at most 65535.
 * SP24_KERNEL_MMA_SP runs the small configuration only where the big one has
 * fewer blocks than the device has SMs, so the big one's BM bounds its rows;
 * SP24_KERNEL_MMA_SP_SMALL runs only the small one. The wgmma.sp kernel is
 * persistent. */
static int mma_sp_takes_rows(sp24_kernel k, int64_t rows_pad)
{
    return rows_pad / (k == SP24_KERNEL_MMA_SP ? BIG_BM : SMALL_BM) <= 65535;
}

extern "C" int sp24_kernel_usable(sp24_kernel k)
{
    if (k == SP24_KERNEL_WGMMA) return wgmma_usable();
    return k == SP24_KERNEL_MMA_SP_SMALL || (k == SP24_KERNEL_MMA_SP && big_tiles_fit());
}

extern "C" sp24_kernel sp24_kernel_default(void)
{
    return wgmma_usable()                             ? SP24_KERNEL_WGMMA
           : sp24_kernel_usable(SP24_KERNEL_MMA_SP) ? SP24_KERNEL_MMA_SP
                                                    : SP24_KERNEL_MMA_SP_SMALL;
}

extern "C" int sp24_gpu_takes_rows(int64_t rows)
{
    const int64_t rows_pad =
        ((rows > 0 ? rows : 1) + SP24_ROW_TILE - 1) / SP24_ROW_TILE * SP24_ROW_TILE;
    const sp24_kernel k = sp24_kernel_default();
    return k == SP24_KERNEL_WGMMA ? rows_pad <= INT32_MAX : mma_sp_takes_rows(k, rows_pad);
}

extern "C" sp24_kernel sp24_gpu_kernel(const sp24_gpu *g) { return g->kernel; }

extern "C" tcspmm_status sp24_gpu_set_kernel(sp24_gpu *g, sp24_kernel k)
{
    if (!sp24_kernel_usable(k))
        return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED,
                           "sp24_gpu_set_kernel: this device cannot run %s (wgmma.sp needs "
                           "compute capability 9.0; mma.sp's 128-row tiles, 100 KB of shared "
                           "memory per block)", sp24_kernel_name(k));
    if (k != SP24_KERNEL_WGMMA && !mma_sp_takes_rows(k, g->rows_pad))
        return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED,
                           "sp24_gpu_set_kernel: %lld rows exceed the %s kernel's grid",
                           (long long)g->rows, sp24_kernel_name(k));
    g->kernel = k;
    return TCSPMM_SUCCESS;
}

extern "C" const char *sp24_kernel_name(sp24_kernel k)
{
    return k == SP24_KERNEL_WGMMA ? "wgmma.sp" : k == SP24_KERNEL_MMA_SP ? "mma.sp"
                                                                           : "mma.sp (64-row tiles)";
}

/* g->b_packed with room for need bytes. The buffer it replaces is freed,
 * unless a captured call packed B into it: a graph may still use it, so it
 * is kept until the handle is freed. */
static tcspmm_status grow_b_packed(sp24_gpu *g, size_t need)
{
    if (g->b_packed && g->b_packed_captured) {
        sp24_retired_buffer *r = (sp24_retired_buffer *)malloc(sizeof *r);
        if (!r)
            return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "sp24_gpu_spmm: out of memory");
        r->ptr = g->b_packed;
        r->next = g->retired;
        g->retired = r;
    } else {
        TCSPMM_TRY(TCSPMM_CUDA(cudaFree(g->b_packed)));
    }
    g->b_packed = NULL;
    g->b_packed_bytes = 0;
    g->b_packed_captured = 0;
    TCSPMM_TRY(TCSPMM_CUDA(cudaMalloc(&g->b_packed, need)));
    g->b_packed_bytes = need;
    return TCSPMM_SUCCESS;
}

/* Whether data of type t (SP24_DATA_*) fits a matrix of kernel element elem. */
static int data_fits(int t, int elem)
{
    return t == SP24_DATA_FP32 || (t == SP24_DATA_BF16 && elem == ELEM_BF16) ||
           (t == SP24_DATA_FP16 && elem == ELEM_FP16);
}

extern "C" tcspmm_status sp24_gpu_spmm(sp24_gpu *g, int64_t n, float alpha, const void *dB,
                                       int b_type, int64_t ldb, float beta, void *dC,
                                       int c_type, int64_t ldc, tcspmm_layout layout,
                                       void *stream)
{
    if (!g || n < 0 || (n > 0 && g->rows > 0 && (!dC || (g->cols > 0 && !dB))))
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "sp24_gpu_spmm: null handle or pointer, or n = %lld < 0", (long long)n);
    int row_major = layout == TCSPMM_LAYOUT_ROW_MAJOR;
    int64_t min_ldb = row_major ? n : g->cols, min_ldc = row_major ? n : g->rows;
    if (ldb < (min_ldb > 1 ? min_ldb : 1) || ldc < (min_ldc > 1 ? min_ldc : 1))
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "sp24_gpu_spmm: ldb = %lld or ldc = %lld below %lld / %lld",
                           (long long)ldb, (long long)ldc, (long long)min_ldb,
                           (long long)min_ldc);
    int elem = elem_of(g->precision);
    if (!data_fits(b_type, elem) || !data_fits(c_type, elem))
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "sp24_gpu_spmm: B type %d or C type %d does not fit a %s matrix",
                           b_type, c_type, tcspmm_precision_name(g->precision));
    const int c16 = c_type != SP24_DATA_FP32;
    if (n == 0 || g->rows == 0) return TCSPMM_SUCCESS;
    int64_t n_pad = (n + N_ALIGN - 1) / N_ALIGN * N_ALIGN;
    /* wgmma.sp reads a 16-bit B in place where TMA can (rows of B, a 16-byte
     * address, a stride that is a multiple of 16 bytes and below 2^40);
     * otherwise B is packed (and rounded) into b_packed first */
    const int b_in_place = g->kernel == SP24_KERNEL_WGMMA && b_type != SP24_DATA_FP32 &&
                           g->cols > 0 && ldb % 8 == 0 && ldb < ((int64_t)1 << 39) &&
                           (uintptr_t)dB % 16 == 0;
    if (g->kernel == SP24_KERNEL_WGMMA) /* before B's buffer grows for a size it cannot run */
        TCSPMM_TRY(sp24_wgmma_check_sizes(g->rows, g->rows_pad, g->cols_pad, n, n_pad));
    size_t need = b_in_place ? 0 : (size_t)(n_pad * g->cols_pad * g->elem_bytes);
    if (need > g->b_packed_bytes) TCSPMM_TRY(grow_b_packed(g, need));
    if (need > 0 && !g->b_packed_captured)
        TCSPMM_TRY(gpu_stream_capturing(stream, &g->b_packed_captured));
    cudaStream_t s = (cudaStream_t)stream;
    if (elem == ELEM_TF32)
        return run_elem<ELEM_TF32>(g, n, alpha, dB, b_type, ldb, beta, dC, c16, ldc, row_major,
                                   b_in_place, s);
    if (elem == ELEM_BF16)
        return run_elem<ELEM_BF16>(g, n, alpha, dB, b_type, ldb, beta, dC, c16, ldc, row_major,
                                   b_in_place, s);
    return run_elem<ELEM_FP16>(g, n, alpha, dB, b_type, ldb, beta, dC, c16, ldc, row_major,
                               b_in_place, s);
}

extern "C" void sp24_gpu_free(sp24_gpu *g)
{
    if (!g) return;
    cudaFree(g->values);
    cudaFree(g->meta);
    cudaFree(g->b_packed);
    while (g->retired) {
        sp24_retired_buffer *r = g->retired;
        g->retired = r->next;
        cudaFree(r->ptr);
        free(r);
    }
    sp24_wgmma_maps_free(g->maps);
    free(g);
}
