/* test_limits.c — joint limits on the decayed extrapolation (per.limits), in every variant,
 * by checks that do not come from the reference:
 *   - a closed form: a joint turning about one axis of its rest frame has l = x0 + s f(t) on
 *     that axis, so the clamped / reflected rotation and its angular velocity are known in
 *     double (the box widened to the source, the rate held or reversed);
 *   - invariants on random input: every limited rotation inside its (widened) box;
 *   - a box no motion reaches changes nothing, bit for bit, in both modes and both ops;
 *   - pb_clip_joint_limits against the extremes of a clip built from known rotations;
 *   - the refusals, each naming the argument. */
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
#define LN2 0.69314718055994530942

static pb_pose a, b, out, out2;
static pb_skeleton sk;
static float lo[3 * J], hi[3 * J], rest[4 * J];

typedef struct { double w, x, y, z; } dq4;
static dq4 q_mul(dq4 p, dq4 q)
{
    return (dq4){ p.w * q.w - p.x * q.x - p.y * q.y - p.z * q.z, p.w * q.x + p.x * q.w + p.y * q.z - p.z * q.y,
                  p.w * q.y - p.x * q.z + p.y * q.w + p.z * q.x, p.w * q.z + p.x * q.y - p.y * q.x + p.z * q.w };
}
static void q_rot(dq4 q, const double v[3], double o[3])
{
    dq4 p = q_mul(q_mul(q, (dq4){ 0, v[0], v[1], v[2] }), (dq4){ q.w, -q.x, -q.y, -q.z });
    o[0] = p.x, o[1] = p.y, o[2] = p.z;
}
static dq4 q_axis(int ax, double angle)
{
    double s = sin(angle / 2), c[3] = { 0, 0, 0 };
    c[ax] = s;
    return (dq4){ cos(angle / 2), c[0], c[1], c[2] };
}
static dq4 rest_of(size_t j) { return (dq4){ rest[4 * j], rest[4 * j + 1], rest[4 * j + 2], rest[4 * j + 3] }; }
static dq4 rot_of(const pb_pose *p, size_t e)
{
    return (dq4){ p->plane[PB_ROT_W][e], p->plane[PB_ROT_X][e], p->plane[PB_ROT_Y][e], p->plane[PB_ROT_Z][e] };
}
/* 2 log(q), shorter arc */
static void saa(dq4 q, double v[3])
{
    if (q.w < 0) q = (dq4){ -q.w, -q.x, -q.y, -q.z };
    double s = sqrt(q.x * q.x + q.y * q.y + q.z * q.z), k = s > 0 ? 2 * atan2(s, q.w) / s : 2;
    v[0] = q.x * k, v[1] = q.y * k, v[2] = q.z * k;
}
static double angle_between(dq4 p, dq4 q)
{
    dq4 d = q_mul((dq4){ p.w, -p.x, -p.y, -p.z }, q);
    return 2 * atan2(sqrt(d.x * d.x + d.y * d.y + d.z * d.z), fabs(d.w));
}

/* The expected limited coordinate and its rate factor (1, 0, -1), in double. */
static double limit_axis(double x, double l, double h, int bounce, double *s)
{
    *s = 1;
    if (x >= l && x <= h) return x;
    if (!bounce || !(h > l)) {
        *s = 0;
        return x < l ? l : h;
    }
    double w = h - l, m = fmod(x - l, 2 * w);
    if (m < 0) m += 2 * w;
    if (m <= w) return l + m;
    *s = -1;
    return h - (m - w);
}

static pb_call limited_call(pb_joint_limits *L, float t, float halflife)
{
    pb_call c = { .a = &a, .b = &b, .out = &out, .skel = &sk, .params = { .time = t, .halflife = halflife, .duration = 0.5f },
                  .per = { .characters = C, .limits = L } };
    return c;
}

/* A joint turning about axis ax of its rest frame at rate s from x0: l(t) = x0 + s f(t). */
static void closed_form(const pb_variant *v, pb_limit_mode mode)
{
    static const double x0s[3] = { 0.3, -0.2, 1.0 }, ss[3] = { 4, -5, 0.5 };
    static const float ts[3] = { 0.05f, 0.3f, 0.9f };
    const double L0 = -0.5, H0 = 0.8, hl = 0.4;
    const char *vn = pb_variant_name(v);
    for (size_t j = 0; j < J; j++)
        for (int k = 0; k < 3; k++) lo[3 * j + (size_t)k] = (float)L0, hi[3 * j + (size_t)k] = (float)H0;
    pb_joint_limits L = { mode, lo, hi, rest };
    double worst_rot = 0, worst_ang = 0;
    for (int ti = 0; ti < 3; ti++) {
        int cases = 0;
        double want_l[N], want_s[N];
        int want_ax[N];
        for (size_t e = 0; e < N; e++)
            for (int p = 0; p < PB_PLANES; p++) a.plane[p][e] = b.plane[p][e] = pb_plane_identity(p);
        for (size_t e = C; e < N && cases < 27; e++, cases++) {   /* joint 0 is the root: held */
            int ax = cases / 9;
            double x0 = x0s[(cases / 3) % 3], s = ss[cases % 3];
            dq4 r0 = q_mul(rest_of(e / C), q_axis(ax, x0));
            double u[3] = { 0, 0, 0 }, w[3];
            u[ax] = s;
            q_rot(rest_of(e / C), u, w);
            a.plane[PB_ROT_W][e] = (float)r0.w, a.plane[PB_ROT_X][e] = (float)r0.x;
            a.plane[PB_ROT_Y][e] = (float)r0.y, a.plane[PB_ROT_Z][e] = (float)r0.z;
            for (int k = 0; k < 3; k++) a.plane[PB_ANG_X + k][e] = (float)w[k];
            double lam = LN2 / hl, f = -expm1(-lam * ts[ti]) / lam, df = exp(-lam * ts[ti]);
            double lq = x0 < L0 ? x0 - PB_LIMIT_SLACK : L0, hq = x0 > H0 ? x0 + PB_LIMIT_SLACK : H0, fac;
            want_l[e] = limit_axis(x0 + s * f, lq, hq, mode == PB_LIMIT_BOUNCE, &fac);
            want_s[e] = fac * s * df;
            want_ax[e] = ax;
        }
        pb_call c = limited_call(&L, ts[ti], (float)hl);
        pb_status st = pb_run(PB_OP_extrapolate_decayed, v, &c);
        CHECK(st == PB_OK, "%s: %s", vn, pb_last_error());
        if (st != PB_OK) return;
        for (size_t e = C; e < C + 27; e++) {
            dq4 want = q_mul(rest_of(e / C), q_axis(want_ax[e], want_l[e]));
            double u[3] = { 0, 0, 0 }, w[3], d2 = 0;
            u[want_ax[e]] = want_s[e];
            q_rot(rest_of(e / C), u, w);
            for (int k = 0; k < 3; k++) d2 += (out.plane[PB_ANG_X + k][e] - w[k]) * (out.plane[PB_ANG_X + k][e] - w[k]);
            double er = angle_between(rot_of(&out, e), want), ea = sqrt(d2) / fmax(1, fabs(want_s[e]));
            worst_rot = dmax(worst_rot, er);
            worst_ang = dmax(worst_ang, ea);
            CHECK(er <= 2e-6 && ea <= 1e-5, "%s %s element %zu (axis %d, t %g): rotation off by %.3g rad, ang by %.3g "
                  "(want l %.6f, rate %.6f)", vn, mode ? "bounce" : "clamp", e, want_ax[e], (double)ts[ti], er, ea,
                  want_l[e], want_s[e]);
        }
    }
    if (getenv("PB_TEST_VERBOSE"))
        printf("%s %s closed form: worst %.2e rad, ang %.2e\n", vn, mode ? "bounce" : "clamp", worst_rot, worst_ang);
}

/* Random poses: each limited rotation's l inside its box widened to the source's l0 (or its
 * other representation, l - 2 pi l/|l|, where the box reaches past half a turn). */
static void invariants(const pb_variant *v, pb_limit_mode mode)
{
    pb_gen_case(&a, &b, PB_CLASS_RANDOM, 31 + (uint64_t)mode, pb_op_get(PB_OP_dead_blending));
    pb_gen_limits(lo, hi, rest, J, 9 + (uint64_t)mode);
    pb_joint_limits L = { mode, lo, hi, rest };
    static const float ts[4] = { 0.1f, 0.4f, 1.5f, 5.0f };
    for (int ti = 0; ti < 4; ti++) {
        pb_call c = limited_call(&L, ts[ti], 0.6f);
        pb_status st = pb_run(PB_OP_extrapolate_decayed, v, &c);
        CHECK(st == PB_OK, "%s: %s", pb_variant_name(v), pb_last_error());
        if (st != PB_OK) return;
        for (size_t e = C; e < N; e++) {
            size_t j = e / C;
            dq4 ir = rest_of(j);
            ir.x = -ir.x, ir.y = -ir.y, ir.z = -ir.z;
            double l0[3], l[3], m[3];
            saa(q_mul(ir, rot_of(&a, e)), l0);
            saa(q_mul(ir, rot_of(&out, e)), l);
            double n = sqrt(l[0] * l[0] + l[1] * l[1] + l[2] * l[2]);
            for (int k = 0; k < 3; k++) m[k] = n > 0 ? l[k] - 2 * 3.14159265358979323846 * l[k] / n : l[k];
            int in[2] = { 1, 1 };
            for (int k = 0; k < 3; k++) {
                double lq = lo[3 * j + (size_t)k], hq = hi[3 * j + (size_t)k];
                if (l0[k] < lq) lq = l0[k] - PB_LIMIT_SLACK;
                if (l0[k] > hq) hq = l0[k] + PB_LIMIT_SLACK;
                lq -= 2e-5, hq += 2e-5;
                in[0] &= l[k] >= lq && l[k] <= hq;
                in[1] &= m[k] >= lq && m[k] <= hq;
            }
            CHECK(in[0] || in[1], "%s %s t %g element %zu: l = (%.5f %.5f %.5f) outside its box", pb_variant_name(v),
                  mode ? "bounce" : "clamp", (double)ts[ti], e, l[0], l[1], l[2]);
        }
    }
}

/* A box nothing reaches: the unlimited result, bit for bit. */
static void pass_through(const pb_variant *v)
{
    pb_gen_case(&a, &b, PB_CLASS_RANDOM, 3, pb_op_get(PB_OP_dead_blending));
    for (size_t k = 0; k < 3 * J; k++) lo[k] = -10, hi[k] = 10;
    pb_op ops[2] = { PB_OP_extrapolate_decayed, PB_OP_dead_blending };
    for (int o = 0; o < 2; o++)
        for (int mode = 0; mode < 2; mode++) {
            pb_joint_limits L = { (pb_limit_mode)mode, lo, hi, rest };
            pb_call c = limited_call(&L, 0.35f, 0.3f);
            c.per.halflife_axis = NULL;
            pb_status s1 = pb_run(ops[o], v, &c);
            c.out = &out2;
            c.per.limits = NULL;
            c.per.characters = 0;
            pb_status s2 = pb_run(ops[o], v, &c);
            CHECK(s1 == PB_OK && s2 == PB_OK, "%s: %s", pb_variant_name(v), pb_last_error());
            int same = 1;
            for (int p = 0; p < PB_PLANES; p++) same &= !memcmp(out.plane[p], out2.plane[p], N * sizeof(float));
            CHECK(same, "%s %s: a box no joint reaches changed the result", pb_variant_name(v), pb_op_get(ops[o])->name);
        }
}

static void refusals(const pb_variant *v)
{
    for (size_t k = 0; k < 3 * J; k++) lo[k] = -1, hi[k] = 1;
    pb_joint_limits L = { PB_LIMIT_CLAMP, lo, hi, rest };
    pb_call c = limited_call(&L, 0.2f, 0.3f);
    L.mode = (pb_limit_mode)7;
    REFUSE(PB_ERR_PARAM, "per.limits->mode is 7", pb_run(PB_OP_dead_blending, v, &c));
    L.mode = PB_LIMIT_BOUNCE;
    lo[3 * 4 + 2] = 2;
    REFUSE(PB_ERR_PARAM, "joint 4, axis z: lo = 2, hi = 1", pb_run(PB_OP_dead_blending, v, &c));
    lo[3 * 4 + 2] = NAN;
    REFUSE(PB_ERR_PARAM, "joint 4, axis z", pb_run(PB_OP_extrapolate_decayed, v, &c));
    lo[3 * 4 + 2] = -1;
    float saved = rest[4 * 3];
    rest[4 * 3] = 2;
    REFUSE(PB_ERR_PARAM, "rest of joint 3", pb_run(PB_OP_dead_blending, v, &c));
    rest[4 * 3] = saved;
    L.hi = NULL;
    REFUSE(PB_ERR_NULL, "per.limits->hi is NULL", pb_run(PB_OP_dead_blending, v, &c));
    L.hi = hi;
    c.per.characters = 0;
    REFUSE(PB_ERR_SIZE, "per.characters is 0", pb_run(PB_OP_dead_blending, v, &c));
    c.per.characters = C;
    REFUSE(PB_ERR_PARAM, "extrapolates nothing", pb_run(PB_OP_blend, v, &c));
}

/* pb_clip_joint_limits on a clip whose joint 1 turns about x through -0.4 .. 0.9 rad and about z
 * through 0 .. 0.3 (one axis at a time, so l is exact); joint 0 still. */
static void from_clips(void)
{
    pb_clip cl = { 0 }, other = { 0 };
    static const double xs[4] = { -0.4, 0.9, 0.2, 0 }, zs[4] = { 0, 0, 0, 0.3 };
    CHECK(pb_clip_alloc(&cl, 4, 2, 30) == PB_OK && pb_clip_alloc(&other, 2, 3, 30) == PB_OK, "clip alloc");
    for (size_t f = 0; f < 4; f++) {
        dq4 q = zs[f] != 0 ? q_axis(2, zs[f]) : q_axis(0, xs[f]);
        size_t e = f * 2 + 1;
        cl.pose.plane[PB_ROT_W][e] = (float)q.w, cl.pose.plane[PB_ROT_X][e] = (float)q.x;
        cl.pose.plane[PB_ROT_Y][e] = (float)q.y, cl.pose.plane[PB_ROT_Z][e] = (float)q.z;
    }
    float l[6], h[6];
    const pb_clip *clips[2] = { &cl, &other };
    CHECK(pb_clip_joint_limits(clips, 1, NULL, l, h) == PB_OK, "pb_clip_joint_limits: %s", pb_last_error());
    const double want_l[6] = { 0, 0, 0, -0.4, 0, 0 }, want_h[6] = { 0, 0, 0, 0.9, 0, 0.3 };
    for (int k = 0; k < 6; k++)
        CHECK(fabs(l[k] - want_l[k]) <= 1e-6 && fabs(h[k] - want_h[k]) <= 1e-6 && l[k] <= want_l[k] + 1e-7 &&
              h[k] >= want_h[k] - 1e-7, "limit %d: [%.8f, %.8f], want [%g, %g]", k, l[k], h[k], want_l[k], want_h[k]);
    /* relative to a rest turned by 0.2 about x: the x range moves by -0.2 */
    float r[8] = { 1, 0, 0, 0, (float)cos(0.1), (float)sin(0.1), 0, 0 };
    CHECK(pb_clip_joint_limits(clips, 1, r, l, h) == PB_OK, "with rest: %s", pb_last_error());
    CHECK(fabs(l[3] + 0.6) <= 1e-6 && fabs(h[3] - 0.7) <= 1e-6, "with rest: x [%g, %g], want [-0.6, 0.7]", l[3], h[3]);
    REFUSE(PB_ERR_SIZE, "clips[1] has 3 joints", pb_clip_joint_limits(clips, 2, NULL, l, h));
    REFUSE(PB_ERR_EMPTY, "count = 0", pb_clip_joint_limits(clips, 0, NULL, l, h));
    REFUSE(PB_ERR_NULL, "hi is NULL", pb_clip_joint_limits(clips, 1, NULL, l, NULL));
    r[4] = 3;
    REFUSE(PB_ERR_PARAM, "rest of joint 1", pb_clip_joint_limits(clips, 1, r, l, h));
    pb_clip_free(&cl);
    pb_clip_free(&other);
}

int main(void)
{
    int32_t parents[J] = { -1, 0, 1, 2, 1, 4 };
    CHECK(pb_skeleton_init(&sk, parents, J, C) == PB_OK, "skeleton");
    if (!poses_alloc(N, 4, &a, &b, &out, &out2)) return check_done();
    for (size_t i = 0; i < pb_all_variant_count(); i++) {
        const pb_variant *v = pb_all_variant_at(i);
        if (pb_variant_check(v) != PB_OK) continue;
        pb_gen_limits(lo, hi, rest, J, 5);   /* rests: identity on even joints, turned on odd ones */
        closed_form(v, PB_LIMIT_CLAMP);
        closed_form(v, PB_LIMIT_BOUNCE);
        invariants(v, PB_LIMIT_CLAMP);
        invariants(v, PB_LIMIT_BOUNCE);
        pass_through(v);
        refusals(v);
    }
    from_clips();
    pb_pose_free(&a); pb_pose_free(&b); pb_pose_free(&out); pb_pose_free(&out2);
    pb_skeleton_free(&sk);
    return check_done();
}
