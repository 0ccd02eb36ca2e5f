/* pb_frame_crowd.c — the frame pipeline's crowds and stages (frame_pipeline.h):
 * one frame, per character, in the crowd layout (element = joint x C + c):
 *   sample     the crowd builder (sample_linear or sample_cubic) of the clip(s) the method needs
 *   transition cross-fade (blend_static, blend_static_nlerp, blend), inertialize, dead_blending
 *   additive   additive (local, with velocities) of a fixed delta pose
 *   legs FK    fk_static of the legs' joints and their ancestors: the globals the IK needs
 *   2-leg IK   gather both legs' chains, two_bone_ik, scatter the rotations back
 *   FK         fk with velocities: the globals a renderer or physics would read
 *   palette    palette: the skinning matrices, globals x the inverse bind pose
 *   skin       linear blend skinning of the scene's mesh (if any) for every character
 * Every op goes through pb_run, as an engine would call it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "posebench/frame.h"
#include "rng.h"
#include "internal.h"   /* pb_fail */
#include "qd.h"
#include "frame_int.h"

static void skin_jobs_free(pb_frame_crowd *c)
{
    for (size_t k = 0; c->skin_jobs && k < c->characters; k++) {
        pb_skin_job_free(c->skin_jobs[k]);
        c->skin_jobs[k] = NULL;
    }
    c->skin_ready = 0;
}

void pb_frame_crowd_free(pb_frame_crowd *c)
{
    if (!c) return;
    pb_pose *poses[] = { &c->src, &c->dst, &c->state, &c->tmp, &c->mix, &c->delta, &c->local, &c->global,
                         &c->chain, &c->target, &c->solved, &c->inv_bind, &c->halflives, &c->via,
                         &c->leg_local, &c->leg_global };
    for (size_t i = 0; i < sizeof poses / sizeof poses[0]; i++) pb_pose_free(poses[i]);
    free(c->palette.data);
    free(c->memos);
    skin_jobs_free(c);
    free(c->skin_jobs);
    free(c->skin);
    pb_skinned_free(&c->skinned);
    pb_skeleton_free(&c->skel);
    pb_skeleton_free(&c->leg_skel);
    free(c->leg_joints);
    pb_crowd_builder_free(&c->play[0]);
    pb_crowd_builder_free(&c->play[1]);
    free(c->lift);
    free(c->limits);
    memset(c, 0, sizeof *c);
}

/* The bind pose the palette is relative to: each joint's local position in
 * the source clip's first frame (its bone: a BVH joint's OFFSET), no
 * rotation, unit scale, roots at the origin; inv_bind its inverse globals
 * (pb_inverse_bind_from_rest), one per joint (the palette's shared form:
 * the characters share it), and the palette's buffer. */
void pb_scene_bind_local(const pb_scene *sc, pb_pose *p, size_t characters)
{
    for (size_t j = 0; j < sc->joints; j++)
        for (int pl = PB_POS_X; pl <= PB_POS_Z; pl++) {
            float x = sc->parents[j] < 0 ? 0.0f : sc->clip[0].pose.plane[pl][j];
            for (size_t k = 0; k < characters; k++) p->plane[pl][j * characters + k] = x;
        }
}

static pb_status bind_pose(pb_frame_crowd *c)
{
    pb_status st = pb_pose_alloc_static(&c->inv_bind, c->sc->joints);   /* one per joint, shared */
    if (st != PB_OK) return st;
    if (c->sc->inv_bind.n == c->sc->joints) {   /* the file's own (pb_scene_asset) */
        for (int q = 0; q < PB_STATIC_PLANES; q++)
            memcpy(c->inv_bind.plane[q], c->sc->inv_bind.plane[q], c->sc->joints * sizeof(float));
    } else {
        pb_scene_bind_local(c->sc, &c->inv_bind, 1);
        st = pb_inverse_bind_from_rest(&c->skel, &c->inv_bind, &c->inv_bind);
        if (st != PB_OK) return pb_fail(st, "the bind pose: %s", pb_last_error());
    }
    c->palette.n = c->n;
    c->palette.data = malloc(c->n * PB_PALETTE_MAT_FLOATS * sizeof(float));
    if (!c->palette.data) return pb_fail(PB_ERR_NOMEM, "out of memory for the palette");
    size_t V = c->sc->mesh.n, C = c->characters;
    if (!V) return PB_OK;
    /* skinned vertices: one allocation, a view per character */
    c->skin = calloc(C, sizeof *c->skin);
    c->skin_jobs = calloc(C, sizeof *c->skin_jobs);
    if (!c->skin || !c->skin_jobs || pb_skinned_alloc(&c->skinned, C * V) != PB_OK)
        return pb_fail(PB_ERR_NOMEM, "out of memory for %zu characters' %zu skinned vertices", C, V);
    for (size_t k = 0; k < C; k++) {
        c->skin[k].n = V;
        for (int a = 0; a < 3; a++) {
            c->skin[k].pos[a] = c->skinned.pos[a] + k * V;
            c->skin[k].nrm[a] = c->skinned.nrm[a] + k * V;
        }
    }
    return PB_OK;
}

/* The legs FK's joints: both legs' and their ancestors, in skeleton order
 * (parents come first), their skeleton and poses (none without legs). */
static pb_status legs_init(pb_frame_crowd *c)
{
    const pb_scene *sc = c->sc;
    if (sc->leg[0][0] < 0) return PB_OK;
    size_t J = sc->joints, m = 0;
    int32_t *at = malloc(J * sizeof *at), *par = malloc(J * sizeof *par);
    c->leg_joints = malloc(J * sizeof *c->leg_joints);
    pb_status st = at && par && c->leg_joints ? PB_OK : pb_fail(PB_ERR_NOMEM, "out of memory for the legs' joints");
    for (size_t j = 0; st == PB_OK && j < J; j++) at[j] = -1;
    for (int l = 0; st == PB_OK && l < 2; l++)
        for (int r = 0; r < 3; r++)
            for (int32_t j = sc->leg[l][r]; j >= 0 && at[j] < 0; j = sc->parents[j]) at[j] = 0;
    for (size_t j = 0; st == PB_OK && j < J; j++) {
        if (at[j] < 0) continue;
        at[j] = (int32_t)m;
        par[m] = sc->parents[j] < 0 ? -1 : at[sc->parents[j]];
        c->leg_joints[m++] = (int32_t)j;
    }
    for (int l = 0; st == PB_OK && l < 2; l++) {
        for (int r = 0; r < 3; r++) c->leg_at[l][r] = at[sc->leg[l][r]];
        int32_t p = sc->parents[sc->leg[l][0]];
        c->leg_at[l][3] = p < 0 ? -1 : at[p];
    }
    c->leg_count = m;
    if (st == PB_OK) st = pb_skeleton_init(&c->leg_skel, par, m, c->characters);
    if (st == PB_OK) st = pb_pose_alloc_static(&c->leg_local, m * c->characters);
    if (st == PB_OK) st = pb_pose_alloc_static(&c->leg_global, m * c->characters);
    free(at);
    free(par);
    return st;
}

pb_status pb_frame_crowd_init(pb_frame_crowd *c, const pb_scene *sc, size_t characters, pb_op sampler)
{
    return pb_frame_crowd_init_range(c, sc, 0, characters, sampler);
}

pb_status pb_frame_crowd_init_range(pb_frame_crowd *c, const pb_scene *sc, size_t first, size_t characters,
                                    pb_op sampler)
{
    static const char *fn = "pb_frame_crowd_init";
    if (!c) return pb_fail(PB_ERR_NULL, "%s: crowd is NULL", fn);
    memset(c, 0, sizeof *c);
    if (!sc || !sc->parents || !sc->joints) return pb_fail(PB_ERR_NULL, "%s: scene is NULL or not made", fn);
    if (!characters) return pb_fail(PB_ERR_EMPTY, "%s: characters = 0", fn);
    if (sampler != PB_OP_sample_linear && sampler != PB_OP_sample_linear_turns && sampler != PB_OP_sample_cubic)
        return pb_fail(PB_ERR_PARAM, "sampler %s is not sample_linear, sample_linear_turns or sample_cubic",
                       pb_op_get(sampler) ? pb_op_get(sampler)->name : "(not an op)");
    for (int k = 0; sampler == PB_OP_sample_linear_turns && k < 2; k++)
        if (sc->turns[k].n != sc->clip[k].pose.n)
            return pb_fail(PB_ERR_PARAM, "sample_linear_turns: the scene's clip %d (%s) has no turns (pb_scene_turns makes "
                           "them)", k, sc->clip_name[k]);
    if (sc->mesh.n && characters > PB_FRAME_CROWD_MAX_VERTICES / sc->mesh.n)
        return pb_fail(PB_ERR_SIZE, "a crowd of %zu characters x %zu mesh vertices is above %zu skinned vertices "
                       "(24 bytes each): use fewer characters or a smaller mesh", characters, sc->mesh.n,
                       PB_FRAME_CROWD_MAX_VERTICES);
    if (sc->joints * characters > PB_FRAME_CROWD_MAX_ELEMENTS)
        return pb_fail(PB_ERR_SIZE, "a crowd of %zu characters x %zu joints is %zu elements; at most %zu (11 poses "
                       "of 76 bytes, a static pose and a palette entry per element): use fewer characters or joints", characters, sc->joints,
                       sc->joints * characters, PB_FRAME_CROWD_MAX_ELEMENTS);
    c->sc = sc;
    c->characters = characters;
    c->first = first;
    c->n = sc->joints * characters;
    c->sampler = sampler;
    c->clip_of[0] = 0;
    c->clip_of[1] = 1;
    c->duration = PB_FRAME_TRANSITION_S;
    c->halflife = PB_FRAME_HALFLIFE_S;
    c->hl_scale = PB_HALFLIFE_EST_SCALE, c->hl_min = PB_HALFLIFE_EST_MIN, c->hl_max = PB_HALFLIFE_EST_MAX;
    size_t chains = 3 * 2 * characters;
    pb_status st = pb_skeleton_init(&c->skel, sc->parents, sc->joints, characters);
    pb_pose *poses[] = { &c->src, &c->dst, &c->state, &c->tmp, &c->mix, &c->delta, &c->local, &c->global };
    for (size_t i = 0; st == PB_OK && i < sizeof poses / sizeof poses[0]; i++) st = pb_pose_alloc(poses[i], c->n);
    if (st == PB_OK) st = pb_pose_alloc(&c->chain, chains);
    if (st == PB_OK) st = pb_pose_alloc(&c->target, chains);
    if (st == PB_OK) st = pb_pose_alloc(&c->solved, chains);
    if (st == PB_OK) st = bind_pose(c);
    if (st == PB_OK) st = legs_init(c);
    float *offset[2] = { malloc(characters * sizeof(float)), malloc(characters * sizeof(float)) };
    c->lift = malloc(characters * sizeof(float));
    c->memos = calloc(1, sizeof *c->memos);
    if (st != PB_OK || !offset[0] || !offset[1] || !c->lift || !c->memos) {
        free(offset[0]);
        free(offset[1]);
        pb_frame_crowd_free(c);
        return st != PB_OK ? pb_fail(st, "crowd of %zu x %zu: %s", characters, sc->joints, pb_last_error())
                           : pb_fail(PB_ERR_NOMEM, "crowd of %zu x %zu: out of memory", characters, sc->joints);
    }
    /* Characters spread over the first half of each clip (the frame loop adds
     * up to another half), by golden-ratio steps: deterministic, no two alike. */
    for (size_t k = 0; k < characters; k++) {
        double g = (double)(first + k);   /* the character's index in the whole crowd */
        double g1 = fmod(0.6180339887 * g, 1.0), g2 = fmod(0.7548776662 * g + 0.5, 1.0);
        offset[0][k] = (float)g1 * 0.5f * pb_clip_duration(&sc->clip[0]);
        offset[1][k] = (float)g2 * 0.5f * pb_clip_duration(&sc->clip[1]);
        c->lift[k] = ((float)fmod(0.3819660113 * g, 1.0) - 0.5f) * 0.06f;   /* +-3 cm: uneven ground */
    }
    st = pb_frame_crowd_play(c, 0, 0, offset[0]);
    if (st == PB_OK) st = pb_frame_crowd_play(c, 1, 1, offset[1]);
    free(offset[0]);
    free(offset[1]);
    if (st != PB_OK) {
        pb_frame_crowd_free(c);
        return st;
    }
    /* The additive layer's delta: up to ~3 degrees and 1 cm, slowly animating;
     * drawn per (joint, character in the whole crowd), so ranges agree. */
    for (size_t e = 0; e < c->n; e++) {
        uint64_t r = 0xADD171FEull ^ ((uint64_t)(e / characters) << 40) ^ (uint64_t)(first + e % characters);
        pb_rng_next(&r);
        double ax[3];
        pb_rng_dir(&r, ax);
        qd_set(&c->delta, e, qd_axis(ax, 0.05 * pb_rng_unit01(&r)));
        for (int k = 0; k < 3; k++) {
            c->delta.plane[PB_POS_X + k][e] = 0.01f * (2 * pb_rng_unit01(&r) - 1);
            c->delta.plane[PB_VEL_X + k][e] = 0.02f * (2 * pb_rng_unit01(&r) - 1);
            c->delta.plane[PB_ANG_X + k][e] = 0.3f * (2 * pb_rng_unit01(&r) - 1);
        }
    }
    c->mixed = &c->mix;
    return PB_OK;
}

/* ---- stages ------------------------------------------------------------------------------------ */
static pb_status run_op(pb_frame_crowd *c, pb_op op, const pb_variant *v, const pb_call *call)
{
    pb_status s = pb_run_memoized(c->memos, op, v, call);
    if (s != PB_OK) c->failed = pb_op_get(op)->name;
    return s;
}

pb_status pb_frame_crowd_play(pb_frame_crowd *c, int role, int clip, const float *offsets)
{
    static const char *fn = "pb_frame_crowd_play";
    if (!c || !c->sc) return pb_fail(PB_ERR_NULL, "%s: crowd is NULL or not initialized", fn);
    if (role != 0 && role != 1) return pb_fail(PB_ERR_PARAM, "%s: role = %d (0 source, 1 destination)", fn, role);
    if (clip != 0 && clip != 1) return pb_fail(PB_ERR_PARAM, "%s: clip = %d (the scene has clips 0 and 1)", fn, clip);
    if (!offsets) return pb_fail(PB_ERR_NULL, "%s: offsets is NULL (one per character)", fn);
    const pb_clip *clips[] = { &c->sc->clip[clip] };
    const pb_pose *turns[] = { &c->sc->turns[clip] };
    pb_crowd_desc d = { .clips = clips, .nclips = 1, .characters = c->characters, .offsets = offsets,
                        .method = c->sampler == PB_OP_sample_cubic ? PB_SAMPLE_CUBIC : PB_SAMPLE_LINEAR,
                        .turns = c->sampler == PB_OP_sample_linear_turns ? turns : NULL };
    pb_crowd_builder_free(&c->play[role]);
    pb_status st = pb_crowd_builder_init(&c->play[role], &d);
    if (st != PB_OK) return pb_fail(st, "crowd builder for %s: %s", c->sc->clip_name[clip], pb_last_error());
    c->clip_of[role] = clip;
    return PB_OK;
}

/* Sampling is the crowd builder's job (one pb_run of the sampler across the
 * characters, as a game would do it); the stage only picks the variant. */
pb_status pb_frame_sample_into(pb_frame_crowd *c, const pb_variant *v, int role, float time, pb_pose *out)
{
    pb_status s = pb_frame_crowd_ok(c, "pb_frame_sample");
    if (s != PB_OK) return s;
    if (role != 0 && role != 1) return pb_fail(PB_ERR_PARAM, "pb_frame_sample: role = %d (0 source, 1 destination)", role);
    if (!isfinite(time)) return pb_fail(PB_ERR_PARAM, "pb_frame_sample: time is %g (must be finite)", (double)time);
    pb_crowd_builder *b = &c->play[role];
    s = pb_crowd_builder_set_variant(b, v);
    if (s == PB_OK) s = pb_crowd_build(b, time, out);
    if (s != PB_OK) c->failed = pb_op_get(c->sampler)->name;
    return s;
}
pb_status pb_frame_sample(pb_frame_crowd *c, const pb_variant *v, int role, float time)
{
    return pb_frame_sample_into(c, v, role, time, c && role ? &c->dst : c ? &c->src : NULL);
}

/* The joint limits of the limited dead blending: the scene's two clips' range, once. */
static pb_status crowd_limits(pb_frame_crowd *c)
{
    if (c->limits) return PB_OK;
    size_t J = c->sc->joints;
    if (!(c->limits = malloc(6 * J * sizeof *c->limits))) {
        c->failed = "joint limits";
        return pb_fail(PB_ERR_NOMEM, "joint limits: out of memory");
    }
    const pb_clip *clips[2] = { &c->sc->clip[0], &c->sc->clip[1] };
    pb_status s = pb_clip_joint_limits(clips, 2, NULL, c->limits, c->limits + 3 * J);
    if (s != PB_OK) {
        free(c->limits);
        c->limits = NULL;
        c->failed = "pb_clip_joint_limits";
    }
    return s;
}

pb_status pb_frame_begin(pb_frame_crowd *c, const pb_variant *v, pb_frame_method m)
{
    pb_status st = pb_frame_crowd_ok(c, "pb_frame_begin");
    if (st != PB_OK) return st;
    if (!pb_frame_method_get(m)) return pb_fail(PB_ERR_PARAM, "pb_frame_begin: method %d is not a pb_frame_method", (int)m);
    c->mixed = m == PB_FM_CUT ? &c->dst : &c->mix;
    int xfade = m == PB_FM_CROSSFADE_STATIC || m == PB_FM_CROSSFADE_NLERP || m == PB_FM_CROSSFADE;
    if (!xfade && (c->curve.kind != PB_CURVE_SMOOTHSTEP || c->frozen))
        return pb_fail(PB_ERR_PARAM, "pb_frame_begin: %s with curve %s%s: only the cross-fades take a curve or the "
                       "frozen form (%s blends by its op's own weight)", pb_frame_method_name(m), pb_curve_name(c->curve.kind),
                       c->frozen ? ", frozen" : "", pb_frame_method_name(m));
    if (xfade && c->frozen) {   /* the source held where it is now: its pose, velocities 0 */
        pb_status s = pb_pose_copy(&c->state, &c->src);
        for (int p = PB_VEL_X; s == PB_OK && p < PB_PLANES; p++) memset(c->state.plane[p], 0, c->n * sizeof(float));
        if (s != PB_OK) c->failed = "pb_pose_copy";
        return s;
    }
    if (m == PB_FM_INERTIALIZE) {
        pb_call call = { .a = &c->src, .b = &c->dst, .out = &c->state };
        return run_op(c, PB_OP_inertialize_offset, v, &call);
    }
    if (m == PB_FM_DEAD_CLAMP || m == PB_FM_DEAD_BOUNCE) {
        pb_status s = crowd_limits(c);
        if (s != PB_OK) return s;
    }
    if (m == PB_FM_DEAD || m == PB_FM_DEAD_NLERP || m == PB_FM_DEAD_UE || m == PB_FM_DEAD_CLAMP || m == PB_FM_DEAD_BOUNCE ||
        m == PB_FM_DEAD_VIA) {
        pb_status s = pb_pose_copy(&c->state, &c->src);
        if (s == PB_OK && m == PB_FM_DEAD_VIA) {   /* the direction starts as the shorter arc from the source */
            if (!c->via.n) s = pb_pose_alloc(&c->via, c->n);
            if (s == PB_OK) s = pb_pose_copy(&c->via, &c->src);
        }
        if (s != PB_OK) c->failed = "pb_pose_copy";
        if (s != PB_OK || m != PB_FM_DEAD_UE) return s;
        /* Unreal's half-lives, from the way to the destination at the transition */
        if (!c->halflives.n && (s = pb_pose_alloc(&c->halflives, c->n)) != PB_OK) {
            c->failed = "pb_pose_alloc";
            return s;
        }
        pb_call call = { .a = &c->src, .b = &c->dst, .out = &c->halflives,
                         .params = { .hl_scale = c->hl_scale, .hl_min = c->hl_min, .hl_max = c->hl_max } };
        return run_op(c, PB_OP_estimate_halflife, v, &call);
    }
    return PB_OK;
}

pb_status pb_frame_crowd_halflife_est(pb_frame_crowd *c, float scale, float min, float max)
{
    pb_status st = pb_frame_crowd_ok(c, "pb_frame_crowd_halflife_est");
    if (st != PB_OK) return st;
    if ((st = pb_halflife_est_check("pb_frame_crowd_halflife_est", scale, min, max)) != PB_OK) return st;
    if (scale == 0 && min == 0 && max == 0)   /* the op's "defaults" form: the values themselves */
        scale = PB_HALFLIFE_EST_SCALE, min = PB_HALFLIFE_EST_MIN, max = PB_HALFLIFE_EST_MAX;
    c->hl_scale = scale, c->hl_min = min, c->hl_max = max;
    return PB_OK;
}

pb_status pb_frame_crowd_curve(pb_frame_crowd *c, const pb_curve *curve, int frozen)
{
    pb_status st = pb_frame_crowd_ok(c, "pb_frame_crowd_curve");
    if (st != PB_OK) return st;
    if ((st = pb_curve_check("pb_frame_crowd_curve", curve)) != PB_OK) return st;
    if (frozen != 0 && frozen != 1)
        return pb_fail(PB_ERR_PARAM, "pb_frame_crowd_curve: frozen is %d (0: smooth, 1: frozen)", frozen);
    c->curve = *curve, c->frozen = frozen;
    return PB_OK;
}

/* The static transitions write pos, rot and scl only: the mix's velocities are 0 (its padding's identity),
 * set every frame, so a frame never reads what an earlier frame, another method or another block left in
 * them (a block's mix may be a thread's scratch, shared with blocks of other sizes). */
static void mix_velocities_zero(pb_frame_crowd *c)
{
    for (int p = PB_VEL_X; p < PB_PLANES; p++) memset(c->mix.plane[p], 0, c->mix.stride * sizeof(float));
}

/* inplace (the frame's stages): inertialization's destination was sampled into local (stage_do), and
 * the transition runs in place there, as the additive layer then does (the other methods read two
 * poses, or a state and dst, and write mix). */
pb_status pb_frame_transition_at(pb_frame_crowd *c, const pb_variant *v, pb_frame_method m, float t, int inplace)
{
    static const char *fn = "pb_frame_transition";
    pb_status st = pb_frame_crowd_ok(c, fn);
    if (st != PB_OK) return st;
    if (!pb_frame_method_get(m)) return pb_fail(PB_ERR_PARAM, "%s: method %d is not a pb_frame_method", fn, (int)m);
    if (!isfinite(t)) return pb_fail(PB_ERR_PARAM, "%s: t is %g (must be finite)", fn, (double)t);
    float T = c->duration, u = T > 0 ? t / T : 1.0f;
    if (u > 1.0f) u = 1.0f;
    if (u < 0.0f) u = 0.0f;
    pb_call call = { .out = &c->mix };
    /* cross-fades by the crowd's curve; by default smoothstep, dead blending's, so the methods
     * differ in what they blend, not in the weight curve */
    float dw = 0.0f;
    call.params.alpha = pb_curve_eval(&c->curve, u, &dw);
    call.params.alpha_vel = T > 0 && u < 1.0f ? dw / T : 0.0f;
    call.params.time = t;
    call.params.duration = T;
    call.params.halflife = c->halflife;
    c->mixed = m == PB_FM_CUT ? &c->dst : &c->mix;
    switch (m) {
    case PB_FM_CUT: return PB_OK;
    case PB_FM_CROSSFADE_STATIC:
    case PB_FM_CROSSFADE_NLERP:
    case PB_FM_CROSSFADE:
        call.a = c->frozen ? &c->state : &c->src;   /* frozen: the source as it was at the transition */
        call.b = &c->dst;
        if (m != PB_FM_CROSSFADE) mix_velocities_zero(c);
        return run_op(c, m == PB_FM_CROSSFADE_STATIC ? PB_OP_blend_static
                         : m == PB_FM_CROSSFADE_NLERP ? PB_OP_blend_static_nlerp : PB_OP_blend, v, &call);
    case PB_FM_INERTIALIZE:
        call.a = &c->dst;
        call.b = &c->state;
        if (inplace) call.a = call.out = &c->local, c->mixed = &c->local;
        return run_op(c, PB_OP_inertialize, v, &call);
    case PB_FM_DEAD:
    case PB_FM_DEAD_UE:
    case PB_FM_DEAD_CLAMP:
    case PB_FM_DEAD_BOUNCE:
    case PB_FM_DEAD_VIA: {
        call.a = &c->state;
        call.b = &c->dst;
        call.skel = &c->skel;
        if (m == PB_FM_DEAD_UE) call.per.halflives = &c->halflives;
        if (m == PB_FM_DEAD_VIA) {
            if (c->via.n != c->n) return pb_fail(PB_ERR_PARAM, "pb_frame_transition: dead_via before pb_frame_begin");
            call.via = &c->via;
        }
        pb_joint_limits lim = { m == PB_FM_DEAD_BOUNCE ? PB_LIMIT_BOUNCE : PB_LIMIT_CLAMP, c->limits,
                                c->limits ? c->limits + 3 * c->sc->joints : NULL, NULL };
        if (m == PB_FM_DEAD_CLAMP || m == PB_FM_DEAD_BOUNCE) {
            if (!c->limits) return pb_fail(PB_ERR_PARAM, "pb_frame_transition: %s before pb_frame_begin",
                                           pb_frame_method_get(m)->key);
            call.per.characters = c->characters;
            call.per.limits = &lim;
        }
        return run_op(c, PB_OP_dead_blending, v, &call);
    }
    case PB_FM_DEAD_NLERP: {
        pb_call ext = { .a = &c->state, .out = &c->tmp, .skel = &c->skel, .params = call.params };
        pb_status s = run_op(c, PB_OP_extrapolate_decayed, v, &ext);
        if (s != PB_OK) return s;
        call.a = &c->tmp;
        call.b = &c->dst;
        if ((s = run_op(c, PB_OP_blend_static_nlerp, v, &call)) != PB_OK) return s;
        mix_velocities_zero(c);
        /* as dead_blending: roots take the destination's (the controller drives them) */
        size_t C = c->characters;
        for (size_t j = 0; j < c->sc->joints; j++)
            if (c->sc->parents[j] < 0)
                for (int p = 0; p < PB_PLANES; p++)
                    memcpy(c->mix.plane[p] + j * C, c->dst.plane[p] + j * C, C * sizeof(float));
        return PB_OK;
    }
    default: return PB_ERR_PARAM;
    }
}

pb_status pb_frame_additive(pb_frame_crowd *c, const pb_variant *v)
{
    if (pb_frame_crowd_ok(c, "pb_frame_additive") != PB_OK) return PB_ERR_NULL;
    pb_call call = { .a = c->mixed, .b = &c->delta, .out = &c->local };
    call.params.alpha = PB_FRAME_ADDITIVE_WEIGHT;
    call.params.alpha_vel = 0.0f;
    return run_op(c, PB_OP_additive, v, &call);
}

/* Only the joints whose globals the IK reads (10 of the synthetic
 * character's 64, 9 of CMU's 31), copied out of the crowd's locals: the
 * same per-joint arithmetic as the whole pose's fk_static, so the same bits
 * whenever both take the same fk path (test_frame); under 16 characters a
 * large skeleton's whole pose would take the crowd path and its legs the
 * few-characters one, which round differently. */
pb_status pb_frame_leg_fk(pb_frame_crowd *c, const pb_variant *v)
{
    if (pb_frame_crowd_ok(c, "pb_frame_leg_fk") != PB_OK) return PB_ERR_NULL;
    if (!c->leg_count) return PB_OK;   /* no legs, no IK */
    size_t C = c->characters;
    for (size_t i = 0; i < c->leg_count; i++)
        for (int p = PB_POS_X; p <= PB_SCL_Z; p++)
            memcpy(c->leg_local.plane[p] + i * C, c->local.plane[p] + (size_t)c->leg_joints[i] * C, C * sizeof(float));
    pb_call call = { .a = &c->leg_local, .out = &c->leg_global, .skel = &c->leg_skel };
    return run_op(c, PB_OP_fk_static, v, &call);
}

/* Chains in the PB_OPF_CHAIN layout, chain = leg x C + character: roots'
 * globals (from legs FK), mids' and ends' locals; targets: the feet where
 * they are now, raised or lowered by the character's lift (uneven ground).
 * The solved root rotation is global: its local is inv(parent global) x it. */
pb_status pb_frame_ik(pb_frame_crowd *c, const pb_variant *v)
{
    if (pb_frame_crowd_ok(c, "pb_frame_ik") != PB_OK) return PB_ERR_NULL;
    const pb_scene *sc = c->sc;
    if (sc->leg[0][0] < 0) return PB_OK;   /* no legs: reported by the caller */
    size_t C = c->characters, K = 2 * C;
    const size_t row = C * sizeof(float);   /* a joint's characters, contiguous in both layouts */
    for (int l = 0; l < 2; l++) {
        size_t mid = (size_t)sc->leg[l][1], end = (size_t)sc->leg[l][2], ch = (size_t)l * C;
        size_t groot = (size_t)c->leg_at[l][0], gend = (size_t)c->leg_at[l][2];   /* in leg_global */
        for (int p = PB_POS_X; p <= PB_SCL_Z; p++) {
            memcpy(c->chain.plane[p] + ch, c->leg_global.plane[p] + groot * C, row);
            memcpy(c->chain.plane[p] + K + ch, c->local.plane[p] + mid * C, row);
            memcpy(c->chain.plane[p] + 2 * K + ch, c->local.plane[p] + end * C, row);
        }
        for (int p = PB_POS_X; p <= PB_POS_Z; p++) memcpy(c->target.plane[p] + 2 * K + ch, c->leg_global.plane[p] + gend * C, row);
        for (size_t k = 0; k < C; k++) c->target.plane[PB_POS_Y][2 * K + ch + k] += c->lift[k];
    }
    pb_call call = { .a = &c->chain, .b = &c->target, .out = &c->solved };
    call.params.axis[0] = 1.0f;   /* knee hint, used only for a straight leg */
    pb_status s = run_op(c, PB_OP_two_bone_ik, v, &call);
    if (s != PB_OK) return s;
    /* Back into the locals by rows: the mid's solved rotation is local; the
     * root's is global, its local inv(parent) x it, in float as the ops
     * compute (the old per-element double product and normalization was
     * half of this stage). */
    float *const *sv = c->solved.plane, *const *lo = c->local.plane;
    for (int l = 0; l < 2; l++) {
        size_t root = (size_t)sc->leg[l][0], mid = (size_t)sc->leg[l][1], ch = (size_t)l * C;
        int32_t parent = c->leg_at[l][3];   /* in leg_global */
        for (int p = PB_ROT_W; p <= PB_ROT_Z; p++) memcpy(lo[p] + mid * C, sv[p] + K + ch, row);
        if (parent < 0) {
            for (int p = PB_ROT_W; p <= PB_ROT_Z; p++) memcpy(lo[p] + root * C, sv[p] + ch, row);
            continue;
        }
        float *const *pg = c->leg_global.plane;
        size_t pe = (size_t)parent * C;
        const float *pw = pg[PB_ROT_W] + pe, *px = pg[PB_ROT_X] + pe, *py = pg[PB_ROT_Y] + pe, *pz = pg[PB_ROT_Z] + pe;
        const float *gw = sv[PB_ROT_W] + ch, *gx = sv[PB_ROT_X] + ch, *gy = sv[PB_ROT_Y] + ch, *gz = sv[PB_ROT_Z] + ch;
        float *ow = lo[PB_ROT_W] + root * C, *ox = lo[PB_ROT_X] + root * C, *oy = lo[PB_ROT_Y] + root * C,
              *oz = lo[PB_ROT_Z] + root * C;
        for (size_t k = 0; k < C; k++) {   /* (w, -v) of the parent times g */
            float aw = pw[k], ax = px[k], ay = py[k], az = pz[k], bw = gw[k], bx = gx[k], by = gy[k], bz = gz[k];
            ow[k] = aw * bw + ax * bx + ay * by + az * bz;
            ox[k] = aw * bx - ax * bw - ay * bz + az * by;
            oy[k] = aw * by + ax * bz - ay * bw - az * bx;
            oz[k] = aw * bz - ax * by + ay * bx - az * bw;
        }
    }
    return PB_OK;
}

pb_status pb_frame_fk(pb_frame_crowd *c, const pb_variant *v)
{
    if (pb_frame_crowd_ok(c, "pb_frame_fk") != PB_OK) return PB_ERR_NULL;
    pb_call call = { .a = &c->local, .out = &c->global, .skel = &c->skel };
    return run_op(c, PB_OP_fk, v, &call);
}

static pb_status skin_method_check(const pb_frame_crowd *c)
{
    if (c->sc->skin != PB_SKIN_LBS && c->sc->skin != PB_SKIN_DQS)
        return pb_fail(PB_ERR_PARAM, "frame: scene %s: skin is %d (PB_SKIN_LBS or PB_SKIN_DQS)", c->sc->name,
                       (int)c->sc->skin);
    return PB_OK;
}

pb_status pb_frame_palette(pb_frame_crowd *c, const pb_variant *v)
{
    pb_status s = pb_frame_crowd_ok(c, "pb_frame_palette");
    if (s == PB_OK) s = skin_method_check(c);
    if (s != PB_OK) return s;
    pb_call call = { .a = &c->global, .b = &c->inv_bind, .palette = &c->palette, .per.characters = c->characters };
    return run_op(c, c->sc->skin == PB_SKIN_DQS ? PB_OP_palette_dq : PB_OP_palette, v, &call);
}

pb_status pb_frame_skin(pb_frame_crowd *c, const pb_variant *v)
{
    pb_status s = pb_frame_crowd_ok(c, "pb_frame_skin");
    if (s != PB_OK) return s;
    if (!c->sc->mesh.n) return PB_OK;
    s = skin_method_check(c);
    if (s != PB_OK) return s;
    pb_skin_method method = c->sc->skin;
    if (!c->skin_ready || c->skin_variant != v || c->skin_method != method) {   /* checked once per character,
                                                                                    variant and method */
        skin_jobs_free(c);
        for (size_t k = 0; k < c->characters; k++) {
            pb_skin_call call = { .mesh = &c->sc->mesh, .palette = &c->palette, .characters = c->characters,
                                  .character = k, .out = &c->skin[k] };
            s = pb_skin_job_create(&c->skin_jobs[k], method, v, &call);
            if (s != PB_OK) {
                skin_jobs_free(c);
                c->failed = method == PB_SKIN_DQS ? "skin_dqs" : "skin_lbs";
                return s;
            }
        }
        c->skin_variant = v;
        c->skin_method = method;
        c->skin_ready = 1;
    }
    for (size_t k = 0; k < c->characters; k++) pb_skin_job_run(c->skin_jobs[k]);
    return PB_OK;
}
