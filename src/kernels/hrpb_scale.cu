/* hrpb_scale.cu: the pre-pass over the rows of C of split virtual panels,
 * whose parts add their partial sums atomically into a float C: beta must
 * be applied to those rows once, before the SpMM kernel, on the same
 * stream. The SpMM kernel may start as soon as every block of the pass has
 * begun (dependent_launch.h); its split parts wait for the pass before they
 * add. (A 16-bit C needs no pass: hrpb_split_meet.)
 *
 * Each thread block owns one split panel (TM <= 32 rows clipped at the
 * matrix edge, all n columns; the rows of C the row map says). Row-major C:
 * the threads stride along each row in turn. Column-major C: lane l of each
 * warp owns row l, and warps stride over the columns. No index division. */
#include <cuda_runtime.h>

#include "../error.h"
#include "dependent_launch.h"
#include "hrpb_gpu_internal.h"

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
