/* test_curve.c — transition weight curves (posebench/curve.h) and the frozen cross-fade:
 *   - every curve: w(0) = 0, w(1) = 1, clamped outside [0, 1], non-decreasing on a fine grid, dw/du equal
 *     to w's central difference, known values written here;
 *   - the Bezier against an evaluation that is not the library's: bisection on x(s) = u in double, then
 *     y(s) by de Casteljau's construction, for random control points; the closed forms it reduces to;
 *     the names' table against PB_CURVE_NAMES; refusals naming the value;
 *   - the frame: a cross-fade's weight is the curve's (the mix equals blend_static run directly at w(u));
 *     frozen, the source stays the pose it had at the switch, velocities 0, bit for bit every frame, and
 *     the mix is the blend of that pose into the destination; a curve or frozen with a method that is no
 *     cross-fade is refused. (Blocks and threads: test_frame_blocks.) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "refuse.h"
#include "posebench/posebench.h"

static double casteljau(double p1, double p2, double s)
{
    double p[4] = { 0, p1, p2, 1 };
    for (int r = 3; r > 0; r--)
        for (int i = 0; i < r; i++) p[i] = (1 - s) * p[i] + s * p[i + 1];
    return p[0];
}

/* The Bezier's w(u), independently: x is increasing, so bisect x(s) = u to the last bit of a double. */
static double bezier_bisect(const pb_curve *c, double u)
{
    double lo = 0, hi = 1;
    for (int i = 0; i < 200 && hi - lo > 0; i++) {
        double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi) break;
        if (casteljau(c->x1, c->x2, mid) < u) lo = mid;
        else hi = mid;
    }
    return casteljau(c->y1, c->y2, 0.5 * (lo + hi));
}

static void curve_props(const pb_curve *c)
{
    const char *n = pb_curve_name(c->kind);
    float d0 = -1, dend = -1;
    CHECK(pb_curve_eval(c, 0, NULL) == 0 && pb_curve_eval(c, 1, NULL) == 1 && pb_curve_eval(c, -0.5f, NULL) == 0 &&
          pb_curve_eval(c, 1.5f, NULL) == 1 && pb_curve_eval(c, NAN, &d0) == 0 && d0 == 0 &&
          pb_curve_eval(c, 1, &dend) == 1 && dend == 0,
          "%s (%g, %g, %g, %g): endpoints", n, (double)c->x1, (double)c->y1, (double)c->x2, (double)c->y2);
    float prev = 0;
    int mono = 1;
    double worst_d = 0;
    for (int i = 1; i <= 4096; i++) {
        float u = (float)i / 4096, w = pb_curve_eval(c, u, NULL);
        mono &= w >= prev && w <= 1;
        prev = w;
        if (i % 64 == 0 && i < 4096) {   /* derivative vs central difference (double steps of the float curve) */
            double h = 1.0 / 4096;
            float dw;
            pb_curve_eval(c, u, &dw);
            double fd = ((double)pb_curve_eval(c, (float)(u + h), NULL) - pb_curve_eval(c, (float)(u - h), NULL)) / (2 * h);
            worst_d = dmax(worst_d, fabs(dw - fd) / dmax(1.0, fabs(fd)));   /* dmax: check.h (aarch64 gcc 12 ICE) */
        }
    }
    CHECK(mono, "%s (%g, %g, %g, %g): not non-decreasing within [0, 1]", n, (double)c->x1, (double)c->y1, (double)c->x2,
          (double)c->y2);
    CHECK(worst_d < 2e-2, "%s (%g, %g, %g, %g): dw/du vs central difference off by %g (relative)", n, (double)c->x1,
          (double)c->y1, (double)c->x2, (double)c->y2, worst_d);
}

static void curves(void)
{
    char joined[128] = "";
    for (int k = 0; k < PB_CURVE_COUNT; k++) {
        CHECK(pb_curve_by_name(pb_curve_name((pb_curve_kind)k)) == (pb_curve_kind)k, "curve %d name", k);
        snprintf(joined + strlen(joined), sizeof joined - strlen(joined), "%s%s", k ? "|" : "", pb_curve_name((pb_curve_kind)k));
        pb_curve c = { (pb_curve_kind)k, 0.25f, 0.1f, 0.25f, 1.0f };   /* the Bezier: CSS's "ease" */
        CHECK(pb_curve_check("t", &c) == PB_OK, "%s: %s", pb_curve_name(c.kind), pb_last_error());
        curve_props(&c);
    }
    CHECK(!strcmp(joined, PB_CURVE_NAMES), "PB_CURVE_NAMES is \"%s\", the table \"%s\"", PB_CURVE_NAMES, joined);
    CHECK(pb_curve_by_name("cubic") == PB_CURVE_COUNT && pb_curve_by_name(NULL) == PB_CURVE_COUNT &&
          pb_curve_name(PB_CURVE_COUNT) == NULL, "unknown curve");
    /* known values (exact in float) and rates */
    static const struct { pb_curve_kind k; float u, w, dw; } known[] = {
        { PB_CURVE_LINEAR, 0.25f, 0.25f, 1 }, { PB_CURVE_SMOOTHSTEP, 0.25f, 0.15625f, 1.125f },
        { PB_CURVE_EASE_IN, 0.5f, 0.25f, 1 }, { PB_CURVE_EASE_OUT, 0.5f, 0.75f, 1 }, { PB_CURVE_EASE_IN, 0, 0, 0 },
        { PB_CURVE_EASE_OUT, 0, 0, 2 }, { PB_CURVE_LINEAR, 0, 0, 1 },
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        pb_curve c = { known[i].k, 0, 0, 0, 0 };
        float dw, w = pb_curve_eval(&c, known[i].u, &dw);
        CHECK(w == known[i].w && dw == known[i].dw, "%s(%g) = %g, rate %g (want %g, %g)", pb_curve_name(c.kind),
              (double)known[i].u, (double)w, (double)dw, (double)known[i].w, (double)known[i].dw);
    }
    /* the Bezier reduces to the others' closed forms (in double, written here) */
    static const struct { pb_curve c; int form; } red[] = {
        { { PB_CURVE_BEZIER, 1.0f / 3, 0, 2.0f / 3, 1 }, 0 }, { { PB_CURVE_BEZIER, 0.2f, 0.2f, 0.7f, 0.7f }, 1 },
        { { PB_CURVE_BEZIER, 1.0f / 3, 0, 2.0f / 3, 1.0f / 3 }, 2 }, { { PB_CURVE_BEZIER, 1.0f / 3, 2.0f / 3, 2.0f / 3, 1 }, 3 },
        { { PB_CURVE_BEZIER, 1, 1, 0, 0 }, 1 },
    };
    for (size_t r = 0; r < sizeof red / sizeof red[0]; r++) {
        double worst = 0;
        for (int i = 0; i <= 100; i++) {
            double u = i / 100.0, want = red[r].form == 0 ? u * u * (3 - 2 * u) : red[r].form == 1 ? u
                                       : red[r].form == 2 ? u * u : 1 - (1 - u) * (1 - u);
            worst = dmax(worst, fabs(pb_curve_eval(&red[r].c, (float)u, NULL) - want));
        }
        CHECK(pb_curve_check("t", &red[r].c) == PB_OK && worst < 3e-7, "bezier (%g, %g, %g, %g) vs its closed form: off by %g",
              (double)red[r].c.x1, (double)red[r].c.y1, (double)red[r].c.x2, (double)red[r].c.y2, worst);
    }
    /* random control points (and the corners of the allowed box): against the bisection, and the properties */
    uint64_t x = 88172645463325252ull;
    int checked = 0;
    for (int k = 0; k < 400; k++) {
        float cv[4];
        for (int i = 0; i < 4; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            cv[i] = (float)((x >> 11) * (1.0 / 9007199254740992.0));
            if (k < 64) cv[i] = (k >> i) & 1 ? 1.0f : (k >> (i + 4)) & 1 ? 0.0f : cv[i];   /* 0 and 1 in every place */
        }
        pb_curve c = { PB_CURVE_BEZIER, cv[0], cv[1], cv[2], cv[3] };
        if (pb_curve_check("t", &c) != PB_OK) {
            CHECK(k < 64, "bezier (%g, %g, %g, %g) refused: %s", (double)cv[0], (double)cv[1], (double)cv[2], (double)cv[3],
                  pb_last_error());
            continue;
        }
        checked++;
        double worst = 0;
        for (int i = 0; i <= 64; i++) {
            float u = i / 64.0f;
            worst = dmax(worst, fabs(pb_curve_eval(&c, u, NULL) - bezier_bisect(&c, u)));
        }
        CHECK(worst < 2e-7, "bezier (%g, %g, %g, %g) vs bisection on x(s): off by %g", (double)cv[0], (double)cv[1],
              (double)cv[2], (double)cv[3], worst);
        if (k < 100) curve_props(&c);
    }
    CHECK(checked > 350, "only %d random control points checked", checked);
    /* the rate at the start where x'(0) = 0: the limit of y'/x' */
    pb_curve flat = { PB_CURVE_BEZIER, 0, 0, 0.5f, 0.25f };   /* near 0: x ~ 1.5 s^2, y ~ 0.75 s^2: rate 1/2 */
    float d0;
    CHECK(pb_curve_eval(&flat, 0, &d0) == 0 && fabs(d0 - 0.5f) < 1e-6, "bezier (0, 0, 0.5, 0.25) starts at rate %g, not 0.5",
          (double)d0);
    pb_curve bad[] = {
        { PB_CURVE_BEZIER, -0.1f, 0, 0.5f, 1 }, { PB_CURVE_BEZIER, 0.5f, 0, 0.5f, 1.01f }, { PB_CURVE_BEZIER, NAN, 0, 0.5f, 1 },
        { PB_CURVE_BEZIER, 0.5f, INFINITY, 0.5f, 1 }, { PB_CURVE_BEZIER, 0, 0.5f, 0.5f, 1 },
        { PB_CURVE_BEZIER, 0, 0, 0, 0.3f }, { PB_CURVE_BEZIER, 0.5f, 0, 1, 0.5f }, { PB_CURVE_BEZIER, 1, 0.2f, 0, 0.9f },
        { (pb_curve_kind)9, 0, 0, 0, 0 },
    };
    static const char *const why[] = { "x1 is -0.1", "y2 is 1.01", "x1 is nan", "y1 is inf", "vertical tangent at the start",
                                       "vertical tangent at the start", "vertical tangent at the end",
                                       "vertical tangent at its middle", "curve kind 9 is not a pb_curve_kind" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) REFUSE(PB_ERR_PARAM, why[i], pb_curve_check("x", &bad[i]));
    REFUSE(PB_ERR_NULL, "curve is NULL", pb_curve_check("x", NULL));
    pb_curve other = { PB_CURVE_LINEAR, NAN, 7, -1, 0 };
    CHECK(pb_curve_check("x", &other) == PB_OK, "the other curves read no control value");
}

static int same(const pb_pose *a, const pb_pose *b, int from, int to)
{
    int eq = a->n == b->n;
    for (int p = from; eq && p < to; p++) eq = !memcmp(a->plane[p], b->plane[p], a->n * sizeof(float));
    return eq;
}

static void frame(void)
{
    pb_scene s;
    CHECK(pb_scene_synthetic(&s, 16, 9) == PB_OK, "%s", pb_last_error());
    pb_frame_crowd c;
    CHECK(pb_frame_crowd_init(&c, &s, 16, PB_OP_sample_linear) == PB_OK, "%s", pb_last_error());
    pb_pose want = { 0 }, held = { 0 }, prev = { 0 };
    CHECK(pb_pose_alloc(&want, c.n) == PB_OK && pb_pose_alloc(&held, c.n) == PB_OK && pb_pose_alloc(&prev, c.n) == PB_OK, "alloc");
    /* a cross-fade's weight is the curve's: ease_in at t = 0.1 of 0.3 s is (1/3)^2 */
    pb_curve ease_in = { PB_CURVE_EASE_IN, 0, 0, 0, 0 }, linear = { PB_CURVE_LINEAR, 0, 0, 0, 0 };
    CHECK(pb_frame_crowd_curve(&c, &ease_in, 0) == PB_OK, "%s", pb_last_error());
    pb_status st = pb_frame_sample(&c, NULL, 0, 0.2f);
    if (st == PB_OK) st = pb_frame_sample(&c, NULL, 1, 0.2f);
    if (st == PB_OK) st = pb_frame_begin(&c, NULL, PB_FM_CROSSFADE_STATIC);
    if (st == PB_OK) st = pb_frame_transition(&c, NULL, PB_FM_CROSSFADE_STATIC, 0.1f);
    float u3 = 0.1f / c.duration;   /* the same float u as the transition's */
    pb_call call = { .a = &c.src, .b = &c.dst, .out = &want, .params = { .alpha = u3 * u3 } };
    if (st == PB_OK) st = pb_run(PB_OP_blend_static, NULL, &call);
    CHECK(st == PB_OK, "%s", pb_last_error());
    CHECK(same(&c.mix, &want, 0, PB_STATIC_PLANES), "ease_in: the mix is not blend_static at w = 1/9");
    call.params.alpha = 1.0f / 3 * (1.0f / 3) * (3 - 2.0f / 3);   /* smoothstep's weight: not what ran */
    CHECK(pb_run(PB_OP_blend_static, NULL, &call) == PB_OK && !same(&c.mix, &want, 0, PB_STATIC_PLANES),
          "ease_in and smoothstep give the same mix");

    /* frozen: the source held at the switch while the destination plays on */
    CHECK(pb_frame_crowd_curve(&c, &linear, 1) == PB_OK, "%s", pb_last_error());
    st = pb_frame_sample(&c, NULL, 0, 0.2f);
    if (st == PB_OK) st = pb_frame_sample(&c, NULL, 1, 0.2f);
    if (st == PB_OK) st = pb_pose_copy(&held, &c.src);
    if (st == PB_OK) st = pb_frame_begin(&c, NULL, PB_FM_CROSSFADE);
    CHECK(st == PB_OK, "%s", pb_last_error());
    for (int p = PB_VEL_X; p < PB_PLANES; p++) memset(held.plane[p], 0, c.n * sizeof(float));
    int held_const = 1, mix_ok = 1, moved = 0, dst_moved = 0;
    for (int k = 0; k < 12 && st == PB_OK; k++) {
        st = pb_frame_step(&c, NULL, PB_FM_CROSSFADE, k);
        held_const &= same(&c.state, &held, 0, PB_PLANES);
        float u = pb_frame_crowd_trans_time(&c, k) / c.duration;
        pb_call b = { .a = &held, .b = &c.dst, .out = &want, .params = { .alpha = u, .alpha_vel = 1 / c.duration } };
        if (st == PB_OK) st = pb_run(PB_OP_blend, NULL, &b);
        mix_ok &= same(&c.mix, &want, 0, PB_PLANES);
        moved += !same(&c.src, &held, 0, PB_STATIC_PLANES);
        dst_moved += k > 0 && !same(&c.dst, &prev, 0, PB_STATIC_PLANES);
        if (st == PB_OK) st = pb_pose_copy(&prev, &c.dst);
    }
    CHECK(st == PB_OK, "%s", pb_last_error());
    CHECK(held_const, "frozen: the source is not the pose at the switch (velocities 0) every frame");
    CHECK(mix_ok, "frozen: the mix is not blend(held source, destination, linear weight)");
    CHECK(moved == 0, "frozen: the source clip was sampled again (%d frames)", moved);
    CHECK(dst_moved == 11, "frozen: the destination did not play on (%d of 11 frames)", dst_moved);
    REFUSE(PB_ERR_PARAM, "dead_slerp with curve linear, frozen", pb_frame_begin(&c, NULL, PB_FM_DEAD));
    CHECK(pb_frame_crowd_curve(&c, &linear, 0) == PB_OK, "%s", pb_last_error());
    REFUSE(PB_ERR_PARAM, "inertialize with curve linear: only the cross-fades", pb_frame_begin(&c, NULL, PB_FM_INERTIALIZE));
    pb_curve bad = { PB_CURVE_BEZIER, 0.5f, 0, 2, 1 };
    REFUSE(PB_ERR_PARAM, "x2 is 2", pb_frame_crowd_curve(&c, &bad, 0));
    REFUSE(PB_ERR_PARAM, "frozen is 2", pb_frame_crowd_curve(&c, &ease_in, 2));
    REFUSE(PB_ERR_NULL, "curve is NULL", pb_frame_crowd_curve(&c, NULL, 0));
    CHECK(c.curve.kind == PB_CURVE_LINEAR && !c.frozen, "refused: the crowd unchanged");
    pb_pose_free(&want), pb_pose_free(&held), pb_pose_free(&prev);
    pb_frame_crowd_free(&c);
    pb_scene_free(&s);
}

int main(void)
{
    curves();
    frame();
    return check_done();
}
