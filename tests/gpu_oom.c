/* gpu_oom.c: plans and products on a GPU whose memory is nearly all taken.
 * The test holds all but a margin of the free device memory and creates a
 * plan on every path with margins from a few hundred KB to a few times the
 * matrix: each call either succeeds, and then its product is right, or
 * fails with TCSPMM_ERROR_DEVICE_OUT_OF_MEMORY (a cuSPARSE allocation may
 * say TCSPMM_ERROR_CUSPARSE) and a message; never a crash or a wrong answer.
 * HRPB plans are made with updatable values (where the device has no room
 * to build HRPB the host may build it and work out the value sources) and
 * get new values after their product, then multiply again.
 * A measured plan that runs out of memory while measuring takes its rule's
 * path and keeps working (check_measuring_out_of_memory), and a
 * column-major B that has no room to be transposed is read in place.
 * Afterwards, with the memory given back, a plan and a product still work:
 * no error is left behind in the CUDA context. */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

#include "format/csr.h"
#include "harness.h"
#include "matgen.h"
#include "reference.h"
#include "rng.h"

enum { MAX_HOGS = 4096 };
static void *hogs[MAX_HOGS];
static int num_hogs;

/* Takes device memory in shrinking pieces until only about `margin` bytes
 * are free. */
static void hog_all_but(size_t margin)
{
    size_t free_bytes = 0, total = 0;
    CHECK(cudaMemGetInfo(&free_bytes, &total) == cudaSuccess);
    for (size_t piece = (size_t)1 << 30; piece >= ((size_t)1 << 16) && num_hogs < MAX_HOGS;) {
        CHECK(cudaMemGetInfo(&free_bytes, &total) == cudaSuccess);
        if (free_bytes < margin + piece) {
            piece /= 2;
            continue;
        }
        if (cudaMalloc(&hogs[num_hogs], piece) != cudaSuccess) {
            cudaGetLastError();
            piece /= 2;
            continue;
        }
        num_hogs++;
    }
}

static void release_all(void)
{
    for (int i = 0; i < num_hogs; i++) cudaFree(hogs[i]);
    num_hogs = 0;
}

/* dC against the float64 product of A and t's B (alpha 1, beta 0). */
static void check_c(const tcspmm_csr *A, int64_t n, tcspmm_layout layout, const float *dC,
                    test_operands *t, const char *what)
{
    CHECK(cudaMemcpy(t->C, dC, t->csize * sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK_OK(reference_spmm(A, n, 1.0f, t->B, t->ldb, 0.0f, t->C0, t->ldc, layout, t->ref));
    compare_result r = compare_to_reference(t->C, t->ldc, layout, t->ref, A->rows, n, 1e-3);
    printf("  %s: rel_err %.2e nonfinite %lld %s\n", what, r.rel_err, (long long)r.nonfinite,
           r.pass ? "ok" : "FAIL");
    CHECK(r.pass);
}

/* Device B and C of check_product's products (PRODUCT_N columns, A's
 * shape), allocated before any memory is held, so that a plan made in the
 * last few hundred KB still has its product checked. */
#define PRODUCT_N 32
static float *product_B, *product_C;

/* One product on plan, checked against float64, or refused for lack of
 * memory with that status and a message. */
static void check_product(tcspmm_plan *plan, const tcspmm_csr *A, const char *what)
{
    const int64_t n = PRODUCT_N;
    test_operands t;
    static uint64_t seed = 4242; /* a fresh B for every product */
    test_operands_make(&t, A, n, TCSPMM_LAYOUT_ROW_MAJOR, 0, 0.0f, seed++);
    float *dB = product_B, *dC = product_C;
    test_operands_upload(&t, &dB, &dC); /* host to device copies need no device memory */
    tcspmm_status st = tcspmm_spmm(plan, n, 1.0f, dB, t.ldb, 0.0f, dC, t.ldc,
                                   TCSPMM_LAYOUT_ROW_MAJOR, NULL);
    if (st == TCSPMM_SUCCESS) {
        CHECK(cudaDeviceSynchronize() == cudaSuccess);
        check_c(A, n, TCSPMM_LAYOUT_ROW_MAJOR, dC, &t, what);
    } else {
        CHECK((st == TCSPMM_ERROR_DEVICE_OUT_OF_MEMORY || st == TCSPMM_ERROR_CUSPARSE) &&
              tcspmm_last_error()[0] != '\0');
    }
    test_operands_free(&t);
}

/* New values for an updatable plan, then a product with them, or refused
 * for lack of memory with that status and a message. */
static void check_new_values(tcspmm_plan *plan, const tcspmm_csr *A, const char *what)
{
    tcspmm_csr now;
    CHECK_OK(csr_copy(A, &now));
    rng_fill(now.values, (size_t)now.nnz, 99);
    tcspmm_status st = tcspmm_plan_set_values(plan, now.values, NULL);
    if (st == TCSPMM_SUCCESS) check_product(plan, &now, what);
    else CHECK(st == TCSPMM_ERROR_DEVICE_OUT_OF_MEMORY && tcspmm_last_error()[0] != '\0');
    tcspmm_csr_free(&now);
}

/* Out of memory while measuring. A measured plan (cora) measures n = 8 with
 * the memory free and a graph captures that call. Then, with all but about
 * 1 MB of the device held, a call of n = 512 must measure and cannot (its
 * scratch C alone is 5.5 MB): the plan takes its rule's path from then on
 * and says why, and the call either runs right or fails for memory with a
 * message. With the memory back, the graph (on whichever path it captured:
 * the plan keeps both copies of A) and a new n = 512 call are right. */
static void check_measuring_out_of_memory(void)
{
    const tcspmm_layout R = TCSPMM_LAYOUT_ROW_MAJOR;
    tcspmm_csr A;
    CHECK_OK(tests_read(tests_data("cora.mtx"), 81, &A));
    tcspmm_plan *plan = tests_plan(&A, TCSPMM_PATH_AUTO, 1);
    tcspmm_info info;
    if (!plan) {
        tcspmm_csr_free(&A);
        return;
    }
    CHECK_OK(tcspmm_plan_info(plan, &info));
    CHECK(info.path == TCSPMM_PATH_AUTO);
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);

    test_operands small, large;
    test_operands_make(&small, &A, 8, R, 0, 0.0f, 71);
    test_operands_make(&large, &A, 512, R, 0, 0.0f, 72);
    float *dB8 = NULL, *dC8 = NULL, *dB = NULL, *dC = NULL;
    test_operands_upload(&small, &dB8, &dC8);
    test_operands_upload(&large, &dB, &dC);
    CHECK_OK(tcspmm_spmm(plan, 8, 1.0f, dB8, small.ldb, 0.0f, dC8, small.ldc, R, s));
    CHECK(cudaStreamSynchronize(s) == cudaSuccess);
    tcspmm_path path8 = TCSPMM_PATH_AUTO;
    CHECK_OK(tcspmm_plan_path_for(plan, 8, R, 0.0f, &path8));
    cudaGraph_t graph = NULL;
    cudaGraphExec_t exec = NULL;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
    CHECK_OK(tcspmm_spmm(plan, 8, 1.0f, dB8, small.ldb, 0.0f, dC8, small.ldc, R, s));
    CHECK(cudaStreamEndCapture(s, &graph) == cudaSuccess);
    CHECK(graph && cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
    test_operands before;
    test_operands_make(&before, &A, 8, R, 0, 0.0f, 70);
    test_operands_upload(&before, &dB8, &dC8);
    CHECK(exec && cudaGraphLaunch(exec, s) == cudaSuccess);
    CHECK(cudaStreamSynchronize(s) == cudaSuccess);
    printf("  the graph of n = 8 captured on %s:\n", tcspmm_path_name(path8));
    check_c(&A, 8, R, dC8, &before, "graph launched before");
    test_operands_free(&before);

    hog_all_but((size_t)1 << 20);
    tcspmm_status st = tcspmm_spmm(plan, 512, 1.0f, dB, large.ldb, 0.0f, dC, large.ldc, R, s);
    CHECK(cudaStreamSynchronize(s) == cudaSuccess);
    printf("measuring n = 512 with about 1 MB free: %s%s%s\n", tcspmm_status_string(st),
           st ? ": " : "", st ? tcspmm_last_error() : "");
    if (st == TCSPMM_SUCCESS) check_c(&A, 512, R, dC, &large, "that call");
    else CHECK(st == TCSPMM_ERROR_DEVICE_OUT_OF_MEMORY && tcspmm_last_error()[0] != '\0');
    CHECK_OK(tcspmm_plan_info(plan, &info));
    printf("  the plan now: %s (%s)\n", tcspmm_path_name(info.path), info.path_reason);
    CHECK(info.path != TCSPMM_PATH_AUTO);
    CHECK(strstr(info.path_reason, "out of GPU memory while measuring") != NULL);
    release_all();

    test_operands again;
    test_operands_make(&again, &A, 8, R, 0, 0.0f, 73);
    test_operands_upload(&again, &dB8, &dC8);
    CHECK(exec && cudaGraphLaunch(exec, s) == cudaSuccess);
    CHECK(cudaStreamSynchronize(s) == cudaSuccess);
    check_c(&A, 8, R, dC8, &again, "graph launched after");
    test_operands_free(&large);
    test_operands_make(&large, &A, 512, R, 0, 0.0f, 74);
    test_operands_upload(&large, &dB, &dC);
    CHECK_OK(tcspmm_spmm(plan, 512, 1.0f, dB, large.ldb, 0.0f, dC, large.ldc, R, s));
    CHECK(cudaStreamSynchronize(s) == cudaSuccess);
    check_c(&A, 512, R, dC, &large, "n = 512 with the memory back");

    if (exec) cudaGraphExecDestroy(exec);
    if (graph) cudaGraphDestroy(graph);
    cudaFree(dB8);
    cudaFree(dC8);
    cudaFree(dB);
    cudaFree(dC);
    test_operands_free(&small);
    test_operands_free(&large);
    test_operands_free(&again);
    cudaStreamDestroy(s);
    tcspmm_plan_destroy(plan);
    tcspmm_csr_free(&A);
}

/* A column-major B on the HRPB path is transposed into scratch first; with
 * all but about 1 MB of the device held there is no room for it (5.5 MB at
 * n = 512), and the call reads B where it lies instead: it must run, and
 * right. */
static void check_column_major_out_of_memory(void)
{
    const tcspmm_layout Cm = TCSPMM_LAYOUT_COL_MAJOR;
    tcspmm_csr A;
    CHECK_OK(tests_read(tests_data("cora.mtx"), 81, &A));
    tcspmm_plan *plan = tests_plan(&A, TCSPMM_PATH_HRPB, 0);
    test_operands t;
    test_operands_make(&t, &A, 512, Cm, 3, 0.0f, 75);
    float *dB = NULL, *dC = NULL;
    test_operands_upload(&t, &dB, &dC);
    hog_all_but((size_t)1 << 20);
    tcspmm_status st = plan ? tcspmm_spmm(plan, 512, 1.0f, dB, t.ldb, 0.0f, dC, t.ldc, Cm, NULL)
                            : TCSPMM_ERROR_INVALID_ARGUMENT;
    CHECK_OK(st);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    release_all();
    if (st == TCSPMM_SUCCESS) check_c(&A, 512, Cm, dC, &t, "HRPB, column-major B, about 1 MB free");
    cudaFree(dB);
    cudaFree(dC);
    test_operands_free(&t);
    tcspmm_plan_destroy(plan);
    tcspmm_csr_free(&A);
}

int main(void)
{
    tests_require_gpu();
    tcspmm_csr A; /* about 1.1M entries: 9 MB of CSR, plus one dense row */
    CHECK_OK(matgen_dense_row(6000, 4500, 17, 0.04, 31, &A));
    const size_t csr_bytes = (size_t)A.nnz * 8 + (size_t)A.rows * 8;
    CHECK(cudaMalloc((void **)&product_B, (size_t)A.cols * PRODUCT_N * sizeof(float)) ==
          cudaSuccess);
    CHECK(cudaMalloc((void **)&product_C, (size_t)A.rows * PRODUCT_N * sizeof(float)) ==
          cudaSuccess);
    const tcspmm_path paths[] = {TCSPMM_PATH_AUTO, TCSPMM_PATH_HRPB, TCSPMM_PATH_CUSPARSE};
    const double margins[] = {0.05, 0.5, 1.0, 1.5, 2.0, 3.0, 6.0};
    int made = 0, refused = 0;
    for (int m = 0; m < (int)(sizeof margins / sizeof margins[0]); m++) {
        for (int p = 0; p < 3; p++) {
            hog_all_but((size_t)(margins[m] * (double)csr_bytes));
            tcspmm_options opt;
            tcspmm_options_init(&opt);
            opt.path = paths[p];
            opt.measure_at_first_call = 1; /* an auto plan measures in the call below */
            opt.updatable_values = paths[p] == TCSPMM_PATH_HRPB;
            tcspmm_plan *plan = NULL;
            tcspmm_status st = tcspmm_plan_create(&A, &opt, &plan);
            char what[96];
            snprintf(what, sizeof what, "path %s, margin %.2fx the CSR", tcspmm_path_name(paths[p]),
                     margins[m]);
            if (st == TCSPMM_SUCCESS) {
                made++;
                check_product(plan, &A, what);
                if (opt.updatable_values) check_new_values(plan, &A, what);
            } else {
                refused++;
                CHECK(plan == NULL);
                CHECK((st == TCSPMM_ERROR_DEVICE_OUT_OF_MEMORY || st == TCSPMM_ERROR_CUSPARSE) &&
                      tcspmm_last_error()[0] != '\0');
                printf("%s: %s: %s\n", what, tcspmm_status_string(st), tcspmm_last_error());
            }
            tcspmm_plan_destroy(plan);
            release_all();
        }
    }
    printf("plans made %d, refused for memory %d\n", made, refused);
    CHECK(made > 0 && refused > 0); /* the margins span both outcomes */
    check_measuring_out_of_memory();
    check_column_major_out_of_memory();

    tcspmm_plan *plan = NULL; /* the context is still healthy */
    CHECK_OK(tcspmm_plan_create(&A, NULL, &plan));
    if (plan) check_product(plan, &A, "after the memory came back");
    tcspmm_plan_destroy(plan);
    CHECK(cudaGetLastError() == cudaSuccess);
    cudaFree(product_B);
    cudaFree(product_C);
    tcspmm_csr_free(&A);
    return tests_finish();
}
