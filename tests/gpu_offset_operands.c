/* gpu_offset_operands.c: B and C that start 4, 8 or 12 bytes past a 16-byte
 * boundary, as a column block of a larger array does, with leading
 * dimensions that are multiples of 4, so that only their addresses keep the
 * kernels' 16-byte loads and stores away. On HRPB (TF32 and FP32), sparse24
 * (tf32 on a 1:2 matrix, also one wide enough that its tiles split K, and
 * bf16 on a 2:4 one) and cuSPARSE, in both layouts,
 * at n = 1, 8, 33, 128 and 129: every product within tolerance of float64
 * (C poisoned with NaN where beta = 0), nothing written in the gaps the
 * leading dimension leaves, nor in the floats before and after C. */
#include <cuda_runtime.h>
#include <stdlib.h>

#include "format/sparse24.h"
#include "harness.h"
#include "matgen.h"
#include "reference.h"
#include "sparse24_gen.h"

enum { GUARD = 4 }; /* floats allocated beyond each operand, split around it */

static uint64_t seed = 4700;

static int64_t round_up4(int64_t x) { return (x + 3) / 4 * 4; }

/* One product of plan with B and C placed off floats past a 16-byte boundary. */
static void check_offset(tcspmm_plan *plan, const tcspmm_csr *A, int64_t n, tcspmm_layout layout,
                         int off, double tol, const char *what)
{
    const int row_major = layout == TCSPMM_LAYOUT_ROW_MAJOR;
    const float beta = seed % 2 ? 0.5f : 0.0f;
    test_operands t;
    test_operands_make_ld(&t, A, n, layout, round_up4(row_major ? n : A->cols),
                          round_up4(row_major ? n : A->rows), beta, seed++);
    const size_t c_all = t.csize + GUARD;
    float *c_host = malloc(c_all * 4);
    for (size_t e = 0; e < c_all; e++)
        c_host[e] = e >= (size_t)off && e < off + t.csize ? t.C0[e - off] : TESTS_GAP_VALUE;
    float *dB = NULL, *dC = NULL;
    CHECK(cudaMalloc((void **)&dB, (t.bsize + GUARD) * 4) == cudaSuccess);
    CHECK(cudaMalloc((void **)&dC, c_all * 4) == cudaSuccess);
    CHECK(cudaMemcpy(dB + off, t.B, t.bsize * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK(cudaMemcpy(dC, c_host, c_all * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK_OK(tcspmm_spmm(plan, n, 1.5f, dB + off, t.ldb, beta, dC + off, t.ldc, layout, NULL));
    CHECK(cudaMemcpy(c_host, dC, c_all * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
    int64_t guards_changed = 0;
    for (size_t e = 0; e < c_all; e++) {
        if (e >= (size_t)off && e < off + t.csize) t.C[e - off] = c_host[e];
        else guards_changed += c_host[e] != TESTS_GAP_VALUE;
    }
    CHECK_OK(reference_spmm(A, n, 1.5, t.B, t.ldb, beta, t.C0, t.ldc, layout, t.ref));
    const compare_result r = compare_to_reference(t.C, t.ldc, layout, t.ref, A->rows, n, tol);
    const int64_t gaps = test_operands_padding_changed(&t, A->rows, n, layout);
    if (!r.pass || gaps || guards_changed)
        printf("%s, %s, n = %lld, offset %d floats: rel_err %.2e nonfinite %lld, %lld gap and "
               "%lld guard elements changed FAIL\n", what, row_major ? "row-major" : "column-major",
               (long long)n, off, r.rel_err, (long long)r.nonfinite, (long long)gaps,
               (long long)guards_changed);
    CHECK(r.pass && gaps == 0 && guards_changed == 0);
    cudaFree(dB);
    cudaFree(dC);
    free(c_host);
    test_operands_free(&t);
}

/* Every n, layout and offset on a plan of A for path and precision. */
static void check_plan(const tcspmm_csr *A, tcspmm_path path, tcspmm_precision precision,
                       double tol, const char *what)
{
    tcspmm_plan *plan = tests_plan_at(A, path, precision);
    if (!plan) return;
    tcspmm_info info;
    CHECK_OK(tcspmm_plan_info(plan, &info));
    CHECK(info.path == path);
    const int64_t ns[] = {1, 8, 33, 128, 129};
    for (int k = 0; k < 5; k++)
        for (int layout = 0; layout < 2; layout++)
            for (int off = 1; off < 4; off++)
                check_offset(plan, A, ns[k], (tcspmm_layout)layout, off, tol, what);
    CHECK_OK(tcspmm_plan_destroy(plan));
}

int main(void)
{
    tests_require_gpu();
    tcspmm_csr A, S12, S24, wide;
    CHECK_OK(matgen_random(203, 157, 0.08, 4701, &A));
    CHECK_OK(sp24_gen(203, 160, SP24_1TO2, 0.1, 4702, &S12));
    CHECK_OK(sp24_gen(203, 160, SP24_2TO4, 0.1, 4703, &S24));
    CHECK_OK(sp24_gen(203, 4096, SP24_1TO2, 0.1, 4704, &wide)); /* two row tiles, a long K */
    check_plan(&A, TCSPMM_PATH_HRPB, TCSPMM_PRECISION_TF32, 1e-3, "HRPB tf32");
    check_plan(&A, TCSPMM_PATH_HRPB, TCSPMM_PRECISION_FP32, 1e-5, "HRPB fp32");
    check_plan(&A, TCSPMM_PATH_CUSPARSE, TCSPMM_PRECISION_TF32, 1e-5, "cuSPARSE");
    check_plan(&S12, TCSPMM_PATH_SPARSE24, TCSPMM_PRECISION_TF32, 1e-3, "sparse24 tf32");
    check_plan(&S24, TCSPMM_PATH_SPARSE24, TCSPMM_PRECISION_BF16, 1e-2, "sparse24 bf16");
    check_plan(&wide, TCSPMM_PATH_SPARSE24, TCSPMM_PRECISION_TF32, 1e-3, "sparse24 tf32, K split");
    tcspmm_csr_free(&A);
    tcspmm_csr_free(&S12);
    tcspmm_csr_free(&S24);
    tcspmm_csr_free(&wide);
    return tests_finish();
}
