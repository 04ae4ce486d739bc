/* cusparse_path.c: the cuSPARSE path: A uploaded once as a device CSR
 * (32-bit indices when nnz fits, else 64-bit), cusparseSpMM per call, one
 * workspace kept and grown across calls, CSR_ALG3's preprocessing redone
 * only when the call's shape or buffers change (it is tied to them), and the
 * fastest algorithm measured once per (N, layout). CSR_ALG3 runs on a
 * descriptor and workspace of its own (its preprocessing lives there; sharing
 * them gave wrong results on an H100 with CUDA 13.0) and only for
 * 16-byte-aligned B and C with leading dimensions divisible by 4 (an ld of 133
 * faulted with a misaligned address). A plan runs one SpMM at a time. */
#include "cusparse_path.h"

#include "error.h"

#include <cuda_runtime.h>
#include <cusparse.h>
#include <stdint.h>
#include <stdlib.h>

enum { TUNED_SLOTS = 16, TUNING_RUNS = 5 };

struct cusparse_path {
    cusparseHandle_t handle;
    cusparseSpMatDescr_t A, A_alg3; /* the same arrays; A_alg3 only for CSR_ALG3 */
    int64_t rows, cols, nnz;
    void *row_ptr, *col_idx;
    float *values;
    void *work[2]; /* workspaces: [1] for CSR_ALG3, whose preprocessing lives in it */
    size_t work_bytes[2];
    struct { /* the call CSR_ALG3's preprocessing was done for */
        int64_t n, ldb, ldc;
        const void *B, *C;
        int layout, valid;
    } pre;
    struct { /* measured choices: the fastest, and the fastest but CSR_ALG3 */
        int64_t n;
        int layout, alg, fallback;
    } tuned[TUNED_SLOTS];
    int num_tuned;
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


static tcspmm_status upload_indices(const tcspmm_csr *A, cusparse_path *p, int idx64)
{
    size_t rp_bytes = ((size_t)A->rows + 1) * (idx64 ? 8 : 4);
    size_t ci_bytes = (size_t)A->nnz * (idx64 ? 8 : 4);
    void *rp = malloc(rp_bytes), *ci = malloc(ci_bytes ? ci_bytes : 1);
    if (!rp || !ci) {
        free(rp);
        free(ci);
        return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "cusparse_path: out of host memory");
    }
    for (int64_t i = 0; i <= A->rows; i++) {
        if (idx64) ((int64_t *)rp)[i] = A->row_ptr[i];
        else ((int32_t *)rp)[i] = (int32_t)A->row_ptr[i];
    }
    for (int64_t k = 0; k < A->nnz; k++) {
        if (idx64) ((int64_t *)ci)[k] = A->col_idx[k];
        else ((int32_t *)ci)[k] = A->col_idx[k];
    }
    tcspmm_status st = TCSPMM_CUDA(cudaMalloc(&p->row_ptr, rp_bytes));
    if (!st) st = TCSPMM_CUDA(cudaMalloc(&p->col_idx, ci_bytes ? ci_bytes : 4));
    if (!st) st = TCSPMM_CUDA(cudaMemcpy(p->row_ptr, rp, rp_bytes, cudaMemcpyHostToDevice));
    if (!st && ci_bytes) st = TCSPMM_CUDA(cudaMemcpy(p->col_idx, ci, ci_bytes, cudaMemcpyHostToDevice));
    free(rp);
    free(ci);
    return st;
}

tcspmm_status cusparse_path_create(const tcspmm_csr *A, cusparse_path **out)
{
    *out = NULL;
    cusparse_path *p = calloc(1, sizeof *p);
    if (!p) return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "cusparse_path: out of host memory");
    p->rows = A->rows;
    p->cols = A->cols;
    p->nnz = A->nnz;
    int idx64 = A->nnz > INT32_MAX;
    cusparseIndexType_t it = idx64 ? CUSPARSE_INDEX_64I : CUSPARSE_INDEX_32I;
    size_t val_bytes = (size_t)(A->nnz ? A->nnz : 1) * sizeof(float);
    tcspmm_status st = upload_indices(A, p, idx64);
    if (!st) st = TCSPMM_CUDA(cudaMalloc((void **)&p->values, val_bytes));
    if (!st && A->nnz)
        st = TCSPMM_CUDA(cudaMemcpy(p->values, A->values, (size_t)A->nnz * sizeof(float),
                                    cudaMemcpyHostToDevice));
    if (!st) st = TCSPMM_CUSPARSE(cusparseCreate(&p->handle));
    if (!st)
        st = TCSPMM_CUSPARSE(cusparseCreateCsr(&p->A, A->rows, A->cols, A->nnz, p->row_ptr,
                                               p->col_idx, p->values, it, it,
                                               CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    if (!st)
        st = TCSPMM_CUSPARSE(cusparseCreateCsr(&p->A_alg3, A->rows, A->cols, A->nnz, p->row_ptr,
                                               p->col_idx, p->values, it, it,
                                               CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    if (st) {
        cusparse_path_destroy(p);
        return st;
    }
    *out = p;
    return TCSPMM_SUCCESS;
}

/* Whether CSR_ALG3 may run on these B and C (see the top of the file). */
static int alg3_allowed(const float *dB, int64_t ldb, const float *dC, int64_t ldc)
{
    return ldb % 4 == 0 && ldc % 4 == 0 && (uintptr_t)dB % 16 == 0 && (uintptr_t)dC % 16 == 0;
}

static tcspmm_status ensure_workspace(cusparse_path *p, int which, size_t bytes)
{
    if (bytes <= p->work_bytes[which]) return TCSPMM_SUCCESS;
    TCSPMM_TRY(TCSPMM_CUDA(cudaFree(p->work[which])));
    p->work[which] = NULL;
    p->work_bytes[which] = 0;
    TCSPMM_TRY(TCSPMM_CUDA(cudaMalloc(&p->work[which], bytes)));
    p->work_bytes[which] = bytes;
    if (which == 1) p->pre.valid = 0; /* the preprocessing was in the old buffer */
    return TCSPMM_SUCCESS;
}

tcspmm_status cusparse_path_spmm(cusparse_path *p, int alg, int64_t n, float alpha,
                                 const float *dB, int64_t ldb, float beta, float *dC,
                                 int64_t ldc, tcspmm_layout layout, void *stream)
{
    cusparseOrder_t order = layout == TCSPMM_LAYOUT_ROW_MAJOR ? CUSPARSE_ORDER_ROW : CUSPARSE_ORDER_COL;
    int alg3 = alg == CUSPARSE_SPMM_CSR_ALG3;
    if (alg3 && !alg3_allowed(dB, ldb, dC, ldc))
        return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED,
                           "cuSPARSE SpMM CSR_ALG3 is used only with 16-byte-aligned B and C and "
                           "leading dimensions divisible by 4");
    cusparseSpMatDescr_t A = alg3 ? p->A_alg3 : p->A;
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
    if (!st) st = ensure_workspace(p, alg3, bytes);
    if (!st && alg == CUSPARSE_SPMM_CSR_ALG3 &&
        !(p->pre.valid && p->pre.n == n && p->pre.ldb == ldb && p->pre.ldc == ldc &&
          p->pre.B == dB && p->pre.C == dC && p->pre.layout == (int)layout)) {
        st = TCSPMM_CUSPARSE(cusparseSpMM_preprocess(
            p->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha,
            A, B, &beta, C, CUDA_R_32F, (cusparseSpMMAlg_t)alg, p->work[1]));
        if (!st) {
            p->pre.n = n;
            p->pre.ldb = ldb;
            p->pre.ldc = ldc;
            p->pre.B = dB;
            p->pre.C = dC;
            p->pre.layout = (int)layout;
            p->pre.valid = 1;
        }
    }
    if (!st) {
        cusparseStatus_t s = cusparseSpMM(p->handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                          CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, B, &beta, C,
                                          CUDA_R_32F, (cusparseSpMMAlg_t)alg, p->work[alg3]);
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

/* The median milliseconds of TUNING_RUNS runs of alg into scratch (beta = 0),
 * each after a write of flush that evicts B and A from L2 (as in a solver
 * between products, and as the benchmark measures), after one untimed run;
 * or a negative value when cuSPARSE does not offer alg here. */
static tcspmm_status time_alg(cusparse_path *p, int alg, int64_t n, const float *dB, int64_t ldb,
                              float *scratch, int64_t ldc, tcspmm_layout layout, void *stream,
                              void *flush, size_t flush_bytes, cudaEvent_t ev[2], float *ms)
{
    tcspmm_status st = cusparse_path_spmm(p, alg, n, 1.0f, dB, ldb, 0.0f, scratch, ldc, layout, stream);
    if (st == TCSPMM_ERROR_UNSUPPORTED) { /* not offered here: not a failure of the call */
        tcspmm_clear_error();
        *ms = -1.0f;
        return TCSPMM_SUCCESS;
    }
    TCSPMM_TRY(st);
    float runs[TUNING_RUNS];
    for (int r = 0; r < TUNING_RUNS; r++) {
        cudaStream_t s = (cudaStream_t)stream;
        TCSPMM_TRY(TCSPMM_CUDA(cudaMemsetAsync(flush, r, flush_bytes, s)));
        TCSPMM_TRY(TCSPMM_CUDA(cudaEventRecord(ev[0], s)));
        TCSPMM_TRY(cusparse_path_spmm(p, alg, n, 1.0f, dB, ldb, 0.0f, scratch, ldc, layout, stream));
        TCSPMM_TRY(TCSPMM_CUDA(cudaEventRecord(ev[1], s)));
        TCSPMM_TRY(TCSPMM_CUDA(cudaEventSynchronize(ev[1])));
        TCSPMM_TRY(TCSPMM_CUDA(cudaEventElapsedTime(&runs[r], ev[0], ev[1])));
        for (int i = r; i > 0 && runs[i - 1] > runs[i]; i--) { /* keep runs sorted */
            float x = runs[i];
            runs[i] = runs[i - 1];
            runs[i - 1] = x;
        }
    }
    *ms = runs[TUNING_RUNS / 2];
    return TCSPMM_SUCCESS;
}

tcspmm_status cusparse_path_pick_alg(cusparse_path *p, int64_t n, const float *dB, int64_t ldb,
                                     const float *dC, int64_t ldc, tcspmm_layout layout,
                                     void *stream, int *alg)
{
    int slot = -1;
    for (int i = 0; i < p->num_tuned && slot < 0; i++)
        if (p->tuned[i].n == n && p->tuned[i].layout == (int)layout) slot = i;
    if (slot < 0) {
        int64_t ld_scratch = layout == TCSPMM_LAYOUT_ROW_MAJOR ? n : p->rows;
        float *scratch = NULL;
        void *flush = NULL;
        int dev = 0, l2 = 0;
        cudaEvent_t ev[2] = {NULL, NULL};
        tcspmm_status st = TCSPMM_CUDA(cudaGetDevice(&dev));
        if (!st) st = TCSPMM_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
        size_t flush_bytes = 2 * (size_t)(l2 > 0 ? l2 : 1 << 20);
        if (!st) st = TCSPMM_CUDA(cudaMallocAsync(&flush, flush_bytes, (cudaStream_t)stream));
        if (!st)
            st = TCSPMM_CUDA(cudaMallocAsync((void **)&scratch, (size_t)(p->rows * n + 1) * sizeof(float),
                                             (cudaStream_t)stream));
        if (!st) st = TCSPMM_CUDA(cudaEventCreate(&ev[0]));
        if (!st) st = TCSPMM_CUDA(cudaEventCreate(&ev[1]));
        float best = -1.0f, best_fallback = -1.0f;
        int best_alg = cusparse_path_algs[0], fallback = cusparse_path_algs[0];
        for (int i = 0; i < CUSPARSE_PATH_NUM_ALGS && !st; i++) {
            int a = cusparse_path_algs[i];
            float ms = -1.0f;
            st = time_alg(p, a, n, dB, ldb, scratch, ld_scratch > 0 ? ld_scratch : 1, layout, stream,
                          flush, flush_bytes, ev, &ms);
            if (st || ms < 0.0f) continue;
            if (best < 0.0f || ms < best) best = ms, best_alg = a;
            if (a != CUSPARSE_SPMM_CSR_ALG3 && (best_fallback < 0.0f || ms < best_fallback))
                best_fallback = ms, fallback = a;
        }
        if (scratch) cudaFreeAsync(scratch, (cudaStream_t)stream);
        if (flush) cudaFreeAsync(flush, (cudaStream_t)stream);
        if (ev[0]) cudaEventDestroy(ev[0]);
        if (ev[1]) cudaEventDestroy(ev[1]);
        TCSPMM_TRY(st);
        slot = p->num_tuned < TUNED_SLOTS ? p->num_tuned++ : (int)(n % TUNED_SLOTS);
        p->tuned[slot].n = n;
        p->tuned[slot].layout = (int)layout;
        p->tuned[slot].alg = best_alg;
        p->tuned[slot].fallback = fallback;
    }
    *alg = p->tuned[slot].alg;
    if (*alg == CUSPARSE_SPMM_CSR_ALG3 && !alg3_allowed(dB, ldb, dC, ldc)) *alg = p->tuned[slot].fallback;
    return TCSPMM_SUCCESS;
}

void cusparse_path_destroy(cusparse_path *p)
{
    if (!p) return;
    if (p->A) cusparseDestroySpMat(p->A);
    if (p->A_alg3) cusparseDestroySpMat(p->A_alg3);
    if (p->handle) cusparseDestroy(p->handle);
    cudaFree(p->row_ptr);
    cudaFree(p->col_idx);
    cudaFree(p->values);
    cudaFree(p->work[0]);
    cudaFree(p->work[1]);
    free(p);
}
