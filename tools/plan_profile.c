/* plan_profile: where the time of a plan with a GPU goes, step by step, in
 * the order tcspmm_plan_create takes them, beside the whole call and one
 * cuSPARSE SpMM (best algorithm, N = 128, row-major; the --bench timing).
 *
 *   plan_profile [--reps R] (FILE.mtx[.gz] | gen:SPEC)...
 *
 * Per input, R rounds (default 3) of: the host row_ptr check, page-locking
 * and releasing the staging buffers that the CSR upload will take (alone,
 * host_upload.h), the CSR upload (staging again included),
 * the device entry check and structure detection, the device HRPB build,
 * metrics, wave split, the virtual panels' upload, then tcspmm_plan_create
 * itself (default options); then the host HRPB build for comparison, and
 * tcspmm_plan_create_device on the uploaded arrays ("from device"). Each
 * step is timed alone with the device synchronized after it; every number
 * printed is the median over the rounds (the first round also pays for
 * starting kernels, so R >= 3). The CUDA context is made before the first
 * round. */
#include <cuda_runtime.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_gpu.h"
#include "csr_gpu.h"
#include "error.h"
#include "families.h"
#include "format/csr.h"
#include "format/hrpb.h"
#include "host_upload.h"
#include "kernels/hrpb_gpu.h"
#include "loadbalance/wave_split.h"

enum { ROW_PTR_CHECK, STAGING_LOCK, CSR_UPLOAD, DEVICE_CHECK, DEVICE_BUILD, METRICS, WAVE_SPLIT,
       PANELS_UPLOAD, PLAN_CREATE, HOST_BUILD, FROM_DEVICE, STEPS };
enum { MAX_REPS = 50 };
static const char *const step_names[STEPS] = {
    "row_ptr check", "staging lock", "CSR upload", "device check", "device build", "metrics",
    "wave split", "panels upload", "plan_create", "host build", "from device"};

static double now_ms(void) { return omp_get_wtime() * 1e3; }

static int die(tcspmm_status st, const char *what)
{
    fprintf(stderr, "plan_profile: %s: %s: %s\n", what, tcspmm_status_string(st), tcspmm_last_error());
    return 2;
}

/* One round: ms[s] for each step s. */
static tcspmm_status round_of(const tcspmm_csr *A, double *ms)
{
    tcspmm_options opt;
    tcspmm_options_init(&opt);
    csr_gpu dA;
    hrpb shape, host;
    hrpb_counts counts;
    hrpb_gpu *g = NULL;
    wave_split w;
    tcspmm_info info;
    sp24_structure s;
    int blocks_per_sm = 0;
    int64_t n_tile = 0;
    double t = now_ms();
    TCSPMM_TRY(csr_validate_row_ptr(A));
    ms[ROW_PTR_CHECK] = now_ms() - t, t = now_ms();
    host_upload u;
    TCSPMM_TRY(host_upload_close(&u, host_upload_open(&u, csr_gpu_upload_bytes(A))));
    ms[STAGING_LOCK] = now_ms() - t, t = now_ms();
    TCSPMM_TRY(csr_gpu_upload(A, &dA));
    ms[CSR_UPLOAD] = now_ms() - t, t = now_ms();
    TCSPMM_TRY(csr_gpu_check(&dA, 0, &s));
    ms[DEVICE_CHECK] = now_ms() - t, t = now_ms();
    TCSPMM_TRY(hrpb_gpu_build(&dA, opt.panel_rows, &shape, &counts, &g));
    ms[DEVICE_BUILD] = now_ms() - t, t = now_ms();
    hrpb_metrics_counted(&shape, &counts, &info);
    ms[METRICS] = now_ms() - t, t = now_ms();
    TCSPMM_TRY(hrpb_gpu_occupancy(opt.expected_n, opt.panel_rows, opt.precision, &blocks_per_sm,
                                  &n_tile));
    int num_sms = 0;
    TCSPMM_TRY(TCSPMM_CUDA(cudaDeviceGetAttribute(&num_sms, cudaDevAttrMultiProcessorCount, 0)));
    TCSPMM_TRY(wave_split_build(&shape, (opt.expected_n + n_tile - 1) / n_tile, num_sms,
                                blocks_per_sm, &w));
    ms[WAVE_SPLIT] = now_ms() - t, t = now_ms();
    TCSPMM_TRY(hrpb_gpu_set_split(g, &w, opt.precision));
    TCSPMM_TRY(TCSPMM_CUDA(cudaDeviceSynchronize()));
    ms[PANELS_UPLOAD] = now_ms() - t;
    hrpb_gpu_free(g);
    wave_split_free(&w);
    hrpb_free(&shape);
    tcspmm_csr on_device = {A->rows, A->cols, A->nnz, dA.row_ptr, dA.col_idx, dA.values};
    tcspmm_plan *from_device = NULL;
    t = now_ms();
    TCSPMM_TRY(tcspmm_plan_create_device(&on_device, &opt, &from_device));
    ms[FROM_DEVICE] = now_ms() - t;
    tcspmm_plan_destroy(from_device);
    csr_gpu_free(&dA);
    tcspmm_plan *plan = NULL;
    t = now_ms();
    TCSPMM_TRY(tcspmm_plan_create(A, &opt, &plan));
    ms[PLAN_CREATE] = now_ms() - t;
    tcspmm_plan_destroy(plan);
    t = now_ms();
    TCSPMM_TRY(hrpb_build(A, opt.panel_rows, 0, &host));
    ms[HOST_BUILD] = now_ms() - t;
    hrpb_free(&host);
    return TCSPMM_SUCCESS;
}

static int profile(const char *input, int reps)
{
    tcspmm_csr A;
    tcspmm_status st = strncmp(input, "gen:", 4) == 0 ? family_generate(input + 4, &A)
                                                      : tcspmm_read_mtx(input, &A);
    if (st) return die(st, input);
    double ms[STEPS][MAX_REPS];
    for (int r = 0; r < reps && !st; r++) {
        double one[STEPS] = {0};
        st = round_of(&A, one);
        for (int s = 0; s < STEPS; s++) ms[s][r] = one[s];
    }
    tcspmm_plan *plan = NULL;
    tcspmm_options opt;
    tcspmm_options_init(&opt);
    bench_result b;
    if (!st) st = tcspmm_plan_create(&A, &opt, &plan);
    if (!st) st = bench_gpu(plan, &A, 128, TCSPMM_LAYOUT_ROW_MAJOR, 1.0f, 0.0f, TCSPMM_R_32F, TCSPMM_R_32F,
                            20, 1, 0.0, &b);
    tcspmm_plan_destroy(plan);
    if (st) {
        tcspmm_csr_free(&A);
        return die(st, input);
    }
    printf("%s: %lld x %lld, %lld non-zeros; one cuSPARSE SpMM (N = 128, %s) %.3f ms; medians "
           "of %d rounds:\n", input, (long long)A.rows, (long long)A.cols, (long long)A.nnz,
           b.cusparse_alg, b.cusparse_ms, reps);
    double plan_ms = 0;
    for (int s = 0; s < STEPS; s++) {
        double m = bench_median_ms(ms[s], reps);
        if (s == PLAN_CREATE) plan_ms = m;
        printf("  %-14s %9.2f ms\n", step_names[s], m);
    }
    printf("  plan_create / cuSPARSE SpMM: %.1fx; from device: %.1fx\n", plan_ms / b.cusparse_ms,
           bench_median_ms(ms[FROM_DEVICE], reps) / b.cusparse_ms);
    tcspmm_csr_free(&A);
    return 0;
}

int main(int argc, char **argv)
{
    int reps = 3, status = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
            reps = atoi(argv[++i]);
            if (reps < 1 || reps > MAX_REPS) {
                fprintf(stderr, "plan_profile: --reps wants 1..%d\n", MAX_REPS);
                return 2;
            }
            continue;
        }
        int dev = 0;
        if (cudaGetDeviceCount(&dev) != cudaSuccess || dev == 0 || cudaFree(0) != cudaSuccess) {
            fprintf(stderr, "plan_profile: no CUDA device\n");
            return 2;
        }
        status |= profile(argv[i], reps);
    }
    if (argc < 2) fprintf(stderr, "usage: plan_profile [--reps R] (FILE.mtx[.gz] | gen:SPEC)...\n");
    return argc < 2 ? 2 : status;
}
