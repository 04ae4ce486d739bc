/* main.c: reads a matrix with the installed tcspmm, multiplies it by a
 * vector of ones on the CPU path and prints the sum of the result, so the
 * install test can compare it with spmm_run's. */
#include <stdio.h>
#include <stdlib.h>
#include <tcspmm.h>

int main(int argc, char **argv)
{
    if (argc != 2) return 2;
    tcspmm_csr A;
    tcspmm_plan *plan = NULL;
    tcspmm_options opt;
    tcspmm_options_init(&opt);
    opt.path = TCSPMM_PATH_CPU;
    if (tcspmm_read_mtx(argv[1], &A) || tcspmm_plan_create(&A, &opt, &plan)) {
        fprintf(stderr, "consumer: %s\n", tcspmm_last_error());
        return 2;
    }
    float *B = malloc((size_t)A.cols * sizeof(float)), *C = malloc((size_t)A.rows * sizeof(float));
    for (int64_t i = 0; i < A.cols; i++) B[i] = 1.0f;
    if (tcspmm_spmm_host(plan, 1, 1.0f, B, 1, 0.0f, C, 1, TCSPMM_LAYOUT_ROW_MAJOR)) return 2;
    double sum = 0;
    for (int64_t i = 0; i < A.rows; i++) sum += C[i];
    printf("consumer: %lld x %lld, nnz %lld, sum(A*1) = %.1f\n", (long long)A.rows, (long long)A.cols,
           (long long)A.nnz, sum);
    tcspmm_plan_destroy(plan);
    tcspmm_csr_free(&A);
    free(B);
    free(C);
    return 0;
}
