/* bench_gpu.h: timing tcspmm_spmm against the best cuSPARSE SpMM algorithm
 * in the same process, the way issue 4 asks: CUDA events around each whole
 * call, L2 flushed before each run, warm-up, median of many runs, plus a
 * device-to-device copy measured in the same run for the memory roofline. */
#ifndef TCSPMM_BENCH_GPU_H
#define TCSPMM_BENCH_GPU_H

#include "cusparse_path.h"
#include "tcspmm.h"

typedef struct bench_result {
    double time_ms;         /* median whole tcspmm_spmm_ex call, B and C of their types */
    double float_ms;        /* the same with float B and C, where theirs are 16-bit; else -1 */
    double time_spread;     /* (p90 - p10) / median of our runs */
    double cusparse_ms;     /* median of the best cuSPARSE algorithm */
    const char *cusparse_alg;
    double cusparse_alg_ms[CUSPARSE_PATH_NUM_ALGS]; /* each of cusparse_path_algs; <0: not offered */
    double copy_gbs;        /* device-to-device copy, bytes read + written */
    int64_t min_bytes;      /* compulsory traffic of our path */
    double roofline_frac;   /* (min_bytes / time) / copy bandwidth */
    int reps;
    int typed_checked;      /* the call of B's and C's types was checked (typed_tol > 0) */
    double typed_rel_err;   /* and its relative error against float64 (compare_to_reference) */
    int64_t typed_nonfinite;
    int typed_pass;
    double typed_first_ms;  /* the first call of B's and C's types where one is 16-bit, host
                               clock to the device's end (it may load its kernels); else -1 */
} bench_result;

/* Times plan (any GPU path) and cuSPARSE on A for B (cols x n) and C
 * (rows x n) in the given layout, with random B and C from seed: ours with
 * elements of b_type and c_type (and, where one is 16-bit, also with floats),
 * cuSPARSE with floats. The roofline counts B and C in their types. Where B
 * or C is 16-bit and typed_tol > 0, the first call of those types is checked
 * against the float64 product of the values as stored, C poisoned first
 * where beta is 0 (the float call is the caller's to check); that first
 * call of those types is timed alone (typed_first_ms). */
tcspmm_status bench_gpu(tcspmm_plan *plan, const tcspmm_csr *A, int64_t n, tcspmm_layout layout,
                        float alpha, float beta, tcspmm_datatype b_type, tcspmm_datatype c_type,
                        int reps, uint64_t seed, double typed_tol, bench_result *out);

/* *d = a new device array (cudaFree it) of count random floats from seed. */
tcspmm_status bench_upload_random(float **d, size_t count, uint64_t seed);

/* The same as elements of type t (16-bit ones: the same floats rounded). */
tcspmm_status bench_upload_random_typed(void **d, size_t count, tcspmm_datatype t, uint64_t seed);

/* Sorts ms[0..n) and returns the median (ms[n / 2]); for the host-side
 * timings of the tools, where n is small. */
double bench_median_ms(double *ms, int n);

#endif
