/* hrpb_scale.cu: the beta pre-pass of split virtual panels. The parts of a
 * split panel add their partial sums into C atomically, so beta must be
 * applied to those rows once, before the SpMM kernel, on the same stream.
 *
 * Each thread block owns one split panel (TM rows clipped at the matrix
 * edge, all n columns); its threads stride over those elements with the
 * contiguous index of C fastest. */
#include <cuda_runtime.h>

#include "../error.h"
#include "hrpb_gpu_internal.h"

enum { SCALE_THREADS = 256 };

__global__ void __launch_bounds__(SCALE_THREADS)
hrpb_scale_panels_kernel(const int64_t *__restrict__ panels, int panel_rows, int64_t rows,
                         int64_t n, float beta, float *__restrict__ C, int64_t c_si,
                         int64_t c_sj)
{
    int64_t row0 = panels[blockIdx.x] * panel_rows;
    int64_t height = rows - row0 < panel_rows ? rows - row0 : panel_rows;
    int64_t count = height * n;
    int row_fastest = c_si == 1; /* column-major C: the rows are contiguous */
    for (int64_t e = threadIdx.x; e < count; e += SCALE_THREADS) {
        int64_t i = row_fastest ? e % height : e / n;
        int64_t j = row_fastest ? e / height : e % n;
        float *c = C + (row0 + i) * c_si + j * c_sj;
        *c = beta == 0.0f ? 0.0f : beta * *c;
    }
}

extern "C" tcspmm_status hrpb_scale_panels(const int64_t *d_panels, int64_t count,
                                           int panel_rows, int64_t rows, int64_t n, float beta,
                                           float *dC, int64_t c_si, int64_t c_sj, void *stream)
{
    if (count == 0 || n == 0 || beta == 1.0f) return TCSPMM_SUCCESS;
    if (count > 0x7fffffff)
        return tcspmm_fail(TCSPMM_ERROR_OVERFLOW, "hrpb_scale_panels: %lld split panels",
                           (long long)count);
    hrpb_scale_panels_kernel<<<(unsigned)count, SCALE_THREADS, 0, (cudaStream_t)stream>>>(
        d_panels, panel_rows, rows, n, beta, dC, c_si, c_sj);
    return TCSPMM_CUDA(cudaGetLastError());
}
