/* lobpcg.c: block LOBPCG (Knyazev, SIAM J. Sci. Comput. 23(2), 2001) with
 * soft locking, written once against the dense.h operations.
 *
 * X (n x m, m = k + guard) holds the current Ritz vectors. Each iteration:
 *   W = the residuals A x - lambda x of the active columns (those above tol),
 *       normalized; AW = A W is the iteration's one sparse product;
 *   the basis [X, W, P_active] and its image [AX, AW, AP_active] are
 *       orthonormalized together by Cholesky QR of the basis Gram matrix,
 *       dropping nearly dependent columns, with a second pass when the
 *       first was ill-conditioned;
 *   Rayleigh-Ritz on that orthonormal basis Q: the m smallest eigenpairs
 *       (Y, lambda) of Q^T A Q give X = Q Y, AX = AQ Y, and the direction
 *       P = Q_(W,P) Y_(W,P), the part of the update orthogonal to the old X
 *       (Hetmaniuk and Lehoucq's choice, J. Comput. Phys. 218, 2006).
 * Converged columns stay in X, so Rayleigh-Ritz keeps improving them, but
 * leave W and P (soft locking). AX and AP are updated through recurrences;
 * A X is recomputed before convergence is declared and at the end, so the
 * reported residuals are those of the returned vectors, and whenever the
 * recurrences may have drifted (REFRESH_EVERY below). The run stops when all
 * k residuals are at most tol, after maxit iterations, or when the largest
 * has not halved in opt->stall iterations. The largest eigenpairs are the
 * smallest of -A: the products then use alpha = -1. */
#include "lobpcg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fail.h"
#include "small.h"
#include "wall_clock.h"

/* A basis column whose part orthogonal to the earlier columns has a squared
 * relative norm at or below this is dropped: the orthonormal basis would
 * scale its image under A, computed in float, by 1/sqrt(pivot). */
#define DROP_PIVOT 1e-10
/* One Cholesky QR pass leaves the columns orthonormal to about 1e-16 over
 * its smallest pivot; below this pivot a second pass restores them. */
#define SECOND_PASS_PIVOT 1e-6
/* The recurrences AX = AQ Y and AP = AQ_(W,P) Y_(W,P) carry the float
 * rounding of earlier products, amplified when the basis is ill-conditioned;
 * once the residuals reach the products' accuracy this error can grow each
 * iteration. So A X is recomputed, and P dropped for one step, after this
 * many iterations or when the largest residual grows past this factor of its
 * smallest value since the last recomputation. */
#define REFRESH_EVERY 50
#define DRIFT_GROWTH 2.0

typedef struct solver {
    dense *d;
    int64_t n;
    int m, k;
    float alpha;          /* 1: A; -1: -A for the largest eigenpairs */
    double norm_a, tol;
    double *S, *AS;       /* the basis and its image; X = S[:, :m], AX = AS[:, :m] */
    double *Q, *AQ;       /* scratch of the same size, swapped with S, AS */
    double *P, *AP;       /* n x m directions, valid when have_p */
    int have_p;
    double *lambda, *rnorm, *xnorm, *res, *inv_rnorm; /* m each */
    int *active, *keep;
    double *G, *T, *Y, *w; /* host: (3m)^2, (3m)^2, 3m x m, 3m */
    int64_t dropped;
} solver;

static void swap(double **a, double **b)
{
    double *t = *a;
    *a = *b;
    *b = t;
}

/* Orthonormalizes the s columns of S (and applies the same transform to AS
 * when with_image); the result, *kept columns, is in S and AS. The first m
 * columns (X) must all survive. */
static int orthonormalize(solver *sv, int s, int with_image, int *kept)
{
    for (int pass = 0; pass < 2; pass++) {
        double min_pivot;
        int nk;
        if (dense_gram(sv->d, s, sv->S, s, sv->S, sv->G) ||
            small_orthonormalizer(s, sv->G, DROP_PIVOT, sv->T, sv->keep, &nk, &min_pivot))
            return -1;
        for (int j = 0; j < sv->m; j++)
            if (!sv->keep[j])
                return lobpcg_fail("the block X lost rank (column %d depends on the "
                                   "others); try another --seed or a smaller block",
                                   j);
        sv->dropped += s - nk;
        if (dense_combine(sv->d, s, sv->S, nk, sv->T, sv->Q)) return -1;
        swap(&sv->S, &sv->Q);
        if (with_image) {
            if (dense_combine(sv->d, s, sv->AS, nk, sv->T, sv->AQ)) return -1;
            swap(&sv->AS, &sv->AQ);
        }
        s = nk;
        if (min_pivot >= SECOND_PASS_PIVOT) break;
    }
    *kept = s;
    return 0;
}

/* Rayleigh-Ritz on the orthonormal s-column basis in S, AS: the new X, AX
 * (in S, AS), lambda, and P, AP when the basis has more than X. */
static int rayleigh_ritz(solver *sv, int s)
{
    int m = sv->m;
    int64_t n = sv->n;
    double *H = sv->G;
    if (dense_gram(sv->d, s, sv->S, s, sv->AS, H)) return -1;
    small_symmetrize(s, H);
    if (dense_eigh(sv->d, s, H, sv->w)) return -1;
    /* The first m eigenvectors are the first m columns of H (s x m, ld s). */
    if (dense_combine(sv->d, s, sv->S, m, H, sv->Q) ||
        dense_combine(sv->d, s, sv->AS, m, H, sv->AQ))
        return -1;
    sv->have_p = s > m;
    if (sv->have_p) {
        int r = s - m;
        for (int j = 0; j < m; j++)
            for (int i = 0; i < r; i++) sv->Y[i + (size_t)j * r] = H[m + i + (size_t)j * s];
        if (dense_combine(sv->d, r, sv->S + (size_t)m * n, m, sv->Y, sv->P) ||
            dense_combine(sv->d, r, sv->AS + (size_t)m * n, m, sv->Y, sv->AP))
            return -1;
    }
    memcpy(sv->lambda, sv->w, (size_t)m * sizeof *sv->lambda);
    swap(&sv->S, &sv->Q);
    swap(&sv->AS, &sv->AQ);
    return 0;
}

/* Residuals R = AX - X lambda (into Q) and the relative residuals res. */
static int residuals(solver *sv)
{
    if (dense_residual(sv->d, sv->m, sv->S, sv->AS, sv->lambda, sv->Q, sv->rnorm, sv->xnorm))
        return -1;
    for (int j = 0; j < sv->m; j++) {
        sv->res[j] = sv->rnorm[j] / (sv->norm_a * sv->xnorm[j]);
        if (!isfinite(sv->res[j]))
            return lobpcg_fail("the residual of column %d is %g (NaN or Inf in A*X?)", j,
                               sv->res[j]);
    }
    return 0;
}

/* The largest relative residual among the k wanted columns. */
static double worst_residual(const solver *sv)
{
    double worst = 0;
    for (int j = 0; j < sv->k; j++)
        if (sv->res[j] > worst) worst = sv->res[j];
    return worst;
}

/* One LOBPCG step from the residuals in Q: W, AW, the basis, Rayleigh-Ritz. */
static int step(solver *sv, int active)
{
    int m = sv->m;
    int64_t n = sv->n;
    double *W = sv->S + (size_t)m * n, *AW = sv->AS + (size_t)m * n;
    if (dense_gather(sv->d, active, sv->active, sv->inv_rnorm, sv->Q, W) ||
        dense_spmm(sv->d, active, sv->alpha, W, AW))
        return -1;
    int s = m + active;
    if (sv->have_p) {
        if (dense_gather(sv->d, active, sv->active, NULL, sv->P, sv->S + (size_t)s * n) ||
            dense_gather(sv->d, active, sv->active, NULL, sv->AP, sv->AS + (size_t)s * n))
            return -1;
        s += active;
    }
    int kept;
    if (orthonormalize(sv, s, 1, &kept)) return -1;
    if (kept == m)
        return lobpcg_fail("breakdown: the residuals of all %d active columns lie in "
                           "the span of X",
                           active);
    return rayleigh_ritz(sv, kept);
}

/* X = a seeded uniform [-1, 1] block (splitmix64), column by column. */
static int random_start(solver *sv, uint64_t seed, double *column)
{
    uint64_t state = seed;
    for (int j = 0; j < sv->m; j++) {
        for (int64_t i = 0; i < sv->n; i++) {
            uint64_t z = (state += 0x9E3779B97F4A7C15ull);
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
            z ^= z >> 31;
            column[i] = 2.0 * (double)(z >> 11) * (1.0 / 9007199254740992.0) - 1.0;
        }
        if (dense_upload_column(sv->d, column, sv->S + (size_t)j * sv->n)) return -1;
    }
    return 0;
}

static void solver_free(solver *sv)
{
    double *blocks[] = {sv->S, sv->AS, sv->Q, sv->AQ, sv->P, sv->AP};
    for (size_t i = 0; i < sizeof blocks / sizeof *blocks; i++)
        if (blocks[i]) dense_free(sv->d, blocks[i]);
    free(sv->lambda), free(sv->rnorm), free(sv->xnorm), free(sv->res), free(sv->inv_rnorm);
    free(sv->active), free(sv->keep), free(sv->G), free(sv->T), free(sv->Y), free(sv->w);
}

static int solver_init(solver *sv, dense *d, int64_t n, double norm_a, const lobpcg_options *opt)
{
    memset(sv, 0, sizeof *sv);
    sv->d = d;
    sv->n = n;
    sv->k = opt->k;
    sv->m = opt->k + opt->guard;
    sv->alpha = opt->largest ? -1.0f : 1.0f;
    sv->norm_a = norm_a;
    sv->tol = opt->tol;
    int m = sv->m, s = 3 * m;
    if (dense_alloc(d, s, &sv->S) || dense_alloc(d, s, &sv->AS) || dense_alloc(d, s, &sv->Q) ||
        dense_alloc(d, s, &sv->AQ) || dense_alloc(d, m, &sv->P) || dense_alloc(d, m, &sv->AP))
        return -1;
    sv->lambda = malloc((size_t)m * sizeof(double));
    sv->rnorm = malloc((size_t)m * sizeof(double));
    sv->xnorm = malloc((size_t)m * sizeof(double));
    sv->res = malloc((size_t)m * sizeof(double));
    sv->inv_rnorm = malloc((size_t)m * sizeof(double));
    sv->active = malloc((size_t)m * sizeof(int));
    sv->keep = malloc((size_t)s * sizeof(int));
    sv->G = malloc((size_t)s * s * sizeof(double));
    sv->T = malloc((size_t)s * s * sizeof(double));
    sv->Y = malloc((size_t)s * m * sizeof(double));
    sv->w = malloc((size_t)s * sizeof(double));
    if (!sv->lambda || !sv->rnorm || !sv->xnorm || !sv->res || !sv->inv_rnorm || !sv->active ||
        !sv->keep || !sv->G || !sv->T || !sv->Y || !sv->w)
        return lobpcg_fail("out of host memory for a block of %d columns", m);
    return 0;
}

/* Runs the iteration on an initialized solver; fills the result's counts. */
static int iterate(solver *sv, const lobpcg_options *opt, lobpcg_result *result)
{
    int m = sv->m, kept;
    double *column = malloc((size_t)sv->n * sizeof *column);
    if (!column)
        return lobpcg_fail("out of host memory for a column of %lld", (long long)sv->n);
    int failed = random_start(sv, opt->seed, column);
    free(column);
    if (failed || orthonormalize(sv, m, 0, &kept) ||
        dense_spmm(sv->d, m, sv->alpha, sv->S, sv->AS) || rayleigh_ritz(sv, m))
        return -1;
    /* Iterations since A X was computed (and the smallest largest residual
     * since), the iteration and value of the last halving of that residual. */
    int since_fresh = 0, halved_at = 0;
    double best_since_fresh = HUGE_VAL, halved = HUGE_VAL;
    for (int it = 0;; it++) {
        if (residuals(sv)) return -1;
        double worst = worst_residual(sv);
        if (worst <= 0.5 * halved) halved = worst, halved_at = it; /* before the stall test */
        int stalled = opt->stall > 0 && it - halved_at >= opt->stall;
        int stop = worst <= sv->tol || it == opt->maxit || stalled;
        int drifting = since_fresh >= REFRESH_EVERY || worst > DRIFT_GROWTH * best_since_fresh;
        if (since_fresh > 0 && (stop || drifting)) {
            /* A X itself instead of the recurrence: confirms convergence with the
             * vectors returned, and ends the drift of AX (and, by restarting
             * without P, of AP). */
            if (dense_spmm(sv->d, m, sv->alpha, sv->S, sv->AS) || residuals(sv)) return -1;
            worst = worst_residual(sv);
            stop = worst <= sv->tol || it == opt->maxit || stalled;
            sv->have_p = 0;
            since_fresh = 0;
            best_since_fresh = HUGE_VAL;
        }
        if (worst < best_since_fresh) best_since_fresh = worst;
        int active = 0;
        for (int j = 0; j < m; j++)
            if (sv->res[j] > sv->tol) {
                sv->inv_rnorm[active] = 1.0 / sv->rnorm[j];
                sv->active[active++] = j;
            }
        printf("iter %d max_res %.3e active %d\n", it, worst, active);
        fflush(stdout);
        result->iterations = it;
        result->converged = worst <= sv->tol;
        result->stalled = stalled && !result->converged;
        if (stop) return 0;
        if (step(sv, active)) return -1;
        since_fresh++;
    }
}

int lobpcg_solve(dense *d, int64_t n, double norm_a, const lobpcg_options *opt,
                 lobpcg_result *result)
{
    memset(result, 0, sizeof *result);
    int m = opt->k + opt->guard;
    if (opt->k < 1 || opt->guard < 0 || opt->maxit < 0 || !(opt->tol > 0))
        return lobpcg_fail("need k >= 1, guard >= 0, maxit >= 0, tol > 0");
    if ((int64_t)3 * m > n)
        return lobpcg_fail("a block of %d columns (k + guard) needs at least %d rows; the "
                           "matrix has %lld",
                           m, 3 * m, (long long)n);
    if (!(norm_a > 0)) return lobpcg_fail("the matrix is zero");
    double t0 = wall_seconds();
    solver sv;
    int failed = solver_init(&sv, d, n, norm_a, opt) || iterate(&sv, opt, result);
    if (!failed) {
        result->lambda = malloc((size_t)opt->k * sizeof(double));
        result->residual = malloc((size_t)opt->k * sizeof(double));
        if (!result->lambda || !result->residual)
            failed = lobpcg_fail("out of host memory for %d results", opt->k);
    }
    if (!failed)
        for (int j = 0; j < opt->k; j++) {
            result->lambda[j] = opt->largest ? -sv.lambda[j] : sv.lambda[j];
            result->residual[j] = sv.res[j];
        }
    result->dropped = sv.dropped;
    solver_free(&sv);
    result->seconds = wall_seconds() - t0;
    if (failed) lobpcg_result_free(result);
    return failed ? -1 : 0;
}

void lobpcg_result_free(lobpcg_result *result)
{
    free(result->lambda);
    free(result->residual);
    result->lambda = result->residual = NULL;
}
