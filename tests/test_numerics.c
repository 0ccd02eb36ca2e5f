/* test_numerics.c — mathematical properties every variant must have (identities
 * of quaternion algebra, endpoints, symmetries, the edge classes where peers
 * return NaN), the accuracy contract of the foundation issue, and a check that
 * the harness's metrics measure what they claim. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "rng.h"
#include "check.h"
#include "validate.h"
#include "all_variants.h"

#define N 203
static pb_pose a, b, o, o2;
static double dpi = 3.14159265358979323846;

static void set_q(pb_pose *p, size_t i, double w, double x, double y, double z)
{
    double n = sqrt(w * w + x * x + y * y + z * z);
    p->plane[PB_ROT_W][i] = (float)(w / n); p->plane[PB_ROT_X][i] = (float)(x / n);
    p->plane[PB_ROT_Y][i] = (float)(y / n); p->plane[PB_ROT_Z][i] = (float)(z / n);
}
/* rotation angle between two float quaternions, sign-agnostic, in double */
static double qangle(const pb_pose *p, size_t i, const pb_pose *q, size_t j)
{
    double d = 0, pn = 0, qn = 0;
    for (int c = PB_ROT_W; c <= PB_ROT_Z; c++) {
        d += (double)p->plane[c][i] * q->plane[c][j];
        pn += (double)p->plane[c][i] * p->plane[c][i];
        qn += (double)q->plane[c][j] * q->plane[c][j];
    }
    double cosh = fmin(1.0, fabs(d) / sqrt(pn * qn));
    /* 2 acos is ill-conditioned near 0; use the chord for small angles */
    double chord = 0;
    for (int c = PB_ROT_W; c <= PB_ROT_Z; c++) {
        double s = d < 0 ? -1 : 1;
        double e = p->plane[c][i] / sqrt(pn) - s * q->plane[c][j] / sqrt(qn);
        chord += e * e;
    }
    return cosh > 0.9 ? 4 * asin(fmin(1.0, sqrt(chord) / 2)) : 2 * acos(cosh);
}
static pb_status run(const pb_variant *v, pb_op op, pb_pose *pa, pb_pose *pb_, pb_pose *po, float alpha)
{
    pb_call c = { .a = pa, .b = pb_, .out = po, .params = { .alpha = alpha } };
    return pb_run(op, v, &c);
}

static void random_rotations(pb_pose *p, unsigned seed)
{
    uint64_t rs = seed;
    for (size_t i = 0; i < N; i++)
        set_q(p, i, pb_rng_unit01d(&rs) - 0.5, pb_rng_unit01d(&rs) - 0.5, pb_rng_unit01d(&rs) - 0.5,
              pb_rng_unit01d(&rs) - 0.5);
}

static void properties(const pb_variant *v)
{
    const char *vn = pb_variant_name(v);
    random_rotations(&a, 1);
    random_rotations(&b, 2);

    /* slerp/nlerp: identical and antipodal inputs give the input, never NaN */
    static const pb_op blends[] = { PB_OP_slerp_shortest, PB_OP_nlerp_shortest };
    for (int k = 0; k < 2; k++) {
        const char *on = pb_op_get(blends[k])->name;
        for (int s = 0; s < 2; s++) {
            pb_pose_copy(&o2, &a);
            if (s)
                for (int c = PB_ROT_W; c <= PB_ROT_Z; c++)
                    for (size_t i = 0; i < N; i++) o2.plane[c][i] = -o2.plane[c][i];
            double worst = 0;
            int nan = 0;
            for (float t = 0; t <= 1.0f; t += 0.125f) {
                run(v, blends[k], &a, &o2, &o, t);
                for (size_t i = 0; i < N; i++) {
                    double e = qangle(&o, i, &a, i);
                    nan += isnan(e);
                    worst = dmax(worst, e);
                }
            }
            CHECK(nan == 0 && worst <= 4e-7, "%s %s(q, %sq): worst %.3g rad, %d NaN", vn, on, s ? "-" : "", worst, nan);
        }
        /* endpoints: t = 0 gives a, t = 1 gives b (as a rotation) */
        run(v, blends[k], &a, &b, &o, 0.0f);
        double e0 = 0, e1 = 0;
        for (size_t i = 0; i < N; i++) e0 = dmax(e0, qangle(&o, i, &a, i));
        run(v, blends[k], &a, &b, &o, 1.0f);
        for (size_t i = 0; i < N; i++) e1 = dmax(e1, qangle(&o, i, &b, i));
        CHECK(e0 <= 4e-7 && e1 <= 4e-7, "%s %s endpoints: %.3g %.3g", vn, on, e0, e1);
    }
    /* slerp midpoint is equidistant and on the shorter arc */
    run(v, PB_OP_slerp_shortest, &a, &b, &o, 0.5f);
    double asym = 0;
    for (size_t i = 0; i < N; i++) {
        double da = qangle(&o, i, &a, i), db = qangle(&o, i, &b, i), ab = qangle(&a, i, &b, i);
        asym = dmax(asym, fabs(da - db) + fabs(da + db - ab));
    }
    CHECK(asym <= 2e-6, "%s slerp midpoint asymmetry %.3g", vn, asym);

    /* algebra: a * inv(a) = identity; exp(log(q)) = q; rotation preserves length */
    run(v, PB_OP_quat_mul_inv, &a, &a, &o, 0);
    pb_pose_fill_identity(&o2);
    double ident = 0;
    for (size_t i = 0; i < N; i++) ident = dmax(ident, qangle(&o, i, &o2, i));
    CHECK(ident <= 4e-7, "%s a*inv(a) %.3g rad from identity", vn, ident);
    run(v, PB_OP_quat_log, &a, NULL, &o2, 0);
    run(v, PB_OP_quat_exp, &o2, NULL, &o, 0);
    double rt = 0;
    for (size_t i = 0; i < N; i++) rt = dmax(rt, qangle(&o, i, &a, i));
    /* Both hemispheres: log within 4e-7 of its half-angle vector (up to 8e-7 of
     * rotation), exp within 4e-7 rad: the round trip is held to 1.2e-6. */
    CHECK(rt <= 1.2e-6, "%s exp(log(q)) round trip %.3g rad", vn, rt);
    for (size_t i = 0; i < N; i++) {
        b.plane[PB_POS_X][i] = (float)i * 0.01f - 1.0f;
        b.plane[PB_POS_Y][i] = 0.5f;
        b.plane[PB_POS_Z][i] = -(float)i * 0.003f;
    }
    run(v, PB_OP_quat_mul_vec3, &a, &b, &o, 0);
    run(v, PB_OP_quat_inv_mul_vec3, &a, &o, &o2, 0);
    double len = 0, back = 0;
    for (size_t i = 0; i < N; i++) {
        double l0 = 0, l1 = 0;
        for (int c = 0; c < 3; c++) {
            l0 += (double)b.plane[c][i] * b.plane[c][i];
            l1 += (double)o.plane[c][i] * o.plane[c][i];
            back = dmax(back, fabs((double)o2.plane[c][i] - b.plane[c][i]));
        }
        len = dmax(len, fabs(sqrt(l1) - sqrt(l0)));
    }
    CHECK(len <= 1e-6 && back <= 2e-6, "%s rotate keeps length (%.3g) and inverts (%.3g)", vn, len, back);

    /* abs lands on w >= 0 with the same rotation; normalize gives unit length */
    for (size_t i = 0; i < N; i += 2) a.plane[PB_ROT_W][i] = -a.plane[PB_ROT_W][i];
    run(v, PB_OP_quat_abs, &a, NULL, &o, 0);
    int neg = 0;
    for (size_t i = 0; i < N; i++) neg += o.plane[PB_ROT_W][i] < 0 || qangle(&o, i, &a, i) > 0;
    CHECK(neg == 0, "%s quat_abs: %d elements wrong", vn, neg);
    for (size_t i = 0; i < N; i++)
        for (int c = PB_ROT_W; c <= PB_ROT_Z; c++) a.plane[c][i] *= (float)(1 + i);
    a.plane[PB_ROT_W][5] = a.plane[PB_ROT_X][5] = a.plane[PB_ROT_Y][5] = a.plane[PB_ROT_Z][5] = 0;
    run(v, PB_OP_quat_normalize, &a, NULL, &o, 0);
    double unit = 0;
    for (size_t i = 0; i < N; i++) {
        double s = 0;
        for (int c = PB_ROT_W; c <= PB_ROT_Z; c++) s += (double)o.plane[c][i] * o.plane[c][i];
        unit = dmax(unit, fabs(sqrt(s) - 1));
    }
    CHECK(unit <= 1e-6 && o.plane[PB_ROT_W][5] == 1.0f, "%s normalize: |q|-1 = %.3g, zero -> identity", vn, unit);

    /* scalar functions: endpoints and known values */
    for (size_t i = 0; i < N; i++) {
        for (int c = 0; c < 3; c++) a.plane[PB_POS_X + c][i] = (float)i / (N - 1) * 2.0f - 0.5f;
        a.plane[PB_SCL_X][i] = 0.5f + (float)i;
        b.plane[PB_SCL_X][i] = 2.0f;
    }
    a.plane[PB_POS_Y][0] = 0.5f;
    run(v, PB_OP_smoothstep, &a, NULL, &o, 0);
    CHECK(o.plane[PB_POS_X][0] == 0 && o.plane[PB_POS_X][N - 1] == 1 && o.plane[PB_VEL_X][0] == 0, "%s smoothstep clamps", vn);
    CHECK(fabs(o.plane[PB_POS_Y][0] - 0.5) < 1e-7 && fabs(o.plane[PB_VEL_Y][0] - 1.5) < 1e-6,
          "%s smoothstep(0.5) = %.9g, slope %.9g", vn, o.plane[PB_POS_Y][0], o.plane[PB_VEL_Y][0]);
    run(v, PB_OP_eerp, &a, &b, &o, 0.0f);
    double e0 = 0;
    for (size_t i = 0; i < N; i++) e0 = dmax(e0, fabs(o.plane[PB_SCL_X][i] / a.plane[PB_SCL_X][i] - 1));
    run(v, PB_OP_eerp, &a, &a, &o, 0.3f);
    double same = 0;
    for (size_t i = 0; i < N; i++) same = dmax(same, fabs(o.plane[PB_SCL_X][i] / a.plane[PB_SCL_X][i] - 1));
    CHECK(e0 <= 4e-7 && same <= 4e-7, "%s eerp(x, y, 0) = x (%.3g), eerp(x, x, t) = x (%.3g)", vn, e0, same);
    for (size_t i = 0; i < N; i++) a.plane[PB_POS_X][i] = (float)i * 16.0f / (N - 1);
    run(v, PB_OP_fast_negexp_est, &a, NULL, &o, 0);
    run(v, PB_OP_negexp, &a, NULL, &o2, 0);
    double approx = 0, exact = 0;
    for (size_t i = 0; i < N; i++) {
        approx = dmax(approx, fabs(o.plane[PB_SCL_X][i] - exp(-(double)a.plane[PB_POS_X][i])));
        exact = dmax(exact, fabs(o2.plane[PB_SCL_X][i] / exp(-(double)a.plane[PB_POS_X][i]) - 1));
    }
    CHECK(approx <= 2e-2 && exact <= 1e-6, "%s fast_negexp_est |err| %.3g (bound 2e-2), negexp rel %.3g", vn, approx, exact);
}

/* The contract: slerp, blend_static and quat log/exp (and the scaled
 * angle-axis pair) within 4e-7 rad of the oracle on every class, real motion
 * capture included, no NaN, |q|-1 <= 1e-6. quat_log's output is a half-angle
 * vector (ang_abs in rad); quat_to_scaled_angle_axis is twice it, so 8e-7. */
typedef struct { int checked; } ctx;
static void contract_row(const pb_val_row *r, void *user)
{
    ctx *c = user;
    int judged = !strcmp(r->op, "slerp_shortest") || !strcmp(r->op, "blend_static") || !strcmp(r->op, "quat_exp") ||
                 !strcmp(r->op, "quat_log") || !strcmp(r->op, "quat_from_scaled_angle_axis") ||
                 !strcmp(r->op, "quat_to_scaled_angle_axis");
    if (!judged) return;
    int log_out = !strcmp(r->op, "quat_log") || !strcmp(r->op, "quat_to_scaled_angle_axis");
    if (r->metric.kind == PB_M_VEC_ABS && log_out)
        for (int k = 0; k < PB_CLASSES; k++) {
            double bound = !strcmp(r->op, "quat_to_scaled_angle_axis") ? 8e-7 : 4e-7;
            CHECK(r->class_max[k] <= bound, "%s %s class %s: %.3g rad (bound %.2g)", r->op, r->variant,
                  pb_class_name((pb_class)k), r->class_max[k], bound);
        }
    /* The degenerate class extrapolates (alpha -0.5 ... 2): errors grow with
     * |alpha| (the float reference measures 8.1e-7 at alpha = 2), so it is held
     * to 2 x |alpha|max x 4e-7 here and to the tolerance rule below. */
    if (r->metric.kind == PB_M_ROT_ANGLE)
        for (int k = 0; k < PB_CLASSES; k++) {
            int extrapolates = !strcmp(r->op, "slerp_shortest") || !strcmp(r->op, "blend_static");
            double bound = k == PB_CLASS_DEGENERATE && extrapolates ? 2 * 2.0 * 4e-7 : 4e-7;
            CHECK(r->class_max[k] <= bound, "%s %s class %s: %.3g rad (bound %.2g)", r->op, r->variant,
                  pb_class_name((pb_class)k), r->class_max[k], bound);
        }
    if (r->metric.kind == PB_M_ROT_NORM) CHECK(r->max_err <= 1e-6, "%s %s norm %.3g", r->op, r->variant, r->max_err);
    CHECK(r->nan == 0, "%s %s: %zu NaN", r->op, r->variant, r->nan);
    CHECK(r->pass, "%s %s %s fails its tolerance", r->op, r->variant, r->metric.name);
    c->checked++;
}

/* quat_log and quat_exp within 4e-7 at every angle: both hemispheres (w < 0
 * gives half-angles up to pi, where |v| and the angle round at ulp(pi)), tiny
 * angles, and half-angles within 1e-6 .. 1e-2 of pi. exp is judged on the
 * float log it is given (exact exp of that input), and separately on longer
 * vectors (angular velocities x dt can exceed pi). */
static void log_exp_every_angle(const pb_variant *v)
{
    size_t n = 20000;
    pb_pose q, l, e;
    pb_pose_alloc(&q, n); pb_pose_alloc(&l, n); pb_pose_alloc(&e, n);
    uint64_t rs = 3;
    for (size_t i = 0; i < n; i++) {
        double w = pb_rng_unit01d(&rs) * 2 - 1, x = pb_rng_unit01d(&rs) - 0.5, y = pb_rng_unit01d(&rs) - 0.5,
               z = pb_rng_unit01d(&rs) - 0.5;
        double s = i % 4 ? 1 : pow(10, -7 + 5.0 * pb_rng_unit01d(&rs)); /* tiny vector part: angle near 0 or pi */
        set_q(&q, i, w, x * s, y * s, z * s);
    }
    run(v, PB_OP_quat_log, &q, NULL, &l, 0);
    for (size_t i = 0; i < n; i += 3)   /* a third of exp's inputs: |v| up to 12 */
        for (int c = 0; c < 3; c++) l.plane[PB_ANG_X + c][i] *= (float)(1 + i % 4);
    run(v, PB_OP_quat_exp, &l, NULL, &e, 0);   /* exp of the float log: compare against exact exp of that input */
    double lerr[2] = { 0, 0 }, lrel = 0, eerr[2] = { 0, 0 };
    for (size_t i = 0; i < n; i++) {
        double w = q.plane[PB_ROT_W][i], x = q.plane[PB_ROT_X][i], y = q.plane[PB_ROT_Y][i], z = q.plane[PB_ROT_Z][i];
        double s = sqrt(x * x + y * y + z * z), f = s == 0 ? 1 : atan2(s, w) / s, d = 0;
        double k = i % 3 ? 1 : 1 + i % 4;   /* as scaled above */
        d = hypot(hypot(l.plane[PB_ANG_X][i] / k - f * x, l.plane[PB_ANG_Y][i] / k - f * y), l.plane[PB_ANG_Z][i] / k - f * z);
        lerr[w < 0] = dmax(lerr[w < 0], d);
        if (s > 0) lrel = dmax(lrel, d / (f * s));
        double lx = l.plane[PB_ANG_X][i], ly = l.plane[PB_ANG_Y][i], lz = l.plane[PB_ANG_Z][i];
        double h = sqrt(lx * lx + ly * ly + lz * lz), sc = h == 0 ? 1 : sin(h) / h;
        pb_pose_free(&o2);
        pb_pose_alloc(&o2, 1);
        set_q(&o2, 0, cos(h), sc * lx, sc * ly, sc * lz);
        eerr[h > dpi / 2] = dmax(eerr[h > dpi / 2], qangle(&e, i, &o2, 0));
    }
    const char *vn = pb_variant_name(v);
    CHECK(lerr[0] <= 4e-7 && lerr[1] <= 4e-7 && lrel <= 4e-7, "%s quat_log: w >= 0 %.3g rad, w < 0 %.3g rad, rel %.3g", vn,
          lerr[0], lerr[1], lrel);
    CHECK(eerr[0] <= 4e-7 && eerr[1] <= 4e-7, "%s quat_exp: |v| <= pi/2 %.3g rad, |v| > pi/2 %.3g rad", vn, eerr[0], eerr[1]);
    printf("%-11s log %.2e / %.2e rad (w >= 0 / w < 0, rel %.2e), exp %.2e / %.2e rad (|v| <= / > pi/2)\n", vn, lerr[0],
           lerr[1], lrel, eerr[0], eerr[1]);
    pb_pose_free(&q); pb_pose_free(&l); pb_pose_free(&e);
    pb_pose_free(&o2);
    pb_pose_alloc(&o2, N);
}

/* The harness measures what it claims: a known rotation error reads as that
 * angle, q and -q read as zero, a NaN reads as a NaN. */
static void metrics_selftest(void)
{
    pb_dpose t, r;
    pb_dpose_alloc(&t, 3);
    pb_dpose_alloc(&r, 3);
    double ang[3] = { 1e-6, 0.25, 3.0 };
    for (int i = 0; i < 3; i++) {
        r.plane[PB_ROT_W][i] = 0.5; r.plane[PB_ROT_X][i] = 0.5; r.plane[PB_ROT_Y][i] = 0.5; r.plane[PB_ROT_Z][i] = 0.5;
        /* t = r * (cos(a/2), 0, 0, sin(a/2)), negated for i = 1 */
        double c = cos(ang[i] / 2), s = sin(ang[i] / 2), sg = i == 1 ? -1 : 1;
        t.plane[PB_ROT_W][i] = sg * (0.5 * c - 0.5 * s);
        t.plane[PB_ROT_X][i] = sg * (0.5 * c + 0.5 * s);
        t.plane[PB_ROT_Y][i] = sg * (0.5 * c - 0.5 * s);
        t.plane[PB_ROT_Z][i] = sg * (0.5 * c + 0.5 * s);
    }
    pb_metric m = { PB_M_ROT_ANGLE, PB_G_ROT, "rot_angle", "rad" };
    double err[3];
    pb_metric_eval(&m, &t, &r, err);
    for (int i = 0; i < 3; i++)
        CHECK(fabs(err[i] - ang[i]) <= 1e-12 * dmax(1, ang[i]) + 1e-15, "rot_angle reads %.17g for %.17g", err[i], ang[i]);
    pb_metric sgn = { PB_M_ROT_COMP, PB_G_ROT, "rot_comp", "abs" };
    pb_metric_eval(&sgn, &t, &r, err);
    CHECK(err[1] > 1.0, "rot_comp sees the sign flip (%g)", err[1]);
    t.plane[PB_POS_Y][2] = NAN;
    pb_op_info info = { 0 };
    info.out = 1u << PB_G_POS;
    CHECK(pb_count_nan(&info, &t, &r) == 1, "NaN counted");
    pb_dpose_free(&t);
    pb_dpose_free(&r);
}

int main(void)
{
    pb_pose_alloc(&a, N); pb_pose_alloc(&b, N); pb_pose_alloc(&o, N); pb_pose_alloc(&o2, N);
    for (size_t i = 0; i < pb_all_variant_count(); i++) {
        const pb_variant *v = pb_all_variant_at(i);
        if (pb_variant_check(v) != PB_OK) continue;
        properties(v);
        log_exp_every_angle(v);
    }
    ctx c = { 0 };
    pb_validate_opts opts = { .seed = 99, .quick = 1 };
    opts.op = "slerp_shortest";
    CHECK(pb_validate(&opts, contract_row, &c) == 0, "slerp validation passes");
    opts.op = "blend_static";
    CHECK(pb_validate(&opts, contract_row, &c) == 0, "blend_static validation passes");
    static const char *const logexp[] = { "quat_exp", "quat_log", "quat_from_scaled_angle_axis", "quat_to_scaled_angle_axis" };
    for (int k = 0; k < 4; k++) {
        opts.op = logexp[k];
        CHECK(pb_validate(&opts, contract_row, &c) == 0, "%s validation passes", logexp[k]);
    }
    CHECK(c.checked > 0, "contract rows seen");
    metrics_selftest();
    (void)dpi;
    pb_pose_free(&a); pb_pose_free(&b); pb_pose_free(&o); pb_pose_free(&o2);
    return check_done();
}
