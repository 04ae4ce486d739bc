/* plan.h: what a tcspmm_plan holds. plan.c fills it (validation, copies,
 * preprocessing, upload, path choice); spmm.c runs it; plan_values.c gives
 * it new values. */
#ifndef TCSPMM_PLAN_H
#define TCSPMM_PLAN_H

#include "tcspmm.h"
#include "csr_gpu.h"
#include "cusparse_path.h"
#include "host_upload.h"
#include "path_trial.h"
#include "format/hrpb.h"
#include "loadbalance/wave_split.h"
#include "format/sparse24.h"
#include "kernels/hrpb_gpu.h"
#include "kernels/sp24_gpu.h"

#include <cuda_runtime.h>

struct tcspmm_plan {
    tcspmm_csr A;            /* host copy for the CPU path and sparse24 plans whose values
                                do not change, else empty */
    const tcspmm_csr *input; /* the caller's A, during tcspmm_plan_create only */
    tcspmm_options opt;
    tcspmm_info info;
    char path_reason[256];
    char device_name[256];
    int device;              /* CUDA ordinal, -1 without a GPU */
    cusparse_path *cusparse; /* NULL unless the plan runs on cuSPARSE (or measures) */
    hrpb hrpb;               /* zeroed unless built */
    wave_split split;
    hrpb_gpu *hrpb_dev;      /* NULL unless the plan runs on HRPB (or measures) */
    path_trial trial;        /* a measuring plan's (info.path AUTO) choices per shape */
    sp24_gpu *sp24_dev;      /* NULL unless the plan runs on SPARSE24 */
    csr_gpu sp24_pattern;    /* A's row_ptr and col_idx on the device (values NULL) for a
                                SPARSE24 plan with updatable values, else empty */
    const void *checked_B, *checked_C; /* the last pointers found to be device memory */
    unsigned long long *values_check; /* plan_first_beyond's device word, or NULL */
    float *values_staging;   /* its device copy of host values (nnz), or NULL */
    host_upload values_upload; /* page-locked buffers that send pageable host values of
                                  8 MB or more (host_upload_staged), opened at the first
                                  such update and kept; zeroed until then */
    cudaMemPool_t scratch;   /* float copies of 16-bit B and C for paths whose kernels
                                do not take them (spmm.c), made at the first such call */
};

/* *first = the first of A's nnz values (host or device array values) not
 * below limit in magnitude, or -1: on the host, or on the device on stream,
 * which that synchronizes, the answer in the plan's device word
 * (values_check, allocated once). In plan_values.c. */
tcspmm_status plan_first_beyond(tcspmm_plan *plan, const float *values, int on_device,
                                float limit, void *stream, int64_t *first);

/* The magnitude from which the HRPB kernel's TF32 rounding (ties away)
 * gives Inf: plans that run HRPB refuse values this large. In plan.c. */
float hrpb_value_limit(void);

/* A measuring plan that ran out of device memory while measuring: from now
 * on it runs the rule's choice. It keeps both copies of A, which graphs
 * captured before may use. In plan.c. */
void plan_stop_measuring(tcspmm_plan *plan);

#endif
