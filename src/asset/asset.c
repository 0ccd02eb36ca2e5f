/* asset.c — pb_asset_load (posebench/asset.h): Assimp reads the file, this
 * file checks what it gave, finds the units and axes, picks the joints and
 * their rest pose; asset_mesh.c and asset_clip.c do the mesh and the clips.
 * Everything is built into a private pb_asset, handed over only when all of
 * it succeeded: on any error the caller's struct stays zeroed. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <assimp/cimport.h>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include "asset_int.h"

/* Triangulated, identical vertices joined (what a renderer skins), normals where
 * the file has none, Assimp's own structure check (catches corrupt indices). */
#define ASSET_FLAGS (aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_GenSmoothNormals | \
                     aiProcess_ValidateDataStructure)
#define ASSET_MAX_NODES ((size_t)1 << 20)

pb_asset_options pb_asset_default_options(void)
{
    pb_asset_options o = { 0 };
    o.max_bytes = PB_ASSET_DEFAULT_MAX_BYTES;
    o.max_joints = PB_ASSET_DEFAULT_MAX_JOINTS;
    o.max_vertices = PB_MESH_MAX_VERTICES;
    o.max_keys = PB_ASSET_DEFAULT_MAX_KEYS;
    return o;
}

pb_status pb_asset_options_check(const pb_asset_options *o)
{
    if (!o) return PB_OK;
    if (!isfinite(o->fps) || o->fps < 0)
        return pb_fail(PB_ERR_PARAM, "pb_asset_options: fps = %g, expected 0 (the file's rate) or a finite rate > 0",
                       (double)o->fps);
    if (o->max_bytes == 0 || o->max_joints == 0 || o->max_vertices == 0 || o->max_keys == 0)
        return pb_fail(PB_ERR_PARAM, "pb_asset_options: max_bytes, max_joints, max_vertices and max_keys must be >= 1");
    if (o->max_joints > PB_MAX_JOINTS)
        return pb_fail(PB_ERR_PARAM, "pb_asset_options: max_joints = %zu, above PB_MAX_JOINTS (%u)", o->max_joints,
                       (unsigned)PB_MAX_JOINTS);
    if (o->max_vertices > PB_MESH_MAX_VERTICES)
        return pb_fail(PB_ERR_PARAM, "pb_asset_options: max_vertices = %zu, above PB_MESH_MAX_VERTICES (%zu)",
                       o->max_vertices, PB_MESH_MAX_VERTICES);
    return PB_OK;
}

void pb_asset_free(pb_asset *a)
{
    if (!a) return;
    free(a->names);
    free(a->parents);
    free(a->is_bone);
    free(a->inv_bind);
    free(a->mesh_first);
    pb_pose_free(&a->rest);
    pb_pose_free(&a->inv_bind_pose);
    pb_mesh_free(&a->mesh);
    for (size_t i = 0; a->clip && i < a->clips; i++) {
        free(a->clip[i].key_times);
        pb_clip_free(&a->clip[i].clip);
    }
    free(a->clip);
    memset(a, 0, sizeof *a);
}

int32_t asset_joint_named(const abuild *b, const struct aiString *s)
{
    for (size_t i = 0; i < b->nodes; i++) {
        const struct aiString *ns = &b->node[i]->mName;
        if (ns->length == s->length && memcmp(ns->data, s->data, s->length) == 0) return b->node_joint[i];
    }
    return -1;
}

int32_t asset_joint_of_node(const abuild *b, const struct aiNode *n)
{
    for (size_t i = 0; i < b->nodes; i++)
        if (b->node[i] == n) return b->node_joint[i];
    return -1;
}

pb_status asset_put_kform(abuild *b, pb_pose *p, size_t e, const amat *m, const char *what, const char *who)
{
    double t[3], q[4], s[3];
    if (!am_finite(m) || !am_to_kform(m, t, q, s))
        return pb_fail(PB_ERR_PARAM, "%s: %s of '%s' is not finite or has a zero scale", b->name, what, who);
    for (int i = 0; i < 3; i++) {
        p->plane[PB_POS_X + i][e] = (float)t[i];
        p->plane[PB_SCL_X + i][e] = (float)s[i];
        if (!isfinite(p->plane[PB_POS_X + i][e]) || !isfinite(p->plane[PB_SCL_X + i][e]) ||
            p->plane[PB_SCL_X + i][e] == 0.0f)
            return pb_fail(PB_ERR_PARAM, "%s: %s of '%s' overflows float", b->name, what, who);
    }
    for (int i = 0; i < 4; i++) p->plane[PB_ROT_W + i][e] = (float)q[i];
    return PB_OK;
}

/* ---- units and axes ----------------------------------------------------------------------------- */
static int meta_int(const struct aiMetadata *md, const char *key, int *v)
{
    for (unsigned i = 0; md && i < md->mNumProperties; i++)
        if (strcmp(md->mKeys[i].data, key) == 0 && md->mValues[i].mData) {
            if (md->mValues[i].mType == AI_INT32) return *v = *(const int32_t *)md->mValues[i].mData, 1;
            if (md->mValues[i].mType == AI_UINT64) return *v = (int)*(const uint64_t *)md->mValues[i].mData, 1;
        }
    return 0;
}

static int meta_real(const struct aiMetadata *md, const char *key, double *v)
{
    for (unsigned i = 0; md && i < md->mNumProperties; i++)
        if (strcmp(md->mKeys[i].data, key) == 0 && md->mValues[i].mData) {
            if (md->mValues[i].mType == AI_FLOAT) return *v = *(const float *)md->mValues[i].mData, 1;
            if (md->mValues[i].mType == AI_DOUBLE) return *v = *(const double *)md->mValues[i].mData, 1;
        }
    return 0;
}

static void find_units(abuild *b, const char *hint)
{
    pb_asset *a = b->a;
    const struct aiMetadata *md = b->sc->mMetaData;
    a->format[0] = 0;
    for (unsigned i = 0; md && i < md->mNumProperties; i++)
        if (strcmp(md->mKeys[i].data, "SourceAsset_Format") == 0 && md->mValues[i].mType == AI_AISTRING &&
            md->mValues[i].mData)
            snprintf(a->format, sizeof a->format, "%.31s", ((const struct aiString *)md->mValues[i].mData)->data);
    if (!a->format[0] && hint) snprintf(a->format, sizeof a->format, "%.31s", hint);
    int fbx = 0;
    for (const char *p = a->format; *p; p++)
        if (strncmp(p, "FBX", 3) == 0 || strncmp(p, "fbx", 3) == 0) fbx = 1;
    double usf = 0;
    a->unit_scale_found = meta_real(md, "UnitScaleFactor", &usf) ? usf : 0;
    int ax[3] = { -1, -1, -1 }, sg[3] = { 0, 0, 0 };   /* right (coord), up, front */
    int have_axes = meta_int(md, "CoordAxis", &ax[0]) & meta_int(md, "UpAxis", &ax[1]) & meta_int(md, "FrontAxis", &ax[2]);
    meta_int(md, "CoordAxisSign", &sg[0]), meta_int(md, "UpAxisSign", &sg[1]), meta_int(md, "FrontAxisSign", &sg[2]);
    a->up_axis_found = meta_int(md, "UpAxis", &ax[1]) ? ax[1] : -1;
    a->up_sign_found = a->up_axis_found >= 0 ? sg[1] : 0;
    a->scale_applied = 1.0;
    a->axes_converted = 0;
    aconv *k = &b->conv;
    memset(k, 0, sizeof *k);
    k->scale = 1.0;
    for (int i = 0; i < 3; i++) k->perm[i] = i, k->sign[i] = 1;
    const char *axes_note = "";
    if (fbx && !b->opt.keep_units) {
        if (isfinite(usf) && usf > 0 && usf != 100.0) k->scale = 0.01 * usf;
        int ok = have_axes;
        for (int i = 0; i < 3 && ok; i++)
            ok = ax[i] >= 0 && ax[i] <= 2 && (sg[i] == 1 || sg[i] == -1);
        ok = ok && ax[0] != ax[1] && ax[1] != ax[2] && ax[0] != ax[2];
        if (ok) {
            amat p;
            am_identity(&p);
            for (int i = 0; i < 3; i++) p.m[i][i] = 0;
            for (int i = 0; i < 3; i++) p.m[i][ax[i]] = sg[i], k->perm[i] = ax[i], k->sign[i] = sg[i];
            double d = p.m[0][0] * (p.m[1][1] * p.m[2][2] - p.m[1][2] * p.m[2][1]) -
                       p.m[0][1] * (p.m[1][0] * p.m[2][2] - p.m[1][2] * p.m[2][0]) +
                       p.m[0][2] * (p.m[1][0] * p.m[2][1] - p.m[1][1] * p.m[2][0]);
            int ident = 1;
            for (int i = 0; i < 3; i++) ident &= ax[i] == i && sg[i] == 1;
            if (d < 0) {
                axes_note = "; left-handed axes kept as they are";
                for (int i = 0; i < 3; i++) k->perm[i] = i, k->sign[i] = 1;
            } else if (!ident) {
                a->axes_converted = 1;
                am_rot_to_quat(&p, k->pq);
            }
        }
        k->on = a->axes_converted || k->scale != 1.0;
        if (!a->axes_converted) k->pq[0] = 1, k->pq[1] = k->pq[2] = k->pq[3] = 0;
        a->scale_applied = k->scale;
        am_identity(&k->c);
        am_identity(&k->c_inv);
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                k->c.m[i][j] = (k->perm[i] == j ? k->sign[i] : 0) * k->scale;
                k->c_inv.m[j][i] = (k->perm[i] == j ? k->sign[i] : 0) / k->scale;
            }
    }
    if (a->up_axis_found >= 0 || a->unit_scale_found > 0)
        snprintf(a->units_note, sizeof a->units_note, "UnitScaleFactor %g, up axis %s%c: scaled by %g%s%s",
                 a->unit_scale_found, a->up_sign_found < 0 ? "-" : "+",
                 a->up_axis_found >= 0 && a->up_axis_found <= 2 ? "xyz"[a->up_axis_found] : '?', a->scale_applied,
                 a->axes_converted ? ", rotated to +Y up" : "", axes_note);
    else
        snprintf(a->units_note, sizeof a->units_note, "no unit or axis metadata: as the file gives them");
}

/* ---- skeleton ------------------------------------------------------------------------------------- */
static pb_status walk_nodes(abuild *b)
{
    size_t cap = 64, n = 0;
    const struct aiNode **stack = malloc(cap * sizeof *stack);
    int32_t *sp = malloc(cap * sizeof *sp);
    b->node = malloc(cap * sizeof *b->node);
    b->node_parent = malloc(cap * sizeof *b->node_parent);
    if (!stack || !sp || !b->node || !b->node_parent) goto nomem;
    size_t top = 0;
    stack[top] = b->sc->mRootNode, sp[top++] = -1;
    while (top > 0) {
        const struct aiNode *nd = stack[--top];
        int32_t par = sp[top];
        if (n == ASSET_MAX_NODES) {
            free(stack), free(sp);
            return pb_fail(PB_ERR_SIZE, "%s: more than %zu nodes", b->name, ASSET_MAX_NODES);
        }
        if (n == cap || top + nd->mNumChildren >= cap) {
            size_t nc = cap * 2 + nd->mNumChildren;
            if (nc > 4 * ASSET_MAX_NODES) {
                free(stack), free(sp);
                return pb_fail(PB_ERR_SIZE, "%s: more than %zu nodes", b->name, ASSET_MAX_NODES);
            }
            const struct aiNode **s2 = realloc(stack, nc * sizeof *s2);
            if (s2) stack = s2;
            int32_t *p2 = realloc(sp, nc * sizeof *p2);
            if (p2) sp = p2;
            const struct aiNode **n2 = realloc(b->node, nc * sizeof *n2);
            if (n2) b->node = n2;
            int32_t *q2 = realloc(b->node_parent, nc * sizeof *q2);
            if (q2) b->node_parent = q2;
            if (!s2 || !p2 || !n2 || !q2) goto nomem;
            cap = nc;
        }
        b->node[n] = nd, b->node_parent[n] = par;
        for (unsigned c = nd->mNumChildren; c-- > 0;)   /* pushed in reverse: visited in order */
            if (nd->mChildren[c]) stack[top] = nd->mChildren[c], sp[top++] = (int32_t)n;
        n++;
    }
    free(stack), free(sp);
    b->nodes = n;
    b->node_joint = malloc(n * sizeof *b->node_joint);
    if (!b->node_joint) return pb_fail(PB_ERR_NOMEM, "%s: out of memory for %zu nodes", b->name, n);
    return PB_OK;
nomem:
    free(stack), free(sp);
    return pb_fail(PB_ERR_NOMEM, "%s: out of memory walking the node hierarchy", b->name);
}

static void mark_named(abuild *b, const struct aiString *s, uint8_t *mark)
{
    for (size_t i = 0; i < b->nodes; i++) {
        const struct aiString *ns = &b->node[i]->mName;
        if (ns->length == s->length && memcmp(ns->data, s->data, s->length) == 0) {
            mark[i] = 1;
            return;
        }
    }
}

static pb_status pick_joints(abuild *b)
{
    const struct aiScene *sc = b->sc;
    pb_asset *a = b->a;
    uint8_t *mark = calloc(b->nodes, 1);
    if (!mark) return pb_fail(PB_ERR_NOMEM, "%s: out of memory", b->name);
    size_t bones = 0, channels = 0;
    for (unsigned m = 0; m < sc->mNumMeshes; m++)
        for (unsigned k = 0; k < sc->mMeshes[m]->mNumBones; k++, bones++)
            mark_named(b, &sc->mMeshes[m]->mBones[k]->mName, mark);
    for (unsigned c = 0; c < sc->mNumAnimations; c++)
        for (unsigned k = 0; k < sc->mAnimations[c]->mNumChannels; k++, channels++)
            mark_named(b, &sc->mAnimations[c]->mChannels[k]->mNodeName, mark);
    if (bones == 0 && channels == 0) {
        free(mark);
        return pb_fail(PB_ERR_PARSE, "%s: no skeleton: no mesh has bones and no node is animated", b->name);
    }
    for (size_t i = 0; i < b->nodes; i++)   /* the nodes of the meshes: unweighted vertices bind to them */
        if (b->node[i]->mNumMeshes > 0) mark[i] = 1;
    for (size_t i = b->nodes; i-- > 0;)     /* children after parents: one backward pass marks every ancestor */
        if (mark[i] && b->node_parent[i] >= 0) mark[b->node_parent[i]] = 1;
    size_t J = 0;
    for (size_t i = 0; i < b->nodes; i++) b->node_joint[i] = mark[i] ? (int32_t)J++ : -1;
    free(mark);
    a->mesh_bones = bones;
    if (J > b->opt.max_joints)
        return pb_fail(PB_ERR_SIZE, "%s: the skeleton has %zu joints, more than max_joints (%zu)", b->name, J,
                       b->opt.max_joints);
    a->joints = J;
    a->names = calloc(J, sizeof *a->names);
    a->parents = malloc(J * sizeof *a->parents);
    a->is_bone = calloc(J, 1);
    a->inv_bind = malloc(J * sizeof *a->inv_bind);
    if (!a->names || !a->parents || !a->is_bone || !a->inv_bind)
        return pb_fail(PB_ERR_NOMEM, "%s: out of memory for %zu joints", b->name, J);
    pb_status s = pb_pose_alloc_static(&a->rest, J);
    if (s != PB_OK) return s;
    for (size_t i = 0; i < b->nodes; i++) {
        int32_t j = b->node_joint[i];
        if (j < 0) continue;
        const struct aiNode *nd = b->node[i];
        snprintf(a->names[j], PB_ASSET_NAME_MAX, "%.*s", (int)(nd->mName.length < PB_ASSET_NAME_MAX ? nd->mName.length
                 : PB_ASSET_NAME_MAX - 1), nd->mName.data);
        a->parents[j] = b->node_parent[i] >= 0 ? b->node_joint[b->node_parent[i]] : -1;
        amat m, c;
        am_from_ai(&m, &nd->mTransformation);
        aconv_matrix(&b->conv, &m, &c);
        s = asset_put_kform(b, &a->rest, (size_t)j, &c, "the node transform", a->names[j]);
        if (s != PB_OK) return s;
    }
    return PB_OK;
}

/* ---- import --------------------------------------------------------------------------------------- */
static pb_status build(abuild *b, const char *hint)
{
    const struct aiScene *sc = b->sc;
    if (!sc->mRootNode)
        return pb_fail(PB_ERR_PARSE, "%s: Assimp gave a scene without nodes", b->name);
    if (sc->mNumMeshes == 0 && !b->opt.allow_no_mesh)
        return pb_fail(PB_ERR_PARSE, "%s: no mesh (a skeleton and clips only: allow_no_mesh imports it)", b->name);
    /* Assimp marks a scene without meshes incomplete: that one is allow_no_mesh's */
    if ((sc->mFlags & AI_SCENE_FLAGS_INCOMPLETE) && sc->mNumMeshes > 0)
        return pb_fail(PB_ERR_PARSE, "%s: Assimp read an incomplete scene (a file it could not read whole)", b->name);
    find_units(b, hint);
    pb_status s = walk_nodes(b);
    if (s == PB_OK) s = pick_joints(b);
    if (s == PB_OK) s = asset_build_mesh(b);
    if (s == PB_OK) s = asset_build_clips(b);
    return s;
}

static pb_status finish(abuild *b, const struct aiScene *sc, const char *hint, pb_asset *out)
{
    pb_asset a = { 0 };
    b->sc = sc;
    b->a = &a;
    pb_status s = build(b, hint);
    aiReleaseImport(sc);
    free(b->node), free(b->node_parent), free(b->node_joint);
    if (s != PB_OK) {
        pb_asset_free(&a);
        return s;
    }
    *out = a;
    return PB_OK;
}

static pb_status import_failed(const char *name, const char *ext)
{
    const char *why = aiGetErrorString();
    if (ext && *ext && !aiIsExtensionSupported(ext))
        return pb_fail(PB_ERR_PARSE, "%s: unknown format: Assimp reads no '%s' files (%s)", name, ext,
                       why && *why ? why : "no reader");
    return pb_fail(PB_ERR_PARSE, "%s: Assimp cannot read it: %s", name, why && *why ? why : "no reason given");
}

static struct aiPropertyStore *properties(void)
{
    struct aiPropertyStore *p = aiCreatePropertyStore();
    /* FBX pivots folded into the node transforms: one node per bone, not five helper nodes */
    if (p) aiSetImportPropertyInteger(p, AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, 0);
    return p;
}

pb_status pb_asset_load(const char *path, const pb_asset_options *opt, pb_asset *a)
{
    if (!a) return pb_fail(PB_ERR_NULL, "pb_asset_load: a is NULL");
    memset(a, 0, sizeof *a);
    if (!path) return pb_fail(PB_ERR_NULL, "pb_asset_load: path is NULL");
    pb_status s = pb_asset_options_check(opt);
    if (s != PB_OK) return s;
    abuild b = { .name = path, .opt = opt ? *opt : pb_asset_default_options() };
    /* the checks of pb_file_read without the read: Assimp opens the file (and a .gltf's buffers) itself */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return pb_fail(PB_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    int ok = fstat(fd, &st) == 0;
    int e = errno;
    unsigned char head[64];   /* what asset_guard looks at first */
    ssize_t got = ok && S_ISREG(st.st_mode) ? read(fd, head, sizeof head) : 0;
    close(fd);
    if (!ok) return pb_fail(PB_ERR_IO, "%s: cannot stat: %s", path, strerror(e));
    if (!S_ISREG(st.st_mode)) return pb_fail(PB_ERR_IO, "%s: not a regular file; a model must be one", path);
    if ((uintmax_t)st.st_size > b.opt.max_bytes)
        return pb_fail(PB_ERR_SIZE, "%s: %jd bytes, more than max_bytes (%zu)", path, (intmax_t)st.st_size,
                       b.opt.max_bytes);
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    const char *ext = dot && (!slash || dot > slash) ? dot : NULL;
    size_t nh = got > 0 ? (size_t)got : 0;
    if (asset_guard_wants_all(ext, head, nh)) {   /* glTF: the guard scans its JSON whole */
        char *all;
        size_t n;
        s = pb_file_read(path, b.opt.max_bytes, "model", &all, &n);
        if (s != PB_OK) return s;
        s = asset_guard(path, ext, (const unsigned char *)all, n);
        free(all);
    } else {
        s = asset_guard(path, ext, head, nh);
    }
    if (s != PB_OK) return s;
    struct aiPropertyStore *props = properties();
    if (!props) return pb_fail(PB_ERR_NOMEM, "%s: out of memory (Assimp's property store)", path);
    const struct aiScene *sc = aiImportFileExWithProperties(path, ASSET_FLAGS, NULL, props);
    aiReleasePropertyStore(props);
    if (!sc) return import_failed(path, ext);
    return finish(&b, sc, ext ? ext + 1 : NULL, a);
}

pb_status pb_asset_load_mem(const void *data, size_t size, const char *hint, const char *name,
                            const pb_asset_options *opt, pb_asset *a)
{
    if (!a) return pb_fail(PB_ERR_NULL, "pb_asset_load_mem: a is NULL");
    memset(a, 0, sizeof *a);
    if (!name) name = "<memory>";
    if (!data) return pb_fail(PB_ERR_NULL, "%s: data is NULL", name);
    pb_status s = pb_asset_options_check(opt);
    if (s != PB_OK) return s;
    abuild b = { .name = name, .opt = opt ? *opt : pb_asset_default_options() };
    if (size > b.opt.max_bytes || size > 0xffffffffu)
        return pb_fail(PB_ERR_SIZE, "%s: %zu bytes, more than max_bytes (%zu)", name, size, b.opt.max_bytes);
    if (size == 0) return pb_fail(PB_ERR_PARSE, "%s: empty", name);
    char ext[256] = "";   /* the hint's last extension: Assimp names the memory file "<magic>.<hint>" */
    if (hint) {
        const char *d = strrchr(hint, '.');
        snprintf(ext, sizeof ext, ".%s", d ? d + 1 : hint);
    }
    s = asset_guard(name, hint ? ext : NULL, data, size);
    if (s != PB_OK) return s;
    struct aiPropertyStore *props = properties();
    if (!props) return pb_fail(PB_ERR_NOMEM, "%s: out of memory (Assimp's property store)", name);
    const struct aiScene *sc =
        aiImportFileFromMemoryWithProperties(data, (unsigned)size, ASSET_FLAGS, hint ? hint : "", props);
    aiReleasePropertyStore(props);
    if (!sc) return import_failed(name, hint ? ext : NULL);
    return finish(&b, sc, hint, a);
}
