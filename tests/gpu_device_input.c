/* gpu_device_input.c: tcspmm_plan_create_device, plans from a CSR already in
 * device memory. On the edge cases, the bundled matrices and a 1:2 matrix,
 * for every path (and HRPB on clustered rows): the caller's device arrays
 * are freed right after the plan is made, and the product (on the host for
 * the cpu path) matches the float64 reference; the auto plan's metrics and choice equal those of a
 * plan from the same host CSR. Bad input gets the host validation's
 * errors: row_ptr ends, a row out of order, a NaN, a column out of range;
 * host arrays are refused. */
#include <cuda_runtime.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "device_csr.h"
#include "harness.h"
#include "matgen.h"
#include "sparse24_gen.h"

static uint64_t seed = 9000;

/* One product with a fresh B, beta 0.25 or 0 (as the seed gives it),
 * on the device (or the host for a cpu plan), against float64. */
static void check_product(tcspmm_plan *plan, const tcspmm_csr *A, int on_host, const char *what)
{
    tests_check_spmm(plan, A, 19, 3, on_host, 1e-3, seed, NULL, what);
    seed++;
}

/* Every path from device arrays, and the HRPB path with clustered rows;
 * auto and clustered also against a plan from the host (clustered: its
 * product on the host too, through the downloaded HRPB and its row map). */
static int clustered_plans; /* plans of check_matrix built in the clustered order */

static void check_matrix(const tcspmm_csr *A, const char *what)
{
    const tcspmm_path paths[] = {TCSPMM_PATH_AUTO, TCSPMM_PATH_HRPB, TCSPMM_PATH_CUSPARSE,
                                 TCSPMM_PATH_CPU, TCSPMM_PATH_HRPB};
    for (int p = 0; p < 5; p++) {
        tcspmm_options opt;
        tcspmm_options_init(&opt);
        opt.path = paths[p];
        opt.row_order = p == 4 ? TCSPMM_ROW_ORDER_CLUSTERED : TCSPMM_ROW_ORDER_NATURAL;
        csr_gpu g;
        tcspmm_csr dA;
        device_csr_upload(A, &g, &dA);
        tcspmm_plan *plan = NULL;
        CHECK_OK(tcspmm_plan_create_device(&dA, &opt, &plan));
        csr_gpu_free(&g); /* the plan must not need it */
        if (!plan) continue;
        tcspmm_info info;
        CHECK_OK(tcspmm_plan_info(plan, &info));
        CHECK(paths[p] == TCSPMM_PATH_AUTO || info.path == paths[p]);
        clustered_plans += !strcmp(info.row_order, "clustered");
        check_product(plan, A, info.path == TCSPMM_PATH_CPU, what);
        if (paths[p] == TCSPMM_PATH_AUTO || p == 4) {
            tcspmm_plan *host_plan = NULL;
            CHECK_OK(tcspmm_plan_create(A, &opt, &host_plan));
            tcspmm_info hi;
            if (host_plan && !tcspmm_plan_info(host_plan, &hi))
                CHECK(hi.path == info.path && hi.blocks == info.blocks && hi.alpha == info.alpha &&
                      !strcmp(hi.structure, info.structure) &&
                      !strcmp(hi.row_order, info.row_order));
            if (host_plan && p == 4) check_product(host_plan, A, 1, what);
            tcspmm_plan_destroy(host_plan);
        }
        tcspmm_plan_destroy(plan);
    }
}

/* Makes a plan from dA, checking that a refused one leaves no plan. */
static tcspmm_status make_plan(const tcspmm_csr *dA)
{
    tcspmm_plan *plan = NULL;
    tcspmm_status st = tcspmm_plan_create_device(dA, NULL, &plan);
    CHECK(st == TCSPMM_SUCCESS || plan == NULL);
    if (plan) tcspmm_plan_destroy(plan); /* a call clears this thread's message */
    return st;
}

static void test_bad_input(void)
{
    device_csr_check_refusals(make_plan);
    tcspmm_csr A;
    CHECK_OK(matgen_random(50, 40, 0.3, 77, &A));
    tcspmm_plan *plan = NULL; /* host arrays */
    CHECK(tcspmm_plan_create_device(&A, NULL, &plan) == TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(plan == NULL && strstr(tcspmm_last_error(), "not device memory") != NULL);
    tcspmm_csr_free(&A);
}

int main(void)
{
    tests_require_gpu();
    matgen_each_case(600, check_matrix);
    const char *files[] = {"cora.mtx", "ted_B.mtx.gz", "lp_stocfor3.mtx.gz"};
    for (int f = 0; f < 3; f++) {
        tcspmm_csr A;
        CHECK_OK(tests_read(tests_data(files[f]), 61 + f, &A));
        check_matrix(&A, files[f]);
        tcspmm_csr_free(&A);
    }
    tcspmm_csr L; /* clustered rows reorder it: the device copies a 3000-entry row */
    CHECK_OK(matgen_long_row_gap(6000, 3000, 0.02, 98, &L));
    const int clustered_before = clustered_plans;
    check_matrix(&L, "a long row, then a gap of empty rows");
    CHECK(clustered_plans > clustered_before);
    tcspmm_csr_free(&L);
    tcspmm_csr S; /* 1:2 and dense enough: auto takes the sparse24 path */
    CHECK_OK(sp24_gen(200, 160, SP24_1TO2, 0.0, 5, &S));
    check_matrix(&S, "1:2");
    tcspmm_csr_free(&S);
    test_bad_input();
    return tests_finish();
}
