/* sparse24_gen.h: structured test matrices: random dense values in [-1, 1]
 * pruned by magnitude to 2:4 (the 2 largest of each aligned group of 4) or
 * 1:2 (the larger of each pair), then each kept entry dropped with
 * probability `drop` (so groups with 1 or 0 entries occur), and rows with
 * i % 7 == 3 left empty. Seeded and the same for any OpenMP thread count.
 * Used by the sparse24 tests and tools/sp24_bench.c. */
#ifndef TCSPMM_SPARSE24_GEN_H
#define TCSPMM_SPARSE24_GEN_H

#include "format/sparse24.h"

#ifdef __cplusplus
extern "C" {
#endif

tcspmm_status sp24_gen(int64_t rows, int64_t cols, sp24_structure structure, double drop,
                       uint64_t seed, tcspmm_csr *out);

#ifdef __cplusplus
}
#endif

#endif
