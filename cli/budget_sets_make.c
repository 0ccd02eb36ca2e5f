/* budget_sets_make.c — which transitions each set of budget_sets.h holds,
 * drawn from a seed (splitmix64, src/rng.h): the same seed, the same set. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "budget_sets.h"
#include "qd.h"
#include "rng.h"

/* clip times: 1 s in (room for the references before a late switch) to 2 s before the end */
static float pick_time(uint64_t *rng, const pb_clip *c)
{
    double len = (double)c->frames * c->frame_time, lo = 1.0, hi = len - 2.0;
    if (hi <= lo) lo = 0.45 * len, hi = 0.5 * len;   /* short clips (synthetic: 2 s) */
    return (float)(lo + (hi - lo) * pb_rng_unit01d(rng));
}

static int frames_for(const bs_trans *t)
{
    return t->start[t->nseg - 1] + (int)ceil(t->duration / PB_FRAME_DT - 1e-6) + 2;
}

static void pair(bs_trans *t, int scene, int from, float at, int to, float to_at, float duration, const char *why)
{
    memset(t, 0, sizeof *t);
    t->scene = scene;
    t->nseg = 2;
    t->clip[0] = from, t->at[0] = at;
    t->clip[1] = to, t->at[1] = to_at;
    t->start[1] = BS_PRE;
    t->duration = duration;
    t->frames = frames_for(t);
    t->why = why;
}

static void header(bs_set *s, const char *name, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    s->name = name;
    s->seed = seed;
}

/* every ordered pair of a mocap scene's clips (one when both are the same file), `per` seeded times each */
void bs_make_real(const bs_ctx *x, bs_set *s, uint64_t seed, float duration)
{
    header(s, "real", seed);
    uint64_t rng = seed;
    int scenes = 0;
    for (int i = 0; i < x->nscenes; i++) scenes += x->scenes[i].real;
    if (!scenes) return;
    for (int i = 0; i < x->nscenes; i++) {
        const bs_scene *S = &x->scenes[i];
        if (!S->real) continue;
        int same = !strcmp(S->sc->clip_name[0], S->sc->clip_name[1]), np = same ? 1 : 4;
        int per = BS_MAX_TRANS / 2 / scenes / np;
        if (per < 1) per = 1;
        for (int p = 0; p < np; p++)
            for (int r = 0; r < per && s->nt < BS_MAX_TRANS; r++) {
                int from = p / 2, to = p % 2;
                float a = pick_time(&rng, &S->sc->clip[from]), b = pick_time(&rng, &S->sc->clip[to]);
                pair(&s->t[s->nt++], i, from, a, to, b, duration, "");
            }
    }
    snprintf(s->how, sizeof s->how, "every ordered pair of each mocap scene's clips, clip times seeded (%.2f s)", duration);
}

/* Distance between two keys of a scene: the summed angle (rad) between the measured joints' local
 * rotations; opposition: the summed opposite part of their local angular velocities (rad/s),
 * max(0, -w_a . w_b) / |w_b| per joint, from key to next key. */
static void pose_scores(const bs_scene *S, int ca, float ta, int cb, float tb, double *dist, double *opp)
{
    const pb_scene *sc = S->sc;
    size_t J = sc->joints;
    const pb_clip *a = &sc->clip[ca], *b = &sc->clip[cb];
    size_t fa = (size_t)(ta / a->frame_time), fb = (size_t)(tb / b->frame_time);
    if (fa + 1 >= a->frames) fa = a->frames - 2;
    if (fb + 1 >= b->frames) fb = b->frames - 2;
    *dist = *opp = 0;
    for (size_t j = 0; j < J; j++) {
        if (!S->measured[j]) continue;
        qd qa = qd_get(&a->pose, fa * J + j), qb = qd_get(&b->pose, fb * J + j);
        qd d = qd_mul(qd_conj(qa), qb);
        *dist += 2 * atan2(sqrt(d.x * d.x + d.y * d.y + d.z * d.z), fabs(d.w));
        double wa[3], wb[3];
        qd_saa(qd_mul(qd_get(&a->pose, (fa + 1) * J + j), qd_conj(qa)), wa);
        qd_saa(qd_mul(qd_get(&b->pose, (fb + 1) * J + j), qd_conj(qb)), wb);
        double dot = 0, nb = 0;
        for (int k = 0; k < 3; k++) {
            wa[k] /= a->frame_time, wb[k] /= b->frame_time;
            dot += wa[k] * wb[k], nb += wb[k] * wb[k];
        }
        if (dot < 0 && nb > 0) *opp += -dot / sqrt(nb);
    }
}

#define BS_CANDIDATES 96
#define BS_HARD_EACH 3
static const float hard_durations[4] = { 0.05f, 0.1f, 0.2f, 0.4f };

/* The scenes a mocap set draws from into real[]: the mocap ones, or with none the synthetic ones; their count */
static int mocap_scenes(const bs_ctx *x, int real[BS_MAX_SCENES])
{
    int nr = 0;
    for (int i = 0; i < x->nscenes; i++)
        if (x->scenes[i].real) real[nr++] = i;
    if (!nr)   /* no mocap: the synthetic scenes */
        for (int i = 0; i < x->nscenes; i++) real[nr++] = i;
    return nr;
}

void bs_make_hard(const bs_ctx *x, bs_set *s, uint64_t seed)
{
    header(s, "hard", seed);
    int real[BS_MAX_SCENES], nr = mocap_scenes(x, real);
    if (!nr) return;
    uint64_t rng = seed;
    struct cand { int scene, from, to; float a, b; double dist, opp; int used; } c[BS_CANDIDATES];
    for (int i = 0; i < BS_CANDIDATES; i++) {
        c[i].scene = real[pb_rng_next(&rng) % (uint64_t)nr];
        const bs_scene *S = &x->scenes[c[i].scene];
        c[i].from = (int)(pb_rng_next(&rng) & 1), c[i].to = (int)(pb_rng_next(&rng) & 1);
        c[i].a = pick_time(&rng, &S->sc->clip[c[i].from]);
        c[i].b = pick_time(&rng, &S->sc->clip[c[i].to]);
        pose_scores(S, c[i].from, c[i].a, c[i].to, c[i].b, &c[i].dist, &c[i].opp);
        c[i].used = 0;
    }
    for (int by = 0; by < 2; by++)   /* the largest pose distance, then the most opposite velocities */
        for (int n = 0; n < BS_HARD_EACH; n++) {
            int best = -1;
            for (int i = 0; i < BS_CANDIDATES; i++)
                if (!c[i].used && (best < 0 || (by ? c[i].opp > c[best].opp : c[i].dist > c[best].dist))) best = i;
            c[best].used = 1;
            for (int d = 0; d < 4 && s->nt < BS_MAX_TRANS; d++)
                pair(&s->t[s->nt++], c[best].scene, c[best].from, c[best].a, c[best].to, c[best].b, hard_durations[d],
                     by ? "velocity" : "distance");
        }
    snprintf(s->how, sizeof s->how, "of %d seeded %s pairs, the %d farthest apart (summed joint angle) and the %d with the "
             "most opposite joint velocities, each at 0.05, 0.1, 0.2 and 0.4 s", BS_CANDIDATES,
             x->scenes[c[0].scene].real ? "mocap" : "synthetic (no mocap packaged)", BS_HARD_EACH, BS_HARD_EACH);
}

#define BS_CHAINS 8
void bs_make_interrupted(const bs_ctx *x, bs_set *s, uint64_t seed, float duration, int switches)
{
    header(s, "interrupted", seed);
    int real[BS_MAX_SCENES], nr = mocap_scenes(x, real);
    if (!nr) return;
    if (switches > BS_MAX_SEG - 1) switches = BS_MAX_SEG - 1;
    uint64_t rng = seed;
    for (int i = 0; i < BS_CHAINS && s->nt < BS_MAX_TRANS; i++) {
        bs_trans *t = &s->t[s->nt++];
        memset(t, 0, sizeof *t);
        t->scene = real[pb_rng_next(&rng) % (uint64_t)nr];
        const bs_scene *S = &x->scenes[t->scene];
        t->nseg = switches + 1;
        for (int k = 0; k < t->nseg; k++) {
            t->clip[k] = (int)(pb_rng_next(&rng) & 1);
            t->at[k] = pick_time(&rng, &S->sc->clip[t->clip[k]]);
            /* the next transition 3 to 9 frames (0.05 to 0.15 s) after the last */
            t->start[k] = k == 0 ? 0 : k == 1 ? BS_PRE : t->start[k - 1] + 3 + (int)(pb_rng_next(&rng) % 7);
        }
        t->duration = duration;
        t->frames = frames_for(t);
        t->why = "";
    }
    snprintf(s->how, sizeof s->how, "%d runs of %d transitions (%.2f s each), each started 0.05-0.15 s (3-9 frames) after "
             "the last, clips and times seeded%s", BS_CHAINS, switches, duration,
             x->scenes[s->t[0].scene].real ? "" : " (synthetic: no mocap packaged)");
}

void bs_make_synthetic(const bs_ctx *x, bs_set *s, uint64_t seed, float duration)
{
    header(s, "synthetic", seed);
    uint64_t rng = seed;
    for (int i = 0; i < x->nscenes; i++) {
        const bs_scene *S = &x->scenes[i];
        if (S->real) continue;
        for (int r = 0; r < 8 && s->nt < BS_MAX_TRANS; r++) {
            int from = r & 1, to = !from;
            float a = pick_time(&rng, &S->sc->clip[from]), b = pick_time(&rng, &S->sc->clip[to]);
            pair(&s->t[s->nt++], i, from, a, to, b, duration, "");
        }
    }
    snprintf(s->how, sizeof s->how, "8 transitions between the synthetic scene's two clips, both directions, times seeded "
             "(%.2f s)", duration);
}
