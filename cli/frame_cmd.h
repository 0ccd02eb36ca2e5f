/* frame_cmd.h — what `posebench frame`'s two tables share (cmd_frame.c: the
 * whole crowd stage by stage; frame_fused.c: the crowd in blocks, fused, on
 * threads). */
#ifndef CLI_FRAME_CMD_H
#define CLI_FRAME_CMD_H

#include <stddef.h>
#include "context.h"
#include "model_import.h"
#include "opts.h"
#include "posebench/frame.h"

typedef struct frame_cfg {
    size_t characters;
    int frames, reps;
    pb_op sampler;
    int threads;      /* the most threads the scaling rows use (1, 2, ... threads) */
    size_t block;     /* characters per block; 0: pb_frame_block_default for the L2 of cpu0 */
    const char *graph;   /* --source graph: a definition file (graph_json.h); NULL: the default graph */
    float hl[3];      /* Unreal's dead blending: estimate_halflife's scale, min, max (--halflife-*) */
    int hl_set;       /* any of them given (--source graph: then they replace the graph's) */
    pb_curve curve;   /* the cross-fades' weight curve (--curve, its Bezier control points: --bezier) */
    int frozen;       /* --frozen: the cross-fades' source held at the transition */
} frame_cfg;

/* Scenes (frame_scenes.c): the synthetic one (joints), CMU's when packaged (not with no_cmu), the bvh files
 * (each loaded once, so its warnings print once; two in a row of one skeleton are one scene's source and
 * destination), then model with its clips by clip (its import's cost into *cost, its scene's name into
 * model_name). The count, or -1 after a message. */
int frame_load_scenes(pb_scene *scenes, int max, long joints, int no_cmu, const opt_val *bvh, float scale,
                      const char *model, const opt_val *clip, model_cost *cost, char *model_name, size_t name_len);

#define FUSED_MAX_THREADS 16
typedef struct fused_threads {
    int threads;
    double wall_us;    /* fused frame, wall time, median */
    double copy_gbs;   /* copy of the 3 poses per character a fused frame streams, as many threads (read + write) */
    double copy_us;    /* that copy's time: the frame's memory-traffic floor */
} fused_threads;

typedef struct fused_row {
    size_t block, blocks;
    double staged_us[PB_FS_COUNT], fused_us[PB_FS_COUNT];   /* one thread, CPU time */
    double staged_total, fused_total;
    fused_threads threads[FUSED_MAX_THREADS];
    int nthreads;
} fused_row;

/* The block the fused table uses for sc: want, or the default for this host's L2. */
size_t fused_block(const pb_scene *sc, size_t want);
/* Staged and fused on one thread, then fused on 1 .. cfg->threads threads;
 * whole is the first table's crowd (re-run here and compared bit for bit).
 * 0, or -1 after a message. */
int fused_measure(pb_frame_crowd *whole, const frame_cfg *cfg, const pb_variant *v, pb_frame_method m,
                  fused_row *row);
void fused_print(const fused_row *row, const pb_scene *sc, const pb_variant *v, pb_frame_method m, size_t characters);
int fused_json(cJSON *rows, const fused_row *row, const pb_scene *sc, const pb_variant *v, pb_frame_method m,
               size_t characters);

/* `frame --source mm` (frame_mm.c): motion matching as the pose source, per
 * scene x search method (want_search: exhaustive, aabb) x variant, a table
 * (and root's "mm_rows" when root is not NULL). 0, or -1 after a message. */
int frame_mm_run(const frame_cfg *cfg, const pb_variant *const *vars, int nv, int interval, const int want_search[2],
                 const pb_frame_method *switching, int nsw, pb_scene *scenes, int ns, cJSON *root);

/* `frame --source graph` (frame_graph.c): every character running the default
 * blend graph (posebench/graph.h), or cfg->graph's, per scene x variant, a
 * table (and root's "graph_rows"). 0; -1 after a message; -2 after a message
 * when cfg->graph is not a valid definition (bad input). */
int frame_graph_run(const frame_cfg *cfg, const pb_variant *const *vars, int nv, pb_scene *scenes, int ns, cJSON *root);

#endif
