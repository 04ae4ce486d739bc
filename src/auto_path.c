/* auto_path.c: the automatic choice between the HRPB tensor-core kernel and
 * cuSPARSE, from plan-time metrics (alpha, waves at the expected N, the
 * median blocks per panel), the precision and the row order HRPB was built
 * in; and where those metrics are not sure, the hand-over to a measurement.
 *
 * Measured (the default; tcspmm_options.rule_only turns it off): only the
 * dense test below is taken as sure. Every other plan, N = 1 included,
 * times HRPB against cuSPARSE per shape of call (range of N, layout, beta
 * zero or not), once the shape's calls have cost what that costs
 * (path_trial.h). Low-alpha matrices are why: in
 * the sweeps under bench/results/, HRPB at alpha 0.0625-0.08 ran at 1.05x
 * cuSPARSE or better in 169 of 278 rows and under 0.95x in 74, and alpha,
 * waves and blocks per panel do not tell those apart (R-MAT graphs at
 * N = 96 won 1.20x-1.47x and lost 0.87x with the same metrics).
 *
 * The rule: HRPB when its bricks are dense (alpha high) on enough of the GPU,
 * or when the GPU is well filled (many waves) and no panel is heavy (few
 * blocks per panel; matrices with long random rows, appu, sme3Da, net100,
 * lose there). FP32 runs three MMAs per product, so it needs denser bricks.
 * Clustered rows raise alpha without speeding HRPB up by as much, so they
 * need a higher alpha at N = 32 (g7jac120sc: alpha 0.17 clustered, 0.77x).
 * At N = 1 it takes cuSPARSE: cuSPARSE is several times faster there than at
 * N = 2 while HRPB's time barely changes, and no thresholds of this shape
 * kept every HRPB choice above 1.05x.
 *
 * Calibration (tools/calibrate_auto.py): for each table and N, the
 * thresholds with the best geomean over a sweep of the shared SuiteSparse
 * matrices such that every matrix sent to HRPB ran at least 1.05x cuSPARSE
 * (so that timing noise cannot put the auto path under 0.95x). The sweeps,
 * under bench/results/:
 *   - N = 32, 128, 512, all four tables: launch-order-2026-11-23/ and
 *     auto-clustered-2026-11-23/ (H100); A's order in TF32 re-fitted on
 *     dependent-launch-2026-11-25/;
 *   - N = 64, all four tables: sweep-n64-2026-11-26/ (H200; the N = 128
 *     thresholds had sent net100 to HRPB at 0.74x there);
 *   - N = 1 to 16: sweep-small-n-2026-11-26/ (H200; the N = 32 thresholds
 *     held in TF32 at N = 2-16, but in FP32 sent wave to HRPB at 0.82x-0.90x,
 *     so A's order in FP32 has its own under N = 32);
 *   - N = 1024, A's order in TF32: sweep-large-n-2026-11-26/ (H200; the fill
 *     test's waves grow with N, and the N = 512 thresholds sent coupled to
 *     HRPB at 0.94x there);
 *   - N = 1024, clustered rows in FP32: sweep-clustered-fp32-2026-11-26/
 *     (H200; the N = 512 thresholds sent circuit_4 and mk12-b3 to HRPB at
 *     0.89x and 0.93x there);
 *   - N = 129-512, A's order in TF32: the fill test's alpha fitted at N = 256
 *     and 512 on the shared matrices and 31 generated ones together
 *     (auto-generated-2026-11-26/; the thresholds fitted on the shared ones
 *     sent R-MAT graphs, alpha 0.063-0.074 with a median of 1-4 blocks per
 *     panel, to HRPB at 0.86x-0.91x at N = 256 and 0.75x-0.93x at 512;
 *     one still runs at 0.87x at N = 96, under N = 128's rule). The dense
 *     test keeps N = 128's alpha at 256: sme3Da (alpha 0.080) loses at 128
 *     and 512, and the N = 256 sweep had no HRPB time for it.
 * Generated matrices that no fit saw check how the rule generalizes
 * (auto-generated-2026-11-26/). */
#include "auto_path.h"

#include <stdio.h>
#include <string.h>

typedef struct bucket {
    int64_t max_n;      /* N up to this uses the bucket */
    double dense_alpha; /* HRPB if alpha >= dense_alpha and waves >= dense_waves */
    double dense_waves;
    double fill_alpha;  /* or if alpha >= fill_alpha, waves >= FILL_WAVES and */
} bucket;               /* median blocks per panel <= FILL_BLOCKS_PER_PANEL */

enum { FILL_BLOCKS_PER_PANEL = 10 };
static const double FILL_WAVES = 3.5;

/* Each table's buckets in rising N, the last covering every larger N; the
 * thresholds rounded down to three decimals. Where a table was not measured
 * it uses the thresholds of the nearest N it was fitted at. */
static const bucket natural_tf32[] = {
    {48, 0.153, 0.6, 0.062}, {64, 0.134, 0.6, 0.062}, {128, 0.106, 0.0, 0.062},
    {256, 0.106, 0.0, 0.077}, {512, 0.084, 0.0, 0.076}, {INT64_MAX, 0.087, 0.0, 0.087}};
static const bucket natural_fp32[] = {
    {31, 0.228, 0.6, 0.127}, {48, 0.153, 0.6, 0.062}, {64, 0.134, 0.6, 0.062},
    {256, 0.134, 0.0, 0.127}, {INT64_MAX, 0.150, 0.0, 0.150}};
static const bucket clustered_tf32[] = {
    {48, 0.190, 1.0, 0.101}, {64, 0.155, 0.6, 0.073}, {256, 0.166, 0.0, 0.101},
    {INT64_MAX, 0.101, 0.0, 0.101}};
static const bucket clustered_fp32[] = {
    {48, 0.190, 1.0, 0.101}, {64, 0.226, 0.0, 0.073}, {256, 0.199, 0.0, 0.101},
    {512, 0.123, 0.0, 0.107}, {INT64_MAX, 0.193, 0.0, 0.193}};
static const bucket *const tables[2][2] = { /* [clustered rows][FP32] */
    {natural_tf32, natural_fp32},
    {clustered_tf32, clustered_fp32},
};

/* The rule alone. *dense: whether the dense test decided. */
static tcspmm_path rule_choose(const tcspmm_info *info, int64_t n, tcspmm_precision precision,
                               char *reason, size_t len, int *dense)
{
    *dense = 0;
    if (n == 1) {
        snprintf(reason, len, "cuSPARSE: N=1, a matrix-vector product, where cuSPARSE is "
                 "several times faster than at N=2");
        return TCSPMM_PATH_CUSPARSE;
    }
    int clustered = info->row_order && strcmp(info->row_order, "clustered") == 0;
    const bucket *b = tables[clustered][precision == TCSPMM_PRECISION_FP32];
    while (n > b->max_n) b++;
    const char *order = clustered ? "clustered" : "natural";
    if (info->alpha >= b->dense_alpha && info->waves >= b->dense_waves) {
        snprintf(reason, len, "dense bricks: alpha %.3f >= %.3f at N=%lld, %s, %s rows "
                 "(synergy %s)", info->alpha, b->dense_alpha, (long long)n,
                 tcspmm_precision_name(precision), order, info->synergy);
        *dense = 1;
        return TCSPMM_PATH_HRPB;
    }
    if (info->alpha >= b->fill_alpha && info->waves >= FILL_WAVES &&
        info->blocks_per_panel_median <= FILL_BLOCKS_PER_PANEL) {
        snprintf(reason, len, "full GPU, light panels: %.1f waves, median %lld blocks per panel, "
                 "alpha %.3f at N=%lld, %s, %s rows", info->waves,
                 (long long)info->blocks_per_panel_median, info->alpha, (long long)n,
                 tcspmm_precision_name(precision), order);
        return TCSPMM_PATH_HRPB;
    }
    snprintf(reason, len, "cuSPARSE: alpha %.3f, %.1f waves, median %lld blocks per panel at "
             "N=%lld, %s, %s rows favour CSR", info->alpha, info->waves,
             (long long)info->blocks_per_panel_median, (long long)n,
             tcspmm_precision_name(precision), order);
    return TCSPMM_PATH_CUSPARSE;
}

tcspmm_path auto_path_choose(const tcspmm_info *info, int64_t n, tcspmm_precision precision,
                             int measure, char *reason, size_t len)
{
    int dense = 0;
    char rule[200];
    tcspmm_path path = rule_choose(info, n, precision, rule, sizeof rule, &dense);
    if (!measure || dense) {
        snprintf(reason, len, "%s", rule);
        return path;
    }
    snprintf(reason, len, "measured per range of N, layout and beta (the rule alone: %s)", rule);
    return TCSPMM_PATH_AUTO;
}
