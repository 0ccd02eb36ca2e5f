/* palette.c — set-up helpers of the skinning palettes (posebench/palette.h):
 * a BVH skeleton's rest locals and the inverse bind pose, in double. The
 * palette ops themselves are kernels (kernels/palette.h) run by pb_run. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static void set_element(pb_pose *p, size_t e, const double *v10)
{
    for (int i = 0; i < PB_STATIC_PLANES; i++) p->plane[i][e] = (float)v10[i];
    for (int i = PB_STATIC_PLANES; i < PB_PLANES; i++)
        if (p->plane[i]) p->plane[i][e] = 0.0f;
}

pb_status pb_rest_pose_from_bvh(const pb_bvh_skeleton *bvh, const pb_skeleton *skel, pb_pose *rest)
{
    if (!bvh || !bvh->offsets) return pb_fail(PB_ERR_NULL, "pb_rest_pose_from_bvh: bvh%s is NULL", bvh ? ".offsets" : "");
    if (!skel) return pb_fail(PB_ERR_NULL, "pb_rest_pose_from_bvh: skel is NULL");
    pb_status s = pb_pose_check(rest, "rest");
    if (s != PB_OK) return s;
    if (bvh->joints != skel->joints)
        return pb_fail(PB_ERR_SIZE, "pb_rest_pose_from_bvh: bvh has %zu joints, skel %zu", bvh->joints, skel->joints);
    if (rest->n != skel->n && rest->n != skel->joints)
        return pb_fail(PB_ERR_SIZE, "pb_rest_pose_from_bvh: rest has n = %zu, skel has %zu joints x %zu characters "
                       "(n must be %zu, or %zu: one per joint)", rest->n, skel->joints, skel->characters, skel->n,
                       skel->joints);
    const size_t C = rest->n == skel->n ? skel->characters : 1;
    for (size_t e = 0; e < rest->n; e++) {
        const float *o = bvh->offsets[e / C];
        const double v[PB_STATIC_PLANES] = { o[0], o[1], o[2], 1, 0, 0, 0, 1, 1, 1 };
        set_element(rest, e, v);
    }
    return PB_OK;
}

/* One kineform in double: pos, rot (w x y z), scl. */
typedef struct { double p[3], q[4], s[3]; } dkf;

static void dq_rotate(const double q[4], const double v[3], double out[3])
{
    /* v + 2w (u x v) + 2 u x (u x v) */
    double tx = 2 * (q[2] * v[2] - q[3] * v[1]), ty = 2 * (q[3] * v[0] - q[1] * v[2]), tz = 2 * (q[1] * v[1] - q[2] * v[0]);
    out[0] = v[0] + q[0] * tx + (q[2] * tz - q[3] * ty);
    out[1] = v[1] + q[0] * ty + (q[3] * tx - q[1] * tz);
    out[2] = v[2] + q[0] * tz + (q[1] * ty - q[2] * tx);
}

/* parent o child, as kform_mul: pos pp + qp (sp * pc), rot qp qc, scl sp * sc. */
static dkf dkf_mul(const dkf *a, const dkf *b)
{
    dkf r;
    double v[3] = { a->s[0] * b->p[0], a->s[1] * b->p[1], a->s[2] * b->p[2] }, w[3];
    dq_rotate(a->q, v, w);
    for (int c = 0; c < 3; c++) {
        r.p[c] = a->p[c] + w[c];
        r.s[c] = a->s[c] * b->s[c];
    }
    const double *x = a->q, *y = b->q;
    r.q[0] = x[0] * y[0] - x[1] * y[1] - x[2] * y[2] - x[3] * y[3];
    r.q[1] = x[0] * y[1] + x[1] * y[0] + x[2] * y[3] - x[3] * y[2];
    r.q[2] = x[0] * y[2] - x[1] * y[3] + x[2] * y[0] + x[3] * y[1];
    r.q[3] = x[0] * y[3] + x[1] * y[2] - x[2] * y[1] + x[3] * y[0];
    return r;
}

pb_status pb_inverse_bind_from_rest(const pb_skeleton *skel, const pb_pose *rest_local, pb_pose *inv_bind)
{
    if (!skel) return pb_fail(PB_ERR_NULL, "pb_inverse_bind_from_rest: skel is NULL");
    if (!skel->parents) return pb_fail(PB_ERR_PARAM, "pb_inverse_bind_from_rest: skel was not made by pb_skeleton_init");
    pb_status s;
    if ((s = pb_pose_check(rest_local, "rest_local")) != PB_OK || (s = pb_pose_check(inv_bind, "inv_bind")) != PB_OK)
        return s;
    /* n = skel->n (crowd layout), or one element per joint (the shared form) */
    const size_t n = rest_local->n == skel->joints ? skel->joints : skel->n, C = n == skel->n ? skel->characters : 1;
    if (rest_local->n != n || inv_bind->n != n)
        return pb_fail(PB_ERR_SIZE, "pb_inverse_bind_from_rest: %s has n = %zu, skel has %zu joints x %zu characters "
                       "(n must be %zu, or %zu for both)", rest_local->n != n ? "rest_local" : "inv_bind",
                       rest_local->n != n ? rest_local->n : inv_bind->n, skel->joints, skel->characters, skel->n,
                       skel->joints);
    for (size_t e = 0; e < n; e++)
        for (int i = 0; i < PB_STATIC_PLANES; i++) {
            float v = rest_local->plane[i][e];
            if (!isfinite(v) || (i >= PB_SCL_X && v == 0.0f))
                return pb_fail(PB_ERR_PARAM, "pb_inverse_bind_from_rest: rest_local element %zu (joint %zu) %s is %g "
                               "(must be finite%s)", e, e / C, pb_plane_name(i), (double)v,
                               i >= PB_SCL_X ? " and non-zero" : "");
        }
    /* Two passes, so that nothing is written on error and inv_bind may be
     * rest_local: globals down the hierarchy (parents precede children) in a
     * double scratch, checked, then inverted and rounded once. */
    dkf *g = malloc(n * sizeof *g);
    if (!g) return pb_fail(PB_ERR_NOMEM, "pb_inverse_bind_from_rest: out of memory (%zu elements)", n);
    for (size_t e = 0; e < n; e++) {
        dkf l;
        for (int c = 0; c < 3; c++) {
            l.p[c] = rest_local->plane[PB_POS_X + c][e];
            l.s[c] = rest_local->plane[PB_SCL_X + c][e];
        }
        for (int c = 0; c < 4; c++) l.q[c] = rest_local->plane[PB_ROT_W + c][e];
        double qn = sqrt(l.q[0] * l.q[0] + l.q[1] * l.q[1] + l.q[2] * l.q[2] + l.q[3] * l.q[3]);
        for (int c = 0; c < 4; c++) l.q[c] /= qn;   /* float inputs are unit to ~1e-7: make them exact */
        int32_t pj = skel->parents[e / C];
        g[e] = pj < 0 ? l : dkf_mul(&g[(size_t)pj * C + e % C], &l);
        for (int c = 0; c < 3; c++) {
            double sc = fabs(g[e].s[c]);
            if (!(sc >= FLT_MIN && sc <= 1 / (double)FLT_MIN)) {
                double bad = g[e].s[c];   /* read before the scratch is freed */
                free(g);
                return pb_fail(PB_ERR_PARAM, "pb_inverse_bind_from_rest: the global rest scale of element %zu (joint "
                               "%zu) is %g on %c: its inverse is not a float", e, e / C, bad, "xyz"[c]);
            }
        }
    }
    for (size_t e = 0; e < n; e++) {
        const dkf *x = &g[e];
        double qi[4] = { x->q[0], -x->q[1], -x->q[2], -x->q[3] }, w[3];
        dq_rotate(qi, x->p, w);
        double v[PB_STATIC_PLANES] = { -w[0] / x->s[0], -w[1] / x->s[1], -w[2] / x->s[2], qi[0], qi[1], qi[2], qi[3],
                                       1 / x->s[0], 1 / x->s[1], 1 / x->s[2] };
        set_element(inv_bind, e, v);
    }
    free(g);
    return PB_OK;
}
