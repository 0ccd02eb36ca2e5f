/* test_frame.c — the frame pipeline as a library (posebench/frame.h): legs
 * found by name on the rigs the name table covers and by topology on a rig
 * with meaningless names; random skeletons are valid and deterministic; a
 * frame step runs and its globals are finite; legs FK's joints are the legs'
 * and their ancestors and their globals the whole pose's fk_static's, bit for
 * bit, on every variant; the feet reach their targets; bad arguments get
 * errors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "all_variants.h"
#include "posebench/posebench.h"

/* A biped: hips, a short pelvis bone per side, thigh, shin, foot, toe; spine,
 * chest, and two arms (shoulder, arm, forearm, hand) under the chest. */
#define BJ 20
static const int bparent[BJ] = { -1, 0, 1, 2, 3, 4, 0, 6, 7, 8, 9, 0, 11, 12, 13, 14, 12, 16, 17, 18 };
static const float boff[BJ][3] = {
    { 0, 1, 0 }, { 0.08f, 0, 0 }, { 0.02f, -0.05f, 0 }, { 0, -0.45f, 0 }, { 0, -0.42f, 0 }, { 0, -0.05f, 0.15f },
    { -0.08f, 0, 0 }, { -0.02f, -0.05f, 0 }, { 0, -0.45f, 0 }, { 0, -0.42f, 0 }, { 0, -0.05f, 0.15f },
    { 0, 0.2f, 0 }, { 0, 0.25f, 0 }, { 0.1f, 0.1f, 0 }, { 0.15f, 0, 0 }, { 0.3f, 0, 0 }, { -0.1f, 0.1f, 0 },
    { -0.15f, 0, 0 }, { -0.3f, 0, 0 }, { -0.25f, 0, 0 },
};
/* arm order differs on the right (16..19: shoulder, arm, forearm, hand) */
static const char *const cmu[BJ] = { "Hips", "LHipJoint", "LeftUpLeg", "LeftLeg", "LeftFoot", "LeftToeBase",
                                     "RHipJoint", "RightUpLeg", "RightLeg", "RightFoot", "RightToeBase", "Spine",
                                     "Chest", "LeftShoulder", "LeftArm", "LeftForeArm", "RightShoulder",
                                     "RightArm", "RightForeArm", "RightHand" };

/* Writes the biped as a BVH file with joint names name(j) into path. */
static int write_bvh(const char *path, const char *const names[BJ], const char *prefix)
{
    FILE *f = fopen(path, "w");
    if (!f) return 0;
    fprintf(f, "HIERARCHY\n");
    int depth = 0, stack[BJ], top = 0, nch = 0;
    for (int j = 0; j < BJ; j++) {
        while (top > 0 && stack[top - 1] != bparent[j]) {   /* close joints that are not j's parent */
            int leaf = 1;
            for (int k = stack[top - 1] + 1; k < BJ; k++) leaf &= bparent[k] != stack[top - 1];
            if (leaf) fprintf(f, "%*sEnd Site\n%*s{\n%*sOFFSET 0 0.05 0\n%*s}\n", depth * 2, "", depth * 2, "", depth * 2 + 2, "", depth * 2, "");
            top--, depth--;
            fprintf(f, "%*s}\n", depth * 2, "");
        }
        fprintf(f, "%*s%s %s%s\n%*s{\n", depth * 2, "", j ? "JOINT" : "ROOT", prefix, names[j], depth * 2, "");
        fprintf(f, "%*sOFFSET %g %g %g\n", depth * 2 + 2, "", boff[j][0], boff[j][1], boff[j][2]);
        fprintf(f, "%*sCHANNELS %s\n", depth * 2 + 2, "", j ? "3 Zrotation Xrotation Yrotation"
                                                             : "6 Xposition Yposition Zposition Zrotation Xrotation Yrotation");
        nch += j ? 3 : 6;
        stack[top++] = j, depth++;
    }
    while (top > 0) {
        int leaf = 1;
        for (int k = stack[top - 1] + 1; k < BJ; k++) leaf &= bparent[k] != stack[top - 1];
        if (leaf) fprintf(f, "%*sEnd Site\n%*s{\n%*sOFFSET 0 0.05 0\n%*s}\n", depth * 2, "", depth * 2, "", depth * 2 + 2, "", depth * 2, "");
        top--, depth--;
        fprintf(f, "%*s}\n", depth * 2, "");
    }
    fprintf(f, "MOTION\nFrames: 3\nFrame Time: 0.0333333\n");
    for (int fr = 0; fr < 3; fr++) {
        for (int c = 0; c < nch; c++) fprintf(f, "%g ", c == 1 ? 1.0 : (c >= 3 ? 2.0 * fr + c % 5 : 0.0));
        fprintf(f, "\n");
    }
    return fclose(f) == 0;
}

/* Loads the biped written with names/prefix and checks the legs chosen. */
static void legs_of(const char *dir, const char *rig, const char *const names[BJ], const char *prefix,
                    const char *rule)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.bvh", dir, rig);
    CHECK(write_bvh(path, names, prefix), "%s: writing %s", rig, path);
    pb_scene s;
    pb_status st = pb_scene_bvh_files(&s, rig, path, path, 1.0f, NULL, NULL);
    CHECK(st == PB_OK, "%s: scene: %s", rig, pb_last_error());
    if (st != PB_OK) return;
    /* thigh-shin-foot: joints 2-3-4 and 7-8-9 whichever rule found them */
    int want[2][3] = { { 2, 3, 4 }, { 7, 8, 9 } };
    CHECK(!memcmp(s.leg, want, sizeof want), "%s: legs %d-%d-%d and %d-%d-%d (%s)", rig, s.leg[0][0], s.leg[0][1],
          s.leg[0][2], s.leg[1][0], s.leg[1][1], s.leg[1][2], s.leg_desc);
    CHECK(strstr(s.leg_desc, rule) != NULL, "%s: chosen %s, expected %s", rig, s.leg_desc, rule);
    pb_scene_free(&s);
    remove(path);
}

static void random_parents(void)
{
    int32_t a[300], b[300];
    for (size_t depth = 2; depth <= 16; depth += 7) {
        CHECK(pb_skeleton_random_parents(a, 300, depth, 9) == PB_OK, "random parents: %s", pb_last_error());
        CHECK(pb_skeleton_random_parents(b, 300, depth, 9) == PB_OK, "random parents again");
        CHECK(!memcmp(a, b, sizeof a), "same seed, same skeleton");
        int ok = a[0] == -1;
        size_t d[300] = { 0 };
        for (size_t j = 1; j < 300; j++) {
            ok &= a[j] >= 0 && (size_t)a[j] < j;
            if (ok) d[j] = d[a[j]] + 1, ok &= d[j] < depth;
        }
        CHECK(ok, "parents earlier than children, depth < %zu", depth);
        pb_skeleton sk;
        CHECK(pb_skeleton_init(&sk, a, 300, 1) == PB_OK, "the skeleton initializes: %s", pb_last_error());
        pb_skeleton_free(&sk);
    }
    CHECK(pb_skeleton_random_parents(NULL, 3, 4, 1) == PB_ERR_NULL, "NULL parents");
    CHECK(pb_skeleton_random_parents(a, 0, 4, 1) == PB_ERR_EMPTY, "0 joints");
    CHECK(pb_skeleton_random_parents(a, 3, 1, 1) == PB_ERR_PARAM && strstr(pb_last_error(), "max_depth"), "depth 1: %s",
          pb_last_error());
    CHECK(pb_skeleton_random_parents(a, 1, 1, 1) == PB_OK && a[0] == -1, "one joint, any depth");
}

/* Palette entry e (3x4 matrix, or unit dual quaternion for a scene skinned by
 * PB_SKIN_DQS: rotation by the real part, then the translation 2 vec(dual
 * conj(real))) applied to point P, in double. */
static void entry_apply(const pb_frame_crowd *c, size_t e, const double P[3], double out[3])
{
    if (c->sc->skin == PB_SKIN_DQS) {
        const float *q = c->palette.data + e * PB_PALETTE_DQ_FLOATS, *d = q + 4;
        double w = q[0], u[3] = { q[1], q[2], q[3] }, dw = d[0], dv[3] = { d[1], d[2], d[3] };
        double cu[3] = { u[1] * P[2] - u[2] * P[1], u[2] * P[0] - u[0] * P[2], u[0] * P[1] - u[1] * P[0] };
        double cc[3] = { u[1] * cu[2] - u[2] * cu[1], u[2] * cu[0] - u[0] * cu[2], u[0] * cu[1] - u[1] * cu[0] };
        double ud[3] = { u[1] * dv[2] - u[2] * dv[1], u[2] * dv[0] - u[0] * dv[2], u[0] * dv[1] - u[1] * dv[0] };
        for (int r = 0; r < 3; r++)
            out[r] = P[r] + 2 * w * cu[r] + 2 * cc[r] + 2 * (w * dv[r] - dw * u[r] + ud[r]);
        return;
    }
    const float *M = c->palette.data + e * PB_PALETTE_MAT_FLOATS;
    for (int r = 0; r < 3; r++) out[r] = M[4 * r] * P[0] + M[4 * r + 1] * P[1] + M[4 * r + 2] * P[2] + M[4 * r + 3];
}

/* The palette moves each joint's bind position onto its global position: the bind
 * pose has no rotation and unit scales, so inv_bind is a translation by minus the
 * bind position, and the palette's entry takes that position to global.pos. */
static void palette_follows(const pb_frame_crowd *c)
{
    double worst = 0, ident = 0, x[3];
    const char *how = c->sc->skin == PB_SKIN_DQS ? "dqs" : "lbs";
    CHECK(c->inv_bind.n == c->sc->joints, "palette (%s): inv_bind has %zu elements, not one per joint (%zu)", how,
          c->inv_bind.n, c->sc->joints);
    for (size_t e = 0; e < c->n && c->inv_bind.n == c->sc->joints; e++) {
        size_t j = e / c->characters;   /* the joint's inverse bind, shared by the characters */
        double P[3] = { -c->inv_bind.plane[PB_POS_X][j], -c->inv_bind.plane[PB_POS_Y][j], -c->inv_bind.plane[PB_POS_Z][j] };
        entry_apply(c, e, P, x);
        for (int r = 0; r < 3; r++) worst = fmax(worst, fabs(x[r] - c->global.plane[PB_POS_X + r][e]));
        ident = fmax(ident, fabs(c->inv_bind.plane[PB_ROT_W][j] - 1) + fabs(c->inv_bind.plane[PB_SCL_X][j] - 1));
    }
    CHECK(worst < 1e-4 && ident == 0, "palette (%s): bind positions land %.3g m from the globals (inv_bind rotation/"
          "scale off identity by %.3g)", how, worst, ident);
    /* skinning: a vertex with one influence is its joint's palette entry applied to its rest position, per character */
    const pb_mesh *m = &c->sc->mesh;
    size_t C = c->characters, single = 0;
    worst = 0;
    for (size_t k = 0; k < C; k++)
        for (size_t v = 0; v < m->n; v++) {
            if (m->w[0][v] != 1.0f) continue;
            single++;
            double P[3] = { m->pos[0][v], m->pos[1][v], m->pos[2][v] };
            entry_apply(c, (size_t)m->idx[0][v] * C + k, P, x);
            for (int r = 0; r < 3; r++) worst = fmax(worst, fabs(x[r] - c->skin[k].pos[r][v]));
        }
    CHECK(m->n == 0 || (single > 0 && worst < 1e-4), "skin (%s): %zu one-influence vertices land up to %.3g m from "
          "their joint's entry applied to the rest position", how, single, worst);
}

/* A crowd of C characters sampled at 0.1 and 0.2 s, inertializing, run
 * through frame 3's stages before `until` on variant v (checked here). */
static pb_status crowd_through(pb_frame_crowd *c, const pb_scene *s, size_t C, const pb_variant *v,
                               pb_frame_stage until)
{
    pb_status st = pb_frame_crowd_init(c, s, C, PB_OP_sample_linear);
    if (st == PB_OK) st = pb_frame_sample(c, v, 0, 0.1f);
    if (st == PB_OK) st = pb_frame_sample(c, v, 1, 0.2f);
    if (st == PB_OK) st = pb_frame_begin(c, v, PB_FM_INERTIALIZE);
    if (st == PB_OK) st = pb_frame_stages_run(c, v, PB_FM_INERTIALIZE, 3, 0, until);
    CHECK(st == PB_OK, "%s, %s x %zu: %s", pb_variant_name(v), s->name, C, pb_last_error());
    return st;
}

/* Legs FK runs fk_static over the legs' joints and their ancestors only:
 * that set holds both legs, is closed under parents, and gives the globals
 * the whole pose's fk_static gives at those joints, bit for bit. */
static void legs_fk_subset(const pb_scene *s, size_t C)
{
    for (size_t vi = 0; vi < pb_all_variant_count(); vi++) {
        const pb_variant *v = pb_all_variant_at(vi);
        if (pb_variant_check(v) != PB_OK) continue;
        const char *vn = pb_variant_name(v);
        pb_frame_crowd c;
        pb_status st = crowd_through(&c, s, C, v, PB_FS_IK);   /* up to legs FK */
        if (st != PB_OK) {
            pb_frame_crowd_free(&c);
            continue;
        }
        int in[64] = { 0 }, ok = s->joints <= 64 && c.leg_count <= s->joints, same = 1;
        for (size_t i = 0; ok && i < c.leg_count; i++) {
            int32_t j = c.leg_joints[i], p = s->parents[j];
            ok &= (i == 0 || j > c.leg_joints[i - 1]) && (p < 0 || in[p]);
            in[j] = 1;
        }
        for (int l = 0; ok && l < 2; l++)
            for (int r = 0; r < 4; r++) {
                int32_t want = r < 3 ? s->leg[l][r] : s->parents[s->leg[l][0]];
                ok &= c.leg_at[l][r] < 0 ? want < 0 : c.leg_joints[c.leg_at[l][r]] == want;
            }
        CHECK(ok && c.leg_count < s->joints, "%s x %zu: %zu leg joints, in skeleton order, closed under parents, "
              "naming both legs", s->name, C, c.leg_count);
        pb_pose full;
        st = pb_pose_alloc_static(&full, c.n);
        pb_call call = { .a = &c.local, .out = &full, .skel = &c.skel };
        if (st == PB_OK) st = pb_run(PB_OP_fk_static, v, &call);
        CHECK(st == PB_OK, "%s: fk_static of the whole pose: %s", vn, pb_last_error());
        for (size_t i = 0; st == PB_OK && ok && i < c.leg_count; i++)
            for (int p = PB_POS_X; p <= PB_SCL_Z; p++)
                same &= !memcmp(c.leg_global.plane[p] + i * C, full.plane[p] + (size_t)c.leg_joints[i] * C,
                                C * sizeof(float));
        CHECK(same, "%s, %s x %zu: legs FK's globals are the whole pose's fk_static's, bit for bit", vn, s->name, C);
        pb_pose_free(&full);
        pb_frame_crowd_free(&c);
    }
}

/* After IK and FK with velocities, each foot stands on its target wherever
 * the target is within the leg's reach (not from the reference: the
 * distance in the FK'd globals), on every variant: the IK's solved
 * rotations made it back into the right locals. */
static void feet_reach(const pb_scene *s, size_t C)
{
    for (size_t vi = 0; vi < pb_all_variant_count(); vi++) {
        const pb_variant *v = pb_all_variant_at(vi);
        if (pb_variant_check(v) != PB_OK) continue;
        const char *vn = pb_variant_name(v);
        pb_frame_crowd c;
        pb_status st = crowd_through(&c, s, C, v, PB_FS_PALETTE);   /* through FK */
        size_t K = 2 * C, reach = 0, total = 0;
        double worst = 0;
        for (int l = 0; st == PB_OK && l < 2; l++)
            for (size_t k = 0; k < C; k++) {
                double p[3][3], t[3], d = 0, a = 0, b = 0, e = 0;   /* root, mid, end before IK; target */
                for (int r = 0; r < 3; r++)
                    for (int x = 0; x < 3; x++) p[r][x] = c.leg_global.plane[PB_POS_X + x][(size_t)c.leg_at[l][r] * C + k];
                for (int x = 0; x < 3; x++) {
                    t[x] = c.target.plane[PB_POS_X + x][2 * K + (size_t)l * C + k];
                    d += (t[x] - p[0][x]) * (t[x] - p[0][x]);
                    a += (p[1][x] - p[0][x]) * (p[1][x] - p[0][x]);
                    b += (p[2][x] - p[1][x]) * (p[2][x] - p[1][x]);
                    double g = c.global.plane[PB_POS_X + x][(size_t)s->leg[l][2] * C + k] - t[x];
                    e += g * g;
                }
                d = sqrt(d), a = sqrt(a), b = sqrt(b), e = sqrt(e);
                total++;
                if (d < fabs(a - b) + 1e-3 || d > a + b - 1e-3) continue;   /* out of reach, or nearly */
                reach++;
                if (e > worst) worst = e;
            }
        CHECK(st != PB_OK || (reach * 2 > total && worst < 1e-5), "%s, %s x %zu: the feet on their targets after FK: "
              "%zu of %zu in reach, worst %.3g m", vn, s->name, C, reach, total, worst);
        pb_frame_crowd_free(&c);
    }
}

static void frame_step(void)
{
    pb_scene s;
    CHECK(pb_scene_synthetic(&s, 40, 7) == PB_OK && pb_scene_mesh(&s, 500) == PB_OK, "synthetic scene: %s",
          pb_last_error());
    pb_frame_crowd c;
    CHECK(pb_frame_crowd_init(&c, &s, 9, PB_OP_sample_linear) == PB_OK, "crowd: %s", pb_last_error());
    for (int m = 0; m < PB_FM_COUNT; m++) {
        pb_status st = pb_frame_sample(&c, NULL, 0, 0.0f);
        if (st == PB_OK) st = pb_frame_sample(&c, NULL, 1, 0.0f);
        if (st == PB_OK) st = pb_frame_begin(&c, NULL, (pb_frame_method)m);
        for (int k = 0; st == PB_OK && k < 5; k++) st = pb_frame_step(&c, NULL, (pb_frame_method)m, k);
        CHECK(st == PB_OK, "%s: %s", pb_frame_method_get((pb_frame_method)m)->key, pb_last_error());
        int finite = 1;
        for (int p = 0; p < PB_PLANES; p++)
            for (size_t i = 0; i < c.n; i++) finite &= isfinite(c.global.plane[p][i]);
        CHECK(finite, "%s: globals finite", pb_frame_method_get((pb_frame_method)m)->key);
        palette_follows(&c);
    }
    /* dual-quaternion skinning (the scene's method, read at each stage: the same crowd switches) */
    s.skin = PB_SKIN_DQS;
    pb_status st = pb_frame_step(&c, NULL, PB_FM_DEAD, 0);
    CHECK(st == PB_OK, "dqs frame: %s", pb_last_error());
    palette_follows(&c);
    s.skin = (pb_skin_method)7;
    CHECK(pb_frame_step(&c, NULL, PB_FM_DEAD, 1) == PB_ERR_PARAM && strstr(pb_last_error(), "skin is 7"),
          "a bad skinning method: %s", pb_last_error());
    s.skin = PB_SKIN_LBS;
    CHECK(pb_frame_step(NULL, NULL, PB_FM_DEAD, 0) == PB_ERR_NULL, "NULL crowd");
    CHECK(pb_frame_step(&c, NULL, PB_FM_COUNT, 0) == PB_ERR_PARAM && strstr(pb_last_error(), "method"), "bad method");
    CHECK(pb_frame_step(&c, NULL, PB_FM_DEAD, -1) == PB_ERR_PARAM && strstr(pb_last_error(), "k = -1"), "k < 0");
    CHECK(pb_frame_sample(&c, NULL, 2, 0.0f) == PB_ERR_PARAM && strstr(pb_last_error(), "role"), "role 2");
    CHECK(pb_frame_method_get(PB_FM_COUNT) == NULL, "no method past the table");
    pb_frame_crowd_free(&c);
    pb_frame_crowd big;
    CHECK(pb_frame_crowd_init(&big, &s, PB_FRAME_CROWD_MAX_VERTICES / 500 + 1, PB_OP_sample_linear) == PB_ERR_SIZE &&
          strstr(pb_last_error(), "skinned vertices"), "too many skinned vertices: %s", pb_last_error());
    pb_frame_crowd_free(&big);
    CHECK(pb_scene_mesh(NULL, 10) == PB_ERR_NULL, "mesh of a NULL scene");
    CHECK(pb_scene_mesh(&s, PB_MESH_MAX_VERTICES + 1) == PB_ERR_SIZE && s.mesh.n == 500, "an oversized mesh is refused, "
          "the old one kept: %s", pb_last_error());
    CHECK(pb_scene_mesh(&s, 0) == PB_OK && s.mesh.n == 0, "mesh removed");
    CHECK(pb_frame_crowd_init(&big, &s, PB_FRAME_CROWD_MAX_ELEMENTS, PB_OP_sample_linear) == PB_ERR_SIZE,
          "a crowd above the cap is refused: %s", pb_last_error());
    pb_frame_crowd_free(&big);
    pb_scene_free(&s);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    legs_of(dir, "cmu", cmu, "", "by name: CMU");
    legs_of(dir, "mixamo", cmu, "mixamorig:", "by name: CMU/BVH, Mixamo");
    static const char *const ue[BJ] = { "pelvis", "hip_l", "thigh_l", "calf_l", "foot_l", "ball_l", "hip_r",
                                        "thigh_r", "calf_r", "foot_r", "ball_r", "spine_01", "spine_02",
                                        "clavicle_l", "upperarm_l", "lowerarm_l", "clavicle_r", "upperarm_r",
                                        "lowerarm_r", "hand_r" };
    legs_of(dir, "unreal", ue, "", "by name: Unreal");
    static const char *const bandai[BJ] = { "Hips", "Pelvis_L", "UpperLeg_L", "LowerLeg_L", "Foot_L", "Toes_L",
                                            "Pelvis_R", "UpperLeg_R", "LowerLeg_R", "Foot_R", "Toes_R", "Spine",
                                            "Chest", "Shoulder_L", "UpperArm_L", "LowerArm_L", "Shoulder_R",
                                            "UpperArm_R", "LowerArm_R", "Hand_R" };
    legs_of(dir, "bandai", bandai, "", "by name: Bandai");
    static const char *const plain[BJ] = { "j0", "j1", "j2", "j3", "j4", "j5", "j6", "j7", "j8", "j9",
                                           "j10", "j11", "j12", "j13", "j14", "j15", "j16", "j17", "j18", "j19" };
    legs_of(dir, "plain", plain, "", "by topology");
    random_parents();
    pb_scene s;
    CHECK(pb_scene_synthetic(&s, 64, 20231) == PB_OK, "synthetic scene: %s", pb_last_error());
    legs_fk_subset(&s, 9);    /* fk's few-characters path */
    legs_fk_subset(&s, 37);   /* the crowd path, with a tail */
    feet_reach(&s, 37);
    pb_scene_free(&s);
    frame_step();
    return check_done();
}
