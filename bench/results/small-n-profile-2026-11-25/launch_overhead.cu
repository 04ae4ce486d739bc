// scratch: what an event-timed launch costs beyond the kernel, by launch feature
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <vector>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)
__global__ void k_plain(int *out) { if (out && threadIdx.x == 9999) out[0] = 1; }
struct params { CUtensorMap a, b, c; };
__global__ void k_maps(const __grid_constant__ CUtensorMap a, const __grid_constant__ CUtensorMap b,
                       const __grid_constant__ CUtensorMap c, int k, long long m, long long n, float al,
                       float be, float *C, long long ldc, int rm, int lines, int ap)
{
    if (threadIdx.x == 9999) C[0] = al + ((const int *)&a)[0] + ((const int *)&b)[1] + ((const int *)&c)[2];
}
// touches its dynamic smem and syncs the cluster like the real kernel's start
__global__ void k_smem(int *out)
{
    extern __shared__ int s[];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (out && s[(threadIdx.x + 1) % blockDim.x] == 9999) out[0] = 1;
}
int main()
{
    void *flush; size_t fb = 256u << 20; CK(cudaMalloc(&flush, fb));
    cudaStream_t st; CK(cudaStreamCreate(&st));
    cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    CK(cudaFuncSetAttribute(k_smem, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024));
    CK(cudaFuncSetAttribute(k_plain, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024));
    CK(cudaFuncSetAttribute(k_maps, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024));
    CUtensorMap m; memset(&m, 0, sizeof m);
    float *C; CK(cudaMalloc(&C, 16));
    struct cfg { const char *name; int kern, grid, smem, cluster; };
    std::vector<cfg> cs = {
        {"plain 128x384 smem0", 0, 128, 0, 1},
        {"plain 128x384 smem141K", 0, 128, 141440, 1},
        {"plain 128x384 smem200K", 0, 128, 200 * 1024, 1},
        {"smem-touch 128 smem141K", 2, 128, 141440, 1},
        {"maps 128 smem0", 1, 128, 0, 1},
        {"maps 132 smem200K", 1, 132, 200 * 1024, 1},
        {"plain 128 smem141K cluster2", 0, 128, 141440, 2},
        {"plain 96 smem141K cluster3", 0, 96, 141440, 3},
        {"maps 128 smem141K cluster2", 1, 128, 141440, 2},
        {"maps 96 smem141K cluster3", 1, 96, 141440, 3},
    };
    for (int round = 0; round < 2; round++)
    for (auto &c : cs) {
        std::vector<float> t;
        for (int r = 0; r < 60; r++) {
            CK(cudaMemsetAsync(flush, r & 255, fb, st));
            CK(cudaEventRecord(e0, st));
            cudaLaunchAttribute at[1]; at[0].id = cudaLaunchAttributeClusterDimension;
            at[0].val.clusterDim.x = c.cluster; at[0].val.clusterDim.y = at[0].val.clusterDim.z = 1;
            cudaLaunchConfig_t lc = {}; lc.gridDim = dim3(c.grid); lc.blockDim = dim3(384);
            lc.dynamicSmemBytes = c.smem; lc.stream = st; lc.attrs = at; lc.numAttrs = c.cluster > 1;
            if (c.kern == 0) CK(cudaLaunchKernelEx(&lc, k_plain, (int *)nullptr));
            else if (c.kern == 2) CK(cudaLaunchKernelEx(&lc, k_smem, (int *)nullptr));
            else CK(cudaLaunchKernelEx(&lc, k_maps, m, m, m, 3, 4ll, 5ll, 1.f, 0.f, C, 8ll, 1, 1, 0));
            CK(cudaGetLastError());
            CK(cudaEventRecord(e1, st));
            CK(cudaEventSynchronize(e1));
            float ms; CK(cudaEventElapsedTime(&ms, e0, e1));
            if (r >= 5) t.push_back(ms * 1000);
        }
        std::sort(t.begin(), t.end());
        printf("round %d %-32s median %6.2f us  p10 %6.2f p90 %6.2f\n", round, c.name, t[t.size() / 2],
               t[t.size() / 10], t[t.size() * 9 / 10]);
    }
    // an empty event pair
    std::vector<float> t;
    for (int r = 0; r < 60; r++) {
        CK(cudaMemsetAsync(flush, r & 255, fb, st)); CK(cudaEventRecord(e0, st)); CK(cudaEventRecord(e1, st));
        CK(cudaEventSynchronize(e1)); float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); t.push_back(ms * 1000);
    }
    std::sort(t.begin(), t.end());
    printf("no launch: median %6.2f us\n", t[t.size() / 2]);
    return 0;
}
