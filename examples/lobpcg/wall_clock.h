/* wall_clock.h: seconds from a fixed point, for the example's timings. */
#ifndef LOBPCG_WALL_CLOCK_H
#define LOBPCG_WALL_CLOCK_H

#include <time.h>

static inline double wall_seconds(void)
{
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#endif
