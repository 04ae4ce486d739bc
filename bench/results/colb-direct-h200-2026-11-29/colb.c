/* experiment: a column-major B read where it lies (the kernel's by-column gather) against the
 * transpose into row-major scratch, and the row-major product, on one HRPB plan. Each time is
 * the median of 30 calls of hrpb_gpu_spmm_mode, CUDA events, L2 flushed before each call.
 *   colb MATRIX|gen:SPEC N [fp32]
 * Prints the three times, the largest difference between the two column-major C (which read
 * the same B values), and the mean count of 32-byte sectors per (HRPB block, column of B) that
 * the block's 16 active columns touch in a column-major B. */
#include "tcspmm.h"
#include "plan.h"
#include "families.h"
#include "kernels/hrpb_gpu_internal.h"
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_) { printf("CUDA %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)
static int cmp(const void *a, const void *b) { float x = *(const float *)a, y = *(const float *)b; return (x > y) - (x < y); }

typedef struct { const hrpb_gpu *g; int64_t n, rows, cols; float *B, *Bt, *C; int what; } job;
static char *flush_buf;
static void run(job *j)
{
    tcspmm_status st;
    if (j->what == 0)
        st = hrpb_gpu_spmm_mode(j->g, j->n, 1.0f, j->Bt, SP24_DATA_FP32, j->n, 0.0f, j->C, SP24_DATA_FP32, j->n,
                                TCSPMM_LAYOUT_ROW_MAJOR, HRPB_COLB_AUTO, HRPB_STAGES_AUTO, NULL);
    else
        st = hrpb_gpu_spmm_mode(j->g, j->n, 1.0f, j->B, SP24_DATA_FP32, j->cols, 0.0f, j->C, SP24_DATA_FP32, j->rows,
                                TCSPMM_LAYOUT_COL_MAJOR, j->what == 1 ? HRPB_COLB_TRANSPOSE : HRPB_COLB_DIRECT,
                                HRPB_STAGES_AUTO, NULL);
    if (st) { printf("%s\n", tcspmm_last_error()); exit(1); }
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
    tcspmm_status st = strncmp(argv[1], "gen:", 4) == 0 ? family_generate(argv[1] + 4, &A) : tcspmm_read_mtx(argv[1], &A);
    if (st) { printf("%s\n", tcspmm_last_error()); return 1; }
    tcspmm_options o; tcspmm_options_init(&o); o.path = TCSPMM_PATH_HRPB;
    if (argc > 3 && argv[3][0] == 'f') o.precision = TCSPMM_PRECISION_FP32;
    tcspmm_plan *plan; if (tcspmm_plan_create(&A, &o, &plan)) { printf("%s\n", tcspmm_last_error()); return 1; }
    const hrpb_gpu *g = plan->hrpb_dev;
    job j = {g, atoll(argv[2]), A.rows, A.cols};
    size_t bb = (size_t)A.cols * j.n * 4, cb = (size_t)A.rows * j.n * 4;
    CK(cudaMalloc((void **)&j.B, bb)); CK(cudaMalloc((void **)&j.Bt, bb)); CK(cudaMalloc((void **)&j.C, cb));
    CK(cudaMalloc((void **)&flush_buf, 256 << 20));
    float *h = malloc(bb), *ht = malloc(bb);
    srand(7);
    for (int64_t c = 0; c < j.n; c++)
        for (int64_t r = 0; r < A.cols; r++) h[c * A.cols + r] = ht[r * j.n + c] = (float)rand() / RAND_MAX - 0.5f;
    CK(cudaMemcpy(j.B, h, bb, cudaMemcpyHostToDevice)); CK(cudaMemcpy(j.Bt, ht, bb, cudaMemcpyHostToDevice));
    float t[3];
    for (j.what = 0; j.what < 3; j.what++) t[j.what] = med(&j);
    /* the two column-major C */
    float *c1 = malloc(cb), *c2 = malloc(cb);
    j.what = 1; run(&j); CK(cudaDeviceSynchronize()); CK(cudaMemcpy(c1, j.C, cb, cudaMemcpyDeviceToHost));
    CK(cudaMemset(j.C, 0xff, cb)); j.what = 2; run(&j); CK(cudaDeviceSynchronize()); CK(cudaMemcpy(c2, j.C, cb, cudaMemcpyDeviceToHost));
    double maxdiff = 0;
    for (size_t i = 0; i < cb / 4; i++) { double d = fabs((double)c1[i] - c2[i]); if (!(d <= maxdiff)) maxdiff = isnan(d) ? INFINITY : d; }
    /* sectors per (block, column) */
    hrpb_vpanel *vp = malloc(g->num_vpanels * sizeof *vp);
    CK(cudaMemcpy(vp, g->vpanels, g->num_vpanels * sizeof *vp, cudaMemcpyDeviceToHost));
    int64_t blocks = 0; for (int64_t i = 0; i < g->num_vpanels; i++) blocks += vp[i].blocks;
    int32_t *ac = malloc(blocks * 16 * 4);
    CK(cudaMemcpy(ac, g->active_cols, blocks * 16 * 4, cudaMemcpyDeviceToHost));
    double sectors = 0;
    for (int64_t b = 0; b < blocks; b++) {
        int32_t seen[16]; int ns = 0;
        for (int k = 0; k < 16; k++) {
            int32_t c = ac[b * 16 + k]; if (c < 0) continue;
            int32_t s = c >> 3, dup = 0; for (int q = 0; q < ns; q++) dup |= seen[q] == s;
            if (!dup) seen[ns++] = s;
        }
        sectors += ns;
    }
    printf("%-40s n=%-4lld %s row-major %.4f  col transpose %.4f  col direct %.4f  direct/transpose %.3f  maxdiff %.1e  blocks %lld sectors/block-col %.2f\n",
           argv[1], (long long)j.n, argc > 3 ? argv[3] : "tf32", t[0], t[1], t[2], t[2] / t[1], maxdiff, (long long)blocks, sectors / blocks);
    return 0;
}
