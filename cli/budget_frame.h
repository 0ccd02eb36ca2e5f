/* budget_frame.h — `posebench budget`'s whole frame is `posebench frame`'s: sample, transition, additive,
 * legs FK, 2-leg IK, FK with velocities, palette and skin, as the library runs them (pb_frame_stages_run up
 * to PB_FS_COUNT, pb_frame_blocks_step), the skin stage's mesh and method set on the cost scene by
 * --vertices and --skin as frame's (skin_opts.h); and the names of the stages it times, for budget's text
 * and JSON (budget_out.c). */
#ifndef CLI_BUDGET_FRAME_H
#define CLI_BUDGET_FRAME_H

#include <stddef.h>
#include "budget.h"
#include "context.h"
#include "opts.h"

/* The cost scene's mesh and method: --vertices and --skin (quick: --quick's mesh) on a synthetic scene, a
 * --model's own mesh (none when the file has none, or with --vertices 0 or --skin none); R->vertices,
 * R->skin and R->mesh say which, and R->cap comes down so a bisection's crowd stays within
 * PB_FRAME_CROWD_MAX_VERTICES. EXIT_OK, or EXIT_USAGE after a message (R->characters over that limit,
 * pb_scene_mesh's errors). */
int budget_frame_skin(budget_res *R, pb_scene *cost, const opt_val *vertices, const opt_val *skin, int quick);
/* The stages the whole frame runs on the cost scene from stage `from` on (PB_FS_SAMPLE_SRC: all of them;
 * PB_FS_ADDITIVE: the rest of the frame), by their heads ("legs FK", "FK+vel"), sep between them: no legs
 * FK or IK on a scene without legs, no skin without a mesh. buf (truncated when len is short). */
const char *budget_frame_stages(const budget_res *R, pb_frame_stage from, const char *sep, char *buf, size_t len);
/* The line that names the whole frame's stages and what its skin stage skins (or why nothing), on stdout. */
void budget_frame_print(const budget_res *R);
/* config's "stages" and "rest_of_frame_stages" (the stage keys of frame's JSON), "vertices", "skin" (lbs, dqs
 * or none), "palette_op" and "mesh": 0, or -1 (out of memory). */
int budget_frame_json(cJSON *cf, const budget_res *R);

#endif
