/* small.h: host routines on the small dense matrices of Rayleigh-Ritz (at
 * most the basis width, 3 x block, squared), column-major, in double. */
#ifndef LOBPCG_SMALL_H
#define LOBPCG_SMALL_H

/* Given the Gram matrix G = S^T S of an s-column basis S, finds T (s x kept,
 * column-major, ld s) such that S T has orthonormal columns: the columns of S
 * are scaled to unit norm, then a Cholesky factorization in column order
 * drops every column whose part orthogonal to the kept earlier columns has a
 * squared relative norm (its pivot) at or below drop. keep[j] says whether
 * column j was kept; *min_pivot is the smallest kept pivot (1 means the
 * columns were orthonormal already). Fails on a NaN or Inf in G. */
int small_orthonormalizer(int s, const double *G, double drop, double *T, int *keep, int *kept,
                          double *min_pivot);

/* Eigen-decomposition of the symmetric s x s matrix H by cyclic Jacobi
 * rotations: on return w holds the eigenvalues in ascending order and H the
 * orthonormal eigenvectors, column j for w[j]. */
int small_jacobi_eigh(int s, double *H, double *w);

/* H = (H + H^T) / 2. */
void small_symmetrize(int s, double *H);

/* Sorts the eigenpairs (w, columns of V, s rows each) by ascending w. */
void small_sort_eigenpairs(int s, double *w, double *V);

#endif
