/* gpu_kernels.h: the example's own CUDA kernels (gpu_kernels.cu), launched on
 * the legacy default stream. Each returns cudaGetLastError() after its
 * launch. Blocks are column-major with leading dimension n. */
#ifndef LOBPCG_GPU_KERNELS_H
#define LOBPCG_GPU_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* y[i] = (float)x[i] and x[i] = y[i] for i < count. */
cudaError_t gpu_to_float(const double *x, float *y, size_t count);
cudaError_t gpu_to_double(const float *y, double *x, size_t count);

/* R = AX - X diag(lambda) for m columns; norms[j] = ||R[:, j]||^2 and
 * norms[m + j] = ||X[:, j]||^2 (norms is zeroed first). */
cudaError_t gpu_residual(int64_t n, int m, const double *X, const double *AX,
                         const double *lambda, double *R, double *norms);

/* dst[:, c] = src[:, cols[c]] * (scale ? scale[c] : 1) for c < count. */
cudaError_t gpu_gather(int64_t n, int count, const int *cols, const double *scale,
                       const double *src, double *dst);

#ifdef __cplusplus
}
#endif

#endif
