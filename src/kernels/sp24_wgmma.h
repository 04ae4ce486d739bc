/* sp24_wgmma.h: the Hopper kernel of the structured-sparsity path
 * (wgmma.mma_async.sp; src/kernels/sp24_wgmma.cu, always built for sm_90a:
 * CMakeLists.txt), called by sp24_mma.cu on devices of compute capability
 * 9.0. It reads the same compressed matrix
 * (format/sparse24.h) and the same packed B (k contiguous, n_pad rows of
 * cols_pad elements) as the mma.sp kernel, or a caller's 16-bit B in
 * place. */
#ifndef TCSPMM_SP24_WGMMA_H
#define TCSPMM_SP24_WGMMA_H

#include "tcspmm.h"

#include <cuda_runtime.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The TMA tensor maps of one uploaded matrix (encoded once) and of the B
 * last used with it. */
typedef struct sp24_wgmma_maps sp24_wgmma_maps;

/* Maps for values (rows_pad x cols_pad/2 elements of the precision) and
 * meta (format/sparse24.h's lane-ordered words), device arrays that must
 * outlive *out. */
tcspmm_status sp24_wgmma_maps_new(tcspmm_precision precision, const void *values,
                                  const uint32_t *meta, int64_t rows_pad, int64_t cols_pad,
                                  sp24_wgmma_maps **out);
void sp24_wgmma_maps_free(sp24_wgmma_maps *m);

/* The current card's peak DRAM bandwidth in bytes per SM and SM cycle
 * (memory clock x 2 x bus width / (SMs x SM clock)); 0 where the driver
 * gives no clock. Below a bound (not 0) the launch rule changes: for bf16
 * and fp16, 128 x 256 tiles for fewer products, pairs of 256 x 128 tiles
 * for the largest; tf32 pairs 256 x 128 tiles in place of 128 x 256 ones
 * (sp24_wgmma.cu, LEAN_DRAM_RATE). */
tcspmm_status sp24_wgmma_dram_rate(double *bytes_per_sm_cycle);

/* For tests: bf16 and fp16 products of at least macs multiply-adds
 * (M x N x K) with m run in clusters of two where the launch rule allows
 * pairs at all (0: always; maps_new sets it from the card). */
void sp24_wgmma_set_pairs16_min_macs(sp24_wgmma_maps *m, double macs);

/* For tests: tf32 pairs 128 x 256 tiles (wide, nonzero) or 256 x 128 ones
 * (maps_new sets it from the card: 256 x 128 on lean cards). */
void sp24_wgmma_set_tf32_wide_pairs(sp24_wgmma_maps *m, int wide);

/* For tests: how many clusters of two 128 x 256 (wide) or 256 x 128 tiles
 * run at once, as the first product on m that would launch such pairs
 * asked the device: 0 if no product would, -1 if none fit; a count above 0
 * means a product launched them. */
int sp24_wgmma_pairs_fit(const sp24_wgmma_maps *m, int wide);

/* Where B comes from: the packed buffer, or the caller's 16-bit B read in
 * place (its address a multiple of 16 bytes, ldb of 8 elements), column-
 * major (k contiguous, like the packed one) or row-major (n contiguous,
 * read transposed; BF16 and FP16 only). */
enum { SP24_WGMMA_B_PACKED = 0, SP24_WGMMA_B_KMAJOR = 1, SP24_WGMMA_B_NMAJOR = 2 };

typedef struct sp24_wgmma_args {
    tcspmm_precision precision; /* TF32, BF16 or FP16 */
    sp24_wgmma_maps *maps;      /* the matrix's (B's are encoded again when B changes) */
    const void *b;              /* packed: n_pad x cols_pad elements, k contiguous */
    int b_kind;                 /* SP24_WGMMA_B_* */
    int64_t ldb;                /* the caller's B only */
    int64_t rows, rows_pad, cols, cols_pad, n, n_pad;
    float alpha, beta;
    void *C;                    /* float, or (c16) the precision's 16-bit type */
    int c16;                    /* BF16 and FP16 only */
    int64_t ldc;
    int row_major, num_sms;
} sp24_wgmma_args;

/* 1 when the current device can run the kernel (compute capability 9.0). */
int sp24_wgmma_usable(void);

/* Sets the kernels' shared-memory limit for a precision on the current
 * device (once, at upload; launches then skip it). */
tcspmm_status sp24_wgmma_prepare(tcspmm_precision precision);

/* TCSPMM_ERROR_UNSUPPORTED, saying why, where a padded size passes the
 * tensor maps' 32-bit range: callers ask before they allocate for it. */
tcspmm_status sp24_wgmma_check_sizes(int64_t rows, int64_t rows_pad, int64_t cols_pad, int64_t n,
                                     int64_t n_pad);

/* C = alpha*A*B + beta*C, enqueued on stream, for sizes that passed
 * sp24_wgmma_check_sizes (sp24_gpu_spmm asks before it packs B). */
tcspmm_status sp24_wgmma_spmm(const sp24_wgmma_args *a, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
