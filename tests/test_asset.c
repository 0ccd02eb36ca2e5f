/* test_asset.c — the model importer (posebench/asset.h) on real characters and
 * on a glTF 2 character of its own (tests/asset_gltf.h).
 *
 * usage: test_asset [MODELS_DIR]          (default /usr/share/assimp/models)
 *        test_asset counts FILE           one line of counts, for test_asset_counts.sh
 * Packaged models (assimp-testmodels) are skipped with a message when absent.
 * Per model, against what Assimp itself gives (imported again here, walked by
 * aiNode and aiMatrix4x4 products, not by the importer's code):
 *   - the mesh: every vertex as Assimp's meshes hold it (times the unit scale);
 *   - bind round trip: skinned (pb_matrix_palette + pb_skin_lbs) at the bind
 *     pose of the file's inverse bind matrices, the mesh comes back within 1e-5
 *     of its size;
 *   - FK: at every frame where every channel has a key (the file's rate puts
 *     keys on frames), pb_fk_static of the clip's frame equals the node
 *     transforms Assimp's keys give, composed from the root;
 *   - the skeleton: parents and rest locals are the nodes' transforms;
 *   - more than 4 influences (asset_influences.h): every frame of the first
 *     clip skinned in double with all of Assimp's weights and with the
 *     importer's 4; the largest displacement, within the bound derived there.
 * The own character: known counts, the reduction of 6 influences to 4 (which
 * vertices, the weights, the largest dropped), the inverse binds it wrote,
 * the clip's rate, frames and key values, and skinning at rest gives the mesh.
 * BVH: the importer and pb_bvh_load agree on the CMU clips (PB_CMU_DIR). */
#define _POSIX_C_SOURCE 200809L
#include <assimp/cimport.h>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "posebench/posebench.h"
#include "check.h"
#include "asset_gltf.h"
#include "asset_influences.h"

#define FLAGS (aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_GenSmoothNormals | \
               aiProcess_ValidateDataStructure)

static const struct aiScene *ai_load(const char *path)
{
    struct aiPropertyStore *p = aiCreatePropertyStore();
    aiSetImportPropertyInteger(p, AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, 0);
    const struct aiScene *s = aiImportFileExWithProperties(path, FLAGS, NULL, p);
    aiReleasePropertyStore(p);
    return s;
}

/* a 4x4 of a posebench kineform (pos, rot w x y z, scl) */
static void kform_mat(const pb_pose *p, size_t e, struct aiMatrix4x4 *m)
{
    struct aiVector3D t = { p->plane[PB_POS_X][e], p->plane[PB_POS_Y][e], p->plane[PB_POS_Z][e] };
    struct aiVector3D s = { p->plane[PB_SCL_X][e], p->plane[PB_SCL_Y][e], p->plane[PB_SCL_Z][e] };
    struct aiQuaternion q = { p->plane[PB_ROT_W][e], p->plane[PB_ROT_X][e], p->plane[PB_ROT_Y][e], p->plane[PB_ROT_Z][e] };
    aiMatrix4FromScalingQuaternionPosition(m, &s, &q, &t);
}

static double mat_diff(const struct aiMatrix4x4 *a, const struct aiMatrix4x4 *b, double pos_scale)
{
    const float *x = &a->a1, *y = &b->a1;
    double d = 0;
    for (int i = 0; i < 16; i++) d = dmax(d, fabs((double)x[i] - y[i]) / ((i % 4 == 3 && i < 12) ? pos_scale : 1.0));
    return d;
}

/* The key of a channel's keys at time t exactly, or -1. */
static int vkey_at(const struct aiVectorKey *k, unsigned n, double t)
{
    for (unsigned i = 0; i < n; i++)
        if (fabs(k[i].mTime - t) <= 1e-6 * (1 + fabs(t))) return (int)i;
    return n == 1 ? 0 : -1;   /* a single key holds for the whole clip */
}
static int qkey_at(const struct aiQuatKey *k, unsigned n, double t)
{
    for (unsigned i = 0; i < n; i++)
        if (fabs(k[i].mTime - t) <= 1e-6 * (1 + fabs(t))) return (int)i;
    return n == 1 ? 0 : -1;
}

/* Assimp's global transform of every node at tick t of animation an (NULL: rest): walks the tree. 0 if a
 * channel has no key at t. */
static int ai_global(const struct aiNode *n, const struct aiMatrix4x4 *parent, const struct aiAnimation *an, double t,
                     const char *want, struct aiMatrix4x4 *out)
{
    struct aiMatrix4x4 local = n->mTransformation;
    for (unsigned c = 0; an && c < an->mNumChannels; c++) {
        const struct aiNodeAnim *ch = an->mChannels[c];
        if (strcmp(ch->mNodeName.data, n->mName.data) != 0) continue;
        struct aiVector3D tr, sc;
        struct aiQuaternion q;
        aiDecomposeMatrix(&n->mTransformation, &sc, &q, &tr);
        if (ch->mNumPositionKeys) {
            int k = vkey_at(ch->mPositionKeys, ch->mNumPositionKeys, t);
            if (k < 0) return -1;
            tr = ch->mPositionKeys[k].mValue;
        }
        if (ch->mNumRotationKeys) {
            int k = qkey_at(ch->mRotationKeys, ch->mNumRotationKeys, t);
            if (k < 0) return -1;
            q = ch->mRotationKeys[k].mValue;
            /* glTF's keys are written to a few digits: not quite unit (simple_skin's by 3e-4); a rotation
             * is meant, as the importer (and glTF's specification) take it */
            double nq = sqrt((double)q.w * q.w + (double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z);
            q.w = (float)(q.w / nq), q.x = (float)(q.x / nq), q.y = (float)(q.y / nq), q.z = (float)(q.z / nq);
        }
        if (ch->mNumScalingKeys) {
            int k = vkey_at(ch->mScalingKeys, ch->mNumScalingKeys, t);
            if (k < 0) return -1;
            sc = ch->mScalingKeys[k].mValue;
        }
        aiMatrix4FromScalingQuaternionPosition(&local, &sc, &q, &tr);
        break;
    }
    struct aiMatrix4x4 g = *parent;
    aiMultiplyMatrix4(&g, &local);   /* g = parent x local */
    if (strcmp(n->mName.data, want) == 0) {
        *out = g;
        return 1;
    }
    for (unsigned i = 0; i < n->mNumChildren; i++) {
        int r = ai_global(n->mChildren[i], &g, an, t, want, out);
        if (r != 0) return r;
    }
    return 0;
}

static double mesh_size(const pb_mesh *m)
{
    double lo[3] = { 1e30, 1e30, 1e30 }, hi[3] = { -1e30, -1e30, -1e30 }, d = 0;
    for (size_t v = 0; v < m->n; v++)
        for (int i = 0; i < 3; i++) lo[i] = fmin(lo[i], m->pos[i][v]), hi[i] = dmax(hi[i], m->pos[i][v]);
    for (int i = 0; i < 3; i++) d += (hi[i] - lo[i]) * (hi[i] - lo[i]);
    return sqrt(d);
}

/* Skin at the bind pose: each joint's global = inverse(inv_bind) (Assimp's inverse and decomposition). */
static double bind_round_trip(const pb_asset *a)
{
    pb_pose g = { 0 };
    pb_skinned out = { 0 };
    pb_palette pal = { malloc(a->joints * PB_PALETTE_MAT_FLOATS * sizeof(float)), a->joints };
    double err = -1;
    if (pb_pose_alloc_static(&g, a->joints) != PB_OK || pb_skinned_alloc(&out, a->mesh.n) != PB_OK || !pal.data) goto done;
    for (size_t j = 0; j < a->joints; j++) {
        struct aiMatrix4x4 m;
        memcpy(&m, a->inv_bind[j], sizeof m);
        aiMatrix4Inverse(&m);
        struct aiVector3D s, t;
        struct aiQuaternion q;
        aiDecomposeMatrix(&m, &s, &q, &t);
        float v[10] = { t.x, t.y, t.z, q.w, q.x, q.y, q.z, s.x, s.y, s.z };
        for (int p = 0; p < 10; p++) g.plane[p][j] = v[p];
    }
    if (pb_matrix_palette(&g, &a->inv_bind_pose, &pal) != PB_OK || pb_skin_lbs(&a->mesh, &pal, &out) != PB_OK) {
        fprintf(stderr, "bind round trip: %s\n", pb_last_error());
        goto done;
    }
    err = 0;
    for (size_t v = 0; v < a->mesh.n; v++)
        for (int i = 0; i < 3; i++) err = dmax(err, fabs((double)out.pos[i][v] - a->mesh.pos[i][v]));
done:
    free(pal.data);
    pb_pose_free(&g);
    pb_skinned_free(&out);
    return err;
}

static void frame_pose(const pb_asset *a, const pb_clip *c, size_t f, pb_pose *local)
{
    for (size_t j = 0; j < a->joints; j++)
        for (int p = 0; p < PB_STATIC_PLANES; p++) local->plane[p][j] = c->pose.plane[p][f * a->joints + j];
}

/* FK of clip frames against Assimp's node transforms; returns frames checked, *err the worst difference. */
static int fk_check(const pb_asset *a, const struct aiScene *sc, size_t ci, double size, double *err)
{
    pb_skeleton sk = { 0 };
    pb_pose l = { 0 }, g = { 0 };
    int checked = 0;
    *err = 0;
    if (pb_skeleton_init(&sk, a->parents, a->joints, 1) != PB_OK || pb_pose_alloc_static(&l, a->joints) != PB_OK ||
        pb_pose_alloc_static(&g, a->joints) != PB_OK)
        return -1;
    const struct aiAnimation *an = ci < a->clips ? sc->mAnimations[ci] : NULL;
    const pb_clip *c = an ? &a->clip[ci].clip : NULL;
    double tps = an && an->mTicksPerSecond > 0 ? an->mTicksPerSecond : 25;
    size_t frames = c ? c->frames : 1;
    struct aiMatrix4x4 id;
    aiIdentityMatrix4(&id);
    for (size_t f = 0; f < frames; f++) {
        if (c) frame_pose(a, c, f, &l);
        else pb_pose_copy(&l, &a->rest);
        if (pb_fk_static(&sk, &l, &g) != PB_OK) break;
        double t = c ? (double)f / c->fps * tps : 0, e = 0;
        int ok = 1;
        for (size_t j = 0; j < a->joints && ok; j++) {
            struct aiMatrix4x4 want, got;
            if (ai_global(sc->mRootNode, &id, an, t, a->names[j], &want) != 1) ok = 0;
            kform_mat(&g, j, &got);
            if (ok) {   /* the importer's conversion C: scale only in these files (axes_converted is 0) */
                want.a4 *= (float)a->scale_applied, want.b4 *= (float)a->scale_applied, want.c4 *= (float)a->scale_applied;
                e = dmax(e, mat_diff(&want, &got, size));
            }
        }
        if (!ok) continue;
        checked++;
        *err = dmax(*err, e);
    }
    pb_skeleton_free(&sk);
    pb_pose_free(&l);
    pb_pose_free(&g);
    return checked;
}

typedef struct model { const char *file; size_t bones, clips; } model;

static void test_model(const char *dir, const model *md)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, md->file);
    if (access(path, R_OK) != 0) {
        printf("skip %s: not installed (apt-get install assimp-testmodels)\n", path);
        return;
    }
    pb_asset a;
    pb_status s = pb_asset_load(path, NULL, &a);
    CHECK(s == PB_OK, "%s: %s", md->file, pb_last_error());
    if (s != PB_OK) return;
    const struct aiScene *sc = ai_load(path);
    CHECK(sc != NULL, "%s: Assimp: %s", md->file, aiGetErrorString());
    if (!sc) return pb_asset_free(&a);
    size_t nv = 0, nb = 0;
    for (unsigned m = 0; m < sc->mNumMeshes; m++) nv += sc->mMeshes[m]->mNumVertices, nb += sc->mMeshes[m]->mNumBones;
    CHECK(a.mesh.n == nv && a.mesh_bones == nb && a.mesh_bones == md->bones && a.clips == md->clips &&
          a.clips == sc->mNumAnimations && a.axes_converted == 0,
          "%s: %zu vertices (Assimp %zu), %zu bones (Assimp %zu, issue %zu), %zu clips (%zu)", md->file, a.mesh.n, nv,
          a.mesh_bones, nb, md->bones, a.clips, md->clips);
    /* the mesh as Assimp holds it, times the unit scale */
    double worst = 0, size = mesh_size(&a.mesh);
    for (unsigned m = 0; m < sc->mNumMeshes && m < a.meshes; m++)
        for (unsigned v = 0; v < sc->mMeshes[m]->mNumVertices; v++) {
            const struct aiVector3D *p = &sc->mMeshes[m]->mVertices[v];
            size_t o = a.mesh_first[m] + v;
            worst = dmax(worst, fabs(a.mesh.pos[0][o] - p->x * a.scale_applied));
            worst = dmax(worst, fabs(a.mesh.pos[1][o] - p->y * a.scale_applied));
            worst = dmax(worst, fabs(a.mesh.pos[2][o] - p->z * a.scale_applied));
        }
    CHECK(worst <= 1e-6 * size, "%s: mesh vertices differ from Assimp's by %g (size %g)", md->file, worst, size);
    /* bones whose bind global inverse(inv_bind) is no T R S (a kineform cannot hold it), found here from
     * Assimp's offset matrices: its 3x3 columns not orthogonal */
    size_t skewed = 0;
    for (unsigned m = 0; m < sc->mNumMeshes; m++)
        for (unsigned k = 0; k < sc->mMeshes[m]->mNumBones; k++) {
            struct aiMatrix4x4 g = sc->mMeshes[m]->mBones[k]->mOffsetMatrix;
            aiMatrix4Inverse(&g);
            double c[3][3] = { { g.a1, g.b1, g.c1 }, { g.a2, g.b2, g.c2 }, { g.a3, g.b3, g.c3 } }, worst_dot = 0;
            for (int x = 0; x < 3; x++)
                for (int y = x + 1; y < 3; y++) {
                    double d = c[x][0] * c[y][0] + c[x][1] * c[y][1] + c[x][2] * c[y][2];
                    double nx = sqrt(c[x][0] * c[x][0] + c[x][1] * c[x][1] + c[x][2] * c[x][2]);
                    double ny = sqrt(c[y][0] * c[y][0] + c[y][1] * c[y][1] + c[y][2] * c[y][2]);
                    worst_dot = dmax(worst_dot, fabs(d) / (nx * ny));
                }
            skewed += worst_dot > 1e-5;
        }
    CHECK(a.skewed_binds == skewed, "%s: %zu skewed bind poses reported, %zu found", md->file, a.skewed_binds, skewed);
    double rt = bind_round_trip(&a);
    if (skewed == 0)
        CHECK(rt >= 0 && rt <= 1e-5 * size, "%s: bind round trip off by %g (1e-5 of size %g: %g)", md->file, rt, size,
              1e-5 * size);
    else
        printf("%s: %zu bones' bind pose is no kineform: the bind round trip is approximate (%.2g of size)\n",
               md->file, skewed, rt / size);
    double e;
    int n = fk_check(&a, sc, (size_t)-1, size, &e);
    CHECK(n == 1 && e <= 1e-4, "%s: rest FK vs Assimp's nodes: %g", md->file, e);
    for (size_t c = 0; c < a.clips; c++) {
        n = fk_check(&a, sc, c, size, &e);
        CHECK(n >= 1 && e <= 1e-4, "%s clip '%s': %d frames checked, FK vs Assimp's nodes off by %g (of size)", md->file,
              a.clip[c].name, n, e);
        printf("%s clip '%s': %zu frames at %g fps (key rate %g Hz), %zu keys at %zu times; FK of %d frames vs "
               "Assimp's nodes: %.2g of size\n", md->file, a.clip[c].name, a.clip[c].clip.frames,
               (double)a.clip[c].clip.fps, a.clip[c].key_rate, a.clip[c].keys, a.clip[c].times, n, e);
    }
    if (a.max_influences > PB_SKIN_MAX_INFLUENCES && a.clips) {   /* what the reduction to 4 moves a vertex by */
        infl_result r;
        char why[256];
        int st = infl_compare(&a, sc, &r, why, sizeof why);
        CHECK(st == 0, "%s: all influences vs the importer's 4: %s", md->file, why);
        if (st == 0) {
            CHECK(r.frames == (int)a.clip[0].clip.frames && r.vertices == a.reduced_vertices && r.over_bound == 0,
                  "%s: all influences vs 4: %d frames of %zu, %zu vertices with more than 4 (importer %zu), %zu "
                  "over the bound D x spread", md->file, r.frames, a.clip[0].clip.frames, r.vertices,
                  a.reduced_vertices, r.over_bound);
            printf("%s: all %d influences vs the importer's 4, skinned in double over %d frames: largest displacement "
                   "%.3g, %.3g of the posed mesh's bounding-box diagonal (at least %.3g); within D x spread at every "
                   "vertex (largest %.3g); largest dropped weight fraction D %.3g, largest spread %.3g (product "
                   "%.3g)\n", md->file, a.max_influences, r.frames, r.disp, r.rel, r.posed_diag, r.bound, r.dropped,
                   r.spread, r.dropped * r.spread);
        }
    }
    printf("%s: %zu joints (%zu bones), %zu vertices in %zu meshes, up to %d influences (%zu vertices reduced, "
           "largest dropped %g), %zu unweighted; %s; bind round trip %.2g of size\n", md->file, a.joints, a.bones,
           a.mesh.n, a.meshes, a.max_influences, a.reduced_vertices, (double)a.max_dropped_weight,
           a.unweighted_vertices, a.units_note, rt / size);
    aiReleaseImport(sc);
    pb_asset_free(&a);
}

static int32_t joint_named(const pb_asset *a, const char *name)
{
    for (size_t j = 0; j < a->joints; j++)
        if (strcmp(a->names[j], name) == 0) return (int32_t)j;
    return -1;
}

/* The test's own character: every answer known from what it wrote. */
static void test_own_gltf(const char *tmp)
{
    gl_char g;
    gl_default(&g);
    char path[512];
    snprintf(path, sizeof path, "%s/own.gltf", tmp);
    CHECK(gl_write(&g, path), "write %s", path);
    pb_asset a;
    pb_status s = pb_asset_load(path, NULL, &a);
    CHECK(s == PB_OK, "own glTF: %s", pb_last_error());
    if (s != PB_OK) return;
    int32_t jj[GL_JOINTS];
    int named = 1;
    for (int j = 0; j < GL_JOINTS; j++) {
        char nm[8];
        snprintf(nm, sizeof nm, "j%d", j);
        jj[j] = joint_named(&a, nm);
        named &= jj[j] >= 0 && a.is_bone[jj[j]] && (j == 0 || a.parents[jj[j]] == jj[j - 1]);
    }
    CHECK(named && a.bones == GL_JOINTS && a.mesh.n == GL_VERTS && a.meshes == 1 && a.clips == 1,
          "own glTF: the chain j0..j%d as bones, %zu bones, %zu vertices, %zu clips", GL_JOINTS - 1, a.bones, a.mesh.n, a.clips);
    if (!named || a.mesh.n != GL_VERTS) return pb_asset_free(&a);
    /* influences: 6 on every fourth vertex, reduced to the 4 largest, renormalised */
    size_t six = 0;
    double werr = 0;
    for (int v = 0; v < GL_VERTS; v++) {
        int n = v % 4 == 1 ? 6 : 2;
        six += n == 6;
        double kept = 0;
        for (int k = 0; k < (n < 4 ? n : 4); k++) kept += g.w[v][k];
        for (int k = 0; k < 4; k++) {
            double want = k < n ? g.w[v][k] / kept : 0;
            werr = dmax(werr, fabs(a.mesh.w[k][v] - want));
            if (k < n && a.mesh.idx[k][v] != (uint32_t)jj[g.jt[v][k]]) werr = 1;
        }
    }
    CHECK(a.max_influences == 6 && a.reduced_vertices == six && a.max_dropped_weight == gl_six[4] && werr <= 1e-6 &&
          a.unweighted_vertices == 0 && a.mesh.influences == 4,
          "own glTF: %d influences at most, %zu reduced (want %zu), largest dropped %g (want %g), weights off by %g",
          a.max_influences, a.reduced_vertices, six, (double)a.max_dropped_weight, (double)gl_six[4], werr);
    double ib = 0, pos = 0;
    for (int j = 0; j < GL_JOINTS; j++)
        for (int r = 0; r < 4; r++)
            for (int c = 0; c < 4; c++) ib = dmax(ib, fabs(a.inv_bind[jj[j]][r * 4 + c] - g.ib[j][c * 4 + r]));
    for (int v = 0; v < GL_VERTS; v++)
        for (int i = 0; i < 3; i++) pos = dmax(pos, fabs(a.mesh.pos[i][v] - g.pos[v][i]));
    CHECK(ib == 0 && pos == 0, "own glTF: inverse binds off by %g, positions by %g", ib, pos);
    /* the clip: keys at 0, 0.5, 1 s: 2 Hz, 3 frames holding the keys */
    const pb_asset_clip *c = &a.clip[0];
    CHECK(strcmp(c->name, "wave") == 0 && c->times == GL_KEYS && c->key_rate == 2.0 && c->clip.frames == GL_KEYS &&
          c->clip.fps == 2.0f && fabs(c->duration - 1.0) < 1e-9 && c->channels == 2,
          "own glTF clip: '%s', %zu times, %g Hz, %zu frames, %g s", c->name, c->times, c->key_rate, c->clip.frames,
          c->duration);
    double kerr = 0;
    for (size_t f = 0; f < c->clip.frames && f < GL_KEYS; f++) {
        size_t e2 = f * a.joints + (size_t)jj[2], e0 = f * a.joints + (size_t)jj[0], e1 = f * a.joints + (size_t)jj[1];
        kerr = dmax(kerr, fabs(c->key_times[f] - g.times[f]));
        const float q[4] = { g.rot_keys[f][3], g.rot_keys[f][0], g.rot_keys[f][1], g.rot_keys[f][2] };
        for (int i = 0; i < 4; i++) kerr = dmax(kerr, fabs(c->clip.pose.plane[PB_ROT_W + i][e2] - q[i]));
        for (int i = 0; i < 3; i++) {
            kerr = dmax(kerr, fabs(c->clip.pose.plane[PB_POS_X + i][e0] - g.tr_keys[f][i]));
            kerr = dmax(kerr, fabs(c->clip.pose.plane[PB_POS_X + i][e2] - g.t[2][i]));   /* not animated: rest */
            kerr = dmax(kerr, fabs(c->clip.pose.plane[PB_POS_X + i][e1] - g.t[1][i]));
        }
    }
    CHECK(kerr <= 1e-6, "own glTF clip: frames differ from the keys written by %g", kerr);
    /* at 10 fps: 11 frames; frame 1 (0.1 s) is the slerp of keys 0 and 1 at 0.2 */
    pb_asset_options o = pb_asset_default_options();
    o.fps = 10;
    pb_asset b;
    s = pb_asset_load(path, &o, &b);
    CHECK(s == PB_OK && b.clip[0].clip.frames == 11 && b.clip[0].times == GL_KEYS,
          "own glTF at 10 fps: %s, %zu frames", pb_last_error(), s == PB_OK ? b.clip[0].clip.frames : 0);
    if (s == PB_OK) {
        double ang = 2 * 0.3 * 0.2;   /* key 1 is 0.6 rad about x; 0.2 of the way */
        size_t e = a.joints + (size_t)jj[2];
        double w = b.clip[0].clip.pose.plane[PB_ROT_W][e], x = b.clip[0].clip.pose.plane[PB_ROT_X][e];
        CHECK(fabs(w - cos(ang / 2)) < 1e-6 && fabs(x - sin(ang / 2)) < 1e-6, "own glTF at 10 fps: slerp %g %g", w, x);
        pb_asset_free(&b);
    }
    /* rest FK skins the mesh back: the inverse binds written are the inverse of the rest */
    pb_skeleton sk = { 0 };
    pb_pose gl = { 0 };
    pb_skinned out = { 0 };
    pb_palette pal = { malloc(a.joints * PB_PALETTE_MAT_FLOATS * sizeof(float)), a.joints };
    s = pb_skeleton_init(&sk, a.parents, a.joints, 1);
    if (s == PB_OK) s = pb_pose_alloc_static(&gl, a.joints);
    if (s == PB_OK) s = pb_skinned_alloc(&out, a.mesh.n);
    if (s == PB_OK) s = pb_fk_static(&sk, &a.rest, &gl);
    if (s == PB_OK) s = pb_matrix_palette(&gl, &a.inv_bind_pose, &pal);
    if (s == PB_OK) s = pb_skin_lbs(&a.mesh, &pal, &out);
    double rerr = 0;
    for (size_t v = 0; s == PB_OK && v < a.mesh.n; v++)
        for (int i = 0; i < 3; i++) rerr = dmax(rerr, fabs(out.pos[i][v] - a.mesh.pos[i][v]));
    CHECK(s == PB_OK && rerr <= 1e-5 * mesh_size(&a.mesh), "own glTF: rest skinning gives the mesh back: %s, %g",
          pb_last_error(), rerr);
    double rt = bind_round_trip(&a);
    CHECK(rt >= 0 && rt <= 1e-5 * mesh_size(&a.mesh), "own glTF: bind round trip %g", rt);
    free(pal.data);
    pb_skeleton_free(&sk);
    pb_pose_free(&gl);
    pb_skinned_free(&out);
    pb_asset_free(&a);
}

/* The importer and posebench's own BVH loader on the same file: names, parents and every local. */
static void test_bvh_agree(const char *file)
{
    if (access(file, R_OK) != 0) {
        printf("skip %s: not installed (apt-get install assimp-testmodels)\n", file);
        return;
    }
    pb_bvh_skeleton bs;
    pb_clip bc;
    pb_asset a;
    pb_status s1 = pb_bvh_load(file, NULL, &bs, &bc), s2 = pb_asset_load(file, NULL, &a);
    CHECK(s1 == PB_OK && s2 == PB_OK, "%s: %s / %s", file, pb_status_name(s1), pb_status_name(s2));
    if (s1 != PB_OK || s2 != PB_OK) return;
    int32_t *map = malloc(bs.joints * sizeof *map);
    int names = 1;
    for (size_t j = 0; j < bs.joints; j++) {
        map[j] = joint_named(&a, bs.names[j]);
        names &= map[j] >= 0;
    }
    for (size_t j = 0; names && j < bs.joints; j++)
        names &= bs.parents[j] < 0 ? 1 : a.parents[map[j]] == map[bs.parents[j]];
    CHECK(names && a.clips == 1, "%s: every BVH joint is an imported joint with the same parent", file);
    if (names && a.clips == 1) {
        const pb_clip *c = &a.clip[0].clip;
        CHECK(c->frames == bc.frames && fabsf(c->fps - bc.fps) <= 1e-3f * bc.fps, "%s: %zu frames at %g fps vs %zu at %g",
              file, c->frames, (double)c->fps, bc.frames, (double)bc.fps);
        double pe = 0, re = 0;
        for (size_t f = 0; f < c->frames && f < bc.frames; f++)
            for (size_t j = 0; j < bs.joints; j++) {
                size_t e = f * bs.joints + j, ea = f * a.joints + (size_t)map[j];
                double dot = 0;
                for (int i = 0; i < 3; i++)
                    pe = dmax(pe, fabs(c->pose.plane[PB_POS_X + i][ea] - bc.pose.plane[PB_POS_X + i][e]));
                for (int i = 0; i < 4; i++) dot += (double)c->pose.plane[PB_ROT_W + i][ea] * bc.pose.plane[PB_ROT_W + i][e];
                re = dmax(re, 2 * acos(fmin(1.0, fabs(dot))));
            }
        CHECK(pe <= 1e-4 && re <= 1e-3, "%s: locals differ by %g (positions), %g rad (rotations)", file, pe, re);
        printf("%s: both loaders: %zu joints, %zu frames; positions within %.2g, rotations within %.2g rad\n", file,
               bs.joints, bc.frames, pe, re);
    }
    free(map);
    pb_bvh_skeleton_free(&bs);
    pb_clip_free(&bc);
    pb_asset_free(&a);
}

/* One line of counts for tests/test_asset_counts.sh. */
static int counts(const char *file)
{
    pb_asset a;
    if (pb_asset_load(file, NULL, &a) != PB_OK) {
        fprintf(stderr, "%s\n", pb_last_error());
        return 2;
    }
    size_t keys = 0, channels = 0;
    for (size_t c = 0; c < a.clips; c++) keys += a.clip[c].keys, channels += a.clip[c].channels;
    printf("joints %zu bones %zu mesh_bones %zu vertices %zu meshes %zu influences %d clips %zu channels %zu keys %zu\n",
           a.joints, a.bones, a.mesh_bones, a.mesh.n, a.meshes, a.max_influences, a.clips, channels, keys);
    pb_asset_free(&a);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "counts") == 0) return counts(argv[2]);
    const char *dir = argc > 1 ? argv[1] : "/usr/share/assimp/models";
    char tmp[] = "/tmp/test_asset.XXXXXX";
    if (!mkdtemp(tmp)) return perror("mkdtemp"), 1;
    test_own_gltf(tmp);
    static const model models[] = {
        { "X/BCN_Epileptic.X", 54, 1 }, { "X/Testwuson.X", 37, 3 }, { "FBX/animation_with_skeleton.fbx", 14, 1 },
        { "FBX/huesitos.fbx", 9, 1 }, { "glTF2/simple_skin/simple_skin.gltf", 2, 1 },
    };
    for (size_t i = 0; i < sizeof models / sizeof *models; i++) test_model(dir, &models[i]);
    test_bvh_agree(PB_CMU_DIR "/01_01.bvh");
    test_bvh_agree(PB_CMU_DIR "/01_03.bvh");
    char own[600];
    snprintf(own, sizeof own, "%s/own.gltf", tmp);
    unlink(own);
    rmdir(tmp);
    return check_done();
}
