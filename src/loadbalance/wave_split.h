/* wave_split.h: wave-aware splitting of heavy HRPB panels along K into
 * virtual panels (cuTeSpMM paper section 5).
 *
 *   num_loads(p)       = blocks(p) / mean blocks per panel
 *   num_waves          = thread blocks / (SMs * resident blocks per SM),
 *                        thread blocks = panels * ceil(expected_n / N tile)
 *   partition_ratio(p) = num_loads(p) / max(num_waves, 1)
 * A panel is split into ceil(partition_ratio) virtual panels of about equal
 * block counts when that is 2 or more. With one wave or less (a GPU that the
 * panels do not fill) a panel of 2 or more times the mean blocks is cut to
 * about the mean (UNDERFILLED_MIN_LOADS, wave_split.c): otherwise it,
 * walked by one thread block, sets the time of the whole launch while most
 * SMs idle. Every panel, empty
 * ones too, has at least one virtual panel (the kernel writes its rows of C).
 * Virtual panels keep panel order, and the parts of a split panel are
 * consecutive.
 *
 * The launch order says in which order their thread blocks start. In panel
 * order, a virtual panel starts when about (blocks after it) / (resident
 * thread blocks) of work per SM slot is left; if it is longer than half of
 * that, it would run on while the other SMs idle at the end of the launch.
 * Such late and long ones start first instead, by size class, largest first
 * (the longest-processing-time rule of list scheduling; a class is a quarter
 * of an octave of block counts, in panel order within a class), and the
 * others follow in panel order, so that neighbouring panels run together and
 * share B rows in L2. On a matrix whose panels are alike only the last few
 * move. */
#ifndef TCSPMM_WAVE_SPLIT_H
#define TCSPMM_WAVE_SPLIT_H

#include "../format/hrpb.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wave_split {
    int64_t num_vpanels;
    int64_t *vp_panel;     /* num_vpanels: original panel of each virtual panel */
    int64_t *vp_block_ptr; /* num_vpanels + 1: blocks of v are
                              [vp_block_ptr[v], vp_block_ptr[v+1]) */
    uint8_t *vp_split;     /* num_vpanels: 1 if its panel has several parts
                              (partial sums must be added atomically) */
    int64_t *launch_order; /* num_vpanels: the virtual panels in the order
                              their thread blocks start */
    int64_t started_first; /* the late and long ones: the first
                              started_first of launch_order */
    int64_t split_panels;  /* panels cut into 2 or more parts */
    double waves;          /* num_waves before splitting */
} wave_split;

/* n_tiles: thread blocks per panel along N; num_sms * blocks_per_sm: the
 * resident thread blocks of the whole GPU. */
tcspmm_status wave_split_build(const hrpb *h, int64_t n_tiles, int num_sms,
                               int blocks_per_sm, wave_split *out);
void wave_split_free(wave_split *w);

#ifdef __cplusplus
}
#endif

#endif
