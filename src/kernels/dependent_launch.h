/* dependent_launch.h: programmatic dependent launch (compute capability 9.0
 * and later). A product whose kernel follows a short pass of ours on the
 * same stream (the beta pass over C of split parts, the packing of B) lets
 * that kernel start while the pass still runs: the pass says so as it
 * begins (dependents_may_start), the kernel is launched with the attribute
 * (dependent_launch_attribute, where dependent_launch_supported), and it
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

/* Whether the current device can launch dependents (compute capability 9.0
 * or later): asked once, when a product is set up, not at every launch. */
static inline int dependent_launch_supported(void)
{
    int dev = 0, major = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return major >= 9;
}

/* *attr: the launch attribute that makes a kernel a dependent of the one
 * before it on its stream (only where dependent_launch_supported). */
static inline void dependent_launch_attribute(cudaLaunchAttribute *attr)
{
    attr->id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr->val.programmaticStreamSerializationAllowed = 1;
}

#endif
