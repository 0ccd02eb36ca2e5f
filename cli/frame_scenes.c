/* frame_scenes.c — `posebench frame`'s scenes (frame_cmd.h): the synthetic skeleton, the packaged CMU
 * clips when installed, the --bvh files (two in a row of one skeleton make a scene), then --model. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "frame_cmd.h"

/* --model as a scene (its clips by --clip): 0, or -1 after a message naming the file or the clip */
static int load_model(pb_scene *s, const char *path, const opt_val *clip, model_cost *cost, char *name, size_t len)
{
    pb_asset a;
    pb_status st = model_import(path, NULL, &a, cost);
    if (st == PB_OK) {
        st = pb_scene_asset(s, &a, clip->count > 0 ? clip->all[0] : NULL, clip->count > 1 ? clip->all[1] : NULL);
        char line[160];
        model_cost_line(line, sizeof line, cost);
        if (st == PB_OK)
            printf("posebench frame: --model %s: %zu joints, %zu vertices in %zu mesh(es), up to %d influences (%zu "
                   "vertices reduced to 4), %zu clip(s): %s -> %s; %s; %s\n", path, a.joints, a.mesh.n, a.meshes,
                   a.max_influences, a.reduced_vertices, a.clips, s->clip_name[0], s->clip_name[1], a.units_note, line);
        if (st == PB_OK) snprintf(name, len, "%s", s->name);
        pb_asset_free(&a);
    }
    if (st == PB_OK) return 0;
    fprintf(stderr, "posebench frame: --model: %s\n", pb_last_error());
    return -1;
}

int frame_load_scenes(pb_scene *scenes, int max, long joints, int no_cmu, const opt_val *bvh, float scale,
                      const char *model, const opt_val *clip, model_cost *cost, char *model_name, size_t name_len)
{
    int ns = 0;
    if (pb_scene_synthetic(&scenes[ns], (size_t)joints, 20231) != PB_OK) {
        fprintf(stderr, "posebench frame: %s\n", pb_last_error());
        return -1;
    }
    ns++;
    char pa[512], pbp[512];
    snprintf(pa, sizeof pa, "%s/01_01.bvh", PB_CMU_DIR);
    snprintf(pbp, sizeof pbp, "%s/01_03.bvh", PB_CMU_DIR);
    if (!no_cmu && access(pa, R_OK) == 0 && access(pbp, R_OK) == 0) {
        if (pb_scene_bvh_files(&scenes[ns], NULL, pa, pbp, PB_CMU_UNIT_SCALE, NULL, NULL) == PB_OK) {
            snprintf(scenes[ns].name, sizeof scenes[ns].name, "cmu-%zu", scenes[ns].joints);
            ns++;
        } else {
            fprintf(stderr, "posebench frame: the packaged CMU clips did not load (%s); running without them\n",
                    pb_last_error());
        }
    }
    pb_bvh_file *files = bvh->count ? calloc((size_t)bvh->count, sizeof *files) : NULL;
    if (bvh->count && !files) {
        fprintf(stderr, "posebench frame: out of memory\n");
        return -1;
    }
    int nf = 0, bad = 0;
    for (; nf < bvh->count; nf++)
        if (pb_bvh_file_load(&files[nf], bvh->all[nf], scale, NULL, NULL) != PB_OK) {
            fprintf(stderr, "posebench frame: %s\n", pb_last_error());
            bad = 1;
            break;
        }
    for (int i = 0; !bad && i < nf && ns < max; i++, ns++) {
        int pair = i + 1 < nf && pb_bvh_file_same_skeleton(&files[i], &files[i + 1]);
        if (pb_scene_bvh(&scenes[ns], NULL, &files[i], &files[pair ? i + 1 : i]) != PB_OK) {
            fprintf(stderr, "posebench frame: %s\n", pb_last_error());
            bad = 1;
            break;
        }
        i += pair;
    }
    for (int i = 0; i < nf; i++) pb_bvh_file_free(&files[i]);
    free(files);
    if (!bad && model && ns < max) {
        if (load_model(&scenes[ns], model, clip, cost, model_name, name_len) == 0) ns++;
        else bad = 1;
    }
    if (bad) {
        for (int i = 0; i < ns; i++) pb_scene_free(&scenes[i]);
        return -1;
    }
    return ns;
}
