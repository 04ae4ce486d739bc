/* dense_scale.h: C = beta * C on the device, for products that add nothing
 * to C (alpha = 0, or a matrix without entries): src/kernels/dense_scale.cu. */
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

#ifdef __cplusplus
}
#endif

#endif
