/* test_auto_path.c: the rule of TCSPMM_PATH_AUTO (auto_path.h) on made-up
 * plan metrics, at the edges of its calibrated thresholds (the rule alone):
 *  - dense bricks go to HRPB, sparse ones to cuSPARSE, and the reason says
 *    which test decided and in which row order;
 *  - the N buckets (each table's own, from N = 2 to above 512) and the
 *    precision pick different thresholds, and at N = 1 the rule always takes
 *    cuSPARSE;
 *  - clustered rows need a higher alpha at N = 32 than A's own order (the
 *    alpha that wins in A's order lost in clustered order: g7jac120sc);
 *  - a full GPU with light panels lowers the alpha needed, heavy panels do
 *    not;
 * and with measurement on, only the dense test decides at plan time: every
 * other matrix, N = 1 included, is left to the measurement (AUTO), and the
 * reason keeps the rule's; a measurement covers a range of N whose edges
 * are the HRPB kernel's (32, 64, 128), and it is taken once the calls run
 * on HRPB until then have cost about what measuring does. */
#include <string.h>

#include "auto_path.h"
#include "gpu_timer.h"
#include "harness.h"
#include "path_trial.h"

static tcspmm_info metrics(double alpha, double waves, int64_t median, const char *order)
{
    tcspmm_info info;
    memset(&info, 0, sizeof info);
    info.alpha = alpha;
    info.waves = waves;
    info.blocks_per_panel_median = median;
    info.row_order = order;
    info.synergy = "medium";
    return info;
}

static tcspmm_path choose_how(double alpha, double waves, int64_t median, const char *order,
                              int64_t n, tcspmm_precision p, int measure, char *why)
{
    tcspmm_info info = metrics(alpha, waves, median, order);
    return auto_path_choose(&info, n, p, measure, why, 256);
}

static tcspmm_path choose(double alpha, double waves, int64_t median, const char *order,
                          int64_t n, tcspmm_precision p, char *why)
{
    return choose_how(alpha, waves, median, order, n, p, 0, why);
}

int main(void)
{
    const tcspmm_precision TF = TCSPMM_PRECISION_TF32, FP = TCSPMM_PRECISION_FP32;
    const tcspmm_path H = TCSPMM_PATH_HRPB, S = TCSPMM_PATH_CUSPARSE;
    char why[256];

    /* dense bricks, and the reason names the test and the row order */
    CHECK(choose(0.30, 2.0, 50, "natural", 128, TF, why) == H);
    CHECK(strstr(why, "dense bricks") && strstr(why, "natural rows"));
    CHECK(choose(0.02, 2.0, 50, "clustered", 128, TF, why) == S);
    CHECK(strstr(why, "cuSPARSE") && strstr(why, "clustered rows"));

    /* N = 32, A's order: alpha 0.17 with a wave of work wins; clustered it
     * needs 0.19, and a full wave */
    CHECK(choose(0.17, 1.0, 50, "natural", 32, TF, why) == H);
    CHECK(choose(0.17, 1.0, 50, "clustered", 32, TF, why) == S);
    CHECK(choose(0.20, 1.0, 50, "clustered", 32, TF, why) == H);
    CHECK(choose(0.20, 0.8, 50, "clustered", 32, TF, why) == S);
    CHECK(choose(0.17, 0.5, 50, "natural", 32, TF, why) == S); /* under 0.6 waves */

    /* the N buckets: alpha 0.12 loses at N = 32, wins at 128 and 512 */
    CHECK(choose(0.12, 2.0, 50, "natural", 32, TF, why) == S);
    CHECK(choose(0.12, 2.0, 50, "natural", 128, TF, why) == H);
    CHECK(choose(0.12, 2.0, 50, "natural", 512, TF, why) == H);
    CHECK(choose(0.09, 2.0, 50, "natural", 256, TF, why) == S);
    CHECK(choose(0.09, 2.0, 50, "natural", 257, TF, why) == H);
    /* the fill test at N = 129-512 needs alpha 0.076-0.077: R-MAT graphs
     * (alpha 0.072, median 2 blocks per panel) won at N = 128, lost at 256
     * and 512 */
    CHECK(choose(0.072, 71.0, 2, "natural", 128, TF, why) == H);
    CHECK(choose(0.072, 71.0, 2, "natural", 129, TF, why) == S);
    CHECK(choose(0.072, 71.0, 2, "natural", 512, TF, why) == S);
    CHECK(choose(0.077, 71.0, 2, "natural", 256, TF, why) == H);
    CHECK(choose(0.077, 71.0, 2, "natural", 512, TF, why) == H);
    /* N = 49-64 has its own bucket: alpha 0.12 (net100: 0.113, 0.74x at
     * N = 64) stays on cuSPARSE up to 64, and 0.14 needs 0.6 waves there */
    CHECK(choose(0.12, 2.0, 50, "natural", 64, TF, why) == S);
    CHECK(choose(0.12, 2.0, 50, "natural", 65, TF, why) == H);
    CHECK(choose(0.14, 1.0, 50, "natural", 64, TF, why) == H);
    CHECK(choose(0.14, 0.5, 50, "natural", 64, TF, why) == S);
    CHECK(choose(0.20, 1.0, 50, "clustered", 64, FP, why) == S);
    CHECK(choose(0.23, 0.1, 50, "clustered", 64, FP, why) == H);
    /* above N = 512 (A's order, TF32) a light full GPU no longer lowers the
     * alpha needed: coupled, alpha 0.076 with 6.1 waves, lost at N = 1024 */
    CHECK(choose(0.076, 6.1, 7, "natural", 512, TF, why) == H);
    CHECK(choose(0.076, 6.1, 7, "natural", 513, TF, why) == S);
    CHECK(choose(0.09, 0.1, 50, "natural", 1024, TF, why) == H);
    /* clustered rows in FP32 above N = 512 need alpha 0.193: circuit_4
     * (alpha 0.125 on 51 waves) lost at N = 1024 */
    CHECK(choose(0.125, 51.0, 2, "clustered", 512, FP, why) == H);
    CHECK(choose(0.125, 51.0, 2, "clustered", 513, FP, why) == S);
    CHECK(choose(0.194, 0.1, 50, "clustered", 1024, FP, why) == H);

    /* N = 1 always cuSPARSE, however dense; N = 2 uses the N = 32 table */
    CHECK(choose(0.90, 4.0, 5, "natural", 1, TF, why) == S);
    CHECK(strstr(why, "N=1") != NULL);
    CHECK(choose(0.90, 4.0, 5, "clustered", 1, FP, why) == S);
    CHECK(choose(0.17, 1.0, 50, "natural", 2, TF, why) == H);
    CHECK(choose(0.12, 1.0, 50, "natural", 2, TF, why) == S);

    /* FP32 under N = 32 needs denser bricks than TF32 (wave: alpha 0.118 on a
     * full GPU with light panels lost at N = 4-16 in FP32) */
    CHECK(choose(0.118, 3.9, 7, "natural", 16, TF, why) == H);
    CHECK(choose(0.118, 3.9, 7, "natural", 16, FP, why) == S);
    CHECK(choose(0.118, 3.9, 7, "natural", 32, FP, why) == H);
    CHECK(choose(0.23, 1.0, 50, "natural", 16, FP, why) == H);

    /* FP32 needs denser bricks than TF32 at N = 512 */
    CHECK(choose(0.12, 2.0, 50, "natural", 512, FP, why) == S);
    CHECK(choose(0.16, 2.0, 50, "natural", 512, FP, why) == H);

    /* full GPU with light panels: a lower alpha wins; heavy panels or few
     * waves do not */
    CHECK(choose(0.08, 4.0, 10, "natural", 128, TF, why) == H);
    CHECK(strstr(why, "full GPU") != NULL);
    CHECK(choose(0.08, 4.0, 11, "natural", 128, TF, why) == S);
    CHECK(choose(0.08, 3.0, 10, "natural", 128, TF, why) == S);

    /* no row order recorded (a plan without HRPB metrics) counts as natural */
    CHECK(choose(0.17, 1.0, 50, NULL, 32, TF, why) == H);

    /* measured: the dense test still sends dense bricks to HRPB; the fill
     * test's and cuSPARSE's matrices, and N = 1, are measured */
    const tcspmm_path M = TCSPMM_PATH_AUTO;
    CHECK(choose_how(0.30, 2.0, 50, "natural", 128, TF, 1, why) == H);
    CHECK(strstr(why, "dense bricks") == why);
    CHECK(choose_how(0.08, 4.0, 10, "natural", 128, TF, 1, why) == M);
    CHECK(strstr(why, "measured") == why && strstr(why, "full GPU") != NULL);
    CHECK(choose_how(0.02, 2.0, 50, "clustered", 128, TF, 1, why) == M);
    CHECK(strstr(why, "cuSPARSE") != NULL && strstr(why, "clustered rows") != NULL);
    CHECK(choose_how(0.90, 4.0, 5, "natural", 1, TF, 1, why) == M);
    CHECK(choose_how(0.12, 2.0, 50, "natural", 512, FP, 1, why) == M);
    CHECK(choose_how(0.16, 2.0, 50, "natural", 512, FP, 1, why) == H);

    /* the ranges of N a measurement covers: 1, 2, 3, 4, 5-8, ..., 33-64, 65-128 */
    CHECK(gpu_timer_n_range(1) == 0 && gpu_timer_n_range(2) == 1 && gpu_timer_n_range(3) == 2);
    CHECK(gpu_timer_n_range(4) == 3 && gpu_timer_n_range(5) == 4 && gpu_timer_n_range(8) == 4);
    CHECK(gpu_timer_n_range(17) == gpu_timer_n_range(32) && gpu_timer_n_range(32) != gpu_timer_n_range(33));
    CHECK(gpu_timer_n_range(33) == gpu_timer_n_range(64) && gpu_timer_n_range(64) != gpu_timer_n_range(65));
    CHECK(gpu_timer_n_range(65) == gpu_timer_n_range(128) && gpu_timer_n_range(128) != gpu_timer_n_range(129));
    CHECK(gpu_timer_n_range(INT64_MAX) == 64);

    /* a choice's shape: one index per range of N, layout and beta zero or
     * not, every one of them below GPU_TIMER_SHAPES */
    const int R = TCSPMM_LAYOUT_ROW_MAJOR, Cm = TCSPMM_LAYOUT_COL_MAJOR;
    const int s0 = gpu_timer_shape(100, R, 0.0f);
    CHECK(s0 == gpu_timer_shape(65, R, 0.0f) && s0 == gpu_timer_shape(128, R, 0.0f));
    CHECK(s0 != gpu_timer_shape(100, R, 0.5f) && s0 != gpu_timer_shape(100, Cm, 0.0f));
    CHECK(gpu_timer_shape(100, R, -1.0f) == gpu_timer_shape(100, R, 0.5f));
    int seen[GPU_TIMER_SHAPES] = {0}, distinct = 0;
    for (int r = 0; r < 65; r++) /* n = 1, 2, 3, 4, 8, ..., 2^62, INT64_MAX */
        for (int layout = 0; layout < 2; layout++)
            for (int beta = 0; beta < 2; beta++) {
                const int64_t n = r < 3 ? r + 1 : r == 64 ? INT64_MAX : (int64_t)1 << (r - 1);
                const int s = gpu_timer_shape(n, (tcspmm_layout)layout, (float)beta);
                CHECK(s >= 0 && s < GPU_TIMER_SHAPES);
                if (s >= 0 && s < GPU_TIMER_SHAPES && !seen[s]++) distinct++;
            }
    CHECK(distinct == GPU_TIMER_SHAPES);

    /* when a shape is measured: once its calls on HRPB have cost
     * PATH_TRIAL_COST_MS (50) plus PATH_TRIAL_PRODUCTS (32) calls; never
     * before one call is timed; a 15.6 us call after 3232 calls, a 2 ms call
     * after 57, a 1 s call after 33 */
    CHECK(!path_trial_due(1000000, -1.0f));
    CHECK(!path_trial_due(3231, 0.015625f) && path_trial_due(3232, 0.015625f));
    CHECK(!path_trial_due(56, 2.0f) && path_trial_due(57, 2.0f));
    CHECK(!path_trial_due(32, 1000.0f) && path_trial_due(33, 1000.0f));
    CHECK(!path_trial_due(0, 0.0f));

    /* the faster path by a race's medians (ALG_DEFAULT, CSR_ALG2, CSR_ALG3,
     * HRPB): HRPB must beat every algorithm the call may run, and a call
     * without CSR_ALG3 compares it with the others only */
    const float alg3_fastest[] = {3.0f, 2.5f, 1.0f, 2.0f};
    CHECK(path_trial_faster(alg3_fastest, 1) == TCSPMM_PATH_CUSPARSE);
    CHECK(path_trial_faster(alg3_fastest, 0) == TCSPMM_PATH_HRPB);
    const float hrpb_slowest[] = {3.0f, 2.5f, 1.0f, 4.0f};
    CHECK(path_trial_faster(hrpb_slowest, 0) == TCSPMM_PATH_CUSPARSE);
    const float tie[] = {2.0f, -1.0f, -1.0f, 2.0f}; /* a tie keeps cuSPARSE */
    CHECK(path_trial_faster(tie, 1) == TCSPMM_PATH_CUSPARSE);
    const float none_offered[] = {-1.0f, -1.0f, 1.0f, 9.0f};
    CHECK(path_trial_faster(none_offered, 0) == TCSPMM_PATH_HRPB);
    CHECK(path_trial_faster(none_offered, 1) == TCSPMM_PATH_CUSPARSE);
    return tests_finish();
}
