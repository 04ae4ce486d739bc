/* harness.c: counters and reporting for the tests' CHECK macros. */
#include "harness.h"

#include <cuda_runtime.h>
#include <stdlib.h>

static long passed, failed;

void tests_check(int ok, const char *expr, const char *file, int line)
{
    if (ok) {
        passed++;
        return;
    }
    failed++;
    fprintf(stderr, "FAIL %s:%d: %s\n", file, line, expr);
}

int tests_finish(void)
{
    printf("%ld passed, %ld failed\n", passed, failed);
    return failed == 0 && passed > 0 ? 0 : 1;
}

void tests_require_gpu(void)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        printf("skipped: no CUDA device (%s)\n", e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
        exit(77);
    }
}

const char *tests_data(const char *name)
{
    static _Thread_local char path[4096];
    const char *dir = getenv("TCSPMM_DATA");
    snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : "data", name);
    return path;
}
