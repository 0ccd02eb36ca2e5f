/* graph_drive.c — the random-walk parameter drive of a graph read from JSON (graph_json.h):
 * each parameter walks its range in steps, a function of (seed, character, step) only. */
#include <math.h>
#include <stdint.h>

#include "graph_json.h"

#define WALK_STEP_S 0.5f    /* a walk step's length */
#define WALK_CROSS_S 1.5f   /* the fastest step crosses the range in this time */

/* A uniform draw in [0, 1) for (seed, character, step, parameter): a hash (splitmix64's finalizer), no state. */
static float draw(uint64_t seed, size_t k, long step, size_t p)
{
    uint64_t z = seed ^ (uint64_t)(k + 1) * 0x9E3779B97F4A7C15ull ^ (uint64_t)(step + 2) * 0xD1B54A32D192ED03ull ^
                 (uint64_t)(p + 1) * 0xC2B2AE3D27D4EB4Full;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (float)(z >> 40) * (1.0f / 16777216.0f);
}

void graph_json_drive(const graph_json *g, pb_graph_crowd *c, uint64_t seed, float dt)
{
    if (!g || !c || !c->param || c->def.params != g->def.params || !(dt >= 0)) return;
    size_t P = c->def.params;
    long step = (long)floor((double)c->frame * dt / WALK_STEP_S);
    for (size_t k = 0; k < c->characters; k++)
        for (size_t p = 0; p < P; p++) {
            float lo = g->lo[p], hi = g->hi[p], *v = &c->param[k * P + p];
            if (c->frame == 0) *v = lo + (hi - lo) * draw(seed, k, -1, p);
            float rate = (hi - lo) / WALK_CROSS_S * (2 * draw(seed, k, step, p) - 1);
            *v = fminf(hi, fmaxf(lo, *v + rate * dt));
        }
}
