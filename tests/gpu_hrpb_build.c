/* gpu_hrpb_build.c: the device HRPB builder against the host one. For the
 * generated edge cases, matrices without rows or columns, a larger random
 * matrix and the bundled matrices, at
 * both panel heights: the same block_ptr, active_cols, size_ptr and packed
 * bytes, the same counts and the same metrics. And a large host-built HRPB
 * uploaded (hrpb_gpu_upload) holds the same bytes on the device.
 *
 * `gpu_hrpb_build FILE...` compares on the given files instead and prints,
 * for each, the host build's time (16-row panels, all threads) beside the
 * device's (CSR upload + build), best of 3. */
#include <cuda_runtime.h>
#include <dirent.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "csr_gpu.h"
#include "error.h"
#include "format/hrpb.h"
#include "harness.h"
#include "kernels/hrpb_gpu_internal.h"
#include "loadbalance/wave_split.h"
#include "matgen.h"

/* A host copy of bytes bytes of device memory (never NULL). */
static void *download(const void *src, size_t bytes)
{
    void *h = malloc(bytes ? bytes : 1);
    CHECK(h != NULL);
    if (h && bytes) CHECK(cudaMemcpy(h, src, bytes, cudaMemcpyDeviceToHost) == cudaSuccess);
    return h;
}

static int same_bytes(const void *device, const void *host, size_t bytes)
{
    void *copy = download(device, bytes);
    int same = copy && !memcmp(copy, host, bytes);
    free(copy);
    return same;
}

static int same_metrics(const tcspmm_info *a, const tcspmm_info *b)
{
    return a->panels == b->panels && a->blocks == b->blocks && a->bricks == b->bricks &&
           a->alpha == b->alpha && a->beta == b->beta && a->brick_density == b->brick_density &&
           !strcmp(a->synergy, b->synergy) && a->hrpb_bytes == b->hrpb_bytes &&
           a->blocks_per_panel_min == b->blocks_per_panel_min &&
           a->blocks_per_panel_median == b->blocks_per_panel_median &&
           a->blocks_per_panel_max == b->blocks_per_panel_max;
}

/* Builds A both ways at panel height tm and checks they agree. */
static void compare(const tcspmm_csr *A, int tm, const char *what)
{
    hrpb h, shape;
    hrpb_counts host_counts, dev_counts;
    hrpb_gpu *g = NULL;
    csr_gpu dA;
    tcspmm_status st = hrpb_build(A, tm, 0, &h);
    CHECK_OK(st);
    if (st) return;
    hrpb_count(&h, &host_counts);
    st = csr_gpu_upload(A, &dA);
    CHECK_OK(st);
    if (!st) {
        st = hrpb_gpu_build(&dA, tm, &shape, &dev_counts, &g);
        CHECK_OK(st);
        csr_gpu_free(&dA);
    }
    if (!st) {
        const size_t np = (size_t)h.num_panels, nb = (size_t)h.num_blocks;
        int sizes = shape.num_panels == h.num_panels && shape.num_blocks == h.num_blocks &&
                    shape.num_bricks == h.num_bricks && shape.rows == h.rows &&
                    shape.cols == h.cols && shape.nnz == h.nnz && shape.panel_rows == tm;
        int arrays = sizes && !memcmp(shape.block_ptr, h.block_ptr, (np + 1) * sizeof(int64_t)) &&
                     same_bytes(g->size_ptr, h.size_ptr, (nb + 1) * sizeof(int64_t)) &&
                     same_bytes(g->active_cols, h.active_cols, nb * HRPB_TK * sizeof(int32_t)) &&
                     same_bytes(g->packed, h.packed, (size_t)h.size_ptr[nb]);
        int counts = !memcmp(&dev_counts, &host_counts, sizeof host_counts);
        tcspmm_info host_info = {0}, dev_info = {0};
        hrpb_metrics(&h, &host_info);
        hrpb_metrics_counted(&shape, &dev_counts, &dev_info);
        int metrics = same_metrics(&host_info, &dev_info);
        if (!(sizes && arrays && counts && metrics))
            fprintf(stderr, "  %s, TM %d: sizes %d arrays %d counts %d metrics %d (blocks %lld/%lld)\n",
                    what, tm, sizes, arrays, counts, metrics, (long long)shape.num_blocks,
                    (long long)h.num_blocks);
        CHECK(sizes && arrays && counts && metrics);
        hrpb_free(&shape);
    }
    hrpb_gpu_free(g);
    hrpb_free(&h);
}

static void test_arguments(void)
{
    tcspmm_csr A;
    CHECK_OK(matgen_random(40, 30, 0.2, 5, &A));
    csr_gpu dA;
    CHECK_OK(csr_gpu_upload(&A, &dA));
    hrpb shape;
    hrpb_counts counts;
    hrpb_gpu *g = NULL;
    CHECK(hrpb_gpu_build(&dA, 24, &shape, &counts, &g) == TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(g == NULL && strstr(tcspmm_last_error(), "panel_rows") != NULL);
    CHECK(hrpb_gpu_build(NULL, 16, &shape, &counts, &g) == TCSPMM_ERROR_INVALID_ARGUMENT);
    csr_gpu_free(&dA);
    tcspmm_csr_free(&A);
}

static void compare_both_heights(const tcspmm_csr *A, const char *what)
{
    compare(A, 16, what);
    compare(A, 32, what);
}

static void test_generated(void)
{
    matgen_each_case(300, compare_both_heights);
    tcspmm_csr A; /* thousands of panels and blocks, a heavy panel */
    CHECK_OK(matgen_heavy_panel(5000, 3001, 0.004, 1600, 16, 0.5, 99, &A));
    compare(&A, 16, "random 5000 x 3001 with a heavy panel");
    compare(&A, 32, "random 5000 x 3001 with a heavy panel");
    tcspmm_csr_free(&A);
    CHECK_OK(matgen_long_row_gap(6000, 3000, 0.02, 98, &A));
    compare_both_heights(&A, "a long row, then a gap of empty rows");
    tcspmm_csr_free(&A);
    const int64_t empty[3][2] = {{0, 0}, {0, 5}, {5, 0}};
    for (int e = 0; e < 3; e++) {
        CHECK_OK(matgen_random(empty[e][0], empty[e][1], 0.5, 97, &A));
        compare_both_heights(&A, "0 x 0, 0 x 5 or 5 x 0");
        tcspmm_csr_free(&A);
    }
}

/* A host-built HRPB of more than 16 MB (staged from 8) with a row map goes to the device
 * through the staging buffers (hrpb_gpu_upload, host_upload.h): the device
 * arrays hold its bytes. */
static void test_host_upload(void)
{
    tcspmm_csr A; /* about 4.2M entries: the packed blocks alone hold over 16 MB */
    CHECK_OK(matgen_random(100003, 997, 0.042, 96, &A));
    hrpb h;
    CHECK_OK(hrpb_build(&A, 16, 0, &h));
    h.row_map = malloc((size_t)h.rows * sizeof(int64_t)); /* hrpb_free frees it */
    CHECK(h.row_map != NULL);
    for (int64_t i = 0; h.row_map && i < h.rows; i++) h.row_map[i] = h.rows - 1 - i;
    const size_t nb = (size_t)h.num_blocks;
    const size_t bytes = (nb + 1) * sizeof(int64_t) + nb * HRPB_TK * sizeof(int32_t) +
                         (size_t)h.size_ptr[nb] + (size_t)h.rows * sizeof(int64_t);
    tests_check_staged(bytes, 2u << 20, "the host-built HRPB");
    wave_split w;
    CHECK_OK(wave_split_build(&h, 1, 132, 4, &w));
    hrpb_gpu *g = NULL;
    CHECK_OK(hrpb_gpu_upload(&h, &w, TCSPMM_PRECISION_TF32, &g));
    CHECK(g && same_bytes(g->size_ptr, h.size_ptr, (nb + 1) * sizeof(int64_t)) &&
          same_bytes(g->active_cols, h.active_cols, nb * HRPB_TK * sizeof(int32_t)) &&
          same_bytes(g->packed, h.packed, (size_t)h.size_ptr[nb]) &&
          same_bytes(g->row_map, h.row_map, (size_t)h.rows * sizeof(int64_t)));
    hrpb_gpu_free(g);
    wave_split_free(&w);
    hrpb_free(&h);
    tcspmm_csr_free(&A);
}

static int is_mtx(const char *name)
{
    const char *dot = strstr(name, ".mtx");
    return dot && (!strcmp(dot, ".mtx") || !strcmp(dot, ".mtx.gz"));
}

static void test_bundled(void)
{
    const char *dir = getenv("TCSPMM_DATA");
    DIR *dp = opendir(dir && *dir ? dir : "data");
    CHECK(dp != NULL);
    if (!dp) return;
    int found = 0;
    for (struct dirent *e; (e = readdir(dp)) != NULL;) {
        if (!is_mtx(e->d_name)) continue;
        tcspmm_csr A;
        tcspmm_status st = tests_read(tests_data(e->d_name), 71, &A);
        CHECK_OK(st);
        if (st) continue;
        found++;
        compare(&A, 16, e->d_name);
        compare(&A, 32, e->d_name);
        tcspmm_csr_free(&A);
    }
    closedir(dp);
    CHECK(found >= 3);
    printf("bundled matrices compared: %d\n", found);
}

/* Best of 3 of the host build and of the device's upload + build. */
static void time_builds(const tcspmm_csr *A, const char *what)
{
    double host = 1e30, device = 1e30;
    for (int rep = 0; rep < 3; rep++) {
        hrpb h, shape;
        hrpb_counts counts;
        hrpb_gpu *g = NULL;
        csr_gpu dA;
        double t0 = omp_get_wtime();
        CHECK_OK(hrpb_build(A, 16, 0, &h));
        double t1 = omp_get_wtime();
        tcspmm_status st = csr_gpu_upload(A, &dA);
        if (!st) st = hrpb_gpu_build(&dA, 16, &shape, &counts, &g);
        double t2 = omp_get_wtime();
        CHECK_OK(st);
        csr_gpu_free(&dA);
        hrpb_gpu_free(g);
        hrpb_free(&shape);
        hrpb_free(&h);
        host = t1 - t0 < host ? t1 - t0 : host;
        device = t2 - t1 < device ? t2 - t1 : device;
    }
    printf("%s: nnz %lld, host build %.2f ms, device upload + build %.2f ms\n", what,
           (long long)A->nnz, host * 1e3, device * 1e3);
}

int main(int argc, char **argv)
{
    tests_require_gpu();
    if (argc > 1) {
        for (int i = 1; i < argc; i++) {
            tcspmm_csr A;
            tcspmm_status st = tests_read(argv[i], 72, &A);
            CHECK_OK(st);
            if (st) continue;
            compare(&A, 16, argv[i]);
            time_builds(&A, argv[i]);
            tcspmm_csr_free(&A);
        }
        return tests_finish();
    }
    test_arguments();
    test_generated();
    test_host_upload();
    test_bundled();
    return tests_finish();
}
