/* frame_scene.c — the frame pipeline's scenes (posebench/frame.h): a
 * synthetic character with two legs for the IK, and the table of transition
 * methods. BVH scenes: frame_bvh.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "posebench/frame.h"
#include "rng.h"
#include "frame_int.h"
#include "internal.h"   /* pb_fail */
#include "qd.h"

#define SYNTH_FPS 60.0f              /* synthetic clips: 2 s at 60 fps */
#define SYNTH_SECONDS 2.0f

void pb_scene_free(pb_scene *s)
{
    if (!s) return;
    free(s->parents);
    pb_clip_free(&s->clip[0]);
    pb_clip_free(&s->clip[1]);
    pb_pose_free(&s->turns[0]);
    pb_pose_free(&s->turns[1]);
    pb_mesh_free(&s->mesh);
    pb_pose_free(&s->inv_bind);
    memset(s, 0, sizeof *s);
}

pb_status pb_scene_mesh(pb_scene *s, size_t vertices)
{
    if (!s || !s->parents) return pb_fail(PB_ERR_NULL, "pb_scene_mesh: scene is NULL or not made");
    if (!vertices) {
        pb_mesh_free(&s->mesh);
        return PB_OK;
    }
    /* the bind pose's globals for one character, then the mesh around them */
    pb_skeleton sk;
    pb_pose local, global;
    pb_mesh m;
    memset(&m, 0, sizeof m);
    pb_status st = pb_skeleton_init(&sk, s->parents, s->joints, 1);
    if (st != PB_OK) return st;
    st = pb_pose_alloc_static(&local, s->joints);
    if (st == PB_OK && (st = pb_pose_alloc_static(&global, s->joints)) != PB_OK) pb_pose_free(&local);
    if (st == PB_OK) {
        pb_scene_bind_local(s, &local, 1);
        st = pb_fk_static(&sk, &local, &global);
        if (st == PB_OK) st = pb_mesh_alloc(&m, vertices, PB_SKIN_MAX_INFLUENCES);
        if (st == PB_OK) st = pb_mesh_synthetic(&m, &sk, &global);
        pb_pose_free(&local);
        pb_pose_free(&global);
    }
    pb_skeleton_free(&sk);
    if (st != PB_OK) {
        pb_mesh_free(&m);
        return pb_fail(st, "pb_scene_mesh: %zu vertices for %s: %s", vertices, s->name, pb_last_error());
    }
    pb_mesh_free(&s->mesh);
    s->mesh = m;
    return PB_OK;
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
void pb_scene_pick_legs_fallback(pb_scene *s)
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
static pb_status synth_clip(pb_clip *clip, const float (*offset)[3], size_t J, uint64_t seed)
{
    size_t frames = (size_t)(SYNTH_SECONDS * SYNTH_FPS) + 1;
    pb_status st = pb_clip_alloc(clip, frames, J, SYNTH_FPS);
    if (st != PB_OK) return st;
    uint64_t r = seed;
    float speed = 0.8f + 0.8f * pb_rng_unit01(&r), h0 = 6.2831853f * pb_rng_unit01(&r);
    float turn = (0.1f + 0.3f * pb_rng_unit01(&r)) * (pb_rng_unit01(&r) < 0.5f ? -1.0f : 1.0f);
    const double up[3] = { 0, 1, 0 };
    pb_pose *p = &clip->pose;
    for (size_t j = 0; j < J; j++) {
        double base_ax[3], osc_ax[3];
        pb_rng_dir(&r, base_ax);
        pb_rng_dir(&r, osc_ax);
        float base_angle = 0.5f * pb_rng_unit01(&r), amp = 0.1f + 0.4f * pb_rng_unit01(&r);
        float freq = 0.5f + 1.5f * pb_rng_unit01(&r), phase = 6.2831853f * pb_rng_unit01(&r);
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
    return PB_OK;
}

pb_status pb_scene_turns(pb_scene *s)
{
    if (!s) return pb_fail(PB_ERR_NULL, "pb_scene_turns: scene is NULL");
    for (int k = 0; k < 2; k++) {
        pb_status st = PB_OK;
        if (s->turns[k].n != s->clip[k].pose.n) {   /* static: the turns use pos and rot only */
            pb_pose_free(&s->turns[k]);
            st = pb_pose_alloc_static(&s->turns[k], s->clip[k].pose.n);
        }
        if (st == PB_OK) st = pb_clip_turns(&s->clip[k], &s->turns[k]);
        if (st != PB_OK) return pb_fail(st, "the turns of clip %d (%s): %s", k, s->clip_name[k], pb_last_error());
    }
    return PB_OK;
}

pb_status pb_scene_synthetic(pb_scene *s, size_t joints, uint64_t seed)
{
    if (!s) return pb_fail(PB_ERR_NULL, "pb_scene_synthetic: scene is NULL");
    memset(s, 0, sizeof *s);
    if (!joints) return pb_fail(PB_ERR_EMPTY, "pb_scene_synthetic: joints = 0");
    if (joints > PB_MAX_JOINTS)
        return pb_fail(PB_ERR_SIZE, "pb_scene_synthetic: joints = %zu, at most %u", joints, PB_MAX_JOINTS);
    float (*offset)[3] = malloc(joints * sizeof *offset);
    s->parents = malloc(joints * sizeof *s->parents);
    if (!offset || !s->parents) {
        free(offset);
        pb_scene_free(s);
        return pb_fail(PB_ERR_NOMEM, "synthetic scene of %zu joints: out of memory", joints);
    }
    pb_status pst = pb_skeleton_random_parents(s->parents, joints, 16, seed);
    if (pst != PB_OK) {
        free(offset);
        pb_scene_free(s);
        return pst;
    }
    uint64_t r = seed ^ 0x5EED0FF5E7ull;
    for (size_t j = 0; j < joints; j++) {
        double d[3], len = 0.05 + 0.12 * pb_rng_unit01(&r);
        pb_rng_dir(&r, d);
        for (int c = 0; c < 3; c++) offset[j][c] = (float)(d[c] * len);
    }
    s->joints = joints;
    pb_status st = synth_clip(&s->clip[0], (const float(*)[3])offset, joints, seed * 31 + 1);
    if (st == PB_OK) st = synth_clip(&s->clip[1], (const float(*)[3])offset, joints, seed * 31 + 2);
    free(offset);
    if (st != PB_OK) {
        pb_scene_free(s);
        return pb_fail(st, "synthetic clip: %s", pb_last_error());
    }
    snprintf(s->name, sizeof s->name, "synthetic-%zu", joints);
    snprintf(s->source, sizeof s->source,
             "generated (seed %llu): random parents (depth < 16), bones 5-17 cm, joint 0 a ground trajectory, "
             "smooth swings; two %.0f s clips at %.0f fps", (unsigned long long)seed, (double)SYNTH_SECONDS,
             (double)SYNTH_FPS);
    snprintf(s->clip_name[0], sizeof s->clip_name[0], "synthetic A");
    snprintf(s->clip_name[1], sizeof s->clip_name[1], "synthetic B");
    pb_scene_pick_legs(s, NULL);
    if ((st = pb_scene_turns(s)) != PB_OK) pb_scene_free(s);
    return st;
}

/* ---- transition methods -------------------------------------------------------------------- */
static const pb_frame_method_info tmethods[PB_FM_COUNT] = {
    [PB_FM_CUT] = { "cut", "cut (no blend)", "n/a", "none (the destination as is)", "", 1 },
    [PB_FM_CROSSFADE_STATIC] = { "crossfade_slerp", "cross-fade", "slerp", "blend_static", "", 2 },
    [PB_FM_CROSSFADE_NLERP] = { "crossfade_nlerp", "cross-fade", "nlerp", "blend_static_nlerp", "", 2 },
    [PB_FM_CROSSFADE] = { "crossfade_exact", "cross-fade", "slerp+vel", "blend (exact velocities)", "", 2 },
    [PB_FM_INERTIALIZE] = { "inertialize", "inertialization", "n/a", "inertialize", "inertialize_offset", 1 },
    [PB_FM_DEAD] = { "dead_slerp", "dead blending", "slerp", "dead_blending", "copy of the source pose", 1 },
    [PB_FM_DEAD_NLERP] = { "dead_nlerp", "dead blending", "nlerp",
                           "extrapolate_decayed + blend_static_nlerp + roots copied", "copy of the source pose", 1 },
    [PB_FM_DEAD_UE] = { "dead_ue", "dead blending UE", "slerp", "dead_blending (per-axis half-lives)",
                        "copy of the source pose + estimate_halflife", 1 },
    [PB_FM_DEAD_CLAMP] = { "dead_clamp", "dead blend clamp", "slerp", "dead_blending (joint limits, clamp)",
                           "copy of the source pose (limits: the clips' range, once)", 1 },
    [PB_FM_DEAD_BOUNCE] = { "dead_bounce", "dead blend bounce", "slerp",
                            "dead_blending (joint limits, bounce)", "copy of the source pose (limits: the clips' range, once)",
                            1 },
    [PB_FM_DEAD_VIA] = { "dead_via", "dead blend via", "slerp via", "dead_blending (call.via: keeps its direction)",
                         "copy of the source pose, its rotations as the direction state", 1 },
};
const pb_frame_method_info *pb_frame_method_get(pb_frame_method m) { return (unsigned)m < PB_FM_COUNT ? &tmethods[m] : NULL; }
const char *pb_frame_method_name(pb_frame_method m) { return (unsigned)m < PB_FM_COUNT ? tmethods[m].key : NULL; }

pb_frame_method pb_frame_method_by_name(const char *s)
{
    if (!s) return PB_FM_COUNT;
    for (int m = 0; m < PB_FM_COUNT; m++)
        if (!strcmp(s, tmethods[m].key)) return (pb_frame_method)m;
    return !strcmp(s, "crossfade") ? PB_FM_CROSSFADE : !strcmp(s, "dead") ? PB_FM_DEAD : PB_FM_COUNT;
}
