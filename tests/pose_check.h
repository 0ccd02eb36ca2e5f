/* pose_check.h — pose helpers for the tests. How far apart two poses are, in the harness's
 * units: rotations by the angle of their relative rotation (radians, q and -q
 * the same; pb_pose_rot_angle), scales relatively, every other plane (pos and
 * the velocities) absolutely. Planes a static pose lacks are skipped. */
#ifndef PB_TEST_POSE_CHECK_H
#define PB_TEST_POSE_CHECK_H
#include <math.h>
#include <stdarg.h>
#include "check.h"
#include "validate.h"

typedef struct {
    double rot;   /* radians */
    double scl;   /* |x / y - 1| */
    double lin;   /* absolute: pos and the velocity planes */
} pose_gap;

/* Fold the gap between element i of x and element j of y into g: pos, rot,
 * scl, and the velocity planes too when rates is set. */
static inline void pose_gap_add(pose_gap *g, const pb_pose *x, size_t i, const pb_pose *y, size_t j, int rates)
{
    g->rot = dmax(g->rot, pb_pose_rot_angle(x, i, y, j));
    for (int p = 0; p < (rates ? PB_PLANES : PB_STATIC_PLANES); p++) {
        if (!x->plane[p] || !y->plane[p] || (p >= PB_ROT_W && p <= PB_ROT_Z)) continue;
        double a = x->plane[p][i], b = y->plane[p][j];
        if (p >= PB_SCL_X && p <= PB_SCL_Z) g->scl = dmax(g->scl, fabs(a / b - 1));
        else g->lin = dmax(g->lin, fabs(a - b));
    }
}

/* Every element of x against the same element of y (x->n of them). */
static inline pose_gap pose_gap_of(const pb_pose *x, const pb_pose *y)
{
    pose_gap g = { 0, 0, 0 };
    for (size_t i = 0; i < x->n; i++) pose_gap_add(&g, x, i, y, i, 1);
    return g;
}

/* All three within their bounds. */
static inline int pose_gap_within(pose_gap g, double rot, double scl, double lin)
{
    return g.rot <= rot && g.scl <= scl && g.lin <= lin;
}
/* Allocates count full poses of n elements (pb_pose * arguments); on failure
 * frees those made, counts a failed check naming the error, returns 0. */
static inline int poses_alloc(size_t n, int count, ...)
{
    va_list ap;
    pb_pose *made[16];
    int k = 0, ok = count <= 16;
    va_start(ap, count);
    for (; ok && k < count; k++) {
        made[k] = va_arg(ap, pb_pose *);
        ok = pb_pose_alloc(made[k], n) == PB_OK;
    }
    va_end(ap);
    CHECK(ok, "allocating %d poses of %zu: %s", count, n, pb_last_error());
    if (!ok)
        for (int i = 0; i < k - 1; i++) pb_pose_free(made[i]);
    return ok;
}

#define POSE_GAP_FMT "rot %.3g rad, scl %.3g rel, pos/vel %.3g"
#define POSE_GAP_ARGS(g) (g).rot, (g).scl, (g).lin
#endif
