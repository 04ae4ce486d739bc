/* families.h: the seeded matrix families of spmm_gen and spmm_run's gen:SPEC
 * inputs. A spec is a family name and its parameters joined by ':', e.g.
 * "stencil3d:128:128:128:7" or "rmat:20:16:0.57:0.19:0.19:1". Every family
 * returns a sorted, duplicate-free CSR that passes tcspmm_csr_validate, and
 * the same spec gives the same bytes on any machine and any OpenMP thread
 * count. Random values are uniform in [-1, 1]. Nothing here prints or writes
 * files (the *file families and blockdiag read a matrix with tcspmm_read_mtx).
 *
 * Spec grammar (integers are plain decimals, reals are decimals or floats):
 *   stencil2d:NX:NY:P            P = 5 or 9; Dirichlet Laplacian on NX x NY
 *   stencil3d:NX:NY:NZ:P         P = 7 or 27; on NX x NY x NZ
 *   rmat:SCALE:EDGE_FACTOR:A:B:C:SEED
 *   geometric:N:R:SEED           R < 1: radius; R >= 1: the radius whose disc
 *                                holds R of the other points on average (rows
 *                                near the square's edges get fewer)
 *   banded:N:BANDWIDTH:NNZ_PER_ROW:SEED
 *   uniform:ROWS:COLS:NNZ_PER_ROW:SEED
 *   blockdiag:K:FILE_OR_SPEC     FILE_OR_SPEC is everything after K
 *   prune24:ROWS:COLS:SEED       prune12:ROWS:COLS:SEED
 *   prune24file:FILE_OR_SPEC     prune12file:FILE_OR_SPEC
 * A leading "gen:" is allowed (also before an inner spec). Specs nest at most
 * 16 levels deep, the outer one included. family_describe
 * gives each family's parameters and meaning. */
#ifndef TCSPMM_FAMILIES_H
#define TCSPMM_FAMILIES_H

#include <stdint.h>

#include "tcspmm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parses spec and builds its matrix into *out (freed with tcspmm_csr_free).
 * A bad spec fails with TCSPMM_ERROR_INVALID_ARGUMENT (or _OVERFLOW for sizes
 * that do not fit) and a message naming the part of the spec at fault. */
tcspmm_status family_generate(const char *spec, tcspmm_csr *out);

/* The families, for --help: index in 0..family_count()-1; name, params
 * ("NX:NY:P") and description point to static strings. */
int family_count(void);
void family_describe(int index, const char **name, const char **params,
                     const char **description);

/* 2D Laplacian on an nx x ny grid, row = x + nx*y. points = 5: 4 on the
 * diagonal and -1 for the 4 axis neighbours; points = 9: 8 and -1 for all 8
 * neighbours. Neighbours outside the grid are dropped (Dirichlet). */
tcspmm_status family_stencil2d(int64_t nx, int64_t ny, int points, tcspmm_csr *out);

/* 3D Laplacian on nx x ny x nz, row = x + nx*(y + ny*z). points = 7: 6 and
 * -1 for the 6 face neighbours; points = 27: 26 and -1 for all 26. */
tcspmm_status family_stencil3d(int64_t nx, int64_t ny, int64_t nz, int points,
                               tcspmm_csr *out);

/* R-MAT graph of 2^scale vertices and edge_factor * 2^scale drawn edges:
 * each edge descends scale levels, choosing a quadrant with probabilities
 * a, b, c and d = 1 - a - b - c. Duplicate edges are merged, self loops kept. */
tcspmm_status family_rmat(int scale, int64_t edge_factor, double a, double b, double c,
                          uint64_t seed, tcspmm_csr *out);

/* Random geometric graph: n points uniform in the unit square, an entry
 * (i, j), i != j, when their distance is at most radius. Rows follow the
 * points in Z order of a cell grid, so neighbours get nearby indices. The
 * values are symmetric. */
tcspmm_status family_geometric(int64_t n, double radius, uint64_t seed, tcspmm_csr *out);

/* n x n; row i holds min(nnz_per_row, window) distinct columns drawn
 * uniformly from [i - bandwidth, i + bandwidth] clipped to the matrix. */
tcspmm_status family_banded(int64_t n, int64_t bandwidth, int64_t nnz_per_row, uint64_t seed,
                            tcspmm_csr *out);

/* rows x cols; each row holds min(nnz_per_row, cols) distinct uniform columns. */
tcspmm_status family_uniform(int64_t rows, int64_t cols, int64_t nnz_per_row, uint64_t seed,
                             tcspmm_csr *out);

/* k copies of A along the diagonal: (k*rows) x (k*cols). */
tcspmm_status family_blockdiag(int64_t k, const tcspmm_csr *A, tcspmm_csr *out);

/* A random dense rows x cols matrix magnitude-pruned so that every aligned
 * group of group_size columns (4 or 2) of a row keeps its keep (2 or 1)
 * largest |values|; ties keep the lower column. A last partial group keeps
 * min(keep, its width). */
tcspmm_status family_prune_random(int64_t rows, int64_t cols, int group_size, int keep,
                                  uint64_t seed, tcspmm_csr *out);

/* The same pruning applied to the entries of A (absent entries never count). */
tcspmm_status family_prune(const tcspmm_csr *A, int group_size, int keep, tcspmm_csr *out);

#ifdef __cplusplus
}
#endif

#endif
