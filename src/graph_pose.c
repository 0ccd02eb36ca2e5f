/* graph_pose.c — the blend graph's pose stages (posebench/graph.h): every
 * character's state pose sampled and blended SIMD across the crowd, the
 * transitions' ops run over the characters in each method gathered into a
 * compact crowd layout, the layers, all through pb_run with per-character
 * parameters. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "posebench/graph.h"
#include "internal.h"   /* pb_fail */
#include "graph_int.h"

/* Buffer b viewed as a pose of n elements, its padding set to identity. */
static pb_status view(pb_graph_crowd *c, int b, size_t n, pb_pose *p)
{
    size_t stride = pb_padded(n), cap = pb_padded(c->joints * c->cpad);
    float *planes[PB_PLANES];
    for (int pl = 0; pl < PB_PLANES; pl++) {
        planes[pl] = c->buf[b] + (size_t)pl * cap;
        for (size_t e = n; e < stride; e++) planes[pl][e] = pb_plane_identity(pl);
    }
    return pb_pose_wrap(p, n, stride, planes);
}

/* Members list[0 .. m) of `from` (crowd layout) into buffer b as a crowd of M >= m
 * characters (the rest identity), planes [p0, p1). */
static pb_status gather(pb_graph_crowd *c, const pb_pose *from, size_t m, size_t M, int b, pb_pose *p)
{
    size_t J = c->joints, C = c->characters;
    pb_status s = view(c, b, J * M, p);
    for (int pl = 0; s == PB_OK && pl < PB_PLANES; pl++) {
        float one = pb_plane_identity(pl), *o = p->plane[pl];
        for (size_t j = 0; j < J; j++) {
            const float *row = from->plane[pl] + j * C;
            for (size_t i = 0; i < m; i++) o[j * M + i] = row[c->list[i]];
            for (size_t i = m; i < M; i++) o[j * M + i] = one;
        }
    }
    return s;
}

static void scatter(pb_graph_crowd *c, const pb_pose *from, size_t m, size_t M, pb_pose *to, int p0, int p1)
{
    size_t J = c->joints, C = c->characters;
    for (int pl = p0; pl < p1; pl++)
        for (size_t j = 0; j < J; j++) {
            float *row = to->plane[pl] + j * C;
            const float *in = from->plane[pl] + j * M;
            for (size_t i = 0; i < m; i++) row[c->list[i]] = in[i];
        }
}

static pb_status run(pb_graph_crowd *c, pb_op op, const pb_variant *v, const pb_call *call)
{
    pb_status s = pb_run(op, v, call);
    if (s != PB_OK) c->failed = pb_op_get(op)->name;
    return s;
}

void graph_slots_fill(pb_graph_crowd *c, size_t k, const float *bw, size_t i, size_t m)
{
    const pb_graph_state *st = &c->def.state[c->state[k]];
    pb_graph_slots *sl = &c->cur;
    int got = 0;
    float span = 0;
    for (size_t q = 0; q < st->samples && got < 3; q++) {
        float w = bw ? bw[q * m + i] : 1.0f;
        if (!(w > 0)) continue;
        int mo = st->motion[q];
        sl->mot[got][k] = (int16_t)mo, sl->w[got][k] = w;
        span += w * c->len[mo];
        got++;
    }
    for (int s = got; s < 3; s++) sl->mot[s][k] = -1, sl->w[s][k] = 0;
    sl->span[k] = span;
    for (int s = 0; s < 3; s++) {
        int mo = sl->mot[s][k] >= 0 ? sl->mot[s][k] : sl->mot[0][k];
        sl->time[s][k] = c->t0[mo] + c->phase[k] * c->len[mo];
        sl->rate[s][k] = sl->mot[s][k] >= 0 ? c->len[mo] / span : 0.0f;
    }
    float w01 = sl->w[0][k] + sl->w[1][k];
    float a[2] = { w01 > 0 ? sl->w[1][k] / w01 : 0.0f, sl->w[2][k] };
    int same = 1;
    for (int s = 0; s < 3; s++) same &= sl->mot[s][k] == c->mot_prev[s][k], c->mot_prev[s][k] = sl->mot[s][k];
    for (int b = 0; b < 2; b++) {
        sl->alpha[b][k] = a[b];
        sl->alpha_vel[b][k] = same && c->dt > 0 ? (a[b] - c->alpha_prev[b][k]) / c->dt : 0.0f;
        c->alpha_prev[b][k] = a[b];
    }
}

/* A set of m characters' state poses of q motions each into out: slot s
 * sampled from the library at time[s] (member-indexed arrays of sl), scaled
 * to its rate (timescale: a blend space's motions play at their length over
 * the state's period; a single motion plays at 1), slot 1 blended into slot
 * 0 and slot 2 into that (blend, exact velocities). */
static pb_status eval(pb_graph_crowd *c, const pb_variant *v, size_t m, int q, pb_graph_slots *sl, pb_pose *out)
{
    size_t n = c->joints * m;
    pb_pose slot[3], tmp;
    pb_status s = PB_OK;
    for (int i = 0; i < q && s == PB_OK; i++) {
        pb_pose *dst = &slot[i];
        if (q == 1) dst = out;
        else if ((s = view(c, GB_SLOT0 + i, n, dst)) != PB_OK) break;
        pb_call call = { .out = dst, .clip = &c->lib, .offsets = sl->time[i] };
        if ((s = run(c, PB_OP_sample_linear, v, &call)) != PB_OK || q == 1) break;
        pb_call ts = { .a = dst, .out = dst, .per = { .characters = m, .timescale = sl->rate[i] } };
        if ((s = run(c, PB_OP_timescale, v, &ts)) != PB_OK || i == 0) continue;
        pb_pose *to = i == 1 && q == 3 ? &tmp : out;
        if (to == &tmp && (s = view(c, GB_TMP, n, &tmp)) != PB_OK) break;
        pb_call bl = { .a = i == 1 ? &slot[0] : &tmp, .b = dst, .out = to,
                       .per = { .characters = m, .alpha = sl->alpha[i - 1], .alpha_vel = sl->alpha_vel[i - 1] } };
        s = run(c, PB_OP_blend, v, &bl);
    }
    return s;
}

static int slots_of(const pb_graph_slots *sl, size_t k)
{
    return sl->mot[2][k] >= 0 ? 3 : sl->mot[1][k] >= 0 ? 2 : 1;
}

/* Every character's state pose: per group of characters playing q motions,
 * their slots gathered into c->grp, eval, scattered (in place for a group of
 * every character). */
static pb_status eval_groups(pb_graph_crowd *c, const pb_variant *v)
{
    size_t C = c->characters;
    pb_graph_slots *cur = &c->cur, *g = &c->grp;
    pb_status s = PB_OK;
    for (int q = 1; q <= 3 && s == PB_OK; q++) {
        size_t m = 0;
        for (size_t k = 0; k < C; k++) {
            if (slots_of(cur, k) != q) continue;
            for (int i = 0; i < q; i++) g->time[i][m] = cur->time[i][k], g->rate[i][m] = cur->rate[i][k];
            for (int i = 0; i + 1 < q; i++) g->alpha[i][m] = cur->alpha[i][k], g->alpha_vel[i][m] = cur->alpha_vel[i][k];
            c->list[m++] = k;
        }
        if (!m) continue;
        if (m == C) return eval(c, v, m, q, g, &c->pose);
        pb_pose o;
        s = view(c, GB_A, c->joints * m, &o);
        if (s == PB_OK) s = eval(c, v, m, q, g, &o);
        if (s == PB_OK) scatter(c, &o, m, m, &c->pose, 0, PB_PLANES);
    }
    return s;
}

/* The characters whose transition runs by method m (and, begin_only, started this frame) into c->list. */
static size_t members(pb_graph_crowd *c, int m, int begin_only)
{
    size_t cnt = 0;
    for (size_t k = 0; k < c->characters; k++)
        if (c->method[k] == m && (!begin_only || c->began[k])) c->list[cnt++] = k;
    return cnt;
}

pb_status graph_stage_sample(pb_graph_crowd *c, const pb_variant *v)
{
    const pb_graph_def *d = &c->def;
    size_t C = c->characters, P = d->params;
    for (size_t k = 0; k < C; k++)
        if (d->state[c->state[k]].samples == 1) graph_slots_fill(c, k, NULL, 0, 0);
    for (size_t st = 0; st < d->states; st++) {
        const pb_graph_state *s = &d->state[st];
        if (s->samples == 1) continue;
        size_t m = 0;
        for (size_t k = 0; k < C; k++)
            if ((size_t)c->state[k] == st) {
                c->list[m] = k;
                c->bx[m] = c->param[k * P + (size_t)s->px];
                c->by[m] = s->py >= 0 ? c->param[k * P + (size_t)s->py] : 0.0f;
                m++;
            }
        if (!m) continue;
        pb_status r = pb_bspace_weights(&c->space[st], c->bx, c->by, m, c->bw, m, v);
        if (r != PB_OK) {
            c->failed = "pb_bspace_weights";
            return r;
        }
        for (size_t i = 0; i < m; i++) graph_slots_fill(c, c->list[i], c->bw, i, m);
    }
    pb_status s = eval_groups(c, v);
    /* the cross-fade sources: their states at their phases, weights as at the transition */
    size_t m = members(c, PB_GM_CROSSFADE, 0);
    if (s != PB_OK || !m) return s;
    pb_graph_slots *sl = &c->src;
    int q = 1;
    for (size_t i = 0; i < m; i++) {
        size_t k = c->list[i];
        float w01 = sl->w[0][k] + sl->w[1][k];
        for (int i2 = 0; i2 < 3; i2++) {
            int mo = sl->mot[i2][k] >= 0 ? sl->mot[i2][k] : sl->mot[0][k];
            sl->time[i2][i] = c->t0[mo] + c->from_phase[k] * c->len[mo];
            sl->rate[i2][i] = sl->mot[i2][k] >= 0 ? c->len[mo] / sl->span[k] : 0.0f;
        }
        q = slots_of(sl, k) > q ? slots_of(sl, k) : q;
        sl->alpha[0][i] = w01 > 0 ? sl->w[1][k] / w01 : 0.0f, sl->alpha[1][i] = sl->w[2][k];
        sl->alpha_vel[0][i] = sl->alpha_vel[1][i] = 0;
    }
    pb_pose xs;
    s = view(c, GB_XSRC, c->joints * m, &xs);
    return s == PB_OK ? eval(c, v, m, q, sl, &xs) : s;
}

pb_status graph_stage_begin(pb_graph_crowd *c, const pb_variant *v)
{
    pb_status s = PB_OK;
    pb_pose a, b, o;
    for (int m = PB_GM_INERTIALIZE; m <= PB_GM_DEAD_UE && s == PB_OK; m++) {
        size_t cnt = members(c, m, 1);
        if (!cnt) continue;
        s = gather(c, &c->prev, cnt, cnt, GB_A, &a);   /* the output, with its velocities */
        if (s == PB_OK && m != PB_GM_INERTIALIZE) scatter(c, &a, cnt, cnt, &c->offset, 0, PB_PLANES);   /* dead blending's source */
        if (s != PB_OK || m == PB_GM_DEAD) continue;
        s = gather(c, &c->pose, cnt, cnt, GB_B, &b);
        if (s == PB_OK) s = view(c, GB_TMP, c->joints * cnt, &o);
        if (s != PB_OK) break;
        pb_call call = { .a = &a, .b = &b, .out = &o,
                         .params = { .hl_scale = c->def.hl_scale, .hl_min = c->def.hl_min, .hl_max = c->def.hl_max } };
        s = run(c, m == PB_GM_INERTIALIZE ? PB_OP_inertialize_offset : PB_OP_estimate_halflife, v, &call);
        if (s == PB_OK && m == PB_GM_INERTIALIZE) scatter(c, &o, cnt, cnt, &c->offset, 0, PB_PLANES);
        if (s == PB_OK && m == PB_GM_DEAD_UE) scatter(c, &o, cnt, cnt, &c->halflives, PB_STATIC_PLANES, PB_PLANES);
    }
    return s;
}

/* The skeleton of M characters (a multiple of 16) for dead blending's roots, made on first use. */
static pb_status skel_of(pb_graph_crowd *c, size_t M, const pb_skeleton **sk)
{
    pb_skeleton *s = &c->skel16[M / 16 - 1];
    pb_status st = s->parents ? PB_OK : pb_skeleton_init(s, c->skel.parents, c->joints, M);
    *sk = s;
    return st;
}

static float smooth(float u) { return u <= 0 ? 0.0f : u >= 1 ? 1.0f : u * u * (3 - 2 * u); }
static float smooth_dx(float u) { return u <= 0 || u >= 1 ? 0.0f : 6 * u * (1 - u); }

pb_status graph_stage_transition(pb_graph_crowd *c, const pb_variant *v)
{
    for (int p = 0; p < PB_PLANES; p++) memcpy(c->mix.plane[p], c->pose.plane[p], c->n * sizeof(float));
    pb_status s = PB_OK;
    for (int m = PB_GM_CROSSFADE; m < PB_GM_COUNT && s == PB_OK; m++) {
        size_t cnt = c->active[m] = members(c, m, 0);
        if (!cnt) continue;
        int dead = m == PB_GM_DEAD || m == PB_GM_DEAD_UE;
        size_t M = dead ? (cnt + 15) / 16 * 16 : cnt;
        for (size_t i = 0; i < M; i++) {
            size_t k = c->list[i < cnt ? i : 0];
            c->ptime[i] = i < cnt ? c->since[k] : 0.0f, c->pdur[i] = i < cnt ? c->duration[k] : 1.0f;
            float u = c->ptime[i] / c->pdur[i];
            if (m == PB_GM_CROSSFADE && i < cnt && c->trans[k] >= 0) {   /* the transition's curve */
                float dw;
                c->palpha[i] = pb_curve_eval(&c->def.transition[c->trans[k]].curve, u, &dw);
                c->prate[i] = u < 1 ? dw / c->pdur[i] : 0.0f;
            } else {
                c->palpha[i] = smooth(u), c->prate[i] = smooth_dx(u) / c->pdur[i];
            }
        }
        pb_pose a, b, o, hl, xs;
        s = gather(c, &c->pose, cnt, M, GB_B, &b);
        if (s == PB_OK && m != PB_GM_CROSSFADE) s = gather(c, &c->offset, cnt, M, GB_A, &a);
        if (s == PB_OK) s = view(c, GB_TMP, c->joints * M, &o);
        if (s != PB_OK) break;
        pb_param_arrays per = { .characters = M, .time = c->ptime, .duration = c->pdur };
        if (m == PB_GM_CROSSFADE) {
            s = view(c, GB_XSRC, c->joints * cnt, &xs);
            pb_call call = { .a = &xs, .b = &b, .out = &o,
                             .per = { .characters = cnt, .alpha = c->palpha, .alpha_vel = c->prate } };
            if (s == PB_OK) s = run(c, PB_OP_blend, v, &call);
        } else if (m == PB_GM_INERTIALIZE) {
            pb_call call = { .a = &b, .b = &a, .out = &o, .per = per };
            s = run(c, PB_OP_inertialize, v, &call);
        } else {
            const pb_skeleton *sk = NULL;
            s = skel_of(c, M, &sk);
            if (s == PB_OK && m == PB_GM_DEAD_UE) s = gather(c, &c->halflives, cnt, M, GB_SLOT0, &hl);
            if (m == PB_GM_DEAD_UE) per.halflives = &hl;
            pb_call call = { .a = &a, .b = &b, .out = &o, .skel = sk, .per = per,
                             .params = { .halflife = m == PB_GM_DEAD ? c->def.halflife : 0.0f } };
            if (s == PB_OK) s = run(c, PB_OP_dead_blending, v, &call);
        }
        if (s == PB_OK) scatter(c, &o, cnt, M, &c->mix, 0, PB_PLANES);
    }
    c->mixed = s == PB_OK;
    return s;
}

/* Rows rows[0 .. r) (joints) of crowd pose p copied into buffer b as a pose of r x C elements (out = 0),
 * or back from it (out = 1). */
static pb_status rows(pb_graph_crowd *c, pb_pose *p, const size_t *jl, size_t r, int b, pb_pose *sub, int out)
{
    size_t C = c->characters;
    pb_status s = out ? PB_OK : view(c, b, r * C, sub);
    for (int pl = 0; s == PB_OK && pl < PB_PLANES; pl++)
        for (size_t i = 0; i < r; i++) {
            float *crowd = p->plane[pl] + jl[i] * C, *own = sub->plane[pl] + i * C;
            memcpy(out ? crowd : own, out ? own : crowd, C * sizeof(float));
        }
    return s;
}

pb_status graph_stage_layers(pb_graph_crowd *c, const pb_variant *v)
{
    for (int p = 0; p < PB_PLANES; p++) memcpy(c->out.plane[p], c->mix.plane[p], c->n * sizeof(float));
    const pb_graph_def *d = &c->def;
    size_t C = c->characters, P = d->params, J = c->joints;
    pb_status s = PB_OK;
    for (size_t l = 0; l < d->layers && s == PB_OK; l++) {
        const pb_graph_layer *ly = &d->layer[l];
        float len = c->len[ly->motion], *w = c->lw + l * C, *wv = c->lw_vel + l * C;
        for (size_t k = 0; k < C; k++) {
            /* ping-pong: forward then backward, so a motion that is no loop plays on without a seam */
            float u = fmodf(c->clock[k], 2 * len), nw = 1.0f;
            c->ptime[k] = 1.0f / c->lib.fps + (u < len ? u : 2 * len - u);   /* after the layer clip's leading copy */
            c->prate[k] = u < len ? 1.0f : -1.0f;
            if (ly->weight >= 0) nw = fminf(1.0f, fmaxf(0.0f, c->param[k * P + (size_t)ly->weight]));
            wv[k] = c->have_out && c->dt > 0 ? (nw - w[k]) / c->dt : 0.0f;
            w[k] = nw;
        }
        size_t r = c->layer_joints[l];
        if (!r) continue;
        const size_t *jl = c->layer_joint + l * J;
        pb_pose lay, base;
        float *planes[PB_PLANES];
        for (int p = 0; p < PB_PLANES; p++) planes[p] = c->lay.plane[p];
        for (int p = 0; p < PB_PLANES; p++)
            for (size_t e = r * C; e < pb_padded(r * C); e++) planes[p][e] = pb_plane_identity(p);
        s = pb_pose_wrap(&lay, r * C, pb_padded(r * C), planes);
        pb_call smp = { .out = &lay, .clip = &c->layer_clip[l], .offsets = c->ptime };
        if (s == PB_OK) s = run(c, PB_OP_sample_linear, v, &smp);
        pb_call ts = { .a = &lay, .out = &lay, .per = { .characters = C, .timescale = c->prate } };
        if (s == PB_OK) s = run(c, PB_OP_timescale, v, &ts);
        int all = r == J;   /* every joint: in place */
        if (s == PB_OK && !all) s = rows(c, &c->out, jl, r, GB_A, &base, 0);
        pb_pose *io = all ? &c->out : &base;
        pb_call call = { .a = io, .b = &lay, .out = io,
                         .per = { .characters = C, .alpha = w, .alpha_vel = wv, .mask = c->mask + l * J } };
        if (s == PB_OK) s = run(c, ly->kind == PB_GL_OVERRIDE ? PB_OP_blend : PB_OP_additive, v, &call);
        if (s == PB_OK && !all) rows(c, &c->out, jl, r, GB_A, &base, 1);
    }
    return s;
}
