/* blend_n.c — the N-way blend (posebench/blend_n.h): arguments checked once
 * per call (poses, sizes, weights), then the variant's kernel. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

const char *pb_blend_n_method_name(pb_blend_n_method m)
{
    static const char *names[PB_BLEND_N_METHODS] = { "fast", "accurate" };
    return (unsigned)m < PB_BLEND_N_METHODS ? names[m] : NULL;
}

/* The memory of a pose's pos, rot and scl planes: what the blend reads and writes. */
static pb_span blend_span(const pb_pose *p)
{
    pb_pose s = *p;
    for (int i = PB_SCL_Z + 1; i < PB_PLANES; i++) s.plane[i] = NULL;
    return pb_pose_span(&s);
}

pb_status pb_blend_n(const pb_pose *const *in, size_t k, const float *w, size_t characters,
                     pb_blend_n_method method, pb_scale_mode scale, pb_pose *out, const pb_variant *v)
{
    static const char *fn = "pb_blend_n";
    if (!in || !w || !out) return pb_fail(PB_ERR_NULL, "%s: %s is NULL", fn, !in ? "in" : !w ? "w" : "out");
    if (k < 2 || k > PB_BLEND_N_MAX) return pb_fail(PB_ERR_SIZE, "%s: k = %zu inputs (2 .. %d)", fn, k, PB_BLEND_N_MAX);
    if (!pb_blend_n_method_name(method))
        return pb_fail(PB_ERR_PARAM, "%s: method is %d (PB_BLEND_N_FAST or PB_BLEND_N_ACCURATE)", fn, (int)method);
    if (scale != PB_SCALE_DEFAULT && scale != PB_SCALE_LINEAR && scale != PB_SCALE_EXP)
        return pb_fail(PB_ERR_PARAM, "%s: scale is %d (PB_SCALE_DEFAULT, _LINEAR or _EXP)", fn, (int)scale);
    pb_status s = pb_pose_check(out, "out");
    if (s == PB_OK) s = pb_pose_check_disjoint(out, fn, "out");
    if (s != PB_OK) return s;
    for (size_t i = 0; i < k; i++) {
        char what[32];
        snprintf(what, sizeof what, "in[%zu]", i);
        if (!in[i]) return pb_fail(PB_ERR_NULL, "%s: %s is NULL", fn, what);
        if ((s = pb_pose_check(in[i], what)) != PB_OK) return s;
        if (in[i]->n != out->n)
            return pb_fail(PB_ERR_SIZE, "%s: %s has %zu elements, out %zu", fn, what, in[i]->n, out->n);
        /* out may be an input exactly (same pos, rot and scl planes), not overlap one otherwise */
        int same = in[i]->stride == out->stride && !memcmp(in[i]->plane, out->plane, (PB_SCL_Z + 1) * sizeof out->plane[0]);
        if (!same && pb_spans_overlap(blend_span(in[i]), blend_span(out)))
            return pb_fail(PB_ERR_ALIAS, "%s: out overlaps %s (out may be an input exactly, or memory of its own)", fn,
                           what);
    }
    if (characters == 0 || out->n % characters)
        return pb_fail(PB_ERR_SIZE, "%s: n = %zu is not a multiple of characters = %zu", fn, out->n, characters);
    for (size_t c = 0; c < characters; c++) {
        double sum = 0;
        for (size_t i = 0; i < k; i++) {
            float x = w[i * characters + c];
            if (!isfinite(x) || x < 0)
                return pb_fail(PB_ERR_PARAM, "%s: w: input %zu, character %zu: %g (finite, >= 0)", fn, i, c, (double)x);
            sum += x;
        }
        if (!(sum > 0)) return pb_fail(PB_ERR_PARAM, "%s: w: character %zu: every weight is 0", fn, c);
    }
    if ((s = v ? pb_variant_check(v) : pb_variant_active(&v)) != PB_OK) return s;
    pb_bn_kargs a;
    memset(&a, 0, sizeof a);
    a.k = k, a.n = out->n, a.characters = characters, a.w = w, a.exp = scale == PB_SCALE_EXP;
    a.stream = characters % PB_PAD == 0 && (double)(k + 1) * (PB_SCL_Z + 1) * (double)out->n * sizeof(float) > (double)pb_stream_bytes();
    for (int p = 0; p <= PB_SCL_Z; p++) {
        a.out[p] = out->plane[p];
        for (size_t i = 0; i < k; i++) a.in[i][p] = in[i]->plane[p];
    }
    v->aux->blend_n[method](&a);
    return PB_OK;
}
