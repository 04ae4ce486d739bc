/* l2_gather.cu: how fast an SM can gather scattered 512-byte rows (one B row
 * at N = 128) into shared memory the way the HRPB kernel copies them, with
 * nothing else to do. Each block of 128 threads loops over iterations of 16
 * rows picked by a hash from a buffer of `rows` rows; thread t copies 16-byte
 * chunk t % 32 of rows 4 * (t / 32) + i (i < 4) with cp.async.cg, STAGES
 * groups in flight, one wait and __syncthreads per iteration (the kernel's
 * chain without its decode and MMAs). Then each thread reads one float of the
 * stage, so the copies are used. Prints TB/s of rows gathered.
 *   nvcc -O3 -arch=sm_90 l2_gather.cu -o l2_gather && ./l2_gather */
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(x)                                                                        \
    do {                                                                                \
        cudaError_t e = (x);                                                            \
        if (e != cudaSuccess) {                                                         \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
            return 1;                                                                   \
        }                                                                               \
    } while (0)

__device__ __forceinline__ unsigned hash(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    return x ^ (x >> 16);
}

/* header (not NULL): before its first copy a block reads header[blockIdx.x]
 * and then header[that], like the kernel's panel record and its block
 * offsets, and picks its rows from the second value. */
template <int STAGES>
__global__ void __launch_bounds__(128) gather(const float4 *rows_data, unsigned rows, int iters,
                                              const unsigned *header, float *sink)
{
    __shared__ float4 stage[STAGES][16][32];
    const int t = threadIdx.x, chunk = t % 32, row0 = 4 * (t / 32);
    const unsigned seed = header ? header[header[blockIdx.x]] : blockIdx.x;
    auto issue = [&](int it) {
        if (it < iters)
            for (int i = 0; i < 4; i++) {
                const unsigned r = hash(seed * 0x9e3779b9u + it * 16 + row0 + i) % rows;
                const unsigned dst = (unsigned)__cvta_generic_to_shared(&stage[it % STAGES][row0 + i][chunk]);
                asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst),
                             "l"(rows_data + (size_t)r * 32 + chunk)
                             : "memory");
            }
        asm volatile("cp.async.commit_group;\n" ::: "memory");
    };
    float acc = 0.0f;
    for (int k = 0; k < STAGES - 1; k++) issue(k);
    for (int it = 0; it < iters; it++) {
        asm volatile("cp.async.wait_group %0;\n" ::"n"(STAGES - 2) : "memory");
        __syncthreads();
        issue(it + STAGES - 1);
        acc += stage[it % STAGES][t % 16][t / 16].x;
    }
    if (acc == 12345.0f) sink[t] = acc;
}

/* Work of 400 iterations per resident block: in one wave of blocks of 400
 * iterations, or in waves of shorter blocks (iters < 400). */
template <int STAGES>
static int run(const float4 *d, unsigned rows, int blocks_per_sm, int sms, int iters,
               const unsigned *header, float *sink)
{
    int fit = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, gather<STAGES>, 128, 0));
    if (blocks_per_sm > fit) blocks_per_sm = fit;
    const int grid = sms * blocks_per_sm * (400 / iters);
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    float best = 1e30f;
    for (int rep = 0; rep < 7; rep++) {
        CHECK(cudaEventRecord(a));
        gather<STAGES><<<grid, 128>>>(d, rows, iters, header, sink);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        float ms;
        CHECK(cudaEventElapsedTime(&ms, a, b));
        if (rep > 0 && ms < best) best = ms; /* rep 0 warms up */
    }
    const double bytes = (double)grid * iters * 16 * 512;
    printf("| %u rows (%.0f MB) | %d | %d | %d | %s | %.3f | %.2f |\n", rows, rows * 512.0 / 1e6,
           STAGES, blocks_per_sm, iters, header ? "yes" : "no", best,
           bytes / (best * 1e-3) / 1e12);
    CHECK(cudaEventDestroy(a));
    CHECK(cudaEventDestroy(b));
    return 0;
}

int main()
{
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const unsigned max_rows = 1u << 21; /* 1 GB */
    const int max_blocks = 1 << 20;
    float4 *d;
    float *sink;
    unsigned *header, *h = (unsigned *)malloc(max_blocks * sizeof(unsigned));
    if (!h) return 1;
    for (int i = 0; i < max_blocks; i++) h[i] = (unsigned)(max_blocks - 1 - i);
    CHECK(cudaMalloc(&d, (size_t)max_rows * 512));
    CHECK(cudaMemset(d, 1, (size_t)max_rows * 512));
    CHECK(cudaMalloc(&header, max_blocks * sizeof(unsigned)));
    CHECK(cudaMemcpy(header, h, max_blocks * sizeof(unsigned), cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&sink, 128 * sizeof(float)));
    printf("| buffer | stages | blocks/SM | iterations a block | header loads | ms (best of 6) | "
           "TB/s gathered |\n|---|---|---|---|---|---|---|\n");
    const unsigned sizes[] = {1u << 14, 1u << 16, 1u << 21};
    for (unsigned rows : sizes)
        for (int bps : {8, 12, 16})
            if (run<2>(d, rows, bps, sms, 400, NULL, sink) ||
                run<3>(d, rows, bps, sms, 400, NULL, sink) ||
                run<4>(d, rows, bps, sms, 400, NULL, sink))
                return 1;
    /* short blocks, as the kernel's thread blocks (about 14 HRPB blocks a
     * panel on the block-diagonal matrix), with and without the header chain */
    for (unsigned rows : sizes)
        for (int iters : {400, 40, 14})
            for (const unsigned *hd : {(const unsigned *)NULL, (const unsigned *)header})
                if (run<2>(d, rows, 8, sms, iters, hd, sink)) return 1;
    free(h);
    return 0;
}
