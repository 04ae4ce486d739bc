/* device_scan.h: exclusive prefix sums of device arrays, which every device
 * builder needs (src/kernels/device_scan.cu, with CUB). */
#ifndef TCSPMM_DEVICE_SCAN_H
#define TCSPMM_DEVICE_SCAN_H

#include "tcspmm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out[i] = in[0] + ... + in[i - 1] for i < count (in place allowed), on the
 * legacy default stream. */
tcspmm_status device_exclusive_sum_i32(const int32_t *in, int32_t *out, int64_t count);
tcspmm_status device_exclusive_sum_i64(const int64_t *in, int64_t *out, int64_t count);

#ifdef __cplusplus
}
#endif

#endif
