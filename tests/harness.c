/* harness.c: counters and reporting for the tests' CHECK macros, and the
 * helpers of harness.h. */
#include "harness.h"

#include "format/csr.h"
#include "format/sparse24.h"
#include "host_upload.h"
#include "reference.h"
#include "rng.h"

#include <cuda_runtime.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long passed, failed;

void tests_check(int ok, const char *expr, const char *file, int line)
{
    if (ok) {
        passed++;
        return;
    }
    failed++;
    fprintf(stderr, "FAIL %s:%d: %s\n", file, line, expr);
}

int tests_finish(void)
{
    printf("%ld passed, %ld failed\n", passed, failed);
    return failed == 0 && passed > 0 ? 0 : 1;
}

void tests_require_gpu(void)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        const char *required = getenv("TCSPMM_REQUIRE_GPU");
        /* A machine with an NVIDIA device node has a GPU: its CUDA failing
         * (a driver too old, say) is a failure, not a skip. */
        const int fail = (required && *required && strcmp(required, "0") != 0) ||
                         (e != cudaErrorNoDevice && access("/dev/nvidiactl", F_OK) == 0);
        printf("%s: no CUDA device (%s)\n", fail ? "FAIL (TCSPMM_REQUIRE_GPU, or /dev/nvidiactl)" : "skipped",
               e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
        exit(fail ? 1 : 77);
    }
}

int tests_page_lock_supported(void)
{
    int device = 0, supported = 0;
    CHECK(cudaGetDevice(&device) == cudaSuccess &&
          cudaDeviceGetAttribute(&supported, cudaDevAttrHostRegisterSupported, device) == cudaSuccess);
    return supported;
}

void tests_check_staged(size_t bytes, size_t stage_bytes, const char *what)
{
    const int supported = tests_page_lock_supported();
    host_upload u;
    CHECK_OK(host_upload_open(&u, bytes));
    if (!supported) printf("%s: plain copies (this device cannot page-lock host memory)\n", what);
    const int staged = u.area && u.stage_bytes == stage_bytes;
    if (supported && !staged)
        printf("%s: %zu bytes not staged in %zu-byte buffers (page-locked %d, %zu)\n", what, bytes,
               stage_bytes, u.area != NULL, u.stage_bytes);
    CHECK(supported ? staged : !u.area);
    CHECK_OK(host_upload_close(&u, TCSPMM_SUCCESS));
}

tcspmm_status tests_rounded_copy(const tcspmm_csr *A, tcspmm_precision p, tcspmm_csr *out)
{
    tcspmm_status st = csr_copy(A, out);
    if (st) return st;
    for (int64_t k = 0; k < out->nnz; k++) out->values[k] = sp24_round(out->values[k], p);
    return TCSPMM_SUCCESS;
}

const char *tests_data(const char *name)
{
    static _Thread_local char path[4096];
    const char *dir = getenv("TCSPMM_DATA");
    snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : "data", name);
    return path;
}

void tests_temp_path(char *path, size_t size, const char *name)
{
    const char *dir = getenv("TMPDIR");
    snprintf(path, size, "%s/tcspmm_%ld_%s", dir && *dir ? dir : "/tmp", (long)getpid(), name);
}

tcspmm_status tests_read(const char *path, uint64_t seed, tcspmm_csr *A)
{
    tcspmm_status st = tcspmm_read_mtx(path, A);
    if (!st) rng_fill_if_constant(A->values, (size_t)A->nnz, seed);
    return st;
}

void test_operands_make(test_operands *t, const tcspmm_csr *A, int64_t n, tcspmm_layout layout,
                        int pad, float beta, uint64_t seed)
{
    const int row_major = layout == TCSPMM_LAYOUT_ROW_MAJOR;
    test_operands_make_ld(t, A, n, layout, (row_major ? n : A->cols) + pad,
                          (row_major ? n : A->rows) + pad, beta, seed);
}

void test_operands_make_ld(test_operands *t, const tcspmm_csr *A, int64_t n, tcspmm_layout layout,
                           int64_t ldb, int64_t ldc, float beta, uint64_t seed)
{
    const int row_major = layout == TCSPMM_LAYOUT_ROW_MAJOR;
    t->ldb = ldb;
    t->ldc = ldc;
    t->bsize = (size_t)(row_major ? A->cols : n) * t->ldb;
    t->csize = (size_t)(row_major ? A->rows : n) * t->ldc;
    t->B = malloc((t->bsize + 1) * sizeof(float));
    t->C0 = malloc((t->csize + 1) * sizeof(float));
    t->C = malloc((t->csize + 1) * sizeof(float));
    t->ref = malloc((size_t)(A->rows * n + 1) * sizeof(double));
    if (!t->B || !t->C0 || !t->C || !t->ref) {
        fprintf(stderr, "test_operands_make: out of memory\n");
        exit(1);
    }
    rng_fill(t->B, t->bsize, seed);
    if (beta != 0) rng_fill(t->C0, t->csize, seed + 1);
    else for (size_t i = 0; i < t->csize; i++) t->C0[i] = NAN;
    memcpy(t->C, t->C0, t->csize * sizeof(float));
}

int64_t test_operands_padding_changed(const test_operands *t, int64_t rows, int64_t n,
                                      tcspmm_layout layout)
{
    const int row_major = layout == TCSPMM_LAYOUT_ROW_MAJOR;
    int64_t changed = 0;
    for (size_t e = 0; e < t->csize; e++) {
        const int64_t inner = (int64_t)(e % (size_t)t->ldc);
        if (inner < (row_major ? n : rows)) continue;
        changed += memcmp(&t->C[e], &t->C0[e], sizeof(float)) != 0;
    }
    return changed;
}

void test_operands_free(test_operands *t)
{
    free(t->B);
    free(t->C0);
    free(t->C);
    free(t->ref);
    memset(t, 0, sizeof *t);
}

int tests_csr_equal(const tcspmm_csr *a, const tcspmm_csr *b)
{
    if (a->rows != b->rows || a->cols != b->cols || a->nnz != b->nnz) return 0;
    return memcmp(a->row_ptr, b->row_ptr, (size_t)(a->rows + 1) * sizeof(int64_t)) == 0 &&
           memcmp(a->col_idx, b->col_idx, (size_t)a->nnz * sizeof(int32_t)) == 0 &&
           memcmp(a->values, b->values, (size_t)a->nnz * sizeof(float)) == 0;
}

void test_operands_upload(const test_operands *t, float **dB, float **dC)
{
    if (!*dB) CHECK(cudaMalloc((void **)dB, t->bsize * sizeof(float)) == cudaSuccess);
    if (!*dC) CHECK(cudaMalloc((void **)dC, t->csize * sizeof(float)) == cudaSuccess);
    CHECK(cudaMemcpy(*dB, t->B, t->bsize * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK(cudaMemcpy(*dC, t->C0, t->csize * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
}

/* A plan of A with these options (the others the defaults), or NULL after a
 * failed check. */
static tcspmm_plan *plan_of(const tcspmm_csr *A, tcspmm_path path, tcspmm_precision precision,
                            int measure_at_first_call)
{
    tcspmm_options opt;
    tcspmm_options_init(&opt);
    opt.path = path;
    opt.precision = precision;
    opt.measure_at_first_call = measure_at_first_call;
    tcspmm_plan *plan = NULL;
    CHECK_OK(tcspmm_plan_create(A, &opt, &plan));
    return plan;
}

tcspmm_plan *tests_plan(const tcspmm_csr *A, tcspmm_path path, int measure_at_first_call)
{
    return plan_of(A, path, TCSPMM_PRECISION_TF32, measure_at_first_call);
}

tcspmm_plan *tests_plan_at(const tcspmm_csr *A, tcspmm_path path, tcspmm_precision precision)
{
    return plan_of(A, path, precision, 0);
}

void tests_check_spmm(tcspmm_plan *plan, const tcspmm_csr *A, int64_t n, int pad, int on_host,
                      double tol, uint64_t seed, void *stream, const char *what)
{
    tests_check_spmm_scaled(plan, A, n, pad, on_host, tol, 1.0f, seed, stream, what);
}

void tests_check_spmm_scaled(tcspmm_plan *plan, const tcspmm_csr *A, int64_t n, int pad,
                             int on_host, double tol, float b_scale, uint64_t seed, void *stream,
                             const char *what)
{
    uint64_t mixed = seed; /* not the seed's parity: tests that take a fixed, even number of
                              seeds per matrix would give each of their paths one beta */
    const float beta = rng_next(&mixed) >> 63 ? 0.25f : 0.0f;
    test_operands t;
    test_operands_make(&t, A, n, TCSPMM_LAYOUT_ROW_MAJOR, pad, beta, seed);
    for (size_t e = 0; e < t.bsize; e++) t.B[e] *= b_scale;
    if (on_host) {
        CHECK_OK(tcspmm_spmm_host(plan, n, 1.5f, t.B, t.ldb, beta, t.C, t.ldc,
                                  TCSPMM_LAYOUT_ROW_MAJOR));
    } else {
        cudaStream_t s = (cudaStream_t)stream;
        float *dB = NULL, *dC = NULL;
        CHECK(cudaMalloc((void **)&dB, t.bsize * 4 + 4) == cudaSuccess);
        CHECK(cudaMalloc((void **)&dC, t.csize * 4 + 4) == cudaSuccess);
        CHECK(cudaMemcpyAsync(dB, t.B, t.bsize * 4, cudaMemcpyHostToDevice, s) == cudaSuccess);
        CHECK(cudaMemcpyAsync(dC, t.C0, t.csize * 4, cudaMemcpyHostToDevice, s) == cudaSuccess);
        CHECK_OK(tcspmm_spmm(plan, n, 1.5f, dB, t.ldb, beta, dC, t.ldc, TCSPMM_LAYOUT_ROW_MAJOR,
                             stream));
        CHECK(cudaMemcpyAsync(t.C, dC, t.csize * 4, cudaMemcpyDeviceToHost, s) == cudaSuccess);
        CHECK(cudaStreamSynchronize(s) == cudaSuccess);
        cudaFree(dB);
        cudaFree(dC);
    }
    CHECK_OK(reference_spmm(A, n, 1.5f, t.B, t.ldb, beta, t.C0, t.ldc, TCSPMM_LAYOUT_ROW_MAJOR,
                            t.ref));
    compare_result r = compare_to_reference(t.C, t.ldc, TCSPMM_LAYOUT_ROW_MAJOR, t.ref, A->rows, n,
                                            tol);
    const int64_t padding = test_operands_padding_changed(&t, A->rows, n, TCSPMM_LAYOUT_ROW_MAJOR);
    if (!r.pass || padding)
        printf("%s: rel_err %.2e nonfinite %lld, %lld padding elements changed FAIL\n", what,
               r.rel_err, (long long)r.nonfinite, (long long)padding);
    CHECK(r.pass && padding == 0);
    test_operands_free(&t);
}
