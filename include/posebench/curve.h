/* curve.h — a transition's weight curve: how a cross-fade's weight w goes from 0 to 1 over its
 * window, as a function of u = time / duration (clamped to [0, 1]), with dw/du for the blend's rate
 * of change (alpha_vel = dw/du / duration). Every curve has w(0) = 0, w(1) = 1 and is
 * non-decreasing in [0, 1].
 *
 * The cubic Bezier is the timing-function kind (as CSS's cubic-bezier): the plane curve through
 * (0, 0), (x1, y1), (x2, y2), (1, 1), B(s) = (x(s), y(s)) for s in [0, 1], read as w = y(s) where
 * x(s) = u. With x1, x2 in [0, 1], x(s) is strictly increasing, so each u has one s; with y1, y2
 * in [0, 1], y(s) is non-decreasing and stays in [0, 1] (the derivative's Bernstein coefficients
 * a, b, c satisfy b >= -sqrt(a c) there). So those are the values allowed, less the few that give a
 * vertical tangent (an unbounded dw/du, which would make alpha_vel infinite): at the start
 * x1 = 0 with y1 > 0, or x1 = x2 = 0 with y2 > 0; at the end x2 = 1 with y2 < 1, or
 * x1 = x2 = 1 with y1 < 1; and (x1, x2) = (1, 0), where x'(1/2) = 0, unless y1 = 1 and y2 = 0.
 * (1/3, 1/3, 2/3, 2/3) is linear; (1/3, 0, 2/3, 1) is smoothstep. */
#ifndef POSEBENCH_CURVE_H
#define POSEBENCH_CURVE_H

#include "export.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pb_curve_kind {
    PB_CURVE_SMOOTHSTEP,   /* 3u^2 - 2u^3 (the default: a zero-initialized pb_curve is smoothstep) */
    PB_CURVE_LINEAR,       /* u: the state machine's clamp(elapsed / duration, 0, 1) */
    PB_CURVE_EASE_IN,      /* u^2: slow start */
    PB_CURVE_EASE_OUT,     /* 1 - (1 - u)^2: slow end */
    PB_CURVE_BEZIER,       /* the cubic Bezier above, control points (x1, y1), (x2, y2) */
    PB_CURVE_COUNT
} pb_curve_kind;
/* The one table of curve names, in enum order (pb_curve_name); what `posebench frame --curve` and the
 * graph JSON's "curve" read. */
#define PB_CURVE_NAMES "smoothstep|linear|ease_in|ease_out|bezier"

typedef struct pb_curve {
    pb_curve_kind kind;
    float x1, y1, x2, y2;   /* PB_CURVE_BEZIER's control points; not read by the other kinds */
} pb_curve;

PB_API const char *pb_curve_name(pb_curve_kind k);       /* "smoothstep" ... "bezier"; NULL if out of range */
PB_API pb_curve_kind pb_curve_by_name(const char *s);    /* or PB_CURVE_COUNT (s NULL or unknown) */
/* Errors (PB_ERR_NULL: c; PB_ERR_PARAM, the message beginning "who: "): the kind out of range; for
 * PB_CURVE_BEZIER a control value not finite or outside [0, 1] (naming it: x1, y1, x2 or y2), or a
 * vertical tangent (above; naming the values). */
PB_API pb_status pb_curve_check(const char *who, const pb_curve *c);
/* w(u) for u clamped to [0, 1] (NaN counts as before the start), and dw/du in *dw (may be NULL): at
 * u = 0 the rate it starts with, 0 before the start and from u = 1 on. c as pb_curve_check accepts it (not checked
 * here: the per-frame call). The Bezier's s is found by Newton steps on x(s) = u kept inside a
 * bisection bracket, in double, to 1e-12. */
PB_API float pb_curve_eval(const pb_curve *c, float u, float *dw);

#ifdef __cplusplus
}
#endif
#endif
