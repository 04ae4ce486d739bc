/* mtx_feed.c: text that may still be arriving. One producer (the gzip
 * inflater of mtx_read.c) appends to a buffer that never moves and publishes
 * how much of it is final; parsing threads wait, on a condition variable,
 * for the bytes they need (mtx_parse.c). A buffer already in memory is a
 * feed that is complete from the start. */
#include "mtx.h"

#include <string.h>

void mtx_feed_init(mtx_feed *f, const char *buf, size_t cap, size_t ready, int done)
{
    memset(f, 0, sizeof *f);
    f->buf = buf;
    f->cap = cap;
    f->ready = ready;
    f->done = done;
    pthread_mutex_init(&f->lock, NULL);
    pthread_cond_init(&f->grown, NULL);
}

void mtx_feed_destroy(mtx_feed *f)
{
    pthread_mutex_destroy(&f->lock);
    pthread_cond_destroy(&f->grown);
}

void mtx_feed_publish(mtx_feed *f, size_t ready, int done)
{
    pthread_mutex_lock(&f->lock);
    f->ready = ready;
    f->done = done;
    pthread_cond_broadcast(&f->grown);
    pthread_mutex_unlock(&f->lock);
}

/* Waits until byte `offset` is final or the feed is complete; returns how
 * many bytes are final, and whether that is all of them. */
static size_t wait_for(mtx_feed *f, size_t offset, int *done)
{
    pthread_mutex_lock(&f->lock);
    while (f->ready <= offset && !f->done) pthread_cond_wait(&f->grown, &f->lock);
    size_t ready = f->ready;
    *done = f->done;
    pthread_mutex_unlock(&f->lock);
    return ready;
}

size_t mtx_feed_length(mtx_feed *f)
{
    int done = 0;
    size_t ready = 0;
    while (!done) ready = wait_for(f, SIZE_MAX, &done);
    return ready;
}

size_t mtx_feed_line_start(mtx_feed *f, size_t offset)
{
    size_t from = offset - 1; /* a line starts at offset if a '\n' precedes it */
    for (;;) {
        int done;
        size_t ready = wait_for(f, from, &done);
        if (from < ready) {
            const char *nl = memchr(f->buf + from, '\n', ready - from);
            if (nl) return (size_t)(nl - f->buf) + 1;
            from = ready;
        }
        if (done) return ready;
    }
}
