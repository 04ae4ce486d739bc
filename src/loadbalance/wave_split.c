/* wave_split.c: wave-aware splitting of heavy HRPB panels into virtual
 * panels (wave_split.h, cuTeSpMM paper section 5). A count pass gives each
 * panel its number of parts, a prefix sum places them, and a fill pass cuts
 * each panel's blocks into parts of floor-divided, about equal sizes; a
 * counting sort by size class then gives the launch order.
 *
 * The panel count cancels out of the partition ratio:
 *   partition_ratio(p) = blocks(p) * resident / (total blocks * n_tiles)
 * with resident = SMs * blocks per SM, when num_waves > 1 (panels * n_tiles
 * > resident); with one wave or less num_waves counts as 1 and
 *   partition_ratio(p) = blocks(p) * panels / total blocks = num_loads(p),
 * and only panels with num_loads >= UNDERFILLED_MIN_LOADS are split.
 * Both are decided in exact integer arithmetic (128-bit products), so ratios
 * of exactly 1 (the paper's example) never split by rounding. */
#include "wave_split.h"

#include <stdlib.h>
#include <string.h>

#include "../error.h"

__extension__ typedef unsigned __int128 u128;

/* With one wave or less, a split costs more than it saves unless the panel
 * is this many times the mean. Measured on the H100 (bench/NOTES.md, "Load
 * balancing with one wave or less" and "Split panels overlap their beta
 * pass"): at 4x (the second session's choice, when a split cost more) 2 was
 * 1.10x faster over 22 matrices at N = 32, 128, 512 (sme3Da 1.57x at 128)
 * and at most 1.11x slower (ted_B at 128); splitting every panel above the
 * mean (1) was up to 1.6x slower (Zhao2 at 32, bcsstk18 at 512). */
enum { UNDERFILLED_MIN_LOADS = 2 };

/* Size classes of the launch order: four per octave of block counts. A
 * virtual panel is late and long when its blocks exceed 1/LATE_SHARE of
 * the work left after it, per resident thread block, in panel order.
 * Measured on the H100 (bench/results/launch-order-2026-11-23): sorting
 * every virtual panel by class cost up to 12% on matrices of alike panels
 * whose B outgrows L2 (wave, rail_79841); moving only the late and long ones
 * kept their time and most of the gain elsewhere (up to 1.27x). */
enum { CLASSES_PER_OCTAVE = 4, SIZE_CLASSES = 64 * CLASSES_PER_OCTAVE, LATE_SHARE = 2 };

/* The size class of a virtual panel of blocks >= 0 blocks: the octave of
 * blocks + 1 and the two bits below its leading one (four classes of equal
 * width per octave), so classes grow with blocks. */
static int size_class(int64_t blocks)
{
    uint64_t x = (uint64_t)blocks + 1;
    int octave = 63 - __builtin_clzll(x);
    uint64_t quarter = octave >= 2 ? (x >> (octave - 2)) & 3 : (x << (2 - octave)) & 3;
    return CLASSES_PER_OCTAVE * octave + (int)quarter;
}

/* Where virtual panel v goes in a stable counting sort: a late and long one
 * to slot SIZE_CLASSES - class (largest first), the others to the last
 * slot. blocks_left * n_tiles / resident is the work after v per resident
 * thread block. */
static int launch_slot(const wave_split *w, int64_t v, int64_t n_tiles, int64_t resident)
{
    int64_t blocks = w->vp_block_ptr[v + 1] - w->vp_block_ptr[v];
    int64_t blocks_left = w->vp_block_ptr[w->num_vpanels] - w->vp_block_ptr[v + 1];
    int late_and_long =
        (u128)blocks * LATE_SHARE * (u128)resident > (u128)blocks_left * (u128)n_tiles;
    return late_and_long ? SIZE_CLASSES - size_class(blocks) : SIZE_CLASSES + 1;
}

/* out->launch_order and out->started_first (wave_split.h). */
static void order_launch(wave_split *out, int64_t n_tiles, int64_t resident)
{
    int64_t start[SIZE_CLASSES + 2] = {0};
    const int64_t nv = out->num_vpanels;
    for (int64_t v = 0; v < nv; v++) start[launch_slot(out, v, n_tiles, resident)]++;
    out->started_first = nv - start[SIZE_CLASSES + 1];
    int64_t sum = 0;
    for (int c = 0; c < SIZE_CLASSES + 2; c++) {
        int64_t count = start[c];
        start[c] = sum;
        sum += count;
    }
    for (int64_t v = 0; v < nv; v++)
        out->launch_order[start[launch_slot(out, v, n_tiles, resident)]++] = v;
}

void wave_split_free(wave_split *w)
{
    if (!w) return;
    free(w->vp_panel);
    free(w->vp_block_ptr);
    free(w->vp_split);
    free(w->launch_order);
    memset(w, 0, sizeof *w);
}

tcspmm_status wave_split_build(const hrpb *h, int64_t n_tiles, int num_sms, int blocks_per_sm,
                               wave_split *out)
{
    if (!out) return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "wave_split_build: out is NULL");
    memset(out, 0, sizeof *out);
    if (!h || n_tiles < 1 || num_sms < 1 || blocks_per_sm < 1)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "wave_split_build: NULL HRPB or n_tiles=%lld, num_sms=%d, "
                           "blocks_per_sm=%d (each must be >= 1)",
                           (long long)n_tiles, num_sms, blocks_per_sm);
    const int64_t np = h->num_panels, nb = h->num_blocks;
    const int64_t resident = (int64_t)num_sms * blocks_per_sm;
    const int several_waves = (u128)np * (u128)n_tiles > (u128)resident;
    out->waves = (double)np * (double)n_tiles / (double)resident;
    /* partition_ratio(p) = blocks(p) * ratio_num / ratio_den */
    const u128 ratio_num = several_waves ? (u128)resident : (u128)np;
    const u128 ratio_den = several_waves ? (u128)nb * (u128)n_tiles : (u128)nb;

    /* parts[p]: ceil(partition_ratio) when that is >= 2 (with one wave or
     * less: when num_loads >= UNDERFILLED_MIN_LOADS), at most one part per
     * block, else 1; then its prefix sum. */
    int64_t *parts = malloc(((size_t)np + 1) * sizeof(int64_t));
    if (!parts)
        return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY,
                           "wave_split_build: cannot allocate %lld panel counts", (long long)np);
    parts[0] = 0;
    int64_t split = 0;
#pragma omp parallel for schedule(static) reduction(+ : split)
    for (int64_t p = 0; p < np; p++) {
        int64_t blocks = h->block_ptr[p + 1] - h->block_ptr[p], k = 1;
        if (nb > 0) {
            u128 num = (u128)blocks * ratio_num;
            u128 want = (num + ratio_den - 1) / ratio_den; /* ceil(partition_ratio) */
            int heavy = several_waves || num >= UNDERFILLED_MIN_LOADS * ratio_den;
            if (heavy && want >= 2) k = want < (u128)blocks ? (int64_t)want : blocks;
        }
        parts[p + 1] = k;
        split += k > 1;
    }
    for (int64_t p = 0; p < np; p++) parts[p + 1] += parts[p];
    const int64_t nv = parts[np];
    out->num_vpanels = nv;
    out->split_panels = split;
    out->vp_panel = malloc(((size_t)nv + 1) * sizeof(int64_t));
    out->vp_block_ptr = malloc(((size_t)nv + 1) * sizeof(int64_t));
    out->vp_split = malloc((size_t)nv + 1);
    out->launch_order = malloc(((size_t)nv + 1) * sizeof(int64_t));
    if (!out->vp_panel || !out->vp_block_ptr || !out->vp_split || !out->launch_order) {
        free(parts);
        wave_split_free(out);
        return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY,
                           "wave_split_build: cannot allocate %lld virtual panels", (long long)nv);
    }
#pragma omp parallel for schedule(static)
    for (int64_t p = 0; p < np; p++) {
        int64_t first = h->block_ptr[p], blocks = h->block_ptr[p + 1] - first;
        int64_t k = parts[p + 1] - parts[p];
        for (int64_t q = 0; q < k; q++) {
            int64_t v = parts[p] + q;
            out->vp_panel[v] = p;
            out->vp_block_ptr[v] = first + blocks * q / k;
            out->vp_split[v] = k > 1;
        }
    }
    out->vp_block_ptr[nv] = h->num_blocks;
    free(parts);
    order_launch(out, n_tiles, resident);
    return TCSPMM_SUCCESS;
}
