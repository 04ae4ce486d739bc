/* sparse24_detect.c: finds whether a CSR matrix is 1:2, 2:4 or neither
 * (sparse24.h defines them), counting entries whose value is not zero, or
 * every entry. */
#include "sparse24.h"

static double entry_sum(const tcspmm_csr *A, int64_t *k, int64_t end)
{
    int32_t col = A->col_idx[*k];
    double sum = 0.0;
    while (*k < end && A->col_idx[*k] == col) sum += A->values[(*k)++];
    return sum;
}

/* The structure of row i: 1:2, 2:4 or none. */
static sp24_structure row_structure(const tcspmm_csr *A, int64_t i, int every_entry)
{
    sp24_structure s = SP24_1TO2;
    int64_t group = -1, pair = -1;
    int in_group = 0, in_pair = 0;
    int64_t k = A->row_ptr[i], end = A->row_ptr[i + 1];
    while (k < end) {
        int64_t col = A->col_idx[k];
        if (entry_sum(A, &k, end) == 0.0 && !every_entry) continue;
        if (col / 4 != group) group = col / 4, in_group = 0;
        if (col / 2 != pair) pair = col / 2, in_pair = 0;
        if (++in_group > 2) return SP24_NONE;
        if (++in_pair > 1) s = SP24_2TO4;
    }
    return s;
}

sp24_structure sparse24_detect(const tcspmm_csr *A, int every_entry)
{
    int weakest = SP24_1TO2;
#pragma omp parallel for schedule(dynamic, 256) reduction(min : weakest)
    for (int64_t i = 0; i < A->rows; i++) {
        int s = (int)row_structure(A, i, every_entry);
        if (s < weakest) weakest = s;
    }
    return (sp24_structure)weakest;
}

const char *sparse24_structure_name(sp24_structure s)
{
    switch (s) {
    case SP24_2TO4: return "2:4";
    case SP24_1TO2: return "1:2";
    case SP24_NONE: break;
    }
    return "none";
}
