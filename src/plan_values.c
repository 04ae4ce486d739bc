/* plan_values.c: tcspmm_plan_set_values, new values for a plan's matrix:
 * checked finite, then written where each of the plan's paths keeps them
 * (the device HRPB through its value map, the cuSPARSE CSR, the sparse24
 * compression redone on the host, the host copy of A). */
#include "plan.h"

#include "csr_gpu.h"
#include "device_copy.h"
#include "error.h"

#include <cuda_runtime.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

static tcspmm_status fail_nonfinite(int64_t k, float v)
{
    return tcspmm_fail(TCSPMM_ERROR_INVALID_MATRIX,
                       "tcspmm_plan_set_values: values[%lld] is %s; every value must be finite "
                       "(the plan keeps its values)", (long long)k, isnan(v) ? "NaN" : "infinite");
}

/* Fails, naming the first, unless every value is finite: checked on the
 * host, or on the device on stream (which that synchronizes; the plan's
 * device word, allocated once, holds the answer). */
static tcspmm_status check_finite(tcspmm_plan *plan, const float *values, int on_device,
                                  void *stream)
{
    const int64_t nnz = plan->info.nnz;
    int64_t first = -1;
    if (on_device) {
        if (!plan->values_check)
            TCSPMM_TRY(device_alloc((void **)&plan->values_check, sizeof *plan->values_check));
        TCSPMM_TRY(csr_gpu_first_nonfinite(values, nnz, plan->values_check, stream, &first));
        if (first < 0) return TCSPMM_SUCCESS;
        float v = 0;
        TCSPMM_TRY(TCSPMM_CUDA(cudaMemcpy(&v, values + first, sizeof v, cudaMemcpyDeviceToHost)));
        return fail_nonfinite(first, v);
    }
    first = INT64_MAX;
#pragma omp parallel for num_threads(plan->opt.host_threads > 0 ? plan->opt.host_threads : omp_get_max_threads()) \
    schedule(static) reduction(min : first)
    for (int64_t k = 0; k < nnz; k++)
        if (!isfinite(values[k]) && k < first) first = k;
    return first == INT64_MAX ? TCSPMM_SUCCESS : fail_nonfinite(first, values[first]);
}

/* The sparse24 path: A compressed again with the new (host) values and
 * copied over the device's; refused, the plan unchanged, when a new value
 * breaks the structure or overflows fp16. */
static tcspmm_status set_sparse24(tcspmm_plan *plan, const float *values, void *stream)
{
    tcspmm_csr A = plan->A;
    A.values = (float *)values;
    sp24 s;
    TCSPMM_TRY(sp24_compress(&A, plan->opt.precision, plan->opt.host_threads, &s));
    tcspmm_status st = sp24_gpu_set_values(plan->sp24_dev, &s, stream);
    sp24_free(&s);
    return st;
}

/* Every copy of A the plan keeps gets the new values; host_values and
 * device_values are the same values (either may be NULL where the plan
 * keeps no copy on that side). */
static tcspmm_status write_values(tcspmm_plan *plan, const float *host_values,
                                  const float *device_values, void *stream)
{
    if (plan->sp24_dev) TCSPMM_TRY(set_sparse24(plan, host_values, stream)); /* may refuse: first */
    if (plan->hrpb_dev) TCSPMM_TRY(hrpb_gpu_set_values(plan->hrpb_dev, device_values, stream));
    if (plan->cusparse) TCSPMM_TRY(cusparse_path_set_values(plan->cusparse, device_values, stream));
    if (plan->A.values)
        memcpy(plan->A.values, host_values, (size_t)plan->info.nnz * sizeof(float));
    return TCSPMM_SUCCESS;
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
    const int64_t nnz = plan->info.nnz;
    if (nnz == 0) return TCSPMM_SUCCESS;
    const size_t bytes = (size_t)nnz * sizeof(float);
    int on_device = 0;
    if (plan->device >= 0) {
        TCSPMM_TRY(TCSPMM_CUDA(cudaSetDevice(plan->device)));
        TCSPMM_TRY(is_device_memory(values, &on_device));
    }
    TCSPMM_TRY(check_finite(plan, values, on_device, stream));

    const int needs_host = plan->A.values != NULL, needs_device = plan->hrpb_dev || plan->cusparse;
    float *host_copy = NULL, *device_copy = NULL;
    tcspmm_status st = TCSPMM_SUCCESS;
    if (needs_host && on_device) { /* the check synchronized stream: values are there */
        host_copy = malloc(bytes);
        st = host_copy ? TCSPMM_CUDA(cudaMemcpy(host_copy, values, bytes, cudaMemcpyDeviceToHost))
                       : tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY,
                                     "tcspmm_plan_set_values: %zu bytes", bytes);
    }
    if (!st && needs_device && !on_device) {
        /* cudaMallocAsync cost 7.6-13 ms at a process's first update (H100, 8251cc2) */
        st = device_alloc((void **)&device_copy, bytes);
        if (!st)
            st = TCSPMM_CUDA(cudaMemcpyAsync(device_copy, values, bytes, cudaMemcpyHostToDevice,
                                             (cudaStream_t)stream));
    }
    if (!st)
        st = write_values(plan, on_device ? host_copy : values, on_device ? values : device_copy,
                          stream);
    if (device_copy) { /* host values: the caller may reuse them once this returns */
        tcspmm_status sync = TCSPMM_CUDA(cudaStreamSynchronize((cudaStream_t)stream));
        if (!st) st = sync;
        cudaFree(device_copy);
    }
    free(host_copy);
    return st;
}
