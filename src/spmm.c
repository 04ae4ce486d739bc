/* spmm.c: tcspmm_spmm and tcspmm_spmm_ex (device arrays, the plan's GPU path) and
 * tcspmm_spmm_host (host arrays, OpenMP, float64 accumulation), with the
 * argument checks they share. */
#include "plan.h"

#include "device_copy.h"
#include "call_scope.h"
#include "cpu_spmm.h"
#include "error.h"
#include "kernels/dense_scale.h"

#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdint.h>

/* Whether B (outer_b lines of inner_b elements of eb bytes, ldb elements
 * apart) and C (the same with _c) share a byte. Matrices whose spans meet
 * are apart only where their lines have the same pitch and lie side by
 * side within it: B and C as column blocks of one row-major matrix (row
 * blocks of one column-major matrix). */
static int operands_overlap(const void *B, int64_t outer_b, int64_t inner_b, int64_t ldb, int eb,
                            const void *C, int64_t outer_c, int64_t inner_c, int64_t ldc, int ec)
{
    const uintptr_t b = (uintptr_t)B, c = (uintptr_t)C;
    const uintptr_t b_end = b + (uintptr_t)(((outer_b - 1) * ldb + inner_b) * eb);
    const uintptr_t c_end = c + (uintptr_t)(((outer_c - 1) * ldc + inner_c) * ec);
    if (b_end <= c || c_end <= b) return 0;
    const uintptr_t pitch = (uintptr_t)(ldb * eb);
    if (pitch != (uintptr_t)(ldc * ec)) return 1;
    const uintptr_t shift = c >= b ? (c - b) % pitch : (pitch - (b - c) % pitch) % pitch;
    return shift < (uintptr_t)(inner_b * eb) || shift + (uintptr_t)(inner_c * ec) > pitch;
}

/* Checks sizes, leading dimensions, pointers and scalars of a product
 * whose B and C elements have eb and ec bytes. */
static tcspmm_status check_args(const char *fn, const tcspmm_plan *plan, int64_t n, float alpha,
                                const void *B, int eb, int64_t ldb, float beta, const void *C,
                                int ec, int64_t ldc, tcspmm_layout layout)
{
    if (!plan) return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "%s: plan is NULL", fn);
    if (n < 0) return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "%s: n = %lld < 0", fn, (long long)n);
    if (layout != TCSPMM_LAYOUT_ROW_MAJOR && layout != TCSPMM_LAYOUT_COL_MAJOR)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "%s: unknown layout %d", fn, (int)layout);
    if (!isfinite(alpha) || !isfinite(beta))
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "%s: alpha and beta must be finite", fn);
    int64_t rows = plan->info.rows, cols = plan->info.cols;
    int row_major = layout == TCSPMM_LAYOUT_ROW_MAJOR;
    int64_t min_ldb = row_major ? n : cols, min_ldc = row_major ? n : rows;
    min_ldb = min_ldb > 1 ? min_ldb : 1;
    min_ldc = min_ldc > 1 ? min_ldc : 1;
    if (ldb < min_ldb || ldc < min_ldc)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "%s: ldb = %lld and ldc = %lld; %s layout needs ldb >= %lld, ldc >= %lld",
                           fn, (long long)ldb, (long long)ldc, row_major ? "row-major" : "column-major",
                           (long long)min_ldb, (long long)min_ldc);
    int64_t outer_b = row_major ? cols : n, outer_c = row_major ? rows : n;
    if ((outer_b > 0 && ldb > INT64_MAX / eb / outer_b) ||
        (outer_c > 0 && ldc > INT64_MAX / ec / outer_c))
        return tcspmm_fail(TCSPMM_ERROR_OVERFLOW, "%s: B or C is too large to index", fn);
    if (n > 0 && ((!B && cols > 0) || (!C && rows > 0)))
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "%s: B or C is NULL", fn);
    if (n > 0 && rows > 0 && cols > 0 &&
        operands_overlap(B, outer_b, row_major ? n : cols, ldb, eb, C, outer_c,
                         row_major ? n : rows, ldc, ec))
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "%s: B and C overlap", fn);
    return TCSPMM_SUCCESS;
}

/* The bytes of an element of type t, or 0 for a type tcspmm does not know. */
static int type_bytes(tcspmm_datatype t)
{
    return t == TCSPMM_R_32F ? 4 : t == TCSPMM_R_16BF || t == TCSPMM_R_16F ? 2 : 0;
}

/* The sp24_gpu code of an element type of tcspmm_spmm_ex. */
static int data_code(tcspmm_datatype t)
{
    return t == TCSPMM_R_16BF ? SP24_DATA_BF16 : t == TCSPMM_R_16F ? SP24_DATA_FP16 : SP24_DATA_FP32;
}

/* Whether the plan's kernels read or write elements of type t as they are
 * on every call: floats on every path, a 16-bit type on the sparse24 path
 * with that precision; HRPB takes some 16-bit B and C too
 * (reads_b_directly, writes_c_directly). Other operands go through float
 * scratch (typed_product). */
static int read_directly(const tcspmm_plan *plan, tcspmm_datatype t)
{
    if (t == TCSPMM_R_32F) return 1;
    if (plan->info.path != TCSPMM_PATH_SPARSE24) return 0;
    return (t == TCSPMM_R_16BF && plan->info.precision == TCSPMM_PRECISION_BF16) ||
           (t == TCSPMM_R_16F && plan->info.precision == TCSPMM_PRECISION_FP16);
}

/* Whether a call of n columns in layout with beta runs the HRPB kernel: on
 * an HRPB plan, or on an auto plan whose measurement of the call's shape
 * found HRPB faster than every cuSPARSE algorithm (path_trial.h). A shape
 * not measured yet runs HRPB too, but its operands stay floats: its
 * measurement races the two paths on them. */
static int runs_hrpb(const tcspmm_plan *plan, int64_t n, tcspmm_layout layout, float beta)
{
    return plan->info.path == TCSPMM_PATH_HRPB ||
           (plan->info.path == TCSPMM_PATH_AUTO &&
            path_trial_lookup(&plan->trial, n, layout, beta, 1) == TCSPMM_PATH_HRPB);
}

/* read_directly for B at dB, which the HRPB kernel of a TF32 plan (hrpb:
 * runs_hrpb) also reads in bf16 and fp16 where it is row-major and its rows
 * are 8-byte aligned (hrpb_gpu_reads_b). */
static int reads_b_directly(const tcspmm_plan *plan, int hrpb, tcspmm_datatype t, const void *dB,
                            int64_t ldb, tcspmm_layout layout)
{
    return read_directly(plan, t) ||
           (hrpb && hrpb_gpu_reads_b(plan->hrpb_dev, data_code(t), dB, ldb, layout));
}

/* read_directly for C of type c with a B that the kernel reads as b_read:
 * the HRPB kernel of a TF32 plan (hrpb: runs_hrpb) also writes C in a
 * 16-bit B's type (hrpb_gpu_writes_c). */
static int writes_c_directly(const tcspmm_plan *plan, int hrpb, tcspmm_datatype b_read,
                             tcspmm_datatype c)
{
    return read_directly(plan, c) ||
           (hrpb && hrpb_gpu_writes_c(plan->hrpb_dev, data_code(b_read), data_code(c)));
}

/* Enqueues the product on one path of the plan. */
static tcspmm_status run_path(tcspmm_plan *plan, tcspmm_path path, int64_t n, float alpha,
                              const void *dB, int sp24_b, int64_t ldb, float beta, void *dC,
                              int sp24_c, int64_t ldc, tcspmm_layout layout, void *stream)
{
    switch (path) {
    case TCSPMM_PATH_CUSPARSE: {
        int alg = 0;
        TCSPMM_TRY(cusparse_path_pick_alg(plan->cusparse, n, alpha, dB, ldb, beta, dC, ldc, layout,
                                          stream, &alg));
        return cusparse_path_spmm(plan->cusparse, alg, n, alpha, dB, ldb, beta, dC, ldc, layout, stream);
    }
    case TCSPMM_PATH_HRPB:
        return hrpb_gpu_spmm(plan->hrpb_dev, n, alpha, dB, sp24_b, ldb, beta, dC, sp24_c, ldc,
                             layout, stream);
    case TCSPMM_PATH_SPARSE24:
        return sp24_gpu_spmm(plan->sp24_dev, n, alpha, dB, sp24_b, ldb, beta, dC, sp24_c, ldc,
                             layout, stream);
    default:
        return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED, "tcspmm_spmm: path %s does not run on the GPU",
                           tcspmm_path_name(path));
    }
}

/* Refuses a caller's C, and B where the product reads it (reads_b), that
 * is not device memory, asking the runtime once per new pointer: solvers
 * reuse buffers. */
static tcspmm_status check_operands(const char *fn, tcspmm_plan *plan, const void *dB,
                                    const void *dC, int reads_b)
{
    const char *instead = "use tcspmm_spmm_host for host arrays";
    char what[32];
    if (dC != plan->checked_C) {
        snprintf(what, sizeof what, "%s: C", fn);
        TCSPMM_TRY(check_device_pointer(dC, what, instead));
        plan->checked_C = dC;
    }
    if (reads_b && plan->info.cols > 0 && dB != plan->checked_B) {
        snprintf(what, sizeof what, "%s: B", fn);
        TCSPMM_TRY(check_device_pointer(dB, what, instead));
        plan->checked_B = dB;
    }
    return TCSPMM_SUCCESS;
}

/* tcspmm_spmm_ex's product where A*B adds something (alpha != 0, A with
 * entries), on checked B and C of types the plan's kernels take, on the
 * plan's device, on path (AUTO: the measured choice, path_trial.h). */
static tcspmm_status product(tcspmm_plan *plan, tcspmm_path path, int64_t n, float alpha,
                             const void *dB, int sp24_b, int64_t ldb, float beta, void *dC,
                             int sp24_c, int64_t ldc, tcspmm_layout layout, void *stream)
{
    cudaEvent_t timed = NULL; /* recorded after this call's product (path_trial.h) */
    if (path == TCSPMM_PATH_AUTO) { /* measured: this shape's faster path, or HRPB until then */
        tcspmm_status st = path_trial_pick(&plan->trial, plan->hrpb_dev, plan->cusparse, n, alpha,
                                           dB, ldb, beta, dC, ldc, layout, stream, &path, &timed);
        if (st == TCSPMM_ERROR_DEVICE_OUT_OF_MEMORY) {
            tcspmm_clear_error();
            plan_stop_measuring(plan);
            path = plan->info.path;
        } else {
            TCSPMM_TRY(st);
        }
    }
    TCSPMM_TRY(run_path(plan, path, n, alpha, dB, sp24_b, ldb, beta, dC, sp24_c, ldc, layout, stream));
    if (timed && cudaEventRecord(timed, (cudaStream_t)stream) != cudaSuccess)
        cudaGetLastError(); /* the product ran; that shape is timed on a later call */
    return TCSPMM_SUCCESS;
}

/* Whether a call with a 16-bit B or C (types b and c) on an auto plan, whose
 * shape was not measured faster on HRPB (runs_hrpb), is one that
 * path_trial_typed times both ways: the HRPB kernel takes B and C as they
 * are, and the product through their float copies (whose beta is 0 where
 * C is copied) has a shape measured faster on cuSPARSE. */
static int typed_trial(const tcspmm_plan *plan, int64_t n, const void *dB, tcspmm_datatype b,
                       int64_t ldb, float beta, tcspmm_datatype c, tcspmm_layout layout)
{
    return plan->info.path == TCSPMM_PATH_AUTO && (b != TCSPMM_R_32F || c != TCSPMM_R_32F) &&
           reads_b_directly(plan, 1, b, dB, ldb, layout) && writes_c_directly(plan, 1, b, c) &&
           path_trial_lookup(&plan->trial, n, layout, c != TCSPMM_R_32F ? 0.0f : beta, 1) ==
               TCSPMM_PATH_CUSPARSE;
}

/* *p = bytes of float scratch from the plan's pool, in stream order. */
static tcspmm_status scratch_alloc(tcspmm_plan *plan, float **p, size_t bytes, cudaStream_t stream)
{
    *p = NULL;
    if (!plan->scratch) plan->scratch = device_keeping_pool();
    if (!plan->scratch)
        return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED,
                           "tcspmm_spmm_ex: a 16-bit B or C on the %s path goes through float "
                           "scratch, which needs a GPU with stream-ordered memory pools",
                           tcspmm_path_name(plan->info.path));
    return TCSPMM_CUDA(cudaMallocFromPoolAsync((void **)p, bytes ? bytes : 4, plan->scratch, stream));
}

/* The product with B and C of their types, on HRPB where hrpb, else on the
 * plan's path. Where the plan's kernels do not take one as it is
 * (reads_b_directly, writes_c_directly), such a B is widened into packed
 * float scratch (exact: every bf16 and fp16 value is a TF32 value), the
 * product goes into float scratch for such a C, and C = that + beta * C is
 * then rounded to C's type to nearest even once. The scratch is freed in
 * stream order. */
static tcspmm_status typed_product_on(tcspmm_plan *plan, int hrpb, int64_t n, float alpha,
                                      const void *dB, tcspmm_datatype b_type, int64_t ldb,
                                      float beta, void *dC, tcspmm_datatype c_type, int64_t ldc,
                                      tcspmm_layout layout, void *stream)
{
    const int b_code = data_code(b_type), c_code = data_code(c_type);
    const int row_major = layout == TCSPMM_LAYOUT_ROW_MAJOR;
    const int64_t rows = plan->info.rows, cols = plan->info.cols;
    const int64_t ldb32 = row_major ? n : cols > 1 ? cols : 1, ldc32 = row_major ? n : rows;
    const int wide_b = !reads_b_directly(plan, hrpb, b_type, dB, ldb, layout) && cols > 0;
    const int wide_c = !writes_c_directly(plan, hrpb, wide_b ? TCSPMM_R_32F : b_type, c_type);
    /* The call's shape chooses an auto plan's path: the product's beta is 0
     * where C goes through a copy, another shape, and an operand passed on
     * in 16 bits must not reach a measurement, which races float operands. */
    const tcspmm_path path = hrpb ? TCSPMM_PATH_HRPB : plan->info.path;
    cudaStream_t s = (cudaStream_t)stream;
    float *B32 = NULL, *C32 = NULL;
    tcspmm_status st = TCSPMM_SUCCESS;
    if (wide_b) {
        st = scratch_alloc(plan, &B32, (size_t)cols * (size_t)n * sizeof(float), s);
        if (!st)
            st = dense_add_converted(dB, b_code, ldb, B32, SP24_DATA_FP32, ldb32, cols, n,
                                     row_major, 0.0f, s);
    }
    if (!st && wide_c) st = scratch_alloc(plan, &C32, (size_t)rows * (size_t)n * sizeof(float), s);
    if (!st)
        st = product(plan, path, n, alpha, B32 ? B32 : dB, B32 ? SP24_DATA_FP32 : b_code,
                     B32 ? ldb32 : ldb, C32 ? 0.0f : beta, C32 ? C32 : dC,
                     C32 ? SP24_DATA_FP32 : c_code, C32 ? ldc32 : ldc, layout, stream);
    if (!st && C32)
        st = dense_add_converted(C32, SP24_DATA_FP32, ldc32, dC, c_code, ldc, rows, n, row_major,
                                 beta, s);
    const tcspmm_status freed_b = B32 ? TCSPMM_CUDA(cudaFreeAsync(B32, s)) : TCSPMM_SUCCESS;
    const tcspmm_status freed_c = C32 ? TCSPMM_CUDA(cudaFreeAsync(C32, s)) : TCSPMM_SUCCESS;
    return st ? st : freed_b ? freed_b : freed_c;
}

/* typed_product_on, on HRPB where the call's shape runs it (runs_hrpb) or
 * where path_trial_typed says so for a call it times both ways
 * (typed_trial). Where HRPB cannot take the 16-bit operands as they are
 * (no room for a 16-bit C's split sums, or making room while the stream
 * is captured), the call goes through the copies instead, and is not
 * timed. */
static tcspmm_status typed_product(tcspmm_plan *plan, int64_t n, float alpha, const void *dB,
                                   tcspmm_datatype b_type, int64_t ldb, float beta, void *dC,
                                   tcspmm_datatype c_type, int64_t ldc, tcspmm_layout layout,
                                   void *stream)
{
    cudaEvent_t timed = NULL; /* recorded after the whole product (path_trial_typed) */
    int hrpb = runs_hrpb(plan, n, layout, beta);
    if (!hrpb && typed_trial(plan, n, dB, b_type, ldb, beta, c_type, layout)) {
        tcspmm_path way;
        TCSPMM_TRY(path_trial_typed_pick(&plan->trial, n, layout, beta, c_type != TCSPMM_R_32F,
                                         stream, &way, &timed));
        hrpb = way == TCSPMM_PATH_HRPB;
    }
    tcspmm_status st = typed_product_on(plan, hrpb, n, alpha, dB, b_type, ldb, beta, dC, c_type,
                                        ldc, layout, stream);
    if (hrpb && c_type != TCSPMM_R_32F &&
        (st == TCSPMM_ERROR_DEVICE_OUT_OF_MEMORY || st == TCSPMM_ERROR_UNSUPPORTED)) {
        tcspmm_clear_error();
        cudaGetLastError(); /* a failed allocation's */
        timed = NULL;       /* its stop left unrecorded: that way is timed again later */
        st = typed_product_on(plan, 0, n, alpha, dB, b_type, ldb, beta, dC, c_type, ldc, layout,
                              stream);
    }
    if (!st && timed && cudaEventRecord(timed, (cudaStream_t)stream) != cudaSuccess)
        cudaGetLastError(); /* the product ran; a later call of its way is timed */
    return st;
}

/* tcspmm_spmm and tcspmm_spmm_ex, whose messages name fn. */
static tcspmm_status spmm_typed(const char *fn, tcspmm_plan *plan, int64_t n, float alpha,
                                const void *dB, tcspmm_datatype b_type, int64_t ldb, float beta,
                                void *dC, tcspmm_datatype c_type, int64_t ldc,
                                tcspmm_layout layout, void *stream)
{
    tcspmm_clear_error();
    const int eb = type_bytes(b_type), ec = type_bytes(c_type);
    if (!eb || !ec)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "%s: B type %d, C type %d: unknown element type", fn, (int)b_type,
                           (int)c_type);
    TCSPMM_TRY(check_args(fn, plan, n, alpha, dB, eb, ldb, beta, dC, ec, ldc, layout));
    if (plan->device < 0)
        return tcspmm_fail(TCSPMM_ERROR_NO_DEVICE, "%s: the plan has no GPU (%s); "
                           "use tcspmm_spmm_host", fn, plan->path_reason);
    if (plan->info.path == TCSPMM_PATH_CPU)
        return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED,
                           "%s: the plan is on the cpu path; use tcspmm_spmm_host", fn);
    if (n == 0 || plan->info.rows == 0) return call_scope_check_pending(fn);
    call_scope scope;
    TCSPMM_TRY(call_scope_open(&scope, plan->device, fn));
    const int adds = alpha != 0.0f && plan->info.nnz > 0; /* else B is not read */
    tcspmm_status st = check_operands(fn, plan, dB, dC, adds);
    if (!st && !adds)
        st = dense_scale(dC, data_code(c_type), plan->info.rows, n, ldc,
                         layout == TCSPMM_LAYOUT_ROW_MAJOR, beta, stream);
    else if (!st)
        st = typed_product(plan, n, alpha, dB, b_type, ldb, beta, dC, c_type, ldc, layout, stream);
    call_scope_leave(&scope);
    return st;
}

tcspmm_status tcspmm_spmm(tcspmm_plan *plan, int64_t n, float alpha, const float *dB,
                          int64_t ldb, float beta, float *dC, int64_t ldc,
                          tcspmm_layout layout, void *stream)
{
    return spmm_typed("tcspmm_spmm", plan, n, alpha, dB, TCSPMM_R_32F, ldb, beta, dC,
                      TCSPMM_R_32F, ldc, layout, stream);
}

tcspmm_status tcspmm_spmm_ex(tcspmm_plan *plan, int64_t n, float alpha, const void *dB,
                             tcspmm_datatype b_type, int64_t ldb, float beta, void *dC,
                             tcspmm_datatype c_type, int64_t ldc, tcspmm_layout layout,
                             void *stream)
{
    return spmm_typed("tcspmm_spmm_ex", plan, n, alpha, dB, b_type, ldb, beta, dC, c_type, ldc,
                      layout, stream);
}

/* C = beta * C on the host, C not read where beta is 0. */
static void scale_host(float *C, int64_t rows, int64_t n, int64_t ldc, tcspmm_layout layout,
                       float beta)
{
    if (beta == 1.0f) return;
    const int row_major = layout == TCSPMM_LAYOUT_ROW_MAJOR;
    const int64_t outer = row_major ? rows : n, inner = row_major ? n : rows;
#pragma omp parallel for schedule(static)
    for (int64_t o = 0; o < outer; o++)
        for (int64_t i = 0; i < inner; i++)
            C[o * ldc + i] = beta == 0.0f ? 0.0f : beta * C[o * ldc + i];
}

/* tcspmm_spmm_host's product for a plan that keeps A on the device only:
 * A copied back for it, with the plan's device current. */
static tcspmm_status host_product_of_device_copy(const tcspmm_plan *plan, int64_t n, float alpha,
                                                 const float *B, int64_t ldb, float beta,
                                                 float *C, int64_t ldc, tcspmm_layout layout)
{
    tcspmm_status st;
    if (plan->info.path == TCSPMM_PATH_HRPB) {
        hrpb h;
        TCSPMM_TRY(hrpb_gpu_download(plan->hrpb_dev, &plan->hrpb, &h));
        st = hrpb_spmm_cpu(&h, n, alpha, B, ldb, beta, C, ldc, layout);
        hrpb_free(&h);
    } else {
        tcspmm_csr A;
        if (plan->info.path == TCSPMM_PATH_SPARSE24) /* values as held: rounded */
            TCSPMM_TRY(sp24_gpu_download_entries(plan->sp24_dev, &plan->sp24_pattern, &A));
        else TCSPMM_TRY(cusparse_path_download(plan->cusparse, &A));
        st = cpu_spmm(&A, n, alpha, B, ldb, beta, C, ldc, layout);
        tcspmm_csr_free(&A);
    }
    return st;
}

tcspmm_status tcspmm_spmm_host(const tcspmm_plan *plan, int64_t n, float alpha, const float *B,
                               int64_t ldb, float beta, float *C, int64_t ldc,
                               tcspmm_layout layout)
{
    tcspmm_clear_error();
    TCSPMM_TRY(check_args("tcspmm_spmm_host", plan, n, alpha, B, 4, ldb, beta, C, 4, ldc, layout));
    if (n == 0 || plan->info.rows == 0) return TCSPMM_SUCCESS;
    if (plan->device >= 0) { /* a machine with a GPU: refuse its memory */
        const char *instead = "use tcspmm_spmm for device arrays";
        if (plan->info.cols > 0) TCSPMM_TRY(check_host_pointer(B, "tcspmm_spmm_host: B", instead));
        TCSPMM_TRY(check_host_pointer(C, "tcspmm_spmm_host: C", instead));
    }
    if (alpha == 0.0f || plan->info.nnz == 0) { /* A*B adds nothing: B is not read */
        scale_host(C, plan->info.rows, n, ldc, layout, beta);
        return TCSPMM_SUCCESS;
    }
    if (plan->A.row_ptr) return cpu_spmm(&plan->A, n, alpha, B, ldb, beta, C, ldc, layout);
    call_scope scope;
    TCSPMM_TRY(call_scope_open(&scope, plan->device, "tcspmm_spmm_host"));
    tcspmm_status st = host_product_of_device_copy(plan, n, alpha, B, ldb, beta, C, ldc, layout);
    call_scope_leave(&scope);
    return st;
}
