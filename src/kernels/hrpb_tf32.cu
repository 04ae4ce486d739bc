/* hrpb_tf32.cu: the HRPB SpMM kernel on TF32 tensor cores (cuTeSpMM,
 * Algorithm 1) and its host side: upload, occupancy, launch.
 *
 * C = alpha*A*B + beta*C. One thread block per (virtual panel, N tile of
 * 32*WARPS columns); the grid's y dimension strides over the N tiles. Warp w
 * owns the TM x 32 tile of C at columns 32w.. of the N tile: TM/16 x 4
 * accumulators of 16x8 (mma.m16n8k4, four floats per lane each). Each lane
 * decodes the two A elements it holds in a brick (bits lane and lane+32 of
 * the pattern, value index by popcount) and reuses that fragment across its
 * warp's four 16x8 tiles; a brick column's B fragments are reused across its
 * bricks (TM = 32).
 *
 * Per HRPB block (16 active columns) the thread block copies, with cp.async
 * into one of STAGES shared-memory stages: the block's packed bytes (header,
 * patterns, values; 16-byte chunks) and the 16 rows of B its active columns
 * name, restricted to the N tile (padding column -1 and columns past n are
 * zero-filled, B is not read there; a chunk that n cuts goes element by
 * element, so no copy reads past the end of B). The copies of block b + STAGES - 1 are
 * in flight while block b is multiplied; the indices they need (active
 * columns, byte offsets) are loaded into registers one block earlier still.
 *
 * Thread t copies B chunks (4 floats) t % (8*WARPS) of the rows
 * t / (8*WARPS) + 4i, i = 0..3. The B stage is 16 rows of 32*WARPS + 8 floats:
 * the 8-float pad puts the 32 lanes of a B-fragment read (row t%4 of the
 * brick column, column lane/4) in 32 different banks. */
#include <cuda_runtime.h>

#include <stdlib.h>
#include <string.h>

#include "../error.h"
#include "hrpb_gpu_internal.h"

enum { STAGES = 3, MAX_WARPS = 4 };

/* ------------------------------------------------------------------ */
/* PTX wrappers */

__device__ __forceinline__ void cp_async16(void *smem, const void *gmem, int src_bytes)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(gmem),
                 "r"(src_bytes)
                 : "memory");
}

__device__ __forceinline__ void cp_async4(void *smem, const void *gmem, int src_bytes)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(s), "l"(gmem),
                 "r"(src_bytes)
                 : "memory");
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

__device__ __forceinline__ unsigned to_tf32(float x)
{
    unsigned r;
    asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
    return r;
}

/* d (16x8) += a (16x4, row) * b (4x8, col) in TF32, f32 accumulators. */
__device__ __forceinline__ void mma_tf32_16x8x4(float d[4], unsigned a0, unsigned a1, unsigned b0)
{
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 "
                 "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a0), "r"(a1), "r"(b0));
}

/* ------------------------------------------------------------------ */
/* The kernel */

/* Where the copies of one HRPB block come from: the B rows (one active
 * column per row this thread copies) and the block's packed bytes. */
struct block_source {
    int col[4];
    int64_t begin, end;
};

template <int TM, int WARPS>
struct hrpb_smem {
    static constexpr int NT = 32 * WARPS;          /* N columns of a tile */
    static constexpr int LDB = NT + 8;             /* padded B row, floats */
    static constexpr int A_BYTES = HRPB_HEADER_BYTES + (TM / 16) * 4 * 8 + TM * HRPB_TK * 4;
    struct stage {
        float b[HRPB_TK * LDB];
        alignas(16) unsigned char a[A_BYTES];
    };
    stage st[STAGES];
};

template <int TM, int WARPS, bool VEC>
__global__ void __launch_bounds__(32 * WARPS)
hrpb_tf32_kernel(const int64_t *__restrict__ vp_block_ptr, const int64_t *__restrict__ vp_panel,
                 const uint8_t *__restrict__ vp_split, const int64_t *__restrict__ size_ptr,
                 const int32_t *__restrict__ active_cols, const uint8_t *__restrict__ packed,
                 int64_t rows, int64_t n, int64_t n_tiles, float alpha, const float *B,
                 int64_t b_sk, int64_t b_sj, float beta, float *C, int64_t c_si, int64_t c_sj)
{
    typedef hrpb_smem<TM, WARPS> smem_t;
    constexpr int NT = smem_t::NT, LDB = smem_t::LDB, CHUNKS = NT / 4;
    __shared__ __align__(16) smem_t sm;

    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int g = lane / 4, t = lane % 4;
    const int copy_row = tid / CHUNKS, copy_chunk = tid % CHUNKS;

    const int64_t v = blockIdx.x;
    const int64_t blk0 = vp_block_ptr[v];
    const int nblk = (int)(vp_block_ptr[v + 1] - blk0); /* < 2^27: at most cols / 16 */
    const int64_t row0 = vp_panel[v] * TM;
    const bool split = vp_split[v] != 0;
    const int32_t *my_cols = active_cols + blk0 * HRPB_TK + copy_row;
    const int64_t *my_sizes = size_ptr + blk0;

    for (int64_t tile = blockIdx.y; tile < n_tiles; tile += gridDim.y) {
        const int64_t n0 = tile * NT;
        /* This thread's B chunk: columns j..j+3 of the tile. */
        const int64_t j = n0 + copy_chunk * 4;
        const float *Bj = B + j * b_sj;
        const bool chunk_in = j < n, chunk_whole = j + 4 <= n;

        auto source_of = [&](int b) { /* b: block index within the virtual panel */
            block_source s;
#pragma unroll
            for (int i = 0; i < 4; i++) s.col[i] = my_cols[b * HRPB_TK + 4 * i];
            s.begin = my_sizes[b];
            s.end = my_sizes[b + 1];
            return s;
        };
        auto issue = [&](const block_source &s, int stage) {
            typename smem_t::stage &st = sm.st[stage];
            const uint8_t *src = packed + s.begin;
            const int bytes = (int)(s.end - s.begin);
            for (int q = 16 * tid; q < bytes; q += 16 * NT) cp_async16(st.a + q, src + q, 16);
#pragma unroll
            for (int i = 0; i < 4; i++) {
                const int col = s.col[i];
                float *dst = st.b + (copy_row + 4 * i) * LDB + copy_chunk * 4;
                if (VEC && (col < 0 || chunk_whole || !chunk_in)) {
                    const bool ok = col >= 0 && chunk_in;
                    cp_async16(dst, ok ? Bj + (int64_t)col * b_sk : B, ok ? 16 : 0);
                } else { /* element by element: any strides, or the last chunk of a row */
#pragma unroll
                    for (int e = 0; e < 4; e++) {
                        bool ok = col >= 0 && j + e < n;
                        cp_async4(dst + e, ok ? Bj + (int64_t)col * b_sk + e * b_sj : B, ok ? 4 : 0);
                    }
                }
            }
        };

        float acc[TM / 16][4][4];
#pragma unroll
        for (int r = 0; r < TM / 16; r++)
#pragma unroll
            for (int s = 0; s < 4; s++)
#pragma unroll
                for (int e = 0; e < 4; e++) acc[r][s][e] = 0.0f;

        block_source next;
        if (nblk > 0) next = source_of(0);
#pragma unroll
        for (int s = 0; s < STAGES - 1; s++) {
            if (s < nblk) {
                issue(next, s);
                if (s + 1 < nblk) next = source_of(s + 1);
            }
            cp_async_commit();
        }

        const bool warp_active = n0 + 32 * warp < n;
        int read_stage = 0, write_stage = STAGES - 1;
        for (int it = 0; it < nblk; it++) {
            cp_async_wait<STAGES - 2>();
            __syncthreads();
            const int ahead = it + STAGES - 1;
            if (ahead < nblk) {
                issue(next, write_stage);
                if (ahead + 1 < nblk) next = source_of(ahead + 1);
            }
            cp_async_commit();
            const typename smem_t::stage &st = sm.st[read_stage];
            read_stage = read_stage == STAGES - 1 ? 0 : read_stage + 1;
            write_stage = write_stage == STAGES - 1 ? 0 : write_stage + 1;
            if (!warp_active) continue;

            const uint4 header = *reinterpret_cast<const uint4 *>(st.a);
            const int col_ptr[5] = {(int)(header.x & 0xff), (int)(header.x >> 8 & 0xff),
                                    (int)(header.x >> 16 & 0xff), (int)(header.x >> 24),
                                    (int)(header.y & 0xff)};
            const unsigned long long *pattern =
                reinterpret_cast<const unsigned long long *>(st.a + HRPB_HEADER_BYTES);
            const float *values =
                reinterpret_cast<const float *>(st.a + HRPB_HEADER_BYTES + 8 * col_ptr[4]);
            const unsigned below = (1u << lane) - 1u;
            int value0 = 0;
#pragma unroll
            for (int c = 0; c < HRPB_BRICK_COLS; c++) {
                int j = col_ptr[c];
                const int jend = col_ptr[c + 1];
                if (j == jend) continue;
                unsigned b[4];
                const float *brow = st.b + (4 * c + t) * LDB + 32 * warp + g;
#pragma unroll
                for (int s = 0; s < 4; s++) b[s] = to_tf32(brow[8 * s]);
#pragma unroll
                for (int r = 0; r < TM / 16; r++) {
                    if (j == jend || (TM > 16 && st.a[5 + j] != r)) continue;
                    const unsigned long long p = pattern[j];
                    const unsigned lo = (unsigned)p, hi = (unsigned)(p >> 32);
                    const int lo_count = __popc(lo);
                    float x0 = lo >> lane & 1u ? values[value0 + __popc(lo & below)] : 0.0f;
                    float x1 = hi >> lane & 1u ? values[value0 + lo_count + __popc(hi & below)]
                                               : 0.0f;
                    value0 += lo_count + __popc(hi);
                    j++;
                    const unsigned a0 = to_tf32(x0), a1 = to_tf32(x1);
#pragma unroll
                    for (int s = 0; s < 4; s++) mma_tf32_16x8x4(acc[r][s], a0, a1, b[s]);
                }
            }
        }

        /* Epilogue: lane (g, t) holds rows g and g + 8, columns 2t and 2t + 1 of
         * each 16x8 tile. */
#pragma unroll
        for (int r = 0; r < TM / 16; r++)
#pragma unroll
            for (int s = 0; s < 4; s++)
#pragma unroll
                for (int e = 0; e < 4; e++) {
                    const int64_t i = row0 + 16 * r + g + 8 * (e / 2);
                    const int64_t jc = n0 + 32 * warp + 8 * s + 2 * t + e % 2;
                    if (i >= rows || jc >= n) continue;
                    float *c = C + i * c_si + jc * c_sj;
                    const float x = alpha * acc[r][s][e];
                    if (split)
                        atomicAdd(c, x);
                    else
                        *c = beta == 0.0f ? x : x + beta * *c;
                }
        __syncthreads(); /* the next N tile reuses the stages */
    }
}

/* ------------------------------------------------------------------ */
/* Host side */

typedef void (*hrpb_kernel_fn)(const int64_t *, const int64_t *, const uint8_t *,
                               const int64_t *, const int32_t *, const uint8_t *, int64_t,
                               int64_t, int64_t, float, const float *, int64_t, int64_t, float,
                               float *, int64_t, int64_t);

/* Warps per thread block for n columns: fewer for small n (paper, 3.3). */
static int warps_for(int64_t n)
{
    return n <= 32 ? 1 : n <= 64 ? 2 : MAX_WARPS;
}

template <int TM>
static hrpb_kernel_fn kernel_for_tm(int warps, bool vec)
{
    switch (warps) {
    case 1: return vec ? hrpb_tf32_kernel<TM, 1, true> : hrpb_tf32_kernel<TM, 1, false>;
    case 2: return vec ? hrpb_tf32_kernel<TM, 2, true> : hrpb_tf32_kernel<TM, 2, false>;
    default: return vec ? hrpb_tf32_kernel<TM, 4, true> : hrpb_tf32_kernel<TM, 4, false>;
    }
}

static hrpb_kernel_fn kernel_for(int tm, int warps, bool vec)
{
    return tm == 32 ? kernel_for_tm<32>(warps, vec) : kernel_for_tm<16>(warps, vec);
}

extern "C" tcspmm_status hrpb_gpu_occupancy(int64_t n, int *blocks_per_sm, int64_t *n_tile)
{
    if (n < 1 || !blocks_per_sm || !n_tile)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "hrpb_gpu_occupancy: n = %lld (needs >= 1) or a null output",
                           (long long)n);
    const int warps = warps_for(n);
    int blocks = 0;
    /* The default panel height, TM = 16, and a row-major B. */
    TCSPMM_TRY(TCSPMM_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &blocks, kernel_for(16, warps, true), 32 * warps, 0)));
    *blocks_per_sm = blocks;
    *n_tile = 32 * warps;
    return TCSPMM_SUCCESS;
}

static void free_device(hrpb_gpu *g)
{
    cudaFree(g->vp_block_ptr);
    cudaFree(g->vp_panel);
    cudaFree(g->vp_split);
    cudaFree(g->split_panels);
    cudaFree(g->size_ptr);
    cudaFree(g->active_cols);
    cudaFree(g->packed);
}

/* *dst = a device copy of bytes bytes of src (NULL when bytes == 0). */
static tcspmm_status upload_array(void **dst, const void *src, size_t bytes)
{
    *dst = NULL;
    if (bytes == 0) return TCSPMM_SUCCESS;
    TCSPMM_TRY(TCSPMM_CUDA(cudaMalloc(dst, bytes)));
    return TCSPMM_CUDA(cudaMemcpy(*dst, src, bytes, cudaMemcpyHostToDevice));
}

extern "C" tcspmm_status hrpb_gpu_upload(const hrpb *h, const wave_split *w, hrpb_gpu **out)
{
    if (!h || !w || !out)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "hrpb_gpu_upload: null argument");
    *out = NULL;
    if (h->panel_rows != 16 && h->panel_rows != 32)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "hrpb_gpu_upload: panel_rows %d (16 or 32)", h->panel_rows);
    if (w->num_vpanels < h->num_panels || w->num_vpanels > 0x7fffffff)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "hrpb_gpu_upload: %lld virtual panels for %lld panels",
                           (long long)w->num_vpanels, (long long)h->num_panels);

    int64_t nv = w->num_vpanels, nsplit = 0;
    int64_t *split_panels = (int64_t *)malloc((size_t)(nv > 0 ? nv : 1) * sizeof(int64_t));
    if (!split_panels)
        return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "hrpb_gpu_upload: out of memory");
    for (int64_t v = 0; v < nv; v++)
        if (w->vp_split[v] && (nsplit == 0 || split_panels[nsplit - 1] != w->vp_panel[v]))
            split_panels[nsplit++] = w->vp_panel[v];

    hrpb_gpu *g = (hrpb_gpu *)calloc(1, sizeof *g);
    if (!g) {
        free(split_panels);
        return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "hrpb_gpu_upload: out of memory");
    }
    g->panel_rows = h->panel_rows;
    g->rows = h->rows;
    g->cols = h->cols;
    g->num_vpanels = nv;
    g->num_split_panels = nsplit;
    const size_t nb = (size_t)h->num_blocks;
    tcspmm_status st = upload_array((void **)&g->vp_block_ptr, w->vp_block_ptr,
                                    (size_t)(nv + 1) * sizeof(int64_t));
    if (!st) st = upload_array((void **)&g->vp_panel, w->vp_panel, (size_t)nv * sizeof(int64_t));
    if (!st) st = upload_array((void **)&g->vp_split, w->vp_split, (size_t)nv);
    if (!st)
        st = upload_array((void **)&g->split_panels, split_panels,
                          (size_t)nsplit * sizeof(int64_t));
    if (!st)
        st = upload_array((void **)&g->size_ptr, h->size_ptr, (nb + 1) * sizeof(int64_t));
    if (!st)
        st = upload_array((void **)&g->active_cols, h->active_cols,
                          nb * HRPB_TK * sizeof(int32_t));
    if (!st) st = upload_array((void **)&g->packed, h->packed, (size_t)h->size_ptr[nb]);
    free(split_panels);
    if (st) {
        free_device(g);
        free(g);
        return st;
    }
    *out = g;
    return TCSPMM_SUCCESS;
}

void hrpb_gpu_free(hrpb_gpu *g)
{
    if (!g) return;
    free_device(g);
    free(g);
}

/* Launches the kernel on B with element strides (b_sk, b_sj) after the beta
 * pre-pass of split panels. */
static tcspmm_status launch(const hrpb_gpu *g, int64_t n, float alpha, const float *B,
                            int64_t b_sk, int64_t b_sj, float beta, float *C, int64_t c_si,
                            int64_t c_sj, cudaStream_t stream)
{
    TCSPMM_TRY(hrpb_scale_panels(g->split_panels, g->num_split_panels, g->panel_rows, g->rows,
                                 n, beta, C, c_si, c_sj, stream));
    const int warps = warps_for(n);
    const bool vec = b_sj == 1 && b_sk % 4 == 0 && (uintptr_t)B % 16 == 0;
    const int64_t n_tiles = (n + 32 * warps - 1) / (32 * warps);
    dim3 grid((unsigned)g->num_vpanels, (unsigned)(n_tiles < 65535 ? n_tiles : 65535));
    kernel_for(g->panel_rows, warps, vec)<<<grid, 32 * warps, 0, stream>>>(
        g->vp_block_ptr, g->vp_panel, g->vp_split, g->size_ptr, g->active_cols, g->packed,
        g->rows, n, n_tiles, alpha, B, b_sk, b_sj, beta, C, c_si, c_sj);
    return TCSPMM_CUDA(cudaGetLastError());
}

/* The rule for a column-major B: transpose it unless n is 1 (then a column
 * is contiguous already) or too wide for the transpose's grid. */
static bool transpose_b(int64_t n, hrpb_colb_mode mode)
{
    if (mode != HRPB_COLB_AUTO) return mode == HRPB_COLB_TRANSPOSE;
    return n > 1 && n <= 65535 * 32;
}

extern "C" tcspmm_status hrpb_gpu_spmm_mode(const hrpb_gpu *g, int64_t n, float alpha,
                                            const float *dB, int64_t ldb, float beta,
                                            float *dC, int64_t ldc, tcspmm_layout layout,
                                            hrpb_colb_mode mode, void *stream)
{
    if (!g || n < 0 || (n > 0 && g->rows > 0 && !dC) || (n > 0 && g->cols > 0 && !dB))
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "hrpb_gpu_spmm: null plan or matrix, or n = %lld", (long long)n);
    const bool row_major = layout == TCSPMM_LAYOUT_ROW_MAJOR;
    if ((row_major && (ldb < n || ldc < n)) || (!row_major && (ldb < g->cols || ldc < g->rows)) ||
        ldb < 1 || ldc < 1)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "hrpb_gpu_spmm: ldb %lld or ldc %lld below the minimum for a %s "
                           "%lld x %lld by %lld x %lld product",
                           (long long)ldb, (long long)ldc, row_major ? "row-major" : "column-major",
                           (long long)g->rows, (long long)g->cols, (long long)g->cols,
                           (long long)n);
    if (n == 0 || g->rows == 0) return TCSPMM_SUCCESS;
    cudaStream_t s = (cudaStream_t)stream;
    const int64_t c_si = row_major ? ldc : 1, c_sj = row_major ? 1 : ldc;
    if (row_major || !transpose_b(n, mode) || g->cols == 0)
        return launch(g, n, alpha, dB, row_major ? ldb : 1, row_major ? 1 : ldb, beta, dC, c_si,
                      c_sj, s);

    const int64_t ldt = (n + 3) / 4 * 4;
    float *bt = NULL;
    TCSPMM_TRY(TCSPMM_CUDA(cudaMallocAsync((void **)&bt, (size_t)(g->cols * ldt) * sizeof(float), s)));
    tcspmm_status st = dense_transpose_to_row_major(dB, ldb, g->cols, n, bt, ldt, s);
    if (!st) st = launch(g, n, alpha, bt, ldt, 1, beta, dC, c_si, c_sj, s);
    tcspmm_status freed = TCSPMM_CUDA(cudaFreeAsync(bt, s));
    return st ? st : freed;
}

extern "C" tcspmm_status hrpb_gpu_spmm(const hrpb_gpu *g, int64_t n, float alpha,
                                       const float *dB, int64_t ldb, float beta, float *dC,
                                       int64_t ldc, tcspmm_layout layout, void *stream)
{
    return hrpb_gpu_spmm_mode(g, n, alpha, dB, ldb, beta, dC, ldc, layout, HRPB_COLB_AUTO,
                              stream);
}
