/* test_mtx_write.c: write-then-read round trips of random CSR matrices
 * (odd sizes, empty rows and columns, a dense row, values of every
 * magnitude, subnormals, negative zero) through .mtx, .mtx.gz and standard
 * output, bit for bit; and the writer's errors. */
#include "harness.h"

#include "format/csr.h"
#include "rng.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A random rows x cols CSR: about density of the entries, row rows/2 dense,
 * every 7th row empty, random float bit patterns of all magnitudes. */
static void random_csr(int64_t rows, int64_t cols, double density, uint64_t seed, tcspmm_csr *A)
{
    uint64_t s = seed;
    int64_t cap = (int64_t)(rows * cols * density) + cols + 1;
    csr_alloc(rows, cols, cap, A);
    int64_t nnz = 0;
    for (int64_t i = 0; i < rows; i++) {
        for (int64_t j = 0; j < cols && i % 7 != 3; j++) {
            if (!(i == rows / 2 || rng_uniform(&s) < density) || nnz == cap) continue;
            uint32_t bits;
            float v;
            do {
                bits = (uint32_t)rng_next(&s);
                memcpy(&v, &bits, 4);
            } while (!isfinite(v));
            if (rng_next(&s) % 10 == 0) v = -0.0f;
            if (rng_next(&s) % 10 == 1) v = (float)(rng_uniform(&s) - 0.5);
            A->col_idx[nnz] = (int32_t)j;
            A->values[nnz++] = v;
        }
        A->row_ptr[i + 1] = nnz;
    }
    A->nnz = nnz;
}

static void round_trip(const char *path, const tcspmm_csr *A)
{
    tcspmm_csr B;
    CHECK_OK(tcspmm_write_mtx(path, A));
    CHECK_OK(tcspmm_read_mtx(path, &B));
    CHECK(tests_csr_equal(A, &B));
    tcspmm_csr_free(&B);
    remove(path);
}

int main(void)
{
    const int64_t shapes[][2] = {{1, 1}, {17, 9}, {63, 130}, {250, 251}, {1000, 3}, {5, 0}, {0, 4}};
    char plain[4096], gz[4096];
    tests_temp_path(plain, sizeof plain, "write.mtx");
    tests_temp_path(gz, sizeof gz, "write.mtx.gz");
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        tcspmm_csr A;
        random_csr(shapes[k][0], shapes[k][1], 0.1, 100 + k, &A);
        CHECK_OK(tcspmm_csr_validate(&A));
        round_trip(plain, &A);
        round_trip(gz, &A);
        tcspmm_csr_free(&A);
    }

    /* "-" writes standard output: here, fd 1 pointed at a file for a while. */
    tcspmm_csr A, B;
    random_csr(40, 33, 0.2, 9, &A);
    char out[4096];
    tests_temp_path(out, sizeof out, "write_stdout.mtx");
    fflush(stdout);
    int saved = dup(1), fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    CHECK(saved >= 0 && fd >= 0 && dup2(fd, 1) == 1);
    tcspmm_status st = tcspmm_write_mtx("-", &A);
    fflush(stdout);
    dup2(saved, 1);
    close(fd);
    close(saved);
    CHECK(st == TCSPMM_SUCCESS);
    CHECK_OK(tcspmm_read_mtx(out, &B));
    CHECK(tests_csr_equal(&A, &B));
    tcspmm_csr_free(&B);
    remove(out);

    /* Errors: an unwritable path, NULL, an invalid CSR. */
    CHECK(tcspmm_write_mtx("/nonexistent/dir/a.mtx", &A) == TCSPMM_ERROR_IO);
    CHECK(strstr(tcspmm_last_error(), "/nonexistent/dir/a.mtx: cannot open") != NULL);
    CHECK(tcspmm_write_mtx(NULL, &A) == TCSPMM_ERROR_INVALID_ARGUMENT);
    CHECK(tcspmm_write_mtx(out, NULL) == TCSPMM_ERROR_INVALID_ARGUMENT);
    A.values[0] = NAN;
    CHECK(tcspmm_write_mtx(out, &A) == TCSPMM_ERROR_INVALID_MATRIX);
    CHECK(tcspmm_last_error()[0] != '\0');
    tcspmm_csr_free(&A);
    return tests_finish();
}
