/* asset_scene.c — a frame scene (posebench/frame.h) from an imported
 * character (posebench/asset.h): its skeleton, two of its clips, its own mesh
 * and inverse bind pose, legs by name. Needs no Assimp (it reads a pb_asset),
 * so it is built with or without PB_ASSIMP. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "posebench/asset.h"
#include "posebench/frame.h"
#include "../frame_int.h"
#include "../internal.h"   /* pb_fail */

/* the clip named name (NULL: index dflt), or -1 after a message listing the names */
static long find_clip(const pb_asset *a, const char *name, size_t dflt, const char *which)
{
    if (!name) return (long)dflt;
    for (size_t i = 0; i < a->clips; i++)
        if (!strcmp(a->clip[i].name, name)) return (long)i;
    char list[256] = "";
    size_t used = 0;
    for (size_t i = 0; i < a->clips && used + 4 < sizeof list; i++) {
        int w = snprintf(list + used, sizeof list - used, "%s\"%s\"", i ? ", " : "", a->clip[i].name);
        used += w > 0 ? (size_t)w : 0;
    }
    pb_fail(PB_ERR_PARAM, "pb_scene_asset: %s: no clip named \"%s\" (the model's %zu: %s)", which, name, a->clips, list);
    return -1;
}

static pb_status copy_clip(pb_clip *dst, const pb_clip *src)
{
    pb_status st = pb_clip_alloc(dst, src->frames, src->joints, src->fps);
    if (st != PB_OK) return st;
    for (int q = 0; q < PB_PLANES; q++)
        if (src->pose.plane[q]) memcpy(dst->pose.plane[q], src->pose.plane[q], src->pose.n * sizeof(float));
    return PB_OK;
}

static pb_status copy_mesh(pb_mesh *dst, const pb_mesh *src)
{
    pb_status st = pb_mesh_alloc(dst, src->n, src->influences);
    if (st != PB_OK) return st;
    for (int k = 0; k < 3; k++) {
        memcpy(dst->pos[k], src->pos[k], src->n * sizeof(float));
        memcpy(dst->nrm[k], src->nrm[k], src->n * sizeof(float));
    }
    for (int i = 0; i < src->influences; i++) {
        memcpy(dst->idx[i], src->idx[i], src->n * sizeof(uint32_t));
        memcpy(dst->w[i], src->w[i], src->n * sizeof(float));
    }
    return PB_OK;
}

pb_status pb_scene_asset(pb_scene *s, const pb_asset *a, const char *clip_a, const char *clip_b)
{
    if (!s) return pb_fail(PB_ERR_NULL, "pb_scene_asset: scene is NULL");
    memset(s, 0, sizeof *s);
    if (!a) return pb_fail(PB_ERR_NULL, "pb_scene_asset: asset is NULL");
    if (!a->joints || !a->parents) return pb_fail(PB_ERR_PARAM, "pb_scene_asset: the asset is empty (not imported)");
    if (!a->clips) return pb_fail(PB_ERR_PARAM, "pb_scene_asset: the model has no clip (a scene plays two: give a file with animation)");
    long ia = find_clip(a, clip_a, 0, "clip_a");
    long ib = ia < 0 ? -1 : find_clip(a, clip_b, a->clips > 1 ? 1 : 0, "clip_b");
    if (ia < 0 || ib < 0) return PB_ERR_PARAM;
    const size_t J = a->joints;
    char (*names)[PB_BVH_NAME_MAX] = calloc(J, sizeof *names);
    s->parents = malloc(J * sizeof *s->parents);
    pb_status st = names && s->parents ? PB_OK : pb_fail(PB_ERR_NOMEM, "pb_scene_asset: out of memory (%zu joints)", J);
    if (st == PB_OK) {
        s->joints = J;
        memcpy(s->parents, a->parents, J * sizeof *s->parents);
        for (size_t j = 0; j < J; j++) snprintf(names[j], sizeof names[j], "%s", a->names[j]);
        st = copy_clip(&s->clip[0], &a->clip[ia].clip);
    }
    if (st == PB_OK) st = copy_clip(&s->clip[1], &a->clip[ib].clip);
    if (st == PB_OK && a->mesh.n) st = copy_mesh(&s->mesh, &a->mesh);
    if (st == PB_OK && (st = pb_pose_alloc_static(&s->inv_bind, J)) == PB_OK)
        for (int q = 0; q < PB_STATIC_PLANES; q++)
            memcpy(s->inv_bind.plane[q], a->inv_bind_pose.plane[q], J * sizeof(float));
    if (st == PB_OK) {
        snprintf(s->name, sizeof s->name, "model:%.40s-%zu", a->clip[ia].name[0] ? a->clip[ia].name : a->format, J);
        snprintf(s->source, sizeof s->source, "%s model, %zu joints, %zu vertices: clip \"%.100s\" (%zu frames at %.0f fps) -> "
                 "\"%.100s\" (%zu frames); %s", a->format, J, a->mesh.n, a->clip[ia].name, s->clip[0].frames,
                 (double)s->clip[0].fps, a->clip[ib].name, s->clip[1].frames, a->units_note);
        snprintf(s->clip_name[0], sizeof s->clip_name[0], "%s", a->clip[ia].name);
        snprintf(s->clip_name[1], sizeof s->clip_name[1], "%s", a->clip[ib].name);
        pb_scene_pick_legs(s, (const char(*)[PB_BVH_NAME_MAX])names);
        st = pb_scene_turns(s);
    }
    free(names);
    if (st != PB_OK) pb_scene_free(s);
    return st;
}
