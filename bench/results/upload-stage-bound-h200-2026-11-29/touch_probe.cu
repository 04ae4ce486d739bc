// throwaway: are there stalls of tens of ms when fresh memory is first touched or page-locked?
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
static double ms(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e3 + t.tv_nsec / 1e6; }
int main(int argc, char **argv)
{
    const int reps = 30;
    const size_t bytes = 6u << 20;
    cudaFree(0);
    void *keep[2 * reps];
    for (int mode = 0; mode < 4; mode++) { // 0: touch huge, 1: touch 4K, 2: register huge untouched (as host_upload), 3: register 4K untouched
        double v[reps];
        for (int i = 0; i < reps; i++) {
            char *p = (char *)aligned_alloc(2u << 20, bytes);
            if (mode == 0 || mode == 2) madvise(p, bytes, MADV_HUGEPAGE);
            else madvise(p, bytes, MADV_NOHUGEPAGE);
            double t0 = ms();
            if (mode < 2) memset(p, 1, bytes);
            else if (cudaHostRegister(p, bytes, cudaHostRegisterDefault) != cudaSuccess) { printf("register failed\n"); return 1; }
            v[i] = ms() - t0;
            if (mode >= 2) cudaHostUnregister(p);
            keep[i] = p; // keep, so that the next allocation takes fresh memory
        }
        for (int i = 0; i < reps; i++) free(keep[i]);
        double mx = 0, sum = 0; int slow = 0;
        for (int i = 0; i < reps; i++) { sum += v[i]; if (v[i] > mx) mx = v[i]; if (v[i] > 5) slow++; }
        printf("%s mode %d (%s): mean %.2f ms max %.2f ms, %d of %d over 5 ms:", argv[1], mode,
               mode == 0 ? "touch, huge pages" : mode == 1 ? "touch, 4K pages" : mode == 2 ? "register, huge pages" : "register, 4K pages",
               sum / reps, mx, slow, reps);
        for (int i = 0; i < reps; i++) printf(" %.1f", v[i]);
        printf("\n");
    }
    return 0;
}
