/* budget_frame.c — budget's whole frame as frame's: the skin stage's mesh on the cost scene, and the
 * stages timed by name (budget_frame.h). The frame itself is the library's (pb_frame_stages_run,
 * pb_frame_blocks_step in cmd_budget.c): no second frame loop here. */
#include <stdio.h>
#include <string.h>

#include "budget_frame.h"
#include "command.h"
#include "skin_opts.h"

/* The table's stages as frame's (cmd_frame.c): the library's stages [first, next first), its JSON key, its head */
static const struct {
    pb_frame_stage first;
    const char *key, *head;
} stages[] = { { PB_FS_SAMPLE_SRC, "sample", "sample" }, { PB_FS_TRANSITION, "transition", "transition" },
               { PB_FS_ADDITIVE, "additive", "additive" },  { PB_FS_LEG_FK, "legs_fk", "legs FK" },
               { PB_FS_IK, "ik", "2-leg IK" },              { PB_FS_FK, "fk", "FK+vel" },
               { PB_FS_PALETTE, "palette", "palette" },     { PB_FS_SKIN, "skin", "skin" } };
#define NSTAGES (sizeof stages / sizeof stages[0])

/* 1 when the cost scene runs table stage i: no legs, no legs FK or IK (the library skips them); no mesh, no skin */
static int stage_runs(const budget_res *R, size_t i)
{
    if (stages[i].first == PB_FS_LEG_FK || stages[i].first == PB_FS_IK) return R->cost_scene->leg[0][0] >= 0;
    if (stages[i].first == PB_FS_SKIN) return R->vertices > 0;
    return 1;
}

int budget_frame_skin(budget_res *R, pb_scene *cost, const opt_val *vertices, const opt_val *skin, int quick)
{
    size_t want = skin_opts_vertices(vertices, skin, quick);
    int model = cost->inv_bind.n > 0, had_mesh = cost->mesh.n > 0;
    if (skin_opts_scene(cost, want, skin_opts_method(skin)) != PB_OK) {
        fprintf(stderr, "posebench budget: --vertices %zu: %s\n", want, pb_last_error());
        return EXIT_USAGE;
    }
    R->vertices = cost->mesh.n;
    R->skin = !R->vertices ? SKIN_OPT_NONE : cost->skin == PB_SKIN_DQS ? SKIN_OPT_DQS : SKIN_OPT_LBS;
    if (R->vertices && model)
        snprintf(R->mesh, sizeof R->mesh, "the model's own mesh, %zu vertices per character, with its inverse binds",
                 R->vertices);
    else if (R->vertices)
        snprintf(R->mesh, sizeof R->mesh, "a synthetic mesh of %zu vertices per character (pb_scene_mesh)",
                 R->vertices);
    else if (skin->count && skin->choice == SKIN_OPT_NONE)
        snprintf(R->mesh, sizeof R->mesh, "no skin stage: --skin none");
    else if (model && !had_mesh)
        snprintf(R->mesh, sizeof R->mesh, "no skin stage: the model has no mesh");
    else
        snprintf(R->mesh, sizeof R->mesh, "no skin stage: --vertices 0");
    if (!R->vertices) return EXIT_OK;
    if (skin_opts_check("budget", R->characters, R->vertices) != 0) return EXIT_USAGE;
    long cap = (long)(PB_FRAME_CROWD_MAX_VERTICES / R->vertices);   /* the searches' crowds skin too */
    if (cap < R->cap) R->cap = cap;
    return EXIT_OK;
}

const char *budget_frame_stages(const budget_res *R, pb_frame_stage from, const char *sep, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < NSTAGES; i++) {
        if (stages[i].first < from || !stage_runs(R, i) || used >= len) continue;
        int n = snprintf(buf + used, len - used, "%s%s", used ? sep : "", stages[i].head);
        used = n < 0 ? len : used + (size_t)n;
    }
    return buf;
}

/* "skin_lbs", "palette_dq": what the palette and skin stages call */
static const char *palette_op(const budget_res *R) { return R->skin == SKIN_OPT_DQS ? "palette_dq" : "palette"; }
static const char *skin_name(const budget_res *R)
{
    return R->skin == SKIN_OPT_DQS ? "dqs" : R->skin == SKIN_OPT_LBS ? "lbs" : "none";
}

void budget_frame_print(const budget_res *R)
{
    char st[160];
    printf("whole frame: %s (frame's stages, pb_frame_step); palette: %s; ",
           budget_frame_stages(R, PB_FS_SAMPLE_SRC, " -> ", st, sizeof st), palette_op(R));
    if (R->vertices)
        printf("skin: %s (%s) of %s", R->skin == SKIN_OPT_DQS ? "skin_dqs" : "skin_lbs",
               R->skin == SKIN_OPT_DQS ? "dual-quaternion skinning" : "linear blend skinning", R->mesh);
    else
        printf("%s", R->mesh);
    printf("%s\n", R->cost_scene->leg[0][0] < 0 ? "; no legs: no legs FK or 2-leg IK" : "");
}

int budget_frame_json(cJSON *cf, const budget_res *R)
{
    cJSON *all = cJSON_AddArrayToObject(cf, "stages"), *rest = cJSON_AddArrayToObject(cf, "rest_of_frame_stages");
    int ok = all && rest;
    for (size_t i = 0; ok && i < NSTAGES; i++) {
        if (!stage_runs(R, i)) continue;
        ok = cJSON_AddItemToArray(all, cJSON_CreateString(stages[i].key));
        if (ok && stages[i].first >= PB_FS_ADDITIVE) ok = cJSON_AddItemToArray(rest, cJSON_CreateString(stages[i].key));
    }
    ok = ok && cJSON_AddNumberToObject(cf, "vertices", (double)R->vertices) &&
         cJSON_AddStringToObject(cf, "skin", skin_name(R)) &&
         cJSON_AddStringToObject(cf, "palette_op", palette_op(R)) &&
         cJSON_AddStringToObject(cf, "mesh", R->mesh);
    return ok ? 0 : -1;
}
