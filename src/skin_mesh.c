/* skin_mesh.c — the deterministic synthetic mesh of posebench/skin.h: tubes
 * of vertices around a skeleton's bones in its rest pose, with 2-4
 * influences near the joints. Computed in double, rounded once. */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define GOLDEN_ANGLE 2.399963229728653   /* pi (3 - sqrt 5): a spiral that never lines up */
#define BLEND_SPAN 0.25                  /* the end quarter of a bone blends into the next joint */

static void cross(const double a[3], const double b[3], double o[3])
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}
static double norm3(double v[3])
{
    double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 0) for (int c = 0; c < 3; c++) v[c] /= l;
    return l;
}

/* The influences of a vertex at t along the bone p -> j (children: j's first
 * two children, or -1; pp: p's parent or -1), heaviest first, padded with
 * (p, 0). */
static void influences(double t, int32_t p, int32_t j, const int32_t ch[2], int32_t pp, uint32_t idx[4], float w[4])
{
    int32_t ji[4] = { p, p, p, p };
    double jw[4] = { 0, 0, 0, 0 };
    int k = 1;
    if (t > 1 - BLEND_SPAN && j != p) {
        double s = 0.5 * (t - (1 - BLEND_SPAN)) / BLEND_SPAN;   /* 0 .. 1/2 at the joint */
        double share[3] = { 1, 0, 0 };
        if (ch[0] >= 0) { share[0] = 0.6; share[1] = ch[1] >= 0 ? 0.25 : 0.4; share[2] = ch[1] >= 0 ? 0.15 : 0; }
        ji[k] = j; jw[k++] = s * share[0];
        for (int c = 0; c < 2; c++)
            if (ch[c] >= 0) { ji[k] = ch[c]; jw[k++] = s * share[1 + c]; }
    } else if (t < BLEND_SPAN && pp >= 0) {
        ji[k] = pp; jw[k++] = 0.5 * (BLEND_SPAN - t) / BLEND_SPAN;
    }
    float wf[4] = { 0, 0, 0, 0 }, rest = 0;
    for (int i = 1; i < 4; i++) { wf[i] = (float)jw[i]; rest += wf[i]; }
    wf[0] = 1.0f - rest;   /* the sum is 1 to float rounding */
    for (int i = 1; i < 4; i++)   /* insertion sort, heaviest first (stable) */
        for (int a = i; a > 0 && wf[a] > wf[a - 1]; a--) {
            float tw = wf[a]; wf[a] = wf[a - 1]; wf[a - 1] = tw;
            int32_t ti = ji[a]; ji[a] = ji[a - 1]; ji[a - 1] = ti;
        }
    for (int i = 0; i < 4; i++) { idx[i] = (uint32_t)ji[i]; w[i] = wf[i]; }
}

pb_status pb_mesh_synthetic(pb_mesh *m, const pb_skeleton *skel, const pb_pose *rest)
{
    if (!m || !skel || !rest)
        return pb_fail(PB_ERR_NULL, "pb_mesh_synthetic: %s is NULL", !m ? "m" : !skel ? "skel" : "rest_global");
    if (m->influences != 4 || !m->owned)
        return pb_fail(PB_ERR_PARAM, "pb_mesh_synthetic: m must come from pb_mesh_alloc with 4 influences (has %d)",
                       m->influences);
    if (!skel->parents) return pb_fail(PB_ERR_PARAM, "pb_mesh_synthetic: skel was not made by pb_skeleton_init");
    pb_status s = pb_pose_check(rest, "rest_global");
    if (s != PB_OK) return s;
    if (rest->n != skel->n)
        return pb_fail(PB_ERR_SIZE, "pb_mesh_synthetic: rest_global has n = %zu, skel %zu", rest->n, skel->n);
    const size_t J = skel->joints, C = skel->characters;
    for (size_t j = 0; j < J; j++)
        for (int c = 0; c < 3; c++)
            if (!isfinite(rest->plane[PB_POS_X + c][j * C]))
                return pb_fail(PB_ERR_PARAM, "pb_mesh_synthetic: rest_global joint %zu %s is not finite", j,
                               pb_plane_name(PB_POS_X + c));
    int32_t *kids = malloc(2 * J * sizeof *kids);
    if (!kids) return pb_fail(PB_ERR_NOMEM, "pb_mesh_synthetic: out of memory");
    for (size_t j = 0; j < 2 * J; j++) kids[j] = -1;
    size_t bones = 0;
    for (size_t j = 0; j < J; j++) {
        int32_t p = skel->parents[j];
        if (p < 0) continue;
        bones++;
        int32_t *ch = kids + 2 * (size_t)p;
        if (ch[0] < 0) ch[0] = (int32_t)j;
        else if (ch[1] < 0) ch[1] = (int32_t)j;
    }
    const size_t B = bones ? bones : 1, n = m->n;
    size_t b = 0;
    for (size_t j = 0; j < J && b < B; j++) {
        int32_t p = bones ? skel->parents[j] : 0;
        if (bones && p < 0) continue;
        const int32_t jj = bones ? (int32_t)j : 0;
        double a[3], pp[3];
        for (int c = 0; c < 3; c++) {
            pp[c] = rest->plane[PB_POS_X + c][(size_t)p * C];
            a[c] = bones ? rest->plane[PB_POS_X + c][(size_t)jj * C] - pp[c] : (c == 1 ? 0.2 : 0.0);
        }
        double len = norm3(a);
        if (!(len > 1e-6)) { a[0] = 0; a[1] = 1; a[2] = 0; len = 0; }
        double h[3] = { fabs(a[0]) < 0.9 ? 1 : 0, fabs(a[0]) < 0.9 ? 0 : 1, 0 }, u[3], w[3];
        cross(a, h, u);
        norm3(u);
        cross(a, u, w);
        const double r = 0.05 + 0.15 * len;
        const size_t v0 = n * b / B, v1 = n * (b + 1) / B;
        static const int32_t none[2] = { -1, -1 };
        const int32_t *ch = bones ? kids + 2 * (size_t)jj : none;
        const int32_t ppar = bones ? skel->parents[p] : -1;
        for (size_t v = v0; v < v1; v++) {
            const size_t k = v - v0;
            const double t = ((double)k + 0.5) / (double)(v1 - v0), th = GOLDEN_ANGLE * (double)k;
            const double cs = cos(th), sn = sin(th);
            for (int c = 0; c < 3; c++) {
                double nr = cs * u[c] + sn * w[c];
                m->pos[c][v] = (float)(pp[c] + a[c] * len * t + r * nr);
                m->nrm[c][v] = (float)nr;
            }
            uint32_t idx[4];
            float wt[4];
            influences(t, p, jj, ch, ppar, idx, wt);
            for (int i = 0; i < 4; i++) { m->idx[i][v] = idx[i]; m->w[i][v] = wt[i]; }
        }
        b++;
    }
    free(kids);
    return PB_OK;
}
