/* mtx.h: the Matrix Market reader's internal pieces. tcspmm_read_mtx loads
 * the bytes (mtx_read.c), mtx_parse_header reads the banner and size line,
 * mtx_parse_entries parses the entry lines in parallel into COO parts
 * (mtx_parse.c), while gzip data may still be inflating into an mtx_feed
 * (mtx_feed.c), and coo_to_csr / dense_to_csr build the CSR (coo_to_csr.c).
 * mtx_parse_buffer runs all of it on bytes in memory (tests, fuzzing).
 * Every error message starts with "NAME:LINE: ". */
#ifndef TCSPMM_MTX_H
#define TCSPMM_MTX_H

#include "tcspmm.h"

#include <pthread.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mtx_format { MTX_COORDINATE, MTX_ARRAY } mtx_format;
typedef enum mtx_field { MTX_REAL, MTX_INTEGER, MTX_PATTERN } mtx_field;
typedef enum mtx_symmetry { MTX_GENERAL, MTX_SYMMETRIC, MTX_SKEW_SYMMETRIC } mtx_symmetry;

typedef struct mtx_header {
    mtx_format format;
    mtx_field field;
    mtx_symmetry symmetry;
    int64_t rows, cols;
    int64_t entries;   /* entry lines the size line promises */
    int64_t size_line; /* line number of the size line */
    size_t body;       /* byte offset of the line after the size line */
} mtx_header;

/* Entries of one chunk of lines, in file order, 0-based. For array files
 * only val is filled (the position follows from the entry's index). */
typedef struct coo_part {
    int64_t count, capacity;
    int64_t *row;
    int32_t *col;
    float *val;
    int in_arena; /* the arrays are slices of the arena, not the part's own */
} coo_part;

/* The parts of a body, in file order. Their first arrays are slices of one
 * arena per array (few large allocations: huge pages, few page faults); a
 * part that outgrows its slice moves to arrays of its own. */
typedef struct coo_parts {
    coo_part *part;
    int n;
    int64_t *row; /* the arena */
    int32_t *col;
    float *val;
} coo_parts;

/* Text that may still be arriving: buf[0..ready) is final, buf never moves
 * and never holds more than cap bytes; once done, ready is the length. If
 * produce is set, one parsing thread calls it first: it fills buf, calling
 * mtx_feed_publish as it goes, and returns after publishing done. */
typedef struct mtx_feed {
    const char *buf;
    size_t cap, ready;
    int done;
    void (*produce)(struct mtx_feed *);
    void *producer; /* the producer's state */
    pthread_mutex_t lock;
    pthread_cond_t grown;
} mtx_feed;

void mtx_feed_init(mtx_feed *f, const char *buf, size_t cap, size_t ready, int done);
void mtx_feed_destroy(mtx_feed *f);
void mtx_feed_publish(mtx_feed *f, size_t ready, int done);
/* The text's length, once the feed is complete (waits). */
size_t mtx_feed_length(mtx_feed *f);
/* The first line start at or after offset (> 0), or the text's length if
 * there is none; waits for the bytes it needs. */
size_t mtx_feed_line_start(mtx_feed *f, size_t offset);

/* Parses the banner, comment lines and size line of buf[0..len). */
tcspmm_status mtx_parse_header(const char *name, const char *buf, size_t len, mtx_header *h);

/* Parses the entry lines from feed->buf + h->body with `threads` OpenMP
 * threads (one of them runs feed->produce first, if set) into *parts (freed
 * with coo_parts_free). Checks every token, the index ranges and the
 * entry count; the error reported is the one on the lowest line, whatever
 * the thread count. */
tcspmm_status mtx_parse_entries(const char *name, mtx_feed *feed, const mtx_header *h,
                                int threads, coo_parts *parts);

/* Frees the parts and their arena; a second call does nothing. */
void coo_parts_free(coo_parts *parts);

/* Builds the CSR from the parts of a coordinate file: mirrors symmetric and
 * skew-symmetric entries, sorts each row by column, sums duplicates (in
 * file order, in double), keeps explicit zeros. Frees the parts as soon as
 * they are no longer needed. Deterministic for any thread count. */
tcspmm_status coo_to_csr(int64_t rows, int64_t cols, mtx_symmetry symmetry, coo_parts *parts,
                         int threads, tcspmm_csr *out);

/* Builds the dense CSR of an array file from its column-major values (the
 * lower triangle for symmetric, the strict lower one for skew-symmetric). */
tcspmm_status dense_to_csr(int64_t rows, int64_t cols, mtx_symmetry symmetry, const float *values,
                           int threads, tcspmm_csr *out);

/* The whole reader on bytes in memory; name is used in messages. */
tcspmm_status mtx_parse_buffer(const char *name, const char *buf, size_t len, int threads,
                               tcspmm_csr *out);

#ifdef __cplusplus
}
#endif

#endif
