/* fp_scene.c — the frame pipeline's scenes (frame_pipeline.h): a synthetic
 * character or BVH clips, with two legs for the IK; and the table of
 * transition methods. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame_pipeline.h"
#include "fp_rng.h"
#include "internal.h"   /* pb_fail */
#include "qd.h"
#include "validate.h"   /* pb_gen_parents */

#define SYNTH_FPS 60.0f              /* synthetic clips: 2 s at 60 fps */
#define SYNTH_SECONDS 2.0f

void fp_scene_free(fp_scene *s)
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
static void pick_chains(fp_scene *s)
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
    float speed = 0.8f + 0.8f * fp_unit01(&r), h0 = 6.2831853f * fp_unit01(&r);
    float turn = (0.1f + 0.3f * fp_unit01(&r)) * (fp_unit01(&r) < 0.5f ? -1.0f : 1.0f);
    const double up[3] = { 0, 1, 0 };
    pb_pose *p = &clip->pose;
    for (size_t j = 0; j < J; j++) {
        double base_ax[3], osc_ax[3];
        fp_rand_dir(&r, base_ax);
        fp_rand_dir(&r, osc_ax);
        float base_angle = 0.5f * fp_unit01(&r), amp = 0.1f + 0.4f * fp_unit01(&r);
        float freq = 0.5f + 1.5f * fp_unit01(&r), phase = 6.2831853f * fp_unit01(&r);
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

pb_status fp_scene_synthetic(fp_scene *s, size_t joints, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    float (*offset)[3] = malloc(joints * sizeof *offset);
    s->parents = malloc(joints * sizeof *s->parents);
    if (!offset || !s->parents) {
        free(offset);
        fp_scene_free(s);
        return pb_fail(PB_ERR_NOMEM, "synthetic scene of %zu joints: out of memory", joints);
    }
    /* a plain chain first: pb_gen_parents leaves the array as is if it cannot allocate */
    for (size_t j = 0; j < joints; j++) s->parents[j] = (int32_t)j - 1;
    pb_gen_parents(s->parents, joints, 16, seed);
    uint64_t r = seed ^ 0x5EED0FF5E7ull;
    for (size_t j = 0; j < joints; j++) {
        double d[3], len = 0.05 + 0.12 * fp_unit01(&r);
        fp_rand_dir(&r, d);
        for (int c = 0; c < 3; c++) offset[j][c] = (float)(d[c] * len);
    }
    s->joints = joints;
    pb_status st = synth_clip(&s->clip[0], (const float(*)[3])offset, joints, seed * 31 + 1);
    if (st == PB_OK) st = synth_clip(&s->clip[1], (const float(*)[3])offset, joints, seed * 31 + 2);
    free(offset);
    if (st != PB_OK) {
        fp_scene_free(s);
        return pb_fail(st, "synthetic clip: %s", pb_last_error());
    }
    snprintf(s->name, sizeof s->name, "synthetic-%zu", joints);
    snprintf(s->source, sizeof s->source,
             "generated (seed %llu): random parents (depth < 16), bones 5-17 cm, joint 0 a ground trajectory, "
             "smooth swings; two %.0f s clips at %.0f fps", (unsigned long long)seed, (double)SYNTH_SECONDS,
             (double)SYNTH_FPS);
    snprintf(s->clip_name[0], sizeof s->clip_name[0], "synthetic A");
    snprintf(s->clip_name[1], sizeof s->clip_name[1], "synthetic B");
    pick_chains(s);
    return PB_OK;
}

static const char *base_name(const char *path, char *buf, size_t len)
{
    const char *b = strrchr(path, '/');
    const char *base = b ? b + 1 : path;
    size_t n = strlen(base) < len ? strlen(base) : len - 1;   /* truncated to buf, by design */
    memcpy(buf, base, n);
    buf[n] = '\0';
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

pb_status fp_bvh_load(fp_bvh *b, const char *path, float unit_scale, pb_bvh_warn_fn warn, void *user)
{
    memset(b, 0, sizeof *b);
    snprintf(b->path, sizeof b->path, "%s", path);
    b->unit_scale = unit_scale;
    pb_bvh_options opt = pb_bvh_default_options();
    opt.unit_scale = unit_scale;
    opt.warn = warn;
    opt.user = user;
    return pb_bvh_load(path, &opt, &b->skel, &b->clip);
}

void fp_bvh_free(fp_bvh *b)
{
    if (!b) return;
    pb_bvh_skeleton_free(&b->skel);
    pb_clip_free(&b->clip);
    memset(b, 0, sizeof *b);
}

int fp_bvh_same_skeleton(const fp_bvh *a, const fp_bvh *b)
{
    int same = a->skel.joints == b->skel.joints;
    for (size_t j = 0; same && j < a->skel.joints; j++)
        same = a->skel.parents[j] == b->skel.parents[j] && !strcmp(a->skel.names[j], b->skel.names[j]);
    return same;
}

static pb_status clip_copy(pb_clip *dst, const pb_clip *src)
{
    pb_status st = pb_clip_alloc(dst, src->frames, src->joints, src->fps);
    if (st != PB_OK) return st;
    for (int q = 0; q < PB_PLANES; q++) memcpy(dst->pose.plane[q], src->pose.plane[q], src->pose.n * sizeof(float));
    dst->warnings = src->warnings;
    return PB_OK;
}

pb_status fp_scene_bvh(fp_scene *s, const char *name, const fp_bvh *a, const fp_bvh *b)
{
    memset(s, 0, sizeof *s);
    if (!fp_bvh_same_skeleton(a, b))
        return pb_fail(PB_ERR_PARAM, "%s and %s: different hierarchies (joint names or parents)", a->path, b->path);
    s->joints = a->skel.joints;
    s->parents = malloc(s->joints * sizeof *s->parents);
    if (!s->parents) return pb_fail(PB_ERR_NOMEM, "scene of %s: out of memory", a->path);
    memcpy(s->parents, a->skel.parents, s->joints * sizeof *s->parents);
    pb_status st = clip_copy(&s->clip[0], &a->clip);
    if (st == PB_OK) st = clip_copy(&s->clip[1], &b->clip);
    if (st != PB_OK) {
        fp_scene_free(s);
        return pb_fail(st, "scene of %s: %s", a->path, pb_last_error());
    }
    char ba[64], bb[64];
    base_name(a->path, ba, sizeof ba);
    base_name(b->path, bb, sizeof bb);
    if (name) snprintf(s->name, sizeof s->name, "%s", name);
    else snprintf(s->name, sizeof s->name, "bvh:%.40s-%zu", ba, s->joints);
    snprintf(s->source, sizeof s->source, "%.200s (%zu frames at %.0f fps) -> %.200s (%zu frames), unit scale %g", a->path,
             s->clip[0].frames, (double)s->clip[0].fps, b->path, s->clip[1].frames, (double)a->unit_scale);
    snprintf(s->clip_name[0], sizeof s->clip_name[0], "%s", ba);
    snprintf(s->clip_name[1], sizeof s->clip_name[1], "%s", bb);
    /* legs by name (CMU and most mocap rigs), checked to be parent-linked chains */
    static const char *names[2][3] = { { "LeftUpLeg", "LeftLeg", "LeftFoot" }, { "RightUpLeg", "RightLeg", "RightFoot" } };
    int ok = 1;
    for (int l = 0; l < 2; l++)
        for (int k = 0; k < 3; k++) {
            s->leg[l][k] = find_joint(&a->skel, names[l][k]);
            ok &= s->leg[l][k] >= 0;
        }
    for (int l = 0; ok && l < 2; l++)
        ok = s->parents[s->leg[l][1]] == s->leg[l][0] && s->parents[s->leg[l][2]] == s->leg[l][1];
    if (ok)
        snprintf(s->leg_desc, sizeof s->leg_desc, "LeftUpLeg-LeftLeg-LeftFoot and RightUpLeg-RightLeg-RightFoot (by name)");
    else
        pick_chains(s);
    return PB_OK;
}

pb_status fp_scene_bvh_files(fp_scene *s, const char *name, const char *path_a, const char *path_b,
                             float unit_scale, pb_bvh_warn_fn warn, void *user)
{
    fp_bvh a, b;
    memset(s, 0, sizeof *s);
    pb_status st = fp_bvh_load(&a, path_a, unit_scale, warn, user);
    if (st != PB_OK) return st;
    st = fp_bvh_load(&b, path_b, unit_scale, warn, user);
    if (st == PB_OK) st = fp_scene_bvh(s, name, &a, &b);
    fp_bvh_free(&a);
    fp_bvh_free(&b);
    return st;
}

/* ---- transition methods -------------------------------------------------------------------- */
static const fp_tmethod_info tmethods[FP_TM_COUNT] = {
    [FP_TM_CUT] = { "cut", "cut (no blend)", "n/a", "none (the destination as is)", "", 1 },
    [FP_TM_CROSSFADE_STATIC] = { "crossfade_slerp", "cross-fade", "slerp", "blend_static", "", 2 },
    [FP_TM_CROSSFADE_NLERP] = { "crossfade_nlerp", "cross-fade", "nlerp", "blend_static_nlerp", "", 2 },
    [FP_TM_CROSSFADE] = { "crossfade_exact", "cross-fade", "slerp+vel", "blend (exact velocities)", "", 2 },
    [FP_TM_INERTIALIZE] = { "inertialize", "inertialization", "n/a", "inertialize", "inertialize_offset", 1 },
    [FP_TM_DEAD] = { "dead_slerp", "dead blending", "slerp", "dead_blending", "copy of the source pose", 1 },
    [FP_TM_DEAD_NLERP] = { "dead_nlerp", "dead blending", "nlerp",
                           "extrapolate_decayed + blend_static_nlerp + roots copied", "copy of the source pose", 1 },
};
const fp_tmethod_info *fp_tmethod_get(fp_tmethod m) { return (unsigned)m < FP_TM_COUNT ? &tmethods[m] : NULL; }
