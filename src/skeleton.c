/* skeleton.c — parent checks, depths, the level schedule of fk and the chain
 * schedule of its few-characters path. */
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "rng.h"

/* The few-characters chain schedule (see posebench/skeleton.h) into steps
 * (room for n steps: a step always has a lane at work, as a chain's parent
 * chain has ended before it waits); returns the step count, 0 on no memory.
 * Chains: each element continues the chain of its tallest child (height =
 * longest path to a leaf), so the longest chain is the critical path. List
 * scheduling: the lane free first takes the tallest chain whose parent is
 * already computed (at an earlier step), or idles until one is. */
static size_t few_schedule(int32_t *steps, const int32_t *parents, size_t joints, size_t characters)
{
    size_t n = joints * characters, lanes_free[PB_FEW_LANES] = { 0 }, nsteps = 0;
    int32_t *par = malloc(5 * n * sizeof *par);
    if (!par) return 0;
    int32_t *height = par + n, *heavy = height + n, *fin = heavy + n, *start = fin + n;
    for (size_t e = 0; e < n; e++) {
        int32_t pj = parents[e / characters];
        par[e] = pj < 0 ? -1 : (int32_t)((size_t)pj * characters + e % characters);
        height[e] = 0;
        heavy[e] = -1;
        fin[e] = -1;
    }
    for (size_t e = n; e-- > 0;)   /* parents precede children */
        if (par[e] >= 0 && height[par[e]] < height[e] + 1) height[par[e]] = height[e] + 1;
    size_t chains = 0;
    for (size_t e = 0; e < n; e++) {
        int32_t p = par[e];
        if (p >= 0 && heavy[p] < 0 && height[e] + 1 == height[p]) heavy[p] = (int32_t)e;
        else start[chains++] = (int32_t)e;
    }
    for (size_t i = 0; i < n * PB_FEW_STEP; i++) steps[i] = 0;
    for (size_t t = 0; t < n; t++)
        for (int l = 0; l < PB_FEW_LANES; l++) {
            steps[t * PB_FEW_STEP + 1 + l] = PB_FEW_SINK;
            steps[t * PB_FEW_STEP + 1 + PB_FEW_LANES + l] = PB_FEW_ID;
        }
    for (size_t left = chains; left > 0;) {
        int l = 0;
        for (int i = 1; i < PB_FEW_LANES; i++)
            if (lanes_free[i] < lanes_free[l]) l = i;
        size_t T = lanes_free[l], best = SIZE_MAX, next_ready = SIZE_MAX;
        for (size_t c = 0; c < chains; c++) {
            int32_t e = start[c];
            if (e < 0) continue;   /* already scheduled */
            int32_t p = par[e];
            if (p >= 0 && fin[p] < 0) continue;   /* its parent is not scheduled yet */
            size_t ready = p < 0 ? 0 : (size_t)fin[p] + 1;
            if (ready > T) {
                if (ready < next_ready) next_ready = ready;
            } else if (best == SIZE_MAX || height[e] > height[start[best]]) {
                best = c;
            }
        }
        if (best == SIZE_MAX) {   /* nothing ready: this lane idles until something is */
            lanes_free[l] = next_ready;
            continue;
        }
        int32_t e = start[best];
        int32_t *st = steps + T * PB_FEW_STEP;
        st[0] |= 1 << l;
        st[1 + PB_FEW_LANES + l] = par[e] < 0 ? PB_FEW_ID : par[e] + 2;
        size_t t = T;
        for (; e >= 0; e = heavy[e], t++) {
            steps[t * PB_FEW_STEP + 1 + l] = e + 2;
            fin[e] = (int32_t)t;
        }
        lanes_free[l] = t;
        if (t > nsteps) nsteps = t;
        start[best] = -1;
        left--;
    }
    free(par);
    return nsteps;
}

void pb_skeleton_free(pb_skeleton *s)
{
    if (!s) return;
    free(s->owned);
    memset(s, 0, sizeof *s);
}

pb_status pb_skeleton_init(pb_skeleton *s, const int32_t *parents, size_t joints, size_t characters)
{
    if (!s) return pb_fail(PB_ERR_NULL, "pb_skeleton_init: skeleton is NULL");
    memset(s, 0, sizeof *s);
    if (!parents) return pb_fail(PB_ERR_NULL, "pb_skeleton_init: parents is NULL");
    if (joints == 0) return pb_fail(PB_ERR_EMPTY, "pb_skeleton_init: joints = 0");
    if (characters == 0) return pb_fail(PB_ERR_EMPTY, "pb_skeleton_init: characters = 0");
    if (joints > PB_MAX_JOINTS)
        return pb_fail(PB_ERR_SIZE, "pb_skeleton_init: %zu joints (at most %u)", joints, PB_MAX_JOINTS);
    if (characters > (size_t)INT32_MAX / joints / 2)
        return pb_fail(PB_ERR_SIZE, "pb_skeleton_init: %zu joints x %zu characters is too many elements", joints,
                       characters);
    for (size_t j = 0; j < joints; j++)
        if (parents[j] < -1 || parents[j] >= (int32_t)j)
            return pb_fail(PB_ERR_PARAM,
                           "pb_skeleton_init: joint %zu has parent %d; parents must be -1 (root) or an earlier "
                           "joint (0..%zu), so that parents precede children",
                           j, (int)parents[j], j ? j - 1 : 0);

    size_t n = joints * characters;
    /* Upper bound of the padded schedule: every level padded by < 16. */
    size_t cap = n + 16 * joints;
    size_t bytes = joints * 2 * sizeof(int32_t) + cap * 2 * sizeof(int32_t) + (2 * joints + 1) * sizeof(size_t);
    int32_t *steps = NULL;
    size_t nsteps = 0;
    if (characters < 16 && n <= PB_FEW_MAX_ELEMENTS) {
        steps = malloc(n * PB_FEW_STEP * sizeof *steps);
        nsteps = steps ? few_schedule(steps, parents, joints, characters) : 0;
        if (!nsteps) {
            free(steps);
            return pb_fail(PB_ERR_NOMEM, "pb_skeleton_init: out of memory (chain schedule)");
        }
    }
    size_t steps_at = bytes;
    bytes += nsteps * PB_FEW_STEP * sizeof(int32_t);
    char *mem = malloc(bytes);
    if (!mem) {
        free(steps);
        return pb_fail(PB_ERR_NOMEM, "pb_skeleton_init: out of memory (%zu bytes)", bytes);
    }
    s->owned = mem;
    s->gen = pb_generation_next();
    if (nsteps) {
        s->few_steps = (int32_t *)(void *)(mem + steps_at);
        memcpy(s->few_steps, steps, nsteps * PB_FEW_STEP * sizeof *steps);
        s->few_nsteps = nsteps;
    }
    free(steps);
    s->parents = (int32_t *)mem;
    s->depth = s->parents + joints;
    s->order = s->depth + joints;
    s->parent_of = s->order + cap;
    s->level_start = (size_t *)(void *)(s->parent_of + cap);
    s->level_len = s->level_start + joints + 1;
    s->joints = joints;
    s->characters = characters;
    s->n = n;

    memcpy(s->parents, parents, joints * sizeof *parents);
    size_t levels = 0;
    for (size_t j = 0; j < joints; j++) {
        s->depth[j] = parents[j] < 0 ? 0 : s->depth[parents[j]] + 1;
        if ((size_t)s->depth[j] + 1 > levels) levels = (size_t)s->depth[j] + 1;
    }
    s->levels = levels;
    size_t k = 0;
    for (size_t l = 0; l < levels; l++) {
        s->level_start[l] = k;
        size_t first = k;
        for (size_t j = 0; j < joints; j++) {
            if ((size_t)s->depth[j] != l) continue;
            for (size_t c = 0; c < characters; c++) {
                s->order[k] = (int32_t)(j * characters + c);
                s->parent_of[k] = (int32_t)((parents[j] < 0 ? j : (size_t)parents[j]) * characters + c);
                k++;
            }
        }
        s->level_len[l] = k - first;
        while ((k - first) % 16 != 0) {   /* pad with the level's last element */
            s->order[k] = s->order[k - 1];
            s->parent_of[k] = s->parent_of[k - 1];
            k++;
        }
    }
    s->level_start[levels] = k;
    s->scheduled = k;
    return PB_OK;
}

pb_status pb_skeleton_random_parents(int32_t *parents, size_t joints, size_t max_depth, uint64_t seed)
{
    static const char *fn = "pb_skeleton_random_parents";
    if (!parents) return pb_fail(PB_ERR_NULL, "%s: parents is NULL", fn);
    if (joints == 0) return pb_fail(PB_ERR_EMPTY, "%s: joints = 0", fn);
    if (joints > PB_MAX_JOINTS) return pb_fail(PB_ERR_SIZE, "%s: joints = %zu, at most %u", fn, joints, PB_MAX_JOINTS);
    if (joints > 1 && max_depth < 2)
        return pb_fail(PB_ERR_PARAM, "%s: max_depth = %zu leaves no room below the root (at least 2)", fn, max_depth);
    size_t *depth = malloc(joints * sizeof *depth);
    if (!depth) return pb_fail(PB_ERR_NOMEM, "%s: out of memory for %zu joints", fn, joints);
    uint64_t r = seed * 0xD1B54A32D192ED03ull + 17;
    parents[0] = -1;
    depth[0] = 0;
    for (size_t j = 1; j < joints; j++) {
        size_t p = (pb_rng_next(&r) % 4) ? j - 1 - pb_rng_next(&r) % (j < 4 ? j : 4) : pb_rng_next(&r) % j;
        while (depth[p] + 1 >= max_depth) p = parents[p] < 0 ? 0 : (size_t)parents[p];
        parents[j] = (int32_t)p;
        depth[j] = depth[p] + 1;
    }
    free(depth);
    return PB_OK;
}
