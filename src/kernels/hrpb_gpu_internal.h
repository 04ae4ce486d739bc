/* hrpb_gpu_internal.h: what the .cu files of the HRPB device path share with
 * each other and with their GPU test: the device copy of an HRPB, the choice
 * of how a column-major B is read, and the helper kernels (the pass over
 * the rows of split panels, the transpose of a column-major B). */
#ifndef TCSPMM_HRPB_GPU_INTERNAL_H
#define TCSPMM_HRPB_GPU_INTERNAL_H

#include "hrpb_gpu.h"

#include <cuda_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One thread block's virtual panel (wave_split.h), in launch order. */
typedef struct hrpb_vpanel {
    int64_t first_block; /* its blocks are first_block .. first_block + blocks - 1 */
    int64_t panel;       /* the panel it is part of */
    int32_t blocks;
    int32_t split;       /* 0, or 1 + its panel's index in split_panels when the panel has
                            several parts (partial sums added atomically) */
} hrpb_vpanel;

/* Where the parts of a split panel meet under a 16-bit C (no 16-bit
 * atomics round once): each part adds alpha * its sums into float rows
 * (split panel s's row i is row s * TM + i, ld floats apart, ld a multiple
 * of 8), then takes a ticket of its panel and N tile (tickets[s *
 * ld_tickets + tile]); the part with the last ticket rounds the rows into
 * C with beta and puts sums and ticket back to zero. So both are all zero
 * between products. Made by the first such product, remade by a wider one
 * (hrpb_tf32.cu). */
typedef struct hrpb_split_meet {
    float *sums;
    int32_t *tickets;     /* in the allocation of sums */
    const int32_t *parts; /* num_split_panels: the parts of each */
    int64_t ld, ld_tickets;
} hrpb_split_meet;

/* A plan's meeting place now, changed by products (a plan's calls are
 * ordered), and the ones it outgrew, kept until the plan is freed: a CUDA
 * graph captured before a wider call still meets in its own. Each is at
 * least twice as wide as the one before, so the outgrown ones hold less
 * than the one now. */
typedef struct hrpb_split_meets {
    hrpb_split_meet now;
    void **outgrown;
    int num_outgrown;
} hrpb_split_meets;

struct hrpb_gpu {
    int panel_rows;           /* TM */
    int split;                /* 1: FP32-accurate 3xTF32 arithmetic, 0: TF32 */
    int dependent_launch;     /* the kernel may start while the beta pass runs (sm_90+) */
    int64_t rows, cols;
    int64_t num_vpanels;
    int64_t num_split_panels; /* distinct panels cut into several parts */
    int num_sms;              /* the device's multiprocessors */
    int64_t deep_slots[3];    /* resident three-stage blocks on the device, 1, 2, 4 warps */
    hrpb_vpanel *vpanels;     /* num_vpanels, in the split's launch order */
    int64_t *split_panels;    /* num_split_panels panel indices */
    int32_t *split_parts;     /* num_split_panels: the parts of each */
    hrpb_split_meets *meets;  /* where a 16-bit C's split parts meet */
    int64_t *size_ptr;        /* num_blocks + 1 */
    int32_t *active_cols;     /* num_blocks * HRPB_TK */
    uint8_t *packed;
    int64_t *row_map;         /* rows, or NULL: the row of C of each panel row (hrpb.h) */
    cudaMemPool_t scratch;    /* a column-major B's transposes, stream-ordered: a pool that
                                 keeps its memory (hrpb_gpu_set_split); NULL where none could
                                 be made, and B is then read in place */
    /* NULL unless the plan's values change (hrpb_value_sources in hrpb.h,
     * kernels/hrpb_values_gpu.cu): */
    int64_t value_blocks;     /* the HRPB's blocks */
    int64_t *block_values;    /* value_blocks + 1: the values of the blocks before each */
    uint32_t *value_source;   /* nnz: the entry of A's CSR of each value, in packed order */
};

/* How the kernel reads a column-major B: gathered element by element down
 * its columns where it lies, or after a transpose into a row-major
 * workspace. */
typedef enum hrpb_colb_mode {
    HRPB_COLB_AUTO = 0,
    HRPB_COLB_DIRECT = 1,
    HRPB_COLB_TRANSPOSE = 2
} hrpb_colb_mode;

/* The kernel's copy stages: two where the launch has enough waves to keep
 * the SMs full, else three (hrpb_tf32.cu), or forced. Kernels without a
 * two-stage version (FP32, 32-row panels) always run three. */
typedef enum hrpb_stages_mode {
    HRPB_STAGES_AUTO = 0,
    HRPB_STAGES_DEEP = 1,
    HRPB_STAGES_SHALLOW = 2
} hrpb_stages_mode;

/* hrpb_gpu_spmm with the column-major-B strategy and the copy stages forced
 * (AUTO: the rules hrpb_gpu_spmm uses). Row-major B ignores mode. */
tcspmm_status hrpb_gpu_spmm_mode(const hrpb_gpu *g, int64_t n, float alpha, const void *dB,
                                 int b_type, int64_t ldb, float beta, void *dC, int c_type,
                                 int64_t ldc, tcspmm_layout layout, hrpb_colb_mode mode,
                                 hrpb_stages_mode stages, void *stream);

/* C rows of the listed panels (TM rows each, clipped at rows; panel row i is
 * row d_row_map[i] of C, or i when d_row_map is NULL) times beta, or set to
 * zero when beta == 0, over n columns; C(i, j) at i*c_si + j*c_sj.
 * *launched: 1 when a kernel was enqueued (0: nothing to do). */
tcspmm_status hrpb_scale_panels(const int64_t *d_panels, int64_t count, int panel_rows,
                                const int64_t *d_row_map, int64_t rows, int64_t n, float beta,
                                float *dC, int64_t c_si, int64_t c_sj, void *stream,
                                int *launched);

/* dT (rows x n, row-major, leading dimension ldt) = dS (rows x n,
 * column-major, leading dimension lds), on a device of num_sms
 * multiprocessors. */
tcspmm_status dense_transpose_to_row_major(const float *dS, int64_t lds, int64_t rows, int64_t n,
                                           float *dT, int64_t ldt, int num_sms, void *stream);

#ifdef __cplusplus
}
#endif

#endif
