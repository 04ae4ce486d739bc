/* matgen.h: small deterministic CSR builders for the tests. Every builder is
 * seeded (src/rng.h), gives values uniform in [-1, 1] (never constant), and
 * returns a CSR that passes tcspmm_csr_validate; free it with
 * tcspmm_csr_free. matgen_case enumerates the edge cases every format and
 * kernel test should loop over. Building costs O(rows * cols): for test
 * sizes only. */
#ifndef TCSPMM_MATGEN_H
#define TCSPMM_MATGEN_H

#include <stdint.h>

#include "tcspmm.h"

/* Each entry present with probability density. */
tcspmm_status matgen_random(int64_t rows, int64_t cols, double density, uint64_t seed,
                            tcspmm_csr *out);

/* Random, but rows i with i % 3 == 1 and the whole second 16-row panel
 * (rows 16..31) are empty. */
tcspmm_status matgen_empty_rows(int64_t rows, int64_t cols, double density, uint64_t seed,
                                tcspmm_csr *out);

/* Random, but columns j with j % 5 == 2 and the last 7 columns are empty. */
tcspmm_status matgen_empty_cols(int64_t rows, int64_t cols, double density, uint64_t seed,
                                tcspmm_csr *out);

/* Random, plus row dense_row holding all cols entries. */
tcspmm_status matgen_dense_row(int64_t rows, int64_t cols, int64_t dense_row, double density,
                               uint64_t seed, tcspmm_csr *out);

/* Random in rows 0..4 and the last 5 rows (rows >= 16), row 5 holding all
 * cols entries, and every row between empty: a row long enough to span
 * many chunks of entries (src/kernels/csr_chunks.h), then a run of empty
 * rows longer than a warp's first probe. */
tcspmm_status matgen_long_row_gap(int64_t rows, int64_t cols, double density, uint64_t seed,
                                  tcspmm_csr *out);

/* Random, plus a fully dense 16 x 16 block with top-left corner (r0, c0)
 * (clipped at the matrix edge). */
tcspmm_status matgen_dense_block(int64_t rows, int64_t cols, int64_t r0, int64_t c0,
                                 double density, uint64_t seed, tcspmm_csr *out);

/* A single non-zero at (i, j). */
tcspmm_status matgen_single(int64_t rows, int64_t cols, int64_t i, int64_t j, uint64_t seed,
                            tcspmm_csr *out);

/* Random with density, except rows [heavy_row0, heavy_row0 + heavy_rows)
 * which have density heavy_density: one very heavy row panel. */
tcspmm_status matgen_heavy_panel(int64_t rows, int64_t cols, double density, int64_t heavy_row0,
                                 int64_t heavy_rows, double heavy_density, uint64_t seed,
                                 tcspmm_csr *out);

/* The edge cases: empty rows and panels, empty columns, a dense row, dense
 * 16x16 blocks (aligned and not), a single non-zero, rectangular shapes,
 * sizes not multiples of 16 or 4, one heavy panel, no entries at all, 1x1.
 * index runs over 0..matgen_num_cases()-1; *name describes the case. */
int matgen_num_cases(void);
tcspmm_status matgen_case(int index, uint64_t seed, tcspmm_csr *out, const char **name);

/* check(A, name) on every edge case, case c made with seed + c (a failure
 * to make one is a failed check of the harness). */
void matgen_each_case(uint64_t seed, void (*check)(const tcspmm_csr *A, const char *name));

#endif
