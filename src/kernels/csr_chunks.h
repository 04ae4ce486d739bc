/* csr_chunks.h: how a warp walks a chunk of a device CSR's entries row by
 * row, for kernels that work per entry and need each entry's row: chunk w
 * is entries [w * CSR_CHUNK, (w + 1) * CSR_CHUNK), whatever rows they lie
 * in. A long row is spread over many warps and a run of empty rows costs a
 * search, not a warp each, so the work of every warp is bounded. */
#ifndef TCSPMM_CSR_CHUNKS_H
#define TCSPMM_CSR_CHUNKS_H

#include <stdint.h>

enum {
    CSR_CHUNK = 256,        /* entries per warp: 8 per lane */
    CSR_CHUNK_THREADS = 256 /* threads per block of a kernel that walks chunks */
};

/* The blocks of CSR_CHUNK_THREADS that give each chunk of nnz entries a warp. */
static inline unsigned csr_chunk_blocks(int64_t nnz)
{
    const int64_t chunks = (nnz + CSR_CHUNK - 1) / CSR_CHUNK, warps = CSR_CHUNK_THREADS / 32;
    return (unsigned)((chunks + warps - 1) / warps);
}

/* The row holding entry k: the largest i in [lo, hi) with row_ptr[i] <= k,
 * given row_ptr[lo] <= k. The warp probes 31 rows at a time, so each step
 * divides the range by 32. Called by the whole warp. */
__device__ inline int64_t csr_warp_row_of(const int64_t *row_ptr, int64_t lo, int64_t hi,
                                          int64_t k)
{
    const int lane = threadIdx.x % 32;
    while (hi - lo > 1) {
        const int64_t step = (hi - lo + 31) / 32, probe = lo + step * lane;
        const int at_or_before = lane > 0 && probe < hi && row_ptr[probe] <= k;
        const int64_t below = __popc(__ballot_sync(0xffffffffu, at_or_before));
        hi = lo + step * (below + 1) < hi ? lo + step * (below + 1) : hi;
        lo += step * below;
    }
    return lo;
}

/* visit(i, start, lo, hi) for each row i holding entries of [k0, k1)
 * (k0 < k1 <= nnz), in order: start = row_ptr[i], and [lo, hi) the row's
 * entries in the chunk. The next row after a row ending at e is the one
 * holding e: one probe of the 32 rows that follow, a search past them. */
template <typename Visit>
__device__ inline void csr_warp_walk_chunk(const int64_t *row_ptr, int64_t rows, int64_t k0,
                                           int64_t k1, Visit visit)
{
    const int lane = threadIdx.x % 32;
    int64_t i = csr_warp_row_of(row_ptr, 0, rows, k0);
    for (;;) {
        const int64_t start = row_ptr[i], end = row_ptr[i + 1];
        visit(i, start, start > k0 ? start : k0, end < k1 ? end : k1);
        if (end >= k1) return;
        const int64_t probe = i + 2 + lane; /* the row after i + 1 + lane starts at or before end */
        const unsigned near = __ballot_sync(0xffffffffu, probe <= rows && row_ptr[probe] <= end);
        i = near != 0xffffffffu ? i + 1 + __popc(near) : csr_warp_row_of(row_ptr, i + 33, rows, end);
    }
}

/* csr_warp_walk_chunk over this warp's own chunk of the nnz entries (a
 * launch of csr_chunk_blocks(nnz) blocks of CSR_CHUNK_THREADS); a warp past
 * the end visits nothing. */
template <typename Visit>
__device__ inline void csr_warp_walk_own_chunk(const int64_t *row_ptr, int64_t rows, int64_t nnz,
                                               Visit visit)
{
    const int64_t k0 = ((int64_t)blockIdx.x * (CSR_CHUNK_THREADS / 32) + threadIdx.x / 32) * CSR_CHUNK;
    if (k0 < nnz) csr_warp_walk_chunk(row_ptr, rows, k0, k0 + CSR_CHUNK < nnz ? k0 + CSR_CHUNK : nnz, visit);
}

#endif
