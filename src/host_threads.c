/* host_threads.c: host_threads_enter and host_threads_leave (host_threads.h).
 * omp_set_num_threads changes the calling thread's own setting only. */
#include "host_threads.h"

#include <omp.h>

void host_threads_enter(host_threads_scope *s, int threads)
{
    s->caller_threads = omp_get_max_threads();
    s->changed = threads > 0 && threads != s->caller_threads;
    if (s->changed) omp_set_num_threads(threads);
}

void host_threads_leave(const host_threads_scope *s)
{
    if (s->changed) omp_set_num_threads(s->caller_threads);
}
