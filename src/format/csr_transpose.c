/* csr_transpose.c: tcspmm_csr_transpose, A^T as a new CSR on the host, for
 * products with the transpose (a GNN's backward pass multiplies by A^T: a
 * second plan, made from A^T once).
 *
 * A counting sort by column, in parallel and stable: A's rows are cut into
 * parts, each part counts its entries per column, a prefix sum over
 * (column, part) gives each part its own run inside each row of A^T, and
 * each part then scatters its rows in order. So every row of A^T lists A's
 * rows in increasing order, as a CSR must. The counts take parts x cols
 * entries, so there are at most nnz / cols parts (and at least one). */
#include "csr.h"

#include "../error.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* The first row of part p of rows cut into parts parts. */
static int64_t part_start(int64_t rows, int64_t parts, int64_t p)
{
    return (int64_t)((double)rows * p / parts);
}

tcspmm_status tcspmm_csr_transpose(const tcspmm_csr *A, tcspmm_csr *out)
{
    tcspmm_clear_error();
    if (!A || !out)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "tcspmm_csr_transpose: A or out is NULL");
    if (out == A)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "tcspmm_csr_transpose: out must not be A");
    memset(out, 0, sizeof *out);
    TCSPMM_TRY(tcspmm_csr_validate(A));
    if (A->rows > INT32_MAX)
        return tcspmm_fail(TCSPMM_ERROR_OVERFLOW,
                           "tcspmm_csr_transpose: A has %lld rows; A^T's column indices are "
                           "32-bit (at most 2^31-1)", (long long)A->rows);
    TCSPMM_TRY(csr_alloc(A->cols, A->rows, A->nnz, out));
    const int64_t cols = A->cols, by_memory = cols > 0 ? A->nnz / cols : 1;
    int64_t parts = omp_get_max_threads();
    if (parts > by_memory) parts = by_memory;
    if (parts < 1) parts = 1;
    int64_t *next = calloc((size_t)(parts * cols + 1), sizeof(int64_t)); /* [part][col] */
    if (!next) {
        tcspmm_csr_free(out);
        return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY,
                           "tcspmm_csr_transpose: cannot allocate %lld counts",
                           (long long)(parts * cols));
    }
#pragma omp parallel for schedule(static, 1) num_threads((int)parts)
    for (int64_t p = 0; p < parts; p++) {
        int64_t *count = next + p * cols;
        const int64_t r1 = part_start(A->rows, parts, p + 1);
        for (int64_t k = A->row_ptr[part_start(A->rows, parts, p)]; k < A->row_ptr[r1]; k++)
            count[A->col_idx[k]]++;
    }
#pragma omp parallel for schedule(static)
    for (int64_t j = 0; j < cols; j++) { /* row j of A^T's length, for now */
        int64_t length = 0;
        for (int64_t p = 0; p < parts; p++) length += next[p * cols + j];
        out->row_ptr[j + 1] = length;
    }
    for (int64_t j = 0; j < cols; j++) out->row_ptr[j + 1] += out->row_ptr[j];
#pragma omp parallel for schedule(static)
    for (int64_t j = 0; j < cols; j++) { /* each part's first slot in row j */
        int64_t at = out->row_ptr[j];
        for (int64_t p = 0; p < parts; p++) {
            const int64_t c = next[p * cols + j];
            next[p * cols + j] = at;
            at += c;
        }
    }
#pragma omp parallel for schedule(static, 1) num_threads((int)parts)
    for (int64_t p = 0; p < parts; p++) {
        int64_t *slot = next + p * cols;
        const int64_t r1 = part_start(A->rows, parts, p + 1);
        for (int64_t i = part_start(A->rows, parts, p); i < r1; i++)
            for (int64_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
                const int64_t to = slot[A->col_idx[k]]++;
                out->col_idx[to] = (int32_t)i;
                out->values[to] = A->values[k];
            }
    }
    free(next);
    return TCSPMM_SUCCESS;
}
