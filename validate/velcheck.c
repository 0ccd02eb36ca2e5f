/* velcheck.c — the check that does not come from the reference: every
 * velocity an op propagates must be the time derivative of the pose it
 * outputs. The double oracle is run on inputs moved along their own
 * velocities and its outputs are differenced. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"

/* ---- velocity consistency ---------------------------------------------------------------
 * Move every input by its own velocities for a time h (and alpha by
 * alpha_vel, time by h), run the oracle at t - h and t + h, and compare the
 * central differences of the outputs' pos/rot/scl with the velocities the op
 * propagated at t. In double with h = 1e-5 the difference itself is good to
 * ~1e-9, so disagreement means the velocity formulas are wrong (or, where a
 * row says so, knowingly approximate). */
/* h = 2^-17 s (7.6e-6): truncation ~h^2 |w|^3 |p| / 6 ~ 1e-7 for the generated
 * 10 rad/s and metres, and, being a power of two, time +- h and alpha +-
 * alpha_vel h stay exact in the float parameters (a step like 1e-5 rounds
 * there by ~1e-3 of itself and reads as a velocity error of that size). */
#define VEL_H PB_VAL_VEL_H

static void advance(pb_dpose *dst, const pb_dpose *src, double h)
{
    for (size_t i = 0; i < src->n_padded; i++) {
        for (int p = 0; p < PB_PLANES; p++) dst->plane[p][i] = src->plane[p][i];
        for (int c = 0; c < 3; c++) {
            dst->plane[PB_POS_X + c][i] += h * src->plane[PB_VEL_X + c][i];
            dst->plane[PB_SCL_X + c][i] *= exp(h * src->plane[PB_SVL_X + c][i]);
        }
        /* rot <- exp(ang h / 2) rot */
        double wx = src->plane[PB_ANG_X][i] * h / 2, wy = src->plane[PB_ANG_Y][i] * h / 2,
               wz = src->plane[PB_ANG_Z][i] * h / 2;
        double th = sqrt(wx * wx + wy * wy + wz * wz), sc = th > 0 ? sin(th) / th : 1;
        double ew = cos(th), ex = sc * wx, ey = sc * wy, ez = sc * wz;
        double qw = src->plane[PB_ROT_W][i], qx = src->plane[PB_ROT_X][i], qy = src->plane[PB_ROT_Y][i],
               qz = src->plane[PB_ROT_Z][i];
        dst->plane[PB_ROT_W][i] = ew * qw - ex * qx - ey * qy - ez * qz;
        dst->plane[PB_ROT_X][i] = ew * qx + ex * qw + ey * qz - ez * qy;
        dst->plane[PB_ROT_Y][i] = ew * qy - ex * qz + ey * qw + ez * qx;
        dst->plane[PB_ROT_Z][i] = ew * qz + ex * qy - ey * qx + ez * qw;
    }
}

static pb_params advance_params(const pb_op_info *info, pb_params p, double h)
{
    if (info->flags & PB_OPF_ALPHA_VEL) p.alpha += (float)(p.alpha_vel * h);
    if (info->flags & PB_OPF_TIME) p.time += (float)h;
    return p;
}

/* The look-at turn of element i: the angle between the head's axis (a's rotation applied to p->axis)
 * and the direction to the target (b.pos). */
static double turn_angle(const pb_dpose *a, const pb_dpose *b, const pb_params *p, size_t i)
{
    double ax[3] = { p->axis[0], p->axis[1], p->axis[2] }, al = sqrt(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]);
    double q[4] = { a->plane[PB_ROT_W][i], a->plane[PB_ROT_X][i], a->plane[PB_ROT_Y][i], a->plane[PB_ROT_Z][i] };
    double qn = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]), f[3], d[3];
    for (int j = 0; j < 4; j++) q[j] /= qn;
    for (int j = 0; j < 3; j++) ax[j] /= al;
    double tx = 2 * (q[2] * ax[2] - q[3] * ax[1]), ty = 2 * (q[3] * ax[0] - q[1] * ax[2]), tz = 2 * (q[1] * ax[1] - q[2] * ax[0]);
    f[0] = ax[0] + q[0] * tx + (q[2] * tz - q[3] * ty);
    f[1] = ax[1] + q[0] * ty + (q[3] * tx - q[1] * tz);
    f[2] = ax[2] + q[0] * tz + (q[1] * ty - q[2] * tx);
    for (int j = 0; j < 3; j++) d[j] = b->plane[PB_POS_X + j][i] - a->plane[PB_POS_X + j][i];
    double c[3] = { f[1] * d[2] - f[2] * d[1], f[2] * d[0] - f[0] * d[2], f[0] * d[1] - f[1] * d[0] };
    return atan2(sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]), f[0] * d[0] + f[1] * d[1] + f[2] * d[2]);
}

/* Coned look-at: the turn's rate jumps where the turn crosses the cone (clamped on one side, free on the
 * other), so a central difference straddling that instant says nothing; such elements are skipped. */
static int cone_regular(const pb_dpose *a, const pb_dpose *b, const pb_params *p, size_t i)
{
    double lo = turn_angle(&a[2], &b[2], p, i) - p->cone, hi = turn_angle(&a[3], &b[3], p, i) - p->cone;
    return (lo > 1e-9 && hi > 1e-9) || (lo < -1e-9 && hi < -1e-9);
}

/* Two-bone chains away from their singularities, where a velocity exists and
 * sampled estimates mean something: target at least 5 cm inside both reach
 * limits, swing below 150 deg (AC not nearly opposite AT: its axis flips
 * there), knee bent at least 0.1 rad. Computed from the inputs in double. */
static int chain_regular(const pb_dpose *a, const pb_dpose *t, size_t C, size_t c)
{
    double P[3][3];
    double q[4] = { a->plane[PB_ROT_W][c], a->plane[PB_ROT_X][c], a->plane[PB_ROT_Y][c], a->plane[PB_ROT_Z][c] };
    /* positions of root, mid, end (unit scales in the generated chains) */
    double acc[4] = { q[0], q[1], q[2], q[3] };
    for (int j = 0; j < 3; j++) P[0][j] = a->plane[PB_POS_X + j][c];
    for (int e = 1; e < 3; e++) {
        size_t el = e * C + c;
        double v[3] = { a->plane[PB_POS_X][el], a->plane[PB_POS_Y][el], a->plane[PB_POS_Z][el] };
        double tx = 2 * (acc[2] * v[2] - acc[3] * v[1]), ty = 2 * (acc[3] * v[0] - acc[1] * v[2]),
               tz = 2 * (acc[1] * v[1] - acc[2] * v[0]);
        P[e][0] = P[e - 1][0] + v[0] + acc[0] * tx + (acc[2] * tz - acc[3] * ty);
        P[e][1] = P[e - 1][1] + v[1] + acc[0] * ty + (acc[3] * tx - acc[1] * tz);
        P[e][2] = P[e - 1][2] + v[2] + acc[0] * tz + (acc[1] * ty - acc[2] * tx);
        double m[4] = { a->plane[PB_ROT_W][el], a->plane[PB_ROT_X][el], a->plane[PB_ROT_Y][el], a->plane[PB_ROT_Z][el] };
        double r[4] = { acc[0] * m[0] - acc[1] * m[1] - acc[2] * m[2] - acc[3] * m[3],
                        acc[0] * m[1] + acc[1] * m[0] + acc[2] * m[3] - acc[3] * m[2],
                        acc[0] * m[2] - acc[1] * m[3] + acc[2] * m[0] + acc[3] * m[1],
                        acc[0] * m[3] + acc[1] * m[2] - acc[2] * m[1] + acc[3] * m[0] };
        memcpy(acc, r, sizeof acc);
    }
    double ab[3], cb[3], ac[3], at[3], lab = 0, lcb = 0, lac = 0, lat = 0, dot = 0, knee = 0;
    for (int j = 0; j < 3; j++) {
        ab[j] = P[1][j] - P[0][j]; cb[j] = P[2][j] - P[1][j]; ac[j] = P[2][j] - P[0][j];
        at[j] = t->plane[PB_POS_X + j][2 * C + c] - P[0][j];
        lab += ab[j] * ab[j]; lcb += cb[j] * cb[j]; lac += ac[j] * ac[j]; lat += at[j] * at[j];
        dot += ac[j] * at[j]; knee -= ab[j] * cb[j];
    }
    lab = sqrt(lab); lcb = sqrt(lcb); lac = sqrt(lac); lat = sqrt(lat);
    if (lab < 1e-3 || lcb < 1e-3 || lat < 1e-3) return 0;
    double knee_angle = acos(fmax(-1, fmin(1, knee / (lab * lcb))));   /* interior; pi = straight */
    return lat > fabs(lab - lcb) + 0.05 && lat < lab + lcb - 0.05 && dot / (lac * lat) > cos(150 * 3.14159265358979 / 180) &&
           knee_angle < 3.14159265358979 - 0.1;
}

/* ---- foot IK characters away from their kinks (reference/foot.h's rules, in double) ------- */
typedef struct { double p[3], q[4]; } dtf;   /* a transform without scale (the generators' are 1) */
static dtf dtf_ld(const pb_dpose *a, size_t e)
{
    dtf t = { { a->plane[PB_POS_X][e], a->plane[PB_POS_Y][e], a->plane[PB_POS_Z][e] },
              { a->plane[PB_ROT_W][e], a->plane[PB_ROT_X][e], a->plane[PB_ROT_Y][e], a->plane[PB_ROT_Z][e] } };
    return t;
}
static void d_rotate(const double q[4], const double v[3], double o[3])
{
    double tx = 2 * (q[2] * v[2] - q[3] * v[1]), ty = 2 * (q[3] * v[0] - q[1] * v[2]), tz = 2 * (q[1] * v[1] - q[2] * v[0]);
    o[0] = v[0] + q[0] * tx + (q[2] * tz - q[3] * ty);
    o[1] = v[1] + q[0] * ty + (q[3] * tx - q[1] * tz);
    o[2] = v[2] + q[0] * tz + (q[1] * ty - q[2] * tx);
}
static dtf dtf_mul(dtf a, dtf b)
{
    dtf r;
    d_rotate(a.q, b.p, r.p);
    for (int j = 0; j < 3; j++) r.p[j] += a.p[j];
    const double *p = a.q, *q = b.q;
    r.q[0] = p[0] * q[0] - p[1] * q[1] - p[2] * q[2] - p[3] * q[3];
    r.q[1] = p[0] * q[1] + p[1] * q[0] + p[2] * q[3] - p[3] * q[2];
    r.q[2] = p[0] * q[2] - p[1] * q[3] + p[2] * q[0] + p[3] * q[1];
    r.q[3] = p[0] * q[3] + p[1] * q[2] - p[2] * q[1] + p[3] * q[0];
    return r;
}
static double d_dot(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static double d_dist(const double *a, const double *b)
{
    double d[3] = { a[0] - b[0], a[1] - b[1], a[2] - b[2] };
    return sqrt(d_dot(d, d));
}

/* Character c is regular when the drop's binding leg is clear (both legs' wanted drops 2 cm apart, or all
 * 2 cm below 0: the max and the clamp at 0 have kinks), each target is 2 cm inside the reach across
 * (else the drop switches formula) and 5 cm inside the other leg's limits, the input knees are bent at
 * least 0.05 rad (their bend plane), the swings are below 150 deg, and the foot's up axis is not nearly
 * opposite its normal (the turn's axis flips there). */
static int foot_regular(const pb_dpose *a, const pb_dpose *b, const pb_params *p, size_t C, size_t c)
{
    double ax[3] = { p->axis[0], p->axis[1], p->axis[2] }, al = sqrt(d_dot(ax, ax)), want[2], T[2][3], H[2][3];
    double lab[2], lcb[2], ac[2][3], side[2], reach[2];
    dtf pel = dtf_ld(a, c);
    for (int s = 0; s < 2; s++) {
        size_t e = (size_t)(1 + 3 * s) * C + c;
        dtf hip = dtf_mul(pel, dtf_ld(a, e)), knee = dtf_mul(hip, dtf_ld(a, e + C)), ank = dtf_mul(knee, dtf_ld(a, e + 2 * C));
        double n[3] = { b->plane[PB_POS_X][e + C], b->plane[PB_POS_Y][e + C], b->plane[PB_POS_Z][e + C] }, nl = sqrt(d_dot(n, n));
        double g[3] = { b->plane[PB_POS_X][e + 2 * C], b->plane[PB_POS_Y][e + 2 * C], b->plane[PB_POS_Z][e + 2 * C] };
        if (!(nl > 1e-3)) return 0;
        double ab[3], cb[3], gd[3], up[3], axn[3] = { ax[0] / al, ax[1] / al, ax[2] / al };
        for (int j = 0; j < 3; j++) {
            n[j] /= nl;
            ab[j] = knee.p[j] - hip.p[j]; cb[j] = ank.p[j] - knee.p[j]; ac[s][j] = ank.p[j] - hip.p[j];
            gd[j] = ank.p[j] - g[j];
            H[s][j] = hip.p[j];
        }
        double off = d_dot(gd, n);
        for (int j = 0; j < 3; j++) T[s][j] = ank.p[j] - n[j] * off;
        lab[s] = sqrt(d_dot(ab, ab)); lcb[s] = sqrt(d_dot(cb, cb));
        if (lab[s] < 1e-3 || lcb[s] < 1e-3) return 0;
        if (d_dot(ab, cb) / (lab[s] * lcb[s]) > cos(0.05)) return 0;   /* knee (nearly) straight: no bend plane */
        d_rotate(ank.q, axn, up);
        if (d_dot(up, n) < -0.9) return 0;
        reach[s] = 0.9998 * (lab[s] + lcb[s]);
        double v[3] = { H[s][0] - T[s][0], H[s][1] - T[s][1], H[s][2] - T[s][2] };
        side[s] = sqrt(v[0] * v[0] + v[2] * v[2]);
        want[s] = v[1] - sqrt(fmax(0, reach[s] * reach[s] - side[s] * side[s]));
    }
    double top = fmax(want[0], want[1]), d = fmax(0, top);
    if (!(top < -0.02 || (top > 0.02 && fabs(want[0] - want[1]) > 0.02))) return 0;
    for (int s = 0; s < 2; s++) {
        if (side[s] > reach[s] - 0.02) return 0;
        H[s][1] -= d;
        double lat = d_dist(H[s], T[s]), at[3] = { T[s][0] - H[s][0], T[s][1] - H[s][1], T[s][2] - H[s][2] };
        int binding = d > 0 && want[s] == top;
        if (lat < fabs(lab[s] - lcb[s]) + 0.05 || (!binding && lat > lab[s] + lcb[s] - 0.05)) return 0;
        if (d_dot(ac[s], at) / (sqrt(d_dot(ac[s], ac[s])) * lat) < cos(150 * 3.14159265358979 / 180)) return 0;
    }
    return 1;
}

/* Central differences of element i's pos, ang and scale-log rates between
 * outputs hi (at t + h) and lo (at t - h): fd[0] pos, fd[1] ang, fd[2] svl. */
static void central_diff(const pb_dpose *hi, const pb_dpose *lo, size_t i, double h, double fd[3][3])
{
    for (int j = 0; j < 3; j++) {
        fd[0][j] = (hi->plane[PB_POS_X + j][i] - lo->plane[PB_POS_X + j][i]) / (2 * h);
        fd[2][j] = log(hi->plane[PB_SCL_X + j][i] / lo->plane[PB_SCL_X + j][i]) / (2 * h);
    }
    /* ang: 2 log(r(t+h) conj(r(t-h))) / 2h, shorter arc */
    double pw = hi->plane[PB_ROT_W][i], px = hi->plane[PB_ROT_X][i], py = hi->plane[PB_ROT_Y][i],
           pz = hi->plane[PB_ROT_Z][i];
    double qw = lo->plane[PB_ROT_W][i], qx = -lo->plane[PB_ROT_X][i], qy = -lo->plane[PB_ROT_Y][i],
           qz = -lo->plane[PB_ROT_Z][i];
    double rw = pw * qw - px * qx - py * qy - pz * qz, rx = pw * qx + px * qw + py * qz - pz * qy,
           ry = pw * qy - px * qz + py * qw + pz * qx, rz = pw * qz + px * qy - py * qx + pz * qw;
    if (rw < 0) { rw = -rw; rx = -rx; ry = -ry; rz = -rz; }
    double sv = sqrt(rx * rx + ry * ry + rz * rz), f = sv > 0 ? 2 * atan2(sv, rw) / sv : 2;
    fd[1][0] = f * rx / (2 * h); fd[1][1] = f * ry / (2 * h); fd[1][2] = f * rz / (2 * h);
}

/* Worst of |fd - v| / max(1, |v|) over the velocity groups the op writes (have). */
static double fd_error(double fd[3][3], double v[3][3], const int have[3])
{
    double worst = 0;
    for (int g = 0; g < 3; g++) {
        if (!have[g]) continue;
        double d2 = 0, v2 = 0;
        for (int j = 0; j < 3; j++) {
            d2 += (fd[g][j] - v[g][j]) * (fd[g][j] - v[g][j]);
            v2 += v[g][j] * v[g][j];
        }
        double e = sqrt(d2) / fmax(1.0, sqrt(v2));
        if (!(e <= worst)) worst = isnan(e) ? INFINITY : e;
    }
    return worst;
}

/* Worst relative disagreement |fd - v| / max(1, |v|) over the op's velocity outputs.
 * The differences are Richardson-extrapolated from steps h and 2h,
 * (4 D(h) - D(2h)) / 3: a central difference's truncation grows as
 * h^2 |w|^3, and real clips turn some outputs fast (a look-at whose aim is
 * nearly opposite its target swings at ~1000 rad/s: 1.3e-5 relative from
 * truncation alone at h = 7.6e-6, measured on a 56k-frame clip), while the
 * extrapolation's h^4 term stays near 1e-10 there. A wrong velocity term
 * still shows at 1e-2 .. 1. */
double pb_val_vel_consistency(pb_op op, const pb_op_info *info, pb_val_bufs *b, const pb_params *p,
                              const unsigned char *skip, int *ok)
{
    size_t n = b->oracle.n;
    pb_dpose a[4], bb[4], o[4];   /* inputs and outputs at t - h, t + h, t - 2h, t + 2h */
    double worst = 0;
    memset(a, 0, sizeof a);
    memset(bb, 0, sizeof bb);
    memset(o, 0, sizeof o);
    *ok = 0;
    for (int k = 0; k < 4; k++)
        if (pb_dpose_alloc(&a[k], b->da.n) || pb_dpose_alloc(&bb[k], b->da.n) || pb_dpose_alloc(&o[k], n)) goto out;
    /* Parameters move with exactly the same float steps in both directions
     * only approximately (alpha is a float); use h in double for inputs and
     * the param change actually applied for the division. */
    for (int k = 0; k < 4; k++) {
        double h = (k & 1 ? VEL_H : -VEL_H) * (k < 2 ? 1 : 2);
        /* inputs that are states at a fixed instant (a transition snapshot) stay put */
        advance(&a[k], &b->da, (info->flags & PB_OPF_A_FIXED) ? 0 : h);
        advance(&bb[k], &b->db, (info->flags & PB_OPF_B_FIXED) ? 0 : h);
        pb_params q = advance_params(info, *p, h);
        if (info->flags & PB_OPF_DT) q.dt = 1e-3f;
        pb_val_oracle(op, &a[k], &bb[k], &q, b, &o[k]);
    }
    *ok = 1;
    /* Ops that estimate velocities from their own samples dt apart (PB_OPF_DT with
     * PB_OPF_VELCHECK: two_bone_ik_vel) are checked with dt = 1 ms: this verifies the
     * machinery; their truncation at a frame-sized dt is a property of the method. */
    const pb_dpose *c = &b->oracle;
    pb_dpose center;
    memset(&center, 0, sizeof center);
    if ((info->flags & PB_OPF_DT) && pb_dpose_alloc(&center, n) == 0) {
        pb_params q = *p;
        q.dt = 1e-3f;
        pb_val_oracle(op, &b->da, &b->db, &q, b, &center);
        c = &center;
    }
    size_t C = n / 3;
    for (size_t i = 0; i < n; i++) {
        double d1[3][3], d2h[3][3], fd[3][3], v[3][3];
        if (skip && skip[i]) continue;   /* ill-posed: left out of every error (runner.c) */
        if ((info->flags & PB_OPF_CHAIN) && !chain_regular(&b->da, &b->db, C, i % C)) continue;
        if ((info->flags & PB_OPF_FOOT) && !foot_regular(&b->da, &b->db, p, n / 7, i % (n / 7))) continue;
        if ((info->flags & PB_OPF_CONE) && !cone_regular(a, bb, p, i)) continue;
        int have[3] = { (info->out >> PB_G_VEL) & 1, (info->out >> PB_G_ANG) & 1, (info->out >> PB_G_SVL) & 1 };
        central_diff(&o[1], &o[0], i, VEL_H, d1);
        central_diff(&o[3], &o[2], i, 2 * VEL_H, d2h);
        for (int g = 0; g < 3; g++)
            for (int j = 0; j < 3; j++) fd[g][j] = (4 * d1[g][j] - d2h[g][j]) / 3;
        for (int j = 0; j < 3; j++) {
            v[0][j] = c->plane[PB_VEL_X + j][i];
            v[1][j] = c->plane[PB_ANG_X + j][i];
            v[2][j] = c->plane[PB_SVL_X + j][i];
        }
        double e = fd_error(fd, v, have);
        if (b->per.limits && !(e <= 1e-6)) {
            /* Joint limits: the rate jumps where an axis reaches a bound (held or reflected), so
             * a central difference straddling that instant says nothing. The exact velocity
             * is then the one-sided derivative on the side away from it: second-order one-sided
             * differences (2 D(h) - D(2h) from t forward and backward) judge it instead. */
            for (int side = 0; side < 2; side++) {
                if (side == 0) {
                    central_diff(&o[1], c, i, VEL_H / 2, d1);
                    central_diff(&o[3], c, i, VEL_H, d2h);
                } else {
                    central_diff(c, &o[0], i, VEL_H / 2, d1);
                    central_diff(c, &o[2], i, VEL_H, d2h);
                }
                for (int g = 0; g < 3; g++)
                    for (int j = 0; j < 3; j++) fd[g][j] = 2 * d1[g][j] - d2h[g][j];
                double es = fd_error(fd, v, have);
                if (es < e) e = es;
            }
        }
        if (!(e <= worst)) worst = isnan(e) ? INFINITY : e;
    }
    pb_dpose_free(&center);
out:
    for (int k = 0; k < 4; k++) { pb_dpose_free(&a[k]); pb_dpose_free(&bb[k]); pb_dpose_free(&o[k]); }
    return worst;
}
