/* hrpb_tf32.cu: the host side of the HRPB path: upload, download and
 * freeing of the device HRPB, its virtual panels and the meeting places of
 * split parts, occupancy, the choice of kernel instance (hrpb_kernel.h) and
 * its launch. */
#include <cuda_runtime.h>

#include <stdlib.h>
#include <string.h>

#include "../device_copy.h"
#include "../error.h"
#include "../host_upload.h"
#include "hrpb_kernel.h"

/* Warps per thread block for n columns: fewer for small n (paper, 3.3). */
static int warps_for(int64_t n)
{
    return n <= 32 ? 1 : n <= 64 ? 2 : MAX_WARPS;
}

/* Index of a warp count (1, 2, 4) in per-warps tables. */
static int warps_index(int warps)
{
    return warps == 1 ? 0 : warps == 2 ? 1 : 2;
}

/* The kernel for panel height tm, warps per block, two stages (where
 * there is such a kernel) or three, vector B loads, split (3xTF32)
 * arithmetic, B's element type and a C of B's 16-bit type (c16). */
static hrpb_kernel_fn kernel_for(int tm, int warps, bool shallow, bool vec, bool split,
                                 int b_type, bool c16)
{
    constexpr int F = SP24_DATA_FP32, BF = SP24_DATA_BF16, H = SP24_DATA_FP16;
    if (split) return hrpb_kernel_of<true, F, F>(tm, warps, shallow, vec);
    if (b_type == BF)
        return c16 ? hrpb_kernel_of<false, BF, BF>(tm, warps, shallow, vec)
                   : hrpb_kernel_of<false, BF, F>(tm, warps, shallow, vec);
    if (b_type == H)
        return c16 ? hrpb_kernel_of<false, H, H>(tm, warps, shallow, vec)
                   : hrpb_kernel_of<false, H, F>(tm, warps, shallow, vec);
    return hrpb_kernel_of<false, F, F>(tm, warps, shallow, vec);
}

/* Resident thread blocks per SM of the three-stage kernel (row-major float B). */
static tcspmm_status deep_blocks_per_sm(int tm, int warps, bool split, int *blocks)
{
    return TCSPMM_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        blocks, kernel_for(tm, warps, false, true, split, SP24_DATA_FP32, false), 32 * warps, 0));
}

/* Whether a precision runs split (3xTF32); -1 if the kernel does not do it. */
static int split_for(tcspmm_precision precision)
{
    return precision == TCSPMM_PRECISION_FP32 ? 1 : precision == TCSPMM_PRECISION_TF32 ? 0 : -1;
}

extern "C" tcspmm_status hrpb_gpu_occupancy(int64_t n, int panel_rows, tcspmm_precision precision,
                                            int *blocks_per_sm, int64_t *n_tile)
{
    const int split = split_for(precision);
    if (n < 1 || (panel_rows != 16 && panel_rows != 32) || split < 0 || !blocks_per_sm || !n_tile)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "hrpb_gpu_occupancy: n = %lld (needs >= 1), panel_rows %d (16 or 32), "
                           "precision %s (tf32 or fp32), or a null output",
                           (long long)n, panel_rows, tcspmm_precision_name(precision));
    const int warps = warps_for(n);
    *n_tile = 32 * warps;
    return deep_blocks_per_sm(panel_rows, warps, split, blocks_per_sm);
}

extern "C" tcspmm_status hrpb_gpu_set_split(hrpb_gpu *g, const wave_split *w,
                                            tcspmm_precision precision)
{
    if (!g || !w)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "hrpb_gpu_set_split: null argument");
    if (split_for(precision) < 0)
        return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED,
                           "hrpb_gpu_set_split: precision %s (the HRPB kernel runs tf32 or fp32)",
                           tcspmm_precision_name(precision));
    const int64_t panels = (g->rows + g->panel_rows - 1) / g->panel_rows;
    if (w->num_vpanels < panels || w->num_vpanels > 0x7fffffff || g->vpanels)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "hrpb_gpu_set_split: %lld virtual panels for %lld panels, or set twice",
                           (long long)w->num_vpanels, (long long)panels);

    int64_t nv = w->num_vpanels, nsplit = 0;
    int64_t *split_panels = (int64_t *)malloc((size_t)(nv > 0 ? nv : 1) * sizeof(int64_t));
    int32_t *split_of = (int32_t *)malloc((size_t)(nv > 0 ? nv : 1) * sizeof(int32_t));
    int32_t *parts = (int32_t *)calloc((size_t)(nv > 0 ? nv : 1), sizeof(int32_t));
    hrpb_vpanel *vpanels = (hrpb_vpanel *)malloc((size_t)(nv > 0 ? nv : 1) * sizeof(hrpb_vpanel));
    g->meets = (hrpb_split_meets *)calloc(1, sizeof(hrpb_split_meets));
    if (!split_panels || !split_of || !parts || !vpanels || !g->meets) {
        free(split_panels);
        free(split_of);
        free(parts);
        free(vpanels);
        return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "hrpb_gpu_set_split: out of memory");
    }
    /* a panel's parts are neighbours in w's order */
    for (int64_t v = 0; v < nv; v++) {
        if (w->vp_split[v] && (nsplit == 0 || split_panels[nsplit - 1] != w->vp_panel[v]))
            split_panels[nsplit++] = w->vp_panel[v];
        split_of[v] = w->vp_split[v] ? (int32_t)nsplit : 0;
        if (w->vp_split[v]) parts[nsplit - 1]++;
    }
    for (int64_t i = 0; i < nv; i++) {
        int64_t v = w->launch_order[i];
        vpanels[i].first_block = w->vp_block_ptr[v];
        vpanels[i].panel = w->vp_panel[v];
        vpanels[i].blocks = (int32_t)(w->vp_block_ptr[v + 1] - w->vp_block_ptr[v]);
        vpanels[i].split = split_of[v];
    }
    free(split_of);
    g->split = split_for(precision);
    /* every kernel of hrpb_kernels_*.cu is compiled for the same architectures */
    g->dependent_launch =
        dependent_launch_supported((const void *)kernel_for(16, 1, false, true, g->split,
                                                            SP24_DATA_FP32, false));
    if (!g->scratch) g->scratch = device_keeping_pool();
    g->num_vpanels = nv;
    g->num_split_panels = nsplit;
    int device = 0, sms = 0;
    tcspmm_status st = TCSPMM_CUDA(cudaGetDevice(&device));
    if (!st) st = TCSPMM_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    for (int warps = 1; warps <= MAX_WARPS && !st; warps *= 2) {
        int blocks = 0;
        st = deep_blocks_per_sm(g->panel_rows, warps, g->split, &blocks);
        g->deep_slots[warps_index(warps)] = (int64_t)sms * blocks;
    }
    g->num_sms = sms;
    const cudaMemcpyKind up = cudaMemcpyHostToDevice;
    if (!st)
        st = device_copy_in((void **)&g->vpanels, vpanels, (size_t)nv * sizeof(hrpb_vpanel), up);
    if (!st)
        st = device_copy_in((void **)&g->split_panels, split_panels,
                            (size_t)nsplit * sizeof(int64_t), up);
    if (!st)
        st = device_copy_in((void **)&g->split_parts, parts, (size_t)nsplit * sizeof(int32_t), up);
    free(split_panels);
    free(parts);
    free(vpanels);
    return st;
}

extern "C" void hrpb_gpu_adopt_row_map(hrpb_gpu *g, int64_t *d_row_map)
{
    cudaFree(g->row_map);
    g->row_map = d_row_map;
}

extern "C" tcspmm_status hrpb_gpu_upload(const hrpb *h, const wave_split *w,
                                         tcspmm_precision precision, hrpb_gpu **out)
{
    if (!h || !w || !out)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "hrpb_gpu_upload: null argument");
    *out = NULL;
    if (h->panel_rows != 16 && h->panel_rows != 32)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "hrpb_gpu_upload: panel_rows %d (16 or 32)", h->panel_rows);
    hrpb_gpu *g = (hrpb_gpu *)calloc(1, sizeof *g);
    if (!g) return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "hrpb_gpu_upload: out of memory");
    g->panel_rows = h->panel_rows;
    g->rows = h->rows;
    g->cols = h->cols;
    const size_t nb = (size_t)h->num_blocks;
    const size_t size_bytes = (nb + 1) * sizeof(int64_t), cols_bytes = nb * HRPB_TK * sizeof(int32_t);
    const size_t packed_bytes = (size_t)h->size_ptr[nb];
    const size_t map_bytes = h->row_map ? (size_t)h->rows * sizeof(int64_t) : 0;
    host_upload u;
    tcspmm_status st = host_upload_open(&u, size_bytes + cols_bytes + packed_bytes + map_bytes);
    if (!st) st = host_upload_copy(&u, (void **)&g->size_ptr, h->size_ptr, size_bytes);
    if (!st) st = host_upload_copy(&u, (void **)&g->active_cols, h->active_cols, cols_bytes);
    if (!st) st = host_upload_copy(&u, (void **)&g->packed, h->packed, packed_bytes);
    if (!st) st = host_upload_copy(&u, (void **)&g->row_map, h->row_map, map_bytes);
    st = host_upload_close(&u, st);
    if (!st) st = hrpb_gpu_set_split(g, w, precision);
    if (st) {
        hrpb_gpu_free(g);
        return st;
    }
    *out = g;
    return TCSPMM_SUCCESS;
}

/* *dst = a new host copy of bytes bytes of src (never NULL), host or device
 * memory as kind says. */
static tcspmm_status copy_out(void **dst, const void *src, size_t bytes, cudaMemcpyKind kind)
{
    *dst = malloc(bytes ? bytes : 1);
    if (!*dst)
        return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "hrpb_gpu_download: %zu bytes", bytes);
    return bytes ? TCSPMM_CUDA(cudaMemcpy(*dst, src, bytes, kind)) : TCSPMM_SUCCESS;
}

extern "C" tcspmm_status hrpb_gpu_download(const hrpb_gpu *g, const hrpb *shape, hrpb *out)
{
    memset(out, 0, sizeof *out);
    if (!g || !shape || !shape->block_ptr)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "hrpb_gpu_download: null argument");
    *out = *shape;
    out->block_ptr = NULL;
    out->active_cols = NULL;
    out->size_ptr = NULL;
    out->packed = NULL;
    out->row_map = NULL;
    const size_t np = (size_t)shape->num_panels, nb = (size_t)shape->num_blocks;
    const cudaMemcpyKind down = cudaMemcpyDeviceToHost, host = cudaMemcpyHostToHost;
    tcspmm_status st = copy_out((void **)&out->block_ptr, shape->block_ptr,
                                (np + 1) * sizeof(int64_t), host);
    if (!st && shape->row_map)
        st = copy_out((void **)&out->row_map, shape->row_map, (size_t)out->rows * sizeof(int64_t),
                      host);
    if (!st) st = copy_out((void **)&out->size_ptr, g->size_ptr, (nb + 1) * sizeof(int64_t), down);
    if (!st)
        st = copy_out((void **)&out->active_cols, g->active_cols, nb * HRPB_TK * sizeof(int32_t),
                      down);
    if (!st) st = copy_out((void **)&out->packed, g->packed, (size_t)out->size_ptr[nb], down);
    if (st) hrpb_free(out);
    return st;
}

void hrpb_gpu_free(hrpb_gpu *g)
{
    if (!g) return;
    cudaFree(g->vpanels);
    cudaFree(g->split_panels);
    cudaFree(g->split_parts);
    if (g->meets) {
        cudaFree(g->meets->now.sums);
        for (int i = 0; i < g->meets->num_outgrown; i++) cudaFree(g->meets->outgrown[i]);
        free(g->meets->outgrown);
    }
    free(g->meets);
    cudaFree(g->size_ptr);
    cudaFree(g->active_cols);
    cudaFree(g->packed);
    cudaFree(g->row_map);
    cudaFree(g->block_values);
    cudaFree(g->value_source);
    if (g->scratch) cudaMemPoolDestroy(g->scratch);
    free(g);
}

/* Whether a launch of n_tiles N tiles of warps-warp blocks runs two copy
 * stages: at least SHALLOW_MIN_WAVES waves of three-stage blocks, or as
 * mode forces. */
static bool shallow_for(const hrpb_gpu *g, int warps, int64_t n_tiles, hrpb_stages_mode mode)
{
    if (mode != HRPB_STAGES_AUTO) return mode == HRPB_STAGES_SHALLOW;
    return g->num_vpanels * n_tiles >= SHALLOW_MIN_WAVES * g->deep_slots[warps_index(warps)];
}

/* Launches the kernel on B (elements of b_type) with element strides
 * (b_sk, b_sj) and C (of c_type) with (c_si, c_sj), its split panels'
 * parts adding into C or, for a 16-bit C, meeting in meet; as a dependent
 * of the pass before it where dependent. */
static tcspmm_status launch_kernel(const hrpb_gpu *g, int64_t n, float alpha, const void *B,
                                   int b_type, int64_t b_sk, int64_t b_sj, float beta, void *C,
                                   int c_type, int64_t c_si, int64_t c_sj,
                                   const hrpb_split_meet *meet, bool dependent,
                                   hrpb_stages_mode stages, cudaStream_t stream)
{
    const bool c16 = c_type != SP24_DATA_FP32;
    const int warps = warps_for(n);
    /* 16-byte chunks: four floats or eight 16-bit elements */
    const int chunk = b_type == SP24_DATA_FP32 ? 4 : 8;
    const bool vec =
        b_sj == 1 && b_sk % chunk == 0 && b_sk < (1 << 30) && (uintptr_t)B % 16 == 0;
    const bool c_vec = c_sj == 1 && c_si % (c16 ? 8 : 4) == 0 && (uintptr_t)C % 16 == 0;
    /* Other row-major C goes through shared memory from n = 9 on; up to 8
     * columns the scalar stores are fewer instructions (at n = 7 staging was
     * 0.97x-1.00x, at 15 1.00x-1.08x, from 31 on 1.01x-1.99x:
     * bench/results/odd-n-2026-11-27/). So does a column-major C whose
     * columns do not start on a 32-byte sector (the kernel's comment), from
     * n = 128 on. On 7 matrices with ldc = rows and rows + 1 (H200, TF32),
     * old time over new was 1.00x-1.20x at n = 128, 256 and 512 (and on 4
     * at 132), 0.97x-1.12x at 129 and 200; FP32 mode 0.97x-1.12x at 128 and
     * 256. Staged below 128 it was 0.93x-1.01x at n = 16 and 0.93x-0.98x at
     * 65. A first column-major write-out lengthened the block loops of
     * some kernels (ptxas recomputing addresses) and ran column-major
     * products at n = 65 0.95x-1.01x as fast (7 matrices); the kernel's, by
     * a pointer stepped by ldc, 1.00x-1.01x (3, ldc = rows + 1). Blocks of
     * one and two warps (n <= 64), which never stage a column-major C,
     * leave it out of their code
     * (bench/results/colmajor-parts-h200-2026-11-29/, calls 5-9). */
    const bool col_misaligned =
        c_si == 1 && c_sj != 1 && (c_sj % 8 != 0 || (uintptr_t)C % 32 != 0);
    const bool c_staged =
        !c16 && ((c_sj == 1 && !c_vec && n > 8) || (col_misaligned && n >= 128));
    const int64_t n_tiles = (n + 32 * warps - 1) / (32 * warps);
    cudaLaunchAttribute attr;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((unsigned)g->num_vpanels, (unsigned)(n_tiles < 65535 ? n_tiles : 65535));
    cfg.blockDim = dim3(32 * warps);
    cfg.stream = stream;
    cfg.attrs = &attr;
    dependent_launch_attribute(&attr);
    cfg.numAttrs = dependent;
    const bool shallow = shallow_for(g, warps, n_tiles, stages);
    TCSPMM_TRY(TCSPMM_CUDA(cudaLaunchKernelEx(
        &cfg, kernel_for(g->panel_rows, warps, shallow, vec, g->split, b_type, c16), g->vpanels,
        g->size_ptr, g->active_cols, g->packed, g->row_map, g->rows, n, n_tiles, alpha, B, b_sk,
        b_sj, beta, C, c_si, c_sj, c_vec, c_staged, *meet)));
    return TCSPMM_CUDA(cudaGetLastError());
}

/* *m: where the split parts of a product with n columns and a 16-bit C
 * meet (hrpb_split_meets): g's, made anew first where n needs more room
 * than it has (at least twice the room; the old one is kept), zeroed on
 * stream, so that is refused while stream is being captured. */
static tcspmm_status split_meet_for(const hrpb_gpu *g, int64_t n, cudaStream_t stream,
                                    hrpb_split_meet *m)
{
    hrpb_split_meets *meets = g->meets;
    const int64_t need = (n + 7) / 8 * 8;
    if (meets->now.ld < need) {
        cudaStreamCaptureStatus capturing = cudaStreamCaptureStatusNone;
        TCSPMM_TRY(TCSPMM_CUDA(cudaStreamIsCapturing(stream, &capturing)));
        if (capturing != cudaStreamCaptureStatusNone)
            return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED,
                               "hrpb_gpu_spmm: a 16-bit C at n = %lld, wider than before on a "
                               "plan with split panels, sets up their float sums and cannot be "
                               "captured; make one such call outside the capture first",
                               (long long)n);
        const int64_t ld = need > 2 * meets->now.ld ? need : 2 * meets->now.ld;
        const int64_t ld_tickets = (ld + 31) / 32; /* N tiles of 32 columns or more */
        const size_t sum_bytes = (size_t)(g->num_split_panels * g->panel_rows * ld) * 4;
        const size_t bytes = sum_bytes + (size_t)(g->num_split_panels * ld_tickets) * 4;
        void **outgrown =
            (void **)realloc(meets->outgrown, (size_t)(meets->num_outgrown + 1) * sizeof(void *));
        if (!outgrown)
            return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "hrpb_gpu_spmm: out of memory");
        meets->outgrown = outgrown;
        void *mem = NULL;
        TCSPMM_TRY(TCSPMM_CUDA(cudaMalloc(&mem, bytes)));
        const tcspmm_status st = TCSPMM_CUDA(cudaMemsetAsync(mem, 0, bytes, stream));
        if (st) {
            cudaFree(mem);
            return st;
        }
        if (meets->now.sums) outgrown[meets->num_outgrown++] = meets->now.sums;
        meets->now = (hrpb_split_meet){(float *)mem, (int32_t *)((char *)mem + sum_bytes),
                                       g->split_parts, ld, ld_tickets};
    }
    *m = meets->now;
    return TCSPMM_SUCCESS;
}

/* The kernel, after the beta pre-pass over the rows of the split panels
 * for a float C (the kernel may start early where the device can), or with
 * the split parts of a 16-bit C meeting in g's sums (split_meet_for). */
static tcspmm_status launch(const hrpb_gpu *g, int64_t n, float alpha, const void *B, int b_type,
                            int64_t b_sk, int64_t b_sj, float beta, void *C, int c_type,
                            int64_t c_si, int64_t c_sj, hrpb_stages_mode stages,
                            cudaStream_t stream)
{
    int passed = 0;
    hrpb_split_meet meet = {NULL, NULL, NULL, 0, 0};
    if (c_type == SP24_DATA_FP32) {
        TCSPMM_TRY(hrpb_scale_panels(g->split_panels, g->num_split_panels, g->panel_rows,
                                     g->row_map, g->rows, n, beta, static_cast<float *>(C), c_si,
                                     c_sj, stream, &passed));
    } else if (g->num_split_panels > 0) {
        if (c_sj != 1) /* hrpb_gpu_writes_c: a 16-bit C comes with a row-major 16-bit B */
            return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED,
                               "hrpb_gpu_spmm: a 16-bit C of a plan with split panels must be "
                               "row-major");
        TCSPMM_TRY(split_meet_for(g, n, stream, &meet));
    }
    return launch_kernel(g, n, alpha, B, b_type, b_sk, b_sj, beta, C, c_type, c_si, c_sj, &meet,
                         passed && g->dependent_launch, stages, stream);
}

/* The rule for a column-major B: transpose it unless n is at most 3 or g
 * has no pool for the transpose (then B is read where it lies, as it is
 * where the pool has no room for it: hrpb_gpu_spmm_mode). Read in place, a
 * column-major B takes 4-byte copies down its columns. Against the
 * transpose (before session 60's faster one) and 16-byte row copies,
 * on 11 matrices in TF32, that took 0.70x-0.92x the time at n = 2 and
 * 0.71x-0.98x at n = 3, but 0.83x-1.10x at n = 4 and 0.87x-1.62x at n = 8.
 * In FP32 mode at n = 3 it was 0.73x-0.91x on 9 and 1.08x-1.14x on two
 * small matrices with scattered columns (H200,
 * bench/results/colb-direct-h200-2026-11-29/). */
static bool transpose_b(const hrpb_gpu *g, int64_t n, hrpb_colb_mode mode)
{
    if (!g->scratch) return false;
    if (mode != HRPB_COLB_AUTO) return mode == HRPB_COLB_TRANSPOSE;
    return n > 3;
}

extern "C" int hrpb_gpu_reads_b(const hrpb_gpu *g, int b_type, const void *dB, int64_t ldb,
                                tcspmm_layout layout)
{
    if (b_type == SP24_DATA_FP32) return 1;
    return g && !g->split && (b_type == SP24_DATA_BF16 || b_type == SP24_DATA_FP16) &&
           layout == TCSPMM_LAYOUT_ROW_MAJOR && ldb % 4 == 0 && ldb < (1 << 30) &&
           (uintptr_t)dB % 8 == 0;
}

extern "C" int hrpb_gpu_writes_c(const hrpb_gpu *g, int b_type, int c_type)
{
    if (c_type == SP24_DATA_FP32) return 1;
    return g && !g->split && c_type == b_type &&
           (c_type == SP24_DATA_BF16 || c_type == SP24_DATA_FP16);
}

extern "C" tcspmm_status hrpb_gpu_spmm_mode(const hrpb_gpu *g, int64_t n, float alpha,
                                            const void *dB, int b_type, int64_t ldb, float beta,
                                            void *dC, int c_type, int64_t ldc,
                                            tcspmm_layout layout, hrpb_colb_mode mode,
                                            hrpb_stages_mode stages, void *stream)
{
    if (!g || n < 0 || (n > 0 && g->rows > 0 && !dC) || (n > 0 && g->cols > 0 && !dB))
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "hrpb_gpu_spmm: null plan or matrix, or n = %lld", (long long)n);
    if (!hrpb_gpu_reads_b(g, b_type, dB, ldb, layout))
        return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED,
                           "hrpb_gpu_spmm: a B of type %d is read only in TF32, row-major, "
                           "8-byte aligned and with ldb (%lld) a multiple of 4 below 2^30",
                           b_type, (long long)ldb);
    if (!hrpb_gpu_writes_c(g, b_type, c_type))
        return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED,
                           "hrpb_gpu_spmm: a C of type %d is written only in TF32, with a B of "
                           "its type (here %d)",
                           c_type, b_type);
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
    const int64_t ldt = (n + 3) / 4 * 4;
    float *bt = NULL; /* B transposed to row-major, or NULL: B read where it lies */
    if (!row_major && transpose_b(g, n, mode) && g->cols > 0) {
        const cudaError_t got = cudaMallocFromPoolAsync(
            (void **)&bt, (size_t)(g->cols * ldt) * sizeof(float), g->scratch, s);
        if (got == cudaErrorMemoryAllocation && mode == HRPB_COLB_AUTO) { /* no room for it */
            cudaGetLastError();
            bt = NULL;
        } else {
            TCSPMM_TRY(TCSPMM_CUDA(got));
        }
    }
    if (!bt)
        return launch(g, n, alpha, dB, b_type, row_major ? ldb : 1, row_major ? 1 : ldb, beta, dC,
                      c_type, c_si, c_sj, stages, s);
    tcspmm_status st =
        dense_transpose_to_row_major((const float *)dB, ldb, g->cols, n, bt, ldt, g->num_sms, s);
    if (!st)
        st = launch(g, n, alpha, bt, SP24_DATA_FP32, ldt, 1, beta, dC, c_type, c_si, c_sj, stages,
                    s);
    tcspmm_status freed = TCSPMM_CUDA(cudaFreeAsync(bt, s));
    return st ? st : freed;
}

extern "C" tcspmm_status hrpb_gpu_spmm(const hrpb_gpu *g, int64_t n, float alpha,
                                       const void *dB, int b_type, int64_t ldb, float beta,
                                       void *dC, int c_type, int64_t ldc, tcspmm_layout layout,
                                       void *stream)
{
    return hrpb_gpu_spmm_mode(g, n, alpha, dB, b_type, ldb, beta, dC, c_type, ldc, layout,
                              HRPB_COLB_AUTO, HRPB_STAGES_AUTO, stream);
}
