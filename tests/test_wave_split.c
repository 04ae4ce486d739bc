/* test_wave_split.c: wave-aware splitting of heavy HRPB panels: every block
 * in exactly one virtual panel, in order; every panel (empty ones too) with
 * at least one virtual panel, its parts consecutive and of about equal block
 * counts, cut at floor(blocks * q / parts); a very heavy panel cut into about
 * partition_ratio parts, with num_waves taken as 1 when there is one wave or
 * less; with one wave or less, panels under 2x the mean not split; the
 * paper's example (ratio exactly 1) not split; the launch order a permutation
 * of the virtual panels, the late and long ones (longer than half the work
 * left after them per slot) first, largest first to within a quarter of an
 * octave (in panel order among equal sizes), the others after them in panel
 * order; on nine panels, the exact launch order: one exactly half as long as
 * the work after it stays in panel order, and a size class keeps panel order. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "format/hrpb.h"
#include "harness.h"
#include "loadbalance/wave_split.h"
#include "matgen.h"

/* The launch order: each virtual panel once; the first started_first,
 * where with x = blocks + 1 none starts after one whose x is over 1.25
 * times smaller and equal sizes keep panel order; then the others in panel
 * order. */
static void check_launch_order(const wave_split *w)
{
    int64_t nv = w->num_vpanels;
    int64_t blocks = nv > 0 ? w->vp_block_ptr[nv] : 0;
    char *seen = calloc((size_t)nv + 1, 1);
    int64_t *last_of_size = malloc(((size_t)blocks + 1) * sizeof(int64_t));
    CHECK(seen && last_of_size);
    if (!seen || !last_of_size) {
        free(seen);
        free(last_of_size);
        return;
    }
    for (int64_t b = 0; b <= blocks; b++) last_of_size[b] = -1;
    int ok = w->started_first >= 0 && w->started_first <= nv;
    double min_x = INFINITY;
    int64_t last_after = -1;
    for (int64_t i = 0; i < nv && ok; i++) {
        int64_t v = w->launch_order[i];
        ok = v >= 0 && v < nv && !seen[v];
        if (!ok) break;
        seen[v] = 1;
        int64_t size = w->vp_block_ptr[v + 1] - w->vp_block_ptr[v];
        if (i >= w->started_first) { /* the others, in panel order */
            ok = v > last_after;
            last_after = v;
            continue;
        }
        double x = (double)size + 1.0;
        ok = x < 1.25 * min_x && size <= blocks && last_of_size[size] < v;
        last_of_size[size] = v;
        min_x = x < min_x ? x : min_x;
    }
    CHECK(ok);
    free(seen);
    free(last_of_size);
}

/* Checks every structural property of w against h; returns the number of
 * virtual panels of panel `probe` through *probe_parts. */
static void check_structure(const hrpb *h, const wave_split *w, int64_t probe, int64_t *probe_parts)
{
    int64_t nv = w->num_vpanels, v = 0, split = 0;
    int ok = nv >= h->num_panels && w->vp_block_ptr[0] == 0 && w->vp_block_ptr[nv] == h->num_blocks;
    for (int64_t p = 0; p < h->num_panels && ok; p++) {
        int64_t first = v;
        while (v < nv && w->vp_panel[v] == p) v++;
        int64_t parts = v - first;
        if (p == probe) *probe_parts = parts;
        /* at least one part; the parts cover exactly the panel's blocks */
        ok = parts >= 1 && w->vp_block_ptr[first] == h->block_ptr[p] &&
             (v == nv ? h->num_blocks : w->vp_block_ptr[v]) == h->block_ptr[p + 1];
        int64_t lo = INT64_MAX, hi = 0;
        for (int64_t u = first; u < v && ok; u++) {
            int64_t size = w->vp_block_ptr[u + 1] - w->vp_block_ptr[u];
            ok = size >= 0 && w->vp_split[u] == (parts > 1) && (parts == 1 || size >= 1);
            lo = size < lo ? size : lo;
            hi = size > hi ? size : hi;
        }
        ok = ok && hi - lo <= 1; /* about equal parts */
        split += parts > 1;
    }
    CHECK(ok);
    CHECK(v == nv); /* vp_panel runs through the panels in order, nothing left */
    CHECK(split == w->split_panels);
    check_launch_order(w);
}

/* Whether panel p's parts start where wave_split.c cuts them: part q of k
 * at the panel's first block + floor(blocks * q / k), the larger parts last. */
static int floor_divided(const hrpb *h, const wave_split *w, int64_t p)
{
    int64_t v = 0, k = 0;
    while (w->vp_panel[v] != p) v++;
    while (v + k < w->num_vpanels && w->vp_panel[v + k] == p) k++;
    const int64_t first = h->block_ptr[p], blocks = h->block_ptr[p + 1] - first;
    int ok = 1;
    for (int64_t q = 0; q < k; q++) ok &= w->vp_block_ptr[v + q] == first + blocks * q / k;
    return ok;
}

/* One very heavy panel (heavy_density) among light ones. */
static void build_heavy(int64_t panels, hrpb *h, uint64_t seed)
{
    tcspmm_csr A;
    CHECK_OK(matgen_heavy_panel(16 * panels - 5, 4000, 0.0005, 16 * 7, 16, 0.9, seed, &A));
    CHECK_OK(hrpb_build(&A, 16, 0, h));
    tcspmm_csr_free(&A);
}

static void test_heavy_panel(void)
{
    hrpb h;
    build_heavy(400, &h, 11);
    int64_t heavy_blocks = h.block_ptr[8] - h.block_ptr[7];
    double mean = (double)h.num_blocks / (double)h.num_panels;
    CHECK(heavy_blocks > 50 * mean);

    /* One wave or less: num_waves counts as 1, so the heavy panel gets about
     * num_loads = blocks / mean parts, whatever the GPU. */
    wave_split w;
    int64_t parts = 0;
    const double loads = heavy_blocks / mean;
    CHECK_OK(wave_split_build(&h, 1, 100, 4, &w)); /* 400 blocks over 400 slots */
    CHECK(w.waves == 1.0 && w.split_panels >= 1);
    check_structure(&h, &w, 7, &parts);
    CHECK(parts >= loads && parts < loads + 1.0);
    wave_split_free(&w);
    CHECK_OK(wave_split_build(&h, 2, 132, 8, &w));
    CHECK(w.waves < 1.0 && w.split_panels >= 1);
    check_structure(&h, &w, 7, &parts);
    CHECK(parts >= loads && parts < loads + 1.0);
    wave_split_free(&w);

    /* Several waves: the heavy panel gets about partition_ratio parts. */
    const int sms[] = {25, 20, 37}, per_sm[] = {1, 2, 3};
    for (int i = 0; i < 3; i++) {
        CHECK_OK(wave_split_build(&h, 2, sms[i], per_sm[i], &w));
        double waves = 400.0 * 2 / (sms[i] * per_sm[i]);
        double ratio = heavy_blocks / mean / waves;
        CHECK(fabs(w.waves - waves) < 1e-12 && w.waves > 1.0);
        check_structure(&h, &w, 7, &parts);
        CHECK(ratio >= 2.0 && parts >= ratio && parts < ratio + 1.0);
        CHECK(w.split_panels >= 1);
        CHECK(w.num_vpanels >= h.num_panels + parts - 1);
        wave_split_free(&w);
    }

    /* Many waves (400 panels over 4 slots): the virtual panels longer than
     * half the work left after them per slot (the heavy panel's parts and
     * the last few) start first, the rest after them in panel order. */
    CHECK_OK(wave_split_build(&h, 1, 4, 1, &w));
    check_structure(&h, &w, 7, &parts);
    int64_t late = 0, nb = h.num_blocks;
    int first_ok = 1;
    for (int64_t v = 0; v < w.num_vpanels; v++) {
        int64_t size = w.vp_block_ptr[v + 1] - w.vp_block_ptr[v];
        if (size * 2 * 4 <= nb - w.vp_block_ptr[v + 1]) continue;
        late++;
        int found = 0; /* v is among the first started_first */
        for (int64_t i = 0; i < w.started_first; i++) found |= w.launch_order[i] == v;
        first_ok &= found;
    }
    CHECK(first_ok && late == w.started_first && late < w.num_vpanels / 4);
    CHECK(w.vp_panel[w.launch_order[0]] == 7 && w.launch_order[w.started_first] == 0);
    wave_split_free(&w);
    hrpb_free(&h);
}

/* Builds a 16-row-panel HRPB with the given blocks per panel (panel p gets
 * blocks[p] * 16 active columns in its first row). */
static void build_blocks(int64_t panels, const int64_t *blocks, hrpb *h)
{
    tcspmm_csr A;
    int64_t nnz = 0, maxc = 16;
    for (int64_t p = 0; p < panels; p++) {
        nnz += blocks[p] * 16;
        maxc = blocks[p] * 16 > maxc ? blocks[p] * 16 : maxc;
    }
    A.rows = panels * 16;
    A.cols = maxc;
    A.nnz = nnz;
    A.row_ptr = calloc((size_t)A.rows + 1, sizeof(int64_t));
    A.col_idx = malloc((size_t)nnz * sizeof(int32_t) + 4);
    A.values = malloc((size_t)nnz * sizeof(float) + 4);
    int64_t k = 0;
    for (int64_t p = 0; p < panels; p++) {
        for (int64_t c = 0; c < blocks[p] * 16; c++) {
            A.col_idx[k] = (int32_t)c;
            A.values[k] = (float)((k * 7919 % 2001) - 1000) / 1000.0f;
            k++;
        }
        for (int64_t r = 0; r < 16; r++) A.row_ptr[p * 16 + r + 1] = k;
    }
    CHECK_OK(tcspmm_csr_validate(&A));
    CHECK_OK(hrpb_build(&A, 16, 0, h));
    tcspmm_csr_free(&A);
}

/* Section 5's example: 991 panels, the first with 10 blocks, the others 1;
 * 100 SMs of one thread block: partition_ratio is exactly 1, no split. */
static void test_paper_example(void)
{
    int64_t *blocks = malloc(991 * sizeof(int64_t));
    for (int p = 0; p < 991; p++) blocks[p] = p == 0 ? 10 : 1;
    hrpb h;
    build_blocks(991, blocks, &h);
    CHECK(h.num_blocks == 1000);
    wave_split w;
    int64_t parts = 0;
    CHECK_OK(wave_split_build(&h, 1, 100, 1, &w));
    CHECK(w.split_panels == 0 && w.num_vpanels == 991);
    check_structure(&h, &w, 0, &parts);
    wave_split_free(&w);
    /* Twice the SMs (4.955 waves): ratio 2 -> exactly 2 parts of 5 blocks. */
    CHECK_OK(wave_split_build(&h, 1, 200, 1, &w));
    check_structure(&h, &w, 0, &parts);
    CHECK(parts == 2 && w.split_panels == 1 && w.num_vpanels == 992);
    CHECK(w.vp_block_ptr[1] - w.vp_block_ptr[0] == 5 && w.vp_split[0] && w.vp_split[1] && !w.vp_split[2]);
    wave_split_free(&w);
    hrpb_free(&h);

    /* A panel never gets more parts than blocks. */
    for (int p = 0; p < 991; p++) blocks[p] = p == 500 ? 3 : 0;
    build_blocks(991, blocks, &h);
    CHECK_OK(wave_split_build(&h, 1, 100, 1, &w));
    check_structure(&h, &w, 500, &parts);
    CHECK(parts == 3);
    wave_split_free(&w);
    hrpb_free(&h);
    free(blocks);
}

/* A GPU the panels do not fill (0.1 waves), 100 blocks in 40 panels (mean
 * 2.5): one of 4 (1.6x the mean) stays whole; one of 5 (2x), one of 9
 * (3.6x) and one of 25 (10x) are cut into ceil(blocks / mean) = 2, 4 and 10
 * parts. */
static void test_underfilled(void)
{
    int64_t blocks[40];
    for (int p = 0; p < 40; p++)
        blocks[p] = p == 3 ? 4 : p == 5 ? 5 : p == 7 ? 9 : p == 9 ? 3 : p == 30 ? 25 : p % 2 ? 1 : 2;
    hrpb h;
    build_blocks(40, blocks, &h);
    CHECK(h.num_blocks == 100);
    wave_split w;
    int64_t parts = 0;
    CHECK_OK(wave_split_build(&h, 1, 100, 4, &w));
    CHECK(w.waves == 0.1 && w.split_panels == 3 && w.num_vpanels == 40 + 1 + 3 + 9);
    check_structure(&h, &w, 3, &parts);
    CHECK(parts == 1);
    check_structure(&h, &w, 5, &parts);
    CHECK(parts == 2);
    check_structure(&h, &w, 7, &parts);
    CHECK(parts == 4 && floor_divided(&h, &w, 7)); /* 2, 2, 2, 3 blocks */
    check_structure(&h, &w, 30, &parts);
    CHECK(parts == 10 && floor_divided(&h, &w, 30)); /* 2, 3, 2, 3, ... blocks */
    wave_split_free(&w);
    /* Exactly one wave (40 panels, 40 resident blocks) is not several: the
     * same splits, panel 3 (1.6 times the mean) left whole. */
    CHECK_OK(wave_split_build(&h, 1, 40, 1, &w));
    CHECK(w.waves == 1.0 && w.split_panels == 3);
    check_structure(&h, &w, 3, &parts);
    CHECK(parts == 1);
    wave_split_free(&w);
    hrpb_free(&h);
}

/* Nine panels, 2 N tiles over 3 resident thread blocks (6 waves, no split):
 * a virtual panel of b blocks with l after it is late and long when b is
 * over half of l * 2 / 3 (the work after it per resident thread block),
 * i.e. 3b > l. Late: 14 (l 27, class 15), 7 (l 11)
 * and 8 (l 3), both class 12 so in panel order, and the last 3 (class 8).
 * Panel 5 (6 blocks, l 18) is exactly half as long: not longer, it stays. */
static void test_launch_tie(void)
{
    const int64_t blocks[9] = {5, 9, 2, 14, 3, 6, 7, 8, 3};
    const int64_t expect[9] = {3, 6, 7, 8, 0, 1, 2, 4, 5};
    hrpb h;
    build_blocks(9, blocks, &h);
    wave_split w;
    int64_t parts = 0;
    CHECK_OK(wave_split_build(&h, 2, 3, 1, &w));
    CHECK(w.waves == 6.0 && w.split_panels == 0);
    check_structure(&h, &w, 0, &parts);
    CHECK(w.started_first == 4 && !memcmp(w.launch_order, expect, sizeof expect));
    wave_split_free(&w);
    hrpb_free(&h);
}

static void test_empty(void)
{
    tcspmm_csr A;
    hrpb h;
    wave_split w;
    int64_t parts = 0;
    /* Panels without blocks still get one virtual panel each. */
    CHECK_OK(matgen_random(100, 50, 0.0, 3, &A));
    CHECK_OK(hrpb_build(&A, 32, 0, &h));
    CHECK_OK(wave_split_build(&h, 4, 1, 1, &w));
    CHECK(w.num_vpanels == 4 && w.split_panels == 0 && w.waves == 16.0);
    check_structure(&h, &w, 0, &parts);
    wave_split_free(&w);
    hrpb_free(&h);
    tcspmm_csr_free(&A);
    /* Empty rows between heavy ones. */
    CHECK_OK(matgen_empty_rows(300, 700, 0.3, 5, &A));
    CHECK_OK(hrpb_build(&A, 16, 0, &h));
    CHECK_OK(wave_split_build(&h, 1, 2, 1, &w));
    check_structure(&h, &w, 1, &parts);
    CHECK(parts == 1); /* panel 1 (rows 16..31) is empty */
    wave_split_free(&w);
    hrpb_free(&h);
    tcspmm_csr_free(&A);
    /* No rows. */
    CHECK_OK(matgen_random(0, 10, 0.5, 5, &A));
    CHECK_OK(hrpb_build(&A, 16, 0, &h));
    CHECK_OK(wave_split_build(&h, 1, 132, 4, &w));
    CHECK(w.num_vpanels == 0 && w.vp_block_ptr[0] == 0);
    wave_split_free(&w);
    /* Bad arguments. */
    CHECK(wave_split_build(&h, 0, 132, 4, &w) == TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(wave_split_build(&h, 1, 0, 4, &w) == TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(wave_split_build(&h, 1, 132, 0, &w) == TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(wave_split_build(NULL, 1, 132, 4, &w) == TCSPMM_ERROR_INVALID_ARGUMENT);
    hrpb_free(&h);
    tcspmm_csr_free(&A);
}

int main(void)
{
    test_heavy_panel();
    test_paper_example();
    test_underfilled();
    test_launch_tie();
    test_empty();
    return tests_finish();
}
