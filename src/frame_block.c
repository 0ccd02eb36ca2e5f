/* frame_block.c — a crowd in blocks of characters (frame.h, "fused execution
 * by character block"): each block a pb_frame_crowd over its range, run
 * through the stages fused (block-major) or staged (stage-major), the blocks
 * spread over a pb_pool. Blocks never share a buffer, so any split of the
 * blocks over threads computes the same thing. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "posebench/frame.h"
#include "internal.h"

/* What one element of a block's crowd costs in the stages' working set:
 * src, dst, state, tmp, mix, delta, local, global (76 bytes each: the
 * kineform with velocities). The IK's chain poses add 6 elements per character. */
#define BLOCK_POSES 8
#define ELEMENT_BYTES (PB_PLANES * sizeof(float))

size_t pb_frame_block_default(const pb_scene *sc, size_t l2_bytes)
{
    if (!sc || !sc->joints) return 16;
    if (!l2_bytes) l2_bytes = (size_t)1 << 20;
    size_t per_char = (BLOCK_POSES * sc->joints + 3 * 6) * ELEMENT_BYTES;
    size_t fit = (l2_bytes / per_char + 8) / 16 * 16;   /* the multiple of 16 nearest to what fits */
    return fit < 16 ? 16 : fit;
}

#define SCRATCH_POSES 5
static pb_pose *temp_pose(pb_frame_crowd *c, int i)
{
    pb_pose *t[SCRATCH_POSES] = { &c->src, &c->dst, &c->tmp, &c->mix, &c->local };
    return t[i];
}

static void scratch_free(pb_frame_blocks *b)
{
    for (int i = 0; b->scratch && i < SCRATCH_POSES * b->scratch_threads; i++) pb_pose_free(&b->scratch[i]);
    free(b->scratch);
    b->scratch = NULL;
    b->scratch_threads = 0;
}

/* A scratch pose's elements: those of the largest block, the last (it holds the remainder). */
static size_t scratch_elements(const pb_frame_blocks *b) { return b->sc->joints * b->crowd[b->count - 1].characters; }

/* Scratch for `threads` threads (kept if there is enough already). */
static pb_status scratch_ensure(pb_frame_blocks *b, int threads)
{
    if (b->scratch_threads >= threads) return PB_OK;
    scratch_free(b);
    b->scratch = calloc((size_t)threads * SCRATCH_POSES, sizeof *b->scratch);
    if (!b->scratch) return pb_fail(PB_ERR_NOMEM, "pb_frame_blocks_step: out of memory for %d threads' scratch", threads);
    b->scratch_threads = threads;
    size_t n = scratch_elements(b);
    for (int i = 0; i < SCRATCH_POSES * threads; i++)
        if (pb_pose_alloc(&b->scratch[i], n) != PB_OK) {
            scratch_free(b);
            return pb_fail(PB_ERR_NOMEM, "pb_frame_blocks_step: out of memory for %d threads' scratch (%zu elements "
                           "per pose)", threads, n);
        }
    return PB_OK;
}

/* Exchange a block's temporaries with a thread's scratch (twice: back as they were). The block sees the
 * scratch poses with its own element count and stride (the same planes: a smaller block uses their first
 * elements), its padding lanes set to identity as a pose's must be (at most PB_PAD - 1 per plane); the
 * scratch keeps its own count. */
static void scratch_swap(pb_frame_crowd *c, pb_pose *slot)
{
    for (int i = 0; i < SCRATCH_POSES; i++) {
        pb_pose t = *temp_pose(c, i), s = slot[i];
        size_t n = s.n, stride = s.stride;
        s.n = t.n, s.stride = t.stride;
        t.n = n, t.stride = stride;
        for (int p = 0; p < PB_PLANES && s.plane[p]; p++)
            for (size_t e = s.n; e < s.stride; e++) s.plane[p][e] = pb_plane_identity(p);
        *temp_pose(c, i) = s;
        slot[i] = t;
    }
}

void pb_frame_blocks_free(pb_frame_blocks *b)
{
    if (!b) return;
    for (size_t i = 0; b->crowd && i < b->count; i++) pb_frame_crowd_free(&b->crowd[i]);
    free(b->crowd);
    scratch_free(b);
    memset(b, 0, sizeof *b);
}

pb_status pb_frame_blocks_halflife_est(pb_frame_blocks *b, float scale, float min, float max)
{
    if (!b || !b->crowd) return pb_fail(PB_ERR_NULL, "pb_frame_blocks_halflife_est: blocks NULL or not made");
    pb_status st = pb_halflife_est_check("pb_frame_blocks_halflife_est", scale, min, max);
    for (size_t i = 0; st == PB_OK && i < b->count; i++) st = pb_frame_crowd_halflife_est(&b->crowd[i], scale, min, max);
    return st;
}

pb_status pb_frame_blocks_curve(pb_frame_blocks *b, const pb_curve *curve, int frozen)
{
    if (!b || !b->crowd) return pb_fail(PB_ERR_NULL, "pb_frame_blocks_curve: blocks NULL or not made");
    pb_status st = pb_curve_check("pb_frame_blocks_curve", curve);
    if (st == PB_OK && frozen != 0 && frozen != 1)
        st = pb_fail(PB_ERR_PARAM, "pb_frame_blocks_curve: frozen is %d (0: smooth, 1: frozen)", frozen);
    for (size_t i = 0; st == PB_OK && i < b->count; i++) st = pb_frame_crowd_curve(&b->crowd[i], curve, frozen);
    return st;
}

pb_status pb_frame_blocks_init(pb_frame_blocks *b, const pb_scene *sc, size_t characters, size_t block,
                               pb_op sampler)
{
    if (!b || !sc) return pb_fail(PB_ERR_NULL, "pb_frame_blocks_init: %s is NULL", b ? "scene" : "blocks");
    memset(b, 0, sizeof *b);
    if (!characters) return pb_fail(PB_ERR_EMPTY, "pb_frame_blocks_init: characters = 0");
    if (block < PB_FRAME_BLOCK_MIN)
        return pb_fail(PB_ERR_PARAM, "pb_frame_blocks_init: block = %zu characters; at least %d (the widest vector: "
                       "fewer characters take the kernels' few-character paths, which round differently from the "
                       "whole crowd's)", block, PB_FRAME_BLOCK_MIN);
    size_t count = characters / block ? characters / block : 1;   /* the remainder joins the last block */
    b->crowd = calloc(count, sizeof *b->crowd);
    if (!b->crowd) return pb_fail(PB_ERR_NOMEM, "pb_frame_blocks_init: out of memory for %zu blocks", count);
    b->sc = sc;
    b->characters = characters;
    b->block = block;
    for (size_t i = 0; i < count; i++) {
        size_t first = i * block, len = i + 1 == count ? characters - first : block;
        pb_status st = pb_frame_crowd_init_range(&b->crowd[i], sc, first, len, sampler);
        if (st != PB_OK) {
            b->count = i;
            pb_frame_blocks_free(b);
            return pb_fail(st, "pb_frame_blocks_init: block %zu (characters %zu .. %zu): %s", i, first,
                           first + len - 1, pb_last_error());
        }
        b->count = i + 1;
    }
    return PB_OK;
}

pb_status pb_frame_blocks_scratch(pb_frame_blocks *b, int threads)
{
    if (!b || !b->crowd) return pb_fail(PB_ERR_NULL, "pb_frame_blocks_scratch: blocks are NULL or not initialized");
    if (threads < 1 || threads > PB_POOL_MAX_THREADS)
        return pb_fail(PB_ERR_PARAM, "pb_frame_blocks_scratch: threads = %d; it must be 1 .. %d", threads,
                       PB_POOL_MAX_THREADS);
    return scratch_ensure(b, threads);
}

/* Block i's crowd with its temporaries in thread `thread`'s scratch slot (thread >= 0), or NULL for its own
 * buffers; scratch_swap(c, slot) again puts them back. Every block, the larger last one too: with its own
 * temporaries, cold in cache after the other blocks, the last of 200 x 64 characters in blocks of 48 (56
 * characters) took a sixth of the AVX-512 fused frame's time more than its share (Xeon, 24.2 ns per joint
 * against 20.4 for 192 characters, all blocks in scratch). */
static pb_pose *block_slot(pb_frame_blocks *b, size_t i, int thread)
{
    pb_frame_crowd *c = &b->crowd[i];
    pb_pose *slot = thread >= 0 ? b->scratch + SCRATCH_POSES * thread : NULL;
    if (slot) scratch_swap(c, slot);
    return slot;
}

static pb_status block_failed(const pb_frame_blocks *b, size_t i, pb_status s, const char *what)
{
    const pb_frame_crowd *c = &b->crowd[i];
    return pb_fail(s, "block %zu (characters %zu .. %zu): %s: %s", i, c->first, c->first + c->characters - 1,
                   c->failed ? c->failed : what, pb_last_error());
}

pb_status pb_frame_block_run(pb_frame_blocks *b, const pb_variant *v, pb_frame_method m, int k, size_t block,
                             pb_frame_stage from, pb_frame_stage to, int thread)
{
    if (!b || !b->crowd) return pb_fail(PB_ERR_NULL, "pb_frame_block_run: blocks are NULL or not initialized");
    if (block >= b->count)
        return pb_fail(PB_ERR_PARAM, "pb_frame_block_run: block %zu of %zu", block, b->count);
    if (thread < -1) return pb_fail(PB_ERR_PARAM, "pb_frame_block_run: thread %d (-1: the block's own buffers)", thread);
    if (thread >= b->scratch_threads)
        return pb_fail(PB_ERR_PARAM, "pb_frame_block_run: thread %d, but scratch for %d thread%s "
                       "(pb_frame_blocks_scratch)", thread, b->scratch_threads, b->scratch_threads == 1 ? "" : "s");
    pb_frame_crowd *c = &b->crowd[block];
    pb_pose *slot = block_slot(b, block, thread);
    pb_status s = pb_frame_stages_run(c, v, m, k, from, to);
    if (slot) scratch_swap(c, slot);
    return s == PB_OK ? s : block_failed(b, block, s, "stage");
}

/* One pool task: a block through a range of stages (fused: all of them, in its thread's scratch; staged: one),
 * or its transition's start (sampling both clips at `time`, then pb_frame_begin). */
typedef struct block_job {
    pb_frame_blocks *b;
    const pb_variant *v;
    pb_frame_method m;
    int k;
    int begin;                    /* sample at time and run pb_frame_begin instead of stages */
    float time;
    int scratch;                  /* full blocks run in their thread's scratch */
    pb_frame_stage from, to;      /* stages [from, to) */
} block_job;

static pb_status block_task(void *arg, size_t i, int thread)
{
    const block_job *j = arg;
    if (!j->begin) return pb_frame_block_run(j->b, j->v, j->m, j->k, i, j->from, j->to, j->scratch ? thread : -1);
    pb_frame_crowd *c = &j->b->crowd[i];
    pb_pose *slot = block_slot(j->b, i, thread);
    pb_status s = pb_frame_sample(c, j->v, 0, j->time);
    if (s == PB_OK) s = pb_frame_sample(c, j->v, 1, j->time);
    if (s == PB_OK) s = pb_frame_begin(c, j->v, j->m);
    if (slot) scratch_swap(c, slot);
    return s == PB_OK ? s : block_failed(j->b, i, s, "begin");
}

pb_status pb_frame_blocks_begin(pb_frame_blocks *b, const pb_variant *v, pb_frame_method m, float time, pb_pool *pool)
{
    if (!b || !b->crowd) return pb_fail(PB_ERR_NULL, "pb_frame_blocks_begin: blocks are NULL or not initialized");
    if (!pb_frame_method_get(m)) return pb_fail(PB_ERR_PARAM, "pb_frame_blocks_begin: method %d is not a pb_frame_method", (int)m);
    if (!isfinite(time)) return pb_fail(PB_ERR_PARAM, "pb_frame_blocks_begin: time is not finite");
    pb_status s = scratch_ensure(b, pb_pool_threads(pool));
    block_job j = { .b = b, .v = v, .m = m, .begin = 1, .time = time, .scratch = 1 };
    return s != PB_OK ? s : pb_pool_run(pool, b->count, block_task, &j);
}

pb_status pb_frame_blocks_step(pb_frame_blocks *b, const pb_variant *v, pb_frame_method m, int k,
                               pb_frame_order order, pb_pool *pool)
{
    if (!b || !b->crowd) return pb_fail(PB_ERR_NULL, "pb_frame_blocks_step: blocks are NULL or not initialized");
    if (!pb_frame_method_get(m)) return pb_fail(PB_ERR_PARAM, "pb_frame_blocks_step: method %d is not a pb_frame_method", (int)m);
    if (k < 0) return pb_fail(PB_ERR_PARAM, "pb_frame_blocks_step: frame k = %d is negative", k);
    if (order != PB_FO_FUSED && order != PB_FO_STAGED)
        return pb_fail(PB_ERR_PARAM, "pb_frame_blocks_step: order %d is not a pb_frame_order", (int)order);
    block_job j = { .b = b, .v = v, .m = m, .k = k, .from = 0, .to = PB_FS_COUNT };
    if (order == PB_FO_FUSED) {
        pb_status s = scratch_ensure(b, pb_pool_threads(pool));
        j.scratch = 1;
        return s != PB_OK ? s : pb_pool_run(pool, b->count, block_task, &j);
    }
    for (int st = 0; st < PB_FS_COUNT; st++) {
        j.from = (pb_frame_stage)st;
        j.to = (pb_frame_stage)(st + 1);
        pb_status s = pb_pool_run(pool, b->count, block_task, &j);
        if (s != PB_OK) return s;
    }
    return PB_OK;
}
