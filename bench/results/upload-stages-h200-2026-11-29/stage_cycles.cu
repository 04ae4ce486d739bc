// throwaway: a plan's whole staging cycle (allocate, pin, send 212 MB, unpin, free), per variant.
//   stage_cycles NBUF MB KIND   (KIND: host = cudaMallocHost, reg = huge-page malloc + cudaHostRegister)
#include <cuda_runtime.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define CK(x) do { cudaError_t e = (x); if (e) { printf("%s: %s line %d\n", #x, cudaGetErrorString(e), __LINE__); exit(1);} } while (0)
static double ms(void) { return omp_get_wtime() * 1e3; }

static void *huge(size_t bytes)
{
    size_t H = 2 << 20, r = (bytes + H - 1) / H * H;
    void *p = aligned_alloc(H, r);
    madvise(p, r, MADV_HUGEPAGE);
    return p;
}

static double cycle(char *dst, const char *src, size_t total, int nb, size_t bsz, int reg, double *pin_ms)
{
    double t0 = ms();
    char *buf[8];
    cudaEvent_t ev[8];
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    for (int i = 0; i < nb; i++) {
        if (reg) {
            buf[i] = (char *)huge(bsz);
            CK(cudaHostRegister(buf[i], bsz, cudaHostRegisterDefault));
        } else
            CK(cudaMallocHost((void **)&buf[i], bsz));
        CK(cudaEventCreateWithFlags(&ev[i], cudaEventDisableTiming));
    }
    *pin_ms = ms() - t0;
    int i = 0;
    for (size_t off = 0; off < total; off += bsz, i = (i + 1) % nb) {
        size_t len = total - off < bsz ? total - off : bsz;
        CK(cudaEventSynchronize(ev[i]));
        const size_t piece = 64 << 10;
        long pieces = (long)((len + piece - 1) / piece);
#pragma omp parallel for schedule(static)
        for (long p = 0; p < pieces; p++) {
            size_t at = (size_t)p * piece;
            memcpy(buf[i] + at, src + off + at, len - at < piece ? len - at : piece);
        }
        CK(cudaMemcpyAsync(dst + off, buf[i], len, cudaMemcpyHostToDevice, s));
        CK(cudaEventRecord(ev[i], s));
    }
    CK(cudaStreamSynchronize(s));
    for (int k = 0; k < nb; k++) {
        if (reg) {
            CK(cudaHostUnregister(buf[k]));
            free(buf[k]);
        } else
            CK(cudaFreeHost(buf[k]));
        CK(cudaEventDestroy(ev[k]));
    }
    CK(cudaStreamDestroy(s));
    return ms() - t0;
}

int main(int argc, char **argv)
{
    int nb = atoi(argv[1]);
    size_t bsz = (size_t)atoi(argv[2]) << 20;
    int reg = strcmp(argv[3], "reg") == 0;
    CK(cudaFree(0));
    const size_t total = 212u << 20;
    char *src = (char *)huge(total);
#pragma omp parallel for
    for (size_t i = 0; i < total; i++) src[i] = (char)(i * 2654435761u >> 13);
    char *dst;
    CK(cudaMalloc(&dst, total));
    CK(cudaMemset(dst, 0, total));
    CK(cudaDeviceSynchronize());
    double pin[6], t[6];
    for (int r = 0; r < 6; r++) t[r] = cycle(dst, src, total, nb, bsz, reg, &pin[r]);
    // check the last copy
    char *back = (char *)malloc(total);
    CK(cudaMemcpy(back, dst, total, cudaMemcpyDeviceToHost));
    int ok = memcmp(back, src, total) == 0;
    double w[5];
    for (int r = 0; r < 5; r++) w[r] = t[r + 1];
    for (int a = 0; a < 5; a++) for (int b = a + 1; b < 5; b++) if (w[b] < w[a]) { double x = w[a]; w[a] = w[b]; w[b] = x; }
    printf("%d x %2zu MB %-4s: first %.2f ms (pin %.2f), warm median %.2f ms (pin %.2f..%.2f) ok=%d\n", nb, bsz >> 20,
           argv[3], t[0], pin[0], w[2], pin[1], pin[5], ok);
    return 0;
}
