/* rng.h: a seeded, portable random stream (splitmix64) for tests, tools and
 * generators, so every run with a seed sees the same numbers anywhere. */
#ifndef TCSPMM_RNG_H
#define TCSPMM_RNG_H

#include <stddef.h>
#include <stdint.h>

static inline uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static inline double rng_uniform(uint64_t *state)
{
    return (double)(rng_next(state) >> 11) * (1.0 / 9007199254740992.0);
}

/* Fills x[0..count) with uniform values in [-1, 1]. */
static inline void rng_fill(float *x, size_t count, uint64_t seed)
{
    uint64_t s = seed;
    for (size_t i = 0; i < count; i++) x[i] = (float)(2.0 * rng_uniform(&s) - 1.0);
}

/* Where every one of x[0..count) is the same value (a pattern file's ones),
 * fills x as rng_fill does and returns 1, so that no check or timing runs on
 * constant data; else leaves x as it is and returns 0. */
static inline int rng_fill_if_constant(float *x, size_t count, uint64_t seed)
{
    for (size_t i = 1; i < count; i++)
        if (x[i] != x[0]) return 0;
    if (count > 0) rng_fill(x, count, seed);
    return count > 0;
}

#endif
