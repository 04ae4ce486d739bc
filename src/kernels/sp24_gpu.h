/* sp24_gpu.h: the structured-sparsity path on the device: upload of a
 * compressed 2:4 / 1:2 matrix (format/sparse24.h) and C = alpha*A*B + beta*C
 * on the sparse tensor cores (f32 accumulation). Host code calls only these;
 * src/kernels/sp24_mma.cu implements them.
 *
 * How a call runs: B (fp32, bf16 or fp16; either layout, any ldb) is first
 * packed on the device into a zero-padded, k-contiguous copy in the kernel's
 * precision (fp32 is rounded to nearest: bf16/fp16 ties to even, tf32 ties
 * away), kept in a scratch buffer of the handle; then one of two kernels
 * runs. On compute capability 9.0 (the library always builds it for sm_90a):
 * the warpgroup kernel (sp24_wgmma.cu: wgmma.mma_async.sp fed by TMA), which
 * reads a bf16/fp16 B in place, without the packed copy, when its address
 * is a multiple of 16 bytes and ldb of 8 elements. Else
 * (or when asked for): the warp kernel (mma.sp::ordered_metadata m16n8k32
 * bf16/fp16, m16n8k16 tf32) with a 4-stage cp.async pipeline on 128x128
 * tiles (64x64 when the big tiles would not fill the GPU, and always where
 * a thread block cannot have their 100 KB of shared memory: compute
 * capability 8.6, 8.9, 12.x). Both mask only their stores to C. The packed
 * copy grows with n; one a captured call used is kept until the handle is
 * freed, so graphs stay valid across calls of a larger n. */
#ifndef TCSPMM_SP24_GPU_H
#define TCSPMM_SP24_GPU_H

#include "../csr_gpu.h"
#include "../format/sparse24.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The element types of B and C given to sp24_gpu_spmm. */
enum { SP24_DATA_FP32 = 0, SP24_DATA_BF16 = 1, SP24_DATA_FP16 = 2 };

typedef struct sp24_gpu sp24_gpu; /* device copies of an sp24, and B scratch */

/* The kernel a handle runs: mma.sp (128x128 tiles, 64x64 where those
 * would not fill the GPU), wgmma.sp, or mma.sp on 64x64 tiles only. */
typedef enum sp24_kernel {
    SP24_KERNEL_MMA_SP = 0,
    SP24_KERNEL_WGMMA = 1,
    SP24_KERNEL_MMA_SP_SMALL = 2
} sp24_kernel;

/* Whether the current device can run kernel k: wgmma.sp at compute
 * capability 9.0; mma.sp where a thread block may have 100 KB of shared
 * memory; mma.sp on 64x64 tiles on every device the library builds for. */
int sp24_kernel_usable(sp24_kernel k);

/* The kernel sp24_gpu_upload picks on the current device: the first usable
 * of SP24_KERNEL_WGMMA, SP24_KERNEL_MMA_SP and SP24_KERNEL_MMA_SP_SMALL. */
sp24_kernel sp24_kernel_default(void);

/* For tests: on (nonzero), every device answers sp24_kernel_usable as one of
 * compute capability 8.6, 8.9 or 12.x does (no wgmma.sp, no 100 KB blocks),
 * so that the uploads and products of a process take the path those devices
 * take. Call it before any upload. */
void sp24_emulate_small_device(int on);

/* Copies s to the current device. */
tcspmm_status sp24_gpu_upload(const sp24 *s, sp24_gpu **out);

/* Whether the kernel sp24_gpu_upload picks on the current device takes a
 * matrix of this many rows (at most 65535 x 128 = 8,388,480 for mma.sp,
 * 4,194,176 for mma.sp on 64x64 tiles: 65535 x 64 rounded down to
 * SP24_ROW_TILE; for wgmma.sp, rows padded to SP24_ROW_TILE within its
 * tensor maps' 2^31 - 1). */
int sp24_gpu_takes_rows(int64_t rows);

/* C = alpha*A*B + beta*C with device pointers; B is cols x n of element
 * type b_type and C rows x n of c_type: SP24_DATA_FP32 for any precision,
 * SP24_DATA_BF16 only for a BF16 matrix, SP24_DATA_FP16 only for an FP16 one
 * (a 16-bit C is worked out in float and rounded to nearest even as it is
 * stored). B and C are both in `layout` with leading dimensions ldb and
 * ldc; dB may be NULL when the matrix has no columns. beta == 0: C is not
 * read.
 * Enqueued on stream (a cudaStream_t, NULL = legacy default). The handle's
 * B scratch is reused: calls on one handle must not overlap on different
 * streams (growing it synchronizes the device). */
tcspmm_status sp24_gpu_spmm(sp24_gpu *g, int64_t n, float alpha, const void *dB, int b_type,
                            int64_t ldb, float beta, void *dC, int c_type, int64_t ldc,
                            tcspmm_layout layout, void *stream);

/* New values for g's matrix, which sp24_compress compressed with
 * every_entry from the pattern row_ptr, col_idx (device arrays, the rows of
 * g): values (device, one float per entry, finite and below
 * sp24_overflow_limit in magnitude) are rounded into their places, in
 * place, on stream (src/kernels/sp24_values_gpu.cu). */
tcspmm_status sp24_gpu_set_values(sp24_gpu *g, const int64_t *row_ptr, const int32_t *col_idx,
                                  const float *values, void *stream);

/* *out = a host CSR of g's matrix: the pattern (device row_ptr and col_idx,
 * values not read) with each entry's value as g holds it, rounded to its
 * precision, for g made as for sp24_gpu_set_values. Synchronous, on the
 * legacy stream. */
tcspmm_status sp24_gpu_download_entries(const sp24_gpu *g, const csr_gpu *pattern,
                                        tcspmm_csr *out);

/* The kernel g runs (sp24_kernel_default until sp24_gpu_set_kernel). */
sp24_kernel sp24_gpu_kernel(const sp24_gpu *g);

/* Makes g run kernel k (tests and benchmarks compare them):
 * TCSPMM_ERROR_UNSUPPORTED where the device cannot run k
 * (sp24_kernel_usable) or k's grid cannot hold g's rows. */
tcspmm_status sp24_gpu_set_kernel(sp24_gpu *g, sp24_kernel k);

/* "wgmma.sp", "mma.sp" or "mma.sp (64-row tiles)". */
const char *sp24_kernel_name(sp24_kernel k);

void sp24_gpu_free(sp24_gpu *g);

#ifdef __cplusplus
}
#endif

#endif
