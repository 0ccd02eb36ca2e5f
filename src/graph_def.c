/* graph_def.c — a blend graph's definition (posebench/graph.h): names,
 * the one-time check of every field, and the zero-duration cycle search. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "posebench/graph.h"
#include "internal.h"   /* pb_fail */

static const char *const method_names[PB_GM_COUNT] = { "cut", "crossfade", "inertialize", "dead", "dead_ue" };

const char *pb_graph_method_name(pb_graph_method m)
{
    return (unsigned)m < PB_GM_COUNT ? method_names[m] : NULL;
}

pb_graph_method pb_graph_method_of(pb_frame_method m)
{
    switch (m) {
    case PB_FM_CUT: return PB_GM_CUT;
    case PB_FM_CROSSFADE: return PB_GM_CROSSFADE;
    case PB_FM_INERTIALIZE: return PB_GM_INERTIALIZE;
    case PB_FM_DEAD: return PB_GM_DEAD;
    case PB_FM_DEAD_UE: return PB_GM_DEAD_UE;
    default: return PB_GM_COUNT;
    }
}

pb_graph_method pb_graph_method_parse(const char *s) { return pb_graph_method_of(pb_frame_method_by_name(s)); }

static int find_name(const char (*names)[PB_GRAPH_MAX_NAME], size_t count, size_t step, const char *name)
{
    for (size_t i = 0; name && i < count; i++) {
        const char *n = (const char *)names + i * step;
        if (!strncmp(n, name, PB_GRAPH_MAX_NAME)) return (int)i;
    }
    return -1;
}

int pb_graph_state_find(const pb_graph_def *def, const char *name)
{
    return def ? find_name(&def->state[0].name, def->states, sizeof def->state[0], name) : -1;
}

int pb_graph_param_find(const pb_graph_def *def, const char *name)
{
    return def ? find_name(def->param, def->params, PB_GRAPH_MAX_NAME, name) : -1;
}

/* A name: non-empty, terminated within its array, not equal to an earlier one. */
static pb_status check_name(const char *what, size_t i, const char *name, const char *(*earlier)(const void *, size_t),
                            const void *def)
{
    if (!memchr(name, 0, PB_GRAPH_MAX_NAME) || !name[0])
        return pb_fail(PB_ERR_PARAM, "pb_graph_check: %s %zu has an empty or unterminated name (1 .. %d characters)",
                       what, i, PB_GRAPH_MAX_NAME - 1);
    for (size_t j = 0; j < i; j++)
        if (!strcmp(earlier(def, j), name))
            return pb_fail(PB_ERR_PARAM, "pb_graph_check: %ss %zu and %zu are both named \"%s\"", what, j, i, name);
    return PB_OK;
}
static const char *param_name(const void *d, size_t i) { return ((const pb_graph_def *)d)->param[i]; }
static const char *motion_name(const void *d, size_t i) { return ((const pb_graph_def *)d)->motion[i].name; }
static const char *state_name(const void *d, size_t i) { return ((const pb_graph_def *)d)->state[i].name; }

static int zero_duration(const pb_graph_transition *t) { return t->method == PB_GM_CUT || t->duration == 0; }

/* The zero-duration cycle search. A chain of zero-duration transitions runs
 * within one frame, so a cycle of them whose conditions can all hold at once
 * would never end. Conditions are open intervals per parameter: a path is
 * feasible while every parameter's intersection still holds a float. The
 * search is depth-first over simple paths, pruned by feasibility, within a
 * budget of edge visits (the limits above keep real graphs far below it). */
#define CYCLE_BUDGET 1000000L
typedef struct {
    const pb_graph_def *d;
    float lo[PB_GRAPH_MAX_PARAMS], hi[PB_GRAPH_MAX_PARAMS];
    unsigned char on[PB_GRAPH_MAX_STATES];
    int path[PB_GRAPH_MAX_STATES + 1], len;
    long budget;
} cycle_search;

static int cycle_from(cycle_search *cs, int s)
{
    const pb_graph_def *d = cs->d;
    cs->on[s] = 1;
    cs->path[cs->len++] = s;
    for (size_t i = 0; i < d->transitions && cs->budget > 0; i++) {
        const pb_graph_transition *t = &d->transition[i];
        if (!zero_duration(t) || t->to == s || (t->from != s && t->from >= 0)) continue;
        cs->budget--;
        float lo[PB_GRAPH_MAX_PARAMS], hi[PB_GRAPH_MAX_PARAMS];
        memcpy(lo, cs->lo, sizeof lo), memcpy(hi, cs->hi, sizeof hi);
        int ok = 1;
        for (size_t k = 0; k < t->conds && ok; k++) {
            const pb_graph_cond *c = &t->cond[k];
            if (c->cmp == PB_GC_LESS) hi[c->param] = fminf(hi[c->param], c->value);
            else lo[c->param] = fmaxf(lo[c->param], c->value);
            ok = nextafterf(lo[c->param], INFINITY) < hi[c->param];
        }
        if (!ok) continue;
        if (cs->on[t->to]) {
            cs->path[cs->len++] = t->to;
            return 1;
        }
        float slo[PB_GRAPH_MAX_PARAMS], shi[PB_GRAPH_MAX_PARAMS];
        memcpy(slo, cs->lo, sizeof slo), memcpy(shi, cs->hi, sizeof shi);
        memcpy(cs->lo, lo, sizeof lo), memcpy(cs->hi, hi, sizeof hi);
        int found = cycle_from(cs, t->to);
        memcpy(cs->lo, slo, sizeof slo), memcpy(cs->hi, shi, sizeof shi);
        if (found) return 1;
    }
    cs->on[s] = 0;
    cs->len--;
    return 0;
}

static pb_status check_cycles(const pb_graph_def *d)
{
    static const char *fn = "pb_graph_check";
    cycle_search cs = { .d = d, .budget = CYCLE_BUDGET };
    for (int s = 0; s < (int)d->states; s++) {
        for (size_t p = 0; p < PB_GRAPH_MAX_PARAMS; p++) cs.lo[p] = -INFINITY, cs.hi[p] = INFINITY;
        cs.len = 0;
        if (!cycle_from(&cs, s)) {
            if (cs.budget > 0) continue;
            return pb_fail(PB_ERR_SIZE, "%s: the zero-duration transitions have more paths than %ld steps search "
                           "for cycles: give some a duration", fn, CYCLE_BUDGET);
        }
        char msg[512];
        size_t at = 0;
        int first = 0;
        while (cs.path[first] != cs.path[cs.len - 1]) first++;
        for (int i = first; i < cs.len && at < sizeof msg - 40; i++)
            at += (size_t)snprintf(msg + at, sizeof msg - at, "%s%s", i > first ? " -> " : "", d->state[cs.path[i]].name);
        return pb_fail(PB_ERR_PARAM, "%s: a cycle of zero-duration transitions (cuts or duration 0) whose conditions "
                       "can hold at once: %s", fn, msg);
    }
    return PB_OK;
}

static pb_status check_motion(const pb_graph_def *d, size_t i, const pb_clip *const *clips, size_t nclips)
{
    const pb_graph_motion *m = &d->motion[i];
    pb_status s = check_name("motion", i, m->name, motion_name, d);
    if (s != PB_OK) return s;
    if (m->clip < 0 || (size_t)m->clip >= nclips)
        return pb_fail(PB_ERR_PARAM, "pb_graph_check: motion %zu (\"%s\") plays clip %d (there are %zu)", i, m->name,
                       m->clip, nclips);
    const pb_clip *k = clips[m->clip];
    float dur = (float)(k->frames - 1) / k->fps;
    if (!isfinite(m->start) || !isfinite(m->end) || m->start < 0 || m->end > dur + 0.5f / k->fps ||
        m->end - m->start < 1.0f / k->fps)
        return pb_fail(PB_ERR_PARAM,
                       "pb_graph_check: motion %zu (\"%s\") is [%g, %g] s of clip %d, which lasts %g s (at least "
                       "one frame, within the clip)", i, m->name, (double)m->start, (double)m->end, m->clip, (double)dur);
    return PB_OK;
}

static pb_status check_method(const char *what, size_t i, pb_graph_method m, float duration)
{
    if ((unsigned)m >= PB_GM_COUNT)
        return pb_fail(PB_ERR_PARAM, "pb_graph_check: %s %zu has method %d (0 .. %d)", what, i, (int)m, PB_GM_COUNT - 1);
    if (m != PB_GM_CUT && (!isfinite(duration) || duration < 0))
        return pb_fail(PB_ERR_PARAM, "pb_graph_check: %s %zu has duration %g (finite, >= 0 s)", what, i, (double)duration);
    return PB_OK;
}

static pb_status check_param_index(const pb_graph_def *d, const char *what, size_t i, int p, int optional)
{
    if ((optional && p == -1) || (p >= 0 && (size_t)p < d->params)) return PB_OK;
    return pb_fail(PB_ERR_PARAM, "pb_graph_check: %s %zu reads parameter %d (there are %zu)", what, i, p, d->params);
}

static pb_status check_state(const pb_graph_def *d, size_t i)
{
    const pb_graph_state *st = &d->state[i];
    pb_status s = check_name("state", i, st->name, state_name, d);
    if (s == PB_OK && (st->samples < 1 || st->samples > PB_GRAPH_MAX_SAMPLES))
        s = pb_fail(PB_ERR_SIZE, "pb_graph_check: state %zu (\"%s\") has %zu motions (1 .. %d)", i, st->name, st->samples,
                    PB_GRAPH_MAX_SAMPLES);
    for (size_t k = 0; s == PB_OK && k < st->samples; k++)
        if (st->motion[k] < 0 || (size_t)st->motion[k] >= d->motions)
            s = pb_fail(PB_ERR_PARAM, "pb_graph_check: state %zu (\"%s\") plays motion %d (there are %zu)", i, st->name,
                        st->motion[k], d->motions);
    if (s == PB_OK) s = check_method("state", i, st->loop_method, st->loop_duration);
    if (s != PB_OK || st->samples == 1) return s;
    if (st->space != PB_BSPACE_1D && st->space != PB_BSPACE_BARYCENTRIC)
        return pb_fail(PB_ERR_PARAM, "pb_graph_check: state %zu (\"%s\") has space %d (1d or barycentric: at most "
                       "three motions weigh at once)", i, st->name, (int)st->space);
    s = check_param_index(d, "state", i, st->px, 0);
    if (s == PB_OK && st->space == PB_BSPACE_BARYCENTRIC) s = check_param_index(d, "state", i, st->py, 0);
    if (s != PB_OK) return s;
    pb_bspace bs;
    s = pb_bspace_create(&bs, st->space, st->x, st->y, st->samples);
    pb_bspace_free(&bs);
    return s == PB_OK ? s : pb_fail(s, "pb_graph_check: state %zu (\"%s\"): %s", i, st->name, pb_last_error());
}

static pb_status check_transition(const pb_graph_def *d, size_t i)
{
    const pb_graph_transition *t = &d->transition[i];
    if (t->from < -1 || t->from >= (int)d->states || t->to < 0 || t->to >= (int)d->states)
        return pb_fail(PB_ERR_PARAM, "pb_graph_check: transition %zu goes from state %d to state %d (there are %zu; "
                       "from -1: any)", i, t->from, t->to, d->states);
    if (t->from == t->to)
        return pb_fail(PB_ERR_PARAM, "pb_graph_check: transition %zu goes from state %d to itself (a state restarts by "
                       "its loop method)", i, t->to);
    if (t->conds > PB_GRAPH_MAX_CONDS)
        return pb_fail(PB_ERR_SIZE, "pb_graph_check: transition %zu has %zu conditions (at most %d)", i, t->conds,
                       PB_GRAPH_MAX_CONDS);
    pb_status s = check_method("transition", i, t->method, t->duration);
    if (s == PB_OK) {
        char who[48];
        snprintf(who, sizeof who, "pb_graph_check: transition %zu", i);
        s = pb_curve_check(who, &t->curve);
    }
    if (s == PB_OK && t->curve.kind != PB_CURVE_SMOOTHSTEP && t->method != PB_GM_CROSSFADE)
        s = pb_fail(PB_ERR_PARAM, "pb_graph_check: transition %zu has curve %s with method %s: only a cross-fade takes "
                    "a curve (the others blend by their ops' own weights)", i, pb_curve_name(t->curve.kind),
                    pb_graph_method_name(t->method));
    for (size_t k = 0; s == PB_OK && k < t->conds; k++) {
        const pb_graph_cond *c = &t->cond[k];
        s = check_param_index(d, "transition", i, c->param, 0);
        if (s == PB_OK && c->cmp != PB_GC_LESS && c->cmp != PB_GC_GREATER)
            s = pb_fail(PB_ERR_PARAM, "pb_graph_check: transition %zu condition %zu compares by %d", i, k, (int)c->cmp);
        if (s == PB_OK && !isfinite(c->value))
            s = pb_fail(PB_ERR_PARAM, "pb_graph_check: transition %zu condition %zu compares with %g (finite)", i, k,
                        (double)c->value);
    }
    return s;
}

static pb_status check_layer(const pb_graph_def *d, size_t i, size_t joints)
{
    const pb_graph_layer *l = &d->layer[i];
    if (l->kind != PB_GL_OVERRIDE && l->kind != PB_GL_ADDITIVE)
        return pb_fail(PB_ERR_PARAM, "pb_graph_check: layer %zu has kind %d", i, (int)l->kind);
    if (l->motion < 0 || (size_t)l->motion >= d->motions)
        return pb_fail(PB_ERR_PARAM, "pb_graph_check: layer %zu plays motion %d (there are %zu)", i, l->motion, d->motions);
    pb_status s = check_param_index(d, "layer", i, l->weight, 1);
    for (size_t j = 0; s == PB_OK && l->mask && j < joints; j++)
        if (!(l->mask[j] >= 0 && l->mask[j] <= 1))
            s = pb_fail(PB_ERR_PARAM, "pb_graph_check: layer %zu mask[%zu] is %g (0 .. 1)", i, j, (double)l->mask[j]);
    return s;
}

pb_status pb_graph_check(const pb_graph_def *d, const pb_clip *const *clips, size_t nclips)
{
    if (!d || !clips) return pb_fail(PB_ERR_NULL, "pb_graph_check: %s is NULL", d ? "clips" : "def");
    if (!nclips) return pb_fail(PB_ERR_EMPTY, "pb_graph_check: no clips");
    for (size_t k = 0; k < nclips; k++) {
        if (!clips[k]) return pb_fail(PB_ERR_NULL, "pb_graph_check: clips[%zu] is NULL", k);
        pb_status s = pb_clip_check(clips[k]);
        if (s != PB_OK) return pb_fail(s, "pb_graph_check: clips[%zu]: %s", k, pb_last_error());
        if (clips[k]->joints != clips[0]->joints || clips[k]->fps != clips[0]->fps || clips[k]->frames < 2)
            return pb_fail(PB_ERR_PARAM, "pb_graph_check: clips[%zu] has %zu joints, %zu frames at %g fps (clips[0]: "
                           "%zu joints at %g fps; at least 2 frames)", k, clips[k]->joints, clips[k]->frames,
                           (double)clips[k]->fps, clips[0]->joints, (double)clips[0]->fps);
    }
    struct { const char *what; size_t n, max; } counts[] = {
        { "params", d->params, PB_GRAPH_MAX_PARAMS }, { "motions", d->motions, PB_GRAPH_MAX_MOTIONS },
        { "states", d->states, PB_GRAPH_MAX_STATES }, { "transitions", d->transitions, PB_GRAPH_MAX_TRANSITIONS },
        { "layers", d->layers, PB_GRAPH_MAX_LAYERS } };
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        if (counts[i].n > counts[i].max || ((i == 1 || i == 2) && !counts[i].n))
            return pb_fail(PB_ERR_SIZE, "pb_graph_check: %zu %s (%s .. %zu)", counts[i].n, counts[i].what,
                           i == 1 || i == 2 ? "1" : "0", counts[i].max);
    pb_status s = PB_OK;
    for (size_t i = 0; s == PB_OK && i < d->params; i++) s = check_name("parameter", i, d->param[i], param_name, d);
    for (size_t i = 0; s == PB_OK && i < d->motions; i++) s = check_motion(d, i, clips, nclips);
    for (size_t i = 0; s == PB_OK && i < d->states; i++) s = check_state(d, i);
    for (size_t i = 0; s == PB_OK && i < d->transitions; i++) s = check_transition(d, i);
    for (size_t i = 0; s == PB_OK && i < d->layers; i++) s = check_layer(d, i, clips[0]->joints);
    if (s != PB_OK) return s;
    if (d->start < 0 || (size_t)d->start >= d->states)
        return pb_fail(PB_ERR_PARAM, "pb_graph_check: start state %d (there are %zu)", d->start, d->states);
    if (!isfinite(d->halflife) || d->halflife <= 0)
        return pb_fail(PB_ERR_PARAM, "pb_graph_check: halflife %g (finite, > 0 s)", (double)d->halflife);
    if ((s = pb_halflife_est_check("pb_graph_check", d->hl_scale, d->hl_min, d->hl_max)) != PB_OK) return s;
    return check_cycles(d);
}
