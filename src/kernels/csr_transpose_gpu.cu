/* csr_transpose_gpu.cu: tcspmm_csr_transpose_device, A^T of a CSR in device
 * memory, built on the device: the same arrays tcspmm_csr_transpose
 * (src/format/csr_transpose.c) gives on the host.
 *
 * A stable radix sort of A's entries by column (cub), each carrying its
 * index, keeps every column's entries in row order, as a row of A^T needs.
 *   csr_gpu_entry_rows: the row of each entry (src/kernels/csr_entry_rows_gpu.cu).
 *   count_cols: thread k counts entry k in its column (atomicAdd); an
 *     exclusive sum of the counts is A^T's row_ptr.
 *   gather_entries: thread j writes entry j of A^T: the row and value of
 *     the j-th entry in column order (whose index in A the caller may keep:
 *     source). */
#include <cuda_runtime.h>
#include <cub/device/device_radix_sort.cuh>
#include <string.h>

#include "../call_scope.h"
#include "../csr_gpu.h"
#include "../device_copy.h"
#include "../error.h"
#include "device_scan.h"

enum { THREADS = 256 };

static unsigned grid_for(int64_t items) { return (unsigned)((items + THREADS - 1) / THREADS); }

__global__ static void count_cols(const int32_t *__restrict__ col_idx, int64_t nnz,
                                  int64_t *__restrict__ counts)
{
    const int64_t k = (int64_t)blockIdx.x * THREADS + threadIdx.x;
    if (k < nnz) atomicAdd((unsigned long long *)&counts[col_idx[k]], 1ull);
}

__global__ static void iota(int32_t *__restrict__ x, int64_t n)
{
    const int64_t k = (int64_t)blockIdx.x * THREADS + threadIdx.x;
    if (k < n) x[k] = (int32_t)k;
}

__global__ static void gather_entries(const int32_t *__restrict__ order,
                                      const int32_t *__restrict__ row_of,
                                      const float *__restrict__ values, int64_t nnz,
                                      int32_t *__restrict__ out_col, float *__restrict__ out_val)
{
    const int64_t j = (int64_t)blockIdx.x * THREADS + threadIdx.x;
    if (j >= nnz) return;
    out_col[j] = row_of[order[j]];
    out_val[j] = values[order[j]];
}

/* The temporaries of one transpose (sorted_cols: the sort's keys out, which
 * it needs; row_ptr comes from the counts). */
struct transpose_scratch {
    int32_t *row_of, *index, *order, *sorted_cols;
    int64_t *counts;
    void *temp; /* the sort's */
};

/* out's row_ptr from the column counts of A. */
static tcspmm_status transposed_row_ptr(const tcspmm_csr *A, transpose_scratch *s, tcspmm_csr *out)
{
    const size_t count_bytes = ((size_t)A->cols + 1) * sizeof(int64_t);
    TCSPMM_TRY(device_alloc((void **)&s->counts, count_bytes));
    TCSPMM_TRY(TCSPMM_CUDA(cudaMemset(s->counts, 0, count_bytes)));
    if (A->nnz > 0) {
        count_cols<<<grid_for(A->nnz), THREADS>>>(A->col_idx, A->nnz, s->counts);
        TCSPMM_TRY(TCSPMM_CUDA(cudaGetLastError()));
    }
    return device_exclusive_sum_i64(s->counts, out->row_ptr, A->cols + 1);
}

/* out's col_idx and values: A's entries sorted stably by column; their
 * order (A's index of each entry of A^T) goes to source where it is given. */
static tcspmm_status transposed_entries(const tcspmm_csr *A, transpose_scratch *s, tcspmm_csr *out,
                                        int32_t *source)
{
    const int64_t nnz = A->nnz;
    TCSPMM_TRY(device_alloc((void **)&s->row_of, (size_t)nnz * sizeof(int32_t)));
    TCSPMM_TRY(device_alloc((void **)&s->index, (size_t)nnz * sizeof(int32_t)));
    if (!source) TCSPMM_TRY(device_alloc((void **)&s->order, (size_t)nnz * sizeof(int32_t)));
    int32_t *order = source ? source : s->order;
    TCSPMM_TRY(device_alloc((void **)&s->sorted_cols, (size_t)nnz * sizeof(int32_t)));
    TCSPMM_TRY(csr_gpu_entry_rows(A->row_ptr, A->rows, nnz, s->row_of));
    iota<<<grid_for(nnz), THREADS>>>(s->index, nnz);
    TCSPMM_TRY(TCSPMM_CUDA(cudaGetLastError()));
    int end_bit = 1;
    while (end_bit < 31 && ((int64_t)1 << end_bit) < A->cols) end_bit++;
    size_t need = 0;
    TCSPMM_TRY(TCSPMM_CUDA(cub::DeviceRadixSort::SortPairs(NULL, need, A->col_idx, s->sorted_cols,
                                                          s->index, order, (int)nnz, 0, end_bit)));
    TCSPMM_TRY(device_alloc_cub_temp(&s->temp, need));
    TCSPMM_TRY(TCSPMM_CUDA(cub::DeviceRadixSort::SortPairs(s->temp, need, A->col_idx,
                                                          s->sorted_cols, s->index, order,
                                                          (int)nnz, 0, end_bit)));
    gather_entries<<<grid_for(nnz), THREADS>>>(order, s->row_of, A->values, nnz, out->col_idx,
                                               out->values);
    return TCSPMM_CUDA(cudaGetLastError());
}

static tcspmm_status transpose(const tcspmm_csr *A, transpose_scratch *s, tcspmm_csr *out,
                               int32_t *source)
{
    TCSPMM_TRY(device_alloc((void **)&out->row_ptr, ((size_t)A->cols + 1) * sizeof(int64_t)));
    TCSPMM_TRY(device_alloc((void **)&out->col_idx, (size_t)A->nnz * sizeof(int32_t)));
    TCSPMM_TRY(device_alloc((void **)&out->values, (size_t)A->nnz * sizeof(float)));
    TCSPMM_TRY(transposed_row_ptr(A, s, out));
    if (A->nnz > 0) TCSPMM_TRY(transposed_entries(A, s, out, source));
    return TCSPMM_CUDA(cudaDeviceSynchronize());
}

extern "C" tcspmm_status tcspmm_csr_transpose_device(const tcspmm_csr *A, tcspmm_csr *out,
                                                     int32_t *source)
{
    tcspmm_clear_error();
    if (!A || !out)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "tcspmm_csr_transpose_device: A or out is NULL");
    if (out == A)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "tcspmm_csr_transpose_device: out must not be A");
    memset(out, 0, sizeof *out);
    const char *fn = "tcspmm_csr_transpose_device", *host_fn = "tcspmm_csr_transpose";
    TCSPMM_TRY(csr_gpu_check_caller_sizes(A, fn, host_fn));
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        cudaGetLastError();
        return tcspmm_fail(TCSPMM_ERROR_NO_DEVICE, "%s: no CUDA device", fn);
    }
    TCSPMM_TRY(call_scope_check_pending(fn));
    TCSPMM_TRY(csr_gpu_check_caller_arrays(A, fn, host_fn));
    if (source && A->nnz > 0)
        TCSPMM_TRY(check_device_pointer(source, "tcspmm_csr_transpose_device: source",
                                        "it must be a device array of nnz entries"));
    const csr_gpu view = {A->rows, A->cols, A->nnz, A->row_ptr, A->col_idx, A->values};
    TCSPMM_TRY(csr_gpu_check_row_ptr(&view));
    sp24_structure structure;
    TCSPMM_TRY(csr_gpu_check(&view, 0, &structure));
    out->rows = A->cols;
    out->cols = A->rows;
    out->nnz = A->nnz;
    transpose_scratch s = {};
    tcspmm_status st = transpose(A, &s, out, source);
    cudaFree(s.row_of);
    cudaFree(s.index);
    cudaFree(s.order);
    cudaFree(s.sorted_cols);
    cudaFree(s.counts);
    cudaFree(s.temp);
    if (st) tcspmm_csr_free_device(out);
    return st;
}
