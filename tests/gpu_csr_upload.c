/* gpu_csr_upload.c: the upload of a host CSR to the device (csr_gpu_upload).
 * A CSR of 16 MB or more goes up through pinned staging buffers in pieces
 * (csr_gpu_upload_staged), a smaller one by one copy: for both, with values and as
 * a pattern, the download gives back every byte of row_ptr, col_idx and
 * values; and plans from the large CSR on the HRPB and cuSPARSE paths (which
 * upload it) multiply within 1e-3 of float64. The large arrays' lengths are
 * not multiples of the staging pieces. */
#include <stdlib.h>
#include <string.h>

#include "csr_gpu.h"
#include "format/csr.h"
#include "harness.h"
#include "matgen.h"

/* A up and back down: the same arrays; values too unless pattern. */
static void check_round_trip(const tcspmm_csr *A, int pattern, const char *what)
{
    tcspmm_csr up = *A;
    if (pattern) up.values = NULL;
    csr_gpu dA;
    tcspmm_csr back;
    CHECK_OK(csr_gpu_upload(&up, &dA));
    CHECK_OK(csr_gpu_download(&dA, &back));
    csr_gpu_free(&dA);
    const size_t entries = (size_t)A->nnz * 4;
    const int same_rows = !memcmp(back.row_ptr, A->row_ptr, ((size_t)A->rows + 1) * 8);
    const int same_cols = !memcmp(back.col_idx, A->col_idx, entries);
    const int same_values = pattern || !memcmp(back.values, A->values, entries);
    if (!(same_rows && same_cols && same_values))
        printf("%s%s: row_ptr %s, col_idx %s, values %s\n", what, pattern ? " (pattern)" : "",
               same_rows ? "same" : "differ", same_cols ? "same" : "differ",
               same_values ? "same" : "differ");
    CHECK(same_rows && same_cols && same_values);
    tcspmm_csr_free(&back);
}

static void check_plans(const tcspmm_csr *A, const char *what)
{
    const tcspmm_path paths[] = {TCSPMM_PATH_HRPB, TCSPMM_PATH_CUSPARSE};
    for (int p = 0; p < 2; p++) {
        tcspmm_plan *plan = tests_plan(A, paths[p], 0);
        if (!plan) continue;
        tests_check_spmm(plan, A, 7, 3, 0, 1e-3, 4100 + (uint64_t)p, NULL, what);
        CHECK_OK(tcspmm_plan_destroy(plan));
    }
}

int main(void)
{
    tests_require_gpu();
    tcspmm_csr big, small;
    /* about 2.3M entries: 0.8 MB of row_ptr, 9.2 MB each of col_idx and values */
    CHECK_OK(matgen_random(100003, 997, 0.0231, 4001, &big));
    CHECK_OK(matgen_random(1003, 517, 0.05, 4002, &small));
    CHECK(csr_gpu_upload_staged(&big) && !csr_gpu_upload_staged(&small));
    CHECK(((size_t)big.nnz * 4) % (64 << 10) != 0);
    for (int pattern = 0; pattern < 2; pattern++) {
        check_round_trip(&big, pattern, "staged upload");
        check_round_trip(&small, pattern, "plain upload");
    }
    check_plans(&big, "plans from the staged upload's matrix");
    tcspmm_csr_free(&big);
    tcspmm_csr_free(&small);
    return tests_finish();
}
