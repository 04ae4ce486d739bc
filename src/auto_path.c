/* auto_path.c: the automatic choice between the HRPB tensor-core kernel and
 * cuSPARSE, from plan-time metrics only (alpha, waves at the expected N, the
 * median blocks per panel).
 *
 * Calibrated on the sweep of bench/results/sweep-2026-11-22/ (H100, the 46
 * shared SuiteSparse matrices, --path hrpb at N = 32, 128, 512, against the
 * best cuSPARSE algorithm in the same run; tools/calibrate_auto.py): HRPB
 * wins when its bricks are dense (alpha high), or when the GPU is well
 * filled (many waves) and no panel is heavy (few blocks per panel; matrices
 * with long random rows, appu, sme3Da, net100, lose there). At N <= 48 the
 * kernel runs one warp per block and wins only on dense bricks with enough
 * work. Every matrix of that sweep that the rule sends to HRPB ran at least
 * 1.03x cuSPARSE; see bench/results for the measured auto path. */
#include "auto_path.h"

#include <math.h>
#include <stdio.h>

typedef struct bucket {
    int64_t max_n;      /* N up to this uses the bucket */
    double dense_alpha; /* HRPB if alpha >= dense_alpha and waves >= dense_waves */
    double dense_waves;
    double fill_alpha;  /* or if alpha >= fill_alpha, waves >= FILL_WAVES and */
} bucket;               /* median blocks per panel <= FILL_BLOCKS_PER_PANEL */

enum { FILL_BLOCKS_PER_PANEL = 10 };
static const double FILL_WAVES = 3.5;

static const bucket buckets[] = {
    {48, 0.30, 0.6, INFINITY}, /* measured at N = 32 */
    {256, 0.134, 0.0, 0.0},    /* N = 128 */
    {INT64_MAX, 0.112, 0.0, 0.075}, /* N = 512 */
};

tcspmm_path auto_path_choose(const tcspmm_info *info, int64_t n, char *reason, size_t len)
{
    const bucket *b = &buckets[0];
    while (n > b->max_n) b++;
    if (info->alpha >= b->dense_alpha && info->waves >= b->dense_waves) {
        snprintf(reason, len, "dense bricks: alpha %.3f >= %.3f at N=%lld (synergy %s)", info->alpha,
                 b->dense_alpha, (long long)n, info->synergy);
        return TCSPMM_PATH_HRPB;
    }
    if (info->alpha >= b->fill_alpha && info->waves >= FILL_WAVES &&
        info->blocks_per_panel_median <= FILL_BLOCKS_PER_PANEL) {
        snprintf(reason, len, "full GPU, light panels: %.1f waves, median %lld blocks per panel, "
                 "alpha %.3f at N=%lld", info->waves, (long long)info->blocks_per_panel_median,
                 info->alpha, (long long)n);
        return TCSPMM_PATH_HRPB;
    }
    snprintf(reason, len, "cuSPARSE: alpha %.3f, %.1f waves, median %lld blocks per panel at N=%lld "
             "favour CSR", info->alpha, info->waves, (long long)info->blocks_per_panel_median,
             (long long)n);
    return TCSPMM_PATH_CUSPARSE;
}
