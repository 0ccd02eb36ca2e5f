/* test_halflife_est.c — Unreal-style dead blending, in every variant:
 *   - estimate_halflife against its closed form on a grid built so the way to the destination
 *     is known exactly (a at the identity, b offset along one axis; not the reference's code):
 *     signs, zero, tiny (below eps) and large velocities, each channel and axis; with Unreal's
 *     defaults (params all 0) and with a scale, min and max of the call's own (params.hl_*),
 *     and those refused out of range (naming the field);
 *   - its invariants on random input: every half-life 0 (zero velocity) or in [min, max], and
 *     the minimum whenever the velocity heads away from the destination;
 *   - per.halflives: equal to per.halflife_axis when every channel holds the joint's axes
 *     (bit for bit: the same factors), to the uniform half-life within rounding, and the
 *     refusals (static pose, wrong n, NaN or negative element, given with halflife_axis, an
 *     op that reads no half-life), each naming the argument. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "refuse.h"
#include "pose_check.h"
#include "validate.h"
#include "all_variants.h"

#define J 6
#define C 8
#define N (J * C)

static pb_pose a, b, out, out2, hl;
static pb_skeleton sk;

/* Unreal's rule in double, as its documentation states it, with scale, min and max e. */
static double ue_halflife(double d, double v, const double e[3])
{
    if (v == 0) return 0;   /* ours: nothing moves, nothing to decay */
    double eps = PB_HALFLIFE_EST_EPS, m = v >= 0 ? (v > eps ? v : eps) : (v < -eps ? v : -eps);
    double h = e[0] * d / m;
    return h < e[1] ? e[1] : h > e[2] ? e[2] : h;
}

/* Element e: channel ch (0 positions, 1 rotations, 2 scales), axis ax, distance d, velocity v;
 * every other channel and axis still (velocity 0). */
static void set_case(size_t e, int ch, int ax, double d, double v)
{
    for (int p = 0; p < PB_PLANES; p++) a.plane[p][e] = b.plane[p][e] = pb_plane_identity(p);
    if (ch == 0) b.plane[PB_POS_X + ax][e] = (float)d;
    if (ch == 1) {   /* b = rotation by d about axis ax: its rotation vector from a is exactly d e_ax */
        b.plane[PB_ROT_W][e] = (float)cos(d / 2);
        b.plane[PB_ROT_X + ax][e] = (float)sin(d / 2);
    }
    if (ch == 2) b.plane[PB_SCL_X + ax][e] = (float)exp(d);
    a.plane[PB_VEL_X + 3 * ch + ax][e] = (float)v;
}

/* p: the call's params; e: the scale, min and max they mean */
static void closed_form(const pb_variant *v, pb_params p, const double est[3])
{
    static const double ds[] = { 0.5, -0.5, 0.02, -1.3, 2.0 };
    static const double vs[] = { 1.0, -1.0, 0.0, 1e-9, -1e-9, 0.2, -3.0, 40.0, 0.05 };
    size_t e = 0, total = 0;
    double worst = 0;
    for (int ch = 0; ch < 3; ch++)
        for (int ax = 0; ax < 3; ax++)
            for (size_t i = 0; i < sizeof ds / sizeof ds[0]; i++)
                for (size_t k = 0; k < sizeof vs / sizeof vs[0]; k++) {
                    set_case(e, ch, ax, ds[i], vs[k]);
                    if (++e < N && !(ch == 2 && ax == 2 && i + 1 == sizeof ds / sizeof ds[0] &&
                                     k + 1 == sizeof vs / sizeof vs[0]))
                        continue;
                    /* a batch of e elements (the rest identity): run and compare */
                    for (size_t r = e; r < N; r++)
                        for (int p = 0; p < PB_PLANES; p++) a.plane[p][r] = b.plane[p][r] = pb_plane_identity(p);
                    pb_call c = { .a = &a, .b = &b, .out = &out, .params = p };
                    pb_status s = pb_run(PB_OP_estimate_halflife, v, &c);
                    CHECK(s == PB_OK, "%s estimate_halflife: %s", pb_variant_name(v), pb_last_error());
                    for (size_t r = 0; r < N && s == PB_OK; r++)
                        for (int q = 0; q < 9; q++) {
                            int qc = q / 3, qa = q % 3;
                            double d = qc == 0 ? b.plane[PB_POS_X + qa][r]
                                     : qc == 1 ? 2 * atan2(b.plane[PB_ROT_X + qa][r], b.plane[PB_ROT_W][r])
                                               : log(b.plane[PB_SCL_X + qa][r]);
                            double want = ue_halflife(d, a.plane[PB_VEL_X + q][r], est), got = out.plane[PB_VEL_X + q][r];
                            double err = fabs(got - want) / (want > 0 ? want : 1);
                            worst = dmax(worst, err);
                            total++;
                            CHECK(err <= 2e-6, "%s element %zu channel %d axis %d: %.9g, want %.9g (d %.9g, v %.9g)",
                                  pb_variant_name(v), r, qc, qa, got, want, d, (double)a.plane[PB_VEL_X + q][r]);
                        }
                    e = 0;
                }
    if (getenv("PB_TEST_VERBOSE"))
        printf("%s closed form (scale %g): %zu values, worst rel %.2e\n", pb_variant_name(v), est[0], total, worst);
}

/* The call's own scale, min and max out of range: refused, naming the field. */
static void est_params_refused(const pb_variant *v)
{
    pb_call c = { .a = &a, .b = &b, .out = &out };
    static const struct { float s, lo, hi; const char *what; } bad[] = {
        { -0.3f, 0.1f, 1.0f, "hl_scale is -0.3" }, { 0.0f, 0.1f, 1.0f, "hl_scale is 0" },
        { 11.0f, 0.1f, 1.0f, "hl_scale is 11" },   { NAN, 0.1f, 1.0f, "hl_scale is nan" },
        { 0.3f, -0.1f, 1.0f, "hl_min is -0.1" },   { 0.3f, 0.5f, 0.2f, "hl_max is 0.2" },
        { 0.3f, 0.1f, 12.0f, "hl_max is 12" },     { 0.3f, 0.1f, INFINITY, "hl_max is inf" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        c.params.hl_scale = bad[i].s, c.params.hl_min = bad[i].lo, c.params.hl_max = bad[i].hi;
        REFUSE(PB_ERR_PARAM, bad[i].what, pb_run(PB_OP_estimate_halflife, v, &c));
        REFUSE(PB_ERR_PARAM, bad[i].what, pb_halflife_est_check("x", bad[i].s, bad[i].lo, bad[i].hi));
    }
    CHECK(pb_halflife_est_check("x", 0, 0, 0) == PB_OK && pb_halflife_est_check("x", 10, 0, 10) == PB_OK,
          "the defaults and the limits are accepted");
}

/* On random poses: 0 exactly where the velocity is 0, else within [min, max], and the
 * minimum where the velocity heads away from the destination (d v < 0, d measured in double). */
static void invariants(const pb_variant *v)
{
    pb_gen_case(&a, &b, PB_CLASS_RANDOM, 23, pb_op_get(PB_OP_estimate_halflife));
    for (size_t e = 0; e < N; e += 3) a.plane[PB_VEL_X + e % 9][e] = 0;
    pb_call c = { .a = &a, .b = &b, .out = &out };
    if (pb_run(PB_OP_estimate_halflife, v, &c) != PB_OK) {
        CHECK(0, "%s estimate_halflife: %s", pb_variant_name(v), pb_last_error());
        return;
    }
    for (size_t e = 0; e < N; e++)
        for (int q = 0; q < 9; q++) {
            double vel = a.plane[PB_VEL_X + q][e], h = out.plane[PB_VEL_X + q][e];
            if (vel == 0) {
                CHECK(h == 0, "%s element %zu component %d: still but half-life %g", pb_variant_name(v), e, q, h);
                continue;
            }
            CHECK(h >= PB_HALFLIFE_EST_MIN && h <= PB_HALFLIFE_EST_MAX, "%s element %zu component %d: %g outside",
                  pb_variant_name(v), e, q, h);
            if (q < 3) {   /* positions: d = b - a along the axis */
                double d = (double)b.plane[PB_POS_X + q][e] - a.plane[PB_POS_X + q][e];
                if (d * vel < 0)
                    CHECK(h == PB_HALFLIFE_EST_MIN, "%s element %zu axis %d: moving away (d %g, v %g) but %g",
                          pb_variant_name(v), e, q, d, vel, h);
            }
        }
}

/* per.halflives in the decay ops: the per-joint axes path's result where the channels agree,
 * the uniform half-life's where every value is the same; refusals. */
static void halflives(const pb_variant *v)
{
    const char *vn = pb_variant_name(v);
    float axes[3 * J];
    pb_gen_case(&a, &b, PB_CLASS_RANDOM, 5, pb_op_get(PB_OP_dead_blending));
    pb_gen_halflife_axes(axes, J, 77);
    pb_op ops[2] = { PB_OP_extrapolate_decayed, PB_OP_dead_blending };
    for (int o = 0; o < 2; o++) {
        for (size_t e = 0; e < N; e++)
            for (int q = 0; q < 9; q++) hl.plane[PB_VEL_X + q][e] = axes[3 * (e / C) + (size_t)(q % 3)];
        pb_call c = { .a = &a, .b = &b, .out = &out, .skel = &sk,
                      .params = { .time = 0.3f, .duration = 0.5f, .halflife = 0.2f },
                      .per = { .characters = C, .halflife_axis = axes } };
        pb_status s1 = pb_run(ops[o], v, &c);
        c.out = &out2;
        c.per = (pb_param_arrays){ .halflives = &hl };
        pb_status s2 = pb_run(ops[o], v, &c);
        CHECK(s1 == PB_OK && s2 == PB_OK, "%s %s: %s", vn, pb_op_get(ops[o])->name, pb_last_error());
        int same = 1;
        for (int p = 0; p < PB_PLANES; p++) same &= !memcmp(out.plane[p], out2.plane[p], N * sizeof(float));
        CHECK(same, "%s %s: per.halflives with every channel the joint's axes differs from per.halflife_axis", vn,
              pb_op_get(ops[o])->name);
        /* every half-life 0.2: the uniform call's result, within rounding */
        for (int q = 0; q < 9; q++)
            for (size_t e = 0; e < N; e++) hl.plane[PB_VEL_X + q][e] = 0.2f;
        c.per = (pb_param_arrays){ 0 };
        c.out = &out;
        s1 = pb_run(ops[o], v, &c);
        c.per.halflives = &hl;
        c.out = &out2;
        s2 = pb_run(ops[o], v, &c);
        CHECK(s1 == PB_OK && s2 == PB_OK, "%s %s: %s", vn, pb_op_get(ops[o])->name, pb_last_error());
        pose_gap g = pose_gap_of(&out, &out2);
        CHECK(pose_gap_within(g, 1e-6, 1e-5, 1e-5), "%s %s: all half-lives 0.2 vs uniform 0.2: " POSE_GAP_FMT, vn,
              pb_op_get(ops[o])->name, POSE_GAP_ARGS(g));
    }

    /* refusals: nothing written, the argument named */
    pb_pose st = { 0 }, small = { 0 };
    CHECK(pb_pose_alloc_static(&st, N) == PB_OK && pb_pose_alloc(&small, N - 1) == PB_OK, "alloc");
    pb_call c = { .a = &a, .b = &b, .out = &out, .skel = &sk, .params = { .time = 0.3f, .duration = 0.5f },
                  .per = { .halflives = &st } };
    REFUSE(PB_ERR_NULL, "per.halflives is a static pose", pb_run(PB_OP_dead_blending, v, &c));
    c.per.halflives = &small;
    REFUSE(PB_ERR_SIZE, "per.halflives has n = 47", pb_run(PB_OP_dead_blending, v, &c));
    c.per.halflives = &hl;
    hl.plane[PB_ANG_Y][17] = NAN;
    REFUSE(PB_ERR_PARAM, "ang.y plane, element 17", pb_run(PB_OP_extrapolate_decayed, v, &c));
    hl.plane[PB_ANG_Y][17] = -0.5f;
    REFUSE(PB_ERR_PARAM, "element 17, is -0.5", pb_run(PB_OP_dead_blending, v, &c));
    hl.plane[PB_ANG_Y][17] = 0.5f;
    c.per.characters = C;
    c.per.halflife_axis = axes;
    REFUSE(PB_ERR_PARAM, "per.halflives and per.halflife_axis", pb_run(PB_OP_dead_blending, v, &c));
    c.per = (pb_param_arrays){ .halflives = &hl };
    REFUSE(PB_ERR_PARAM, "does not read half-lives", pb_run(PB_OP_blend, v, &c));
    pb_pose_free(&st);
    pb_pose_free(&small);
}

int main(void)
{
    int32_t parents[J] = { -1, 0, 1, 2, 1, 4 };
    CHECK(pb_skeleton_init(&sk, parents, J, C) == PB_OK, "skeleton");
    if (!poses_alloc(N, 5, &a, &b, &out, &out2, &hl)) return check_done();
    for (size_t i = 0; i < pb_all_variant_count(); i++) {
        const pb_variant *v = pb_all_variant_at(i);
        if (pb_variant_check(v) != PB_OK) continue;
        const double ue[3] = { PB_HALFLIFE_EST_SCALE, PB_HALFLIFE_EST_MIN, PB_HALFLIFE_EST_MAX };
        closed_form(v, (pb_params){ 0 }, ue);
        /* a scale of the call's own, its min 0.05 and max 2.5 reached by the grid's small velocities */
        const double own[3] = { 0.7, 0.05, 2.5 };
        closed_form(v, (pb_params){ .hl_scale = 0.7f, .hl_min = 0.05f, .hl_max = 2.5f }, own);
        est_params_refused(v);
        invariants(v);
        halflives(v);
    }
    pb_pose_free(&a); pb_pose_free(&b); pb_pose_free(&out); pb_pose_free(&out2); pb_pose_free(&hl);
    pb_skeleton_free(&sk);
    return check_done();
}
