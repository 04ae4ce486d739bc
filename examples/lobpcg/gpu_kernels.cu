/* gpu_kernels.cu: the example's own kernels: the casts between the double
 * blocks and the float operands of the product, the residual block with its
 * column norms, and the gather of the active columns. Everything else on the
 * GPU is cuBLAS, cuSOLVER or tcspmm. */
#include "gpu_kernels.h"

#define THREADS 256
#define MAX_BLOCKS 4096 /* grid-stride loops beyond this */

static unsigned blocks_for(size_t count)
{
    size_t b = (count + THREADS - 1) / THREADS;
    return (unsigned)(b < MAX_BLOCKS ? (b > 0 ? b : 1) : MAX_BLOCKS);
}

/* A grid of cols columns of row blocks, about MAX_BLOCKS blocks in all. */
static dim3 column_grid(int64_t n, int cols)
{
    unsigned per_column = MAX_BLOCKS / (unsigned)cols + 1, rows = blocks_for((size_t)n);
    return dim3(rows < per_column ? rows : per_column, (unsigned)cols);
}

/* Each thread converts elements i, i + gridDim.x * blockDim.x, ... */
__global__ void to_float_kernel(const double *x, float *y, size_t count)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count;
         i += (size_t)gridDim.x * blockDim.x)
        y[i] = (float)x[i];
}

__global__ void to_double_kernel(const float *y, double *x, size_t count)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count;
         i += (size_t)gridDim.x * blockDim.x)
        x[i] = y[i];
}

/* Block (bx, j) owns column j: its threads stride over rows bx * THREADS +
 * t, bx * THREADS + t + gridDim.x * THREADS, ..., write r = ax - lambda_j x,
 * reduce their sums of r^2 and x^2 in shared memory, and thread 0 adds the
 * block's sums to norms[j] and norms[m + j]. */
__global__ void residual_kernel(int64_t n, int m, const double *X, const double *AX,
                                const double *lambda, double *R, double *norms)
{
    __shared__ double rr[THREADS], xx[THREADS];
    int j = blockIdx.y;
    const double *x = X + (size_t)j * n, *ax = AX + (size_t)j * n;
    double *r = R + (size_t)j * n, lam = lambda[j], sr = 0, sx = 0;
    for (int64_t i = blockIdx.x * (int64_t)THREADS + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * THREADS) {
        double v = ax[i] - lam * x[i];
        r[i] = v;
        sr += v * v;
        sx += x[i] * x[i];
    }
    rr[threadIdx.x] = sr;
    xx[threadIdx.x] = sx;
    __syncthreads();
    for (int half = THREADS / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) {
            rr[threadIdx.x] += rr[threadIdx.x + half];
            xx[threadIdx.x] += xx[threadIdx.x + half];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        atomicAdd(&norms[j], rr[0]);
        atomicAdd(&norms[m + j], xx[0]);
    }
}

/* Block (bx, c) owns rows bx * THREADS + t (grid-stride) of output column c. */
__global__ void gather_kernel(int64_t n, const int *cols, const double *scale, const double *src,
                              double *dst)
{
    int c = blockIdx.y;
    const double *s = src + (size_t)cols[c] * n;
    double *d = dst + (size_t)c * n, f = scale ? scale[c] : 1.0;
    for (int64_t i = blockIdx.x * (int64_t)THREADS + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * THREADS)
        d[i] = s[i] * f;
}

extern "C" cudaError_t gpu_to_float(const double *x, float *y, size_t count)
{
    to_float_kernel<<<blocks_for(count), THREADS>>>(x, y, count);
    return cudaGetLastError();
}

extern "C" cudaError_t gpu_to_double(const float *y, double *x, size_t count)
{
    to_double_kernel<<<blocks_for(count), THREADS>>>(y, x, count);
    return cudaGetLastError();
}

extern "C" cudaError_t gpu_residual(int64_t n, int m, const double *X, const double *AX,
                                    const double *lambda, double *R, double *norms)
{
    cudaError_t e = cudaMemset(norms, 0, 2 * (size_t)m * sizeof(double));
    if (e != cudaSuccess || m == 0) return e;
    residual_kernel<<<column_grid(n, m), THREADS>>>(n, m, X, AX, lambda, R, norms);
    return cudaGetLastError();
}

extern "C" cudaError_t gpu_gather(int64_t n, int count, const int *cols, const double *scale,
                                  const double *src, double *dst)
{
    if (count == 0) return cudaSuccess;
    gather_kernel<<<column_grid(n, count), THREADS>>>(n, cols, scale, src, dst);
    return cudaGetLastError();
}
