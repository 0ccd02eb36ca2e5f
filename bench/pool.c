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
                                        .axis = { 0.0f, 0.0f, 1.0f } };

/* ---- buffers ---------------------------------------------------------------------------- */


pb_mocap bench_mocap;

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
           ((info->flags & PB_OPF_AOS_IN) ? aos : 0) + ((info->flags & PB_OPF_AOS_OUT) ? aos : 0);
}

int pool_build(pool *p, pb_op op, size_t n_req, int cold, uint64_t seed, char *err, size_t errlen)
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
                ((info->flags & PB_OPF_AOS_IN) ? PB_AOS_FLOATS : 0) + ((info->flags & PB_OPF_CLIP_IN) ? planes_of(CLIP_KEYS) : 0);
    /* Sampling reads keys by gathers: pos/rot/scl of two (linear) or four
     * (cubic) keys per output element, counted as if streamed. */
    if (info->flags & PB_OPF_SAMPLE) rd = 10 * (op == PB_OP_sample_cubic ? 4 : 2);
    size_t wr = (size_t)planes_of(info->out | (info->out ? info->opt : 0)) +
                ((info->flags & PB_OPF_AOS_OUT) ? PB_AOS_FLOATS : 0);
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
            s->aos_in_mem = malloc(PB_AOS_FLOATS * n * sizeof(float));
            if (!s->aos_in_mem) { fail = 1; break; }
            pb_aos_layout(&s->aos_in, s->aos_in_mem, n);
            pb_call to = { .a = &ga, .aos_out = &s->aos_in };   /* the case's pose a, engine layout */
            fail |= pb_run(PB_OP_pose_to_aos, scalar, &to) != PB_OK;
        }
        if (info->flags & PB_OPF_AOS_OUT) {
            s->aos_out_mem = malloc(PB_AOS_FLOATS * n * sizeof(float));
            if (!s->aos_out_mem) { fail = 1; break; }
            memset(s->aos_out_mem, 0, PB_AOS_FLOATS * n * sizeof(float));   /* fault the pages in */
            pb_aos_layout(&s->aos_out, s->aos_out_mem, n);
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
        /* The kernel block exactly as a plan (and pb_run) builds it: the
         * parameters' scale mode resolved to the op's default. */
        if (pb_kargs_from_call(&s->k, info, &s->call, n) != PB_OK) {
            fail = 1;
            break;
        }
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
            s->in_len[s->nin++] = PB_AOS_FLOATS * n;
        }
        if (info->out) add_planes(&s->out, info->out | info->opt, (const float **)s->outp, s->out_len, &s->nout);
        if (info->flags & PB_OPF_AOS_OUT) {
            s->outp[s->nout] = s->aos_out_mem;
            s->out_len[s->nout++] = PB_AOS_FLOATS * n;
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

