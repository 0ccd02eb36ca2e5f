/* mm_db.c — the motion-matching feature database (posebench/mm.h): each
 * frame's features from forward kinematics in double (root and feet), in the
 * character's own space, normalized per group and stored SoA. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define FUTURE_LAST (PB_MM_FUTURE0 * PB_MM_FUTURE_STEPS)   /* 60 frames: the last future offset */

/* The groups' first feature and size (mm.h). */
static const int group_at[PB_MM_GROUPS + 1] = { 0, 6, 12, 15, 21, 27 };

pb_mm_weights pb_mm_weights_default(void)
{
    pb_mm_weights w;
    for (int g = 0; g < PB_MM_GROUPS; g++) w.w[g] = 1.0f;
    return w;
}

/* One frame's root and feet in world space (double FK down to each joint). */
typedef struct { double root[3], rootq[4], foot[2][3]; } mm_pose;

static void qmul(const double a[4], const double b[4], double o[4])
{
    double r[4] = { a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
                    a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
                    a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
                    a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0] };
    memcpy(o, r, sizeof r);
}
static void qrot(const double q[4], const double v[3], double o[3])
{
    double t[3] = { 2 * (q[2] * v[2] - q[3] * v[1]), 2 * (q[3] * v[0] - q[1] * v[2]), 2 * (q[1] * v[1] - q[2] * v[0]) };
    double r[3] = { v[0] + q[0] * t[0] + q[2] * t[2] - q[3] * t[1], v[1] + q[0] * t[1] + q[3] * t[0] - q[1] * t[2],
                    v[2] + q[0] * t[2] + q[1] * t[1] - q[2] * t[0] };
    memcpy(o, r, sizeof r);
}

/* World position and rotation of joint j at frame f (locals: pos, rot, scl). */
static void world_of(const pb_clip *c, const pb_mm_skeleton *sk, size_t f, int j, double p[3], double q[4])
{
    int chain[1024], n = 0;
    for (int a = j; a >= 0 && n < 1024; a = sk->parents[a]) chain[n++] = a;
    p[0] = p[1] = p[2] = 0;
    q[0] = 1, q[1] = q[2] = q[3] = 0;
    double s[3] = { 1, 1, 1 };
    for (int i = n - 1; i >= 0; i--) {
        size_t e = f * c->joints + (size_t)chain[i];
        double lp[3], lq[4], w[3];
        for (int a = 0; a < 3; a++) lp[a] = s[a] * c->pose.plane[PB_POS_X + a][e];
        for (int a = 0; a < 4; a++) lq[a] = c->pose.plane[PB_ROT_W + a][e];
        double len = sqrt(lq[0] * lq[0] + lq[1] * lq[1] + lq[2] * lq[2] + lq[3] * lq[3]);
        for (int a = 0; a < 4; a++) lq[a] = len > 0 ? lq[a] / len : (a == 0);
        qrot(q, lp, w);
        for (int a = 0; a < 3; a++) {
            p[a] += w[a];
            s[a] *= c->pose.plane[PB_SCL_X + a][e];
        }
        qmul(q, lq, q);
    }
}

static void pose_at(const pb_clip *c, const pb_mm_skeleton *sk, size_t f, mm_pose *o)
{
    double q[4];
    world_of(c, sk, f, 0, o->root, o->rootq);
    world_of(c, sk, f, sk->left_foot, o->foot[0], q);
    world_of(c, sk, f, sk->right_foot, o->foot[1], q);
}

/* The facing direction on the ground (x, z): the root's forward axis (+z of
 * its frame) projected, unit; straight up or down: +z. */
static void facing(const mm_pose *p, double out[2])
{
    double fwd[3];
    qrot(p->rootq, (const double[3]){ 0, 0, 1 }, fwd);
    double l = sqrt(fwd[0] * fwd[0] + fwd[2] * fwd[2]);
    out[0] = l > 1e-9 ? fwd[0] / l : 0;
    out[1] = l > 1e-9 ? fwd[2] / l : 1;
}

/* World vector v into the character space of facing fc (x', z' = v turned so
 * the facing is +z; y kept). */
static void to_local(const double fc[2], const double v[3], double o[3])
{
    double x = v[0] * fc[1] - v[2] * fc[0], z = v[0] * fc[0] + v[2] * fc[1];
    o[0] = x, o[1] = v[1], o[2] = z;
}

static pb_status check_skeleton(const pb_clip *c, const pb_mm_skeleton *sk, const char *fn)
{
    if (!sk || !sk->parents) return pb_fail(PB_ERR_NULL, "%s: skeleton%s is NULL", fn, sk ? ".parents" : "");
    if (sk->joints > 1024) return pb_fail(PB_ERR_SIZE, "%s: skeleton has %zu joints (at most 1024)", fn, sk->joints);
    if (sk->joints != c->joints)
        return pb_fail(PB_ERR_SIZE, "%s: skeleton has %zu joints, the clip %zu", fn, sk->joints, c->joints);
    if (sk->parents[0] != -1) return pb_fail(PB_ERR_PARAM, "%s: skeleton.parents[0] is %d (joint 0 is the root: -1)",
                                             fn, (int)sk->parents[0]);
    for (size_t j = 1; j < sk->joints; j++)
        if (sk->parents[j] < 0 || (size_t)sk->parents[j] >= j)
            return pb_fail(PB_ERR_PARAM, "%s: skeleton.parents[%zu] is %d (parents come first)", fn, j,
                           (int)sk->parents[j]);
    if (sk->left_foot <= 0 || (size_t)sk->left_foot >= sk->joints || sk->right_foot <= 0 ||
        (size_t)sk->right_foot >= sk->joints || sk->left_foot == sk->right_foot)
        return pb_fail(PB_ERR_PARAM, "%s: feet are joints %d and %d (two different joints in 1 .. %zu)", fn,
                       sk->left_foot, sk->right_foot, sk->joints - 1);
    return PB_OK;
}

/* Features of frame f from the poses of frames f, f + 1 and the future ones. */
static void features_of(const pb_clip *c, const pb_mm_skeleton *sk, size_t f, float out[PB_MM_FEATURES])
{
    mm_pose p0, p1;
    pose_at(c, sk, f, &p0);
    pose_at(c, sk, f + 1, &p1);
    double fc[2], o[3] = { p0.root[0], 0, p0.root[2] }, v[3], l[3];
    facing(&p0, fc);
    int k = 0;
    for (int s = 0; s < 2; s++) {   /* feet positions */
        for (int a = 0; a < 3; a++) v[a] = p0.foot[s][a] - o[a];
        to_local(fc, v, l);
        for (int a = 0; a < 3; a++) out[k++] = (float)l[a];
    }
    for (int s = 0; s < 3; s++) {   /* feet and hip velocities */
        const double *a0 = s < 2 ? p0.foot[s] : p0.root, *a1 = s < 2 ? p1.foot[s] : p1.root;
        for (int a = 0; a < 3; a++) v[a] = (a1[a] - a0[a]) * c->fps;
        to_local(fc, v, l);
        for (int a = 0; a < 3; a++) out[k++] = (float)l[a];
    }
    double fut[PB_MM_FUTURE_STEPS][2], dir[PB_MM_FUTURE_STEPS][2];
    for (int t = 0; t < PB_MM_FUTURE_STEPS; t++) {
        mm_pose pf;
        pose_at(c, sk, f + (size_t)(PB_MM_FUTURE0 * (t + 1)), &pf);
        double d[2];
        for (int a = 0; a < 3; a++) v[a] = pf.root[a] - o[a];
        to_local(fc, v, l);
        fut[t][0] = l[0], fut[t][1] = l[2];
        facing(&pf, d);
        to_local(fc, (const double[3]){ d[0], 0, d[1] }, l);
        dir[t][0] = l[0], dir[t][1] = l[2];
    }
    for (int t = 0; t < PB_MM_FUTURE_STEPS; t++) out[k++] = (float)fut[t][0], out[k++] = (float)fut[t][1];
    for (int t = 0; t < PB_MM_FUTURE_STEPS; t++) out[k++] = (float)dir[t][0], out[k++] = (float)dir[t][1];
}

pb_status pb_mm_features(const pb_clip *c, const pb_mm_skeleton *sk, size_t f, float out[PB_MM_FEATURES])
{
    if (!c || !out) return pb_fail(PB_ERR_NULL, "pb_mm_features: %s is NULL", c ? "out" : "clip");
    pb_status s = pb_clip_check(c);
    if (s != PB_OK) return s;
    if ((s = check_skeleton(c, sk, "pb_mm_features")) != PB_OK) return s;
    if (c->frames <= FUTURE_LAST || f >= c->frames - FUTURE_LAST)
        return pb_fail(PB_ERR_PARAM, "pb_mm_features: frame %zu of a %zu-frame clip has no trajectory %d frames "
                       "ahead", f, c->frames, FUTURE_LAST);
    features_of(c, sk, f, out);
    return PB_OK;
}

void pb_mm_db_free(pb_mm_db *db)
{
    if (!db) return;
    free(db->feat);
    free(db->clip);
    free(db->frame);
    for (int lv = 0; lv < 2; lv++) free(db->box[lv]);
    memset(db, 0, sizeof *db);
}

void pb_mm_normalize(const pb_mm_db *db, const float raw[PB_MM_FEATURES], float out[PB_MM_FEATURES])
{
    if (!db || !raw || !out) return;   /* nothing to normalize (a void call: no status to give) */
    for (int i = 0; i < PB_MM_FEATURES; i++) out[i] = (raw[i] - db->mean[i]) * db->scale[i];
}

/* Means, group deviations and scales from the raw rows (feat holds raw features). */
static void normalize_all(pb_mm_db *db, const pb_mm_weights *w)
{
    size_t R = db->rows, S = db->stride;
    double var[PB_MM_FEATURES];
    for (int i = 0; i < PB_MM_FEATURES; i++) {
        double m = 0, v = 0;
        for (size_t r = 0; r < R; r++) m += db->feat[pb_mm_at(r, i)];
        m /= (double)R;
        for (size_t r = 0; r < R; r++) {
            double t = db->feat[pb_mm_at(r, i)] - m;
            v += t * t;
        }
        db->mean[i] = (float)m;
        var[i] = v / (double)R;
    }
    for (int g = 0; g < PB_MM_GROUPS; g++) {
        double v = 0;
        for (int i = group_at[g]; i < group_at[g + 1]; i++) v += var[i];
        double sd = sqrt(v / (group_at[g + 1] - group_at[g]));
        db->flat[g] = !(sd > 1e-12);
        for (int i = group_at[g]; i < group_at[g + 1]; i++) db->scale[i] = (float)(w->w[g] / (db->flat[g] ? 1.0 : sd));
    }
    for (int i = 0; i < PB_MM_FEATURES; i++) {
        for (size_t r = 0; r < S; r++) {
            float *p = &db->feat[pb_mm_at(r, i)];
            *p = r < R ? (*p - db->mean[i]) * db->scale[i] : INFINITY;
        }
    }
}

pb_status pb_mm_db_build(pb_mm_db *db, const pb_clip *clips, size_t nclips, const pb_mm_skeleton *sk,
                         const pb_mm_weights *w)
{
    static const char *fn = "pb_mm_db_build";
    if (!db) return pb_fail(PB_ERR_NULL, "%s: db is NULL", fn);
    memset(db, 0, sizeof *db);
    if (!clips) return pb_fail(PB_ERR_NULL, "%s: clips is NULL", fn);
    if (nclips == 0) return pb_fail(PB_ERR_EMPTY, "%s: no clips", fn);
    if (nclips > PB_MM_MAX_CLIPS) return pb_fail(PB_ERR_SIZE, "%s: %zu clips (at most %d)", fn, nclips, PB_MM_MAX_CLIPS);
    pb_mm_weights wd = pb_mm_weights_default();
    if (!w) w = &wd;
    for (int g = 0; g < PB_MM_GROUPS; g++)
        if (!(w->w[g] > 0) || !isfinite(w->w[g]))
            return pb_fail(PB_ERR_PARAM, "%s: weights.w[%d] is %g (each group's weight must be finite and > 0)", fn, g,
                           (double)w->w[g]);
    size_t rows = 0, longest = 0;
    for (size_t c = 0; c < nclips; c++) {
        char where[64];
        snprintf(where, sizeof where, "%s: clip %zu", fn, c);
        pb_status s = pb_clip_check(&clips[c]);
        if (s != PB_OK) return pb_fail(s, "%s: %s", where, pb_last_error());
        if ((s = check_skeleton(&clips[c], sk, where)) != PB_OK) return s;
        if (clips[c].frames > FUTURE_LAST) rows += clips[c].frames - FUTURE_LAST;
        if (clips[c].frames > clips[longest].frames) longest = c;
        if (rows > PB_MM_MAX_FRAMES)
            return pb_fail(PB_ERR_SIZE, "%s: more than %zu rows (clips 0 .. %zu)", fn, PB_MM_MAX_FRAMES, c);
    }
    if (rows == 0)
        return pb_fail(PB_ERR_EMPTY, "%s: no clip is longer than the trajectory window (%d frames ahead): the "
                       "longest, clip %zu, has %zu frames", fn, FUTURE_LAST, longest, clips[longest].frames);
    db->rows = rows;
    db->stride = (rows + 63) / 64 * 64;
    db->feat = aligned_alloc(64, db->stride * PB_MM_FEATURES * sizeof(float));
    db->clip = malloc(rows * sizeof *db->clip);
    db->frame = malloc(rows * sizeof *db->frame);
    if (!db->feat || !db->clip || !db->frame) {
        pb_mm_db_free(db);
        return pb_fail(PB_ERR_NOMEM, "%s: out of memory for %zu rows", fn, rows);
    }
    size_t r = 0;
    for (size_t c = 0; c < nclips; c++)
        for (size_t f = 0; f + FUTURE_LAST < clips[c].frames; f++, r++) {
            float x[PB_MM_FEATURES];
            features_of(&clips[c], sk, f, x);
            for (int i = 0; i < PB_MM_FEATURES; i++) {
                if (!isfinite(x[i])) {
                    pb_mm_db_free(db);
                    return pb_fail(PB_ERR_PARAM, "%s: clip %zu frame %zu: feature %d is %g (non-finite keys?)", fn, c,
                                   f, i, (double)x[i]);
                }
                db->feat[pb_mm_at(r, i)] = x[i];
            }
            db->clip[r] = (uint32_t)c;
            db->frame[r] = (uint32_t)f;
        }
    normalize_all(db, w);
    if (pb_mm_db_index(db) != 0) {
        pb_mm_db_free(db);
        return pb_fail(PB_ERR_NOMEM, "%s: out of memory for the index of %zu rows", fn, rows);
    }
    return PB_OK;
}
