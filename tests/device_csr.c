/* device_csr.c: device_csr.h, the device-CSR helpers of the tests. */
#include "device_csr.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "format/csr.h"
#include "harness.h"
#include "matgen.h"

void device_csr_upload(const tcspmm_csr *A, csr_gpu *g, tcspmm_csr *dA)
{
    CHECK_OK(csr_gpu_upload(A, g));
    *dA = (tcspmm_csr){A->rows, A->cols, A->nnz, g->row_ptr, g->col_idx, g->values};
}

void device_csr_download(const tcspmm_csr *dA, tcspmm_csr *out)
{
    const csr_gpu g = {dA->rows, dA->cols, dA->nnz, dA->row_ptr, dA->col_idx, dA->values};
    CHECK_OK(csr_gpu_download(&g, out));
}

/* call on a device copy of the bad B fails as the host validation does. */
static void check_refused(const tcspmm_csr *B, device_csr_call call, const char *what)
{
    tcspmm_status host_st = tcspmm_csr_validate(B);
    char host_msg[512];
    snprintf(host_msg, sizeof host_msg, "%s", tcspmm_last_error());
    csr_gpu g;
    tcspmm_csr dB;
    device_csr_upload(B, &g, &dB);
    tcspmm_status st = call(&dB);
    csr_gpu_free(&g);
    if (st != host_st || strcmp(host_msg, tcspmm_last_error()))
        printf("%s: host '%s', device '%s'\n", what, host_msg, tcspmm_last_error());
    CHECK(host_st == TCSPMM_ERROR_INVALID_MATRIX && st == host_st &&
          !strcmp(host_msg, tcspmm_last_error()));
}

void device_csr_check_refusals(device_csr_call call)
{
    tcspmm_csr A, B;
    CHECK_OK(matgen_random(50, 40, 0.3, 77, &A));
    for (int how = 0; how < 4; how++) {
        CHECK_OK(csr_copy(&A, &B));
        const char *what = "";
        if (how == 0) {
            B.row_ptr[50] = B.nnz - 1;
            what = "row_ptr[rows] != nnz";
        } else if (how == 1) {
            int64_t t = B.row_ptr[5];
            B.row_ptr[5] = B.row_ptr[6] + 1 <= B.nnz ? B.row_ptr[6] + 1 : B.nnz;
            B.row_ptr[6] = t;
            what = "row_ptr out of order";
        } else if (how == 2) {
            B.values[B.row_ptr[30]] = NAN;
            what = "NaN";
        } else {
            B.col_idx[B.row_ptr[12] + 1] = 40;
            what = "column out of range";
        }
        check_refused(&B, call, what);
        tcspmm_csr_free(&B);
    }
    tcspmm_csr_free(&A);
}
