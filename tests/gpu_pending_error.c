/* gpu_pending_error.c: a CUDA error the caller left pending (here a failed
 * cudaMalloc it has not read) is not reported as the library's own. On the
 * HRPB, cuSPARSE and measured auto paths, tcspmm_spmm,
 * tcspmm_plan_set_values and tcspmm_spmm_host, and tcspmm_plan_create and
 * tcspmm_csr_transpose_device, return TCSPMM_ERROR_CUDA naming it, leave C as it was and the error
 * pending; once the caller has read it, the same plan's products are right
 * (against float64). tcspmm_plan_destroy frees the plan and leaves such an
 * error pending. An event
 * query that answers cudaErrorNotReady leaves nothing pending (CUDA 13), so
 * a call after it goes on. Under compute-sanitizer, run it with
 * --report-api-errors no: its failed cudaMalloc calls are meant. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "device_csr.h"
#include "harness.h"
#include "matgen.h"

static uint64_t seed = 700;

static void leave_error_pending(void)
{
    void *p = NULL;
    CHECK(cudaMalloc(&p, (size_t)1 << 62) == cudaErrorMemoryAllocation);
    CHECK(cudaPeekAtLastError() == cudaErrorMemoryAllocation);
}

/* st is fn's refusal, naming the caller's error, which is still pending. */
static void check_refused(tcspmm_status st, const char *fn)
{
    const char *msg = tcspmm_last_error();
    CHECK(st == TCSPMM_ERROR_CUDA);
    CHECK(strstr(msg, fn) != NULL && strstr(msg, "pending") != NULL &&
          strstr(msg, "cudaErrorMemoryAllocation") != NULL);
    CHECK(cudaPeekAtLastError() == cudaErrorMemoryAllocation);
    printf("  %s: %s\n", fn, msg);
}

static void check_path(tcspmm_csr *A, tcspmm_path path)
{
    const char *what = tcspmm_path_name(path);
    tcspmm_options opt;
    tcspmm_options_init(&opt);
    opt.path = path;
    opt.updatable_values = 1;
    opt.measure_at_first_call = 1;
    tcspmm_plan *plan = NULL;
    CHECK_OK(tcspmm_plan_create(A, &opt, &plan));
    if (!plan) return;
    printf("%s:\n", what);
    const int64_t n = 16;
    test_operands t;
    test_operands_make(&t, A, n, TCSPMM_LAYOUT_ROW_MAJOR, 1, 0.5f, seed++);
    float *dB = NULL, *dC = NULL;
    test_operands_upload(&t, &dB, &dC);

    leave_error_pending();
    check_refused(tcspmm_spmm(plan, n, 1.0f, dB, t.ldb, 0.5f, dC, t.ldc, TCSPMM_LAYOUT_ROW_MAJOR,
                              NULL),
                  "tcspmm_spmm");
    CHECK(cudaMemcpy(t.C, dC, t.csize * sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(memcmp(t.C, t.C0, t.csize * sizeof(float)) == 0); /* C as it was */
    check_refused(tcspmm_plan_set_values(plan, A->values, NULL), "tcspmm_plan_set_values");
    check_refused(tcspmm_spmm_host(plan, n, 1.0f, t.B, t.ldb, 0.5f, t.C, t.ldc,
                                   TCSPMM_LAYOUT_ROW_MAJOR),
                  "tcspmm_spmm_host"); /* a GPU plan reads A from the device */
    CHECK(memcmp(t.C, t.C0, t.csize * sizeof(float)) == 0);
    CHECK(cudaGetLastError() == cudaErrorMemoryAllocation); /* the caller reads it */

    tests_check_spmm(plan, A, n, 1, 0, 1e-3, seed++, NULL, what);
    CHECK_OK(tcspmm_plan_set_values(plan, A->values, NULL));
    tests_check_spmm(plan, A, 33, 0, 0, 1e-3, seed++, NULL, what);
    cudaFree(dB);
    cudaFree(dC);
    test_operands_free(&t);
    leave_error_pending();
    CHECK_OK(tcspmm_plan_destroy(plan));
    CHECK(cudaGetLastError() == cudaErrorMemoryAllocation); /* still the caller's */
}

/* The device transpose refused with the error pending and out left empty;
 * once the caller has read it, the same call gives A^T (the host's arrays). */
static void check_transpose(const tcspmm_csr *A)
{
    csr_gpu g;
    tcspmm_csr dA, dT, T, host_T;
    device_csr_upload(A, &g, &dA);
    leave_error_pending();
    check_refused(tcspmm_csr_transpose_device(&dA, &dT, NULL), "tcspmm_csr_transpose_device");
    CHECK(dT.row_ptr == NULL && dT.col_idx == NULL && dT.values == NULL);
    CHECK(cudaGetLastError() == cudaErrorMemoryAllocation);
    CHECK_OK(tcspmm_csr_transpose_device(&dA, &dT, NULL));
    device_csr_download(&dT, &T);
    CHECK_OK(tcspmm_csr_transpose(A, &host_T));
    CHECK(tests_csr_equal(&T, &host_T));
    tcspmm_csr_free(&host_T);
    tcspmm_csr_free(&T);
    tcspmm_csr_free_device(&dT);
    csr_gpu_free(&g);
}

static void CUDART_CB sleep_200ms(void *unused)
{
    (void)unused;
    const struct timespec pause = {0, 200000000};
    nanosleep(&pause, NULL);
}

/* An event query that answers cudaErrorNotReady, then a product. */
static void check_after_not_ready(const tcspmm_csr *A)
{
    tcspmm_plan *plan = tests_plan(A, TCSPMM_PATH_HRPB, 0);
    if (!plan) return;
    cudaStream_t busy, mine;
    cudaEvent_t later;
    CHECK(cudaStreamCreateWithFlags(&busy, cudaStreamNonBlocking) == cudaSuccess);
    CHECK(cudaStreamCreateWithFlags(&mine, cudaStreamNonBlocking) == cudaSuccess);
    CHECK(cudaEventCreate(&later) == cudaSuccess);
    CHECK(cudaLaunchHostFunc(busy, sleep_200ms, NULL) == cudaSuccess);
    CHECK(cudaEventRecord(later, busy) == cudaSuccess);
    CHECK(cudaEventQuery(later) == cudaErrorNotReady);
    printf("after a query that was not ready, cudaPeekAtLastError: %s\n",
           cudaGetErrorName(cudaPeekAtLastError()));
    tests_check_spmm(plan, A, 8, 1, 0, 1e-3, seed++, mine, "hrpb after a not-ready query");
    CHECK(cudaStreamSynchronize(busy) == cudaSuccess);
    cudaEventDestroy(later);
    cudaStreamDestroy(busy);
    cudaStreamDestroy(mine);
    tcspmm_plan_destroy(plan);
}

int main(void)
{
    tests_require_gpu();
    tcspmm_csr A;
    CHECK_OK(matgen_random(300, 200, 0.05, seed++, &A));
    const tcspmm_path paths[] = {TCSPMM_PATH_HRPB, TCSPMM_PATH_CUSPARSE, TCSPMM_PATH_AUTO};
    for (int p = 0; p < 3; p++) check_path(&A, paths[p]);

    tcspmm_plan *plan = NULL;
    leave_error_pending();
    check_refused(tcspmm_plan_create(&A, NULL, &plan), "tcspmm_plan_create");
    CHECK(plan == NULL);
    CHECK(cudaGetLastError() == cudaErrorMemoryAllocation);

    check_transpose(&A);
    check_after_not_ready(&A);
    tcspmm_csr_free(&A);
    return tests_finish();
}
