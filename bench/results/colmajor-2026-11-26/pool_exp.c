/* experiment: HRPB column-major calls with the default mempool trimming vs kept. */
#include "tcspmm.h"
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>

static int cmp(const void *a, const void *b) { float x = *(const float *)a, y = *(const float *)b; return (x > y) - (x < y); }

static void timeit(tcspmm_plan *plan, int64_t n, const float *dB, int64_t ldb, float *dC, int64_t ldc, tcspmm_layout lay, const char *what)
{
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    float ms[40];
    for (int i = -3; i < 40; i++) {
        cudaEventRecord(a, 0);
        if (tcspmm_spmm(plan, n, 1.0f, dB, ldb, 0.0f, dC, ldc, lay, NULL)) { printf("err %s\n", tcspmm_last_error()); exit(1); }
        cudaEventRecord(b, 0);
        cudaEventSynchronize(b);
        if (i >= 0) cudaEventElapsedTime(&ms[i], a, b);
    }
    qsort(ms, 40, sizeof(float), cmp);
    printf("%-28s n=%lld min %.4f median %.4f max %.4f ms\n", what, (long long)n, ms[0], ms[20], ms[39]);
}

int main(int argc, char **argv)
{
    tcspmm_csr A;
    if (tcspmm_read_mtx(argv[1], &A)) { printf("%s\n", tcspmm_last_error()); return 1; }
    tcspmm_options o; tcspmm_options_init(&o); o.path = TCSPMM_PATH_HRPB;
    tcspmm_plan *plan; if (tcspmm_plan_create(&A, &o, &plan)) { printf("%s\n", tcspmm_last_error()); return 1; }
    int64_t n = atoll(argv[2]);
    size_t bb = (size_t)A.cols * n * 4, cb = (size_t)A.rows * n * 4;
    float *dB, *dC; cudaMalloc((void **)&dB, bb); cudaMalloc((void **)&dC, cb);
    float *h = malloc(bb); for (size_t i = 0; i < bb / 4; i++) h[i] = (float)rand() / RAND_MAX - 0.5f;
    cudaMemcpy(dB, h, bb, cudaMemcpyHostToDevice); free(h);
    printf("%s: %lld x %lld, %lld nnz\n", argv[1], (long long)A.rows, (long long)A.cols, (long long)A.nnz);
    timeit(plan, n, dB, n, dC, n, TCSPMM_LAYOUT_ROW_MAJOR, "row-major");
    timeit(plan, n, dB, A.cols, dC, A.rows, TCSPMM_LAYOUT_COL_MAJOR, "col-major, default pool");
    cudaMemPool_t pool; cudaDeviceGetDefaultMemPool(&pool, 0);
    uint64_t keep = UINT64_MAX; cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
    timeit(plan, n, dB, A.cols, dC, A.rows, TCSPMM_LAYOUT_COL_MAJOR, "col-major, default keeps");
    return 0;
}
