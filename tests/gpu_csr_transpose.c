/* gpu_csr_transpose.c: tcspmm_csr_transpose_device. On the edge cases,
 * every bundled matrix, 0 x 5 and 5 x 0: A^T made on the device is, array
 * for array, the one tcspmm_csr_transpose makes on the host; transposing it
 * again on the device gives A back; each source names the entry of A that
 * an entry of A^T came from (its row, column and value). A GNN's update: a
 * plan of A^T made from device arrays with updatable values takes new
 * values of A gathered through the sources; they must be those of the host
 * transpose of A with the new values, and the product must match A^T B in
 * float64 computed from that A (neither trusts the sources). Bad
 * input gets the host validation's status and message (device_csr.h),
 * host arrays are refused, and the output is left empty then.
 *
 * `gpu_csr_transpose --time FILE...` prints, per file, the device transpose
 * (median of 5, A already on the device) beside the host one (median of 3). */
#include <cuda_runtime.h>
#include <dirent.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "device_csr.h"
#include "format/csr.h"
#include "harness.h"
#include "matgen.h"
#include "reference.h"
#include "rng.h"

static void check_matrix(const tcspmm_csr *A, const char *what)
{
    csr_gpu g;
    tcspmm_csr dA, dT, dTT, T, TT, host_T;
    device_csr_upload(A, &g, &dA);
    int32_t *d_source = NULL, *source = malloc((size_t)A->nnz * sizeof(int32_t) + 4);
    CHECK(cudaMalloc((void **)&d_source, (size_t)A->nnz * sizeof(int32_t) + 4) == cudaSuccess);
    CHECK_OK(tcspmm_csr_transpose_device(&dA, &dT, d_source));
    CHECK_OK(tcspmm_csr_transpose_device(&dT, &dTT, NULL));
    device_csr_download(&dT, &T);
    device_csr_download(&dTT, &TT);
    CHECK(cudaMemcpy(source, d_source, (size_t)A->nnz * sizeof(int32_t), cudaMemcpyDeviceToHost) ==
          cudaSuccess);
    CHECK_OK(tcspmm_csr_transpose(A, &host_T));
    const int same = tests_csr_equal(&T, &host_T) && tests_csr_equal(&TT, A);
    if (!same) printf("%s: the device transpose differs\n", what);
    CHECK(same);
    int64_t wrong = 0; /* each source is A's entry in A^T's place: same value, same row */
    for (int64_t i = 0; i < T.rows && same; i++)
        for (int64_t j = T.row_ptr[i]; j < T.row_ptr[i + 1]; j++) {
            int32_t k = source[j];
            wrong += k < 0 || k >= A->nnz || A->col_idx[k] != i || A->values[k] != T.values[j] ||
                     k < A->row_ptr[T.col_idx[j]] || k >= A->row_ptr[T.col_idx[j] + 1];
        }
    CHECK(wrong == 0);
    cudaFree(d_source);
    free(source);
    tcspmm_csr_free(&host_T);
    tcspmm_csr_free(&TT);
    tcspmm_csr_free(&T);
    tcspmm_csr_free_device(&dTT);
    tcspmm_csr_free_device(&dT);
    csr_gpu_free(&g);
}

/* New values of A reach a plan of A^T through the transpose's sources: the
 * gathered values are, entry for entry, those of the host transpose of A
 * with the new values (not built through the sources), and the plan's
 * product matches A^T B computed from that A itself. */
static void test_transpose_updates(const tcspmm_csr *A)
{
    csr_gpu g;
    tcspmm_csr dA, dT;
    device_csr_upload(A, &g, &dA);
    int32_t *d_source = NULL, *source = malloc((size_t)A->nnz * sizeof(int32_t));
    CHECK(cudaMalloc((void **)&d_source, (size_t)A->nnz * sizeof(int32_t)) == cudaSuccess);
    CHECK_OK(tcspmm_csr_transpose_device(&dA, &dT, d_source));
    CHECK(cudaMemcpy(source, d_source, (size_t)A->nnz * sizeof(int32_t), cudaMemcpyDeviceToHost) ==
          cudaSuccess);
    tcspmm_options opt;
    tcspmm_options_init(&opt);
    opt.path = TCSPMM_PATH_HRPB;
    opt.updatable_values = 1;
    tcspmm_plan *plan = NULL;
    CHECK_OK(tcspmm_plan_create_device(&dT, &opt, &plan));
    tcspmm_csr now, expected, T; /* A with new values; its transpose on the host; the gather */
    CHECK_OK(csr_copy(A, &now));
    rng_fill(now.values, (size_t)now.nnz, 4321);
    CHECK_OK(tcspmm_csr_transpose(&now, &expected));
    device_csr_download(&dT, &T);
    for (int64_t j = 0; j < T.nnz; j++) T.values[j] = now.values[source[j]];
    const int same = tests_csr_equal(&T, &expected);
    if (!same) printf("A^T gathered through the sources differs from the host transpose\n");
    CHECK(same);
    CHECK_OK(tcspmm_plan_set_values(plan, T.values, NULL));
    const int64_t n = 24;
    test_operands t;
    test_operands_make(&t, &T, n, TCSPMM_LAYOUT_ROW_MAJOR, 0, 0.0f, 77);
    float *dB = NULL, *dC = NULL;
    test_operands_upload(&t, &dB, &dC); /* C poisoned with NaN: every element must be written */
    CHECK_OK(tcspmm_spmm(plan, n, 1.0f, dB, t.ldb, 0.0f, dC, t.ldc, TCSPMM_LAYOUT_ROW_MAJOR, NULL));
    CHECK(cudaMemcpy(t.C, dC, t.csize * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK_OK(reference_spmm_transposed(&now, n, 1.0, t.B, t.ldb, 0.0, t.C0, t.ldc,
                                       TCSPMM_LAYOUT_ROW_MAJOR, t.ref));
    compare_result r = compare_to_reference(t.C, t.ldc, TCSPMM_LAYOUT_ROW_MAJOR, t.ref, T.rows, n,
                                            1e-3);
    if (!r.pass) printf("A^T plan after new values of A: rel_err %.2e FAIL\n", r.rel_err);
    CHECK(r.pass);
    cudaFree(dB);
    cudaFree(dC);
    test_operands_free(&t);
    tcspmm_csr_free(&T);
    tcspmm_csr_free(&expected);
    tcspmm_csr_free(&now);
    tcspmm_plan_destroy(plan);
    cudaFree(d_source);
    free(source);
    tcspmm_csr_free_device(&dT);
    csr_gpu_free(&g);
}

/* Transposes dA, checking that a refused call leaves out empty. */
static tcspmm_status transpose(const tcspmm_csr *dA)
{
    tcspmm_csr dT;
    tcspmm_status st = tcspmm_csr_transpose_device(dA, &dT, NULL);
    CHECK(st == TCSPMM_SUCCESS || dT.row_ptr == NULL);
    tcspmm_csr_free_device(&dT);
    return st;
}

static void test_bad_input(void)
{
    device_csr_check_refusals(transpose);
    tcspmm_csr A;
    CHECK_OK(matgen_random(50, 40, 0.3, 77, &A));
    tcspmm_csr T; /* host arrays */
    CHECK(tcspmm_csr_transpose_device(&A, &T, NULL) == TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(T.row_ptr == NULL && strstr(tcspmm_last_error(), "not device memory") != NULL);
    const int64_t *row_ptr = A.row_ptr; /* in place: refused, A left as it was */
    CHECK(tcspmm_csr_transpose_device(&A, &A, NULL) == TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(A.row_ptr == row_ptr && strstr(tcspmm_last_error(), "out must not be A") != NULL);
    tcspmm_csr_free(&A);
}

static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void time_file(const char *path)
{
    tcspmm_csr A;
    CHECK_OK(tests_read(path, 33, &A));
    csr_gpu g;
    tcspmm_csr dA, dT, T;
    device_csr_upload(&A, &g, &dA);
    double dev[5], host[3];
    for (int r = 0; r < 5; r++) {
        double t0 = omp_get_wtime();
        CHECK_OK(tcspmm_csr_transpose_device(&dA, &dT, NULL));
        dev[r] = (omp_get_wtime() - t0) * 1e3;
        tcspmm_csr_free_device(&dT);
    }
    for (int r = 0; r < 3; r++) {
        double t0 = omp_get_wtime();
        CHECK_OK(tcspmm_csr_transpose(&A, &T));
        host[r] = (omp_get_wtime() - t0) * 1e3;
        tcspmm_csr_free(&T);
    }
    qsort(dev, 5, sizeof dev[0], by_double);
    qsort(host, 3, sizeof host[0], by_double);
    printf("%s: %lld x %lld, %lld entries: device %.2f ms, host (%d threads) %.2f ms\n", path,
           (long long)A.rows, (long long)A.cols, (long long)A.nnz, dev[2], omp_get_max_threads(),
           host[1]);
    csr_gpu_free(&g);
    tcspmm_csr_free(&A);
}

int main(int argc, char **argv)
{
    tests_require_gpu();
    if (argc > 1 && !strcmp(argv[1], "--time")) {
        for (int i = 2; i < argc; i++) time_file(argv[i]);
        return tests_finish();
    }
    matgen_each_case(900, check_matrix);
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", tests_data("."));
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    for (struct dirent *ent; d && (ent = readdir(d));) {
        if (!strstr(ent->d_name, ".mtx")) continue;
        tcspmm_csr A;
        CHECK_OK(tests_read(tests_data(ent->d_name), 31, &A));
        check_matrix(&A, ent->d_name);
        tcspmm_csr_free(&A);
    }
    if (d) closedir(d);
    tcspmm_csr L;
    CHECK_OK(matgen_long_row_gap(6000, 3000, 0.02, 97, &L));
    check_matrix(&L, "a long row, then a gap of empty rows");
    tcspmm_csr T; /* its transpose: a long column, then empty columns */
    CHECK_OK(tcspmm_csr_transpose(&L, &T));
    check_matrix(&T, "the transpose of that");
    tcspmm_csr_free(&T);
    tcspmm_csr_free(&L);
    const int64_t shapes[2][2] = {{0, 5}, {5, 0}}; /* no rows, no columns */
    for (int i = 0; i < 2; i++) {
        tcspmm_csr E;
        CHECK_OK(matgen_random(shapes[i][0], shapes[i][1], 0.5, 5 + i, &E));
        check_matrix(&E, i == 0 ? "0 x 5" : "5 x 0");
        tcspmm_csr_free(&E);
    }
    tcspmm_csr A;
    CHECK_OK(tests_read(tests_data("cora.mtx"), 32, &A));
    test_transpose_updates(&A);
    tcspmm_csr_free(&A);
    test_bad_input();
    return tests_finish();
}
