/* c_store.h: how the structured-sparsity kernels (sp24_mma.cu,
 * sp24_wgmma.cu) write C = alpha * sum + beta * C, and the float / 16-bit
 * conversions they share. The arithmetic is in float; C's elements are
 * floats, or the matrix's 16-bit type (bf16 or fp16, rounded to nearest even
 * once, as the result is stored), for callers that want the output
 * cuSPARSELt gives. beta == 0: C is not read. */
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

/* c[0 .. W-1] = a * v + beta * c, C not read when beta is 0. */
template <typename CT, int W>
__device__ __forceinline__ void store_c(CT *c, float a, const float (&v)[W], float beta)
{
    if constexpr (W == 1) {
        *c = from_float<CT>(beta != 0.0f ? a * v[0] + beta * to_float(*c) : a * v[0]);
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
        *(c_vector<CT, W> *)c = out;
    }
}

#endif
