/* cuda_trace.c: a throwaway LD_PRELOAD shim (session 57's stall probe) that
 * times the CUDA runtime calls a plan makes and prints, to stderr, each that
 * took 1 ms or more, and every allocation, registration and copy, with its
 * start in ms since the process loaded the shim. Built on the device:
 *   cc -O2 -shared -fPIC cuda_trace.c -o cuda_trace.so -ldl -I$CUDA/include */
#define _GNU_SOURCE
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <stdio.h>
#include <time.h>

static double t0;
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}
__attribute__((constructor)) static void start(void) { t0 = now(); }

static void note(const char *name, double a, double b, size_t bytes, int always)
{
    if (always || b - a >= 1.0)
        fprintf(stderr, "CT %9.2f %8.2f ms %-24s %zu\n", a - t0, b - a, name, bytes);
}

#define WRAP(ret, name, params, args, bytes, always)                        \
    ret name params                                                         \
    {                                                                       \
        static ret (*real) params;                                          \
        if (!real) real = (ret (*) params)dlsym(RTLD_NEXT, #name);          \
        double t_a = now();                                                 \
        ret r = real args;                                                  \
        note(#name, t_a, now(), bytes, always);                             \
        return r;                                                           \
    }

WRAP(cudaError_t, cudaMalloc, (void **p, size_t n), (p, n), n, n >= (1 << 20))
WRAP(cudaError_t, cudaFree, (void *p), (p), 0, 0)
WRAP(cudaError_t, cudaHostRegister, (void *p, size_t n, unsigned f), (p, n, f), n, 1)
WRAP(cudaError_t, cudaHostUnregister, (void *p), (p), 0, 1)
WRAP(cudaError_t, cudaMallocHost, (void **p, size_t n), (p, n), n, 1)
WRAP(cudaError_t, cudaFreeHost, (void *p), (p), 0, 1)
WRAP(cudaError_t, cudaMemcpy, (void *d, const void *s, size_t n, enum cudaMemcpyKind k), (d, s, n, k), n,
     n >= (1 << 20))
WRAP(cudaError_t, cudaMemcpyAsync,
     (void *d, const void *s, size_t n, enum cudaMemcpyKind k, cudaStream_t st), (d, s, n, k, st), n, 0)
WRAP(cudaError_t, cudaMemset, (void *d, int v, size_t n), (d, v, n), n, 0)
WRAP(cudaError_t, cudaMemsetAsync, (void *d, int v, size_t n, cudaStream_t st), (d, v, n, st), n, 0)
WRAP(cudaError_t, cudaEventSynchronize, (cudaEvent_t e), (e), 0, 0)
WRAP(cudaError_t, cudaStreamSynchronize, (cudaStream_t s), (s), 0, 0)
WRAP(cudaError_t, cudaDeviceSynchronize, (void), (), 0, 0)
WRAP(cudaError_t, cudaStreamCreateWithFlags, (cudaStream_t *s, unsigned f), (s, f), 0, 0)
WRAP(cudaError_t, cudaLaunchKernel, (const void *f, dim3 g, dim3 b, void **a, size_t sh, cudaStream_t s),
     (f, g, b, a, sh, s), 0, 0)
WRAP(cudaError_t, cudaFuncGetAttributes, (struct cudaFuncAttributes *at, const void *f), (at, f), 0, 0)
WRAP(cudaError_t, cudaOccupancyMaxActiveBlocksPerMultiprocessor, (int *n, const void *f, int b, size_t s),
     (n, f, b, s), 0, 0)
