/* mtx_parse.c: parses the entry lines of a Matrix Market body in parallel.
 *
 * The body is cut into chunks at line boundaries. OpenMP threads take chunks
 * in order, each as soon as its bytes are final (gzip text may still be
 * inflating: see mtx_feed.c; one thread inflates first). Each thread parses
 * a chunk's lines into the chunk's COO part (a slice of a shared arena while
 * it fits) and stops at its first error, remembering the error's line as an
 * index within the chunk. After the parallel region, the chunks' line counts
 * turn those indices into file line numbers and the error on the lowest line
 * wins (a chunk only fails after every earlier line of it parsed), so the
 * parts, their order and the message never depend on the thread count.
 * Every line handed to parse_line ends with '\n' (an unterminated last line
 * is copied with one appended), so the scanners below stop at '\n' without
 * bounds checks of their own, and nothing reads past its chunk's end (bytes
 * there may still be arriving). */
#include "mtx.h"
#include "csr.h"

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

/* The token at p, quoted for a message: "'12x'", "end of line" or, for a
 * '\r' not before the line's end, "carriage return". */
static const char *quote_token(const char *p, char *buf, size_t size)
{
    if (*p == '\n' || (*p == '\r' && p[1] == '\n')) return "end of line";
    if (*p == '\r') return "carriage return";
    size_t n = 0;
    buf[n++] = '\'';
    for (; n < 26 && !mtx_token_end(*p); p++)
        buf[n++] = (*p >= 0x20 && *p < 0x7f) ? *p : '?';
    if (!mtx_token_end(*p)) {
        memcpy(buf + n, "...", 3);
        n += 3;
    }
    buf[n++] = '\'';
    buf[n < size ? n : size - 1] = '\0';
    return buf;
}

/* Like realloc, also for a block still in the arena (not to be freed). */
static void *grow(void *block, int in_arena, size_t used, size_t bytes)
{
    if (!in_arena) return realloc(block, bytes);
    void *own = malloc(bytes);
    if (own) memcpy(own, block, used);
    return own;
}

static int part_reserve(coo_part *part, int with_indices)
{
    if (part->count < part->capacity) return 1;
    int64_t cap = part->capacity + part->capacity / 2 + 1024;
    size_t n = (size_t)part->count, to = (size_t)cap;
    float *val = grow(part->val, part->in_arena, n * sizeof *val, to * sizeof *val);
    int64_t *row = with_indices ? grow(part->row, part->in_arena, n * sizeof *row, to * sizeof *row)
                                : NULL;
    int32_t *col = with_indices ? grow(part->col, part->in_arena, n * sizeof *col, to * sizeof *col)
                                : NULL;
    const int ok = val && (!with_indices || (row && col));
    if (part->in_arena && !ok) { /* the part stays in the arena */
        free(val), free(row), free(col);
        return 0;
    }
    if (val) part->val = val; /* a failed realloc kept the old block */
    if (row) part->row = row;
    if (col) part->col = col;
    if (!ok) return 0;
    part->in_arena = 0;
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
    if (*p == '\r' && p[1] == '\n') p++;
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
    /* Split off an unterminated last line. */
    const char *whole = c->end;
    while (whole > c->begin && whole[-1] != '\n') whole--;
    if (!parse_lines(r, c, c->begin, whole, c->end, part) || whole == c->end) return;
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

/* Start of chunk k of n over the body's expected `bytes`: the first line
 * start at or after the k-th equal cut, or the text's end. */
static const char *chunk_start(mtx_feed *feed, size_t body, size_t bytes, int k, int n)
{
    if (k == 0) return feed->buf + body;
    if (k == n) return feed->buf + mtx_feed_length(feed);
    return feed->buf + mtx_feed_line_start(feed, body + (size_t)((double)bytes * k / n));
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

void coo_parts_free(coo_parts *parts)
{
    for (int k = 0; parts->part && k < parts->n; k++) {
        if (parts->part[k].in_arena) continue;
        free(parts->part[k].row);
        free(parts->part[k].col);
        free(parts->part[k].val);
    }
    free(parts->part);
    free(parts->row);
    free(parts->col);
    free(parts->val);
    memset(parts, 0, sizeof *parts);
}

/* Entry lines per byte of the body, from its first MiB already here, with
 * an eighth to spare (comment lines count too: a guess, not a bound). */
static double line_density(const mtx_feed *feed, size_t body)
{
    size_t sample = feed->ready - body < ((size_t)1 << 20) ? feed->ready - body : (size_t)1 << 20;
    if (sample == 0) return 1.0 / 8;
    size_t lines = 1;
    for (const char *p = feed->buf + body, *end = p + sample;
         (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
        lines++;
    double density = (double)lines / (double)sample * 1.125;
    return density < 0.5 ? density : 0.5;
}

/* Gives each part its slice of the arena, sized for its share of the body. */
static int cut_arena(coo_parts *parts, const mtx_feed *feed, size_t body, size_t bytes,
                     int with_indices)
{
    const double density = line_density(feed, body);
    const int n = parts->n;
    size_t total = 0;
    for (int k = 0; k < n; k++) {
        size_t share = (size_t)((double)bytes * (k + 1) / n) - (size_t)((double)bytes * k / n);
        parts->part[k].capacity = (int64_t)((double)share * density) + 16;
        total += (size_t)parts->part[k].capacity;
    }
    parts->val = large_alloc(total * sizeof *parts->val);
    if (with_indices) {
        parts->row = large_alloc(total * sizeof *parts->row);
        parts->col = large_alloc(total * sizeof *parts->col);
    }
    if (!parts->val || (with_indices && (!parts->row || !parts->col))) return 0;
    for (size_t k = 0, at = 0; k < (size_t)n; at += (size_t)parts->part[k++].capacity) {
        coo_part *p = &parts->part[k];
        p->in_arena = 1;
        p->val = parts->val + at;
        if (with_indices) p->row = parts->row + at, p->col = parts->col + at;
    }
    return 1;
}

tcspmm_status mtx_parse_entries(const char *name, mtx_feed *feed, const mtx_header *h,
                                int threads, coo_parts *parts_out)
{
    memset(parts_out, 0, sizeof *parts_out);
    /* The body's size, or while it arrives the most it can be. */
    size_t bytes = (feed->done ? feed->ready : feed->cap) - h->body;
    int n = threads <= 1 ? 1 : (int)(bytes / 65536 + 1);
    if (threads > 1 && n > 8 * threads) n = 8 * threads;
    chunk *chunks = calloc((size_t)n, sizeof *chunks);
    coo_parts all = {calloc((size_t)n, sizeof *all.part), n, NULL, NULL, NULL};
    coo_part *parts = all.part;
    if (!chunks || !parts ||
        !cut_arena(&all, feed, h->body, bytes, h->format == MTX_COORDINATE)) {
        free(chunks);
        coo_parts_free(&all);
        return tcspmm_fail(TCSPMM_ERROR_HOST_OUT_OF_MEMORY,
                           "%s: out of memory for the entries of %zu bytes", name, bytes);
    }
    parse_rules rules = {h, (uint64_t)h->rows, (uint64_t)h->cols};
    int next = 0;
#pragma omp parallel num_threads(threads > 0 ? threads : 1)
    {
        if (feed->produce && omp_get_thread_num() == 0) feed->produce(feed);
        for (;;) {
            int k;
#pragma omp atomic capture
            k = next++;
            if (k >= n) break;
            /* On copies: neighbours' counters share cache lines. */
            chunk c = chunks[k];
            coo_part part = parts[k];
            c.begin = chunk_start(feed, h->body, bytes, k, n);
            c.end = chunk_start(feed, h->body, bytes, k + 1, n);
            parse_chunk(&rules, &c, &part);
            chunks[k] = c;
            parts[k] = part;
        }
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
        coo_parts_free(&all);
        return st;
    }
    *parts_out = all;
    return TCSPMM_SUCCESS;
}
