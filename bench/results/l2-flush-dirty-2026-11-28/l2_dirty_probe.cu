// l2_dirty_probe.cu: what the timer's L2 flush (a memset of twice the L2,
// src/gpu_timer.c) leaves for the timed run. A kernel reads `mb` MB of
// random floats; it is timed with CUDA events after (0) the memset alone,
// as gpu_timer does, and (1) the memset and then a read of another buffer
// of twice the L2, which writes back the memset's dirty lines before the
// timed run. Median of 40 runs after 3 warm-up runs, each case in turn.
//   nvcc -O2 -arch=sm_90 l2_dirty_probe.cu -o l2_dirty_probe && ./l2_dirty_probe
#include <algorithm>
#include <cstdio>
#include <vector>

#define CHECK(x)                                                              \
    do {                                                                      \
        cudaError_t e = (x);                                                  \
        if (e != cudaSuccess) {                                               \
            printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
            return 1;                                                         \
        }                                                                     \
    } while (0)

// each thread sums a grid-strided share of x; one impossible store keeps it
__global__ void read_all(const float4 *x, size_t n, float *sink)
{
    float s = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        float4 v = x[i];
        s += v.x + v.y + v.z + v.w;
    }
    if (s == 1234.5f) *sink = s;
}

__global__ void fill_random(float *x, size_t n, unsigned seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        unsigned h = (unsigned)i * 2654435761u ^ seed;
        h ^= h >> 15;
        h *= 2246822519u;
        h ^= h >> 13;
        x[i] = (float)(h & 0xffffff) / 16777216.0f - 0.5f;
    }
}

int main()
{
    int l2 = 0, sms = 0;
    CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    const size_t flush = 2 * (size_t)l2;
    char *f, *g;
    float *sink;
    CHECK(cudaMalloc(&f, flush));
    CHECK(cudaMalloc(&g, flush));
    CHECK(cudaMalloc(&sink, 4));
    fill_random<<<4 * sms, 256>>>((float *)g, flush / 4, 7);
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    printf("%s, L2 %d bytes; read kernel timed after the flush, median of 40 (ms)\n", prop.name, l2);
    printf("| MB read | memset only | memset, then a read of 2 x L2 | ratio |\n|---|---|---|---|\n");
    for (size_t mb : {16, 32, 64, 128}) {
        const size_t bytes = mb << 20;
        float *x;
        CHECK(cudaMalloc(&x, bytes));
        fill_random<<<4 * sms, 256>>>(x, bytes / 4, 11);
        std::vector<float> t[2];
        for (int r = 0; r < 43; r++)
            for (int mode = 0; mode < 2; mode++) {
                CHECK(cudaMemsetAsync(f, r & 0xff, flush));
                if (mode == 1) read_all<<<4 * sms, 512>>>((const float4 *)g, flush / 16, sink);
                CHECK(cudaEventRecord(a));
                read_all<<<4 * sms, 512>>>((const float4 *)x, bytes / 16, sink);
                CHECK(cudaEventRecord(b));
                CHECK(cudaEventSynchronize(b));
                CHECK(cudaGetLastError());
                float ms = 0;
                CHECK(cudaEventElapsedTime(&ms, a, b));
                if (r >= 3) t[mode].push_back(ms);
            }
        for (auto &v : t) std::sort(v.begin(), v.end());
        const float m0 = t[0][t[0].size() / 2], m1 = t[1][t[1].size() / 2];
        printf("| %zu | %.4f | %.4f | %.2f |\n", mb, m0, m1, m0 / m1);
        CHECK(cudaFree(x));
    }
    return 0;
}
