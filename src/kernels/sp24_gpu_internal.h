/* sp24_gpu_internal.h: what the .cu files of the structured path share with
 * each other and with their GPU tests: the device copy of a compressed
 * matrix (sp24_gpu.h's handle) and, in CUDA code, the rounding of a float
 * to tf32 as the sparse tensor cores take it. */
#ifndef TCSPMM_SP24_GPU_INTERNAL_H
#define TCSPMM_SP24_GPU_INTERNAL_H

#include "sp24_gpu.h"
#include "sp24_wgmma.h"

#include <stdint.h>

/* A packed-B buffer a larger one replaced while a graph may still use it. */
typedef struct sp24_retired_buffer {
    void *ptr;
    struct sp24_retired_buffer *next;
} sp24_retired_buffer;

struct sp24_gpu {
    tcspmm_precision precision;
    int64_t rows, cols, rows_pad, cols_pad;
    int elem_bytes, num_sms;
    sp24_kernel kernel;
    void *values;
    uint32_t *meta;
    void *b_packed;
    size_t b_packed_bytes;
    int b_packed_captured;        /* a call that may have been captured packed B into it */
    sp24_retired_buffer *retired; /* freed with the handle */
    sp24_wgmma_maps *maps; /* the wgmma.sp kernel's tensor maps (where it is usable) */
};

#ifdef __CUDACC__
#include "tf32_round.h"

/* x rounded to tf32: to nearest, ties away from zero (sp24_round's rule). */
__device__ __forceinline__ float sp24_tf32_rna(float x) { return __uint_as_float(tf32_rna_bits(x)); }
#endif

#endif
