/* main.c: the lobpcg command: reads a symmetric Matrix Market file, plans
 * the product with tcspmm, runs block LOBPCG (lobpcg.c) on the backend this
 * build was configured with, and prints the eigenvalues and timings. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tcspmm.h>

#include "dense.h"
#include "fail.h"
#include "lobpcg.h"
#include "matrix.h"
#include "wall_clock.h"

typedef struct args {
    const char *file;
    lobpcg_options solve;
    tcspmm_options plan;
} args;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: lobpcg FILE [--k K] [--guard G] [--tol T] [--maxit N] [--stall N] [--largest]\n"
            "              [--seed S] [--path auto|hrpb|cusparse|cpu] [--precision tf32|fp32]\n"
            "              [--row-order natural|clustered]\n"
            "Finds the K smallest (or --largest) eigenpairs of the symmetric matrix in FILE\n"
            "(.mtx or .mtx.gz) by block LOBPCG, with A*X on tcspmm and the dense work in float64.\n"
            "  --k K          eigenpairs wanted (default 8)\n"
            "  --guard G      extra block columns that need not converge (default max(4, K/4));\n"
            "                 they speed up clustered spectra\n"
            "  --tol T        converged when every one of the K relative residuals\n"
            "                 ||A x - lambda x|| / (normA ||x||), normA = max_i sum_j |a_ij|,\n"
            "                 is at most T (default 1e-6)\n"
            "  --maxit N      Rayleigh-Ritz updates at most (default 1000)\n"
            "  --stall N      stop when the largest residual has not halved in N iterations,\n"
            "                 as when the products' precision limits it (default 200; 0: never)\n"
            "  --seed S       of the random start block (default 1)\n"
            "  --path P       the library's path for A*X (default auto; this build: %s)\n"
            "  --precision P  tf32 (default) or fp32 (FP32-accurate products)\n"
            "  --row-order O  natural (default) or clustered: HRPB panels of rows that share\n"
            "                 columns (faster products, a slower plan)\n"
            "  --help         this text\n"
            "Exit status: 0 converged, 1 not converged (maxit or stall), 2 error.\n",
            dense_on_gpu() ? "auto, hrpb, cusparse" : "cpu");
}

/* Parses a number in [lo, hi] from the whole of s. */
static int parse_number(const char *s, double lo, double hi, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || !(v >= lo && v <= hi)) return 0;
    *out = v;
    return 1;
}

/* A whole decimal number in [lo, hi] (no sign, fraction or exponent). */
static int parse_whole(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    if (*s < '0' || *s > '9') return 0;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end != '\0' || errno == ERANGE || v < lo || v > hi) return 0;
    *out = v;
    return 1;
}

static int parse_path(const char *s, tcspmm_path *out)
{
    static const tcspmm_path paths[] = {TCSPMM_PATH_AUTO, TCSPMM_PATH_HRPB, TCSPMM_PATH_CUSPARSE,
                                        TCSPMM_PATH_CPU};
    for (size_t i = 0; i < sizeof paths / sizeof *paths; i++)
        if (!strcmp(s, tcspmm_path_name(paths[i]))) return *out = paths[i], 1;
    return 0;
}

static int parse_precision(const char *s, tcspmm_precision *out)
{
    if (!strcmp(s, "tf32")) return *out = TCSPMM_PRECISION_TF32, 1;
    if (!strcmp(s, "fp32")) return *out = TCSPMM_PRECISION_FP32, 1;
    return 0;
}

/* 0: run; 1: --help printed; 2: usage error (message printed). */
static int parse_args(int argc, char **argv, args *a)
{
    memset(a, 0, sizeof *a);
    a->solve = (lobpcg_options){
        .k = 8, .guard = -1, .maxit = 1000, .stall = 200, .tol = 1e-6, .seed = 1};
    tcspmm_options_init(&a->plan);
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
            usage(stdout);
            return 1;
        }
        if (!strcmp(s, "--largest")) {
            a->solve.largest = 1;
            continue;
        }
        if (strncmp(s, "--", 2) != 0) {
            if (a->file) {
                fprintf(stderr, "lobpcg: more than one FILE ('%s', '%s')\n", a->file, s);
                return 2;
            }
            a->file = s;
            continue;
        }
        static const char *const valued[] = {"--k",    "--guard", "--tol",       "--maxit",
                                             "--stall", "--seed", "--path",     "--precision",
                                             "--row-order"};
        int known = 0;
        for (size_t o = 0; o < sizeof valued / sizeof *valued; o++) known |= !strcmp(s, valued[o]);
        if (!known) {
            fprintf(stderr, "lobpcg: unknown option %s (see --help)\n", s);
            return 2;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "lobpcg: %s needs a value (see --help)\n", s);
            return 2;
        }
        const char *v = argv[++i];
        double x;
        uint64_t w;
        int ok = 1;
        if (!strcmp(s, "--k") && parse_whole(v, 1, 1 << 20, &w)) a->solve.k = (int)w;
        else if (!strcmp(s, "--guard") && parse_whole(v, 0, 1 << 20, &w)) a->solve.guard = (int)w;
        else if (!strcmp(s, "--tol") && parse_number(v, 1e-300, 1, &x)) a->solve.tol = x;
        else if (!strcmp(s, "--maxit") && parse_whole(v, 0, 1000000000, &w)) a->solve.maxit = (int)w;
        else if (!strcmp(s, "--stall") && parse_whole(v, 0, 1000000000, &w)) a->solve.stall = (int)w;
        else if (!strcmp(s, "--seed") && parse_whole(v, 0, UINT64_MAX, &w)) a->solve.seed = w;
        else if (!strcmp(s, "--path")) ok = parse_path(v, &a->plan.path);
        else if (!strcmp(s, "--precision")) ok = parse_precision(v, &a->plan.precision);
        else if (!strcmp(s, "--row-order") && !strcmp(v, "natural"))
            a->plan.row_order = TCSPMM_ROW_ORDER_NATURAL;
        else if (!strcmp(s, "--row-order") && !strcmp(v, "clustered"))
            a->plan.row_order = TCSPMM_ROW_ORDER_CLUSTERED;
        else ok = 0;
        if (!ok) {
            fprintf(stderr, "lobpcg: bad value '%s' for %s (see --help)\n", v, s);
            return 2;
        }
    }
    if (!a->file) {
        fprintf(stderr, "lobpcg: no FILE given (see --help)\n");
        return 2;
    }
    if (a->solve.guard < 0) a->solve.guard = a->solve.k / 4 > 4 ? a->solve.k / 4 : 4;
    if (a->plan.path == TCSPMM_PATH_AUTO && !dense_on_gpu()) a->plan.path = TCSPMM_PATH_CPU;
    if ((a->plan.path == TCSPMM_PATH_CPU) != !dense_on_gpu()) {
        fprintf(stderr, "lobpcg: --path %s needs the %s backend; this build has the %s one "
                        "(configure with -DLOBPCG_GPU=%s)\n",
                tcspmm_path_name(a->plan.path), dense_on_gpu() ? "CPU" : "GPU",
                dense_on_gpu() ? "GPU" : "CPU", dense_on_gpu() ? "OFF" : "ON");
        return 2;
    }
    a->plan.expected_n = a->solve.k + a->solve.guard;
    return 0;
}

/* Reads and checks A, plans the product; *norm_a is its Gershgorin bound. */
static int prepare(const args *a, tcspmm_plan **plan, int64_t *n, double *norm_a,
                   double *read_s, double *plan_s)
{
    tcspmm_csr A;
    double t0 = wall_seconds();
    if (tcspmm_read_mtx(a->file, &A) != TCSPMM_SUCCESS)
        return lobpcg_fail("reading %s: %s", a->file, tcspmm_last_error());
    *read_s = wall_seconds() - t0;
    int failed = matrix_check_symmetric(&A);
    *norm_a = matrix_gershgorin_norm(&A);
    *n = A.rows;
    printf("# lobpcg: %s: %lld x %lld, %lld non-zeros (both triangles)\n", a->file,
           (long long)A.rows, (long long)A.cols, (long long)A.nnz);
    if (!failed) {
        t0 = wall_seconds();
        if (tcspmm_plan_create(&A, &a->plan, plan) != TCSPMM_SUCCESS)
            failed = lobpcg_fail("tcspmm_plan_create (path %s, precision %s): %s",
                                 tcspmm_path_name(a->plan.path),
                                 tcspmm_precision_name(a->plan.precision), tcspmm_last_error());
        *plan_s = wall_seconds() - t0;
    }
    tcspmm_csr_free(&A);
    return failed;
}

static void print_results(const args *a, const lobpcg_result *r, const tcspmm_info *info,
                          const dense *d, double read_s, double plan_s)
{
    for (int j = 0; j < a->solve.k; j++)
        printf("eigenvalue %d %.17g residual %.3e\n", j + 1, r->lambda[j], r->residual[j]);
    double spmm_s = dense_spmm_seconds(d);
    printf("iterations %d\n", r->iterations);
    printf("converged %s\n", r->converged ? "yes" : "no");
    printf("stop_reason %s\n", r->converged ? "converged" : r->stalled ? "stalled" : "maxit");
    printf("dropped_columns %lld\n", (long long)r->dropped);
    printf("spmm_calls %lld\n", (long long)dense_spmm_calls(d));
    printf("time_read_s %.6f\n", read_s);
    printf("time_plan_s %.6f\n", plan_s);
    printf("time_solve_s %.6f\n", r->seconds);
    printf("time_spmm_s %.6f\n", spmm_s);
    printf("time_rest_s %.6f\n", r->seconds - spmm_s);
    printf("plan_path %s\n", tcspmm_path_name(info->path));
    printf("plan_precision %s\n", tcspmm_precision_name(info->precision));
    printf("plan_row_order %s\n", info->row_order);
    if (!r->converged) {
        double worst = 0;
        for (int j = 0; j < a->solve.k; j++)
            if (r->residual[j] > worst) worst = r->residual[j];
        int tf32 = info->precision == TCSPMM_PRECISION_TF32;
        fprintf(stderr,
                "lobpcg: not converged after %d iterations (largest residual %.3e > tol "
                "%.1e)%s%s\n",
                r->iterations, worst, a->solve.tol,
                r->stalled ? ": stalled; the precision of A*X may limit the residual" : "",
                r->stalled && tf32 ? " (try --precision fp32)" : "");
    }
}

int main(int argc, char **argv)
{
    args a;
    int status = parse_args(argc, argv, &a);
    if (status) return status == 1 ? 0 : 2;

    tcspmm_plan *plan = NULL;
    dense *d = NULL;
    lobpcg_result result = {0};
    tcspmm_info info;
    int64_t n = 0;
    double norm_a = 0, read_s = 0, plan_s = 0;
    int failed = prepare(&a, &plan, &n, &norm_a, &read_s, &plan_s);
    if (!failed && tcspmm_plan_info(plan, &info) != TCSPMM_SUCCESS)
        failed = lobpcg_fail("tcspmm_plan_info: %s", tcspmm_last_error());
    /* The blocks live where the backend keeps them: the plan must run there. */
    if (!failed && (info.path == TCSPMM_PATH_CPU) != !dense_on_gpu())
        failed = lobpcg_fail("the %s backend needs a plan on %s; this one is on the %s path (%s)",
                             dense_on_gpu() ? "GPU" : "CPU",
                             dense_on_gpu() ? "a GPU path" : "the cpu path",
                             tcspmm_path_name(info.path), info.path_reason);
    if (!failed) {
        printf("# backend %s, plan path %s (%s), precision %s\n", dense_on_gpu() ? "gpu" : "cpu",
               tcspmm_path_name(info.path), info.path_reason,
               tcspmm_precision_name(info.precision));
        printf("# k %d, guard %d, block %d, %s, tol %.1e, maxit %d, stall %d, seed %llu\n",
               a.solve.k, a.solve.guard, a.solve.k + a.solve.guard,
               a.solve.largest ? "largest" : "smallest", a.solve.tol, a.solve.maxit, a.solve.stall,
               (unsigned long long)a.solve.seed);
        printf("# residual = ||A x - lambda x||_2 / (normA ||x||_2), normA = max_i sum_j |a_ij| "
               "(Gershgorin bound) = %.17g\n",
               norm_a);
        int block = a.solve.k + a.solve.guard;
        failed = dense_create(plan, n, block, 3 * block, &d) ||
                 lobpcg_solve(d, n, norm_a, &a.solve, &result);
    }
    if (failed) fprintf(stderr, "lobpcg: %s\n", lobpcg_error());
    else print_results(&a, &result, &info, d, read_s, plan_s);
    int converged = !failed && result.converged;
    lobpcg_result_free(&result);
    dense_destroy(d);
    tcspmm_plan_destroy(plan);
    return failed ? 2 : converged ? 0 : 1;
}
