/* bench_internal.h — what the benchmark harness's files share: the
 * registered benchmarks (spec) and their results, the input buffer sets and
 * pools (pool.c, where the cold-cache set-up lives), the timing loops
 * (timing.c), the results (results.c) and the run (bench.c). */
#ifndef BENCH_INTERNAL_H
#define BENCH_INTERNAL_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "cold.h"
#include "bench.h"
#include "internal.h"
#include "gb_shim.h"
#include "validate.h"

#define COLD_MIN_N ((size_t)262144)      /* sizes that also get a cold-cache run */
#define BATCH_JOINTS 16384               /* joints per timing-loop step (see run_op) */
#define SKEL_JOINTS 64                   /* joints per character of skeleton ops' crowds */
#define SKEL_FLAGS (PB_OPF_SKELETON | PB_OPF_ROOTS)   /* ops that take call.skel */
#define CLIP_KEYS ((1u << PB_G_POS) | (1u << PB_G_ROT) | (1u << PB_G_SCL))   /* what a clip's keys hold */

/* Scalar parameters for every op (each reads only those its flags name):
 * mid-transition values in the ranges validation covers; alpha not 0, 1/2
 * or 1, which could hit special cases. */
#define BENCH_CHAIN_JOINTS 8        /* chain IK ops: joints per chain */
#define BENCH_CHAIN_ITERATIONS 10   /* and iterations (tolerance 0: every reachable chain takes them all) */
extern const pb_params bench_params;   /* scalar parameters for every op (pool.c) */
#define SAMPLE_FRAMES 120                /* sampling ops: a 1 s clip at 120 fps ... */
#define SAMPLE_FPS 120.0f                /* ... of SKEL_JOINTS joints (or n joints) */

/* ---- benchmarks that are not pose ops (aux_bench.c) ---------------------------------- */

/* One benchmark of skin_bench.c / mm_bench.c: registered under name, timed by
 * fn(user); cpu_s: its median CPU seconds per iteration after the run. */
typedef struct bench_item {
    char name[96];
    gb_fn fn;
    void *user;
    double cpu_s;
    int nrep, error;
} bench_item;
/* Run n rows of row_size bytes, each beginning with its bench_item (whose
 * user becomes the row), with o's repetitions (3 --quick, else 5), Google
 * Benchmark flags and context. 0 every item ran, 1 one reported an error, 2
 * set-up failed; *timed (may be NULL): 1 if any item was timed (not so for
 * --benchmark_list_tests). */
int bench_rows_run(const bench_opts *o, void *rows, size_t row_size, int n, int *timed);

/* --model (model.c): the imported character and the globals of its rest pose. 0, or -1 after a message
 * on stderr (nothing to free). */
typedef struct bench_model { pb_asset asset; pb_pose global; } bench_model;
int bench_model_load(const char *path, bench_model *m);
void bench_model_free(bench_model *m);
/* The copy roofline of an item: memcpy of bytes / 2 (bytes read + written = bytes) each
 * iteration. 0, or -1 after gb_skip_with_error. */
int bench_copy_loop(gb_state *st, size_t bytes);
/* An item timing op on call through a plan made once (as an engine runs an
 * op every frame), on variant v: 0, or -1 after gb_skip_with_error. */
int bench_plan_loop(gb_state *st, pb_op op, const pb_variant *v, const pb_call *call);
/* A destination of bytes for a memcpy from the address src, half a page from
 * src's alignment (4 KiB aliasing slows a copy whose destination trails its
 * source by a few bytes modulo 4096); free *block, NULL when out of memory.
 * Only the address is taken: src may not be written yet. */
char *bench_copy_dst(uintptr_t src, size_t bytes, void **block);
/* Create (empty) the output file at path now, so an unwritable path fails
 * before any timing: 0, or -1 with the reason on stderr. */
int bench_out_writable(const char *path);
/* One table line: name, ns per joint, bytes per joint, GB/s, the copy's GB/s, x the copy, scalar's speed-up
 * (copy_s, scalar_s 0: not measured). */
void bench_ratio_line(const char *name, double cpu_s, double copy_s, double scalar_s, size_t n, double bytes);

/* ---- benchmarks and their results -------------------------------------------------- */

/* One registered benchmark. Results arrive through the reporter hook
 * (on_result) after all repetitions of the benchmark ran. */
typedef struct spec {
    char name[128];
    pb_op op;
    const pb_variant *v;    /* NULL: the copy roofline */
    size_t n;
    int cold;
    struct spec *copy;      /* copy roofline of the same op, n and cache state */
    struct spec *scalar;    /* scalar run of the same op, n and cache state (NULL if not benchmarked) */
    int via;                /* this row's call path: 0 the run's (bench_state.via_run), 2 pb_plan_run */
    int threads;            /* > 1: a threaded row: n split into `threads` disjoint ranges of n / threads
                               elements, each its own buffer set, run at once on a pb_pool (wall time) */
    struct spec *kernel;    /* plan rows: the kernel-table row of the same op, variant and n */
    int started, error, skipped, ratio_missing;
    /* Google Benchmark's aggregates (when there are repetitions) ... */
    int have_med, have_cv;
    double med_cpu_s, med_nspj, med_ratio, cv_nspj;
    /* ... and the single runs (used when there are no aggregates). */
    double *rep;            /* triples: cpu s/iter, ns_per_joint, copy_ratio (NaN if absent) */
    int nrep, caprep;
} spec;

/* Warm sizes up to this also get a /plan row in the default run: the same
 * call through pb_plan_run, whose difference from the kernel-table row is the
 * plan's per-run overhead (issue: <= 5 ns). */
#define PLAN_ROW_MAX_N ((size_t)256)

typedef struct stats {
    int ok;                 /* at least one run measured */
    double cpu_s, nspj, cv, ratio;   /* medians; cv and ratio NaN when unknown */
} stats;

/* Medians and CV of a benchmark (results.c). */
stats spec_stats(const spec *s);
/* Reporter hook: every run the display reporter sees (results.c). */
void on_result(const gb_result *r, void *user);
/* The CSV summary (results.c). 0, or -1 on a write error. */
int write_csv(FILE *f);

/* ---- buffers (pool.c) ---------------------------------------------------------------------- */

/* One set of buffers for a call: the poses/arrays the op reads and writes,
 * the call, its kernel arguments, and the same memory as flat spans for the
 * copy roofline. */
typedef struct bufset {
    pb_pose a, b, out;
    pb_clip clip_a;                     /* PB_OPF_CLIP_IN ops: a clip whose keys are pose a (a view, not a copy) */
    float *aos_in_mem, *aos_out_mem;
    pb_pose_aos aos_in, aos_out;
    float *pal_mem;                     /* palette ops: n x width floats */
    pb_palette pal;
    pb_call call;
    pb_kargs k;
    const float *in[2 * PB_PLANES + 1];
    float *outp[PB_PLANES + 1];
    size_t in_len[2 * PB_PLANES + 1], out_len[PB_PLANES + 1];   /* floats */
    int nin, nout;
} bufset;

/* The buffers of the benchmarks running now: built by the first benchmark of
 * an (op, n, cache state) — its copy roofline — and reused by the variants
 * that follow it, so they all time the same inputs.
 *
 * Warm: one set, used by every iteration; the data stays in whatever cache
 * level it fits in (at n >= 262144 most ops' bytes exceed the LLC anyway).
 * Cold: distinct sets rotated every iteration, enough of them that the sets
 * touched since this one's last use exceed twice the whole cache hierarchy
 * (Google Benchmark's detected L1d + L2 + L3), so each iteration reads and
 * writes memory no cache holds. Rotation rather than an eviction pass under
 * PauseTiming/ResumeTiming: those cost microseconds per call and would be
 * paid at every iteration of a fast op (quat_abs at 262144 joints takes well
 * under a millisecond), and the eviction buffer's own write-backs would
 * spill into the timed region. */
typedef struct pool {
    int valid;
    pb_op op;
    size_t n;
    int cold;
    int nsets;
    int flush;                          /* cold: flush the set before each iteration (cold.h) */
    bufset *sets;
    pb_skeleton skel;                   /* SKEL_FLAGS ops (shared by the sets: read only) */
    pb_clip clip;                       /* PB_OPF_SAMPLE ops: the clip (generated, or a --mocap window) ... */
    float *offsets;                     /* ... and per-character offsets (clip ops: the case's) */
    size_t n_work;                      /* elements processed: n, or for chains the largest 3 x k <= n */
    size_t bytes_read, bytes_written;   /* per call: 4 x floats read / written */
} pool;

/* --mocap / --bvh: inputs from real clips (bench_mocap.nclips > 0; pool.c bench_case says which). */
extern pb_mocap bench_mocap;
/* Ops whose inputs are not poses but values of a kind (unnormalized
 * quaternions, rotation vectors, scalars), and unroll (a clip of n keys, more
 * than a real clip holds at the large sizes): synthetic inputs even with --mocap. */
#define MOCAP_SKIP (PB_OPF_UNNORM_IN | PB_OPF_SCALAR_IN | PB_OPF_LOG_IN | PB_OPF_CLIP_IN)

int pool_build(pool *p, pb_op op, size_t n_req, int cold, uint64_t seed, char *err, size_t errlen);
void pool_free(pool *p);
/* 0 if op runs on a tiny set with the scalar variant, else -1 with why. */
int probe_op(pb_op op, char *why, size_t len);
/* The copy roofline's body: exactly the set's bytes moved with memcpy. */
void copy_set(const bufset *s);

/* ---- the run (bench.c) and its timing loops (timing.c) ------------------------------------ */

/* Threaded rows: warm sizes from this many joints (below it a range is a few
 * microseconds and the pool's per-run handshake would be timed). */
#define THREADED_MIN_N ((size_t)65536)

struct harness {
    spec *specs;
    size_t nspecs;
    pool pool;
    pool *mt;                 /* threaded rows: mt_threads pools of n / threads each, for (mt_op, mt_n) */
    int mt_threads;
    pb_op mt_op;
    size_t mt_n;
    pb_pool *workers;         /* the threaded rows' worker pool */
    uint64_t seed;
    int via_run;              /* time pb_run (validation included) instead of the kernel table */
    size_t total, nstarted;   /* benchmarks the filter selects / started so far */
    double t0;   /* wall_seconds() at the start */
    spec *cur;
};
extern struct harness bench_state;

void run_copy(gb_state *st, void *user);
void run_op(gb_state *st, void *user);
void run_threaded(gb_state *st, void *user);   /* a threaded row: the op (spec.v) or its copy (spec.v NULL) */
void mt_free(void);
const char *fmt_dur(double s, char *buf, size_t len);

#endif
