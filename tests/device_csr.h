/* device_csr.h: what the tests of calls on a caller's device CSR share
 * (tests/device_csr.c): a device copy of A with the caller's view of it,
 * a host copy of a device CSR, and the bad copies of A such a call must
 * refuse with the host validation's status and message. */
#ifndef TCSPMM_TEST_DEVICE_CSR_H
#define TCSPMM_TEST_DEVICE_CSR_H

#include "csr_gpu.h"
#include "tcspmm.h"

/* A's arrays on the device (g, freed with csr_gpu_free) and the caller's
 * view of them (dA). */
void device_csr_upload(const tcspmm_csr *A, csr_gpu *g, tcspmm_csr *dA);

/* A host copy of a CSR whose arrays are in device memory. */
void device_csr_download(const tcspmm_csr *dA, tcspmm_csr *out);

/* A call on a device CSR; it checks that it left nothing behind when it
 * fails. */
typedef tcspmm_status (*device_csr_call)(const tcspmm_csr *dA);

/* call on device copies of a random matrix broken four ways (row_ptr's last
 * entry, row_ptr out of order, a NaN, a column out of range) fails each time
 * with the status and message tcspmm_csr_validate gives the host copy. */
void device_csr_check_refusals(device_csr_call call);

#endif
