/* asset_mesh.c — the imported mesh (posebench/asset.h): the inverse bind
 * matrices of the bones, every mesh of the file in one pb_mesh, each vertex's
 * influences reduced to its four largest. Several meshes become one: the
 * frame skins a character in one call over one palette, the skin job's runs
 * and the benchmarks see the character's whole vertex count, and mesh_first
 * still says where each mesh (a draw call, a material) begins. That needs
 * one inverse bind per bone: two meshes that give one bone different offset
 * matrices are refused rather than silently re-based. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "asset_int.h"

#define ASSET_IB_TOL 1e-4   /* two meshes' offset matrices of a bone agree within this (x (1 + |largest entry|)) */

static const char *mesh_name(const struct aiMesh *m) { return m->mName.length ? m->mName.data : "(unnamed)"; }

static pb_status inverse_binds(abuild *b)
{
    const struct aiScene *sc = b->sc;
    pb_asset *a = b->a;
    int *from = malloc(a->joints * sizeof *from);   /* the mesh that gave joint j its matrix, or -1 */
    if (!from) return pb_fail(PB_ERR_NOMEM, "%s: out of memory", b->name);
    for (size_t j = 0; j < a->joints; j++) {
        from[j] = -1;
        memset(a->inv_bind[j], 0, sizeof a->inv_bind[j]);
        for (int i = 0; i < 4; i++) a->inv_bind[j][i * 5] = 1.0f;
    }
    pb_status s = PB_OK;
    for (unsigned m = 0; m < sc->mNumMeshes && s == PB_OK; m++)
        for (unsigned k = 0; k < sc->mMeshes[m]->mNumBones && s == PB_OK; k++) {
            const struct aiBone *bone = sc->mMeshes[m]->mBones[k];
            int32_t j = asset_joint_named(b, &bone->mName);
            if (j < 0) {
                s = pb_fail(PB_ERR_PARSE, "%s: bone '%s' of mesh '%s' names no node", b->name, bone->mName.data,
                            mesh_name(sc->mMeshes[m]));
                break;
            }
            amat o, c, inv;
            am_from_ai(&o, &bone->mOffsetMatrix);
            if (!am_finite(&o) || !am_inverse(&inv, &o)) {
                s = pb_fail(PB_ERR_PARAM, "%s: the inverse bind (offset) matrix of bone '%s' in mesh '%s' is %s",
                            b->name, bone->mName.data, mesh_name(sc->mMeshes[m]),
                            am_finite(&o) ? "not invertible" : "not finite");
                break;
            }
            aconv_matrix(&b->conv, &o, &c);
            float f[16];
            double big = 0, diff = 0;
            for (int r = 0; r < 4; r++)
                for (int q = 0; q < 4; q++) {
                    f[r * 4 + q] = (float)c.m[r][q];
                    big = fmax(big, fabs(c.m[r][q]));
                    if (from[j] >= 0) diff = fmax(diff, fabs(c.m[r][q] - a->inv_bind[j][r * 4 + q]));
                }
            if (from[j] >= 0) {
                if (diff > ASSET_IB_TOL * (1 + big))
                    s = pb_fail(PB_ERR_PARSE, "%s: bone '%s' has different inverse bind matrices in mesh '%s' and "
                                "mesh '%s' (by %g): one mesh over one palette needs one", b->name, bone->mName.data,
                                mesh_name(sc->mMeshes[from[j]]), mesh_name(sc->mMeshes[m]), diff);
                continue;
            }
            memcpy(a->inv_bind[j], f, sizeof f);
            double worst = 0;   /* the bind pose inv: columns of its 3x3 orthogonal, or it is no T R S */
            for (int x = 0; x < 3; x++)
                for (int y = x + 1; y < 3; y++) {
                    double d = 0, nx = 0, ny = 0;
                    for (int r = 0; r < 3; r++)
                        d += inv.m[r][x] * inv.m[r][y], nx += inv.m[r][x] * inv.m[r][x], ny += inv.m[r][y] * inv.m[r][y];
                    worst = fmax(worst, fabs(d) / sqrt(nx * ny));
                }
            a->skewed_binds += worst > 1e-5;
            from[j] = (int)m;
            a->is_bone[j] = 1;
            a->bones++;
        }
    free(from);
    if (s == PB_OK) s = pb_pose_alloc_static(&a->inv_bind_pose, a->joints);
    for (size_t j = 0; j < a->joints && s == PB_OK; j++) {
        amat c;
        for (int r = 0; r < 4; r++)
            for (int q = 0; q < 4; q++) c.m[r][q] = a->inv_bind[j][r * 4 + q];
        s = asset_put_kform(b, &a->inv_bind_pose, j, &c, "the inverse bind matrix", a->names[j]);
    }
    return s;
}

/* The joint of the first node that draws mesh m (its unweighted vertices follow that node), else the root. */
static int32_t mesh_joint(const abuild *b, unsigned m)
{
    for (size_t i = 0; i < b->nodes; i++)
        for (unsigned k = 0; k < b->node[i]->mNumMeshes; k++)
            if (b->node[i]->mMeshes[k] == m && b->node_joint[i] >= 0) return b->node_joint[i];
    return 0;
}

typedef struct infl { uint32_t j; float w; } infl;

/* Vertices of mesh m into the pb_mesh from vertex `first`. */
static pb_status put_mesh(abuild *b, unsigned mi, size_t first)
{
    const struct aiMesh *m = b->sc->mMeshes[mi];
    pb_asset *a = b->a;
    pb_mesh *out = &a->mesh;
    size_t nv = m->mNumVertices, total = 0;
    for (unsigned k = 0; k < m->mNumBones; k++) total += m->mBones[k]->mNumWeights;
    uint32_t *start = calloc(nv + 1, sizeof *start);
    infl *list = malloc((total ? total : 1) * sizeof *list);
    if (!start || !list || total > UINT32_MAX) {
        free(start), free(list);
        return pb_fail(total > UINT32_MAX ? PB_ERR_SIZE : PB_ERR_NOMEM, "%s: mesh '%s': %zu bone weights", b->name,
                       mesh_name(m), total);
    }
    pb_status s = PB_OK;
    for (unsigned k = 0; k < m->mNumBones && s == PB_OK; k++)
        for (unsigned w = 0; w < m->mBones[k]->mNumWeights; w++) {
            unsigned v = m->mBones[k]->mWeights[w].mVertexId;
            if (v >= nv) {
                s = pb_fail(PB_ERR_PARSE, "%s: mesh '%s': bone '%s' weighs vertex %u of %zu", b->name, mesh_name(m),
                            m->mBones[k]->mName.data, v, nv);
                break;
            }
            start[v + 1]++;
        }
    for (size_t v = 0; v < nv; v++) start[v + 1] += start[v];
    uint32_t *fill = NULL;
    if (s == PB_OK && !(fill = malloc((nv ? nv : 1) * sizeof *fill))) s = pb_fail(PB_ERR_NOMEM, "%s: out of memory", b->name);
    if (s == PB_OK) memcpy(fill, start, nv * sizeof *fill);
    for (unsigned k = 0; k < m->mNumBones && s == PB_OK; k++) {
        int32_t j = asset_joint_named(b, &m->mBones[k]->mName);
        for (unsigned w = 0; w < m->mBones[k]->mNumWeights; w++) {
            const struct aiVertexWeight *vw = &m->mBones[k]->mWeights[w];
            list[fill[vw->mVertexId]++] = (infl){ (uint32_t)j, vw->mWeight };
        }
    }
    free(fill);
    int32_t node = mesh_joint(b, mi);
    for (size_t v = 0; v < nv && s == PB_OK; v++) {
        size_t o = first + v, cnt = start[v + 1] - start[v];
        infl best[PB_SKIN_MAX_INFLUENCES];
        int nb = 0;
        double sum = 0, dropped = 0;
        for (size_t e = start[v]; e < start[v + 1]; e++) {
            infl x = list[e];
            if (!isfinite(x.w) || x.w < 0) {
                s = pb_fail(PB_ERR_PARAM, "%s: mesh '%s' vertex %zu: weight %g of bone '%s' is %s", b->name,
                            mesh_name(m), v, (double)x.w, a->names[x.j], isfinite(x.w) ? "negative" : "not finite");
                break;
            }
            sum += x.w;
            int at = nb;   /* insert, heaviest first; what falls off the end is dropped */
            while (at > 0 && best[at - 1].w < x.w) at--;
            if (at == PB_SKIN_MAX_INFLUENCES) {
                dropped = fmax(dropped, x.w);
                continue;
            }
            if (nb == PB_SKIN_MAX_INFLUENCES) dropped = fmax(dropped, best[nb - 1].w);
            else nb++;
            memmove(best + at + 1, best + at, (size_t)(nb - 1 - at) * sizeof *best);
            best[at] = x;
        }
        if (s != PB_OK) break;
        if ((int)cnt > a->max_influences) a->max_influences = cnt > 1000000 ? 1000000 : (int)cnt;
        if (cnt == 0) {
            best[0] = (infl){ (uint32_t)node, 1.0f }, nb = 1;
            a->unweighted_vertices++;
        } else {
            double kept = 0;
            for (int k = 0; k < nb; k++) kept += best[k].w;
            if (!(sum > 0) || !(kept > 0)) {
                s = pb_fail(PB_ERR_PARAM, "%s: mesh '%s' vertex %zu: its %zu bone weights sum to 0", b->name,
                            mesh_name(m), v, cnt);
                break;
            }
            if (cnt > PB_SKIN_MAX_INFLUENCES) {
                a->reduced_vertices++;
                if ((float)dropped > a->max_dropped_weight) a->max_dropped_weight = (float)dropped;
            }
            for (int k = 0; k < nb; k++) best[k].w = (float)(best[k].w / kept);
        }
        for (int k = 0; k < PB_SKIN_MAX_INFLUENCES; k++) {
            out->idx[k][o] = k < nb ? best[k].j : best[0].j;
            out->w[k][o] = k < nb ? best[k].w : 0.0f;
        }
        double p[3] = { m->mVertices[v].x, m->mVertices[v].y, m->mVertices[v].z }, n[3] = { 0, 0, 0 };
        if (m->mNormals) n[0] = m->mNormals[v].x, n[1] = m->mNormals[v].y, n[2] = m->mNormals[v].z;
        aconv_point(&b->conv, p, p);
        aconv_dir(&b->conv, n, n);
        double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        for (int i = 0; i < 3; i++) {
            out->pos[i][o] = (float)p[i];
            out->nrm[i][o] = len > 0 && isfinite(len) ? (float)(n[i] / len) : 0.0f;
            if (!isfinite(out->pos[i][o]) || !isfinite(n[i])) {
                s = pb_fail(PB_ERR_PARAM, "%s: mesh '%s' vertex %zu: its %s is not finite", b->name, mesh_name(m), v,
                            isfinite(out->pos[i][o]) ? "normal" : "position");
                break;
            }
        }
    }
    free(start), free(list);
    return s;
}

pb_status asset_build_mesh(abuild *b)
{
    const struct aiScene *sc = b->sc;
    pb_asset *a = b->a;
    pb_status s = inverse_binds(b);
    if (s != PB_OK) return s;
    a->meshes = sc->mNumMeshes;
    a->mesh_first = calloc((size_t)sc->mNumMeshes + 1, sizeof *a->mesh_first);
    if (!a->mesh_first) return pb_fail(PB_ERR_NOMEM, "%s: out of memory", b->name);
    size_t total = 0;
    int weighted = 0;
    for (unsigned m = 0; m < sc->mNumMeshes; m++) {
        total += sc->mMeshes[m]->mNumVertices;
        a->mesh_first[m + 1] = total;
        weighted |= sc->mMeshes[m]->mNumBones > 0;
        if (total > b->opt.max_vertices)
            return pb_fail(PB_ERR_SIZE, "%s: more than max_vertices (%zu) vertices (at mesh '%s')", b->name,
                           b->opt.max_vertices, mesh_name(sc->mMeshes[m]));
    }
    if (sc->mNumMeshes == 0) return PB_OK;   /* allow_no_mesh (checked before) */
    if (total == 0) return pb_fail(PB_ERR_PARSE, "%s: its %u meshes have no vertices", b->name, sc->mNumMeshes);
    if (!weighted)
        return pb_fail(PB_ERR_PARSE, "%s: a mesh with no weights: none of its %u meshes has bones", b->name,
                       sc->mNumMeshes);
    s = pb_mesh_alloc(&a->mesh, total, PB_SKIN_MAX_INFLUENCES);
    if (s != PB_OK) return s;
    for (unsigned m = 0; m < sc->mNumMeshes && s == PB_OK; m++) s = put_mesh(b, m, a->mesh_first[m]);
    if (s != PB_OK) return s;
    a->mesh.influences = a->max_influences < 1 ? 1
                       : a->max_influences > PB_SKIN_MAX_INFLUENCES ? PB_SKIN_MAX_INFLUENCES : a->max_influences;
    s = pb_mesh_check(&a->mesh, a->joints);
    if (s != PB_OK) return pb_fail(s, "%s: the imported mesh fails its check: %s", b->name, pb_last_error());
    return PB_OK;
}
