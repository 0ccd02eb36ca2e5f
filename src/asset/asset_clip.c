/* asset_clip.c — the imported clips (posebench/asset.h): each aiAnimation
 * resampled into a pb_clip of frames x joints at a fixed rate, its original
 * key times kept. The file's own rate is that of the common step of its key
 * times, so at that rate every key lands on a frame and the clip holds the
 * file's keys unchanged (between keys: linear positions and scales, slerp
 * on the shorter arc for rotations, as Assimp's own evaluator does). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "asset_int.h"

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double gcd_u64(double a, double b)
{
    unsigned long long x = (unsigned long long)a, y = (unsigned long long)b;
    while (y) {
        unsigned long long t = x % y;
        x = y, y = t;
    }
    return (double)x;
}

/* The rate (Hz) whose frames hold every key time t (ticks) of times[0..n). */
static double key_rate(const double *t, size_t n, double tps)
{
    int integral = 1;
    for (size_t i = 0; i < n && integral; i++) integral = fabs(t[i] - nearbyint(t[i])) <= 1e-6 && t[i] < 9e15;
    double g = 0, unit = 1.0 / tps;   /* the grid in seconds */
    if (!integral) unit = 1e-4;
    for (size_t i = 0; i < n; i++) {
        double k = integral ? nearbyint(t[i]) : nearbyint(t[i] / tps / unit);
        if (k > 0 && k < 9e15) g = g == 0 ? k : gcd_u64(g, k);
    }
    double rate = g > 0 ? 1.0 / (g * unit) : 0;
    return rate >= 1.0 && rate <= PB_ASSET_MAX_RATE ? rate : PB_ASSET_FALLBACK_RATE;
}

static void sample_vec(const struct aiVectorKey *k, size_t n, double t, double out[3])
{
    size_t lo = 0, hi = n;   /* the keys' own times: binary search over the aiVectorKey array */
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (k[mid].mTime <= t) lo = mid;
        else hi = mid;
    }
    size_t i = lo, j = lo + 1 < n ? lo + 1 : lo;
    double a = 0;
    if (j != i && t > k[i].mTime) a = (t - k[i].mTime) / (k[j].mTime - k[i].mTime);
    if (!(a > 0)) a = 0;
    if (a > 1) a = 1;
    out[0] = k[i].mValue.x + a * ((double)k[j].mValue.x - k[i].mValue.x);
    out[1] = k[i].mValue.y + a * ((double)k[j].mValue.y - k[i].mValue.y);
    out[2] = k[i].mValue.z + a * ((double)k[j].mValue.z - k[i].mValue.z);
}

static void sample_quat(const struct aiQuatKey *k, size_t n, double t, double out[4])
{
    size_t lo = 0, hi = n;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (k[mid].mTime <= t) lo = mid;
        else hi = mid;
    }
    size_t i = lo, j = lo + 1 < n ? lo + 1 : lo;
    double a = 0;
    if (j != i && t > k[i].mTime) a = (t - k[i].mTime) / (k[j].mTime - k[i].mTime);
    if (!(a > 0)) a = 0;
    if (a > 1) a = 1;
    double p[4] = { k[i].mValue.w, k[i].mValue.x, k[i].mValue.y, k[i].mValue.z };
    double q[4] = { k[j].mValue.w, k[j].mValue.x, k[j].mValue.y, k[j].mValue.z };
    double np = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3]);
    double nq = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    double d = 0;
    for (int c = 0; c < 4; c++) p[c] /= np, q[c] /= nq, d += p[c] * q[c];
    if (d < 0) {
        for (int c = 0; c < 4; c++) q[c] = -q[c];
        d = -d;
    }
    double wp = 1 - a, wq = a;
    if (d < 0.9995 && a > 0 && a < 1) {
        double th = acos(d > 1 ? 1 : d), s = sin(th);
        wp = sin((1 - a) * th) / s, wq = sin(a * th) / s;
    }
    double len = 0;
    for (int c = 0; c < 4; c++) out[c] = wp * p[c] + wq * q[c], len += out[c] * out[c];
    len = sqrt(len);
    for (int c = 0; c < 4; c++) out[c] /= len;
}

/* Every key finite and every rotation key non-zero: checked once, before sampling. */
static pb_status check_keys(abuild *b, const struct aiAnimation *an, const struct aiNodeAnim *ch)
{
    for (unsigned k = 0; k < ch->mNumPositionKeys; k++) {
        const struct aiVectorKey *v = &ch->mPositionKeys[k];
        if (!isfinite(v->mTime) || !isfinite(v->mValue.x) || !isfinite(v->mValue.y) || !isfinite(v->mValue.z))
            return pb_fail(PB_ERR_PARAM, "%s: clip '%s', node '%s': position key %u is not finite", b->name,
                           an->mName.data, ch->mNodeName.data, k);
    }
    for (unsigned k = 0; k < ch->mNumScalingKeys; k++) {
        const struct aiVectorKey *v = &ch->mScalingKeys[k];
        if (!isfinite(v->mTime) || !isfinite(v->mValue.x) || !isfinite(v->mValue.y) || !isfinite(v->mValue.z) ||
            v->mValue.x == 0 || v->mValue.y == 0 || v->mValue.z == 0)
            return pb_fail(PB_ERR_PARAM, "%s: clip '%s', node '%s': scaling key %u is not finite or zero", b->name,
                           an->mName.data, ch->mNodeName.data, k);
    }
    for (unsigned k = 0; k < ch->mNumRotationKeys; k++) {
        const struct aiQuatKey *q = &ch->mRotationKeys[k];
        double n = (double)q->mValue.w * q->mValue.w + (double)q->mValue.x * q->mValue.x +
                   (double)q->mValue.y * q->mValue.y + (double)q->mValue.z * q->mValue.z;
        if (!isfinite(q->mTime) || !isfinite(n) || !(n > 1e-12))
            return pb_fail(PB_ERR_PARAM, "%s: clip '%s', node '%s': rotation key %u is not finite or zero", b->name,
                           an->mName.data, ch->mNodeName.data, k);
    }
    return PB_OK;
}

static pb_status build_clip(abuild *b, const struct aiAnimation *an, pb_asset_clip *c)
{
    pb_asset *a = b->a;
    size_t keys = 0;
    double tps = an->mTicksPerSecond > 0 && isfinite(an->mTicksPerSecond) ? an->mTicksPerSecond : 25.0;
    snprintf(c->name, sizeof c->name, "%.*s", PB_ASSET_NAME_MAX - 1, an->mName.data);
    c->ticks_per_second = an->mTicksPerSecond;
    for (unsigned k = 0; k < an->mNumChannels; k++) {
        const struct aiNodeAnim *ch = an->mChannels[k];
        pb_status s = check_keys(b, an, ch);
        if (s != PB_OK) return s;
        keys += (size_t)ch->mNumPositionKeys + ch->mNumRotationKeys + ch->mNumScalingKeys;
    }
    if (keys > b->opt.max_keys)
        return pb_fail(PB_ERR_SIZE, "%s: clip '%s' has %zu keys, more than max_keys (%zu)", b->name, c->name, keys,
                       b->opt.max_keys);
    c->keys = keys;
    c->channels = an->mNumChannels;
    double *t = malloc((keys ? keys : 1) * sizeof *t);
    if (!t) return pb_fail(PB_ERR_NOMEM, "%s: out of memory for %zu key times", b->name, keys);
    size_t n = 0;
    double last = 0;
    for (unsigned k = 0; k < an->mNumChannels; k++) {
        const struct aiNodeAnim *ch = an->mChannels[k];
        for (unsigned i = 0; i < ch->mNumPositionKeys; i++) t[n++] = ch->mPositionKeys[i].mTime;
        for (unsigned i = 0; i < ch->mNumRotationKeys; i++) t[n++] = ch->mRotationKeys[i].mTime;
        for (unsigned i = 0; i < ch->mNumScalingKeys; i++) t[n++] = ch->mScalingKeys[i].mTime;
    }
    qsort(t, n, sizeof *t, cmp_double);
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
        if (u == 0 || t[i] > t[u - 1]) t[u++] = t[i];
    if (u > 0) last = t[u - 1];
    double dur = isfinite(an->mDuration) && an->mDuration > last ? an->mDuration : last;
    if (dur < 0) dur = 0;
    c->key_rate = key_rate(t, u, tps);
    for (size_t i = 0; i < u; i++) t[i] /= tps;   /* seconds */
    c->key_times = t;
    c->times = u;
    c->duration = dur / tps;
    double fps = b->opt.fps > 0 ? b->opt.fps : c->key_rate;
    double fr = floor(c->duration * fps + 1e-6);
    if (!(fr < 1e12) || (fr + 1) * (double)a->joints > (double)b->opt.max_keys)
        return pb_fail(PB_ERR_SIZE, "%s: clip '%s' is %g s at %g fps: %g frames x %zu joints, more than max_keys (%zu)",
                       b->name, c->name, c->duration, fps, fr + 1, a->joints, b->opt.max_keys);
    size_t frames = (size_t)fr + 1;
    if ((double)(frames - 1) / fps < c->duration - 1e-9 && (frames + 1) * a->joints <= b->opt.max_keys) frames++;
    pb_status s = pb_clip_alloc(&c->clip, frames, a->joints, (float)fps);
    if (s != PB_OK) return s;
    pb_pose *p = &c->clip.pose;
    const size_t J = a->joints;
    for (size_t f = 0; f < frames; f++)
        for (size_t j = 0; j < J; j++)
            for (int pl = 0; pl < PB_STATIC_PLANES; pl++) p->plane[pl][f * J + j] = a->rest.plane[pl][j];
    for (unsigned k = 0; k < an->mNumChannels; k++) {
        const struct aiNodeAnim *ch = an->mChannels[k];
        int32_t j = asset_joint_named(b, &ch->mNodeName);
        if (j < 0) continue;   /* a channel of a node the scene does not have: nothing to drive */
        for (size_t f = 0; f < frames; f++) {
            double ts = (double)f / fps;
            double tk = (ts < c->duration ? ts : c->duration) * tps, v[4];
            size_t e = f * J + (size_t)j;
            if (ch->mNumPositionKeys) {
                sample_vec(ch->mPositionKeys, ch->mNumPositionKeys, tk, v);
                aconv_point(&b->conv, v, v);
                for (int i = 0; i < 3; i++) p->plane[PB_POS_X + i][e] = (float)v[i];
            }
            if (ch->mNumScalingKeys) {
                sample_vec(ch->mScalingKeys, ch->mNumScalingKeys, tk, v);
                aconv_scale(&b->conv, v, v);
                for (int i = 0; i < 3; i++) p->plane[PB_SCL_X + i][e] = (float)v[i];
            }
            if (ch->mNumRotationKeys) {
                sample_quat(ch->mRotationKeys, ch->mNumRotationKeys, tk, v);
                aconv_quat(&b->conv, v, v);
                for (int i = 0; i < 4; i++) p->plane[PB_ROT_W + i][e] = (float)v[i];
            }
        }
    }
    for (size_t e = 0; e < frames * J; e++)
        for (int pl = 0; pl < PB_STATIC_PLANES; pl++)
            if (!isfinite(p->plane[pl][e]))
                return pb_fail(PB_ERR_PARAM, "%s: clip '%s': frame %zu, joint '%s': %s overflows float", b->name,
                               c->name, e / J, a->names[e % J], pb_plane_name(pl));
    return PB_OK;
}

pb_status asset_build_clips(abuild *b)
{
    const struct aiScene *sc = b->sc;
    pb_asset *a = b->a;
    if (sc->mNumAnimations == 0) return PB_OK;
    a->clip = calloc(sc->mNumAnimations, sizeof *a->clip);
    if (!a->clip) return pb_fail(PB_ERR_NOMEM, "%s: out of memory for %u clips", b->name, sc->mNumAnimations);
    a->clips = sc->mNumAnimations;
    for (unsigned i = 0; i < sc->mNumAnimations; i++) {
        pb_status s = build_clip(b, sc->mAnimations[i], &a->clip[i]);
        if (s != PB_OK) return s;
    }
    return PB_OK;
}
