/* gpu_sparse24.c: the structured-sparsity kernels (sp24_gpu.h: mma.sp, and
 * wgmma.sp where the device has it) against the float64
 * reference: tf32 on 1:2 matrices, bf16/fp16 on 2:4, fp32 or 16-bit B and C,
 * both layouts, ld above the minimum, odd M, K, N (N = 1 too, and past
 * 2^21), alpha and beta, C poisoned with NaN so every element must be
 * written, and the gaps between leading dimensions checked untouched;
 * each case on each kernel the device runs (set on the handle: mma.sp,
 * mma.sp on 64x64 tiles only, as on devices with 99 KB of shared memory per
 * block, and wgmma.sp); then one handle through products of changing n,
 * wgmma.sp's pairs of tiles (each shape tf32 has), a 16-bit product through the
 * public tcspmm_spmm_ex, and the most rows each mma.sp kernel takes; a
 * matrix of 20 MB goes up through staging buffers. With
 * --small-device the process runs as on a device of compute capability
 * 8.6, 8.9 or 12.x (sp24_emulate_small_device): the uploads pick mma.sp on
 * 64x64 tiles and prepare no other kernel, and an upload refuses the rows
 * those tiles cannot hold. --small: only the small cases (for
 * compute-sanitizer).
 *
 * Each result is checked twice: against the float64 product of the given
 * fp32 inputs (the tolerance: 1e-3 tf32, 1e-2 bf16/fp16), and against
 * the float64 product of the inputs rounded as the kernel rounds them
 * (sp24_round), where only the f32 accumulation differs (tolerance 1e-4),
 * and, for a 16-bit C, its rounding to nearest: relative error at most the
 * unit roundoff u (2^-8 bf16, 2^-11 fp16) element by element, so also in
 * norm; with 1000 elements or more at most u / 2 in norm, which rounding
 * meets (about u / 2.5 for values spread over a binade) and truncation
 * (about u / 1.3) does not. */
#include <cuda_runtime.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "format/csr.h"
#include "kernels/sp24_gpu_internal.h"
#include "harness.h"
#include "host_upload.h"
#include "matgen.h"
#include "reference.h"
#include "rng.h"
#include "sparse24_gen.h"

#define ROUNDED_TOL 1e-4

typedef struct spmm_case {
    int64_t m, k, n;
    tcspmm_precision precision;
    tcspmm_layout layout;
    int b_type;
    int64_t ld_extra;
    float alpha, beta;
    int c_type;
} spmm_case;

static uint64_t next_seed = 1000;

static float nan_value(void) { return nanf(""); }

#define NAN_16 0xFFFFu /* a NaN in both bf16 and fp16 */

static const char *data_name(int t)
{
    return t == SP24_DATA_FP32 ? "fp32" : t == SP24_DATA_BF16 ? "bf16" : "fp16";
}

/* C's host copy (floats) to and from the device's elements of type c_type. */
static void c_to_device(void *dC, const float *C, int64_t count, int c_type,
                        tcspmm_precision p, uint16_t *scratch)
{
    if (c_type == SP24_DATA_FP32) {
        CHECK_OK(TCSPMM_CUDA(cudaMemcpy(dC, C, (size_t)count * 4, cudaMemcpyHostToDevice)));
        return;
    }
    for (int64_t i = 0; i < count; i++) scratch[i] = isnan(C[i]) ? NAN_16 : sp24_half_bits(C[i], p);
    CHECK_OK(TCSPMM_CUDA(cudaMemcpy(dC, scratch, (size_t)count * 2, cudaMemcpyHostToDevice)));
}

static void c_from_device(float *C, const void *dC, int64_t count, int c_type,
                          tcspmm_precision p, uint16_t *scratch)
{
    if (c_type == SP24_DATA_FP32) {
        CHECK_OK(TCSPMM_CUDA(cudaMemcpy(C, dC, (size_t)count * 4, cudaMemcpyDeviceToHost)));
        return;
    }
    CHECK_OK(TCSPMM_CUDA(cudaMemcpy(scratch, dC, (size_t)count * 2, cudaMemcpyDeviceToHost)));
    for (int64_t i = 0; i < count; i++) C[i] = sp24_half_value(scratch[i], p);
}

/* A generated m x k matrix of a precision's structure, as given (A), with
 * its values rounded as the kernel rounds them (Ar), and uploaded to run on
 * one kernel (g). */
typedef struct test_matrix {
    tcspmm_csr A, Ar;
    sp24 s;
    sp24_gpu *g;
} test_matrix;

static int staged_uploads; /* matrices whose upload went through staging buffers */

static void matrix_new(int64_t m, int64_t k, tcspmm_precision p, sp24_kernel kernel,
                       test_matrix *tm)
{
    tm->g = NULL;
    CHECK_OK(sp24_gen(m, k, p == TCSPMM_PRECISION_TF32 ? SP24_1TO2 : SP24_2TO4, 0.2, next_seed++,
                      &tm->A));
    CHECK_OK(tests_rounded_copy(&tm->A, p, &tm->Ar));
    CHECK_OK(sp24_compress(&tm->A, p, 0, 0, &tm->s));
    size_t value_bytes, meta_bytes;
    sp24_sizes(&tm->s, &value_bytes, &meta_bytes);
    if (host_upload_staged(value_bytes + meta_bytes)) {
        staged_uploads++;
        tests_check_staged(value_bytes + meta_bytes, host_upload_stage_bytes(value_bytes + meta_bytes),
                           "a structured matrix");
    }
    CHECK_OK(sp24_gpu_upload(&tm->s, &tm->g));
    CHECK_OK(sp24_gpu_set_kernel(tm->g, kernel));
}

static void matrix_free(test_matrix *tm)
{
    sp24_gpu_free(tm->g);
    sp24_free(&tm->s);
    tcspmm_csr_free(&tm->A);
    tcspmm_csr_free(&tm->Ar);
}

/* Whether element i of a C of t's shape with leading dimension ldc lies in
 * the m x n matrix (not in a gap). */
static int in_c(int64_t i, int64_t ldc, const spmm_case *t, int row_major)
{
    const int64_t minor = i % ldc, major = i / ldc;
    return row_major ? minor < t->n && major < t->m : minor < t->m && major < t->n;
}

/* Case t (its m, k and precision those of tm) on tm's handle and kernel. */
static void check_case(const spmm_case *t, const test_matrix *tm)
{
    int row_major = t->layout == TCSPMM_LAYOUT_ROW_MAJOR;
    int64_t ldb = (row_major ? t->n : t->k) + t->ld_extra;
    int64_t ldc = (row_major ? t->n : t->m) + t->ld_extra;
    int64_t b_count = ldb * (row_major ? t->k : t->n), c_count = ldc * (row_major ? t->m : t->n);
    sp24_gpu *g = tm->g;

    float *B = malloc((size_t)b_count * sizeof(float)), *Br = malloc((size_t)b_count * sizeof(float));
    uint16_t *B16 = malloc((size_t)b_count * sizeof(uint16_t));
    float *C0 = malloc((size_t)c_count * sizeof(float)), *C = malloc((size_t)c_count * sizeof(float));
    float *C_again = malloc((size_t)c_count * sizeof(float));
    uint16_t *C16 = malloc((size_t)c_count * sizeof(uint16_t));
    double *ref = malloc((size_t)(t->m * t->n + 1) * sizeof(double));
    double *ref_r = malloc((size_t)(t->m * t->n + 1) * sizeof(double));
    rng_fill(B, (size_t)b_count, next_seed++);
    rng_fill(C0, (size_t)c_count, next_seed++);
    for (int64_t i = 0; i < b_count; i++) {
        if (t->b_type != SP24_DATA_FP32) {
            B16[i] = sp24_half_bits(B[i], t->precision);
            B[i] = sp24_round(B[i], t->precision); /* the caller's data already is 16-bit */
        }
        Br[i] = sp24_round(B[i], t->precision);
    }
    /* beta == 0: C starts as NaN and must be fully overwritten; else C0. The
     * gaps past each leading dimension's minimum hold TESTS_GAP_VALUE in both
     * cases. */
    for (int64_t i = 0; i < c_count; i++)
        C[i] = in_c(i, ldc, t, row_major) ? nan_value() : TESTS_GAP_VALUE;
    for (int64_t i = 0; i < t->m; i++)
        for (int64_t j = 0; j < t->n; j++) {
            int64_t at = dense_index(i, j, ldc, t->layout);
            if (t->c_type != SP24_DATA_FP32) C0[at] = sp24_round(C0[at], t->precision);
            if (t->beta != 0.0f) C[at] = C0[at];
            else C0[at] = nan_value();
        }

    void *dB = NULL;
    float *dC = NULL;
    size_t b_bytes = (size_t)b_count * (t->b_type == SP24_DATA_FP32 ? 4 : 2);
    CHECK_OK(TCSPMM_CUDA(cudaMalloc(&dB, b_bytes)));
    CHECK_OK(TCSPMM_CUDA(cudaMalloc((void **)&dC, (size_t)c_count * sizeof(float)))); /* any type */
    CHECK_OK(TCSPMM_CUDA(cudaMemcpy(dB, t->b_type == SP24_DATA_FP32 ? (void *)B : (void *)B16,
                                    b_bytes, cudaMemcpyHostToDevice)));
    /* twice from the same C: every kernel (split K included) adds in a fixed
     * order, so the two products agree bit for bit */
    for (int run = 0; run < 2; run++) {
        c_to_device(dC, C, c_count, t->c_type, t->precision, C16);
        CHECK_OK(sp24_gpu_spmm(g, t->n, t->alpha, dB, t->b_type, ldb, t->beta, dC, t->c_type,
                               ldc, t->layout, NULL));
        CHECK_OK(TCSPMM_CUDA(cudaDeviceSynchronize()));
        c_from_device(run ? C : C_again, dC, c_count, t->c_type, t->precision, C16);
    }
    int same_twice = memcmp(C, C_again, (size_t)c_count * sizeof(float)) == 0;

    CHECK_OK(reference_spmm(&tm->A, t->n, t->alpha, B, ldb, t->beta, C0, ldc, t->layout, ref));
    CHECK_OK(reference_spmm(&tm->Ar, t->n, t->alpha, Br, ldb, t->beta, C0, ldc, t->layout,
                            ref_r));
    double tol = t->precision == TCSPMM_PRECISION_TF32 ? 1e-3 : 1e-2;
    compare_result r = compare_to_reference(C, ldc, t->layout, ref, t->m, t->n, tol);
    double rounded_tol = ROUNDED_TOL;
    if (t->c_type != SP24_DATA_FP32) {
        double u = t->c_type == SP24_DATA_BF16 ? 0x1p-8 : 0x1p-11;
        rounded_tol = t->m * t->n >= 1000 ? u / 2 : u;
    }
    compare_result rr = compare_to_reference(C, ldc, t->layout, ref_r, t->m, t->n, rounded_tol);
    int64_t gap_written = 0;
    for (int64_t i = 0; i < c_count; i++)
        if (!in_c(i, ldc, t, row_major)) gap_written += C[i] != TESTS_GAP_VALUE;
    printf("  %-8s %s %5lld x %5lld x %5lld %s B=%s C=%s ld+%lld alpha=%g beta=%g: rel_err "
           "%.2e (rounded inputs %.2e) nonfinite %lld\n",
           sp24_kernel_name(sp24_gpu_kernel(g)), tcspmm_precision_name(t->precision),
           (long long)t->m, (long long)t->k, (long long)t->n, row_major ? "row" : "col",
           data_name(t->b_type), data_name(t->c_type), (long long)t->ld_extra, t->alpha, t->beta,
           r.rel_err, rr.rel_err, (long long)r.nonfinite);
    CHECK(r.pass);
    CHECK(rr.pass);
    CHECK(gap_written == 0);
    CHECK(same_twice);

    cudaFree(dB);
    cudaFree(dC);
    free(B);
    free(Br);
    free(B16);
    free(C0);
    free(C);
    free(C_again);
    free(C16);
    free(ref);
    free(ref_r);
}

static void run_case(const spmm_case *t, sp24_kernel kernel)
{
    test_matrix tm;
    matrix_new(t->m, t->k, t->precision, kernel, &tm);
    check_case(t, &tm);
    matrix_free(&tm);
}

static void test_rejects(void)
{
    tcspmm_csr A;
    sp24 s;
    sp24_gpu *g = NULL;
    float *d = NULL;
    CHECK_OK(sp24_gen(20, 20, SP24_2TO4, 0.0, 5, &A));
    CHECK_OK(sp24_compress(&A, TCSPMM_PRECISION_FP16, 0, 0, &s));
    CHECK_OK(sp24_gpu_upload(&s, &g));
    CHECK_OK(TCSPMM_CUDA(cudaMalloc((void **)&d, 20 * 20 * sizeof(float))));
    const int F32 = SP24_DATA_FP32;
    const tcspmm_layout R = TCSPMM_LAYOUT_ROW_MAJOR;
    CHECK(sp24_gpu_spmm(g, 4, 1.f, d, SP24_DATA_BF16, 4, 0.f, d, F32, 4, R, NULL) ==
          TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(sp24_gpu_spmm(g, 4, 1.f, d, F32, 4, 0.f, d, SP24_DATA_BF16, 4, R, NULL) ==
          TCSPMM_ERROR_INVALID_ARGUMENT); /* a bf16 C for an fp16 matrix */
    CHECK(sp24_gpu_spmm(g, 4, 1.f, d, F32, 3, 0.f, d, F32, 4, R, NULL) ==
          TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(sp24_gpu_spmm(g, 4, 1.f, d, F32, 4, 0.f, d, F32, 19, TCSPMM_LAYOUT_COL_MAJOR, NULL) ==
          TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK_OK(sp24_gpu_spmm(g, 0, 1.f, d, F32, 1, 0.f, d, F32, 1, R, NULL));
    if (sp24_gpu_kernel(g) == SP24_KERNEL_WGMMA) { /* refused before packing B (no OOM) */
        const int64_t n = INT32_MAX; /* padded past the tensor maps' range */
        CHECK(sp24_gpu_spmm(g, n, 1.f, d, F32, n, 0.f, d, F32, n, R, NULL) ==
              TCSPMM_ERROR_UNSUPPORTED);
        CHECK(strstr(tcspmm_last_error(), "range") != NULL);
        CHECK(cudaPeekAtLastError() == cudaSuccess);
    }
    if (sp24_kernel_default() == SP24_KERNEL_WGMMA) { /* rows padded within the maps' range */
        const int64_t most = INT32_MAX / SP24_ROW_TILE * SP24_ROW_TILE;
        CHECK(sp24_gpu_takes_rows(most) && !sp24_gpu_takes_rows(most + 1));
    }
    cudaFree(d);
    sp24_gpu_free(g);
    sp24_free(&s);
    tcspmm_csr_free(&A);
}

/* One handle through products of changing n (tf32, fp32 B, so B is packed
 * each time into the handle's scratch buffer, which grows), each checked as
 * a case of its own. */
static void test_changing_n(sp24_kernel kernel)
{
    const int64_t m = 700, k = 1500, ns[] = {300, 64, 300, 1100, 1, 1100, 1100, 129};
    test_matrix tm;
    matrix_new(m, k, TCSPMM_PRECISION_TF32, kernel, &tm);
    printf("  %s, one handle through n = 300, 64, 300, 1100, 1, 1100, 1100, 129:\n",
           sp24_kernel_name(kernel));
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        const spmm_case t = {m, k, ns[i], TCSPMM_PRECISION_TF32, TCSPMM_LAYOUT_ROW_MAJOR,
                             SP24_DATA_FP32, 0, 1.0f, 0.0f, SP24_DATA_FP32};
        check_case(&t, &tm);
    }
    matrix_free(&tm);
}

/* Clusters of two tiles along M sharing B, with an odd number of tiles
 * along M (the last pair's second tile lies past A's rows) and a part-empty
 * last column of tiles; B packed, and in place in both layouts (odd n,
 * K = 1000 included), C fp32 and 16-bit. bf16 and fp16 pair 256 x 128
 * tiles, which the launch rule takes only for large products on cards of
 * lean DRAM bandwidth (sp24_wgmma.cu, PAIRS16_MIN_MACS): lowered to every
 * product here. tf32 pairs from three waves of tiles, 128 x 256 ones or
 * (on lean cards) 256 x 128 ones: each shape forced here in turn. Each
 * case checks that its product launched the pairs it forced. */
static void test_pairs(void)
{
    const tcspmm_layout R = TCSPMM_LAYOUT_ROW_MAJOR, C = TCSPMM_LAYOUT_COL_MAJOR;
    const tcspmm_precision BF = TCSPMM_PRECISION_BF16, FP = TCSPMM_PRECISION_FP16,
                           TF = TCSPMM_PRECISION_TF32;
    const int F32 = SP24_DATA_FP32, H_BF = SP24_DATA_BF16, H_FP = SP24_DATA_FP16;
    const spmm_case cases[] = {
        {12900, 200, 1030, BF, R, H_BF, 0, 1.0f, 0.5f, F32},
        {12900, 150, 1030, FP, C, F32, 3, -1.0f, 1.0f, F32},
        {12900, 200, 1030, FP, R, H_FP, 2, 1.0f, 0.0f, H_FP},
        {12900, 150, 1030, BF, C, H_BF, 0, 1.0f, 0.5f, H_BF},
        {12900, 150, 1030, BF, C, H_BF, 2, 1.0f, 0.5f, H_BF},
        {12900, 150, 1001, FP, R, H_FP, 7, 1.0f, 0.0f, H_FP},
        {12900, 1000, 1030, FP, C, H_FP, 0, 1.0f, 0.5f, F32},
        /* tf32: row-major C in whole rows through shared memory (ldc a
         * multiple of 4), row-major C written directly (odd ldc),
         * column-major; K = 1000 (32 k-tiles of 32 columns, 8 in the
         * last) */
        {12900, 200, 1030, TF, R, F32, 2, 1.0f, 0.5f, F32},
        {12900, 100, 1027, TF, R, F32, 2, -1.0f, 1.0f, F32},
        {12900, 1000, 1030, TF, C, F32, 1, 1.0f, 0.0f, F32},
    };
    double rate = 0;
    CHECK_OK(sp24_wgmma_dram_rate(&rate));
    printf("  wgmma.sp in pairs of tiles: bf16 and fp16 at every size, tf32 in both shapes "
           "(this card: %.1f DRAM bytes per SM cycle):\n", rate);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int wide = 0; wide < (cases[i].precision == TF ? 2 : 1); wide++) {
            test_matrix tm;
            matrix_new(cases[i].m, cases[i].k, cases[i].precision, SP24_KERNEL_WGMMA, &tm);
            sp24_wgmma_set_pairs16_min_macs(tm.g->maps, 0);
            sp24_wgmma_set_tf32_wide_pairs(tm.g->maps, wide);
            if (cases[i].precision == TF) printf("  tf32 pairs of %s tiles:\n",
                                                 wide ? "128 x 256" : "256 x 128");
            check_case(&cases[i], &tm);
            CHECK(sp24_wgmma_pairs_fit(tm.g->maps, wide) > 0);
            CHECK(sp24_wgmma_pairs_fit(tm.g->maps, !wide) == 0);
            matrix_free(&tm);
        }
}

/* The public tcspmm_spmm_ex with bf16 B and C (row-major, ld past n, beta
 * reading C) on a plan of the sparse24 path, against float64 on the rounded
 * inputs; and an fp16 C on that bf16 plan, which goes through float. */
static void test_public_16bit(void)
{
    const int64_t m = 300, k = 200, n = 70, ld = 72;
    const float alpha = 1.5f, beta = 0.5f;
    const tcspmm_precision p = TCSPMM_PRECISION_BF16;
    tcspmm_csr A, Ar;
    CHECK_OK(sp24_gen(m, k, SP24_2TO4, 0.2, next_seed++, &A));
    CHECK_OK(tests_rounded_copy(&A, p, &Ar));
    tcspmm_options opt;
    tcspmm_options_init(&opt);
    opt.path = TCSPMM_PATH_SPARSE24;
    opt.precision = p;
    tcspmm_plan *plan = NULL;
    CHECK_OK(tcspmm_plan_create(&A, &opt, &plan));
    float *B = malloc((size_t)(k * ld) * sizeof(float));
    float *C = malloc((size_t)(m * ld) * sizeof(float)), *C0 = malloc((size_t)(m * ld) * sizeof(float));
    uint16_t *B16 = malloc((size_t)(k * ld) * sizeof(uint16_t));
    uint16_t *C16 = malloc((size_t)(m * ld) * sizeof(uint16_t));
    double *ref = malloc((size_t)(m * n) * sizeof(double));
    rng_fill(B, (size_t)(k * ld), next_seed++);
    rng_fill(C0, (size_t)(m * ld), next_seed++);
    for (int64_t i = 0; i < k * ld; i++) {
        B[i] = sp24_round(B[i], p);
        B16[i] = sp24_half_bits(B[i], p);
    }
    for (int64_t i = 0; i < m * ld; i++) C0[i] = sp24_round(C0[i], p);
    void *dB = NULL, *dC = NULL;
    CHECK_OK(TCSPMM_CUDA(cudaMalloc(&dB, (size_t)(k * ld) * 2)));
    CHECK_OK(TCSPMM_CUDA(cudaMalloc(&dC, (size_t)(m * ld) * 2)));
    CHECK_OK(TCSPMM_CUDA(cudaMemcpy(dB, B16, (size_t)(k * ld) * 2, cudaMemcpyHostToDevice)));
    c_to_device(dC, C0, m * ld, SP24_DATA_BF16, p, C16);
    CHECK_OK(tcspmm_spmm_ex(plan, n, alpha, dB, TCSPMM_R_16BF, ld, beta, dC, TCSPMM_R_16BF, ld,
                            TCSPMM_LAYOUT_ROW_MAJOR, NULL));
    c_from_device(C, dC, m * ld, SP24_DATA_BF16, p, C16);
    CHECK_OK(reference_spmm(&Ar, n, alpha, B, ld, beta, C0, ld, TCSPMM_LAYOUT_ROW_MAJOR, ref));
    compare_result r = compare_to_reference(C, ld, TCSPMM_LAYOUT_ROW_MAJOR, ref, m, n, 0x1p-9);
    printf("  tcspmm_spmm_ex bf16 B and C, %lld x %lld x %lld: rel_err %.2e\n", (long long)m,
           (long long)k, (long long)n, r.rel_err);
    CHECK(r.pass);
    /* An fp16 C, which the bf16 kernels do not write: the product through a
     * float copy, rounded to fp16 once. */
    const tcspmm_precision h = TCSPMM_PRECISION_FP16;
    for (int64_t i = 0; i < m * ld; i++) C0[i] = sp24_round(C0[i], h);
    c_to_device(dC, C0, m * ld, SP24_DATA_FP16, h, C16);
    CHECK_OK(tcspmm_spmm_ex(plan, n, alpha, dB, TCSPMM_R_16BF, ld, beta, dC, TCSPMM_R_16F, ld,
                            TCSPMM_LAYOUT_ROW_MAJOR, NULL));
    c_from_device(C, dC, m * ld, SP24_DATA_FP16, h, C16);
    CHECK_OK(reference_spmm(&Ar, n, alpha, B, ld, beta, C0, ld, TCSPMM_LAYOUT_ROW_MAJOR, ref));
    r = compare_to_reference(C, ld, TCSPMM_LAYOUT_ROW_MAJOR, ref, m, n, 0x1p-9);
    printf("  tcspmm_spmm_ex bf16 B, fp16 C (through float): rel_err %.2e\n", r.rel_err);
    CHECK(r.pass);
    cudaFree(dB);
    cudaFree(dC);
    free(B);
    free(C);
    free(C0);
    free(B16);
    free(C16);
    free(ref);
    tcspmm_plan_destroy(plan);
    tcspmm_csr_free(&A);
    tcspmm_csr_free(&Ar);
}

/* C = beta * C on the sparse24 path for a matrix with no columns: the auto
 * path does not take it (no entries), a forced plan does, with B NULL
 * (tf32) and with a 16-bit B that TMA could read in place (bf16), in both
 * layouts. Every element must be exactly beta times its old value. */
static void test_no_columns(void)
{
    const int64_t m = 37, n = 9, ld = 16;
    const float beta = 0.5f;
    tcspmm_csr A;
    CHECK_OK(matgen_random(m, 0, 0.5, next_seed++, &A));
    tcspmm_plan *plan = NULL;
    CHECK_OK(tcspmm_plan_create(&A, NULL, &plan));
    tcspmm_info info;
    if (plan && !tcspmm_plan_info(plan, &info)) CHECK(info.path != TCSPMM_PATH_SPARSE24);
    tcspmm_plan_destroy(plan);
    float *C0 = malloc((size_t)(m * ld) * sizeof(float)), *C = malloc((size_t)(m * ld) * sizeof(float));
    void *dB = NULL, *dC = NULL;
    CHECK_OK(TCSPMM_CUDA(cudaMalloc(&dB, 256)));
    CHECK_OK(TCSPMM_CUDA(cudaMalloc(&dC, (size_t)(m * ld) * sizeof(float))));
    const tcspmm_precision precisions[2] = {TCSPMM_PRECISION_TF32, TCSPMM_PRECISION_BF16};
    for (int p = 0; p < 2; p++)
        for (int l = 0; l < 2; l++) {
            const tcspmm_layout layout = l ? TCSPMM_LAYOUT_COL_MAJOR : TCSPMM_LAYOUT_ROW_MAJOR;
            tcspmm_options opt;
            tcspmm_options_init(&opt);
            opt.path = TCSPMM_PATH_SPARSE24;
            opt.precision = precisions[p];
            plan = NULL;
            CHECK_OK(tcspmm_plan_create(&A, &opt, &plan));
            if (!plan) continue;
            rng_fill(C0, (size_t)(m * ld), next_seed++);
            CHECK_OK(TCSPMM_CUDA(cudaMemcpy(dC, C0, (size_t)(m * ld) * 4, cudaMemcpyHostToDevice)));
            const int64_t ldc = l ? m : ld, ldb = l ? 8 : ld;
            if (p == 0)
                CHECK_OK(tcspmm_spmm(plan, n, 1.5f, NULL, ldb, beta, (float *)dC, ldc, layout, NULL));
            else
                CHECK_OK(tcspmm_spmm_ex(plan, n, 1.5f, dB, TCSPMM_R_16BF, ldb, beta, dC,
                                        TCSPMM_R_32F, ldc, layout, NULL));
            CHECK_OK(TCSPMM_CUDA(cudaMemcpy(C, dC, (size_t)(m * ld) * 4, cudaMemcpyDeviceToHost)));
            int64_t wrong = 0;
            for (int64_t i = 0; i < m; i++)
                for (int64_t j = 0; j < n; j++) {
                    const int64_t at = l ? j * ldc + i : i * ldc + j;
                    wrong += !(C[at] == beta * C0[at]);
                }
            if (wrong)
                printf("  no columns, %s, %s: %lld of %lld elements not beta * C\n",
                       tcspmm_precision_name(precisions[p]), l ? "column-major" : "row-major",
                       (long long)wrong, (long long)(m * n));
            CHECK(wrong == 0);
            tcspmm_plan_destroy(plan);
        }
    cudaFree(dB);
    cudaFree(dC);
    free(C0);
    free(C);
    tcspmm_csr_free(&A);
}

/* An mma.sp kernel's bound on rows (a grid y block per bm padded rows, at
 * most 65535; rows padded to SP24_ROW_TILE): the most rows it takes run
 * right on it, and one row more is
 * refused, by set_kernel where the kernel the upload picks takes them, else
 * by the upload. */
static void test_mma_sp_rows(sp24_kernel kernel, int64_t bm)
{
    const int64_t most = (int64_t)65535 * bm / SP24_ROW_TILE * SP24_ROW_TILE;
    const spmm_case t = {most, 12, 3, TCSPMM_PRECISION_BF16, TCSPMM_LAYOUT_ROW_MAJOR,
                         SP24_DATA_FP32, 1, 1.0f, 0.5f, SP24_DATA_FP32};
    run_case(&t, kernel);
    tcspmm_csr A;
    sp24 s;
    sp24_gpu *g = NULL;
    CHECK_OK(sp24_gen(most + 1, 12, SP24_2TO4, 0.2, next_seed++, &A));
    CHECK_OK(sp24_compress(&A, TCSPMM_PRECISION_BF16, 0, 0, &s));
    const tcspmm_status up = sp24_gpu_upload(&s, &g);
    const int upload_refuses = !sp24_kernel_usable(SP24_KERNEL_WGMMA) &&
                               (kernel == SP24_KERNEL_MMA_SP ||
                                !sp24_kernel_usable(SP24_KERNEL_MMA_SP));
    if (!upload_refuses) {
        CHECK_OK(up);
        const sp24_kernel picked = g ? sp24_gpu_kernel(g) : kernel;
        if (g) CHECK(sp24_gpu_set_kernel(g, kernel) == TCSPMM_ERROR_UNSUPPORTED);
        if (g) CHECK(sp24_gpu_kernel(g) == picked);
    } else {
        CHECK(up == TCSPMM_ERROR_UNSUPPORTED && g == NULL);
    }
    printf("  %lld rows on %s; %lld refused by %s\n", (long long)most, sp24_kernel_name(kernel),
           (long long)(most + 1), upload_refuses ? "sp24_gpu_upload" : "sp24_gpu_set_kernel");
    sp24_gpu_free(g);
    sp24_free(&s);
    tcspmm_csr_free(&A);
}

/* An auto plan at fp16 of a 2:4 matrix holding a value fp16 cannot hold
 * (70000) takes another path and says why; its products are right. A forced
 * sparse24 plan refuses it. */
static void test_auto_overflow(void)
{
    tcspmm_csr A;
    CHECK_OK(sp24_gen(200, 160, SP24_2TO4, 0.0, next_seed++, &A));
    A.values[A.nnz / 2] = 70000.0f;
    tcspmm_options opt;
    tcspmm_options_init(&opt);
    opt.precision = TCSPMM_PRECISION_FP16;
    tcspmm_plan *plan = NULL;
    CHECK_OK(tcspmm_plan_create(&A, &opt, &plan));
    tcspmm_info info;
    if (plan && !tcspmm_plan_info(plan, &info)) {
        CHECK(info.path != TCSPMM_PATH_SPARSE24 && strstr(info.path_reason, "overflows fp16"));
        tests_check_spmm(plan, &A, 33, 2, 0, 1e-3, next_seed++, NULL, "2:4 with 70000, fp16 auto");
    }
    tcspmm_plan_destroy(plan);
    opt.path = TCSPMM_PATH_SPARSE24;
    plan = NULL;
    CHECK(tcspmm_plan_create(&A, &opt, &plan) == TCSPMM_ERROR_UNSUPPORTED && plan == NULL);
    tcspmm_csr_free(&A);
}

int main(int argc, char **argv)
{
    int small_only = 0, small_device = 0;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--small")) small_only = 1;
        else if (!strcmp(argv[a], "--small-device")) small_device = 1;
        else {
            fprintf(stderr, "usage: gpu_sparse24 [--small] [--small-device]\n");
            return 2;
        }
    }
    tests_require_gpu();
    if (small_device) {
        sp24_emulate_small_device(1);
        printf("as a device without wgmma.sp or 100 KB blocks\n");
        CHECK(sp24_kernel_default() == SP24_KERNEL_MMA_SP_SMALL);
    } else { /* which kernels run is not the library's to say: sm_90 has them all */
        int dev = 0, major = 0, minor = 0;
        CHECK(cudaGetDevice(&dev) == cudaSuccess &&
              cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) == cudaSuccess &&
              cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev) == cudaSuccess);
        if (major == 9 && minor == 0)
            CHECK(sp24_kernel_usable(SP24_KERNEL_WGMMA) && sp24_kernel_usable(SP24_KERNEL_MMA_SP) &&
                  sp24_kernel_default() == SP24_KERNEL_WGMMA);
    }
    const tcspmm_layout R = TCSPMM_LAYOUT_ROW_MAJOR, C = TCSPMM_LAYOUT_COL_MAJOR;
    const tcspmm_precision TF = TCSPMM_PRECISION_TF32, BF = TCSPMM_PRECISION_BF16,
                           FP = TCSPMM_PRECISION_FP16;
    const int F32 = SP24_DATA_FP32, H_BF = SP24_DATA_BF16, H_FP = SP24_DATA_FP16; /* B, C types */
    const spmm_case cases[] = {
        {1, 1, 1, BF, R, F32, 0, 1.0f, 0.0f, F32},
        {37, 45, 1, BF, C, F32, 3, 1.0f, 0.0f, F32},
        {203, 141, 77, FP, R, F32, 5, 1.5f, 0.5f, F32},
        {203, 141, 77, BF, C, F32, 7, 1.0f, 0.0f, F32},
        {203, 141, 77, BF, R, H_BF, 2, -0.5f, 2.0f, F32},
        {130, 99, 33, FP, C, H_FP, 1, 1.0f, 0.0f, F32},
        {130, 99, 33, TF, R, F32, 0, 1.0f, 0.0f, F32},
        {130, 99, 1, TF, C, F32, 4, 2.0f, -1.0f, F32},
        {17, 5, 300, TF, R, F32, 9, 1.0f, 1.0f, F32},
        /* enough 128 x 128 tiles to take mma.sp's big tiles (wgmma.sp: 128 x 256
         * for bf16 and fp16, 256 x 128 for tf32) */
        {2000, 300, 1100, BF, R, F32, 3, 1.0f, 0.0f, F32},
        {2000, 300, 1100, FP, C, F32, 0, 0.75f, 0.25f, F32},
        {2000, 300, 1100, TF, C, F32, 1, 1.0f, 0.0f, F32},
        {2000, 300, 1100, TF, R, F32, 0, 1.0f, 0.5f, F32},
        /* many tiles (wgmma.sp: 128 x 128); long K with few tiles: K split
         * into parts added in the cluster (beta 0, 1 and other), the stage
         * ring wrapping many times */
        {5000, 700, 1100, BF, R, H_BF, 0, 1.0f, 0.0f, F32},
        {5000, 700, 1100, TF, R, F32, 1, 1.0f, 0.5f, F32},
        {600, 2100, 200, FP, R, F32, 0, 1.0f, 0.5f, F32},
        {600, 2100, 64, BF, C, F32, 0, 1.0f, 1.0f, F32},
        {600, 2100, 60, TF, R, F32, 3, 2.0f, 0.0f, F32},
        {300, 9000, 7, BF, R, F32, 1, 1.0f, -1.0f, F32},
        /* split K into a row-major C with ldc a multiple of 4, the last
         * 8-column chunk 1 or 2 columns wide */
        {600, 2100, 65, BF, R, F32, 3, 1.0f, 0.5f, F32},
        {600, 2100, 66, FP, R, F32, 2, -1.0f, 0.0f, F32},
        /* few tiles, long K (wgmma.sp: 128 x 128 tiles; 256 x 128 ones would
         * split K, which they do not) */
        {1100, 2000, 1024, BF, R, H_BF, 0, 1.0f, 0.5f, F32},
        {1100, 2000, 1000, TF, C, F32, 0, 1.0f, 1.0f, F32},
        /* n <= 128 on wgmma.sp: 128 x 128 tiles, K split 8 ways */
        {1000, 4000, 100, BF, R, F32, 0, 1.0f, 0.5f, F32},
        {1000, 4000, 128, TF, C, F32, 1, 1.0f, 0.0f, F32},
        /* 16-bit B with ldb a multiple of 8: wgmma.sp reads it in place,
         * row-major (transposed, k and n past the edges zero-filled) and
         * column-major; every tile shape, split K, n = 1 */
        {37, 45, 1, BF, R, H_BF, 7, 1.0f, 0.0f, F32},
        {130, 99, 33, FP, R, H_FP, 7, 1.0f, 0.5f, F32},
        {203, 141, 77, BF, R, H_BF, 3, -0.5f, 2.0f, F32},
        {5000, 700, 1100, BF, R, H_BF, 4, 1.0f, 0.0f, F32},
        {600, 2100, 200, FP, C, H_FP, 4, 1.0f, 0.5f, F32},
        {1000, 4000, 100, BF, C, H_BF, 0, 1.0f, 0.5f, F32},
        {130, 99, 60, FP, C, H_FP, 5, 1.0f, 0.0f, F32},
        /* row-major C with ldc a multiple of 4 and whole tiles inside it:
         * wgmma.sp writes those tiles through shared memory in whole rows
         * (beta 0 and not), the edge tiles directly */
        {300, 100, 130, BF, R, H_BF, 2, 1.0f, 0.5f, F32},
        {300, 100, 132, TF, R, F32, 0, 2.0f, 0.0f, F32},
        {200, 100, 64, FP, R, F32, 4, 1.0f, 1.0f, F32},
        /* at least three waves of wgmma.sp's 256 x 128 tiles: tf32 runs
         * tiles in clusters of two that share B (128 x 256 ones, or
         * 256 x 128 on cards of lean DRAM bandwidth), with an odd number of
         * tiles along M (the last pair's second tile lies past A's rows);
         * bf16 and fp16 in 128 x 256 tiles; B packed (ldb not a multiple of 8),
         * and read in place in both layouts (row-major C then written in
         * whole rows through shared memory) */
        {12900, 200, 1030, BF, R, H_BF, 0, 1.0f, 0.5f, F32},
        {12900, 150, 1030, FP, C, H_FP, 0, -1.0f, 1.0f, F32},
        {12900, 100, 1030, TF, C, F32, 3, 1.0f, 0.0f, F32},
        {12900, 200, 1030, BF, R, H_BF, 2, 1.0f, 0.5f, F32},
        {12900, 150, 1030, FP, C, H_FP, 2, -1.0f, 1.0f, F32},
        /* 128 x 256 tiles, B in place, 16-bit C in whole rows */
        {2000, 300, 1100, FP, R, H_FP, 4, 1.0f, -1.0f, H_FP},
        /* bf16 and fp16 in 256 x 128 tiles: at n = 640, 128 x 256 ones
         * would make a second wave (on 132 SMs) */
        {6000, 300, 640, BF, R, H_BF, 0, 1.0f, 0.5f, F32},
        {6000, 300, 640, FP, C, F32, 1, 1.0f, 0.0f, F32},
        /* 16-bit C through every way C is written: n = 1; column-major
         * (single elements); row-major in pairs (even ldc) or single (odd);
         * whole rows through shared memory (ldc a multiple of 4, whole
         * tiles); split K added in the cluster (in fours and single); four
         * waves of 128 x 256 blocks; beta reading the 16-bit C */
        {37, 45, 1, BF, R, H_BF, 7, 1.0f, 0.0f, H_BF},
        {203, 141, 77, FP, C, F32, 5, 1.5f, 0.5f, H_FP},
        {300, 100, 132, BF, R, H_BF, 0, 1.0f, 0.5f, H_BF},
        {300, 100, 130, FP, R, H_FP, 2, 2.0f, 0.0f, H_FP},
        {2000, 300, 1100, FP, R, H_FP, 3, 1.0f, -1.0f, H_FP},
        {5000, 700, 1100, BF, R, H_BF, 4, 1.0f, 0.0f, H_BF},
        {600, 2100, 66, BF, R, H_BF, 2, -1.0f, 0.5f, H_BF},
        {600, 2100, 65, FP, R, F32, 3, 1.0f, 0.0f, H_FP},
        {1000, 4000, 100, FP, C, H_FP, 0, 1.0f, 0.5f, H_FP},
        {12900, 200, 1030, BF, R, H_BF, 0, 1.0f, 0.5f, H_BF},
        /* 128 x 256 tiles on B read in place: column-major with column-major
         * 16-bit C; row-major at odd n; K of 65 k-tiles through the ring of
         * five stages, both layouts */
        {12900, 150, 1030, FP, C, H_FP, 2, 1.0f, 0.5f, H_FP},
        {12900, 200, 1001, BF, R, H_BF, 7, 1.0f, 0.5f, H_BF},
        {3000, 4100, 700, FP, R, H_FP, 4, 1.0f, 0.5f, F32},
        {3000, 4100, 700, BF, C, H_BF, 4, 1.0f, 0.0f, H_BF},
        /* 20 MB of compressed values and metadata: uploaded through
         * staging buffers (host_upload.h) */
        {4100, 2100, 33, TF, R, F32, 0, 1.0f, 0.5f, F32},
        /* n past 2^21: B packed in several launches of at most 65535 y
         * blocks (both layouts) */
        {5, 7, 2097300, TF, R, F32, 0, 1.0f, 0.5f, F32},
        {9, 40, 2097200, BF, C, F32, 1, 1.0f, 0.0f, F32},
    };
    sp24_kernel kernels[3];
    int num_kernels = 0;
    const sp24_kernel all[3] = {SP24_KERNEL_MMA_SP, SP24_KERNEL_MMA_SP_SMALL, SP24_KERNEL_WGMMA};
    for (int k = 0; k < 3; k++) {
        if (sp24_kernel_usable(all[k])) kernels[num_kernels++] = all[k];
        else printf("%s: not on this device\n", sp24_kernel_name(all[k]));
    }
    for (int k = 0; k < num_kernels; k++)
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
            if (!small_only || cases[i].m * cases[i].n < 100000) run_case(&cases[i], kernels[k]);
    for (int k = 0; k < num_kernels; k++) test_changing_n(kernels[k]);
    if (!small_only && sp24_kernel_usable(SP24_KERNEL_WGMMA)) test_pairs();
    test_rejects();
    test_public_16bit();
    test_no_columns();
    test_auto_overflow();
    if (!small_only && sp24_kernel_usable(SP24_KERNEL_MMA_SP))
        test_mma_sp_rows(SP24_KERNEL_MMA_SP, 128);
    if (!small_only) test_mma_sp_rows(SP24_KERNEL_MMA_SP_SMALL, 64);
    CHECK(small_only || staged_uploads > 0);
    return tests_finish();
}
