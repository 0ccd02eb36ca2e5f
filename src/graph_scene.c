/* graph_scene.c — the default blend graph over a scene (posebench/graph.h):
 * motions cut from the scene's clips, a synthetic breathing clip, the layer
 * masks from the skeleton, and the parameters' seeded drive. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "posebench/graph.h"
#include "internal.h"   /* pb_fail */
#include "qd.h"
#include "rng.h"

#define SEGMENTS 8          /* motions per scene clip */
#define BREATH_S 4.0f       /* the breathing loop (s) */
#define BREATH_RAD 0.035    /* its amplitude per chest joint */
#define TWO_PI 6.283185307179586

void pb_graph_scene_free(pb_graph_scene *g)
{
    if (!g) return;
    pb_clip_free(&g->breath);
    free(g->upper);
    free(g->chest);
    memset(g, 0, sizeof *g);
}

static int under(const int32_t *parents, int j, int root)
{
    for (; j >= 0; j = parents[j])
        if (j == root) return 1;
    return 0;
}

/* upper: every joint but the root, the legs' subtrees and the legs' ancestors; chest: upper joints of depth <= 3. */
static void masks(pb_graph_scene *g, const pb_scene *sc)
{
    for (size_t j = 0; j < sc->joints; j++) {
        int up = sc->parents[j] >= 0, depth = 0;
        for (int l = 0; l < 2 && up; l++)
            if (sc->leg[l][0] >= 0) up = !under(sc->parents, (int)j, sc->leg[l][0]) && !under(sc->parents, sc->leg[l][0], (int)j);
        for (int p = sc->parents[j]; p >= 0; p = sc->parents[p]) depth++;
        g->upper[j] = up ? 1.0f : 0.0f;
        g->chest[j] = up && depth <= 3 ? 1.0f : 0.0f;
    }
}

/* The source clip's first key with the chest joints turning about their x axis, a 4 s loop. */
static pb_status breathing(pb_graph_scene *g, const pb_scene *sc)
{
    const pb_clip *k = &sc->clip[0];
    size_t J = sc->joints, F = (size_t)lrintf(BREATH_S * k->fps) + 1;
    pb_status s = pb_clip_alloc(&g->breath, F, J, k->fps);
    for (size_t f = 0; s == PB_OK && f < F; f++) {
        double ang = BREATH_RAD * sin(TWO_PI * (double)f / (double)(F - 1)), ax[3] = { 1, 0, 0 };
        for (size_t j = 0; j < J; j++) {
            size_t e = f * J + j;
            for (int p = 0; p < PB_STATIC_PLANES; p++) g->breath.pose.plane[p][e] = k->pose.plane[p][j];
            if (g->chest[j] > 0) qd_set(&g->breath.pose, e, qd_norm(qd_mul(qd_get(&k->pose, j), qd_axis(ax, ang))));
        }
    }
    return s;
}

static void motion(pb_graph_def *d, int clip, float start, float end, const char *name)
{
    pb_graph_motion *m = &d->motion[d->motions++];
    snprintf(m->name, sizeof m->name, "%s", name);
    m->clip = clip, m->start = start, m->end = end;
}

static pb_graph_state *state(pb_graph_def *d, const char *name, pb_graph_method loop)
{
    pb_graph_state *s = &d->state[d->states++];
    snprintf(s->name, sizeof s->name, "%s", name);
    s->px = s->py = -1;
    s->loop_method = loop, s->loop_duration = 0.2f;
    return s;
}

static void sample(pb_graph_state *s, int mo, float x, float y)
{
    s->motion[s->samples] = mo, s->x[s->samples] = x, s->y[s->samples] = y;
    s->samples++;
}

static pb_graph_transition *trans(pb_graph_def *d, int from, int to, pb_graph_method m, float duration)
{
    pb_graph_transition *t = &d->transition[d->transitions++];
    t->from = from, t->to = to, t->method = m, t->duration = duration;
    return t;
}

static void cond(pb_graph_transition *t, int param, pb_graph_cmp cmp, float value)
{
    t->cond[t->conds++] = (pb_graph_cond){ param, cmp, value };
}

/* How far below 1 s a clip may last and count as 1 s: a frame time's rounding (0.0333 s: 0.1 %). */
#define GRAPH_CLIP_ROUNDING 1e-3f

enum { P_SPEED, P_DIR, P_JUMP, P_UPPER, P_BREATHE, NPARAMS };
enum { S_IDLE, S_LOCO, S_STRAFE, S_JUMP };

pb_status pb_graph_scene_default(pb_graph_scene *g, const pb_scene *sc)
{
    static const char *fn = "pb_graph_scene_default";
    if (!g || !sc || !sc->parents) return pb_fail(PB_ERR_NULL, "%s: %s is NULL", fn, g ? "scene" : "graph");
    memset(g, 0, sizeof *g);
    float dur[2] = { pb_clip_duration(&sc->clip[0]), pb_clip_duration(&sc->clip[1]) };
    /* 1 s within the rounding of a frame time written with a few digits: 31 frames at 0.0333333 s last
     * 0.999999 s, which is the 1 s the graph's motions ask for (they may end half a frame past a clip) */
    const float need = 1.0f - GRAPH_CLIP_ROUNDING;
    if (!(dur[0] >= need) || !(dur[1] >= need) || sc->clip[0].joints != sc->clip[1].joints ||
        sc->clip[0].fps != sc->clip[1].fps)
        return pb_fail(PB_ERR_PARAM, "%s: the scene's clips last %g and %g s (%zu and %zu frames at %g and %g fps, "
                       "%zu and %zu joints); the default graph needs two clips of the same joints and fps, each at "
                       "least 1 s long (frames - 1 >= fps, to within %g %%)", fn, (double)dur[0], (double)dur[1],
                       sc->clip[0].frames, sc->clip[1].frames, (double)sc->clip[0].fps, (double)sc->clip[1].fps,
                       sc->clip[0].joints, sc->clip[1].joints, 100.0 * GRAPH_CLIP_ROUNDING);
    g->upper = malloc(sc->joints * sizeof *g->upper), g->chest = malloc(sc->joints * sizeof *g->chest);
    if (!g->upper || !g->chest) {
        pb_graph_scene_free(g);
        return pb_fail(PB_ERR_NOMEM, "%s: out of memory", fn);
    }
    masks(g, sc);
    pb_status s = breathing(g, sc);
    if (s != PB_OK) {
        pb_graph_scene_free(g);
        return s;
    }
    g->clips[0] = &sc->clip[0], g->clips[1] = &sc->clip[1], g->clips[2] = &g->breath;
    pb_graph_def *d = &g->def;
    static const char *const pn[NPARAMS] = { "speed", "direction", "jump", "upper", "breathe" };
    for (d->params = 0; d->params < NPARAMS; d->params++) snprintf(d->param[d->params], PB_GRAPH_MAX_NAME, "%s", pn[d->params]);
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < SEGMENTS; i++) {
            char name[PB_GRAPH_MAX_NAME];
            snprintf(name, sizeof name, "clip%d_%d", c, i);
            motion(d, c, dur[c] * (float)i / SEGMENTS, dur[c] * (float)(i + 1) / SEGMENTS, name);
        }
    motion(d, 2, 0, pb_clip_duration(&g->breath), "breath");
    sample(state(d, "idle", PB_GM_INERTIALIZE), 0, 0, 0);
    pb_graph_state *loco = state(d, "locomotion", PB_GM_DEAD);
    loco->space = PB_BSPACE_BARYCENTRIC, loco->px = P_DIR, loco->py = P_SPEED;
    sample(loco, 1, 0, 0.5f), sample(loco, 2, -1, 1.5f), sample(loco, 3, 1, 1.5f);
    sample(loco, 4, -1, 3), sample(loco, 5, 1, 3), sample(loco, SEGMENTS + 1, 0, 2.5f);
    pb_graph_state *strafe = state(d, "strafe", PB_GM_CROSSFADE);
    strafe->space = PB_BSPACE_1D, strafe->px = P_SPEED;
    sample(strafe, SEGMENTS + 2, 0.3f, 0), sample(strafe, SEGMENTS + 3, 1.5f, 0), sample(strafe, SEGMENTS + 4, 3, 0);
    sample(state(d, "jump", PB_GM_INERTIALIZE), SEGMENTS + 5, 0, 0);
    cond(trans(d, -1, S_JUMP, PB_GM_DEAD_UE, 0.25f), P_JUMP, PB_GC_GREATER, 0.5f);
    cond(trans(d, S_JUMP, S_IDLE, PB_GM_DEAD, 0.3f), P_JUMP, PB_GC_LESS, 0.5f);
    pb_graph_transition *t = trans(d, S_IDLE, S_STRAFE, PB_GM_CUT, 0);
    cond(t, P_SPEED, PB_GC_GREATER, 0.3f), cond(t, P_DIR, PB_GC_LESS, -0.8f);
    cond(trans(d, S_IDLE, S_LOCO, PB_GM_INERTIALIZE, 0.3f), P_SPEED, PB_GC_GREATER, 0.6f);
    cond(trans(d, S_LOCO, S_IDLE, PB_GM_CROSSFADE, 0.4f), P_SPEED, PB_GC_LESS, 0.4f);
    cond(trans(d, S_LOCO, S_STRAFE, PB_GM_CROSSFADE, 0.25f), P_DIR, PB_GC_LESS, -0.8f);
    cond(trans(d, S_STRAFE, S_LOCO, PB_GM_INERTIALIZE, 0.25f), P_DIR, PB_GC_GREATER, -0.6f);
    cond(trans(d, S_STRAFE, S_IDLE, PB_GM_DEAD, 0.3f), P_SPEED, PB_GC_LESS, 0.2f);
    d->layer[d->layers++] = (pb_graph_layer){ PB_GL_OVERRIDE, SEGMENTS + 6, P_UPPER, g->upper };
    d->layer[d->layers++] = (pb_graph_layer){ PB_GL_ADDITIVE, 2 * SEGMENTS, P_BREATHE, g->chest };
    d->start = S_IDLE;
    d->halflife = 0.1f;
    d->hl_scale = PB_HALFLIFE_EST_SCALE, d->hl_min = PB_HALFLIFE_EST_MIN, d->hl_max = PB_HALFLIFE_EST_MAX;
    s = pb_graph_check(d, g->clips, 3);
    if (s != PB_OK) pb_graph_scene_free(g);
    return s;
}

/* A uniform draw in [0, 1) for (seed, character, slot, what): a hash, no state. */
static float draw(uint64_t seed, size_t k, long slot, int what)
{
    uint64_t x = seed ^ (uint64_t)(k + 1) * 0x9E3779B97F4A7C15ull ^ (uint64_t)(slot + 1) * 0xD1B54A32D192ED03ull ^
                 (uint64_t)(what + 1) * 0x94D049BB133111EBull;
    return pb_rng_unit01(&x);
}

static float ease(float x, float target, float rate, float dt)
{
    float step = rate * dt;
    return x < target ? fminf(target, x + step) : fmaxf(target, x - step);
}

void pb_graph_scene_drive(const pb_graph_scene *g, pb_graph_crowd *c, uint64_t seed, float dt)
{
    if (!g || !c || !c->param || c->def.params != NPARAMS || !(dt >= 0)) return;
    for (size_t k = 0; k < c->characters; k++) {
        float *p = c->param + k * NPARAMS;
        /* character k's slots are 1.5 .. 3 s long, from a phase of its own */
        float len = 1.5f + 1.5f * draw(seed, k, -1, 0), t = (float)c->frame * dt + len * draw(seed, k, -1, 1);
        long slot = (long)floorf(t / len);
        float in = t - (float)slot * len;
        p[P_SPEED] = ease(p[P_SPEED], 3.0f * draw(seed, k, slot, 2), 1.5f, dt);
        p[P_DIR] = ease(p[P_DIR], 2.0f * draw(seed, k, slot, 3) - 1.0f, 1.0f, dt);
        p[P_JUMP] = draw(seed, k, slot, 4) < 0.25f && in < 0.8f ? 1.0f : 0.0f;
        p[P_UPPER] = ease(p[P_UPPER], draw(seed, k, slot, 5) < 0.5f ? 0.0f : 1.0f, 2.0f, dt);
        p[P_BREATHE] = ease(p[P_BREATHE], 0.3f + 0.7f * draw(seed, k, slot, 6), 0.5f, dt);
    }
}
