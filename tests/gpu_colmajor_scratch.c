/* gpu_colmajor_scratch.c: the scratch an HRPB plan transposes a
 * column-major B into stays about one transpose of the largest n so far
 * (the header's promise), through calls of n = 4, 8, ..., 128 on a matrix
 * of 2^20 columns (2 MB of transpose per unit of n): the device memory the
 * sweep leaves taken is at most 1.25 times the largest transpose (512 MB)
 * plus 64 MB, where one transpose per n seen would take 8.4 GB. (On an H200
 * with CUDA 13 the pool reuses its memory for the larger n: 537 MB, with or
 * without trimming it as n grows; bench/results/review-fixes-2026-11-27/.)
 * The products are checked against float64 on the way. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "matgen.h"
#include "reference.h"

static size_t device_free(void)
{
    size_t free_bytes = 0, total = 0;
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(cudaMemGetInfo(&free_bytes, &total) == cudaSuccess);
    return free_bytes;
}

int main(void)
{
    tests_require_gpu();
    const int64_t rows = 1000, cols = (int64_t)1 << 20;
    tcspmm_csr A;
    CHECK_OK(matgen_random(rows, cols, 2e-4, 77, &A));
    tcspmm_options opt;
    tcspmm_options_init(&opt);
    opt.path = TCSPMM_PATH_HRPB;
    tcspmm_plan *plan = NULL;
    CHECK_OK(tcspmm_plan_create(&A, &opt, &plan));
    if (!plan) return tests_finish();
    const size_t before = device_free();
    const int64_t n_most = 128;
    uint64_t seed = 78;
    for (int64_t n = 4; n <= n_most; n += 4) {
        test_operands t;
        test_operands_make(&t, &A, n, TCSPMM_LAYOUT_COL_MAJOR, 0, 0.0f, seed++);
        float *dB = NULL, *dC = NULL;
        test_operands_upload(&t, &dB, &dC);
        CHECK_OK(tcspmm_spmm(plan, n, 1.0f, dB, t.ldb, 0.0f, dC, t.ldc, TCSPMM_LAYOUT_COL_MAJOR,
                             NULL));
        /* a few checked (the reference of 2^20 columns is slow), among them
         * transposes in tiles of 2048 elements of 8, 16 and 32 columns, and
         * one whose last column tile is cut (n = 100) */
        if (n % 32 == 0 || n == 4 || n == 12 || n == 100) {
            CHECK(cudaMemcpy(t.C, dC, t.csize * sizeof(float), cudaMemcpyDeviceToHost) ==
                  cudaSuccess);
            CHECK_OK(reference_spmm(&A, n, 1.0, t.B, t.ldb, 0.0, t.C0, t.ldc,
                                    TCSPMM_LAYOUT_COL_MAJOR, t.ref));
            compare_result r = compare_to_reference(t.C, t.ldc, TCSPMM_LAYOUT_COL_MAJOR, t.ref,
                                                    rows, n, 1e-3);
            CHECK(r.pass);
        }
        cudaFree(dB);
        cudaFree(dC);
        test_operands_free(&t);
    }
    const size_t after = device_free();
    const double taken = before > after ? (double)(before - after) : 0.0;
    const double largest = (double)cols * n_most * sizeof(float);
    printf("after n = 4, 8, ..., %lld column-major: %.0f MB more device memory taken; the "
           "largest transpose is %.0f MB\n",
           (long long)n_most, taken / 1e6, largest / 1e6);
    CHECK(taken <= 1.25 * largest + 64e6);
    tcspmm_plan_destroy(plan);
    tcspmm_csr_free(&A);
    return tests_finish();
}
