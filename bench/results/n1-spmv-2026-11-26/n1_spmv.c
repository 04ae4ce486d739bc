/* n1_spmv.c: an experiment (not part of the library): at N = 1 (C = A*b),
 * is cuSPARSE's cusparseSpMV faster than cusparseSpMM with n = 1, and why
 * does the library's cuSPARSE path (cusparse_path_spmm) take longer than a
 * bare cusparseSpMM call? On one Matrix Market file it times SpMM (row-major
 * B and C, n = 1) with ALG_DEFAULT, CSR_ALG1 and CSR_ALG2, and SpMV with
 * ALG_DEFAULT, CSR_ALG1 and CSR_ALG2, all preprocessed; SpMM ALG_DEFAULT and
 * CSR_ALG2 without preprocessing; the same two doing per call what
 * cusparse_path_spmm does; and cusparse_path_spmm itself with the same two.
 * Each is timed with gpu_timer_run (L2 flushed before every run, 3 warm-up
 * + 20 timed runs, the median), in three rounds (the middle one in reverse
 * order), then every candidate's y is checked against A*b on the host in
 * double. Built against the library's internal headers and static library
 * (see run.sh). */
#include "cusparse_path.h"
#include "gpu_timer.h"
#include "tcspmm.h"

#include <cuda_runtime.h>
#include <cusparse.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define CUDA_CHECK(call)                                                                   \
    do {                                                                                   \
        cudaError_t e_ = (call);                                                           \
        if (e_ != cudaSuccess) {                                                           \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                  \
                    cudaGetErrorString(e_));                                               \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)
#define CUSPARSE_CHECK(call)                                                               \
    do {                                                                                   \
        cusparseStatus_t s_ = (call);                                                      \
        if (s_ != CUSPARSE_STATUS_SUCCESS) {                                               \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                  \
                    cusparseGetErrorString(s_));                                           \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)
#define TCSPMM_CHECK(call)                                                                 \
    do {                                                                                   \
        tcspmm_status t_ = (call);                                                         \
        if (t_ != TCSPMM_SUCCESS) {                                                        \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                  \
                    tcspmm_last_error());                                                  \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

enum { NUM_CANDIDATES = 13, ROUNDS = 3, WARMUP = 3, REPS = 20 };

/* What a candidate's timed call is. */
typedef enum kind {
    SPMM,     /* cusparseSpMM, n = 1, row-major, descriptors made at setup */
    SPMV,     /* cusparseSpMV, descriptors made at setup */
    SPMM_LIB, /* cusparseSpMM as cusparse_path_spmm does it per call: DnMat
               * descriptors made and destroyed, cusparseSetStream and
               * cusparseSpMM_bufferSize in every call */
    LIB_PATH  /* cusparse_path_spmm itself (the library's handle, descriptor
               * and workspace) */
} kind;

/* One way of computing y = A*b: its own descriptor of A (on the shared
 * device arrays; preprocessing data may live in it, so a preprocessed
 * descriptor is never used by another candidate), its own y and workspace,
 * all made once before any timing. LIB_PATH candidates use the library's
 * path (its own copy of A, handle, descriptor and workspace) and only own
 * their y. */
typedef struct candidate {
    const char *name;
    kind kind;
    int preprocess; /* SPMM and SPMV: cusparseSpMM/SpMV_preprocess once at setup */
    int alg;        /* a cusparseSpMVAlg_t or cusparseSpMMAlg_t */
    int supported;
    cusparseSpMatDescr_t A;
    cusparseDnVecDescr_t x, y; /* SPMV */
    cusparseDnMatDescr_t B, C; /* SPMM */
    float *d_y;
    float *d_y2;               /* LIB_PATH with alternate: every other call writes here */
    int alternate;
    const float *d_b;          /* SPMM_LIB, LIB_PATH */
    int64_t rows, cols;        /* SPMM_LIB */
    void *work;
    size_t work_bytes;
} candidate;

static cusparseHandle_t handle;
static cusparse_path *lib_path; /* the library's cuSPARSE path on A */
static const float one = 1.0f, zero = 0.0f;

/* count values uniform in [-0.5, 0.5) (splitmix64), on the host. */
static float *host_random(size_t count, uint64_t seed)
{
    float *h = malloc((count ? count : 1) * sizeof(float));
    if (!h) exit(1);
    for (size_t i = 0; i < count; i++) {
        uint64_t z = (seed += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        h[i] = (float)((double)((z ^ (z >> 31)) >> 11) / 9007199254740992.0 - 0.5);
    }
    return h;
}

static void *device_copy(const void *h, size_t bytes)
{
    void *d = NULL;
    CUDA_CHECK(cudaMalloc(&d, bytes ? bytes : 1));
    if (bytes) CUDA_CHECK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
    return d;
}

/* What cusparse_path_spmm does in one call with an algorithm other than
 * CSR_ALG3, n = 1, row-major B and C with ld 1, the legacy stream, on c's
 * own (never preprocessed) descriptor; the workspace, sized at setup, is
 * large enough (cusparse_path_spmm's ensure_workspace then does nothing). */
static tcspmm_status run_lib_like(const candidate *c)
{
    cusparseDnMatDescr_t B = NULL, C = NULL;
    size_t bytes = 0;
    const float alpha = 1.0f, beta = 0.0f;
    CUSPARSE_CHECK(cusparseCreateDnMat(&B, c->cols, 1, 1, (void *)c->d_b, CUDA_R_32F,
                                       CUSPARSE_ORDER_ROW));
    CUSPARSE_CHECK(cusparseCreateDnMat(&C, c->rows, 1, 1, c->d_y, CUDA_R_32F, CUSPARSE_ORDER_ROW));
    CUSPARSE_CHECK(cusparseSetStream(handle, NULL));
    CUSPARSE_CHECK(cusparseSpMM_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                           CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, c->A, B,
                                           &beta, C, CUDA_R_32F, (cusparseSpMMAlg_t)c->alg,
                                           &bytes));
    if (bytes > c->work_bytes) {
        fprintf(stderr, "%s: bufferSize grew from %zu to %zu bytes\n", c->name, c->work_bytes,
                bytes);
        exit(1);
    }
    CUSPARSE_CHECK(cusparseSpMM(handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, c->A, B, &beta, C,
                                CUDA_R_32F, (cusparseSpMMAlg_t)c->alg, c->work));
    CUDA_CHECK(cudaGetLastError());
    CUSPARSE_CHECK(cusparseDestroyDnMat(B));
    CUSPARSE_CHECK(cusparseDestroyDnMat(C));
    return TCSPMM_SUCCESS;
}

/* The library's own call at N = 1: row-major b and y with ld 1, the legacy stream. */
static tcspmm_status run_lib_path(const candidate *c)
{
    static int flip; /* alternate: y changes every call, so the path preprocesses again */
    float *y = c->alternate && (flip ^= 1) ? c->d_y2 : c->d_y;
    return cusparse_path_spmm(lib_path, c->alg, 1, 1.0f, c->d_b, 1, 0.0f, y, 1,
                              TCSPMM_LAYOUT_ROW_MAJOR, NULL);
}

/* The timed call: one whole cusparseSpMV or cusparseSpMM, or the per-call
 * work of the library's path (SPMM_LIB, LIB_PATH). */
static tcspmm_status run_candidate(void *arg)
{
    const candidate *c = arg;
    if (c->kind == SPMM_LIB) return run_lib_like(c);
    if (c->kind == LIB_PATH) return run_lib_path(c);
    if (c->kind == SPMV)
        CUSPARSE_CHECK(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->A, c->x,
                                    &zero, c->y, CUDA_R_32F, (cusparseSpMVAlg_t)c->alg,
                                    c->work));
    else
        CUSPARSE_CHECK(cusparseSpMM(handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                    CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->A, c->B, &zero,
                                    c->C, CUDA_R_32F, (cusparseSpMMAlg_t)c->alg, c->work));
    CUDA_CHECK(cudaGetLastError());
    return TCSPMM_SUCCESS;
}

/* Descriptors, y, workspace and preprocessing of c (SPMM and SPMV with
 * c->preprocess). An algorithm cuSPARSE answers CUSPARSE_STATUS_NOT_SUPPORTED
 * for (or the library TCSPMM_ERROR_UNSUPPORTED) is reported and skipped. */
static void setup(candidate *c, const tcspmm_csr *A, void *d_row_ptr, void *d_col_idx,
                  float *d_values, cusparseIndexType_t it, float *d_b, uint64_t seed)
{
    float *h_y = host_random((size_t)A->rows, seed); /* beta = 0: never read */
    c->d_y = device_copy(h_y, (size_t)A->rows * sizeof(float));
    free(h_y);
    c->d_b = d_b;
    c->rows = A->rows;
    c->cols = A->cols;
    if (c->kind == LIB_PATH) {
        if (c->alternate) CUDA_CHECK(cudaMalloc((void **)&c->d_y2, (size_t)A->rows * sizeof(float)));
        /* One untimed call: the path grows its workspace on the first. */
        tcspmm_status t = run_lib_path(c);
        if (t == TCSPMM_ERROR_UNSUPPORTED) {
            printf("%-18s not supported (library: %s)\n", c->name, tcspmm_last_error());
            return;
        }
        TCSPMM_CHECK(t);
        CUDA_CHECK(cudaDeviceSynchronize());
        c->supported = 1;
        printf("%-18s workspace (the library's own)\n", c->name);
        return;
    }
    CUSPARSE_CHECK(cusparseCreateCsr(&c->A, A->rows, A->cols, A->nnz, d_row_ptr, d_col_idx,
                                     d_values, it, it, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    size_t bytes = 0;
    cusparseStatus_t s;
    if (c->kind == SPMV) {
        CUSPARSE_CHECK(cusparseCreateDnVec(&c->x, A->cols, d_b, CUDA_R_32F));
        CUSPARSE_CHECK(cusparseCreateDnVec(&c->y, A->rows, c->d_y, CUDA_R_32F));
        s = cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->A, c->x,
                                    &zero, c->y, CUDA_R_32F, (cusparseSpMVAlg_t)c->alg, &bytes);
    } else {
        CUSPARSE_CHECK(
            cusparseCreateDnMat(&c->B, A->cols, 1, 1, d_b, CUDA_R_32F, CUSPARSE_ORDER_ROW));
        CUSPARSE_CHECK(
            cusparseCreateDnMat(&c->C, A->rows, 1, 1, c->d_y, CUDA_R_32F, CUSPARSE_ORDER_ROW));
        s = cusparseSpMM_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                    CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->A, c->B, &zero,
                                    c->C, CUDA_R_32F, (cusparseSpMMAlg_t)c->alg, &bytes);
    }
    if (s == CUSPARSE_STATUS_NOT_SUPPORTED) {
        printf("%-18s not supported (bufferSize)\n", c->name);
        return;
    }
    CUSPARSE_CHECK(s);
    CUDA_CHECK(cudaMalloc(&c->work, bytes ? bytes : 1));
    c->work_bytes = bytes;
    if (c->kind == SPMM_LIB) { /* its dense descriptors are made per call */
        CUSPARSE_CHECK(cusparseDestroyDnMat(c->B));
        CUSPARSE_CHECK(cusparseDestroyDnMat(c->C));
        c->B = c->C = NULL;
    }
    if (!c->preprocess)
        s = CUSPARSE_STATUS_SUCCESS;
    else if (c->kind == SPMV)
        s = cusparseSpMV_preprocess(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->A, c->x,
                                    &zero, c->y, CUDA_R_32F, (cusparseSpMVAlg_t)c->alg, c->work);
    else
        s = cusparseSpMM_preprocess(handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                    CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c->A, c->B, &zero,
                                    c->C, CUDA_R_32F, (cusparseSpMMAlg_t)c->alg, c->work);
    if (s == CUSPARSE_STATUS_NOT_SUPPORTED) {
        printf("%-18s not supported (preprocess)\n", c->name);
        return;
    }
    CUSPARSE_CHECK(s);
    CUDA_CHECK(cudaDeviceSynchronize());
    c->supported = 1;
    printf("%-18s workspace %zu bytes\n", c->name, bytes);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s MATRIX.mtx\n", argv[0]);
        return 2;
    }
    int dev = 0, version = 0;
    struct cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
    CUSPARSE_CHECK(cusparseCreate(&handle));
    CUSPARSE_CHECK(cusparseGetVersion(handle, &version));
    printf("device: %s  cuSPARSE %d\n", prop.name, version);

    tcspmm_csr A;
    TCSPMM_CHECK(tcspmm_read_mtx(argv[1], &A));
    printf("matrix: %s  %lld x %lld  nnz %lld\n", argv[1], (long long)A.rows, (long long)A.cols,
           (long long)A.nnz);

    /* A as cusparse_path.c uploads it: 32-bit indices when nnz fits
     * (row_ptr narrowed), else 64-bit (col_idx widened); the values are
     * tcspmm_csr's floats, copied as they are. */
    const int idx64 = A.nnz > INT32_MAX;
    const cusparseIndexType_t it = idx64 ? CUSPARSE_INDEX_64I : CUSPARSE_INDEX_32I;
    void *d_row_ptr, *d_col_idx;
    if (idx64) {
        int64_t *col = malloc((A.nnz ? A.nnz : 1) * sizeof(int64_t));
        if (!col) return 1;
        for (int64_t k = 0; k < A.nnz; k++) col[k] = A.col_idx[k];
        d_row_ptr = device_copy(A.row_ptr, (size_t)(A.rows + 1) * sizeof(int64_t));
        d_col_idx = device_copy(col, (size_t)A.nnz * sizeof(int64_t));
        free(col);
    } else {
        int32_t *row = malloc((size_t)(A.rows + 1) * sizeof(int32_t));
        if (!row) return 1;
        for (int64_t i = 0; i <= A.rows; i++) row[i] = (int32_t)A.row_ptr[i];
        d_row_ptr = device_copy(row, (size_t)(A.rows + 1) * sizeof(int32_t));
        d_col_idx = device_copy(A.col_idx, (size_t)A.nnz * sizeof(int32_t));
        free(row);
    }
    float *d_values = device_copy(A.values, (size_t)A.nnz * sizeof(float));
    float *h_b = host_random((size_t)A.cols, 1);
    float *d_b = device_copy(h_b, (size_t)A.cols * sizeof(float));

    /* The library's path on a copy of A of its own, uploaded as it does. */
    TCSPMM_CHECK(cusparse_path_create(&A, NULL, &lib_path));

    candidate cand[NUM_CANDIDATES] = {
        {.name = "spmm_default", .kind = SPMM, .preprocess = 1, .alg = CUSPARSE_SPMM_ALG_DEFAULT},
        {.name = "spmm_alg1", .kind = SPMM, .preprocess = 1, .alg = CUSPARSE_SPMM_CSR_ALG1},
        {.name = "spmm_alg2", .kind = SPMM, .preprocess = 1, .alg = CUSPARSE_SPMM_CSR_ALG2},
        {.name = "spmv_default", .kind = SPMV, .preprocess = 1, .alg = CUSPARSE_SPMV_ALG_DEFAULT},
        {.name = "spmv_alg1", .kind = SPMV, .preprocess = 1, .alg = CUSPARSE_SPMV_CSR_ALG1},
        {.name = "spmv_alg2", .kind = SPMV, .preprocess = 1, .alg = CUSPARSE_SPMV_CSR_ALG2},
        {.name = "spmm_default_nopre", .kind = SPMM, .alg = CUSPARSE_SPMM_ALG_DEFAULT},
        {.name = "spmm_alg2_nopre", .kind = SPMM, .alg = CUSPARSE_SPMM_CSR_ALG2},
        {.name = "spmm_default_lib", .kind = SPMM_LIB, .alg = CUSPARSE_SPMM_ALG_DEFAULT},
        {.name = "spmm_alg2_lib", .kind = SPMM_LIB, .alg = CUSPARSE_SPMM_CSR_ALG2},
        {.name = "lib_path_default", .kind = LIB_PATH, .alg = CUSPARSE_SPMM_ALG_DEFAULT},
        {.name = "lib_path_alg2", .kind = LIB_PATH, .alg = CUSPARSE_SPMM_CSR_ALG2},
        {.name = "lib_path_default_alt", .kind = LIB_PATH, .alg = CUSPARSE_SPMM_ALG_DEFAULT,
         .alternate = 1}};
    for (int i = 0; i < NUM_CANDIDATES; i++)
        setup(&cand[i], &A, d_row_ptr, d_col_idx, d_values, it, d_b, 100 + (uint64_t)i);

    gpu_timer t;
    TCSPMM_CHECK(gpu_timer_create(&t, NULL)); /* the legacy stream, as the handle's */
    float runs[REPS];
    for (int round = 1; round <= ROUNDS; round++)
        for (int j = 0; j < NUM_CANDIDATES; j++) {
            candidate *c = &cand[round == 2 ? NUM_CANDIDATES - 1 - j : j];
            if (!c->supported) continue;
            TCSPMM_CHECK(gpu_timer_run(&t, run_candidate, c, WARMUP, REPS, runs));
            printf("round %d  %-18s %7.2f us\n", round, c->name, runs[REPS / 2] * 1e3);
        }
    CUDA_CHECK(cudaDeviceSynchronize());

    /* y = A*b on the host in double; each candidate's y from its last run. */
    double *ref = malloc((size_t)(A.rows ? A.rows : 1) * sizeof(double)), ref_norm = 0.0;
    float *h_y = malloc((size_t)(A.rows ? A.rows : 1) * sizeof(float));
    if (!ref || !h_y) return 1;
    for (int64_t i = 0; i < A.rows; i++) {
        double s = 0.0;
        for (int64_t k = A.row_ptr[i]; k < A.row_ptr[i + 1]; k++)
            s += (double)A.values[k] * (double)h_b[A.col_idx[k]];
        ref[i] = s;
        ref_norm += s * s;
    }
    int failed = 0;
    for (int j = 0; j < NUM_CANDIDATES; j++) {
        candidate *c = &cand[j];
        if (!c->supported) continue;
        CUDA_CHECK(cudaMemcpy(h_y, c->d_y, (size_t)A.rows * sizeof(float), cudaMemcpyDeviceToHost));
        double err = 0.0;
        for (int64_t i = 0; i < A.rows; i++) err += (h_y[i] - ref[i]) * (h_y[i] - ref[i]);
        const double rel = ref_norm > 0.0 ? sqrt(err / ref_norm) : sqrt(err);
        const int ok = rel < 1e-5;
        failed |= !ok;
        printf("check  %-18s rel err %.2e  %s\n", c->name, rel, ok ? "ok" : "FAIL");
    }

    gpu_timer_destroy(&t);
    for (int j = 0; j < NUM_CANDIDATES; j++) {
        candidate *c = &cand[j];
        if (c->x) CUSPARSE_CHECK(cusparseDestroyDnVec(c->x));
        if (c->y) CUSPARSE_CHECK(cusparseDestroyDnVec(c->y));
        if (c->B) CUSPARSE_CHECK(cusparseDestroyDnMat(c->B));
        if (c->C) CUSPARSE_CHECK(cusparseDestroyDnMat(c->C));
        if (c->A) CUSPARSE_CHECK(cusparseDestroySpMat(c->A));
        CUDA_CHECK(cudaFree(c->d_y));
        CUDA_CHECK(cudaFree(c->work));
    }
    cusparse_path_destroy(lib_path);
    CUDA_CHECK(cudaFree(d_row_ptr));
    CUDA_CHECK(cudaFree(d_col_idx));
    CUDA_CHECK(cudaFree(d_values));
    CUDA_CHECK(cudaFree(d_b));
    CUSPARSE_CHECK(cusparseDestroy(handle));
    free(ref);
    free(h_y);
    free(h_b);
    tcspmm_csr_free(&A);
    return failed;
}
