/* test_lookat_cone.c — the look-at turn limited to a cone (lookat_cone_static,
 * lookat_cone), in every variant, checked from geometry rather than from the
 * reference:
 *   - the head's axis turns by at most the cone (per character, per.cone);
 *   - inside the cone the result is lookat's (the axis on the target);
 *   - outside it the axis stops on the arc from where it pointed toward the
 *     target, exactly the cone's angle along it;
 *   - sweeping the target across the cone's edge moves the head continuously
 *     (no step larger than the target's own step);
 *   - bad cones (NaN, negative, a bad per.cone element, per.cone on an op
 *     without a cone) are refused with the argument named.
 * Heads and targets come from the harness's case builder (pb_case_fill). */
#include <math.h>
#include <string.h>
#include "check.h"
#include "validate.h"
#include "all_variants.h"

#define PI 3.14159265358979323846
#define N 203   /* characters, one joint each: tails for 4, 8 and 16 lanes */

static void rotate(const pb_pose *p, size_t i, const double v[3], double out[3])
{
    double q[4] = { p->plane[PB_ROT_W][i], p->plane[PB_ROT_X][i], p->plane[PB_ROT_Y][i], p->plane[PB_ROT_Z][i] };
    double tx = 2 * (q[2] * v[2] - q[3] * v[1]), ty = 2 * (q[3] * v[0] - q[1] * v[2]), tz = 2 * (q[1] * v[1] - q[2] * v[0]);
    out[0] = v[0] + q[0] * tx + (q[2] * tz - q[3] * ty);
    out[1] = v[1] + q[0] * ty + (q[3] * tx - q[1] * tz);
    out[2] = v[2] + q[0] * tz + (q[1] * ty - q[2] * tx);
}

static double angle(const double u[3], const double v[3])
{
    double c[3] = { u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0] };
    return atan2(sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]), u[0] * v[0] + u[1] * v[1] + u[2] * v[2]);
}

/* Axis of head i before (f) and after (g) the op, and the direction to its target (d). */
static void dirs(const pb_pose *a, const pb_pose *b, const pb_pose *o, const double ax[3], size_t i, double f[3],
                 double g[3], double d[3])
{
    rotate(a, i, ax, f);
    rotate(o, i, ax, g);
    for (int j = 0; j < 3; j++) d[j] = (double)b->plane[PB_POS_X + j][i] - a->plane[PB_POS_X + j][i];
}

static void geometry(const pb_variant *v, pb_op op)
{
    const char *vn = pb_variant_name(v), *on = pb_op_get(op)->name;
    pb_pose a, b, o, l;
    CHECK(pb_pose_alloc(&a, N) == PB_OK && pb_pose_alloc(&b, N) == PB_OK && pb_pose_alloc(&o, N) == PB_OK &&
          pb_pose_alloc(&l, N) == PB_OK, "poses");
    float axis[3] = { 0.3f, -0.4f, 0.5f }, cone[N];
    double al = sqrt(0.5), ax[3] = { axis[0] / al, axis[1] / al, axis[2] / al };
    for (size_t c = 0; c < N; c++) cone[c] = c % 7 == 0 ? 0.0f : c % 11 == 0 ? 4.0f : (float)(3.1 * c / N);
    pb_call call = { .a = &a, .b = &b, .out = &o, .params = { .axis = { axis[0], axis[1], axis[2] } } };
    call.per = (pb_param_arrays){ .characters = N, .cone = cone };
    pb_vcase cs = { .cls = PB_CLASS_RANDOM, .n = N, .p = call.params };
    pb_case_bufs io = { .a = &a, .b = &b };
    CHECK(pb_case_fill(&io, &cs, pb_op_get(op), NULL, 11, 0) == PB_OK, "case: %s", pb_last_error());
    CHECK(pb_run(op, v, &call) == PB_OK, "%s %s: %s", vn, on, pb_last_error());
    pb_call free_call = { .a = &a, .b = &b, .out = &l, .params = call.params };
    CHECK(pb_run(PB_OP_lookat_static, v, &free_call) == PB_OK, "lookat_static: %s", pb_last_error());
    double over = 0, miss = 0, off_arc = 0, short_of = 0, unlike = 0;
    int clamped = 0, inside = 0;
    for (size_t i = 0; i < N; i++) {
        double f[3], g[3], d[3], phi = fmin(cone[i], PI);
        dirs(&a, &b, &o, ax, i, f, g, d);
        double theta = angle(f, d), turn = angle(f, g);
        over = fmax(over, turn - phi);
        if (theta <= phi - 1e-4) {   /* inside: lookat's result */
            inside++;
            miss = fmax(miss, angle(g, d));
            for (int p = PB_ROT_W; p <= PB_ROT_Z; p++) unlike = fmax(unlike, fabs(o.plane[p][i] - l.plane[p][i]));
        } else if (theta >= phi + 1e-4 && theta < PI - 1e-3) {   /* clamped: on the arc, phi along it */
            clamped++;
            short_of = fmax(short_of, fabs(turn - phi));
            off_arc = fmax(off_arc, fabs(turn + angle(g, d) - theta));
        }
    }
    CHECK(inside > 20 && clamped > 20, "%s %s: %d heads inside their cone, %d clamped (want both)", vn, on, inside,
          clamped);
    CHECK(over < 2e-5, "%s %s: a head turned %.3g rad past its cone", vn, on, over);
    CHECK(miss < 1e-4 && unlike < 2e-6, "%s %s: inside the cone the axis misses the target by %.3g rad; "
          "rotation differs from lookat_static's by %.3g", vn, on, miss, unlike);
    CHECK(short_of < 2e-5 && off_arc < 2e-5, "%s %s: clamped turns are %.3g rad from the cone, %.3g off the arc",
          vn, on, short_of, off_arc);
    pb_pose_free(&a); pb_pose_free(&b); pb_pose_free(&o); pb_pose_free(&l);
}

/* One head, its target swept through the cone's edge in small steps: the head's
 * rotation must move by no more than the target direction does. */
static void continuity(const pb_variant *v, pb_op op)
{
    enum { S = 64 };
    pb_pose a, b, o;
    CHECK(pb_pose_alloc(&a, S) == PB_OK && pb_pose_alloc(&b, S) == PB_OK && pb_pose_alloc(&o, S) == PB_OK, "poses");
    const float phi = 0.9f, step = 2e-4f;
    for (size_t i = 0; i < S; i++) {   /* head at the origin looking down +z; target at angle phi + (i - S/2) step */
        float t = phi + ((float)i - S / 2) * step;
        b.plane[PB_POS_X][i] = 2.0f * sinf(t);
        b.plane[PB_POS_Z][i] = 2.0f * cosf(t);
    }
    pb_call call = { .a = &a, .b = &b, .out = &o, .params = { .axis = { 0, 0, 1 }, .cone = phi } };
    CHECK(pb_run(op, v, &call) == PB_OK, "sweep: %s", pb_last_error());
    double worst = 0;
    for (size_t i = 1; i < S; i++) {
        /* the angle between the rotations from the chord |q - q'| (acos of a dot near 1 would lose half the digits) */
        double dot = 0, chord = 0;
        for (int p = PB_ROT_W; p <= PB_ROT_Z; p++) dot += (double)o.plane[p][i] * o.plane[p][i - 1];
        for (int p = PB_ROT_W; p <= PB_ROT_Z; p++) {
            double d = (double)o.plane[p][i] - (dot < 0 ? -1.0 : 1.0) * o.plane[p][i - 1];
            chord += d * d;
        }
        worst = fmax(worst, 4 * asin(fmin(1.0, sqrt(chord) / 2)));
    }
    CHECK(worst < 2.0 * step, "%s %s: across the cone's edge the head jumps %.3g rad for a %.3g rad target step",
          pb_variant_name(v), pb_op_get(op)->name, worst, (double)step);
    pb_pose_free(&a); pb_pose_free(&b); pb_pose_free(&o);
}

static void bad_input(void)
{
    pb_pose a, b, o;
    CHECK(pb_pose_alloc(&a, 8) == PB_OK && pb_pose_alloc(&b, 8) == PB_OK && pb_pose_alloc(&o, 8) == PB_OK, "poses");
    memcpy(o.plane[PB_ROT_W], (float[8]){ 5, 5, 5, 5, 5, 5, 5, 5 }, sizeof(float[8]));
    pb_call call = { .a = &a, .b = &b, .out = &o, .params = { .axis = { 0, 0, 1 }, .cone = NAN } };
    CHECK(pb_run(PB_OP_lookat_cone, NULL, &call) == PB_ERR_PARAM && strstr(pb_last_error(), "cone"), "NaN cone: %s",
          pb_last_error());
    call.params.cone = -0.1f;
    CHECK(pb_run(PB_OP_lookat_cone_static, NULL, &call) == PB_ERR_PARAM && strstr(pb_last_error(), ">= 0"),
          "negative cone: %s", pb_last_error());
    call.params.cone = 1.0f;
    float cones[4] = { 0.5f, 1.0f, INFINITY, 0.2f };
    call.per = (pb_param_arrays){ .characters = 4, .cone = cones };
    CHECK(pb_run(PB_OP_lookat_cone, NULL, &call) == PB_ERR_PARAM && strstr(pb_last_error(), "per.cone[2]"),
          "bad per.cone element: %s", pb_last_error());
    cones[2] = 0.7f;
    CHECK(pb_run(PB_OP_lookat, NULL, &call) == PB_ERR_PARAM && strstr(pb_last_error(), "per.cone"),
          "per.cone on lookat: %s", pb_last_error());
    CHECK(o.plane[PB_ROT_W][0] == 5 && o.plane[PB_ROT_W][7] == 5, "refused calls wrote nothing");
    CHECK(pb_run(PB_OP_lookat_cone, NULL, &call) == PB_OK, "per.cone of 4 characters x 2 joints: %s", pb_last_error());
    pb_pose_free(&a); pb_pose_free(&b); pb_pose_free(&o);
}

int main(void)
{
    for (size_t i = 0; i < pb_all_variant_count(); i++) {
        const pb_variant *v = pb_all_variant_at(i);
        if (pb_variant_check(v) != PB_OK) continue;
        geometry(v, PB_OP_lookat_cone_static);
        geometry(v, PB_OP_lookat_cone);
        continuity(v, PB_OP_lookat_cone_static);
        continuity(v, PB_OP_lookat_cone);
    }
    bad_input();
    return check_done();
}
