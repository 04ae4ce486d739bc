/* gpu_cusparse_values.c: the cuSPARSE path keeps each algorithm's
 * preprocessing across new values (cusparse_path_set_values) and across B
 * and C buffers, which is right only while cuSPARSE's preprocessing depends
 * on A's pattern and the call's shape alone. For every
 * algorithm of cusparse_path_algs, both layouts and N = 1, 3, 32 and 128, on
 * the edge cases and the bundled matrices: a product on the values A has
 * (which preprocesses where the path does: CSR_ALG3, N = 1, ALG_DEFAULT in
 * column-major), new random values, a product on other B and C buffers of
 * the same shape and one on the first buffers again (the path preprocesses
 * once per shape: N, leading dimensions and layout), each against the
 * float64 reference of A with its values then; and N = 1 after N = 256 in
 * the same layout and after N = 128 in the other, on one pair of buffers (a
 * call of another shape may use the workspace that holds the first shape's
 * preprocessing). Leading dimensions are multiples of 4,
 * padded, so that CSR_ALG3 runs, and it must have run; C is poisoned or
 * random (beta 0.25), and B is fresh each time. A preprocessing that kept
 * the old values or a lost workspace gives errors of the size of the
 * results themselves, far above the tolerance. */
#include <cuda_runtime.h>
#include <cusparse.h>
#include <stdio.h>
#include <stdlib.h>

#include "cusparse_path.h"
#include "error.h"
#include "format/csr.h"
#include "harness.h"
#include "matgen.h"
#include "reference.h"
#include "rng.h"

#define TOL 1e-5 /* cuSPARSE in FP32 lands near 1e-7 */

static uint64_t seed = 31000;
static cudaStream_t stream;
static int alg3_row_major_runs; /* CSR_ALG3 must run: its preprocessing is the costly one */

/* x rounded up to a multiple of 4, plus 4: a leading dimension CSR_ALG3 takes. */
static int64_t ld_for(int64_t x)
{
    return (x + 3) / 4 * 4 + 4;
}

/* One product of algorithm alg on dB and dC (room for t's B and C) against
 * the reference of A; 0 when cuSPARSE does not offer alg for the layout. */
static int check_product(cusparse_path *p, int alg, const tcspmm_csr *A, int64_t n,
                         tcspmm_layout layout, float beta, float *dB, float *dC, const char *what)
{
    const int row_major = layout == TCSPMM_LAYOUT_ROW_MAJOR;
    test_operands t;
    test_operands_make_ld(&t, A, n, layout, ld_for(row_major ? n : A->cols),
                          ld_for(row_major ? n : A->rows), beta, seed);
    seed += 2;
    CHECK(cudaMemcpyAsync(dB, t.B, t.bsize * 4, cudaMemcpyHostToDevice, stream) == cudaSuccess);
    CHECK(cudaMemcpyAsync(dC, t.C0, t.csize * 4, cudaMemcpyHostToDevice, stream) == cudaSuccess);
    tcspmm_status st = cusparse_path_spmm(p, alg, n, 1.5f, dB, t.ldb, beta, dC, t.ldc, layout, stream);
    int ran = st == TCSPMM_SUCCESS;
    alg3_row_major_runs += ran && row_major && alg == CUSPARSE_SPMM_CSR_ALG3;
    if (st == TCSPMM_ERROR_UNSUPPORTED) tcspmm_clear_error(); /* not offered here */
    else CHECK_OK(st);
    if (ran)
        CHECK(cudaMemcpyAsync(t.C, dC, t.csize * 4, cudaMemcpyDeviceToHost, stream) == cudaSuccess);
    CHECK(cudaStreamSynchronize(stream) == cudaSuccess); /* before t's host arrays go */
    if (ran) {
        CHECK_OK(reference_spmm(A, n, 1.5, t.B, t.ldb, beta, t.C0, t.ldc, layout, t.ref));
        compare_result r = compare_to_reference(t.C, t.ldc, layout, t.ref, A->rows, n, TOL);
        if (!r.pass)
            printf("%s: %s, %s, n %lld: rel_err %.2e nonfinite %lld FAIL\n", what,
                   cusparse_path_alg_name(alg), row_major ? "row-major" : "column-major",
                   (long long)n, r.rel_err, (long long)r.nonfinite);
        CHECK(r.pass);
    }
    test_operands_free(&t);
    return ran;
}

/* Bytes for B or C of A at n columns, leading dimensions from ld_for, in
 * whole 256-byte units. */
static size_t room_for(const tcspmm_csr *A, int64_t n)
{
    const size_t room = (size_t)ld_for(A->rows > A->cols ? A->rows : A->cols) * ld_for(n) * 4;
    return (room + 255) / 256 * 256;
}

/* Products on two pairs of B and C buffers (the second pair starts 16 bytes
 * after the end of the first): on the first pair, new values (written into
 * A's host copy), on the second pair, on the first again. */
static void check_shape(cusparse_path *p, int alg, tcspmm_csr *A, int64_t n, tcspmm_layout layout,
                        const char *what)
{
    const size_t room = room_for(A, n);
    float *dB = NULL, *dC = NULL, *dv = NULL;
    CHECK(cudaMalloc((void **)&dB, 2 * room + 16) == cudaSuccess);
    CHECK(cudaMalloc((void **)&dC, 2 * room + 16) == cudaSuccess);
    CHECK(cudaMalloc((void **)&dv, (size_t)A->nnz * 4 + 4) == cudaSuccess);
    float *B2 = dB + room / 4 + 4, *C2 = dC + room / 4 + 4;
    if (check_product(p, alg, A, n, layout, 0.0f, dB, dC, what)) {
        rng_fill(A->values, (size_t)A->nnz, seed++);
        CHECK(cudaMemcpyAsync(dv, A->values, (size_t)A->nnz * 4, cudaMemcpyHostToDevice, stream) ==
              cudaSuccess);
        CHECK_OK(cusparse_path_set_values(p, dv, stream));
        CHECK(check_product(p, alg, A, n, layout, 0.25f, B2, C2, what));
        CHECK(check_product(p, alg, A, n, layout, 0.0f, dB, dC, what));
    }
    cudaFree(dB);
    cudaFree(dC);
    cudaFree(dv);
}

/* N = 1, then 256, then 1 again, then 128 in the other layout, then 1
 * again, on one pair of buffers: a call of another shape must not leave a
 * preprocessing for the first that its workspace no longer holds. Before
 * cd5eb74, N = 1, 256, 1 row-major and N = 1 column-major, 128 row-major,
 * 1 column-major gave relative errors above 1 on ALG_DEFAULT and CSR_ALG2
 * in a review's run. */
static void check_shape_return(cusparse_path *p, int alg, const tcspmm_csr *A,
                               tcspmm_layout layout, const char *what)
{
    const tcspmm_layout other = layout == TCSPMM_LAYOUT_ROW_MAJOR ? TCSPMM_LAYOUT_COL_MAJOR
                                                                   : TCSPMM_LAYOUT_ROW_MAJOR;
    char label[320];
    snprintf(label, sizeof label, "%s (N = 1 after another shape)", what);
    const size_t room = room_for(A, 256);
    float *dB = NULL, *dC = NULL;
    CHECK(cudaMalloc((void **)&dB, room) == cudaSuccess);
    CHECK(cudaMalloc((void **)&dC, room) == cudaSuccess);
    if (check_product(p, alg, A, 1, layout, 0.0f, dB, dC, label)) {
        if (check_product(p, alg, A, 256, layout, 0.0f, dB, dC, label))
            check_product(p, alg, A, 1, layout, 0.25f, dB, dC, label);
        if (check_product(p, alg, A, 128, other, 0.0f, dB, dC, label))
            check_product(p, alg, A, 1, layout, 0.25f, dB, dC, label);
    }
    cudaFree(dB);
    cudaFree(dC);
}

static void check_matrix(const tcspmm_csr *given, const char *what)
{
    static const int64_t ns[] = {1, 3, 32, 128};
    tcspmm_csr A;
    CHECK_OK(csr_copy(given, &A));
    cusparse_path *p = NULL;
    CHECK_OK(cusparse_path_create(&A, NULL, &p));
    for (int a = 0; p && a < CUSPARSE_PATH_NUM_ALGS; a++)
        for (int l = 0; l < 2; l++) {
            for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
                check_shape(p, cusparse_path_algs[a], &A, ns[i], (tcspmm_layout)l, what);
            check_shape_return(p, cusparse_path_algs[a], &A, (tcspmm_layout)l, what);
        }
    cusparse_path_destroy(p);
    tcspmm_csr_free(&A);
}

int main(void)
{
    tests_require_gpu();
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess);
    matgen_each_case(seed, check_matrix);
    static const char *files[] = {"cora.mtx", "ted_B.mtx.gz", "lp_stocfor3.mtx.gz",
                                  "de2010.mtx.gz", "astro-ph.mtx.gz"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        tcspmm_csr A;
        CHECK_OK(tests_read(tests_data(files[i]), 51 + i, &A));
        check_matrix(&A, files[i]);
        tcspmm_csr_free(&A);
    }
    printf("CSR_ALG3 ran %d row-major products\n", alg3_row_major_runs);
    CHECK(alg3_row_major_runs > 0);
    cudaStreamDestroy(stream);
    return tests_finish();
}
