/* budget_quality.c — what each transition method does to the motion
 * (budget_quality.h): transitions played at 60 Hz for one character through
 * the frame pipeline, measured on world transforms (fk_static).
 * Mocap roots carry the whole body's pose, so the clips get a ground
 * trajectory joint as their root (the hips projected on the floor, yaw only),
 * as games drive characters; the destination is aligned to the source's
 * trajectory at the transition. The trajectory joint is left out of the
 * metrics (the controller drives it). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "budget_quality.h"
#include "internal.h"   /* pb_fail */
#include "qd.h"

#define PI 3.14159265358979323846

/* ---- a ground trajectory joint for mocap ------------------------------------------------ */
/* out = in with a new joint 0 (parent of every former root): the first
 * root's position on the floor (y = 0, y up) turned by its heading (the
 * yaw of its local +z axis). Former roots become its children, the legs keep their joints. */
pb_status bq_add_trajectory(const pb_scene *in, pb_scene *out)
{
    memset(out, 0, sizeof *out);
    size_t J = in->joints + 1;
    out->parents = malloc(J * sizeof *out->parents);
    if (!out->parents) return pb_fail(PB_ERR_NOMEM, "trajectory joint: out of memory");
    out->joints = J;
    out->parents[0] = -1;
    for (size_t j = 0; j < in->joints; j++) out->parents[j + 1] = in->parents[j] < 0 ? 0 : in->parents[j] + 1;
    for (int k = 0; k < 2; k++) {
        const pb_clip *ci = &in->clip[k];
        pb_clip *co = &out->clip[k];
        pb_status st = pb_clip_alloc(co, ci->frames, J, ci->fps);
        if (st != PB_OK) {
            pb_scene_free(out);
            return st;
        }
        for (size_t f = 0; f < ci->frames; f++) {
            size_t r = f * in->joints;   /* the first root: joint 0 of a BVH */
            double p[3], fwd[3];
            const double z[3] = { 0, 0, 1 };
            v3_get(&ci->pose, PB_POS_X, r, p);
            qd q = qd_get(&ci->pose, r);
            qd_rot(q, z, fwd);
            double h = atan2(fwd[0], fwd[2]);
            qd traj = { cos(0.5 * h), 0, sin(0.5 * h), 0 };
            double tp[3] = { p[0], 0, p[2] };
            size_t e0 = f * J;
            v3_set(&co->pose, PB_POS_X, e0, tp);
            qd_set(&co->pose, e0, traj);
            for (size_t j = 0; j < in->joints; j++) {
                size_t ei = f * in->joints + j, eo = f * J + j + 1;
                for (int pl = PB_POS_X; pl <= PB_SCL_Z; pl++) co->pose.plane[pl][eo] = ci->pose.plane[pl][ei];
                if (in->parents[j] < 0) {   /* a former root: now relative to the trajectory */
                    double pj[3], d[3], lp[3];
                    v3_get(&ci->pose, PB_POS_X, ei, pj);
                    for (int c = 0; c < 3; c++) d[c] = pj[c] - tp[c];
                    qd_rot(qd_conj(traj), d, lp);
                    v3_set(&co->pose, PB_POS_X, eo, lp);
                    qd_set(&co->pose, eo, qd_mul(qd_conj(traj), qd_get(&ci->pose, ei)));
                }
            }
        }
    }
    snprintf(out->name, sizeof out->name, "%.40s+trajectory", in->name);
    snprintf(out->source, sizeof out->source, "%s", in->source);
    memcpy(out->clip_name, in->clip_name, sizeof out->clip_name);
    /* the legs move one joint down with the rest (the IK does not run here; the masked transitions of
     * budget_layers.c tell the lower body from them) */
    for (int l = 0; l < 2; l++)
        for (int i = 0; i < 3; i++) out->leg[l][i] = in->leg[l][0] < 0 ? -1 : in->leg[l][i] + 1;
    snprintf(out->leg_desc, sizeof out->leg_desc, "%.200s, one joint down (the trajectory joint is 0)", in->leg_desc);
    pb_status st = pb_scene_turns(out);   /* the new clips' turns (the sample_linear_turns sampler) */
    if (st != PB_OK) pb_scene_free(out);
    return st;
}

/* World transforms of a one-character global pose. */
typedef struct world {
    double (*pos)[3];
    qd *rot;
} world;

static void world_of(const pb_pose *g, size_t J, world *w)
{
    for (size_t j = 0; j < J; j++) {
        v3_get(g, PB_POS_X, j, w->pos[j]);
        w->rot[j] = qd_get(g, j);
    }
}

/* Angular velocity taking rotation a to b over dt (world frame, shorter arc). */
static void ang_rate(qd b, qd a, double dt, double out[3])
{
    qd d = qd_mul(b, qd_conj(a));
    if (d.w < 0) d = (qd){ -d.w, -d.x, -d.y, -d.z };
    double s = sqrt(d.x * d.x + d.y * d.y + d.z * d.z), angle = 2 * atan2(s, d.w);
    double k = s > 0 ? angle / s / dt : 2 / dt;
    out[0] = d.x * k;
    out[1] = d.y * k;
    out[2] = d.z * k;
}

static double angle_between(qd a, qd b)
{
    qd d = qd_mul(qd_conj(a), b);
    return 2 * atan2(sqrt(d.x * d.x + d.y * d.y + d.z * d.z), fabs(d.w));
}

/* Peak over body joints of the change of velocity at frame 0 (frames -1, 0, 1). */
static void jumps(const pb_scene *sc, const world w[3], double dt, double *vj, double *aj)
{
    *vj = *aj = 0;
    for (size_t j = 0; j < sc->joints; j++) {
        if (sc->parents[j] < 0) continue;
        double v0[3], v1[3], w0[3], w1[3], dv = 0, dw = 0;
        for (int c = 0; c < 3; c++) {
            v0[c] = (w[1].pos[j][c] - w[0].pos[j][c]) / dt;
            v1[c] = (w[2].pos[j][c] - w[1].pos[j][c]) / dt;
        }
        ang_rate(w[1].rot[j], w[0].rot[j], dt, w0);
        ang_rate(w[2].rot[j], w[1].rot[j], dt, w1);
        for (int c = 0; c < 3; c++) {
            dv += (v1[c] - v0[c]) * (v1[c] - v0[c]);
            dw += (w1[c] - w0[c]) * (w1[c] - w0[c]);
        }
        if (sqrt(dv) > *vj) *vj = sqrt(dv);
        if (sqrt(dw) > *aj) *aj = sqrt(dw);
    }
}

/* ---- joint range ---------------------------------------------------------------------------
 * A joint's range: per axis, the smallest and largest component of its local rotation as a
 * scaled angle-axis vector relative to the rest pose (identity local rotations, as BVH
 * defines it; shorter arc) over every frame of both clips of a transition
 * (pb_clip_joint_limits: what the limited dead blendings are kept in). A pose leaves it by the
 * distance from that vector to the box (radians). */
static double range_excess(const pb_scene *sc, const pb_pose *local, const float *lo, const float *hi)
{
    double worst = 0;
    for (size_t j = 0; j < sc->joints; j++) {
        if (sc->parents[j] < 0) continue;
        double v[3], d2 = 0;
        qd_saa(qd_get(local, j), v);
        for (int a = 0; a < 3; a++) {
            double l = lo[3 * j + (size_t)a], h = hi[3 * j + (size_t)a], d = v[a] < l ? l - v[a] : v[a] > h ? v[a] - h : 0;
            d2 += d * d;
        }
        if (sqrt(d2) > worst) worst = sqrt(d2);
    }
    return worst;
}

typedef struct qsim {
    pb_frame_crowd *c;
    const pb_variant *v;
    world w[3], dst;      /* frames -1, 0, 1 of the output; the destination at the current frame */
    double align_t[3];    /* destination -> source trajectory at the transition */
    qd align_q;
    const float *lo, *hi;  /* the joint range of the transition's clips (3 per joint) */
} qsim;

static pb_status fk_into(qsim *s, const pb_pose *local, pb_pose *out)
{
    pb_call call = { .a = local, .out = out, .skel = &s->c->skel };
    pb_status st = pb_run(PB_OP_fk_static, s->v, &call);
    if (st != PB_OK) s->c->failed = "fk_static";
    return st;
}

/* The destination's roots moved by the alignment (positions, rotations and velocities). */
static void align_dst(qsim *s)
{
    pb_frame_crowd *c = s->c;
    for (size_t j = 0; j < c->sc->joints; j++) {
        if (c->sc->parents[j] >= 0) continue;
        double p[3], r[3];
        v3_get(&c->dst, PB_POS_X, j, p);
        qd_rot(s->align_q, p, r);
        for (int k = 0; k < 3; k++) r[k] += s->align_t[k];
        v3_set(&c->dst, PB_POS_X, j, r);
        qd_set(&c->dst, j, qd_mul(s->align_q, qd_get(&c->dst, j)));
        v3_get(&c->dst, PB_VEL_X, j, p);
        qd_rot(s->align_q, p, r);
        v3_set(&c->dst, PB_VEL_X, j, r);
        v3_get(&c->dst, PB_ANG_X, j, p);
        qd_rot(s->align_q, p, r);
        v3_set(&c->dst, PB_ANG_X, j, r);
    }
}

/* One transition of pair p with form f: frames -1 .. window at 60 Hz. */
static pb_status simulate(qsim *s, const bq_form *f, const bq_pair *p, bq_quality *q, double *src_vj, double *src_aj)
{
    pb_frame_crowd *c = s->c;
    const pb_scene *sc = c->sc;
    size_t J = sc->joints, body = 0;
    double dt = PB_FRAME_DT;
    int W = (int)ceil(c->duration / dt - 1e-6);
    if (W < 2) W = 2;
    for (size_t j = 0; j < J; j++) body += sc->parents[j] >= 0;
    pb_status pst = pb_frame_crowd_play(c, 0, p->from, &p->at);
    if (pst == PB_OK) pst = pb_frame_crowd_play(c, 1, p->to, &p->to_at);
    if (pst != PB_OK) {
        c->failed = "pb_crowd_builder_init";
        return pst;
    }
    pb_status st = pb_frame_sample(c, s->v, 0, -(float)dt);
    if (st == PB_OK) st = fk_into(s, &c->src, &c->global);
    if (st != PB_OK) return st;
    world_of(&c->global, J, &s->w[0]);
    double dev_cm = 0, dev_deg = 0, range = 0;
    for (int k = 0; k < W; k++) {
        float t = (float)k * (float)dt;
        st = pb_frame_sample(c, s->v, 0, t);
        if (st == PB_OK) st = pb_frame_sample(c, s->v, 1, t);
        if (st != PB_OK) return st;
        if (k == 0) {   /* align the destination's trajectory (root 0) to the source's */
            double ps[3], pd[3], rp[3];
            v3_get(&c->src, PB_POS_X, 0, ps);
            v3_get(&c->dst, PB_POS_X, 0, pd);
            s->align_q = qd_mul(qd_get(&c->src, 0), qd_conj(qd_get(&c->dst, 0)));
            qd_rot(s->align_q, pd, rp);
            for (int i = 0; i < 3; i++) s->align_t[i] = ps[i] - rp[i];
        }
        align_dst(s);
        if (k == 0 && !f->fn && (st = pb_frame_begin(c, s->v, f->m)) != PB_OK) return st;
        st = f->fn ? f->fn(c, s->v, t, f->user) : pb_frame_transition(c, s->v, f->m, t);
        if (st != PB_OK) return st;
        double ex = range_excess(sc, c->mixed, s->lo, s->hi);
        if (ex > range) range = ex;
        if ((st = fk_into(s, c->mixed, &c->global)) != PB_OK) return st;
        if ((st = fk_into(s, &c->dst, &c->local)) != PB_OK) return st;
        world_of(&c->local, J, &s->dst);
        world *out = &s->w[k < 2 ? k + 1 : 2];
        world_of(&c->global, J, out);
        for (size_t j = 0; j < J; j++) {
            if (sc->parents[j] < 0) continue;
            double d2 = 0;
            for (int i = 0; i < 3; i++) d2 += (out->pos[j][i] - s->dst.pos[j][i]) * (out->pos[j][i] - s->dst.pos[j][i]);
            dev_cm += 100 * sqrt(d2);
            dev_deg += angle_between(out->rot[j], s->dst.rot[j]) * (180 / PI);
        }
        if (k == 1) jumps(sc, s->w, dt, &q->vel_jump, &q->ang_jump);
    }
    q->dev_cm = dev_cm / ((double)W * (double)body);
    q->dev_deg = dev_deg / ((double)W * (double)body);
    q->range_deg = range * (180 / PI);
    /* the source alone over the same three frames: its own change of velocity */
    if (src_vj) {
        for (int k = 0; k < 2; k++) {
            if ((st = pb_frame_sample(c, s->v, 0, (float)k * (float)dt)) != PB_OK) return st;
            if ((st = fk_into(s, &c->src, k ? &c->global : &c->local)) != PB_OK) return st;
        }
        world_of(&c->local, J, &s->w[1]);
        world_of(&c->global, J, &s->w[2]);
        jumps(sc, s->w, dt, src_vj, src_aj);
    }
    return PB_OK;
}

pb_status bq_measure(pb_frame_crowd *c, const pb_variant *v, const pb_frame_method *methods, int nm, const bq_pair *pairs, int np,
                     bq_quality *per_pair, bq_quality *mean, double *src_vj, double *src_aj)
{
    bq_form *forms = calloc((size_t)(nm > 0 ? nm : 1), sizeof *forms);
    if (!forms) return pb_fail(PB_ERR_NOMEM, "quality: out of memory");
    for (int i = 0; i < nm; i++) forms[i].m = methods[i];
    pb_status st = bq_measure_forms(c, v, forms, nm, pairs, np, per_pair, mean, src_vj, src_aj);
    free(forms);
    return st;
}

pb_status bq_measure_forms(pb_frame_crowd *c, const pb_variant *v, const bq_form *forms, int nf, const bq_pair *pairs,
                           int np, bq_quality *per_pair, bq_quality *mean, double *src_vj, double *src_aj)
{
    size_t J = c->sc->joints;
    double *buf = malloc(sizeof(double) * J * 3 * 4 + sizeof(qd) * J * 4);
    float *range = malloc(sizeof(float) * J * 6 * (size_t)np);   /* per pair: lo, then hi */
    if (!buf || !range) {
        free(buf);
        free(range);
        return pb_fail(PB_ERR_NOMEM, "quality: out of memory");
    }
    qsim s = { .c = c, .v = v };
    qd *qb = (qd *)(buf + J * 3 * 4);
    for (int k = 0; k < 4; k++) {
        world *w = k < 3 ? &s.w[k] : &s.dst;
        w->pos = (double(*)[3])(buf + (size_t)k * J * 3);
        w->rot = qb + (size_t)k * J;
    }
    pb_status st = PB_OK;
    for (int p = 0; p < np && st == PB_OK; p++) {   /* the range depends on the pair only */
        const pb_clip *clips[2] = { &c->sc->clip[pairs[p].from], &c->sc->clip[pairs[p].to] };
        st = pb_clip_joint_limits(clips, 2, NULL, range + (size_t)p * 6 * J, range + (size_t)p * 6 * J + 3 * J);
    }
    *src_vj = *src_aj = 0;
    for (int mi = 0; mi < nf && st == PB_OK; mi++) {
        bq_quality sum = { 0, 0, 0, 0, 0 };
        for (int p = 0; p < np && st == PB_OK; p++) {
            double vj, aj;
            bq_quality *q = &per_pair[(size_t)mi * (size_t)np + (size_t)p];
            s.lo = range + (size_t)p * 6 * J;
            s.hi = s.lo + 3 * J;
            st = simulate(&s, &forms[mi], &pairs[p], q, mi == 0 ? &vj : NULL, &aj);
            if (st == PB_OK && mi == 0) {
                *src_vj += vj / np;
                *src_aj += aj / np;
            }
            sum.vel_jump += q->vel_jump / np;
            sum.ang_jump += q->ang_jump / np;
            sum.dev_cm += q->dev_cm / np;
            sum.dev_deg += q->dev_deg / np;
            sum.range_deg += q->range_deg / np;
        }
        mean[mi] = sum;
    }
    free(buf);
    free(range);
    return st;
}
