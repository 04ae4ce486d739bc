// throwaway: pinning costs and staged upload rates on the lent host.
#include <cuda_runtime.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define CK(x) do { cudaError_t e = (x); if (e) { printf("%s: %s line %d\n", #x, cudaGetErrorString(e), __LINE__); exit(1);} } while (0)
static double ms(void) { return omp_get_wtime() * 1e3; }

static void *huge_alloc(size_t bytes, int huge)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) { printf("mmap failed\n"); exit(1); }
    if (huge) madvise(p, bytes, MADV_HUGEPAGE);
    memset(p, 1, bytes);
    return p;
}

static double staged(char *dst, const char *src, size_t total, char **buf, int nbuf, size_t bsz,
                     cudaStream_t s, cudaEvent_t *ev)
{
    double t0 = ms();
    int i = 0;
    for (size_t off = 0; off < total; off += bsz, i = (i + 1) % nbuf) {
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
    return ms() - t0;
}

int main(void)
{
    double t = ms();
    CK(cudaFree(0));
    printf("context %.1f ms\n", ms() - t);
    system("cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag 2>&1");
    const size_t MB = 1 << 20;
    size_t sizes[] = {2 * MB, 2 * MB, 8 * MB, 32 * MB, 32 * MB};
    for (int k = 0; k < 5; k++) {
        void *p;
        t = ms();
        CK(cudaMallocHost(&p, sizes[k]));
        double a = ms() - t;
        t = ms();
        memset(p, 2, sizes[k]);
        double touch = ms() - t;
        t = ms();
        CK(cudaFreeHost(p));
        printf("cudaMallocHost %zu MB: %.2f ms, touch %.2f, free %.2f\n", sizes[k] / MB, a, touch, ms() - t);
    }
    for (int huge = 0; huge < 2; huge++)
        for (int k = 0; k < 5; k++) {
            void *p = huge_alloc(sizes[k], huge);
            t = ms();
            CK(cudaHostRegister(p, sizes[k], cudaHostRegisterDefault));
            double a = ms() - t;
            t = ms();
            CK(cudaHostUnregister(p));
            printf("register (huge %d) %zu MB: %.2f ms, unregister %.2f\n", huge, sizes[k] / MB, a, ms() - t);
            munmap(p, sizes[k]);
        }
    system("grep -i huge /proc/meminfo");

    const size_t total = 212 * MB;
    char *src = (char *)malloc(total);
    for (size_t i = 0; i < total; i++) src[i] = (char)(i * 2654435761u >> 13);
    char *dst;
    CK(cudaMalloc(&dst, total));
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    t = ms();
    CK(cudaMemcpy(dst, src, total, cudaMemcpyHostToDevice));
    printf("pageable cudaMemcpy 212 MB: %.2f ms\n", ms() - t);
    t = ms();
    CK(cudaMemcpy(dst, src, total, cudaMemcpyHostToDevice));
    printf("pageable cudaMemcpy 212 MB again: %.2f ms\n", ms() - t);
    size_t bsz[] = {2 * MB, 4 * MB, 8 * MB, 16 * MB, 32 * MB};
    for (int huge = 0; huge < 2; huge++)
        for (int nb = 2; nb <= 3; nb++)
            for (int k = 0; k < 5; k++) {
                char *buf[3];
                cudaEvent_t ev[3];
                t = ms();
                for (int i = 0; i < nb; i++) {
                    if (huge) {
                        buf[i] = (char *)huge_alloc(bsz[k], 1);
                        CK(cudaHostRegister(buf[i], bsz[k], cudaHostRegisterDefault));
                    } else
                        CK(cudaMallocHost((void **)&buf[i], bsz[k]));
                    CK(cudaEventCreateWithFlags(&ev[i], cudaEventDisableTiming));
                }
                double pin = ms() - t;
                double r[3];
                for (int rep = 0; rep < 3; rep++) r[rep] = staged(dst, src, total, buf, nb, bsz[k], s, ev);
                printf("staged huge %d %d x %2zu MB: pin %.2f ms, upload %.2f %.2f %.2f ms (%.1f GB/s)\n", huge, nb,
                       bsz[k] / MB, pin, r[0], r[1], r[2], total / r[1] / 1e6);
                for (int i = 0; i < nb; i++) {
                    if (huge) {
                        CK(cudaHostUnregister(buf[i]));
                        munmap(buf[i], bsz[k]);
                    } else
                        CK(cudaFreeHost(buf[i]));
                    CK(cudaEventDestroy(ev[i]));
                }
            }
    // the whole source registered
    for (int huge = 0; huge < 2; huge++) {
        char *p = (char *)huge_alloc(total, huge);
        t = ms();
        CK(cudaHostRegister(p, total, cudaHostRegisterDefault));
        double reg = ms() - t;
        t = ms();
        CK(cudaMemcpy(dst, p, total, cudaMemcpyHostToDevice));
        double c = ms() - t;
        t = ms();
        CK(cudaHostUnregister(p));
        printf("whole source huge %d: register %.2f ms, copy %.2f ms (%.1f GB/s), unregister %.2f\n", huge, reg, c,
               total / c / 1e6, ms() - t);
        munmap(p, total);
    }
    return 0;
}
