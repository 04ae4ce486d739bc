/* csr_gpu.h: a CSR matrix in device memory (the same arrays as tcspmm_csr):
 * what a plan with a GPU validates, builds HRPB from, and hands to the
 * cuSPARSE path. */
#ifndef TCSPMM_CSR_GPU_H
#define TCSPMM_CSR_GPU_H

#include "tcspmm.h"
#include "format/sparse24.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct csr_gpu {
    int64_t rows, cols, nnz;
    int64_t *row_ptr; /* rows + 1, device */
    int32_t *col_idx; /* nnz, device */
    float *values;    /* nnz, device */
} csr_gpu;

/* Whether a matrix of these sizes can live as a csr_gpu: the device build
 * and checks count rows and entries in int32. */
static inline int csr_gpu_fits(int64_t rows, int64_t nnz)
{
    return rows >= 0 && rows < INT32_MAX && nnz >= 0 && nnz < INT32_MAX;
}

/* The checks of a caller's CSR in device memory before anything reads it,
 * fn naming the caller and host_fn what to call for host arrays: sizes
 * (none negative, no NULL array, cols below 2^31, csr_gpu_fits), and, on a
 * device, that its arrays are device memory. */
tcspmm_status csr_gpu_check_caller_sizes(const tcspmm_csr *dA, const char *fn, const char *host_fn);
tcspmm_status csr_gpu_check_caller_arrays(const tcspmm_csr *dA, const char *fn, const char *host_fn);

/* The bytes csr_gpu_upload sends for A (no values for a pattern); large
 * uploads go through staging buffers (host_upload_staged). */
static inline size_t csr_gpu_upload_bytes(const tcspmm_csr *A)
{
    return ((size_t)A->rows + 1) * sizeof(int64_t) + (size_t)A->nnz * (A->values ? 8 : 4);
}

/* Copies a validated host CSR to the current device (only row_ptr and
 * col_idx where A->values is NULL: a pattern). */
tcspmm_status csr_gpu_upload(const tcspmm_csr *A, csr_gpu *out);

/* Copies a CSR whose arrays are in device memory (a caller's) into *out. */
tcspmm_status csr_gpu_copy(const tcspmm_csr *dA, csr_gpu *out);

/* A host copy of A (of its pattern only, values left unset, where A has no
 * values). */
tcspmm_status csr_gpu_download(const csr_gpu *A, tcspmm_csr *out);

/* The row_ptr checks of csr_validate_row_ptr on the device, with its errors
 * (src/kernels/csr_check_gpu.cu). */
tcspmm_status csr_gpu_check_row_ptr(const csr_gpu *A);

/* The entry checks of tcspmm_csr_validate (columns in range and increasing
 * in each row, finite values), with its error for the first failing row, and
 * sparse24_detect (with every_entry) into *structure, on the device
 * (src/kernels/csr_check_gpu.cu), for a CSR whose sizes and row_ptr
 * csr_validate_row_ptr has checked. */
tcspmm_status csr_gpu_check(const csr_gpu *A, int every_entry, sp24_structure *structure);

/* *first = the index of the first value of the device array
 * values[0..count) that is NaN or not below limit in magnitude (limit
 * INFINITY: the first non-finite), or -1; checked on stream, which it
 * synchronizes, with scratch (8 bytes of device memory). */
tcspmm_status csr_gpu_first_beyond(const float *values, int64_t count, float limit,
                                   unsigned long long *scratch, void *stream, int64_t *first);

/* row_of[k] = the row of entry k, for the nnz entries of a device CSR with
 * rows rows (rows and nnz below 2^31), on the legacy default stream
 * (src/kernels/csr_entry_rows_gpu.cu). */
tcspmm_status csr_gpu_entry_rows(const int64_t *row_ptr, int64_t rows, int64_t nnz,
                                 int32_t *row_of);

/* out = A with its rows in order (device array d_order: out's row i is A's
 * row d_order[i]), on the device (src/kernels/csr_permute_gpu.cu). */
tcspmm_status csr_gpu_permute_rows(const csr_gpu *A, const int64_t *d_order, csr_gpu *out);

/* Frees the device arrays and zeroes *A. */
void csr_gpu_free(csr_gpu *A);

#ifdef __cplusplus
}
#endif

#endif
