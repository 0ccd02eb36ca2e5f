/* budget_sets.c — playing the transition sets (budget_sets.h) through the
 * frame pipeline's transition stage, one character at 60 Hz, and scoring
 * each with pb_quality_measure. The sets themselves: budget_sets_make.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "budget_sets.h"
#include "internal.h"   /* pb_fail */
#include "qd.h"

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static pb_status fk(pb_frame_crowd *c, const pb_variant *v, const pb_pose *local)
{
    pb_call call = { .a = local, .out = &c->global, .skel = &c->skel };
    pb_status st = pb_run(PB_OP_fk_static, v, &call);
    if (st != PB_OK) c->failed = "fk_static";
    return st;
}

/* World transforms of the crowd's globals into frame f of clip w. */
static void keep(const pb_frame_crowd *c, pb_clip *w, int f)
{
    size_t J = c->sc->joints;
    for (int pl = PB_POS_X; pl <= PB_ROT_Z; pl++) memcpy(w->pose.plane[pl] + (size_t)f * J, c->global.plane[pl], J * sizeof(float));
}

pb_status bs_scene_add(bs_ctx *x, const pb_scene *sc, const char *name, int real)
{
    if (x->nscenes >= BS_MAX_SCENES) return pb_fail(PB_ERR_SIZE, "budget sets: more than %d scenes", BS_MAX_SCENES);
    bs_scene *S = &x->scenes[x->nscenes];
    memset(S, 0, sizeof *S);
    size_t J = sc->joints;
    S->sc = sc;
    S->real = real;
    snprintf(S->name, sizeof S->name, "%s", name);
    S->lo = malloc(sizeof(float) * 6 * J);
    S->measured = malloc(J);
    if (!S->lo || !S->measured) {
        free(S->lo);
        free(S->measured);
        return pb_fail(PB_ERR_NOMEM, "budget sets: out of memory");
    }
    S->hi = S->lo + 3 * J;
    for (size_t j = 0; j < J; j++) S->measured[j] = sc->parents[j] >= 0;
    const pb_clip *clips[2] = { &sc->clip[0], &sc->clip[1] };
    pb_status st = pb_clip_joint_limits(clips, 2, NULL, S->lo, S->hi);
    if (st == PB_OK) st = pb_frame_crowd_init(&S->crowd, sc, 1, x->sampler);
    if (st != PB_OK) {
        free(S->lo);
        free(S->measured);
        return st;
    }
    x->nscenes++;
    /* the feet: the legs' ends; in contact below the height they spend 30 % of the clips' frames under, + 1 cm
     * (every 4th key of both clips; mocap floors are not flat, nor an ankle's planted height constant) */
    for (int l = 0; l < 2; l++)
        if (sc->leg[l][0] >= 0) S->feet[S->nfeet++] = sc->leg[l][2];
    size_t nh = 0, cap = S->nfeet * (sc->clip[0].frames / 4 + sc->clip[1].frames / 4 + 2);
    double *h = malloc(sizeof *h * (cap ? cap : 1));
    if (!h) return pb_fail(PB_ERR_NOMEM, "budget sets: out of memory");
    pb_frame_crowd *c = &S->crowd;
    for (int k = 0; k < 2 && st == PB_OK && S->nfeet; k++)
        for (size_t f = 0; f < sc->clip[k].frames && st == PB_OK; f += 4) {
            for (int pl = 0; pl < PB_STATIC_PLANES; pl++)
                memcpy(c->local.plane[pl], sc->clip[k].pose.plane[pl] + f * J, J * sizeof(float));
            st = fk(c, x->v, &c->local);
            for (size_t i = 0; i < S->nfeet && st == PB_OK && nh < cap; i++) h[nh++] = c->global.plane[PB_POS_Y][S->feet[i]];
        }
    if (nh) {
        qsort(h, nh, sizeof *h, cmp_d);
        S->contact = (float)(h[(size_t)(0.3 * (double)(nh - 1))] + 0.01);
    }
    free(h);
    return st;
}

void bs_ctx_free(bs_ctx *x)
{
    for (int i = 0; i < x->nscenes; i++) {
        free(x->scenes[i].lo);
        free(x->scenes[i].measured);
        pb_frame_crowd_free(&x->scenes[i].crowd);
    }
    x->nscenes = 0;
}

/* ---- alignment: a destination's trajectory (joint 0) put where the motion it leaves is ---------------- */
typedef struct align {
    qd q;
    double t[3];
} align;

static void align_pose(const pb_scene *sc, pb_pose *p, const align *a)
{
    for (size_t j = 0; j < sc->joints; j++) {
        if (sc->parents[j] >= 0) continue;
        double v[3], r[3];
        v3_get(p, PB_POS_X, j, v);
        qd_rot(a->q, v, r);
        for (int k = 0; k < 3; k++) r[k] += a->t[k];
        v3_set(p, PB_POS_X, j, r);
        qd_set(p, j, qd_mul(a->q, qd_get(p, j)));
        for (int g = PB_VEL_X; g <= PB_ANG_X; g += 3) {
            v3_get(p, g, j, v);
            qd_rot(a->q, v, r);
            v3_set(p, g, j, r);
        }
    }
}

/* Segment k of t sampled at frame f into the role's pose (the role already plays it), aligned. */
static pb_status sample_seg(pb_frame_crowd *c, const pb_variant *v, const bs_trans *t, const align *A, int k, int role, int f)
{
    pb_status st = pb_frame_sample(c, v, role, (float)(f - t->start[k]) * PB_FRAME_DT);
    if (st == PB_OK) align_pose(c->sc, role ? &c->dst : &c->src, &A[k]);
    return st;
}

static pb_status play_seg(pb_frame_crowd *c, const bs_trans *t, int k, int role)
{
    pb_status st = pb_frame_crowd_play(c, role, t->clip[k], &t->at[k]);
    if (st != PB_OK) c->failed = "pb_frame_crowd_play";
    return st;
}

/* A[k]: segment k's trajectory at its switch onto segment k - 1's (aligned) there. */
static pb_status alignments(pb_frame_crowd *c, const pb_variant *v, const bs_trans *t, align *A)
{
    A[0] = (align){ { 1, 0, 0, 0 }, { 0, 0, 0 } };
    for (int k = 1; k < t->nseg; k++) {
        pb_status st = play_seg(c, t, k - 1, 1);
        if (st == PB_OK) st = sample_seg(c, v, t, A, k - 1, 1, t->start[k]);
        if (st != PB_OK) return st;
        double pt[3], pn[3], r[3];
        v3_get(&c->dst, PB_POS_X, 0, pt);
        qd qt = qd_get(&c->dst, 0);
        if ((st = play_seg(c, t, k, 1)) != PB_OK || (st = pb_frame_sample(c, v, 1, 0)) != PB_OK) return st;
        v3_get(&c->dst, PB_POS_X, 0, pn);
        A[k].q = qd_norm(qd_mul(qt, qd_conj(qd_get(&c->dst, 0))));
        qd_rot(A[k].q, pn, r);
        for (int i = 0; i < 3; i++) A[k].t[i] = pt[i] - r[i];
    }
    return PB_OK;
}

/* cur's velocities from prev, one frame earlier (finite differences; scale rates 0). */
static void velocities(pb_pose *cur, const pb_pose *prev, size_t J)
{
    double dt = PB_FRAME_DT;
    for (size_t j = 0; j < J; j++) {
        double a[3], b[3], v[3];
        v3_get(cur, PB_POS_X, j, a);
        v3_get(prev, PB_POS_X, j, b);
        for (int k = 0; k < 3; k++) v[k] = (a[k] - b[k]) / dt;
        v3_set(cur, PB_VEL_X, j, v);
        qd d = qd_mul(qd_get(cur, j), qd_conj(qd_get(prev, j)));
        qd_saa(d, v);
        for (int k = 0; k < 3; k++) v[k] /= dt;
        v3_set(cur, PB_ANG_X, j, v);
        for (int k = 0; k < 3; k++) cur->plane[PB_SVL_X + k][j] = 0;
    }
}

/* The shown pose moved on one frame by its velocities (zeroed after: frozen), into snap. */
static void snapshot(pb_pose *snap, const pb_pose *shown, size_t J, int frozen)
{
    double dt = PB_FRAME_DT;
    for (int pl = 0; pl < PB_PLANES; pl++) memcpy(snap->plane[pl], shown->plane[pl], J * sizeof(float));
    for (size_t j = 0; j < J; j++) {
        double p[3], v[3], w[3];
        v3_get(shown, PB_POS_X, j, p);
        v3_get(shown, PB_VEL_X, j, v);
        v3_get(shown, PB_ANG_X, j, w);
        for (int k = 0; k < 3; k++) p[k] += v[k] * dt;
        v3_set(snap, PB_POS_X, j, p);
        double n = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
        if (n > 0) {
            const double ax[3] = { w[0] / n, w[1] / n, w[2] / n };
            qd_set(snap, j, qd_mul(qd_axis(ax, n * dt), qd_get(shown, j)));
        }
        if (frozen)
            for (int pl = PB_VEL_X; pl < PB_PLANES; pl++) snap->plane[pl][j] = 0;
    }
}

pb_status bs_play(bs_ctx *x, pb_frame_method m, const bs_trans *t, pb_clip *out, pb_clip *src, pb_clip *dst)
{
    bs_scene *S = &x->scenes[t->scene];
    pb_frame_crowd *c = &S->crowd;
    const pb_variant *v = x->v;
    size_t J = S->sc->joints;
    int F = t->frames, L = t->nseg - 1;
    memset(out, 0, sizeof *out);
    memset(src, 0, sizeof *src);
    memset(dst, 0, sizeof *dst);
    pb_pose prev = { 0 }, now = { 0 }, snap = { 0 };
    pb_status st = pb_clip_alloc(out, (size_t)F, J, 60);
    if (st == PB_OK) st = pb_clip_alloc(src, (size_t)F, J, 60);
    if (st == PB_OK) st = pb_clip_alloc(dst, (size_t)F, J, 60);
    if (st == PB_OK) st = pb_pose_alloc(&prev, J);
    if (st == PB_OK) st = pb_pose_alloc(&snap, J);
    if (st == PB_OK) st = pb_pose_alloc(&now, J);
    if (st != PB_OK) goto done;
    out->frame_time = src->frame_time = dst->frame_time = PB_FRAME_DT;   /* the game's step, not the key rate */
    c->duration = t->duration;
    c->halflife = x->halflife;
    if ((st = pb_frame_crowd_halflife_est(c, x->hl[0], x->hl[1], x->hl[2])) != PB_OK) goto done;
    align A[BS_MAX_SEG];
    if ((st = alignments(c, v, t, A)) != PB_OK) goto done;
    /* the references: the first source and the last destination at every frame */
    if ((st = play_seg(c, t, 0, 0)) != PB_OK || (st = play_seg(c, t, L, 1)) != PB_OK) goto done;
    for (int f = 0; f < F && st == PB_OK; f++) {
        if ((st = sample_seg(c, v, t, A, 0, 0, f)) == PB_OK && (st = fk(c, v, &c->src)) == PB_OK) keep(c, src, f);
        if (st == PB_OK && (st = sample_seg(c, v, t, A, L, 1, f)) == PB_OK && (st = fk(c, v, &c->dst)) == PB_OK)
            keep(c, dst, f);
    }
    /* the method, switch after switch */
    int k = 0, cross = m == PB_FM_CROSSFADE_STATIC || m == PB_FM_CROSSFADE_NLERP || m == PB_FM_CROSSFADE;
    for (int f = 0; f < F && st == PB_OK; f++) {
        int sw = k < L && f == t->start[k + 1];
        if (sw && (st = play_seg(c, t, ++k, 1)) != PB_OK) break;
        const pb_pose *shown = &c->src;
        if (k == 0) {
            st = sample_seg(c, v, t, A, 0, 0, f);
        } else {
            st = sample_seg(c, v, t, A, k, 1, f);
            if (st == PB_OK && k == 1) st = sample_seg(c, v, t, A, 0, 0, f);
            if (st == PB_OK && k > 1) {
                if (sw) snapshot(&snap, &prev, J, cross);   /* from what is shown, not from a clip */
                for (int pl = 0; pl < PB_PLANES; pl++) memcpy(c->src.plane[pl], snap.plane[pl], J * sizeof(float));
            }
            if (st == PB_OK && sw) st = pb_frame_begin(c, v, m);
            if (st == PB_OK) st = pb_frame_transition(c, v, m, (float)(f - t->start[k]) * PB_FRAME_DT);
            shown = c->mixed;
        }
        if (st != PB_OK) break;
        /* what is shown, with its velocities as a viewer (and the next switch) sees them: over the last frame */
        for (int pl = 0; pl < PB_PLANES; pl++) memcpy(now.plane[pl], shown->plane[pl], J * sizeof(float));
        if (f > 0) velocities(&now, &prev, J);
        pb_pose tmp = prev;
        prev = now;
        now = tmp;
        if ((st = fk(c, v, shown)) == PB_OK) keep(c, out, f);
    }
done:
    pb_pose_free(&prev);
    pb_pose_free(&now);
    pb_pose_free(&snap);
    return st;
}


/* nearest-rank percentile p of sorted v[0..n) */
static double pct(const double *v, int n, double p)
{
    int i = (int)ceil(p * n) - 1;
    return v[i < 0 ? 0 : i >= n ? n - 1 : i];
}

pb_status bs_measure(bs_ctx *x, bs_set *s, const pb_frame_method *methods, int nm)
{
    if (nm > BS_MAX_METHODS) return pb_fail(PB_ERR_SIZE, "budget sets: %d methods (at most %d)", nm, BS_MAX_METHODS);
    s->nm = nm;
    if (s->nt == 0) return PB_OK;
    double (*val)[PB_QM_COUNT] = malloc(sizeof *val * (size_t)s->nt);
    int32_t (*worst)[PB_QM_COUNT] = malloc(sizeof *worst * (size_t)s->nt);
    if (!val || !worst) {
        free(val);
        free(worst);
        return pb_fail(PB_ERR_NOMEM, "budget sets: out of memory");
    }
    pb_status st = PB_OK;
    for (int mi = 0; mi < nm && st == PB_OK; mi++) {
        for (int i = 0; i < s->nt && st == PB_OK; i++) {
            const bs_trans *t = &s->t[i];
            const bs_scene *S = &x->scenes[t->scene];
            pb_clip out, src, dst;
            st = bs_play(x, methods[mi], t, &out, &src, &dst);
            if (st != PB_OK) {
                char msg[256];
                snprintf(msg, sizeof msg, "%s", pb_last_error());
                pb_fail(st, "%s set, %s, transition %d: %s: %s", s->name, pb_frame_method_get(methods[mi])->key, i,
                        S->crowd.failed ? S->crowd.failed : "?", msg);
            } else {
                size_t sw[BS_MAX_SEG];
                for (int k = 1; k < t->nseg; k++) sw[k - 1] = (size_t)t->start[k];
                pb_quality_window w = { .joints = S->sc->joints, .parents = S->sc->parents, .out = &out, .src = &src,
                                        .dst = &dst, .switches = sw, .nswitches = (size_t)(t->nseg - 1),
                                        .measured = S->measured, .lo = S->lo, .hi = S->hi, .feet = S->feet,
                                        .nfeet = S->nfeet, .contact_height = S->contact };
                pb_quality q;
                st = pb_quality_measure(&w, &q, NULL);
                if (st != PB_OK) {
                    char msg[256];
                    snprintf(msg, sizeof msg, "%s", pb_last_error());
                    pb_fail(st, "%s set, %s, transition %d: %s", s->name, pb_frame_method_get(methods[mi])->key, i, msg);
                }
                for (int m = 0; m < PB_QM_COUNT; m++) val[i][m] = s->v[mi][i][m] = q.value[m], worst[i][m] = q.worst[m];
            }
            pb_clip_free(&out);
            pb_clip_free(&src);
            pb_clip_free(&dst);
        }
        for (int m = 0; m < PB_QM_COUNT && st == PB_OK; m++) {
            double col[BS_MAX_TRANS];
            int wi = 0;
            for (int i = 0; i < s->nt; i++) {
                col[i] = val[i][m];
                if (m == PB_QM_DAMPING ? col[i] < val[wi][m] : col[i] > val[wi][m]) wi = i;
            }
            qsort(col, (size_t)s->nt, sizeof col[0], cmp_d);
            s->s[mi][m] = (bs_stat){ pct(col, s->nt, 0.5), pct(col, s->nt, 0.1), pct(col, s->nt, 0.9), worst[wi][m] };
        }
    }
    free(val);
    free(worst);
    return st;
}
