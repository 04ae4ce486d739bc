/* spmm_run.c: the command-line driver: reads a matrix (a Matrix Market
 * file, "-", or gen:SPEC; values that are all the same, as a pattern file's
 * ones, become seeded random ones), builds a plan, multiplies by a seeded random B,
 * and optionally checks against the float64 reference, benchmarks against
 * cuSPARSE, and prints the plan's metrics as info lines or JSON. */
#include "bench_gpu.h"
#include "families.h"
#include "record.h"
#include "reference.h"
#include "rng.h"
#include "tcspmm.h"

#include <cuda_runtime.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef TCSPMM_GIT_COMMIT
#define TCSPMM_GIT_COMMIT "unknown"
#endif

static const char *usage =
    "usage: spmm_run FILE [options]\n"
    "  FILE              a Matrix Market file (.mtx or .mtx.gz), - for standard input,\n"
    "                    or gen:SPEC for a generated matrix (see spmm_gen --help)\n"
    "  --n N             columns of B and C, 1 to 2^30 (default 128)\n"
    "  --path P          auto (default), cusparse, hrpb, sparse24 or cpu\n"
    "  --precision P     tf32 (default), fp32, bf16 or fp16\n"
    "  --layout L        row (default) or col: layout of B and C\n"
    "  --b-type T, --c-type T\n"
    "                    f32 (default), bf16 or fp16: element types of B and C in\n"
    "                    --bench's timed calls (tcspmm_spmm_ex; cuSPARSE is timed\n"
    "                    on float B and C, and so is ours once more: float_ms)\n"
    "  --alpha A         default 1; 0 or of magnitude 1e-30 to 1e30, as --beta\n"
    "  --beta B          default 0 (C starts random when beta != 0)\n"
    "  --tm T            HRPB panel rows, 16 (default) or 32\n"
    "  --row-order O     natural (default) or clustered: HRPB panels of rows that\n"
    "                    share columns (faster products, slower plan)\n"
    "  --transpose       multiply by A^T (tcspmm_csr_transpose after reading;\n"
    "                    transpose_ms)\n"
    "  --new-values      give the plan new random values (tcspmm_plan_set_values)\n"
    "                    before the product (set_values_host_ms); --check then checks\n"
    "                    them, and --bench also times the update from device memory\n"
    "                    alone (set_values_ms) and followed by one product\n"
    "                    (set_values_product_ms), and from host memory after the\n"
    "                    first (set_values_host_warm_ms)\n"
    "  --rule-only       auto path: the plan-time rule alone, never timing HRPB\n"
    "                    against cuSPARSE\n"
    "  --threads T       host threads (default: all)\n"
    "  --check           compare with the float64 CPU reference; prints\n"
    "                    'check: rel_err=X max_abs_err=Y PASS|FAIL' (exit 1 on FAIL);\n"
    "                    with --bench and --b-type or --c-type, also a call of\n"
    "                    those types (exit 1 on FAIL)\n"
    "  --bench           time the product (median of R runs after warm-up); on a GPU\n"
    "                    also the best cuSPARSE algorithm in the same run; and the\n"
    "                    median of 5 more plan creations (plan_ms_warm). A measured\n"
    "                    auto plan then measures at the first call (the choice a\n"
    "                    long run ends with; measure_at_first_call)\n"
    "  --reps R          timed runs for --bench (default 50; at least 3 are run)\n"
    "  --seed S          seed of the random B and C, 0 to 2^64-1 (default 1); also\n"
    "                    of A's values where the file's are all the same (a pattern\n"
    "                    file's ones), which become random in [-1, 1]\n"
    "  --info            print 'info: key=value' lines about the matrix and the plan\n"
    "  --json            print one JSON object with everything instead of text\n"
    "  --help            this text\n"
    "Exit status: 0 success, 1 check failed, 2 error.\n";

typedef struct args {
    const char *file;
    int64_t n;
    tcspmm_options opt;
    tcspmm_layout layout;
    tcspmm_datatype b_type, c_type;
    float alpha, beta;
    int check, bench, info, json, reps, threads, transpose, new_values;
    uint64_t seed;
} args;

static int die(const char *fmt, const char *what)
{
    fprintf(stderr, "spmm_run: ");
    fprintf(stderr, fmt, what);
    fputc('\n', stderr);
    return 2;
}

static int lib_error(const char *step, tcspmm_status st)
{
    fprintf(stderr, "spmm_run: %s: %s (%s)\n", step, tcspmm_last_error(), tcspmm_status_string(st));
    return 2;
}

/* Owns the integer options (--n, --reps, --seed, --tm, --threads): decimal
 * digits alone, the whole text, in [lo, hi] (no sign, fraction, exponent or
 * hex). Returns 1, or prints what is wrong and returns 0. */
static int parse_integer(const char *option, const char *s, uint64_t lo, uint64_t hi,
                         uint64_t *out)
{
    char *end = NULL;
    errno = 0;
    unsigned long long v = isdigit((unsigned char)s[0]) ? strtoull(s, &end, 10) : 0;
    if (end && !*end && !errno && v >= lo && v <= hi) {
        *out = v;
        return 1;
    }
    fprintf(stderr, "spmm_run: bad value '%s' for %s: want a decimal integer in [%llu, %llu]\n",
            s, option, (unsigned long long)lo, (unsigned long long)hi);
    return 0;
}

/* Owns the real options (--alpha, --beta): the whole text a number, 0 or of
 * magnitude 1e-30 to 1e30 (a float, neither rounded to 0 nor near overflow).
 * Returns 1, or prints what is wrong and returns 0. */
static int parse_real(const char *option, const char *s, double *out)
{
    char *end = NULL;
    double v = strtod(s, &end);
    if (s[0] && !isspace((unsigned char)s[0]) && !*end &&
        (v == 0.0 || (fabs(v) >= 1e-30 && fabs(v) <= 1e30))) {
        *out = v;
        return 1;
    }
    fprintf(stderr, "spmm_run: bad value '%s' for %s: want 0 or a real of magnitude 1e-30 to "
            "1e30\n", s, option);
    return 0;
}

#define COUNT(names) ((int)(sizeof names / sizeof names[0]))

static int pick(const char *s, const char *const *names, int count)
{
    for (int i = 0; i < count; i++)
        if (strcmp(s, names[i]) == 0) return i;
    return -1;
}

/* The --b-type / --c-type name of an element type. */
static const char *types_name(tcspmm_datatype t)
{
    return t == TCSPMM_R_16BF ? "bf16" : t == TCSPMM_R_16F ? "fp16" : "f32";
}

/* Returns 0 on success, else the exit status (help prints and returns -1). */
static int parse_args(int argc, char **argv, args *a)
{
    static const char *const paths[] = {"auto", "cusparse", "hrpb", "sparse24", "cpu"};
    static const char *const precisions[] = {"tf32", "fp32", "bf16", "fp16"};
    static const char *const layouts[] = {"row", "col"};
    static const char *const row_orders[] = {"natural", "clustered"};
    static const char *const types[] = {"f32", "bf16", "fp16"}; /* as tcspmm_datatype */
    static const char *const valued[] = {"--n",       "--reps",      "--seed", "--alpha",
                                         "--beta",    "--tm",        "--threads", "--path",
                                         "--precision", "--layout", "--row-order",
                                         "--b-type", "--c-type"};
    /* The integer options among valued and their ranges (--tm: the library checks 16 or 32). */
    static const char *const integers[] = {"--n", "--reps", "--seed", "--tm", "--threads"};
    static const uint64_t int_lo[] = {1, 1, 0, 1, 1};
    static const uint64_t int_hi[] = {1 << 30, 1000000, UINT64_MAX, 1024, 4096};
    memset(a, 0, sizeof *a);
    tcspmm_options_init(&a->opt);
    a->n = 128;
    a->alpha = 1.0f;
    a->reps = 50;
    a->seed = 1;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        double x = 0;
        int k;
        if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
            fputs(usage, stdout);
            return -1;
        } else if (!strcmp(s, "--check")) a->check = 1;
        else if (!strcmp(s, "--bench")) a->bench = a->opt.measure_at_first_call = 1;
        else if (!strcmp(s, "--info")) a->info = 1;
        else if (!strcmp(s, "--rule-only")) a->opt.rule_only = 1;
        else if (!strcmp(s, "--transpose")) a->transpose = 1;
        else if (!strcmp(s, "--new-values")) a->new_values = a->opt.updatable_values = 1;
        else if (!strcmp(s, "--json")) a->json = 1;
        else if (pick(s, valued, COUNT(valued)) >= 0) {
            if (!v) return die("%s needs a value (see --help)", s);
            i++;
            uint64_t u = 0;
            k = pick(s, integers, COUNT(integers));
            if (k >= 0 && !parse_integer(s, v, int_lo[k], int_hi[k], &u)) return 2;
            if ((!strcmp(s, "--alpha") || !strcmp(s, "--beta")) && !parse_real(s, v, &x)) return 2;
            if (!strcmp(s, "--n")) a->n = (int64_t)u;
            else if (!strcmp(s, "--reps")) a->reps = (int)u;
            else if (!strcmp(s, "--seed")) a->seed = u;
            else if (!strcmp(s, "--tm")) a->opt.panel_rows = (int)u;
            else if (!strcmp(s, "--threads")) a->threads = (int)u;
            else if (!strcmp(s, "--alpha")) a->alpha = (float)x;
            else if (!strcmp(s, "--beta")) a->beta = (float)x;
            else if (!strcmp(s, "--path") && (k = pick(v, paths, COUNT(paths))) >= 0)
                a->opt.path = (tcspmm_path)k;
            else if (!strcmp(s, "--precision") && (k = pick(v, precisions, COUNT(precisions))) >= 0)
                a->opt.precision = (tcspmm_precision)k;
            else if (!strcmp(s, "--layout") && (k = pick(v, layouts, COUNT(layouts))) >= 0)
                a->layout = (tcspmm_layout)k;
            else if (!strcmp(s, "--row-order") && (k = pick(v, row_orders, COUNT(row_orders))) >= 0)
                a->opt.row_order = (tcspmm_row_order)k;
            else if (!strcmp(s, "--b-type") && (k = pick(v, types, COUNT(types))) >= 0)
                a->b_type = (tcspmm_datatype)k;
            else if (!strcmp(s, "--c-type") && (k = pick(v, types, COUNT(types))) >= 0)
                a->c_type = (tcspmm_datatype)k;
            else {
                fprintf(stderr, "spmm_run: bad value '%s' for %s (see --help)\n", v, s);
                return 2;
            }
        } else if (s[0] == '-' && s[1] == '-') return die("unknown option %s (see --help)", s);
        else if (!a->file) a->file = s;
        else return die("unexpected argument '%s' (one FILE only)", s);
    }
    if (!a->file) return die("%s", "no FILE given (see --help)");
    if ((a->b_type || a->c_type) && !a->bench)
        return die("%s", "--b-type and --c-type set the types of --bench's timed calls: add --bench");
    a->opt.expected_n = a->n;
    a->opt.host_threads = a->threads;
    if (a->threads) omp_set_num_threads(a->threads);
    return 0;
}

static int load_matrix(const char *file, tcspmm_csr *A)
{
    tcspmm_status st = strncmp(file, "gen:", 4) == 0 ? family_generate(file + 4, A)
                                                      : tcspmm_read_mtx(file, A);
    if (st) return lib_error("reading the matrix", st);
    return 0;
}

static void record_info(record *r, const tcspmm_info *in)
{
    record_int(r, "rows", in->rows);
    record_int(r, "cols", in->cols);
    record_int(r, "nnz", in->nnz);
    record_str(r, "path", tcspmm_path_name(in->path));
    record_str(r, "path_reason", in->path_reason);
    record_str(r, "precision", tcspmm_precision_name(in->precision));
    record_int(r, "has_gpu", in->has_gpu);
    record_str(r, "device", in->device_name);
    record_str(r, "structure", in->structure);
    if (in->panels > 0 || in->rows == 0) {
        record_int(r, "panel_rows", in->panel_rows);
        record_int(r, "panels", in->panels);
        record_int(r, "blocks", in->blocks);
        record_int(r, "bricks", in->bricks);
        record_num(r, "alpha", in->alpha);
        record_num(r, "beta", in->beta);
        record_num(r, "brick_density", in->brick_density);
        record_str(r, "synergy", in->synergy);
        record_num(r, "oi_shared", in->oi_shared);
        record_int(r, "hrpb_bytes", in->hrpb_bytes);
        record_int(r, "csr_bytes", in->csr_bytes);
        record_int(r, "blocks_per_panel_min", in->blocks_per_panel_min);
        record_int(r, "blocks_per_panel_median", in->blocks_per_panel_median);
        record_int(r, "blocks_per_panel_max", in->blocks_per_panel_max);
        record_int(r, "num_sms", in->num_sms);
        record_int(r, "blocks_per_sm", in->blocks_per_sm);
        record_int(r, "virtual_panels", in->virtual_panels);
        record_int(r, "split_panels", in->split_panels);
        record_num(r, "waves", in->waves);
        record_str(r, "row_order", in->row_order);
        record_int(r, "active_cols_natural", in->active_cols_natural);
        record_int(r, "active_cols_clustered", in->active_cols_clustered);
        record_num(r, "row_order_ms", in->row_order_ms);
        record_num(r, "preprocess_ms", in->preprocess_ms);
    }
    record_num(r, "upload_ms", in->upload_ms);
}

/* Leading dimensions of the dense B (cols x n) and C (rows x n) spmm_run uses. */
static void leading_dims(const args *a, int64_t rows, int64_t cols, int64_t *ldb, int64_t *ldc)
{
    int row_major = a->layout == TCSPMM_LAYOUT_ROW_MAJOR;
    *ldb = row_major ? a->n : cols;
    *ldc = row_major ? a->n : rows;
    if (*ldb < 1) *ldb = 1;
    if (*ldc < 1) *ldc = 1;
}

/* Runs the product once, on the GPU when the plan has one, into C (host);
 * *call_ms: the wall time of the call until the GPU is done (a plan's first
 * call of a shape includes what it measures). */
static tcspmm_status multiply(tcspmm_plan *plan, const tcspmm_info *info, const args *a,
                              int64_t rows, int64_t cols, const float *B, float *C, double *call_ms)
{
    int64_t ldb, ldc;
    leading_dims(a, rows, cols, &ldb, &ldc);
    if (info->path == TCSPMM_PATH_CPU)
        return tcspmm_spmm_host(plan, a->n, a->alpha, B, ldb, a->beta, C, ldc, a->layout);
    size_t bbytes = (size_t)(cols * a->n) * sizeof(float), cbytes = (size_t)(rows * a->n) * sizeof(float);
    float *dB = NULL, *dC = NULL;
    cudaError_t e = cudaMalloc((void **)&dB, bbytes ? bbytes : 4);
    if (e == cudaSuccess) e = cudaMalloc((void **)&dC, cbytes ? cbytes : 4);
    if (e == cudaSuccess) e = cudaMemcpy(dB, B, bbytes, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaMemcpy(dC, C, cbytes, cudaMemcpyHostToDevice);
    tcspmm_status st = TCSPMM_SUCCESS;
    if (e != cudaSuccess) {
        fprintf(stderr, "spmm_run: CUDA: %s\n", cudaGetErrorString(e));
        st = TCSPMM_ERROR_CUDA;
    }
    double t0 = omp_get_wtime();
    if (!st) st = tcspmm_spmm(plan, a->n, a->alpha, dB, ldb, a->beta, dC, ldc, a->layout, NULL);
    if (!st && (e = cudaDeviceSynchronize()) == cudaSuccess) *call_ms = (omp_get_wtime() - t0) * 1e3;
    if (!st && (e != cudaSuccess ||
                (e = cudaMemcpy(C, dC, cbytes, cudaMemcpyDeviceToHost)) != cudaSuccess)) {
        fprintf(stderr, "spmm_run: CUDA: %s\n", cudaGetErrorString(e));
        st = TCSPMM_ERROR_CUDA;
    }
    cudaFree(dB);
    cudaFree(dC);
    return st;
}

/* Tolerance of --check for the precision the path uses: TF32 lands near 3e-4,
 * bf16/fp16 near 3e-3, fp32 (and the CPU's float64 accumulation) near 1e-7. */
static double check_tolerance(const tcspmm_info *info)
{
    if (info->precision == TCSPMM_PRECISION_TF32) return 1e-3;
    if (info->precision == TCSPMM_PRECISION_BF16 || info->precision == TCSPMM_PRECISION_FP16) return 1e-2;
    return 1e-5;
}

/* The median time of PLAN_REPEATS more plan creations in this process (the
 * first one, plan_ms, also pays for starting the library's kernels and
 * threads). NAN if one fails. */
enum { PLAN_REPEATS = 5 };
static double warm_plan_ms(const tcspmm_csr *A, const tcspmm_options *opt)
{
    double ms[PLAN_REPEATS];
    for (int i = 0; i < PLAN_REPEATS; i++) {
        tcspmm_plan *plan = NULL;
        double t0 = omp_get_wtime();
        tcspmm_status st = tcspmm_plan_create(A, opt, &plan);
        ms[i] = (omp_get_wtime() - t0) * 1e3;
        tcspmm_plan_destroy(plan);
        if (st) return NAN;
    }
    return bench_median_ms(ms, PLAN_REPEATS);
}

/* *ms = the median of *reps (at least 3) timed host products after one
 * untimed. */
static tcspmm_status bench_cpu(tcspmm_plan *plan, const args *a, int64_t rows, int64_t cols,
                               const float *B, float *C, double *ms, int *reps)
{
    int64_t ldb, ldc;
    leading_dims(a, rows, cols, &ldb, &ldc);
    *reps = a->reps < 3 ? 3 : a->reps;
    double *t = malloc((size_t)*reps * sizeof(double));
    if (!t) return TCSPMM_ERROR_HOST_OUT_OF_MEMORY;
    tcspmm_status st = tcspmm_spmm_host(plan, a->n, a->alpha, B, ldb, a->beta, C, ldc, a->layout);
    for (int r = 0; r < *reps && !st; r++) {
        double t0 = omp_get_wtime();
        st = tcspmm_spmm_host(plan, a->n, a->alpha, B, ldb, a->beta, C, ldc, a->layout);
        t[r] = (omp_get_wtime() - t0) * 1e3;
    }
    if (!st) *ms = bench_median_ms(t, *reps);
    free(t);
    return st;
}

/* The median of reps updates of plan from values (in device or host
 * memory), each alone (product NULL) or followed by one product with a's n
 * and layout on product[0] (B) and product[1] (C), timed until the GPU is
 * done, after one untimed (warm-up). NAN on an error (message printed). */
static double time_updates(const args *a, tcspmm_plan *plan, int64_t rows, int64_t cols,
                           const float *values, float *const *product)
{
    int64_t ldb, ldc;
    leading_dims(a, rows, cols, &ldb, &ldc);
    double *ms = malloc((size_t)a->reps * sizeof(double)), med = NAN;
    tcspmm_status st = ms ? TCSPMM_SUCCESS : TCSPMM_ERROR_HOST_OUT_OF_MEMORY;
    cudaError_t e = cudaSuccess;
    for (int i = -1; i < a->reps && !st && e == cudaSuccess; i++) {
        double t0 = omp_get_wtime();
        st = tcspmm_plan_set_values(plan, values, NULL);
        if (!st && product)
            st = tcspmm_spmm(plan, a->n, a->alpha, product[0], ldb, a->beta, product[1], ldc,
                             a->layout, NULL);
        if (!st) e = cudaDeviceSynchronize();
        if (i >= 0) ms[i] = (omp_get_wtime() - t0) * 1e3;
    }
    if (st) lib_error("timing new values", st);
    else if (e != cudaSuccess) die("CUDA: %s", cudaGetErrorString(e));
    else med = bench_median_ms(ms, a->reps);
    free(ms);
    return med;
}

/* A's values replaced by new random ones (seed + 2), given to the plan from
 * host memory (set_values_host_ms). */
static int new_values(const args *a, tcspmm_csr *A, tcspmm_plan *plan, record *r)
{
    rng_fill(A->values, (size_t)A->nnz, a->seed + 2);
    double t0 = omp_get_wtime();
    tcspmm_status st = tcspmm_plan_set_values(plan, A->values, NULL);
    if (st) return lib_error("setting new values", st);
    record_num(r, "set_values_host_ms", (omp_get_wtime() - t0) * 1e3);
    return 0;
}

/* With --bench on a GPU plan, after the run: updates from device memory
 * (A's values again) timed alone (set_values_ms) and each followed by one
 * product on random B and C (set_values_product_ms): what a caller whose
 * values change before every product pays; and updates from host memory
 * (A's values), the first one long past (set_values_host_warm_ms). */
static int bench_new_values(const args *a, const tcspmm_csr *A, tcspmm_plan *plan, record *r)
{
    tcspmm_info info;
    tcspmm_status st = tcspmm_plan_info(plan, &info);
    if (st) return lib_error("plan info", st);
    if (info.path == TCSPMM_PATH_CPU || A->nnz == 0) return 0;
    float *dev[3] = {NULL, NULL, NULL}; /* new values, B, C */
    const size_t vbytes = (size_t)A->nnz * sizeof(float);
    cudaError_t e = cudaMalloc((void **)&dev[0], vbytes);
    if (e == cudaSuccess) e = cudaMemcpy(dev[0], A->values, vbytes, cudaMemcpyHostToDevice);
    int status = e != cudaSuccess ? die("CUDA: %s", cudaGetErrorString(e)) : 0;
    if (!status) st = bench_upload_random(&dev[1], (size_t)(A->cols * a->n), a->seed + 3);
    if (!status && !st) st = bench_upload_random(&dev[2], (size_t)(A->rows * a->n), a->seed + 4);
    if (!status && st) status = lib_error("uploading B and C", st);
    double alone = status ? NAN : time_updates(a, plan, A->rows, A->cols, dev[0], NULL);
    double with_product =
        isnan(alone) ? NAN : time_updates(a, plan, A->rows, A->cols, dev[0], dev + 1);
    double from_host =
        isnan(with_product) ? NAN : time_updates(a, plan, A->rows, A->cols, A->values, NULL);
    for (int i = 0; i < 3; i++) cudaFree(dev[i]);
    if (isnan(from_host)) return status ? status : 2;
    record_num(r, "set_values_ms", alone);
    record_num(r, "set_values_product_ms", with_product);
    record_num(r, "set_values_host_warm_ms", from_host);
    if (!a->json)
        printf("new values: %.3f ms from device memory, %.3f ms followed by a product, %.3f ms "
               "from host memory after the first (medians of %d)\n",
               alone, with_product, from_host, a->reps);
    return 0;
}

/* The product on the plan of A, checked against float64 where asked: from
 * source where it is not NULL (the matrix as read, whose transpose A is),
 * so that the check does not trust the transpose, else from A. */
static int run(const args *a, const tcspmm_csr *A, const tcspmm_csr *source, tcspmm_plan *plan,
               record *r)
{
    tcspmm_info info;
    tcspmm_status st = tcspmm_plan_info(plan, &info);
    if (st) return lib_error("plan info", st);
    record_info(r, &info);
    record_int(r, "n", a->n);
    record_str(r, "layout", a->layout == TCSPMM_LAYOUT_ROW_MAJOR ? "row" : "col");
    if (!info.has_gpu && a->opt.path != TCSPMM_PATH_CPU && !a->json) fprintf(stderr, "spmm_run: no GPU (%s); running the CPU path\n", info.path_reason);

    size_t bcount = (size_t)(A->cols * a->n), ccount = (size_t)(A->rows * a->n);
    float *B = malloc((bcount ? bcount : 1) * sizeof(float));
    float *C = malloc((ccount ? ccount : 1) * sizeof(float));
    float *C0 = malloc((ccount ? ccount : 1) * sizeof(float));
    if (!B || !C || !C0) {
        free(B); free(C); free(C0);
        return die("%s", "out of host memory for B and C");
    }
    rng_fill(B, bcount, a->seed);
    if (a->beta != 0.0f) rng_fill(C0, ccount, a->seed + 1);
    else for (size_t i = 0; i < ccount; i++) C0[i] = NAN; /* poison: every element must be written */
    memcpy(C, C0, ccount * sizeof(float));
    int status = 0;
    double first_call_ms = NAN;
    tcspmm_path path_run = info.path;
    st = multiply(plan, &info, a, A->rows, A->cols, B, C, &first_call_ms);
    if (!st) st = tcspmm_plan_path_for(plan, a->n, a->layout, a->beta, &path_run);
    if (st) status = lib_error("multiplying", st);
    else {
        record_str(r, "path_run", tcspmm_path_name(path_run));
        if (info.path != TCSPMM_PATH_CPU) record_num(r, "first_call_ms", first_call_ms);
    }
    if (!status && a->check) {
        double *ref = malloc((ccount ? ccount : 1) * sizeof(double));
        int64_t ldb, ldc;
        leading_dims(a, A->rows, A->cols, &ldb, &ldc);
        st = !ref ? TCSPMM_ERROR_HOST_OUT_OF_MEMORY
             : source ? reference_spmm_transposed(source, a->n, a->alpha, B, ldb, a->beta, C0, ldc,
                                                  a->layout, ref)
                      : reference_spmm(A, a->n, a->alpha, B, ldb, a->beta, C0, ldc, a->layout, ref);
        if (st) status = lib_error("reference", st);
        else {
            compare_result cmp = compare_to_reference(C, ldc, a->layout, ref, A->rows, a->n,
                                                      check_tolerance(&info));
            record_num(r, "check_rel_err", cmp.rel_err);
            record_num(r, "check_max_abs_err", cmp.max_abs_err);
            record_int(r, "check_nonfinite", cmp.nonfinite);
            record_int(r, "check_pass", cmp.pass);
            if (!a->json)
                printf("check: rel_err=%.3e max_abs_err=%.3e%s %s\n", cmp.rel_err, cmp.max_abs_err,
                       cmp.nonfinite ? " (NaN/Inf in C)" : "", cmp.pass ? "PASS" : "FAIL");
            if (!cmp.pass) status = 1;
        }
        free(ref);
    }
    if (!status && a->bench) {
        double flops = 2.0 * (double)A->nnz * (double)a->n;
        if (info.path == TCSPMM_PATH_CPU && (a->b_type || a->c_type)) {
            status = die("%s", "--b-type and --c-type need a plan with a GPU");
        } else if (info.path == TCSPMM_PATH_CPU) {
            double ms = 0;
            int reps = 0;
            st = bench_cpu(plan, a, A->rows, A->cols, B, C, &ms, &reps);
            if (st) status = lib_error("benchmark", st);
            else {
                record_num(r, "time_ms", ms);
                record_num(r, "gflops", flops / (ms * 1e-3) / 1e9);
                record_int(r, "reps", reps);
                if (!a->json)
                    printf("bench: cpu %.3f ms, %.2f GFLOP/s (median of %d)\n", ms,
                           flops / (ms * 1e-3) / 1e9, reps);
            }
        } else {
            bench_result b;
            /* --check also checks a call of the timed types where B or C is
             * 16-bit (one more call, before the timed ones; with --transpose
             * against A^T as transposed), allowing for a 16-bit C's rounding */
            double typed_tol = a->check ? check_tolerance(&info) : 0.0;
            const double c_rounding = a->c_type == TCSPMM_R_16BF ? 1e-2
                                      : a->c_type == TCSPMM_R_16F ? 2e-3
                                                                  : 0.0;
            if (a->check && typed_tol < c_rounding) typed_tol = c_rounding;
            st = bench_gpu(plan, A, a->n, a->layout, a->alpha, a->beta, a->b_type, a->c_type,
                           a->reps, a->seed, typed_tol, &b);
            if (st) status = lib_error("benchmark", st);
            else {
                if (b.typed_checked) {
                    record_num(r, "typed_check_rel_err", b.typed_rel_err);
                    record_int(r, "typed_check_nonfinite", b.typed_nonfinite);
                    record_int(r, "typed_check_pass", b.typed_pass);
                    if (!a->json)
                        printf("check of the B %s, C %s call: rel_err=%.3e%s %s\n",
                               types_name(a->b_type), types_name(a->c_type), b.typed_rel_err,
                               b.typed_nonfinite ? " (NaN/Inf in C)" : "",
                               b.typed_pass ? "PASS" : "FAIL");
                    if (!b.typed_pass) status = 1;
                }
                if (b.typed_first_ms >= 0) record_num(r, "typed_first_call_ms", b.typed_first_ms);
                record_num(r, "time_ms", b.time_ms);
                record_num(r, "time_spread", b.time_spread);
                record_str(r, "b_type", types_name(a->b_type));
                record_str(r, "c_type", types_name(a->c_type));
                if (b.float_ms >= 0) record_num(r, "float_ms", b.float_ms);
                record_num(r, "gflops", flops / (b.time_ms * 1e-3) / 1e9);
                record_num(r, "cusparse_ms", b.cusparse_ms);
                record_str(r, "cusparse_alg", b.cusparse_alg);
                for (int i = 0; i < CUSPARSE_PATH_NUM_ALGS; i++) {
                    char key[64];
                    snprintf(key, sizeof key, "cusparse_ms_%s", cusparse_path_alg_name(cusparse_path_algs[i]));
                    record_num(r, key, b.cusparse_alg_ms[i]);
                }
                record_num(r, "cusparse_gflops", flops / (b.cusparse_ms * 1e-3) / 1e9);
                record_num(r, "speedup", b.cusparse_ms / b.time_ms);
                record_int(r, "min_bytes", b.min_bytes);
                record_num(r, "copy_gbs", b.copy_gbs);
                record_num(r, "roofline_frac", b.roofline_frac);
                record_int(r, "reps", b.reps);
                if (!a->json)
                    printf("bench: %s %.4f ms %.1f GFLOP/s (%.0f%% of memory roofline) | cuSPARSE best "
                           "(%s) %.4f ms %.1f GFLOP/s | speedup %.2fx\n",
                           tcspmm_path_name(path_run), b.time_ms, flops / (b.time_ms * 1e-3) / 1e9,
                           100 * b.roofline_frac, b.cusparse_alg, b.cusparse_ms,
                           flops / (b.cusparse_ms * 1e-3) / 1e9, b.cusparse_ms / b.time_ms);
                if (!a->json && b.float_ms >= 0)
                    printf("bench: B %s, C %s; ours with float B and C %.4f ms (%.2fx this)\n",
                           types_name(a->b_type), types_name(a->c_type), b.float_ms,
                           b.float_ms / b.time_ms);
            }
        }
    }
    free(B);
    free(C);
    free(C0);
    return status;
}

int main(int argc, char **argv)
{
    args a;
    int status = parse_args(argc, argv, &a);
    if (status) return status < 0 ? 0 : status;
    record r = {0};
    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    record_str(&r, "file", a.file);
    record_str(&r, "commit", TCSPMM_GIT_COMMIT);
    record_str(&r, "date", date);

    tcspmm_csr A = {0};
    /* Start CUDA (if any) before reading, not just before the plan: on the lent
     * H200 a first plan made right after the first CUDA call took 37-91 ms in
     * about one process of five, against 5-19 ms; with CUDA started before the
     * reading, none of 18 took over 17.1 ms
     * (bench/results/upload-stage-bound-h200-2026-11-29/). First plans of a
     * 101M-entry matrix still stall on the host in some processes
     * (bench/results/first-plan-stall-h200-2026-11-29/). */
    cudaFree(NULL);
    cudaGetLastError();
    double t0 = omp_get_wtime();
    if ((status = load_matrix(a.file, &A))) return status;
    double read_ms = (omp_get_wtime() - t0) * 1e3;
    record_num(&r, "read_ms", read_ms);
    /* a pattern file's ones become random values: no check or timing on constant data */
    const float file_value = A.nnz > 0 ? A.values[0] : 0.0f;
    const int random_values = rng_fill_if_constant(A.values, (size_t)A.nnz, a.seed + 5);
    record_str(&r, "values", random_values ? "random" : "file");
    /* transposed and checked (new values aside): the check reads A as read */
    tcspmm_csr read = {0};
    if (a.transpose) {
        tcspmm_csr AT;
        t0 = omp_get_wtime();
        tcspmm_status st = tcspmm_csr_transpose(&A, &AT);
        if (a.check && !a.new_values && !st) read = A;
        else tcspmm_csr_free(&A);
        if (st) return lib_error("transposing the matrix", st);
        A = AT;
        record_num(&r, "transpose_ms", (omp_get_wtime() - t0) * 1e3);
    }
    if (!a.json) {
        printf("matrix: %s%s: %lld x %lld, %lld non-zeros, read in %.1f ms", a.file,
               a.transpose ? " (transposed)" : "", (long long)A.rows, (long long)A.cols,
               (long long)A.nnz, read_ms);
        if (random_values) printf("; values random in [-1, 1] (the file's were all %g)", file_value);
        printf("\n");
    }

    tcspmm_plan *plan = NULL;
    t0 = omp_get_wtime(); /* plan time is preprocessing + upload */
    tcspmm_status st = tcspmm_plan_create(&A, &a.opt, &plan);
    if (st) {
        tcspmm_csr_free(&A);
        tcspmm_csr_free(&read);
        return lib_error("creating the plan", st);
    }
    record_num(&r, "plan_ms", (omp_get_wtime() - t0) * 1e3);
    if (a.bench) record_num(&r, "plan_ms_warm", warm_plan_ms(&A, &a.opt));
    status = a.new_values ? new_values(&a, &A, plan, &r) : 0;
    if (!status) status = run(&a, &A, read.row_ptr ? &read : NULL, plan, &r);
    if (!status && a.new_values && a.bench) status = bench_new_values(&a, &A, plan, &r);
    if (a.json) record_print_json(&r, stdout);
    else if (a.info) record_print_info(&r, stdout);
    tcspmm_plan_destroy(plan);
    tcspmm_csr_free(&A);
    tcspmm_csr_free(&read);
    return status;
}
