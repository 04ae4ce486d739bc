/* dense_scale.h: elementwise updates of a dense matrix on the device, with
 * the element types of tcspmm_spmm_ex: C = beta * C, for products that add
 * nothing to C (alpha = 0, or a matrix without entries), and D = S + beta * D
 * between types, which carries 16-bit B and C to and from the float paths
 * (src/kernels/dense_scale.cu). */
#ifndef TCSPMM_DENSE_SCALE_H
#define TCSPMM_DENSE_SCALE_H

#include "../error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* C = beta * C for C rows x n in the layout row_major says, leading
 * dimension ldc, elements of type c_type (SP24_DATA_FP32, _BF16 or _FP16,
 * sp24_gpu.h), enqueued on stream. beta == 0 writes zeros without reading
 * C (it may hold NaN); beta == 1 launches nothing. */
tcspmm_status dense_scale(void *dC, int c_type, int64_t rows, int64_t n, int64_t ldc,
                          int row_major, float beta, void *stream);

/* D = S + beta * D for S and D rows x n in one layout (row_major), S of
 * s_type with leading dimension lds, D of d_type with ldd (types as for
 * dense_scale), worked out in float and rounded to D's type to nearest even
 * once; beta == 0: D is not read. A bf16 or fp16 S into a float D is exact. */
tcspmm_status dense_add_converted(const void *dS, int s_type, int64_t lds, void *dD, int d_type,
                                  int64_t ldd, int64_t rows, int64_t n, int row_major, float beta,
                                  void *stream);

#ifdef __cplusplus
}
#endif

#endif
