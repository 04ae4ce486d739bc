/* mtx_read_bench.c: times tcspmm_read_mtx alone on one file at a given
 * OpenMP thread count and prints the median of several reads after one
 * untimed warm-up read, in MB/s (of the file as stored) and non-zeros per
 * second (of the CSR it returns). */
#include "tcspmm.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    const char *path = NULL;
    int threads = omp_get_max_threads(), reps = 5;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc)
            threads = atoi(argv[++i]);
        else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (argv[i][0] != '-' && !path)
            path = argv[i];
        else {
            fprintf(stderr, "usage: mtx_read_bench FILE [--threads T] [--reps R]\n");
            return 2;
        }
    }
    if (!path || threads < 1 || reps < 1) {
        fprintf(stderr, "usage: mtx_read_bench FILE [--threads T] [--reps R]\n");
        return 2;
    }
    struct stat info;
    if (stat(path, &info) != 0) {
        fprintf(stderr, "mtx_read_bench: cannot stat %s\n", path);
        return 2;
    }
    omp_set_num_threads(threads);
    double *seconds = malloc((size_t)reps * sizeof *seconds);
    tcspmm_csr A = {0};
    for (int r = -1; r < reps; r++) { /* r = -1: the warm-up */
        tcspmm_csr_free(&A);
        double t0 = omp_get_wtime();
        tcspmm_status st = tcspmm_read_mtx(path, &A);
        if (r >= 0) seconds[r] = omp_get_wtime() - t0;
        if (st != TCSPMM_SUCCESS) {
            fprintf(stderr, "mtx_read_bench: %s\n", tcspmm_last_error());
            return 2;
        }
    }
    qsort(seconds, (size_t)reps, sizeof *seconds, compare_double);
    double median = reps % 2 ? seconds[reps / 2] : 0.5 * (seconds[reps / 2 - 1] + seconds[reps / 2]);
    printf("file=%s threads=%d reps=%d bytes=%lld rows=%lld cols=%lld nnz=%lld median_s=%.6f "
           "min_s=%.6f MB/s=%.1f nnz/s=%.4g\n",
           path, threads, reps, (long long)info.st_size, (long long)A.rows, (long long)A.cols,
           (long long)A.nnz, median, seconds[0], info.st_size / median / 1e6, A.nnz / median);
    tcspmm_csr_free(&A);
    free(seconds);
    return 0;
}
