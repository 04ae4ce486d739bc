/* n1_algs.c: an experiment (not part of the library): cuSPARSE's ALG_DEFAULT
 * and CSR_ALG2 at N = 1 on one matrix, timed the ways the library's tuning
 * (raced, 7 runs) and spmm_run's benchmark (in a row, 3 + 20 runs) time
 * them, in several orders, to see why the tuning's pick ran slower than the
 * benchmark's best at N = 1 on the H200. Built against the library's
 * internal headers and static library (see run.sh). */
#include "cusparse_path.h"
#include "gpu_timer.h"

#include <cuda_runtime.h>
#include <cusparse.h>
#include <stdio.h>
#include <stdlib.h>

static float *device_random(size_t count, unsigned seed)
{
    float *h = malloc(count * sizeof(float)), *d = NULL;
    srand(seed);
    for (size_t i = 0; i < count; i++) h[i] = (float)rand() / RAND_MAX - 0.5f;
    cudaMalloc((void **)&d, count * sizeof(float));
    cudaMemcpy(d, h, count * sizeof(float), cudaMemcpyHostToDevice);
    free(h);
    return d;
}

int main(int argc, char **argv)
{
    tcspmm_csr A;
    if (argc < 2 || tcspmm_read_mtx(argv[1], &A)) return 2;
    cusparse_path *p = NULL;
    if (cusparse_path_create(&A, NULL, &p)) return 2;
    gpu_timer t;
    if (gpu_timer_create(&t, NULL)) return 2;
    cusparse_path_call c[2] = {
        {p, CUSPARSE_SPMM_ALG_DEFAULT, {1, 1, 1, 1.0f, 0.0f, NULL, NULL, TCSPMM_LAYOUT_ROW_MAJOR, NULL}},
        {p, CUSPARSE_SPMM_CSR_ALG2, {1, 1, 1, 1.0f, 0.0f, NULL, NULL, TCSPMM_LAYOUT_ROW_MAJOR, NULL}}};
    for (int i = 0; i < 2; i++) {
        c[i].op.B = device_random((size_t)A.cols, 1);
        c[i].op.C = device_random((size_t)A.rows, 2);
    }
    const gpu_timer_fn fns[2] = {cusparse_path_run, cusparse_path_run};
    void *const args[2] = {&c[0], &c[1]};
    const gpu_timer_fn rev_fns[2] = {cusparse_path_run, cusparse_path_run};
    void *const rev_args[2] = {&c[1], &c[0]};
    float ms[2], runs[20];
    for (int round = 0; round < 3; round++) {
        gpu_timer_race(&t, fns, args, 2, 2, ms);
        printf("race DEFAULT,ALG2        : DEFAULT %.2f us  ALG2 %.2f us\n", ms[0] * 1e3, ms[1] * 1e3);
        gpu_timer_race(&t, rev_fns, rev_args, 2, 2, ms);
        printf("race ALG2,DEFAULT        : DEFAULT %.2f us  ALG2 %.2f us\n", ms[1] * 1e3, ms[0] * 1e3);
        for (int i = 0; i < 2; i++) {
            gpu_timer_run(&t, cusparse_path_run, &c[i], 1, 7, runs);
            ms[i] = runs[3];
        }
        printf("in a row, 1 + 7          : DEFAULT %.2f us  ALG2 %.2f us\n", ms[0] * 1e3, ms[1] * 1e3);
        for (int i = 0; i < 2; i++) {
            gpu_timer_run(&t, cusparse_path_run, &c[i], 3, 20, runs);
            ms[i] = runs[10];
        }
        printf("in a row, 3 + 20         : DEFAULT %.2f us  ALG2 %.2f us\n", ms[0] * 1e3, ms[1] * 1e3);
    }
    printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
