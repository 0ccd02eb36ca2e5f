/* test_dispatch_threads.c — the dispatch switches (pb_variant_force,
 * pb_cpu_disable) may be flipped on one thread while others call pb_run and
 * read pb_cpu_features: no data race (the tsan stage of tools/test.sh runs
 * this under ThreadSanitizer), every run succeeds, and each result is
 * bit-for-bit what one of the variants the switches allowed computes alone.
 * The switches never make a run fail here: the forced names need no feature
 * the disabling thread hides (it hides only AVX-512, and AVX-512 is never
 * forced). */
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "posebench/posebench.h"

#define N 67          /* a tail at every lane width */
#define RUNS 500      /* per runner thread and round */
#define ROUNDS 6      /* fresh threads each round, the runners started before the switchers: so ThreadSanitizer
                         flagged both races before the fix in 6 of 6 runs (one round of 3000 runs with the
                         switchers started first: in 3 of 5, one race at a time) */
#define RUNNERS 2
#define MAXV 8

static pb_pose in_a, in_b;
static pb_pose expect[MAXV];       /* blend_static of in_a, in_b by each variant that may run */
static const pb_variant *allowed[MAXV];
static size_t nallowed;
static const char *forced_names[MAXV];
static size_t nforced;
static uint32_t detected;
static atomic_int switchers_up;   /* switcher threads started this round */
static atomic_int runners_left;

static void fill_inputs(void)
{
    for (size_t i = 0; i < N; i++) {
        float t = (float)i / N;
        in_a.plane[PB_POS_X][i] = t;
        in_a.plane[PB_POS_Y][i] = 2 * t - 1;
        in_a.plane[PB_ROT_W][i] = cosf(0.5f * t);
        in_a.plane[PB_ROT_X][i] = sinf(0.5f * t);
        in_b.plane[PB_POS_X][i] = -t;
        in_b.plane[PB_ROT_W][i] = cosf(1.3f * t);
        in_b.plane[PB_ROT_Z][i] = sinf(1.3f * t);
        in_b.plane[PB_SCL_Y][i] = 1.0f + t;
    }
}

static int same_static(const pb_pose *x, const pb_pose *y)
{
    for (int p = 0; p < PB_STATIC_PLANES; p++)
        if (memcmp(x->plane[p], y->plane[p], N * sizeof(float))) return 0;
    return 1;
}

typedef struct { pb_pose out; int runs_ok, results_ok, active_ok, features_ok; } runner;

static void *run_loop(void *arg)
{
    runner *r = arg;
    while (atomic_load(&switchers_up) < 2) sched_yield();   /* runs overlap the switches (pb_run is quick) */
    pb_call c = { .a = &in_a, .b = &in_b, .out = &r->out, .params = { .alpha = 0.3f } };
    for (int i = 0; i < RUNS; i++) {
        memset(r->out.plane[PB_POS_X], 0xff, N * sizeof(float));   /* a NaN a skipped run would leave */
        if (pb_run(PB_OP_blend_static, NULL, &c) != PB_OK) continue;
        r->runs_ok++;
        for (size_t v = 0; v < nallowed; v++)
            if (same_static(&r->out, &expect[v])) {
                r->results_ok++;
                break;
            }
        const pb_variant *v = NULL;
        if (pb_variant_active(&v) == PB_OK)
            for (size_t k = 0; k < nallowed; k++) r->active_ok += allowed[k] == v;
        uint32_t f = pb_cpu_features();
        r->features_ok += f == detected || f == (detected & ~(uint32_t)PB_CPU_AVX512);
    }
    atomic_fetch_sub(&runners_left, 1);
    return NULL;
}

typedef struct { int calls, ok; } switcher;

static void *force_loop(void *arg)
{
    switcher *s = arg;
    atomic_fetch_add(&switchers_up, 1);
    for (size_t i = 0; atomic_load(&runners_left) > 0; i++, s->calls++)
        s->ok += pb_variant_force(forced_names[i % nforced]) == PB_OK;
    return NULL;
}

static void *disable_loop(void *arg)
{
    switcher *s = arg;
    atomic_fetch_add(&switchers_up, 1);
    for (int i = 0; atomic_load(&runners_left) > 0; i++, s->calls++) {
        pb_cpu_disable(i & 1 ? PB_CPU_AVX512 : 0);
        s->ok++;
    }
    return NULL;
}

int main(void)
{
    const char *no_threads = getenv("PB_TEST_NO_THREADS");
    if (no_threads) {
        printf("skipped (%s); the tsan stage runs this natively\n", no_threads);
        return 0;
    }
    detected = pb_cpu_features();
    CHECK(pb_pose_alloc_static(&in_a, N) == PB_OK && pb_pose_alloc_static(&in_b, N) == PB_OK, "alloc inputs");
    fill_inputs();

    /* What may run: every runnable native variant. Forced: those that need no AVX-512, and automatic (NULL). */
    forced_names[nforced++] = NULL;
    for (size_t i = 0; i < pb_variant_count() && nallowed < MAXV; i++) {
        const pb_variant *v = pb_variant_at(i);
        if (pb_variant_check(v) != PB_OK) continue;
        CHECK(pb_pose_alloc_static(&expect[nallowed], N) == PB_OK, "alloc expect");
        pb_call c = { .a = &in_a, .b = &in_b, .out = &expect[nallowed], .params = { .alpha = 0.3f } };
        CHECK(pb_run(PB_OP_blend_static, v, &c) == PB_OK, "%s alone: %s", pb_variant_name(v), pb_last_error());
        allowed[nallowed++] = v;
        if (strcmp(pb_variant_isa(v), "avx512") != 0 && nforced < MAXV) forced_names[nforced++] = pb_variant_name(v);
    }
    CHECK(nallowed >= 1 && nforced >= 2, "scalar at least: %zu variants, %zu forced names", nallowed, nforced);
    for (size_t v = 1; v < nallowed; v++) {   /* the variants agree with scalar (the last row) closely */
        double d = 0;
        for (int p = 0; p < PB_STATIC_PLANES; p++)
            for (size_t i = 0; i < N; i++)
                d = dmax(d, fabs((double)expect[v - 1].plane[p][i] - expect[nallowed - 1].plane[p][i]));
        CHECK(d < 1e-5, "%s vs scalar: %g", pb_variant_name(allowed[v - 1]), d);
    }

    int forces = 0, disables = 0;
    for (int round = 0; round < ROUNDS; round++) {
        runner r[RUNNERS];
        switcher fs = { 0, 0 }, ds = { 0, 0 };
        pthread_t rt[RUNNERS], ft, dt;
        atomic_store(&runners_left, RUNNERS);
        atomic_store(&switchers_up, 0);
        for (int t = 0; t < RUNNERS; t++) {
            memset(&r[t], 0, sizeof r[t]);
            CHECK(pb_pose_alloc_static(&r[t].out, N) == PB_OK, "alloc out");
        }
        for (int t = 0; t < RUNNERS; t++) CHECK(pthread_create(&rt[t], NULL, run_loop, &r[t]) == 0, "runner thread");
        CHECK(pthread_create(&ft, NULL, force_loop, &fs) == 0, "force thread");
        CHECK(pthread_create(&dt, NULL, disable_loop, &ds) == 0, "disable thread");
        for (int t = 0; t < RUNNERS; t++) CHECK(pthread_join(rt[t], NULL) == 0, "join runner");
        CHECK(pthread_join(ft, NULL) == 0 && pthread_join(dt, NULL) == 0, "join switchers");
        for (int t = 0; t < RUNNERS; t++) {
            CHECK(r[t].runs_ok == RUNS, "round %d runner %d: %d of %d runs returned PB_OK", round, t, r[t].runs_ok,
                  RUNS);
            CHECK(r[t].results_ok == RUNS, "round %d runner %d: %d of %d results equal one variant's", round, t,
                  r[t].results_ok, RUNS);
            CHECK(r[t].active_ok == RUNS, "round %d runner %d: active variant allowed %d of %d times", round, t,
                  r[t].active_ok, RUNS);
            CHECK(r[t].features_ok == RUNS, "round %d runner %d: feature mask whole %d of %d times", round, t,
                  r[t].features_ok, RUNS);
            pb_pose_free(&r[t].out);
        }
        CHECK(fs.ok == fs.calls, "round %d: pb_variant_force: %d of %d PB_OK", round, fs.ok, fs.calls);
        forces += fs.calls;
        disables += ds.calls;
    }
    CHECK(forces > 0 && disables > 0, "the switches ran: %d forces, %d disables", forces, disables);
    printf("%d runs on %d threads in %d rounds; %d forces, %d disables, over %zu variants\n", RUNS * RUNNERS * ROUNDS,
           RUNNERS, ROUNDS, forces, disables, nallowed);

    /* Back to automatic, nothing hidden: the top runnable variant again. */
    pb_cpu_disable(0);
    CHECK(pb_variant_force(NULL) == PB_OK, "unforce");
    const pb_variant *v = NULL;
    CHECK(pb_variant_active(&v) == PB_OK && v == allowed[0], "automatic again: %s", pb_variant_name(v));
    CHECK(pb_cpu_features() == detected, "features restored");
    for (size_t i = 0; i < nallowed; i++) pb_pose_free(&expect[i]);
    pb_pose_free(&in_a);
    pb_pose_free(&in_b);
    return check_done();
}
