/* gen_chain.c — generated chains for the chain IK ops (PB_OPF_NCHAIN): see
 * pb_gen_nchains in validate.h for what each class means. Geometry in
 * double, stored as float; the chain's reach is measured on the stored
 * floats' values so the out-of-reach margin holds for every implementation. */
#include <math.h>
#include "rng.h"
#include "validate.h"

typedef struct { double w, x, y, z; } gq;

static double unit(uint64_t *s) { return pb_rng_unit01d(s); }
static double span(uint64_t *s, double lo, double hi) { return lo + (hi - lo) * unit(s); }
static gq gq_mul(gq a, gq b)
{
    return (gq){ a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                 a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w };
}
static gq gq_axis_angle(uint64_t *s, double angle)
{
    double d[3];
    pb_rng_dir(s, d);
    double h = sin(angle / 2);
    return (gq){ cos(angle / 2), d[0] * h, d[1] * h, d[2] * h };
}
static void gq_rotate(gq q, const double v[3], double out[3])
{
    /* v + 2w (u x v) + 2 u x (u x v), u = vec(q) */
    double tx = 2 * (q.y * v[2] - q.z * v[1]), ty = 2 * (q.z * v[0] - q.x * v[2]), tz = 2 * (q.x * v[1] - q.y * v[0]);
    out[0] = v[0] + q.w * tx + (q.y * tz - q.z * ty);
    out[1] = v[1] + q.w * ty + (q.z * tx - q.x * tz);
    out[2] = v[2] + q.w * tz + (q.x * ty - q.y * tx);
}
static void put(pb_pose *p, size_t e, const double pos[3], gq q, const double scl[3])
{
    double l = sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
    for (int c = 0; c < 3; c++) {
        p->plane[PB_POS_X + c][e] = (float)pos[c];
        p->plane[PB_SCL_X + c][e] = (float)scl[c];
    }
    p->plane[PB_ROT_W][e] = (float)(q.w / l);
    p->plane[PB_ROT_X][e] = (float)(q.x / l);
    p->plane[PB_ROT_Y][e] = (float)(q.y / l);
    p->plane[PB_ROT_Z][e] = (float)(q.z / l);
}
static gq get_rot(const pb_pose *p, size_t e)
{
    return (gq){ p->plane[PB_ROT_W][e], p->plane[PB_ROT_X][e], p->plane[PB_ROT_Y][e], p->plane[PB_ROT_Z][e] };
}

void pb_gen_nchains(pb_pose *a, pb_pose *b, int L, pb_class c, uint64_t seed)
{
    uint64_t s = seed * 0xD1B54A32D192ED03ull + 17;
    size_t C = a->n / (size_t)L;
    static const pb_class kinds[] = { PB_CLASS_RANDOM, PB_CLASS_IDENTITY, PB_CLASS_NEAR_IDENTICAL, PB_CLASS_NEAR_PI,
                                      PB_CLASS_ANTIPODAL, PB_CLASS_DEGENERATE };
    for (size_t k = 0; k < C; k++) {
        pb_class ck = c;
        if (c == PB_CLASS_MIXED || c == PB_CLASS_IDENTICAL || c == PB_CLASS_ZERO_VEL || c == PB_CLASS_MOCAP)
            ck = c == PB_CLASS_MIXED ? kinds[pb_rng_next(&s) % 6] : PB_CLASS_RANDOM;
        int straight = ck == PB_CLASS_IDENTITY, scaled = ck == PB_CLASS_DEGENERATE;
        /* the chain: the root global, bones along the parent's -y, bent about random axes */
        double P[3], one[3] = { 1, 1, 1 };
        for (int i = 0; i < 3; i++) P[i] = span(&s, -1, 1);
        gq G = gq_axis_angle(&s, span(&s, 0, 3.14159));
        double S[3] = { 1, 1, 1 }, sc[3];
        for (int i = 0; i < 3; i++) sc[i] = scaled ? exp(span(&s, -0.69, 0.69)) : 1;
        put(a, k, P, G, sc);
        double reach = 0, longest = 0, root[3] = { P[0], P[1], P[2] };
        for (int i = 0; i < 3; i++) S[i] = a->plane[PB_SCL_X + i][k];
        G = get_rot(a, k);
        for (int j = 1; j < L; j++) {
            size_t e = (size_t)j * C + k;
            double off[3] = { 0, -span(&s, 0.05, 0.3), 0 };
            gq q = straight ? (gq){ 1, 0, 0, 0 } : gq_axis_angle(&s, span(&s, 0.05, 1.2));
            for (int i = 0; i < 3; i++) sc[i] = scaled ? exp(span(&s, -0.2, 0.2)) : 1;
            put(a, e, off, q, scaled ? sc : one);
            /* world bone from the stored floats: G (S * pos) */
            double v[3], w[3];
            for (int i = 0; i < 3; i++) v[i] = S[i] * a->plane[PB_POS_X + i][e];
            gq_rotate(G, v, w);
            for (int i = 0; i < 3; i++) {
                P[i] += w[i];
                S[i] *= a->plane[PB_SCL_X + i][e];
            }
            double len = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
            reach += len;
            longest = len > longest ? len : longest;
            G = gq_mul(G, get_rot(a, e));
        }
        /* the target: in the reachable shell (from the hole a longest bone leaves around the
         * root, plus 3 % of the reach, to 97 % of the reach), or out of reach */
        double dir[3], dist, hole = 2 * longest - reach > 0 ? 2 * longest - reach : 0;
        pb_rng_dir(&s, dir);
        if (ck == PB_CLASS_ANTIPODAL) dist = 1.001 * reach;
        else if (unit(&s) < 0.8) dist = span(&s, hole / reach + 0.03, 0.97) * reach;
        else dist = span(&s, 1.03, 1.5) * reach;
        size_t end = (size_t)(L - 1) * C + k;
        for (int i = 0; i < 3; i++) {
            double t = ck == PB_CLASS_NEAR_IDENTICAL ? P[i] : ck == PB_CLASS_NEAR_PI ? root[i] : root[i] + dir[i] * dist;
            b->plane[PB_POS_X + i][end] = (float)t;
        }
    }
}
