/* pool.c — the benchmarks' inputs (bench_internal.h): buffer sets for a
 * call, built once per (op, n, cache state) and shared by its variants;
 * cold-cache pools of rotated sets; inputs from real motion capture; the
 * probe that an op runs; the copy roofline's memcpy of the same bytes. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_internal.h"
#include "all_variants.h"

/* Scalar parameters for every op (each reads only those its flags name):
 * mid-transition values in the ranges validation covers; alpha not 0, 1/2
 * or 1, which could hit special cases. */
const pb_params bench_params = { .alpha = 0.37f, .alpha_vel = 2.5f, .dt = 1.0f / 60, .time = 0.2f,
                                        .halflife = 0.1f, .duration = 0.3f, .timescale = 1.25f,
                                        .axis = { 0.0f, 0.0f, 1.0f }, .cone = 0.7f,
                                        /* chain IK: 8-joint chains, a fixed 10 iterations (tolerance 0), so a
                                         * row's time per element x 8 / 10 is the time per chain per iteration */
                                        .chain_joints = BENCH_CHAIN_JOINTS, .iterations = BENCH_CHAIN_ITERATIONS,
                                        .tolerance = 0.0f };

/* ---- buffers ---------------------------------------------------------------------------- */


pb_mocap bench_mocap;

/* The case the benchmarks time for op at n elements (n already rounded for
 * chains and --mocap characters), filled by the harness's input builder
 * (pb_case_fill, validate/inputs.c) as case 0 of the run's seed, like a
 * validation case. What the benchmarks choose:
 * - the mixed class: random rotations and every edge class in random order,
 *   so no branch pattern can be learnt; a sampling op's clip keys too (a
 *   mixed clip is one of validation's sampling cases);
 * - skeleton and sampling ops: characters of SKEL_JOINTS joints when they
 *   divide n (a crowd: the engine's case; random parents, depth < 16), else
 *   one n-joint skeleton (depth < 24); sampling: a 1 s clip at 120 fps;
 * - unroll (a clip in): frames of SKEL_JOINTS joints when they divide n,
 *   else of the largest power of two that does (1000 = 125 x 8);
 * - --mocap (mc): validation's real-data cases. Elementwise ops: keys of the
 *   clips at random frames, b the same joint at another moment (a real
 *   transition; elements are independent, so a crowd's layout would time the
 *   same); skeleton ops: a crowd of clip 0's skeleton, each character at a
 *   random frame; sampling ops: characters of that skeleton at random times
 *   in a window of clip 0 (at most PB_CASE_CLIP_WINDOW_KEYS keys); chains:
 *   the clips' legs. */
static pb_vcase bench_case(const pb_op_info *info, size_t n, const pb_mocap *mc, uint64_t seed)
{
    pb_vcase cs = { .cls = mc ? PB_CLASS_MOCAP : PB_CLASS_MIXED, .n = n, .p = bench_params };
    if (info->flags & PB_OPF_NCHAIN) {   /* random chains (the mixed class's reach cases: some out of reach) */
        cs.cls = mc ? PB_CLASS_MOCAP : PB_CLASS_RANDOM;
        cs.joints = BENCH_CHAIN_JOINTS;
        cs.characters = n / BENCH_CHAIN_JOINTS;
    }
    if (info->flags & PB_OPF_CLIP_IN) {
        size_t joints = SKEL_JOINTS;
        while (n % joints) joints /= 2;
        cs.joints = joints;
        cs.frames = n / joints;
        cs.characters = 1;
        cs.fps = SAMPLE_FPS;
    } else if (info->flags & (SKEL_FLAGS | PB_OPF_SAMPLE)) {
        const pb_clip *clip = mc ? pb_mocap_clip(mc, 0) : NULL;
        cs.joints = clip ? clip->joints : n % SKEL_JOINTS == 0 ? SKEL_JOINTS : n;
        cs.characters = n / cs.joints;
        if (clip && (info->flags & PB_OPF_SAMPLE)) {
            pb_case_clip_window(clip, seed, &cs.frames, &cs.frame0);
            cs.fps = clip->fps;
        } else if (info->flags & PB_OPF_SAMPLE) {
            cs.frames = SAMPLE_FRAMES;
            cs.fps = SAMPLE_FPS;
        }
    }
    return cs;
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
    free(s->aos_in_mem); free(s->aos_out_mem); free(s->pal_mem);
    memset(s, 0, sizeof *s);
}

void pool_free(pool *p)
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
    size_t aos = PB_AOS_FLOATS * n * sizeof(float);
    int a = info->in_a || (info->flags & PB_OPF_CLIP_IN);
    return (a ? pose : 0) + (info->in_b ? pose : 0) + (info->out ? pose : 0) +
           ((info->flags & PB_OPF_AOS_IN) ? aos : 0) + ((info->flags & PB_OPF_AOS_OUT) ? aos : 0) +
           (size_t)pb_palette_width(info) * n * sizeof(float);
}

int pool_build(pool *p, pb_op op, size_t n_req, int cold, uint64_t seed, char *err, size_t errlen)
{
    const pb_op_info *info = pb_op_get(op);
    memset(p, 0, sizeof *p);
    /* Chains come three elements each (root, mid, end), foot IK characters seven,
     * chain IK chains BENCH_CHAIN_JOINTS: time the largest whole number of them <= n
     * and count joints per element actually processed. */
    size_t n = (info->flags & PB_OPF_CHAIN) ? n_req - n_req % 3
               : (info->flags & PB_OPF_FOOT) ? n_req - n_req % 7
               : (info->flags & PB_OPF_NCHAIN) ? n_req - n_req % BENCH_CHAIN_JOINTS : n_req;
    /* --mocap: skeleton and sampling ops run whole characters of the real skeleton */
    const pb_mocap *mc = bench_mocap.nclips && !(info->flags & MOCAP_SKIP) ? &bench_mocap : NULL;
    size_t mJ = mc ? mc->clips[0].joints : 0;
    if (mc && (info->flags & (SKEL_FLAGS | PB_OPF_SAMPLE))) n = n_req >= mJ ? n_req - n_req % mJ : mJ;
    p->n_work = n;
    /* the bench's poses have velocity planes: ops with optional velocity groups move them too;
     * sampling's key gathers are counted as if streamed (pb_op_floats, validate/metrics.c) */
    size_t rd, wr;
    pb_op_floats(op, &rd, &wr);
    p->bytes_read = rd * n * sizeof(float);
    p->bytes_written = wr * n * sizeof(float);

    int nsets = 1;
    if (cold) {
        char why[160];
        size_t caches = cold_cache_bytes(gb_cache_total_bytes(), gb_llc_bytes(), why, sizeof why);
        cold_plan cp = cold_choose(p->bytes_read + p->bytes_written, set_alloc_bytes(info, n), caches);
        if (why[0]) snprintf(cp.why, sizeof cp.why, COLD_SKIP_PREFIX "cold cache: %s", why);
        if (why[0] || cp.method == COLD_SKIP) {
            snprintf(err, errlen, "%s", cp.why);
            return -1;
        }
        nsets = cp.nsets;
        p->flush = cp.method == COLD_FLUSH;
    }
    p->sets = calloc((size_t)nsets, sizeof *p->sets);
    if (!p->sets) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    p->nsets = nsets;

    /* One case, copied into every set; a sampling op's keys (the case's pose a) stay in p->clip. */
    pb_vcase cs = bench_case(info, n, mc, seed);
    size_t n_in = pb_case_in_n(&cs, info);
    int sample = (info->flags & PB_OPF_SAMPLE) != 0;
    pb_pose ga = { 0 }, gb = { 0 };
    pb_pose_aos gaos = { 0 };
    float *gaos_mem = NULL;
    int fail = (sample ? pb_clip_alloc(&p->clip, cs.frames, cs.joints, cs.fps) : pb_pose_alloc(&ga, n_in)) != PB_OK ||
               pb_pose_alloc(&gb, n_in) != PB_OK;
    if (!fail && (info->flags & PB_OPF_AOS_IN)) {
        fail = !(gaos_mem = malloc(PB_AOS_FLOATS * n * sizeof(float)));
        if (!fail) pb_aos_layout(&gaos, gaos_mem, n);
    }
    if (!fail && (info->flags & (PB_OPF_SAMPLE | PB_OPF_CLIP_IN)))
        fail = !(p->offsets = malloc(cs.characters * sizeof(float)));
    if (!fail) {
        pb_case_bufs io = { sample ? &p->clip.pose : &ga, &gb, gaos_mem ? &gaos : NULL, p->offsets,
                            (info->flags & SKEL_FLAGS) ? &p->skel : NULL };
        fail = pb_case_fill(&io, &cs, info, mc, seed, 0) != PB_OK;
    }
    for (int i = 0; i < nsets && !fail; i++) {
        bufset *s = &p->sets[i];
        if (info->in_a || (info->flags & PB_OPF_CLIP_IN))
            fail |= pb_pose_alloc(&s->a, n) != PB_OK || pb_pose_copy(&s->a, &ga) != PB_OK;
        if (info->in_b) fail |= pb_pose_alloc(&s->b, sample ? n_in : n) != PB_OK || pb_pose_copy(&s->b, &gb) != PB_OK;
        if (info->out) fail |= pb_pose_alloc(&s->out, n) != PB_OK;
        if (fail) break;
        if (info->flags & PB_OPF_AOS_IN) {
            s->aos_in_mem = malloc(PB_AOS_FLOATS * n * sizeof(float));
            if (!s->aos_in_mem) { fail = 1; break; }
            memcpy(s->aos_in_mem, gaos_mem, PB_AOS_FLOATS * n * sizeof(float));
            pb_aos_layout(&s->aos_in, s->aos_in_mem, n);
        }
        if (info->flags & PB_OPF_AOS_OUT) {
            s->aos_out_mem = malloc(PB_AOS_FLOATS * n * sizeof(float));
            if (!s->aos_out_mem) { fail = 1; break; }
            memset(s->aos_out_mem, 0, PB_AOS_FLOATS * n * sizeof(float));   /* fault the pages in */
            pb_aos_layout(&s->aos_out, s->aos_out_mem, n);
        }
        if (pb_palette_width(info)) {
            size_t pf = (size_t)pb_palette_width(info) * n;
            if (!(s->pal_mem = malloc(pf * sizeof(float)))) { fail = 1; break; }
            memset(s->pal_mem, 0, pf * sizeof(float));   /* fault the pages in */
            s->pal = (pb_palette){ s->pal_mem, n };
        }
        if (info->flags & PB_OPF_CLIP_IN)   /* the case's clip: frames x joints = n keys */
            s->clip_a = (pb_clip){ .frames = cs.frames, .joints = cs.joints, .frame_time = 1.0f / cs.fps, .fps = cs.fps,
                                   .pose = s->a };
        s->call = (pb_call){ .a = info->in_a ? &s->a : NULL, .b = info->in_b ? &s->b : NULL,
                             .out = info->out ? &s->out : NULL,
                             .aos_in = (info->flags & PB_OPF_AOS_IN) ? &s->aos_in : NULL,
                             .aos_out = (info->flags & PB_OPF_AOS_OUT) ? &s->aos_out : NULL,
                             .skel = (info->flags & SKEL_FLAGS) ? &p->skel : NULL,
                             .clip = (info->flags & PB_OPF_SAMPLE) ? &p->clip
                                     : (info->flags & PB_OPF_CLIP_IN) ? &s->clip_a : NULL,
                             .offsets = (info->flags & PB_OPF_SAMPLE) ? p->offsets : NULL,
                             .palette = pb_palette_width(info) ? &s->pal : NULL,
                             .params = bench_params };
        /* The kernel block exactly as a plan (and pb_run) builds it: the
         * parameters' scale mode resolved to the op's default. */
        if (pb_kargs_from_call(&s->k, info, &s->call, n) != PB_OK) {
            fail = 1;
            break;
        }
        /* The copy roofline's view: every array the op reads, every array it writes. */
        if (info->in_a) add_planes(&s->a, info->in_a | info->opt, s->in, s->in_len, &s->nin);
        if (info->in_b && !sample) add_planes(&s->b, info->in_b, s->in, s->in_len, &s->nin);
        if (info->in_b && sample) {   /* the turns' five planes read (pb_clip_turns), as many floats as counted */
            static const int turn_planes[5] = { PB_ROT_X, PB_ROT_Y, PB_ROT_Z, PB_POS_X, PB_POS_Y };
            for (int q = 0; q < 5; q++) {
                s->in[s->nin] = s->b.plane[turn_planes[q]];
                s->in_len[s->nin++] = s->b.n < n ? s->b.n : n;
            }
        }
        if (info->flags & PB_OPF_CLIP_IN) add_planes(&s->a, CLIP_KEYS, s->in, s->in_len, &s->nin);
        if (info->flags & PB_OPF_SAMPLE)   /* the keys' pos/rot/scl planes, as many floats as counted */
            for (int pl = 0; pl < 10; pl++) {
                s->in[s->nin] = p->clip.pose.plane[pl];
                s->in_len[s->nin++] = p->clip.pose.n < rd / 10 * n ? p->clip.pose.n : rd / 10 * n;
            }
        if (info->flags & PB_OPF_AOS_IN) {
            s->in[s->nin] = s->aos_in_mem;
            s->in_len[s->nin++] = PB_AOS_FLOATS * n;
        }
        if (info->out) add_planes(&s->out, info->out | info->opt, (const float **)s->outp, s->out_len, &s->nout);
        if (info->flags & PB_OPF_AOS_OUT) {
            s->outp[s->nout] = s->aos_out_mem;
            s->out_len[s->nout++] = PB_AOS_FLOATS * n;
        }
        if (pb_palette_width(info)) {
            s->outp[s->nout] = s->pal_mem;
            s->out_len[s->nout++] = (size_t)pb_palette_width(info) * n;
        }
    }
    pb_pose_free(&ga);
    pb_pose_free(&gb);
    free(gaos_mem);
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
int probe_op(pb_op op, char *why, size_t len)
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
void copy_set(const bufset *s)
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

