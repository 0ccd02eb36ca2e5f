/* frame_bvh.c — scenes from BVH files (posebench/frame.h): each file loaded
 * once, two clips of one hierarchy, legs by name where the rig names them.
 * Built with the BVH loader (PB_BVH). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "posebench/frame.h"
#include "frame_int.h"
#include "internal.h"   /* pb_fail */

static const char *base_name(const char *path, char *buf, size_t len)
{
    const char *b = strrchr(path, '/');
    const char *base = b ? b + 1 : path;
    size_t n = strlen(base) < len ? strlen(base) : len - 1;   /* truncated to buf, by design */
    memcpy(buf, base, n);
    buf[n] = '\0';
    char *dot = strrchr(buf, '.');
    if (dot && dot != buf) *dot = '\0';
    return buf;
}

pb_status pb_bvh_file_load(pb_bvh_file *b, const char *path, float unit_scale, pb_bvh_warn_fn warn, void *user)
{
    if (!b) return pb_fail(PB_ERR_NULL, "pb_bvh_file_load: file (b) is NULL");
    memset(b, 0, sizeof *b);
    if (!path) return pb_fail(PB_ERR_NULL, "pb_bvh_file_load: path is NULL");
    snprintf(b->path, sizeof b->path, "%s", path);
    b->unit_scale = unit_scale;
    pb_bvh_options opt = pb_bvh_default_options();
    opt.unit_scale = unit_scale;
    opt.warn = warn;
    opt.user = user;
    return pb_bvh_load(path, &opt, &b->skel, &b->clip);
}

void pb_bvh_file_free(pb_bvh_file *b)
{
    if (!b) return;
    pb_bvh_skeleton_free(&b->skel);
    pb_clip_free(&b->clip);
    memset(b, 0, sizeof *b);
}

int pb_bvh_file_same_skeleton(const pb_bvh_file *a, const pb_bvh_file *b)
{
    if (!a || !b) return 0;
    int same = a->skel.joints == b->skel.joints;
    for (size_t j = 0; same && j < a->skel.joints; j++)
        same = a->skel.parents[j] == b->skel.parents[j] && !strcmp(a->skel.names[j], b->skel.names[j]);
    return same;
}

static pb_status clip_copy(pb_clip *dst, const pb_clip *src)
{
    pb_status st = pb_clip_alloc(dst, src->frames, src->joints, src->fps);
    if (st != PB_OK) return st;
    for (int q = 0; q < PB_PLANES; q++) memcpy(dst->pose.plane[q], src->pose.plane[q], src->pose.n * sizeof(float));
    dst->warnings = src->warnings;
    return PB_OK;
}

pb_status pb_scene_bvh(pb_scene *s, const char *name, const pb_bvh_file *a, const pb_bvh_file *b)
{
    if (!s) return pb_fail(PB_ERR_NULL, "pb_scene_bvh: scene is NULL");
    memset(s, 0, sizeof *s);
    if (!a || !b || !a->skel.joints || !b->skel.joints)
        return pb_fail(PB_ERR_NULL, "pb_scene_bvh: file %s is NULL or not loaded", !a || !a->skel.joints ? "a" : "b");
    if (!pb_bvh_file_same_skeleton(a, b))
        return pb_fail(PB_ERR_PARAM, "%s and %s: different hierarchies (joint names or parents)", a->path, b->path);
    s->joints = a->skel.joints;
    s->parents = malloc(s->joints * sizeof *s->parents);
    if (!s->parents) return pb_fail(PB_ERR_NOMEM, "scene of %s: out of memory", a->path);
    memcpy(s->parents, a->skel.parents, s->joints * sizeof *s->parents);
    pb_status st = clip_copy(&s->clip[0], &a->clip);
    if (st == PB_OK) st = clip_copy(&s->clip[1], &b->clip);
    if (st != PB_OK) {
        pb_scene_free(s);
        return pb_fail(st, "scene of %s: %s", a->path, pb_last_error());
    }
    char ba[64], bb[64];
    base_name(a->path, ba, sizeof ba);
    base_name(b->path, bb, sizeof bb);
    if (name) snprintf(s->name, sizeof s->name, "%s", name);
    else snprintf(s->name, sizeof s->name, "bvh:%.40s-%zu", ba, s->joints);
    snprintf(s->source, sizeof s->source, "%.200s (%zu frames at %.0f fps) -> %.200s (%zu frames), unit scale %g", a->path,
             s->clip[0].frames, (double)s->clip[0].fps, b->path, s->clip[1].frames, (double)a->unit_scale);
    snprintf(s->clip_name[0], sizeof s->clip_name[0], "%s", ba);
    snprintf(s->clip_name[1], sizeof s->clip_name[1], "%s", bb);
    pb_scene_pick_legs(s, (const char(*)[PB_BVH_NAME_MAX])a->skel.names);
    if ((st = pb_scene_turns(s)) != PB_OK) pb_scene_free(s);
    return st;
}

pb_status pb_scene_bvh_files(pb_scene *s, const char *name, const char *path_a, const char *path_b,
                             float unit_scale, pb_bvh_warn_fn warn, void *user)
{
    pb_bvh_file a, b;
    if (!s) return pb_fail(PB_ERR_NULL, "pb_scene_bvh_files: scene is NULL");
    memset(s, 0, sizeof *s);
    if (!path_a || !path_b) return pb_fail(PB_ERR_NULL, "pb_scene_bvh_files: path_%s is NULL", path_a ? "b" : "a");
    pb_status st = pb_bvh_file_load(&a, path_a, unit_scale, warn, user);
    if (st != PB_OK) return st;
    st = pb_bvh_file_load(&b, path_b, unit_scale, warn, user);
    if (st == PB_OK) st = pb_scene_bvh(s, name, &a, &b);
    pb_bvh_file_free(&a);
    pb_bvh_file_free(&b);
    return st;
}

