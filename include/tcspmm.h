/* tcspmm.h: the public C API of tcspmm, sparse x dense matrix products
 * (C = alpha*A*B + beta*C) on NVIDIA tensor cores, with cuSPARSE and an
 * OpenMP CPU path behind the same plan/execute calls.
 *
 * Every call returns a tcspmm_status. When it is not TCSPMM_SUCCESS,
 * tcspmm_last_error() gives a message for the calling thread that says what
 * failed and where (file:line for Matrix Market parse errors).
 *
 * A call that works on a GPU (plan creation where there is one,
 * tcspmm_spmm, tcspmm_plan_set_values, tcspmm_spmm_host on a device plan,
 * tcspmm_csr_transpose_device) first looks for a CUDA error already pending on the calling thread (one
 * cudaGetLastError has not read, or a fault of earlier work): if there is
 * one, it does nothing and returns TCSPMM_ERROR_CUDA naming it, and leaves
 * the error for the caller to read. */
#ifndef TCSPMM_H
#define TCSPMM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TCSPMM_VERSION_MAJOR 0
#define TCSPMM_VERSION_MINOR 1
#define TCSPMM_VERSION_PATCH 0

typedef enum tcspmm_status {
    TCSPMM_SUCCESS = 0,
    TCSPMM_ERROR_INVALID_ARGUMENT = 1, /* a null pointer, a bad size or option */
    TCSPMM_ERROR_INVALID_MATRIX = 2,   /* CSR arrays inconsistent, NaN/Inf values */
    TCSPMM_ERROR_IO = 3,               /* a file could not be opened, read or written */
    TCSPMM_ERROR_PARSE = 4,            /* malformed Matrix Market input */
    TCSPMM_ERROR_UNSUPPORTED = 5,      /* valid input this library does not handle */
    TCSPMM_ERROR_OVERFLOW = 6,         /* a size that does not fit the index types */
    TCSPMM_ERROR_HOST_OUT_OF_MEMORY = 7,
    TCSPMM_ERROR_NO_DEVICE = 8,        /* no usable CUDA device */
    TCSPMM_ERROR_DEVICE_OUT_OF_MEMORY = 9,
    TCSPMM_ERROR_CUDA = 10,            /* any other CUDA runtime error */
    TCSPMM_ERROR_CUSPARSE = 11         /* a cuSPARSE call failed */
} tcspmm_status;

/* A short fixed name for a status ("TCSPMM_ERROR_PARSE", ...). */
const char *tcspmm_status_string(tcspmm_status status);

/* The message of the last failed call on this thread ("" if none). The
 * pointer stays valid until the next tcspmm call on the same thread. */
const char *tcspmm_last_error(void);

/* ------------------------------------------------------------------ */
/* Host CSR matrix: 0-based, each row's column indices strictly increasing
 * (no duplicates: the reader sums them, and plans refuse a CSR that has
 * any). */
typedef struct tcspmm_csr {
    int64_t rows;
    int64_t cols;     /* at most 2^31 - 1 */
    int64_t nnz;
    int64_t *row_ptr; /* rows + 1 entries */
    int32_t *col_idx; /* nnz entries */
    float *values;    /* nnz entries */
} tcspmm_csr;

/* Reads a Matrix Market file (.mtx, .mtx.gz, or "-" for standard input)
 * into a freshly allocated CSR. Symmetric and skew-symmetric files are
 * expanded: every off-diagonal entry, in either triangle, is mirrored, so a
 * file that gives both (i, j) and (j, i) gets their sum in both places.
 * Pattern entries become 1.0, duplicates are summed (an error, naming the
 * entry, where a sum overflows float32), explicit zeros are kept. Zero bytes
 * after gzip data are taken as padding. Uses OpenMP threads
 * (omp_get_max_threads()). */
tcspmm_status tcspmm_read_mtx(const char *path, tcspmm_csr *out);

/* Writes a CSR as "coordinate real general" (.gz appended to the name
 * compresses; "-" writes to standard output). */
tcspmm_status tcspmm_write_mtx(const char *path, const tcspmm_csr *A);

/* Frees the arrays of a CSR filled by this library and zeroes it. */
void tcspmm_csr_free(tcspmm_csr *A);

/* Checks a caller-built CSR: sizes, monotone row_ptr, column indices in
 * range and sorted within each row, finite values. */
tcspmm_status tcspmm_csr_validate(const tcspmm_csr *A);

/* *out = A^T, a freshly allocated CSR (on the host, with OpenMP threads),
 * for products with the transpose: a GNN's backward pass multiplies by A^T,
 * so make a second plan from it once. A must pass tcspmm_csr_validate and
 * have at most 2^31 - 1 rows (they become A^T's column indices); out must
 * not be A. */
tcspmm_status tcspmm_csr_transpose(const tcspmm_csr *A, tcspmm_csr *out);

/* tcspmm_csr_transpose for a CSR whose arrays are in GPU memory (a GNN
 * code's adjacency matrix), on the current GPU, whose memory they must be
 * in: *out = A^T in freshly allocated device arrays (free them with
 * tcspmm_csr_free_device), the same arrays tcspmm_csr_transpose would give.
 * source, when not NULL, is a device array of nnz entries that gets, for
 * each entry j of A^T, the entry of A it came from: out->values[j] = A->values[source[j]], so new values of A (a plan
 * made with opt.updatable_values) map onto A^T by one gather. A is checked
 * on the device as tcspmm_plan_create_device checks it; rows and nnz must
 * be below 2^31 - 1; out must not be A. Synchronous, on the legacy default
 * stream: work that writes A on a non-blocking stream must have finished. */
tcspmm_status tcspmm_csr_transpose_device(const tcspmm_csr *A, tcspmm_csr *out, int32_t *source);

/* Frees the device arrays of a CSR from tcspmm_csr_transpose_device and
 * zeroes it. NULL is allowed. */
void tcspmm_csr_free_device(tcspmm_csr *A);

/* ------------------------------------------------------------------ */
typedef enum tcspmm_layout {
    TCSPMM_LAYOUT_ROW_MAJOR = 0, /* element (i, j) at i*ld + j */
    TCSPMM_LAYOUT_COL_MAJOR = 1  /* element (i, j) at j*ld + i */
} tcspmm_layout;

typedef enum tcspmm_path {
    TCSPMM_PATH_AUTO = 0,     /* chosen per matrix at plan time, or measured (tcspmm_info.path) */
    TCSPMM_PATH_CUSPARSE = 1, /* cusparseSpMM on CSR */
    TCSPMM_PATH_HRPB = 2,     /* the tensor-core kernel on HRPB (TF32, or 3xTF32 for FP32) */
    TCSPMM_PATH_SPARSE24 = 3, /* mma.sp on 2:4 / 1:2 structured matrices */
    TCSPMM_PATH_CPU = 4       /* OpenMP on the host (tcspmm_spmm_host only) */
} tcspmm_path;

/* BF16 and FP16 round to nearest even. A value of A that would round to
 * infinity is refused; an element of B rounds as it falls, so in FP16 a B
 * element of magnitude 65520 or more becomes infinite, and in TF32 one of
 * 3.40199e38 or more. FP32 (3xTF32) splits each operand into a TF32 part
 * and a TF32 rest: it is FP32-accurate where A's values and B's elements
 * are at least 2^-115 (about 2.4e-35) in magnitude; below that the rest
 * falls into TF32's subnormal range and the error grows toward TF32's
 * (about 2e-4 relative at 2^-125, measured on an H200). */
typedef enum tcspmm_precision {
    TCSPMM_PRECISION_TF32 = 0, /* default: tensor cores in TF32 */
    TCSPMM_PRECISION_FP32 = 1, /* FP32-accurate (3xTF32 on tensor cores) */
    TCSPMM_PRECISION_BF16 = 2, /* values and B rounded to bf16 */
    TCSPMM_PRECISION_FP16 = 3  /* values and B rounded to fp16 */
} tcspmm_precision;

/* The order of A's rows in the HRPB panels. Clustering puts rows that share
 * columns into the same panel, so each panel has fewer active columns (fewer
 * rows of B to gather, fewer bricks): with row-major B and C the HRPB kernel
 * ran faster on most matrices measured (with column-major C it can be much
 * slower: a panel's rows land scattered across each column), and the plan
 * takes longer (a greedy pass on the host over the whole matrix, in chunks
 * of 2^17 rows: 30-250 ns per non-zero on 17 of 18 matrices measured, 1.2 us
 * on one whose rows share many columns; a plan from device arrays first
 * copies A to the host for it; see README). C keeps A's row order either
 * way. */
typedef enum tcspmm_row_order {
    TCSPMM_ROW_ORDER_NATURAL = 0,  /* default: A's own order */
    TCSPMM_ROW_ORDER_CLUSTERED = 1 /* clustered, where that gives fewer active columns */
} tcspmm_row_order;

typedef struct tcspmm_options {
    tcspmm_path path;           /* default TCSPMM_PATH_AUTO */
    tcspmm_precision precision; /* default TCSPMM_PRECISION_TF32 */
    int panel_rows;             /* HRPB rows per panel, 16 (default) or 32 */
    int64_t expected_n;         /* N the plan is tuned for (default 128; 1 to 2^31) */
    int num_sms;                /* 0: read from the device (else 132) */
    int blocks_per_sm;          /* 0: from the kernel's occupancy (else 4) */
    int host_threads;           /* OpenMP threads for plan creation and set_values,
                                   at most 4096; 0: the calling thread's OpenMP setting */
    int device;                 /* CUDA device ordinal; -1: the current one */
    tcspmm_row_order row_order; /* HRPB's row order; default TCSPMM_ROW_ORDER_NATURAL */
    int rule_only;              /* auto path: 1 = the plan-time rule alone decides;
                                   0 (default) = where the rule is unsure, the plan times
                                   HRPB against cuSPARSE per shape of call (tcspmm_info) */
    int measure_at_first_call;  /* such a plan measures a shape: 0 (default) = once its
                                   calls, run on HRPB until then, have cost about what
                                   measuring costs (50 ms and 32 products; a short solve
                                   never does); 1 = at its first call (benchmarks: the
                                   choice a long run ends with) */
    int updatable_values;       /* 1: tcspmm_plan_set_values may give A new values later
                                   (an HRPB plan then keeps the source entry of each of its
                                   values: 4 more bytes per entry and 8 per HRPB block on the
                                   device; A's structure (info.structure) then counts every
                                   entry of its pattern, zero or not, so no new values can
                                   break it, and a sparse24 plan keeps the pattern on the
                                   device: 4 more bytes per entry and 8 per row);
                                   0 (default): not */
    int reserved[12];           /* zero (else TCSPMM_ERROR_INVALID_ARGUMENT); room for
                                   later options */
} tcspmm_options;

/* Fills *opt with the defaults above. */
void tcspmm_options_init(tcspmm_options *opt);

typedef struct tcspmm_plan tcspmm_plan;

/* Does all preprocessing and the upload once. A is copied (to the device
 * for the GPU paths); the caller may free it afterwards. opt may be NULL for
 * the defaults. This call and every call on the plan run on the plan's GPU
 * (opt.device) and leave the caller's current device as it was. With no
 * usable GPU the plan is still made, runs on the CPU path only, and says so
 * in info. With a GPU, A's entries are validated and HRPB is built there
 * (rows and nnz below 2^31 - 1; else on the host). A value of magnitude
 * 3.40199e38 or more (within 2^-12 of FLT_MAX) would become Inf in the HRPB
 * kernel's TF32 rounding: an HRPB plan refuses it (TCSPMM_ERROR_UNSUPPORTED)
 * and an auto plan takes cuSPARSE; likewise an auto plan of a structured
 * matrix whose values overflow the requested 16-bit or tf32 precision does
 * not take the sparse24 path. */
tcspmm_status tcspmm_plan_create(const tcspmm_csr *A, const tcspmm_options *opt,
                                 tcspmm_plan **plan);

/* tcspmm_plan_create for a matrix already in GPU memory: A's row_ptr,
 * col_idx and values are device pointers (sizes as in a host CSR) of the
 * plan's device or managed memory (another device's are refused,
 * TCSPMM_ERROR_INVALID_ARGUMENT, as are B, C and new values there). A is
 * copied on the device, validated and built into HRPB there; the caller may
 * free it afterwards. Needs a GPU (TCSPMM_ERROR_NO_DEVICE otherwise) and
 * rows and nnz below 2^31 - 1. The cpu and sparse24 paths (which compresses
 * on the host) and clustered rows download A once; the cuSPARSE path keeps the device
 * copy and downloads only row_ptr. A is read on the legacy default stream:
 * work that writes it on a non-blocking stream must have finished. */
tcspmm_status tcspmm_plan_create_device(const tcspmm_csr *A, const tcspmm_options *opt,
                                        tcspmm_plan **plan);

/* C = alpha*A*B + beta*C on device pointers (the plan's device): A is
 * rows x cols, B is cols x n and C is rows x n, both in the given layout
 * with leading dimensions ldb and ldc. B and C must not share an element
 * (else TCSPMM_ERROR_INVALID_ARGUMENT; they may be column blocks of one
 * row-major matrix, or row blocks of one column-major one). alpha and beta
 * must be finite (else TCSPMM_ERROR_INVALID_ARGUMENT). Enqueued on stream (a
 * cudaStream_t; NULL is the legacy default stream); returns once the work is
 * enqueued. beta == 0 means C is not read (it may hold NaN). Where alpha ==
 * 0 or A has no entries, C = beta*C and B is not read, as in BLAS. A plan
 * on the cpu path answers TCSPMM_ERROR_NO_DEVICE where it has no GPU, else
 * TCSPMM_ERROR_UNSUPPORTED. Safe to call
 * many times, one call at a time per plan (a plan keeps state across calls:
 * workspaces and measured choices, which tcspmm_plan_path_for reads too);
 * use one plan per host thread that multiplies concurrently. Calls of one plan enqueued on
 * different streams must not run on the GPU at the same time: the cuSPARSE
 * path's workspaces and the sparse24 path's packed B are the plan's, shared
 * by its calls (order the streams, or use one plan per stream). On the
 * HRPB path a column-major B with n > 3 is first transposed into scratch
 * from a memory pool the plan keeps (cols x n floats, n rounded up to 4, at
 * the largest n so far; stream-ordered; freed with the plan), so calls that
 * synchronize in between do not map it again; where the device has no room
 * for it, B is read where it lies (slower), as it always is at n <= 3
 * (faster there on most matrices measured). A column-major C is written
 * fastest with ldc a multiple of 8 and C 32-byte aligned: on an H200 at
 * n = 128, a column-major product (B's transpose included) with ldc not a
 * multiple of 8 took 1.16x the time of one with ldc a multiple of 8 on a
 * 1M-row 2D Laplacian and about 1.23x on cnr-2000 (1.35x and 1.50x before
 * 4d576e5).
 * Where the device has no room to time
 * cuSPARSE's algorithms, a cuSPARSE-path call runs ALG_DEFAULT untimed and
 * a later call of that shape times them.
 * CUDA graphs: after one call outside a capture with the same n, layout,
 * ldb, ldc, B and C (the first call of a shape may allocate scratch, and
 * on the cuSPARSE path it times cuSPARSE's algorithms), the call can be
 * captured on a stream into a graph; each launch of the graph then reads B
 * and writes C through those pointers (tests/gpu_graph.c). A measured auto
 * plan neither times nor measures while capturing: a shape not measured
 * yet is captured on HRPB. On the cuSPARSE path a graph uses the workspace
 * and preprocessing of the algorithm it captured: while it is launched,
 * make no direct calls on the plan with another n, ldb, ldc or layout (they
 * may preprocess again into that workspace, or grow it). On the sparse24
 * path a graph keeps the packed copy of B it captured (freed with the plan)
 * when a direct call of a larger n needs a bigger one, so direct calls of
 * any n may come between its launches. Each call (and
 * tcspmm_plan_set_values) runs with the calling thread's capture mode
 * relaxed, so the allocations and synchronizations of a first call on a
 * stream that is not capturing leave another stream's capture intact.
 * Non-finite B: a NaN in B gives NaN in the rows of C whose A rows touch it
 * on every path. The tensor-core paths multiply A's structural zeros inside
 * a panel's blocks too, so an Inf or NaN in a row of B can reach rows of C
 * whose A rows do not touch that row (the cuSPARSE path keeps IEEE
 * semantics per non-zero). In TF32 mode a B element of magnitude
 * 3.40199e38 or more rounds to an infinity, with the same effect. In FP32
 * mode (3xTF32) an Inf in B, or a B element of magnitude 3.40199e38 or
 * more, can give NaN where FP32 arithmetic gives an infinity or a finite
 * value: its TF32 parts are an infinity and what is left of it. */
tcspmm_status tcspmm_spmm(tcspmm_plan *plan, int64_t n, float alpha, const float *dB,
                          int64_t ldb, float beta, float *dC, int64_t ldc,
                          tcspmm_layout layout, void *stream);

/* Element types of B and C for tcspmm_spmm_ex. */
typedef enum tcspmm_datatype {
    TCSPMM_R_32F = 0,  /* float */
    TCSPMM_R_16BF = 1, /* bfloat16 bit patterns */
    TCSPMM_R_16F = 2   /* IEEE half bit patterns */
} tcspmm_datatype;

/* tcspmm_spmm with B of element type b_type and C of c_type, any of the
 * three on any plan with a GPU (a type outside tcspmm_datatype:
 * TCSPMM_ERROR_INVALID_ARGUMENT). A 16-bit C is worked out in float
 * (alpha * sum + beta * C, C read as 16-bit) and rounded to nearest even
 * once, as it is stored; a 16-bit B is read exactly (every bf16 and fp16
 * value is a TF32 value), so the error is the plan's precision's.
 * A plan on the sparse24 path with precision BF16 reads and writes
 * TCSPMM_R_16BF, one with FP16 TCSPMM_R_16F, as they are: that halves B's
 * and C's traffic, which matters most where n is large. On an H100, such a
 * B whose address is a multiple of 16 bytes and ldb of 8 is read in place
 * (any other B is first copied into a packed buffer of the plan). An HRPB
 * plan in TF32 reads a row-major 16-bit B whose address is a multiple of 8
 * bytes and ldb a multiple of 4 as it is, widening it to TF32 in the kernel
 * (fastest at a multiple of 16 bytes and ldb of 8), and with such a B also
 * writes a C of the same type as it is (the parts of split panels add into
 * float sums of their rows that the plan keeps, split panels x 16 or 32 x
 * n floats from the first call wider than any before, and the last part of
 * each panel rounds them into C; a call that would have to make that room
 * while its stream is captured, or finds no room, goes through the float
 * copies below instead); so does an auto plan on the shapes of call its measurement found
 * faster on HRPB, and on shapes it found faster on cuSPARSE it times such
 * calls both ways as they run (of the first four calls of a shape, two
 * through the float copies below, on cuSPARSE, and two on HRPB, the second
 * of each timed) and keeps the faster per column from then on;
 * tcspmm_plan_path_for answers the float measurement's path. Every other
 * plan and shape, and
 * every other B and C, goes through float copies: a 16-bit B is widened into
 * a packed float copy first and the product goes into a float copy of C,
 * which is then rounded into C; the copies come from a memory pool of the
 * plan (made at the first such call, on GPUs with stream-ordered pools; it
 * keeps the memory it has held, 4 bytes per element of the largest B and C,
 * until the plan is destroyed) and cost a pass over each. */
tcspmm_status tcspmm_spmm_ex(tcspmm_plan *plan, int64_t n, float alpha, const void *dB,
                             tcspmm_datatype b_type, int64_t ldb, float beta, void *dC,
                             tcspmm_datatype c_type, int64_t ldc, tcspmm_layout layout,
                             void *stream);

/* The same product on host arrays, with OpenMP, accumulating in float64.
 * A plan on the HRPB or cuSPARSE path, or on the sparse24 path with
 * updatable values, keeps A on the device only, so there each call first
 * copies the matrix back: a check, not a fast path. On the sparse24 path
 * an updatable plan's values come back rounded to its precision, as its
 * kernels use them; other sparse24 plans keep A's fp32 values on the host
 * and use those. B and C in device memory: TCSPMM_ERROR_INVALID_ARGUMENT. */
tcspmm_status tcspmm_spmm_host(const tcspmm_plan *plan, int64_t n, float alpha,
                               const float *B, int64_t ldb, float beta, float *C,
                               int64_t ldc, tcspmm_layout layout);

/* What the plan found and chose. Strings point into the plan. */
typedef struct tcspmm_info {
    int64_t rows, cols, nnz;
    tcspmm_path path;           /* the path tcspmm_spmm runs; TCSPMM_PATH_AUTO: measured.
                                   There the plan keeps A both for HRPB and for cuSPARSE.
                                   Per shape of call (n in 1, 2, 3, 4, 5-8, ..., 65-128,
                                   129-256, ...; layout; beta zero or not) it runs HRPB
                                   until the shape's calls have cost about what measuring
                                   does (or measures at the first call:
                                   measure_at_first_call), then times the HRPB kernel and
                                   cuSPARSE's algorithms (about 30 products, L2 flushed, on
                                   a scratch C) and keeps the faster for that shape
                                   (tcspmm_plan_path_for) */
    const char *path_reason;    /* why that path */
    tcspmm_precision precision; /* the arithmetic the path really uses */
    int has_gpu;
    const char *device_name;    /* "" without a GPU */
    int num_sms, blocks_per_sm; /* as used by load balancing */
    const char *structure;      /* "2:4", "1:2" or "none" */
    /* HRPB and synergy metrics (zero when HRPB was not built) */
    int panel_rows;
    int64_t panels, blocks, bricks;
    double alpha, beta, brick_density, oi_shared;
    const char *synergy;        /* "low", "medium", "high" or "" */
    int64_t hrpb_bytes, csr_bytes;
    int64_t blocks_per_panel_min, blocks_per_panel_median, blocks_per_panel_max;
    int64_t virtual_panels, split_panels;
    double waves;
    const char *row_order;      /* "natural" or "clustered": the order HRPB was built in */
    int64_t active_cols_natural, active_cols_clustered; /* summed over panels; 0 if not clustered */
    double row_order_ms;        /* the clustering on the host (0 if not asked for) */
    double preprocess_ms;       /* HRPB build (on the GPU when there is one), metrics, splitting */
    double upload_ms;           /* copies to the device (the CSR before a GPU build included) */
} tcspmm_info;

tcspmm_status tcspmm_plan_info(const tcspmm_plan *plan, tcspmm_info *info);

/* *path = the path a tcspmm_spmm call of this n, layout and beta runs:
 * info.path, or on a measured plan the path measured for that shape (its
 * range of n, layout and beta zero or not; TCSPMM_PATH_AUTO until it is
 * measured, while its calls run HRPB). That is the path for B and C that
 * cuSPARSE's CSR_ALG3 may run on (16-byte-aligned, ldb and ldc divisible
 * by 4), while the plan still takes CSR_ALG3 (it gives it up when B or C
 * keep changing); without CSR_ALG3 a shape may run HRPB instead. n < 0, an
 * unknown layout or a beta that is not finite: TCSPMM_ERROR_INVALID_ARGUMENT,
 * as tcspmm_spmm. */
tcspmm_status tcspmm_plan_path_for(const tcspmm_plan *plan, int64_t n, tcspmm_layout layout,
                                   float beta, tcspmm_path *path);

/* Gives the plan's matrix new values, keeping its pattern: values holds nnz
 * floats in the order of the CSR the plan was made from, in host or device
 * memory. The plan must have been made with opt.updatable_values = 1. The
 * path and its measured choices stay as they are (a pattern's speed does not
 * depend on its values), and the plan's arrays stay where they are, so CUDA
 * graphs captured earlier see the new values (the cuSPARSE path keeps
 * cuSPARSE's preprocessing, which does not depend on the values).
 * First every value is checked finite (else TCSPMM_ERROR_INVALID_MATRIX,
 * naming the first bad index, and the plan keeps its values), and on the
 * sparse24 path below the magnitude its precision rounds to infinity
 * (65520 for fp16), where the plan runs HRPB below the magnitude its TF32
 * rounding does (3.40199e38, within 2^-12 of FLT_MAX; else
 * TCSPMM_ERROR_UNSUPPORTED, the same way): device
 * values by a kernel on stream (a cudaStream_t; NULL: the legacy default
 * stream), which the call then synchronizes; host values on the host, or,
 * where they go through the plan's page-locked buffers (below), by that
 * kernel on a stream of the plan's once they are in its device buffer.
 * Then the update is enqueued on stream: products enqueued later on stream
 * use the new values. Products and updates of this plan in flight on other
 * streams must have finished. Device values are read on stream:
 * keep them until it gets there. Host values go through a device buffer
 * the plan keeps (4 bytes per entry, allocated at the first update from
 * host memory); pageable values of 8 MB or more (2^21 entries) also
 * through three page-locked host buffers of 2, 4 or 8 MB that the plan
 * keeps from its first such update, 6 to 24 MB of locked memory per plan
 * (where the device can page-lock host memory). The call
 * returns once the update is done: it waits for stream only (the legacy
 * default stream, NULL, also waits for the other blocking streams).
 * tcspmm_spmm_host reads the plan on the legacy stream: synchronize stream
 * before calling it after a device-value update. A CUDA error after the
 * checks (TCSPMM_ERROR_CUDA or out of memory) may leave the plan's copies
 * of A (one per path it keeps) with different values: set the values again
 * before the next product.
 * Cost on the device: the check reads the values; HRPB then gathers them
 * into place (reading each value's source entry); the sparse24 path rounds
 * them and writes each to its place, found from the pattern; the cuSPARSE
 * and cpu paths copy them. */
tcspmm_status tcspmm_plan_set_values(tcspmm_plan *plan, const float *values, void *stream);

/* Frees the plan and its device memory, also with a CUDA error pending,
 * which it leaves for the caller to read. NULL is allowed. */
tcspmm_status tcspmm_plan_destroy(tcspmm_plan *plan);

/* Name of a path or precision ("auto", "cusparse", "hrpb", "sparse24",
 * "cpu"; "tf32", "fp32", "bf16", "fp16"). */
const char *tcspmm_path_name(tcspmm_path path);
const char *tcspmm_precision_name(tcspmm_precision precision);

#ifdef __cplusplus
}
#endif

#endif /* TCSPMM_H */
