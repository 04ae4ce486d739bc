/* experiment: where the time of a column-major product goes on the HRPB path (B transposed
 * into row-major scratch, C written column-major). For one HRPB plan (A's own order, made for
 * the default N = 128) and each N given, the median of 30 calls, CUDA events, L2 flushed
 * (a 256 MB memset) before each call, of:
 *   rm  the row-major product (B and C row-major, ldb = ldc = N);
 *   cm  the column-major product as the library runs it (B transposed first);
 *   T   the transpose of B alone (dense_transpose_to_row_major);
 * and cm - T - rm, what the column-major product costs beyond the transpose.
 * With NOSPLIT=1 in the environment the plan is made for one SM holding one block, so that
 * no panel is split (the launch order may differ too). Also prints the split panels.
 * With FP32=1 the plan is FP32-accurate (3xTF32). With LDC=k the column-major C (and B) has leading dimension rows + k (cols + k), 0 by default.
 *   parts MATRIX|gen:SPEC N...                                                         */
#include "tcspmm.h"
#include "plan.h"
#include "families.h"
#include "kernels/hrpb_gpu_internal.h"
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_) { printf("CUDA %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)
#define ST(x) do { if (x) { printf("%s\n", tcspmm_last_error()); exit(1); } } while (0)
static int cmp(const void *a, const void *b) { float x = *(const float *)a, y = *(const float *)b; return (x > y) - (x < y); }

typedef struct { const hrpb_gpu *g; int64_t n, rows, cols; float *B, *Bt, *C; int what; int64_t pad; } job;
static char *flush_buf;
static void run(job *j)
{
    const int64_t ldt = (j->n + 3) / 4 * 4;
    if (j->what == 0)
        ST(hrpb_gpu_spmm_mode(j->g, j->n, 1.0f, j->Bt, SP24_DATA_FP32, j->n, 0.0f, j->C, SP24_DATA_FP32, j->n,
                              TCSPMM_LAYOUT_ROW_MAJOR, HRPB_COLB_AUTO, HRPB_STAGES_AUTO, NULL));
    else if (j->what == 1)
        ST(hrpb_gpu_spmm_mode(j->g, j->n, 1.0f, j->B, SP24_DATA_FP32, j->cols + j->pad, 0.0f, j->C, SP24_DATA_FP32, j->rows + j->pad,
                              TCSPMM_LAYOUT_COL_MAJOR, HRPB_COLB_TRANSPOSE, HRPB_STAGES_AUTO, NULL));
    else
        ST(dense_transpose_to_row_major(j->B, j->cols + j->pad, j->cols, j->n, j->Bt, ldt, NULL));
}
static float med(job *j)
{
    cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
    float ms[30];
    for (int i = -3; i < 30; i++) {
        CK(cudaMemsetAsync(flush_buf, i & 0xff, 256 << 20, 0));
        CK(cudaEventRecord(a, 0)); run(j); CK(cudaEventRecord(b, 0)); CK(cudaEventSynchronize(b));
        if (i >= 0) CK(cudaEventElapsedTime(&ms[i], a, b));
    }
    qsort(ms, 30, sizeof(float), cmp);
    return ms[15];
}
int main(int argc, char **argv)
{
    tcspmm_csr A;
    ST(strncmp(argv[1], "gen:", 4) == 0 ? family_generate(argv[1] + 4, &A) : tcspmm_read_mtx(argv[1], &A));
    tcspmm_options o; tcspmm_options_init(&o); o.path = TCSPMM_PATH_HRPB;
    if (getenv("FP32") && atoi(getenv("FP32"))) o.precision = TCSPMM_PRECISION_FP32;
    if (getenv("NOSPLIT") && atoi(getenv("NOSPLIT"))) o.num_sms = o.blocks_per_sm = 1;
    tcspmm_plan *plan; ST(tcspmm_plan_create(&A, &o, &plan));
    const hrpb_gpu *g = plan->hrpb_dev;
    hrpb_vpanel *vp = malloc(g->num_vpanels * sizeof *vp);
    CK(cudaMemcpy(vp, g->vpanels, g->num_vpanels * sizeof *vp, cudaMemcpyDeviceToHost));
    int64_t parts = 0, part_blocks = 0, blocks = 0;
    for (int64_t i = 0; i < g->num_vpanels; i++) {
        blocks += vp[i].blocks;
        if (vp[i].split) parts++, part_blocks += vp[i].blocks;
    }
    printf("%s: %lld rows, %lld vpanels, %lld split panels in %lld parts holding %lld of %lld blocks\n",
           argv[1], (long long)A.rows, (long long)g->num_vpanels, (long long)g->num_split_panels,
           (long long)parts, (long long)part_blocks, (long long)blocks);
    CK(cudaMalloc((void **)&flush_buf, 256 << 20));
    for (int a = 2; a < argc; a++) {
        job j = {plan->hrpb_dev, atoll(argv[a]), A.rows, A.cols};
        j.pad = getenv("LDC") ? atoll(getenv("LDC")) : 0;
        const int64_t ldt = (j.n + 3) / 4 * 4;
        size_t bb = (size_t)(A.cols + j.pad) * ldt * 4, cb = (size_t)(A.rows + j.pad) * j.n * 4;
        CK(cudaMalloc((void **)&j.B, bb)); CK(cudaMalloc((void **)&j.Bt, bb)); CK(cudaMalloc((void **)&j.C, cb));
        float *h = malloc(bb);
        uint64_t x = 7;
        for (size_t i = 0; i < bb / 4; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            h[i] = (float)(x >> 40) / (float)(1 << 24) - 0.5f;
        }
        CK(cudaMemcpy(j.B, h, bb, cudaMemcpyHostToDevice)); CK(cudaMemcpy(j.Bt, h, bb, cudaMemcpyHostToDevice));
        float t[3];
        for (j.what = 0; j.what < 3; j.what++) t[j.what] = med(&j);
        const double bytes = 2.0 * A.cols * j.n * 4;
        printf("%-36s ldc+%lld n=%-4lld rm %.4f  cm %.4f  T %.4f (%.0f GB/s)  cm-T-rm %.4f  cm/rm %.2f\n", argv[1], (long long)j.pad,
               (long long)j.n, t[0], t[1], t[2], bytes / t[2] / 1e6, t[1] - t[2] - t[0], t[1] / t[0]);
        CK(cudaFree(j.B)); CK(cudaFree(j.Bt)); CK(cudaFree(j.C)); free(h);
    }
    return 0;
}
