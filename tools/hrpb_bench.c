/* hrpb_bench: CSR -> HRPB preprocessing throughput (upload excluded).
 *
 *   hrpb_bench (FILE.mtx[.gz] | --gen banded:ROWS:NNZ_PER_ROW:SEED)
 *              [--threads 1,2,16] [--tm 16|32] [--reps 5]
 *
 * The matrix is read (or generated, in memory) once; then for each thread
 * count hrpb_build runs --reps times (the output's page faults included, as
 * in a plan) and the best and median times are printed with non-zeros per
 * second, plus HRPB bytes over CSR bytes and the time of the metrics and of
 * the wave split at the last thread count. A generated banded matrix has
 * NNZ_PER_ROW distinct random columns in a window of 4*NNZ_PER_ROW columns
 * around the diagonal of each row, and random values in [-1, 1]. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "format/csr.h"
#include "format/hrpb.h"
#include "loadbalance/wave_split.h"
#include "rng.h"

#define MAX_THREAD_COUNTS 16

static int die(tcspmm_status st, const char *what)
{
    fprintf(stderr, "hrpb_bench: %s: %s: %s\n", what, tcspmm_status_string(st), tcspmm_last_error());
    return 1;
}

/* The columns of row i of the banded matrix: [lo, hi), width wide, clipped to the matrix. */
static void band_window(int64_t i, int64_t n, int64_t width, int64_t *lo, int64_t *hi)
{
    int64_t start = i - width / 2;
    if (start + width > n) start = n - width;
    if (start < 0) start = 0;
    *lo = start;
    *hi = start + width < n ? start + width : n;
}

static tcspmm_status gen_banded(int64_t n, int64_t per_row, uint64_t seed, tcspmm_csr *A)
{
    int64_t width = 4 * per_row, take = per_row < n ? per_row : n;
    TCSPMM_TRY(csr_alloc(n, n, n * take, A));
    for (int64_t i = 0; i <= n; i++) A->row_ptr[i] = i * take;
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++) {
        uint64_t s = seed ^ (0x9E3779B97F4A7C15ull * (uint64_t)(i + 1));
        int64_t lo, hi, k = A->row_ptr[i], need = take;
        band_window(i, n, width, &lo, &hi);
        for (int64_t j = lo; j < hi && need > 0; j++) { /* selection sampling: sorted, distinct */
            if (rng_uniform(&s) * (double)(hi - j) < (double)need) {
                A->col_idx[k] = (int32_t)j;
                A->values[k] = (float)(2.0 * rng_uniform(&s) - 1.0);
                k++;
                need--;
            }
        }
    }
    return TCSPMM_SUCCESS;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    const char *input = NULL, *gen = NULL;
    int threads[MAX_THREAD_COUNTS] = {0}, nthreads = 0, tm = 16, reps = 5;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--gen") && i + 1 < argc) gen = argv[++i];
        else if (!strcmp(argv[i], "--tm") && i + 1 < argc) tm = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            for (char *t = strtok(argv[++i], ","); t && nthreads < MAX_THREAD_COUNTS; t = strtok(NULL, ","))
                threads[nthreads++] = atoi(t);
        else if (argv[i][0] != '-' || !strcmp(argv[i], "-")) input = argv[i];
        else {
            fprintf(stderr, "hrpb_bench: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if ((!input) == (!gen) || reps < 1) {
        fprintf(stderr, "usage: hrpb_bench (FILE.mtx | --gen banded:ROWS:NNZ_PER_ROW:SEED) "
                        "[--threads 1,2,16] [--tm 16|32] [--reps 5]\n");
        return 2;
    }
    if (nthreads == 0) threads[nthreads++] = omp_get_max_threads();

    tcspmm_csr A;
    tcspmm_status st;
    double t0 = omp_get_wtime();
    if (gen) {
        long long rows = 0, per_row = 0;
        unsigned long long seed = 0;
        if (sscanf(gen, "banded:%lld:%lld:%llu", &rows, &per_row, &seed) != 3 || rows < 1 ||
            per_row < 1) {
            fprintf(stderr, "hrpb_bench: --gen wants banded:ROWS:NNZ_PER_ROW:SEED, got %s\n", gen);
            return 2;
        }
        st = gen_banded(rows, per_row, seed, &A);
        input = gen;
    } else {
        st = tcspmm_read_mtx(input, &A);
    }
    if (st != TCSPMM_SUCCESS) return die(st, input);
    printf("matrix %s: %lld x %lld, %lld non-zeros (loaded in %.0f ms), TM=%d, %d reps, "
           "%d hardware threads\n",
           input, (long long)A.rows, (long long)A.cols, (long long)A.nnz,
           1e3 * (omp_get_wtime() - t0), tm, reps, omp_get_num_procs());

    hrpb h = {0};
    double *ms = malloc((size_t)reps * sizeof(double));
    for (int t = 0; t < nthreads; t++) {
        for (int r = 0; r < reps; r++) {
            hrpb_free(&h);
            double start = omp_get_wtime();
            st = hrpb_build(&A, tm, threads[t], &h);
            ms[r] = 1e3 * (omp_get_wtime() - start);
            if (st != TCSPMM_SUCCESS) return die(st, "hrpb_build");
        }
        qsort(ms, (size_t)reps, sizeof(double), cmp_double);
        printf("threads %2d: best %9.2f ms  median %9.2f ms  %8.1f M nnz/s (best)  %8.1f M nnz/s "
               "(median)\n",
               threads[t], ms[0], ms[(reps - 1) / 2], (double)A.nnz / ms[0] / 1e3,
               (double)A.nnz / ms[(reps - 1) / 2] / 1e3);
    }
    tcspmm_info info;
    memset(&info, 0, sizeof info);
    double start = omp_get_wtime();
    hrpb_metrics(&h, &info);
    double metrics_ms = 1e3 * (omp_get_wtime() - start);
    wave_split w;
    start = omp_get_wtime();
    st = wave_split_build(&h, 1, 132, 4, &w);
    double split_ms = 1e3 * (omp_get_wtime() - start);
    if (st != TCSPMM_SUCCESS) return die(st, "wave_split_build");
    printf("panels %lld, blocks %lld, bricks %lld, alpha %.4f, beta %.4f, synergy %s, "
           "blocks/panel %lld/%lld/%lld (min/median/max)\n",
           (long long)info.panels, (long long)info.blocks, (long long)info.bricks, info.alpha,
           info.beta, info.synergy, (long long)info.blocks_per_panel_min,
           (long long)info.blocks_per_panel_median, (long long)info.blocks_per_panel_max);
    printf("hrpb_bytes %lld, csr_bytes %lld, ratio %.3f\n", (long long)info.hrpb_bytes,
           (long long)info.csr_bytes, (double)info.hrpb_bytes / (double)info.csr_bytes);
    printf("at %d threads: metrics %.2f ms, wave split (132 SMs x 4, N=128) %.2f ms, "
           "%lld virtual panels\n",
           threads[nthreads - 1], metrics_ms, split_ms, (long long)w.num_vpanels);
    wave_split_free(&w);
    hrpb_free(&h);
    tcspmm_csr_free(&A);
    free(ms);
    return 0;
}
