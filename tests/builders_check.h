/* builders_check.h — the builder tests' synthetic clips (test_builders.c,
 * test_builders_tr.c): keys whose samples are known in closed form, and the
 * comparisons against them and against the sample op. */
#ifndef BUILDERS_CHECK_H
#define BUILDERS_CHECK_H
#include <math.h>
#include <string.h>
#include "check.h"
#include "posebench/posebench.h"


#define F 10       /* synthetic clip: frames */
#define J 3        /* joints */
#define FPS 10.0f

/* ---- synthetic clips and closed-form samples ---------------------------------------- */

static inline double turn_rate(size_t j) { return 0.05 * (double)(j + 1); }   /* rad per frame about z */

static inline void make_clip(pb_clip *clip, size_t frames, size_t joints, float id)
{
    pb_status s = pb_clip_alloc(clip, frames, joints, FPS);
    CHECK(s == PB_OK, "clip alloc: %s", pb_last_error());
    for (size_t f = 0; f < frames; f++)
        for (size_t j = 0; j < joints; j++) {
            size_t e = f * joints + j;
            double h = 0.5 * turn_rate(j) * (double)f;
            clip->pose.plane[PB_POS_X][e] = (float)f;
            clip->pose.plane[PB_POS_Y][e] = (float)j;
            clip->pose.plane[PB_POS_Z][e] = id;
            clip->pose.plane[PB_ROT_W][e] = (float)cos(h);
            clip->pose.plane[PB_ROT_Z][e] = (float)sin(h);
            clip->pose.plane[PB_SCL_X][e] = (float)exp((double)f / 100);
        }
}

/* Worst error of element e of a linear sample against the closed form at
 * clip time t: with keys linear in the frame, lerp / slerp about one axis /
 * eerp all give the frame position exactly, and the velocities are its rate. */
static inline double closed_form_err(const pb_pose *p, size_t e, size_t joint, float id, double t, size_t frames)
{
    double x = t * FPS, last = (double)(frames - 1);
    int inside = x >= 0 && x <= last;
    x = x < 0 ? 0 : x > last ? last : x;
    double rate = inside ? FPS : 0, h = 0.5 * turn_rate(joint) * x;
    double want[PB_PLANES] = { 0 };
    want[PB_POS_X] = x;
    want[PB_POS_Y] = (double)joint;
    want[PB_POS_Z] = id;
    want[PB_ROT_W] = cos(h);
    want[PB_ROT_Z] = sin(h);
    want[PB_SCL_X] = exp(x / 100);
    want[PB_SCL_Y] = want[PB_SCL_Z] = 1;
    want[PB_VEL_X] = rate;
    want[PB_ANG_Z] = turn_rate(joint) * rate;
    want[PB_SVL_X] = rate / 100;
    double m = 0;
    for (int q = 0; q < PB_PLANES; q++) m = dmax(m, fabs(p->plane[q][e] - want[q]) / (1 + fabs(want[q])));
    return m;
}

/* Worst difference between element ex of x and ey of y: rotations
 * sign-agnostic, everything relative to 1 + |value| (velocities of real
 * motion reach tens of units). */
static inline double elem_diff(const pb_pose *x, size_t ex, const pb_pose *y, size_t ey)
{
    double m = 0, plus = 0, minus = 0;
    for (int q = 0; q < PB_PLANES; q++) {
        double a = x->plane[q][ex], b = y->plane[q][ey];
        if (q >= PB_ROT_W && q <= PB_ROT_Z) {
            minus = dmax(minus, fabs(a - b));
            plus = dmax(plus, fabs(a + b));
        } else {
            m = dmax(m, fabs(a - b) / (1 + fabs(b)));
        }
    }
    return dmax(m, minus < plus ? minus : plus);
}

/* Sample one character of clip at time t into one (n = clip joints) with
 * the op itself: the reference a crowd element must match. */
static inline pb_status sample_one(const pb_clip *clip, pb_sample_method m, float clock, float offset, pb_pose *one)
{
    pb_call c = { .clip = clip, .offsets = &offset, .out = one, .params = { .time = clock } };
    return pb_run(m == PB_SAMPLE_CUBIC ? PB_OP_sample_cubic : PB_OP_sample_linear, NULL, &c);
}

static inline int contains(const char *s, const char *what) { return strstr(s, what) != NULL; }

#endif
