/* sp24_values_gpu.cu: new values for a compressed 2:4 / 1:2 matrix on the
 * device (sp24_gpu_set_values), for plans whose matrix changes its values
 * but not its pattern. Such a matrix was compressed counting every entry
 * (sp24_compress with every_entry), so each entry has a slot of its own,
 * which follows from its column and its neighbours' (sparse24.h): for 16-bit
 * types the entries of a group of 4 take slots 0 and 1 in column order, and
 * a lone one takes slot 0 only at index 0 of its group; for tf32 an entry
 * takes its pair's one slot. The metadata and the zero fill slots stay.
 *
 * scatter_values: warp w owns row w of A; its lanes take the row's entries
 *   32 apart, round each new value to the element type and store it in its
 *   slot of the compressed row. */
#include "sp24_gpu_internal.h"

#include "../error.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

enum { THREADS = 256, WARPS = THREADS / 32 };

__device__ __forceinline__ void store_rounded(float *p, float x) { *p = sp24_tf32_rna(x); }
__device__ __forceinline__ void store_rounded(__nv_bfloat16 *p, float x) { *p = __float2bfloat16_rn(x); }
__device__ __forceinline__ void store_rounded(__half *p, float x) { *p = __float2half_rn(x); }

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
        const int32_t c = col_idx[k];
        int64_t slot = c / 2; /* tf32 */
        if (sizeof(T) == 2) {
            const int32_t group = c / 4;
            const bool second = k > start && col_idx[k - 1] / 4 == group;
            const bool first = k + 1 < end && col_idx[k + 1] / 4 == group;
            slot = 2 * (int64_t)group + (second ? 1 : first ? 0 : c % 4 != 0);
        }
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
