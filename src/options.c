/* options.c: plan options, their defaults and checks, and the names of
 * paths and precisions. */
#include "options.h"

#include "error.h"

#include <string.h>

#define MAX_HOST_THREADS 4096

void tcspmm_options_init(tcspmm_options *opt)
{
    if (!opt) return;
    memset(opt, 0, sizeof *opt);
    opt->path = TCSPMM_PATH_AUTO;
    opt->precision = TCSPMM_PRECISION_TF32;
    opt->panel_rows = 16;
    opt->expected_n = 128;
    opt->device = -1;
}

tcspmm_status options_check(const tcspmm_options *opt)
{
    if (opt->path < TCSPMM_PATH_AUTO || opt->path > TCSPMM_PATH_CPU)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "options: unknown path %d", (int)opt->path);
    if (opt->precision < TCSPMM_PRECISION_TF32 || opt->precision > TCSPMM_PRECISION_FP16)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "options: unknown precision %d",
                           (int)opt->precision);
    if (opt->panel_rows != 16 && opt->panel_rows != 32)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "options: panel_rows is %d; it must be 16 or 32", opt->panel_rows);
    if (opt->expected_n < 1 || opt->expected_n > ((int64_t)1 << 31))
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "options: expected_n is %lld; it must be 1 to 2^31",
                           (long long)opt->expected_n);
    if (opt->row_order != TCSPMM_ROW_ORDER_NATURAL && opt->row_order != TCSPMM_ROW_ORDER_CLUSTERED)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "options: unknown row_order %d",
                           (int)opt->row_order);
    if (opt->rule_only != 0 && opt->rule_only != 1)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "options: rule_only is %d; it must be 0 or 1",
                           opt->rule_only);
    if (opt->measure_at_first_call != 0 && opt->measure_at_first_call != 1)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "options: measure_at_first_call is %d; it must be 0 or 1",
                           opt->measure_at_first_call);
    if (opt->updatable_values != 0 && opt->updatable_values != 1)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "options: updatable_values is %d; it must be 0 or 1", opt->updatable_values);
    if (opt->num_sms < 0 || opt->blocks_per_sm < 0 || opt->host_threads < 0 || opt->device < -1)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "options: num_sms, blocks_per_sm, host_threads must be >= 0 and device >= -1");
    if (opt->host_threads > MAX_HOST_THREADS) /* libgomp crashed on 100,000 */
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "options: host_threads is %d; at most %d", opt->host_threads,
                           MAX_HOST_THREADS);
    for (size_t k = 0; k < sizeof opt->reserved / sizeof opt->reserved[0]; k++)
        if (opt->reserved[k] != 0)
            return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                               "options: reserved[%d] is %d; it must be 0 (tcspmm_options_init "
                               "sets every field)", (int)k, opt->reserved[k]);
    return TCSPMM_SUCCESS;
}

const char *tcspmm_path_name(tcspmm_path path)
{
    switch (path) {
    case TCSPMM_PATH_AUTO: return "auto";
    case TCSPMM_PATH_CUSPARSE: return "cusparse";
    case TCSPMM_PATH_HRPB: return "hrpb";
    case TCSPMM_PATH_SPARSE24: return "sparse24";
    case TCSPMM_PATH_CPU: return "cpu";
    }
    return "unknown";
}

const char *tcspmm_precision_name(tcspmm_precision precision)
{
    switch (precision) {
    case TCSPMM_PRECISION_TF32: return "tf32";
    case TCSPMM_PRECISION_FP32: return "fp32";
    case TCSPMM_PRECISION_BF16: return "bf16";
    case TCSPMM_PRECISION_FP16: return "fp16";
    }
    return "unknown";
}
