/* csr_check_gpu.cu: tcspmm_csr_validate and sparse24_detect on a device
 * CSR: csr_gpu_check_row_ptr (for arrays that never were on the host) and
 * csr_gpu_check, the entry checks and the structure, so that a plan with a
 * GPU reads its entries on the host only to upload them.
 *
 * csr_gpu_check: warp w owns chunk w of the entries (csr_chunks.h), lane l
 * the entries of each of its rows l, l + 32, ... into the chunk: the column
 * is in range and above its left neighbour's, the value finite; and, for a
 * non-zero value (or any, counting every entry), how many such entries
 * before it in the row share its aligned group of 4 columns (they are among
 * the 3 entries to its left, columns being increasing) and its aligned pair
 * (the entry to its left): 2 in a group break 2:4, 1 in a pair breaks 1:2.
 * The first bad row and the weakest structure are reduced over the warp and
 * kept with one atomicMin per warp (both 64-bit words, so one
 * reduce_on_device serves both checks).
 *
 * csr_gpu_first_beyond: the finiteness check alone, with a bound, on new
 * values for a plan (tcspmm_plan_set_values), on the caller's stream. */
#include <cuda_runtime.h>
#include <math.h>

#include "../csr_gpu.h"
#include "../device_copy.h"
#include "../error.h"
#include "../format/csr.h"
#include "csr_chunks.h"

__global__ static void check_entries(const int64_t *row_ptr, const int32_t *col_idx,
                                     const float *values, int64_t rows, int64_t cols, int64_t nnz,
                                     int every_entry, unsigned long long *result)
{
    unsigned bad = ~0u; /* the first bad row this lane saw (rows < 2^31) */
    unsigned structure = SP24_1TO2;
    csr_warp_walk_own_chunk(row_ptr, rows, nnz, [&](int64_t i, int64_t start, int64_t lo, int64_t hi) {
        for (int64_t k = lo + threadIdx.x % 32; k < hi; k += 32) {
            const int32_t c = col_idx[k];
            if (!(c >= 0 && c < cols && isfinite(values[k]) && (k == start || col_idx[k - 1] < c)))
                bad = min(bad, (unsigned)i);
            if (values[k] == 0.0f && !every_entry) continue;
            int in_group = 0;
            for (int64_t j = k - 1; j >= start && j >= k - 3 && col_idx[j] / 4 == c / 4; j--) {
                const int counts = every_entry || values[j] != 0.0f;
                in_group += counts;
                if (j == k - 1 && col_idx[j] / 2 == c / 2 && counts && structure > SP24_2TO4)
                    structure = SP24_2TO4;
            }
            if (in_group >= 2) structure = SP24_NONE;
        }
    });
    /* One atomic per warp: a warp of atomics on one 64-bit word made this
     * check 8x slower. */
    bad = __reduce_min_sync(0xffffffffu, bad);
    structure = __reduce_min_sync(0xffffffffu, structure);
    if (threadIdx.x % 32 == 0 && bad != ~0u) atomicMin(&result[0], (unsigned long long)bad);
    if (threadIdx.x % 32 == 0 && structure != SP24_1TO2) atomicMin(&result[1], (unsigned long long)structure);
}

/* The first of values[0..count) not below limit in magnitude (NaN
 * included), grid-stride. */
__global__ static void first_beyond(const float *values, int64_t count, float limit,
                                    unsigned long long *first)
{
    for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < count;
         k += (int64_t)gridDim.x * blockDim.x)
        if (!(fabsf(values[k]) < limit)) atomicMin(first, (unsigned long long)k);
}

/* Rows whose offsets are out of order or out of [0, nnz]. */
__global__ static void check_offsets(const int64_t *row_ptr, int64_t rows, int64_t nnz,
                                     unsigned long long *bad_row)
{
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= rows) return;
    const int64_t b = row_ptr[i], e = row_ptr[i + 1];
    if (!(b <= e && b >= 0 && e <= nnz)) atomicMin(bad_row, (unsigned long long)i);
}

/* words[0..count) go to the device, launch(device copy) runs, and they
 * come back: the reductions of the two checks. */
template <typename Launch>
static tcspmm_status reduce_on_device(unsigned long long *words, int count, Launch launch)
{
    const size_t bytes = (size_t)count * sizeof *words;
    unsigned long long *d = NULL;
    tcspmm_status st = device_copy_in((void **)&d, words, bytes, cudaMemcpyHostToDevice);
    if (!st) {
        launch(d);
        st = TCSPMM_CUDA(cudaGetLastError());
    }
    if (!st) st = TCSPMM_CUDA(cudaMemcpy(words, d, bytes, cudaMemcpyDeviceToHost));
    cudaFree(d);
    return st;
}

static const unsigned long long NO_ROW = ~0ull;

extern "C" tcspmm_status csr_gpu_check_row_ptr(const csr_gpu *A)
{
    int64_t ends[2] = {0, 0};
    TCSPMM_TRY(TCSPMM_CUDA(cudaMemcpy(&ends[0], A->row_ptr, 8, cudaMemcpyDeviceToHost)));
    TCSPMM_TRY(TCSPMM_CUDA(cudaMemcpy(&ends[1], A->row_ptr + A->rows, 8, cudaMemcpyDeviceToHost)));
    if (ends[0] != 0 || ends[1] != A->nnz) return csr_fail_row_ptr_ends(ends[0], ends[1], A->nnz);
    if (A->rows == 0) return TCSPMM_SUCCESS;
    unsigned long long bad = NO_ROW;
    TCSPMM_TRY(reduce_on_device(&bad, 1, [&](unsigned long long *d) {
        check_offsets<<<(unsigned)((A->rows + 255) / 256), 256>>>(A->row_ptr, A->rows, A->nnz, d);
    }));
    return bad == NO_ROW ? TCSPMM_SUCCESS : csr_fail_bad_row((int64_t)bad);
}

extern "C" tcspmm_status csr_gpu_check(const csr_gpu *A, int every_entry,
                                       sp24_structure *structure)
{
    *structure = SP24_1TO2;
    if (A->nnz == 0) return TCSPMM_SUCCESS;
    unsigned long long result[2] = {NO_ROW, SP24_1TO2}; /* first bad row, weakest structure */
    TCSPMM_TRY(reduce_on_device(result, 2, [&](unsigned long long *d) {
        check_entries<<<csr_chunk_blocks(A->nnz), CSR_CHUNK_THREADS>>>(
            A->row_ptr, A->col_idx, A->values, A->rows, A->cols, A->nnz, every_entry, d);
    }));
    *structure = (sp24_structure)result[1];
    return result[0] == NO_ROW ? TCSPMM_SUCCESS : csr_fail_bad_row((int64_t)result[0]);
}

extern "C" tcspmm_status csr_gpu_first_beyond(const float *values, int64_t count, float limit,
                                             unsigned long long *scratch, void *stream,
                                             int64_t *first)
{
    *first = -1;
    if (count == 0) return TCSPMM_SUCCESS;
    cudaStream_t st = (cudaStream_t)stream;
    unsigned long long found = NO_ROW;
    TCSPMM_TRY(TCSPMM_CUDA(cudaMemsetAsync(scratch, 0xff, sizeof found, st))); /* NO_ROW */
    const int64_t blocks = (count + 255) / 256;
    first_beyond<<<(unsigned)(blocks < 4096 ? blocks : 4096), 256, 0, st>>>(values, count, limit,
                                                                            scratch);
    TCSPMM_TRY(TCSPMM_CUDA(cudaGetLastError()));
    TCSPMM_TRY(TCSPMM_CUDA(cudaMemcpyAsync(&found, scratch, sizeof found, cudaMemcpyDeviceToHost, st)));
    TCSPMM_TRY(TCSPMM_CUDA(cudaStreamSynchronize(st)));
    if (found != NO_ROW) *first = (int64_t)found;
    return TCSPMM_SUCCESS;
}
