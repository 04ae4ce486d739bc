/* main.c: reads a matrix with the installed tcspmm, gives it pseudo-random
 * values (a pattern file's are all ones), multiplies it by a pseudo-random
 * B of N columns on the CPU path and compares every column of C with a
 * float64 product computed here: exits 0 only if each column is within
 * 1e-5 of it (relative), so that the install test fails on a wrong product. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <tcspmm.h>

enum { N = 5 };

/* A 64-bit LCG's high bits as a float in [-1, 1). */
static float next_value(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (float)((double)(*state >> 40) / (double)(1ull << 23) - 1.0);
}

int main(int argc, char **argv)
{
    if (argc != 2) return 2;
    tcspmm_csr A;
    tcspmm_plan *plan = NULL;
    tcspmm_options opt;
    tcspmm_options_init(&opt);
    opt.path = TCSPMM_PATH_CPU;
    if (tcspmm_read_mtx(argv[1], &A)) {
        fprintf(stderr, "consumer: %s\n", tcspmm_last_error());
        return 2;
    }
    uint64_t state = 12345;
    for (int64_t k = 0; k < A.nnz; k++) A.values[k] = next_value(&state);
    if (tcspmm_plan_create(&A, &opt, &plan)) {
        fprintf(stderr, "consumer: %s\n", tcspmm_last_error());
        return 2;
    }
    float *B = malloc((size_t)A.cols * N * sizeof(float));
    float *C = malloc((size_t)A.rows * N * sizeof(float));
    if (!B || !C) return 2;
    for (int64_t e = 0; e < A.cols * N; e++) B[e] = next_value(&state); /* row-major, ldb = N */
    for (int64_t e = 0; e < A.rows * N; e++) C[e] = NAN; /* beta 0: every element written */
    if (tcspmm_spmm_host(plan, N, 1.0f, B, N, 0.0f, C, N, TCSPMM_LAYOUT_ROW_MAJOR)) {
        fprintf(stderr, "consumer: %s\n", tcspmm_last_error());
        return 2;
    }
    double worst = 0; /* the largest relative error of a column against float64 */
    for (int j = 0; j < N; j++) {
        double diff = 0, norm = 0;
        for (int64_t i = 0; i < A.rows; i++) {
            double ref = 0;
            for (int64_t k = A.row_ptr[i]; k < A.row_ptr[i + 1]; k++)
                ref += (double)A.values[k] * B[A.col_idx[k] * N + j];
            diff += (C[i * N + j] - ref) * (C[i * N + j] - ref);
            norm += ref * ref;
        }
        const double rel = sqrt(diff / norm);
        if (isnan(rel) || rel > worst) worst = rel; /* a NaN (unwritten, broken) stays */
        if (isnan(worst)) break;
    }
    const int ok = worst <= 1e-5;
    printf("consumer: %lld x %lld, nnz %lld, %d columns, worst relative error %.2e: %s\n",
           (long long)A.rows, (long long)A.cols, (long long)A.nnz, N, worst,
           ok ? "product matches float64" : "FAIL");
    tcspmm_plan_destroy(plan);
    tcspmm_csr_free(&A);
    free(B);
    free(C);
    return ok ? 0 : 1;
}
