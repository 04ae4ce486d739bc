/* prep_alt.c: an experiment (not part of the library): what the cuSPARSE
 * path's per-algorithm preprocessing (redone whenever a call's B or C
 * buffer changes) costs a caller whose C changes on every call. For one
 * Matrix Market file, each N given, both layouts and each of the path's
 * algorithms, it times cusparse_path_spmm with one C ("fixed": preprocessed
 * once) and with C alternating between two buffers ("alt": preprocessed on
 * every call); gpu_timer_run, L2 flushed, 3 + 20 runs, the median in us.
 * Then, through the public API on a cuSPARSE plan (which picks its
 * algorithm), 200 calls back to back with C fixed and with C alternating:
 * the time per call; the same on an auto plan measuring at the first call
 * and on an HRPB plan (added in the session after), with the path the
 * auto plan reports for the shape after each. Built like n1_spmv.c (see
 * run.sh). */
#include "cusparse_path.h"
#include "gpu_timer.h"
#include "tcspmm.h"

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct call {
    cusparse_path *p;
    int alg, alternate, flip;
    int64_t n, ldb, ldc;
    tcspmm_layout layout;
    const float *B;
    float *C[2];
} call;

static tcspmm_status run(void *arg)
{
    call *c = arg;
    float *C = c->C[c->alternate ? (c->flip ^= 1) : 0];
    return cusparse_path_spmm(c->p, c->alg, c->n, 1.0f, c->B, c->ldb, 0.0f, C, c->ldc, c->layout,
                              NULL);
}

static float *device_random(size_t count, unsigned seed)
{
    float *h = malloc(count * sizeof(float)), *d = NULL;
    if (!h) exit(1);
    srand(seed);
    for (size_t i = 0; i < count; i++) h[i] = (float)rand() / RAND_MAX - 0.5f;
    if (cudaMalloc((void **)&d, count * sizeof(float)) != cudaSuccess ||
        cudaMemcpy(d, h, count * sizeof(float), cudaMemcpyHostToDevice) != cudaSuccess)
        exit(1);
    free(h);
    return d;
}

/* us per call of 200 tcspmm_spmm calls on a plan of path, C fixed and alternating. */
static void plan_calls(const tcspmm_csr *A, const call *c, tcspmm_path path)
{
    tcspmm_options opt;
    tcspmm_options_init(&opt);
    opt.path = path;
    opt.measure_at_first_call = 1;
    tcspmm_plan *plan = NULL;
    cudaEvent_t start, stop;
    if (tcspmm_plan_create(A, &opt, &plan) || cudaEventCreate(&start) || cudaEventCreate(&stop))
        exit(1);
    float us[2];
    tcspmm_path ran[2];
    for (int alt = 0; alt < 2; alt++) {
        for (int i = 0; i < 210; i++) {
            if (i == 10 && cudaEventRecord(start, NULL)) exit(1);
            float *C = c->C[alt ? i & 1 : 0];
            if (tcspmm_spmm(plan, c->n, 1.0f, c->B, c->ldb, 0.0f, C, c->ldc, c->layout, NULL)) {
                fprintf(stderr, "%s\n", tcspmm_last_error());
                exit(1);
            }
        }
        float ms = 0.0f;
        if (cudaEventRecord(stop, NULL) || cudaEventSynchronize(stop) ||
            cudaEventElapsedTime(&ms, start, stop))
            exit(1);
        us[alt] = ms * 1e3f / 200;
        if (tcspmm_plan_path_for(plan, c->n, c->layout, 0.0f, &ran[alt])) exit(1);
    }
    printf("N=%-4lld %s %s plan: fixed %8.2f us/call  alt %8.2f us/call  alt/fixed %.3f "
           "(path %s, %s)\n",
           (long long)c->n, c->layout == TCSPMM_LAYOUT_ROW_MAJOR ? "row" : "col",
           tcspmm_path_name(path), us[0], us[1], us[1] / us[0], tcspmm_path_name(ran[0]),
           tcspmm_path_name(ran[1]));
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    tcspmm_plan_destroy(plan);
}

int main(int argc, char **argv)
{
    tcspmm_csr A;
    cusparse_path *p = NULL;
    gpu_timer t;
    if (argc < 3 || tcspmm_read_mtx(argv[1], &A) || cusparse_path_create(&A, NULL, &p) ||
        gpu_timer_create(&t, NULL)) {
        fprintf(stderr, "usage: prep_alt MATRIX N...  (%s)\n", tcspmm_last_error());
        return 2;
    }
    for (int a = 2; a < argc; a++) {
        const int64_t n = atoll(argv[a]);
        for (int layout = 0; layout < 2; layout++) {
            const int row = layout == TCSPMM_LAYOUT_ROW_MAJOR;
            call c = {p, 0, 0, 0, n, row ? n : A.cols, row ? n : A.rows, (tcspmm_layout)layout,
                      device_random((size_t)(A.cols * n), 1),
                      {device_random((size_t)(A.rows * n), 2), device_random((size_t)(A.rows * n), 3)}};
            for (int i = 0; i < CUSPARSE_PATH_NUM_ALGS; i++) {
                float ms[2][20];
                c.alg = cusparse_path_algs[i];
                tcspmm_status st = TCSPMM_SUCCESS;
                for (int alt = 0; alt < 2 && !st; alt++) {
                    c.alternate = alt;
                    st = gpu_timer_run(&t, run, &c, 3, 20, ms[alt]);
                }
                if (st == TCSPMM_ERROR_UNSUPPORTED) continue;
                if (st) {
                    fprintf(stderr, "%s\n", tcspmm_last_error());
                    return 1;
                }
                printf("N=%-4lld %s %-11s fixed %8.2f us  alt %8.2f us  alt/fixed %.3f\n",
                       (long long)n, row ? "row" : "col", cusparse_path_alg_name(c.alg),
                       ms[0][10] * 1e3, ms[1][10] * 1e3, ms[1][10] / ms[0][10]);
            }
            plan_calls(&A, &c, TCSPMM_PATH_CUSPARSE);
            plan_calls(&A, &c, TCSPMM_PATH_AUTO);
            plan_calls(&A, &c, TCSPMM_PATH_HRPB);
            cudaFree((void *)c.B);
            cudaFree(c.C[0]);
            cudaFree(c.C[1]);
        }
    }
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
