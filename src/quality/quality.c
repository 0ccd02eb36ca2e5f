/* quality.c — pb_quality_measure (quality.h): the transition metrics of
 * docs/quality.md on a window of world poses, in double. Each metric is a
 * pass over the frames per joint; the body's reductions follow. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"   /* pb_fail */
#include "qd.h"
#include "quality_int.h"

#define PBQ_PI 3.14159265358979323846
#define PBQ_EPS 1e-9     /* keeps the ratios finite where a joint does not move (identical: exactly 1) */
#define PBQ_NEAR_M 0.01  /* settled: within 1 cm ... */
#define PBQ_NEAR_DEG 1.0 /* ... and 1 degree */

static const char *const names[PB_QM_COUNT] = { "pop_pos", "pop_vel", "pop_acc", "jerk_peak", "jerk_rms", "dev_cm",
                                                "dev_deg", "settle_s", "damping", "limit_deg_s", "slide_m" };
static const char *const units[PB_QM_COUNT] = { "m", "m/s", "m/s^2", "ratio", "ratio", "cm",
                                                "deg", "s", "ratio", "deg s", "m" };

const char *pb_quality_metric_name(pb_quality_metric m)
{
    return (unsigned)m < PB_QM_COUNT ? names[m] : NULL;
}
const char *pb_quality_metric_unit(pb_quality_metric m)
{
    return (unsigned)m < PB_QM_COUNT ? units[m] : NULL;
}

static void pos_of(const pb_clip *c, size_t f, size_t j, double p[3])
{
    v3_get(&c->pose, PB_POS_X, f * c->joints + j, p);
}

/* The n-th backward difference of joint j's position at frame f (f >= n). */
static void diff_n(const pb_clip *c, size_t f, size_t j, int n, double d[3])
{
    static const double binom[5][5] = { { 1 }, { 1, -1 }, { 1, -2, 1 }, { 1, -3, 3, -1 }, { 1, -4, 6, -4, 1 } };
    d[0] = d[1] = d[2] = 0;
    for (int i = 0; i <= n; i++) {
        double p[3];
        pos_of(c, f - (size_t)i, j, p);
        for (int k = 0; k < 3; k++) d[k] += binom[n][i] * p[k];
    }
}

static double len3(const double v[3]) { return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

static double angle_deg(qd a, qd b)
{
    qd d = qd_mul(qd_conj(a), b);
    return 2 * atan2(sqrt(d.x * d.x + d.y * d.y + d.z * d.z), fabs(d.w)) * (180 / PBQ_PI);
}

/* Pop of joint j at every switch: order k's jump |D^(k+1) out[s] - R| / dt^k, R the source's same
 * difference at the first switch, the output's own one frame earlier at an interruption. */
static void pops(const pb_quality_window *w, size_t j, double dt, double out[3])
{
    out[0] = out[1] = out[2] = 0;
    for (size_t i = 0; i < w->nswitches; i++) {
        size_t s = w->switches[i];
        for (int k = 0; k < 3; k++) {
            double a[3], r[3], d[3];
            diff_n(w->out, s, j, k + 1, a);
            if (i == 0) diff_n(w->src, s, j, k + 1, r);
            else diff_n(w->out, s - 1, j, k + 1, r);
            for (int c = 0; c < 3; c++) d[c] = a[c] - r[c];
            double v = len3(d) / pow(dt, k);
            if (v > out[k]) out[k] = v;
        }
    }
}

/* Peak and sum of squares of |jerk| (third backward difference / dt^3) of joint j in clip c over frames [f0, F). */
static void jerk(const pb_clip *c, size_t j, size_t f0, double dt, double *peak, double *sq)
{
    *peak = *sq = 0;
    for (size_t f = f0; f < c->frames; f++) {
        double d[3];
        diff_n(c, f, j, 3, d);
        double v = len3(d) / (dt * dt * dt);
        if (v > *peak) *peak = v;
        *sq += v * v;
    }
}

/* Mean speed (backward difference) of joint j in clip c over frames (f0, F). */
static double mean_speed(const pb_clip *c, size_t j, size_t f0, double dt)
{
    double s = 0;
    for (size_t f = f0 + 1; f < c->frames; f++) {
        double d[3];
        diff_n(c, f, j, 1, d);
        s += len3(d) / dt;
    }
    return s / (double)(c->frames - f0 - 1);
}

/* Joint j's local rotation in clip c at frame f (world rotations: the parent's inverse times its own). */
static qd local_rot(const pb_quality_window *w, size_t f, size_t j)
{
    size_t J = w->joints;
    qd r = qd_get(&w->out->pose, f * J + j);
    if (w->parents[j] >= 0) r = qd_mul(qd_conj(qd_get(&w->out->pose, f * J + (size_t)w->parents[j])), r);
    return r;
}

pb_status pb_quality_measure(const pb_quality_window *w, pb_quality *q, double *per_joint)
{
    pb_status st = pbq_check(w, q);
    if (st != PB_OK) return st;
    size_t J = w->joints, F = w->out->frames, s0 = w->switches[0], sl = w->switches[w->nswitches - 1];
    double dt = w->out->frame_time;
    /* per joint: the metrics, then the references the ratios divide by */
    enum { R_JP_REF = PB_QM_COUNT, R_JR_OUT, R_JR_REF, R_SPD_OUT, R_SPD_REF, R_N };
    double *pj = calloc((size_t)R_N * J, sizeof *pj);
    if (!pj) return pb_fail(PB_ERR_NOMEM, "quality: out of memory (%zu joints)", J);
#define PJ(m, j) pj[(size_t)(m) * J + (j)]
    double win = (double)(F - s0);
    for (size_t j = 0; j < J; j++) {
        double p[3];
        pops(w, j, dt, p);
        for (int k = 0; k < 3; k++) PJ(PB_QM_POP_POS + k, j) = p[k];
        double po, so, ps, ss, pd, sd;
        jerk(w->out, j, s0, dt, &po, &so);
        jerk(w->src, j, s0, dt, &ps, &ss);
        jerk(w->dst, j, s0, dt, &pd, &sd);
        PJ(PB_QM_JERK_PEAK, j) = po;
        PJ(R_JP_REF, j) = 0.5 * (ps + pd);
        PJ(PB_QM_JERK_RMS, j) = sqrt(so / win);
        PJ(R_JR_OUT, j) = so;
        PJ(R_JR_REF, j) = 0.5 * (ss + sd);
        double dev = 0, deg = 0, settle = 0;
        for (size_t f = s0; f < F; f++) {
            double a[3], b[3], d[3];
            pos_of(w->out, f, j, a);
            pos_of(w->dst, f, j, b);
            for (int c = 0; c < 3; c++) d[c] = a[c] - b[c];
            double ang = angle_deg(qd_get(&w->out->pose, f * J + j), qd_get(&w->dst->pose, f * J + j));
            dev += 100 * len3(d);
            deg += ang;
            /* not yet settled at f: settled only from f + 1 (the last frame unsettled: the whole window) */
            if (f >= sl && (len3(d) > PBQ_NEAR_M || ang > PBQ_NEAR_DEG)) settle = (double)(f + 1 - sl) * dt;
        }
        PJ(PB_QM_DEV_CM, j) = dev / win;
        PJ(PB_QM_DEV_DEG, j) = deg / win;
        PJ(PB_QM_SETTLE_S, j) = settle;
        double vo = mean_speed(w->out, j, s0, dt), vr = 0.5 * (mean_speed(w->src, j, s0, dt) + mean_speed(w->dst, j, s0, dt));
        PJ(R_SPD_OUT, j) = vo;
        PJ(R_SPD_REF, j) = vr;
        PJ(PB_QM_DAMPING, j) = (vo + PBQ_EPS) / (vr + PBQ_EPS);
        double lim = 0;
        if (w->lo)
            for (size_t f = s0; f < F; f++) {
                double v[3];
                qd_saa(local_rot(w, f, j), v);
                for (int a = 0; a < 3; a++) {
                    double lo = w->lo[3 * j + (size_t)a], hi = w->hi[3 * j + (size_t)a];
                    lim += (v[a] < lo ? lo - v[a] : v[a] > hi ? v[a] - hi : 0) * (180 / PBQ_PI) * dt;
                }
            }
        PJ(PB_QM_LIMIT_DEG_S, j) = lim;
    }
    for (size_t i = 0; i < w->nfeet; i++) {   /* feet: the output's horizontal steps between frames in contact */
        size_t j = (size_t)w->feet[i];
        double slide = 0;
        for (size_t f = s0 > 0 ? s0 : 1; f < F; f++) {
            int contact = 1;
            for (size_t g = f - 1; g <= f; g++) {
                double a[3], b[3];
                pos_of(w->src, g, j, a);
                pos_of(w->dst, g, j, b);
                contact &= a[1] < w->contact_height && b[1] < w->contact_height;
            }
            if (!contact) continue;
            double a[3], b[3];
            pos_of(w->out, f, j, a);
            pos_of(w->out, f - 1, j, b);
            slide += hypot(a[0] - b[0], a[2] - b[2]);
        }
        PJ(PB_QM_SLIDE_M, j) = slide;
    }
    /* the body */
    pb_quality r;
    for (int m = 0; m < PB_QM_COUNT; m++) {
        r.value[m] = 0;
        r.worst[m] = -1;
    }
    double n = 0, jp_out = 0, jp_ref = 0, jr_out = 0, jr_ref = 0, spd_out = 0, spd_ref = 0, worst_damp = INFINITY;
    for (size_t j = 0; j < J; j++) {
        if (w->measured && !w->measured[j]) continue;
        n++;
        for (int m = 0; m < PB_QM_COUNT; m++) {
            double v = PJ(m, j);
            if (m == PB_QM_DAMPING) {
                if (v < worst_damp) worst_damp = v, r.worst[m] = (int32_t)j;
                continue;
            }
            if (m == PB_QM_SLIDE_M && v == 0) continue;   /* not a foot, or no sliding */
            if (r.worst[m] < 0 || v > PJ(m, (size_t)r.worst[m])) r.worst[m] = (int32_t)j;
            if (m == PB_QM_DEV_CM || m == PB_QM_DEV_DEG || m == PB_QM_LIMIT_DEG_S || m == PB_QM_SLIDE_M) r.value[m] += v;
            else if (m != PB_QM_JERK_PEAK && m != PB_QM_JERK_RMS && v > r.value[m]) r.value[m] = v;
        }
        if (PJ(PB_QM_JERK_PEAK, j) > jp_out) jp_out = PJ(PB_QM_JERK_PEAK, j);
        if (PJ(R_JP_REF, j) > jp_ref) jp_ref = PJ(R_JP_REF, j);
        jr_out += PJ(R_JR_OUT, j);
        jr_ref += PJ(R_JR_REF, j);
        spd_out += PJ(R_SPD_OUT, j);
        spd_ref += PJ(R_SPD_REF, j);
    }
    if (n > 0) {
        r.value[PB_QM_DEV_CM] /= n;
        r.value[PB_QM_DEV_DEG] /= n;
        r.value[PB_QM_JERK_PEAK] = (jp_out + PBQ_EPS) / (jp_ref + PBQ_EPS);
        r.value[PB_QM_JERK_RMS] = (sqrt(jr_out) + PBQ_EPS) / (sqrt(jr_ref) + PBQ_EPS);
        r.value[PB_QM_DAMPING] = (spd_out + PBQ_EPS) / (spd_ref + PBQ_EPS);
    } else {
        r.value[PB_QM_JERK_PEAK] = r.value[PB_QM_JERK_RMS] = r.value[PB_QM_DAMPING] = 1;
    }
    for (int m = 0; m < PB_QM_COUNT; m++)   /* nothing to blame where no joint scored */
        if (m != PB_QM_DAMPING && r.worst[m] >= 0 && PJ(m, (size_t)r.worst[m]) == 0) r.worst[m] = -1;
    *q = r;
    if (per_joint) memcpy(per_joint, pj, sizeof(double) * PB_QM_COUNT * J);
#undef PJ
    free(pj);
    return PB_OK;
}
