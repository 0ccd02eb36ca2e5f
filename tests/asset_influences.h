/* asset_influences.h — what reducing a vertex's influences to 4 moves it by
 * (test_asset.c; issue 60, "are 8 influences worth supporting?"). The file's
 * mesh is skinned twice in double over the same palettes, those of every
 * frame of its first clip (FK of the imported frame, then pb_matrix_palette
 * with the imported inverse binds): once with every weight Assimp's aiMesh
 * bones give (normalised by their sum), once with the importer's 4 (the
 * largest, renormalised). Assimp's scene must come from the importer's own
 * flags and properties, so that its vertices are the importer's: vertex v of
 * Assimp's mesh m is vertex mesh_first[m] + v (src/asset/asset_mesh.c copies
 * the meshes in order; Assimp joins identical vertices for both); checked
 * here mesh by mesh, count and positions.
 *
 * The bound: write q_k = M_k p for vertex p's influences (w_k, summing to
 * 1), K the 4 kept, D = sum of the dropped weights, S = 1 - D. The importer's
 * vertex is sum_K (w_k / S) q_k, the full one sum_all w_k q_k, so
 *   p4 - p_all = (D / S) sum_K w_k q_k - sum_dropped w_k q_k = D (c_K - c_D),
 * c_K, c_D the weighted means of the kept and of the dropped q_k: both inside
 * the hull of the q_k. Hence |p4 - p_all| <= D x spread, spread the largest
 * distance between two of the vertex's q_k (at most twice the farthest any
 * palette entry of it moves the vertex), plus rounding: the importer's
 * weights are floats, each within 2^-24 of w_k / S (allowed: 2^-22 x the
 * largest |q_k|). A reduction that kept other than the largest 4 has a
 * larger D than the one computed here from the full weights, and can break
 * the bound.
 *
 * Relative figures are against the posed mesh's bounding box (all weights,
 * each frame's own): the palettes take the mesh from its node's space to the
 * scene's, which for FBX/animation_with_skeleton.fbx is about 100 times
 * larger (its Cube and Armature nodes scale by 100: Blender's centimetres). */
#ifndef TEST_ASSET_INFLUENCES_H
#define TEST_ASSET_INFLUENCES_H
#include <assimp/scene.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "posebench/posebench.h"

typedef struct infl_result {
    int frames;          /* palettes compared (the clip's frames) */
    size_t vertices;     /* vertices with more than 4 weights */
    size_t over_bound;   /* (vertex, frame) pairs where |p4 - p_all| exceeds D x spread (+ rounding): 0 */
    double disp;         /* the largest |p4 - p_all|, mesh units */
    double bound;        /* the largest per-vertex bound D x spread */
    double dropped;      /* the largest D (dropped weight over all the vertex's weight) */
    double spread;       /* the largest spread of a vertex with more than 4 weights */
    double rel;          /* the largest of a frame's largest |p4 - p_all| over its posed mesh's bounding-box diagonal */
    double posed_diag;   /* the smallest diagonal of the posed mesh's bounding box (all weights) over the frames */
} infl_result;

typedef struct infl_w { uint32_t j; double w; } infl_w;

/* Not fmax / fmin: gcc 12.2 for aarch64 crashes vectorizing their reductions at -O3 (check.h's dmax). */
static inline double infl_max(double a, double b) { return b > a ? b : a; }
static inline double infl_min(double a, double b) { return b < a ? b : a; }

/* The joint named s, or -1. */
static int32_t infl_joint(const pb_asset *a, const char *s)
{
    for (size_t j = 0; j < a->joints; j++)
        if (strcmp(a->names[j], s) == 0) return (int32_t)j;
    return -1;
}

/* Every weight of every vertex of sc (the importer's numbering), normalised: start[v] .. start[v + 1] in list.
 * 0, or -1 with why in err. */
static int infl_gather(const pb_asset *a, const struct aiScene *sc, uint32_t **start_out, infl_w **list_out, char *err,
                       size_t errlen)
{
    size_t total = 0, n = a->mesh.n;
    if (a->meshes != sc->mNumMeshes) return snprintf(err, errlen, "%zu meshes, Assimp %u", a->meshes, sc->mNumMeshes), -1;
    for (unsigned m = 0; m < sc->mNumMeshes; m++) {
        const struct aiMesh *am = sc->mMeshes[m];
        if (a->mesh_first[m + 1] - a->mesh_first[m] != am->mNumVertices)
            return snprintf(err, errlen, "mesh %u: %zu vertices, Assimp %u", m, a->mesh_first[m + 1] - a->mesh_first[m],
                            am->mNumVertices), -1;
        for (unsigned v = 0; v < am->mNumVertices; v++)   /* the same vertex: the position times the unit scale */
            for (int i = 0; i < 3; i++) {
                const struct aiVector3D *pv = &am->mVertices[v];
                double want = (i == 0 ? pv->x : i == 1 ? pv->y : pv->z) * a->scale_applied;
                if (fabs(a->mesh.pos[i][a->mesh_first[m] + v] - want) > 1e-6 * (1 + fabs(want)))
                    return snprintf(err, errlen, "mesh %u vertex %u is not the importer's vertex %zu", m, v,
                                    a->mesh_first[m] + v), -1;
            }
        for (unsigned k = 0; k < am->mNumBones; k++) {
            total += am->mBones[k]->mNumWeights;
            for (unsigned w = 0; w < am->mBones[k]->mNumWeights; w++)
                if (am->mBones[k]->mWeights[w].mVertexId >= am->mNumVertices)
                    return snprintf(err, errlen, "mesh %u: a weight of vertex %u of %u", m,
                                    am->mBones[k]->mWeights[w].mVertexId, am->mNumVertices), -1;
        }
    }
    uint32_t *start = calloc(n + 1, sizeof *start), *fill = malloc((n ? n : 1) * sizeof *fill);
    infl_w *list = malloc((total ? total : 1) * sizeof *list);
    int st = start && fill && list ? 0 : (snprintf(err, errlen, "out of memory"), -1);
    for (unsigned m = 0; m < sc->mNumMeshes && st == 0; m++)
        for (unsigned k = 0; k < sc->mMeshes[m]->mNumBones; k++)
            for (unsigned w = 0; w < sc->mMeshes[m]->mBones[k]->mNumWeights; w++)
                start[a->mesh_first[m] + sc->mMeshes[m]->mBones[k]->mWeights[w].mVertexId + 1]++;
    for (size_t v = 0; st == 0 && v < n; v++) start[v + 1] += start[v];
    if (st == 0) memcpy(fill, start, n * sizeof *fill);
    for (unsigned m = 0; m < sc->mNumMeshes && st == 0; m++)
        for (unsigned k = 0; k < sc->mMeshes[m]->mNumBones && st == 0; k++) {
            const struct aiBone *b = sc->mMeshes[m]->mBones[k];
            int32_t j = infl_joint(a, b->mName.data);
            if (j < 0) {
                st = -1, snprintf(err, errlen, "bone '%.200s' is no joint", b->mName.data);
                break;
            }
            for (unsigned w = 0; w < b->mNumWeights; w++)
                list[fill[a->mesh_first[m] + b->mWeights[w].mVertexId]++] = (infl_w){ (uint32_t)j, b->mWeights[w].mWeight };
        }
    for (size_t v = 0; st == 0 && v < n; v++) {
        double sum = 0;
        for (uint32_t e = start[v]; e < start[v + 1]; e++) sum += list[e].w;
        for (uint32_t e = start[v]; e < start[v + 1]; e++) list[e].w /= sum;
    }
    free(fill);
    if (st != 0) free(start), free(list), start = NULL, list = NULL;
    *start_out = start, *list_out = list;
    return st;
}

/* D: the weight outside the 4 largest of the (normalised) weights at e[0 .. cnt). */
static double infl_dropped(const infl_w *e, size_t cnt)
{
    double top[PB_SKIN_MAX_INFLUENCES] = { 0 }, kept = 0;
    for (size_t i = 0; i < cnt; i++) {
        double w = e[i].w;
        for (int k = 0; k < PB_SKIN_MAX_INFLUENCES; k++)
            if (w > top[k]) { double t = top[k]; top[k] = w; w = t; }
    }
    for (int k = 0; k < PB_SKIN_MAX_INFLUENCES; k++) kept += top[k];
    return infl_max(0.0, 1.0 - kept);
}

/* M p for palette entry j (3x4 row-major) and bind position p. */
static void infl_apply(const pb_palette *pal, uint32_t j, const double p[3], double q[3])
{
    const float *m = pal->data + (size_t)j * PB_PALETTE_MAT_FLOATS;
    for (int r = 0; r < 3; r++) q[r] = m[4 * r] * p[0] + m[4 * r + 1] * p[1] + m[4 * r + 2] * p[2] + m[4 * r + 3];
}

/* The comparison over every frame of clip 0. 0, or -1 with why in err (nothing measured). */
static int infl_compare(const pb_asset *a, const struct aiScene *sc, infl_result *res, char *err, size_t errlen)
{
    memset(res, 0, sizeof *res);
    if (a->clips == 0) return snprintf(err, errlen, "no clip"), -1;
    uint32_t *start = NULL;
    infl_w *list = NULL;
    if (infl_gather(a, sc, &start, &list, err, errlen) != 0) return -1;
    pb_skeleton sk = { 0 };
    pb_pose l = { 0 }, g = { 0 };
    pb_palette pal = { malloc(a->joints * PB_PALETTE_MAT_FLOATS * sizeof(float)), a->joints };
    const pb_clip *c = &a->clip[0].clip;
    if (!pal.data) {
        free(start), free(list);
        return snprintf(err, errlen, "out of memory"), -1;
    }
    pb_status s = pb_skeleton_init(&sk, a->parents, a->joints, 1);
    if (s == PB_OK) s = pb_pose_alloc_static(&l, a->joints);
    if (s == PB_OK) s = pb_pose_alloc_static(&g, a->joints);
    for (size_t f = 0; f < c->frames && s == PB_OK; f++) {
        for (size_t j = 0; j < a->joints; j++)
            for (int p = 0; p < PB_STATIC_PLANES; p++) l.plane[p][j] = c->pose.plane[p][f * a->joints + j];
        if ((s = pb_fk_static(&sk, &l, &g)) != PB_OK || (s = pb_matrix_palette(&g, &a->inv_bind_pose, &pal)) != PB_OK)
            break;
        res->frames++;
        double lo[3] = { INFINITY, INFINITY, INFINITY }, hi[3] = { -INFINITY, -INFINITY, -INFINITY }, disp = 0;
        for (size_t v = 0; v < a->mesh.n; v++) {
            const size_t cnt = start[v + 1] - start[v];
            const double p[3] = { a->mesh.pos[0][v], a->mesh.pos[1][v], a->mesh.pos[2][v] };
            double all[3] = { 0, 0, 0 }, four[3] = { 0, 0, 0 }, q[3], spread = 0, far = 0;
            for (int k = 0; k < a->mesh.influences; k++) {
                infl_apply(&pal, a->mesh.idx[k][v], p, q);
                for (int i = 0; i < 3; i++) four[i] += (double)a->mesh.w[k][v] * q[i];
            }
            if (cnt <= PB_SKIN_MAX_INFLUENCES) {   /* nothing dropped: the posed mesh's box only */
                for (int i = 0; i < 3; i++) lo[i] = infl_min(lo[i], four[i]), hi[i] = infl_max(hi[i], four[i]);
                continue;
            }
            for (uint32_t e = start[v]; e < start[v + 1]; e++) {
                double qe[3];
                infl_apply(&pal, list[e].j, p, qe);
                far = infl_max(far, sqrt(qe[0] * qe[0] + qe[1] * qe[1] + qe[2] * qe[2]));
                for (int i = 0; i < 3; i++) all[i] += list[e].w * qe[i];
                for (uint32_t o = e + 1; o < start[v + 1]; o++) {
                    infl_apply(&pal, list[o].j, p, q);
                    spread = infl_max(spread, sqrt((qe[0] - q[0]) * (qe[0] - q[0]) + (qe[1] - q[1]) * (qe[1] - q[1]) +
                                               (qe[2] - q[2]) * (qe[2] - q[2])));
                }
            }
            for (int i = 0; i < 3; i++) lo[i] = infl_min(lo[i], all[i]), hi[i] = infl_max(hi[i], all[i]);
            const double d = sqrt((four[0] - all[0]) * (four[0] - all[0]) + (four[1] - all[1]) * (four[1] - all[1]) +
                                  (four[2] - all[2]) * (four[2] - all[2]));
            const double dropped = infl_dropped(list + start[v], cnt), bound = dropped * spread;
            res->vertices += f == 0;
            res->over_bound += !(d <= bound + 0x1p-22 * far);
            disp = infl_max(disp, d), res->bound = infl_max(res->bound, bound);
            res->dropped = infl_max(res->dropped, dropped), res->spread = infl_max(res->spread, spread);
        }
        const double diag = sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                                 (hi[2] - lo[2]) * (hi[2] - lo[2]));
        res->disp = infl_max(res->disp, disp), res->rel = infl_max(res->rel, disp / diag);
        res->posed_diag = f == 0 ? diag : infl_min(res->posed_diag, diag);
    }
    if (s != PB_OK) snprintf(err, errlen, "frame %d: %s", res->frames, pb_last_error());
    free(pal.data), free(start), free(list);
    pb_skeleton_free(&sk);
    pb_pose_free(&l), pb_pose_free(&g);
    return s == PB_OK ? 0 : -1;
}
#endif
