/* test_via.c — dead blending that keeps its direction (call.via, Holden's slerp via), in every
 * variant, by checks that do not come from the reference:
 *   - a closed form, frame by frame: source and destination turning about one axis, so the
 *     blend is a lerp of unwrapped angles (the destination's unwrapped from the source's
 *     hemisphere at the transition), its rotation and angular velocity known in double. The
 *     scenarios pass 180 degrees apart during the blend; the destination's sign flips at
 *     random from frame to frame (as a clip's keys may), which the state must absorb;
 *   - continuity: no frame-to-frame step larger than the closed form's, while the shorter
 *     arc (call.via NULL) on the same frames jumps (the problem via solves: measured);
 *   - at the transition, via set to the source rotations reproduces the shorter arc bit for
 *     bit;
 *   - the refusals, each naming the argument, with nothing written. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "refuse.h"
#include "pose_check.h"
#include "validate.h"
#include "all_variants.h"
#include "rng.h"

#define J 3
#define C 32
#define N (J * C)
#define LN2 0.69314718055994530942
#define PI 3.14159265358979323846
#define HL 0.4      /* half-life, s */
#define DUR 0.8     /* blend duration, s */
#define FPS 60

static pb_pose a, b, out, via, out2, via2;
static pb_skeleton sk;

typedef struct { double w, x, y, z; } dq4;
static dq4 q_axis(int ax, double angle)
{
    double s = sin(angle / 2), c[3] = { 0, 0, 0 };
    c[ax] = s;
    return (dq4){ cos(angle / 2), c[0], c[1], c[2] };
}
static dq4 rot_of(const pb_pose *p, size_t e)
{
    return (dq4){ p->plane[PB_ROT_W][e], p->plane[PB_ROT_X][e], p->plane[PB_ROT_Y][e], p->plane[PB_ROT_Z][e] };
}
static void put_rot(pb_pose *p, size_t e, dq4 q)
{
    p->plane[PB_ROT_W][e] = (float)q.w, p->plane[PB_ROT_X][e] = (float)q.x;
    p->plane[PB_ROT_Y][e] = (float)q.y, p->plane[PB_ROT_Z][e] = (float)q.z;
}
static double dot4(dq4 p, dq4 q) { return p.w * q.w + p.x * q.x + p.y * q.y + p.z * q.z; }
static double angle_between(dq4 p, dq4 q)
{
    double c = fabs(dot4(p, q)) / sqrt(dot4(p, p) * dot4(q, q));
    dq4 d = { p.w * q.w + p.x * q.x + p.y * q.y + p.z * q.z, p.w * q.x - p.x * q.w - p.y * q.z + p.z * q.y,
              p.w * q.y + p.x * q.z - p.y * q.w - p.z * q.x, p.w * q.z - p.x * q.y + p.y * q.x - p.z * q.w };
    return 2 * atan2(sqrt(d.x * d.x + d.y * d.y + d.z * d.z), c * sqrt(dot4(d, d)));
}

/* Element e's scenario: axis, source angle and rate, destination angle and rate; the source
 * turns away from the destination, so the two pass 180 degrees apart in most scenarios (never
 * a whole turn: |relative| stays below 2.8 + 2.0 + 0.4 rad). */
typedef struct { int ax; double th0, w, thd0, vd; } scen;
static scen scenario(size_t e, uint64_t *s)
{
    scen r;
    r.ax = (int)(e % 3);
    r.th0 = 2 * pb_rng_unit01d(s) - 1;
    double sep = 2.0 + 0.8 * pb_rng_unit01d(s), sgn = (e / 3) % 2 ? 1 : -1;
    r.thd0 = r.th0 + sgn * sep;
    r.w = -sgn * 3.4 * pb_rng_unit01d(s);   /* total turn w HL / ln 2 <= 2.0 rad */
    r.vd = pb_rng_unit01d(s) - 0.5;
    return r;
}
static double smoothstep(double u) { return u <= 0 ? 0 : u >= 1 ? 1 : u * u * (3 - 2 * u); }

/* The closed form at time t: angle and rate of the blend about the axis. The destination's
 * angle is unwrapped once, at t = 0, onto the source's side (|thd - th0| <= pi). */
static void expect(scen s, double t, double *th, double *rate, double *thd)
{
    double lam = LN2 / HL, f = -expm1(-lam * t) / lam, df = exp(-lam * t);
    double the = s.th0 + s.w * f, dthe = s.w * df;
    double k = round((s.thd0 - s.th0) / (2 * PI));
    *thd = s.thd0 - 2 * PI * k + s.vd * t;
    double u = t / DUR, al = smoothstep(u), dal = u > 0 && u < 1 ? 6 * u * (1 - u) / DUR : 0;
    *th = the + al * (*thd - the);
    *rate = dthe + dal * (*thd - the) + al * (s.vd - dthe);
}

static void set_frame(const scen *sc, double t, uint64_t *flips)
{
    for (size_t e = C; e < N; e++) {
        dq4 d = q_axis(sc[e].ax, sc[e].thd0 + sc[e].vd * t);
        if (pb_rng_next(flips) & 1) d = (dq4){ -d.w, -d.x, -d.y, -d.z };
        put_rot(&b, e, d);
        for (int k = 0; k < 3; k++) b.plane[PB_ANG_X + k][e] = k == sc[e].ax ? (float)sc[e].vd : 0.0f;
    }
}

static void closed_form(const pb_variant *v)
{
    const char *vn = pb_variant_name(v);
    scen sc[N];
    uint64_t s = 11, flips = 5;
    pb_gen_case(&a, &b, PB_CLASS_RANDOM, 9, pb_op_get(PB_OP_dead_blending));   /* roots: anything */
    for (size_t e = C; e < N; e++) {
        sc[e] = scenario(e, &s);
        put_rot(&a, e, q_axis(sc[e].ax, sc[e].th0));
        for (int k = 0; k < 3; k++) a.plane[PB_ANG_X + k][e] = k == sc[e].ax ? (float)sc[e].w : 0.0f;
    }
    for (int p = PB_ROT_W; p <= PB_ROT_Z; p++) memcpy(via.plane[p], a.plane[p], N * sizeof(float));
    double worst_rot = 0, worst_ang = 0, worst_step = 0, short_jump = 0;
    dq4 prev[N], prev_short[N];
    for (int f = 0; f <= (int)(DUR * FPS) + 6; f++) {
        double t = (double)f / FPS;
        set_frame(sc, t, &flips);
        pb_call c = { .a = &a, .b = &b, .out = &out, .skel = &sk, .via = &via,
                      .params = { .time = (float)t, .halflife = (float)HL, .duration = (float)DUR } };
        pb_status st = pb_run(PB_OP_dead_blending, v, &c);
        c.via = NULL;
        c.out = &out2;
        pb_status st2 = pb_run(PB_OP_dead_blending, v, &c);
        CHECK(st == PB_OK && st2 == PB_OK, "%s frame %d: %s", vn, f, pb_last_error());
        if (st != PB_OK || st2 != PB_OK) return;
        for (size_t e = C; e < N; e++) {
            double th, rate, thd, th1, rate1, thd1;
            expect(sc[e], t, &th, &rate, &thd);
            double er = angle_between(rot_of(&out, e), q_axis(sc[e].ax, th)), d2 = 0;
            for (int k = 0; k < 3; k++) {
                double want = k == sc[e].ax ? rate : 0, got = out.plane[PB_ANG_X + k][e];
                d2 += (got - want) * (got - want);
            }
            double ea = sqrt(d2) / fmax(1, fabs(rate));
            worst_rot = dmax(worst_rot, er);
            worst_ang = dmax(worst_ang, ea);
            CHECK(er <= 2e-6 && ea <= 1e-5, "%s frame %d element %zu: rotation off by %.3g rad, ang by %.3g", vn, f, e,
                  er, ea);
            /* the state: the destination's representative on the unwrapped side */
            CHECK(dot4(rot_of(&via, e), q_axis(sc[e].ax, thd)) > 0.99, "%s frame %d element %zu: via on the wrong side",
                  vn, f, e);
            if (f > 0) {
                expect(sc[e], t - 1.0 / FPS, &th1, &rate1, &thd1);
                double step = angle_between(rot_of(&out, e), prev[e]), want = fabs(th - th1);
                worst_step = dmax(worst_step, step - want);
                CHECK(step <= want + 1e-5, "%s frame %d element %zu: stepped %.4f rad, the closed form %.4f", vn, f, e,
                      step, want);
                short_jump = dmax(short_jump, angle_between(rot_of(&out2, e), prev_short[e]));
            }
            prev[e] = rot_of(&out, e);
            prev_short[e] = rot_of(&out2, e);
        }
    }
    /* the scenarios must exercise what via is for: the shorter arc jumps on them */
    CHECK(short_jump > 1.0, "%s: the shorter arc's largest step is only %.3f rad: the scenarios never pass 180 "
          "degrees", vn, short_jump);
    if (getenv("PB_TEST_VERBOSE"))
        printf("%s via closed form: worst %.2e rad, ang %.2e, step excess %.2e; shorter arc's largest step %.3f rad\n",
               vn, worst_rot, worst_ang, worst_step, short_jump);
}

/* At the transition (t = 0, via = the source rotations) the choice is the shorter arc's. */
static void at_transition(const pb_variant *v)
{
    pb_gen_case(&a, &b, PB_CLASS_RANDOM, 21, pb_op_get(PB_OP_dead_blending));
    for (int p = PB_ROT_W; p <= PB_ROT_Z; p++) memcpy(via.plane[p], a.plane[p], N * sizeof(float));
    pb_call c = { .a = &a, .b = &b, .out = &out, .skel = &sk, .via = &via,
                  .params = { .time = 0.0f, .halflife = 0.3f, .duration = 0.5f } };
    pb_status s1 = pb_run(PB_OP_dead_blending, v, &c);
    c.via = NULL;
    c.out = &out2;
    pb_status s2 = pb_run(PB_OP_dead_blending, v, &c);
    CHECK(s1 == PB_OK && s2 == PB_OK, "%s: %s", pb_variant_name(v), pb_last_error());
    size_t differ = 0;
    for (size_t e = 0; e < N; e++) {
        if (fabs(dot4(rot_of(&a, e), rot_of(&b, e))) < 1e-3) continue;   /* the sign is rounding's there */
        for (int p = 0; p < PB_PLANES; p++) differ += memcmp(&out.plane[p][e], &out2.plane[p][e], sizeof(float)) != 0;
    }
    CHECK(differ == 0, "%s: at the transition via differs from the shorter arc in %zu values", pb_variant_name(v),
          differ);
}

static void refusals(const pb_variant *v)
{
    pb_pose small = { 0 };
    CHECK(pb_pose_alloc(&small, N - 1) == PB_OK, "alloc");
    pb_call c = { .a = &a, .b = &b, .out = &out, .skel = &sk, .via = &via,
                  .params = { .time = 0.2f, .halflife = 0.3f, .duration = 0.5f, .alpha = 0.5f } };
    float snap_out = out.plane[PB_ROT_X][7], snap_via = via.plane[PB_ROT_X][7];
    REFUSE(PB_ERR_PARAM, "call.via is given but blend", pb_run(PB_OP_blend, v, &c));
    REFUSE(PB_ERR_PARAM, "call.via is given but extrapolate_decayed", pb_run(PB_OP_extrapolate_decayed, v, &c));
    c.via = &small;
    REFUSE(PB_ERR_SIZE, "call.via has n = 95", pb_run(PB_OP_dead_blending, v, &c));
    c.via = &out;
    REFUSE(PB_ERR_ALIAS, "call.via overlaps pose out", pb_run(PB_OP_dead_blending, v, &c));
    c.via = &a;
    REFUSE(PB_ERR_ALIAS, "call.via overlaps pose a", pb_run(PB_OP_dead_blending, v, &c));
    CHECK(out.plane[PB_ROT_X][7] == snap_out && via.plane[PB_ROT_X][7] == snap_via, "%s: a refused call wrote",
          pb_variant_name(v));
    pb_pose_free(&small);
}

int main(void)
{
    int32_t parents[J] = { -1, 0, 1 };
    CHECK(pb_skeleton_init(&sk, parents, J, C) == PB_OK, "skeleton");
    if (!poses_alloc(N, 6, &a, &b, &out, &via, &out2, &via2)) return check_done();
    for (size_t i = 0; i < pb_all_variant_count(); i++) {
        const pb_variant *v = pb_all_variant_at(i);
        if (pb_variant_check(v) != PB_OK) continue;
        closed_form(v);
        at_transition(v);
        refusals(v);
    }
    pb_pose_free(&a); pb_pose_free(&b); pb_pose_free(&out); pb_pose_free(&via);
    pb_pose_free(&out2); pb_pose_free(&via2);
    pb_skeleton_free(&sk);
    return check_done();
}
