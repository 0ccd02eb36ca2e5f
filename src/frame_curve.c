/* frame_curve.c — transition weight curves (posebench/curve.h): names, the one-time check, and the
 * per-frame evaluation (closed forms; the Bezier by a bracketed Newton solve of x(s) = u). */
#include <math.h>
#include <string.h>

#include "posebench/curve.h"
#include "internal.h"   /* pb_fail */

static const char *const names[PB_CURVE_COUNT] = { "smoothstep", "linear", "ease_in", "ease_out", "bezier" };

const char *pb_curve_name(pb_curve_kind k) { return (unsigned)k < PB_CURVE_COUNT ? names[k] : NULL; }

pb_curve_kind pb_curve_by_name(const char *s)
{
    for (int k = 0; s && k < PB_CURVE_COUNT; k++)
        if (!strcmp(s, names[k])) return (pb_curve_kind)k;
    return PB_CURVE_COUNT;
}

/* How many derivatives of a cubic Bezier 0, p1, p2, 1 vanish at its start, plus one: the order of
 * its first non-zero term there (1: p1 > 0, 2: p1 = 0 < p2, 3: both 0). */
static int order(float p1, float p2) { return p1 > 0 ? 1 : p2 > 0 ? 2 : 3; }

pb_status pb_curve_check(const char *who, const pb_curve *c)
{
    if (!c) return pb_fail(PB_ERR_NULL, "%s: curve is NULL", who);
    if ((unsigned)c->kind >= PB_CURVE_COUNT)
        return pb_fail(PB_ERR_PARAM, "%s: curve kind %d is not a pb_curve_kind (" PB_CURVE_NAMES ")", who, (int)c->kind);
    if (c->kind != PB_CURVE_BEZIER) return PB_OK;
    const float v[4] = { c->x1, c->y1, c->x2, c->y2 };
    static const char *const vn[4] = { "x1", "y1", "x2", "y2" };
    for (int i = 0; i < 4; i++)
        if (!(v[i] >= 0 && v[i] <= 1))   /* NaN too */
            return pb_fail(PB_ERR_PARAM, "%s: bezier control value %s is %g (must be in [0, 1]: the curve is then a "
                                         "function of time that never leaves [0, 1] nor turns back)", who, vn[i], (double)v[i]);
    const char *at = NULL;
    if (order(c->x1, c->x2) > order(c->y1, c->y2)) at = "at the start";
    else if (order(1 - c->x2, 1 - c->x1) > order(1 - c->y2, 1 - c->y1)) at = "at the end";
    else if (c->x1 == 1 && c->x2 == 0 && !(c->y1 == 1 && c->y2 == 0)) at = "at its middle (x1 = 1, x2 = 0)";
    if (at)
        return pb_fail(PB_ERR_PARAM, "%s: bezier control points (x1 %g, y1 %g, x2 %g, y2 %g) give a vertical tangent %s: "
                                     "the weight's rate would be unbounded", who, (double)c->x1, (double)c->y1,
                       (double)c->x2, (double)c->y2, at);
    return PB_OK;
}

/* A cubic Bezier 0, p1, p2, 1 at s, and its derivative. */
static double bez(double p1, double p2, double s, double *d)
{
    double r = 1 - s;
    *d = 3 * (r * r * p1 + 2 * r * s * (p2 - p1) + s * s * (1 - p2));
    return 3 * r * r * s * p1 + 3 * r * s * s * p2 + s * s * s;
}

static float bezier_eval(const pb_curve *c, double u, float *dw)
{
    double x1 = c->x1, y1 = c->y1, x2 = c->x2, y2 = c->y2;
    if (x1 == y1 && x2 == y2) {   /* y(s) = x(s): the line w = u */
        if (dw) *dw = 1.0f;
        return (float)u;
    }
    double lo = 0, hi = 1, s = u, dx, dy;
    for (int i = 0; i < 100; i++) {   /* Newton inside [lo, hi]; a bisection step where it would leave */
        double f = bez(x1, x2, s, &dx) - u;
        if (fabs(f) <= 1e-12) break;
        if (f < 0) lo = s;
        else hi = s;
        double next = dx > 0 ? s - f / dx : lo - 1;
        s = next > lo && next < hi ? next : 0.5 * (lo + hi);
        if (hi - lo <= 1e-15) break;
    }
    double y = bez(y1, y2, s, &dy);
    bez(x1, x2, s, &dx);
    if (dw) {
        if (dx > 0) *dw = (float)(dy / dx);
        else {   /* s = 0 with x1 = 0: the ratio of the first terms that do not vanish (pb_curve_check) */
            int ox = order(c->x1, c->x2), oy = order(c->y1, c->y2);
            *dw = oy > ox ? 0.0f : ox == 1 ? (float)(y1 / x1) : ox == 2 ? (float)(y2 / x2) : 1.0f;
        }
    }
    return (float)y;
}

float pb_curve_eval(const pb_curve *c, float u, float *dw)
{
    if (dw) *dw = 0.0f;
    if (!(u >= 0)) return 0.0f;   /* before the start (NaN too) */
    if (u >= 1) return 1.0f;
    float v = 1.0f - u, w, d;
    switch (c->kind) {
    case PB_CURVE_LINEAR: w = u, d = 1.0f; break;
    case PB_CURVE_EASE_IN: w = u * u, d = 2.0f * u; break;
    case PB_CURVE_EASE_OUT: w = 1.0f - v * v, d = 2.0f * v; break;
    case PB_CURVE_BEZIER: return bezier_eval(c, u, dw);
    default: w = u * u * (3.0f - 2.0f * u), d = 6.0f * u * v; break;   /* smoothstep */
    }
    if (dw) *dw = d;
    return w;
}
