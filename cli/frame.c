/* frame.c — `posebench frame`: a crowd running a realistic animation frame,
 * timed per stage and per variant, and the pipeline it is made of (scenes,
 * crowds, stages), which `posebench budget` (budget.c) reuses.
 *
 * One frame, per character, in the crowd layout (element = joint x C + c):
 *   sample     sample_linear or sample_cubic of the clip(s) the method needs:
 *              both for a cross-fade, the destination only for inertialization
 *              and dead blending (their source is a state kept from the transition)
 *   transition cross-fade (blend), inertialize, or dead_blending
 *   additive   additive (local, with velocities) of a fixed delta pose at weight 0.5
 *   legs FK    fk_static of the whole pose: the leg roots' globals the IK needs
 *   2-leg IK   gather both legs' chains, two_bone_ik, scatter the rotations back
 *   FK         fk with velocities: the globals a renderer or physics would read
 * Every op goes through pb_run (its argument checks, 0.1 us a call, are part of
 * what an engine pays). Times are CPU time (CLOCK_PROCESS_CPUTIME_ID): each
 * stage is timed as a block of F frames (one clock read per block, not per
 * call: the process clock is a system call, ~0.3 us, which per stage would
 * be a few % of a stage), and the whole frame as its own block; medians over
 * repetitions. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "qd.h"
#include "validate.h"
#include "all_variants.h"

#ifndef PB_CLI_C_FLAGS
#define PB_CLI_C_FLAGS "unknown"
#endif
#ifndef PB_CLI_KERNEL_FLAGS
#define PB_CLI_KERNEL_FLAGS "unknown"
#endif
#ifndef PB_CLI_BUILD_TYPE
#define PB_CLI_BUILD_TYPE "unknown"
#endif
#ifndef PB_CLI_COMPILER_ID
#define PB_CLI_COMPILER_ID "unknown"
#endif

#define SYNTH_FPS 60.0f              /* synthetic clips: 2 s at 60 fps */
#define SYNTH_SECONDS 2.0f
#define ADDITIVE_WEIGHT 0.5f

/* splitmix64: deterministic, seedable, good enough for scene generation */
static uint64_t mix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static float unit01(uint64_t *s) { return (float)(mix64(s) >> 40) * (1.0f / 16777216.0f); }
static void rand_dir(uint64_t *s, double d[3])
{
    double l;
    do {
        for (int i = 0; i < 3; i++) d[i] = 2.0 * unit01(s) - 1.0;
        l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    } while (l < 0.1 || l > 1.0);
    for (int i = 0; i < 3; i++) d[i] /= l;
}

/* ---- scenes ------------------------------------------------------------------------------- */

void pb_scene_free(pb_scene *s)
{
    if (!s) return;
    free(s->parents);
    pb_clip_free(&s->clip[0]);
    pb_clip_free(&s->clip[1]);
    memset(s, 0, sizeof *s);
}

static int is_ancestor_or_self(const int32_t *parents, int a, int x)
{
    for (; x >= 0; x = parents[x])
        if (x == a) return 1;
    return 0;
}

/* Two independent two-bone chains: an end joint at depth >= 2 with its parent
 * and grandparent, the second chosen so that neither chain's root lies in
 * the other's subtree (solving one leg must not move the other). Deepest
 * candidates first, from the last joint back. */
static void pick_chains(pb_scene *s)
{
    s->leg[0][0] = s->leg[1][0] = -1;
    int found = 0;
    for (int j = (int)s->joints - 1; j >= 0 && found < 2; j--) {
        int p = s->parents[j], g = p >= 0 ? s->parents[p] : -1;
        if (g < 0) continue;
        if (found == 1 && (is_ancestor_or_self(s->parents, s->leg[0][0], g) ||
                           is_ancestor_or_self(s->parents, g, s->leg[0][0])))
            continue;
        s->leg[found][0] = g;
        s->leg[found][1] = p;
        s->leg[found][2] = j;
        found++;
    }
    if (found == 2)
        snprintf(s->leg_desc, sizeof s->leg_desc, "joints %d-%d-%d and %d-%d-%d (two independent 3-joint chains)",
                 s->leg[0][0], s->leg[0][1], s->leg[0][2], s->leg[1][0], s->leg[1][1], s->leg[1][2]);
    else {
        s->leg[0][0] = s->leg[1][0] = -1;
        snprintf(s->leg_desc, sizeof s->leg_desc, "none: no two independent 3-joint chains in this skeleton");
    }
}

/* Smooth synthetic motion for one clip. Joint 0 is a trajectory on the ground
 * (walking 0.8-1.6 m/s along a gentle arc, yaw only), so clips can be aligned
 * at a transition as mocap is; other joints hold their bone offset and swing
 * about a random rest rotation. Keys vary smoothly: velocities are plausible. */
static int synth_clip(pb_clip *clip, const float (*offset)[3], size_t J, uint64_t seed)
{
    size_t frames = (size_t)(SYNTH_SECONDS * SYNTH_FPS) + 1;
    if (pb_clip_alloc(clip, frames, J, SYNTH_FPS) != PB_OK) return -1;
    uint64_t r = seed;
    float speed = 0.8f + 0.8f * unit01(&r), h0 = 6.2831853f * unit01(&r);
    float turn = (0.1f + 0.3f * unit01(&r)) * (unit01(&r) < 0.5f ? -1.0f : 1.0f);
    const double up[3] = { 0, 1, 0 };
    pb_pose *p = &clip->pose;
    for (size_t j = 0; j < J; j++) {
        double base_ax[3], osc_ax[3];
        rand_dir(&r, base_ax);
        rand_dir(&r, osc_ax);
        float base_angle = 0.5f * unit01(&r), amp = 0.1f + 0.4f * unit01(&r);
        float freq = 0.5f + 1.5f * unit01(&r), phase = 6.2831853f * unit01(&r);
        qd base = qd_axis(base_ax, base_angle);
        for (size_t f = 0; f < frames; f++) {
            float t = (float)f / SYNTH_FPS;
            size_t e = f * J + j;
            if (j == 0) {
                float h = h0 + turn * t;
                p->plane[PB_POS_X][e] = -speed / turn * (cosf(h) - cosf(h0));
                p->plane[PB_POS_Y][e] = 0.0f;
                p->plane[PB_POS_Z][e] = speed / turn * (sinf(h) - sinf(h0));
                qd_set(p, e, qd_axis(up, h));
            } else {
                for (int c = 0; c < 3; c++) p->plane[PB_POS_X + c][e] = offset[j][c];
                qd_set(p, e, qd_mul(qd_axis(osc_ax, amp * sinf(6.2831853f * freq * t + phase)), base));
            }
        }
    }
    return 0;
}

int pb_scene_synthetic(pb_scene *s, size_t joints, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    float (*offset)[3] = malloc(joints * sizeof *offset);
    s->parents = malloc(joints * sizeof *s->parents);
    if (!offset || !s->parents) {
        free(offset);
        fprintf(stderr, "posebench: out of memory\n");
        pb_scene_free(s);
        return -1;
    }
    /* a plain chain first: pb_gen_parents leaves the array as is if it cannot allocate */
    for (size_t j = 0; j < joints; j++) s->parents[j] = (int32_t)j - 1;
    pb_gen_parents(s->parents, joints, 16, seed);
    uint64_t r = seed ^ 0x5EED0FF5E7ull;
    for (size_t j = 0; j < joints; j++) {
        double d[3], len = 0.05 + 0.12 * unit01(&r);
        rand_dir(&r, d);
        for (int c = 0; c < 3; c++) offset[j][c] = (float)(d[c] * len);
    }
    s->joints = joints;
    int bad = synth_clip(&s->clip[0], (const float(*)[3])offset, joints, seed * 31 + 1) ||
              synth_clip(&s->clip[1], (const float(*)[3])offset, joints, seed * 31 + 2);
    free(offset);
    if (bad) {
        fprintf(stderr, "posebench: synthetic clip: %s\n", pb_last_error());
        pb_scene_free(s);
        return -1;
    }
    snprintf(s->name, sizeof s->name, "synthetic-%zu", joints);
    snprintf(s->source, sizeof s->source,
             "generated (seed %llu): random parents (depth < 16), bones 5-17 cm, joint 0 a ground trajectory, "
             "smooth swings; two %.0f s clips at %.0f fps", (unsigned long long)seed, (double)SYNTH_SECONDS,
             (double)SYNTH_FPS);
    snprintf(s->clip_name[0], sizeof s->clip_name[0], "synthetic A");
    snprintf(s->clip_name[1], sizeof s->clip_name[1], "synthetic B");
    pick_chains(s);
    return 0;
}

static const char *base_name(const char *path, char *buf, size_t len)
{
    const char *b = strrchr(path, '/');
    snprintf(buf, len, "%s", b ? b + 1 : path);
    char *dot = strrchr(buf, '.');
    if (dot && dot != buf) *dot = '\0';
    return buf;
}

static int find_joint(const pb_bvh_skeleton *b, const char *name)
{
    for (size_t j = 0; j < b->joints; j++)
        if (!strcmp(b->names[j], name)) return (int)j;
    return -1;
}

/* Returns 0, -1 (error, printed) or -2 (the hierarchies differ; nothing printed). */
int pb_scene_bvh(pb_scene *s, const char *name, const char *path_a, const char *path_b, float unit_scale)
{
    memset(s, 0, sizeof *s);
    pb_bvh_options opt = pb_bvh_default_options();
    opt.unit_scale = unit_scale;
    pb_bvh_skeleton ska = { 0 }, skb = { 0 };
    if (pb_bvh_load(path_a, &opt, &ska, &s->clip[0]) != PB_OK) {
        fprintf(stderr, "posebench: %s\n", pb_last_error());
        return -1;
    }
    if (pb_bvh_load(path_b, &opt, &skb, &s->clip[1]) != PB_OK) {
        fprintf(stderr, "posebench: %s\n", pb_last_error());
        pb_bvh_skeleton_free(&ska);
        pb_scene_free(s);
        return -1;
    }
    int same = ska.joints == skb.joints;
    for (size_t j = 0; same && j < ska.joints; j++)
        same = ska.parents[j] == skb.parents[j] && !strcmp(ska.names[j], skb.names[j]);
    if (!same) {
        pb_bvh_skeleton_free(&ska);
        pb_bvh_skeleton_free(&skb);
        pb_scene_free(s);
        return -2;
    }
    s->joints = ska.joints;
    s->parents = malloc(s->joints * sizeof *s->parents);
    if (!s->parents) {
        fprintf(stderr, "posebench: out of memory\n");
        pb_bvh_skeleton_free(&ska);
        pb_bvh_skeleton_free(&skb);
        pb_scene_free(s);
        return -1;
    }
    memcpy(s->parents, ska.parents, s->joints * sizeof *s->parents);
    char ba[64], bb[64];
    base_name(path_a, ba, sizeof ba);
    base_name(path_b, bb, sizeof bb);
    if (name) snprintf(s->name, sizeof s->name, "%s", name);
    else snprintf(s->name, sizeof s->name, "bvh:%.40s-%zu", ba, s->joints);
    snprintf(s->source, sizeof s->source, "%s (%zu frames at %.0f fps) -> %s (%zu frames), unit scale %g", path_a,
             s->clip[0].frames, (double)s->clip[0].fps, path_b, s->clip[1].frames, (double)unit_scale);
    snprintf(s->clip_name[0], sizeof s->clip_name[0], "%s", ba);
    snprintf(s->clip_name[1], sizeof s->clip_name[1], "%s", bb);
    /* legs by name (CMU and most mocap rigs), checked to be parent-linked chains */
    static const char *names[2][3] = { { "LeftUpLeg", "LeftLeg", "LeftFoot" }, { "RightUpLeg", "RightLeg", "RightFoot" } };
    int ok = 1;
    for (int l = 0; l < 2; l++)
        for (int k = 0; k < 3; k++) {
            s->leg[l][k] = find_joint(&ska, names[l][k]);
            ok &= s->leg[l][k] >= 0;
        }
    for (int l = 0; ok && l < 2; l++)
        ok = s->parents[s->leg[l][1]] == s->leg[l][0] && s->parents[s->leg[l][2]] == s->leg[l][1];
    if (ok)
        snprintf(s->leg_desc, sizeof s->leg_desc, "LeftUpLeg-LeftLeg-LeftFoot and RightUpLeg-RightLeg-RightFoot (by name)");
    else
        pick_chains(s);
    pb_bvh_skeleton_free(&ska);
    pb_bvh_skeleton_free(&skb);
    return 0;
}

/* ---- transition methods -------------------------------------------------------------------- */
static const pb_tmethod_info tmethods[PB_TM_COUNT] = {
    [PB_TM_CUT] = { "cut", "cut (no blend)", "n/a", "none (the destination as is)", "", 1 },
    [PB_TM_CROSSFADE_STATIC] = { "crossfade_slerp", "cross-fade", "slerp", "blend_static", "", 2 },
    [PB_TM_CROSSFADE_NLERP] = { "crossfade_nlerp", "cross-fade", "nlerp", "blend_static_nlerp", "", 2 },
    [PB_TM_CROSSFADE] = { "crossfade_exact", "cross-fade", "slerp+vel", "blend (exact velocities)", "", 2 },
    [PB_TM_INERTIALIZE] = { "inertialize", "inertialization", "n/a", "inertialize", "inertialize_offset", 1 },
    [PB_TM_DEAD] = { "dead_slerp", "dead blending", "slerp", "dead_blending", "copy of the source pose", 1 },
    [PB_TM_DEAD_NLERP] = { "dead_nlerp", "dead blending", "nlerp",
                           "extrapolate_decayed + blend_static_nlerp + roots copied", "copy of the source pose", 1 },
};
const pb_tmethod_info *pb_tmethod_get(pb_tmethod m) { return (unsigned)m < PB_TM_COUNT ? &tmethods[m] : NULL; }

/* ---- crowds ---------------------------------------------------------------------------------- */
void pb_crowd_free(pb_crowd *c)
{
    if (!c) return;
    pb_pose *poses[] = { &c->src, &c->dst, &c->state, &c->tmp, &c->mix, &c->delta, &c->local, &c->global,
                         &c->chain, &c->target, &c->solved };
    for (size_t i = 0; i < sizeof poses / sizeof poses[0]; i++) pb_pose_free(poses[i]);
    pb_skeleton_free(&c->skel);
    pb_crowd_builder_free(&c->play[0]);
    pb_crowd_builder_free(&c->play[1]);
    free(c->lift);
    memset(c, 0, sizeof *c);
}

int pb_crowd_init(pb_crowd *c, const pb_scene *sc, size_t characters, pb_op sampler)
{
    memset(c, 0, sizeof *c);
    if (sc->joints * characters > PB_CROWD_MAX_ELEMENTS) {
        fprintf(stderr, "posebench: a crowd of %zu characters x %zu joints is %zu elements; at most %zu (11 poses "
                "of 76 bytes per element): use fewer characters or joints\n", characters, sc->joints,
                sc->joints * characters, PB_CROWD_MAX_ELEMENTS);
        return -1;
    }
    c->sc = sc;
    c->characters = characters;
    c->n = sc->joints * characters;
    c->sampler = sampler;
    c->clip_of[0] = 0;
    c->clip_of[1] = 1;
    c->duration = PB_TRANSITION_S;
    c->halflife = PB_HALFLIFE_S;
    size_t chains = 3 * 2 * characters;
    pb_status st = pb_skeleton_init(&c->skel, sc->parents, sc->joints, characters);
    pb_pose *poses[] = { &c->src, &c->dst, &c->state, &c->tmp, &c->mix, &c->delta, &c->local, &c->global };
    for (size_t i = 0; st == PB_OK && i < sizeof poses / sizeof poses[0]; i++) st = pb_pose_alloc(poses[i], c->n);
    if (st == PB_OK) st = pb_pose_alloc(&c->chain, chains);
    if (st == PB_OK) st = pb_pose_alloc(&c->target, chains);
    if (st == PB_OK) st = pb_pose_alloc(&c->solved, chains);
    float *offset[2] = { malloc(characters * sizeof(float)), malloc(characters * sizeof(float)) };
    c->lift = malloc(characters * sizeof(float));
    if (st != PB_OK || !offset[0] || !offset[1] || !c->lift) {
        free(offset[0]);
        free(offset[1]);
        fprintf(stderr, "posebench: crowd of %zu x %zu: %s\n", characters, sc->joints,
                st != PB_OK ? pb_last_error() : "out of memory");
        pb_crowd_free(c);
        return -1;
    }
    /* Characters spread over the first half of each clip (the frame loop adds
     * up to another half), by golden-ratio steps: deterministic, no two alike. */
    for (size_t k = 0; k < characters; k++) {
        double g1 = fmod(0.6180339887 * (double)k, 1.0), g2 = fmod(0.7548776662 * (double)k + 0.5, 1.0);
        offset[0][k] = (float)g1 * 0.5f * pb_clip_duration(&sc->clip[0]);
        offset[1][k] = (float)g2 * 0.5f * pb_clip_duration(&sc->clip[1]);
        c->lift[k] = ((float)fmod(0.3819660113 * (double)k, 1.0) - 0.5f) * 0.06f;   /* +-3 cm: uneven ground */
    }
    int bad = pb_crowd_play(c, 0, 0, offset[0]) || pb_crowd_play(c, 1, 1, offset[1]);
    free(offset[0]);
    free(offset[1]);
    if (bad) {
        pb_crowd_free(c);
        return -1;
    }
    /* The additive layer's delta: up to ~3 degrees and 1 cm, slowly animating. */
    uint64_t r = 0xADD171FEull;
    for (size_t e = 0; e < c->n; e++) {
        double ax[3];
        rand_dir(&r, ax);
        qd_set(&c->delta, e, qd_axis(ax, 0.05 * unit01(&r)));
        for (int k = 0; k < 3; k++) {
            c->delta.plane[PB_POS_X + k][e] = 0.01f * (2 * unit01(&r) - 1);
            c->delta.plane[PB_VEL_X + k][e] = 0.02f * (2 * unit01(&r) - 1);
            c->delta.plane[PB_ANG_X + k][e] = 0.3f * (2 * unit01(&r) - 1);
        }
    }
    c->mixed = &c->mix;
    return 0;
}

/* ---- stages ------------------------------------------------------------------------------------ */
static pb_status run_op(pb_crowd *c, pb_op op, const pb_variant *v, const pb_call *call)
{
    pb_status s = pb_run(op, v, call);
    if (s != PB_OK) c->failed = pb_op_get(op)->name;
    return s;
}

int pb_crowd_play(pb_crowd *c, int role, int clip, const float *offsets)
{
    const pb_clip *clips[] = { &c->sc->clip[clip] };
    pb_crowd_desc d = { .clips = clips, .nclips = 1, .characters = c->characters, .offsets = offsets,
                        .method = c->sampler == PB_OP_sample_cubic ? PB_SAMPLE_CUBIC : PB_SAMPLE_LINEAR };
    pb_crowd_builder_free(&c->play[role]);
    if (pb_crowd_builder_init(&c->play[role], &d) != PB_OK) {
        fprintf(stderr, "posebench: crowd builder for %s: %s\n", c->sc->clip_name[clip], pb_last_error());
        return -1;
    }
    c->clip_of[role] = clip;
    return 0;
}

/* Sampling is the crowd builder's job (one pb_run of the sampler across the
 * characters, as a game would do it); the stage only picks the variant. */
pb_status pb_stage_sample(pb_crowd *c, const pb_variant *v, int role, float time)
{
    pb_crowd_builder *b = &c->play[role];
    pb_status s = pb_crowd_builder_set_variant(b, v);
    if (s == PB_OK) s = pb_crowd_build(b, time, role ? &c->dst : &c->src);
    if (s != PB_OK) c->failed = pb_op_get(c->sampler)->name;
    return s;
}

pb_status pb_stage_begin(pb_crowd *c, const pb_variant *v, pb_tmethod m)
{
    c->mixed = m == PB_TM_CUT ? &c->dst : &c->mix;
    if (m == PB_TM_INERTIALIZE) {
        pb_call call = { .a = &c->src, .b = &c->dst, .out = &c->state };
        return run_op(c, PB_OP_inertialize_offset, v, &call);
    }
    if (m == PB_TM_DEAD || m == PB_TM_DEAD_NLERP) {
        pb_status s = pb_pose_copy(&c->state, &c->src);
        if (s != PB_OK) c->failed = "pb_pose_copy";
        return s;
    }
    return PB_OK;
}

static float smoothstep01(float u) { return u * u * (3.0f - 2.0f * u); }

pb_status pb_stage_transition(pb_crowd *c, const pb_variant *v, pb_tmethod m, float t)
{
    float T = c->duration, u = T > 0 ? t / T : 1.0f;
    if (u > 1.0f) u = 1.0f;
    if (u < 0.0f) u = 0.0f;
    pb_call call = { .out = &c->mix };
    /* cross-fades use the same smoothstep weight as dead blending, so the
     * methods differ in what they blend, not in the weight curve */
    call.params.alpha = smoothstep01(u);
    call.params.alpha_vel = T > 0 && u < 1.0f ? 6.0f * u * (1.0f - u) / T : 0.0f;
    call.params.time = t;
    call.params.duration = T;
    call.params.halflife = c->halflife;
    c->mixed = m == PB_TM_CUT ? &c->dst : &c->mix;
    switch (m) {
    case PB_TM_CUT: return PB_OK;
    case PB_TM_CROSSFADE_STATIC:
    case PB_TM_CROSSFADE_NLERP:
    case PB_TM_CROSSFADE:
        call.a = &c->src;
        call.b = &c->dst;
        return run_op(c, m == PB_TM_CROSSFADE_STATIC ? PB_OP_blend_static
                         : m == PB_TM_CROSSFADE_NLERP ? PB_OP_blend_static_nlerp : PB_OP_blend, v, &call);
    case PB_TM_INERTIALIZE:
        call.a = &c->dst;
        call.b = &c->state;
        return run_op(c, PB_OP_inertialize, v, &call);
    case PB_TM_DEAD:
        call.a = &c->state;
        call.b = &c->dst;
        call.skel = &c->skel;
        return run_op(c, PB_OP_dead_blending, v, &call);
    case PB_TM_DEAD_NLERP: {
        pb_call ext = { .a = &c->state, .out = &c->tmp, .skel = &c->skel, .params = call.params };
        pb_status s = run_op(c, PB_OP_extrapolate_decayed, v, &ext);
        if (s != PB_OK) return s;
        call.a = &c->tmp;
        call.b = &c->dst;
        if ((s = run_op(c, PB_OP_blend_static_nlerp, v, &call)) != PB_OK) return s;
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

pb_status pb_stage_additive(pb_crowd *c, const pb_variant *v)
{
    pb_call call = { .a = c->mixed, .b = &c->delta, .out = &c->local };
    call.params.alpha = ADDITIVE_WEIGHT;
    call.params.alpha_vel = 0.0f;
    return run_op(c, PB_OP_additive, v, &call);
}

pb_status pb_stage_leg_fk(pb_crowd *c, const pb_variant *v)
{
    pb_call call = { .a = &c->local, .out = &c->global, .skel = &c->skel };
    return run_op(c, PB_OP_fk_static, v, &call);
}

/* Chains in the PB_OPF_CHAIN layout, chain = leg x C + character: roots'
 * globals (from legs FK), mids' and ends' locals; targets: the feet where
 * they are now, raised or lowered by the character's lift (uneven ground).
 * The solved root rotation is global: its local is inv(parent global) x it. */
pb_status pb_stage_ik(pb_crowd *c, const pb_variant *v)
{
    const pb_scene *sc = c->sc;
    if (sc->leg[0][0] < 0) return PB_OK;   /* no legs: reported by the caller */
    size_t C = c->characters, K = 2 * C;
    for (int l = 0; l < 2; l++) {
        size_t root = (size_t)sc->leg[l][0], mid = (size_t)sc->leg[l][1], end = (size_t)sc->leg[l][2];
        for (size_t k = 0; k < C; k++) {
            size_t ch = (size_t)l * C + k;
            for (int p = PB_POS_X; p <= PB_SCL_Z; p++) {
                c->chain.plane[p][ch] = c->global.plane[p][root * C + k];
                c->chain.plane[p][K + ch] = c->local.plane[p][mid * C + k];
                c->chain.plane[p][2 * K + ch] = c->local.plane[p][end * C + k];
            }
            for (int p = PB_POS_X; p <= PB_POS_Z; p++) c->target.plane[p][2 * K + ch] = c->global.plane[p][end * C + k];
            c->target.plane[PB_POS_Y][2 * K + ch] += c->lift[k];
        }
    }
    pb_call call = { .a = &c->chain, .b = &c->target, .out = &c->solved };
    call.params.axis[0] = 1.0f;   /* knee hint, used only for a straight leg */
    pb_status s = run_op(c, PB_OP_two_bone_ik, v, &call);
    if (s != PB_OK) return s;
    for (int l = 0; l < 2; l++) {
        size_t root = (size_t)sc->leg[l][0], mid = (size_t)sc->leg[l][1];
        int parent = sc->parents[root];
        for (size_t k = 0; k < C; k++) {
            size_t ch = (size_t)l * C + k;
            qd g = qd_get(&c->solved, ch);
            qd local = parent < 0 ? g : qd_mul(qd_conj(qd_get(&c->global, (size_t)parent * C + k)), g);
            qd_set(&c->local, root * C + k, local);
            qd_set(&c->local, mid * C + k, qd_get(&c->solved, K + ch));
        }
    }
    return PB_OK;
}

pb_status pb_stage_fk(pb_crowd *c, const pb_variant *v)
{
    pb_call call = { .a = &c->local, .out = &c->global, .skel = &c->skel };
    return run_op(c, PB_OP_fk, v, &call);
}

/* ---- measurement and context --------------------------------------------------------------- */
double pb_cpu_seconds(void)
{
    struct timespec t;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) != 0) return 0.0;
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double pb_median(double *v, int n)
{
    if (n <= 0) return NAN;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int pb_cli_variants(const char *name, const pb_variant **out, int max)
{
    if (name) {
        const pb_variant *v;
        if (pb_all_variant_find(name, &v) != PB_OK || pb_variant_check(v) != PB_OK) {
            fprintf(stderr, "posebench: %s\n", pb_last_error());
            return -1;
        }
        out[0] = v;
        return 1;
    }
    int n = 0;
    for (size_t i = 0; i < pb_variant_count() && n < max; i++) {
        const pb_variant *v = pb_variant_at(i);
        if (pb_variant_mode(v) == PB_MODE_NATIVE && pb_variant_check(v) == PB_OK) out[n++] = v;
    }
    if (n == 0) fprintf(stderr, "posebench: no native variant runs on this CPU\n");
    return n ? n : -1;
}

void pb_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') fprintf(f, "\\%c", ch);
        else if (ch < 0x20) fprintf(f, "\\u%04x", ch);
        else fputc(ch, f);
    }
    fputc('"', f);
}

void pb_cli_context_json(FILE *f)
{
    char buf[512];
    const pb_variant *active = NULL;
    fputs("{\"cpu_model\": ", f);
    pb_json_str(f, pb_cpu_model(buf, sizeof buf));
    fputs(", \"cpu_features\": ", f);
    pb_json_str(f, pb_cpu_feature_names(pb_cpu_features(), buf, sizeof buf));
    fprintf(f, ", \"num_cpus\": %ld", sysconf(_SC_NPROCESSORS_ONLN));
    fputs(", \"compiler\": ", f);
    pb_json_str(f, PB_CLI_COMPILER_ID " " __VERSION__);
    fputs(", \"c_flags\": ", f);
    pb_json_str(f, PB_CLI_C_FLAGS);
    fputs(", \"kernel_flags\": ", f);
    pb_json_str(f, PB_CLI_KERNEL_FLAGS);
    fputs(", \"build_type\": ", f);
    pb_json_str(f, PB_CLI_BUILD_TYPE);
    fputs(", \"dispatch_variant\": ", f);
    pb_json_str(f, pb_variant_active(&active) == PB_OK ? pb_variant_name(active) : "none");
    time_t now = time(NULL);
    struct tm tmv;
    if (gmtime_r(&now, &tmv) && strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tmv)) {
        fputs(", \"date\": ", f);
        pb_json_str(f, buf);
    }
    fputs(", \"timing\": \"CPU time (CLOCK_PROCESS_CPUTIME_ID), medians over repetitions\"}", f);
}

/* ---- the frame command ------------------------------------------------------------------------- */
enum { ST_SAMPLE, ST_TRANSITION, ST_ADDITIVE, ST_LEGFK, ST_IK, ST_FK, ST_COUNT };
static const char *stage_key[ST_COUNT] = { "sample", "transition", "additive", "legs_fk", "ik", "fk" };
static const char *stage_head[ST_COUNT] = { "sample", "transition", "additive", "legs FK", "2-leg IK", "FK+vel" };

typedef struct frame_cfg {
    size_t characters;
    int frames, reps;
    pb_op sampler;
} frame_cfg;

typedef struct frame_row {
    const pb_scene *sc;
    const pb_variant *v;
    pb_tmethod m;
    double stage_us[ST_COUNT];   /* NAN: not run (missing op or no legs) */
    char missing[ST_COUNT][96];  /* why a stage did not run */
    double total_us, setup_us;
    double total_spread;         /* (max - min) / median of the total over the repetitions */
} frame_row;

/* Clip time of frame k: within the first half of the clip, so time + offset
 * stays inside it (sampling never holds an end key). */
float pb_crowd_clip_time(const pb_crowd *c, int role, int k)
{
    float half = 0.5f * pb_clip_duration(&c->sc->clip[c->clip_of[role]]);
    return half > 0 ? fmodf((float)k * PB_FRAME_DT, half) : 0.0f;
}
/* Time since the transition: cycles through the window, so every timed
 * frame is mid-transition (every character blending: the worst case). */
float pb_crowd_trans_time(const pb_crowd *c, int k)
{
    return c->duration > 0 ? fmodf((float)k * PB_FRAME_DT, c->duration) : 0.0f;
}

static pb_status run_stage(pb_crowd *c, const pb_variant *v, pb_tmethod m, int stage, int k)
{
    pb_status s = PB_OK;
    switch (stage) {
    case ST_SAMPLE:
        if (pb_tmethod_get(m)->samples == 2) s = pb_stage_sample(c, v, 0, pb_crowd_clip_time(c, 0, k));
        if (s == PB_OK) s = pb_stage_sample(c, v, 1, pb_crowd_clip_time(c, 1, k));
        return s;
    case ST_TRANSITION: return pb_stage_transition(c, v, m, pb_crowd_trans_time(c, k));
    case ST_ADDITIVE: return pb_stage_additive(c, v);
    case ST_LEGFK: return pb_stage_leg_fk(c, v);
    case ST_IK: return pb_stage_ik(c, v);
    default: return pb_stage_fk(c, v);
    }
}

/* Measure one scene x variant x method. Returns 0, or -1 after printing
 * the failing op's message. A stage whose op this variant cannot run
 * (PB_ERR_OP / PB_ERR_UNSUPPORTED) is marked missing, not timed. */
static int measure(pb_crowd *c, const frame_cfg *cfg, frame_row *row)
{
    const pb_variant *v = row->v;
    pb_tmethod m = row->m;
    int skip[ST_COUNT] = { 0 };
    for (int s = 0; s < ST_COUNT; s++) row->stage_us[s] = NAN;
    row->total_us = row->setup_us = NAN;
    /* the transition: both clips sampled at its instant, the state kept */
    pb_status st = pb_stage_sample(c, v, 0, 0.0f);
    if (st == PB_OK) st = pb_stage_sample(c, v, 1, 0.0f);
    if (st == PB_OK) st = pb_stage_begin(c, v, m);
    if (st != PB_OK) goto fail;
    /* one validated frame; find missing stages */
    for (int s = 0; s < ST_COUNT; s++) {
        st = run_stage(c, v, m, s, 0);
        if (st == PB_ERR_OP || st == PB_ERR_UNSUPPORTED) {
            skip[s] = 1;
            snprintf(row->missing[s], sizeof row->missing[s], "missing: %s", c->failed);
        } else if (st != PB_OK) goto fail;
    }
    if (c->sc->leg[0][0] < 0) {
        skip[ST_IK] = 1;
        snprintf(row->missing[ST_IK], sizeof row->missing[ST_IK], "no legs");
    }
    double *tot = calloc((size_t)cfg->reps * (ST_COUNT + 2), sizeof(double));
    if (!tot) {
        fprintf(stderr, "posebench frame: out of memory\n");
        return -1;
    }
    double *stg = tot + cfg->reps, *setup = stg + (size_t)cfg->reps * ST_COUNT;
    for (int r = 0; r < cfg->reps; r++) {
        double t0 = pb_cpu_seconds();
        for (int k = 0; k < cfg->frames; k++)
            for (int s = 0; s < ST_COUNT; s++)
                if (!skip[s] && (st = run_stage(c, v, m, s, k)) != PB_OK) goto fail_free;
        tot[r] = (pb_cpu_seconds() - t0) / cfg->frames * 1e6;
        for (int s = 0; s < ST_COUNT; s++) {
            if (skip[s]) continue;
            t0 = pb_cpu_seconds();
            for (int k = 0; k < cfg->frames; k++)
                if ((st = run_stage(c, v, m, s, k)) != PB_OK) goto fail_free;
            stg[(size_t)s * cfg->reps + r] = (pb_cpu_seconds() - t0) / cfg->frames * 1e6;
        }
        t0 = pb_cpu_seconds();
        for (int k = 0; k < cfg->frames; k++)
            if ((st = pb_stage_begin(c, v, m)) != PB_OK) goto fail_free;
        setup[r] = (pb_cpu_seconds() - t0) / cfg->frames * 1e6;
    }
    row->total_us = pb_median(tot, cfg->reps);   /* sorts: tot[0] is the min, tot[reps - 1] the max */
    row->total_spread = row->total_us > 0 ? (tot[cfg->reps - 1] - tot[0]) / row->total_us : NAN;
    for (int s = 0; s < ST_COUNT; s++)
        if (!skip[s]) row->stage_us[s] = pb_median(stg + (size_t)s * cfg->reps, cfg->reps);
    if (pb_tmethod_get(m)->once[0]) row->setup_us = pb_median(setup, cfg->reps);
    free(tot);
    return 0;
fail_free:
    free(tot);
fail:
    fprintf(stderr, "posebench frame: %s (%s, %s, %s): %s\n", c->failed ? c->failed : "?", c->sc->name,
            pb_variant_name(v), pb_tmethod_get(m)->method, pb_last_error());
    return -1;
}

static void frame_usage(FILE *f)
{
    fputs("usage: posebench frame [--characters N] [--joints N] [--bvh FILE]... [--bvh-scale S] [--no-cmu]\n"
          "                       [--method crossfade|inertialize|dead]... [--frames N] [--reps N]\n"
          "                       [--sampler linear|cubic] [--variant NAME] [--quick] [--json FILE]\n"
          "  A crowd running one animation frame: sample -> transition -> additive layer -> two-bone IK on\n"
          "  both legs -> FK with velocities; CPU time per stage, per variant and transition method.\n"
          "  --characters N   crowd size, 1..4096 (default 200)\n"
          "  --joints N       synthetic skeleton joints, 4..4096 (default 64)\n"
          "  --bvh FILE       also run a BVH clip (repeatable; two consecutive files with the same hierarchy\n"
          "                   are source and destination, otherwise a file plays against itself)\n"
          "  --bvh-scale S    unit scale of --bvh files (default 0.01: centimetres to metres)\n"
          "  --no-cmu         skip the packaged CMU clips (" PB_CMU_DIR "/01_01.bvh, 01_03.bvh)\n"
          "  --method M       cross-fade (blend), inertialize, dead (dead_blending); default all three\n"
          "  --frames N       timed frames per repetition (default 200; --quick 20)\n"
          "  --reps N         repetitions, median reported (default 5; --quick 3)\n"
          "  --sampler S      sample_linear (default) or sample_cubic\n"
          "  --variant NAME   one variant (default: every native variant this CPU runs)\n"
          "  --json FILE      write the table as JSON\n", f);
}

int pb_parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || end == s || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

int pb_parse_double(const char *s, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || end == s || !(v >= lo && v <= hi)) return -1;
    *out = v;
    return 0;
}

static void print_us(double v, int width)
{
    if (isnan(v)) printf(" %*s", width, "-");
    else printf(" %*.1f", width, v);
}

int pb_cmd_frame(int argc, char **argv)
{
    frame_cfg cfg = { 200, 200, 5, PB_OP_sample_linear };
    long joints = 64, val;
    int quick = 0, no_cmu = 0, frames_set = 0, reps_set = 0, nbvh = 0;
    int want_m[3] = { 0, 0, 0 }, any_m = 0;
    const char *variant = NULL, *json = NULL, *bvh[64];
    float bvh_scale = 0.01f;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        if (!strcmp(a, "--characters") && has) {
            if (pb_parse_long(argv[++i], 1, 4096, &val)) {
                fprintf(stderr, "posebench frame: --characters expects 1..4096, got '%s'\n", argv[i]);
                return 2;
            }
            cfg.characters = (size_t)val;
        } else if (!strcmp(a, "--joints") && has) {
            if (pb_parse_long(argv[++i], 4, 4096, &joints)) {
                fprintf(stderr, "posebench frame: --joints expects 4..4096, got '%s'\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(a, "--frames") && has) {
            if (pb_parse_long(argv[++i], 1, 1000000, &val)) {
                fprintf(stderr, "posebench frame: --frames expects 1..1000000, got '%s'\n", argv[i]);
                return 2;
            }
            cfg.frames = (int)val;
            frames_set = 1;
        } else if (!strcmp(a, "--reps") && has) {
            if (pb_parse_long(argv[++i], 1, 1000, &val)) {
                fprintf(stderr, "posebench frame: --reps expects 1..1000, got '%s'\n", argv[i]);
                return 2;
            }
            cfg.reps = (int)val;
            reps_set = 1;
        } else if (!strcmp(a, "--bvh") && has) {
            if (nbvh == (int)(sizeof bvh / sizeof bvh[0])) {
                fprintf(stderr, "posebench frame: too many --bvh files\n");
                return 2;
            }
            bvh[nbvh++] = argv[++i];
        } else if (!strcmp(a, "--bvh-scale") && has) {
            double s;
            if (pb_parse_double(argv[++i], 1e-9, 1e9, &s)) {
                fprintf(stderr, "posebench frame: --bvh-scale expects a positive number, got '%s'\n", argv[i]);
                return 2;
            }
            bvh_scale = (float)s;
        } else if (!strcmp(a, "--method") && has) {
            const char *m = argv[++i];
            int k = !strcmp(m, "crossfade") ? 0 : !strcmp(m, "inertialize") ? 1 : !strcmp(m, "dead") ? 2 : -1;
            if (k < 0) {
                fprintf(stderr, "posebench frame: --method expects crossfade, inertialize or dead, got '%s'\n", m);
                return 2;
            }
            want_m[k] = any_m = 1;
        } else if (!strcmp(a, "--sampler") && has) {
            const char *s = argv[++i];
            if (!strcmp(s, "linear")) cfg.sampler = PB_OP_sample_linear;
            else if (!strcmp(s, "cubic")) cfg.sampler = PB_OP_sample_cubic;
            else {
                fprintf(stderr, "posebench frame: --sampler expects linear or cubic, got '%s'\n", s);
                return 2;
            }
        } else if (!strcmp(a, "--variant") && has) variant = argv[++i];
        else if (!strcmp(a, "--json") && has) json = argv[++i];
        else if (!strcmp(a, "--quick")) quick = 1;
        else if (!strcmp(a, "--no-cmu")) no_cmu = 1;
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            frame_usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "posebench frame: unknown or incomplete option '%s'\n", a);
            frame_usage(stderr);
            return 2;
        }
    }
    if (quick && !frames_set) cfg.frames = 20;
    if (quick && !reps_set) cfg.reps = 3;
    if (!any_m) want_m[0] = want_m[1] = want_m[2] = 1;
    const pb_tmethod mlist[3] = { PB_TM_CROSSFADE, PB_TM_INERTIALIZE, PB_TM_DEAD };

    const pb_variant *vars[16];
    int nv = pb_cli_variants(variant, vars, 16);
    if (nv < 0) return 2;

    FILE *jf = NULL;
    if (json && !(jf = fopen(json, "w"))) {
        fprintf(stderr, "posebench frame: cannot write %s: %s\n", json, strerror(errno));
        return 2;
    }

    /* scenes: synthetic, CMU when packaged, then the user's files */
    pb_scene scenes[2 + 64];
    int ns = 0, status = 0;
    if (pb_scene_synthetic(&scenes[ns], (size_t)joints, 20231) != 0) {
        if (jf) fclose(jf);
        return 2;
    }
    ns++;
    char pa[512], pbp[512];
    snprintf(pa, sizeof pa, "%s/01_01.bvh", PB_CMU_DIR);
    snprintf(pbp, sizeof pbp, "%s/01_03.bvh", PB_CMU_DIR);
    if (!no_cmu && access(pa, R_OK) == 0 && access(pbp, R_OK) == 0) {
        if (pb_scene_bvh(&scenes[ns], NULL, pa, pbp, PB_CMU_UNIT_SCALE) == 0) {
            snprintf(scenes[ns].name, sizeof scenes[ns].name, "cmu-%zu", scenes[ns].joints);
            ns++;
        } else {
            fprintf(stderr, "posebench frame: the packaged CMU clips did not load; running without them\n");
        }
    }
    for (int i = 0; i < nbvh; i++) {
        int r = i + 1 < nbvh ? pb_scene_bvh(&scenes[ns], NULL, bvh[i], bvh[i + 1], bvh_scale) : -2;
        if (r == 0) i++;
        else if (r == -2) r = pb_scene_bvh(&scenes[ns], NULL, bvh[i], bvh[i], bvh_scale);
        if (r != 0) {
            status = 2;
            goto out;
        }
        ns++;
    }

    printf("posebench frame: %zu characters per crowd, %d frames x %d repetitions (median), %s, transition "
           "window %.2f s, dead-blending half-life %.2f s, CPU time\n",
           cfg.characters, cfg.frames, cfg.reps, pb_op_get(cfg.sampler)->name, (double)PB_TRANSITION_S,
           (double)PB_HALFLIFE_S);
    if (jf) {
        fputs("{\n  \"tool\": \"posebench frame\",\n  \"context\": ", jf);
        pb_cli_context_json(jf);
        fprintf(jf, ",\n  \"config\": {\"characters\": %zu, \"frames\": %d, \"repetitions\": %d, \"sampler\": \"%s\", "
                    "\"frame_dt_s\": %.6f, \"transition_s\": %.3f, \"halflife_s\": %.3f, \"additive_weight\": %.2f},\n",
                cfg.characters, cfg.frames, cfg.reps, pb_op_get(cfg.sampler)->name, (double)PB_FRAME_DT,
                (double)PB_TRANSITION_S, (double)PB_HALFLIFE_S, (double)ADDITIVE_WEIGHT);
        fputs("  \"stages\": [", jf);
        for (int s = 0; s < ST_COUNT; s++) fprintf(jf, "%s\"%s\"", s ? ", " : "", stage_key[s]);
        fputs("],\n  \"scenes\": [", jf);
        for (int i = 0; i < ns; i++) {
            fprintf(jf, "%s\n    {\"name\": ", i ? "," : "");
            pb_json_str(jf, scenes[i].name);
            fprintf(jf, ", \"joints\": %zu, \"source\": ", scenes[i].joints);
            pb_json_str(jf, scenes[i].source);
            fputs(", \"legs\": ", jf);
            pb_json_str(jf, scenes[i].leg_desc);
            fputc('}', jf);
        }
        fputs("\n  ],\n  \"rows\": [", jf);
    }
    int nrows = 0;
    for (int si = 0; si < ns && status == 0; si++) {
        pb_scene *sc = &scenes[si];
        pb_crowd crowd;
        if (pb_crowd_init(&crowd, sc, cfg.characters, cfg.sampler) != 0) {
            status = 2;
            break;
        }
        printf("\n%s: %zu joints x %zu characters = %zu elements; legs: %s\n  %s\n", sc->name, sc->joints,
               cfg.characters, crowd.n, sc->leg_desc, sc->source);
        printf("%-16s %-8s %9s %10s %9s %8s %9s %8s %9s %7s %9s %10s\n", "method", "variant", stage_head[0],
               stage_head[1], stage_head[2], stage_head[3], stage_head[4], stage_head[5], "total us", "spread",
               "chars/ms", "setup us");
        fflush(stdout);
        for (int mi = 0; mi < 3 && status == 0; mi++) {
            if (!want_m[mi]) continue;
            for (int vi = 0; vi < nv; vi++) {
                frame_row row = { .sc = sc, .v = vars[vi], .m = mlist[mi] };
                fprintf(stderr, "posebench frame: %s, %s, %s ...\n", sc->name, pb_tmethod_get(row.m)->method,
                        pb_variant_name(row.v));
                if (measure(&crowd, &cfg, &row) != 0) {
                    status = 1;
                    break;
                }
                double cpm = row.total_us > 0 ? (double)cfg.characters / (row.total_us / 1000.0) : NAN;
                printf("%-16s %-8s", pb_tmethod_get(row.m)->method, pb_variant_name(row.v));
                const int w[ST_COUNT] = { 9, 10, 9, 8, 9, 8 };
                for (int s = 0; s < ST_COUNT; s++) {
                    if (row.missing[s][0]) printf(" %*.*s", w[s], w[s], row.missing[s]);
                    else print_us(row.stage_us[s], w[s]);
                }
                print_us(row.total_us, 9);
                if (isnan(row.total_spread)) printf(" %7s", "-");
                else printf(" %6.1f%%", 100.0 * row.total_spread);
                printf(" %9.0f", cpm);
                print_us(row.setup_us, 10);
                putchar('\n');
                fflush(stdout);   /* rows appear as they are measured, between the progress lines */
                if (jf) {
                    fprintf(jf, "%s\n    {\"scene\": ", nrows++ ? "," : "");
                    pb_json_str(jf, sc->name);
                    fprintf(jf, ", \"joints\": %zu, \"characters\": %zu, \"variant\": \"%s\", \"method\": \"%s\", "
                                "\"method_key\": \"%s\", \"transition_ops\": ",
                            sc->joints, cfg.characters, pb_variant_name(row.v), pb_tmethod_get(row.m)->method,
                            pb_tmethod_get(row.m)->key);
                    pb_json_str(jf, pb_tmethod_get(row.m)->per_frame);
                    fprintf(jf, ", \"clips_sampled\": %d, \"stage_us\": {", pb_tmethod_get(row.m)->samples);
                    for (int s = 0; s < ST_COUNT; s++) {
                        fprintf(jf, "%s\"%s\": ", s ? ", " : "", stage_key[s]);
                        if (isnan(row.stage_us[s])) fputs("null", jf);
                        else fprintf(jf, "%.3f", row.stage_us[s]);
                    }
                    fputs("}, \"missing\": [", jf);
                    for (int s = 0, k = 0; s < ST_COUNT; s++)
                        if (row.missing[s][0]) {
                            fprintf(jf, "%s{\"stage\": \"%s\", \"why\": ", k++ ? ", " : "", stage_key[s]);
                            pb_json_str(jf, row.missing[s]);
                            fputc('}', jf);
                        }
                    fprintf(jf, "], \"total_us\": %.3f, \"total_spread\": %.4f, \"characters_per_ms\": %.3f, "
                            "\"setup_once_us\": ", row.total_us, isnan(row.total_spread) ? 0.0 : row.total_spread, cpm);
                    if (isnan(row.setup_us)) fputs("null", jf);
                    else fprintf(jf, "%.3f", row.setup_us);
                    fputs(", \"setup_once\": ", jf);
                    pb_json_str(jf, pb_tmethod_get(row.m)->once);
                    fputc('}', jf);
                }
            }
        }
        pb_crowd_free(&crowd);
    }
    if (status == 0) {
        printf("\nstages (us per frame for the whole crowd; each stage timed as its own block of frames):\n"
               "  sample      %s of both clips for a cross-fade, of the destination only for inertialization and\n"
               "              dead blending (their source is the state kept at the transition); by the crowd builder:\n"
               "              one run across the characters, each at its own time offset\n"
               "  transition  cross-fade: blend (slerp, exact velocities; smoothstep weight); inertialization:\n"
               "              inertialize (setup once per transition: inertialize_offset); dead blending:\n"
               "              dead_blending (setup once: a copy of the source pose); every frame mid-transition\n"
               "  additive    additive (local, with velocities) of a fixed delta pose (not sampled) at weight %.1f\n"
               "  legs FK     fk_static of the whole pose, for the leg roots' globals\n"
               "  2-leg IK    gather 2 chains per character (C), two_bone_ik, scatter the rotations back (C); the\n"
               "              solved joints keep their sampled velocities (two_bone_ik_vel would update them)\n"
               "  FK+vel      fk with velocities\n"
               "  total       the whole frame timed as one block (stages are timed apart: sums differ slightly);\n"
               "              spread: (max - min) / median of the total over the repetitions\n"
               "  chars/ms    characters / total; setup us: once per transition, not per frame\n",
               pb_op_get(cfg.sampler)->name, (double)ADDITIVE_WEIGHT);
    }
out:
    if (jf) {
        fputs("\n  ]\n}\n", jf);
        if (fclose(jf) != 0) {
            fprintf(stderr, "posebench frame: error writing %s\n", json);
            status = 2;
        } else if (status == 0)
            fprintf(stderr, "posebench frame: wrote %s\n", json);
    }
    for (int i = 0; i < ns; i++) pb_scene_free(&scenes[i]);
    return status;
}
