/* mtx_read.c: tcspmm_read_mtx. Loads the whole input into memory (a file,
 * or standard input for "-"; a regular file is mapped, not copied); gzip
 * data, recognised by its magic bytes, is inflated with zlib, by one thread
 * while the others already parse what it has inflated. Reads the banner and
 * size line, and hands the body to the parallel parser (mtx_parse.c) and
 * the CSR builders (coo_to_csr.c). */
#include "mtx.h"

#include "../error.h"
#include "csr.h"
#include "mtx_number.h"

#include <errno.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* ---- loading -------------------------------------------------------- */

static tcspmm_status read_stream(FILE *f, const char *name, size_t hint, char **buf, size_t *len)
{
    size_t cap = hint ? hint + 1 : 1 << 20, n = 0;
    char *data = malloc(cap);
    if (!data) return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "%s: out of memory", name);
    for (;;) {
        if (n == cap) {
            char *grown = cap <= SIZE_MAX / 2 ? realloc(data, cap * 2) : NULL;
            if (!grown) {
                free(data);
                return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY,
                                   "%s: out of memory after %zu bytes", name, n);
            }
            data = grown;
            cap *= 2;
        }
        size_t got = fread(data + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    if (ferror(f)) {
        free(data);
        return tcspmm_fail(TCSPMM_ERROR_IO, "%s: read failed after %zu bytes: %s", name, n,
                           strerror(errno));
    }
    *buf = data;
    *len = n;
    return TCSPMM_SUCCESS;
}

/* Inflation of gzip (or zlib) data, members one after another, step by step
 * into one buffer: serially (inflate_all), or by a producer thread while
 * others parse (inflate_produce). */
typedef struct inflater {
    const char *name;
    const unsigned char *in;
    size_t in_len, used;
    char *out;
    size_t cap, n; /* out holds cap bytes, n of them inflated */
    z_stream z;
    int finished;
    tcspmm_status status; /* of the data: corrupt, truncated, ... */
    char message[224];
} inflater;

static tcspmm_status inflater_start(inflater *f, const char *name, const unsigned char *in,
                                    size_t in_len)
{
    memset(f, 0, sizeof *f);
    f->name = name;
    f->in = in;
    f->in_len = in_len;
    /* The gzip trailer's size (mod 2^32) as a first guess. */
    size_t cap = (size_t)in[in_len - 4] | (size_t)in[in_len - 3] << 8 |
                 (size_t)in[in_len - 2] << 16 | (size_t)in[in_len - 1] << 24;
    if (cap < in_len) cap = in_len * 4;
    f->cap = cap + 1;
    f->out = large_alloc(f->cap);
    if (!f->out || inflateInit2(&f->z, 15 + 32) != Z_OK) {
        free(f->out);
        return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "%s: cannot start zlib", name);
    }
    return TCSPMM_SUCCESS;
}

static void inflater_end(inflater *f)
{
    inflateEnd(&f->z);
    free(f->out);
    f->out = NULL;
}

/* Records an error of the data; any thread may run the inflater, so the
 * message is kept for the caller to report (inflater_fail). */
#define INFLATE_ERROR(f, ...)                                                  \
    do {                                                                       \
        (f)->status = TCSPMM_ERROR_IO;                                         \
        snprintf((f)->message, sizeof (f)->message, __VA_ARGS__);              \
        return 0;                                                              \
    } while (0)

static tcspmm_status inflater_fail(const inflater *f)
{
    return tcspmm_fail(f->status, "%s", f->message);
}

static int all_zero(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i]) return 0;
    return 1;
}

/* Inflates up to `most` more bytes into the room left in out. Returns 0
 * once the data has ended or failed (f->status says which). Zero bytes
 * after a member end the data. */
static int inflate_step(inflater *f, size_t most)
{
    size_t in_step = f->in_len - f->used < (1u << 30) ? f->in_len - f->used : (1u << 30);
    size_t out_step = f->cap - f->n < most ? f->cap - f->n : most;
    if (out_step > (1u << 30)) out_step = 1u << 30;
    f->z.next_in = (unsigned char *)f->in + f->used;
    f->z.avail_in = (uInt)in_step;
    f->z.next_out = (unsigned char *)f->out + f->n;
    f->z.avail_out = (uInt)out_step;
    int rc = inflate(&f->z, Z_NO_FLUSH);
    f->used += in_step - f->z.avail_in;
    f->n += out_step - f->z.avail_out;
    if (rc == Z_STREAM_END) {
        if (f->used == f->in_len) {
            f->finished = 1;
            return 0;
        }
        if (all_zero(f->in + f->used, f->in_len - f->used)) { /* padding, as gzip -d allows */
            f->finished = 1;
            return 0;
        }
        if (f->in_len - f->used < 2 || f->in[f->used] != 0x1f || f->in[f->used + 1] != 0x8b)
            INFLATE_ERROR(f, "%s: unexpected data after the gzip stream", f->name);
        inflateReset(&f->z);
    } else if (rc == Z_BUF_ERROR && f->used == f->in_len && f->z.avail_out > 0) {
        INFLATE_ERROR(f, "%s: the gzip data is truncated after %zu bytes", f->name, f->n);
    } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
        INFLATE_ERROR(f, "%s: corrupt gzip data (zlib: %s)", f->name,
                      f->z.msg ? f->z.msg : "error");
    }
    return 1;
}

/* Inflates the rest, growing out as needed. */
static tcspmm_status inflate_all(inflater *f)
{
    while (f->status == TCSPMM_SUCCESS && !f->finished) {
        if (f->n == f->cap) {
            char *grown = f->cap <= SIZE_MAX / 2 ? realloc(f->out, f->cap * 2) : NULL;
            if (!grown)
                return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY,
                                   "%s: out of memory after inflating %zu bytes", f->name, f->n);
            f->out = grown;
            f->cap *= 2;
        }
        inflate_step(f, SIZE_MAX);
    }
    return f->status == TCSPMM_SUCCESS ? TCSPMM_SUCCESS : inflater_fail(f);
}

/* The producer of a feed: inflates into out, which must not move, and
 * publishes each step; stops early (unfinished) when out is full. */
static void inflate_produce(mtx_feed *feed)
{
    inflater *f = feed->producer;
    while (f->n < f->cap && inflate_step(f, (size_t)1 << 20)) mtx_feed_publish(feed, f->n, 0);
    mtx_feed_publish(feed, f->n, 1);
}

/* The input's bytes: a read-only mapping of a regular file, or bytes read
 * from a stream. */
typedef struct input {
    const char *text;
    size_t len;
    void *map; /* the mapping, if any, of map_len bytes */
    size_t map_len;
    char *owned; /* a buffer to free, if any */
} input;

static void input_release(input *in)
{
    if (in->map) munmap(in->map, in->map_len);
    free(in->owned);
    memset(in, 0, sizeof *in);
}

static tcspmm_status load(const char *path, const char *name, input *in)
{
    memset(in, 0, sizeof *in);
    int from_stdin = strcmp(path, "-") == 0;
    FILE *f = from_stdin ? stdin : fopen(path, "rb");
    if (!f) return tcspmm_fail(TCSPMM_ERROR_IO, "%s: cannot open: %s", name, strerror(errno));
    struct stat info;
    int regular = fstat(fileno(f), &info) == 0 && S_ISREG(info.st_mode) && info.st_size > 0;
    tcspmm_status st = TCSPMM_SUCCESS;
    if (regular && !from_stdin) {
        in->map_len = (size_t)info.st_size;
        in->map = mmap(NULL, in->map_len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fileno(f), 0);
        if (in->map == MAP_FAILED) in->map = NULL;
    }
    if (in->map) {
        in->text = in->map;
        in->len = in->map_len;
    } else {
        st = read_stream(f, name, regular ? (size_t)info.st_size : 0, &in->owned, &in->len);
        in->text = in->owned;
    }
    if (!from_stdin) fclose(f);
    if (st != TCSPMM_SUCCESS) input_release(in);
    return st;
}

/* ---- banner and size line ------------------------------------------ */

/* The next blank-separated token of [*p, end) on this line, or NULL. */
static const char *next_token(const char **p, const char *end, size_t *n)
{
    const char *s = *p;
    while (s < end && (*s == ' ' || *s == '\t' || *s == '\r')) s++;
    const char *e = s;
    while (e < end && *e != ' ' && *e != '\t' && *e != '\r' && *e != '\n') e++;
    *p = e;
    *n = (size_t)(e - s);
    return e > s ? s : NULL;
}

static int token_is(const char *tok, size_t n, const char *word)
{
    return tok && n == strlen(word) && strncasecmp(tok, word, n) == 0;
}

/* The line at p, up to 60 printable characters, for a message. */
static const char *quote_line(const char *p, const char *end, char *buf, size_t size)
{
    size_t n = 0;
    for (; p < end && *p != '\n' && *p != '\r' && n + 4 < size && n < 60; p++)
        buf[n++] = (*p >= 0x20 && *p < 0x7f) ? *p : '?';
    if (p < end && *p != '\n' && *p != '\r') n += (size_t)snprintf(buf + n, size - n, "...");
    buf[n] = '\0';
    return buf;
}

#define BANNER_FORM                                                                        \
    "'%%%%MatrixMarket matrix <coordinate|array> <real|integer|pattern> "                   \
    "<general|symmetric|skew-symmetric>'"

static tcspmm_status parse_banner(const char *name, const char *buf, const char *end,
                                  mtx_header *h)
{
    const char *p = buf;
    size_t n[6];
    const char *t[6];
    for (int k = 0; k < 6; k++) t[k] = next_token(&p, end, &n[k]);
    char q[80];
    if (!t[0] || n[0] != 14 || strncmp(t[0], "%%MatrixMarket", 14) != 0 || t[0] != buf ||
        !token_is(t[1], n[1], "matrix") || !t[4] || t[5])
        return tcspmm_fail(TCSPMM_ERROR_PARSE, "%s:1: expected the banner " BANNER_FORM
                                               ", found '%s'",
                           name, quote_line(buf, end, q, sizeof q));
    if (token_is(t[2], n[2], "coordinate"))
        h->format = MTX_COORDINATE;
    else if (token_is(t[2], n[2], "array"))
        h->format = MTX_ARRAY;
    else
        return tcspmm_fail(TCSPMM_ERROR_PARSE,
                           "%s:1: expected the format 'coordinate' or 'array' in the banner, "
                           "found '%.*s'",
                           name, (int)(n[2] < 40 ? n[2] : 40), t[2]);
    if (token_is(t[3], n[3], "complex"))
        return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED,
                           "%s:1: complex matrices are not supported (only real, integer and "
                           "pattern)",
                           name);
    if (token_is(t[3], n[3], "real"))
        h->field = MTX_REAL;
    else if (token_is(t[3], n[3], "integer"))
        h->field = MTX_INTEGER;
    else if (token_is(t[3], n[3], "pattern"))
        h->field = MTX_PATTERN;
    else
        return tcspmm_fail(TCSPMM_ERROR_PARSE,
                           "%s:1: expected the field 'real', 'integer' or 'pattern' in the "
                           "banner, found '%.*s'",
                           name, (int)(n[3] < 40 ? n[3] : 40), t[3]);
    if (token_is(t[4], n[4], "hermitian"))
        return tcspmm_fail(TCSPMM_ERROR_UNSUPPORTED,
                           "%s:1: hermitian matrices are not supported (they are complex)", name);
    if (token_is(t[4], n[4], "general"))
        h->symmetry = MTX_GENERAL;
    else if (token_is(t[4], n[4], "symmetric"))
        h->symmetry = MTX_SYMMETRIC;
    else if (token_is(t[4], n[4], "skew-symmetric"))
        h->symmetry = MTX_SKEW_SYMMETRIC;
    else
        return tcspmm_fail(TCSPMM_ERROR_PARSE,
                           "%s:1: expected the symmetry 'general', 'symmetric' or "
                           "'skew-symmetric' in the banner, found '%.*s'",
                           name, (int)(n[4] < 40 ? n[4] : 40), t[4]);
    if (h->format == MTX_ARRAY && h->field == MTX_PATTERN)
        return tcspmm_fail(TCSPMM_ERROR_PARSE,
                           "%s:1: 'array pattern' is not a valid Matrix Market type", name);
    return TCSPMM_SUCCESS;
}

tcspmm_status mtx_parse_header(const char *name, const char *buf, size_t len, mtx_header *h)
{
    memset(h, 0, sizeof *h);
    const char *end = buf + len, *p = buf;
    TCSPMM_TRY(parse_banner(name, buf, end, h));
    /* Comment and blank lines, then the size line. */
    int64_t line = 1;
    const char *size_line = NULL;
    for (;;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        line++;
        if (!nl) break;
        p = nl + 1;
        const char *s = p;
        while (s < end && (*s == ' ' || *s == '\t' || *s == '\r')) s++;
        if (s == end) break;
        if (*s != '\n' && *s != '%') {
            size_line = p;
            break;
        }
    }
    const char *form = h->format == MTX_COORDINATE
                           ? "'rows columns entries' (3 non-negative integers)"
                           : "'rows columns' (2 non-negative integers)";
    if (!size_line)
        return tcspmm_fail(TCSPMM_ERROR_PARSE, "%s:%lld: expected the size line %s, found end of file",
                           name, (long long)line, form);
    uint64_t v[3] = {0, 0, 0};
    const char *token[3][2]; /* each size's digits, begin and end */
    int want = h->format == MTX_COORDINATE ? 3 : 2, ok = 1;
    p = size_line;
    for (int k = 0; k < want && ok; k++) {
        while (p < end && (*p == ' ' || *p == '\t')) p++;
        token[k][0] = p;
        ok = mtx_parse_index(&p, end, &v[k]);
        token[k][1] = p;
    }
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) p++;
    char q[80];
    if (!ok || (p < end && *p != '\n'))
        return tcspmm_fail(TCSPMM_ERROR_PARSE, "%s:%lld: expected the size line %s, found '%s'",
                           name, (long long)line, form, quote_line(size_line, end, q, sizeof q));
    for (int k = 0; k < want; k++) /* quoted: the value saturates from 20 digits on */
        if (v[k] > INT64_MAX)
            return tcspmm_fail(TCSPMM_ERROR_OVERFLOW, "%s:%lld: size '%s' overflows int64", name,
                               (long long)line, quote_line(token[k][0], token[k][1], q, sizeof q));
    h->rows = (int64_t)v[0];
    h->cols = (int64_t)v[1];
    h->size_line = line;
    h->body = p < end ? (size_t)(p + 1 - buf) : len;
    if (h->cols > INT32_MAX)
        return tcspmm_fail(TCSPMM_ERROR_OVERFLOW,
                           "%s:%lld: %lld columns; at most 2^31-1 are supported", name,
                           (long long)line, (long long)h->cols);
    if ((uint64_t)h->rows >= SIZE_MAX / sizeof(int64_t))
        return tcspmm_fail(TCSPMM_ERROR_OVERFLOW,
                           "%s:%lld: %lld rows overflow the memory this machine can address",
                           name, (long long)line, (long long)h->rows);
    if (h->symmetry != MTX_GENERAL && h->rows != h->cols)
        return tcspmm_fail(TCSPMM_ERROR_PARSE,
                           "%s:%lld: a %s matrix must be square; the size line says %lld x %lld",
                           name, (long long)line,
                           h->symmetry == MTX_SYMMETRIC ? "symmetric" : "skew-symmetric",
                           (long long)h->rows, (long long)h->cols);
    if (h->format == MTX_COORDINATE) {
        h->entries = (int64_t)v[2];
    } else {
        int64_t n = h->rows;
        if (h->cols != 0 && h->rows > INT64_MAX / h->cols)
            return tcspmm_fail(TCSPMM_ERROR_OVERFLOW,
                               "%s:%lld: a dense %lld x %lld matrix overflows int64", name,
                               (long long)line, (long long)h->rows, (long long)h->cols);
        if (h->symmetry == MTX_GENERAL) {
            h->entries = h->rows * h->cols;
        } else { /* square, n*n fits: the lower triangle */
            int64_t lower = n % 2 == 0 ? n / 2 * (n + 1) : (n + 1) / 2 * n;
            h->entries = h->symmetry == MTX_SYMMETRIC ? lower : lower - n;
        }
    }
    if ((uint64_t)h->entries > SIZE_MAX / 32)
        return tcspmm_fail(TCSPMM_ERROR_OVERFLOW,
                           "%s:%lld: %lld entries overflow the memory this machine can address",
                           name, (long long)line, (long long)h->entries);
    /* A few lines can declare a CSR larger than the machine, which the
     * kernel would let the reader allocate and then end the process for
     * filling; the bytes it needs at least: */
    const double needs = 8.0 * ((double)h->rows + 1) + 8.0 * (double)h->entries;
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    if (pages > 0 && page > 0 && needs > (double)pages * (double)page)
        return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY,
                           "%s:%lld: a CSR of %lld rows and %lld entries needs %.1f GB or more, "
                           "more than the %.1f GB of memory this machine has",
                           name, (long long)line, (long long)h->rows, (long long)h->entries,
                           needs / 1e9, (double)pages * (double)page / 1e9);
    return TCSPMM_SUCCESS;
}

/* ---- the reader ------------------------------------------------------ */

/* Duplicates are summed in double and stored as float: fails, naming the
 * entry, where a sum overflows float32. */
static tcspmm_status check_sums(const char *name, const tcspmm_csr *A, int threads)
{
    const int64_t k = csr_first_beyond(A->values, A->nnz, INFINITY, threads);
    if (k < 0) return TCSPMM_SUCCESS;
    int64_t row = 0;
    while (A->row_ptr[row + 1] <= k) row++;
    return tcspmm_fail(TCSPMM_ERROR_PARSE,
                       "%s: the duplicate entries at (%lld, %lld) sum to %g, which overflows "
                       "float32", name, (long long)row + 1, (long long)A->col_idx[k] + 1,
                       (double)A->values[k]);
}

/* The CSR of the parsed parts, which it frees; its failures name the file. */
static tcspmm_status build_csr(const char *name, const mtx_header *hp, coo_parts *parts,
                               int threads, tcspmm_csr *out)
{
    const mtx_header h = *hp;
    tcspmm_status st;
    if (h.format == MTX_COORDINATE) {
        st = coo_to_csr(h.rows, h.cols, h.symmetry, parts, threads, out);
        if (st == TCSPMM_SUCCESS) st = check_sums(name, out, threads);
        if (st != TCSPMM_SUCCESS) tcspmm_csr_free(out);
    } else {
        float *values = malloc((size_t)(h.entries ? h.entries : 1) * sizeof *values);
        if (!values) {
            st = tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "%s: out of memory for %lld values",
                             name, (long long)h.entries);
        } else {
            int64_t at = 0;
            for (int k = 0; k < parts->n; k++) {
                const coo_part *p = &parts->part[k];
                memcpy(values + at, p->val, (size_t)p->count * sizeof *values);
                at += p->count;
            }
            st = dense_to_csr(h.rows, h.cols, h.symmetry, values, threads, out);
            free(values);
        }
    }
    coo_parts_free(parts);
    if (st != TCSPMM_SUCCESS && strncmp(tcspmm_last_error(), name, strlen(name)) != 0) {
        char why[512]; /* the CSR builders' own message (sizes, memory), which does not know
                          the file: it names the size line */
        snprintf(why, sizeof why, "%s", tcspmm_last_error());
        st = tcspmm_fail(st, "%s:%lld: %s", name, (long long)h.size_line, why);
    }
    return st;
}

tcspmm_status mtx_parse_buffer(const char *name, const char *buf, size_t len, int threads,
                               tcspmm_csr *out)
{
    memset(out, 0, sizeof *out);
    if (threads < 1) threads = 1;
    mtx_header h;
    TCSPMM_TRY(mtx_parse_header(name, buf, len, &h));
    mtx_feed feed;
    mtx_feed_init(&feed, buf, len, len, 1);
    coo_parts parts;
    tcspmm_status st = mtx_parse_entries(name, &feed, &h, threads, &parts);
    mtx_feed_destroy(&feed);
    return st == TCSPMM_SUCCESS ? build_csr(name, &h, &parts, threads, out) : st;
}

/* Gzip data: with one thread, inflated whole and then parsed. With more,
 * inflated until the header is whole, then one thread inflates the rest
 * while the others parse the lines already inflated. If the trailer's size
 * was too small for the text (over 4 GiB, several members), what was
 * parsed is dropped and the rest is inflated before parsing it all. */
static tcspmm_status read_gzip(const char *name, const unsigned char *in, size_t in_len,
                               int threads, tcspmm_csr *out)
{
    inflater f;
    TCSPMM_TRY(inflater_start(&f, name, in, in_len));
    mtx_header h;
    int streamed = 0; /* the header is whole: parse while the rest inflates */
    for (size_t want = (size_t)1 << 16; threads > 1 && !streamed; want *= 2) {
        while (f.n < want && f.n < f.cap && inflate_step(&f, want - f.n)) {
        }
        if (f.status != TCSPMM_SUCCESS || f.finished || f.n == f.cap) break;
        streamed = mtx_parse_header(name, f.out, f.n, &h) == TCSPMM_SUCCESS && h.body < f.n;
    }
    tcspmm_clear_error(); /* of the tries on shorter prefixes */
    tcspmm_status st = TCSPMM_SUCCESS;
    if (streamed) {
        mtx_feed feed;
        mtx_feed_init(&feed, f.out, f.cap, f.n, 0);
        feed.produce = inflate_produce;
        feed.producer = &f;
        coo_parts parts;
        st = mtx_parse_entries(name, &feed, &h, threads, &parts);
        mtx_feed_destroy(&feed);
        if (f.status != TCSPMM_SUCCESS) { /* its error comes first, as without threads */
            coo_parts_free(&parts);
            st = inflater_fail(&f);
        } else if (!f.finished) { /* the buffer was too small: start the parse over */
            coo_parts_free(&parts);
            tcspmm_clear_error();
            streamed = 0;
        } else if (st == TCSPMM_SUCCESS) {
            st = build_csr(name, &h, &parts, threads, out);
        }
    }
    if (!streamed) {
        st = inflate_all(&f);
        if (st == TCSPMM_SUCCESS) st = mtx_parse_buffer(name, f.out, f.n, threads, out);
    }
    inflater_end(&f);
    return st;
}

tcspmm_status tcspmm_read_mtx(const char *path, tcspmm_csr *out)
{
    tcspmm_clear_error();
    if (out) memset(out, 0, sizeof *out);
    if (!path || !out)
        return tcspmm_fail(TCSPMM_ERROR_INVALID_ARGUMENT, "tcspmm_read_mtx: %s is NULL",
                           path ? "out" : "path");
    const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
    input in;
    TCSPMM_TRY(load(path, name, &in));
    const unsigned char *u = (const unsigned char *)in.text;
    int threads = omp_get_max_threads();
    tcspmm_status st = in.len >= 18 && u[0] == 0x1f && u[1] == 0x8b
                           ? read_gzip(name, u, in.len, threads, out)
                           : mtx_parse_buffer(name, in.text, in.len, threads, out);
    input_release(&in);
    return st;
}
