/* experiment: where a column-major HRPB product's time goes: the B transpose alone, the whole
 * column-major product, the row-major product (CUDA events, synchronized, median of 40). */
#include "tcspmm.h"
#include "kernels/hrpb_gpu_internal.h"
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b) { float x = *(const float *)a, y = *(const float *)b; return (x > y) - (x < y); }
typedef struct { tcspmm_plan *plan; int64_t n, rows, cols; float *B, *C, *T; int what; } job;
static void run(job *j)
{
    if (j->what == 0) dense_transpose_to_row_major(j->B, j->cols, j->cols, j->n, j->T, (j->n + 3) / 4 * 4, NULL);
    else if (j->what == 1) tcspmm_spmm(j->plan, j->n, 1.0f, j->B, j->cols, 0.0f, j->C, j->rows, TCSPMM_LAYOUT_COL_MAJOR, NULL);
    else tcspmm_spmm(j->plan, j->n, 1.0f, j->B, j->n, 0.0f, j->C, j->n, TCSPMM_LAYOUT_ROW_MAJOR, NULL);
}
static float med(job *j)
{
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    float ms[40];
    for (int i = -3; i < 40; i++) {
        cudaEventRecord(a, 0); run(j); cudaEventRecord(b, 0); cudaEventSynchronize(b);
        if (i >= 0) cudaEventElapsedTime(&ms[i], a, b);
    }
    qsort(ms, 40, sizeof(float), cmp);
    return ms[20];
}
int main(int argc, char **argv)
{
    tcspmm_csr A;
    if (tcspmm_read_mtx(argv[1], &A)) return 1;
    tcspmm_options o; tcspmm_options_init(&o); o.path = TCSPMM_PATH_HRPB;
    if (argc > 3 && argv[3][0] == 'f') o.precision = TCSPMM_PRECISION_FP32;
    if (argc > 3 && argv[3][0] == 't') o.panel_rows = 32;
    tcspmm_plan *plan; if (tcspmm_plan_create(&A, &o, &plan)) { printf("%s\n", tcspmm_last_error()); return 1; }
    job j = {plan, atoll(argv[2]), A.rows, A.cols};
    size_t bb = (size_t)A.cols * (j.n + 4) * 4, cb = (size_t)A.rows * j.n * 4;
    cudaMalloc((void **)&j.B, bb); cudaMalloc((void **)&j.C, cb); cudaMalloc((void **)&j.T, bb);
    float *h = malloc(bb); for (size_t i = 0; i < bb / 4; i++) h[i] = (float)rand() / RAND_MAX - 0.5f;
    cudaMemcpy(j.B, h, bb, cudaMemcpyHostToDevice); free(h);
    float t[3];
    for (j.what = 0; j.what < 3; j.what++) t[j.what] = med(&j);
    double bbytes = 2.0 * A.cols * j.n * 4;
    printf("%-22s n=%-4lld %s transpose %.4f ms (%.0f GB/s)  col-major product %.4f  row-major product %.4f  col - transpose - row %.4f\n",
           argv[1], (long long)j.n, argc > 3 ? argv[3] : "tf32", t[0], bbytes / t[0] / 1e6, t[1], t[2], t[1] - t[0] - t[2]);
    return 0;
}
