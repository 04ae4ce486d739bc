/* hrpb_values_gpu.cu: new values for an HRPB on the device, for plans whose
 * matrix changes its values but not its pattern. At plan time each entry of
 * the caller's CSR gets the place of its value among the packed values
 * (value_slot, hrpb_value_index of hrpb.h); each update then scatters the
 * new values there.
 *
 * map_entries: warp w owns panel row w; its lanes take the entries of the
 * row of A that the panel row holds (row_map), 32 apart, and find each
 * one's place.
 * scatter_values: thread k (grid-stride) writes entry k's new value. */
#include <cuda_runtime.h>

#include "../device_copy.h"
#include "../error.h"
#include "hrpb_gpu_internal.h"

enum { THREADS = 256 };

__global__ static void map_entries(const int64_t *__restrict__ row_ptr,
                                   const int32_t *__restrict__ col_idx,
                                   const int64_t *__restrict__ row_map, int64_t rows, int tm,
                                   const int64_t *__restrict__ block_ptr,
                                   const int32_t *__restrict__ active_cols,
                                   const int64_t *__restrict__ size_ptr,
                                   const uint8_t *__restrict__ packed, uint32_t *__restrict__ slot,
                                   int *__restrict__ missing)
{
    const int64_t i = ((int64_t)blockIdx.x * THREADS + threadIdx.x) / 32;
    if (i >= rows) return;
    const int64_t row = row_map ? row_map[i] : i;
    for (int64_t k = row_ptr[row] + threadIdx.x % 32; k < row_ptr[row + 1]; k += 32) {
        int64_t at = hrpb_value_index(block_ptr, active_cols, size_ptr, packed, i / tm,
                                      (int)(i % tm), col_idx[k]);
        if (at < 0) *missing = 1;
        else slot[k] = (uint32_t)at;
    }
}

__global__ static void scatter_values(const float *__restrict__ values,
                                      const uint32_t *__restrict__ slot, int64_t nnz,
                                      float *__restrict__ packed_values)
{
    for (int64_t k = (int64_t)blockIdx.x * THREADS + threadIdx.x; k < nnz;
         k += (int64_t)gridDim.x * THREADS)
        packed_values[slot[k]] = values[k];
}

/* Fails unless packed's floats are indexable by uint32 (num_blocks from
 * block_ptr on the host). */
static tcspmm_status check_slot_range(const hrpb_gpu *g, int64_t num_blocks)
{
    int64_t bytes = 0;
    TCSPMM_TRY(TCSPMM_CUDA(cudaMemcpy(&bytes, g->size_ptr + num_blocks, sizeof bytes,
                                      cudaMemcpyDeviceToHost)));
    if (bytes / 4 > (int64_t)UINT32_MAX)
        return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED,
                           "hrpb_gpu_map_values: %lld packed bytes; updatable values need fewer "
                           "than 2^32 floats", (long long)bytes);
    return TCSPMM_SUCCESS;
}

/* The map of hrpb_gpu_map_values into g->value_slot, with block_ptr and the
 * missing flag already on the device. */
static tcspmm_status map(hrpb_gpu *g, const int64_t *d_block_ptr, const csr_gpu *A, int *d_missing)
{
    TCSPMM_TRY(device_alloc((void **)&g->value_slot, (size_t)A->nnz * sizeof(uint32_t)));
    g->nnz = A->nnz;
    TCSPMM_TRY(TCSPMM_CUDA(cudaMemset(d_missing, 0, sizeof(int))));
    const int64_t warps_per_block = THREADS / 32;
    map_entries<<<(unsigned)((A->rows + warps_per_block - 1) / warps_per_block), THREADS>>>(
        A->row_ptr, A->col_idx, g->row_map, A->rows, g->panel_rows, d_block_ptr, g->active_cols,
        g->size_ptr, g->packed, g->value_slot, d_missing);
    TCSPMM_TRY(TCSPMM_CUDA(cudaGetLastError()));
    int missing = 0;
    TCSPMM_TRY(TCSPMM_CUDA(cudaMemcpy(&missing, d_missing, sizeof missing, cudaMemcpyDeviceToHost)));
    if (missing)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "hrpb_gpu_map_values: an entry of A is not in this HRPB");
    return TCSPMM_SUCCESS;
}

extern "C" tcspmm_status hrpb_gpu_map_values(hrpb_gpu *g, const int64_t *block_ptr,
                                             const csr_gpu *A)
{
    if (!g || !block_ptr || !A || A->rows != g->rows)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "hrpb_gpu_map_values: bad argument");
    cudaFree(g->value_slot);
    g->value_slot = NULL;
    g->nnz = 0;
    if (A->nnz == 0 || A->rows == 0) return TCSPMM_SUCCESS;
    const int64_t num_panels = (g->rows + g->panel_rows - 1) / g->panel_rows;
    TCSPMM_TRY(check_slot_range(g, block_ptr[num_panels]));
    int64_t *d_block_ptr = NULL;
    int *d_missing = NULL;
    tcspmm_status st = device_copy_in((void **)&d_block_ptr, block_ptr,
                                      ((size_t)num_panels + 1) * sizeof(int64_t),
                                      cudaMemcpyHostToDevice);
    if (!st) st = device_alloc((void **)&d_missing, sizeof(int));
    if (!st) st = map(g, d_block_ptr, A, d_missing);
    cudaFree(d_block_ptr);
    cudaFree(d_missing);
    if (st) {
        cudaFree(g->value_slot);
        g->value_slot = NULL;
        g->nnz = 0;
    }
    return st;
}

extern "C" tcspmm_status hrpb_gpu_upload_value_slots(hrpb_gpu *g, const uint32_t *slot, int64_t nnz)
{
    if (!g || (nnz > 0 && !slot))
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "hrpb_gpu_upload_value_slots: null argument");
    cudaFree(g->value_slot);
    g->value_slot = NULL;
    g->nnz = 0;
    TCSPMM_TRY(device_copy_in((void **)&g->value_slot, slot, (size_t)nnz * sizeof(uint32_t),
                              cudaMemcpyHostToDevice));
    g->nnz = nnz;
    return TCSPMM_SUCCESS;
}

extern "C" tcspmm_status hrpb_gpu_set_values(const hrpb_gpu *g, const float *d_values, void *stream)
{
    if (!g || (g->nnz > 0 && !g->value_slot))
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "hrpb_gpu_set_values: no value map (a plan without updatable_values)");
    if (g->nnz == 0) return TCSPMM_SUCCESS;
    int device = 0, sms = 0;
    TCSPMM_TRY(TCSPMM_CUDA(cudaGetDevice(&device)));
    TCSPMM_TRY(TCSPMM_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device)));
    const int64_t blocks_needed = (g->nnz + THREADS - 1) / THREADS;
    const unsigned grid = (unsigned)(blocks_needed < 8 * sms ? blocks_needed : 8 * sms);
    scatter_values<<<grid, THREADS, 0, (cudaStream_t)stream>>>(d_values, g->value_slot, g->nnz,
                                                              (float *)g->packed);
    return TCSPMM_CUDA(cudaGetLastError());
}
