/* hrpb_gpu.h: the HRPB TF32 tensor-core path on the device: upload of an
 * HRPB (with its virtual panels) or its build on the device, new values in
 * place, and the launch of the kernel. Host code calls only these;
 * src/kernels/hrpb_tf32.cu (whose kernel is in hrpb_kernel.h),
 * hrpb_build_gpu.cu and hrpb_values_gpu.cu implement them. */
#ifndef TCSPMM_HRPB_GPU_H
#define TCSPMM_HRPB_GPU_H

#include "../csr_gpu.h"
#include "../format/hrpb.h"
#include "../loadbalance/wave_split.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hrpb_gpu hrpb_gpu; /* device copies of the HRPB arrays */

/* Thread blocks of the three-stage kernel that fit on one SM for this N,
 * panel height and precision (from cudaOccupancyMaxActiveBlocksPerMultiprocessor;
 * the wave-aware split plans for these, and a launch of two waves or more
 * may run the two-stage kernel, which fits more), and the N columns one
 * thread block covers. Needs a GPU. */
tcspmm_status hrpb_gpu_occupancy(int64_t n, int panel_rows, tcspmm_precision precision,
                                 int *blocks_per_sm, int64_t *n_tile);

/* Copies h and w to the device, for products in precision TF32 or FP32
 * (3xTF32: each operand split into two TF32 parts, three MMAs per product). */
tcspmm_status hrpb_gpu_upload(const hrpb *h, const wave_split *w, tcspmm_precision precision,
                              hrpb_gpu **out);

/* Builds HRPB on the device from a device CSR (src/kernels/hrpb_build_gpu.cu):
 * the same bytes as hrpb_build. shape gets the sizes and block_ptr on the
 * host (hrpb.h), counts what hrpb_metrics_counted needs; *out holds the
 * arrays, and runs once hrpb_gpu_set_split has given it its virtual panels.
 * Rows and nnz must be below 2^31 - 1 (TCSPMM_ERROR_UNSUPPORTED otherwise:
 * build on the host). */
tcspmm_status hrpb_gpu_build(const csr_gpu *A, int panel_rows, hrpb *shape, hrpb_counts *counts,
                             hrpb_gpu **out);

/* out = the HRPB on the device, with shape's sizes, block_ptr and row_map
 * (the inverse of hrpb_gpu_upload, for products on the host). */
tcspmm_status hrpb_gpu_download(const hrpb_gpu *g, const hrpb *shape, hrpb *out);

/* Gives g the device row map of reordered rows (hrpb.h; g->rows entries),
 * which g frees. */
void hrpb_gpu_adopt_row_map(hrpb_gpu *g, int64_t *d_row_map);

/* For a plan whose values change (src/kernels/hrpb_values_gpu.cu): which
 * entry of A, the CSR g was built from (in A's own row order; shape's
 * block_ptr on the host), each of g's values came from (hrpb_value_sources),
 * worked out on the device; or given from the host (num_blocks + 1 block
 * offsets, nnz sources). */
tcspmm_status hrpb_gpu_map_values(hrpb_gpu *g, const int64_t *block_ptr, const csr_gpu *A);
tcspmm_status hrpb_gpu_upload_value_sources(hrpb_gpu *g, const int64_t *block_values,
                                            int64_t num_blocks, const uint32_t *source,
                                            int64_t nnz);

/* Writes the new values d_values (device, nnz in A's order) in place, on
 * stream. Needs one of the two above first. */
tcspmm_status hrpb_gpu_set_values(hrpb_gpu *g, const float *d_values, void *stream);

/* Uploads the virtual panels of w to g (once) and sets its precision. */
tcspmm_status hrpb_gpu_set_split(hrpb_gpu *g, const wave_split *w, tcspmm_precision precision);

/* Whether hrpb_gpu_spmm reads a B of elements of b_type (SP24_DATA_FP32,
 * _BF16 or _FP16 of sp24_gpu.h) at dB with leading dimension ldb in layout:
 * floats always; bf16 and fp16 in TF32 (not FP32) plans, row-major, dB on
 * an 8-byte boundary and ldb a multiple of 4 below 2^30, widened to TF32
 * exactly in the kernel. */
int hrpb_gpu_reads_b(const hrpb_gpu *g, int b_type, const void *dB, int64_t ldb,
                     tcspmm_layout layout);

/* Whether hrpb_gpu_spmm writes a C of elements of c_type with a B of
 * b_type that it reads: floats always; a 16-bit C of B's own type (so in
 * TF32, row-major), worked out in float (alpha * sum + beta * C) and
 * rounded to nearest even once. The parts of split panels add into float
 * sums of their rows that g keeps, and the last part of each rounds them
 * into C. The first call wider than those before makes room for them
 * (split panels x TM x n floats, n at least doubled; the smaller room is
 * kept until g is freed, for CUDA graphs captured before):
 * TCSPMM_ERROR_DEVICE_OUT_OF_MEMORY where there is none, and
 * TCSPMM_ERROR_UNSUPPORTED while the stream is being captured. */
int hrpb_gpu_writes_c(const hrpb_gpu *g, int b_type, int c_type);

/* C = alpha*A*B + beta*C with device pointers, B of b_type and C of c_type
 * as hrpb_gpu_reads_b and hrpb_gpu_writes_c allow (TCSPMM_ERROR_UNSUPPORTED
 * otherwise), enqueued on stream. */
tcspmm_status hrpb_gpu_spmm(const hrpb_gpu *g, int64_t n, float alpha, const void *dB,
                            int b_type, int64_t ldb, float beta, void *dC, int c_type,
                            int64_t ldc, tcspmm_layout layout, void *stream);

void hrpb_gpu_free(hrpb_gpu *g);

#ifdef __cplusplus
}
#endif

#endif
