/* skin_opts.h — the skinning stage's --vertices and --skin: one text, one default and one reading for
 * every command whose frame skins (frame, budget), so `budget --vertices N --skin M` skins what
 * `frame --vertices N --skin M` skins (implemented in skin_opts.c). */
#ifndef CLI_SKIN_OPTS_H
#define CLI_SKIN_OPTS_H

#include <stddef.h>
#include "opts.h"
#include "posebench/frame.h"

/* --quick: a tenth of the mesh (skinning PB_FRAME_VERTICES per character is most of a frame; the
 * sanitizer builds run report --quick) */
#define SKIN_OPTS_VERTICES_QUICK 200
_Static_assert(SKIN_OPTS_VERTICES_QUICK * 10 == PB_FRAME_VERTICES, "--quick's mesh is a tenth of the default's");
/* --skin's values, by their index (opt_val.choice) */
enum { SKIN_OPT_LBS, SKIN_OPT_DQS, SKIN_OPT_NONE };
#define SKIN_OPTS_STR_(x) #x
#define SKIN_OPTS_STR(x) SKIN_OPTS_STR_(x)

/* The two options' table rows (frame's and budget's: one text) */
#define SKIN_OPT_VERTICES                                                                                       \
    { "vertices", OPT_LONG, "N", 0, 1000000, NULL, 0,                                                          \
      SKIN_OPTS_STR(PB_FRAME_VERTICES) "; --quick " SKIN_OPTS_STR(SKIN_OPTS_VERTICES_QUICK),                   \
      "synthetic mesh skinned per character (by --skin; a --model skins its own mesh); 0: no skinning stage" }
#define SKIN_OPT_SKIN                                                                                           \
    { "skin", OPT_CHOICE, NULL, 0, 0, "lbs|dqs|none", 0, "lbs",                                                \
      "linear blend skinning by 3x4 matrices, dual-quaternion skinning (palette_dq), or none: no skinning\n"  \
      "stage (as --vertices 0; the palette still runs)" }

/* The mesh size the options ask for: --vertices, else PB_FRAME_VERTICES (--quick: SKIN_OPTS_VERTICES_QUICK);
 * 0 with --skin none. */
size_t skin_opts_vertices(const opt_val *vertices, const opt_val *skin, int quick);
/* The scenes' method: PB_SKIN_DQS for --skin dqs, else PB_SKIN_LBS (the palette's form without skinning). */
pb_skin_method skin_opts_method(const opt_val *skin);
/* characters x vertices within PB_FRAME_CROWD_MAX_VERTICES: 0, or -1 after a message ("posebench <cmd>: ...")
 * naming both options. */
int skin_opts_check(const char *cmd, size_t characters, size_t vertices);
/* Scene s skinned by method m with `vertices` per character: a scene with its own inverse binds (a --model,
 * pb_scene_asset) keeps its own mesh (vertices > 0) or drops it (0); any other gets a synthetic mesh of
 * `vertices` (pb_scene_mesh; 0: none). Errors: pb_scene_mesh's. */
pb_status skin_opts_scene(pb_scene *s, size_t vertices, pb_skin_method m);

#endif
