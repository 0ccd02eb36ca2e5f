/* rng.h — posebench's one seeded generator (internal: the library, the
 * harness, the CLI and the tests share it): splitmix64, portable and the same
 * draws on every platform, and what is drawn from it. Not for cryptography. */
#ifndef POSEBENCH_RNG_H
#define POSEBENCH_RNG_H

#include <math.h>
#include <stdint.h>

/* The next 64 random bits; *s is the whole state (any value is a seed). */
static inline uint64_t pb_rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
/* Uniform in [0, 1): 24 bits as a float, 53 bits as a double. */
static inline float pb_rng_unit01(uint64_t *s) { return (float)(pb_rng_next(s) >> 40) * (1.0f / 16777216.0f); }
static inline double pb_rng_unit01d(uint64_t *s) { return (double)(pb_rng_next(s) >> 11) * (1.0 / 9007199254740992.0); }
/* A uniformly distributed unit direction (rejection sampling in the unit ball). */
static inline void pb_rng_dir(uint64_t *s, double d[3])
{
    double l;
    do {
        for (int i = 0; i < 3; i++) d[i] = 2.0 * pb_rng_unit01(s) - 1.0;
        l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    } while (l < 0.1 || l > 1.0);
    for (int i = 0; i < 3; i++) d[i] /= l;
}

#endif
