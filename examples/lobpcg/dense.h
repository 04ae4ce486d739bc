/* dense.h: the operations on block vectors that LOBPCG needs, implemented
 * once per backend: dense_cpu.c (host arrays, OpenMP, tcspmm_spmm_host) and
 * dense_gpu.c (device arrays, cuBLAS, cuSOLVER, tcspmm_spmm).
 *
 * A block is an n x cols array of doubles in the backend's memory,
 * column-major with leading dimension n; a pointer to column j of a block is
 * a block too (block + j * n). Small matrices (Gram matrices, coefficients)
 * are host arrays, column-major, leading dimension = their row count. Every
 * function returns 0, or -1 with a message in lobpcg_error(). */
#ifndef LOBPCG_DENSE_H
#define LOBPCG_DENSE_H

#include <stdint.h>

#include <tcspmm.h>

typedef struct dense dense;

/* 1 when blocks live in GPU memory (the plan must run on a GPU path), 0 when
 * they live on the host (the plan must be on TCSPMM_PATH_CPU). */
int dense_on_gpu(void);

/* A backend for n-row blocks, products A*X of up to spmm_cols columns with
 * the plan, and small matrices of up to max_cols x max_cols. */
int dense_create(tcspmm_plan *plan, int64_t n, int spmm_cols, int max_cols, dense **out);
void dense_destroy(dense *d);

int dense_alloc(dense *d, int cols, double **block);
void dense_free(dense *d, double *block);

/* block[:, 0] = host[0..n): one column from the host. */
int dense_upload_column(dense *d, const double *host, double *block);

/* AX = alpha * A * X for cols columns; X and AX are cast to and from float
 * around the library's product. The time spent in the product itself is
 * added to dense_spmm_seconds. */
int dense_spmm(dense *d, int cols, float alpha, const double *X, double *AX);
double dense_spmm_seconds(const dense *d);
int64_t dense_spmm_calls(const dense *d);

/* G = A^T B: A is n x p, B is n x q, G is p x q on the host. */
int dense_gram(dense *d, int p, const double *A, int q, const double *B, double *G);

/* out = A C: A is n x p, C is p x q on the host, out is n x q (out must not
 * overlap A). */
int dense_combine(dense *d, int p, const double *A, int q, const double *C, double *out);

/* R = AX - X diag(lambda) for m columns; rnorm[j] = ||R[:, j]||,
 * xnorm[j] = ||X[:, j]|| on the host. */
int dense_residual(dense *d, int m, const double *X, const double *AX, const double *lambda,
                   double *R, double *rnorm, double *xnorm);

/* dst[:, i] = src[:, cols[i]] * scale[i] for i < count (scale NULL: 1). */
int dense_gather(dense *d, int count, const int *cols, const double *scale, const double *src,
                 double *dst);

/* The eigenpairs of the symmetric s x s host matrix H: w ascending, H
 * overwritten by the eigenvectors (column j for w[j]). */
int dense_eigh(dense *d, int s, double *H, double *w);

#endif
