/* hrpb_values_gpu.cu: new values for an HRPB on the device, for plans whose
 * matrix changes its values but not its pattern. At plan time each value of
 * the HRPB gets the entry of the caller's CSR it came from (value_source,
 * in packed order, block by block: hrpb_value_sources of hrpb.h); each
 * update then gathers the new values into place, so its writes are
 * contiguous.
 *
 * count_block_values: thread b counts block b's values (its patterns' bits).
 * panel_rows_of: thread i writes the panel row that holds row row_map[i]
 *   of A (rows reordered only).
 * map_entries: thread k owns entry k of A (its row from csr_gpu_entry_rows)
 *   and records it as the source of its value's place. Per entry, not per
 *   row: a warp per row left a row of 2M entries to one warp (225 ms), and
 *   a warp per chunk of entries walks short rows one after another.
 * gather_values: warp w owns HRPB block w; its lanes write the block's
 *   values 32 apart, each read from the new values of its source. */
#include <cuda_runtime.h>

#include "../device_copy.h"
#include "../error.h"
#include "../csr_gpu.h"
#include "device_scan.h"
#include "hrpb_gpu_internal.h"

enum { THREADS = 256, WARPS = THREADS / 32 };

__global__ static void count_block_values(const int64_t *__restrict__ size_ptr,
                                          const uint8_t *__restrict__ packed, int64_t num_blocks,
                                          int64_t *__restrict__ counts)
{
    const int64_t b = (int64_t)blockIdx.x * THREADS + threadIdx.x;
    if (b > num_blocks) return;
    counts[b] = b < num_blocks ? hrpb_block_values(size_ptr, packed, b) : 0; /* 0: the scan's end */
}

__global__ static void panel_rows_of(const int64_t *__restrict__ row_map, int64_t rows,
                                     int32_t *__restrict__ panel_row)
{
    const int64_t i = (int64_t)blockIdx.x * THREADS + threadIdx.x;
    if (i < rows) panel_row[row_map[i]] = (int32_t)i;
}

__global__ static void map_entries(const int32_t *__restrict__ row_of,
                                   const int32_t *__restrict__ col_idx, int64_t nnz,
                                   const int32_t *__restrict__ panel_row, int tm,
                                   const int64_t *__restrict__ block_ptr,
                                   const int32_t *__restrict__ active_cols,
                                   const int64_t *__restrict__ size_ptr,
                                   const uint8_t *__restrict__ packed,
                                   const int64_t *__restrict__ block_values,
                                   uint32_t *__restrict__ source, int *__restrict__ missing)
{
    const int64_t k = (int64_t)blockIdx.x * THREADS + threadIdx.x;
    if (k >= nnz) return;
    const int32_t i = panel_row ? panel_row[row_of[k]] : row_of[k];
    int64_t b = 0;
    const int place = hrpb_value_place(block_ptr, active_cols, size_ptr, packed, i / tm, i % tm,
                                       col_idx[k], &b);
    if (place < 0) *missing = 1;
    else source[block_values[b] + place] = (uint32_t)k;
}

__global__ static void gather_values(const float *__restrict__ values,
                                     const uint32_t *__restrict__ source,
                                     const int64_t *__restrict__ block_values,
                                     const int64_t *__restrict__ size_ptr, int64_t num_blocks,
                                     uint8_t *__restrict__ packed)
{
    const int64_t b = (int64_t)blockIdx.x * WARPS + threadIdx.x / 32;
    if (b >= num_blocks) return;
    float *out = (float *)(packed + hrpb_values_offset(size_ptr, packed, b));
    const int64_t first = block_values[b], count = block_values[b + 1] - first;
    for (int64_t v = threadIdx.x % 32; v < count; v += 32) out[v] = values[source[first + v]];
}

static void forget_values(hrpb_gpu *g)
{
    cudaFree(g->block_values);
    cudaFree(g->value_source);
    g->block_values = NULL;
    g->value_source = NULL;
    g->value_blocks = 0;
}

/* The map of hrpb_gpu_map_values, with block_ptr, the missing flag, room for
 * each entry's row and (rows reordered) for each row's panel row on the
 * device. */
static tcspmm_status map(hrpb_gpu *g, const int64_t *d_block_ptr, const csr_gpu *A,
                         int64_t num_blocks, int *d_missing, int32_t *d_row_of,
                         int32_t *d_panel_row)
{
    const int64_t nb = num_blocks;
    TCSPMM_TRY(device_alloc((void **)&g->block_values, ((size_t)nb + 1) * sizeof(int64_t)));
    TCSPMM_TRY(device_alloc((void **)&g->value_source, (size_t)A->nnz * sizeof(uint32_t)));
    g->value_blocks = nb;
    count_block_values<<<(unsigned)((nb + THREADS) / THREADS), THREADS>>>(g->size_ptr, g->packed,
                                                                           nb, g->block_values);
    TCSPMM_TRY(TCSPMM_CUDA(cudaGetLastError()));
    TCSPMM_TRY(device_exclusive_sum_i64(g->block_values, g->block_values, nb + 1));
    int64_t total = 0;
    TCSPMM_TRY(TCSPMM_CUDA(cudaMemcpy(&total, g->block_values + nb, sizeof total,
                                      cudaMemcpyDeviceToHost)));
    if (total != A->nnz)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "hrpb_gpu_map_values: %lld values in the HRPB, %lld entries in A",
                           (long long)total, (long long)A->nnz);
    if (A->nnz == 0) return TCSPMM_SUCCESS;
    TCSPMM_TRY(TCSPMM_CUDA(cudaMemset(d_missing, 0, sizeof(int))));
    TCSPMM_TRY(csr_gpu_entry_rows(A->row_ptr, A->rows, A->nnz, d_row_of));
    if (g->row_map) {
        panel_rows_of<<<(unsigned)((A->rows + THREADS - 1) / THREADS), THREADS>>>(
            g->row_map, A->rows, d_panel_row);
        TCSPMM_TRY(TCSPMM_CUDA(cudaGetLastError()));
    }
    map_entries<<<(unsigned)((A->nnz + THREADS - 1) / THREADS), THREADS>>>(
        d_row_of, A->col_idx, A->nnz, g->row_map ? d_panel_row : NULL, g->panel_rows,
        d_block_ptr, g->active_cols, g->size_ptr, g->packed, g->block_values, g->value_source,
        d_missing);
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
    if (!csr_gpu_fits(A->rows, A->nnz)) /* rows as int32, as the device build takes them */
        return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED,
                           "hrpb_gpu_map_values: %lld rows and %lld entries; the device map "
                           "needs both below 2^31-1",
                           (long long)A->rows, (long long)A->nnz);
    forget_values(g);
    const int64_t num_panels = (g->rows + g->panel_rows - 1) / g->panel_rows;
    int64_t *d_block_ptr = NULL;
    int32_t *d_row_of = NULL, *d_panel_row = NULL;
    int *d_missing = NULL;
    tcspmm_status st = device_copy_in((void **)&d_block_ptr, block_ptr,
                                      ((size_t)num_panels + 1) * sizeof(int64_t),
                                      cudaMemcpyHostToDevice);
    if (!st) st = device_alloc((void **)&d_missing, sizeof(int));
    if (!st) st = device_alloc((void **)&d_row_of, (size_t)A->nnz * sizeof(int32_t));
    if (!st && g->row_map)
        st = device_alloc((void **)&d_panel_row, (size_t)g->rows * sizeof(int32_t));
    if (!st) st = map(g, d_block_ptr, A, block_ptr[num_panels], d_missing, d_row_of, d_panel_row);
    cudaFree(d_block_ptr);
    cudaFree(d_row_of);
    cudaFree(d_panel_row);
    cudaFree(d_missing);
    if (st) forget_values(g);
    return st;
}

extern "C" tcspmm_status hrpb_gpu_upload_value_sources(hrpb_gpu *g, const int64_t *block_values,
                                                       int64_t num_blocks, const uint32_t *source,
                                                       int64_t nnz)
{
    if (!g || !block_values || (nnz > 0 && !source))
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "hrpb_gpu_upload_value_sources: null argument");
    forget_values(g);
    const cudaMemcpyKind up = cudaMemcpyHostToDevice;
    tcspmm_status st = device_copy_in((void **)&g->block_values, block_values,
                                      ((size_t)num_blocks + 1) * sizeof(int64_t), up);
    if (!st) st = device_copy_in((void **)&g->value_source, source, (size_t)nnz * sizeof(uint32_t), up);
    if (st) forget_values(g);
    else g->value_blocks = num_blocks;
    return st;
}

extern "C" tcspmm_status hrpb_gpu_set_values(hrpb_gpu *g, const float *d_values, void *stream)
{
    if (!g || !g->block_values)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "hrpb_gpu_set_values: no value sources (a plan without updatable_values)");
    if (g->value_blocks == 0) return TCSPMM_SUCCESS;
    const unsigned grid = (unsigned)((g->value_blocks + WARPS - 1) / WARPS); /* blocks < 2^31 */
    gather_values<<<grid, THREADS, 0, (cudaStream_t)stream>>>(d_values, g->value_source,
                                                             g->block_values, g->size_ptr,
                                                             g->value_blocks, g->packed);
    return TCSPMM_CUDA(cudaGetLastError());
}
