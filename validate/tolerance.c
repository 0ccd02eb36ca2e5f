/* tolerance.c — the one tolerance table. A variant passes a metric when its
 * worst error against the double oracle is at most max(k x the float
 * reference's own worst error on the same inputs, floor). Floors are absolute
 * and sit a little above what correctly rounded float arithmetic can reach on
 * each output; every row says why. Method error (nlerp vs slerp, fast_negexp
 * vs exp) is never folded in here: it is reported in its own column, and only
 * _est ops are judged on it, against their own looser method_bound.
 *
 * Float quantities for orientation: ulp(1) = 1.19e-7, so a unit quaternion
 * whose components are each off by half an ulp is about 1.2e-7 rad from the
 * exact rotation; a few roundings of intermediate products make 2-3e-7. */
#include <string.h>
#include "validate.h"

#define NONE (-1.0)

/* One row per op, from the op table (src/ops.def: every row's numbers and reason). */
static const pb_tolerance table[] = {
#define TOL(k, rot, norm, abs, srel, vrel, method, vel, obj) k, rot, norm, abs, srel, vrel, method, vel, obj
#define OP(name, summary, in_a, in_b, out, opt, flags, domain, method_of, tol, reason) \
    { #name, tol, reason },
#include "ops.def"
#undef OP
#undef TOL
};

const pb_tolerance *pb_tolerance_for(const char *op)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(table[i].op, op) == 0) return &table[i];
    return NULL;
}

double pb_tolerance_floor(const pb_tolerance *t, pb_metric_kind kind)
{
    switch (kind) {
    case PB_M_ROT_ANGLE: return t->rot_floor;
    case PB_M_ROT_NORM: return t->norm_floor;
    case PB_M_ROT_COMP:
    case PB_M_VEC_ABS:
    case PB_M_AOS_ABS:
    case PB_M_PAL_ABS: return t->abs_floor;
    case PB_M_OBJ_SPACE: return t->obj_floor;
    case PB_M_VEC_REL: return t->vrel_floor;
    case PB_M_SCL_REL: return t->rel_floor;
    default: return NONE;
    }
}
