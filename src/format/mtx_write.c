/* mtx_write.c: tcspmm_write_mtx, a CSR as "coordinate real general". Values
 * are printed with %.9g, which reads back as the same float bit for bit.
 * A name ending in ".gz" is gzip-compressed; "-" writes standard output. */
#include "tcspmm.h"

#include "../error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define FLUSH_AT (1 << 20)

typedef struct sink {
    FILE *file;  /* plain output, or NULL */
    gzFile gz;   /* compressed output, or NULL */
    char *buf;
    size_t used;
    int failed;
} sink;

static void sink_flush(sink *s)
{
    if (s->used == 0 || s->failed) return;
    if (s->gz)
        s->failed = gzwrite(s->gz, s->buf, (unsigned)s->used) != (int)s->used;
    else
        s->failed = fwrite(s->buf, 1, s->used, s->file) != s->used;
    s->used = 0;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

tcspmm_status tcspmm_write_mtx(const char *path, const tcspmm_csr *A)
{
    tcspmm_clear_error();
    if (!path || !A)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "tcspmm_write_mtx: %s is NULL",
                           path ? "A" : "path");
    tcspmm_status st = tcspmm_csr_validate(A);
    if (st != TCSPMM_SUCCESS) return st;
    const char *name = strcmp(path, "-") == 0 ? "<stdout>" : path;
    sink s = {0};
    s.buf = malloc(FLUSH_AT + 128);
    if (!s.buf) return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "%s: out of memory", name);
    if (strcmp(path, "-") == 0)
        s.file = stdout;
    else if (ends_with(path, ".gz"))
        s.gz = gzopen(path, "wb");
    else
        s.file = fopen(path, "wb");
    if (!s.file && !s.gz) {
        free(s.buf);
        return tcspmm_fail(TCSPMM_ERROR_IO, "%s: cannot open for writing: %s", name,
                           strerror(errno));
    }
    s.used = (size_t)snprintf(s.buf, 128, "%%%%MatrixMarket matrix coordinate real general\n"
                                          "%lld %lld %lld\n",
                              (long long)A->rows, (long long)A->cols, (long long)A->nnz);
    for (int64_t i = 0; i < A->rows && !s.failed; i++) {
        for (int64_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
            s.used += (size_t)snprintf(s.buf + s.used, 128, "%lld %d %.9g\n", (long long)i + 1,
                                       A->col_idx[k] + 1, (double)A->values[k]);
            if (s.used >= FLUSH_AT) sink_flush(&s);
        }
    }
    sink_flush(&s);
    int closed = s.gz ? gzclose(s.gz) == Z_OK
                      : (s.file == stdout ? fflush(stdout) == 0 : fclose(s.file) == 0);
    free(s.buf);
    if (s.failed || !closed)
        return tcspmm_fail(TCSPMM_ERROR_IO, "%s: write failed: %s", name,
                           errno ? strerror(errno) : "unknown error");
    return TCSPMM_SUCCESS;
}
