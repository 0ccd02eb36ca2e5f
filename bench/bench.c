/* bench.c — `posebench bench`: times every op x runnable variant x size of
 * the op registry with Google Benchmark (through the C shim, pb_bench_shim.h),
 * next to a memory-copy roofline of the same bytes, and writes Google
 * Benchmark's JSON (--json) and a one-line-per-benchmark CSV summary (--csv).
 *
 * What keeps the numbers honest (STYLE.md, "Benchmarks that don't lie"):
 *  - Inputs are pb_gen_case's mixed class (random rotations plus every edge
 *    class) from a seed that changes per run (time and pid; --seed repeats it),
 *    so a branchy kernel cannot be timed on one memorized pattern across runs.
 *    Within a run a warm benchmark reuses one input set, so that n keeps
 *    meaning the working set (and its cache level); a predictor can partly
 *    learn a pattern that repeats every n elements when n is small. Only the
 *    scalar reference branches on data (the SIMD kernels select). Measured on
 *    the dev VM (AMD EPYC, Zen 5): scalar blend_static and smoothstep at
 *    n = 64 and 256 ran 6-19% faster on one repeated set than on 64 rotated
 *    sets; from n = 1024 the difference was within noise (+-5%). So at
 *    n <= 256 scalar is flattered and speedup_vs_scalar is, if anything,
 *    understated.
 *  - CPU time (Google Benchmark's default), medians and CV over repetitions
 *    (5 by default, 3 with --quick).
 *  - copy/<op>/<n> moves exactly the op's bytes and runs in the same process,
 *    just before the op's benchmarks at that size: copy_ratio = op time / copy
 *    time is the op's distance from the memory roofline.
 *  - Sizes span L1 to DRAM; at n >= 262144 a cold-cache run follows the warm
 *    one (see struct pool).
 *  - Nothing is reported that was not measured: a figure whose inputs did not
 *    run (a filtered-out copy or scalar benchmark) is left empty, never guessed.
 *
 * Names (a contract with the report generator): "<op>/<variant>/<n>" and
 * "copy/<op>/<n>"; the cold-cache runs add "/cold". Label: "warm" or "cold".
 * A variant's mode is in its name: emulated variants end in "-emu" (and the
 * "variants" context key maps every benchmarked variant to its mode). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "cold.h"
#include "internal.h"
#include "all_variants.h"
#include "pb_bench_shim.h"
#include "validate.h"

#ifndef PB_BENCH_VERSION
#define PB_BENCH_VERSION "unknown"
#endif
#ifndef PB_BENCH_C_FLAGS
#define PB_BENCH_C_FLAGS "unknown"
#endif
#ifndef PB_BENCH_BUILD_TYPE
#define PB_BENCH_BUILD_TYPE "unknown"
#endif
#ifndef PB_BENCH_COMPILER_ID
#define PB_BENCH_COMPILER_ID "unknown"
#endif
#ifndef PB_BENCH_KERNEL_FLAGS
#define PB_BENCH_KERNEL_FLAGS "unknown"
#endif

#define MAX_SIZES 32
#define MAX_SIZE ((size_t)1 << 26)       /* 64 M joints: 4.9 GB per pose; beyond is a typo */
#define COLD_MIN_N ((size_t)262144)      /* sizes that also get a cold-cache run */
#define BATCH_JOINTS 16384               /* joints per timing-loop step (see run_op) */
#define AOS_FLOATS 19                    /* floats per element of a pb_pose_aos: 3 + 4 + 4 x 3 */
#define SKEL_JOINTS 64                   /* joints per character of skeleton ops' crowds */
#define SKEL_FLAGS (PB_OPF_SKELETON | PB_OPF_ROOTS)   /* ops that take call.skel */
#define CLIP_KEYS ((1u << PB_G_POS) | (1u << PB_G_ROT) | (1u << PB_G_SCL))   /* what a clip's keys hold */

/* Scalar parameters for every op (each reads only those its flags name):
 * mid-transition values in the ranges validation covers; alpha not 0, 1/2
 * or 1, which could hit special cases. */
static const pb_params bench_params = { .alpha = 0.37f, .alpha_vel = 2.5f, .dt = 1.0f / 60, .time = 0.2f,
                                        .halflife = 0.1f, .duration = 0.3f, .timescale = 1.25f,
                                        .axis = { 0.0f, 0.0f, 1.0f } };
#define SAMPLE_FRAMES 120                /* sampling ops: a 1 s clip at 120 fps ... */
#define SAMPLE_FPS 120.0f                /* ... of SKEL_JOINTS joints (or n joints) */

static const size_t default_sizes[] = { 64, 256, 1000, 1024, 4096, 10000, 16384, 65536, 262144, 1048576 };
static const size_t quick_sizes[] = { 256, 4096, 65536 };

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
    int started, error, skipped, ratio_missing;
    /* Google Benchmark's aggregates (when there are repetitions) ... */
    int have_med, have_cv;
    double med_cpu_s, med_nspj, med_ratio, cv_nspj;
    /* ... and the single runs (used when there are no aggregates). */
    double *rep;            /* triples: cpu s/iter, ns_per_joint, copy_ratio (NaN if absent) */
    int nrep, caprep;
} spec;

typedef struct stats {
    int ok;                 /* at least one run measured */
    double cpu_s, nspj, cv, ratio;   /* medians; cv and ratio NaN when unknown */
} stats;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Medians and CV of a benchmark: Google Benchmark's own aggregates when it
 * computed them (so the CSV matches the JSON), else from the single runs. */
static stats spec_stats(const spec *s)
{
    stats st = { 0, NAN, NAN, NAN, NAN };
    if (s->have_med) {
        st.ok = 1;
        st.cpu_s = s->med_cpu_s;
        st.nspj = s->med_nspj;
        st.ratio = s->med_ratio;
    } else if (s->nrep > 0) {
        double *t = malloc(sizeof(double) * (size_t)s->nrep);
        if (!t) return st;
        int m = s->nrep, k = 0;
        for (int i = 0; i < m; i++) t[i] = s->rep[3 * i];
        st.cpu_s = median_of(t, m);
        for (int i = 0; i < m; i++) t[i] = s->rep[3 * i + 1];
        st.nspj = median_of(t, m);
        for (int i = 0; i < m; i++)
            if (!isnan(s->rep[3 * i + 2])) t[k++] = s->rep[3 * i + 2];
        if (k == m) st.ratio = median_of(t, k);
        free(t);
        st.ok = 1;
    }
    if (s->have_cv) st.cv = s->cv_nspj;
    else if (s->nrep >= 2) { /* sample standard deviation / mean, as Google Benchmark's cv */
        double mean = 0, ss = 0;
        for (int i = 0; i < s->nrep; i++) mean += s->rep[3 * i + 1];
        mean /= s->nrep;
        for (int i = 0; i < s->nrep; i++) ss += (s->rep[3 * i + 1] - mean) * (s->rep[3 * i + 1] - mean);
        st.cv = sqrt(ss / (s->nrep - 1)) / mean;
    }
    return st;
}

/* ---- buffers ---------------------------------------------------------------------------- */

/* One set of buffers for a call: the poses/arrays the op reads and writes,
 * the call, its kernel arguments, and the same memory as flat spans for the
 * copy roofline. */
typedef struct bufset {
    pb_pose a, b, out;
    pb_clip clip_a;                     /* PB_OPF_CLIP_IN ops: a clip whose keys are pose a (a view, not a copy) */
    float *aos_in_mem, *aos_out_mem;
    pb_pose_aos aos_in, aos_out;
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
 * Cold (cold.h): the set's own arrays flushed from every cache level before
 * each iteration, the timer paused (x86, aarch64); elsewhere distinct sets
 * rotated every iteration where they fit; else the benchmark is skipped. */
/* --mocap / --bvh: inputs from the crowd builder playing real clips (bench_mocap.nclips > 0). */
static pb_mocap bench_mocap;
/* Ops whose inputs are not poses but values of a kind (unnormalized
 * quaternions, rotation vectors, scalars): synthetic inputs even with --mocap. */
#define MOCAP_SKIP (PB_OPF_UNNORM_IN | PB_OPF_SCALAR_IN | PB_OPF_LOG_IN)
#define MOCAP_GAP_S 0.25f   /* pose b: each character's own motion this much later than pose a */

/* Poses a and b from the crowd builder: ceil(n / J) characters playing the
 * loaded clips with clip 0's joint count, each at its own seeded time offset,
 * looping; a at a seeded clock, b MOCAP_GAP_S later (real velocities, a real
 * transition pair); the first n elements of that crowd layout. 0 or -1. */
static int mocap_crowd_inputs(const pb_mocap *m, pb_pose *a, pb_pose *b, uint64_t seed)
{
    size_t J = m->clips[0].joints, C = (a->n + J - 1) / J, nc = 0;
    const pb_clip *clips[16];
    for (size_t i = 0; i < m->nclips && nc < 16; i++)
        if (m->clips[i].joints == J) clips[nc++] = &m->clips[i];
    pb_crowd_desc d = { .clips = clips, .nclips = nc, .characters = C, .seed = seed, .loop = 1,
                        .method = PB_SAMPLE_LINEAR };
    pb_crowd_builder crowd;
    pb_pose full = { 0 };
    int fail = pb_crowd_builder_init(&crowd, &d) != PB_OK || pb_pose_alloc(&full, J * C) != PB_OK;
    float clock = (float)(seed % 1000) * 0.01f;
    for (int k = 0; k < 2 && !fail; k++) {
        pb_pose *dst = k ? b : a;
        fail = pb_crowd_build(&crowd, clock + (float)k * MOCAP_GAP_S, &full) != PB_OK;
        for (int q = 0; q < PB_PLANES && !fail; q++) memcpy(dst->plane[q], full.plane[q], dst->n * sizeof(float));
    }
    pb_pose_free(&full);
    pb_crowd_builder_free(&crowd);
    return fail ? -1 : 0;
}

typedef struct pool {
    int valid;
    pb_op op;
    size_t n;
    int cold;
    int nsets;
    int flush;                          /* cold: flush the set before each iteration (cold.h) */
    bufset *sets;
    pb_skeleton skel;                   /* SKEL_FLAGS ops (shared by the sets: read only) */
    pb_clip clip;                       /* PB_OPF_SAMPLE ops: the clip (generated) and per-character offsets */
    const pb_clip *sclip;               /* the clip they sample: &clip, or a --mocap clip (borrowed) */
    float *offsets;
    size_t n_work;                      /* elements processed: n, or for chains the largest 3 x k <= n */
    size_t bytes_read, bytes_written;   /* per call: 4 x floats read / written */
} pool;

static void aos_setup(pb_pose_aos *a, float *p, size_t n)
{
    a->n = n;
    a->pos = (pb_vec3 *)p; p += 3 * n;
    a->rot = (pb_quat *)p; p += 4 * n;
    a->scl = (pb_vec3 *)p; p += 3 * n;
    a->vel = (pb_vec3 *)p; p += 3 * n;
    a->ang = (pb_vec3 *)p; p += 3 * n;
    a->svl = (pb_vec3 *)p;
}

static int planes_of(uint32_t mask)
{
    int c = 0;
    for (int g = 0; g < PB_GROUPS; g++)
        if (mask & (1u << g)) c += pb_group_size((pb_group)g);
    return c;
}

static void add_planes(const pb_pose *p, uint32_t mask, const float **in, size_t *len, int *k)
{
    for (int g = 0; g < PB_GROUPS; g++)
        if (mask & (1u << g))
            for (int i = 0; i < pb_group_size((pb_group)g); i++) {
                in[*k] = p->plane[pb_group_first((pb_group)g) + i];
                len[(*k)++] = p->n;
            }
}

static void bufset_free(bufset *s)
{
    pb_pose_free(&s->a); pb_pose_free(&s->b); pb_pose_free(&s->out);
    free(s->aos_in_mem); free(s->aos_out_mem);
    memset(s, 0, sizeof *s);
}

static void pool_free(pool *p)
{
    for (int i = 0; i < p->nsets; i++) bufset_free(&p->sets[i]);
    free(p->sets);
    pb_skeleton_free(&p->skel);
    pb_clip_free(&p->clip);
    free(p->offsets);
    memset(p, 0, sizeof *p);
}

/* Bytes one set allocates (what the cold rotation costs in memory). */
static size_t set_alloc_bytes(const pb_op_info *info, size_t n)
{
    size_t pose = (size_t)PB_PLANES * pb_padded(n) * sizeof(float) + PB_PLANES * PB_ALIGN;
    size_t aos = AOS_FLOATS * n * sizeof(float);
    int a = info->in_a || (info->flags & PB_OPF_CLIP_IN);
    return (a ? pose : 0) + (info->in_b ? pose : 0) + (info->out ? pose : 0) +
           ((info->flags & PB_OPF_AOS_IN) ? aos : 0) + ((info->flags & PB_OPF_AOS_OUT) ? aos : 0);
}

static int pool_build(pool *p, pb_op op, size_t n_req, int cold, uint64_t seed, char *err, size_t errlen)
{
    const pb_op_info *info = pb_op_get(op);
    memset(p, 0, sizeof *p);
    /* Chains come three elements each (root, mid, end): time the largest 3 x k
     * <= n and count joints per element actually processed. */
    size_t n = (info->flags & PB_OPF_CHAIN) ? n_req - n_req % 3 : n_req;
    /* --mocap: skeleton and sampling ops run whole characters of the real skeleton */
    const pb_mocap *mc = bench_mocap.nclips && !(info->flags & MOCAP_SKIP) ? &bench_mocap : NULL;
    size_t mJ = mc ? mc->clips[0].joints : 0;
    if (mc && (info->flags & (SKEL_FLAGS | PB_OPF_SAMPLE))) n = n_req >= mJ ? n_req - n_req % mJ : mJ;
    p->n_work = n;
    /* the bench's poses have velocity planes: ops with optional velocity groups move them too */
    size_t rd = (size_t)planes_of(info->in_a | (info->in_a ? info->opt : 0)) + (size_t)planes_of(info->in_b) +
                ((info->flags & PB_OPF_AOS_IN) ? AOS_FLOATS : 0) + ((info->flags & PB_OPF_CLIP_IN) ? planes_of(CLIP_KEYS) : 0);
    /* Sampling reads keys by gathers: pos/rot/scl of two (linear) or four
     * (cubic) keys per output element, counted as if streamed. */
    if (info->flags & PB_OPF_SAMPLE) rd = 10 * (op == PB_OP_sample_cubic ? 4 : 2);
    size_t wr = (size_t)planes_of(info->out | (info->out ? info->opt : 0)) +
                ((info->flags & PB_OPF_AOS_OUT) ? AOS_FLOATS : 0);
    p->bytes_read = rd * n * sizeof(float);
    p->bytes_written = wr * n * sizeof(float);

    int nsets = 1;
    if (cold) {
        char why[160];
        size_t caches = pb_cold_cache_bytes(pb_bench_cache_total_bytes(), pb_bench_llc_bytes(), why, sizeof why);
        pb_cold_plan cp = pb_cold_choose(p->bytes_read + p->bytes_written, set_alloc_bytes(info, n), caches);
        if (why[0]) snprintf(cp.why, sizeof cp.why, PB_COLD_SKIP_PREFIX "cold cache: %s", why);
        if (why[0] || cp.method == PB_COLD_SKIP) {
            snprintf(err, errlen, "%s", cp.why);
            return -1;
        }
        nsets = cp.nsets;
        p->flush = cp.method == PB_COLD_FLUSH;
    }
    p->sets = calloc((size_t)nsets, sizeof *p->sets);
    if (!p->sets) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    p->nsets = nsets;

    /* One generated case, copied into every set. */
    pb_pose ga = { 0 }, gb = { 0 };
    const pb_variant *scalar = NULL;
    int fail = pb_pose_alloc(&ga, n) != PB_OK || pb_pose_alloc(&gb, n) != PB_OK ||
               pb_variant_find("scalar", &scalar) != PB_OK;
    if (!fail && mc) fail = mocap_crowd_inputs(mc, &ga, &gb, seed) != 0;
    else if (!fail) pb_gen_case(&ga, &gb, PB_CLASS_MIXED, seed, info);
    if (!fail && mc && (info->flags & SKEL_FLAGS)) {
        fail = pb_crowd_skeleton(&p->skel, pb_mocap_skeleton(mc, 0), n / mJ) != PB_OK;   /* real bones: no rescale */
    } else if (!fail && (info->flags & SKEL_FLAGS)) {
        /* The validation's skeleton shapes: a crowd of 64-joint characters
         * (random parents, depth <= 16) when 64 divides n, else one n-joint
         * skeleton (depth <= 24); bone-scale poses. */
        size_t joints = n % SKEL_JOINTS == 0 ? SKEL_JOINTS : n;
        int32_t *parents = malloc(joints * sizeof *parents);
        fail = !parents;
        if (parents) {
            pb_gen_parents(parents, joints, joints > SKEL_JOINTS ? 24 : 16, seed);
            fail = pb_skeleton_init(&p->skel, parents, joints, n / joints) != PB_OK;
            free(parents);
        }
        if (!fail) {
            pb_gen_bone_scale(&ga);
            pb_gen_bone_scale(&gb);
        }
    }
    if (!fail && (info->flags & PB_OPF_TARGET)) pb_gen_targets(&ga, &gb, PB_CLASS_RANDOM, bench_params.axis, seed);
    if (!fail && (info->flags & PB_OPF_CHAIN)) {
        if (mc) pb_mocap_chains(mc, &ga, &gb, seed);   /* the clips' legs, targets near the feet */
        else pb_gen_chains(&ga, &gb, PB_CLASS_MIXED, seed);
    }
    p->sclip = &p->clip;
    if (!fail && mc && (info->flags & PB_OPF_SAMPLE)) {
        /* characters of the real skeleton at random times in clip 0 */
        p->sclip = pb_mocap_clip(mc, 0);
        size_t chars = n / mJ;
        fail = !(p->offsets = malloc(chars * sizeof(float)));
        if (!fail)
            pb_gen_offsets(p->offsets, chars, PB_CLASS_RANDOM, p->sclip->frames, p->sclip->fps, bench_params.time, seed);
    } else if (!fail && (info->flags & PB_OPF_SAMPLE)) {
        /* characters of SKEL_JOINTS joints (or one of n) at random times in a 1 s clip */
        size_t joints = n % SKEL_JOINTS == 0 ? SKEL_JOINTS : n, chars = n / joints;
        pb_pose dummy = { 0 };
        fail = pb_clip_alloc(&p->clip, SAMPLE_FRAMES, joints, SAMPLE_FPS) != PB_OK ||
               pb_pose_alloc(&dummy, SAMPLE_FRAMES * joints) != PB_OK || !(p->offsets = malloc(chars * sizeof(float)));
        if (!fail) {
            pb_gen_case(&p->clip.pose, &dummy, PB_CLASS_RANDOM, seed, info);
            pb_gen_offsets(p->offsets, chars, PB_CLASS_RANDOM, SAMPLE_FRAMES, SAMPLE_FPS, bench_params.time, seed);
        }
        pb_pose_free(&dummy);
    }
    for (int i = 0; i < nsets && !fail; i++) {
        bufset *s = &p->sets[i];
        if (info->in_a || (info->flags & PB_OPF_CLIP_IN))
            fail |= pb_pose_alloc(&s->a, n) != PB_OK || pb_pose_copy(&s->a, &ga) != PB_OK;
        if (info->in_b) fail |= pb_pose_alloc(&s->b, n) != PB_OK || pb_pose_copy(&s->b, &gb) != PB_OK;
        if (info->out) fail |= pb_pose_alloc(&s->out, n) != PB_OK;
        if (fail) break;
        if (info->flags & PB_OPF_AOS_IN) {
            s->aos_in_mem = malloc(AOS_FLOATS * n * sizeof(float));
            if (!s->aos_in_mem) { fail = 1; break; }
            aos_setup(&s->aos_in, s->aos_in_mem, n);
            pb_call to = { .a = &ga, .aos_out = &s->aos_in };   /* the case's pose a, engine layout */
            fail |= pb_run(PB_OP_pose_to_aos, scalar, &to) != PB_OK;
        }
        if (info->flags & PB_OPF_AOS_OUT) {
            s->aos_out_mem = malloc(AOS_FLOATS * n * sizeof(float));
            if (!s->aos_out_mem) { fail = 1; break; }
            memset(s->aos_out_mem, 0, AOS_FLOATS * n * sizeof(float));   /* fault the pages in */
            aos_setup(&s->aos_out, s->aos_out_mem, n);
        }
        if (info->flags & PB_OPF_CLIP_IN) {
            /* frames x joints = n: SKEL_JOINTS-joint frames when they divide n, else the largest
             * power-of-two joint count that does (1000 = 125 x 8), down to one joint */
            size_t joints = SKEL_JOINTS;
            while (n % joints) joints /= 2;
            s->clip_a = (pb_clip){ .frames = n / joints, .joints = joints, .frame_time = 1.0f / SAMPLE_FPS,
                                   .fps = SAMPLE_FPS, .pose = s->a };
        }
        s->call = (pb_call){ .a = info->in_a ? &s->a : NULL, .b = info->in_b ? &s->b : NULL,
                             .out = info->out ? &s->out : NULL,
                             .aos_in = (info->flags & PB_OPF_AOS_IN) ? &s->aos_in : NULL,
                             .aos_out = (info->flags & PB_OPF_AOS_OUT) ? &s->aos_out : NULL,
                             .skel = (info->flags & SKEL_FLAGS) ? &p->skel : NULL,
                             .clip = (info->flags & PB_OPF_SAMPLE) ? p->sclip
                                     : (info->flags & PB_OPF_CLIP_IN) ? &s->clip_a : NULL,
                             .offsets = (info->flags & PB_OPF_SAMPLE) ? p->offsets : NULL,
                             .params = bench_params };
        /* The kernel block exactly as pb_run builds it. */
        pb_kargs_from_call(&s->k, &s->call);
        s->k.n = n;
        s->k.n_padded = pb_padded(n);
        /* The copy roofline's view: every array the op reads, every array it writes. */
        if (info->in_a) add_planes(&s->a, info->in_a | info->opt, s->in, s->in_len, &s->nin);
        if (info->in_b) add_planes(&s->b, info->in_b, s->in, s->in_len, &s->nin);
        if (info->flags & PB_OPF_CLIP_IN) add_planes(&s->a, CLIP_KEYS, s->in, s->in_len, &s->nin);
        if (info->flags & PB_OPF_SAMPLE)   /* the keys' pos/rot/scl planes, as many floats as counted */
            for (int pl = 0; pl < 10; pl++) {
                s->in[s->nin] = p->sclip->pose.plane[pl];
                s->in_len[s->nin++] = p->sclip->pose.n < rd / 10 * n ? p->sclip->pose.n : rd / 10 * n;
            }
        if (info->flags & PB_OPF_AOS_IN) {
            s->in[s->nin] = s->aos_in_mem;
            s->in_len[s->nin++] = AOS_FLOATS * n;
        }
        if (info->out) add_planes(&s->out, info->out | info->opt, (const float **)s->outp, s->out_len, &s->nout);
        if (info->flags & PB_OPF_AOS_OUT) {
            s->outp[s->nout] = s->aos_out_mem;
            s->out_len[s->nout++] = AOS_FLOATS * n;
        }
    }
    pb_pose_free(&ga);
    pb_pose_free(&gb);
    if (fail) {
        snprintf(err, errlen, "cannot allocate or fill the inputs for n = %zu: %s", n,
                 pb_last_error()[0] ? pb_last_error() : "out of memory");
        pool_free(p);
        return -1;
    }
    p->valid = 1;
    p->op = op;
    p->n = n_req;   /* the requested size: what pool_get matches on */
    p->cold = cold;
    return 0;
}

/* Can this harness fill a call for op? It fills poses, AoS arrays, a
 * skeleton and scalar parameters; an op that needs more is refused by
 * pb_run here, and is skipped with pb_run's message rather than timed wrong. */
static int probe_op(pb_op op, char *why, size_t len)
{
    pool p;
    const pb_variant *scalar = NULL;
    if (pool_build(&p, op, PB_PAD, 0, 1, why, len) != 0) return -1;
    int r = 0;
    if (pb_variant_find("scalar", &scalar) != PB_OK || pb_run(op, scalar, &p.sets[0].call) != PB_OK) {
        snprintf(why, len, "%s", pb_last_error());
        r = -1;
    }
    pool_free(&p);
    return r;
}

/* ---- the copy roofline ----------------------------------------------------------------- */

/* Where input bytes beyond the output's go: small enough to stay in L1, so
 * it adds reads of the op's bytes but no memory traffic of its own. */
#define SCRATCH_FLOATS 4096
static float copy_scratch[SCRATCH_FLOATS];

static void read_into_scratch(const float *p, size_t floats)
{
    for (size_t i = 0; i < floats; i += SCRATCH_FLOATS) {
        size_t k = floats - i < SCRATCH_FLOATS ? floats - i : SCRATCH_FLOATS;
        memcpy(copy_scratch, p + i, k * sizeof(float));
    }
}

/* Move exactly the op's bytes with memcpy: the input arrays, taken as one
 * stream, are copied into the output arrays, taken as one stream; input
 * bytes beyond the output's are copied into an L1-resident scratch buffer
 * (read at memcpy's speed, nothing written to memory), output bytes beyond
 * the input's are written by memset. Only the n elements are touched, never
 * the padding, which must stay identity for the op benchmarks. */
static void copy_set(const bufset *s)
{
    int i = 0, o = 0;
    size_t ioff = 0, ooff = 0;
    while (i < s->nin && o < s->nout) {
        size_t k = s->in_len[i] - ioff, room = s->out_len[o] - ooff;
        if (room < k) k = room;
        memcpy(s->outp[o] + ooff, s->in[i] + ioff, k * sizeof(float));
        ioff += k;
        ooff += k;
        if (ioff == s->in_len[i]) { i++; ioff = 0; }
        if (ooff == s->out_len[o]) { o++; ooff = 0; }
    }
    for (; i < s->nin; i++, ioff = 0) read_into_scratch(s->in[i] + ioff, s->in_len[i] - ioff);
    for (; o < s->nout; o++, ooff = 0) memset(s->outp[o] + ooff, 0, (s->out_len[o] - ooff) * sizeof(float));
}

/* Cold runs that flush: the set's arrays out of every cache, the timer paused. */
static void cold_flush(pb_bench_state *st, const pool *p, const bufset *s)
{
    if (!p->flush) return;
    pb_bench_pause_timing(st);
    pb_cold_flush(s->in, s->in_len, s->nin);
    pb_cold_flush((const float *const *)s->outp, s->out_len, s->nout);
    pb_bench_resume_timing(st);
}

/* ---- the run ------------------------------------------------------------------------------ */

static struct harness {
    spec *specs;
    size_t nspecs;
    pool pool;
    uint64_t seed;
    int via_run;              /* time pb_run (validation included) instead of the kernel table */
    size_t total, nstarted;   /* benchmarks the filter selects / started so far */
    struct timespec t0;
    spec *cur;
} H;

static double seconds_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

static const char *fmt_dur(double s, char *buf, size_t len)
{
    long t = (long)(s + 0.5);
    if (t >= 3600) snprintf(buf, len, "%ldh%02ldm%02lds", t / 3600, t / 60 % 60, t % 60);
    else if (t >= 60) snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
    else snprintf(buf, len, "%.1fs", s);
    return buf;
}

/* Progress on stderr: one line as each benchmark starts. */
static void note_start(spec *s)
{
    H.cur = s;
    if (s->started) return;
    s->started = 1;
    H.nstarted++;
    double el = seconds_since(&H.t0);
    char e[32], r[32];
    size_t done = H.nstarted - 1;
    if (done > 0 && H.total >= H.nstarted)
        fprintf(stderr, "[%zu/%zu] %s  (elapsed %s, about %s left)\n", H.nstarted, H.total, s->name,
                fmt_dur(el, e, sizeof e), fmt_dur(el / (double)done * (double)(H.total - done), r, sizeof r));
    else
        fprintf(stderr, "[%zu/%zu] %s  (elapsed %s)\n", H.nstarted, H.total, s->name, fmt_dur(el, e, sizeof e));
}

static int pool_get(const spec *s, char *err, size_t errlen)
{
    pool *p = &H.pool;
    if (p->valid && p->op == s->op && p->n == s->n && p->cold == s->cold) return 0;
    pool_free(p);
    /* Distinct inputs per op and size, all derived from the run's seed. */
    uint64_t seed = H.seed ^ ((uint64_t)s->op * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)s->n << 20);
    return pool_build(p, s->op, s->n, s->cold, seed, err, errlen);
}

/* Iterations per timing-loop step: enough calls that the loop's own cost
 * (a call into the shim per step) is negligible next to the work. */
static int64_t batch_for(size_t n) { return n >= BATCH_JOINTS ? 1 : (int64_t)(BATCH_JOINTS / n); }

static void set_common_counters(pb_bench_state *st, const spec *s, const pool *p)
{
    double n = (double)p->n_work, bytes = (double)(p->bytes_read + p->bytes_written);
    (void)s;
    const unsigned per_iter_rate = PB_BC_RATE | PB_BC_ITER_INVARIANT;
    pb_bench_set_label(st, s->cold ? "cold" : "warm");
    /* CPU seconds per iteration / (n x 1e-9) = ns per joint. */
    pb_bench_set_counter(st, "ns_per_joint", n * 1e-9, per_iter_rate | PB_BC_INVERT);
    pb_bench_set_counter(st, "joints_per_s", n, per_iter_rate);
    pb_bench_set_counter(st, "bytes_per_s", bytes, per_iter_rate | PB_BC_1024);
    pb_bench_set_counter(st, "bytes", bytes, PB_BC_PLAIN);
    pb_bench_set_counter(st, "bytes_per_joint", bytes / n, PB_BC_PLAIN);
}

static void run_copy(pb_bench_state *st, void *user)
{
    spec *s = user;
    char err[256];
    note_start(s);
    if (pool_get(s, err, sizeof err) != 0) {
        pb_bench_skip_with_error(st, err);
        return;
    }
    const pool *p = &H.pool;
    const int64_t batch = batch_for(s->n);
    int k = 0;
    while (pb_bench_keep_running_batch(st, batch))
        for (int64_t i = 0; i < batch; i++) {
            cold_flush(st, p, &p->sets[k]);
            copy_set(&p->sets[k]);
            if (++k == p->nsets) k = 0;
        }
    pb_bench_clobber_memory();
    set_common_counters(st, s, p);
}

/* The op through the kernel table, the way pb_run calls it once the
 * arguments are valid. Every set is validated by one pb_run call first (that
 * also runs the kernel once, warming the warm case; a cold rotation starts
 * with the set used longest ago). Why not pb_run in the loop: its argument
 * checks (layout and identity padding of every pose, overlap of every plane,
 * CPU features, parameters) cost a fixed 60-130 ns per call, measured with
 * --pb-run (which times through pb_run instead) on the dev VM (AMD EPYC,
 * Zen 5): at n = 64 that is 6-12x the SIMD kernels (quat_mul avx512: 10 ns
 * per call through the table, 123 ns through pb_run) and +70-130% even for
 * scalar quat_mul and quat_abs; it is lost in the noise only for calls of
 * microseconds (blend_static at n = 64). */
static void run_op(pb_bench_state *st, void *user)
{
    spec *s = user;
    char err[512];
    note_start(s);
    if (pool_get(s, err, sizeof err) != 0) {
        pb_bench_skip_with_error(st, err);
        return;
    }
    const pool *p = &H.pool;
    for (int i = 0; i < p->nsets; i++)
        if (pb_run(s->op, s->v, &p->sets[i].call) != PB_OK) {
            snprintf(err, sizeof err, "pb_run refused the call: %s", pb_last_error());
            pb_bench_skip_with_error(st, err);
            return;
        }
    const pb_kernel_fn fn = s->v->table[s->op];
    const int64_t batch = batch_for(s->n);
    int k = 0, bad = 0;
    if (H.via_run == 2) {   /* --plan: one plan per buffer set, made outside the timing */
        pb_plan *plans[64] = { 0 };
        int np = p->nsets < 64 ? p->nsets : 64;
        for (int i = 0; i < np; i++) bad |= pb_plan_create(&plans[i], s->op, s->v, &p->sets[i].call) != PB_OK;
        while (!bad && pb_bench_keep_running_batch(st, batch))
            for (int64_t i = 0; i < batch; i++) {
                cold_flush(st, p, &p->sets[k]);
                bad |= pb_plan_run(plans[k]) != PB_OK;
                if (++k == np) k = 0;
            }
        for (int i = 0; i < np; i++) pb_plan_destroy(plans[i]);
    } else if (H.via_run) {
        while (pb_bench_keep_running_batch(st, batch))
            for (int64_t i = 0; i < batch; i++) {
                cold_flush(st, p, &p->sets[k]);
                bad |= pb_run(s->op, s->v, &p->sets[k].call) != PB_OK;
                if (++k == p->nsets) k = 0;
            }
    } else {
        while (pb_bench_keep_running_batch(st, batch))
            for (int64_t i = 0; i < batch; i++) {
                cold_flush(st, p, &p->sets[k]);
                fn(&p->sets[k].k);
                if (++k == p->nsets) k = 0;
            }
    }
    pb_bench_clobber_memory();
    if (bad) {
        pb_bench_skip_with_error(st, "pb_run failed inside the timing loop");
        return;
    }
    set_common_counters(st, s, p);
    /* copy_ratio = (CPU s per iteration) / (the copy roofline's median CPU s
     * per iteration), via an inverted per-iteration rate. The copy benchmark
     * is registered just before this one's group and Google Benchmark runs
     * benchmarks one after another, all repetitions of one before the next,
     * reporting each when its repetitions are done: so its median is in the
     * table by now. If it did not run (filtered out, or random interleaving)
     * the counter is left out rather than guessed. */
    stats c = s->copy ? spec_stats(s->copy) : (stats){ 0, NAN, NAN, NAN, NAN };
    if (c.ok && c.cpu_s > 0)
        pb_bench_set_counter(st, "copy_ratio", c.cpu_s, PB_BC_RATE | PB_BC_ITER_INVARIANT | PB_BC_INVERT);
    else
        s->ratio_missing = 1;
}

static double counter_of(const pb_bench_result *r, const char *name)
{
    for (int i = 0; i < r->ncounters; i++)
        if (!strcmp(r->counter_name[i], name)) return r->counter_value[i];
    return NAN;
}

/* Reporter hook: every run the display reporter sees. */
static void on_result(const pb_bench_result *r, void *user)
{
    (void)user;
    spec *s = NULL;
    if (H.cur && !strcmp(H.cur->name, r->name)) s = H.cur;
    for (size_t i = 0; !s && i < H.nspecs; i++)
        if (!strcmp(H.specs[i].name, r->name)) s = &H.specs[i];
    if (!s) return;
    if (r->error) {
        if (pb_cold_is_skip(r->label)) s->skipped = 1;   /* a cold run this host cannot make: not a failure */
        else s->error = 1;
        return;
    }
    if (!r->aggregate[0]) {
        if (s->nrep == s->caprep) {
            int cap = s->caprep ? 2 * s->caprep : 8;
            double *t = realloc(s->rep, sizeof(double) * 3 * (size_t)cap);
            if (!t) return;
            s->rep = t;
            s->caprep = cap;
        }
        s->rep[3 * s->nrep] = r->cpu_time;
        s->rep[3 * s->nrep + 1] = counter_of(r, "ns_per_joint");
        s->rep[3 * s->nrep + 2] = counter_of(r, "copy_ratio");
        s->nrep++;
    } else if (!strcmp(r->aggregate, "median")) {
        s->have_med = 1;
        s->med_cpu_s = r->cpu_time;
        s->med_nspj = counter_of(r, "ns_per_joint");
        s->med_ratio = counter_of(r, "copy_ratio");
    } else if (!strcmp(r->aggregate, "cv")) {
        s->have_cv = 1;
        s->cv_nspj = counter_of(r, "ns_per_joint");
    }
}

/* ---- options, context, output ----------------------------------------------------------- */

static void bench_usage(FILE *f)
{
    fputs("usage: posebench bench [--op NAME]... [--variant NAME]... [--sizes N,N,...] [--quick] [--emulated]\n"
          "                       [--json FILE] [--csv FILE] [--seed N] [--pb-run] [--plan] [--mocap] [--bvh FILE]...\n"
          "                       [-- <Google Benchmark flags>]\n"
          "  --op NAME       only this op (repeatable; default: every op)\n"
          "  --variant NAME  only this variant (repeatable; default: every native variant this CPU runs);\n"
          "                  with --emulated an ISA name also selects its -emu build\n"
          "  --sizes LIST    joint counts (default 64,256,1000,1024,4096,10000,16384,65536,262144,1048576;\n"
          "                  sizes >= 262144 also get a cold-cache run)\n"
          "  --quick         sizes 256,4096,65536, 3 repetitions, short minimum time\n"
          "  --emulated      also time the emulated (-emu) variants: slow, for completeness, not for speed\n"
          "  --json FILE     Google Benchmark JSON (same as -- --benchmark_out=FILE --benchmark_out_format=json)\n"
          "  --csv FILE      summary: op,variant,mode,n,ns_per_joint_median,ns_per_joint_cv,copy_ratio,\n"
          "                  speedup_vs_scalar,cache\n"
          "  --seed N        input seed (default: from the clock and pid, printed)\n"
          "  --pb-run        time calls through pb_run (argument validation included), not the kernel table\n"
          "  --plan          time calls through pb_plan_run (plans made once per buffer set)\n"
          "  --mocap         inputs from the crowd builder playing real motion capture (the packaged CMU clips,\n"
          "                  /usr/share/assimp/models/BVH): real skeletons for fk/bk, real legs for IK\n"
          "  --bvh FILE      the same with your own clips (repeatable; implies --mocap)\n"
          "Google Benchmark flags after --, e.g. --benchmark_filter=REGEX, --benchmark_min_time=SECONDS,\n"
          "--benchmark_repetitions=N, --benchmark_format=json|console, --benchmark_out=FILE.\n",
          f);
}

static int parse_u64(const char *s, uint64_t *v)
{
    char *end;
    if (!*s || *s == '-' || *s == '+') return -1;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || *end) return -1;
    *v = x;
    return 0;
}

static int parse_sizes(const char *list, size_t *sizes, int *count)
{
    char buf[512];
    if (strlen(list) >= sizeof buf) return -1;
    strcpy(buf, list);
    *count = 0;
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        uint64_t v;
        if (parse_u64(tok, &v) || v == 0 || v > MAX_SIZE || *count == MAX_SIZES) return -1;
        int dup = 0;
        for (int i = 0; i < *count; i++) dup |= sizes[i] == v;
        if (!dup) sizes[(*count)++] = (size_t)v;
    }
    return *count ? 0 : -1;
}

static void add_context(const char *variants, const size_t *sizes, int nsizes, int quick)
{
    char buf[1024];
    pb_bench_add_context("posebench_version", PB_BENCH_VERSION);
    pb_cpu_model(buf, sizeof buf);
    pb_bench_add_context("cpu_model", buf);
    pb_bench_add_context("cpu_features", pb_cpu_feature_names(pb_cpu_features(), buf, sizeof buf));
    pb_bench_add_context("compiler", PB_BENCH_COMPILER_ID " " __VERSION__);
    pb_bench_add_context("c_flags", PB_BENCH_C_FLAGS);
    pb_bench_add_context("kernel_flags", PB_BENCH_KERNEL_FLAGS);
    pb_bench_add_context("build_type", PB_BENCH_BUILD_TYPE);
    pb_bench_add_context("variants", variants);
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < nsizes && used < sizeof buf; i++)
        used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%zu", i ? "," : "", sizes[i]);
    pb_bench_add_context("sizes", buf);
    snprintf(buf, sizeof buf, "%" PRIu64, H.seed);
    pb_bench_add_context("seed", buf);
    if (bench_mocap.nclips) {
        const pb_mocap *m = &bench_mocap;
        size_t used2 = (size_t)snprintf(buf, sizeof buf, "mocap crowd: the crowd builder playing %zu clip(s) of "
                                        "%zu joints (", m->nclips, m->clips[0].joints);
        for (size_t i = 0; i < m->nclips && used2 < sizeof buf; i++)
            used2 += (size_t)snprintf(buf + used2, sizeof buf - used2, "%s%zu frames at %g fps", i ? ", " : "",
                                      m->clips[i].frames, (double)m->clips[i].fps);
        if (used2 < sizeof buf)
            snprintf(buf + used2, sizeof buf - used2, "), ceil(n / joints) characters at seeded offsets: a at a "
                     "clock, b %g s later; ops taking unnormalized, log or scalar inputs keep the mixed class",
                     (double)MOCAP_GAP_S);
        pb_bench_add_context("input_class", buf);
        pb_bench_add_context("skeleton", "skeleton and sampling ops: whole characters of the mocap skeleton "
                                         "(n rounded down to a multiple of its joints; ns_per_joint counts those); "
                                         "chains: the clips' legs; skeleton arrays not counted in bytes");
    } else {
        pb_bench_add_context("input_class", "mixed");
        pb_bench_add_context("skeleton", "skeleton ops: 64-joint characters (random parents, depth <= 16) x n/64 "
                                         "when 64 divides n, else one n-joint skeleton (depth <= 24); skeleton "
                                         "arrays not counted in bytes");
    }
    pb_bench_add_context("quick", quick ? "true" : "false");
    pb_bench_add_context("timing", "cpu_time");
    pb_bench_add_context("call_path", H.via_run == 2 ? "pb_plan_run" : H.via_run ? "pb_run" : "kernel_table");
    pb_bench_add_context("copy_roofline", "copy/<op>/<n>: memcpy of the op's input arrays into its output arrays "
                                          "for the bytes it writes, memcpy of the bytes it reads beyond that into "
                                          "a 16 KiB L1-resident scratch, memset of the bytes it writes beyond that");
    pb_cold_describe(buf, sizeof buf, COLD_MIN_N, pb_bench_cache_total_bytes(), pb_bench_llc_bytes());
    pb_bench_add_context("cold_cache", buf);
}

static void csv_num(FILE *f, double v)
{
    if (isfinite(v)) fprintf(f, ",%.6g", v);
    else fputs(",", f);
}

static int write_csv(FILE *f)
{
    fputs("op,variant,mode,n,ns_per_joint_median,ns_per_joint_cv,copy_ratio,speedup_vs_scalar,cache\n", f);
    for (size_t i = 0; i < H.nspecs; i++) {
        const spec *s = &H.specs[i];
        if (!s->v || s->error) continue;
        stats st = spec_stats(s);
        if (!st.ok) continue;   /* not run (filtered out) */
        double speedup = NAN;
        if (s->scalar) {
            stats sc = spec_stats(s->scalar);
            if (sc.ok && !s->scalar->error && st.nspj > 0) speedup = sc.nspj / st.nspj;
        }
        fprintf(f, "%s,%s,%s,%zu", pb_op_get(s->op)->name, pb_variant_name(s->v),
                pb_variant_mode(s->v) == PB_MODE_NATIVE ? "native" : "emulated", s->n);
        csv_num(f, st.nspj);
        csv_num(f, st.cv);
        csv_num(f, st.ratio);
        csv_num(f, speedup);
        fprintf(f, ",%s\n", s->cold ? "cold" : "warm");
    }
    return ferror(f) ? -1 : 0;
}

static void free_specs(void)
{
    for (size_t i = 0; i < H.nspecs; i++) free(H.specs[i].rep);
    free(H.specs);
    pool_free(&H.pool);
    memset(&H, 0, sizeof H);
}

int pb_bench_main(int argc, char **argv)
{
    int op_on[PB_OP_COUNT] = { 0 }, any_op = 0, quick = 0, emulated = 0, have_seed = 0, nsizes = 0;
    size_t sizes[MAX_SIZES];
    const char *var_arg[64];
    int nvar_arg = 0;
    const char *json = NULL, *csv = NULL, *bvh[16];
    int mocap = 0, nbvh = 0;
    uint64_t seed = 0;
    char **gb_user = calloc((size_t)argc + 1, sizeof *gb_user);
    int ngb_user = 0;
    if (!gb_user) return 2;
    memset(&H, 0, sizeof H);

#define BAD(...) do { fprintf(stderr, "posebench bench: " __VA_ARGS__); fputc('\n', stderr); free(gb_user); return 2; } while (0)
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        if (!strcmp(a, "--")) {
            while (++i < argc) gb_user[ngb_user++] = argv[i];
        } else if (!strncmp(a, "--benchmark_", 12)) {
            gb_user[ngb_user++] = argv[i];
        } else if (!strcmp(a, "--op") && has) {
            pb_op op;
            if (pb_op_find(argv[++i], &op) != PB_OK) BAD("%s", pb_last_error());
            op_on[op] = any_op = 1;
        } else if (!strcmp(a, "--variant") && has) {
            if (nvar_arg == (int)(sizeof var_arg / sizeof var_arg[0])) BAD("too many --variant options");
            var_arg[nvar_arg++] = argv[++i];
        } else if (!strcmp(a, "--sizes") && has) {
            if (parse_sizes(argv[++i], sizes, &nsizes))
                BAD("--sizes expects a comma-separated list of joint counts from 1 to %zu (at most %d), got '%s'",
                    MAX_SIZE, MAX_SIZES, argv[i]);
        } else if (!strcmp(a, "--json") && has) json = argv[++i];
        else if (!strcmp(a, "--csv") && has) csv = argv[++i];
        else if (!strcmp(a, "--seed") && has) {
            if (parse_u64(argv[++i], &seed)) BAD("--seed expects a non-negative integer, got '%s'", argv[i]);
            have_seed = 1;
        } else if (!strcmp(a, "--quick")) quick = 1;
        else if (!strcmp(a, "--emulated")) emulated = 1;
        else if (!strcmp(a, "--pb-run")) H.via_run = 1;
        else if (!strcmp(a, "--plan")) H.via_run = 2;
        else if (!strcmp(a, "--mocap")) mocap = 1;
        else if (!strcmp(a, "--bvh") && has) {
            if (nbvh == (int)(sizeof bvh / sizeof bvh[0])) BAD("more than %d --bvh files", nbvh);
            bvh[nbvh++] = argv[++i];
            mocap = 1;
        }
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            bench_usage(stdout);
            free(gb_user);
            return 0;
        } else {
            fprintf(stderr, "posebench bench: unknown or incomplete option '%s'\n", a);
            bench_usage(stderr);
            free(gb_user);
            return 2;
        }
    }

    if (emulated && !pb_all_variant_emulated())
        BAD("--emulated: this build has no emulated variants (configure with -DPB_EMULATED=ON)");
    /* Variants: named ones (each must exist and run here), else every
     * native one this CPU runs; --emulated adds the -emu builds. */
    const pb_variant *vars[32];
    int nvars = 0;
    for (size_t i = 0; i < pb_all_variant_count(); i++) {
        const pb_variant *v = pb_all_variant_at(i);
        int want;
        if (nvar_arg) {
            want = 0;
            for (int j = 0; j < nvar_arg; j++)
                want |= !strcmp(var_arg[j], pb_variant_name(v)) ||
                        (emulated && pb_variant_mode(v) == PB_MODE_EMULATED && !strcmp(var_arg[j], pb_variant_isa(v)));
        } else {
            want = pb_variant_mode(v) == PB_MODE_NATIVE || emulated;
        }
        if (!want) continue;
        if (pb_variant_check(v) != PB_OK) {
            /* Named and not runnable: an error, unless --emulated also asked for its -emu build. */
            if (nvar_arg && !emulated) BAD("%s", pb_last_error());
            if (nvar_arg) fprintf(stderr, "posebench bench: not timing %s: %s\n", pb_variant_name(v), pb_last_error());
            continue;
        }
        if (nvars < (int)(sizeof vars / sizeof vars[0])) vars[nvars++] = v;
    }
    for (int j = 0; j < nvar_arg; j++) {
        int known = 0;
        for (size_t i = 0; i < pb_all_variant_count(); i++)
            known |= !strcmp(var_arg[j], pb_variant_name(pb_all_variant_at(i))) ||
                     (emulated && !strcmp(var_arg[j], pb_variant_isa(pb_all_variant_at(i))));
        const pb_variant *v;
        if (!known && pb_all_variant_find(var_arg[j], &v) != PB_OK) BAD("%s", pb_last_error());
        if (!known) BAD("unknown variant '%s'", var_arg[j]);
    }
    if (nvars == 0) BAD("no variant to benchmark");

    if (!nsizes) {
        const size_t *src = quick ? quick_sizes : default_sizes;
        nsizes = quick ? (int)(sizeof quick_sizes / sizeof *quick_sizes)
                       : (int)(sizeof default_sizes / sizeof *default_sizes);
        memcpy(sizes, src, sizeof(size_t) * (size_t)nsizes);
    }

    /* Fail on unwritable outputs now, not after an hour of benchmarks. */
    FILE *csvf = NULL;
    if (json) {
        FILE *f = fopen(json, "w");
        if (!f) BAD("cannot write %s: %s", json, strerror(errno));
        fclose(f);
    }
    if (csv && !(csvf = fopen(csv, "w"))) BAD("cannot write %s: %s", csv, strerror(errno));
    if (mocap) {
        if (pb_mocap_load(&bench_mocap, nbvh ? bvh : NULL, (size_t)nbvh, 0, stderr) != PB_OK) {
            if (csvf) fclose(csvf);
            BAD("%s", pb_last_error());
        }
        if (!bench_mocap.nclips) {
            if (csvf) fclose(csvf);
            BAD("--mocap: no clips (the packaged CMU files are not installed: apt-get install assimp-testmodels, "
                "or pass --bvh FILE)");
        }
        fprintf(stderr, "posebench bench: inputs from a crowd of %zu-joint characters playing %zu mocap clip(s)\n",
                bench_mocap.clips[0].joints, bench_mocap.nclips);
    }
#undef BAD

    if (!have_seed) {
        struct timespec t;
        clock_gettime(CLOCK_REALTIME, &t);
        seed = ((uint64_t)t.tv_sec * 1000000007ull) ^ (uint64_t)t.tv_nsec ^ ((uint64_t)getpid() << 32);
    }
    H.seed = seed;

    /* Google Benchmark's arguments: our defaults first, so the user's flags
     * (later) override them. Repetitions and minimum time go in as global
     * flags rather than per benchmark, which would append "/repeats:N" and
     * "/min_time:S" to every name. Console shows aggregates only; the JSON
     * file keeps every repetition too. */
    static char a0[] = "posebench bench", a_rep5[] = "--benchmark_repetitions=5",
                a_rep3[] = "--benchmark_repetitions=3", a_min_full[] = "--benchmark_min_time=0.1",
                a_min_quick[] = "--benchmark_min_time=0.01", a_aggr[] = "--benchmark_display_aggregates_only=true",
                a_fmt[] = "--benchmark_out_format=json";
    char a_out[4200];
    int gbc = 0;
    char **gbv = calloc((size_t)ngb_user + 8, sizeof *gbv);
    if (!gbv) {
        free(gb_user);
        pb_mocap_free(&bench_mocap);
        if (csvf) fclose(csvf);
        return 2;
    }
    gbv[gbc++] = a0;
    gbv[gbc++] = quick ? a_rep3 : a_rep5;
    gbv[gbc++] = quick ? a_min_quick : a_min_full;
    gbv[gbc++] = a_aggr;
    if (json) {
        snprintf(a_out, sizeof a_out, "--benchmark_out=%s", json);
        gbv[gbc++] = a_out;
        gbv[gbc++] = a_fmt;
    }
    for (int i = 0; i < ngb_user; i++) gbv[gbc++] = gb_user[i];
    gbv[gbc] = NULL;
    int status = 2;
    if (pb_bench_init(&gbc, gbv) != 0) {
        fprintf(stderr, "posebench bench: unrecognized Google Benchmark flag (see posebench bench -- --help)\n");
        goto out;
    }

    /* Register: per op and size, the copy roofline first, then each variant;
     * sizes from COLD_MIN_N again cold. */
    size_t nops = 0;
    for (int o = 0; o < PB_OP_COUNT; o++) {
        if (any_op && !op_on[o]) continue;
        char why[512];
        if (probe_op((pb_op)o, why, sizeof why) != 0) {
            fprintf(stderr, "posebench bench: %s op %s: %s\n", any_op ? "cannot benchmark" : "skipping",
                    pb_op_get((pb_op)o)->name, why);
            if (any_op) goto out;   /* asked for by name: an error */
            op_on[o] = -1;
            continue;
        }
        nops++;
    }
    H.specs = calloc(nops * (size_t)nsizes * 2 * (size_t)(nvars + 1), sizeof *H.specs);
    if (!H.specs) {
        fprintf(stderr, "posebench bench: out of memory\n");
        goto out;
    }
    for (int o = 0; o < PB_OP_COUNT; o++) {
        if ((any_op && !op_on[o]) || op_on[o] < 0) continue;
        const char *opname = pb_op_get((pb_op)o)->name;
        for (int si = 0; si < nsizes; si++)
            for (int cold = 0; cold <= (sizes[si] >= COLD_MIN_N); cold++) {
                spec *copy = &H.specs[H.nspecs++];
                copy->op = (pb_op)o;
                copy->n = sizes[si];
                copy->cold = cold;
                snprintf(copy->name, sizeof copy->name, "copy/%s/%zu%s", opname, sizes[si], cold ? "/cold" : "");
                spec *scalar = NULL, *first = copy + 1;
                for (int vi = 0; vi < nvars; vi++) {
                    spec *s = &H.specs[H.nspecs++];
                    *s = (spec){ .op = (pb_op)o, .v = vars[vi], .n = sizes[si], .cold = cold, .copy = copy };
                    snprintf(s->name, sizeof s->name, "%s/%s/%zu%s", opname, pb_variant_name(vars[vi]), sizes[si],
                             cold ? "/cold" : "");
                    if (!strcmp(pb_variant_name(vars[vi]), "scalar")) scalar = s;
                }
                for (spec *s = first; s < &H.specs[H.nspecs]; s++) s->scalar = scalar;
                if (!pb_bench_register(copy->name, run_copy, copy)) goto oom;
                for (spec *s = first; s < &H.specs[H.nspecs]; s++)
                    if (!pb_bench_register(s->name, run_op, s)) goto oom;
            }
    }

    char vlist[512];
    size_t used = 0;
    vlist[0] = '\0';
    for (int vi = 0; vi < nvars && used < sizeof vlist; vi++)
        used += (size_t)snprintf(vlist + used, sizeof vlist - used, "%s%s=%s", vi ? "," : "", pb_variant_name(vars[vi]),
                                 pb_variant_mode(vars[vi]) == PB_MODE_NATIVE ? "native" : "emulated");
    add_context(vlist, sizes, nsizes, quick);

    H.total = pb_bench_count_selected();
    fprintf(stderr, "posebench bench: %zu benchmarks (variants %s), seed %" PRIu64 " (--seed %" PRIu64
            " repeats the inputs)\n", H.total, vlist, H.seed, H.seed);
    clock_gettime(CLOCK_MONOTONIC, &H.t0);
    long ran = pb_bench_run(on_result, NULL);
    if (ran < 0) goto out;
    char e[32];
    fprintf(stderr, "posebench bench: %ld benchmarks in %s\n", ran, fmt_dur(seconds_since(&H.t0), e, sizeof e));

    size_t errors = 0, missing = 0, skipped = 0;
    for (size_t i = 0; i < H.nspecs; i++) {
        errors += H.specs[i].error;
        skipped += H.specs[i].skipped;
        missing += H.specs[i].ratio_missing;
    }
    if (missing)
        fprintf(stderr, "posebench bench: copy_ratio left out for %zu benchmark(s): their copy/<op>/<n> "
                        "benchmark did not run before them\n", missing);
    if (skipped) fprintf(stderr, "posebench bench: %zu cold-cache benchmark(s) skipped (reason in the output)\n", skipped);
    if (errors) fprintf(stderr, "posebench bench: %zu benchmark(s) reported an error\n", errors);
    status = errors ? 1 : 0;
    if (csvf) {
        if (write_csv(csvf) != 0) {
            fprintf(stderr, "posebench bench: error writing %s\n", csv);
            status = 2;
        }
        if (fclose(csvf) != 0 && status != 2) {
            fprintf(stderr, "posebench bench: error writing %s\n", csv);
            status = 2;
        }
        csvf = NULL;
    }
    if (json) fprintf(stderr, "posebench bench: wrote %s\n", json);
    if (csv && status != 2) fprintf(stderr, "posebench bench: wrote %s\n", csv);
    goto out;
oom:
    fprintf(stderr, "posebench bench: cannot register benchmarks (out of memory)\n");
out:
    if (csvf) fclose(csvf);
    pb_bench_shutdown();
    free_specs();
    pb_mocap_free(&bench_mocap);
    free(gbv);
    free(gb_user);
    return status;
}
