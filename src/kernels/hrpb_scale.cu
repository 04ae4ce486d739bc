/* hrpb_scale.cu: the passes over the rows of C of split virtual panels,
 * whose parts add their partial sums atomically. A float C: beta must be
 * applied to those rows once, before the SpMM kernel, on the same stream
 * (the pre-pass). The SpMM kernel may start as soon as every block of the
 * pass has begun (dependent_launch.h); its split parts wait for the pass
 * before they add. A 16-bit C: the parts add into float sums of the rows
 * instead, zeroed by a pass of their own that the kernel may start during,
 * and the finishing pass adds them to beta * C and rounds once, after the
 * kernel (it may start as the kernel's last blocks do, and waits for it).
 *
 * Pre-pass: each thread block owns one split panel (TM <= 32 rows clipped
 * at the matrix edge, all n columns; the rows of C the row map says).
 * Row-major C: the threads stride along each row in turn. Column-major C:
 * lane l of each warp owns row l, and warps stride over the columns. No
 * index division. Zeroing: the threads of all blocks stride over the sums,
 * four floats each. Finishing pass (row-major C): each thread block owns
 * one row of a split panel (block x the panel, y the row), its threads
 * striding along the row. */
#include <cuda_runtime.h>

#include "../error.h"
#include "c_store.h"
#include "dependent_launch.h"
#include "hrpb_gpu_internal.h"
#include "sp24_gpu.h"

enum { SCALE_THREADS = 256 };

__global__ void __launch_bounds__(SCALE_THREADS)
hrpb_scale_panels_kernel(const int64_t *__restrict__ panels, int panel_rows,
                         const int64_t *__restrict__ row_map, int64_t rows, int64_t n, float beta,
                         float *__restrict__ C, int64_t c_si, int64_t c_sj)
{
    dependents_may_start();
    const int64_t row0 = panels[blockIdx.x] * panel_rows;
    const int height = (int)(rows - row0 < panel_rows ? rows - row0 : panel_rows);
    if (c_sj == 1) { /* row-major */
        for (int i = 0; i < height; i++) {
            const int64_t row = row_map ? row_map[row0 + i] : row0 + i;
            float *c = C + row * c_si;
            for (int64_t j = threadIdx.x; j < n; j += SCALE_THREADS)
                c[j] = beta == 0.0f ? 0.0f : beta * c[j];
        }
        return;
    }
    const int lane = threadIdx.x % 32;
    if (lane >= height) return;
    const int64_t row = row_map ? row_map[row0 + lane] : row0 + lane;
    float *c = C + row * c_si;
    for (int64_t j = threadIdx.x / 32; j < n; j += SCALE_THREADS / 32)
        c[j * c_sj] = beta == 0.0f ? 0.0f : beta * c[j * c_sj];
}

extern "C" tcspmm_status hrpb_scale_panels(const int64_t *d_panels, int64_t count,
                                           int panel_rows, const int64_t *d_row_map,
                                           int64_t rows, int64_t n, float beta, float *dC,
                                           int64_t c_si, int64_t c_sj, void *stream,
                                           int *launched)
{
    *launched = 0;
    if (count == 0 || n == 0 || beta == 1.0f) return TCSPMM_SUCCESS;
    if (count > 0x7fffffff)
        return tcspmm_fail(TCSPMM_ERROR_OVERFLOW, "hrpb_scale_panels: %lld split panels",
                           (long long)count);
    hrpb_scale_panels_kernel<<<(unsigned)count, SCALE_THREADS, 0, (cudaStream_t)stream>>>(
        d_panels, panel_rows, d_row_map, rows, n, beta, dC, c_si, c_sj);
    TCSPMM_TRY(TCSPMM_CUDA(cudaGetLastError()));
    *launched = 1;
    return TCSPMM_SUCCESS;
}

__global__ void __launch_bounds__(SCALE_THREADS)
hrpb_zero_sums_kernel(float4 *__restrict__ sums, int64_t count)
{
    dependents_may_start();
    for (int64_t e = (int64_t)blockIdx.x * SCALE_THREADS + threadIdx.x; e < count;
         e += (int64_t)gridDim.x * SCALE_THREADS)
        sums[e] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
}

extern "C" tcspmm_status hrpb_zero_sums(float *d_sums, int64_t count, void *stream)
{
    const int64_t groups = count / 4, blocks = (groups + SCALE_THREADS - 1) / SCALE_THREADS;
    if (groups == 0) return TCSPMM_SUCCESS;
    hrpb_zero_sums_kernel<<<(unsigned)(blocks < 1024 ? blocks : 1024), SCALE_THREADS, 0,
                            (cudaStream_t)stream>>>(reinterpret_cast<float4 *>(d_sums), groups);
    return TCSPMM_CUDA(cudaGetLastError());
}

template <typename CT>
__global__ void __launch_bounds__(SCALE_THREADS)
hrpb_finish_split_panels_kernel(const int64_t *__restrict__ panels, int panel_rows,
                                const int64_t *__restrict__ row_map, int64_t rows, int64_t n,
                                const float *__restrict__ sums, int64_t ld_sums, float beta,
                                CT *__restrict__ C, int64_t ldc)
{
    wait_for_pass();
    const int64_t i = panels[blockIdx.x] * panel_rows + blockIdx.y;
    if (i >= rows) return;
    const int64_t row = row_map ? row_map[i] : i;
    const float *s = sums + ((int64_t)blockIdx.x * panel_rows + blockIdx.y) * ld_sums;
    CT *c = C + row * ldc;
    for (int64_t j = threadIdx.x; j < n; j += SCALE_THREADS)
        c[j] = from_float<CT>(beta == 0.0f ? s[j] : s[j] + beta * to_float(c[j]));
}

extern "C" tcspmm_status hrpb_finish_split_panels(const int64_t *d_panels, int64_t count,
                                                  int panel_rows, const int64_t *d_row_map,
                                                  int64_t rows, int64_t n, const float *d_sums,
                                                  int64_t ld_sums, float beta, void *dC,
                                                  int c_type, int64_t ldc, int dependent,
                                                  void *stream)
{
    if (count == 0 || n == 0) return TCSPMM_SUCCESS;
    if (count > 0x7fffffff)
        return tcspmm_fail(TCSPMM_ERROR_OVERFLOW, "hrpb_finish_split_panels: %lld split panels",
                           (long long)count);
    if (c_type != SP24_DATA_BF16 && c_type != SP24_DATA_FP16)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "hrpb_finish_split_panels: C of type %d (bf16 or fp16 only)", c_type);
    cudaLaunchAttribute attr;
    dependent_launch_attribute(&attr);
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((unsigned)count, (unsigned)panel_rows);
    cfg.blockDim = dim3(SCALE_THREADS);
    cfg.stream = (cudaStream_t)stream;
    cfg.attrs = &attr;
    cfg.numAttrs = dependent != 0;
    if (c_type == SP24_DATA_BF16)
        TCSPMM_TRY(TCSPMM_CUDA(cudaLaunchKernelEx(
            &cfg, hrpb_finish_split_panels_kernel<__nv_bfloat16>, d_panels, panel_rows, d_row_map,
            rows, n, d_sums, ld_sums, beta, (__nv_bfloat16 *)dC, ldc)));
    else
        TCSPMM_TRY(TCSPMM_CUDA(cudaLaunchKernelEx(&cfg, hrpb_finish_split_panels_kernel<__half>,
                                                  d_panels, panel_rows, d_row_map, rows, n,
                                                  d_sums, ld_sums, beta, (__half *)dC, ldc)));
    return TCSPMM_CUDA(cudaGetLastError());
}
