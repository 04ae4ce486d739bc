/* coo_to_csr.c: builds the reader's CSR from parsed entries, in parallel and
 * deterministically.
 *
 * When the rows are few for the entries (threads x rows counters at most one
 * per entry), one stable counting sort by row puts the entries straight into
 * the output (counting_sort_by_row); for a file in column-major order (most
 * of SuiteSparse) its rows come out already sorted by column. Otherwise
 * coordinate entries go through two stable counting sorts. First each COO
 * part (one chunk of the file, in file order) is scattered into row buckets
 * (2^shift consecutive rows each; a part's entries keep their order, parts
 * follow file order), mirrored entries of symmetric files included. Then
 * each bucket, owned by one thread, is counting-sorted by row into the
 * output arrays; its rows are sorted by column (stable), duplicates summed
 * in file order in double, and the bucket compacted. Buckets are small
 * enough for the second scatter to stay in cache. Row counts live in the
 * output row_ptr, each bucket touching only its own rows. Array files become
 * a dense CSR directly. */
#include "mtx.h"

#include "../error.h"
#include "csr.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* Stable merge sort of (col, val) pairs by col, with scratch of n pairs. */
static void merge_sort_row(int32_t *col, float *val, int64_t n, int32_t *tcol, float *tval)
{
    for (int64_t width = 1; width < n; width *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * width) {
            int64_t mid = lo + width < n ? lo + width : n;
            int64_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            int64_t a = lo, b = mid, k = lo;
            while (a < mid && b < hi) {
                int take_b = col[b] < col[a];
                int64_t from = take_b ? b++ : a++;
                tcol[k] = col[from];
                tval[k++] = val[from];
            }
            for (; a < mid; a++, k++) tcol[k] = col[a], tval[k] = val[a];
            for (; b < hi; b++, k++) tcol[k] = col[b], tval[k] = val[b];
        }
        memcpy(col, tcol, (size_t)n * sizeof *col);
        memcpy(val, tval, (size_t)n * sizeof *val);
    }
}

/* Sorts one row by column (stable). Returns 0 when the scratch could not be
 * allocated. */
static int sort_row(int32_t *col, float *val, int64_t n, int32_t **tcol, float **tval,
                    int64_t *tcap)
{
    if (n <= 32) {
        for (int64_t k = 1; k < n; k++) {
            int32_t c = col[k];
            float v = val[k];
            int64_t m = k;
            for (; m > 0 && col[m - 1] > c; m--) col[m] = col[m - 1], val[m] = val[m - 1];
            col[m] = c;
            val[m] = v;
        }
        return 1;
    }
    if (n > *tcap) {
        int32_t *c = realloc(*tcol, (size_t)n * sizeof *c);
        if (c) *tcol = c;
        float *v = realloc(*tval, (size_t)n * sizeof *v);
        if (v) *tval = v;
        if (!c || !v) return 0;
        *tcap = n;
    }
    merge_sort_row(col, val, n, *tcol, *tval);
    return 1;
}

/* Sums runs of equal columns of a sorted row, writing the result at
 * (ocol, oval) (which may equal or precede col, val); returns its length. */
static int64_t sum_duplicates(const int32_t *col, const float *val, int64_t n, int32_t *ocol,
                              float *oval)
{
    int64_t out = 0;
    for (int64_t k = 0; k < n;) {
        int32_t c = col[k];
        double sum = val[k++];
        int summed = 0;
        for (; k < n && col[k] == c; k++, summed = 1) sum += val[k];
        ocol[out] = c;
        oval[out++] = summed ? (float)sum : val[k - 1];
    }
    return out;
}

/* The CSR in one stable counting sort by row, for matrices with few rows per
 * entry: each group of consecutive parts counts its rows, the counts of all
 * groups give every (group, row) its place, and each group scatters its
 * parts' entries (mirrored ones included) straight into the output, file
 * order kept within each row. Then rows are sorted and summed in place and,
 * if duplicates shrank them, packed. Needs groups * rows counters. */
static tcspmm_status counting_sort_by_row(int64_t rows, mtx_symmetry symmetry, coo_parts *all,
                                          int groups, int threads, tcspmm_csr *out)
{
    coo_part *parts = all->part;
    const int nparts = all->n;
    const int mirror = symmetry != MTX_GENERAL;
    const float mirror_sign = symmetry == MTX_SKEW_SYMMETRIC ? -1.0f : 1.0f;
    int64_t *next = calloc((size_t)groups * (size_t)rows, sizeof *next);
    int32_t *col = NULL;
    float *val = NULL;
    if (!next) return TCSPMM_ERROR_HOST_OUT_OF_MEMORY;
#pragma omp parallel for schedule(static, 1) num_threads(threads)
    for (int g = 0; g < groups; g++) {
        int64_t *hist = next + (size_t)g * (size_t)rows;
        for (int k = g * nparts / groups; k < (g + 1) * nparts / groups; k++) {
            const coo_part *p = &parts[k];
            for (int64_t e = 0; e < p->count; e++) {
                hist[p->row[e]]++;
                if (mirror && p->row[e] != p->col[e]) hist[p->col[e]]++;
            }
        }
    }
    /* Places: each thread sums the counts of a block of rows, the blocks'
     * sums are added up, and each thread lays out its block. */
    int64_t *row_ptr = out->row_ptr;
    int64_t *block_start = calloc((size_t)threads + 1, sizeof *block_start);
    if (!block_start) goto out_of_memory;
#pragma omp parallel num_threads(threads)
    {
        const int t = omp_get_thread_num(), nt = omp_get_num_threads();
        const int64_t lo = rows * t / nt, hi = rows * (t + 1) / nt;
        int64_t at = 0;
        for (int64_t r = lo; r < hi; r++)
            for (int g = 0; g < groups; g++) at += next[(size_t)g * (size_t)rows + (size_t)r];
        block_start[t + 1] = at;
#pragma omp barrier
#pragma omp single
        for (int k = 0; k < nt; k++) block_start[k + 1] += block_start[k];
        at = block_start[t];
        for (int64_t r = lo; r < hi; r++) {
            row_ptr[r] = at;
            for (int g = 0; g < groups; g++) {
                int64_t c = next[(size_t)g * (size_t)rows + (size_t)r];
                next[(size_t)g * (size_t)rows + (size_t)r] = at;
                at += c;
            }
        }
        if (t == nt - 1) row_ptr[rows] = at;
    }
    const int64_t total = row_ptr[rows];
    free(block_start);
    if ((uint64_t)total > SIZE_MAX / 8) goto out_of_memory;
    col = large_alloc((size_t)total * sizeof *col);
    val = large_alloc((size_t)total * sizeof *val);
    if (!col || !val) goto out_of_memory;
#pragma omp parallel for schedule(static, 1) num_threads(threads)
    for (int g = 0; g < groups; g++) {
        int64_t *at = next + (size_t)g * (size_t)rows;
        for (int k = g * nparts / groups; k < (g + 1) * nparts / groups; k++) {
            coo_part *p = &parts[k];
            for (int64_t e = 0; e < p->count; e++) {
                int64_t r = p->row[e], where = at[r]++;
                int32_t c = p->col[e];
                col[where] = c;
                val[where] = p->val[e];
                if (mirror && r != c) {
                    where = at[c]++;
                    col[where] = (int32_t)r;
                    val[where] = mirror_sign * p->val[e];
                }
            }
        }
    }
    coo_parts_free(all);
    /* Rows by column, duplicates summed; row r keeps next[r] entries. */
    int failed = 0;
    int64_t nnz = 0;
#pragma omp parallel num_threads(threads) reduction(| : failed) reduction(+ : nnz)
    {
        int32_t *tcol = NULL;
        float *tval = NULL;
        int64_t tcap = 0;
#pragma omp for schedule(dynamic, 4096)
        for (int64_t r = 0; r < rows; r++) {
            int64_t n = row_ptr[r + 1] - row_ptr[r], k = 1;
            int32_t *rc = col + row_ptr[r];
            float *rv = val + row_ptr[r];
            while (k < n && rc[k - 1] < rc[k]) k++;
            if (k < n) {
                if (!sort_row(rc, rv, n, &tcol, &tval, &tcap)) failed = 1;
                n = sum_duplicates(rc, rv, n, rc, rv);
            }
            next[r] = n;
            nnz += n;
        }
        free(tcol);
        free(tval);
    }
    if (failed) goto out_of_memory;
    if (nnz != total) { /* pack the shrunk rows */
        int32_t *packed_col = large_alloc((size_t)nnz * sizeof *packed_col);
        float *packed_val = large_alloc((size_t)nnz * sizeof *packed_val);
        if (!packed_col || !packed_val) {
            free(packed_col), free(packed_val);
            goto out_of_memory;
        }
        int64_t *packed_ptr = malloc(((size_t)rows + 1) * sizeof *packed_ptr);
        if (!packed_ptr) {
            free(packed_col), free(packed_val);
            goto out_of_memory;
        }
        for (int64_t r = 0, at = 0; r <= rows; r++) {
            packed_ptr[r] = at;
            if (r < rows) at += next[r];
        }
#pragma omp parallel for schedule(dynamic, 4096) num_threads(threads)
        for (int64_t r = 0; r < rows; r++) {
            memcpy(packed_col + packed_ptr[r], col + row_ptr[r], (size_t)next[r] * sizeof *col);
            memcpy(packed_val + packed_ptr[r], val + row_ptr[r], (size_t)next[r] * sizeof *val);
        }
        memcpy(row_ptr, packed_ptr, ((size_t)rows + 1) * sizeof *row_ptr);
        free(packed_ptr);
        free(col), free(val);
        col = packed_col, val = packed_val;
    }
    free(next);
    free(out->col_idx), free(out->values);
    out->col_idx = col, out->values = val, out->nnz = nnz;
    return TCSPMM_SUCCESS;

out_of_memory:
    free(next), free(col), free(val);
    return TCSPMM_ERROR_HOST_OUT_OF_MEMORY;
}

tcspmm_status coo_to_csr(int64_t rows, int64_t cols, mtx_symmetry symmetry, coo_parts *all,
                         int threads, tcspmm_csr *out)
{
    coo_part *parts = all->part;
    const int nparts = all->n;
    TCSPMM_TRY(csr_alloc(rows, cols, 0, out));
    const int mirror = symmetry != MTX_GENERAL;
    const float mirror_sign = symmetry == MTX_SKEW_SYMMETRIC ? -1.0f : 1.0f;
    int64_t stored = 0;
    for (int k = 0; k < nparts; k++) stored += parts[k].count;
    if (rows == 0 || stored == 0) return TCSPMM_SUCCESS;

    const int groups = threads < nparts ? threads : nparts;
    if ((uint64_t)groups * (uint64_t)rows <= (uint64_t)stored) {
        tcspmm_status st = counting_sort_by_row(rows, symmetry, all, groups, threads, out);
        if (st == TCSPMM_SUCCESS) return st;
        tcspmm_csr_free(out);
        return tcspmm_fail(st, "coo_to_csr: out of memory for a %lld x %lld matrix with %lld "
                               "stored entries",
                           (long long)rows, (long long)cols, (long long)stored);
    }

    /* Bucket geometry: about 16K entries per bucket, at least 4 per thread. */
    int64_t target = stored >> 14;
    if (target < 4 * (int64_t)threads) target = 4 * (int64_t)threads;
    if (target > (1 << 16)) target = 1 << 16;
    int shift = 0;
    while (shift < 31 && ((rows - 1) >> shift) + 1 > target) shift++;
    const int64_t nb = ((rows - 1) >> shift) + 1, low_bits = ((int64_t)1 << shift) - 1;

    tcspmm_status st = TCSPMM_SUCCESS;
    int64_t *cursor = calloc((size_t)nparts * (size_t)nb, sizeof *cursor);
    int64_t *bucket_start = malloc(((size_t)nb + 1) * sizeof *bucket_start);
    int64_t *bucket_unique = malloc((size_t)nb * sizeof *bucket_unique);
    uint32_t *prow = NULL; /* row within its bucket */
    int32_t *pcol = NULL, *qcol = NULL;
    float *pval = NULL, *qval = NULL;
    if (!cursor || !bucket_start || !bucket_unique) goto out_of_memory;

#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (int k = 0; k < nparts; k++) {
        int64_t *hist = cursor + (size_t)k * (size_t)nb;
        const coo_part *p = &parts[k];
        for (int64_t e = 0; e < p->count; e++) {
            hist[p->row[e] >> shift]++;
            if (mirror && p->row[e] != p->col[e]) hist[(int64_t)p->col[e] >> shift]++;
        }
    }
    int64_t total = 0; /* entries after mirroring */
    for (int64_t b = 0; b < nb; b++) {
        bucket_start[b] = total;
        for (int k = 0; k < nparts; k++) {
            int64_t c = cursor[(size_t)k * (size_t)nb + b];
            cursor[(size_t)k * (size_t)nb + b] = total;
            total += c;
        }
    }
    bucket_start[nb] = total;
    if ((uint64_t)total > SIZE_MAX / 16) {
        st = tcspmm_fail(TCSPMM_ERROR_OVERFLOW, "coo_to_csr: %lld entries overflow memory sizes",
                         (long long)total);
        goto done;
    }
    prow = large_alloc((size_t)total * sizeof *prow);
    pcol = large_alloc((size_t)total * sizeof *pcol);
    pval = large_alloc((size_t)total * sizeof *pval);
    qcol = large_alloc((size_t)total * sizeof *qcol);
    qval = large_alloc((size_t)total * sizeof *qval);
    if (!prow || !pcol || !pval || !qcol || !qval) goto out_of_memory;

    /* First sort: parts into row buckets, each part's order kept. */
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (int k = 0; k < nparts; k++) {
        int64_t *next = cursor + (size_t)k * (size_t)nb;
        coo_part *p = &parts[k];
        for (int64_t e = 0; e < p->count; e++) {
            int64_t r = p->row[e];
            int32_t c = p->col[e];
            int64_t at = next[r >> shift]++;
            prow[at] = (uint32_t)(r & low_bits);
            pcol[at] = c;
            pval[at] = p->val[e];
            if (mirror && r != c) {
                at = next[(int64_t)c >> shift]++;
                prow[at] = (uint32_t)(c & low_bits);
                pcol[at] = (int32_t)r;
                pval[at] = mirror_sign * p->val[e];
            }
        }
    }
    coo_parts_free(all);

    /* Second sort: each bucket by row into q, then rows by column, summed. */
    int64_t *row_len = out->row_ptr; /* row r's length in row_len[r], for now */
    int failed = 0;
#pragma omp parallel num_threads(threads) reduction(| : failed)
    {
        int32_t *tcol = NULL;
        float *tval = NULL;
        int64_t tcap = 0;
#pragma omp for schedule(dynamic, 1)
        for (int64_t b = 0; b < nb; b++) {
            const int64_t lo = b << shift, hi = lo + ((int64_t)1 << shift) < rows
                                                    ? lo + ((int64_t)1 << shift)
                                                    : rows;
            const int64_t base = bucket_start[b], end = bucket_start[b + 1];
            int64_t *len_of = row_len + lo;
            for (int64_t e = base; e < end; e++) len_of[prow[e]]++;
            int64_t offset = base;
            for (int64_t r = lo; r < hi; r++) {
                int64_t len = row_len[r];
                row_len[r] = offset;
                offset += len;
            }
            for (int64_t e = base; e < end; e++) {
                int64_t at = len_of[prow[e]]++;
                qcol[at] = pcol[e];
                qval[at] = pval[e];
            }
            int64_t row_begin = base, write = base;
            for (int64_t r = lo; r < hi; r++) {
                int64_t row_end = row_len[r], n = row_end - row_begin, k = 1;
                int32_t *col = qcol + row_begin;
                float *val = qval + row_begin;
                while (k < n && col[k - 1] < col[k]) k++;
                if (k < n) { /* unsorted or duplicates */
                    if (!sort_row(col, val, n, &tcol, &tval, &tcap)) failed = 1;
                    row_len[r] = sum_duplicates(col, val, n, qcol + write, qval + write);
                } else {
                    if (write != row_begin) {
                        memmove(qcol + write, col, (size_t)n * sizeof *col);
                        memmove(qval + write, val, (size_t)n * sizeof *val);
                    }
                    row_len[r] = n;
                }
                write += row_len[r];
                row_begin = row_end;
            }
            bucket_unique[b] = write - base;
        }
        free(tcol);
        free(tval);
    }
    if (failed) goto out_of_memory;
    free(prow), free(pcol), free(pval);
    prow = NULL, pcol = NULL, pval = NULL;

    /* Row pointers, and the buckets packed together if duplicates shrank them. */
    int64_t nnz = 0;
    for (int64_t b = 0; b < nb; b++) {
        int64_t u = bucket_unique[b];
        bucket_unique[b] = nnz;
        nnz += u;
    }
    if (nnz != total) {
        int32_t *col = large_alloc((size_t)nnz * sizeof *col);
        float *val = large_alloc((size_t)nnz * sizeof *val);
        if (!col || !val) {
            free(col), free(val);
            goto out_of_memory;
        }
#pragma omp parallel for schedule(static) num_threads(threads)
        for (int64_t b = 0; b < nb; b++) {
            int64_t n = (b + 1 < nb ? bucket_unique[b + 1] : nnz) - bucket_unique[b];
            memcpy(col + bucket_unique[b], qcol + bucket_start[b], (size_t)n * sizeof *col);
            memcpy(val + bucket_unique[b], qval + bucket_start[b], (size_t)n * sizeof *val);
        }
        free(qcol), free(qval);
        qcol = col, qval = val;
    }
#pragma omp parallel for schedule(static) num_threads(threads)
    for (int64_t b = 0; b < nb; b++) {
        const int64_t lo = b << shift,
                      hi = lo + ((int64_t)1 << shift) < rows ? lo + ((int64_t)1 << shift) : rows;
        int64_t start = bucket_unique[b];
        for (int64_t r = lo; r < hi; r++) {
            int64_t len = out->row_ptr[r];
            out->row_ptr[r] = start;
            start += len;
        }
    }
    out->row_ptr[rows] = nnz;
    free(out->col_idx), free(out->values);
    out->col_idx = qcol, out->values = qval, out->nnz = nnz;
    qcol = NULL, qval = NULL;
    goto done;

out_of_memory:
    st = tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY,
                     "coo_to_csr: out of memory for a %lld x %lld matrix with %lld stored entries",
                     (long long)rows, (long long)cols, (long long)stored);
done:
    free(cursor), free(bucket_start), free(bucket_unique);
    free(prow), free(pcol), free(pval), free(qcol), free(qval);
    if (st != TCSPMM_SUCCESS) tcspmm_csr_free(out);
    return st;
}

tcspmm_status dense_to_csr(int64_t rows, int64_t cols, mtx_symmetry symmetry, const float *values,
                           int threads, tcspmm_csr *out)
{
    TCSPMM_TRY(csr_alloc(rows, cols, rows * cols, out));
    const int64_t n = rows;
#pragma omp parallel for schedule(static) num_threads(threads)
    for (int64_t i = 0; i < rows; i++) {
        out->row_ptr[i + 1] = (i + 1) * cols;
        for (int64_t j = 0; j < cols; j++) {
            int64_t lo = i > j ? j : i, hi = i > j ? i : j; /* (hi, lo) is in the lower half */
            float v;
            if (symmetry == MTX_GENERAL)
                v = values[j * rows + i];
            else if (symmetry == MTX_SYMMETRIC)
                v = values[lo * n - lo * (lo - 1) / 2 + (hi - lo)];
            else if (i == j)
                v = 0.0f;
            else
                v = (i > j ? 1.0f : -1.0f) * values[lo * (n - 1) - lo * (lo - 1) / 2 + (hi - lo - 1)];
            out->col_idx[i * cols + j] = (int32_t)j;
            out->values[i * cols + j] = v;
        }
    }
    return TCSPMM_SUCCESS;
}
