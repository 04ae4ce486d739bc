/* dense_gpu.c: the dense.h operations on device arrays: cuBLAS DGEMM for
 * the tall-skinny products, the example's kernels (gpu_kernels.cu) for
 * the casts, residuals and gathers, cuSOLVER for the projected eigenproblem,
 * and tcspmm_spmm on device pointers. Everything runs in order on the legacy
 * default stream; small results come back by synchronous copies.
 *
 * Where the small problems run: the projected eigenproblem (s up to 3 x block
 * columns, 240 for k = 64 and 16 guards) goes to the device with
 * cusolverDnDsyevd: 2 ms at s = 240 on an H100 with the copies, where
 * small.c's Jacobi takes 230 ms on the host, per iteration. The Cholesky QR
 * factor stays on the host (small.c, 4 ms at s = 240, about one DGEMM of the
 * iteration): it drops dependent columns as it goes, which potrf does not. */
#include "dense.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cusolverDn.h>

#include "fail.h"
#include "gpu_kernels.h"
#include "wall_clock.h"

#define CUDA_TRY(call)                                                                         \
    do {                                                                                       \
        cudaError_t e_ = (call);                                                               \
        if (e_ != cudaSuccess)                                                                 \
            return lobpcg_fail("%s at %s:%d: %s", #call, __FILE__, __LINE__,                   \
                               cudaGetErrorString(e_));                                        \
    } while (0)

#define CUBLAS_TRY(call)                                                                       \
    do {                                                                                       \
        cublasStatus_t s_ = (call);                                                            \
        if (s_ != CUBLAS_STATUS_SUCCESS)                                                       \
            return lobpcg_fail("%s at %s:%d: %s", #call, __FILE__, __LINE__,                   \
                               cublasGetStatusString(s_));                                     \
    } while (0)

#define CUSOLVER_TRY(call)                                                                     \
    do {                                                                                       \
        cusolverStatus_t s_ = (call);                                                          \
        if (s_ != CUSOLVER_STATUS_SUCCESS)                                                     \
            return lobpcg_fail("%s at %s:%d: cusolver status %d", #call, __FILE__, __LINE__,  \
                               (int)s_);                                                       \
    } while (0)

struct dense {
    tcspmm_plan *plan;
    int64_t n;
    int spmm_cols, max_cols;
    cublasHandle_t blas;
    cusolverDnHandle_t solver;
    float *B, *C;        /* n x spmm_cols: the product's float operands */
    double *small;       /* max_cols^2: Gram, coefficient and projected matrices */
    double *vec;         /* max_cols: eigenvalues, lambda, scales */
    double *norms;       /* 2 x max_cols */
    double *host_norms;  /* 2 x max_cols, on the host */
    int *index;          /* max_cols column indices */
    double *work;        /* syevd workspace of lwork doubles */
    int lwork;
    int *info;           /* syevd's status */
    double spmm_seconds;
    int64_t spmm_calls;
};

int dense_on_gpu(void) { return 1; }

static int device_alloc(void **p, size_t bytes, const char *what)
{
    cudaError_t e = cudaMalloc(p, bytes);
    if (e != cudaSuccess)
        return lobpcg_fail("cudaMalloc of %.1f MiB for %s: %s", bytes / 1048576.0, what,
                           cudaGetErrorString(e));
    return 0;
}

static int create_parts(dense *d)
{
    size_t n = (size_t)d->n, s = (size_t)d->max_cols;
    d->host_norms = malloc(2 * s * sizeof(double));
    if (!d->host_norms) return lobpcg_fail("dense_create: out of host memory");
    CUBLAS_TRY(cublasCreate(&d->blas));
    CUSOLVER_TRY(cusolverDnCreate(&d->solver));
    if (device_alloc((void **)&d->B, n * d->spmm_cols * sizeof(float), "the product's B") ||
        device_alloc((void **)&d->C, n * d->spmm_cols * sizeof(float), "the product's C") ||
        device_alloc((void **)&d->small, s * s * sizeof(double), "small matrices") ||
        device_alloc((void **)&d->vec, s * sizeof(double), "small vectors") ||
        device_alloc((void **)&d->norms, 2 * s * sizeof(double), "norms") ||
        device_alloc((void **)&d->index, s * sizeof(int), "column indices") ||
        device_alloc((void **)&d->info, sizeof(int), "syevd's status"))
        return -1;
    return 0;
}

int dense_create(tcspmm_plan *plan, int64_t n, int spmm_cols, int max_cols, dense **out)
{
    if (n > INT_MAX)
        return lobpcg_fail("the GPU backend handles at most %d rows (cuBLAS int sizes); this "
                           "matrix has %lld",
                           INT_MAX, (long long)n);
    dense *d = calloc(1, sizeof *d);
    if (!d) return lobpcg_fail("dense_create: out of host memory");
    d->plan = plan;
    d->n = n;
    d->spmm_cols = spmm_cols;
    d->max_cols = max_cols;
    if (create_parts(d)) {
        dense_destroy(d);
        return -1;
    }
    *out = d;
    return 0;
}

void dense_destroy(dense *d)
{
    if (!d) return;
    if (d->blas) cublasDestroy(d->blas);
    if (d->solver) cusolverDnDestroy(d->solver);
    void *parts[] = {d->B, d->C, d->small, d->vec, d->norms, d->index, d->work, d->info};
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) cudaFree(parts[i]);
    free(d->host_norms);
    free(d);
}

int dense_alloc(dense *d, int cols, double **block)
{
    *block = NULL;
    return device_alloc((void **)block, (size_t)d->n * cols * sizeof(double), "a block");
}

void dense_free(dense *d, double *block)
{
    (void)d;
    cudaFree(block);
}

int dense_upload_column(dense *d, const double *host, double *block)
{
    CUDA_TRY(cudaMemcpy(block, host, (size_t)d->n * sizeof(double), cudaMemcpyHostToDevice));
    return 0;
}

int dense_spmm(dense *d, int cols, float alpha, const double *X, double *AX)
{
    if (cols > d->spmm_cols)
        return lobpcg_fail("dense_spmm: %d columns, more than the %d planned", cols, d->spmm_cols);
    size_t count = (size_t)d->n * cols;
    CUDA_TRY(gpu_to_float(X, d->B, count));
    CUDA_TRY(cudaDeviceSynchronize());
    double t0 = wall_seconds();
    tcspmm_status st = tcspmm_spmm(d->plan, cols, alpha, d->B, d->n, 0.0f, d->C, d->n,
                                   TCSPMM_LAYOUT_COL_MAJOR, NULL);
    if (st != TCSPMM_SUCCESS) return lobpcg_fail("tcspmm_spmm: %s", tcspmm_last_error());
    CUDA_TRY(cudaDeviceSynchronize());
    d->spmm_seconds += wall_seconds() - t0;
    d->spmm_calls++;
    CUDA_TRY(gpu_to_double(d->C, AX, count));
    return 0;
}

double dense_spmm_seconds(const dense *d) { return d->spmm_seconds; }
int64_t dense_spmm_calls(const dense *d) { return d->spmm_calls; }

int dense_gram(dense *d, int p, const double *A, int q, const double *B, double *G)
{
    /* DGEMM even for S^T S: DSYRK with k = n rows is far slower on these
     * shapes (13 ms against 0.5 ms for n = 2M, p = q = 60 on an H100). */
    const double one = 1.0, zero = 0.0;
    int n = (int)d->n;
    CUBLAS_TRY(cublasDgemm(d->blas, CUBLAS_OP_T, CUBLAS_OP_N, p, q, n, &one, A, n, B, n, &zero,
                           d->small, p));
    CUDA_TRY(cudaMemcpy(G, d->small, (size_t)p * q * sizeof(double), cudaMemcpyDeviceToHost));
    return 0;
}

int dense_combine(dense *d, int p, const double *A, int q, const double *C, double *out)
{
    const double one = 1.0, zero = 0.0;
    int n = (int)d->n;
    CUDA_TRY(cudaMemcpy(d->small, C, (size_t)p * q * sizeof(double), cudaMemcpyHostToDevice));
    CUBLAS_TRY(cublasDgemm(d->blas, CUBLAS_OP_N, CUBLAS_OP_N, n, q, p, &one, A, n, d->small, p,
                           &zero, out, n));
    return 0;
}

int dense_residual(dense *d, int m, const double *X, const double *AX, const double *lambda,
                   double *R, double *rnorm, double *xnorm)
{
    double *squares = d->host_norms;
    CUDA_TRY(cudaMemcpy(d->vec, lambda, (size_t)m * sizeof(double), cudaMemcpyHostToDevice));
    CUDA_TRY(gpu_residual(d->n, m, X, AX, d->vec, R, d->norms));
    CUDA_TRY(cudaMemcpy(squares, d->norms, 2 * (size_t)m * sizeof(double), cudaMemcpyDeviceToHost));
    for (int j = 0; j < m; j++) {
        rnorm[j] = sqrt(squares[j]);
        xnorm[j] = sqrt(squares[m + j]);
    }
    return 0;
}

int dense_gather(dense *d, int count, const int *cols, const double *scale, const double *src,
                 double *dst)
{
    if (count == 0) return 0;
    CUDA_TRY(cudaMemcpy(d->index, cols, (size_t)count * sizeof(int), cudaMemcpyHostToDevice));
    if (scale)
        CUDA_TRY(cudaMemcpy(d->vec, scale, (size_t)count * sizeof(double), cudaMemcpyHostToDevice));
    CUDA_TRY(gpu_gather(d->n, count, d->index, scale ? d->vec : NULL, src, dst));
    return 0;
}

int dense_eigh(dense *d, int s, double *H, double *w)
{
    int lwork, status;
    CUDA_TRY(cudaMemcpy(d->small, H, (size_t)s * s * sizeof(double), cudaMemcpyHostToDevice));
    CUSOLVER_TRY(cusolverDnDsyevd_bufferSize(d->solver, CUSOLVER_EIG_MODE_VECTOR,
                                             CUBLAS_FILL_MODE_LOWER, s, d->small, s, d->vec,
                                             &lwork));
    if (lwork > d->lwork) {
        cudaFree(d->work);
        d->work = NULL;
        d->lwork = 0;
        if (device_alloc((void **)&d->work, (size_t)lwork * sizeof(double), "syevd's workspace"))
            return -1;
        d->lwork = lwork;
    }
    CUSOLVER_TRY(cusolverDnDsyevd(d->solver, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, s,
                                  d->small, s, d->vec, d->work, d->lwork, d->info));
    CUDA_TRY(cudaMemcpy(&status, d->info, sizeof status, cudaMemcpyDeviceToHost));
    if (status != 0)
        return lobpcg_fail("cusolverDnDsyevd on the %d x %d projected matrix: info = %d", s, s,
                           status);
    CUDA_TRY(cudaMemcpy(H, d->small, (size_t)s * s * sizeof(double), cudaMemcpyDeviceToHost));
    CUDA_TRY(cudaMemcpy(w, d->vec, (size_t)s * sizeof(double), cudaMemcpyDeviceToHost));
    return 0;
}
