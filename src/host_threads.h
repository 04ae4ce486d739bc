/* host_threads.h: the OpenMP threads a plan's host work runs on. A call
 * that preprocesses (tcspmm_plan_create, _create_device, _set_values) sets
 * the calling thread's thread count to opt.host_threads for its length and
 * gives the caller's back when it returns, so that every parallel region of
 * the call, in whatever file, follows the option (src/host_threads.c). */
#ifndef TCSPMM_HOST_THREADS_H
#define TCSPMM_HOST_THREADS_H

typedef struct host_threads_scope {
    int caller_threads; /* omp_get_max_threads() at enter */
    int changed;        /* whether leave must give it back */
} host_threads_scope;

/* threads > 0: this thread's parallel regions run on that many threads
 * until leave; 0: as they are. */
void host_threads_enter(host_threads_scope *s, int threads);

void host_threads_leave(const host_threads_scope *s);

#endif
