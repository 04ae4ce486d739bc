/* gpu_graph.c: tcspmm_spmm captured into a CUDA graph (as a solver that
 * repeats a product may do), on every GPU path: HRPB in
 * TF32 and FP32 (row- and column-major, split panels, clustered rows),
 * cuSPARSE, the measured auto path (a shape measured at its first call,
 * and one not measured yet, captured on HRPB), and the
 * structured path in TF32 and BF16. For each: two calls
 * outside the capture with the same shape and buffers (the first sets up
 * what the header says a captured call needs; on a plan that measures
 * later, the second is timed, so the capture finds that timing pending),
 * then the call captured on a stream (a plan's path for the shape must be
 * the same after it: nothing is measured while capturing),
 * then the graph launched twice, each time on fresh B and C written into the
 * same buffers, against the float64 reference; C is poisoned (NaN) when
 * beta == 0, and the gaps past its rows x n must be left alone. A cuSPARSE
 * and a measured plan also capture a shape called before 39 others, and
 * capture a shape's first call (which the header advises against) before
 * calling it directly. A sparse24 graph is
 * launched after a direct call of a larger n grew the plan's packed B.
 *
 * `gpu_graph --time [FILE [N]]` (default data/cora.mtx, N = 32, auto path)
 * prints the time per call of 1000 calls issued back to back on one stream,
 * direct and as launches of the captured graph.
 *
 * Last, first calls and new values on one stream while a global-mode
 * capture is open on another must leave that capture intact. */
#include "harness.h"
#include "matgen.h"
#include "reference.h"
#include "rng.h"
#include "sparse24_gen.h"

#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

static uint64_t seed = 5000;

/* A stream and device copies of t's B and C (as C0). */
typedef struct device_operands {
    cudaStream_t s;
    float *dB, *dC;
} device_operands;

static void device_operands_make(device_operands *d, const test_operands *t)
{
    memset(d, 0, sizeof *d);
    CHECK(cudaStreamCreateWithFlags(&d->s, cudaStreamNonBlocking) == cudaSuccess);
    test_operands_upload(t, &d->dB, &d->dC);
}

static void device_operands_free(device_operands *d)
{
    cudaFree(d->dB);
    cudaFree(d->dC);
    cudaStreamDestroy(d->s);
}

/* One launch of exec, or without exec one direct call of plan, on fresh
 * operands written into d's buffers. */
static void check_launch(cudaGraphExec_t exec, tcspmm_plan *plan, const device_operands *d,
                         const tcspmm_csr *A, int64_t n, tcspmm_layout layout, int pad,
                         float alpha, float beta, double tol, const char *what)
{
    test_operands t;
    test_operands_make(&t, A, n, layout, pad, beta, seed++);
    float *dB = d->dB, *dC = d->dC;
    test_operands_upload(&t, &dB, &dC);
    if (exec) CHECK(cudaGraphLaunch(exec, d->s) == cudaSuccess);
    else CHECK_OK(tcspmm_spmm(plan, n, alpha, dB, t.ldb, beta, dC, t.ldc, layout, d->s));
    CHECK(cudaStreamSynchronize(d->s) == cudaSuccess);
    CHECK(cudaMemcpy(t.C, d->dC, t.csize * sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK_OK(reference_spmm(A, n, alpha, t.B, t.ldb, beta, t.C0, t.ldc, layout, t.ref));
    compare_result r = compare_to_reference(t.C, t.ldc, layout, t.ref, A->rows, n, tol);
    const int64_t gaps = test_operands_padding_changed(&t, A->rows, n, layout);
    CHECK(r.pass && gaps == 0);
    printf("%-30s n=%-3lld %s beta=%-4g %s: rel_err=%.2e nonfinite=%lld gaps changed=%lld %s\n",
           what, (long long)n, layout == TCSPMM_LAYOUT_ROW_MAJOR ? "row" : "col", beta,
           exec ? "graph" : "direct", r.rel_err, (long long)r.nonfinite, (long long)gaps,
           r.pass && gaps == 0 ? "ok" : "FAIL");
    test_operands_free(&t);
}

/* One call captured on d->s and instantiated; NULL (and a FAIL line) when
 * the call or the capture fails. *graph is destroyed by the caller. */
static cudaGraphExec_t capture(tcspmm_plan *plan, int64_t n, float alpha, int64_t ldb, float beta,
                               int64_t ldc, tcspmm_layout layout, const device_operands *d,
                               cudaGraph_t *graph, const char *what)
{
    cudaGraphExec_t exec = NULL;
    *graph = NULL;
    CHECK(cudaStreamBeginCapture(d->s, cudaStreamCaptureModeGlobal) == cudaSuccess);
    tcspmm_status st = tcspmm_spmm(plan, n, alpha, d->dB, ldb, beta, d->dC, ldc, layout, d->s);
    cudaError_t ended = cudaStreamEndCapture(d->s, graph);
    CHECK_OK(st);
    CHECK(ended == cudaSuccess);
    if (st == TCSPMM_SUCCESS && ended == cudaSuccess)
        CHECK(cudaGraphInstantiate(&exec, *graph, 0) == cudaSuccess);
    else
        printf("%-30s n=%-3lld: capture failed (%s; %s) FAIL\n", what, (long long)n,
               tcspmm_last_error(), cudaGetErrorString(ended));
    cudaGetLastError();
    return exec;
}

/* The call of t's shape on d captured, the plan's path for the shape the
 * same after the capture, and the graph launched twice. */
static void check_capture(tcspmm_plan *plan, const tcspmm_csr *A, const test_operands *t,
                          const device_operands *d, int64_t n, tcspmm_layout layout, int pad,
                          float alpha, float beta, double tol, const char *what)
{
    tcspmm_path before = TCSPMM_PATH_CPU, after = TCSPMM_PATH_SPARSE24;
    CHECK_OK(tcspmm_plan_path_for(plan, n, layout, beta, &before));
    cudaGraph_t graph;
    cudaGraphExec_t exec = capture(plan, n, alpha, t->ldb, beta, t->ldc, layout, d, &graph, what);
    CHECK_OK(tcspmm_plan_path_for(plan, n, layout, beta, &after));
    CHECK(after == before);
    for (int round = 0; round < 2 && exec; round++)
        check_launch(exec, plan, d, A, n, layout, pad, alpha, beta, tol, what);
    if (exec) cudaGraphExecDestroy(exec);
    if (graph) cudaGraphDestroy(graph);
}

static void check_graph(tcspmm_plan *plan, const tcspmm_csr *A, int64_t n, tcspmm_layout layout,
                        float beta, double tol, const char *what)
{
    const int pad = 3;
    const float alpha = 1.25f;
    test_operands t;
    test_operands_make(&t, A, n, layout, pad, beta, seed++);
    device_operands d;
    device_operands_make(&d, &t);
    for (int call = 0; call < 2; call++)
        CHECK_OK(tcspmm_spmm(plan, n, alpha, d.dB, t.ldb, beta, d.dC, t.ldc, layout, d.s));
    CHECK(cudaStreamSynchronize(d.s) == cudaSuccess);
    check_capture(plan, A, &t, &d, n, layout, pad, alpha, beta, tol, what);
    device_operands_free(&d);
    test_operands_free(&t);
}

/* A shape called once, then 39 other shapes (N in 2, 3, 5, ..., 257, both
 * layouts, beta zero or not), then the first shape captured: the plan
 * still holds what it timed and measured for it. (Tables of 16 shapes once
 * forgot it, and the capture then timed cuSPARSE's algorithms inside the
 * graph.) Measured auto plans measure every shape at its first call. */
static void check_many_shapes(const tcspmm_csr *A, tcspmm_path path, const char *what)
{
    tcspmm_plan *plan = tests_plan(A, path, 1);
    if (!plan) return;
    const int pad = 3;
    const float alpha = 0.75f;
    const tcspmm_layout R = TCSPMM_LAYOUT_ROW_MAJOR;
    test_operands t;
    test_operands_make(&t, A, 1, R, pad, 0.0f, seed++);
    device_operands d;
    device_operands_make(&d, &t);
    CHECK_OK(tcspmm_spmm(plan, 1, alpha, d.dB, t.ldb, 0.0f, d.dC, t.ldc, R, d.s));
    tcspmm_path first = TCSPMM_PATH_CPU;
    CHECK_OK(tcspmm_plan_path_for(plan, 1, R, 0.0f, &first));

    const int64_t ns[] = {1, 2, 3, 5, 9, 17, 33, 65, 129, 257}; /* one per range of N */
    const int64_t big = (A->rows > A->cols ? A->rows : A->cols) * 257;
    float *random = malloc((size_t)big * sizeof(float)), *dB = NULL, *dC = NULL;
    rng_fill(random, (size_t)big, seed++);
    CHECK(cudaMalloc((void **)&dB, (size_t)big * sizeof(float)) == cudaSuccess);
    CHECK(cudaMalloc((void **)&dC, (size_t)big * sizeof(float)) == cudaSuccess);
    CHECK(cudaMemcpy(dB, random, (size_t)big * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK(cudaMemcpy(dC, random, (size_t)big * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess);
    free(random);
    int others = 0;
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
        for (int layout = 0; layout < 2; layout++)
            for (int b = 0; b < 2; b++) {
                const int64_t n = ns[i];
                const tcspmm_layout l = (tcspmm_layout)layout;
                if (n == 1 && l == R && b == 0) continue;
                const int64_t ldb = l == R ? n : A->cols, ldc = l == R ? n : A->rows;
                CHECK_OK(tcspmm_spmm(plan, n, 1.0f, dB, ldb, 0.5f * b, dC, ldc, l, d.s));
                others++;
            }
    CHECK(others == 39);
    CHECK(cudaStreamSynchronize(d.s) == cudaSuccess);
    tcspmm_path again = TCSPMM_PATH_CPU;
    CHECK_OK(tcspmm_plan_path_for(plan, 1, R, 0.0f, &again));
    CHECK(again == first && (path != TCSPMM_PATH_AUTO || again != TCSPMM_PATH_AUTO));
    printf("%-30s 40 shapes, the first still %s\n", what, tcspmm_path_name(again));
    check_capture(plan, A, &t, &d, 1, R, pad, alpha, 0.0f, 1e-3, what);
    cudaFree(dB);
    cudaFree(dC);
    device_operands_free(&d);
    test_operands_free(&t);
    tcspmm_plan_destroy(plan);
}

/* Against the header's advice, a shape's first call captured: it runs
 * untimed (cuSPARSE's ALG_DEFAULT; HRPB on a measured plan), and the
 * preprocessing it records runs only with the graph. Then a direct call of
 * that shape before the graph's first launch (it times cuSPARSE's
 * algorithms, or measures, and must not take the captured preprocessing as
 * done), the graph launched twice, and a direct call again. */
static void check_captured_first(const tcspmm_csr *A, tcspmm_path path, int64_t n,
                                 tcspmm_layout layout, float beta, const char *what)
{
    tcspmm_plan *plan = tests_plan(A, path, 1);
    if (!plan) return;
    const int pad = 3;
    const float alpha = -0.5f;
    test_operands t;
    test_operands_make(&t, A, n, layout, pad, beta, seed++);
    device_operands d;
    device_operands_make(&d, &t);
    cudaGraph_t graph;
    cudaGraphExec_t exec = capture(plan, n, alpha, t.ldb, beta, t.ldc, layout, &d, &graph, what);
    check_launch(NULL, plan, &d, A, n, layout, pad, alpha, beta, 1e-3, what);
    for (int round = 0; round < 2 && exec; round++)
        check_launch(exec, plan, &d, A, n, layout, pad, alpha, beta, 1e-3, what);
    check_launch(NULL, plan, &d, A, n, layout, pad, alpha, beta, 1e-3, what);
    if (exec) cudaGraphExecDestroy(exec);
    if (graph) cudaGraphDestroy(graph);
    device_operands_free(&d);
    test_operands_free(&t);
    tcspmm_plan_destroy(plan);
}

/* A sparse24 graph captured at n = 64, launched after a direct call at
 * n = 300 has made the plan's packed copy of B grow: the graph keeps the
 * buffer it captured, and its results are checked. (A freed buffer would
 * still give right results here while nothing reuses its memory, and
 * compute-sanitizer memcheck did not flag it either:
 * bench/results/review-fixes-2026-11-27/.) */
static void check_graph_after_growth(const tcspmm_csr *A, tcspmm_precision precision,
                                     double tol, const char *what)
{
    tcspmm_plan *plan = tests_plan_at(A, TCSPMM_PATH_SPARSE24, precision);
    if (!plan) return;
    const tcspmm_layout R = TCSPMM_LAYOUT_ROW_MAJOR;
    const int pad = 3;
    test_operands small, big;
    test_operands_make(&small, A, 64, R, pad, 0.5f, seed++);
    test_operands_make(&big, A, 300, R, pad, 0.0f, seed++);
    device_operands d_small, d_big;
    device_operands_make(&d_small, &small);
    device_operands_make(&d_big, &big);
    check_launch(NULL, plan, &d_small, A, 64, R, pad, 1.0f, 0.5f, tol, what);
    cudaGraph_t graph;
    cudaGraphExec_t exec =
        capture(plan, 64, 1.0f, small.ldb, 0.5f, small.ldc, R, &d_small, &graph, what);
    CHECK(cudaStreamSynchronize(d_small.s) == cudaSuccess);
    check_launch(NULL, plan, &d_big, A, 300, R, pad, 1.0f, 0.0f, tol, what);
    for (int round = 0; round < 2 && exec; round++)
        check_launch(exec, plan, &d_small, A, 64, R, pad, 1.0f, 0.5f, tol, what);
    if (exec) cudaGraphExecDestroy(exec);
    if (graph) cudaGraphDestroy(graph);
    device_operands_free(&d_small);
    device_operands_free(&d_big);
    test_operands_free(&small);
    test_operands_free(&big);
    tcspmm_plan_destroy(plan);
}

/* A plan for A on path and precision, checked as a graph in both layouts;
 * at_first_call: tcspmm_options.measure_at_first_call. */
static void check_plan(const tcspmm_csr *A, tcspmm_path path, tcspmm_precision precision,
                       tcspmm_row_order order, int num_sms, int at_first_call, double tol,
                       const char *what)
{
    tcspmm_options opt;
    tcspmm_options_init(&opt);
    opt.path = path;
    opt.measure_at_first_call = at_first_call;
    opt.precision = precision;
    opt.row_order = order;
    opt.num_sms = num_sms;
    opt.blocks_per_sm = num_sms ? 1 : 0; /* few slots: the heavy panel is split */
    tcspmm_plan *plan = NULL;
    CHECK_OK(tcspmm_plan_create(A, &opt, &plan));
    if (!plan) return;
    tcspmm_info info;
    CHECK_OK(tcspmm_plan_info(plan, &info));
    CHECK(info.path == path);
    if (num_sms) CHECK(info.split_panels > 0); /* the case is there to split a panel */
    check_graph(plan, A, 64, TCSPMM_LAYOUT_ROW_MAJOR, 0.0f, tol, what);
    check_graph(plan, A, 7, TCSPMM_LAYOUT_COL_MAJOR, -0.5f, tol, what);
    check_graph(plan, A, 1, TCSPMM_LAYOUT_ROW_MAJOR, 0.5f, tol, what);
    tcspmm_plan_destroy(plan);
}

/* Milliseconds of `calls` direct calls (graph NULL) or graph launches,
 * back to back on d->s (row-major, n columns, beta = 0), between two events. */
static float time_calls(tcspmm_plan *plan, cudaGraphExec_t graph, int calls, int64_t n,
                        const device_operands *d)
{
    cudaStream_t s = d->s;
    cudaEvent_t start, stop;
    float ms = -1.0f;
    CHECK(cudaEventCreate(&start) == cudaSuccess && cudaEventCreate(&stop) == cudaSuccess);
    CHECK(cudaEventRecord(start, s) == cudaSuccess);
    for (int i = 0; i < calls; i++) {
        if (graph)
            CHECK(cudaGraphLaunch(graph, s) == cudaSuccess);
        else
            CHECK_OK(tcspmm_spmm(plan, n, 1.0f, d->dB, n, 0.0f, d->dC, n, TCSPMM_LAYOUT_ROW_MAJOR,
                                 s));
    }
    CHECK(cudaEventRecord(stop, s) == cudaSuccess);
    CHECK(cudaEventSynchronize(stop) == cudaSuccess);
    CHECK(cudaEventElapsedTime(&ms, start, stop) == cudaSuccess);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return ms;
}

static int time_mode(int argc, char **argv)
{
    const char *file = argc > 0 ? argv[0] : tests_data("cora.mtx");
    const int64_t n = argc > 1 ? atoll(argv[1]) : 32;
    const int calls = 1000;
    tcspmm_csr A;
    CHECK_OK(tests_read(file, 111, &A));
    tcspmm_plan *plan = NULL;
    CHECK_OK(tcspmm_plan_create(&A, NULL, &plan));
    if (!plan || n < 1) return tests_finish();
    tcspmm_info info;
    CHECK_OK(tcspmm_plan_info(plan, &info));
    test_operands t;
    test_operands_make(&t, &A, n, TCSPMM_LAYOUT_ROW_MAJOR, 0, 0.0f, seed++);
    device_operands d;
    device_operands_make(&d, &t);
    time_calls(plan, NULL, 20, n, &d); /* warm-up; the capture needs one call first */
    cudaGraph_t graph;
    cudaGraphExec_t exec =
        capture(plan, n, 1.0f, n, 0.0f, n, TCSPMM_LAYOUT_ROW_MAJOR, &d, &graph, file);
    if (!exec) return tests_finish();
    time_calls(plan, exec, 20, n, &d);
    for (int rep = 0; rep < 3; rep++) {
        float direct = time_calls(plan, NULL, calls, n, &d);
        float graphed = time_calls(plan, exec, calls, n, &d);
        if (direct < 0 || graphed < 0) break; /* a failed call: CHECK said so; no time */
        printf("%s nnz=%lld N=%lld path=%s: %d calls back to back: direct %.2f us/call, "
               "graph %.2f us/call (%.2fx)\n",
               file, (long long)A.nnz, (long long)n, tcspmm_path_name(info.path), calls,
               1e3 * direct / calls, 1e3 * graphed / calls, direct / graphed);
    }
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    device_operands_free(&d);
    test_operands_free(&t);
    tcspmm_plan_destroy(plan);
    tcspmm_csr_free(&A);
    return tests_finish();
}

/* The first calls of new shapes (which allocate, time cuSPARSE's
 * algorithms or measure, and synchronize their stream) and first new
 * values, on a non-blocking stream, while a capture in global mode is open
 * on another: they succeed, and the capture survives them (the library
 * relaxes this thread's capture mode for its calls). */
static void test_beside_global_capture(const tcspmm_csr *A)
{
    tcspmm_plan *plans[3] = {NULL, NULL, NULL};
    const tcspmm_path paths[3] = {TCSPMM_PATH_CUSPARSE, TCSPMM_PATH_AUTO, TCSPMM_PATH_HRPB};
    for (int p = 0; p < 3; p++) {
        tcspmm_options opt;
        tcspmm_options_init(&opt);
        opt.path = paths[p];
        opt.measure_at_first_call = 1;
        opt.updatable_values = 1;
        CHECK_OK(tcspmm_plan_create(A, &opt, &plans[p]));
    }
    cudaStream_t captured;
    CHECK(cudaStreamCreateWithFlags(&captured, cudaStreamNonBlocking) == cudaSuccess);
    test_operands t;
    test_operands_make(&t, A, 24, TCSPMM_LAYOUT_COL_MAJOR, 0, 0.5f, seed++);
    device_operands d;
    device_operands_make(&d, &t);
    const cudaStream_t mine = d.s;
    float *scratch = NULL;
    CHECK(cudaMalloc((void **)&scratch, 64) == cudaSuccess);
    CHECK(cudaStreamBeginCapture(captured, cudaStreamCaptureModeGlobal) == cudaSuccess);
    CHECK(cudaMemsetAsync(scratch, 0, 64, captured) == cudaSuccess);
    for (int p = 0; p < 3; p++) {
        if (!plans[p]) continue;
        CHECK_OK(tcspmm_spmm(plans[p], 24, 1.0f, d.dB, t.ldb, 0.5f, d.dC, t.ldc,
                             TCSPMM_LAYOUT_COL_MAJOR, mine));
        CHECK_OK(tcspmm_plan_set_values(plans[p], A->values, mine));
    }
    cudaGraph_t graph = NULL; /* ended before the sync, which global mode forbids this thread */
    CHECK(cudaStreamEndCapture(captured, &graph) == cudaSuccess && graph != NULL);
    CHECK(cudaStreamSynchronize(mine) == cudaSuccess);
    if (graph) cudaGraphDestroy(graph);
    for (int p = 0; p < 3; p++) tcspmm_plan_destroy(plans[p]);
    cudaFree(scratch);
    device_operands_free(&d);
    test_operands_free(&t);
    cudaStreamDestroy(captured);
}

int main(int argc, char **argv)
{
    tests_require_gpu();
    if (argc > 1 && !strcmp(argv[1], "--time")) return time_mode(argc - 2, argv + 2);
    const tcspmm_precision TF = TCSPMM_PRECISION_TF32;
    const tcspmm_row_order NAT = TCSPMM_ROW_ORDER_NATURAL;
    tcspmm_csr A, H, S12, S24;
    CHECK_OK(matgen_random(300, 257, 0.05, 1, &A));
    CHECK_OK(matgen_heavy_panel(203, 1500, 0.002, 32, 16, 0.6, 9, &H));
    CHECK_OK(sp24_gen(200, 300, SP24_1TO2, 0.2, 3, &S12));
    CHECK_OK(sp24_gen(200, 300, SP24_2TO4, 0.2, 4, &S24));

    check_plan(&A, TCSPMM_PATH_HRPB, TF, NAT, 0, 0, 1e-3, "hrpb tf32");
    check_plan(&A, TCSPMM_PATH_HRPB, TCSPMM_PRECISION_FP32, NAT, 0, 0, 1e-5, "hrpb fp32");
    check_plan(&A, TCSPMM_PATH_HRPB, TF, TCSPMM_ROW_ORDER_CLUSTERED, 0, 0, 1e-3, "hrpb tf32 clustered");
    check_plan(&H, TCSPMM_PATH_HRPB, TF, NAT, 2, 0, 1e-3, "hrpb tf32 split panels");
    check_plan(&A, TCSPMM_PATH_CUSPARSE, TF, NAT, 0, 0, 1e-5, "cusparse");
    check_plan(&A, TCSPMM_PATH_AUTO, TF, NAT, 0, 1, 1e-3, "auto measured");
    check_plan(&A, TCSPMM_PATH_AUTO, TF, NAT, 0, 0, 1e-3, "auto not measured yet");
    check_plan(&S12, TCSPMM_PATH_SPARSE24, TF, NAT, 0, 0, 1e-3, "sparse24 tf32 (1:2)");
    check_plan(&S24, TCSPMM_PATH_SPARSE24, TCSPMM_PRECISION_BF16, NAT, 0, 0, 1e-2,
               "sparse24 bf16 (2:4)");
    check_graph_after_growth(&S24, TCSPMM_PRECISION_BF16, 1e-2, "sparse24 bf16, B grows");
    check_graph_after_growth(&S12, TF, 1e-3, "sparse24 tf32, B grows");
    check_many_shapes(&A, TCSPMM_PATH_CUSPARSE, "cusparse, many shapes");
    check_many_shapes(&A, TCSPMM_PATH_AUTO, "auto measured, many shapes");
    const tcspmm_layout ROW = TCSPMM_LAYOUT_ROW_MAJOR, COL = TCSPMM_LAYOUT_COL_MAJOR;
    check_captured_first(&A, TCSPMM_PATH_CUSPARSE, 1, ROW, 0.0f, "cusparse, captured first");
    check_captured_first(&A, TCSPMM_PATH_CUSPARSE, 6, COL, 0.5f, "cusparse, captured first");
    check_captured_first(&A, TCSPMM_PATH_CUSPARSE, 13, ROW, 0.0f, "cusparse, captured first");
    check_captured_first(&A, TCSPMM_PATH_AUTO, 1, ROW, 0.0f, "auto measured, captured first");
    check_captured_first(&A, TCSPMM_PATH_AUTO, 6, COL, 0.5f, "auto measured, captured first");
    test_beside_global_capture(&A);

    tcspmm_csr_free(&A);
    tcspmm_csr_free(&H);
    tcspmm_csr_free(&S12);
    tcspmm_csr_free(&S24);
    return tests_finish();
}
