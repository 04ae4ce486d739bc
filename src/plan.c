/* plan.c: tcspmm_plan_create and friends: find the GPU, validate A (its
 * entries on the GPU when there is one, after uploading it), build HRPB (on
 * the GPU when there is one) and its virtual panels when a tensor-core path
 * may run, choose the path, upload what that path needs, once, and keep a
 * host copy of A where the path needs one. */
#include "plan.h"

#include "auto_path.h"
#include "call_scope.h"
#include "host_threads.h"
#include "device_copy.h"
#include "error.h"
#include "format/csr.h"
#include "format/row_order.h"
#include "options.h"

#include <cuda_runtime.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Defaults for load balancing when no GPU can be asked (an H100's SMs). */
enum { DEFAULT_NUM_SMS = 132, DEFAULT_BLOCKS_PER_SM = 4, DEFAULT_N_TILE = 128 };

static double now_ms(void) { return omp_get_wtime() * 1e3; }

/* Sets plan->device and the device fields of info, or device = -1 with the
 * reason in path_reason when no GPU can be used. */
static tcspmm_status find_device(tcspmm_plan *plan)
{
    plan->device = -1;
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        snprintf(plan->path_reason, sizeof plan->path_reason, "no CUDA device (%s)",
                 e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
        cudaGetLastError(); /* clear the sticky-free error so later calls start clean */
        return TCSPMM_SUCCESS;
    }
    int dev = plan->opt.device;
    if (dev < 0) TCSPMM_TRY(TCSPMM_CUDA(cudaGetDevice(&dev)));
    if (dev >= count)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "plan: device %d requested, %d present",
                           dev, count);
    TCSPMM_TRY(TCSPMM_CUDA(cudaSetDevice(dev)));
    struct cudaDeviceProp prop;
    TCSPMM_TRY(TCSPMM_CUDA(cudaGetDeviceProperties(&prop, dev)));
    plan->device = dev;
    snprintf(plan->device_name, sizeof plan->device_name, "%s", prop.name);
    plan->info.has_gpu = 1;
    plan->info.num_sms = prop.multiProcessorCount;
    return TCSPMM_SUCCESS;
}

/* Whether a plan on path runs the HRPB kernel (AUTO: a measured plan). */
static int runs_hrpb(tcspmm_path path)
{
    return path == TCSPMM_PATH_HRPB || path == TCSPMM_PATH_AUTO;
}

/* The HRPB kernel's arithmetic for a requested precision: FP32-accurate
 * (3xTF32) for fp32, TF32 otherwise (bf16/fp16 are sparse24 precisions). */
static tcspmm_precision hrpb_precision(tcspmm_precision want)
{
    return want == TCSPMM_PRECISION_FP32 ? TCSPMM_PRECISION_FP32 : TCSPMM_PRECISION_TF32;
}

/* The host CSR a creation step reads: the caller's, or, for a plan made
 * from device arrays, plan->A downloaded from dA on first use. */
static tcspmm_status host_input(tcspmm_plan *plan, const csr_gpu *dA, const tcspmm_csr **A)
{
    if (!plan->input) {
        TCSPMM_TRY(csr_gpu_download(dA, &plan->A));
        plan->input = &plan->A;
    }
    *A = plan->input;
    return TCSPMM_SUCCESS;
}

/* HRPB on the host, of A's rows in order (NULL: A's order). */
static tcspmm_status build_hrpb_host(tcspmm_plan *plan, const csr_gpu *dA, const int64_t *order,
                                     hrpb_counts *counts)
{
    const tcspmm_csr *A;
    TCSPMM_TRY(host_input(plan, dA, &A));
    TCSPMM_TRY(hrpb_build_ordered(A, order, plan->opt.panel_rows, plan->opt.host_threads,
                                  &plan->hrpb));
    hrpb_count(&plan->hrpb, counts);
    return TCSPMM_SUCCESS;
}

/* HRPB on the device from dA's rows in order (NULL: dA's order; uploaded
 * once, the device HRPB keeps it as its row map), or on the host when the
 * device has no room for the build's temporaries. */
static tcspmm_status build_hrpb_gpu(tcspmm_plan *plan, const csr_gpu *dA, const int64_t *order,
                                    hrpb_counts *counts)
{
    csr_gpu permuted = {0};
    int64_t *d_order = NULL;
    tcspmm_status st = TCSPMM_SUCCESS;
    if (order) {
        st = device_copy_in((void **)&d_order, order, (size_t)dA->rows * sizeof(int64_t),
                            cudaMemcpyHostToDevice);
        if (!st) st = csr_gpu_permute_rows(dA, d_order, &permuted);
    }
    if (!st)
        st = hrpb_gpu_build(order ? &permuted : dA, plan->opt.panel_rows, &plan->hrpb, counts,
                            &plan->hrpb_dev);
    csr_gpu_free(&permuted);
    if (!st && d_order) hrpb_gpu_adopt_row_map(plan->hrpb_dev, d_order);
    else cudaFree(d_order);
    if (st != TCSPMM_ERROR_DEVICE_OUT_OF_MEMORY) return st;
    tcspmm_clear_error();
    return build_hrpb_host(plan, dA, order, counts);
}

/* *order = the clustered row order of A (row_order.h) when the options ask
 * for it and it has fewer active columns than A's own; else NULL. */
static tcspmm_status cluster_rows(tcspmm_plan *plan, const csr_gpu *dA, int64_t **order)
{
    *order = NULL;
    tcspmm_info *info = &plan->info; /* row_order is "natural" from set_sizes */
    if (plan->opt.row_order != TCSPMM_ROW_ORDER_CLUSTERED) return TCSPMM_SUCCESS;
    double t0 = now_ms();
    const tcspmm_csr *A;
    TCSPMM_TRY(host_input(plan, dA, &A));
    int64_t *o;
    row_order_stats stats;
    tcspmm_status st =
        row_order_cluster_new(A, plan->opt.panel_rows, plan->opt.host_threads, &o, &stats);
    info->row_order_ms = now_ms() - t0;
    TCSPMM_TRY(st);
    info->active_cols_natural = stats.natural_cols;
    info->active_cols_clustered = stats.clustered_cols;
    if (stats.clustered_cols < stats.natural_cols) {
        *order = o;
        info->row_order = "clustered";
    } else {
        free(o);
    }
    return TCSPMM_SUCCESS;
}

/* Builds HRPB (of the clustered rows where asked for), its metrics and its
 * virtual panels. */
static tcspmm_status build_hrpb(tcspmm_plan *plan, const csr_gpu *dA)
{
    const tcspmm_options *opt = &plan->opt;
    double t0 = now_ms();
    hrpb_counts counts;
    int64_t *order;
    TCSPMM_TRY(cluster_rows(plan, dA, &order));
    tcspmm_status st = dA->row_ptr ? build_hrpb_gpu(plan, dA, order, &counts)
                                   : build_hrpb_host(plan, dA, order, &counts);
    if (st) {
        free(order);
        return st;
    }
    plan->hrpb.row_map = order; /* the host's copy (the device has its own) */
    hrpb_metrics_counted(&plan->hrpb, &counts, &plan->info);

    int blocks_per_sm = DEFAULT_BLOCKS_PER_SM;
    int64_t n_tile = DEFAULT_N_TILE;
    if (plan->device >= 0)
        TCSPMM_TRY(hrpb_gpu_occupancy(opt->expected_n, opt->panel_rows, hrpb_precision(opt->precision),
                                      &blocks_per_sm, &n_tile));
    if (opt->blocks_per_sm > 0) blocks_per_sm = opt->blocks_per_sm;
    int num_sms = plan->info.num_sms > 0 ? plan->info.num_sms : DEFAULT_NUM_SMS;
    if (opt->num_sms > 0) num_sms = opt->num_sms;
    plan->info.num_sms = num_sms;
    plan->info.blocks_per_sm = blocks_per_sm;
    int64_t n_tiles = (opt->expected_n + n_tile - 1) / n_tile;
    TCSPMM_TRY(wave_split_build(&plan->hrpb, n_tiles, num_sms, blocks_per_sm, &plan->split));
    plan->info.virtual_panels = plan->split.num_vpanels;
    plan->info.split_panels = plan->split.split_panels;
    plan->info.waves = plan->split.waves;
    plan->info.preprocess_ms = now_ms() - t0;
    return TCSPMM_SUCCESS;
}

/* A structured matrix goes to the sparse tensor cores only when it is dense
 * enough for their dense-over-K work to pay: it has entries, and they fill
 * at least a quarter of the compressed slots (rows x cols / 2). */
static int sparse24_dense_enough(const tcspmm_info *A)
{
    return A->nnz > 0 && (double)A->nnz * 4.0 >= (double)A->rows * (double)A->cols / 2.0;
}

/* *fit = whether every value of A is below limit in magnitude: checked on
 * the device copy dA where the plan has one, else on the host input. */
static tcspmm_status values_below(tcspmm_plan *plan, const csr_gpu *dA, float limit, int *fit)
{
    int64_t first = -1;
    if (plan->info.nnz > 0) /* else a device copy holds no values */
        TCSPMM_TRY(plan_first_beyond(plan, dA->values ? dA->values : plan->input->values,
                                     dA->values != NULL, limit, NULL, &first));
    *fit = first < 0;
    return TCSPMM_SUCCESS;
}

float hrpb_value_limit(void)
{
    return sp24_overflow_limit(TCSPMM_PRECISION_TF32); /* the same rounding, ties away */
}

/* Whether the sparse tensor cores can run A at a precision: TF32 needs 1:2,
 * BF16 and FP16 need 2:4 (a 1:2 matrix is also 2:4). */
static int sparse24_fits(sp24_structure s, tcspmm_precision p)
{
    if (p == TCSPMM_PRECISION_TF32) return s == SP24_1TO2;
    return (p == TCSPMM_PRECISION_BF16 || p == TCSPMM_PRECISION_FP16) && s != SP24_NONE;
}

/* The arithmetic a path really uses for a requested precision (a measured
 * plan: the coarser of HRPB's and cuSPARSE's). */
static tcspmm_precision effective_precision(tcspmm_path path, tcspmm_precision want)
{
    if (path == TCSPMM_PATH_SPARSE24) return want;
    if (runs_hrpb(path)) return hrpb_precision(want);
    return TCSPMM_PRECISION_FP32; /* cuSPARSE, and the CPU's float64 accumulation */
}

/* The auto path's choice by the plan-time rule alone, and why. */
static tcspmm_path rule_choice(const tcspmm_plan *plan, char *why, size_t len)
{
    return auto_path_choose(&plan->info, plan->opt.expected_n, hrpb_precision(plan->opt.precision),
                            0, why, len);
}

/* Whether the current device has bytes free, with a quarter to spare (a
 * measured plan keeps HRPB beside the CSR; one built on the host is
 * uploaded next to it). */
static int room_on_device(int64_t bytes)
{
    size_t free_bytes = 0, total = 0;
    if (cudaMemGetInfo(&free_bytes, &total) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return (double)free_bytes >= 1.25 * (double)bytes;
}

/* Chooses the path from the request, the GPU, the structure and (for auto)
 * the HRPB metrics, building HRPB for the HRPB path and for an auto plan
 * that is not sent to the structured path. */
static tcspmm_status choose_path(tcspmm_plan *plan, sp24_structure s, const csr_gpu *dA)
{
    tcspmm_path want = plan->opt.path;
    tcspmm_precision prec = plan->opt.precision;
    tcspmm_info *info = &plan->info;
    char *why = plan->path_reason;
    size_t len = sizeof plan->path_reason;
    int structured = sparse24_fits(s, prec) && sparse24_dense_enough(&plan->info) &&
                     (plan->device < 0 || sp24_gpu_takes_rows(plan->info.rows));
    if (want == TCSPMM_PATH_SPARSE24 && prec == TCSPMM_PRECISION_FP32)
        return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED,
                           "plan: the sparse24 path has no fp32 mode (tf32, bf16 or fp16)");
    if (want == TCSPMM_PATH_SPARSE24 && !sparse24_fits(s, prec))
        return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED,
                           "plan: the sparse24 path needs a %s matrix for precision %s; this one "
                           "is %s%s", prec == TCSPMM_PRECISION_TF32 ? "1:2" : "2:4",
                           tcspmm_precision_name(prec), sparse24_structure_name(s),
                           plan->opt.updatable_values
                               ? " (counting every entry, zero or not: its values may change)"
                               : "");
    int auto_on_gpu = want == TCSPMM_PATH_AUTO && plan->device >= 0;
    int values_fit = 1; /* an auto plan takes the structured path only if its values fit */
    if (auto_on_gpu && structured)
        TCSPMM_TRY(values_below(plan, dA, sp24_overflow_limit(prec), &values_fit));
    structured = structured && values_fit;
    int hrpb_fit = 1; /* HRPB's TF32 rounding overflows values within 2^-12 of FLT_MAX */
    if (plan->device >= 0 && (want == TCSPMM_PATH_HRPB || (auto_on_gpu && !structured)))
        TCSPMM_TRY(values_below(plan, dA, hrpb_value_limit(), &hrpb_fit));
    if (want == TCSPMM_PATH_HRPB && !hrpb_fit)
        return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED,
                           "plan: A holds a value of magnitude %g or more, which the HRPB "
                           "path's TF32 rounding turns into Inf (the cuSPARSE path takes it)",
                           (double)hrpb_value_limit());
    if (want == TCSPMM_PATH_HRPB ||
        (want == TCSPMM_PATH_AUTO && !(auto_on_gpu && (structured || !hrpb_fit))))
        TCSPMM_TRY(build_hrpb(plan, dA));

    if (want == TCSPMM_PATH_CPU) {
        info->path = TCSPMM_PATH_CPU;
        snprintf(why, len, "requested");
    } else if (plan->device < 0) {
        info->path = TCSPMM_PATH_CPU; /* find_device wrote why */
    } else if (want != TCSPMM_PATH_AUTO) {
        info->path = want;
        snprintf(why, len, "requested");
    } else if (!hrpb_fit) {
        info->path = TCSPMM_PATH_CUSPARSE;
        snprintf(why, len, "a value of magnitude %g or more, which HRPB's TF32 rounding turns "
                 "into Inf: cuSPARSE", (double)hrpb_value_limit());
    } else if (structured) {
        info->path = TCSPMM_PATH_SPARSE24;
        snprintf(why, len, "structure %s at precision %s: sparse tensor cores%s",
                 sparse24_structure_name(s), tcspmm_precision_name(prec),
                 prec == TCSPMM_PRECISION_TF32 ? "" : "; fp32 values and B are rounded to nearest");
    } else {
        info->path = auto_path_choose(info, plan->opt.expected_n, hrpb_precision(prec),
                                      !plan->opt.rule_only, why, len);
        if (info->path == TCSPMM_PATH_AUTO && !plan->hrpb_dev && !room_on_device(info->hrpb_bytes)) {
            info->path = rule_choice(plan, why, len);
            size_t used = strlen(why);
            snprintf(why + used, len - used, "; not measured: no room on the GPU for HRPB beside CSR");
        }
        if (!values_fit) {
            size_t used = strlen(why);
            snprintf(why + used, len - used, "; structure %s, but a value overflows %s",
                     sparse24_structure_name(s), tcspmm_precision_name(prec));
        }
    }
    info->precision = effective_precision(info->path, prec);
    return TCSPMM_SUCCESS;
}

/* For a plan whose values change, on an HRPB built on the host: the source
 * of each of its values (hrpb_value_sources), worked out there and uploaded
 * beside it. */
static tcspmm_status map_values_on_host(tcspmm_plan *plan, const csr_gpu *dA)
{
    const tcspmm_csr *A;
    TCSPMM_TRY(host_input(plan, dA, &A));
    const int64_t nb = plan->hrpb.num_blocks;
    int64_t *block_values = malloc(((size_t)nb + 1) * sizeof(int64_t));
    uint32_t *source = malloc((size_t)(A->nnz > 0 ? A->nnz : 1) * sizeof(uint32_t));
    tcspmm_status st = TCSPMM_SUCCESS;
    if (!block_values || !source)
        st = tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY,
                         "plan: cannot allocate the value sources of %lld entries", (long long)A->nnz);
    if (!st) st = hrpb_value_sources(&plan->hrpb, A, plan->opt.host_threads, block_values, source);
    if (!st) st = hrpb_gpu_upload_value_sources(plan->hrpb_dev, block_values, nb, source, A->nnz);
    free(block_values);
    free(source);
    return st;
}

/* For a sparse24 plan whose values change: A's pattern on the device, where
 * sp24_gpu_set_values finds each entry's place; taken from dA where the
 * plan checked A on the device, else uploaded from plan->input. */
static tcspmm_status keep_pattern(tcspmm_plan *plan, csr_gpu *dA)
{
    if (!dA->row_ptr) {
        tcspmm_csr pattern = *plan->input;
        pattern.values = NULL;
        TCSPMM_TRY(csr_gpu_upload(&pattern, dA));
    }
    plan->sp24_pattern = *dA;
    plan->sp24_pattern.values = NULL;
    const cudaError_t freed = cudaFree(dA->values); /* the rest is the pattern's now */
    memset(dA, 0, sizeof *dA);
    return TCSPMM_CUDA(freed);
}

static tcspmm_status upload(tcspmm_plan *plan, csr_gpu *dA)
{
    double t0 = now_ms();
    const tcspmm_path path = plan->info.path;
    const int hrpb = runs_hrpb(path);
    if (path == TCSPMM_PATH_CUSPARSE || path == TCSPMM_PATH_AUTO) /* input is NULL for device input */
        TCSPMM_TRY(cusparse_path_create(plan->input, dA->row_ptr ? dA : NULL, &plan->cusparse));
    if (hrpb && plan->hrpb_dev)
        TCSPMM_TRY(hrpb_gpu_set_split(plan->hrpb_dev, &plan->split, plan->info.precision));
    else if (hrpb) {
        TCSPMM_TRY(hrpb_gpu_upload(&plan->hrpb, &plan->split, plan->info.precision, &plan->hrpb_dev));
        if (plan->opt.updatable_values) TCSPMM_TRY(map_values_on_host(plan, dA));
    }
    if (!hrpb) { /* built on the device for the choice only */
        hrpb_gpu_free(plan->hrpb_dev);
        plan->hrpb_dev = NULL;
    }
    if (path == TCSPMM_PATH_SPARSE24) {
        const tcspmm_csr *A;
        TCSPMM_TRY(host_input(plan, dA, &A));
        sp24 compressed;
        TCSPMM_TRY(sp24_compress(A, plan->opt.precision, plan->opt.host_threads,
                                 plan->opt.updatable_values, &compressed));
        tcspmm_status st = sp24_gpu_upload(&compressed, &plan->sp24_dev);
        sp24_free(&compressed);
        TCSPMM_TRY(st);
        size_t used = strlen(plan->path_reason);
        snprintf(plan->path_reason + used, sizeof plan->path_reason - used, "; kernel %s",
                 sp24_kernel_name(sp24_gpu_kernel(plan->sp24_dev)));
    }
    if (plan->device >= 0) TCSPMM_TRY(TCSPMM_CUDA(cudaDeviceSynchronize()));
    plan->info.upload_ms += now_ms() - t0;
    return TCSPMM_SUCCESS;
}

/* Whether the plan checks A and builds HRPB from a device copy of it: a
 * GPU, a GPU path possible, and sizes the device build's int32 entry
 * indices hold. */
static int uses_device_csr(const tcspmm_plan *plan, const tcspmm_csr *A)
{
    return plan->device >= 0 && plan->opt.path != TCSPMM_PATH_CPU && csr_gpu_fits(A->rows, A->nnz);
}

/* Checks A's entries and finds its structure: on the device, from a copy
 * uploaded into *dA, when the plan uses one (the host then reads the
 * entries once, to copy them); else on the host. */
static tcspmm_status check_entries(tcspmm_plan *plan, const tcspmm_csr *A, csr_gpu *dA,
                                   sp24_structure *s)
{
    if (!uses_device_csr(plan, A)) {
        TCSPMM_TRY(tcspmm_csr_validate(A));
        *s = sparse24_detect(A, plan->opt.updatable_values);
        return TCSPMM_SUCCESS;
    }
    double t0 = now_ms();
    TCSPMM_TRY(csr_gpu_upload(A, dA));
    plan->info.upload_ms += now_ms() - t0;
    return csr_gpu_check(dA, plan->opt.updatable_values, s);
}

/* What follows the checks, for both kinds of input: the path, the upload,
 * and the host copy of A where the path keeps one: the cpu path, and the
 * sparse24 path unless its values change (it keeps only A's rounded values
 * on the device). The others keep A on the device only, and spmm_host
 * copies it back. */
static tcspmm_status plan_complete(tcspmm_plan *plan, sp24_structure s, csr_gpu *dA)
{
    tcspmm_info *info = &plan->info;
    info->structure = sparse24_structure_name(s);
    TCSPMM_TRY(choose_path(plan, s, dA));
    if (plan->opt.updatable_values && runs_hrpb(info->path) && plan->hrpb_dev) /* built on the device */
        TCSPMM_TRY(hrpb_gpu_map_values(plan->hrpb_dev, plan->hrpb.block_ptr, dA));
    const tcspmm_csr *A = NULL;
    const int sparse24 = info->path == TCSPMM_PATH_SPARSE24;
    const int keeps_host = info->path == TCSPMM_PATH_CPU || (sparse24 && !plan->opt.updatable_values);
    if (info->path == TCSPMM_PATH_CPU || sparse24) /* before dA goes */
        TCSPMM_TRY(host_input(plan, dA, &A));
    if (sparse24 && plan->opt.updatable_values) TCSPMM_TRY(keep_pattern(plan, dA));
    if (info->path != TCSPMM_PATH_CUSPARSE && info->path != TCSPMM_PATH_AUTO)
        csr_gpu_free(dA); /* room for the upload */
    TCSPMM_TRY(upload(plan, dA));
    if (keeps_host && A != &plan->A) TCSPMM_TRY(csr_copy(A, &plan->A));
    if (!keeps_host) tcspmm_csr_free(&plan->A); /* a download the host HRPB build needed */
    plan->input = NULL;
    return TCSPMM_SUCCESS;
}

static void set_sizes(tcspmm_info *info, const tcspmm_csr *A)
{
    info->rows = A->rows;
    info->cols = A->cols;
    info->nnz = A->nnz;
    info->synergy = "";
    info->row_order = "natural";
}

/* A plan from a host CSR whose sizes and row_ptr are checked. */
static tcspmm_status plan_fill_host(tcspmm_plan *plan, const tcspmm_csr *A, csr_gpu *dA)
{
    set_sizes(&plan->info, A);
    TCSPMM_TRY(find_device(plan));
    sp24_structure s;
    TCSPMM_TRY(check_entries(plan, A, dA, &s));
    plan->input = A;
    return plan_complete(plan, s, dA);
}

/* A plan from a CSR in device memory whose sizes are checked: copied into
 * dA on the device and checked there. */
static tcspmm_status plan_fill_device(tcspmm_plan *plan, const tcspmm_csr *A, csr_gpu *dA)
{
    set_sizes(&plan->info, A);
    TCSPMM_TRY(find_device(plan));
    if (plan->device < 0)
        return tcspmm_fail(TCSPMM_ERROR_NO_DEVICE, "tcspmm_plan_create_device: %s",
                           plan->path_reason);
    TCSPMM_TRY(csr_gpu_check_caller_arrays(A, "tcspmm_plan_create_device", "tcspmm_plan_create"));
    double t0 = now_ms();
    TCSPMM_TRY(csr_gpu_copy(A, dA));
    plan->info.upload_ms += now_ms() - t0;
    TCSPMM_TRY(csr_gpu_check_row_ptr(dA));
    sp24_structure s;
    TCSPMM_TRY(csr_gpu_check(dA, plan->opt.updatable_values, &s));
    plan->input = NULL;
    return plan_complete(plan, s, dA);
}

/* Frees everything a plan holds; keeps this thread's error message and the
 * caller's current device. Clears the CUDA error left pending (by the frees,
 * or by a failed create), but with keep_caller_error one pending before
 * stays: tcspmm_plan_destroy's caller may have left it to read. */
static void plan_free(tcspmm_plan *plan, int keep_caller_error)
{
    const int caller_error = keep_caller_error && cudaPeekAtLastError() != cudaSuccess;
    call_scope scope = {0}; /* entered quietly: this keeps the thread's message */
    if (plan->device >= 0) call_scope_enter(&scope, plan->device);
    path_trial_free(&plan->trial);
    cusparse_path_destroy(plan->cusparse);
    hrpb_gpu_free(plan->hrpb_dev);
    sp24_gpu_free(plan->sp24_dev);
    cudaFree(plan->values_check);
    /* before the buffer it fills; given an error, it waits quietly: the message stays */
    host_upload_close(&plan->values_upload, TCSPMM_ERROR_CUDA);
    cudaFree(plan->values_staging);
    if (plan->scratch) cudaMemPoolDestroy(plan->scratch);
    csr_gpu_free(&plan->sp24_pattern);
    hrpb_free(&plan->hrpb);
    wave_split_free(&plan->split);
    tcspmm_csr_free(&plan->A);
    free(plan);
    call_scope_leave(&scope);
    if (!caller_error) cudaGetLastError();
}

typedef tcspmm_status (*plan_fill_fn)(tcspmm_plan *, const tcspmm_csr *, csr_gpu *);

/* The plan from A (checked as far as fill expects) and opt, or an error. */
static tcspmm_status plan_create(const tcspmm_csr *A, const tcspmm_options *opt, plan_fill_fn fill,
                                 tcspmm_plan **out)
{
    int device; /* a GPU: a CUDA error already pending stays the caller's */
    if (cudaGetDevice(&device) == cudaSuccess)
        TCSPMM_TRY(call_scope_check_pending("tcspmm_plan_create"));
    else cudaGetLastError();
    tcspmm_plan *plan = calloc(1, sizeof *plan);
    if (!plan) return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "tcspmm_plan_create: out of memory");
    if (opt) plan->opt = *opt;
    else tcspmm_options_init(&plan->opt);
    path_trial_init(&plan->trial, plan->opt.measure_at_first_call);
    tcspmm_status st = options_check(&plan->opt);
    call_scope scope; /* no GPU: enter fails and changes nothing */
    call_scope_enter(&scope, -1);
    host_threads_scope threads;
    host_threads_enter(&threads, st ? 0 : plan->opt.host_threads);
    csr_gpu dA = {0};
    if (!st) st = fill(plan, A, &dA);
    csr_gpu_free(&dA);
    host_threads_leave(&threads);
    call_scope_leave(&scope);
    if (st) {
        plan_free(plan, 0);
        return st;
    }
    /* The host copy of HRPB is no longer needed (its metrics are in info; a
     * cpu-path plan multiplies with A) */
    if (runs_hrpb(plan->info.path))
        hrpb_drop_blocks(&plan->hrpb); /* spmm_host, also after plan_stop_measuring */
    else hrpb_free(&plan->hrpb);
    wave_split_free(&plan->split);
    *out = plan;
    return TCSPMM_SUCCESS;
}

tcspmm_status tcspmm_plan_create(const tcspmm_csr *A, const tcspmm_options *opt,
                                 tcspmm_plan **out)
{
    tcspmm_clear_error();
    if (out) *out = NULL;
    if (!A || !out)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "tcspmm_plan_create: A or plan is NULL");
    TCSPMM_TRY(csr_validate_row_ptr(A)); /* the entries are checked in plan_fill_host */
    return plan_create(A, opt, plan_fill_host, out);
}

tcspmm_status tcspmm_plan_create_device(const tcspmm_csr *dA, const tcspmm_options *opt,
                                        tcspmm_plan **out)
{
    tcspmm_clear_error();
    if (out) *out = NULL;
    if (!dA || !out)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "tcspmm_plan_create_device: A or plan is NULL");
    TCSPMM_TRY(csr_gpu_check_caller_sizes(dA, "tcspmm_plan_create_device", "tcspmm_plan_create"));
    return plan_create(dA, opt, plan_fill_device, out);
}

tcspmm_status tcspmm_plan_info(const tcspmm_plan *plan, tcspmm_info *info)
{
    tcspmm_clear_error();
    if (!plan || !info)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "tcspmm_plan_info: plan or info is NULL");
    *info = plan->info;
    info->path_reason = plan->path_reason;
    info->device_name = plan->device_name;
    return TCSPMM_SUCCESS;
}

void plan_stop_measuring(tcspmm_plan *plan)
{
    char rule_why[192];
    const tcspmm_path rule = rule_choice(plan, rule_why, sizeof rule_why);
    plan->info.path = rule;
    plan->info.precision = effective_precision(rule, plan->opt.precision);
    /* Both copies of A stay: a graph captured earlier may run either path. */
    size_t used = strlen(plan->path_reason);
    snprintf(plan->path_reason + used, sizeof plan->path_reason - used,
             "; out of GPU memory while measuring: the rule's %s", tcspmm_path_name(rule));
}

tcspmm_status tcspmm_plan_path_for(const tcspmm_plan *plan, int64_t n, tcspmm_layout layout,
                                   float beta, tcspmm_path *path)
{
    tcspmm_clear_error();
    if (!plan || !path)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "tcspmm_plan_path_for: plan or path is NULL");
    if (n < 0 || (layout != TCSPMM_LAYOUT_ROW_MAJOR && layout != TCSPMM_LAYOUT_COL_MAJOR))
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "tcspmm_plan_path_for: n = %lld, layout %d: n must be >= 0 and the "
                           "layout row- or column-major", (long long)n, (int)layout);
    if (!isfinite(beta))
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "tcspmm_plan_path_for: beta must be finite, as tcspmm_spmm needs");
    *path = plan->info.path;
    if (*path == TCSPMM_PATH_AUTO) /* for B and C CSR_ALG3 may run on */
        *path = path_trial_lookup(&plan->trial, n, layout, beta,
                                  cusparse_path_keeps_alg3(plan->cusparse));
    return TCSPMM_SUCCESS;
}

tcspmm_status tcspmm_plan_destroy(tcspmm_plan *plan)
{
    tcspmm_clear_error();
    if (plan) plan_free(plan, 1);
    return TCSPMM_SUCCESS;
}
