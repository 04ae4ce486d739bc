/* c_store.h: how the structured-sparsity kernels (sp24_mma.cu,
 * sp24_wgmma.cu) and HRPB's 16-bit C (hrpb_kernel.h) write C = alpha * sum
 * + beta * C, and the float / 16-bit conversions they share (with
 * dense_scale.cu and sp24_values_gpu.cu). The arithmetic is in float; C's
 * elements are floats, or the matrix's 16-bit type (bf16 or fp16, rounded to
 * nearest even once, as the result is stored), for callers that want the
 * output cuSPARSELt gives. beta == 0: C is not read. */
#ifndef TCSPMM_C_STORE_H
#define TCSPMM_C_STORE_H

#include <cuda_bf16.h>
#include <cuda_fp16.h>

__device__ __forceinline__ float to_float(float x) { return x; }
__device__ __forceinline__ float to_float(__nv_bfloat16 x) { return __bfloat162float(x); }
__device__ __forceinline__ float to_float(__half x) { return __half2float(x); }

template <typename CT> __device__ __forceinline__ CT from_float(float x);
template <> __device__ __forceinline__ float from_float<float>(float x) { return x; }
template <> __device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float x)
{
    return __float2bfloat16_rn(x);
}
template <> __device__ __forceinline__ __half from_float<__half>(float x)
{
    return __float2half_rn(x);
}

/* W neighbouring elements of C, moved in one access (c aligned to its size). */
template <typename CT, int W> struct alignas(W * sizeof(CT)) c_vector {
    CT e[W];
};

/* The unsigned type of BYTES bytes that __stcs stores. */
template <int BYTES> struct store_bits;
template <> struct store_bits<2> { typedef unsigned short type; };
template <> struct store_bits<4> { typedef unsigned int type; };
template <> struct store_bits<8> { typedef uint2 type; };
template <> struct store_bits<16> { typedef uint4 type; };

/* *p = v; where EVICT_FIRST as a streaming store (st.global.cs, evict
 * first): the kernel does not read C after writing it, so its lines may
 * leave L2 before A's and B's. */
template <bool EVICT_FIRST, typename T> __device__ __forceinline__ void store_to(T *p, const T &v)
{
    if constexpr (EVICT_FIRST) {
        typedef typename store_bits<sizeof(T)>::type bits;
        static_assert(alignof(T) >= alignof(bits), "a streaming store of T's alignment");
        bits b;
        memcpy(&b, &v, sizeof b);
        __stcs((bits *)p, b);
    } else {
        *p = v;
    }
}

/* c[0 .. W-1] = a * v + beta * c, C not read when beta is 0; stored evict
 * first where EVICT_FIRST: in the structured kernels' 128 x 128 and 128 x
 * 64 tiles (sp24_wgmma.cu) of bf16 and fp16 products. On the H200, evict
 * first in every kernel against plain stores, in alternating processes
 * (bench/results/sp24-stage-order-2026-11-30/):
 * - bf16 and fp16, 12 rounds, float and 16-bit C alike: 4096 x 512 4%-5%
 *   and 8192 x 128 5%-8% faster on average, and faster in every round (both
 *   run those tiles); the other 22 products of M = K = 4096..16384, N =
 *   64..8192 at 0.99x-1.02x the speed. M = 16384 at N = 4096 and 8192 (256
 *   x 128 tiles) were not among them; call 4 timed them with a float C 1%-4%
 *   slower than session 64's processes had (cuSPARSELt's own times moved by
 *   -2% to +5%): not settled;
 * - tf32, 6 rounds: level where it runs these tiles (0.995x-1.003x), and
 *   2%-3% slower on average at 8192 x 512 and 16384 x 512 (256 x 128 tiles),
 *   in every round;
 * - HRPB's 16-bit C, and its float C in a trial, level on cnr-2000 and a
 *   geometric graph (two rounds).
 * So the other tiles, tf32, HRPB and the warp kernel (sp24_mma.cu, not
 * measured) store plainly. */
template <typename CT, int W, bool EVICT_FIRST>
__device__ __forceinline__ void store_c(CT *c, float a, const float (&v)[W], float beta)
{
    if constexpr (W == 1) {
        store_to<EVICT_FIRST>(
            c, from_float<CT>(beta != 0.0f ? a * v[0] + beta * to_float(*c) : a * v[0]));
    } else {
        float r[W];
#pragma unroll
        for (int i = 0; i < W; i++) r[i] = a * v[i];
        if (beta != 0.0f) {
            const c_vector<CT, W> old = *(const c_vector<CT, W> *)c;
#pragma unroll
            for (int i = 0; i < W; i++) r[i] += beta * to_float(old.e[i]);
        }
        c_vector<CT, W> out;
#pragma unroll
        for (int i = 0; i < W; i++) out.e[i] = from_float<CT>(r[i]);
        store_to<EVICT_FIRST>((c_vector<CT, W> *)c, out);
    }
}

#endif
