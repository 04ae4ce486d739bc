/* sp24_values_gpu.cu: the values of a compressed 2:4 / 1:2 matrix on the
 * device entry by entry, for plans whose matrix changes its values but not
 * its pattern: new values (sp24_gpu_set_values) and the values it holds
 * (sp24_gpu_download_entries). Such a matrix was compressed counting every
 * entry (sp24_compress with every_entry), so each entry has a slot of its
 * own, which follows from its column and its neighbours' (sp24_entry_slot).
 * The metadata and the zero fill slots never change.
 *
 * scatter_values: warp w owns row w of A; its lanes take the row's entries
 *   32 apart, round each new value to the element type and store it in its
 *   slot of the compressed row. */
#include <cuda_runtime.h>
#include <stdlib.h>

#include "../error.h"
#include "c_store.h"
#include "sp24_gpu_internal.h"

enum { THREADS = 256, WARPS = THREADS / 32 };

template <typename T> __device__ __forceinline__ void store_rounded(T *p, float x) { *p = from_float<T>(x); }
__device__ __forceinline__ void store_rounded(float *p, float x) { *p = sp24_tf32_rna(x); }

template <typename T>
__global__ static void scatter_values(const int64_t *__restrict__ row_ptr,
                                      const int32_t *__restrict__ col_idx,
                                      const float *__restrict__ values, int64_t rows,
                                      int64_t row_slots, T *__restrict__ out)
{
    const int64_t i = (int64_t)blockIdx.x * WARPS + threadIdx.x / 32;
    if (i >= rows) return;
    const int64_t start = row_ptr[i], end = row_ptr[i + 1];
    T *row = out + i * row_slots;
    for (int64_t k = start + threadIdx.x % 32; k < end; k += 32) {
        const int64_t slot = sp24_entry_slot(col_idx[k], k > start ? col_idx[k - 1] : -1,
                                             k + 1 < end ? col_idx[k + 1] : -1, (int)sizeof(T));
        store_rounded(row + slot, values[k]);
    }
}

template <typename T>
static void launch_scatter(const sp24_gpu *g, const int64_t *row_ptr, const int32_t *col_idx,
                           const float *values, cudaStream_t stream)
{
    const unsigned blocks = (unsigned)((g->rows + WARPS - 1) / WARPS);
    scatter_values<T><<<blocks, THREADS, 0, stream>>>(row_ptr, col_idx, values, g->rows,
                                                      g->cols_pad / 2, (T *)g->values);
}

extern "C" tcspmm_status sp24_gpu_set_values(sp24_gpu *g, const int64_t *row_ptr,
                                             const int32_t *col_idx, const float *values,
                                             void *stream)
{
    if (g->rows == 0) return TCSPMM_SUCCESS;
    cudaStream_t st = (cudaStream_t)stream;
    if (g->precision == TCSPMM_PRECISION_TF32) launch_scatter<float>(g, row_ptr, col_idx, values, st);
    else if (g->precision == TCSPMM_PRECISION_BF16)
        launch_scatter<__nv_bfloat16>(g, row_ptr, col_idx, values, st);
    else launch_scatter<__half>(g, row_ptr, col_idx, values, st);
    return TCSPMM_CUDA(cudaGetLastError());
}

extern "C" tcspmm_status sp24_gpu_download_entries(const sp24_gpu *g, const csr_gpu *pattern,
                                                   tcspmm_csr *out)
{
    TCSPMM_TRY(csr_gpu_download(pattern, out));
    sp24 held = {g->precision, g->rows, g->cols, g->rows_pad, g->cols_pad, g->elem_bytes, NULL, NULL};
    size_t bytes, meta_bytes;
    sp24_sizes(&held, &bytes, &meta_bytes);
    held.values = malloc(bytes);
    tcspmm_status st = held.values ? TCSPMM_SUCCESS
                                   : tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY,
                                                 "sp24_gpu_download_entries: %zu bytes", bytes);
    if (!st) st = TCSPMM_CUDA(cudaMemcpy(held.values, g->values, bytes, cudaMemcpyDeviceToHost));
    if (!st) sp24_entry_values(&held, out, out->values);
    free(held.values);
    if (st) tcspmm_csr_free(out);
    return st;
}
