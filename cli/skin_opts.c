/* skin_opts.c — the skinning stage's --vertices and --skin read the same way by frame and budget
 * (skin_opts.h). */
#include <stdio.h>

#include "skin_opts.h"

size_t skin_opts_vertices(const opt_val *vertices, const opt_val *skin, int quick)
{
    if (skin->count && skin->choice == SKIN_OPT_NONE) return 0;
    return vertices->count ? (size_t)vertices->l : quick ? SKIN_OPTS_VERTICES_QUICK : PB_FRAME_VERTICES;
}

pb_skin_method skin_opts_method(const opt_val *skin)
{
    return skin->count && skin->choice == SKIN_OPT_DQS ? PB_SKIN_DQS : PB_SKIN_LBS;
}

int skin_opts_check(const char *cmd, size_t characters, size_t vertices)
{
    if (!vertices || characters <= PB_FRAME_CROWD_MAX_VERTICES / vertices) return 0;
    fprintf(stderr, "posebench %s: --characters %zu x --vertices %zu is %zu skinned vertices, over the limit of %zu "
            "(PB_FRAME_CROWD_MAX_VERTICES): use fewer characters or vertices\n", cmd, characters, vertices,
            characters * vertices, (size_t)PB_FRAME_CROWD_MAX_VERTICES);
    return -1;
}

pb_status skin_opts_scene(pb_scene *s, size_t vertices, pb_skin_method m)
{
    s->skin = m;
    if (s->inv_bind.n) {   /* a --model: its own mesh, or none */
        if (!vertices) pb_mesh_free(&s->mesh);
        return PB_OK;
    }
    return pb_scene_mesh(s, vertices);
}
