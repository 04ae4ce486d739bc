/* mbarrier.cuh: shared-memory transaction barriers (mbarrier) and the bulk
 * copies that complete on them (cp.async.bulk, plain and 2-D tensor), for the
 * kernels that copy by TMA on sm_90: hrpb_tf32.cu and sp24_wgmma.cu.
 *
 * A barrier initialised with count 1 completes a phase when its one arrival
 * has happened and every byte announced by expect_tx has landed. Waiters pass
 * the parity of the phase they wait for (0 for the first). The sm_90
 * instructions exist only in device code built for sm_90 or later; built
 * for an older architecture, these functions trap, and callers must not
 * reach them there. */
#ifndef TCSPMM_MBARRIER_CUH
#define TCSPMM_MBARRIER_CUH

#include <cuda.h>
#include <stdint.h>

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define TCSPMM_SM90_COPIES 1
#else
#define TCSPMM_SM90_COPIES 0
#endif

static __device__ __forceinline__ uint32_t smem_u32(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

/* Initialise count arrivals per phase; then fence_mbarrier_init and a
 * __syncthreads before anyone uses the barriers. */
static __device__ __forceinline__ void mbar_init(uint64_t *bar, int count)
{
#if TCSPMM_SM90_COPIES
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_u32(bar)), "r"(count));
#else
    __trap();
#endif
}

static __device__ __forceinline__ void fence_mbarrier_init(void)
{
#if TCSPMM_SM90_COPIES
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#else
    __trap();
#endif
}

/* Arrive and announce bytes still to land in this phase. */
static __device__ __forceinline__ void mbar_expect_tx(uint64_t *bar, uint32_t bytes)
{
#if TCSPMM_SM90_COPIES
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_u32(bar)),
                 "r"(bytes)
                 : "memory");
#else
    __trap();
#endif
}

/* Announce bytes still to land in this phase, without arriving. */
static __device__ __forceinline__ void mbar_add_tx(uint64_t *bar, uint32_t bytes)
{
#if TCSPMM_SM90_COPIES
    asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(smem_u32(bar)),
                 "r"(bytes)
                 : "memory");
#else
    __trap();
#endif
}

static __device__ __forceinline__ void mbar_arrive(uint64_t *bar)
{
#if TCSPMM_SM90_COPIES
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_u32(bar)) : "memory");
#else
    __trap();
#endif
}

static __device__ __forceinline__ void mbar_wait(uint64_t *bar, uint32_t parity)
{
#if TCSPMM_SM90_COPIES
    asm volatile("{\n"
                 ".reg .pred done;\n"
                 "wait_%=:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
                 "@!done bra wait_%=;\n"
                 "}" ::"r"(smem_u32(bar)),
                 "r"(parity)
                 : "memory");
#else
    __trap();
#endif
}

/* bytes (a multiple of 16) from global src to shared dst, both 16-byte
 * aligned, completing on bar. */
static __device__ __forceinline__ void bulk_copy(void *dst, const void *src, uint32_t bytes,
                                                 uint64_t *bar)
{
#if TCSPMM_SM90_COPIES
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1], %2, [%3];" ::"r"(smem_u32(dst)),
                 "l"(src), "r"(bytes), "r"(smem_u32(bar))
                 : "memory");
#else
    __trap();
#endif
}

/* A box of a 2-D tensor map (coordinates in elements, inner first) into
 * shared memory, completing bytes on bar. */
static __device__ __forceinline__ void tma_load(void *dst, const CUtensorMap *map, uint64_t *bar,
                                                int x, int y)
{
#if TCSPMM_SM90_COPIES
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%3, %4}], [%2];" ::"r"(smem_u32(dst)),
                 "l"((uint64_t)map), "r"(smem_u32(bar)), "r"(x), "r"(y)
                 : "memory");
#else
    __trap();
#endif
}

#endif
