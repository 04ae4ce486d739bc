/* sparse24_gen.c: magnitude-pruned 2:4 / 1:2 random matrices (sparse24_gen.h). */
#include "sparse24_gen.h"

#include <math.h>
#include <stdlib.h>

#include "error.h"
#include "format/csr.h"
#include "rng.h"

/* Entries of row i, written to cols/vals when they are not NULL; the same
 * stream of random numbers every time for the same (seed, i). */
static int64_t gen_row(int64_t i, int64_t cols, int width, double drop, uint64_t seed,
                       int32_t *col_out, float *val_out)
{
    if (i % 7 == 3) return 0;
    uint64_t s = seed ^ ((uint64_t)(i + 1) * 0xD1B54A32D192ED03ull);
    int64_t count = 0;
    for (int64_t c0 = 0; c0 < cols; c0 += width) {
        float v[4];
        int keep[4] = {0, 0, 0, 0};
        for (int j = 0; j < width; j++) v[j] = (float)(2.0 * rng_uniform(&s) - 1.0);
        /* keep the width/2 largest magnitudes */
        for (int kept = 0; kept < width / 2; kept++) {
            int best = -1;
            for (int j = 0; j < width; j++)
                if (!keep[j] && (best < 0 || fabsf(v[j]) > fabsf(v[best]))) best = j;
            keep[best] = 1;
        }
        for (int j = 0; j < width; j++) {
            int stays = keep[j] && rng_uniform(&s) >= drop && v[j] != 0.0f;
            if (!stays || c0 + j >= cols) continue;
            if (col_out) col_out[count] = (int32_t)(c0 + j), val_out[count] = v[j];
            count++;
        }
    }
    return count;
}

tcspmm_status sp24_gen(int64_t rows, int64_t cols, sp24_structure structure, double drop,
                       uint64_t seed, tcspmm_csr *out)
{
    int width = structure == SP24_1TO2 ? 2 : 4;
    int64_t *counts = calloc((size_t)rows + 1, sizeof(int64_t));
    if (!counts)
        return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "sp24_gen: out of memory for %lld rows",
                           (long long)rows);
#pragma omp parallel for schedule(dynamic, 16)
    for (int64_t i = 0; i < rows; i++) counts[i + 1] = gen_row(i, cols, width, drop, seed, NULL, NULL);
    for (int64_t i = 0; i < rows; i++) counts[i + 1] += counts[i];
    tcspmm_status st = csr_alloc(rows, cols, counts[rows], out);
    if (st == TCSPMM_SUCCESS) {
        for (int64_t i = 0; i <= rows; i++) out->row_ptr[i] = counts[i];
#pragma omp parallel for schedule(dynamic, 16)
        for (int64_t i = 0; i < rows; i++)
            gen_row(i, cols, width, drop, seed, out->col_idx + counts[i], out->values + counts[i]);
    }
    free(counts);
    return st;
}
