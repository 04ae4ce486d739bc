/* plan_values.c: tcspmm_plan_set_values, new values for a plan's matrix:
 * checked finite (and, for the sparse24 path, within its precision), then
 * written where each of the plan's paths keeps them (the device HRPB
 * through its value map, the cuSPARSE CSR, the sparse24 compression through
 * its pattern, the host copy of A). */
#include "plan.h"

#include "csr_gpu.h"
#include "device_copy.h"
#include "call_scope.h"
#include "host_threads.h"
#include "error.h"
#include "format/csr.h"

#include <cuda_runtime.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The bound every new value must stay below in magnitude: the sparse24
 * path's element type overflows at sp24_overflow_limit, HRPB's TF32 rounding
 * at hrpb_value_limit; the cuSPARSE and cpu paths take any finite value. */
static float value_limit(const tcspmm_plan *plan)
{
    return plan->sp24_dev ? sp24_overflow_limit(plan->opt.precision)
           : plan->hrpb_dev ? hrpb_value_limit() : INFINITY;
}

static tcspmm_status fail_value(const tcspmm_plan *plan, int64_t k, float v)
{
    if (isfinite(v))
        return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED,
                           "tcspmm_plan_set_values: values[%lld] = %g overflows %s, the %s "
                           "path's rounding (the plan keeps its values)", (long long)k, (double)v,
                           plan->sp24_dev ? tcspmm_precision_name(plan->opt.precision) : "tf32",
                           plan->sp24_dev ? "sparse24" : "HRPB");
    return tcspmm_fail(TCSPMM_ERROR_INVALID_MATRIX,
                       "tcspmm_plan_set_values: values[%lld] is %s; every value must be finite "
                       "(the plan keeps its values)", (long long)k, isnan(v) ? "NaN" : "infinite");
}

tcspmm_status plan_first_beyond(tcspmm_plan *plan, const float *values, int on_device,
                                float limit, void *stream, int64_t *first)
{
    if (!on_device) {
        *first = csr_first_beyond(values, plan->info.nnz, limit, plan->opt.host_threads);
        return TCSPMM_SUCCESS;
    }
    if (!plan->values_check)
        TCSPMM_TRY(device_alloc((void **)&plan->values_check, sizeof *plan->values_check));
    return csr_gpu_first_beyond(values, plan->info.nnz, limit, plan->values_check, stream, first);
}

/* bytes of device memory src into host memory dst, on stream, which is then
 * synchronized (not the legacy stream: it would wait for, and break a
 * capture on, every blocking stream). */
static tcspmm_status copy_to_host(void *dst, const void *src, size_t bytes, void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    TCSPMM_TRY(TCSPMM_CUDA(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, s)));
    return TCSPMM_CUDA(cudaStreamSynchronize(s));
}

/* Fails, naming the first, unless every value is below value_limit in
 * magnitude: scanned by plan_first_beyond where they are (device values on
 * stream), or, where sent is not NULL, in their device copy sent, on the
 * staging's stream that is sending it (which the scan then synchronizes). */
static tcspmm_status check_values(tcspmm_plan *plan, const float *values, int on_device,
                                  const float *sent, void *stream)
{
    int64_t first = -1;
    TCSPMM_TRY(plan_first_beyond(plan, sent ? sent : values, sent || on_device, value_limit(plan),
                                 sent ? plan->values_upload.stream : stream, &first));
    if (first < 0) return TCSPMM_SUCCESS;
    float v = 0;
    if (on_device) TCSPMM_TRY(copy_to_host(&v, values + first, sizeof v, stream));
    else v = values[first];
    return fail_value(plan, first, v);
}

/* Every copy of A the plan keeps gets the new values; host_values and
 * device_values are the same values (either may be NULL where the plan
 * keeps no copy on that side). */
static tcspmm_status write_values(tcspmm_plan *plan, const float *host_values,
                                  const float *device_values, void *stream)
{
    if (plan->sp24_dev)
        TCSPMM_TRY(sp24_gpu_set_values(plan->sp24_dev, plan->sp24_pattern.row_ptr,
                                       plan->sp24_pattern.col_idx, device_values, stream));
    if (plan->hrpb_dev) TCSPMM_TRY(hrpb_gpu_set_values(plan->hrpb_dev, device_values, stream));
    if (plan->cusparse) TCSPMM_TRY(cusparse_path_set_values(plan->cusparse, device_values, stream));
    if (plan->A.values)
        memcpy(plan->A.values, host_values, (size_t)plan->info.nnz * sizeof(float));
    return TCSPMM_SUCCESS;
}

/* The plan's device buffer for host values (nnz): allocated at the first
 * update from host memory and kept, as freeing it would wait for the
 * whole device. */
static tcspmm_status values_buffer(tcspmm_plan *plan, float **buffer)
{
    if (!plan->values_staging)
        TCSPMM_TRY(device_alloc((void **)&plan->values_staging,
                                (size_t)plan->info.nnz * sizeof(float)));
    *buffer = plan->values_staging;
    return TCSPMM_SUCCESS;
}

/* Pageable host values of 8 MB or more (host_upload_staged) go to the
 * plan's buffer through its page-locked staging (values_upload, opened at
 * the first such update and kept): *sent = the buffer, the copy in flight
 * on values_upload.stream. Else *sent = NULL: also where the device cannot
 * page-lock host memory, or the staging cannot be opened (it only speeds
 * the copy up; a later update tries again). */
static tcspmm_status send_host_values(tcspmm_plan *plan, const float *values, const float **sent)
{
    const size_t bytes = (size_t)plan->info.nnz * sizeof(float);
    host_upload *u = &plan->values_upload;
    *sent = NULL;
    if (!host_upload_staged(bytes)) return TCSPMM_SUCCESS;
    if (!u->stream) {
        tcspmm_status st = host_upload_open(u, bytes);
        if (st) {
            host_upload_close(u, st);
            cudaGetLastError();
            tcspmm_clear_error();
            return TCSPMM_SUCCESS;
        }
    }
    if (!u->area) return TCSPMM_SUCCESS;
    float *buffer;
    TCSPMM_TRY(values_buffer(plan, &buffer));
    TCSPMM_TRY(host_upload_send(u, buffer, values, bytes));
    *sent = buffer;
    return TCSPMM_SUCCESS;
}

/* *copied = the plan's buffer, with a plain copy of host values into it
 * enqueued on stream. */
static tcspmm_status copy_host_values(tcspmm_plan *plan, const float *values, void *stream,
                                      const float **copied)
{
    float *buffer;
    TCSPMM_TRY(values_buffer(plan, &buffer));
    TCSPMM_TRY(TCSPMM_CUDA(cudaMemcpyAsync(buffer, values, (size_t)plan->info.nnz * sizeof(float),
                                           cudaMemcpyHostToDevice, (cudaStream_t)stream)));
    *copied = buffer;
    return TCSPMM_SUCCESS;
}

/* tcspmm_plan_set_values for a plan with entries (its device current,
 * where it has one). */
static tcspmm_status replace_values(tcspmm_plan *plan, const float *values, void *stream)
{
    const size_t bytes = (size_t)plan->info.nnz * sizeof(float);
    int on_device = 0, page_locked = 0;
    if (plan->device >= 0)
        TCSPMM_TRY(is_device_memory(values, "tcspmm_plan_set_values: values", &on_device,
                                    &page_locked));
    const int needs_host = plan->A.values != NULL;
    const int needs_device = plan->hrpb_dev || plan->cusparse || plan->sp24_dev;
    const float *sent = NULL; /* large pageable host values: checked on the device */
    if (needs_device && !on_device && !page_locked) TCSPMM_TRY(send_host_values(plan, values, &sent));
    TCSPMM_TRY(check_values(plan, values, on_device, sent, stream));

    float *host_copy = NULL;
    const float *device_values = on_device ? values : sent;
    tcspmm_status st = TCSPMM_SUCCESS;
    if (needs_host && on_device) { /* the check synchronized stream: values are there */
        host_copy = malloc(bytes);
        st = host_copy ? copy_to_host(host_copy, values, bytes, stream)
                       : tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY,
                                     "tcspmm_plan_set_values: %zu bytes", bytes);
    }
    if (!st && needs_device && !device_values) st = copy_host_values(plan, values, stream, &device_values);
    if (!st) st = write_values(plan, on_device ? host_copy : values, device_values, stream);
    if (needs_device && !on_device) { /* host values: the caller may reuse them once this returns */
        tcspmm_status sync = TCSPMM_CUDA(cudaStreamSynchronize((cudaStream_t)stream));
        if (!st) st = sync;
    }
    free(host_copy);
    return st;
}

/* replace_values on the plan's host_threads (host_threads.h). */
static tcspmm_status set_values(tcspmm_plan *plan, const float *values, void *stream)
{
    host_threads_scope threads;
    host_threads_enter(&threads, plan->opt.host_threads);
    tcspmm_status st = replace_values(plan, values, stream);
    host_threads_leave(&threads);
    return st;
}

tcspmm_status tcspmm_plan_set_values(tcspmm_plan *plan, const float *values, void *stream)
{
    tcspmm_clear_error();
    if (!plan || (!values && plan->info.nnz > 0))
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "tcspmm_plan_set_values: plan or values is NULL");
    if (!plan->opt.updatable_values)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT,
                           "tcspmm_plan_set_values: the plan was made without "
                           "opt.updatable_values = 1");
    if (plan->info.nnz == 0) return TCSPMM_SUCCESS;
    if (plan->device < 0) return set_values(plan, values, stream);
    call_scope scope;
    TCSPMM_TRY(call_scope_open(&scope, plan->device, "tcspmm_plan_set_values"));
    tcspmm_status st = set_values(plan, values, stream);
    call_scope_leave(&scope);
    return st;
}
