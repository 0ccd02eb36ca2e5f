/* graph_crowd.c — a crowd running a blend graph (posebench/graph.h): set-up,
 * the per-character control stage (scalar: conditions, priorities,
 * interruptions, loops) and the clocks. The pose stages are graph_pose.c's. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "posebench/graph.h"
#include "internal.h"   /* pb_fail */
#include "rng.h"
#include "qd.h"
#include "graph_int.h"

static const char *const stage_names[PB_GS_COUNT] = { "control", "sample", "begin", "transition", "layers", "fk" };

const char *pb_graph_stage_name(pb_graph_stage s)
{
    return (unsigned)s < PB_GS_COUNT ? stage_names[s] : NULL;
}

/* Every per-character array, with its element size and count (x characters, or x cpad). */
#define CROWD_ARRAYS(X)                                                                                                \
    X(param, def->params ? def->params : 1, 0) X(state, 1, 0) X(from, 1, 0) X(phase, 1, 0) X(from_phase, 1, 0)          \
    X(method, 1, 0) X(trans, 1, 0) X(since, 1, 0) X(duration, 1, 0) X(began, 1, 0) X(wrapped, 1, 0) X(clock, 1, 0)                    \
    X(lw, PB_GRAPH_MAX_LAYERS, 0) X(lw_vel, PB_GRAPH_MAX_LAYERS, 0) X(bx, 1, 0) X(by, 1, 0)                           \
    X(bw, PB_GRAPH_MAX_SAMPLES, 0) X(list, 1, 1) X(ptime, 1, 1) X(prate, 1, 1) X(palpha, 1, 1) X(pdur, 1, 1)

static void slots_free(pb_graph_slots *s)
{
    for (int i = 0; i < 3; i++) free(s->mot[i]), free(s->w[i]), free(s->time[i]), free(s->rate[i]);
    for (int i = 0; i < 2; i++) free(s->alpha[i]), free(s->alpha_vel[i]);
    free(s->span);
}

static int slots_alloc(pb_graph_slots *s, size_t n)
{
    int bad = 0;
    for (int i = 0; i < 3; i++) {
        bad |= !(s->mot[i] = calloc(n, sizeof(int16_t)));
        bad |= !(s->w[i] = calloc(n, sizeof(float)));
        bad |= !(s->time[i] = calloc(n, sizeof(float)));
        bad |= !(s->rate[i] = calloc(n, sizeof(float)));
    }
    for (int i = 0; i < 2; i++) {
        bad |= !(s->alpha[i] = calloc(n, sizeof(float)));
        bad |= !(s->alpha_vel[i] = calloc(n, sizeof(float)));
    }
    bad |= !(s->span = calloc(n, sizeof(float)));
    return bad;
}

void pb_graph_crowd_free(pb_graph_crowd *c)
{
    if (!c) return;
#define FREE_ARRAY(name, per, padded) free(c->name);
    CROWD_ARRAYS(FREE_ARRAY)
#undef FREE_ARRAY
    slots_free(&c->cur);
    slots_free(&c->src);
    slots_free(&c->grp);
    for (int i = 0; i < 3; i++) free(c->mot_prev[i]);
    for (int i = 0; i < 2; i++) free(c->alpha_prev[i]);
    pb_pose *poses[] = { &c->pose, &c->mix, &c->prev, &c->out, &c->global, &c->offset, &c->halflives, &c->lay };
    for (size_t i = 0; i < sizeof poses / sizeof poses[0]; i++) pb_pose_free(poses[i]);
    for (int i = 0; i < GB_COUNT; i++) free(c->buf[i]);
    for (size_t b = 0; c->skel16 && b < c->cpad / 16; b++) pb_skeleton_free(&c->skel16[b]);
    free(c->skel16);
    for (size_t s = 0; c->space && s < c->def.states; s++) pb_bspace_free(&c->space[s]);
    free(c->space);
    free(c->t0), free(c->len), free(c->mask), free(c->layer_joint);
    for (int l = 0; l < PB_GRAPH_MAX_LAYERS; l++) pb_clip_free(&c->layer_clip[l]);
    pb_skeleton_free(&c->skel);
    pb_clip_free(&c->lib);
    memset(c, 0, sizeof *c);
}

/* Key f of clip k into lib at key o; relative to key r of k when r >= 0
 * (an additive layer's delta: position difference, rotation r^-1 q, scale ratio). */
static void copy_key(pb_clip *lib, size_t o, const pb_clip *k, size_t f, long r)
{
    size_t J = k->joints;
    for (size_t j = 0; j < J; j++) {
        size_t e = f * J + j, d = o * J + j;
        for (int p = 0; p < PB_PLANES; p++) lib->pose.plane[p][d] = k->pose.plane[p][e];
        if (r < 0) continue;
        size_t b = (size_t)r * J + j;
        qd q = qd_mul(qd_conj(qd_get(&k->pose, b)), qd_get(&k->pose, e));
        qd_set(&lib->pose, d, q);
        for (int a = 0; a < 3; a++) {
            lib->pose.plane[PB_POS_X + a][d] = k->pose.plane[PB_POS_X + a][e] - k->pose.plane[PB_POS_X + a][b];
            lib->pose.plane[PB_SCL_X + a][d] = k->pose.plane[PB_SCL_X + a][e] / k->pose.plane[PB_SCL_X + a][b];
        }
    }
}

/* The library clip: per motion, a copy of its first key, its keys, a copy
 * of its last key (so a time rounded just outside it interpolates with
 * itself). Motions played by an additive layer are stored relative to their
 * first key. */
static pb_status build_lib(pb_graph_crowd *c, const pb_clip *const *clips)
{
    const pb_graph_def *d = &c->def;
    size_t keys = 0, first[PB_GRAPH_MAX_MOTIONS], last[PB_GRAPH_MAX_MOTIONS];
    float fps = clips[0]->fps;
    for (size_t m = 0; m < d->motions; m++) {
        const pb_clip *k = clips[d->motion[m].clip];
        first[m] = (size_t)lrintf(d->motion[m].start * fps);
        last[m] = (size_t)lrintf(d->motion[m].end * fps);
        if (last[m] >= k->frames) last[m] = k->frames - 1;
        if (last[m] <= first[m]) first[m] = last[m] - 1;
        keys += last[m] - first[m] + 3;
    }
    pb_status s = pb_clip_alloc(&c->lib, keys, c->joints, fps);
    if (s != PB_OK) return s;
    size_t o = 0;
    for (size_t m = 0; m < d->motions; m++) {
        const pb_clip *k = clips[d->motion[m].clip];
        long rel = -1;
        for (size_t l = 0; l < d->layers; l++)
            if (d->layer[l].kind == PB_GL_ADDITIVE && d->layer[l].motion == (int)m) rel = (long)first[m];
        copy_key(&c->lib, o++, k, first[m], rel);
        c->t0[m] = (float)o / fps;
        for (size_t f = first[m]; f <= last[m]; f++) copy_key(&c->lib, o++, k, f, rel);
        copy_key(&c->lib, o++, k, last[m], rel);
        c->len[m] = (float)(last[m] - first[m]) / fps;
    }
    return PB_OK;
}

/* Layer l's joints (mask > 0), their mask values and its motion's keys over them, from lib. */
static pb_status layer_clip(pb_graph_crowd *c, size_t l)
{
    const pb_graph_layer *ly = &c->def.layer[l];
    size_t J = c->joints, n = 0, *jl = c->layer_joint + l * J;
    for (size_t j = 0; j < J; j++) {
        float m = ly->mask ? ly->mask[j] : 1.0f;
        if (m > 0) jl[n] = j, c->mask[l * J + n++] = m;
    }
    c->layer_joints[l] = n;
    if (!n) return PB_OK;   /* a layer that touches nothing */
    size_t first = (size_t)lrintf(c->t0[ly->motion] * c->lib.fps) - 1, keys = (size_t)lrintf(c->len[ly->motion] * c->lib.fps) + 3;
    pb_clip *k = &c->layer_clip[l];
    pb_status s = pb_clip_alloc(k, keys, n, c->lib.fps);
    for (size_t f = 0; s == PB_OK && f < keys; f++)
        for (int p = 0; p < PB_PLANES; p++)
            for (size_t i = 0; i < n; i++) k->pose.plane[p][f * n + i] = c->lib.pose.plane[p][(first + f) * J + jl[i]];
    return s;
}

pb_status pb_graph_crowd_init(pb_graph_crowd *c, const pb_graph_def *def, const pb_clip *const *clips, size_t nclips,
                              const int32_t *parents, size_t characters, uint64_t seed)
{
    static const char *fn = "pb_graph_crowd_init";
    if (!c) return pb_fail(PB_ERR_NULL, "%s: crowd is NULL", fn);
    memset(c, 0, sizeof *c);
    pb_status s = pb_graph_check(def, clips, nclips);
    if (s != PB_OK) return s;
    if (!parents) return pb_fail(PB_ERR_NULL, "%s: parents is NULL", fn);
    if (!characters) return pb_fail(PB_ERR_EMPTY, "%s: 0 characters", fn);
    size_t J = clips[0]->joints;
    if (characters > ((size_t)1 << 22) / J)
        return pb_fail(PB_ERR_SIZE, "%s: %zu characters x %zu joints (at most 2^22 elements)", fn, characters, J);
    c->def = *def;
    c->joints = J, c->characters = characters, c->n = J * characters, c->cpad = (characters + 15) / 16 * 16;
    c->dt = 1.0f / 60.0f;
    int bad = 0;
#define ALLOC_ARRAY(name, per, padded) \
    bad |= !(c->name = calloc((padded ? c->cpad : characters) * (size_t)(per), sizeof *c->name));
    CROWD_ARRAYS(ALLOC_ARRAY)
#undef ALLOC_ARRAY
    bad |= slots_alloc(&c->cur, characters);
    bad |= slots_alloc(&c->src, c->cpad);
    bad |= slots_alloc(&c->grp, c->cpad);
    for (int i = 0; i < 3; i++) bad |= !(c->mot_prev[i] = calloc(characters, sizeof(int16_t)));
    for (int i = 0; i < 2; i++) bad |= !(c->alpha_prev[i] = calloc(characters, sizeof(float)));
    bad |= !(c->t0 = calloc(def->motions, sizeof(float)));
    bad |= !(c->len = calloc(def->motions, sizeof(float)));
    bad |= !(c->mask = malloc((def->layers ? def->layers : 1) * J * sizeof(float)));
    bad |= !(c->layer_joint = malloc((def->layers ? def->layers : 1) * J * sizeof(size_t)));
    bad |= !(c->space = calloc(def->states, sizeof *c->space));
    bad |= !(c->skel16 = calloc(c->cpad / 16, sizeof *c->skel16));
    size_t gathered = PB_PLANES * pb_padded(J * c->cpad);
    for (int i = 0; i < GB_COUNT; i++) bad |= !(c->buf[i] = aligned_alloc(PB_ALIGN, gathered * sizeof(float)));
    if (bad) {
        pb_graph_crowd_free(c);
        return pb_fail(PB_ERR_NOMEM, "%s: out of memory for %zu characters", fn, characters);
    }
    s = pb_skeleton_init(&c->skel, parents, J, characters);
    pb_pose *poses[] = { &c->pose, &c->mix, &c->prev, &c->out, &c->global, &c->offset, &c->halflives, &c->lay };
    for (size_t i = 0; s == PB_OK && i < sizeof poses / sizeof poses[0]; i++) s = pb_pose_alloc(poses[i], c->n);
    if (s == PB_OK) s = build_lib(c, clips);
    for (size_t st = 0; s == PB_OK && st < def->states; st++)
        if (def->state[st].samples > 1)
            s = pb_bspace_create(&c->space[st], def->state[st].space, def->state[st].x, def->state[st].y,
                                 def->state[st].samples);
    if (s != PB_OK) {
        pb_graph_crowd_free(c);
        return s;
    }
    for (size_t l = 0; s == PB_OK && l < def->layers; l++) s = layer_clip(c, l);
    if (s != PB_OK) {
        pb_graph_crowd_free(c);
        return s;
    }
    for (size_t k = 0; k < characters; k++) {   /* a function of (seed, k) only */
        uint64_t r = seed ^ (k + 1) * 0xD1B54A32D192ED03ull;
        c->state[k] = (int16_t)def->start;
        c->phase[k] = pb_rng_unit01(&r);
        c->clock[k] = 10.0f * pb_rng_unit01(&r);
        c->from[k] = -1, c->method[k] = -1;
        for (int i = 0; i < 3; i++) c->mot_prev[i][k] = -1;
    }
    return PB_OK;
}

static int cond_holds(const pb_graph_cond *cd, const float *p)
{
    return cd->cmp == PB_GC_LESS ? p[cd->param] < cd->value : p[cd->param] > cd->value;
}

/* The first transition of character k's state whose conditions hold (never into its own state), or -1. */
static int first_firing(const pb_graph_crowd *c, size_t k)
{
    const pb_graph_def *d = &c->def;
    const float *p = c->param + k * d->params;
    int s = c->state[k];
    for (size_t i = 0; i < d->transitions; i++) {
        const pb_graph_transition *t = &d->transition[i];
        if (t->to == s || (t->from != s && t->from >= 0)) continue;
        size_t q = 0;
        while (q < t->conds && cond_holds(&t->cond[q], p)) q++;
        if (q == t->conds) return (int)i;
    }
    return -1;
}

/* Character k goes to state `to` (phase `phase`) by method m over duration
 * T. A timed transition needs an output to start from (a frame has run);
 * one that interrupts another starts from the current output, so a
 * cross-fade then has no state playing on and extrapolates the output as
 * dead blending does. Returns 1 if it took no time (another may follow). */
static int fire(pb_graph_crowd *c, size_t k, int to, float phase, pb_graph_method m, float T, int tr)
{
    int instant = m == PB_GM_CUT || T == 0 || !c->have_out;
    if (!instant && c->method[k] >= 0 && m == PB_GM_CROSSFADE) m = PB_GM_DEAD;   /* counted as what runs */
    c->fired[instant ? PB_GM_CUT : m]++;
    if (instant) {
        c->method[k] = -1, c->from[k] = -1;
    } else {
        if (c->method[k] >= 0) c->interrupted++;
        if (m == PB_GM_CROSSFADE) {   /* the old state plays on with its weights of this moment */
            c->from[k] = c->state[k];
            c->from_phase[k] = c->wrapped[k] ? 1.0f : c->phase[k];
            for (int i = 0; i < 3; i++) c->src.mot[i][k] = c->cur.mot[i][k], c->src.w[i][k] = c->cur.w[i][k];
            c->src.span[k] = c->cur.span[k];
        } else {
            c->from[k] = -1;
        }
        c->method[k] = (int8_t)m, c->trans[k] = (int16_t)tr, c->since[k] = c->dt, c->duration[k] = T, c->began[k] = 1;
    }
    c->state[k] = (int16_t)to, c->phase[k] = phase;
    return instant;
}

static pb_status stage_control(pb_graph_crowd *c)
{
    const pb_graph_def *d = &c->def;
    size_t P = d->params;
    for (size_t k = 0; k < c->characters; k++)
        for (size_t p = 0; p < P; p++)
            if (!isfinite(c->param[k * P + p]))
                return pb_fail(PB_ERR_PARAM, "pb_graph_crowd_stage: character %zu's parameter \"%s\" is %g (finite)", k,
                               d->param[p], (double)c->param[k * P + p]);
    for (size_t k = 0; k < c->characters; k++) {
        c->began[k] = 0;
        int fired = 0;
        for (size_t step = 0; step <= d->states; step++) {   /* zero-duration chains are acyclic (pb_graph_check) */
            int t = first_firing(c, k);
            if (t < 0) break;
            const pb_graph_transition *tr = &d->transition[t];
            fired = 1;
            if (!fire(c, k, tr->to, 0.0f, tr->method, tr->duration, t)) break;
        }
        if (!fired && c->wrapped[k]) {   /* the state restarts by its loop transition */
            const pb_graph_state *st = &d->state[c->state[k]];
            fire(c, k, c->state[k], c->phase[k], st->loop_method, st->loop_duration, -1);
        }
        c->wrapped[k] = 0;
    }
    return PB_OK;
}

pb_status pb_graph_crowd_stage(pb_graph_crowd *c, const pb_variant *v, pb_graph_stage st)
{
    if (!c || !c->state) return pb_fail(PB_ERR_NULL, "pb_graph_crowd_stage: crowd is NULL or not initialized");
    pb_status s;
    switch (st) {
    case PB_GS_CONTROL: return stage_control(c);
    case PB_GS_SAMPLE: return graph_stage_sample(c, v);
    case PB_GS_BEGIN: return graph_stage_begin(c, v);
    case PB_GS_TRANSITION: return graph_stage_transition(c, v);
    case PB_GS_LAYERS: return graph_stage_layers(c, v);
    case PB_GS_FK: {
        pb_call call = { .a = &c->out, .out = &c->global, .skel = &c->skel };
        if ((s = pb_run(PB_OP_fk, v, &call)) != PB_OK) c->failed = "fk";
        return s;
    }
    default: return pb_fail(PB_ERR_PARAM, "pb_graph_crowd_stage: stage %d is not a pb_graph_stage", (int)st);
    }
}

void pb_graph_crowd_advance(pb_graph_crowd *c, float dt)
{
    if (!c || !c->state || !(dt >= 0)) return;
    for (size_t k = 0; k < c->characters; k++) {
        float ph = c->phase[k] + (c->cur.span[k] > 0 ? dt / c->cur.span[k] : 0.0f);   /* 0: not sampled yet */
        if (ph >= 1.0f) {
            c->wrapped[k] = 1;
            ph -= floorf(ph);
        }
        c->phase[k] = ph;
        if (c->from[k] >= 0 && c->src.span[k] > 0) c->from_phase[k] = fminf(1.0f, c->from_phase[k] + dt / c->src.span[k]);
        c->clock[k] += dt;
        if (c->method[k] >= 0 && (c->since[k] += dt) >= c->duration[k]) c->method[k] = -1, c->from[k] = -1;
    }
    if (c->mixed) {   /* this frame's output is the next frame's source */
        pb_pose t = c->prev;
        c->prev = c->mix, c->mix = t;
        c->have_out = 1;
    }
    c->mixed = 0;
    c->dt = dt;
    c->frame++;
}

pb_status pb_graph_crowd_step(pb_graph_crowd *c, const pb_variant *v, float dt)
{
    if (!(dt >= 0) || !isfinite(dt)) return pb_fail(PB_ERR_PARAM, "pb_graph_crowd_step: dt is %g (finite, >= 0)", (double)dt);
    for (int st = 0; st < PB_GS_COUNT; st++) {
        pb_status s = pb_graph_crowd_stage(c, v, (pb_graph_stage)st);
        if (s != PB_OK) return s;
    }
    pb_graph_crowd_advance(c, dt);
    return PB_OK;
}
