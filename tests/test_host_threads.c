/* test_host_threads.c: opt.host_threads (src/host_threads.h). Inside the
 * scope a call enters, the calling thread's parallel regions run on the
 * option's threads; after every plan creation and set_values, failed ones
 * included, the caller's OpenMP setting is its own again; and plans made on
 * one, two and all threads multiply alike, giving the float64 product with
 * the values set last. */
#include "harness.h"
#include "host_threads.h"
#include "matgen.h"
#include "reference.h"
#include "rng.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

enum { CALLER_THREADS = 5 };

static int team_size(void)
{
    int team = 0;
#pragma omp parallel
#pragma omp single
    team = omp_get_num_threads();
    return team;
}

static void test_scope(void)
{
    omp_set_num_threads(CALLER_THREADS);
    host_threads_scope s;
    host_threads_enter(&s, 3);
    CHECK(omp_get_max_threads() == 3 && team_size() == 3);
    host_threads_leave(&s);
    CHECK(omp_get_max_threads() == CALLER_THREADS && team_size() == CALLER_THREADS);
    host_threads_enter(&s, 0); /* 0: the caller's setting */
    CHECK(omp_get_max_threads() == CALLER_THREADS);
    host_threads_leave(&s);
    CHECK(omp_get_max_threads() == CALLER_THREADS);
}

/* The product of a plan of A made on threads host threads, with A's values
 * replaced by new_values through set_values, into C (rows x n, row-major). */
static void product_on(const tcspmm_csr *A, int threads, const float *new_values, const float *B,
                       int64_t n, float *C)
{
    tcspmm_options opt;
    tcspmm_options_init(&opt);
    opt.host_threads = threads;
    opt.updatable_values = 1;
    tcspmm_plan *plan = NULL;
    CHECK_OK(tcspmm_plan_create(A, &opt, &plan));
    CHECK(omp_get_max_threads() == CALLER_THREADS);
    if (!plan) return;
    CHECK_OK(tcspmm_plan_set_values(plan, new_values, NULL));
    CHECK(omp_get_max_threads() == CALLER_THREADS);
    float *bad = malloc((size_t)A->nnz * sizeof(float));
    if (bad && A->nnz > 0) {
        memcpy(bad, new_values, (size_t)A->nnz * sizeof(float));
        bad[A->nnz / 2] = NAN;
        CHECK(tcspmm_plan_set_values(plan, bad, NULL) == TCSPMM_ERROR_INVALID_MATRIX);
        CHECK(omp_get_max_threads() == CALLER_THREADS);
    }
    free(bad);
    for (int64_t k = 0; k < A->rows * n; k++) C[k] = NAN;
    CHECK_OK(tcspmm_spmm_host(plan, n, 1.0f, B, n, 0.0f, C, n, TCSPMM_LAYOUT_ROW_MAJOR));
    tcspmm_plan_destroy(plan);
}

static void test_plans(void)
{
    omp_set_num_threads(CALLER_THREADS);
    tcspmm_csr A;
    CHECK_OK(matgen_random(301, 277, 0.04, 41, &A));
    const int64_t n = 9;
    float *B = malloc((size_t)(A.cols * n) * sizeof(float));
    float *values = malloc((size_t)A.nnz * sizeof(float));
    float *C[3];
    for (int i = 0; i < 3; i++) C[i] = malloc((size_t)(A.rows * n) * sizeof(float));
    if (!B || !values || !C[0] || !C[1] || !C[2]) {
        CHECK(!"out of memory");
        return;
    }
    rng_fill(B, (size_t)(A.cols * n), 42);
    rng_fill(values, (size_t)A.nnz, 43);
    const int threads[3] = {1, 2, 0};
    for (int i = 0; i < 3; i++) product_on(&A, threads[i], values, B, n, C[i]);
    for (int i = 1; i < 3; i++)
        CHECK(memcmp(C[0], C[i], (size_t)(A.rows * n) * sizeof(float)) == 0);
    /* ... and it is the product with the new values, against float64 (1e-3:
     * on a machine with a GPU the plan runs TF32; the old values would be
     * off by about 1). */
    double *ref = malloc((size_t)(A.rows * n) * sizeof(double));
    float *old_values = A.values;
    A.values = values;
    CHECK(ref != NULL);
    if (ref) {
        CHECK_OK(reference_spmm(&A, n, 1.0, B, n, 0.0, NULL, n, TCSPMM_LAYOUT_ROW_MAJOR, ref));
        compare_result r = compare_to_reference(C[0], n, TCSPMM_LAYOUT_ROW_MAJOR, ref, A.rows, n,
                                                1e-3);
        if (!r.pass) printf("product after new values: rel_err %.2e FAIL\n", r.rel_err);
        CHECK(r.pass);
    }
    A.values = old_values;
    free(ref);

    /* A failed plan gives the caller's setting back too. */
    A.values[A.nnz / 3] = INFINITY;
    tcspmm_options opt;
    tcspmm_options_init(&opt);
    opt.host_threads = 2;
    tcspmm_plan *plan = NULL;
    CHECK(tcspmm_plan_create(&A, &opt, &plan) == TCSPMM_ERROR_INVALID_MATRIX && plan == NULL);
    CHECK(omp_get_max_threads() == CALLER_THREADS);
    for (int i = 0; i < 3; i++) free(C[i]);
    free(values);
    free(B);
    tcspmm_csr_free(&A);
}

int main(void)
{
    test_scope();
    test_plans();
    return tests_finish();
}
