/* mtx_parse.c: parses the entry lines of a Matrix Market body in parallel.
 *
 * The body is cut into chunks at line boundaries. OpenMP threads take chunks
 * dynamically; each parses its lines into its own COO part and stops at its
 * first error, remembering the error's line as an index within the chunk.
 * After the parallel region, the chunks' line counts turn those indices into
 * file line numbers and the error on the lowest line wins (a chunk only fails
 * after every earlier line of it parsed), so the parts, their order and the
 * message never depend on the thread count. Every line handed to parse_line
 * ends with '\n' (an unterminated last line is copied with one appended), so
 * the scanners below stop at '\n' without bounds checks of their own. */
#include "mtx.h"

#include "../error.h"
#include "mtx_number.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct chunk {
    const char *begin, *end; /* whole lines; only the last may end without '\n' */
    int64_t lines;           /* lines parsed, up to and excluding a failing one */
    tcspmm_status status;
    char message[224];       /* "what" of the first error, without NAME:LINE */
} chunk;

typedef struct parse_rules {
    const mtx_header *h;
    uint64_t rows, cols;
    const char *limit; /* the end of the buffer */
} parse_rules;

static const char *skip_blanks(const char *p)
{
    while (*p == ' ' || *p == '\t') p++;
    return p;
}

/* Does the '\n'-terminated line at p hold an entry (not blank, not a comment)? */
static int is_entry_line(const char *p)
{
    p = skip_blanks(p);
    return !(*p == '\n' || *p == '%' || (*p == '\r' && p[1] == '\n'));
}

/* The token at p, quoted for a message: "'12x'" or "end of line". */
static const char *quote_token(const char *p, char *buf, size_t size)
{
    if (*p == '\n' || (*p == '\r' && p[1] == '\n')) return "end of line";
    size_t n = 0;
    buf[n++] = '\'';
    for (; n < 26 && *p != '\n' && *p != ' ' && *p != '\t'; p++)
        buf[n++] = (*p >= 0x20 && *p < 0x7f) ? *p : '?';
    if (*p != '\n' && *p != ' ' && *p != '\t') {
        memcpy(buf + n, "...", 3);
        n += 3;
    }
    buf[n++] = '\'';
    buf[n < size ? n : size - 1] = '\0';
    return buf;
}

static int part_reserve(coo_part *part, int with_indices)
{
    if (part->count < part->capacity) return 1;
    int64_t cap = part->capacity + part->capacity / 2 + 1024;
    float *val = realloc(part->val, (size_t)cap * sizeof *val);
    if (val) part->val = val;
    if (with_indices) {
        int64_t *row = realloc(part->row, (size_t)cap * sizeof *row);
        if (row) part->row = row;
        int32_t *col = realloc(part->col, (size_t)cap * sizeof *col);
        if (col) part->col = col;
        if (!row || !col) return 0;
    }
    if (!val) return 0;
    part->capacity = cap;
    return 1;
}

#define FAIL_LINE(c, st, ...)                                                  \
    do {                                                                       \
        (c)->status = (st);                                                    \
        snprintf((c)->message, sizeof (c)->message, __VA_ARGS__);              \
        return NULL;                                                           \
    } while (0)

/* Parses an index token with its range check; fails the chunk otherwise. */
static const char *parse_position(chunk *c, const char *p, const char *limit, const char *what,
                                  uint64_t max, uint64_t *index)
{
    char q[40];
    p = skip_blanks(p);
    const char *tok = p;
    if (!mtx_parse_index(&p, limit, index))
        FAIL_LINE(c, TCSPMM_ERROR_PARSE, "expected a %s index (a positive integer), found %s",
                  what, quote_token(tok, q, sizeof q));
    if (*index == 0 || *index > max)
        FAIL_LINE(c, TCSPMM_ERROR_PARSE, "%s index %s is out of range 1..%llu", what,
                  quote_token(tok, q, sizeof q), (unsigned long long)max);
    return p;
}

/* Parses the '\n'-terminated entry line at p into part; returns the start of
 * the next line, or NULL after recording the line's error in c. */
static const char *parse_line(const parse_rules *r, chunk *c, const char *p, const char *limit,
                              coo_part *part)
{
    const mtx_header *h = r->h;
    uint64_t i = 0, j = 0;
    float v = 1.0f;
    char q[40];
    if (h->format == MTX_COORDINATE) {
        if (!(p = parse_position(c, p, limit, "row", r->rows, &i))) return NULL;
        if (!(p = parse_position(c, p, limit, "column", r->cols, &j))) return NULL;
    }
    if (h->field != MTX_PATTERN) {
        p = skip_blanks(p);
        const char *tok = p;
        switch (mtx_parse_float(&p, limit, h->field == MTX_INTEGER, &v)) {
        case MTX_NUMBER_OK: break;
        case MTX_NUMBER_SYNTAX:
            FAIL_LINE(c, TCSPMM_ERROR_PARSE, "expected %s value, found %s",
                      h->field == MTX_INTEGER ? "an integer" : "a real",
                      quote_token(tok, q, sizeof q));
        case MTX_NUMBER_NONFINITE:
            FAIL_LINE(c, TCSPMM_ERROR_PARSE, "value %s is NaN or Inf; only finite values are allowed",
                      quote_token(tok, q, sizeof q));
        case MTX_NUMBER_OVERFLOW:
            FAIL_LINE(c, TCSPMM_ERROR_PARSE, "value %s overflows float32",
                      quote_token(tok, q, sizeof q));
        }
    }
    if (h->symmetry == MTX_SKEW_SYMMETRIC && h->format == MTX_COORDINATE && i == j)
        FAIL_LINE(c, TCSPMM_ERROR_PARSE,
                  "diagonal entry (%llu, %llu) in a skew-symmetric matrix, whose diagonal is zero",
                  (unsigned long long)i, (unsigned long long)j);
    p = skip_blanks(p);
    if (*p == '\r') p++;
    if (*p != '\n')
        FAIL_LINE(c, TCSPMM_ERROR_PARSE, "unexpected %s after the entry; expected the end of the line",
                  quote_token(p, q, sizeof q));
    if (!part_reserve(part, h->format == MTX_COORDINATE))
        FAIL_LINE(c, TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "out of memory after %lld entries",
                  (long long)part->count);
    if (h->format == MTX_COORDINATE) {
        part->row[part->count] = (int64_t)i - 1;
        part->col[part->count] = (int32_t)(j - 1);
    }
    part->val[part->count++] = v;
    return p + 1;
}

/* Parses the '\n'-terminated lines of [p, end) until an error; the bytes up
 * to limit may be read. */
static int parse_lines(const parse_rules *r, chunk *c, const char *p, const char *end,
                       const char *limit, coo_part *part)
{
    while (p < end) {
        if (is_entry_line(p)) {
            if (!(p = parse_line(r, c, p, limit, part))) return 0;
        } else {
            p = (const char *)memchr(p, '\n', (size_t)(end - p)) + 1;
        }
        c->lines++;
    }
    return 1;
}

static void parse_chunk(const parse_rules *r, chunk *c, coo_part *part)
{
    const int with_indices = r->h->format == MTX_COORDINATE;
    part->capacity = (c->end - c->begin) / (with_indices ? 12 : 8) + 16;
    part->val = large_alloc((size_t)part->capacity * sizeof *part->val);
    if (with_indices) {
        part->row = large_alloc((size_t)part->capacity * sizeof *part->row);
        part->col = large_alloc((size_t)part->capacity * sizeof *part->col);
    }
    if (!part->val || (with_indices && (!part->row || !part->col))) {
        c->status = TCSPMM_ERROR_HOST_OUT_OF_MEMORY;
        snprintf(c->message, sizeof c->message, "out of memory for %lld entries",
                 (long long)part->capacity);
        return;
    }
    /* Split off an unterminated last line. */
    const char *whole = c->end;
    while (whole > c->begin && whole[-1] != '\n') whole--;
    if (!parse_lines(r, c, c->begin, whole, r->limit, part) || whole == c->end) return;
    size_t tail = (size_t)(c->end - whole);
    char *line = malloc(tail + 1);
    if (!line) {
        c->status = TCSPMM_ERROR_HOST_OUT_OF_MEMORY;
        snprintf(c->message, sizeof c->message, "out of memory for a %zu-byte line", tail);
        return;
    }
    memcpy(line, whole, tail);
    line[tail] = '\n';
    parse_lines(r, c, line, line + tail + 1, line + tail + 1, part);
    free(line);
}

/* Start of chunk k of n over [begin, end): the first line start at or after
 * the k-th equal cut. */
static const char *chunk_start(const char *begin, const char *end, int k, int n)
{
    if (k == 0) return begin;
    if (k == n) return end;
    const char *p = begin + (size_t)((double)(end - begin) * k / n);
    const char *nl = memchr(p - 1, '\n', (size_t)(end - p + 1));
    return nl ? nl + 1 : end;
}

/* Line index, within chunk c, of its entry number `entry` (1-based). */
static int64_t entry_line(const chunk *c, int64_t entry)
{
    int64_t line = 0;
    for (const char *p = c->begin; p < c->end; line++) {
        const char *q = p;
        while (q < c->end && (*q == ' ' || *q == '\t')) q++;
        int blank = q == c->end || *q == '\n' || *q == '%' ||
                    (*q == '\r' && (q + 1 == c->end || q[1] == '\n'));
        if (!blank && --entry == 0) return line;
        const char *nl = memchr(p, '\n', (size_t)(c->end - p));
        p = nl ? nl + 1 : c->end;
    }
    return line;
}

void coo_parts_free(coo_part *parts, int nparts)
{
    if (!parts) return;
    for (int k = 0; k < nparts; k++) {
        free(parts[k].row);
        free(parts[k].col);
        free(parts[k].val);
    }
    free(parts);
}

tcspmm_status mtx_parse_entries(const char *name, const char *buf, size_t len,
                                const mtx_header *h, int threads, coo_part **parts_out,
                                int *nparts_out)
{
    *parts_out = NULL;
    *nparts_out = 0;
    const char *begin = buf + h->body, *end = buf + len;
    size_t bytes = (size_t)(end - begin);
    int n = threads <= 1 ? 1 : (int)(bytes / 65536 + 1);
    if (threads > 1 && n > 8 * threads) n = 8 * threads;
    chunk *chunks = calloc((size_t)n, sizeof *chunks);
    coo_part *parts = calloc((size_t)n, sizeof *parts);
    if (!chunks || !parts) {
        free(chunks);
        free(parts);
        return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY, "%s: out of memory", name);
    }
    parse_rules rules = {h, (uint64_t)h->rows, (uint64_t)h->cols, end};
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads > 0 ? threads : 1)
    for (int k = 0; k < n; k++) {
        chunks[k].begin = chunk_start(begin, end, k, n);
        chunks[k].end = chunk_start(begin, end, k + 1, n);
        parse_chunk(&rules, &chunks[k], &parts[k]);
    }

    /* The first error by line: too many entries, a failing line, too few. */
    tcspmm_status st = TCSPMM_SUCCESS;
    int64_t seen = 0, line = h->size_line + 1;
    for (int k = 0; k < n && st == TCSPMM_SUCCESS; k++) {
        if (seen + parts[k].count > h->entries)
            st = tcspmm_fail(TCSPMM_ERROR_PARSE,
                             "%s:%lld: too many entries; the size line (line %lld) promises %lld",
                             name, (long long)(line + entry_line(&chunks[k], h->entries - seen + 1)),
                             (long long)h->size_line, (long long)h->entries);
        else if (chunks[k].status != TCSPMM_SUCCESS)
            st = tcspmm_fail(chunks[k].status, "%s:%lld: %s", name,
                             (long long)(line + chunks[k].lines), chunks[k].message);
        seen += parts[k].count;
        line += chunks[k].lines;
    }
    if (st == TCSPMM_SUCCESS && seen < h->entries)
        st = tcspmm_fail(TCSPMM_ERROR_PARSE,
                         "%s:%lld: too few entries: found %lld, the size line (line %lld) promises "
                         "%lld",
                         name, (long long)line, (long long)seen, (long long)h->size_line,
                         (long long)h->entries);
    free(chunks);
    if (st != TCSPMM_SUCCESS) {
        coo_parts_free(parts, n);
        return st;
    }
    *parts_out = parts;
    *nparts_out = n;
    return TCSPMM_SUCCESS;
}
