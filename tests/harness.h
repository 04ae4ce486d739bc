/* harness.h: the tests' tiny check framework. CHECK records a pass or a
 * failure (with file:line); tests_finish prints "N passed, N failed" and
 * gives the exit status. A GPU test calls tests_require_gpu() first: with no
 * GPU it prints why and exits 77, which ctest reports as skipped. */
#ifndef TCSPMM_TEST_HARNESS_H
#define TCSPMM_TEST_HARNESS_H

#include <stdio.h>

#include "tcspmm.h"

void tests_check(int ok, const char *expr, const char *file, int line);
int tests_finish(void);
void tests_require_gpu(void);
/* Path of a bundled matrix: $TCSPMM_DATA/name (data/name by default). */
const char *tests_data(const char *name);

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
