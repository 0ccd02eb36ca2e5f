/* qd.h — the little quaternion arithmetic the CLI does outside the ops:
 * building scenes (frame.c), gathering IK results back into local poses
 * (frame.c) and the ground-trajectory root of mocap clips (budget.c). In
 * double, since none of it is timed; the ops themselves always go through
 * pb_run. Quaternions are (w, x, y, z), unit, rotating column vectors. */
#ifndef PB_CLI_QD_H
#define PB_CLI_QD_H

#include <math.h>
#include "posebench/posebench.h"

typedef struct { double w, x, y, z; } qd;

static inline qd qd_mul(qd a, qd b)
{
    return (qd){ a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                 a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w };
}
static inline qd qd_conj(qd a) { return (qd){ a.w, -a.x, -a.y, -a.z }; }
/* Unit length; the identity for a zero quaternion. */
static inline qd qd_norm(qd a)
{
    double l = sqrt(a.w * a.w + a.x * a.x + a.y * a.y + a.z * a.z);
    return l > 0 ? (qd){ a.w / l, a.x / l, a.y / l, a.z / l } : (qd){ 1, 0, 0, 0 };
}
/* Rotation by angle (rad) about a unit axis. */
static inline qd qd_axis(const double ax[3], double angle)
{
    double s = sin(0.5 * angle);
    return (qd){ cos(0.5 * angle), ax[0] * s, ax[1] * s, ax[2] * s };
}
/* out = q v q* */
static inline void qd_rot(qd q, const double v[3], double out[3])
{
    double tx = 2 * (q.y * v[2] - q.z * v[1]), ty = 2 * (q.z * v[0] - q.x * v[2]), tz = 2 * (q.x * v[1] - q.y * v[0]);
    out[0] = v[0] + q.w * tx + (q.y * tz - q.z * ty);
    out[1] = v[1] + q.w * ty + (q.z * tx - q.x * tz);
    out[2] = v[2] + q.w * tz + (q.x * ty - q.y * tx);
}

/* The scaled angle-axis vector of q (2 log q, angle x axis), shorter arc. */
static inline void qd_saa(qd q, double v[3])
{
    if (q.w < 0) q = (qd){ -q.w, -q.x, -q.y, -q.z };
    double s = sqrt(q.x * q.x + q.y * q.y + q.z * q.z), k = s > 0 ? 2 * atan2(s, q.w) / s : 2;
    v[0] = q.x * k;
    v[1] = q.y * k;
    v[2] = q.z * k;
}

/* Element i of a pose's rotation planes; qd_set stores it normalized. */
static inline qd qd_get(const pb_pose *p, size_t i)
{
    return (qd){ p->plane[PB_ROT_W][i], p->plane[PB_ROT_X][i], p->plane[PB_ROT_Y][i], p->plane[PB_ROT_Z][i] };
}
static inline void qd_set(pb_pose *p, size_t i, qd q)
{
    q = qd_norm(q);
    p->plane[PB_ROT_W][i] = (float)q.w;
    p->plane[PB_ROT_X][i] = (float)q.x;
    p->plane[PB_ROT_Y][i] = (float)q.y;
    p->plane[PB_ROT_Z][i] = (float)q.z;
}
/* Element i of the three planes starting at `first` (PB_POS_X, PB_VEL_X, ...). */
static inline void v3_get(const pb_pose *p, int first, size_t i, double v[3])
{
    for (int c = 0; c < 3; c++) v[c] = p->plane[first + c][i];
}
static inline void v3_set(pb_pose *p, int first, size_t i, const double v[3])
{
    for (int c = 0; c < 3; c++) p->plane[first + c][i] = (float)v[c];
}

#endif
