/* dependent_launch.h: programmatic dependent launch (compute capability 9.0
 * and later). A product whose kernel follows a short pass of ours on the
 * same stream (the beta pass over C of split parts, the packing of B) lets
 * that kernel start while the pass still runs: the pass says so as it
 * begins (dependents_may_start), the kernel is launched with the attribute
 * (dependent_launch_attribute, where dependent_launch_supported says the
 * device and the kernel's code can), and it
 * waits for the pass (wait_for_pass) only before it touches what the pass
 * writes. Only the launch right after
 * our own pass gets the attribute: the pass itself starts after everything
 * before it on the stream has finished, so the kernel never overlaps the
 * caller's work. Before compute capability 9.0 both device calls compile to
 * nothing and the host leaves the attribute off. */
#ifndef TCSPMM_DEPENDENT_LAUNCH_H
#define TCSPMM_DEPENDENT_LAUNCH_H

#include <cuda_runtime.h>

/* In the pass: the kernel launched after it may start now. */
__device__ __forceinline__ void dependents_may_start(void)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

/* In the dependent kernel: returns once the pass has finished and its writes
 * are visible (at once when the kernel was not launched as a dependent). */
__device__ __forceinline__ void wait_for_pass(void)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/* Whether kernel dependent (a __global__ function) may be launched as a
 * dependent on the current device: compute capability 9.0 or later, and the
 * kernel compiled for it (PTX version 9.0 or later), so that its
 * wait_for_pass is in its code. A build for older architectures alone, run
 * by the driver's JIT on a newer GPU, has the wait compiled out: launched
 * early, the kernel would not wait for the pass. Asked once, when a product
 * is set up, not at every launch. */
static inline int dependent_launch_supported(const void *dependent)
{
    int dev = 0, major = 0;
    cudaFuncAttributes attr;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess ||
        cudaFuncGetAttributes(&attr, dependent) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return major >= 9 && attr.ptxVersion >= 90;
}

/* *attr: the launch attribute that makes a kernel a dependent of the one
 * before it on its stream (only where dependent_launch_supported). */
static inline void dependent_launch_attribute(cudaLaunchAttribute *attr)
{
    attr->id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr->val.programmaticStreamSerializationAllowed = 1;
}

#endif
