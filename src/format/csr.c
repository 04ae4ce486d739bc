/* csr.c: allocation, copy, validation and freeing of host CSR matrices. */
#include "csr.h"

#include "../error.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

int64_t csr_first_beyond(const float *values, int64_t count, float limit, int threads)
{
    int64_t first = INT64_MAX;
#pragma omp parallel for num_threads(threads > 0 ? threads : omp_get_max_threads()) \
    schedule(static) reduction(min : first)
    for (int64_t k = 0; k < count; k++)
        if (!(fabsf(values[k]) < limit) && k < first) first = k;
    return first == INT64_MAX ? -1 : first;
}

tcspmm_status csr_alloc(int64_t rows, int64_t cols, int64_t nnz, tcspmm_csr *out)
{
    memset(out, 0, sizeof *out);
    if (rows < 0 || cols < 0 || nnz < 0)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "csr: negative size (rows=%lld cols=%lld nnz=%lld)",
                           (long long)rows, (long long)cols, (long long)nnz);
    if (cols > INT32_MAX)
        return tcspmm_fail(TCSPMM_ERROR_OVERFLOW,
                           "csr: %lld columns; at most 2^31-1 are supported", (long long)cols);
    if ((uint64_t)rows + 1 > SIZE_MAX / sizeof(int64_t) ||
        (uint64_t)nnz > SIZE_MAX / (sizeof(int32_t) + sizeof(float)))
        return tcspmm_fail(TCSPMM_ERROR_OVERFLOW, "csr: sizes overflow memory sizes");
    out->rows = rows;
    out->cols = cols;
    out->nnz = nnz;
    out->row_ptr = calloc((size_t)rows + 1, sizeof(int64_t));
    out->col_idx = large_alloc((size_t)(nnz ? nnz : 1) * sizeof(int32_t));
    out->values = large_alloc((size_t)(nnz ? nnz : 1) * sizeof(float));
    if (!out->row_ptr || !out->col_idx || !out->values) {
        tcspmm_csr_free(out);
        return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY,
                           "csr: cannot allocate %lld x %lld with %lld entries",
                           (long long)rows, (long long)cols, (long long)nnz);
    }
    return TCSPMM_SUCCESS;
}

/* dst[0..bytes) = src[0..bytes), in parallel pieces: a plan copies arrays of
 * hundreds of MB, which one core copies at a fraction of memory bandwidth. */
static void parallel_copy(void *dst, const void *src, size_t bytes)
{
    const size_t piece = (size_t)1 << 22;
    int64_t pieces = (int64_t)((bytes + piece - 1) / piece);
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < pieces; i++) {
        size_t at = (size_t)i * piece, len = bytes - at < piece ? bytes - at : piece;
        memcpy((char *)dst + at, (const char *)src + at, len);
    }
}

tcspmm_status csr_copy(const tcspmm_csr *A, tcspmm_csr *out)
{
    TCSPMM_TRY(csr_alloc(A->rows, A->cols, A->nnz, out));
    parallel_copy(out->row_ptr, A->row_ptr, ((size_t)A->rows + 1) * sizeof(int64_t));
    parallel_copy(out->col_idx, A->col_idx, (size_t)A->nnz * sizeof(int32_t));
    parallel_copy(out->values, A->values, (size_t)A->nnz * sizeof(float));
    return TCSPMM_SUCCESS;
}

void tcspmm_csr_free(tcspmm_csr *A)
{
    if (!A) return;
    free(A->row_ptr);
    free(A->col_idx);
    free(A->values);
    memset(A, 0, sizeof *A);
}

tcspmm_status csr_fail_bad_row(int64_t row)
{
    return tcspmm_fail(TCSPMM_ERROR_INVALID_MATRIX,
                       "csr: row %lld has a bad row_ptr, a column index out of range, "
                       "repeated or out of order, or a NaN/Inf value",
                       (long long)row);
}

tcspmm_status csr_fail_row_ptr_ends(int64_t first, int64_t last, int64_t nnz)
{
    return tcspmm_fail(TCSPMM_ERROR_INVALID_MATRIX,
                       "csr: row_ptr[0]=%lld and row_ptr[rows]=%lld; expected 0 and nnz=%lld",
                       (long long)first, (long long)last, (long long)nnz);
}

tcspmm_status csr_validate_row_ptr(const tcspmm_csr *A)
{
    if (!A) return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "csr_validate: A is NULL");
    if (A->rows < 0 || A->cols < 0 || A->nnz < 0)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_MATRIX, "csr: negative size");
    if (A->cols > INT32_MAX)
        return tcspmm_fail(TCSPMM_ERROR_OVERFLOW, "csr: more than 2^31-1 columns");
    if (!A->row_ptr || (A->nnz > 0 && (!A->col_idx || !A->values)))
        return tcspmm_fail(TCSPMM_ERROR_INVALID_MATRIX, "csr: NULL array");
    if (A->row_ptr[0] != 0 || A->row_ptr[A->rows] != A->nnz)
        return csr_fail_row_ptr_ends(A->row_ptr[0], A->row_ptr[A->rows], A->nnz);
    int64_t bad_row = INT64_MAX;
#pragma omp parallel for schedule(static) reduction(min : bad_row)
    for (int64_t i = 0; i < A->rows; i++) {
        int64_t b = A->row_ptr[i], e = A->row_ptr[i + 1];
        if (!(b <= e && b >= 0 && e <= A->nnz) && i < bad_row) bad_row = i;
    }
    return bad_row == INT64_MAX ? TCSPMM_SUCCESS : csr_fail_bad_row(bad_row);
}

tcspmm_status tcspmm_csr_validate(const tcspmm_csr *A)
{
    tcspmm_clear_error();
    TCSPMM_TRY(csr_validate_row_ptr(A));
    int64_t bad_row = INT64_MAX; /* the first row with a bad entry */
#pragma omp parallel for schedule(static) reduction(min : bad_row)
    for (int64_t i = 0; i < A->rows; i++) {
        int64_t b = A->row_ptr[i], e = A->row_ptr[i + 1];
        int ok = 1;
        for (int64_t k = b; ok && k < e; k++) {
            ok = A->col_idx[k] >= 0 && A->col_idx[k] < A->cols && isfinite(A->values[k]) &&
                 (k == b || A->col_idx[k - 1] < A->col_idx[k]);
        }
        if (!ok && i < bad_row) bad_row = i;
    }
    return bad_row == INT64_MAX ? TCSPMM_SUCCESS : csr_fail_bad_row(bad_row);
}
