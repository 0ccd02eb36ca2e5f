/* test_transitions.c — what users rely on when switching animations, in every
 * variant: inertialization starts exactly at the source (pose and velocities)
 * and is the destination from the end of its duration on; dead blending starts
 * at the source and ends at the destination; a zero half-life holds still;
 * blend and additive have the right endpoints; roots are left to the caller;
 * masked additive layers keep the base exactly where their weight is 0 (and,
 * with velocities, its rate) and its scale where the delta's is exactly 1. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "pose_check.h"
#include "validate.h"
#include "all_variants.h"

#define J 7
#define C 5
#define N (J * C)
/* Endpoint rotations in radians (the harness's angle metric): a few float
 * roundings of a composed rotation (measured at most 4.6e-7 rad, inertialize
 * at t = 0); the old 1 - |dot| < 2e-5 allowed 0.7 degrees. */
#define ROT_EPS 2e-6

static pb_pose src, dst, off, out, tmp;
static pb_skeleton sk;

/* Runs op and counts a failed status as a failed check. */
static pb_status run(const pb_variant *v, pb_op op, const pb_pose *a, const pb_pose *b, pb_pose *o, pb_params p)
{
    pb_call c = { .a = a, .b = b, .out = o, .skel = &sk, .params = p };
    pb_status s = pb_run(op, v, &c);
    CHECK(s == PB_OK, "%s %s: %s", pb_variant_name(v), pb_op_get(op)->name, pb_last_error());
    return s;
}

/* x and y agree: rotations within rot radians, the rest within lin (abs; scale relative). */
static int near(const char *vn, const char *what, const pb_pose *x, const pb_pose *y, double rot, double lin)
{
    pose_gap g = pose_gap_of(x, y);
    int ok = pose_gap_within(g, rot, lin, lin);
    CHECK(ok, "%s %s: " POSE_GAP_FMT, vn, what, POSE_GAP_ARGS(g));
    if (getenv("PB_TEST_VERBOSE")) printf("%s %s: " POSE_GAP_FMT "\n", vn, what, POSE_GAP_ARGS(g));
    return ok;
}

/* Additive layers, a weight per character x a bone mask: the weight 0 (and
 * its rate 0) leaves the base, pose and velocities, and a delta scale of
 * exactly 1 the base's scale, as values (the kernels skip that work for whole
 * vectors, joints 0-3 are 20 elements of weight 0; the values must stay the
 * full computation's). */
static void check_additive_exact(const pb_variant *v, pb_op op)
{
    static const float alpha[C] = { 0, 0.5f, 1, 0, 0.3f }, mask[J] = { 0, 0, 0, 0, 1, 0.5f, 1 };
    const char *vn = pb_variant_name(v), *on = pb_op_get(op)->name;
    CHECK(pb_pose_copy(&tmp, &dst) == PB_OK, "copy: %s", pb_last_error());
    for (size_t e = 0; e < N; e += 2)
        for (int q = PB_SCL_X; q <= PB_SCL_Z; q++) tmp.plane[q][e] = 1.0f;
    pb_call c = { .a = &src, .b = &tmp, .out = &out, .per = { .characters = C, .alpha = alpha, .mask = mask } };
    pb_status s = pb_run(op, v, &c);
    CHECK(s == PB_OK, "%s %s: %s", vn, on, pb_last_error());
    if (s != PB_OK) return;
    size_t bad_zero = N, bad_scale = N, moved = 0;
    int np = pb_op_get(op)->out & (1u << PB_G_VEL) ? PB_PLANES : PB_STATIC_PLANES;
    for (size_t e = 0; e < N; e++) {
        int zero = alpha[e % C] * mask[e / C] == 0.0f;
        for (int q = 0; q < np; q++) {
            int same = out.plane[q][e] == src.plane[q][e];
            if (zero && !same && bad_zero == N) bad_zero = e;
            if (!zero && q >= PB_SCL_X && q <= PB_SCL_Z && tmp.plane[q][e] == 1.0f && !same && bad_scale == N) bad_scale = e;
            moved += !zero && !same;
        }
    }
    CHECK(bad_zero == N, "%s %s: weight 0 keeps the base exactly (element %zu differs)", vn, on, bad_zero);
    CHECK(bad_scale == N, "%s %s: a unit delta scale keeps the base's exactly (element %zu)", vn, on, bad_scale);
    CHECK(moved > 0, "%s %s: the weighted elements move", vn, on);
}

static void check_variant(const pb_variant *v)
{
    const char *vn = pb_variant_name(v);
    pb_params p = { 0 };
    /* inertialization */
    run(v, PB_OP_inertialize_offset, &src, &dst, &off, p);
    p.duration = 0.4f;
    p.time = 0;
    run(v, PB_OP_inertialize, &dst, &off, &out, p);
    near(vn, "inertialize at t = 0 is the source (pose and velocities)", &out, &src, ROT_EPS, 2e-5);
    p.time = 0.4f;
    run(v, PB_OP_inertialize, &dst, &off, &out, p);
    near(vn, "inertialize at t = duration is the destination", &out, &dst, ROT_EPS, 1e-6);
    p.duration = 0;
    p.time = 0;
    run(v, PB_OP_inertialize, &dst, &off, &out, p);
    near(vn, "zero duration: the destination at once", &out, &dst, ROT_EPS, 1e-6);

    /* dead blending: source at 0 (roots: destination), destination at the end */
    p = (pb_params){ .time = 0, .duration = 0.3f, .halflife = 0.1f };
    run(v, PB_OP_dead_blending, &src, &dst, &out, p);
    CHECK(pb_pose_copy(&tmp, &src) == PB_OK, "copy: %s", pb_last_error());
    for (size_t e = 0; e < C; e++)   /* joint 0 is the root */
        for (int q = 0; q < PB_PLANES; q++) tmp.plane[q][e] = dst.plane[q][e];
    near(vn, "dead blending at t = 0 is the source", &out, &tmp, ROT_EPS, 2e-6);
    p.time = 0.3f;
    run(v, PB_OP_dead_blending, &src, &dst, &out, p);
    near(vn, "dead blending at t = duration is the destination", &out, &dst, ROT_EPS, 1e-6);

    /* decayed extrapolation: half-life 0 holds with zero velocity; roots hold anyway */
    p = (pb_params){ .time = 0.5f, .halflife = 0 };
    run(v, PB_OP_extrapolate_decayed, &src, NULL, &out, p);
    CHECK(pb_pose_copy(&tmp, &src) == PB_OK, "copy: %s", pb_last_error());
    for (int q = PB_VEL_X; q < PB_PLANES; q++)
        for (size_t i = 0; i < N; i++) tmp.plane[q][i] = 0;
    near(vn, "half-life 0 holds the pose", &out, &tmp, ROT_EPS, 1e-6);
    p.halflife = 0.2f;
    run(v, PB_OP_extrapolate_decayed, &src, NULL, &out, p);
    int roots_hold = 1, others_move = 1;
    for (size_t e = 0; e < N; e++) {
        int root = e < C;
        int moved = out.plane[PB_POS_X][e] != src.plane[PB_POS_X][e];
        if (root) roots_hold &= !moved && out.plane[PB_VEL_X][e] == 0;
        else others_move &= moved || src.plane[PB_VEL_X][e] == 0;
    }
    CHECK(roots_hold && others_move, "%s roots are not extrapolated, the rest is", vn);
    /* half-lives of velocity decay: after one half-life velocities halve */
    p.time = 0.2f;
    run(v, PB_OP_extrapolate_decayed, &src, NULL, &out, p);
    double half = 0;
    for (size_t e = C; e < N; e++) half = dmax(half, fabs(out.plane[PB_VEL_Y][e] - 0.5 * src.plane[PB_VEL_Y][e]));
    CHECK(half < 1e-5, "%s velocity halves after one half-life (%.3g)", vn, half);

    /* blend endpoints and additive at weight 0 */
    p = (pb_params){ .alpha = 0, .alpha_vel = 0 };
    run(v, PB_OP_blend, &src, &dst, &out, p);
    near(vn, "blend at 0 is a", &out, &src, ROT_EPS, 1e-6);
    p.alpha = 1;
    run(v, PB_OP_blend, &src, &dst, &out, p);
    near(vn, "blend at 1 is b", &out, &dst, ROT_EPS, 1e-5);
    p = (pb_params){ .alpha = 0 };
    run(v, PB_OP_additive, &src, &dst, &out, p);
    near(vn, "additive at weight 0 is the base", &out, &src, ROT_EPS, 1e-6);
    check_additive_exact(v, PB_OP_additive_local_static);
    check_additive_exact(v, PB_OP_additive_world_static);
    check_additive_exact(v, PB_OP_additive_local_static_nlerp);
    check_additive_exact(v, PB_OP_additive);

    /* missing skeleton for the ops that need roots */
    pb_call c = { .a = &src, .out = &out, .params = { .time = 0.1f, .halflife = 0.1f } };
    CHECK(pb_run(PB_OP_extrapolate_decayed, v, &c) == PB_ERR_NULL, "extrapolate without skeleton");
    c.params.halflife = -1;
    c.skel = &sk;
    CHECK(pb_run(PB_OP_extrapolate_decayed, v, &c) == PB_ERR_PARAM && strstr(pb_last_error(), "halflife"),
          "negative half-life refused: %s", pb_last_error());
}

int main(void)
{
    int32_t parents[J] = { -1, 0, 1, 2, 1, 4, 0 };
    CHECK(pb_skeleton_init(&sk, parents, J, C) == PB_OK, "skeleton");
    if (!poses_alloc(N, 5, &src, &dst, &off, &out, &tmp)) return check_done();
    const pb_op_info *info = pb_op_get(PB_OP_blend);
    pb_gen_case(&src, &dst, PB_CLASS_RANDOM, 11, info);
    for (size_t i = 0; i < pb_all_variant_count(); i++) {
        const pb_variant *v = pb_all_variant_at(i);
        if (pb_variant_check(v) == PB_OK) check_variant(v);
    }
    pb_pose_free(&src); pb_pose_free(&dst); pb_pose_free(&off); pb_pose_free(&out); pb_pose_free(&tmp);
    pb_skeleton_free(&sk);
    return check_done();
}
