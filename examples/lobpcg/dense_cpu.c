/* dense_cpu.c: the dense.h operations on host arrays with OpenMP, and the
 * sparse product through the library's CPU path (tcspmm_spmm_host). The
 * projected eigenproblem goes to small.c's Jacobi solver. */
#include "dense.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "fail.h"
#include "small.h"
#include "wall_clock.h"

/* Rows per chunk of the tall-skinny loops: a chunk of every column of a
 * basis stays in cache while a chunk's products are formed. */
#define CHUNK 256

struct dense {
    tcspmm_plan *plan;
    int64_t n;
    int spmm_cols, max_cols;
    float *B, *C;       /* n x spmm_cols: the product's float operands */
    double *partial;    /* one max_cols^2 Gram matrix per thread */
    int threads;
    double spmm_seconds;
    int64_t spmm_calls;
};

int dense_on_gpu(void) { return 0; }

int dense_create(tcspmm_plan *plan, int64_t n, int spmm_cols, int max_cols, dense **out)
{
    dense *d = calloc(1, sizeof *d);
    if (!d) return lobpcg_fail("dense_create: out of host memory");
    d->plan = plan;
    d->n = n;
    d->spmm_cols = spmm_cols;
    d->max_cols = max_cols;
    d->threads = omp_get_max_threads();
    d->B = malloc((size_t)n * spmm_cols * sizeof(float));
    d->C = malloc((size_t)n * spmm_cols * sizeof(float));
    d->partial = malloc((size_t)d->threads * max_cols * max_cols * sizeof(double));
    if (!d->B || !d->C || !d->partial) {
        dense_destroy(d);
        return lobpcg_fail("dense_create: out of host memory for %lld x %d float blocks",
                           (long long)n, spmm_cols);
    }
    *out = d;
    return 0;
}

void dense_destroy(dense *d)
{
    if (!d) return;
    free(d->B), free(d->C), free(d->partial), free(d);
}

int dense_alloc(dense *d, int cols, double **block)
{
    *block = malloc((size_t)d->n * cols * sizeof(double));
    if (!*block)
        return lobpcg_fail("dense_alloc: out of host memory for a %lld x %d block",
                           (long long)d->n, cols);
    return 0;
}

void dense_free(dense *d, double *block)
{
    (void)d;
    free(block);
}

int dense_upload_column(dense *d, const double *host, double *block)
{
    memcpy(block, host, (size_t)d->n * sizeof(double));
    return 0;
}

int dense_spmm(dense *d, int cols, float alpha, const double *X, double *AX)
{
    if (cols > d->spmm_cols)
        return lobpcg_fail("dense_spmm: %d columns, more than the %d planned", cols, d->spmm_cols);
    size_t count = (size_t)d->n * cols;
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < count; i++) d->B[i] = (float)X[i];
    double t0 = wall_seconds();
    tcspmm_status st = tcspmm_spmm_host(d->plan, cols, alpha, d->B, d->n, 0.0f, d->C, d->n,
                                        TCSPMM_LAYOUT_COL_MAJOR);
    d->spmm_seconds += wall_seconds() - t0;
    d->spmm_calls++;
    if (st != TCSPMM_SUCCESS) return lobpcg_fail("tcspmm_spmm_host: %s", tcspmm_last_error());
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < count; i++) AX[i] = d->C[i];
    return 0;
}

double dense_spmm_seconds(const dense *d) { return d->spmm_seconds; }
int64_t dense_spmm_calls(const dense *d) { return d->spmm_calls; }

int dense_gram(dense *d, int p, const double *A, int q, const double *B, double *G)
{
    int64_t n = d->n;
    size_t pq = (size_t)p * q;
    int team = 1; /* the threads OpenMP gave: fewer than asked under a limit or dynamic teams */
#pragma omp parallel num_threads(d->threads)
    {
#pragma omp single
        team = omp_get_num_threads();
        double *mine = d->partial + (size_t)omp_get_thread_num() * pq;
        memset(mine, 0, pq * sizeof *mine);
#pragma omp for schedule(static)
        for (int64_t r0 = 0; r0 < n; r0 += CHUNK) {
            int64_t len = n - r0 < CHUNK ? n - r0 : CHUNK;
            for (int j = 0; j < q; j++) {
                const double *b = B + (size_t)j * n + r0;
                for (int i = 0; i < p; i++) {
                    const double *a = A + (size_t)i * n + r0;
                    double sum = 0;
                    for (int64_t r = 0; r < len; r++) sum += a[r] * b[r];
                    mine[i + (size_t)j * p] += sum;
                }
            }
        }
    }
    memset(G, 0, pq * sizeof *G);
    for (int t = 0; t < team; t++)
        for (size_t i = 0; i < pq; i++) G[i] += d->partial[(size_t)t * pq + i];
    return 0;
}

int dense_combine(dense *d, int p, const double *A, int q, const double *C, double *out)
{
    int64_t n = d->n;
#pragma omp parallel for schedule(static)
    for (int64_t r0 = 0; r0 < n; r0 += CHUNK) {
        int64_t len = n - r0 < CHUNK ? n - r0 : CHUNK;
        for (int j = 0; j < q; j++) {
            double *o = out + (size_t)j * n + r0;
            memset(o, 0, (size_t)len * sizeof *o);
            for (int i = 0; i < p; i++) {
                const double *a = A + (size_t)i * n + r0;
                double c = C[i + (size_t)j * p];
                for (int64_t r = 0; r < len; r++) o[r] += a[r] * c;
            }
        }
    }
    return 0;
}

int dense_residual(dense *d, int m, const double *X, const double *AX, const double *lambda,
                   double *R, double *rnorm, double *xnorm)
{
    int64_t n = d->n;
#pragma omp parallel for schedule(static)
    for (int j = 0; j < m; j++) {
        const double *x = X + (size_t)j * n, *ax = AX + (size_t)j * n;
        double *r = R + (size_t)j * n, rr = 0, xx = 0;
        for (int64_t i = 0; i < n; i++) {
            r[i] = ax[i] - lambda[j] * x[i];
            rr += r[i] * r[i];
            xx += x[i] * x[i];
        }
        rnorm[j] = sqrt(rr);
        xnorm[j] = sqrt(xx);
    }
    return 0;
}

int dense_gather(dense *d, int count, const int *cols, const double *scale, const double *src,
                 double *dst)
{
    int64_t n = d->n;
#pragma omp parallel for schedule(static)
    for (int c = 0; c < count; c++) {
        const double *s = src + (size_t)cols[c] * n;
        double *t = dst + (size_t)c * n, f = scale ? scale[c] : 1.0;
        for (int64_t i = 0; i < n; i++) t[i] = s[i] * f;
    }
    return 0;
}

int dense_eigh(dense *d, int s, double *H, double *w)
{
    (void)d;
    return small_jacobi_eigh(s, H, w);
}
