/* frame_mm.c — motion matching as a crowd's pose source (posebench/frame_mm.h):
 * the database of the scene's clips, per-character playing clocks and
 * desired-trajectory random walks, batched searches, and inertialized
 * switches computed over the switching characters only (gathered into
 * compact poses, scattered back). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "posebench/frame_mm.h"

#define FUTURE_LAST (PB_MM_FUTURE0 * PB_MM_FUTURE_STEPS)

const char *pb_mm_stage_name(pb_mm_stage s)
{
    static const char *const names[PB_MMS_COUNT] = { "sample", "inertialize", "search", "switch", "fk" };
    return (unsigned)s < PB_MMS_COUNT ? names[s] : NULL;
}

static uint64_t next(uint64_t *x)   /* xorshift64 */
{
    *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
    return *x;
}
static double uniform(uint64_t *x) { return (double)(next(x) >> 11) / 9007199254740992.0; }

void pb_mm_crowd_free(pb_mm_crowd *c)
{
    if (!c) return;
    pb_mm_db_free(&c->db);
    pb_clip_free(&c->all);
    pb_skeleton_free(&c->skel);
    pb_pose *poses[] = { &c->anim, &c->out, &c->offset, &c->global };
    for (size_t i = 0; i < sizeof poses / sizeof poses[0]; i++) pb_pose_free(poses[i]);
    for (int i = 0; i < 3; i++) free(c->cbuf[i]);
    free(c->time), free(c->since), free(c->speed), free(c->turn), free(c->rng);
    free(c->due), free(c->query), free(c->best), free(c->sw), free(c->sw_time);
    memset(c, 0, sizeof *c);
}

/* The time (s, in all) of database row r. */
static float row_time(const pb_mm_crowd *c, uint32_t r)
{
    return (float)(c->base[c->db.clip[r]] + c->db.frame[r]) / c->all.fps;
}

pb_status pb_mm_crowd_init(pb_mm_crowd *c, const pb_scene *sc, size_t characters, int interval, pb_mm_method method,
                           float duration, uint64_t seed)
{
    static const char *fn = "pb_mm_crowd_init";
    if (!c || !sc) return pb_fail(PB_ERR_NULL, "%s: %s is NULL", fn, c ? "scene" : "crowd");
    memset(c, 0, sizeof *c);
    if (characters == 0) return pb_fail(PB_ERR_EMPTY, "%s: 0 characters", fn);
    if (interval < 1) return pb_fail(PB_ERR_PARAM, "%s: interval is %d (>= 1 frame)", fn, interval);
    if (!pb_mm_method_name(method)) return pb_fail(PB_ERR_PARAM, "%s: method is %d", fn, (int)method);
    if (!(duration > 0) || !isfinite(duration))
        return pb_fail(PB_ERR_PARAM, "%s: duration is %g (finite, > 0 s)", fn, (double)duration);
    const pb_clip *k0 = &sc->clip[0], *k1 = &sc->clip[1];
    if (k0->joints != k1->joints || k0->fps != k1->fps)
        return pb_fail(PB_ERR_PARAM, "%s: the scene's clips differ (%zu / %zu joints, %g / %g fps)", fn, k0->joints,
                       k1->joints, (double)k0->fps, (double)k1->fps);
    if (characters > PB_FRAME_CROWD_MAX_ELEMENTS / sc->joints)
        return pb_fail(PB_ERR_SIZE, "%s: %zu characters x %zu joints (at most %zu elements)", fn, characters, sc->joints,
                       PB_FRAME_CROWD_MAX_ELEMENTS);
    c->sc = sc;
    c->characters = characters;
    c->n = characters * sc->joints;
    c->interval = interval;
    c->method = method;
    c->duration = duration;
    c->switching = PB_FM_INERTIALIZE;
    c->halflife = PB_FRAME_HALFLIFE_S;
    c->mskel = (pb_mm_skeleton){ sc->parents, sc->joints, sc->leg[0][2], sc->leg[1][2] };
    pb_status s = pb_mm_db_build(&c->db, sc->clip, 2, &c->mskel, NULL);
    if (s == PB_OK) s = pb_clip_alloc(&c->all, k0->frames + k1->frames, sc->joints, k0->fps);
    if (s == PB_OK) s = pb_skeleton_init(&c->skel, sc->parents, sc->joints, characters);
    pb_pose *poses[] = { &c->anim, &c->out, &c->offset, &c->global };
    for (size_t i = 0; s == PB_OK && i < sizeof poses / sizeof poses[0]; i++) s = pb_pose_alloc(poses[i], c->n);
    if (s != PB_OK) {
        pb_mm_crowd_free(c);
        return s;
    }
    c->base[1] = k0->frames;
    c->rowbase[1] = k0->frames > FUTURE_LAST ? k0->frames - FUTURE_LAST : 0;
    for (int p = 0; p < PB_PLANES; p++) {
        memcpy(c->all.pose.plane[p], k0->pose.plane[p], k0->frames * sc->joints * sizeof(float));
        memcpy(c->all.pose.plane[p] + k0->frames * sc->joints, k1->pose.plane[p], k1->frames * sc->joints * sizeof(float));
    }
    size_t C = characters;
    c->time = malloc(C * sizeof *c->time), c->since = malloc(C * sizeof *c->since);
    c->speed = malloc(C * sizeof *c->speed), c->turn = malloc(C * sizeof *c->turn), c->rng = malloc(C * sizeof *c->rng);
    c->due = malloc(C * sizeof *c->due), c->query = malloc(C * PB_MM_FEATURES * sizeof *c->query);
    c->best = malloc(C * sizeof *c->best), c->sw = malloc(C * sizeof *c->sw), c->sw_time = malloc(C * sizeof *c->sw_time);
    int bad = !c->time || !c->since || !c->speed || !c->turn || !c->rng || !c->due || !c->query || !c->best || !c->sw ||
              !c->sw_time;
    for (int i = 0; i < 3 && !bad; i++) bad = !(c->cbuf[i] = aligned_alloc(64, PB_PLANES * c->anim.stride * sizeof(float)));
    if (bad) {
        pb_mm_crowd_free(c);
        return pb_fail(PB_ERR_NOMEM, "%s: out of memory for %zu characters", fn, characters);
    }
    for (size_t k = 0; k < C; k++) {   /* a function of (seed, k) only */
        c->rng[k] = (seed + 1) * 0x9E3779B97F4A7C15ull ^ (k + 1) * 0xD1B54A32D192ED03ull;
        if (!c->rng[k]) c->rng[k] = 1;
        c->time[k] = row_time(c, (uint32_t)(uniform(&c->rng[k]) * (double)c->db.rows) % (uint32_t)c->db.rows);
        c->since[k] = duration;   /* no switch running: the offset (identity) is spent */
        c->speed[k] = (float)(2.0 * uniform(&c->rng[k]));
        c->turn[k] = (float)(uniform(&c->rng[k]) - 0.5);
    }
    return PB_OK;
}

/* The row of the frame character k plays, or -1 if that frame is not in the
 * database (a clip's last 60 frames); *near: the nearest row. */
static long playing_row(const pb_mm_crowd *c, size_t k, uint32_t *near)
{
    long idx = lrintf(c->time[k] * c->all.fps);
    int clip = (size_t)idx >= c->base[1];
    size_t frames = c->sc->clip[clip].frames, fr = (size_t)(idx - (long)c->base[clip]);
    size_t last = frames - FUTURE_LAST - 1;
    *near = (uint32_t)(c->rowbase[clip] + (fr < last ? fr : last));
    return fr <= last ? (long)*near : -1;
}

/* The raw query of character k: its playing frame's pose features (0..14,
 * the database's, de-normalized) and its desired trajectory (15..26) from a
 * constant speed and turn rate, in character space (facing +z). */
static void make_query(const pb_mm_crowd *c, size_t k, uint32_t row, float *q)
{
    const pb_mm_db *db = &c->db;
    for (int f = 0; f < 15; f++) q[f] = db->feat[pb_mm_at(row, f)] / db->scale[f] + db->mean[f];
    double s = c->speed[k], w = c->turn[k];
    for (int i = 0; i < PB_MM_FUTURE_STEPS; i++) {
        double tau = (double)(PB_MM_FUTURE0 * (i + 1)) / c->all.fps, th = w * tau;
        double x = fabs(w) > 1e-6 ? s / w * (1 - cos(th)) : 0, z = fabs(w) > 1e-6 ? s / w * sin(th) : s * tau;
        q[15 + 2 * i] = (float)x, q[16 + 2 * i] = (float)z;
        q[21 + 2 * i] = (float)sin(th), q[22 + 2 * i] = (float)cos(th);
    }
}

static pb_status stage_search(pb_mm_crowd *c, const pb_variant *v)
{
    const float dt = PB_FRAME_DT;
    c->ndue = c->nsw = 0;
    for (size_t k = 0; k < c->characters; k++) {   /* the random walks: every frame, every character */
        c->speed[k] = fminf(3.0f, fmaxf(0.0f, c->speed[k] + (float)(4.0 * (uniform(&c->rng[k]) - 0.5)) * dt));
        c->turn[k] = fminf(1.5f, fmaxf(-1.5f, c->turn[k] + (float)(8.0 * (uniform(&c->rng[k]) - 0.5)) * dt));
        if ((c->frame + (long)(k % (size_t)c->interval)) % c->interval == 0) c->due[c->ndue++] = k;
    }
    if (!c->ndue) return PB_OK;
    for (size_t i = 0; i < c->ndue; i++) {
        uint32_t near;
        playing_row(c, c->due[i], &near);
        make_query(c, c->due[i], near, c->query + i * PB_MM_FEATURES);
    }
    pb_status s = pb_mm_search(&c->db, c->query, c->ndue, NULL, 0, c->method, c->best, NULL, v);
    if (s != PB_OK) {
        c->failed = "pb_mm_search";
        return s;
    }
    c->searches += c->ndue;
    for (size_t i = 0; i < c->ndue; i++) {
        uint32_t near;
        long row = playing_row(c, c->due[i], &near);
        if (row >= 0 && (uint32_t)row == c->best[i]) continue;
        c->sw_time[c->nsw] = row_time(c, c->best[i]);
        c->sw[c->nsw++] = c->due[i];
    }
    return PB_OK;
}

pb_status pb_mm_switching_check(const char *who, pb_frame_method m)
{
    if (m == PB_FM_INERTIALIZE || m == PB_FM_DEAD || m == PB_FM_CUT) return PB_OK;
    return pb_fail(PB_ERR_PARAM, "%s: method %s: motion matching switches by inertialize, dead_slerp or cut only", who,
                   pb_frame_method_name(m) ? pb_frame_method_name(m) : "(not a pb_frame_method)");
}

pb_status pb_mm_crowd_switching(pb_mm_crowd *c, pb_frame_method m, float halflife)
{
    static const char *fn = "pb_mm_crowd_switching";
    if (!c || !c->sc) return pb_fail(PB_ERR_NULL, "%s: crowd is NULL or not initialized", fn);
    pb_status st = pb_mm_switching_check(fn, m);
    if (st != PB_OK) return st;
    if (m == PB_FM_DEAD && !(halflife >= 0 && isfinite(halflife)))
        return pb_fail(PB_ERR_PARAM, "%s: halflife is %g (finite, >= 0 s)", fn, (double)halflife);
    if (c->frame > 0)
        return pb_fail(PB_ERR_PARAM, "%s: the crowd has stepped %ld frames (set the method before the first)", fn,
                       c->frame);
    c->switching = m;
    if (m == PB_FM_DEAD) c->halflife = halflife;
    return PB_OK;
}

/* Compact pose over buffer mem: the nsw switching characters (planes of
 * stride floats, padding identity), gathered from src unless src is NULL
 * (an output: the op writes its n elements). */
static pb_status compact(pb_mm_crowd *c, float *mem, const pb_pose *src, pb_pose *view)
{
    size_t J = c->sc->joints, m = c->nsw, n = J * m, stride = pb_padded(n);
    float *planes[PB_PLANES];
    for (int p = 0; p < PB_PLANES; p++) {
        float *o = planes[p] = mem + (size_t)p * c->anim.stride, one = pb_plane_identity(p);
        for (size_t j = 0; src && j < J; j++) {
            const float *row = src->plane[p] + j * c->characters;
            for (size_t i = 0; i < m; i++) o[j * m + i] = row[c->sw[i]];
        }
        for (size_t e = n; e < stride; e++) o[e] = one;
    }
    return pb_pose_wrap(view, n, stride, planes);
}

static void scatter(pb_mm_crowd *c, const pb_pose *from, pb_pose *to)
{
    size_t J = c->sc->joints, m = c->nsw;
    for (int p = 0; p < PB_PLANES; p++)
        for (size_t j = 0; j < J; j++) {
            float *row = to->plane[p] + j * c->characters;
            const float *in = from->plane[p] + j * m;
            for (size_t i = 0; i < m; i++) row[c->sw[i]] = in[i];
        }
}

/* The switching characters: offsets from this frame's output (the source)
 * to their new frames sampled now; their output stays the source. */
static pb_status stage_switch(pb_mm_crowd *c, const pb_variant *v)
{
    if (!c->nsw) return PB_OK;
    pb_pose src, dst, off;
    pb_status s = c->switching == PB_FM_CUT ? PB_OK : compact(c, c->cbuf[0], &c->out, &src);
    if (c->switching != PB_FM_INERTIALIZE) {   /* dead blending: the output now is the source state; a cut: none */
        if (s != PB_OK) return s;
        if (c->switching == PB_FM_DEAD) scatter(c, &src, &c->offset);
        for (size_t i = 0; i < c->nsw; i++) c->time[c->sw[i]] = c->sw_time[i], c->since[c->sw[i]] = 0;
        c->switches += c->nsw;
        return PB_OK;
    }
    if (s == PB_OK) s = compact(c, c->cbuf[1], NULL, &dst);
    if (s == PB_OK) s = compact(c, c->cbuf[2], NULL, &off);
    if (s == PB_OK) {
        pb_call call = { .out = &dst, .clip = &c->all, .offsets = c->sw_time };
        if ((s = pb_run(PB_OP_sample_linear, v, &call)) != PB_OK) c->failed = "sample_linear";
    }
    if (s == PB_OK) {
        pb_call call = { .a = &src, .b = &dst, .out = &off };
        if ((s = pb_run(PB_OP_inertialize_offset, v, &call)) != PB_OK) c->failed = "inertialize_offset";
    }
    if (s != PB_OK) return s;
    scatter(c, &off, &c->offset);
    for (size_t i = 0; i < c->nsw; i++) {
        c->time[c->sw[i]] = c->sw_time[i];
        c->since[c->sw[i]] = 0;
    }
    c->switches += c->nsw;
    return PB_OK;
}

pb_status pb_mm_crowd_stage(pb_mm_crowd *c, const pb_variant *v, pb_mm_stage st)
{
    if (!c || !c->sc) return pb_fail(PB_ERR_NULL, "pb_mm_crowd_stage: crowd is NULL or not initialized");
    pb_status s = PB_OK;
    switch (st) {
    case PB_MMS_SAMPLE: {
        pb_call call = { .out = &c->anim, .clip = &c->all, .offsets = c->time };
        if ((s = pb_run(PB_OP_sample_linear, v, &call)) != PB_OK) c->failed = "sample_linear";
        return s;
    }
    case PB_MMS_INERTIALIZE: {
        if (c->switching == PB_FM_CUT) {
            if ((s = pb_pose_copy(&c->out, &c->anim)) != PB_OK) c->failed = "pb_pose_copy";
            return s;
        }
        if (c->switching == PB_FM_DEAD) {
            pb_call call = { .a = &c->offset, .b = &c->anim, .out = &c->out, .skel = &c->skel,
                             .params = { .duration = c->duration, .halflife = c->halflife },
                             .per = { .characters = c->characters, .time = c->since } };
            if ((s = pb_run(PB_OP_dead_blending, v, &call)) != PB_OK) c->failed = "dead_blending";
            return s;
        }
        pb_call call = { .a = &c->anim, .b = &c->offset, .out = &c->out,
                         .params = { .duration = c->duration },
                         .per = { .characters = c->characters, .time = c->since } };
        if ((s = pb_run(PB_OP_inertialize, v, &call)) != PB_OK) c->failed = "inertialize";
        return s;
    }
    case PB_MMS_SEARCH: return stage_search(c, v);
    case PB_MMS_SWITCH: return stage_switch(c, v);
    case PB_MMS_FK: {
        pb_call call = { .a = &c->out, .out = &c->global, .skel = &c->skel };
        if ((s = pb_run(PB_OP_fk, v, &call)) != PB_OK) c->failed = "fk";
        return s;
    }
    default: return pb_fail(PB_ERR_PARAM, "pb_mm_crowd_stage: stage %d is not a pb_mm_stage", (int)st);
    }
}

void pb_mm_crowd_advance(pb_mm_crowd *c)
{
    if (!c || !c->sc) return;
    for (size_t k = 0; k < c->characters; k++) {
        c->time[k] += PB_FRAME_DT;
        c->since[k] = fminf(c->since[k] + PB_FRAME_DT, c->duration);
    }
    c->frame++;
}

pb_status pb_mm_crowd_step(pb_mm_crowd *c, const pb_variant *v)
{
    for (int st = 0; st < PB_MMS_COUNT; st++) {
        pb_status s = pb_mm_crowd_stage(c, v, (pb_mm_stage)st);
        if (s != PB_OK) return s;
    }
    pb_mm_crowd_advance(c);
    return PB_OK;
}
