/* test_quality.c — the transition metrics (posebench/quality.h) on windows
 * built so that every metric's answer is known in closed form, not from the
 * code under test:
 *   - a cut: its pops are the jump between the clips at the switch, exactly (/dt, /dt^2);
 *   - a cross-fade between identical clips (the output is the clip): every metric zero, the ratios 1;
 *   - a constructed overshoot past a joint's range: its known degree-seconds;
 *   - a foot sliding at a known speed while both clips plant it: its known distance (and no
 *     distance where only one clip plants it);
 *   - a half-speed output: damping 1/2; a settling offset: its time; a cubic: its jerk;
 *   - an interruption's jump, measured against the output's own motion;
 *   - the refusals (another skeleton, zero-length windows, NaN poses, ...): the status, the
 *     argument named, nothing written;
 *   - 400 seeded random windows, each broken in one random place or not: a status every time,
 *     nothing written on refusal, finite values on acceptance. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "refuse.h"
#include "posebench/posebench.h"
#include "rng.h"

#define J 4   /* 0 root, 1 child of 0, 2 child of 1, 3 a foot (child of 0) */
#define F 40
#define S0 10
#define DT (1.0 / 60.0)
#define PI 3.14159265358979323846

static const int32_t parents[J] = { -1, 0, 1, 0 };
static pb_clip out, src, dst;

static void set_pos(pb_clip *c, size_t f, size_t j, double x, double y, double z)
{
    size_t e = f * J + j;
    c->pose.plane[PB_POS_X][e] = (float)x;
    c->pose.plane[PB_POS_Y][e] = (float)y;
    c->pose.plane[PB_POS_Z][e] = (float)z;
}
static double get(const pb_clip *c, int pl, size_t f, size_t j) { return c->pose.plane[pl][f * J + j]; }
/* World rotation of joint j at frame f: angle a about z. */
static void set_rot_z(pb_clip *c, size_t f, size_t j, double a)
{
    size_t e = f * J + j;
    c->pose.plane[PB_ROT_W][e] = (float)cos(0.5 * a);
    c->pose.plane[PB_ROT_X][e] = 0;
    c->pose.plane[PB_ROT_Y][e] = 0;
    c->pose.plane[PB_ROT_Z][e] = (float)sin(0.5 * a);
}
/* A clip moving smoothly (seed k), feet planted at y = 0.01 */
static void moving(pb_clip *c, double k)
{
    for (size_t f = 0; f < F; f++) {
        double t = (double)f * DT;
        for (size_t j = 0; j < 3; j++)
            set_pos(c, f, j, sin(k + 2 * t + (double)j), 1 + 0.3 * cos(k * t + (double)j), 0.2 * (double)j * t);
        set_pos(c, f, 3, 0.3, 0.01, 0.1 * k);
        for (size_t j = 0; j < J; j++) set_rot_z(c, f, j, 0.1 * (double)j * sin(k + t));
    }
}
static void copy(pb_clip *to, const pb_clip *from)
{
    for (int pl = 0; pl < PB_STATIC_PLANES; pl++) memcpy(to->pose.plane[pl], from->pose.plane[pl], sizeof(float) * F * J);
}

static pb_quality_window window(size_t *sw, size_t nsw)
{
    pb_quality_window w = { .joints = J, .parents = parents, .out = &out, .src = &src, .dst = &dst, .switches = sw,
                            .nswitches = nsw, .contact_height = 0.05f };
    return w;
}
static const int32_t feet[1] = { 3 };

static void test_cut(void)
{
    moving(&src, 1);
    moving(&dst, 2.5);
    for (size_t f = 0; f < F; f++)
        for (size_t j = 0; j < J; j++) {
            const pb_clip *c = f < S0 ? &src : &dst;
            set_pos(&out, f, j, get(c, PB_POS_X, f, j), get(c, PB_POS_Y, f, j), get(c, PB_POS_Z, f, j));
            for (int pl = PB_ROT_W; pl <= PB_ROT_Z; pl++) out.pose.plane[pl][f * J + j] = c->pose.plane[pl][f * J + j];
        }
    size_t sw[1] = { S0 };
    pb_quality_window w = window(sw, 1);
    pb_quality q;
    double pj[PB_QM_COUNT * J];
    CHECK(pb_quality_measure(&w, &q, pj) == PB_OK, "%s", pb_last_error());
    double worst = 0;
    int wj = -1;
    for (size_t j = 0; j < J; j++) {
        double d = 0;
        for (int c = 0; c < 3; c++) {
            double x = get(&dst, PB_POS_X + c, S0, j) - get(&src, PB_POS_X + c, S0, j);
            d += x * x;
        }
        d = sqrt(d);
        CHECK(fabs(pj[PB_QM_POP_POS * J + j] - d) <= 1e-12 * (1 + d), "joint %zu pop %.17g vs %.17g", j,
              pj[PB_QM_POP_POS * J + j], d);
        if (d > worst) worst = d, wj = (int)j;
    }
    double dt = out.frame_time;
    CHECK(fabs(q.value[PB_QM_POP_POS] - worst) <= 1e-12, "pop_pos %.17g vs %.17g", q.value[PB_QM_POP_POS], worst);
    CHECK(fabs(q.value[PB_QM_POP_VEL] - worst / dt) <= 1e-9 * worst / dt, "pop_vel %.17g vs %.17g", q.value[PB_QM_POP_VEL],
          worst / dt);
    CHECK(fabs(q.value[PB_QM_POP_ACC] - worst / dt / dt) <= 1e-9 * worst / dt / dt, "pop_acc %.17g", q.value[PB_QM_POP_ACC]);
    CHECK(q.worst[PB_QM_POP_POS] == wj && q.worst[PB_QM_POP_ACC] == wj, "worst %d, %d", q.worst[PB_QM_POP_POS], wj);
    CHECK(q.value[PB_QM_DEV_CM] == 0 && q.value[PB_QM_DEV_DEG] == 0 && q.value[PB_QM_SETTLE_S] == 0, "cut: at the destination");
    CHECK(q.worst[PB_QM_DEV_CM] == -1, "no joint to blame: %d", q.worst[PB_QM_DEV_CM]);
    CHECK(q.value[PB_QM_JERK_PEAK] > 100, "a cut's jerk: %g x the clips'", q.value[PB_QM_JERK_PEAK]);
}

static void test_identical(void)
{
    moving(&src, 1);
    copy(&dst, &src);
    copy(&out, &src);   /* a cross-fade between identical clips shows the clip */
    float lo[3 * J], hi[3 * J];
    for (size_t j = 0; j < J; j++) {   /* the range the clip reaches (local: about z, 0.1 sin per joint step) */
        double amp = j ? 0.1 * (double)(j - (size_t)(parents[j] > 0 ? parents[j] : 0)) : 0;
        if (j == 3) amp = 0.3;
        for (int a = 0; a < 3; a++) lo[3 * j + (size_t)a] = -1e-5f, hi[3 * j + (size_t)a] = 1e-5f;
        lo[3 * j + 2] = (float)-amp - 1e-5f;
        hi[3 * j + 2] = (float)amp + 1e-5f;
    }
    size_t sw[1] = { S0 };
    pb_quality_window w = window(sw, 1);
    w.lo = lo;
    w.hi = hi;
    w.feet = feet;
    w.nfeet = 1;
    pb_quality q;
    CHECK(pb_quality_measure(&w, &q, NULL) == PB_OK, "%s", pb_last_error());
    for (int m = 0; m < PB_QM_COUNT; m++) {
        double want = m == PB_QM_JERK_PEAK || m == PB_QM_JERK_RMS || m == PB_QM_DAMPING ? 1 : 0;
        CHECK(q.value[m] == want, "identical clips: %s = %.17g, want %g", pb_quality_metric_name((pb_quality_metric)m),
              q.value[m], want);
    }
}

static void test_overshoot(void)
{
    moving(&src, 1);
    copy(&dst, &src);
    copy(&out, &src);
    for (size_t f = 0; f < F; f++)
        for (size_t j = 0; j < J; j++) set_rot_z(&out, f, j, 0);
    for (size_t f = S0 + 3; f < S0 + 8; f++) {   /* joint 2 turns 0.7 rad from joint 1 (world 0.7 + 0.2) */
        set_rot_z(&out, f, 1, 0.2);
        set_rot_z(&out, f, 2, 0.9);
    }
    float lo[3 * J] = { 0 }, hi[3 * J] = { 0 };
    for (size_t i = 0; i < 3 * J; i++) lo[i] = -0.25f, hi[i] = 0.25f;
    hi[3 * 2 + 2] = 0.5f;   /* joint 2's z range: 0.2 rad under its overshoot */
    size_t sw[1] = { S0 };
    pb_quality_window w = window(sw, 1);
    w.lo = lo;
    w.hi = hi;
    pb_quality q;
    double pj[PB_QM_COUNT * J];
    CHECK(pb_quality_measure(&w, &q, pj) == PB_OK, "%s", pb_last_error());
    double want = 0.2 * (180 / PI) * 5 * out.frame_time;
    CHECK(fabs(q.value[PB_QM_LIMIT_DEG_S] - want) < 1e-5 * want, "overshoot %.9g deg s, want %.9g", q.value[PB_QM_LIMIT_DEG_S],
          want);
    CHECK(q.worst[PB_QM_LIMIT_DEG_S] == 2 && pj[PB_QM_LIMIT_DEG_S * J + 1] == 0, "worst %d", q.worst[PB_QM_LIMIT_DEG_S]);
}

static void test_sliding_damping_settle(void)
{
    double v = 0.5;   /* m/s */
    for (size_t f = 0; f < F; f++) {
        double t = (double)f * DT;
        for (size_t j = 0; j < J; j++) {
            for (pb_clip *c = &src; c; c = c == &src ? &dst : NULL) {
                set_pos(c, f, j, 2 * v * t, 1, 0);   /* every joint moves at 2v in x */
                set_rot_z(c, f, j, 0);
            }
            set_pos(&out, f, j, v * t + (f < S0 + 12 && j == 1 ? 0.05 : 0), 1, 0);   /* at v: half the speed */
            set_rot_z(&out, f, j, 0);
        }
        set_pos(&src, f, 3, 0.2, 0.01, 0);   /* the foot: planted in both clips */
        set_pos(&dst, f, 3, -0.2, 0.02, 0);
        set_pos(&out, f, 3, v * t, 0.01, 0);  /* the output slides it at v */
        set_pos(&src, f, 2, 0.2, 0.01, 0);   /* joint 2: planted in src only */
        set_pos(&dst, f, 2, 0.2, 0.30, 0);
    }
    int32_t two_feet[2] = { 3, 2 };
    size_t sw[1] = { S0 };
    pb_quality_window w = window(sw, 1);
    w.feet = two_feet;
    w.nfeet = 2;
    uint8_t measured[J] = { 0, 1, 1, 1 };
    w.measured = measured;
    pb_quality q;
    double pj[PB_QM_COUNT * J];
    CHECK(pb_quality_measure(&w, &q, pj) == PB_OK, "%s", pb_last_error());
    double dt = out.frame_time, slide = v * dt * (F - S0);
    CHECK(fabs(q.value[PB_QM_SLIDE_M] - slide) < 1e-5, "slide %.9g m, want %.9g", q.value[PB_QM_SLIDE_M], slide);
    CHECK(q.worst[PB_QM_SLIDE_M] == 3 && pj[PB_QM_SLIDE_M * J + 2] == 0, "the planted foot, not the lifted one: %d %g",
          q.worst[PB_QM_SLIDE_M], pj[PB_QM_SLIDE_M * J + 2]);
    /* damping: joint 0 moves at v against the clips' 2v */
    CHECK(fabs(pj[PB_QM_DAMPING * J + 0] - 0.5) < 1e-4, "damping joint 0 %.9g, want 0.5", pj[PB_QM_DAMPING * J + 0]);
}

/* settling alone: the output at the destination but for 0.05 m on joint 1 until S0 + 12 */
static void test_settle_jerk(void)
{
    double c3 = 6.0;   /* m/s^3 */
    for (size_t f = 0; f < F; f++) {
        double t = (double)f * DT;
        for (size_t j = 0; j < J; j++) {
            set_pos(&src, f, j, 0, 1, 0);
            set_pos(&dst, f, j, 0, 1, 0);
            set_pos(&out, f, j, j == 1 && f < S0 + 12 ? 0.05 : 0, 1, j == 2 ? c3 * t * t * t / 6 : 0);
            set_rot_z(&src, f, j, 0);
            set_rot_z(&dst, f, j, 0);
            set_rot_z(&out, f, j, 0);
        }
    }
    size_t sw[1] = { S0 };
    pb_quality_window w = window(sw, 1);
    uint8_t measured[J] = { 0, 1, 0, 0 };
    w.measured = measured;
    pb_quality q;
    double pj[PB_QM_COUNT * J];
    CHECK(pb_quality_measure(&w, &q, pj) == PB_OK, "%s", pb_last_error());
    double dt = out.frame_time;
    CHECK(fabs(q.value[PB_QM_SETTLE_S] - 12 * dt) < 1e-12, "settle %.17g s, want %.17g", q.value[PB_QM_SETTLE_S], 12 * dt);
    CHECK(fabs(q.value[PB_QM_DEV_CM] - 5.0 * 12 / (F - S0)) < 1e-4, "dev %.9g cm", q.value[PB_QM_DEV_CM]);
    /* the cubic's third difference is c3 dt^3 (the float positions round it: 1e-3) */
    CHECK(fabs(pj[PB_QM_JERK_PEAK * J + 2] - c3) < 2e-2 * c3, "jerk %.9g m/s^3, want %g", pj[PB_QM_JERK_PEAK * J + 2], c3);
    CHECK(fabs(pj[PB_QM_JERK_RMS * J + 2] - c3) < 2e-2 * c3, "rms jerk %.9g", pj[PB_QM_JERK_RMS * J + 2]);
}

static void test_interruption(void)
{
    double D = 0.08;
    for (size_t f = 0; f < F; f++)
        for (size_t j = 0; j < J; j++) {
            set_pos(&src, f, j, 0, 1, 0);
            set_pos(&dst, f, j, 0, 1, 0);
            set_pos(&out, f, j, 0, 1, j == 1 && f >= S0 + 6 ? D : 0);
            set_rot_z(&src, f, j, 0);
            set_rot_z(&dst, f, j, 0);
            set_rot_z(&out, f, j, 0);
        }
    size_t sw[2] = { S0, S0 + 6 };
    pb_quality_window w = window(sw, 2);
    pb_quality q;
    CHECK(pb_quality_measure(&w, &q, NULL) == PB_OK, "%s", pb_last_error());
    double dt = out.frame_time, Df = (float)D;
    CHECK(fabs(q.value[PB_QM_POP_POS] - Df) < 1e-12 && q.worst[PB_QM_POP_POS] == 1, "interruption pop %.17g", q.value[PB_QM_POP_POS]);
    CHECK(fabs(q.value[PB_QM_POP_VEL] - Df / dt) < 1e-9, "interruption velocity pop %.17g", q.value[PB_QM_POP_VEL]);
    sw[1] = S0 + 14;   /* an interruption 8 frames after the jump (beyond the differences it reads): no pop */
    CHECK(pb_quality_measure(&w, &q, NULL) == PB_OK && q.value[PB_QM_POP_POS] == 0 && q.value[PB_QM_POP_VEL] == 0 &&
              q.value[PB_QM_POP_ACC] == 0,
          "%g %g %g", q.value[PB_QM_POP_POS], q.value[PB_QM_POP_VEL], q.value[PB_QM_POP_ACC]);
}

static void test_refusals(void)
{
    moving(&src, 1);
    moving(&dst, 2);
    moving(&out, 3);
    size_t sw[2] = { S0, S0 + 5 };
    pb_quality_window w = window(sw, 2);
    pb_quality q, q0;
    memset(&q, 0x5a, sizeof q);
    q0 = q;
    double pj[PB_QM_COUNT * J], pj0[PB_QM_COUNT * J];
    for (size_t i = 0; i < PB_QM_COUNT * J; i++) pj[i] = pj0[i] = 7;
    pb_clip other;
    CHECK(pb_clip_alloc(&other, F, J + 1, 60) == PB_OK, "alloc");
    pb_clip shorter;
    CHECK(pb_clip_alloc(&shorter, F - 1, J, 60) == PB_OK, "alloc");
    pb_quality_window b;
    REFUSE(PB_ERR_NULL, "w is NULL", pb_quality_measure(NULL, &q, pj));
    REFUSE(PB_ERR_NULL, "q is NULL", pb_quality_measure(&w, NULL, pj));
    b = w, b.dst = &other;
    REFUSE(PB_ERR_SIZE, "dst has 5 joints", pb_quality_measure(&b, &q, pj));
    b = w, b.src = &shorter;
    REFUSE(PB_ERR_SIZE, "src has 39 frames", pb_quality_measure(&b, &q, pj));
    b = w, b.out = NULL;
    REFUSE(PB_ERR_NULL, "out is NULL", pb_quality_measure(&b, &q, pj));
    b = w, b.nswitches = 0;
    REFUSE(PB_ERR_EMPTY, "no switches", pb_quality_measure(&b, &q, pj));
    size_t late[1] = { F - 1 };
    b = w, b.switches = late, b.nswitches = 1;
    REFUSE(PB_ERR_EMPTY, "1 frame(s) from switches[0]", pb_quality_measure(&b, &q, pj));
    size_t past[1] = { F };
    b = w, b.switches = past, b.nswitches = 1;
    REFUSE(PB_ERR_SIZE, "switches[0] = 40", pb_quality_measure(&b, &q, pj));
    size_t early[1] = { 2 };
    b = w, b.switches = early, b.nswitches = 1;
    REFUSE(PB_ERR_PARAM, "switches[0] = 2", pb_quality_measure(&b, &q, pj));
    size_t back[2] = { S0, S0 };
    b = w, b.switches = back;
    REFUSE(PB_ERR_PARAM, "switches[1] = 10", pb_quality_measure(&b, &q, pj));
    b = w, b.joints = 0;
    REFUSE(PB_ERR_EMPTY, "joints is 0", pb_quality_measure(&b, &q, pj));
    int32_t bad_parents[J] = { -1, 0, 2, 0 };
    b = w, b.parents = bad_parents;
    REFUSE(PB_ERR_PARAM, "parents[2] = 2", pb_quality_measure(&b, &q, pj));
    int32_t bad_foot[1] = { J };
    b = w, b.feet = bad_foot, b.nfeet = 1;
    REFUSE(PB_ERR_PARAM, "feet[0] = 4", pb_quality_measure(&b, &q, pj));
    b = w, b.nfeet = 1;
    REFUSE(PB_ERR_NULL, "feet is NULL", pb_quality_measure(&b, &q, pj));
    float lo[3 * J] = { 0 }, hi[3 * J] = { 0 };
    b = w, b.lo = lo;
    REFUSE(PB_ERR_NULL, "hi is NULL", pb_quality_measure(&b, &q, pj));
    lo[7] = 1;
    b = w, b.lo = lo, b.hi = hi;
    REFUSE(PB_ERR_PARAM, "joint 2 axis 1", pb_quality_measure(&b, &q, pj));
    b = w, b.contact_height = NAN;
    REFUSE(PB_ERR_PARAM, "contact_height", pb_quality_measure(&b, &q, pj));
    src.pose.plane[PB_POS_Y][5 * J + 2] = NAN;
    REFUSE(PB_ERR_PARAM, "src frame 5 joint 2 pos.y", pb_quality_measure(&w, &q, pj));
    src.pose.plane[PB_POS_Y][5 * J + 2] = 0;
    out.pose.plane[PB_ROT_W][7 * J + 1] = 3;
    REFUSE(PB_ERR_PARAM, "out frame 7 joint 1 rotation", pb_quality_measure(&w, &q, pj));
    out.pose.plane[PB_ROT_W][7 * J + 1] = INFINITY;
    REFUSE(PB_ERR_PARAM, "out frame 7 joint 1 rot.w", pb_quality_measure(&w, &q, pj));
    CHECK(memcmp(&q, &q0, sizeof q) == 0 && memcmp(pj, pj0, sizeof pj) == 0, "nothing written on error");
    CHECK(pb_quality_metric_name(PB_QM_COUNT) == NULL && pb_quality_metric_unit((pb_quality_metric)-1) == NULL, "names");
    pb_clip_free(&other);
    pb_clip_free(&shorter);
}

/* Seeded random windows, each broken in one random place or not at all: every call returns a status,
 * refusals write nothing and name the window, acceptances give finite values (no crash, no NaN). */
static void test_random(void)
{
    uint64_t rng = 59;
    int ok = 0, refused = 0;
    for (int it = 0; it < 400; it++) {
        moving(&src, 1 + 0.01 * it);
        moving(&dst, 2 + 0.02 * it);
        moving(&out, 3 + 0.03 * it);
        size_t sw[3] = { 3 + pb_rng_next(&rng) % 20, 0, 0 };
        sw[1] = sw[0] + 1 + pb_rng_next(&rng) % 8;
        sw[2] = sw[1] + 1 + pb_rng_next(&rng) % 8;
        int32_t pa[J] = { -1, 0, 1, 0 }, ft[2] = { 3, 2 };
        float lo[3 * J], hi[3 * J];
        for (size_t i = 0; i < 3 * J; i++) lo[i] = -0.2f * pb_rng_unit01(&rng), hi[i] = 0.2f * pb_rng_unit01(&rng);
        pb_quality_window w = { .joints = J, .parents = pa, .out = &out, .src = &src, .dst = &dst, .switches = sw,
                                .nswitches = 1 + pb_rng_next(&rng) % 3, .lo = lo, .hi = hi, .feet = ft, .nfeet = 2,
                                .contact_height = pb_rng_unit01(&rng) };
        float *cell = NULL, keep = 0;
        switch (pb_rng_next(&rng) % 8) {   /* one break, or none */
        case 0: pa[1 + pb_rng_next(&rng) % (J - 1)] = (int32_t)(pb_rng_next(&rng) % 9) - 2; break;
        case 1: ft[pb_rng_next(&rng) % 2] = (int32_t)(pb_rng_next(&rng) % 12) - 4; break;
        case 2: sw[pb_rng_next(&rng) % 3] = pb_rng_next(&rng) % (F + 4); break;
        case 3: lo[pb_rng_next(&rng) % (3 * J)] = 1; break;
        case 4: {
            pb_clip *c = pb_rng_next(&rng) % 2 ? &src : &out;
            cell = &c->pose.plane[pb_rng_next(&rng) % PB_STATIC_PLANES][pb_rng_next(&rng) % (F * J)];
            keep = *cell;
            *cell = pb_rng_next(&rng) % 2 ? NAN : 1e30f;
            break;
        }
        default: break;
        }
        pb_quality q, q0;
        memset(&q, 0x5a, sizeof q);
        q0 = q;
        pb_status st = pb_quality_measure(&w, &q, NULL);
        if (st == PB_OK) {
            ok++;
            int finite = 1;
            for (int m = 0; m < PB_QM_COUNT; m++) finite &= isfinite(q.value[m]) && q.worst[m] >= -1 && q.worst[m] < J;
            CHECK(finite, "random window %d: accepted with a value not finite or a worst joint out of range", it);
        } else {
            refused++;
            CHECK(memcmp(&q, &q0, sizeof q) == 0 && strstr(pb_last_error(), "quality window"),
                  "random window %d: refused (%s) but written, or the message does not name the window: %s", it,
                  pb_status_name(st), pb_last_error());
        }
        if (cell) *cell = keep;
    }
    CHECK(ok > 50 && refused > 50, "random windows: %d accepted, %d refused (both kinds exercised)", ok, refused);
}

int main(void)
{
    CHECK(pb_clip_alloc(&out, F, J, 60) == PB_OK && pb_clip_alloc(&src, F, J, 60) == PB_OK &&
              pb_clip_alloc(&dst, F, J, 60) == PB_OK,
          "alloc");
    test_cut();
    test_identical();
    test_overshoot();
    test_sliding_damping_settle();
    test_settle_jerk();
    test_interruption();
    test_refusals();
    test_random();
    pb_clip_free(&out);
    pb_clip_free(&src);
    pb_clip_free(&dst);
    return check_done();
}
