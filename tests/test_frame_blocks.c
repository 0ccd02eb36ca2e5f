/* test_frame_blocks.c — fused execution by character block and the worker
 * pool (frame.h, pool.h):
 *   - a crowd split into blocks, run fused or staged, on 1, 2 or 3 threads,
 *     gives the same globals, bit for bit, as one crowd of all characters run
 *     stage by stage on one thread (every method, all three samplers, every
 *     variant this build has, block sizes that do and do not divide the crowd; fused
 *     blocks run in their thread's scratch, two of them one after the other);
 *   - the same for the cross-fades with a Bezier weight curve, smooth and frozen (curve.h);
 *   - the pool: every task runs exactly once on the thread its static share
 *     names (pool.h's split; fewer tasks than threads run on threads 0 .. n-1),
 *     whether its threads spin or park between runs (pool.h, "Waiting"),
 *     the failing task with the lowest index is the one reported,
 *     bad arguments are refused, and a worker that cannot be created gives
 *     PB_ERR_THREAD with nothing left running (address-space limit in a child).
 * PB_TEST_NO_THREADS (cross builds under qemu-user, which hangs in
 * pthread_create) keeps everything on one thread; the tsan stage runs the
 * threaded checks natively under ThreadSanitizer. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "refuse.h"
#include "all_variants.h"
#include "posebench/frame.h"
#include "posebench/pool.h"

static int threaded;   /* 0 under PB_TEST_NO_THREADS */

/* 1 if block crowd b's globals equal whole crowd w's for its characters, bit for bit */
static int same_globals(const pb_frame_crowd *w, const pb_frame_crowd *b)
{
    size_t J = w->sc->joints;
    for (int p = 0; p < PB_PLANES; p++)
        for (size_t j = 0; j < J; j++)
            if (memcmp(w->global.plane[p] + j * w->characters + b->first, b->global.plane[p] + j * b->characters,
                       b->characters * sizeof(float)))
                return 0;
    const size_t M = PB_PALETTE_MAT_FLOATS;   /* the palettes too */
    for (size_t j = 0; j < J; j++)
        if (memcmp(w->palette.data + (j * w->characters + b->first) * M, b->palette.data + j * b->characters * M,
                   b->characters * M * sizeof(float)))
            return 0;
    size_t V = w->sc->mesh.n;   /* and the skinned vertices: character k's are at [k V, (k + 1) V) */
    for (int a = 0; V && a < 3; a++)
        if (memcmp(w->skinned.pos[a] + b->first * V, b->skinned.pos[a], b->characters * V * sizeof(float)) ||
            memcmp(w->skinned.nrm[a] + b->first * V, b->skinned.nrm[a], b->characters * V * sizeof(float)))
            return 0;
    return 1;
}

/* Frames 0 .. 4 of method m with a second transition starting after frame 1 (both clips sampled at RESTART s):
 * the whole crowd stage by stage, or blocks (run() != 0) in the given order on pool p. */
#define RESTART 0.37f
static pb_status whole_frames(pb_frame_crowd *w, const pb_variant *v, pb_frame_method m)
{
    pb_status st = PB_OK;
    for (int k = 0; st == PB_OK && k < 5; k++) {
        if (k == 0 || k == 2) {
            float t = k ? RESTART : 0.0f;
            st = pb_frame_sample(w, v, 0, t);
            if (st == PB_OK) st = pb_frame_sample(w, v, 1, t);
            if (st == PB_OK) st = pb_frame_begin(w, v, m);
        }
        if (st == PB_OK) st = pb_frame_step(w, v, m, k);
    }
    return st;
}

static pb_status block_frames(pb_frame_blocks *b, const pb_variant *v, pb_frame_method m, pb_frame_order order,
                              pb_pool *p)
{
    pb_status st = PB_OK;
    for (int k = 0; st == PB_OK && k < 5; k++) {
        /* the second begin comes after fused frames, which leave the blocks' own src and dst stale */
        if (k == 0 || k == 2) st = pb_frame_blocks_begin(b, v, m, k ? RESTART : 0.0f, p);
        if (st == PB_OK) st = pb_frame_blocks_step(b, v, m, k, order, p);
    }
    return st;
}

/* Every method: blocks give the whole crowd's globals. The first variant checked (the dispatch's) runs every
 * block size x order x pool; the others, whose kernels differ but whose blocking does not, run every block size
 * fused on the largest pool and one size staged on one thread (the sanitizer stages run the emulated variants
 * in a Debug build, where the full matrix cost minutes). */
static void blocks_match(const pb_scene *sc, const pb_variant *v, pb_op sampler, size_t C, pb_pool **pools, int npools,
                         int full)
{
    static const size_t blocks[] = { 16, 20, 1000 };
    const char *vn = pb_variant_name(v);
    for (int m = 0; m < PB_FM_COUNT; m++) {
        const char *mk = pb_frame_method_get((pb_frame_method)m)->key;
        pb_frame_crowd whole;
        CHECK(pb_frame_crowd_init(&whole, sc, C, sampler) == PB_OK, "whole crowd: %s", pb_last_error());
        pb_status st = whole_frames(&whole, v, (pb_frame_method)m);
        CHECK(st == PB_OK, "%s %s whole: %s", vn, mk, pb_last_error());
        for (size_t bi = 0; bi < sizeof blocks / sizeof blocks[0]; bi++)
            for (int order = 0; order < 2; order++)
                for (int t = 0; t < npools; t++) {
                    if (!full && (order ? bi != 1 || t : t != npools - 1)) continue;
                    pb_frame_blocks b;
                    CHECK(pb_frame_blocks_init(&b, sc, C, blocks[bi], sampler) == PB_OK, "blocks: %s", pb_last_error());
                    st = block_frames(&b, v, (pb_frame_method)m, (pb_frame_order)order, pools[t]);
                    CHECK(st == PB_OK, "%s %s blocks: %s", vn, mk, pb_last_error());
                    int same = st == PB_OK;
                    for (size_t i = 0; same && i < b.count; i++) same = same_globals(&whole, &b.crowd[i]);
                    CHECK(same, "%s %s %s: block %zu, %s, %d threads: globals differ from the whole crowd's", vn,
                          pb_op_get(sampler)->name, mk, blocks[bi], order ? "staged" : "fused",
                          pb_pool_threads(pools[t]));
                    pb_frame_blocks_free(&b);
                }
        pb_frame_crowd_free(&whole);
    }
}

/* The cross-fades with a Bezier weight, smooth and frozen: blocks on every pool, fused and staged, give the whole
 * crowd's globals bit for bit (the frozen source is each block's own state, kept from its begin). */
static void curves_match(const pb_scene *sc, const pb_variant *v, size_t C, pb_pool **pools, int npools)
{
    static const pb_frame_method xf[] = { PB_FM_CROSSFADE_STATIC, PB_FM_CROSSFADE_NLERP, PB_FM_CROSSFADE };
    const pb_curve curve = { PB_CURVE_BEZIER, 0.25f, 0.1f, 0.25f, 1.0f };
    for (size_t mi = 0; mi < sizeof xf / sizeof xf[0]; mi++)
        for (int frozen = 0; frozen < 2; frozen++) {
            const char *mk = pb_frame_method_name(xf[mi]);
            pb_frame_crowd whole;
            CHECK(pb_frame_crowd_init(&whole, sc, C, PB_OP_sample_linear) == PB_OK &&
                  pb_frame_crowd_curve(&whole, &curve, frozen) == PB_OK, "whole crowd: %s", pb_last_error());
            pb_status st = whole_frames(&whole, v, xf[mi]);
            CHECK(st == PB_OK, "%s%s whole: %s", mk, frozen ? " frozen" : "", pb_last_error());
            for (int order = 0; order < 2; order++)
                for (int t = 0; t < npools; t++) {
                    pb_frame_blocks b;
                    CHECK(pb_frame_blocks_init(&b, sc, C, 16, PB_OP_sample_linear) == PB_OK &&
                          pb_frame_blocks_curve(&b, &curve, frozen) == PB_OK, "blocks: %s", pb_last_error());
                    st = block_frames(&b, v, xf[mi], (pb_frame_order)order, pools[t]);
                    CHECK(st == PB_OK, "%s%s blocks: %s", mk, frozen ? " frozen" : "", pb_last_error());
                    int same = st == PB_OK;
                    for (size_t i = 0; same && i < b.count; i++) same = same_globals(&whole, &b.crowd[i]);
                    CHECK(same, "%s bezier%s, %s, %d threads: globals differ from the whole crowd's", mk,
                          frozen ? " frozen" : "", order ? "staged" : "fused", pb_pool_threads(pools[t]));
                    pb_frame_blocks_free(&b);
                }
            pb_frame_crowd_free(&whole);
        }
    pb_frame_blocks b;
    const pb_curve bad = { PB_CURVE_BEZIER, 0.25f, -1, 0.25f, 1 };
    CHECK(pb_frame_blocks_init(&b, sc, C, 16, PB_OP_sample_linear) == PB_OK, "blocks: %s", pb_last_error());
    REFUSE(PB_ERR_PARAM, "y1 is -1", pb_frame_blocks_curve(&b, &bad, 0));
    REFUSE(PB_ERR_PARAM, "frozen is 3", pb_frame_blocks_curve(&b, &curve, 3));
    int unchanged = 1;
    for (size_t i = 0; i < b.count; i++) unchanged &= b.crowd[i].curve.kind == PB_CURVE_SMOOTHSTEP && !b.crowd[i].frozen;
    CHECK(unchanged, "refused: the blocks unchanged");
    pb_frame_blocks_free(&b);
}

/* A frame is a function of its inputs, not of what ran before: after frames of every other method (which
 * leave every plane of the crowd's poses written), each method gives the globals of a fresh crowd. The static
 * transitions write no velocities; their mix's must not be what an earlier method left there. */
static void no_history(const pb_scene *sc, const pb_variant *v)
{
    for (int m = 0; m < PB_FM_COUNT; m++) {
        const char *mk = pb_frame_method_get((pb_frame_method)m)->key;
        pb_frame_crowd fresh, used;
        CHECK(pb_frame_crowd_init(&fresh, sc, 19, PB_OP_sample_linear) == PB_OK &&
              pb_frame_crowd_init(&used, sc, 19, PB_OP_sample_linear) == PB_OK, "crowds: %s", pb_last_error());
        pb_status st = whole_frames(&fresh, v, (pb_frame_method)m);
        for (int o = 0; st == PB_OK && o < PB_FM_COUNT; o++)
            if (o != m) st = whole_frames(&used, v, (pb_frame_method)o);
        if (st == PB_OK) st = whole_frames(&used, v, (pb_frame_method)m);
        CHECK(st == PB_OK, "%s %s: %s", pb_variant_name(v), mk, pb_last_error());
        CHECK(st == PB_OK && same_globals(&fresh, &used), "%s %s after every other method: globals differ from a "
              "fresh crowd's", pb_variant_name(v), mk);
        pb_frame_crowd_free(&fresh);
        pb_frame_crowd_free(&used);
    }
}

static pb_status count_task(void *arg, size_t i, int thread)
{
    int *seen = arg;   /* per task: 1 + the thread that ran it */
    seen[i] += 1 + thread;
    return PB_OK;
}

static pb_status fail_task(void *arg, size_t i, int thread)
{
    (void)arg, (void)thread;
    if (i == 7 || i == 90) return pb_fail(PB_ERR_PARAM, "task %zu failed", i);
    return PB_OK;
}

static void pool_checks(void)
{
    pb_pool *p = NULL;
    CHECK(pb_pool_create(NULL, 2) == PB_ERR_NULL, "NULL pool");
    CHECK(pb_pool_create(&p, 0) == PB_ERR_PARAM && !p && strstr(pb_last_error(), "threads = 0"), "0 threads: %s",
          pb_last_error());
    CHECK(pb_pool_create(&p, -3) == PB_ERR_PARAM && strstr(pb_last_error(), "1 .. "), "-3 threads: %s", pb_last_error());
    CHECK(pb_pool_create(&p, PB_POOL_MAX_THREADS + 1) == PB_ERR_PARAM, "too many threads");
    CHECK(pb_pool_run(NULL, 3, NULL, NULL) == PB_ERR_NULL, "NULL task");
    CHECK(pb_pool_threads(NULL) == 1 && pb_cpu_threads() >= 1, "defaults");
    int T = threaded ? 3 : 1;
    /* Both ways a thread waits (pool.h): spinning (the default, runs back to back) and parked (runs 2 ms
     * apart, past the spin; and a pool made with POSEBENCH_POOL_SPIN_US=0, which parks at once). */
    const char *spin_env = getenv("POSEBENCH_POOL_SPIN_US");
    char *saved = spin_env ? strdup(spin_env) : NULL;
    for (int mode = 0; mode < 3; mode++) {
        if (mode == 2) setenv("POSEBENCH_POOL_SPIN_US", "0", 1);
        CHECK(pb_pool_create(&p, T) == PB_OK && pb_pool_threads(p) == T, "pool of %d: %s", T, pb_last_error());
        for (size_t n = 0; n < 12; n++) {   /* fewer tasks than threads too */
            int seen[12] = { 0 }, ok = 1;
            if (mode == 1) nanosleep(&(struct timespec){ 0, 2000000 }, NULL);
            CHECK(pb_pool_run(p, n, count_task, seen) == PB_OK, "run %zu (wait mode %d)", n, mode);
            for (size_t i = 0; i < n; i++) {
                /* pool.h's split: n / T tasks a thread, one more for the first n % T threads */
                size_t base = n / (size_t)T, extra = n % (size_t)T, big = extra * (base + 1);
                int owner = (int)(i < big ? i / (base + 1) : extra + (i - big) / base);
                ok &= seen[i] == 1 + owner;
            }
            CHECK(ok, "%zu tasks on %d threads (wait mode %d): each once, on its static share", n, T, mode);
            size_t next = 0;   /* pb_pool_share tiles [0, n) in thread order, as run */
            for (int t = 0; t < T; t++) {
                size_t lo, hi;
                pb_pool_share(n, T, t, &lo, &hi);
                ok &= lo == next && hi >= lo && (hi == lo || seen[lo] == 1 + t);
                next = hi;
            }
            CHECK(ok && next == n, "pb_pool_share(%zu, %d) tiles the tasks as they ran", n, T);
        }
        for (int r = 0; r < 2; r++)
            CHECK(pb_pool_run(p, 100, fail_task, NULL) == PB_ERR_PARAM && strstr(pb_last_error(), "task 7"),
                  "lowest failing task reported (wait mode %d): %s", mode, pb_last_error());
        pb_pool_destroy(p);
    }
    if (saved) setenv("POSEBENCH_POOL_SPIN_US", saved, 1);
    else unsetenv("POSEBENCH_POOL_SPIN_US");
    free(saved);
    pb_pool_destroy(NULL);
    if (!threaded) return;
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifdef SANITIZED
    printf("thread creation failure: skipped (sanitizer runtimes reserve more address space than the limit allows)\n");
    return;
#endif
    /* A worker that cannot be created: an address space too small for its stack. */
    pid_t pid = fork();
    if (pid == 0) {
        struct rlimit rl = { 64u << 20, 64u << 20 };
        pb_pool *q = NULL;
        if (setrlimit(RLIMIT_AS, &rl) != 0) _exit(2);
        pb_status s = pb_pool_create(&q, 64);
        _exit(s == PB_ERR_THREAD && !q && strstr(pb_last_error(), "could not be created") ? 0 : 1);
    }
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "thread creation failure gives PB_ERR_THREAD (child status %d)", status);
}

int main(void)
{
    threaded = getenv("PB_TEST_NO_THREADS") == NULL;
    if (!threaded) printf("threads: skipped (%s); the tsan stage runs them natively\n", getenv("PB_TEST_NO_THREADS"));
    pool_checks();
    pb_pool *pools[3] = { NULL, NULL, NULL };
    int npools = 1;
    if (threaded) {
        CHECK(pb_pool_create(&pools[1], 2) == PB_OK, "pool 2: %s", pb_last_error());
        CHECK(pb_pool_create(&pools[2], 3) == PB_OK, "pool 3: %s", pb_last_error());
        npools = 3;
    }
    pb_scene s;
    CHECK(pb_scene_synthetic(&s, 24, 11) == PB_OK && pb_scene_mesh(&s, 97) == PB_OK, "scene: %s", pb_last_error());
    pb_frame_blocks b0;
    const char *only = getenv("PB_TEST_VARIANT");   /* the tsan stage: one native variant is enough */
    const pb_variant *first = NULL;   /* the full matrix for the dispatch's choice */
    if (!only) CHECK(pb_variant_active(&first) == PB_OK, "active variant: %s", pb_last_error());
    if (first) {
        blocks_match(&s, first, PB_OP_sample_linear, 53, pools, npools, 1);
        blocks_match(&s, first, PB_OP_sample_linear_turns, 53, pools, npools, 1);
        blocks_match(&s, first, PB_OP_sample_cubic, 53, pools, npools, 1);
        no_history(&s, first);
        curves_match(&s, first, 53, pools, npools);
    }
    for (size_t i = 0; i < pb_all_variant_count(); i++) {
        const pb_variant *v = pb_all_variant_at(i);
        if (pb_variant_check(v) != PB_OK || (only && strcmp(only, pb_variant_name(v))) || (first && !strcmp(pb_variant_name(v), pb_variant_name(first)))) continue;
        blocks_match(&s, v, PB_OP_sample_linear, 53, pools, npools, only != NULL);
        blocks_match(&s, v, PB_OP_sample_linear_turns, 53, pools, npools, only != NULL);
        blocks_match(&s, v, PB_OP_sample_cubic, 53, pools, npools, only != NULL);
    }
    CHECK(pb_frame_blocks_init(&b0, &s, 20, 16, PB_OP_sample_linear) == PB_OK, "blocks for begin: %s", pb_last_error());
    CHECK(pb_frame_blocks_begin(&b0, NULL, PB_FM_DEAD, NAN, NULL) == PB_ERR_PARAM && strstr(pb_last_error(), "time"),
          "begin at NaN: %s", pb_last_error());
    CHECK(pb_frame_blocks_begin(&b0, NULL, PB_FM_COUNT, 0.0f, NULL) == PB_ERR_PARAM, "begin: bad method");
    CHECK(pb_frame_blocks_begin(NULL, NULL, PB_FM_DEAD, 0.0f, NULL) == PB_ERR_NULL, "begin: NULL blocks");
    pb_frame_blocks_free(&b0);
    pb_frame_blocks b;
    CHECK(pb_frame_blocks_init(&b, &s, 40, 0, PB_OP_sample_linear) == PB_ERR_PARAM && strstr(pb_last_error(), "block = 0"),
          "block 0: %s", pb_last_error());
    CHECK(pb_frame_blocks_init(&b, &s, 40, 5, PB_OP_sample_linear) == PB_ERR_PARAM && strstr(pb_last_error(), "at least 16"),
          "block 5: %s", pb_last_error());
    CHECK(pb_frame_blocks_init(&b, &s, 0, 16, PB_OP_sample_linear) == PB_ERR_EMPTY, "no characters");
    CHECK(pb_frame_blocks_init(NULL, &s, 10, 16, PB_OP_sample_linear) == PB_ERR_NULL, "NULL blocks");
    CHECK(pb_frame_blocks_step(&b, NULL, PB_FM_DEAD, 0, PB_FO_FUSED, NULL) == PB_ERR_NULL, "uninitialized blocks");
    CHECK(pb_frame_blocks_init(&b, &s, 50, 16, PB_OP_sample_linear) == PB_OK && b.count == 3 && b.crowd[2].characters == 18
          && b.crowd[2].first == 32, "50 characters in blocks of 16: 16 + 16 + 18");
    pb_frame_blocks_free(&b);
    CHECK(pb_frame_blocks_init(&b, &s, 7, 16, PB_OP_sample_linear) == PB_OK && b.count == 1 && b.crowd[0].characters == 7,
          "7 characters in blocks of 16: one block");
    CHECK(pb_frame_blocks_step(&b, NULL, PB_FM_DEAD, 0, (pb_frame_order)7, NULL) == PB_ERR_PARAM, "bad order");
    CHECK(pb_frame_block_run(&b, NULL, PB_FM_DEAD, 0, 0, 0, PB_FS_COUNT, 0) == PB_ERR_PARAM
          && strstr(pb_last_error(), "pb_frame_blocks_scratch"), "a thread without scratch: %s", pb_last_error());
    CHECK(pb_frame_blocks_scratch(&b, 0) == PB_ERR_PARAM && pb_frame_blocks_scratch(&b, 2) == PB_OK, "scratch for 2");
    CHECK(pb_frame_block_run(&b, NULL, PB_FM_DEAD, 0, 3, 0, PB_FS_COUNT, 0) == PB_ERR_PARAM
          && strstr(pb_last_error(), "block 3 of 1"), "block out of range: %s", pb_last_error());
    CHECK(pb_frame_block_run(&b, NULL, PB_FM_DEAD, 0, 0, PB_FS_FK, PB_FS_IK, 1) == PB_ERR_PARAM, "stages backwards");
    CHECK(pb_frame_block_run(&b, NULL, PB_FM_DEAD, 0, 0, 0, PB_FS_COUNT, 2) == PB_ERR_PARAM, "thread 2 of 2");
    CHECK(pb_frame_blocks_step(&b, NULL, PB_FM_COUNT, 0, PB_FO_FUSED, NULL) == PB_ERR_PARAM, "bad method");
    pb_frame_blocks_free(&b);
    CHECK(pb_frame_block_default(&s, 1u << 20) % 16 == 0 && pb_frame_block_default(&s, 1u << 20) >= 16, "default block");
    pb_scene_free(&s);
    pb_pool_destroy(pools[1]);
    pb_pool_destroy(pools[2]);
    return check_done();
}
