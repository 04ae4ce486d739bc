/* gpu_hrpb.c: the HRPB TF32 kernel on the device against the float64
 * reference (within 1e-3, and within 1e-4 of the product of A and B
 * rounded to TF32, which catches a wrong rounding): the generated edge
 * cases at every N of the list, both panel heights, A's row order and the
 * clustered one (row_order.h), both layouts, leading dimensions above the
 * minimum, beta zero and not, both ways of reading a column-major B, two
 * and three copy stages, heavily split panels, repeat runs (the two stage
 * counts give the same answer), and the bundled matrices of data/ (both row
 * orders); the FP32 (3xTF32) kernels with two and three copy stages forced,
 * within 1e-5; a bf16 and fp16 B read as it is, a C of its type written as
 * it is (on split panels too, their sums reused by later products and
 * captured into a CUDA graph), and the B and C it refuses. C is poisoned
 * with NaN before every run (its padding too, which must stay untouched).
 *
 * `gpu_hrpb --quick` runs a quarter of the N list (for compute-sanitizer);
 * `gpu_hrpb --time [--n N1,N2,...] [file.mtx ...]` instead times the kernel
 * (CUDA events, warm-up, L2 flushed before each run, median of 50) at N =
 * 32, 128, 512 (or the list) on a generated 3D 27-point stencil and on the
 * given files, and prints the GFLOP/s, the fraction of the compulsory-bytes
 * floor, and the best of cuSPARSE's algorithms timed the same way. */
#include <cuda_runtime.h>
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "cusparse_path.h"
#include "format/hrpb.h"
#include "format/row_order.h"
#include "format/sparse24.h"
#include "harness.h"
#include "kernels/hrpb_gpu_internal.h"
#include "kernels/sp24_gpu.h"
#include "loadbalance/wave_split.h"
#include "matgen.h"
#include "reference.h"
#include "rng.h"

#define CUDA_OK(call) CHECK_OK(TCSPMM_CUDA(call))

/* 57: the two-warp kernel (32 < N <= 64). */
static const int64_t test_ns[] = {1, 2, 3, 7, 8, 31, 32, 57, 100, 128, 129, 512};
enum { NUM_NS = sizeof test_ns / sizeof test_ns[0] };

/* --quick (for compute-sanitizer): every fourth N only. */
static int n_step = 1;

/* One product on the device. */
typedef struct run_desc {
    int64_t n;
    tcspmm_layout layout;
    int64_t ld_pad;    /* added to the minimum leading dimension of B and C */
    float alpha, beta;
    hrpb_colb_mode colb;
    hrpb_stages_mode stages;
    int b_type;        /* SP24_DATA_FP32 (0), or _BF16 / _FP16: B rounded to it and read as such */
    int64_t b_shift;   /* B starts this many elements past its allocation (16-byte aligned) */
} run_desc;

/* A's HRPB with its virtual panels, on both sides. */
typedef struct device_matrix {
    hrpb h;
    wave_split w;
    hrpb_gpu *g;
} device_matrix;

/* clustered: HRPB of A's rows in the clustered order (row_order.h).
 * precision: TF32, or FP32 (the split 3xTF32 arithmetic). */
static tcspmm_status device_matrix_make(const tcspmm_csr *A, int tm, int clustered, int64_t n_tiles,
                                        int num_sms, int blocks_per_sm,
                                        tcspmm_precision precision, device_matrix *m)
{
    memset(m, 0, sizeof *m);
    TCSPMM_TRY(clustered ? hrpb_build_clustered(A, tm, 0, &m->h) : hrpb_build(A, tm, 0, &m->h));
    TCSPMM_TRY(wave_split_build(&m->h, n_tiles, num_sms, blocks_per_sm, &m->w));
    return hrpb_gpu_upload(&m->h, &m->w, precision, &m->g);
}

/* The matrix whose panels test_split_panels and test_fp32_stages cut: one
 * heavy panel among light ones. */
static tcspmm_status heavy_panel_matrix(tcspmm_csr *A)
{
    return matgen_heavy_panel(203, 1500, 0.002, 32, 16, 0.6, 9, A);
}

/* A's HRPB split for a pretend GPU of one resident block fewer than panels
 * (a little over one wave), so that panels are cut into virtual panels. */
static tcspmm_status device_matrix_split(const tcspmm_csr *A, int tm, int clustered,
                                         tcspmm_precision precision, device_matrix *m)
{
    const int pretend_sms = (int)((A->rows + tm - 1) / tm) - 1;
    return device_matrix_make(A, tm, clustered, 1, pretend_sms, 1, precision, m);
}

static void device_matrix_free(device_matrix *m)
{
    hrpb_gpu_free(m->g);
    wave_split_free(&m->w);
    hrpb_free(&m->h);
}

static int64_t elements(int64_t rows, int64_t n, int64_t ld, tcspmm_layout layout)
{
    int64_t outer = layout == TCSPMM_LAYOUT_ROW_MAJOR ? rows : n;
    return outer == 0 ? 0 : (outer - 1) * ld + (layout == TCSPMM_LAYOUT_ROW_MAJOR ? n : rows);
}

static int failures_printed;

/* The float64 reference of the product with A's values and B rounded to
 * TF32 as the kernel rounds them (to nearest): what is left against it is
 * the float accumulation, so a rounding bug that 1e-3 against the exact
 * product lets through (truncation: about 7e-4 on real matrices) fails
 * TF32_ROUNDED_TOL. */
#define TF32_ROUNDED_TOL 1e-4
static tcspmm_status rounded_reference(const tcspmm_csr *A, const run_desc *d, const float *B,
                                       int64_t nb, int64_t ldb, const float *C0, int64_t ldc,
                                       double *ref)
{
    tcspmm_csr Ar;
    TCSPMM_TRY(tests_rounded_copy(A, TCSPMM_PRECISION_TF32, &Ar));
    float *Br = malloc((size_t)(nb > 0 ? nb : 1) * sizeof(float));
    tcspmm_status st = Br ? TCSPMM_SUCCESS : TCSPMM_ERROR_HOST_OUT_OF_MEMORY;
    if (!st) {
        for (int64_t e = 0; e < nb; e++) Br[e] = sp24_round(B[e], TCSPMM_PRECISION_TF32);
        st = reference_spmm(&Ar, d->n, d->alpha, Br, ldb, d->beta, C0, ldc, d->layout, ref);
    }
    tcspmm_csr_free(&Ar);
    free(Br);
    return st;
}

/* The precision whose rounding gives a 16-bit B type's values. */
static tcspmm_precision half_precision(int b_type)
{
    return b_type == SP24_DATA_BF16 ? TCSPMM_PRECISION_BF16 : TCSPMM_PRECISION_FP16;
}

/* B (nb floats, already rounded to b_type) to the device at dB as elements
 * of b_type, landed before it returns: a copy from pageable memory may
 * return before its DMA ends, and a non-blocking stream does not wait for
 * it (test_16bit_c_capture's direct call once read a B that had not landed:
 * bench/NOTES.md, sixty-seventh session). */
static tcspmm_status upload_b(const float *B, int64_t nb, int b_type, void *dB)
{
    tcspmm_status st;
    if (b_type == SP24_DATA_FP32) {
        st = TCSPMM_CUDA(cudaMemcpy(dB, B, (size_t)nb * 4, cudaMemcpyHostToDevice));
    } else {
        uint16_t *h = malloc((size_t)(nb > 0 ? nb : 1) * 2);
        if (!h) return TCSPMM_ERROR_HOST_OUT_OF_MEMORY;
        for (int64_t e = 0; e < nb; e++) h[e] = sp24_half_bits(B[e], half_precision(b_type));
        st = TCSPMM_CUDA(cudaMemcpy(dB, h, (size_t)nb * 2, cudaMemcpyHostToDevice));
        free(h);
    }
    return st ? st : TCSPMM_CUDA(cudaDeviceSynchronize());
}

/* B[0 .. nb) random, as elements of b_type hold it (SP24_DATA_FP32: as drawn). */
static void random_b(float *B, int64_t nb, int b_type, uint64_t seed)
{
    rng_fill(B, (size_t)nb, seed);
    if (b_type != SP24_DATA_FP32)
        for (int64_t e = 0; e < nb; e++) B[e] = sp24_round(B[e], half_precision(b_type));
}

/* FP32 mode against the exact product: it lands near 2e-7, TF32 near 3e-4. */
#define FP32_TOL 1e-5

/* Runs d on the device with a fresh random B (and C0 when beta != 0) and
 * fills *res (against the exact product within 1e-3, or FP32_TOL where g
 * runs FP32 mode); checks a TF32 product against the rounded one within
 * TF32_ROUNDED_TOL; C (host, ldc) receives the result for callers that
 * compare runs. Returns 0 if the run itself failed. */
static int run_and_compare(const tcspmm_csr *A, const hrpb_gpu *g, const run_desc *d,
                           uint64_t seed, compare_result *res, float **C_out)
{
    const int row_major = d->layout == TCSPMM_LAYOUT_ROW_MAJOR;
    const int64_t M = A->rows, K = A->cols, n = d->n;
    const int64_t ldb = (row_major ? n : K) + d->ld_pad, ldc = (row_major ? n : M) + d->ld_pad;
    const int64_t nb = elements(K, n, ldb, d->layout), nc = elements(M, n, ldc, d->layout);
    const int64_t outer = row_major ? M : n, inner = row_major ? n : M; /* of C */
    float *B = malloc((size_t)(nb > 0 ? nb : 1) * sizeof(float));
    float *C = malloc((size_t)(nc > 0 ? nc : 1) * sizeof(float));
    double *ref = malloc((size_t)(M * n > 0 ? M * n : 1) * sizeof(double));
    const int tf32 = !g->split; /* FP32 mode has no TF32-rounded product to meet */
    double *ref_rounded = tf32 ? malloc((size_t)(M * n > 0 ? M * n : 1) * sizeof(double)) : NULL;
    float *dB = NULL, *dC = NULL;
    int ok = B && C && ref && (ref_rounded || !tf32);
    if (ok) {
        random_b(B, nb, d->b_type, seed);
        for (int64_t e = 0; e < nc; e++) C[e] = e % ldc < inner ? NAN : TESTS_GAP_VALUE;
        if (d->beta != 0.0f) {
            uint64_t s = seed ^ 0x5eedc0ffeeull;
            for (int64_t i = 0; i < M; i++)
                for (int64_t j = 0; j < n; j++)
                    C[dense_index(i, j, ldc, d->layout)] = (float)(2.0 * rng_uniform(&s) - 1.0);
        }
        tcspmm_status st = reference_spmm(A, n, d->alpha, B, ldb, d->beta, C, ldc, d->layout, ref);
        if (!st && tf32) st = rounded_reference(A, d, B, nb, ldb, C, ldc, ref_rounded);
        CHECK_OK(st);
        ok = st == TCSPMM_SUCCESS;
    }
    if (ok) {
        const size_t eb = d->b_type == SP24_DATA_FP32 ? 4 : 2;
        tcspmm_status st =
            TCSPMM_CUDA(cudaMalloc((void **)&dB, (size_t)(nb + d->b_shift + 1) * eb));
        if (!st) st = TCSPMM_CUDA(cudaMalloc((void **)&dC, (size_t)(nc > 0 ? nc : 1) * 4));
        void *b_at = (char *)dB + d->b_shift * eb;
        if (!st) st = upload_b(B, nb, d->b_type, b_at);
        if (!st) st = TCSPMM_CUDA(cudaMemcpy(dC, C, (size_t)nc * 4, cudaMemcpyHostToDevice));
        if (!st)
            st = hrpb_gpu_spmm_mode(g, n, d->alpha, b_at, d->b_type, ldb, d->beta, dC,
                                    SP24_DATA_FP32, ldc, d->layout, d->colb, d->stages, NULL);
        if (!st) st = TCSPMM_CUDA(cudaDeviceSynchronize());
        if (!st) st = TCSPMM_CUDA(cudaMemcpy(C, dC, (size_t)nc * 4, cudaMemcpyDeviceToHost));
        CHECK_OK(st);
        ok = st == TCSPMM_SUCCESS;
    }
    if (ok) {
        *res = compare_to_reference(C, ldc, d->layout, ref, M, n, tf32 ? 1e-3 : FP32_TOL);
        if (tf32) {
            const compare_result rounded = compare_to_reference(C, ldc, d->layout, ref_rounded, M,
                                                                n, TF32_ROUNDED_TOL);
            if (!rounded.pass && res->pass && failures_printed++ < 20)
                fprintf(stderr, "  N=%lld: rel_err %.3g against TF32-rounded inputs\n",
                        (long long)n, rounded.rel_err);
            /* a failure against the exact product is reported once */
            CHECK(rounded.pass || !res->pass);
        }
        /* The padding between leading dimensions must still hold TESTS_GAP_VALUE. */
        int64_t touched = 0;
        for (int64_t o = 0; o + 1 < outer; o++)
            for (int64_t e = inner; e < ldc; e++) touched += C[o * ldc + e] != TESTS_GAP_VALUE;
        if (touched) res->pass = 0;
        CHECK(touched == 0);
    }
    cudaFree(dB);
    cudaFree(dC);
    free(B);
    free(ref);
    free(ref_rounded);
    if (ok && C_out)
        *C_out = C;
    else
        free(C);
    return ok;
}

static void check_run(const tcspmm_csr *A, const hrpb_gpu *g, const run_desc *d, uint64_t seed,
                      const char *what, int tm)
{
    compare_result res = {0};
    if (!run_and_compare(A, g, d, seed, &res, NULL)) return;
    CHECK(res.pass);
    if (!res.pass && failures_printed++ < 20)
        fprintf(stderr,
                "  %s TM=%d N=%lld %s ld+%lld alpha=%g beta=%g colb=%d B type %d+%lld: "
                "rel_err %.3g, %lld non-finite\n",
                what, tm, (long long)d->n, d->layout ? "col-major" : "row-major",
                (long long)d->ld_pad, d->alpha, d->beta, (int)d->colb, d->b_type,
                (long long)d->b_shift, res.rel_err, (long long)res.nonfinite);
}

/* d (ld_pad 0) with three copy stages and with two, on the same inputs:
 * both pass run_and_compare and agree within rel (relative Frobenius),
 * since split panels' atomics may add in another order. */
static void check_stages_agree(const tcspmm_csr *A, const hrpb_gpu *g, const run_desc *d,
                               uint64_t seed, double rel, const char *what)
{
    run_desc deep = *d, shallow = *d;
    deep.stages = HRPB_STAGES_DEEP;
    shallow.stages = HRPB_STAGES_SHALLOW;
    compare_result r1, r2;
    float *C1 = NULL, *C2 = NULL;
    if (run_and_compare(A, g, &deep, seed, &r1, &C1) &&
        run_and_compare(A, g, &shallow, seed, &r2, &C2)) {
        double diff = 0, norm = 0;
        for (int64_t e = 0; e < A->rows * d->n; e++) {
            diff += (double)(C1[e] - C2[e]) * (C1[e] - C2[e]);
            norm += (double)C1[e] * C1[e];
        }
        const int pass = r1.pass && r2.pass && sqrt(diff) <= rel * sqrt(norm);
        CHECK(pass);
        if (!pass && failures_printed++ < 20)
            fprintf(stderr, "  %s N=%lld %s: rel_err %.3g (three stages), %.3g (two), apart %.3g\n",
                    what, (long long)d->n, g->split ? "fp32" : "tf32", r1.rel_err, r2.rel_err,
                    norm > 0 ? sqrt(diff / norm) : sqrt(diff));
    }
    free(C1);
    free(C2);
}

/* Every generated edge case at every N, TM 16 and 32; the layout (k % 2),
 * the column-major mode (k % 3), beta zero or not ((k / 6) % 2, apart from
 * the mode) and the padding rotate with k, which takes 12 consecutive values
 * per case: each case meets every pairing of beta zero or not with row-major
 * B and C and with each column-major mode (--quick: the cases together). */
static void test_edge_cases(void)
{
    uint64_t seed = 1000;
    unsigned met = 0; /* bit 2 * (row-major ? 0 : 1 + mode) + (beta != 0): pairings run */
    for (int ci = 0; ci < matgen_num_cases(); ci++) {
        tcspmm_csr A;
        const char *name;
        CHECK_OK(matgen_case(ci, 77 + ci, &A, &name));
        for (int v = 0; v < 4; v++) {
            const int tm = v % 2 ? 32 : 16, clustered = v / 2;
            device_matrix m;
            tcspmm_status st =
                device_matrix_make(&A, tm, clustered, 1, 132, 4, TCSPMM_PRECISION_TF32, &m);
            CHECK_OK(st);
            if (st == TCSPMM_SUCCESS) {
                for (int ni = ci % n_step; ni < NUM_NS; ni += n_step) {
                    int k = ci + ni + tm / 16 + clustered;
                    run_desc d = {test_ns[ni], (tcspmm_layout)(k % 2), (k / 2) % 2 ? 3 : 0,
                                  1.25f, (k / 6) % 2 ? -0.75f : 0.0f, (hrpb_colb_mode)(k % 3),
                                  (hrpb_stages_mode)((ci + ni) % 3), SP24_DATA_FP32, 0};
                    check_run(&A, m.g, &d, seed++, name, tm);
                    met |= 1u << (2 * (d.layout == TCSPMM_LAYOUT_ROW_MAJOR ? 0 : 1 + d.colb) +
                                  (d.beta != 0.0f));
                }
            }
            device_matrix_free(&m);
        }
        tcspmm_csr_free(&A);
    }
    CHECK(met == 0xffu);
}

/* Variant v (0 to 3) of A split in TF32 (device_matrix_split): panel
 * height *tm 16 or 32 (v % 2), A's order or clustered (v / 2); checks that
 * some panel was split. */
static tcspmm_status split_variant(const tcspmm_csr *A, int v, int *tm, device_matrix *m)
{
    *tm = v % 2 ? 32 : 16;
    tcspmm_status st = device_matrix_split(A, *tm, v / 2, TCSPMM_PRECISION_TF32, m);
    CHECK_OK(st);
    if (!st) CHECK(m->w.split_panels > 0);
    return st;
}

/* Panels cut into many virtual panels (a tiny pretend GPU): the atomic
 * path, beta applied once, in every combination; and two runs agree. */
static void test_split_panels(void)
{
    tcspmm_csr A;
    CHECK_OK(heavy_panel_matrix(&A));
    for (int v = 0; v < 4; v++) {
        int tm;
        device_matrix m;
        if (split_variant(&A, v, &tm, &m) == TCSPMM_SUCCESS) {
            CHECK(m.w.num_vpanels >= m.h.num_panels + 4);
            uint64_t seed = 5000 + 100 * v;
            for (int layout = 0; layout < 2; layout++)
                for (int bi = 0; bi < 3; bi++)
                    for (int ni = 0; ni < NUM_NS; ni += 2 * n_step) {
                        const float betas[3] = {0.0f, 1.0f, 0.5f};
                        run_desc d = {test_ns[ni], (tcspmm_layout)layout, ni % 4 ? 0 : 5,
                                      -0.5f, betas[bi], (hrpb_colb_mode)((ni + bi) % 3),
                                      (hrpb_stages_mode)((ni / 2 + layout + bi) % 3),
                                      SP24_DATA_FP32, 0};
                        check_run(&A, m.g, &d, seed++, "split panels", tm);
                    }
            /* Two runs on the same inputs, with three copy stages and with
             * two: same answer within rounding. */
            run_desc d = {128, TCSPMM_LAYOUT_ROW_MAJOR, 0, 1.0f, 0.0f, HRPB_COLB_AUTO,
                          HRPB_STAGES_AUTO, SP24_DATA_FP32, 0};
            check_stages_agree(&A, m.g, &d, 42, 1e-5, "split panels");
        }
        device_matrix_free(&m);
    }
    tcspmm_csr_free(&A);
}

/* FP32 mode (3xTF32) with each kernel width (N = 7 and 32: one warp, 57:
 * two, 129: four, which has three stages only) forced to three copy stages
 * and to two: the generated edge cases (TM = 16, A's order, both layouts,
 * beta zero and not) and panels split across a pretend GPU of few SMs (the
 * atomic path). Each run within FP32_TOL of the exact product; the two
 * stage counts within 1e-6 of each other. */
static void test_fp32_stages(void)
{
    static const int64_t ns[] = {7, 32, 57, 129};
    const int first = n_step > 1 ? 1 : 0, last = n_step > 1 ? 2 : 3; /* --quick: 32 and 57 */
    uint64_t seed = 8000;
    for (int ci = 0; ci < matgen_num_cases(); ci++) {
        tcspmm_csr A;
        const char *name;
        CHECK_OK(matgen_case(ci, 177 + ci, &A, &name));
        device_matrix m;
        tcspmm_status st = device_matrix_make(&A, 16, 0, 1, 132, 4, TCSPMM_PRECISION_FP32, &m);
        CHECK_OK(st);
        for (int ni = first; !st && ni <= last; ni++) {
            const int k = ci + ni;
            run_desc d = {ns[ni], (tcspmm_layout)(k % 2), 0, 1.25f, k % 3 ? -0.75f : 0.0f,
                          HRPB_COLB_AUTO, HRPB_STAGES_AUTO, SP24_DATA_FP32, 0};
            check_stages_agree(&A, m.g, &d, seed++, 1e-6, name);
        }
        device_matrix_free(&m);
        tcspmm_csr_free(&A);
    }
    tcspmm_csr A;
    CHECK_OK(heavy_panel_matrix(&A));
    device_matrix m;
    tcspmm_status st = device_matrix_split(&A, 16, 0, TCSPMM_PRECISION_FP32, &m);
    CHECK_OK(st);
    if (!st) CHECK(m.w.split_panels > 0);
    for (int ni = first; !st && ni <= last; ni++)
        for (int layout = 0; layout < 2; layout++) {
            run_desc d = {ns[ni], (tcspmm_layout)layout, 0, -0.5f, layout ? 0.5f : 0.0f,
                          HRPB_COLB_AUTO, HRPB_STAGES_AUTO, SP24_DATA_FP32, 0};
            check_stages_agree(&A, m.g, &d, seed++, 1e-6, "fp32 split panels");
        }
    device_matrix_free(&m);
    tcspmm_csr_free(&A);
}

/* A bf16 or fp16 B read by the TF32 kernel as it is (hrpb_gpu_reads_b): the
 * generated edge cases at both panel heights and panels split across a
 * pretend GPU, N of the list, row-major B with ldb the smallest multiple of
 * 4 or 4 more, B on a 16-byte boundary or 8 bytes past one, two and three
 * copy stages, beta zero and not; each within 1e-3 of the exact product and
 * 1e-4 of the TF32-rounded one (bf16 and fp16 values are TF32 values, so a
 * misread element shows), C poisoned and its padding kept. */
static void test_16bit_b(void)
{
    uint64_t seed = 9000;
    for (int ci = 0; ci <= matgen_num_cases(); ci++) {
        tcspmm_csr A;
        const char *name = "split panels";
        const int split = ci == matgen_num_cases();
        CHECK_OK(split ? heavy_panel_matrix(&A) : matgen_case(ci, 177 + ci, &A, &name));
        for (int tm = 16; tm <= 32; tm += 16) {
            device_matrix m;
            tcspmm_status st =
                split ? device_matrix_split(&A, tm, 0, TCSPMM_PRECISION_TF32, &m)
                      : device_matrix_make(&A, tm, 0, 1, 132, 4, TCSPMM_PRECISION_TF32, &m);
            CHECK_OK(st);
            for (int ni = (ci + tm / 16) % (2 * n_step); !st && ni < NUM_NS; ni += 2 * n_step) {
                const int k = ci + ni + tm / 16;
                const int64_t n = test_ns[ni];
                run_desc d = {n, TCSPMM_LAYOUT_ROW_MAJOR, (4 - n % 4) % 4 + (k / 2 % 2 ? 4 : 0),
                              -1.25f, k % 3 ? 0.5f : 0.0f, HRPB_COLB_AUTO,
                              k / 3 % 2 ? HRPB_STAGES_SHALLOW : HRPB_STAGES_DEEP,
                              k % 2 ? SP24_DATA_BF16 : SP24_DATA_FP16, k / 4 % 2 ? 4 : 0};
                check_run(&A, m.g, &d, seed++, name, tm);
            }
            device_matrix_free(&m);
        }
        tcspmm_csr_free(&A);
    }
}

/* How many 16-bit steps apart the bits a and b of one type are (ordered
 * as the values, across zero too). */
static int64_t steps_apart(uint16_t a, uint16_t b)
{
    const int64_t oa = a & 0x8000 ? -(int64_t)(a & 0x7fff) : a;
    const int64_t ob = b & 0x8000 ? -(int64_t)(b & 0x7fff) : b;
    return oa > ob ? oa - ob : ob - oa;
}

/* C (rows x n, row-major, ldc) of type t: the product of g with a B of t
 * (ldb the smallest multiple of 8 at least n, so that 16-byte copies run),
 * C starting c_shift elements past a 16-byte boundary; within tol of the
 * float64 product on the inputs as stored, the bits between rows kept, and
 * the very bits of the float-C product P (beta 0) plus beta * C in float,
 * rounded once. With beta != 0 the compiler may fuse either product of
 * alpha * sum + beta * C, which moves a result one step where the float
 * sum lies within a float step of a rounding boundary: at most one element
 * in 1000 (and one) may be one step away. With split panels (split) the
 * parts' float atomics add in any order, which moves the float sums by a
 * few float steps: one element in 100 (and one) may be one step away, and
 * any further where the sum cancels down to 1e-6 of the largest |C|.
 * Rounding twice (P first) moves a large share of them. */
static void check_16bit_c(const tcspmm_csr *A, const hrpb_gpu *g, int64_t n, int t,
                          int64_t ldc, int64_t c_shift, float beta, int split, uint64_t seed,
                          const char *what)
{
    const tcspmm_layout row = TCSPMM_LAYOUT_ROW_MAJOR;
    const tcspmm_precision prec = half_precision(t);
    const int64_t M = A->rows, K = A->cols, ldb = (n + 7) / 8 * 8;
    const int64_t nb = K * ldb, nc = M > 0 ? (M - 1) * ldc + n : 0;
    const uint16_t gap = 0x1234, nan16 = t == SP24_DATA_BF16 ? 0x7fc0 : 0x7e00;
    float *B = malloc((size_t)(nb + 1) * 4), *C0 = malloc((size_t)(nc + 1) * 4);
    float *C = malloc((size_t)(nc + 1) * 4), *C32 = malloc((size_t)(nc + 1) * 4);
    uint16_t *h = malloc((size_t)(nc + 1) * 2);
    double *ref = malloc((size_t)(M * n + 1) * sizeof(double));
    random_b(B, nb, t, seed);
    rng_fill(C0, (size_t)nc, seed + 1);
    for (int64_t e = 0; e < nc; e++) {
        const int inside = e % ldc < n;
        C0[e] = sp24_round(C0[e], prec);
        h[e] = !inside ? gap : beta == 0.0f ? nan16 : sp24_half_bits(C0[e], prec);
    }
    void *dB = NULL;
    uint16_t *dC = NULL;
    float *dC32 = NULL;
    CUDA_OK(cudaMalloc(&dB, (size_t)(nb + 1) * 2));
    CUDA_OK(cudaMalloc((void **)&dC, (size_t)(nc + c_shift + 1) * 2));
    CUDA_OK(cudaMalloc((void **)&dC32, (size_t)(nc + 1) * 4));
    CHECK_OK(upload_b(B, nb, t, dB));
    CUDA_OK(cudaMemcpy(dC + c_shift, h, (size_t)nc * 2, cudaMemcpyHostToDevice));
    const float alpha = -1.25f;
    CHECK_OK(hrpb_gpu_spmm(g, n, alpha, dB, t, ldb, beta, dC + c_shift, t, ldc, row, NULL));
    CHECK_OK(hrpb_gpu_spmm(g, n, alpha, dB, t, ldb, 0.0f, dC32, SP24_DATA_FP32, ldc, row, NULL));
    CUDA_OK(cudaMemcpy(h, dC + c_shift, (size_t)nc * 2, cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(C32, dC32, (size_t)nc * 4, cudaMemcpyDeviceToHost));
    int64_t gaps = 0, unrounded = 0, one_step = 0;
    double largest = 0.0;
    for (int64_t e = 0; e < nc; e++) {
        if (e % ldc >= n) continue;
        C32[e] = beta == 0.0f ? C32[e] : fmaf(beta, C0[e], C32[e]);
        if (fabs(C32[e]) > largest) largest = fabs(C32[e]);
    }
    for (int64_t e = 0; e < nc; e++) {
        const int inside = e % ldc < n;
        C[e] = inside ? sp24_half_value(h[e], prec) : 0.0f;
        if (!inside) {
            gaps += h[e] != gap;
            continue;
        }
        const int64_t steps = steps_apart(h[e], sp24_half_bits(C32[e], prec));
        if (split)
            unrounded += steps > 1 && !(fabs(C[e] - C32[e]) <= 1e-6 * largest);
        else
            unrounded += steps > 1 || (steps == 1 && beta == 0.0f);
        one_step += steps == 1;
    }
    const int64_t one_step_allowed =
        split ? M * n / 100 + 1 : beta == 0.0f ? 0 : M * n / 1000 + 1;
    unrounded += one_step > one_step_allowed ? one_step : 0;
    CHECK_OK(reference_spmm(A, n, alpha, B, ldb, beta, C0, ldc, row, ref));
    const double tol = t == SP24_DATA_BF16 ? 1e-2 : 2e-3;
    const compare_result r = compare_to_reference(C, ldc, row, ref, M, n, tol);
    CHECK(r.pass && gaps == 0 && unrounded == 0);
    if ((!r.pass || gaps || unrounded) && failures_printed++ < 20)
        fprintf(stderr,
                "  %s: C type %d, N=%lld ldc %lld +%lld beta %g: rel_err %.3g, %lld non-finite, "
                "%lld gaps changed, %lld not the float product rounded (%lld one step)\n",
                what, t, (long long)n, (long long)ldc, (long long)c_shift, beta, r.rel_err,
                (long long)r.nonfinite, (long long)gaps, (long long)unrounded,
                (long long)one_step);
    cudaFree(dB);
    cudaFree(dC);
    cudaFree(dC32);
    free(B);
    free(C0);
    free(C);
    free(C32);
    free(h);
    free(ref);
}

/* A 16-bit C written by the TF32 kernel as it is: the generated edge cases
 * on a pretend GPU of one SM (so that no panel is split), and panels split
 * across a pretend GPU of few SMs (their float sums rounded into C by the
 * last part of each) in A's order and clustered, both panel heights, N of
 * the list, bf16 and fp16, ldc n (16-byte stores where n is a multiple of
 * 8) or n + 3, C on a 16-byte boundary or 2 bytes past one, beta 0 and 0.5. */
static void test_16bit_c(void)
{
    uint64_t seed = 11000;
    for (int ci = 0; ci < matgen_num_cases(); ci++) {
        tcspmm_csr A;
        const char *name;
        CHECK_OK(matgen_case(ci, 277 + ci, &A, &name));
        for (int tm = 16; tm <= 32; tm += 16) {
            device_matrix m;
            tcspmm_status st = device_matrix_make(&A, tm, 0, 1, 1, 1, TCSPMM_PRECISION_TF32, &m);
            CHECK_OK(st);
            for (int ni = (ci + tm / 16) % n_step; !st && ni < NUM_NS; ni += n_step) {
                const int k = ci + ni + tm / 16;
                const int64_t n = test_ns[ni];
                check_16bit_c(&A, m.g, n, k % 2 ? SP24_DATA_BF16 : SP24_DATA_FP16,
                              n + (k / 2 % 2 ? 3 : 0), k / 4 % 2, k % 3 ? 0.5f : 0.0f, 0, seed,
                              name);
                seed += 2;
            }
            device_matrix_free(&m);
        }
        tcspmm_csr_free(&A);
    }
    tcspmm_csr H;
    CHECK_OK(heavy_panel_matrix(&H));
    for (int v = 0; v < 4; v++) {
        int tm;
        device_matrix m;
        const tcspmm_status st = split_variant(&H, v, &tm, &m);
        int64_t widest = 0;
        for (int ni = v % n_step; !st && ni < NUM_NS; ni += n_step) {
            const int k = v + ni;
            const int64_t n = test_ns[ni];
            check_16bit_c(&H, m.g, n, k % 2 ? SP24_DATA_FP16 : SP24_DATA_BF16,
                          n + (k / 2 % 2 ? 3 : 0), k / 4 % 2, k % 3 ? 0.0f : 0.5f, 1, seed,
                          "split panels");
            seed += 2;
            widest = n;
        }
        /* Now the widest N again and a narrower one: they find the sums as
         * the products before left them, with no fresh zeroing. */
        for (int again = 0; !st && again < 2; again++) {
            const int64_t n = again ? 31 : widest;
            check_16bit_c(&H, m.g, n, (v + again) % 2 ? SP24_DATA_FP16 : SP24_DATA_BF16, n,
                          again, again ? 0.5f : 0.0f, 1, seed, "split panels, sums reused");
            seed += 2;
        }
        device_matrix_free(&m);
    }
    tcspmm_csr_free(&H);
}

/* A row-major 16-bit C of type t (rows x n, ld n) against the float64 ref,
 * within bf16's tolerance. */
static compare_result half_vs_reference(const uint16_t *h, int t, const double *ref,
                                        int64_t rows, int64_t n)
{
    float *C = malloc((size_t)(rows * n + 1) * sizeof(float));
    for (int64_t e = 0; e < rows * n; e++) C[e] = sp24_half_value(h[e], half_precision(t));
    const compare_result r =
        compare_to_reference(C, n, TCSPMM_LAYOUT_ROW_MAJOR, ref, rows, n, 1e-2);
    free(C);
    return r;
}

/* A 16-bit C on a plan with split panels, captured into a CUDA graph: the
 * first call at an N wider than before sets up the parts' float sums and
 * is refused while capturing (the capture itself left intact); after one
 * call outside, and a wider call after the capture (which makes the sums
 * anew), the graph's product is that call's, within one step where the
 * parts' float atomics added in another order, and both are within bf16's
 * tolerance of the float64 product (which of the two went wrong, if one
 * did). */
static void test_16bit_c_capture(void)
{
    tcspmm_csr H;
    CHECK_OK(heavy_panel_matrix(&H));
    int tm;
    device_matrix m;
    const tcspmm_status made = split_variant(&H, 0, &tm, &m);
    tcspmm_status st = made;
    const int64_t n = 64, nb = H.cols * n, nc = H.rows * n;
    const int t = SP24_DATA_BF16;
    const tcspmm_layout row = TCSPMM_LAYOUT_ROW_MAJOR;
    float *B = malloc((size_t)nb * 4);
    uint16_t *direct = malloc((size_t)nc * 2), *graphed = malloc((size_t)nc * 2);
    void *dB = NULL, *dC = NULL;
    cudaStream_t stream = NULL;
    cudaGraph_t graph = NULL;
    cudaGraphExec_t exec = NULL;
    random_b(B, nb, t, 12345);
    CUDA_OK(cudaMalloc(&dB, (size_t)nb * 2));
    CUDA_OK(cudaMalloc(&dC, (size_t)nc * 2));
    CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    if (!st) st = upload_b(B, nb, t, dB);
    CHECK_OK(st);
    if (!st) {
        CUDA_OK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
        CHECK(hrpb_gpu_spmm(m.g, n, 1.5f, dB, t, n, 0.0f, dC, t, n, row, stream) ==
              TCSPMM_ERROR_UNSUPPORTED);
        CHECK(strstr(tcspmm_last_error(), "captured") != NULL);
        tcspmm_clear_error();
        CUDA_OK(cudaStreamEndCapture(stream, &graph));
        CUDA_OK(cudaGraphDestroy(graph));
        graph = NULL;
        CUDA_OK(cudaMemsetAsync(dC, 0xff, (size_t)nc * 2, stream)); /* NaN */
        CHECK_OK(hrpb_gpu_spmm(m.g, n, 1.5f, dB, t, n, 0.0f, dC, t, n, row, stream));
        CUDA_OK(cudaMemcpyAsync(direct, dC, (size_t)nc * 2, cudaMemcpyDeviceToHost, stream));
        CUDA_OK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
        CHECK_OK(hrpb_gpu_spmm(m.g, n, 1.5f, dB, t, n, 0.0f, dC, t, n, row, stream));
        CUDA_OK(cudaStreamEndCapture(stream, &graph));
        CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
        CUDA_OK(cudaStreamSynchronize(stream));
        /* a wider call makes a new room for the sums; the graph keeps its own */
        check_16bit_c(&H, m.g, 4 * n, t, 4 * n, 0, 0.0f, 1, 12346, "wider than the graph");
        CUDA_OK(cudaMemsetAsync(dC, 0xff, (size_t)nc * 2, stream));
        for (int launch = 0; launch < 2; launch++) CUDA_OK(cudaGraphLaunch(exec, stream));
        CUDA_OK(cudaMemcpyAsync(graphed, dC, (size_t)nc * 2, cudaMemcpyDeviceToHost, stream));
        CUDA_OK(cudaStreamSynchronize(stream));
        int64_t apart = 0;
        for (int64_t e = 0; e < nc; e++) apart += steps_apart(direct[e], graphed[e]) > 1;
        double *ref = malloc((size_t)nc * sizeof(double));
        CHECK_OK(reference_spmm(&H, n, 1.5f, B, n, 0.0f, NULL, n, row, ref));
        const compare_result rd = half_vs_reference(direct, t, ref, H.rows, n);
        const compare_result rg = half_vs_reference(graphed, t, ref, H.rows, n);
        CHECK(rd.pass && rg.pass && apart == 0);
        if (!rd.pass || !rg.pass || apart)
            fprintf(stderr,
                    "  captured 16-bit C: direct rel_err %.3g (%lld non-finite), graph rel_err "
                    "%.3g (%lld non-finite), %lld elements more than a step apart\n",
                    rd.rel_err, (long long)rd.nonfinite, rg.rel_err, (long long)rg.nonfinite,
                    (long long)apart);
        free(ref);
    }
    if (exec) cudaGraphExecDestroy(exec);
    if (graph) cudaGraphDestroy(graph);
    if (stream) cudaStreamDestroy(stream);
    cudaFree(dB);
    cudaFree(dC);
    free(B);
    free(direct);
    free(graphed);
    if (!made) device_matrix_free(&m);
    tcspmm_csr_free(&H);
}

/* The other arguments: a bad leading dimension is refused with a message. */
static void test_arguments(void)
{
    tcspmm_csr A;
    CHECK_OK(matgen_random(40, 30, 0.2, 3, &A));
    device_matrix m;
    tcspmm_status st = device_matrix_make(&A, 16, 0, 1, 132, 4, TCSPMM_PRECISION_TF32, &m);
    CHECK_OK(st);
    if (st == TCSPMM_SUCCESS) {
        float *dB = NULL, *dC = NULL;
        CUDA_OK(cudaMalloc((void **)&dB, 30 * 64 * 4));
        CUDA_OK(cudaMalloc((void **)&dC, 40 * 64 * 4));
        CHECK(hrpb_gpu_spmm(m.g, 64, 1.0f, dB, SP24_DATA_FP32, 63, 0.0f, dC, SP24_DATA_FP32,
                            64, TCSPMM_LAYOUT_ROW_MAJOR, NULL) == TCSPMM_ERROR_INVALID_ARGUMENT);
        CHECK(strstr(tcspmm_last_error(), "ldb") != NULL);
        CHECK(hrpb_gpu_spmm(m.g, 64, 1.0f, dB, SP24_DATA_FP32, 30, 0.0f, dC, SP24_DATA_FP32,
                            39, TCSPMM_LAYOUT_COL_MAJOR, NULL) == TCSPMM_ERROR_INVALID_ARGUMENT);
        /* A non-default stream. */
        cudaStream_t s;
        CUDA_OK(cudaStreamCreate(&s));
        CHECK_OK(hrpb_gpu_spmm(m.g, 64, 1.0f, dB, SP24_DATA_FP32, 64, 0.0f, dC, SP24_DATA_FP32,
                               64, TCSPMM_LAYOUT_ROW_MAJOR, s));
        CUDA_OK(cudaStreamSynchronize(s));
        CUDA_OK(cudaStreamDestroy(s));
        /* A 16-bit B: row-major, 8-byte aligned, ldb a multiple of 4, TF32
         * only; a 16-bit C: of B's type. */
        const tcspmm_layout row = TCSPMM_LAYOUT_ROW_MAJOR, col = TCSPMM_LAYOUT_COL_MAJOR;
        const int f32 = SP24_DATA_FP32, bf16 = SP24_DATA_BF16, fp16 = SP24_DATA_FP16;
        const tcspmm_status refused = TCSPMM_ERROR_UNSUPPORTED;
        const char *b = (const char *)dB;
        CHECK_OK(hrpb_gpu_spmm(m.g, 62, 1.0f, b, bf16, 64, 0.0f, dC, f32, 64, row, NULL));
        CHECK_OK(hrpb_gpu_spmm(m.g, 62, 1.0f, b + 8, fp16, 64, 0.0f, dC, f32, 64, row, NULL));
        CHECK(hrpb_gpu_spmm(m.g, 62, 1.0f, b + 2, bf16, 64, 0.0f, dC, f32, 64, row, NULL) ==
              refused);
        CHECK(strstr(tcspmm_last_error(), "8-byte") != NULL);
        CHECK(hrpb_gpu_spmm(m.g, 62, 1.0f, b, fp16, 62, 0.0f, dC, f32, 64, row, NULL) == refused);
        CHECK(hrpb_gpu_spmm(m.g, 62, 1.0f, b, bf16, 32, 0.0f, dC, f32, 40, col, NULL) == refused);
        CHECK(hrpb_gpu_spmm(m.g, 62, 1.0f, b, 7, 64, 0.0f, dC, f32, 64, row, NULL) == refused);
        CHECK(hrpb_gpu_spmm(m.g, 62, 1.0f, b, bf16, 64, 0.0f, dC, fp16, 64, row, NULL) == refused);
        CHECK(hrpb_gpu_spmm(m.g, 62, 1.0f, b, f32, 64, 0.0f, dC, bf16, 64, row, NULL) == refused);
        device_matrix fp32, whole, split;
        tcspmm_status made = device_matrix_make(&A, 16, 0, 1, 132, 4, TCSPMM_PRECISION_FP32, &fp32);
        CHECK_OK(made);
        if (!made)
            CHECK(hrpb_gpu_spmm(fp32.g, 62, 1.0f, b, bf16, 64, 0.0f, dC, f32, 64, row, NULL) ==
                  refused);
        made = device_matrix_make(&A, 16, 0, 1, 1, 1, TCSPMM_PRECISION_TF32, &whole);
        CHECK_OK(made);
        if (!made) {
            CHECK(whole.w.split_panels == 0);
            CHECK_OK(hrpb_gpu_spmm(whole.g, 62, 1.0f, b, bf16, 64, 0.0f, dC, bf16, 64, row, NULL));
            CHECK_OK(hrpb_gpu_spmm(whole.g, 61, 1.0f, b, fp16, 64, 0.5f, (char *)dC + 2, fp16, 61,
                                   row, NULL));
        }
        tcspmm_csr H;
        CHECK_OK(heavy_panel_matrix(&H));
        made = device_matrix_split(&H, 16, 0, TCSPMM_PRECISION_TF32, &split);
        CHECK_OK(made);
        if (!made) {
            CHECK(split.w.split_panels > 0);
            CHECK(hrpb_gpu_writes_c(split.g, bf16, bf16)); /* run in test_16bit_c */
        }
        tcspmm_csr_free(&H);
        device_matrix_free(&fp32);
        device_matrix_free(&whole);
        device_matrix_free(&split);
        CUDA_OK(cudaDeviceSynchronize());
        cudaFree(dB);
        cudaFree(dC);
    }
    device_matrix_free(&m);
    tcspmm_csr_free(&A);
}

/* Fresh random values in place of a file's (pattern files hold ones). */
static void randomize_values(tcspmm_csr *A, uint64_t seed)
{
    rng_fill(A->values, (size_t)A->nnz, seed);
}

/* Every .mtx / .mtx.gz of the bundled data directory, N = 32 and 129, and
 * 128 with a bf16 B 8 bytes past a 16-byte boundary. */
static void test_bundled(void)
{
    const char *dir = getenv("TCSPMM_DATA");
    if (!dir || !*dir) dir = "data";
    DIR *dp = opendir(dir);
    CHECK(dp != NULL);
    if (!dp) return;
    struct dirent *e;
    int found = 0;
    while ((e = readdir(dp)) != NULL) {
        const char *dot = strstr(e->d_name, ".mtx");
        if (!dot || (strcmp(dot, ".mtx") && strcmp(dot, ".mtx.gz"))) continue;
        tcspmm_csr A;
        tcspmm_status st = tcspmm_read_mtx(tests_data(e->d_name), &A);
        CHECK_OK(st);
        if (st) continue;
        found++;
        randomize_values(&A, 11 + found);
        for (int clustered = 0; clustered < 2; clustered++) {
            device_matrix m;
            st = device_matrix_make(&A, 16, clustered, 1, 132, 4, TCSPMM_PRECISION_TF32, &m);
            CHECK_OK(st);
            if (!st) {
                /* A's order with two copy stages, clustered with three. */
                const hrpb_stages_mode stages = clustered ? HRPB_STAGES_DEEP : HRPB_STAGES_SHALLOW;
                run_desc d1 = {32, TCSPMM_LAYOUT_ROW_MAJOR, 0, 1.0f, 0.0f, HRPB_COLB_AUTO,
                               stages, SP24_DATA_FP32, 0};
                run_desc d2 = {129, TCSPMM_LAYOUT_COL_MAJOR, 1, 2.0f, 0.5f, HRPB_COLB_AUTO,
                               stages, SP24_DATA_FP32, 0};
                run_desc d3 = {128, TCSPMM_LAYOUT_ROW_MAJOR, 0, 1.0f, 0.25f, HRPB_COLB_AUTO,
                               stages, SP24_DATA_BF16, 4};
                check_run(&A, m.g, &d1, 600 + found + 50 * clustered, e->d_name, 16);
                check_run(&A, m.g, &d2, 700 + found + 50 * clustered, e->d_name, 16);
                check_run(&A, m.g, &d3, 800 + found + 50 * clustered, e->d_name, 16);
            }
            device_matrix_free(&m);
        }
        tcspmm_csr_free(&A);
    }
    closedir(dp);
    printf("bundled matrices checked: %d\n", found);
    CHECK(found >= 5); /* data/ holds five */
}

/* ------------------------------------------------------------------ */
/* Timing mode */

/* The 27-point stencil on a g x g x g grid, random values. */
static tcspmm_status stencil27(int64_t gsz, tcspmm_csr *A)
{
    int64_t rows = gsz * gsz * gsz;
    memset(A, 0, sizeof *A);
    A->rows = A->cols = rows;
    A->row_ptr = malloc((size_t)(rows + 1) * sizeof(int64_t));
    A->col_idx = malloc((size_t)rows * 27 * sizeof(int32_t));
    A->values = malloc((size_t)rows * 27 * sizeof(float));
    if (!A->row_ptr || !A->col_idx || !A->values) {
        tcspmm_csr_free(A);
        return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "stencil27: out of memory");
    }
    int64_t nnz = 0;
    A->row_ptr[0] = 0;
    for (int64_t x = 0; x < gsz; x++)
        for (int64_t y = 0; y < gsz; y++)
            for (int64_t z = 0; z < gsz; z++) {
                for (int dx = -1; dx <= 1; dx++)
                    for (int dy = -1; dy <= 1; dy++)
                        for (int dz = -1; dz <= 1; dz++) {
                            int64_t a = x + dx, b = y + dy, c = z + dz;
                            if (a < 0 || b < 0 || c < 0 || a >= gsz || b >= gsz || c >= gsz)
                                continue;
                            A->col_idx[nnz++] = (int32_t)((a * gsz + b) * gsz + c);
                        }
                A->row_ptr[(x * gsz + y) * gsz + z + 1] = nnz;
            }
    A->nnz = nnz;
    rng_fill(A->values, (size_t)nnz, 99);
    return TCSPMM_SUCCESS;
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

enum { TIME_RUNS = 50 };

/* One timed product: the HRPB kernel (cusparse NULL) or cuSPARSE's alg. */
typedef struct timed_call {
    const hrpb_gpu *g;
    hrpb_colb_mode colb;
    cusparse_path *cusparse;
    int alg;
    int64_t n, ldb, ldc;
    tcspmm_layout layout;
    const float *dB;
    float *dC;
} timed_call;

static tcspmm_status timed_call_run(const timed_call *c)
{
    if (c->cusparse)
        return cusparse_path_spmm(c->cusparse, c->alg, c->n, 1.0f, c->dB, c->ldb, 0.0f, c->dC,
                                  c->ldc, c->layout, NULL);
    return hrpb_gpu_spmm_mode(c->g, c->n, 1.0f, c->dB, SP24_DATA_FP32, c->ldb, 0.0f, c->dC,
                              SP24_DATA_FP32, c->ldc, c->layout, c->colb, HRPB_STAGES_AUTO, NULL);
}

/* Median milliseconds of the call over TIME_RUNS runs after 3 warm-ups, L2
 * flushed (a 256 MB memset) before each; -1 if the call fails. */
static float time_call(const timed_call *c, void *flush)
{
    cudaEvent_t e0, e1;
    float ms[TIME_RUNS];
    CUDA_OK(cudaEventCreate(&e0));
    CUDA_OK(cudaEventCreate(&e1));
    int ok = 1;
    for (int i = 0; i < 3 && ok; i++) ok = timed_call_run(c) == TCSPMM_SUCCESS;
    for (int r = 0; r < TIME_RUNS && ok; r++) { /* a failed run is no time */
        ok = cudaMemsetAsync(flush, r, 256u << 20, NULL) == cudaSuccess &&
             cudaEventRecord(e0, NULL) == cudaSuccess && timed_call_run(c) == TCSPMM_SUCCESS &&
             cudaEventRecord(e1, NULL) == cudaSuccess && cudaEventSynchronize(e1) == cudaSuccess &&
             cudaEventElapsedTime(&ms[r], e0, e1) == cudaSuccess;
        CHECK(ok);
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    if (!ok) return -1.0f;
    qsort(ms, TIME_RUNS, sizeof ms[0], cmp_float);
    return ms[TIME_RUNS / 2];
}

/* Device-to-device copy bandwidth (bytes read + written per second); NaN
 * where it could not be timed. */
static double copy_bandwidth(void *flush)
{
    size_t bytes = 128u << 20;
    cudaEvent_t e0, e1;
    float ms = 0;
    CUDA_OK(cudaEventCreate(&e0));
    CUDA_OK(cudaEventCreate(&e1));
    CUDA_OK(cudaMemcpyAsync((char *)flush + bytes, flush, bytes, cudaMemcpyDeviceToDevice, NULL));
    CUDA_OK(cudaEventRecord(e0, NULL));
    for (int i = 0; i < 10; i++)
        CUDA_OK(cudaMemcpyAsync((char *)flush + bytes, flush, bytes, cudaMemcpyDeviceToDevice, NULL));
    CUDA_OK(cudaEventRecord(e1, NULL));
    CUDA_OK(cudaEventSynchronize(e1));
    CUDA_OK(cudaEventElapsedTime(&ms, e0, e1));
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    return ms > 0.0f ? 2.0 * bytes * 10 / (ms * 1e-3) : NAN;
}

enum { TIME_MAX_NS = 16 };

static void time_matrix(const char *name, const tcspmm_csr *A, void *flush, double bw,
                        const int64_t *ns, int num_ns)
{
    int sms = 0;
    CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    for (int ni = 0; ni < num_ns; ni++) {
        int64_t n = ns[ni], n_tile;
        int bps;
        CHECK_OK(hrpb_gpu_occupancy(n, 16, TCSPMM_PRECISION_TF32, &bps, &n_tile));
        device_matrix m;
        tcspmm_status st = device_matrix_make(A, 16, 0, (n + n_tile - 1) / n_tile, sms, bps,
                                                TCSPMM_PRECISION_TF32, &m);
        CHECK_OK(st);
        if (st) continue;
        float *dB = NULL, *dC = NULL, *B = malloc((size_t)(A->cols * n) * 4);
        CUDA_OK(cudaMalloc((void **)&dB, (size_t)(A->cols * n) * 4));
        CUDA_OK(cudaMalloc((void **)&dC, (size_t)(A->rows * n) * 4));
        rng_fill(B, (size_t)(A->cols * n), 7);
        CUDA_OK(cudaMemcpy(dB, B, (size_t)(A->cols * n) * 4, cudaMemcpyHostToDevice));
        timed_call c = {m.g, HRPB_COLB_AUTO, NULL, 0, n, n, n, TCSPMM_LAYOUT_ROW_MAJOR, dB, dC};
        float ms_row = time_call(&c, flush);
        c.layout = TCSPMM_LAYOUT_COL_MAJOR;
        c.ldb = A->cols;
        c.ldc = A->rows;
        c.colb = HRPB_COLB_DIRECT;
        float ms_cd = time_call(&c, flush);
        c.colb = HRPB_COLB_TRANSPOSE;
        float ms_ct = time_call(&c, flush);
        /* cuSPARSE, best algorithm, row-major like the first HRPB time. */
        float ms_cus = -1.0f;
        int best_alg = -1;
        cusparse_path *cp = NULL;
        CHECK_OK(cusparse_path_create(A, NULL, &cp));
        c.cusparse = cp;
        c.layout = TCSPMM_LAYOUT_ROW_MAJOR;
        c.ldb = c.ldc = n;
        for (int a = 0; cp && a < CUSPARSE_PATH_NUM_ALGS; a++) {
            c.alg = cusparse_path_algs[a];
            float ms = time_call(&c, flush);
            if (ms > 0 && (ms_cus < 0 || ms < ms_cus)) {
                ms_cus = ms;
                best_alg = c.alg;
            }
        }
        cusparse_path_destroy(cp);
        /* The same product with 32-row panels (fewer blocks, more registers). */
        device_matrix m32;
        float ms_tm32 = -1.0f;
        int64_t blocks32 = 0;
        if (device_matrix_make(A, 32, 0, (n + n_tile - 1) / n_tile, sms, bps,
                               TCSPMM_PRECISION_TF32, &m32) ==
            TCSPMM_SUCCESS) {
            timed_call c32 = {m32.g, HRPB_COLB_AUTO, NULL, 0, n, n, n, TCSPMM_LAYOUT_ROW_MAJOR,
                              dB, dC};
            ms_tm32 = time_call(&c32, flush);
            blocks32 = m32.h.num_blocks;
        }
        device_matrix_free(&m32);
        double hrpb_bytes = (double)m.h.size_ptr[m.h.num_blocks] + 8.0 * (m.h.num_blocks + 1) +
                            4.0 * HRPB_TK * m.h.num_blocks + 17.0 * m.w.num_vpanels;
        double bytes = hrpb_bytes + 4.0 * n * (A->rows + A->cols);
        double floor_ms = bytes / bw * 1e3, flops = 2.0 * A->nnz * n;
        printf("TIME %-14s N=%-4lld nnz=%-9lld blocks=%-8lld vpanels=%-7lld split=%-5lld bps=%d "
               "row: %.4f ms %.0f GFLOP/s %.0f%% of floor %.4f ms | col direct %.4f ms, "
               "col transpose %.4f ms | cuSPARSE %s %.4f ms: speedup %.2fx | TM=32 (%lld blocks) "
               "%.4f ms\n",
               name, (long long)n, (long long)A->nnz, (long long)m.h.num_blocks,
               (long long)m.w.num_vpanels, (long long)m.w.split_panels, bps, ms_row,
               flops / (ms_row * 1e6), 100.0 * floor_ms / ms_row, floor_ms, ms_cd, ms_ct,
               best_alg >= 0 ? cusparse_path_alg_name(best_alg) : "-", ms_cus, ms_cus / ms_row,
               (long long)blocks32, ms_tm32);
        free(B);
        cudaFree(dB);
        cudaFree(dC);
        device_matrix_free(&m);
    }
}

/* --time [--n N1,N2,...] FILE...: N = 32, 128, 512 unless given. */
static int time_mode(int argc, char **argv)
{
    int64_t ns[TIME_MAX_NS] = {32, 128, 512};
    int num_ns = 3;
    if (argc >= 2 && !strcmp(argv[0], "--n")) {
        num_ns = 0;
        for (char *p = argv[1], *end; *p; p = *end ? end + 1 : end) {
            long long n = strtoll(p, &end, 10);
            if (end == p || n < 1 || (*end && *end != ',') || num_ns == TIME_MAX_NS) {
                fprintf(stderr, "gpu_hrpb --time: bad --n list '%s' (at most %d N >= 1)\n",
                        argv[1], TIME_MAX_NS);
                return 2;
            }
            ns[num_ns++] = n;
        }
        argc -= 2;
        argv += 2;
    }
    void *flush = NULL;
    CUDA_OK(cudaMalloc(&flush, 256u << 20));
    double bw = copy_bandwidth(flush);
    printf("TIME device-to-device copy: %.0f GB/s (read + write)\n", bw / 1e9);
    tcspmm_csr A;
    CHECK_OK(stencil27(80, &A));
    time_matrix("stencil27-80", &A, flush, bw, ns, num_ns);
    tcspmm_csr_free(&A);
    for (int i = 0; i < argc; i++) {
        tcspmm_status st = tcspmm_read_mtx(argv[i], &A);
        CHECK_OK(st);
        if (st) continue;
        randomize_values(&A, 5);
        const char *base = strrchr(argv[i], '/');
        time_matrix(base ? base + 1 : argv[i], &A, flush, bw, ns, num_ns);
        tcspmm_csr_free(&A);
    }
    cudaFree(flush);
    return tests_finish();
}

int main(int argc, char **argv)
{
    tests_require_gpu();
    if (argc > 1 && !strcmp(argv[1], "--time")) return time_mode(argc - 2, argv + 2);
    if (argc > 1 && !strcmp(argv[1], "--quick")) n_step = 4;
    test_arguments();
    test_edge_cases();
    test_split_panels();
    test_fp32_stages();
    test_16bit_b();
    test_16bit_c();
    test_16bit_c_capture();
    test_bundled();
    return tests_finish();
}
