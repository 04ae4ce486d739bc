/* cusparse_path.h: the cuSPARSE path: a device CSR copy of A and
 * cusparseSpMM on it, each algorithm with its descriptor, workspace and
 * preprocessing kept across calls, and the algorithm measured per shape. */
#ifndef TCSPMM_CUSPARSE_PATH_H
#define TCSPMM_CUSPARSE_PATH_H

#include "tcspmm.h"
#include "csr_gpu.h"
#include "gpu_timer.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cusparse_path cusparse_path;

/* The SpMM algorithms the benchmark compares (cusparseSpMMAlg_t values). */
enum { CUSPARSE_PATH_NUM_ALGS = 3 };
extern const int cusparse_path_algs[CUSPARSE_PATH_NUM_ALGS];
const char *cusparse_path_alg_name(int alg);

/* The index i of the fastest of ms[i] (cusparse_path_algs[i]; -1: not
 * offered), CSR_ALG3 left out unless alg3; -1 when none is offered. */
int cusparse_path_fastest(const float *ms, int alg3);

/* The algorithm to use for a call: the first call for a new (range of n as
 * gpu_timer_n_range has it, layout, beta zero or not) races
 * cusparse_path_algs (gpu_timer_race) with the call's alpha, beta and B on a
 * scratch C (a copy of dC when beta != 0; on stream, which it synchronizes)
 * and remembers the fastest, and the fastest but CSR_ALG3 for calls whose B
 * or C CSR_ALG3 may not run on, or once the caller's shapes change too
 * often for CSR_ALG3's preprocessing to pay (cusparse_path.c); later calls
 * look them up. Where the device has no room for the race (its L2 flush
 * buffer and scratch C), the call takes ALG_DEFAULT untimed and a later
 * call of the shape races. */
tcspmm_status cusparse_path_pick_alg(cusparse_path *p, int64_t n, float alpha, const float *dB,
                                     int64_t ldb, float beta, const float *dC, int64_t ldc,
                                     tcspmm_layout layout, void *stream, int *alg);

/* Whether the path still takes CSR_ALG3 where it measured fastest: not once
 * the caller's shapes changed too often for its preprocessing to pay. */
int cusparse_path_keeps_alg3(const cusparse_path *p);

/* Whether a call on these B and C may run CSR_ALG3: the path keeps it, and
 * B and C suit it (16-byte-aligned, leading dimensions divisible by 4:
 * cusparse_path.c). */
int cusparse_path_takes_alg3(const cusparse_path *p, const float *dB, int64_t ldb,
                             const float *dC, int64_t ldc);

/* The bytes of each of A's indices on the path for nnz entries: 4, or 8
 * where 32-bit indices cannot count them (nnz of 2^31 or more). */
int cusparse_path_index_bytes(int64_t nnz);

/* The path for A. dA, when not NULL, is A already on the device (nnz below
 * 2^31): its col_idx and values are taken over (set to NULL in dA), and A
 * may then be NULL (row_ptr is read back from dA). Without dA, A is
 * uploaded. */
tcspmm_status cusparse_path_create(const tcspmm_csr *A, csr_gpu *dA, cusparse_path **out);

/* C = alpha*A*B + beta*C with algorithm alg. TCSPMM_ERROR_UNSUPPORTED
 * (message set) when cuSPARSE does not offer alg for this layout. */
tcspmm_status cusparse_path_spmm(cusparse_path *p, int alg, int64_t n, float alpha,
                                 const float *dB, int64_t ldb, float beta, float *dC,
                                 int64_t ldc, tcspmm_layout layout, void *stream);

/* Another way to make the product, raced against cuSPARSE's algorithms:
 * rival(ctx, op) computes it on op's operands (op->C: the race's scratch). */
typedef tcspmm_status (*cusparse_path_rival_fn)(const void *ctx, const gpu_product *op);

/* The race behind cusparse_path_pick_alg: cusparse_path_algs, and rival
 * where not NULL, on call's alpha, beta and B into a scratch C (a copy of
 * dC when beta != 0; gpu_timer_race, on call->stream, which it
 * synchronizes). The algorithms' times become the tuning of call's shape;
 * ms[i]: the median of cusparse_path_algs[i] (-1: not offered), and
 * ms[CUSPARSE_PATH_NUM_ALGS] the rival's (-1 without one). */
tcspmm_status cusparse_path_race(cusparse_path *p, const gpu_product *call, const float *dC,
                                 int64_t ldc, cusparse_path_rival_fn rival, const void *rival_ctx,
                                 float ms[CUSPARSE_PATH_NUM_ALGS + 1]);

/* Copies the new values d_values (device, nnz in A's order) over A's, on
 * stream; each algorithm keeps its preprocessing (cusparse_path.c). */
tcspmm_status cusparse_path_set_values(cusparse_path *p, const float *d_values, void *stream);

/* A host copy of the path's matrix (for products on the host). */
tcspmm_status cusparse_path_download(const cusparse_path *p, tcspmm_csr *out);

void cusparse_path_destroy(cusparse_path *p);

#ifdef __cplusplus
}
#endif

#endif
