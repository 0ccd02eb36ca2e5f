/* test_foot_ik.c — what users need from foot IK, in every variant, checked
 * from the outputs by forward kinematics in double (not from the reference):
 * reachable ankles land on their planes (at the ankle's projection), the
 * pelvis is only lowered, along -y, and by the least amount (the binding leg
 * ends exactly at the drop rule's reach, a smaller drop leaves it out of
 * reach), bone lengths are kept, weight 0 keeps the ankle's local rotation,
 * weight 1 puts the foot's up axis on the normal, weight 1/2 half-way,
 * degenerate grounds and legs stay finite, the velocities of foot_ik_vel are
 * the time derivatives of foot_ik (central differences), bad sizes are
 * refused. Characters come from the harness's case builder (pb_case_fill). */
#include <math.h>
#include <string.h>
#include "check.h"
#include "validate.h"
#include "all_variants.h"

#define NC 257     /* characters: every tail length for 4, 8 and 16 lanes */
#define REACH 0.9998   /* the drop rule's reach, a fraction of l1 + l2 (reference/foot.h) */

typedef struct { double p[3], q[4]; } tf;
static void rot(const double q[4], const double v[3], double o[3])
{
    double tx = 2 * (q[2] * v[2] - q[3] * v[1]), ty = 2 * (q[3] * v[0] - q[1] * v[2]), tz = 2 * (q[1] * v[1] - q[2] * v[0]);
    o[0] = v[0] + q[0] * tx + (q[2] * tz - q[3] * ty);
    o[1] = v[1] + q[0] * ty + (q[3] * tx - q[1] * tz);
    o[2] = v[2] + q[0] * tz + (q[1] * ty - q[2] * tx);
}
static void qmul(const double p[4], const double q[4], double r[4])
{
    r[0] = p[0] * q[0] - p[1] * q[1] - p[2] * q[2] - p[3] * q[3];
    r[1] = p[0] * q[1] + p[1] * q[0] + p[2] * q[3] - p[3] * q[2];
    r[2] = p[0] * q[2] - p[1] * q[3] + p[2] * q[0] + p[3] * q[1];
    r[3] = p[0] * q[3] + p[1] * q[2] - p[2] * q[1] + p[3] * q[0];
}
static tf ld(const pb_pose *p, size_t e)
{
    tf t;
    for (int j = 0; j < 3; j++) t.p[j] = p->plane[PB_POS_X + j][e];
    for (int j = 0; j < 4; j++) t.q[j] = p->plane[PB_ROT_W + j][e];
    return t;
}
static tf mul(tf a, tf b)   /* unit scales (the generated characters have them) */
{
    tf r;
    rot(a.q, b.p, r.p);
    for (int j = 0; j < 3; j++) r.p[j] += a.p[j];
    qmul(a.q, b.q, r.q);
    return r;
}
static double dist(const double *a, const double *b)
{
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}
static double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
/* angle between two rotations, sign-agnostic: 2 atan2(|vec r|, |r.w|), r = conj(a) b (acos of the dot
 * would read float quaternions' norms, 1 +- 1e-7, as 5e-4 rad) */
static double qangle(const double a[4], const double b[4])
{
    double ac[4] = { a[0], -a[1], -a[2], -a[3] }, r[4];
    qmul(ac, b, r);
    return 2 * atan2(sqrt(r[1] * r[1] + r[2] * r[2] + r[3] * r[3]), fabs(r[0]));
}

/* Globals of leg s of character c: hip, knee, ankle (g[0..2]) from pose p. */
static void leg_globals(const pb_pose *p, size_t C, size_t c, int s, tf g[3])
{
    tf pel = ld(p, c);
    for (int j = 0; j < 3; j++) g[j] = mul(j ? g[j - 1] : pel, ld(p, (size_t)(1 + 3 * s + j) * C + c));
}
/* Leg s's plane: unit normal (zero: up) and point. */
static void plane_of(const pb_pose *b, size_t C, size_t c, int s, double n[3], double g[3])
{
    size_t e = (size_t)(2 + 3 * s) * C + c;
    for (int j = 0; j < 3; j++) { n[j] = b->plane[PB_POS_X + j][e]; g[j] = b->plane[PB_POS_X + j][e + C]; }
    double l = sqrt(dot3(n, n));
    if (l > 0) for (int j = 0; j < 3; j++) n[j] /= l;
    else { n[0] = 0; n[1] = 1; n[2] = 0; }
}

static void make_case(pb_class cls, const pb_params *p, uint64_t seed, pb_pose *a, pb_pose *b)
{
    pb_vcase cs = { .cls = cls, .n = a->n, .p = *p, .joints = 7, .characters = a->n / 7 };
    pb_case_bufs io = { .a = a, .b = b };
    CHECK(pb_case_fill(&io, &cs, pb_op_get(PB_OP_foot_ik), NULL, seed, 0) == PB_OK, "foot case: %s", pb_last_error());
}

static size_t nonfinite(const pb_pose *o)
{
    size_t k = 0;
    pb_pose_count_nonfinite(o, &k);
    return k;
}

/* Planting, pelvis and bone-length checks on one solved case. */
static void solve_checks(const char *vn, const char *what, const pb_pose *a, const pb_pose *b, const pb_pose *o)
{
    double worst_plane = 0, worst_pelvis = 0, worst_least = 0, worst_len = 0, worst_stretch = 0;
    for (size_t c = 0; c < NC; c++) {
        double drop = a->plane[PB_POS_Y][c] - o->plane[PB_POS_Y][c];
        int binds = 0;
        /* the pelvis moves straight down (or not at all), its rotation kept */
        tf pi = ld(a, c), po = ld(o, c);
        worst_pelvis = dmax(worst_pelvis, dmax(fabs(pi.p[0] - po.p[0]), fabs(pi.p[2] - po.p[2])));
        worst_pelvis = dmax(worst_pelvis, qangle(pi.q, po.q));
        CHECK(drop >= 0, "%s %s: character %zu's pelvis raised by %.3g m", vn, what, c, -drop);
        for (int s = 0; s < 2; s++) {
            tf gi[3], go[3];
            double n[3], g[3], d[3], T[3];
            leg_globals(a, NC, c, s, gi);
            leg_globals(o, NC, c, s, go);
            plane_of(b, NC, c, s, n, g);
            for (int j = 0; j < 3; j++) d[j] = gi[2].p[j] - g[j];
            double off = dot3(d, n);
            for (int j = 0; j < 3; j++) T[j] = gi[2].p[j] - n[j] * off;   /* the ankle's projection */
            double l1 = dist(gi[0].p, gi[1].p), l2 = dist(gi[1].p, gi[2].p), L = l1 + l2, R = REACH * L;
            if (l1 < 1e-3 || l2 < 1e-3) { binds = 1; continue; }   /* zero-length bones: finite is all */
            worst_len = dmax(worst_len, dmax(fabs(dist(go[0].p, go[1].p) - l1), fabs(dist(go[1].p, go[2].p) - l2)));
            double lat = dist(go[0].p, T), over = lat - R;
            double side = hypot(go[0].p[0] - T[0], go[0].p[2] - T[2]);
            if (lat < R + 2e-5 && lat > fabs(l1 - l2) + 1e-3 * L) {   /* reachable: on the plane, at T */
                for (int j = 0; j < 3; j++) d[j] = go[2].p[j] - g[j];
                worst_plane = dmax(worst_plane, dmax(fabs(dot3(d, n)), dist(go[2].p, T)));
            } else if (lat >= R + 2e-5) {   /* out of reach: stretched straight toward it */
                double ha[3], ht[3];
                for (int j = 0; j < 3; j++) { ha[j] = go[2].p[j] - go[0].p[j]; ht[j] = T[j] - go[0].p[j]; }
                double len = sqrt(dot3(ha, ha));
                worst_stretch = dmax(worst_stretch, 1 - dot3(ha, ht) / (len * lat));
                worst_stretch = dmax(worst_stretch, L - len > 2e-4 * L + 1e-5 ? L - len : 0);
            }
            /* out of reach though below the hip and within reach across: a larger drop was needed */
            if (over > 2e-5 && side < R - 1e-4 && T[1] < go[0].p[1]) worst_least = dmax(worst_least, over);
            /* this leg holds the drop: at the rule's reach, or (out of reach across) level with the hip */
            binds |= fabs(over) < 2e-5 || (side >= R - 1e-4 && fabs(go[0].p[1] - T[1]) < 2e-5);
        }
        /* a drop is the least one when a smaller one would leave a leg out of reach */
        if (drop > 2e-5 && !binds) worst_least = dmax(worst_least, drop);
    }
    CHECK(worst_plane < 2e-5, "%s %s: reachable ankles off their planes by %.3g m", vn, what, worst_plane);
    CHECK(worst_pelvis < 1e-6, "%s %s: the pelvis moved sideways or turned by %.3g", vn, what, worst_pelvis);
    CHECK(worst_least < 2e-5, "%s %s: the drop is not the least one: %.3g m", vn, what, worst_least);
    CHECK(worst_len < 1e-5, "%s %s: bone lengths changed by %.3g m", vn, what, worst_len);
    CHECK(worst_stretch < 1e-4, "%s %s: out-of-reach legs not stretched toward their targets: %.3g", vn, what,
          worst_stretch);
}

/* The foot's up axis (ankle global rotation x axis) of leg s. */
static void foot_up(const pb_pose *p, size_t c, int s, const double axis[3], double up[3])
{
    tf g[3];
    leg_globals(p, NC, c, s, g);
    rot(g[2].q, axis, up);
    double l = sqrt(dot3(up, up));   /* a direction: the quaternions' norms (1 +- 1e-6 after products) aside */
    for (int j = 0; j < 3; j++) up[j] /= l;
}

static void foot_checks(const pb_variant *v)
{
    const char *vn = pb_variant_name(v);
    size_t n = 7 * NC;
    pb_pose a, b, o, o0, oh;
    pb_pose_alloc(&a, n); pb_pose_alloc(&b, n); pb_pose_alloc(&o, n); pb_pose_alloc(&o0, n); pb_pose_alloc(&oh, n);
    pb_params p = { .alpha = 1, .axis = { 0, 0, 1 } };
    static const pb_class classes[] = { PB_CLASS_RANDOM, PB_CLASS_IDENTITY, PB_CLASS_NEAR_IDENTICAL, PB_CLASS_NEAR_PI,
                                        PB_CLASS_ANTIPODAL, PB_CLASS_DEGENERATE, PB_CLASS_MIXED };
    double axis[3] = { 0, 0, 1 };
    for (size_t k = 0; k < sizeof classes / sizeof classes[0]; k++) {
        const char *cn = pb_class_name(classes[k]);
        make_case(classes[k], &p, 70 + k, &a, &b);
        pb_call c = { .a = &a, .b = &b, .out = &o, .params = p };
        CHECK(pb_run(PB_OP_foot_ik, v, &c) == PB_OK, "foot_ik: %s", pb_last_error());
        CHECK(nonfinite(&o) == 0, "%s class %s: %zu NaN/Inf", vn, cn, nonfinite(&o));
        if (classes[k] != PB_CLASS_ANTIPODAL) solve_checks(vn, cn, &a, &b, &o);
        /* weight 1: the foot's up axis on the normal; 0: the ankle's local rotation kept; 1/2: half-way */
        c.out = &o0; c.params.alpha = 0;
        CHECK(pb_run(PB_OP_foot_ik, v, &c) == PB_OK, "foot_ik alpha 0");
        c.out = &oh; c.params.alpha = 0.5f;
        CHECK(pb_run(PB_OP_foot_ik, v, &c) == PB_OK, "foot_ik alpha 1/2");
        double w1 = 0, w0 = 0, wh = 0;
        for (size_t ch = 0; ch < NC; ch++)
            for (int s = 0; s < 2; s++) {
                size_t e = (size_t)(3 + 3 * s) * NC + ch;
                tf ai = ld(&a, e), a0 = ld(&o0, e);
                w0 = dmax(w0, qangle(ai.q, a0.q));
                double nn[3], g[3], u1[3], u0[3], uh[3];
                plane_of(&b, NC, ch, s, nn, g);
                foot_up(&o, ch, s, axis, u1);
                foot_up(&o0, ch, s, axis, u0);
                foot_up(&oh, ch, s, axis, uh);
                w1 = dmax(w1, 1 - dot3(u1, nn));
                double full = acos(fmax(-1, fmin(1, dot3(u0, nn)))), half = acos(fmax(-1, fmin(1, dot3(uh, nn))));
                if (full < 3.0) wh = dmax(wh, fabs(half - full / 2));   /* away from the half turn's free axis */
            }
        CHECK(w1 < 1e-8, "%s class %s: weight 1 leaves the foot's up axis off the normal: 1 - cos = %.3g", vn, cn, w1);
        CHECK(w0 < 2e-6, "%s class %s: weight 0 turned the ankle by %.3g rad", vn, cn, w0);
        CHECK(wh < 2e-5, "%s class %s: weight 1/2 is not half-way: %.3g rad", vn, cn, wh);
    }
    /* weights outside [0, 1] extrapolate along the arc and stay finite */
    for (int k = 0; k < 2; k++) {
        make_case(PB_CLASS_DEGENERATE, &p, 90 + (uint64_t)k, &a, &b);
        pb_call c = { .a = &a, .b = &b, .out = &o, .params = p };
        c.params.alpha = k ? -0.5f : 2.0f;
        CHECK(pb_run(PB_OP_foot_ik, v, &c) == PB_OK && nonfinite(&o) == 0, "%s alpha %g: not finite", vn, c.params.alpha);
    }
    pb_pose_free(&a); pb_pose_free(&b); pb_pose_free(&o); pb_pose_free(&o0); pb_pose_free(&oh);
}

/* Move pose x's elements by their velocities over h (pos, rot, scl; b: pos only matters). */
static void advance(pb_pose *dst, const pb_pose *src, double h)
{
    for (size_t i = 0; i < src->n; i++) {
        for (int q = 0; q < PB_PLANES; q++) dst->plane[q][i] = src->plane[q][i];
        double w[3], qv[4], e[4], r[4];
        for (int j = 0; j < 3; j++) {
            dst->plane[PB_POS_X + j][i] = (float)(src->plane[PB_POS_X + j][i] + h * src->plane[PB_VEL_X + j][i]);
            dst->plane[PB_SCL_X + j][i] = (float)(src->plane[PB_SCL_X + j][i] * exp(h * src->plane[PB_SVL_X + j][i]));
            w[j] = src->plane[PB_ANG_X + j][i] * h / 2;
        }
        double th = sqrt(dot3(w, w)), sc = th > 0 ? sin(th) / th : 1;
        e[0] = cos(th); e[1] = sc * w[0]; e[2] = sc * w[1]; e[3] = sc * w[2];
        for (int j = 0; j < 4; j++) qv[j] = src->plane[PB_ROT_W + j][i];
        qmul(e, qv, r);
        for (int j = 0; j < 4; j++) dst->plane[PB_ROT_W + j][i] = (float)r[j];
    }
}

/* foot_ik_vel's velocities against central differences of foot_ik on inputs moved by their
 * velocities, in float (steps -+ h = dt / 2, a 60 Hz frame: the step the op samples at, so what
 * is compared is the velocities' assembly: frames, signs, the pelvis's drop rate; a smaller step
 * would measure float rounding, ~1e-5 rad in nearly straight legs, divided by it). The derivative
 * itself is checked in double against Richardson-extrapolated differences by validation. */
static void vel_checks(const pb_variant *v)
{
    const char *vn = pb_variant_name(v);
    size_t n = 7 * NC;
    pb_pose a, b, o, am, bm, ap, bp, om, op;
    pb_pose_alloc(&a, n); pb_pose_alloc(&b, n); pb_pose_alloc(&am, n); pb_pose_alloc(&bm, n);
    pb_pose_alloc(&ap, n); pb_pose_alloc(&bp, n); pb_pose_alloc(&om, n); pb_pose_alloc(&op, n);
    pb_pose_alloc(&o, n);
    double h = 1.0 / 120, worst = 0;
    pb_params p = { .alpha = 0.75f, .axis = { 0, 1, 0 }, .dt = (float)(2 * h) };
    make_case(PB_CLASS_RANDOM, &p, 123, &a, &b);
    pb_call c = { .a = &a, .b = &b, .out = &o, .params = p };
    CHECK(pb_run(PB_OP_foot_ik_vel, v, &c) == PB_OK, "foot_ik_vel: %s", pb_last_error());
    advance(&am, &a, -h); advance(&bm, &b, -h); advance(&ap, &a, h); advance(&bp, &b, h);
    pb_call cm = { .a = &am, .b = &bm, .out = &om, .params = p }, cp = { .a = &ap, .b = &bp, .out = &op, .params = p };
    CHECK(pb_run(PB_OP_foot_ik, v, &cm) == PB_OK && pb_run(PB_OP_foot_ik, v, &cp) == PB_OK, "foot_ik at -+ h");
    for (size_t e = 0; e < n; e++) {
        double fd[3], ang[3], r[4], qm[4], qp[4];
        for (int j = 0; j < 3; j++) fd[j] = (op.plane[PB_POS_X + j][e] - om.plane[PB_POS_X + j][e]) / (2 * h);
        for (int j = 0; j < 4; j++) { qp[j] = op.plane[PB_ROT_W + j][e]; qm[j] = j ? -om.plane[PB_ROT_W + j][e] : om.plane[PB_ROT_W][e]; }
        qmul(qp, qm, r);
        if (r[0] < 0) for (int j = 0; j < 4; j++) r[j] = -r[j];
        double sv = sqrt(r[1] * r[1] + r[2] * r[2] + r[3] * r[3]), f = sv > 0 ? 2 * atan2(sv, r[0]) / sv : 2;
        for (int j = 0; j < 3; j++) ang[j] = f * r[1 + j] / (2 * h);
        double dv = 0, da = 0, vv = 0, va = 0;
        for (int j = 0; j < 3; j++) {
            double x = o.plane[PB_VEL_X + j][e], y = o.plane[PB_ANG_X + j][e];
            dv += (x - fd[j]) * (x - fd[j]); vv += x * x;
            da += (y - ang[j]) * (y - ang[j]); va += y * y;
        }
        worst = dmax(worst, dmax(sqrt(dv) / dmax(1, sqrt(vv)), sqrt(da) / dmax(1, sqrt(va))));
    }
    CHECK(worst < 1e-2, "%s foot_ik_vel: velocities vs central differences of foot_ik: %.3g relative", vn, worst);
    pb_pose *ps[] = { &a, &b, &o, &am, &bm, &ap, &bp, &om, &op };
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) pb_pose_free(ps[i]);
}

int main(void)
{
    for (size_t i = 0; i < pb_all_variant_count(); i++) {
        const pb_variant *v = pb_all_variant_at(i);
        if (pb_variant_check(v) != PB_OK) continue;
        foot_checks(v);
        vel_checks(v);
    }
    pb_pose bad;
    pb_pose_alloc(&bad, 15);
    pb_call c = { .a = &bad, .b = &bad, .out = &bad, .params = { .axis = { 0, 1, 0 } } };
    CHECK(pb_run(PB_OP_foot_ik, NULL, &c) == PB_ERR_SIZE && strstr(pb_last_error(), "7 x characters"),
          "n not a multiple of 7 refused: %s", pb_last_error());
    c.params.axis[1] = 0;
    pb_pose_free(&bad);
    pb_pose_alloc(&bad, 14);
    c.a = c.b = c.out = &bad;
    CHECK(pb_run(PB_OP_foot_ik, NULL, &c) == PB_ERR_PARAM && strstr(pb_last_error(), "zero vector"),
          "zero axis refused: %s", pb_last_error());
    pb_pose_free(&bad);
    return check_done();
}
