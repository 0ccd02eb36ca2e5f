/* chain_check.c — what pb_run and pb_plan_create check for the chain IK ops
 * (PB_OPF_NCHAIN: fabrik, ccd) besides the common checks of run.c: the
 * chain parameters, n a whole number of chains, and the chains themselves
 * (a zero-length or non-finite bone, a NaN or infinite target), naming the
 * first bad chain. Scanning the chains costs one pass over pos/scl, once per
 * call (a plan checks them at creation only). */
#include <math.h>
#include <stdio.h>

#include "internal.h"

pb_status pb_check_chains(const pb_op_info *info, const pb_call *c, size_t n)
{
    const pb_params *p = &c->params;
    int L = p->chain_joints;
    if (L < PB_CHAIN_MIN || L > PB_CHAIN_MAX)
        return pb_fail(PB_ERR_PARAM, "%s: chain_joints is %d (must be %d .. %d)", info->name, L, PB_CHAIN_MIN,
                       PB_CHAIN_MAX);
    if (p->iterations < 1 || p->iterations > PB_CHAIN_MAX_ITERATIONS)
        return pb_fail(PB_ERR_PARAM, "%s: iterations is %d (must be 1 .. %d)", info->name, p->iterations,
                       PB_CHAIN_MAX_ITERATIONS);
    if (!isfinite(p->tolerance) || p->tolerance < 0)
        return pb_fail(PB_ERR_PARAM, "%s: tolerance is %g (must be finite and >= 0)", info->name, (double)p->tolerance);
    if (n % (size_t)L != 0)
        return pb_fail(PB_ERR_SIZE, "%s: n = %zu is not chain_joints x chains (chain_joints = %d)", info->name, n, L);
    size_t C = n / (size_t)L;
    const float *const *a = (const float *const *)c->a->plane, *const *b = (const float *const *)c->b->plane;
    for (size_t ch = 0; ch < C; ch++) {
        size_t e = (size_t)(L - 1) * C + ch;
        float t[3] = { b[PB_POS_X][e], b[PB_POS_Y][e], b[PB_POS_Z][e] };
        if (!isfinite(t[0]) || !isfinite(t[1]) || !isfinite(t[2]))
            return pb_fail(PB_ERR_PARAM, "%s: chain %zu: its target (b.pos of element %zu) is (%g, %g, %g): must be "
                           "finite", info->name, ch, e, (double)t[0], (double)t[1], (double)t[2]);
        /* world scale of the joint before each bone: the root's times the locals' */
        double s[3] = { a[PB_SCL_X][ch], a[PB_SCL_Y][ch], a[PB_SCL_Z][ch] };
        for (int j = 1; j < L; j++) {
            size_t i = (size_t)j * C + ch;
            double v[3] = { s[0] * a[PB_POS_X][i], s[1] * a[PB_POS_Y][i], s[2] * a[PB_POS_Z][i] };
            double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
            if (!(len > 0) || !isfinite(len))
                return pb_fail(PB_ERR_PARAM, "%s: chain %zu: bone %d (joint %d to %d, element %zu) has length %g: "
                               "every bone must have a finite, non-zero length", info->name, ch, j, j - 1, j, i, len);
            s[0] *= a[PB_SCL_X][i];
            s[1] *= a[PB_SCL_Y][i];
            s[2] *= a[PB_SCL_Z][i];
        }
    }
    return PB_OK;
}
