// Does compute-sanitizer memcheck count a cp.async with src-size < cp-size as a full-size read?
#include <cstdio>
#include <cuda_runtime.h>
__global__ void k(const char *g, int src_bytes, int *out)
{
    __shared__ __align__(16) int s[4];
    unsigned d = (unsigned)__cvta_generic_to_shared(s);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(g + 16), "r"(src_bytes) : "memory");
    asm volatile("cp.async.commit_group;\n cp.async.wait_group 0;\n" ::: "memory");
    __syncthreads();
    out[0] = s[0]; out[1] = s[1];
}
int main(int argc, char **argv)
{
    int src = atoi(argv[1]);
    char *g; int *o;
    cudaMalloc(&g, 20);           // bytes 16..19 are inside, 20..31 outside
    cudaMemset(g, 1, 20);
    cudaMalloc(&o, 8);
    k<<<1, 1>>>(g, src, o);
    printf("src %d: %s\n", src, cudaGetErrorString(cudaDeviceSynchronize()));
    return 0;
}
