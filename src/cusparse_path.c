/* cusparse_path.c: the cuSPARSE path: A once as a device CSR (32-bit
 * indices when nnz fits, taking over the plan's device copy, else 64-bit),
 * cusparseSpMM per call, and the fastest algorithm measured once per (range
 * of N, layout, beta zero or not). Each algorithm has a descriptor and a
 * workspace of its own on the shared arrays, kept and grown across calls.
 * cusparseSpMM_preprocess runs where it was measured to help
 * (bench/results/n1-spmv-2026-11-26/, H200): at N = 1 (1.4-1.7x: ALG_DEFAULT
 * and CSR_ALG2 run cuSPARSE's SpMV there), for ALG_DEFAULT with column-major
 * B and C (1.04x-1.3x), and for CSR_ALG3; elsewhere it made calls 2-4%
 * slower. Each algorithm keeps one preprocessing, for the last shape (N,
 * leading dimensions, layout) it ran on, redone when that changes; a call
 * of another shape that does not preprocess drops it (cuSPARSE may use the
 * workspace as scratch: N = 1, then 256, then 1 again gave relative errors
 * above 1 on ALG_DEFAULT and CSR_ALG2 when it was kept). It lives
 * in the descriptor and workspace and is tied to them (CSR_ALG3 gave wrong
 * results otherwise, and sharing one descriptor between algorithms did too,
 * on an H100 with CUDA 13.0), but not to A's values nor to the B and C
 * buffers: cuSPARSE ties it to "the same sparsity pattern", and products
 * after new values and on other buffers, without preprocessing again, were
 * right on every algorithm, layout and N tested (gpu_cusparse_values).
 * CSR_ALG3's costs 0.07-33 ms on an H200
 * (bench/results/cusparse-values-2026-11-26/), so once three CSR_ALG3 calls
 * in a row had to preprocess again (shapes that alternate), the path takes
 * the fastest other algorithm from then on. CSR_ALG3 runs only for
 * 16-byte-aligned B and C with leading dimensions divisible by 4 (an ld of
 * 133 faulted with a misaligned address). A plan runs one SpMM at a time. */
#include "cusparse_path.h"

#include "device_copy.h"
#include "error.h"
#include "format/csr.h"
#include "gpu_timer.h"

#include <cuda_runtime.h>
#include <cusparse.h>
#include <stdint.h>
#include <stdlib.h>

enum { ALG3_CHURN_LIMIT = 3 };

/* What an algorithm's preprocessing is tied to. */
typedef struct call_shape {
    int64_t n, ldb, ldc;
    int layout;
} call_shape;

static int same_shape(const call_shape *a, const call_shape *b)
{
    return a->n == b->n && a->ldb == b->ldb && a->ldc == b->ldc && a->layout == b->layout;
}

struct cusparse_path {
    cusparseHandle_t handle;
    int64_t rows, cols, nnz;
    void *row_ptr, *col_idx;
    float *values;
    struct { /* per algorithm of cusparse_path_algs */
        cusparseSpMatDescr_t A; /* on the shared arrays */
        void *work;
        size_t work_bytes;
        call_shape pre; /* the call the preprocessing was done for */
        int pre_valid;
    } alg[CUSPARSE_PATH_NUM_ALGS];
    int alg3_churn; /* CSR_ALG3 calls in a row that preprocessed again (for another shape);
                       at ALG3_CHURN_LIMIT the path stops taking CSR_ALG3 */
    struct { /* measured choices by gpu_timer_shape: the fastest, and the fastest but CSR_ALG3 */
        int known, alg, fallback;
    } tuned[GPU_TIMER_SHAPES];
};

const int cusparse_path_algs[CUSPARSE_PATH_NUM_ALGS] = {
    CUSPARSE_SPMM_ALG_DEFAULT, CUSPARSE_SPMM_CSR_ALG2, CUSPARSE_SPMM_CSR_ALG3};

const char *cusparse_path_alg_name(int alg)
{
    switch (alg) {
    case CUSPARSE_SPMM_ALG_DEFAULT: return "ALG_DEFAULT";
    case CUSPARSE_SPMM_CSR_ALG1: return "CSR_ALG1";
    case CUSPARSE_SPMM_CSR_ALG2: return "CSR_ALG2";
    case CUSPARSE_SPMM_CSR_ALG3: return "CSR_ALG3";
    }
    return "unknown";
}


int cusparse_path_index_bytes(int64_t nnz)
{
    return nnz > INT32_MAX ? 8 : 4;
}

/* A's indices widened (idx64) or narrowed to the index type, uploaded. */
static tcspmm_status upload_converted(void **dst, const void *src64, const void *src32,
                                      int64_t count, int idx64)
{
    size_t bytes = (size_t)count * (idx64 ? 8 : 4);
    void *tmp = malloc(bytes ? bytes : 1);
    if (!tmp) return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "cusparse_path: out of host memory");
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < count; i++) {
        if (idx64) ((int64_t *)tmp)[i] = src64 ? ((const int64_t *)src64)[i] : ((const int32_t *)src32)[i];
        else ((int32_t *)tmp)[i] = (int32_t)((const int64_t *)src64)[i];
    }
    tcspmm_status st = device_copy_in(dst, tmp, bytes, cudaMemcpyHostToDevice);
    free(tmp);
    return st;
}

/* The device arrays. 64-bit indices: A widened and uploaded. 32-bit: the
 * device copy dA (made here from A when not given) taken over, row_ptr
 * narrowed from A's, or from a download of dA's when A is NULL. */
static tcspmm_status device_arrays(const tcspmm_csr *A, csr_gpu *dA, cusparse_path *p)
{
    if (cusparse_path_index_bytes(p->nnz) == 8) {
        TCSPMM_TRY(upload_converted(&p->row_ptr, A->row_ptr, NULL, p->rows + 1, 1));
        TCSPMM_TRY(upload_converted(&p->col_idx, NULL, A->col_idx, p->nnz, 1));
        return device_copy_in((void **)&p->values, A->values, (size_t)p->nnz * sizeof(float),
                              cudaMemcpyHostToDevice);
    }
    csr_gpu own = {0};
    if (!dA) {
        TCSPMM_TRY(csr_gpu_upload(A, &own));
        dA = &own;
    }
    p->col_idx = dA->col_idx;
    p->values = dA->values;
    dA->col_idx = NULL;
    dA->values = NULL;
    int64_t *fetched = NULL;
    const size_t row_bytes = ((size_t)p->rows + 1) * sizeof(int64_t);
    tcspmm_status st = TCSPMM_SUCCESS;
    if (!A && !(fetched = malloc(row_bytes)))
        st = tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "cusparse_path: out of host memory");
    else if (!A)
        st = TCSPMM_CUDA(cudaMemcpy(fetched, dA->row_ptr, row_bytes, cudaMemcpyDeviceToHost));
    if (!st) st = upload_converted(&p->row_ptr, A ? A->row_ptr : fetched, NULL, p->rows + 1, 0);
    free(fetched);
    csr_gpu_free(&own);
    return st;
}

tcspmm_status cusparse_path_create(const tcspmm_csr *A, csr_gpu *dA, cusparse_path **out)
{
    *out = NULL;
    cusparse_path *p = calloc(1, sizeof *p);
    if (!p) return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "cusparse_path: out of host memory");
    p->rows = dA ? dA->rows : A->rows;
    p->cols = dA ? dA->cols : A->cols;
    p->nnz = dA ? dA->nnz : A->nnz;
    cusparseIndexType_t it =
        cusparse_path_index_bytes(p->nnz) == 8 ? CUSPARSE_INDEX_64I : CUSPARSE_INDEX_32I;
    tcspmm_status st = device_arrays(A, dA, p);
    if (!st) st = TCSPMM_CUSPARSE(cusparseCreate(&p->handle));
    for (int a = 0; a < CUSPARSE_PATH_NUM_ALGS && !st; a++)
        st = TCSPMM_CUSPARSE(cusparseCreateCsr(&p->alg[a].A, p->rows, p->cols, p->nnz, p->row_ptr,
                                               p->col_idx, p->values, it, it,
                                               CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    if (st) {
        cusparse_path_destroy(p);
        return st;
    }
    *out = p;
    return TCSPMM_SUCCESS;
}

/* *dst = a host copy of count device elements of src, widened or narrowed
 * from the path's index type (from_64) to 64 (to_64) or 32 bits. */
static tcspmm_status download_indices(void *dst, const void *src, int64_t count, int from_64,
                                      int to_64)
{
    const size_t width = from_64 ? 8 : 4, bytes = (size_t)count * width;
    void *tmp = malloc(bytes ? bytes : 1);
    if (!tmp) return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "cusparse_path: out of host memory");
    tcspmm_status st =
        bytes ? TCSPMM_CUDA(cudaMemcpy(tmp, src, bytes, cudaMemcpyDeviceToHost)) : TCSPMM_SUCCESS;
    if (!st) {
#pragma omp parallel for schedule(static)
        for (int64_t i = 0; i < count; i++) {
            int64_t v = from_64 ? ((const int64_t *)tmp)[i] : ((const int32_t *)tmp)[i];
            if (to_64) ((int64_t *)dst)[i] = v;
            else ((int32_t *)dst)[i] = (int32_t)v;
        }
    }
    free(tmp);
    return st;
}

tcspmm_status cusparse_path_download(const cusparse_path *p, tcspmm_csr *out)
{
    TCSPMM_TRY(csr_alloc(p->rows, p->cols, p->nnz, out));
    const int idx64 = cusparse_path_index_bytes(p->nnz) == 8;
    tcspmm_status st = download_indices(out->row_ptr, p->row_ptr, p->rows + 1, idx64, 1);
    if (!st) st = download_indices(out->col_idx, p->col_idx, p->nnz, idx64, 0);
    if (!st && p->nnz)
        st = TCSPMM_CUDA(cudaMemcpy(out->values, p->values, (size_t)p->nnz * sizeof(float),
                                    cudaMemcpyDeviceToHost));
    if (st) tcspmm_csr_free(out);
    return st;
}

/* Whether CSR_ALG3 may run on these B and C (see the top of the file). */
static int alg3_fits(const float *dB, int64_t ldb, const float *dC, int64_t ldc)
{
    return ldb % 4 == 0 && ldc % 4 == 0 && (uintptr_t)dB % 16 == 0 && (uintptr_t)dC % 16 == 0;
}

int cusparse_path_keeps_alg3(const cusparse_path *p)
{
    return p->alg3_churn < ALG3_CHURN_LIMIT;
}

int cusparse_path_takes_alg3(const cusparse_path *p, const float *dB, int64_t ldb,
                             const float *dC, int64_t ldc)
{
    return cusparse_path_keeps_alg3(p) && alg3_fits(dB, ldb, dC, ldc);
}

/* The index of alg in cusparse_path_algs, or -1. */
static int alg_index(int alg)
{
    for (int a = 0; a < CUSPARSE_PATH_NUM_ALGS; a++)
        if (cusparse_path_algs[a] == alg) return a;
    return -1;
}

static tcspmm_status ensure_workspace(cusparse_path *p, int a, size_t bytes)
{
    if (bytes <= p->alg[a].work_bytes) return TCSPMM_SUCCESS;
    TCSPMM_TRY(TCSPMM_CUDA(cudaFree(p->alg[a].work)));
    p->alg[a].work = NULL;
    p->alg[a].work_bytes = 0;
    p->alg[a].pre_valid = 0; /* the preprocessing was in the old buffer */
    TCSPMM_TRY(TCSPMM_CUDA(cudaMalloc(&p->alg[a].work, bytes)));
    p->alg[a].work_bytes = bytes;
    return TCSPMM_SUCCESS;
}

tcspmm_status cusparse_path_spmm(cusparse_path *p, int alg, int64_t n, float alpha,
                                 const float *dB, int64_t ldb, float beta, float *dC,
                                 int64_t ldc, tcspmm_layout layout, void *stream)
{
    cusparseOrder_t order = layout == TCSPMM_LAYOUT_ROW_MAJOR ? CUSPARSE_ORDER_ROW : CUSPARSE_ORDER_COL;
    const int a = alg_index(alg);
    if (a < 0)
        return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED, "cuSPARSE SpMM %s is not one of this path's",
                           cusparse_path_alg_name(alg));
    if (alg == CUSPARSE_SPMM_CSR_ALG3 && !alg3_fits(dB, ldb, dC, ldc))
        return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED,
                           "cuSPARSE SpMM CSR_ALG3 is used only with 16-byte-aligned B and C and "
                           "leading dimensions divisible by 4");
    cusparseSpMatDescr_t A = p->alg[a].A;
    cusparseDnMatDescr_t B = NULL, C = NULL;
    size_t bytes = 0;
    tcspmm_status st = TCSPMM_CUSPARSE(
        cusparseCreateDnMat(&B, p->cols, n, ldb, (void *)dB, CUDA_R_32F, order));
    if (!st) st = TCSPMM_CUSPARSE(cusparseCreateDnMat(&C, p->rows, n, ldc, dC, CUDA_R_32F, order));
    if (!st) st = TCSPMM_CUSPARSE(cusparseSetStream(p->handle, (cudaStream_t)stream));
    if (!st) {
        cusparseStatus_t s = cusparseSpMM_bufferSize(
            p->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha,
            A, B, &beta, C, CUDA_R_32F, (cusparseSpMMAlg_t)alg, &bytes);
        if (s == CUSPARSE_STATUS_NOT_SUPPORTED)
            st = tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED, "cuSPARSE SpMM %s does not support the %s layout",
                             cusparse_path_alg_name(alg),
                             layout == TCSPMM_LAYOUT_ROW_MAJOR ? "row-major" : "column-major");
        else st = TCSPMM_CUSPARSE(s);
    }
    if (!st) st = ensure_workspace(p, a, bytes);
    call_shape shape = {n, ldb, ldc, (int)layout};
    const int alg3 = alg == CUSPARSE_SPMM_CSR_ALG3;
    const int preprocess = alg3 || n == 1 ||
                           (alg == CUSPARSE_SPMM_ALG_DEFAULT && layout == TCSPMM_LAYOUT_COL_MAJOR);
    const int stale = !(p->alg[a].pre_valid && same_shape(&p->alg[a].pre, &shape));
    if (!st && alg3 && cusparse_path_keeps_alg3(p)) /* again, not the first time */
        p->alg3_churn = stale && p->alg[a].pre_valid ? p->alg3_churn + 1 : 0;
    if (!st && preprocess && stale) {
        cusparseStatus_t s = cusparseSpMM_preprocess(
            p->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha,
            A, B, &beta, C, CUDA_R_32F, (cusparseSpMMAlg_t)alg, p->alg[a].work);
        if (s != CUSPARSE_STATUS_NOT_SUPPORTED) st = TCSPMM_CUSPARSE(s); /* else: none to do */
        p->alg[a].pre = shape;
        int captured = 1; /* then the preprocessing runs only with the graph */
        if (!st) st = gpu_stream_capturing(stream, &captured);
        p->alg[a].pre_valid = !st && !captured;
    } else if (stale) { /* a call of another shape may use the workspace as it likes */
        p->alg[a].pre_valid = 0;
    }
    if (!st) {
        cusparseStatus_t s = cusparseSpMM(p->handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                          CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, B, &beta, C,
                                          CUDA_R_32F, (cusparseSpMMAlg_t)alg, p->alg[a].work);
        if (s == CUSPARSE_STATUS_NOT_SUPPORTED)
            st = tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED, "cuSPARSE SpMM %s not supported here",
                             cusparse_path_alg_name(alg));
        else st = TCSPMM_CUSPARSE(s);
    }
    if (!st) st = TCSPMM_CUDA(cudaGetLastError());
    if (B) cusparseDestroyDnMat(B);
    if (C) cusparseDestroyDnMat(C);
    return st;
}

tcspmm_status cusparse_path_set_values(cusparse_path *p, const float *d_values, void *stream)
{
    return TCSPMM_CUDA(cudaMemcpyAsync(p->values, d_values, (size_t)p->nnz * sizeof(float),
                                       cudaMemcpyDeviceToDevice, (cudaStream_t)stream));
}

/* One candidate of a race: algorithm alg of the path, or the rival, on op. */
typedef struct race_call {
    cusparse_path *p;
    int alg;
    cusparse_path_rival_fn rival;
    const void *rival_ctx;
    const gpu_product *op;
} race_call;

static tcspmm_status run_race_call(void *arg)
{
    const race_call *c = arg;
    const gpu_product *o = c->op;
    if (c->rival) return c->rival(c->rival_ctx, o);
    return cusparse_path_spmm(c->p, c->alg, o->n, o->alpha, o->B, o->ldb, o->beta, o->C, o->ldc,
                              o->layout, o->stream);
}

int cusparse_path_fastest(const float *ms, int alg3)
{
    int best = -1;
    for (int i = 0; i < CUSPARSE_PATH_NUM_ALGS; i++)
        if (ms[i] >= 0.0f && (alg3 || cusparse_path_algs[i] != CUSPARSE_SPMM_CSR_ALG3) &&
            (best < 0 || ms[i] < ms[best]))
            best = i;
    return best;
}

/* Keeps, for the shape, the fastest of ms and the fastest but CSR_ALG3
 * (the first algorithm where none is offered). */
static void remember(cusparse_path *p, int shape, const float *ms)
{
    const int best = cusparse_path_fastest(ms, 1), fallback = cusparse_path_fastest(ms, 0);
    p->tuned[shape].known = 1;
    p->tuned[shape].alg = cusparse_path_algs[best < 0 ? 0 : best];
    p->tuned[shape].fallback = cusparse_path_algs[fallback < 0 ? 0 : fallback];
}

/* With beta != 0 the scratch C starts as a copy of the caller's C, since an
 * algorithm's speed then includes reading it (on an H200, choices made with
 * beta = 0 ran 3-6% slower than the best one with beta = 1 on two matrices,
 * and once 24% slower). */
tcspmm_status cusparse_path_race(cusparse_path *p, const gpu_product *call, const float *dC,
                                 int64_t ldc, cusparse_path_rival_fn rival, const void *rival_ctx,
                                 float ms[CUSPARSE_PATH_NUM_ALGS + 1])
{
    enum { RIVAL = CUSPARSE_PATH_NUM_ALGS };
    gpu_product op = *call;
    gpu_timer t;
    TCSPMM_TRY(gpu_timer_create(&t, op.stream));
    tcspmm_status st = gpu_timer_scratch_c(p->rows, dC, ldc, &op);
    race_call calls[RIVAL + 1];
    gpu_timer_fn fns[RIVAL + 1];
    void *args[RIVAL + 1];
    for (int i = 0; i <= RIVAL; i++) {
        calls[i] = (race_call){p, i < RIVAL ? cusparse_path_algs[i] : 0, i < RIVAL ? NULL : rival,
                               rival_ctx, &op};
        fns[i] = run_race_call;
        args[i] = &calls[i];
    }
    ms[RIVAL] = -1.0f;
    if (!st) st = gpu_timer_race(&t, fns, args, rival ? RIVAL + 1 : RIVAL, ms);
    if (op.C) st = TCSPMM_CUDA_AFTER(st, cudaFreeAsync(op.C, (cudaStream_t)op.stream));
    gpu_timer_destroy(&t);
    TCSPMM_TRY(st);
    remember(p, gpu_timer_shape(op.n, op.layout, op.beta), ms);
    return TCSPMM_SUCCESS;
}

tcspmm_status cusparse_path_pick_alg(cusparse_path *p, int64_t n, float alpha, const float *dB,
                                     int64_t ldb, float beta, const float *dC, int64_t ldc,
                                     tcspmm_layout layout, void *stream, int *alg)
{
    const int shape = gpu_timer_shape(n, layout, beta);
    if (!p->tuned[shape].known) {
        /* Not inside a graph capture (the race synchronizes on its events),
         * nor on the legacy stream while another stream captures: a shape
         * whose direct call had no room to time is captured untimed. */
        int capturing;
        TCSPMM_TRY(gpu_stream_capturing(stream, &capturing));
        if (capturing) {
            *alg = CUSPARSE_SPMM_ALG_DEFAULT;
            return TCSPMM_SUCCESS;
        }
        const gpu_product call = {n, ldb, 0, alpha, beta, dB, NULL, layout, stream};
        float ms[CUSPARSE_PATH_NUM_ALGS + 1];
        const tcspmm_status st = cusparse_path_race(p, &call, dC, ldc, NULL, NULL, ms);
        if (st == TCSPMM_ERROR_DEVICE_OUT_OF_MEMORY) { /* no room to time: run, untimed */
            tcspmm_clear_error();
            *alg = CUSPARSE_SPMM_ALG_DEFAULT;
            return TCSPMM_SUCCESS;
        }
        TCSPMM_TRY(st);
    }
    *alg = p->tuned[shape].alg;
    if (*alg == CUSPARSE_SPMM_CSR_ALG3 && !cusparse_path_takes_alg3(p, dB, ldb, dC, ldc))
        *alg = p->tuned[shape].fallback;
    return TCSPMM_SUCCESS;
}

void cusparse_path_destroy(cusparse_path *p)
{
    if (!p) return;
    for (int a = 0; a < CUSPARSE_PATH_NUM_ALGS; a++) {
        if (p->alg[a].A) cusparseDestroySpMat(p->alg[a].A);
        cudaFree(p->alg[a].work);
    }
    if (p->handle) cusparseDestroy(p->handle);
    cudaFree(p->row_ptr);
    cudaFree(p->col_idx);
    cudaFree(p->values);
    free(p);
}
