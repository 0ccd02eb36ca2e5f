/* bench.h — the benchmark harness behind `posebench bench` (the bench/ sources over
 * Google Benchmark through shim.cc). The CLI (cli/cmd_bench.c) parses the
 * options, chooses the variants and the context, and calls bench_run. */
#ifndef BENCH_H
#define BENCH_H

#include <stddef.h>
#include <stdint.h>
#include "posebench/posebench.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BENCH_MAX_SIZES 32
#define BENCH_MAX_SIZE ((size_t)1 << 26)   /* 64 M joints: 4.9 GB per pose; beyond is a typo */

typedef struct bench_opts {
    const int *op_on;               /* PB_OP_COUNT flags: ops asked for by name; NULL: every op that runs */
    const pb_variant *const *vars;  /* the variants to time (checked runnable by the caller) */
    int nvars;
    const size_t *sizes;            /* joint counts, distinct, 1..BENCH_MAX_SIZE */
    int nsizes;                     /* 0: the defaults (64 ... 1048576; --quick 256, 4096, 65536) */
    int quick;                      /* 3 repetitions, short minimum time */
    int via_run;                    /* 0 the kernel table, 1 pb_run, 2 pb_plan_run */
    int mocap;                      /* inputs from motion capture (validation's real-data cases) */
    const char *const *bvh;         /* ... these files (NULL: the packaged CMU clips) */
    int nbvh;
    const char *json, *csv;         /* outputs (NULL: none) */
    int have_seed;
    uint64_t seed;                  /* inputs' seed (have_seed 0: from the clock and pid) */
    char **gb_args;                 /* Google Benchmark's own flags */
    int ngb;
    const char *const *ctx_keys;    /* the run's context (cli/context.h), added to the JSON's */
    const char *const *ctx_vals;
    int nctx;
    int threads;                    /* > 1: also "<op>/<variant>/<n>/t<threads>" rows (THREADED_MIN_N and up,
                                       the dispatch variant) and their copy rows, on a pb_pool */
    const char *threads_from;       /* who asked for them: "--threads" or "POSEBENCH_THREADS"; NULL: the default
                                       (every core), which says nothing when there can be no threaded rows */
    const char *model;              /* skinning: also rows on this character's mesh and palettes (posebench/asset.h),
                                       the synthetic rows at its vertex count (NULL: none) */
    int slots;                      /* skinning: also rows .../slots1 .. slots4 (the random mesh over 64 joints with
                                       1 .. 4 influence slots) and the line ns/vertex = a + b slots fitted to them */
} bench_opts;

/* Register, run, write the outputs. Returns the exit status: 0 when every
 * benchmark ran, 1 if one reported an error, 2 for a setup failure (message
 * on stderr). */
int bench_run(const bench_opts *o);
/* The skinning benchmarks (skin_bench.c; not pose ops, so not bench_run's):
 * lbs / dqs select the methods; o's variants, sizes (0: 1000, 100000,
 * 1000000 vertices), quick, gb_args and context are used, its other fields
 * not. Same exit statuses. */
int bench_skin_run(const bench_opts *o, int lbs, int dqs);
/* The motion-matching benchmarks (mm_bench.c): the database build, then the
 * exhaustive and / or AABB searches at o's sizes in database rows (0:
 * 10000, 100000, 1000000), per variant, beside a memcpy of the features.
 * Same exit statuses. */
int bench_mm_run(const bench_opts *o, int exhaustive, int aabb);
/* The blend-space weights benchmarks (bspace_bench.c): every method over its
 * sample sets at o's sizes in characters (0: 1000, 100000), per variant,
 * beside a memcpy of the bytes. Same exit statuses. */
int bench_bspace_run(const bench_opts *o);
/* The N-way blend benchmarks (blend_n_bench.c): K = 2, 4, 16 x fast and
 * accurate at o's sizes in joints (0: 65536, 1048576), per variant, beside a
 * memcpy of the bytes. Same exit statuses. */
int bench_blend_n_run(const bench_opts *o);
/* The masked layer benchmarks (layers_bench.c): override (slerp, nlerp) and
 * additive on static poses with a weight per character x a bone mask, every
 * variant, at 65536 and 1 M joints (or o->sizes), next to a memcpy of their
 * bytes. Returns as bench_run. */
int bench_layers_run(const bench_opts *o);
/* The skinning palettes with the inverse bind per element and per joint
 * (palette_bench.c): palette and palette_dq of 64-joint characters, every
 * variant, at 200, 1024 and 16384 characters (or o->sizes in joints), next to
 * a memcpy of each form's bytes. Returns as bench_run. */
int bench_palette_run(const bench_opts *o);

#ifdef __cplusplus
}
#endif
#endif
