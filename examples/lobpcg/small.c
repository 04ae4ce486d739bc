/* small.c: Cholesky with column dropping and the cyclic Jacobi eigensolver
 * for the projected problems of LOBPCG (see small.h). */
#include "small.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fail.h"

int small_orthonormalizer(int s, const double *G, double drop, double *T, int *keep, int *kept,
                          double *min_pivot)
{
    double *scale = malloc((size_t)s * sizeof *scale);
    double *R = calloc((size_t)s * s, sizeof *R); /* upper triangle, column-major */
    double *Rinv = calloc((size_t)s * s, sizeof *Rinv);
    int *order = malloc((size_t)s * sizeof *order); /* kept columns, in order */
    if (!scale || !R || !Rinv || !order) {
        free(scale), free(R), free(Rinv), free(order);
        return lobpcg_fail("orthonormalizer: out of host memory for a %d x %d Gram matrix", s, s);
    }
    for (int i = 0; i < s * s; i++)
        if (!isfinite(G[i])) {
            free(scale), free(R), free(Rinv), free(order);
            return lobpcg_fail("orthonormalizer: the Gram matrix holds %g (NaN or Inf in the "
                               "basis)",
                               G[i]);
        }
    for (int j = 0; j < s; j++) scale[j] = G[j + j * s] > 0 ? 1.0 / sqrt(G[j + j * s]) : 0.0;

    /* Column j of the scaled Cholesky factor, against the kept columns only. */
    int nk = 0;
    *min_pivot = 1.0;
    for (int j = 0; j < s; j++) {
        keep[j] = 0;
        if (scale[j] == 0.0) continue; /* a zero column */
        double pivot = 1.0;
        for (int a = 0; a < nk; a++) {
            int i = order[a];
            double r = G[i + j * s] * scale[i] * scale[j];
            for (int b = 0; b < a; b++) r -= R[b + a * s] * R[b + nk * s];
            r /= R[a + a * s];
            R[a + nk * s] = r;
            pivot -= r * r;
        }
        if (pivot <= drop) continue;
        R[nk + nk * s] = sqrt(pivot);
        if (pivot < *min_pivot) *min_pivot = pivot;
        keep[j] = 1;
        order[nk++] = j;
    }

    /* Rinv = R^-1 (upper triangular, nk x nk), column by column. */
    for (int c = 0; c < nk; c++) {
        Rinv[c + c * s] = 1.0 / R[c + c * s];
        for (int r = c - 1; r >= 0; r--) {
            double sum = 0;
            for (int t = r + 1; t <= c; t++) sum += R[r + t * s] * Rinv[t + c * s];
            Rinv[r + c * s] = -sum / R[r + r * s];
        }
    }
    /* T = diag(scale) Rinv, spread back to the rows of the kept columns. */
    memset(T, 0, (size_t)s * nk * sizeof *T);
    for (int c = 0; c < nk; c++)
        for (int a = 0; a <= c; a++) T[order[a] + c * s] = scale[order[a]] * Rinv[a + c * s];
    *kept = nk;
    free(scale), free(R), free(Rinv), free(order);
    return 0;
}

void small_symmetrize(int s, double *H)
{
    for (int j = 0; j < s; j++)
        for (int i = 0; i < j; i++) {
            double v = 0.5 * (H[i + j * s] + H[j + i * s]);
            H[i + j * s] = H[j + i * s] = v;
        }
}

void small_sort_eigenpairs(int s, double *w, double *V)
{
    /* Selection sort: s is small and each swap moves a whole column. */
    for (int a = 0; a < s; a++) {
        int best = a;
        for (int b = a + 1; b < s; b++)
            if (w[b] < w[best]) best = b;
        if (best == a) continue;
        double t = w[a];
        w[a] = w[best], w[best] = t;
        for (int r = 0; r < s; r++) {
            t = V[r + a * s];
            V[r + a * s] = V[r + best * s], V[r + best * s] = t;
        }
    }
}

/* Applies the rotation J (J_pp = J_qq = c, J_pq = sn, J_qp = -sn) as
 * A := J^T A J and V := V J. */
static void rotate(int s, double *A, double *V, int p, int q, double c, double sn)
{
    for (int r = 0; r < s; r++) { /* columns p, q of A and V */
        double ap = A[r + p * s], aq = A[r + q * s];
        A[r + p * s] = c * ap - sn * aq;
        A[r + q * s] = sn * ap + c * aq;
        double vp = V[r + p * s], vq = V[r + q * s];
        V[r + p * s] = c * vp - sn * vq;
        V[r + q * s] = sn * vp + c * vq;
    }
    for (int r = 0; r < s; r++) { /* rows p, q of A */
        double ap = A[p + r * s], aq = A[q + r * s];
        A[p + r * s] = c * ap - sn * aq;
        A[q + r * s] = sn * ap + c * aq;
    }
    A[p + q * s] = A[q + p * s] = 0.0;
}

int small_jacobi_eigh(int s, double *H, double *w)
{
    double *V = calloc((size_t)s * s, sizeof *V);
    if (!V) return lobpcg_fail("jacobi: out of host memory for %d x %d eigenvectors", s, s);
    for (int i = 0; i < s; i++) V[i + i * s] = 1.0;
    double total = 0;
    for (int i = 0; i < s * s; i++) total += H[i] * H[i];
    if (!isfinite(total)) {
        free(V);
        return lobpcg_fail("jacobi: the %d x %d projected matrix holds NaN or Inf", s, s);
    }
    int converged = 0;
    for (int sweep = 0; sweep < 100 && !converged; sweep++) {
        double off = 0;
        for (int q = 0; q < s; q++)
            for (int p = 0; p < q; p++) off += H[p + q * s] * H[p + q * s];
        if (off <= 1e-32 * total) {
            converged = 1;
            break;
        }
        for (int q = 1; q < s; q++)
            for (int p = 0; p < q; p++) {
                double apq = H[p + q * s];
                if (apq == 0.0) continue;
                double theta = (H[q + q * s] - H[p + p * s]) / (2.0 * apq);
                double t = (theta >= 0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
                double c = 1.0 / sqrt(t * t + 1.0);
                rotate(s, H, V, p, q, c, t * c);
            }
    }
    if (!converged) {
        free(V);
        return lobpcg_fail("jacobi: no convergence in 100 sweeps on a %d x %d matrix", s, s);
    }
    for (int i = 0; i < s; i++) w[i] = H[i + i * s];
    memcpy(H, V, (size_t)s * s * sizeof *H);
    free(V);
    small_sort_eigenpairs(s, w, H);
    return 0;
}
