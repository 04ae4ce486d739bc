/* gpu_devices.c: a plan on one GPU leaves the caller's current device as it
 * was. With two GPUs, plans for device 0 (HRPB, cuSPARSE, measured auto;
 * values that change) are made, multiplied on device 0's arrays, given new
 * values, multiplied on the host and destroyed while device 1 is current,
 * which must stay current after every call; their products are checked
 * against float64. Device 1's memory given to calls that run on device 0
 * (B, C, new values, a device CSR) is refused, naming it, with no CUDA
 * error left behind. With one GPU the products are checked on device 0 and
 * the device checks cannot fail (it says so). */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_csr.h"
#include "error.h"
#include "harness.h"
#include "matgen.h"
#include "reference.h"
#include "rng.h"

static uint64_t next_seed = 900;
static int caller_device; /* current while the library is called */

static void check_still_current(const char *after)
{
    int now = -1;
    CHECK_OK(TCSPMM_CUDA(cudaGetDevice(&now)));
    if (now != caller_device) printf("  after %s: device %d current, not %d\n", after, now, caller_device);
    CHECK(now == caller_device);
}

/* One product on device 0's arrays, called with caller_device current,
 * against float64 (C starts random, beta 0.5, fresh B). */
static void check_product(tcspmm_plan *plan, const tcspmm_csr *A, int64_t n, const char *what)
{
    const int64_t m = A->rows, k = A->cols;
    float *B = malloc((size_t)(k * n) * sizeof(float)), *C = malloc((size_t)(m * n) * sizeof(float));
    float *C0 = malloc((size_t)(m * n) * sizeof(float));
    double *ref = malloc((size_t)(m * n) * sizeof(double));
    rng_fill(B, (size_t)(k * n), next_seed++);
    rng_fill(C0, (size_t)(m * n), next_seed++);
    float *dB = NULL, *dC = NULL;
    CHECK_OK(TCSPMM_CUDA(cudaSetDevice(0)));
    CHECK_OK(TCSPMM_CUDA(cudaMalloc((void **)&dB, (size_t)(k * n) * sizeof(float))));
    CHECK_OK(TCSPMM_CUDA(cudaMalloc((void **)&dC, (size_t)(m * n) * sizeof(float))));
    CHECK_OK(TCSPMM_CUDA(cudaMemcpy(dB, B, (size_t)(k * n) * 4, cudaMemcpyHostToDevice)));
    CHECK_OK(TCSPMM_CUDA(cudaMemcpy(dC, C0, (size_t)(m * n) * 4, cudaMemcpyHostToDevice)));
    CHECK_OK(TCSPMM_CUDA(cudaSetDevice(caller_device)));
    CHECK_OK(tcspmm_spmm(plan, n, 1.5f, dB, n, 0.5f, dC, n, TCSPMM_LAYOUT_ROW_MAJOR, NULL));
    check_still_current("tcspmm_spmm");
    CHECK_OK(TCSPMM_CUDA(cudaSetDevice(0)));
    CHECK_OK(TCSPMM_CUDA(cudaMemcpy(C, dC, (size_t)(m * n) * 4, cudaMemcpyDeviceToHost)));
    cudaFree(dB);
    cudaFree(dC);
    CHECK_OK(TCSPMM_CUDA(cudaSetDevice(caller_device)));
    CHECK_OK(reference_spmm(A, n, 1.5, B, n, 0.5, C0, n, TCSPMM_LAYOUT_ROW_MAJOR, ref));
    compare_result r = compare_to_reference(C, n, TCSPMM_LAYOUT_ROW_MAJOR, ref, m, n, 1e-3);
    if (!r.pass) printf("  %s, n %lld: rel_err %.2e nonfinite %lld\n", what, (long long)n,
                        r.rel_err, (long long)r.nonfinite);
    CHECK(r.pass);
    free(B);
    free(C);
    free(C0);
    free(ref);
}

static void check_path(tcspmm_csr *A, tcspmm_path path)
{
    const char *what = tcspmm_path_name(path);
    tcspmm_options opt;
    tcspmm_options_init(&opt);
    opt.device = 0;
    opt.path = path;
    opt.updatable_values = 1;
    opt.measure_at_first_call = 1;
    tcspmm_plan *plan = NULL;
    CHECK_OK(tcspmm_plan_create(A, &opt, &plan));
    check_still_current("tcspmm_plan_create");
    if (!plan) return;
    check_product(plan, A, 32, what);
    check_product(plan, A, 7, what);
    rng_fill(A->values, (size_t)A->nnz, next_seed++);
    CHECK_OK(tcspmm_plan_set_values(plan, A->values, NULL));
    check_still_current("tcspmm_plan_set_values");
    check_product(plan, A, 32, what);
    float B[3 * 200], C[3 * 300];
    double ref[3 * 300];
    rng_fill(B, 3 * 200, next_seed++);
    for (int e = 0; e < 3 * 300; e++) C[e] = NAN;
    CHECK_OK(tcspmm_spmm_host(plan, 3, 1.0f, B, 3, 0.0f, C, 3, TCSPMM_LAYOUT_ROW_MAJOR));
    check_still_current("tcspmm_spmm_host");
    CHECK_OK(reference_spmm(A, 3, 1.0, B, 3, 0.0, NULL, 3, TCSPMM_LAYOUT_ROW_MAJOR, ref));
    CHECK(compare_to_reference(C, 3, TCSPMM_LAYOUT_ROW_MAJOR, ref, A->rows, 3, 1e-3).pass);
    CHECK_OK(tcspmm_plan_destroy(plan));
    check_still_current("tcspmm_plan_destroy");
}

/* st: a call's refusal of device 1's memory, which it names. */
static void check_refused(tcspmm_status st)
{
    CHECK(st == TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(tcspmm_last_error(), "memory of device 1") != NULL);
    CHECK(cudaPeekAtLastError() == cudaSuccess);
    printf("  %s\n", tcspmm_last_error());
}

/* Device 1's arrays given to calls that run on device 0 (two GPUs). */
static void check_other_device(tcspmm_csr *A)
{
    tcspmm_options opt;
    tcspmm_options_init(&opt);
    opt.device = 0;
    opt.path = TCSPMM_PATH_HRPB;
    opt.updatable_values = 1;
    tcspmm_plan *plan = NULL;
    CHECK_OK(tcspmm_plan_create(A, &opt, &plan));
    if (!plan) return;
    CHECK_OK(TCSPMM_CUDA(cudaSetDevice(1)));
    csr_gpu g1;
    tcspmm_csr dA1;
    device_csr_upload(A, &g1, &dA1); /* its arrays: device 1's, as B and C below */
    float *dB1 = NULL, *dC1 = NULL;
    CHECK_OK(TCSPMM_CUDA(cudaMalloc((void **)&dB1, (size_t)(A->cols * 8) * sizeof(float))));
    CHECK_OK(TCSPMM_CUDA(cudaMalloc((void **)&dC1, (size_t)(A->rows * 8) * sizeof(float))));
    printf("device 1's memory on device 0:\n");
    check_refused(tcspmm_spmm(plan, 8, 1.0f, dB1, 8, 0.0f, dC1, 8, TCSPMM_LAYOUT_ROW_MAJOR, NULL));
    check_refused(tcspmm_plan_set_values(plan, dA1.values, NULL));
    tcspmm_plan *other = NULL;
    check_refused(tcspmm_plan_create_device(&dA1, &opt, &other));
    CHECK(other == NULL);
    CHECK_OK(TCSPMM_CUDA(cudaSetDevice(0)));
    tcspmm_csr dT;
    check_refused(tcspmm_csr_transpose_device(&dA1, &dT, NULL));
    CHECK_OK(TCSPMM_CUDA(cudaSetDevice(caller_device)));
    check_product(plan, A, 8, "hrpb after the refusals");
    CHECK_OK(TCSPMM_CUDA(cudaSetDevice(1)));
    cudaFree(dB1);
    cudaFree(dC1);
    csr_gpu_free(&g1);
    CHECK_OK(TCSPMM_CUDA(cudaSetDevice(caller_device)));
    tcspmm_plan_destroy(plan);
}

int main(void)
{
    tests_require_gpu();
    int devices = 0;
    CHECK_OK(TCSPMM_CUDA(cudaGetDeviceCount(&devices)));
    caller_device = devices > 1 ? 1 : 0;
    if (devices < 2) printf("one GPU: plans on device 0 with device 0 current (the check cannot fail)\n");
    else printf("%d GPUs: plans on device 0 with device 1 current\n", devices);
    CHECK_OK(TCSPMM_CUDA(cudaSetDevice(caller_device)));
    tcspmm_csr A;
    CHECK_OK(matgen_random(300, 200, 0.05, next_seed++, &A));
    const tcspmm_path paths[] = {TCSPMM_PATH_HRPB, TCSPMM_PATH_CUSPARSE, TCSPMM_PATH_AUTO};
    for (int p = 0; p < 3; p++) check_path(&A, paths[p]);
    if (devices > 1) check_other_device(&A);
    tcspmm_csr_free(&A);
    return tests_finish();
}
