/* via.c — the via form of dead blending (call.via, Holden's slerp via; ops.h): the direction
 * states a case starts from, and the two things the form adds to the usual error rows:
 *  - where the choice between b and -b is ill-posed (b's rotation within rounding of 90
 *    degrees from the state as 4-vectors: a float dot and the oracle's double dot may differ
 *    in sign), the element is left out, as the harness's other ill-posed elements are;
 *  - everywhere else the state a run leaves must be exactly the oracle's choice: +-b.rot
 *    with the sign of the double dot (the rows' state_bad, which must be 0).
 * The rotations the choice leads to are judged by the usual metrics against the oracle, which
 * reads the same initial states (in double). */
#include "engine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Below this |dot| the sign is within reach of float rounding (a dot of unit 4-vectors errs by
 * a few 1e-8) and of the harness's nudges of b (2^-18 relative: up to ~1e-5): ill-posed. */
#define VIA_DOT_MARGIN 2e-5
#define VIA_TURN_MARGIN 0.05

pb_status pb_val_via_build(pb_val_bufs *b, uint64_t seed)
{
    size_t n = b->b.n;
    if (pb_pose_alloc(&b->via, n) != PB_OK || pb_pose_alloc(&b->via0, n) != PB_OK || pb_dpose_alloc(&b->dvia, n))
        return pb_fail(PB_ERR_NOMEM, "validate: out of memory (via states)");
    pb_gen_via(&b->via0, &b->a, &b->b, seed);
    pb_dpose_from_pose(&b->dvia, &b->via0);
    pb_val_via_reset(b);
    return PB_OK;
}

void pb_val_via_reset(pb_val_bufs *b)
{
    if (!b->via.n) return;
    for (int p = PB_ROT_W; p <= PB_ROT_Z; p++)
        memcpy(b->via.plane[p], b->via0.plane[p], b->via.stride * sizeof(float));
}

static double via_dot(const pb_val_bufs *b, size_t i)
{
    double d = 0;
    for (int p = PB_ROT_W; p <= PB_ROT_Z; p++) d += (double)b->b.plane[p][i] * b->dvia.plane[p][i];
    return d;
}

int pb_val_via_skip(const pb_val_bufs *b, const pb_params *p, unsigned char *skip)
{
    pb_dpose ext;
    if (pb_dpose_alloc(&ext, b->oracle.n)) return -1;
    pb_val_oracle(PB_OP_extrapolate_decayed, &b->da, &b->db, p, b, &ext);
    double turn = getenv("VIA_TURN") ? atof(getenv("VIA_TURN")) : VIA_TURN_MARGIN;
    double lim = -cos(turn / 2);
    for (size_t i = 0; i < b->via.n; i++) {
        double d = via_dot(b, i), s = d < 0 ? -1 : 1, c = 0;
        for (int q = PB_ROT_W; q <= PB_ROT_Z; q++) c += ext.plane[q][i] * s * b->db.plane[q][i];
        int root = b->skel && b->skel->parents[i / b->skel->characters] < 0;
        skip[i] |= !(fabs(d) >= VIA_DOT_MARGIN) || (!root && !(c >= lim));
    }
    pb_dpose_free(&ext);
    return 0;
}

size_t pb_val_via_bad(const pb_val_bufs *b, const unsigned char *skip)
{
    size_t bad = 0;
    for (size_t i = 0; i < b->via.n; i++) {
        if (skip && skip[i]) continue;
        float s = via_dot(b, i) < 0 ? -1.0f : 1.0f;
        for (int p = PB_ROT_W; p <= PB_ROT_Z; p++)
            if (b->via.plane[p][i] != s * b->b.plane[p][i]) {
                bad++;
                break;
            }
    }
    return bad;
}
