/* budget.c — `posebench budget`: which transition method fits a per-frame
 * budget on this machine, and what each one does to the motion.
 *
 * Cost: for each method (cut as the reference, cross-fade with slerp,
 * nlerp and exact velocities, inertialization, dead blending with slerp and
 * nlerp) the per-frame CPU time of what it needs each frame — the clips it
 * samples and its transition ops — for the crowd, through the pipeline of
 * frame.c. Measured at two crowd sizes; the largest crowd within the budget
 * comes from the straight line through them (cost = fixed + per character
 * x characters), extrapolated, and is labelled as such.
 *
 * Quality, on the same methods and parameters: transitions between real
 * mocap clips (CMU 01_01 <-> 01_03 when packaged; else the synthetic clips),
 * played at 60 Hz for one character:
 *   velocity jump  the peak over body joints of |v(after) - v(before)| at the
 *                  transition frame, v the finite difference of world
 *                  transforms (fk_static) over one frame: the motion shown,
 *                  not the velocities an op reports (blend_static lerps them);
 *   deviation      the mean over the window's frames and the body joints of
 *                  the distance (cm) and angle (deg) to the destination
 *                  animation itself (how long the viewer sees something else).
 * Mocap roots carry the whole body's pose, so the clips get a ground
 * trajectory joint as their root (the hips projected on the floor, yaw only),
 * as games drive characters; the destination is aligned to the source's
 * trajectory at the transition. The trajectory joint is left out of the
 * metrics (the controller drives it). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "qd.h"

#define MAX_PAIRS 8
#define PI 3.14159265358979323846

/* ---- a ground trajectory joint for mocap ------------------------------------------------ */
/* out = in with a new joint 0 (parent of every former root): the first
 * root's position on the floor (y = 0, y up) turned by its heading (the
 * yaw of its local +z axis). Former roots become its children. */
static int add_trajectory(const pb_scene *in, pb_scene *out)
{
    memset(out, 0, sizeof *out);
    size_t J = in->joints + 1;
    out->parents = malloc(J * sizeof *out->parents);
    if (!out->parents) return -1;
    out->joints = J;
    out->parents[0] = -1;
    for (size_t j = 0; j < in->joints; j++) out->parents[j + 1] = in->parents[j] < 0 ? 0 : in->parents[j] + 1;
    for (int k = 0; k < 2; k++) {
        const pb_clip *ci = &in->clip[k];
        pb_clip *co = &out->clip[k];
        if (pb_clip_alloc(co, ci->frames, J, ci->fps) != PB_OK) {
            pb_scene_free(out);
            return -1;
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
    out->leg[0][0] = out->leg[1][0] = -1;
    snprintf(out->leg_desc, sizeof out->leg_desc, "not used");
    return 0;
}

/* ---- quality ------------------------------------------------------------------------------ */
typedef struct qpair {
    int from;        /* scene clip played before the transition */
    float at;        /* its time at the transition (s) */
    int to;          /* scene clip after */
    float to_at;
} qpair;

typedef struct quality {
    double vel_jump, ang_jump;   /* m/s, rad/s: peak over body joints */
    double dev_cm, dev_deg;      /* mean over the window and body joints */
} quality;

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

typedef struct qsim {
    pb_crowd *c;
    const pb_variant *v;
    world w[3], dst;      /* frames -1, 0, 1 of the output; the destination at the current frame */
    double align_t[3];    /* destination -> source trajectory at the transition */
    qd align_q;
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
    pb_crowd *c = s->c;
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

/* One transition of pair p with method m: frames -1 .. window at 60 Hz. */
static pb_status simulate(qsim *s, pb_tmethod m, const qpair *p, quality *q, double *src_vj, double *src_aj)
{
    pb_crowd *c = s->c;
    const pb_scene *sc = c->sc;
    size_t J = sc->joints, body = 0;
    double dt = PB_FRAME_DT;
    int W = (int)ceil(c->duration / dt - 1e-6);
    if (W < 2) W = 2;
    for (size_t j = 0; j < J; j++) body += sc->parents[j] >= 0;
    if (pb_crowd_play(c, 0, p->from, &p->at) || pb_crowd_play(c, 1, p->to, &p->to_at)) {
        c->failed = "pb_crowd_builder_init";
        return PB_ERR_PARAM;
    }
    pb_status st = pb_stage_sample(c, s->v, 0, -(float)dt);
    if (st == PB_OK) st = fk_into(s, &c->src, &c->global);
    if (st != PB_OK) return st;
    world_of(&c->global, J, &s->w[0]);
    double dev_cm = 0, dev_deg = 0;
    for (int k = 0; k < W; k++) {
        float t = (float)k * (float)dt;
        st = pb_stage_sample(c, s->v, 0, t);
        if (st == PB_OK) st = pb_stage_sample(c, s->v, 1, t);
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
        if (k == 0 && (st = pb_stage_begin(c, s->v, m)) != PB_OK) return st;
        if ((st = pb_stage_transition(c, s->v, m, t)) != PB_OK) return st;
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
    /* the source alone over the same three frames: its own change of velocity */
    if (src_vj) {
        for (int k = 0; k < 2; k++) {
            if ((st = pb_stage_sample(c, s->v, 0, (float)k * (float)dt)) != PB_OK) return st;
            if ((st = fk_into(s, &c->src, k ? &c->global : &c->local)) != PB_OK) return st;
        }
        world_of(&c->local, J, &s->w[1]);
        world_of(&c->global, J, &s->w[2]);
        jumps(sc, s->w, dt, src_vj, src_aj);
    }
    return PB_OK;
}

/* ---- the command ----------------------------------------------------------------------------- */
static const pb_tmethod methods[] = { PB_TM_CUT, PB_TM_CROSSFADE_STATIC, PB_TM_CROSSFADE_NLERP, PB_TM_CROSSFADE,
                                      PB_TM_INERTIALIZE, PB_TM_DEAD, PB_TM_DEAD_NLERP };
#define NM ((int)(sizeof methods / sizeof methods[0]))

typedef struct mrow {
    double cost[2];          /* us per frame at the two crowd sizes */
    double spread;           /* (max - min) / median of the repetitions at the requested crowd */
    double setup_us;         /* once per transition */
    double fixed, per_char;  /* linear fit */
    double cost_at;          /* at the requested crowd (= cost[0]) */
    long max_chars, frame_max_chars;
    quality q;               /* mean over pairs (jumps: mean of each pair's peak) */
    quality pq[MAX_PAIRS];
} mrow;

static void budget_usage(FILE *f)
{
    fputs("usage: posebench budget [--budget-us US] [--characters N] [--joints N] [--variant NAME]\n"
          "                        [--sampler linear|cubic] [--duration S] [--halflife S] [--frames N] [--reps N]\n"
          "                        [--no-cmu] [--quick] [--json FILE]\n"
          "  Per transition method (cut, cross-fade slerp/nlerp/exact velocities, inertialization, dead blending\n"
          "  slerp/nlerp): the measured per-frame cost for the crowd, whether it fits the budget, the largest crowd\n"
          "  that fits; and the quality of the same transitions on real mocap (velocity jump, deviation).\n"
          "  --budget-us US   per-frame budget in microseconds (default 500)\n"
          "  --characters N   crowd size, 1..4096 (default 200); cost is also measured at twice (or half) that\n"
          "  --joints N       synthetic skeleton for the cost, 4..4096 joints (default 64)\n"
          "  --variant NAME   variant to run (default: the one dispatch picks on this CPU)\n"
          "  --duration S     transition window in seconds (default 0.3)\n"
          "  --halflife S     dead blending's extrapolation half-life in seconds (default 0.1)\n"
          "  --frames N, --reps N   timed frames per repetition (default 100; --quick 30), repetitions (5; 3)\n"
          "  --no-cmu         quality on the synthetic clips even when the CMU clips are packaged\n"
          "  --json FILE      write both tables as JSON\n", f);
}

/* Cost of one method's per-frame work (its samples + its transition) for F frames, us per frame. */
static pb_status cost_block(pb_crowd *c, const pb_variant *v, pb_tmethod m, int F, double *us)
{
    pb_status st = PB_OK;
    int two = pb_tmethod_get(m)->samples == 2;
    double t0 = pb_cpu_seconds();
    for (int k = 0; k < F && st == PB_OK; k++) {
        if (two) st = pb_stage_sample(c, v, 0, pb_crowd_clip_time(c, 0, k));
        if (st == PB_OK) st = pb_stage_sample(c, v, 1, pb_crowd_clip_time(c, 1, k));
        if (st == PB_OK) st = pb_stage_transition(c, v, m, pb_crowd_trans_time(c, k));
    }
    *us = (pb_cpu_seconds() - t0) / F * 1e6;
    return st;
}
/* The rest of the frame (same for every method): additive, legs FK, IK, FK with velocities. */
static pb_status rest_block(pb_crowd *c, const pb_variant *v, int F, double *us)
{
    pb_status st = PB_OK;
    double t0 = pb_cpu_seconds();
    for (int k = 0; k < F && st == PB_OK; k++) {
        st = pb_stage_additive(c, v);
        if (st == PB_OK) st = pb_stage_leg_fk(c, v);
        if (st == PB_OK) st = pb_stage_ik(c, v);
        if (st == PB_OK) st = pb_stage_fk(c, v);
    }
    *us = (pb_cpu_seconds() - t0) / F * 1e6;
    return st;
}

/* "cross-fade (nlerp)", "inertialization" */
static const char *method_name(pb_tmethod m, char *buf, size_t len)
{
    const pb_tmethod_info *in = pb_tmethod_get(m);
    if (strcmp(in->rot, "n/a")) snprintf(buf, len, "%s (%s)", in->method, in->rot);
    else snprintf(buf, len, "%s", in->method);
    return buf;
}

static long fit_max(double fixed, double per, double budget)
{
    if (!(per > 0)) return -1;
    double n = floor((budget - fixed) / per);
    return n < 0 ? 0 : n > 1e9 ? 1000000000L : (long)n;
}

static void jnum(FILE *f, const char *key, double v, int comma)
{
    fprintf(f, "%s\"%s\": ", comma ? ", " : "", key);
    if (isfinite(v)) fprintf(f, "%.6g", v);
    else fputs("null", f);
}

int pb_cmd_budget(int argc, char **argv)
{
    double budget = 500, duration = PB_TRANSITION_S, halflife = PB_HALFLIFE_S;
    long characters = 200, joints = 64, frames = 100, reps = 5;
    int quick = 0, no_cmu = 0, frames_set = 0, reps_set = 0;
    const char *variant = NULL, *json = NULL;
    pb_op sampler = PB_OP_sample_linear;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc, bad = 0;
        if (!strcmp(a, "--budget-us") && has) bad = pb_parse_double(argv[++i], 1e-3, 1e9, &budget);
        else if (!strcmp(a, "--characters") && has) bad = pb_parse_long(argv[++i], 1, 4096, &characters);
        else if (!strcmp(a, "--joints") && has) bad = pb_parse_long(argv[++i], 4, 4096, &joints);
        else if (!strcmp(a, "--frames") && has) {
            bad = pb_parse_long(argv[++i], 1, 1000000, &frames);
            frames_set = 1;
        } else if (!strcmp(a, "--reps") && has) {
            bad = pb_parse_long(argv[++i], 1, 1000, &reps);
            reps_set = 1;
        }
        else if (!strcmp(a, "--duration") && has) bad = pb_parse_double(argv[++i], 0.02, 10, &duration);
        else if (!strcmp(a, "--halflife") && has) bad = pb_parse_double(argv[++i], 0, 10, &halflife);
        else if (!strcmp(a, "--variant") && has) variant = argv[++i];
        else if (!strcmp(a, "--json") && has) json = argv[++i];
        else if (!strcmp(a, "--sampler") && has) {
            const char *s = argv[++i];
            if (!strcmp(s, "linear")) sampler = PB_OP_sample_linear;
            else if (!strcmp(s, "cubic")) sampler = PB_OP_sample_cubic;
            else bad = 1;
        } else if (!strcmp(a, "--quick")) quick = 1;
        else if (!strcmp(a, "--no-cmu")) no_cmu = 1;
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            budget_usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "posebench budget: unknown or incomplete option '%s'\n", a);
            budget_usage(stderr);
            return 2;
        }
        if (bad) {
            fprintf(stderr, "posebench budget: invalid value '%s' for %s (posebench budget --help)\n", argv[i], a);
            return 2;
        }
    }
    if (quick && !frames_set) frames = 30;
    if (quick && !reps_set) reps = 3;

    const pb_variant *v = NULL;
    if (variant) {
        if (pb_cli_variants(variant, &v, 1) < 0) return 2;
    } else if (pb_variant_active(&v) != PB_OK) {
        fprintf(stderr, "posebench budget: %s\n", pb_last_error());
        return 2;
    }
    FILE *jf = NULL;
    if (json && !(jf = fopen(json, "w"))) {
        fprintf(stderr, "posebench budget: cannot write %s: %s\n", json, strerror(errno));
        return 2;
    }

    /* crowd sizes for the linear fit: the one asked for and twice it (half near the top) */
    int twice = characters * 2 <= 4096 && (size_t)(characters * 2 * joints) <= PB_CROWD_MAX_ELEMENTS;
    size_t sizes[2] = { (size_t)characters, twice ? (size_t)characters * 2 : (size_t)characters / 2 };
    if (sizes[1] == sizes[0]) sizes[1] = sizes[0] + 1;
    pb_scene syn = { 0 }, cmu = { 0 }, qs = { 0 };
    pb_crowd crowd = { 0 };
    mrow rows[NM];
    memset(rows, 0, sizeof rows);
    double rest[2] = { NAN, NAN };
    int status = 0;
    double *samples = NULL;
    if (pb_scene_synthetic(&syn, (size_t)joints, 20231) != 0) {
        status = 2;
        goto out;
    }

    /* ---- cost ---- */
    samples = malloc(sizeof(double) * (size_t)reps * (NM + 1));
    if (!samples) {
        fprintf(stderr, "posebench budget: out of memory\n");
        status = 2;
        goto out;
    }
    for (int si = 0; si < 2; si++) {
        fprintf(stderr, "posebench budget: cost at %zu characters x %ld joints (%s) ...\n", sizes[si], joints,
                pb_variant_name(v));
        if (pb_crowd_init(&crowd, &syn, sizes[si], sampler) != 0) {
            status = 2;
            goto out;
        }
        crowd.duration = (float)duration;
        crowd.halflife = (float)halflife;
        pb_status st = pb_stage_sample(&crowd, v, 0, 0);
        if (st == PB_OK) st = pb_stage_sample(&crowd, v, 1, 0);
        for (int mi = 0; mi < NM && st == PB_OK; mi++) {   /* setup once per transition, validated first calls */
            double t0 = pb_cpu_seconds();
            for (long k = 0; k < frames && st == PB_OK; k++) st = pb_stage_begin(&crowd, v, methods[mi]);
            if (si == 0) rows[mi].setup_us = (pb_cpu_seconds() - t0) / (double)frames * 1e6;
        }
        /* interleave methods inside each repetition: slow drifts of the machine hit them alike */
        for (long r = 0; r < reps && st == PB_OK; r++) {
            for (int mi = 0; mi < NM && st == PB_OK; mi++) {
                if ((st = pb_stage_begin(&crowd, v, methods[mi])) != PB_OK) break;
                st = cost_block(&crowd, v, methods[mi], (int)frames, &samples[(size_t)mi * reps + r]);
            }
            if (st == PB_OK) st = pb_stage_begin(&crowd, v, PB_TM_CROSSFADE);
            if (st == PB_OK) st = pb_stage_transition(&crowd, v, PB_TM_CROSSFADE, 0.1f);
            if (st == PB_OK) st = rest_block(&crowd, v, (int)frames, &samples[(size_t)NM * reps + r]);
        }
        if (st != PB_OK) {
            fprintf(stderr, "posebench budget: %s: %s\n", crowd.failed ? crowd.failed : "?", pb_last_error());
            status = 1;
            goto out;
        }
        for (int mi = 0; mi < NM; mi++) {
            double *sm = &samples[(size_t)mi * reps];
            rows[mi].cost[si] = pb_median(sm, (int)reps);   /* sorts sm */
            if (si == 0) rows[mi].spread = rows[mi].cost[0] > 0 ? (sm[reps - 1] - sm[0]) / rows[mi].cost[0] : 0;
        }
        rest[si] = pb_median(&samples[(size_t)NM * reps], (int)reps);
        pb_crowd_free(&crowd);
    }
    double rest_per = (rest[1] - rest[0]) / ((double)sizes[1] - (double)sizes[0]);
    double rest_fixed = rest[0] - rest_per * (double)sizes[0];
    for (int mi = 0; mi < NM; mi++) {
        mrow *r = &rows[mi];
        r->per_char = (r->cost[1] - r->cost[0]) / ((double)sizes[1] - (double)sizes[0]);
        r->fixed = r->cost[0] - r->per_char * (double)sizes[0];
        r->cost_at = r->cost[0];
        r->max_chars = fit_max(r->fixed, r->per_char, budget);
        r->frame_max_chars = fit_max(r->fixed + rest_fixed, r->per_char + rest_per, budget);
    }

    /* ---- quality ---- */
    char pa[512], pbp[512];
    snprintf(pa, sizeof pa, "%s/01_01.bvh", PB_CMU_DIR);
    snprintf(pbp, sizeof pbp, "%s/01_03.bvh", PB_CMU_DIR);
    int real = 0;
    qpair pairs[MAX_PAIRS];
    int np = 0;
    if (!no_cmu && access(pa, R_OK) == 0 && access(pbp, R_OK) == 0 &&
        pb_scene_bvh(&cmu, "cmu", pa, pbp, PB_CMU_UNIT_SCALE) == 0) {
        if (add_trajectory(&cmu, &qs) != 0) {
            fprintf(stderr, "posebench budget: out of memory\n");
            status = 2;
            goto out;
        }
        real = 1;
        /* walking, jumping, turning and climbing moments of both clips, both directions */
        const qpair cp[] = { { 0, 2.0f, 1, 3.0f }, { 0, 6.0f, 1, 10.0f }, { 0, 15.0f, 1, 25.0f },
                             { 1, 5.0f, 0, 12.0f }, { 1, 20.0f, 0, 17.0f }, { 1, 32.0f, 0, 8.0f } };
        for (size_t i = 0; i < sizeof cp / sizeof cp[0]; i++) pairs[np++] = cp[i];
    } else {
        if (!no_cmu)
            fprintf(stderr, "posebench budget: no CMU clips at %s (apt-get install assimp-testmodels): quality on "
                            "the synthetic clips\n", PB_CMU_DIR);
        const qpair sp[] = { { 0, 0.3f, 1, 0.5f }, { 0, 0.8f, 1, 0.2f }, { 1, 0.4f, 0, 1.0f }, { 1, 1.1f, 0, 0.6f } };
        for (size_t i = 0; i < sizeof sp / sizeof sp[0]; i++) pairs[np++] = sp[i];
    }
    const pb_scene *qscene = real ? &qs : &syn;
    double src_vj = 0, src_aj = 0;
    {
        fprintf(stderr, "posebench budget: quality on %d transitions (%s) ...\n", np, real ? "CMU mocap" : "synthetic");
        if (pb_crowd_init(&crowd, qscene, 1, sampler) != 0) {
            status = 2;
            goto out;
        }
        crowd.duration = (float)duration;
        crowd.halflife = (float)halflife;
        size_t J = qscene->joints;
        double *buf = malloc(sizeof(double) * J * 3 * 4 + sizeof(qd) * J * 4);
        if (!buf) {
            fprintf(stderr, "posebench budget: out of memory\n");
            status = 2;
            goto out;
        }
        qsim s = { .c = &crowd, .v = v };
        qd *qb = (qd *)(buf + J * 3 * 4);
        for (int k = 0; k < 4; k++) {
            world *w = k < 3 ? &s.w[k] : &s.dst;
            w->pos = (double(*)[3])(buf + (size_t)k * J * 3);
            w->rot = qb + (size_t)k * J;
        }
        pb_status st = PB_OK;
        for (int mi = 0; mi < NM && st == PB_OK; mi++) {
            quality sum = { 0, 0, 0, 0 };
            for (int p = 0; p < np && st == PB_OK; p++) {
                double vj, aj;
                quality *q = &rows[mi].pq[p];
                st = simulate(&s, methods[mi], &pairs[p], q, mi == 0 ? &vj : NULL, &aj);
                if (st == PB_OK && mi == 0) {
                    src_vj += vj / np;
                    src_aj += aj / np;
                }
                sum.vel_jump += q->vel_jump / np;
                sum.ang_jump += q->ang_jump / np;
                sum.dev_cm += q->dev_cm / np;
                sum.dev_deg += q->dev_deg / np;
            }
            rows[mi].q = sum;
        }
        free(buf);
        if (st != PB_OK) {
            fprintf(stderr, "posebench budget: quality: %s: %s\n", crowd.failed ? crowd.failed : "?", pb_last_error());
            status = 1;
            goto out;
        }
        pb_crowd_free(&crowd);
    }

    /* ---- the tables ---- */
    const char *smp = pb_op_get(sampler)->name;
    printf("posebench budget: %.0f us per frame for %zu characters x %ld joints (%s), variant %s, %s\n", budget,
           sizes[0], joints, syn.name, pb_variant_name(v), smp);
    printf("transition window %.2f s (smoothstep weight for cross-fades and dead blending), dead-blending half-life "
           "%.2f s\n\n", duration, halflife);
    printf("COST per frame for the crowd: the clips each method samples + its transition ops (median of %ld x %ld "
           "frames, CPU time)\n", reps, frames);
    printf("%-16s %-9s %10s %7s %6s %11s %12s %6s %11s %10s\n", "method", "rotation", "us/frame", "spread", "fits",
           "max crowd*", "+rest us/fr", "fits", "max crowd*", "setup us");
    for (int mi = 0; mi < NM; mi++) {
        const pb_tmethod_info *in = pb_tmethod_get(methods[mi]);
        mrow *r = &rows[mi];
        double full = r->cost_at + rest[0];
        printf("%-16s %-9s %10.1f %6.1f%% %6s %11ld %12.1f %6s %11ld", in->method, in->rot, r->cost_at,
               100.0 * r->spread, r->cost_at <= budget ? "yes" : "NO", r->max_chars, full, full <= budget ? "yes" : "NO",
               r->frame_max_chars);
        if (in->once[0]) printf(" %10.1f\n", r->setup_us);
        else printf(" %10s\n", "-");
    }
    printf("  per frame: cut samples the destination; cross-fades sample both clips and run blend_static (slerp),\n"
           "  blend_static_nlerp (nlerp) or blend (slerp, exact velocities); inertialization samples the destination\n"
           "  and runs inertialize; dead blending samples the destination and runs dead_blending (slerp) or\n"
           "  extrapolate_decayed + blend_static_nlerp + the roots copied (nlerp). setup us: once per transition\n"
           "  (inertialize_offset; dead blending: a copy of the source pose). Every character mid-transition.\n"
           "  spread: (max - min) / median of the repetitions.\n"
           "  +rest: the same frame's additive layer, legs FK, 2-leg IK and FK with velocities: %.1f us at %zu "
           "characters.\n"
           "  * largest crowd within %.0f us: straight line through the costs measured at %zu and %zu characters,\n"
           "    extrapolated (not measured at that size).\n\n",
           rest[0], sizes[0], budget, sizes[0], sizes[1]);

    size_t body = 0;
    for (size_t j = 0; j < qscene->joints; j++) body += qscene->parents[j] >= 0;
    if (real)
        printf("QUALITY on real mocap: %d transitions between CMU 01_01 and 01_03, %zu body joints, 60 Hz, world space\n",
               np, body);
    else
        printf("QUALITY on synthetic clips (no CMU mocap packaged): %d transitions, %zu body joints, 60 Hz, world "
               "space\n", np, body);
    printf("  transitions (clip@seconds -> clip@seconds):");
    for (int p = 0; p < np; p++)
        printf("%s %s@%.1f->%s@%.1f", p ? "," : "", qscene->clip_name[pairs[p].from], (double)pairs[p].at,
               qscene->clip_name[pairs[p].to], (double)pairs[p].to_at);
    printf("\n");
    printf("%-16s %-9s %13s %15s %13s %14s\n", "method", "rotation", "vel jump m/s", "ang jump rad/s", "deviation cm",
           "deviation deg");
    for (int mi = 0; mi < NM; mi++) {
        const pb_tmethod_info *in = pb_tmethod_get(methods[mi]);
        printf("%-16s %-9s %13.3f %15.2f %13.2f %14.2f\n", in->method, in->rot, rows[mi].q.vel_jump,
               rows[mi].q.ang_jump, rows[mi].q.dev_cm, rows[mi].q.dev_deg);
    }
    printf("  jump: peak over body joints of |velocity over the frame after - over the frame before| the transition\n"
           "  frame, from world transforms (fk_static) differenced over one frame, mean over the transitions; for\n"
           "  scale, the source clip alone changes by %.3f m/s and %.2f rad/s there (its own acceleration).\n"
           "  deviation: mean over the %.2f s window and the body joints of the distance and angle to the destination\n"
           "  animation (aligned to the source's trajectory): how far the shown motion is from where it is going.\n"
           "  blend and blend_static make the same poses (they differ in the velocities they report): same quality.\n",
           src_vj, src_aj, duration);
    /* reading: the cheapest method that fits, the smoothest, the closest to the destination */
    int best_smooth = -1, best_close = -1, cheapest = -1;
    for (int mi = 1; mi < NM; mi++) {
        if (best_smooth < 0 || rows[mi].q.vel_jump < rows[best_smooth].q.vel_jump) best_smooth = mi;
        if (best_close < 0 || rows[mi].q.dev_cm < rows[best_close].q.dev_cm) best_close = mi;
        if (rows[mi].cost_at <= budget && (cheapest < 0 || rows[mi].cost_at < rows[cheapest].cost_at)) cheapest = mi;
    }
    char nm[64];
    printf("\nreading (blending methods, cut excluded):\n");
    if (cheapest >= 0)
        printf("  cheapest within %.0f us at %zu characters: %s, %.1f us; up to ~%ld characters (extrapolated)\n",
               budget, sizes[0], method_name(methods[cheapest], nm, sizeof nm), rows[cheapest].cost_at,
               rows[cheapest].max_chars);
    else {
        int c = 1;
        for (int mi = 2; mi < NM; mi++)
            if (rows[mi].cost_at < rows[c].cost_at) c = mi;
        printf("  none fits %.0f us at %zu characters: the cheapest, %s, needs %.1f us\n", budget, sizes[0],
               method_name(methods[c], nm, sizeof nm), rows[c].cost_at);
    }
    printf("  smoothest at the transition: %s, %.3f m/s velocity jump\n", method_name(methods[best_smooth], nm, sizeof nm),
           rows[best_smooth].q.vel_jump);
    printf("  closest to the destination during the window: %s, %.2f cm mean deviation\n",
           method_name(methods[best_close], nm, sizeof nm), rows[best_close].q.dev_cm);

    if (jf) {
        fputs("{\n  \"tool\": \"posebench budget\",\n  \"context\": ", jf);
        pb_cli_context_json(jf);
        fprintf(jf, ",\n  \"config\": {\"budget_us\": %.6g, \"characters\": %zu, \"joints\": %ld, \"scene\": \"%s\", "
                    "\"variant\": \"%s\", \"sampler\": \"%s\", \"duration_s\": %.6g, \"halflife_s\": %.6g, "
                    "\"frames\": %ld, \"repetitions\": %ld, \"crowd_sizes\": [%zu, %zu], \"frame_dt_s\": %.6f},\n",
                budget, sizes[0], joints, syn.name, pb_variant_name(v), smp, duration, halflife, frames, reps,
                sizes[0], sizes[1], (double)PB_FRAME_DT);
        fprintf(jf, "  \"rest_of_frame_us\": [%.3f, %.3f],\n  \"extrapolation\": \"linear through the two crowd "
                    "sizes\",\n  \"quality_source\": ", rest[0], rest[1]);
        pb_json_str(jf, real ? "cmu mocap 01_01/01_03 with a ground trajectory root" : "synthetic clips");
        fprintf(jf, ",\n  \"quality_body_joints\": %zu,\n  \"source_alone_jump\": {\"vel_ms\": %.6g, \"ang_rads\": "
                    "%.6g},\n  \"pairs\": [", body, src_vj, src_aj);
        for (int p = 0; p < np; p++) {
            fprintf(jf, "%s{\"from\": ", p ? ", " : "");
            pb_json_str(jf, qscene->clip_name[pairs[p].from]);
            fprintf(jf, ", \"at_s\": %.3f, \"to\": ", (double)pairs[p].at);
            pb_json_str(jf, qscene->clip_name[pairs[p].to]);
            fprintf(jf, ", \"to_at_s\": %.3f}", (double)pairs[p].to_at);
        }
        fputs("],\n  \"rows\": [", jf);
        for (int mi = 0; mi < NM; mi++) {
            const pb_tmethod_info *in = pb_tmethod_get(methods[mi]);
            mrow *r = &rows[mi];
            fprintf(jf, "%s\n    {\"key\": \"%s\", \"method\": \"%s\", \"rotation\": \"%s\", \"ops\": ", mi ? "," : "",
                    in->key, in->method, in->rot);
            pb_json_str(jf, in->per_frame);
            fprintf(jf, ", \"clips_sampled\": %d, \"setup_once\": ", in->samples);
            pb_json_str(jf, in->once);
            jnum(jf, "setup_us", in->once[0] ? r->setup_us : NAN, 1);
            jnum(jf, "cost_us", r->cost_at, 1);
            fprintf(jf, ", \"cost_us_at_sizes\": [%.3f, %.3f], \"cost_spread\": %.4f", r->cost[0], r->cost[1],
                    r->spread);
            jnum(jf, "fixed_us", r->fixed, 1);
            jnum(jf, "per_character_us", r->per_char, 1);
            fprintf(jf, ", \"fits\": %s, \"max_characters\": %ld", r->cost_at <= budget ? "true" : "false", r->max_chars);
            jnum(jf, "frame_us", r->cost_at + rest[0], 1);
            fprintf(jf, ", \"frame_fits\": %s, \"frame_max_characters\": %ld",
                    r->cost_at + rest[0] <= budget ? "true" : "false", r->frame_max_chars);
            jnum(jf, "vel_jump_ms", r->q.vel_jump, 1);
            jnum(jf, "ang_jump_rads", r->q.ang_jump, 1);
            jnum(jf, "dev_cm", r->q.dev_cm, 1);
            jnum(jf, "dev_deg", r->q.dev_deg, 1);
            fputs(", \"per_pair\": [", jf);
            for (int p = 0; p < np; p++) {
                fputs(p ? ", {" : "{", jf);
                jnum(jf, "vel_jump_ms", r->pq[p].vel_jump, 0);
                jnum(jf, "ang_jump_rads", r->pq[p].ang_jump, 1);
                jnum(jf, "dev_cm", r->pq[p].dev_cm, 1);
                jnum(jf, "dev_deg", r->pq[p].dev_deg, 1);
                fputc('}', jf);
            }
            fputs("]}", jf);
        }
        fputs("\n  ]\n}\n", jf);
    }
out:
    if (jf) {
        if (fclose(jf) != 0) {
            fprintf(stderr, "posebench budget: error writing %s\n", json);
            if (!status) status = 2;
        } else if (!status)
            fprintf(stderr, "posebench budget: wrote %s\n", json);
    }
    free(samples);
    pb_crowd_free(&crowd);
    pb_scene_free(&syn);
    pb_scene_free(&cmu);
    pb_scene_free(&qs);
    return status;
}
