/* harness.h: the tests' tiny check framework. CHECK records a pass or a
 * failure (with file:line); tests_finish prints "N passed, N failed" and
 * gives the exit status. A GPU test calls tests_require_gpu() first: with no
 * GPU it prints why and exits 77, which ctest reports as skipped, or 1 (a
 * failure) where TCSPMM_REQUIRE_GPU is set and not 0, as on a machine that
 * has a GPU the tests must not miss. */
#ifndef TCSPMM_TEST_HARNESS_H
#define TCSPMM_TEST_HARNESS_H

#include <stdio.h>

#include "tcspmm.h"

void tests_check(int ok, const char *expr, const char *file, int line);
int tests_finish(void);
void tests_require_gpu(void);
/* Whether the current device can page-lock ordinary host memory (a failed
 * query is a failed check). */
int tests_page_lock_supported(void);
/* Checks that an upload of bytes from the host goes through staging buffers
 * of stage_bytes (host_upload.h) on this device, or, where the device
 * cannot page-lock ordinary memory, that it goes by plain copies (said). */
void tests_check_staged(size_t bytes, size_t stage_bytes, const char *what);
/* Whether a and b have the same sizes and the same bytes in every array. */
int tests_csr_equal(const tcspmm_csr *a, const tcspmm_csr *b);
/* *out = a copy of A with every value rounded to precision p as the
 * kernels round it (sp24_round); free it with tcspmm_csr_free. */
tcspmm_status tests_rounded_copy(const tcspmm_csr *A, tcspmm_precision p, tcspmm_csr *out);
/* Path of a bundled matrix: $TCSPMM_DATA/name (data/name by default). */
const char *tests_data(const char *name);
/* Path of a scratch file of this test process: $TMPDIR (or /tmp), then
 * tcspmm_<pid>_<name>, so that tests running at the same time (ctest -j, two
 * build trees) never write the same file. */
void tests_temp_path(char *path, size_t size, const char *name);
/* Reads the Matrix Market file at path into *A; where its values are all the
 * same (a pattern file's ones), gives it random ones from seed instead, so
 * that no check runs on constant data (rng_fill_if_constant). */
tcspmm_status tests_read(const char *path, uint64_t seed, tcspmm_csr *A);

/* What the gaps past C's leading dimension hold before a product and must
 * hold after it, where a test fills them itself: not NaN, which a kernel
 * writing beta * C there would leave NaN; exact in fp32, bf16 and fp16. */
#define TESTS_GAP_VALUE (-3.0f)

/* The operands of one product check: B (cols x n) random from seed, C0 random
 * when beta != 0 and NaN otherwise (so every element must be written), C a
 * copy of C0, ref room for the rows x n float64 reference; B and C in layout
 * with leading dimensions padded by pad. */
typedef struct test_operands {
    int64_t ldb, ldc;
    size_t bsize, csize; /* elements of B and C, padding included */
    float *B, *C0, *C;
    double *ref;
} test_operands;

void test_operands_make(test_operands *t, const tcspmm_csr *A, int64_t n, tcspmm_layout layout,
                        int pad, float beta, uint64_t seed);
/* The same with the leading dimensions given (at least the minimum). */
void test_operands_make_ld(test_operands *t, const tcspmm_csr *A, int64_t n, tcspmm_layout layout,
                           int64_t ldb, int64_t ldc, float beta, uint64_t seed);
void test_operands_free(test_operands *t);
/* Elements of t->C outside its rows x n (the gaps the leading dimension
 * leaves) whose bits differ from t->C0's: a call must leave them alone. */
int64_t test_operands_padding_changed(const test_operands *t, int64_t rows, int64_t n,
                                      tcspmm_layout layout);
/* t's B and C0 copied to *dB and *dC (allocated when NULL), landed on the
 * device before it returns: a copy from pageable memory may return before
 * its DMA ends, and a non-blocking stream does not wait for it. */
void test_operands_upload(const test_operands *t, float **dB, float **dC);

/* A plan of path for A with default options but measure_at_first_call,
 * or NULL after a failed check. */
tcspmm_plan *tests_plan(const tcspmm_csr *A, tcspmm_path path, int measure_at_first_call);
/* A plan of path and precision for A, other options the defaults, or NULL
 * after a failed check. */
tcspmm_plan *tests_plan_at(const tcspmm_csr *A, tcspmm_path path, tcspmm_precision precision);

/* One product of plan with n columns (alpha 1.5, row-major, leading
 * dimensions padded by pad, operands from seed; beta 0.25 or 0 as a bit of
 * rng_next(seed) says, with C poisoned with NaN where it is 0, so that every
 * element must be written) against the float64 reference of A, within relative error tol,
 * and the padding left alone; what names a failure. On the
 * device by tcspmm_spmm on stream (its operands copied on stream), or with
 * on_host by tcspmm_spmm_host. */
void tests_check_spmm(tcspmm_plan *plan, const tcspmm_csr *A, int64_t n, int pad, int on_host,
                      double tol, uint64_t seed, void *stream, const char *what);
/* The same with B scaled by b_scale (a power of 2, so that B stays exact):
 * for A's values near FLT_MAX, whose products with B would overflow. */
void tests_check_spmm_scaled(tcspmm_plan *plan, const tcspmm_csr *A, int64_t n, int pad,
                             int on_host, double tol, float b_scale, uint64_t seed, void *stream,
                             const char *what);

#define CHECK(cond) tests_check((cond) ? 1 : 0, #cond, __FILE__, __LINE__)
#define CHECK_OK(call)                                                               \
    do {                                                                             \
        tcspmm_status check_st_ = (call);                                            \
        tests_check(check_st_ == TCSPMM_SUCCESS, #call, __FILE__, __LINE__);         \
        if (check_st_ != TCSPMM_SUCCESS)                                             \
            fprintf(stderr, "  -> %s: %s\n", tcspmm_status_string(check_st_),        \
                    tcspmm_last_error());                                            \
    } while (0)

#endif
