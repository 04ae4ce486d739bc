/* transpose_bench.cu: the column-major -> row-major transpose that the HRPB path runs before
 * a column-major B (src/kernels/dense_transpose.cu as at 378d659), with more elements per
 * thread and another block order, against a 16-byte copy of the same bytes and
 * cudaMemcpyAsync. Experiment, not the library.
 *
 *   nvcc -O3 -arch=sm_90 -std=c++17 transpose_bench.cu -o transpose_bench
 *   ./transpose_bench ROWS     (n = 8, 16, 32, 48, 64, 100, 128; lds = rows and rows + 1)
 *
 * Each variant's tile is TN columns (8, 16, 32: the fewest covering n, as the library) by
 * 256 * P / TN rows. P4 is 378d659's kernel (row tiles along the grid's x, column tiles along
 * y, so a row's column tiles run far apart in time); P8 the same with eight elements a thread;
 * P8o and P16o a one-dimensional grid whose consecutive blocks take the column tiles of one
 * range of rows. call1.txt ran this file's first form: P = 4, 8, 16, 32 in the x/y order and
 * n = 8, 16, 32, 64, 128. CUDA events, L2 flushed (256 MB memset) before each run, median of
 * 30 after 3; GB/s counts the read and the write. Every variant's result is compared with
 * P4's bit for bit. */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

template <int TN, int P, int ORDER>
__global__ void __launch_bounds__(256, 8)
transpose_kernel(const float *__restrict__ S, int64_t lds, int64_t rows, int64_t n,
                 float *__restrict__ T, int64_t ldt)
{
    constexpr int THREADS = 256, TR = THREADS * P / TN, PAD = 32 / TN;
    __shared__ float tile[TN][TR + PAD];
    const int64_t col_tiles = (n + TN - 1) / TN;
    const int64_t i0 = (ORDER ? (int64_t)blockIdx.x / col_tiles : (int64_t)blockIdx.x) * TR,
                  j0 = (ORDER ? (int64_t)blockIdx.x % col_tiles : (int64_t)blockIdx.y) * TN;
    {
        const int r = threadIdx.x % TR, c = threadIdx.x / TR;
        constexpr int CSTEP = THREADS / TR > 0 ? THREADS / TR : 1;
        if constexpr (THREADS >= TR) {
            const bool row_in = i0 + r < rows;
            const float *s = S + (j0 + c) * lds + i0 + r;
#pragma unroll
            for (int p = 0; p < P; p++) {
                const int jj = c + p * CSTEP;
                if (row_in && j0 + jj < n) tile[jj][r] = s[(int64_t)p * CSTEP * lds];
            }
        } else { /* TR > 256: a thread takes rows r, r + 256, ... of each column */
            constexpr int RP = TR / THREADS;
#pragma unroll
            for (int jj = 0; jj < TN; jj++)
#pragma unroll
                for (int q = 0; q < RP; q++) {
                    const int rr = threadIdx.x + q * THREADS;
                    if (i0 + rr < rows && j0 + jj < n) tile[jj][rr] = S[(j0 + jj) * lds + i0 + rr];
                }
        }
    }
    __syncthreads();
    {
        const int c = threadIdx.x % TN, r = threadIdx.x / TN;
        constexpr int RSTEP = THREADS / TN;
        const bool col_in = j0 + c < n;
        float *t = T + (i0 + r) * ldt + j0 + c;
#pragma unroll
        for (int p = 0; p < P; p++) {
            const int ii = r + p * RSTEP;
            if (col_in && i0 + ii < rows) t[(int64_t)p * RSTEP * ldt] = tile[c][ii];
        }
    }
}

__global__ void copy16(const float4 *__restrict__ s, float4 *__restrict__ d, int64_t count)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < count;
         i += (int64_t)gridDim.x * blockDim.x)
        d[i] = s[i];
}

template <int TN, int P, int ORDER>
static void run_t(const float *S, int64_t lds, int64_t rows, int64_t n, float *T, int64_t ldt)
{
    constexpr int TR = 256 * P / TN;
    const int64_t rt = (rows + TR - 1) / TR, ct = (n + TN - 1) / TN;
    transpose_kernel<TN, P, ORDER><<<ORDER ? dim3((unsigned)(rt * ct)) : dim3((unsigned)rt, (unsigned)ct), 256>>>(
        S, lds, rows, n, T, ldt);
}

/* P = 4, 8, 16, 32; 108: P = 8 with the column tiles of a row range in consecutive blocks;
 * 116: P = 16 so */
template <int P>
static void run_p(const float *S, int64_t lds, int64_t rows, int64_t n, float *T, int64_t ldt)
{
    constexpr int PP = P % 100, ORDER = P >= 100;
    if (n <= 8) run_t<8, PP, ORDER>(S, lds, rows, n, T, ldt);
    else if (n <= 16) run_t<16, PP, ORDER>(S, lds, rows, n, T, ldt);
    else run_t<32, PP, ORDER>(S, lds, rows, n, T, ldt);
}

int main(int argc, char **argv)
{
    const int64_t rows = argc > 1 ? atoll(argv[1]) : 1000000;
    const int ns[] = {8, 16, 32, 48, 64, 100, 128};
    const int64_t max_n = 128, max_lds = rows + 1;
    float *S, *T, *R, *flush;
    CK(cudaMalloc(&S, (size_t)max_lds * max_n * 4));
    CK(cudaMalloc(&T, (size_t)rows * max_n * 4));
    CK(cudaMalloc(&R, (size_t)rows * max_n * 4));
    CK(cudaMalloc(&flush, 256u << 20));
    {
        std::vector<float> h((size_t)max_lds * max_n);
        uint64_t x = 88172645463325252ull;
        for (auto &v : h) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; v = (float)(x >> 40) / (1 << 24) - 0.5f; }
        CK(cudaMemcpy(S, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
    }
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    auto time = [&](auto &&f) {
        std::vector<float> ms;
        for (int r = 0; r < 33; r++) {
            CK(cudaMemsetAsync(flush, r, 256u << 20));
            CK(cudaEventRecord(e0));
            f();
            CK(cudaEventRecord(e1));
            CK(cudaEventSynchronize(e1));
            CK(cudaGetLastError());
            float t;
            CK(cudaEventElapsedTime(&t, e0, e1));
            if (r >= 3) ms.push_back(t);
        }
        std::sort(ms.begin(), ms.end());
        return ms[ms.size() / 2];
    };
    int dev;
    cudaDeviceProp prop;
    CK(cudaGetDevice(&dev));
    CK(cudaGetDeviceProperties(&prop, dev));
    printf("# %s, rows %lld\n", prop.name, (long long)rows);
    for (int n : ns) {
        const int64_t ldt = (n + 3) / 4 * 4;
        const double bytes = 2.0 * rows * n * 4;
        const double copy_ms = time([&] { copy16<<<132 * 16, 256>>>((const float4 *)S, (float4 *)T, rows * n / 4); });
        const double memcpy_ms = time([&] { CK(cudaMemcpyAsync(T, S, (size_t)rows * n * 4, cudaMemcpyDeviceToDevice)); });
        for (int64_t pad = 0; pad < 2; pad++) {
            const int64_t lds = rows + pad;
            run_p<4>(S, lds, rows, n, R, ldt);
            CK(cudaDeviceSynchronize());
            std::vector<float> ref((size_t)rows * ldt), got(ref.size());
            CK(cudaMemcpy(ref.data(), R, ref.size() * 4, cudaMemcpyDeviceToHost));
            double t[4];
            const int Ps[4] = {4, 8, 108, 116};
            for (int v = 0; v < 4; v++) {
                auto f = [&] {
                    if (Ps[v] == 4) run_p<4>(S, lds, rows, n, T, ldt);
                    else if (Ps[v] == 8) run_p<8>(S, lds, rows, n, T, ldt);
                    else if (Ps[v] == 108) run_p<108>(S, lds, rows, n, T, ldt);
                    else run_p<116>(S, lds, rows, n, T, ldt);
                };
                CK(cudaMemset(T, 0xff, (size_t)rows * ldt * 4));
                t[v] = time(f);
                CK(cudaMemcpy(got.data(), T, got.size() * 4, cudaMemcpyDeviceToHost));
                for (int64_t i = 0; i < rows; i++)
                    if (memcmp(&got[i * ldt], &ref[i * ldt], (size_t)n * 4)) {
                        printf("MISMATCH P=%d n=%d row %lld\n", Ps[v], n, (long long)i);
                        return 1;
                    }
            }
            printf("n=%-4d lds=rows+%lld  P4 %.4f ms %5.0f GB/s  P8 %.4f %5.0f  P8o %.4f %5.0f  P16o %.4f %5.0f  copy16 %.4f %5.0f  memcpy %.4f %5.0f\n",
                   n, (long long)pad, t[0], bytes / t[0] / 1e6, t[1], bytes / t[1] / 1e6, t[2], bytes / t[2] / 1e6,
                   t[3], bytes / t[3] / 1e6, copy_ms, bytes / copy_ms / 1e6, memcpy_ms, bytes / memcpy_ms / 1e6);
        }
    }
    return 0;
}
