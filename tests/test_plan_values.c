/* test_plan_values.c: new values for a plan's matrix, on the CPU:
 *  - hrpb_value_sources on the edge cases and a bundled matrix, TM 16 and
 *    32, in A's row order and the clustered one: every entry is the source
 *    of exactly one value, which holds its value, and new values written
 *    block by block from their sources give an HRPB that decodes to A with
 *    the new values;
 *  - tcspmm_plan_set_values on the cpu path: products after one and after
 *    two updates match the float64 reference of A with the newest values;
 *    refused without opt.updatable_values, for a NaN or an Inf (naming its
 *    index; the plan keeps its values) and for NULL values; a matrix
 *    without entries; an option value other than 0 or 1; the structure an
 *    updatable plan reports counts explicit zeros. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "format/csr.h"
#include "format/hrpb.h"
#include "format/row_order.h"
#include "harness.h"
#include "matgen.h"
#include "rng.h"

static uint64_t next_seed = 3000;

static void check_sources(const tcspmm_csr *A, int tm, int clustered, const char *what)
{
    hrpb h;
    CHECK_OK(clustered ? hrpb_build_clustered(A, tm, 0, &h) : hrpb_build(A, tm, 0, &h));
    const int64_t nnz = A->nnz, nb = h.num_blocks;
    int64_t *block_values = malloc(((size_t)nb + 1) * sizeof(int64_t));
    uint32_t *source = malloc((size_t)(nnz + 1) * sizeof *source);
    unsigned char *seen = calloc((size_t)nnz + 1, 1);
    CHECK_OK(hrpb_value_sources(&h, A, 3, block_values, source));
    int64_t wrong = block_values[nb] != nnz;
    for (int64_t b = 0; b < nb && !wrong; b++) {
        const float *v = (const float *)(h.packed + hrpb_values_offset(h.size_ptr, h.packed, b));
        for (int64_t i = 0; i < block_values[b + 1] - block_values[b]; i++) {
            uint32_t k = source[block_values[b] + i];
            if (k >= nnz || seen[k] || v[i] != A->values[k]) wrong++;
            else seen[k] = 1;
        }
    }
    if (wrong) printf("%s, TM %d, %s rows: %lld sources wrong\n", what, tm,
                      clustered ? "clustered" : "natural", (long long)wrong);
    CHECK(wrong == 0);

    tcspmm_csr fresh; /* A with new values, written block by block from their sources */
    CHECK_OK(csr_copy(A, &fresh));
    rng_fill(fresh.values, (size_t)nnz, next_seed++);
    for (int64_t b = 0; b < nb && !wrong; b++) {
        float *v = (float *)(h.packed + hrpb_values_offset(h.size_ptr, h.packed, b));
        for (int64_t i = 0; i < block_values[b + 1] - block_values[b]; i++)
            v[i] = fresh.values[source[block_values[b] + i]];
    }
    tcspmm_csr back;
    CHECK_OK(hrpb_to_csr(&h, &back));
    CHECK(back.nnz == nnz && !memcmp(back.col_idx, A->col_idx, (size_t)nnz * sizeof(int32_t)) &&
          !memcmp(back.values, fresh.values, (size_t)nnz * sizeof(float)));
    tcspmm_csr_free(&back);
    tcspmm_csr_free(&fresh);
    free(seen);
    free(source);
    free(block_values);
    hrpb_free(&h);
}

/* spmm_host of plan against the float64 reference of A. */
static void check_product(tcspmm_plan *plan, const tcspmm_csr *A, const char *what)
{
    tests_check_spmm(plan, A, 7, 1, 1, 1e-6, next_seed++, NULL, what);
}

static tcspmm_plan *cpu_plan(const tcspmm_csr *A, int updatable)
{
    tcspmm_options opt;
    tcspmm_options_init(&opt);
    opt.path = TCSPMM_PATH_CPU;
    opt.updatable_values = updatable;
    tcspmm_plan *plan = NULL;
    CHECK_OK(tcspmm_plan_create(A, &opt, &plan));
    return plan;
}

static void test_cpu_plan(const tcspmm_csr *A, const char *what)
{
    tcspmm_plan *plan = cpu_plan(A, 1);
    if (!plan) return;
    tcspmm_csr now;
    CHECK_OK(csr_copy(A, &now));
    for (int update = 0; update < 2; update++) {
        rng_fill(now.values, (size_t)now.nnz, next_seed++);
        CHECK_OK(tcspmm_plan_set_values(plan, now.values, NULL));
        check_product(plan, &now, what);
    }
    if (now.nnz > 2) { /* refused: the plan keeps the values it had */
        float *bad = malloc((size_t)now.nnz * sizeof(float));
        memcpy(bad, now.values, (size_t)now.nnz * sizeof(float));
        bad[now.nnz / 2] = INFINITY;
        bad[now.nnz - 1] = NAN;
        CHECK(tcspmm_plan_set_values(plan, bad, NULL) == TCSPMM_ERROR_INVALID_MATRIX);
        char expect[64];
        snprintf(expect, sizeof expect, "values[%lld] is infinite", (long long)(now.nnz / 2));
        CHECK(strstr(tcspmm_last_error(), expect) != NULL);
        check_product(plan, &now, what);
        bad[now.nnz / 2] = now.values[now.nnz / 2]; /* a NaN alone */
        CHECK(tcspmm_plan_set_values(plan, bad, NULL) == TCSPMM_ERROR_INVALID_MATRIX);
        snprintf(expect, sizeof expect, "values[%lld]", (long long)(now.nnz - 1));
        CHECK(strstr(tcspmm_last_error(), expect) != NULL);
        check_product(plan, &now, what);
        free(bad);
    }
    tcspmm_csr_free(&now);
    tcspmm_plan_destroy(plan);
}

static void test_refusals(void)
{
    tcspmm_csr A;
    CHECK_OK(matgen_random(40, 30, 0.2, 5, &A));
    tcspmm_plan *plan = cpu_plan(&A, 0);
    CHECK(tcspmm_plan_set_values(plan, A.values, NULL) == TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(tcspmm_last_error(), "updatable_values") != NULL);
    tcspmm_plan_destroy(plan);
    plan = cpu_plan(&A, 1);
    CHECK(tcspmm_plan_set_values(plan, NULL, NULL) == TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(tcspmm_plan_set_values(NULL, A.values, NULL) == TCSPMM_ERROR_INVALID_ARGUMENT);
    tcspmm_plan_destroy(plan);

    tcspmm_options opt;
    tcspmm_options_init(&opt);
    opt.updatable_values = 2;
    plan = NULL;
    CHECK(tcspmm_plan_create(&A, &opt, &plan) == TCSPMM_ERROR_INVALID_ARGUMENT && plan == NULL);
    tcspmm_csr_free(&A);

    /* an updatable plan's structure counts every entry: an explicit zero too */
    tcspmm_csr Z;
    CHECK_OK(csr_alloc(1, 8, 3, &Z));
    const int32_t cols[3] = {0, 1, 2};
    const float values[3] = {1.0f, 0.0f, 3.0f};
    Z.row_ptr[1] = 3;
    memcpy(Z.col_idx, cols, sizeof cols);
    memcpy(Z.values, values, sizeof values);
    for (int updatable = 0; updatable < 2; updatable++) {
        tcspmm_info info;
        plan = cpu_plan(&Z, updatable);
        if (plan && !tcspmm_plan_info(plan, &info))
            CHECK(strcmp(info.structure, updatable ? "none" : "1:2") == 0);
        tcspmm_plan_destroy(plan);
    }
    tcspmm_csr_free(&Z);

    tcspmm_csr E; /* no entries: nothing to set, NULL allowed */
    CHECK_OK(matgen_random(20, 10, 0.0, 6, &E));
    CHECK(E.nnz == 0);
    plan = cpu_plan(&E, 1);
    CHECK_OK(tcspmm_plan_set_values(plan, NULL, NULL));
    tcspmm_plan_destroy(plan);
    tcspmm_csr_free(&E);
}

static void check_case(const tcspmm_csr *A, const char *name)
{
    for (int tm = 16; tm <= 32; tm += 16)
        for (int clustered = 0; clustered < 2; clustered++) check_sources(A, tm, clustered, name);
    test_cpu_plan(A, name);
}

int main(void)
{
    matgen_each_case(700, check_case);
    tcspmm_csr A;
    CHECK_OK(tests_read(tests_data("cora.mtx"), 131, &A));
    for (int clustered = 0; clustered < 2; clustered++) check_sources(&A, 16, clustered, "cora.mtx");
    test_cpu_plan(&A, "cora.mtx");
    tcspmm_csr_free(&A);
    test_refusals();
    return tests_finish();
}
