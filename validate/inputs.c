/* inputs.c — the one input-case builder: an op's inputs filled from a case
 * description (pb_vcase), by op family — poses a and b of a class, look-at
 * targets, two-bone chains, foot IK characters, a clip and per-character offsets, a skeleton
 * crowd, the AoS input, the palettes' globals and inverse binds — synthetic or
 * from real motion capture. Validation
 * (cases.c), the benchmarks (bench/pool.c) and unit tests call it, so what an
 * op's inputs are is decided here only. */
#include <stdlib.h>
#include <string.h>
#include "validate.h"

size_t pb_case_in_n(const pb_vcase *cs, const pb_op_info *info)
{
    return (info->flags & (PB_OPF_SAMPLE | PB_OPF_CLIP_IN)) ? cs->frames * cs->joints : cs->n;
}

void pb_case_clip_window(const pb_clip *clip, uint64_t draw, size_t *frames, size_t *frame0)
{
    size_t F = clip->frames, W = PB_CASE_CLIP_WINDOW_KEYS / clip->joints;
    if (W == 0) W = 1;
    if (W > F) W = F;
    *frames = W;
    *frame0 = F > W ? (size_t)(draw % (F - W + 1)) : 0;
}

/* Keys of frames [f0, f0 + frames) of a clip into pose a (frames x joints). */
static void copy_window(pb_pose *a, const pb_clip *clip, size_t f0, size_t frames)
{
    size_t J = clip->joints;
    for (int q = 0; q < PB_PLANES; q++)
        memcpy(a->plane[q], clip->pose.plane[q] + f0 * J, frames * J * sizeof(float));
}

/* The skeleton of a skeletal case and its locals: the real clip's skeleton and
 * characters at random frames of it, or random parents (depth < 16, < 24 over
 * 64 joints: deep enough for the level schedule, as deep as real rigs) and
 * random locals brought to bone scale. */
static pb_status case_skeleton(const pb_case_bufs *o, const pb_vcase *cs, const pb_mocap *m, uint64_t seed)
{
    if (cs->cls == PB_CLASS_MOCAP) {
        pb_status s = pb_crowd_skeleton(o->skel, pb_mocap_skeleton(m, cs->clip), cs->characters);
        if (s != PB_OK) return s;
        pb_mocap_crowd(m, cs->clip, o->a, cs->characters, seed);
        pb_mocap_crowd(m, cs->clip, o->b, cs->characters, seed + 1);
        return PB_OK;
    }
    int32_t *parents = malloc(cs->joints * sizeof *parents);
    if (!parents) return pb_fail(PB_ERR_NOMEM, "case inputs: out of memory for %zu parents", cs->joints);
    pb_gen_parents(parents, cs->joints, cs->joints > 64 ? 24 : 16, seed);
    pb_status s = pb_skeleton_init(o->skel, parents, cs->joints, cs->characters);
    free(parents);
    if (s != PB_OK) return s;
    pb_gen_bone_scale(o->a);
    pb_gen_bone_scale(o->b);
    return PB_OK;
}

/* Palette inputs from real motion capture: a = the globals (fk_static) of a
 * crowd of one clip's skeleton at random frames, b = that skeleton's inverse
 * bind pose from its BVH rest offsets; the crowd's first n elements. */
static pb_status palette_real(const pb_case_bufs *o, size_t n, const pb_mocap *m, uint64_t seed)
{
    size_t clip = (size_t)(seed % m->nclips);
    const pb_bvh_skeleton *bs = pb_mocap_skeleton(m, clip);
    size_t J = bs->joints, C = (n + J - 1) / J;
    pb_skeleton sk = { 0 };
    pb_pose loc = { 0 }, glob = { 0 }, ib = { 0 };
    const pb_variant *scalar = NULL;
    pb_status s = pb_crowd_skeleton(&sk, bs, C);
    if (s == PB_OK) s = pb_pose_alloc(&loc, J * C);
    if (s == PB_OK) s = pb_pose_alloc(&glob, J * C);
    if (s == PB_OK) s = pb_pose_alloc(&ib, J * C);
    if (s == PB_OK) s = pb_variant_find("scalar", &scalar);
    if (s == PB_OK) {
        pb_mocap_crowd(m, clip, &loc, C, seed);
        pb_call fk = { .a = &loc, .out = &glob, .skel = &sk };
        s = pb_run(PB_OP_fk_static, scalar, &fk);
    }
    if (s == PB_OK) s = pb_rest_pose_from_bvh(bs, &sk, &ib);
    if (s == PB_OK) s = pb_inverse_bind_from_rest(&sk, &ib, &ib);
    if (s == PB_OK)
        for (int q = 0; q < PB_STATIC_PLANES; q++) {
            memcpy(o->a->plane[q], glob.plane[q], n * sizeof(float));
            memcpy(o->b->plane[q], ib.plane[q], n * sizeof(float));
        }
    pb_pose_free(&loc); pb_pose_free(&glob); pb_pose_free(&ib);
    pb_skeleton_free(&sk);
    return s;
}

/* Palette edge cases (class degenerate): non-uniform scales down to 1e-4 and
 * up to 8 per axis in the globals, tiny uniform scales in the inverse binds. */
static void palette_scales(pb_pose *a, pb_pose *b)
{
    static const float sa[] = { 1e-4f, 1e-3f, 0.5f, 1.0f, 8.0f }, sb[] = { 1e-4f, 1.0f, 0.01f };
    for (size_t i = 0; i < a->n; i++) {
        for (int c = 0; c < 3; c++) a->plane[PB_SCL_X + c][i] = sa[(i + 2 * (size_t)c) % 5];
        for (int c = 0; c < 3; c++) b->plane[PB_SCL_X + c][i] = sb[(i / 5) % 3];
    }
}

pb_status pb_case_fill(const pb_case_bufs *o, const pb_vcase *cs, const pb_op_info *info, const pb_mocap *m,
                       uint64_t seed, size_t index)
{
    int real = cs->cls == PB_CLASS_MOCAP;
    int skeletal = (info->flags & (PB_OPF_SKELETON | PB_OPF_ROOTS)) != 0, chained = (info->flags & PB_OPF_CHAIN) != 0;
    int sampling = (info->flags & (PB_OPF_SAMPLE | PB_OPF_CLIP_IN)) != 0, nchained = (info->flags & PB_OPF_NCHAIN) != 0;
    size_t n_in = pb_case_in_n(cs, info);
    if (!o->a || !o->b || o->a->n != n_in || o->b->n != n_in || (o->aos_in && o->aos_in->n != n_in))
        return pb_fail(PB_ERR_SIZE, "case inputs of %s: poses of %zu elements wanted", info->name, n_in);
    if ((skeletal && !o->skel) || (sampling && !o->offsets))
        return pb_fail(PB_ERR_NULL, "case inputs of %s: no %s to fill", info->name, skeletal ? "skeleton" : "offsets");
    if (real && (!m || m->nclips == 0))
        return pb_fail(PB_ERR_PARAM, "case inputs of %s: the mocap class without clips", info->name);
    /* seeds from the run's and the case's index: the generator's spread apart, the rest consecutive */
    pb_gen_case(o->a, o->b, cs->cls, seed + index * 7919u, info);
    uint64_t s1 = seed + index;
    pb_status s = PB_OK;
    int palette = (info->flags & (PB_OPF_MAT_OUT | PB_OPF_DQ_OUT)) != 0;
    int foot = (info->flags & PB_OPF_FOOT) != 0;
    if (real && palette) s = palette_real(o, n_in, m, s1);
    else if (real && !sampling && !chained && !nchained && !skeletal && !foot) pb_mocap_fill(m, o->a, o->b, s1);
    if (palette && cs->cls == PB_CLASS_DEGENERATE) palette_scales(o->a, o->b);
    if (info->flags & PB_OPF_TARGET) pb_gen_targets(o->a, o->b, real ? PB_CLASS_RANDOM : cs->cls, cs->p.axis, s1);
    if (chained) {
        if (real) pb_mocap_chains(m, o->a, o->b, s1);
        else pb_gen_chains(o->a, o->b, cs->cls, s1);
    }
    if (nchained) {   /* real: limbs of the clips, over generated chains where a skeleton has none that long */
        pb_gen_nchains(o->a, o->b, cs->p.chain_joints, cs->cls, s1);
        if (real) pb_mocap_nchains(m, o->a, o->b, cs->p.chain_joints, s1);
    }
    if (foot) {
        if (real) pb_mocap_feet(m, o->a, o->b, s1);
        else pb_gen_feet(o->a, o->b, cs->cls, cs->p.axis, s1);
    }
    if (sampling) {
        if (real) copy_window(o->a, pb_mocap_clip(m, cs->clip), cs->frame0, cs->frames);
        else pb_gen_clip_class(o->a, cs->frames, cs->joints, cs->cls);
        pb_gen_offsets(o->offsets, cs->characters, real ? PB_CLASS_RANDOM : cs->cls, cs->frames, cs->fps, cs->p.time, s1);
        if (info->in_b) {   /* sample_linear_turns: b is the clip's turns, made from its keys */
            pb_clip clip = { cs->frames, cs->joints, 1.0f / cs->fps, cs->fps, 0, *o->a };
            s = pb_clip_turns(&clip, o->b);
        }
    }
    if (skeletal && s == PB_OK) s = case_skeleton(o, cs, m, s1);
    if (s == PB_OK && o->aos_in) {
        /* AoS input (pose_from_aos): the case's pose a in engine layout */
        const pb_variant *scalar = NULL;
        pb_call to = { .a = o->a, .aos_out = o->aos_in };
        s = pb_variant_find("scalar", &scalar);
        if (s == PB_OK) s = pb_run(PB_OP_pose_to_aos, scalar, &to);
    }
    return s;
}
