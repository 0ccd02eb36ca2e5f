/* fp_rng.h — the frame pipeline's deterministic generator (scenes, crowd
 * offsets, the additive layer's delta): splitmix64 and what it draws. */
#ifndef CLI_FP_RNG_H
#define CLI_FP_RNG_H

#include <math.h>
#include <stdint.h>

static inline uint64_t fp_mix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static inline float fp_unit01(uint64_t *s) { return (float)(fp_mix64(s) >> 40) * (1.0f / 16777216.0f); }
static inline void fp_rand_dir(uint64_t *s, double d[3])
{
    double l;
    do {
        for (int i = 0; i < 3; i++) d[i] = 2.0 * fp_unit01(s) - 1.0;
        l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    } while (l < 0.1 || l > 1.0);
    for (int i = 0; i < 3; i++) d[i] /= l;
}

/* ---- scenes ------------------------------------------------------------------------------- */

#endif
