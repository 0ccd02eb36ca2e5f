/* frame_graph.c — `posebench frame --source graph`: every character runs the
 * default blend graph (posebench/graph.h: a state machine over the scene's
 * clips with a locomotion blend space, a 1D blend space, all five
 * transition methods, an upper-body override and an additive breathing
 * layer), its parameters driven by seeded random walks so transitions keep
 * happening; or, with --graph FILE, the definition in that JSON file
 * (graph_json.h), its parameters driven by graph_json_drive. Per scene and
 * variant: CPU time per stage (control, sample,
 * begin, transition, layers, FK) per frame, the total, per character, and
 * how many characters were in a transition of each method per frame. As the
 * motion-matching table: a repetition's frames are one block of CPU time
 * shared out among the stages by CLOCK_MONOTONIC reads; medians over
 * repetitions; each variant from the same start (the same transitions:
 * control reads only the parameters, which depend on seed, character and
 * frame). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame_cmd.h"
#include "graph_json.h"
#include "measure.h"
#include "noise.h"
#include "posebench/graph.h"

#define GRAPH_SEED 11
#define WARM_FRAMES 60

typedef struct {
    double stage_us[PB_GS_COUNT], total_us, spread;
    int noisy;   /* noise.h */
    double active[PB_GM_COUNT];   /* characters per frame in a transition of each method */
    double fired;                 /* transitions started per frame (loops included) */
} graph_row;

/* user: a definition from --graph (driven by its random walks), or NULL: g's default graph and its drive. */
static int frame(pb_graph_crowd *c, const pb_graph_scene *g, const graph_json *user, const pb_variant *v, double *wall,
                 double *wall_all, double *active)
{
    if (user) graph_json_drive(user, c, GRAPH_SEED, PB_FRAME_DT);
    else pb_graph_scene_drive(g, c, GRAPH_SEED, PB_FRAME_DT);
    double t = wall ? wall_seconds() : 0;
    for (int s = 0; s < PB_GS_COUNT; s++) {
        if (pb_graph_crowd_stage(c, v, (pb_graph_stage)s) != PB_OK) return -1;
        if (!wall) continue;
        double u = wall_seconds();
        wall[s] += u - t, *wall_all += u - t;
        t = u;
    }
    for (int m = 0; active && m < PB_GM_COUNT; m++) active[m] += (double)c->active[m];
    pb_graph_crowd_advance(c, PB_FRAME_DT);
    return 0;
}

static size_t fired(const pb_graph_crowd *c)
{
    size_t n = 0;
    for (int m = 0; m < PB_GM_COUNT; m++) n += c->fired[m];
    return n;
}

static int measure(pb_graph_crowd *c, const pb_graph_scene *g, const graph_json *user, const frame_cfg *cfg,
                   const pb_variant *v, graph_row *row)
{
    double *per = calloc((size_t)cfg->reps * (PB_GS_COUNT + 1), sizeof *per);
    if (!per) return -1;
    memset(row, 0, sizeof *row);
    for (int f = 0; f < WARM_FRAMES; f++)
        if (frame(c, g, user, v, NULL, NULL, NULL) != 0) goto fail;
    size_t f0 = fired(c);
    for (int r = 0; r < cfg->reps; r++) {
        double wall[PB_GS_COUNT] = { 0 }, wall_all = 0, cpu0 = cpu_seconds();
        for (int f = 0; f < cfg->frames; f++)
            if (frame(c, g, user, v, wall, &wall_all, row->active) != 0) goto fail;
        block_share(per, cfg->reps, r, PB_GS_COUNT, wall, wall_all, (cpu_seconds() - cpu0) * 1e6 / cfg->frames);
    }
    block_medians(per, cfg->reps, PB_GS_COUNT, row->stage_us, &row->total_us, &row->spread);
    row->noisy = noise_stages(row->stage_us, PB_GS_COUNT, row->total_us, row->spread);
    double frames = (double)cfg->frames * cfg->reps;
    for (int m = 0; m < PB_GM_COUNT; m++) row->active[m] /= frames;
    row->fired = (double)(fired(c) - f0) / frames;
    free(per);
    return 0;
fail:
    fprintf(stderr, "posebench frame: blend graph (%s): %s\n", c->failed ? c->failed : "?", pb_last_error());
    free(per);
    return -1;
}

static int json_row(cJSON *rows, const pb_scene *sc, const pb_variant *v, size_t characters, const graph_row *row)
{
    cJSON *o = cJSON_CreateObject();
    cJSON *st = o ? cJSON_AddObjectToObject(o, "stage_us") : NULL;
    cJSON *act = o ? cJSON_AddObjectToObject(o, "in_transition_per_frame") : NULL;
    int ok = st && act;
    for (int s = 0; s < PB_GS_COUNT && ok; s++)
        ok = cJSON_AddNumberToObject(st, pb_graph_stage_name((pb_graph_stage)s), row->stage_us[s]) != NULL;
    for (int m = 0; m < PB_GM_COUNT && ok; m++)
        ok = cJSON_AddNumberToObject(act, pb_graph_method_name((pb_graph_method)m), row->active[m]) != NULL;
    ok = ok && cJSON_AddStringToObject(o, "scene", sc->name) && cJSON_AddStringToObject(o, "variant", pb_variant_name(v)) &&
         cJSON_AddNumberToObject(o, "characters", (double)characters) &&
         cJSON_AddNumberToObject(o, "joints", (double)sc->joints) && cJSON_AddNumberToObject(o, "total_us", row->total_us) &&
         cJSON_AddNumberToObject(o, "spread", row->spread) &&
         cJSON_AddNumberToObject(o, "us_per_character", row->total_us / (double)characters) &&
         cJSON_AddNumberToObject(o, "ns_per_joint", 1e3 * row->total_us / (double)(characters * sc->joints)) &&
         cJSON_AddNumberToObject(o, "transitions_per_frame", row->fired) && noise_json(o, row->noisy);
    if (!ok || !cJSON_AddItemToArray(rows, o)) {
        cJSON_Delete(o);
        return -1;
    }
    return 0;
}

int frame_graph_run(const frame_cfg *cfg, const pb_variant *const *vars, int nv, pb_scene *scenes, int ns, cJSON *root)
{
    /* every scene's clips fit the graph (a --bvh clip too short is bad input: exit 2), before any row is timed */
    for (int si = 0; si < ns; si++) {
        pb_graph_scene g;
        if (pb_graph_scene_default(&g, &scenes[si]) != PB_OK) {
            fprintf(stderr, "posebench frame: %s: %s\n", scenes[si].name, pb_last_error());
            return -2;
        }
        pb_graph_scene_free(&g);
    }
    cJSON *rows = root ? cJSON_AddArrayToObject(root, "graph_rows") : NULL;
    cJSON *cf = root ? cJSON_AddObjectToObject(root, "config") : NULL;
    if (root && (!rows || !cJSON_AddStringToObject(root, "graph", cfg->graph ? cfg->graph : "default") || !cf ||
                 noise_config_json(cf) != 0))
        return -1;
    int noisy = 0;
    printf("posebench frame --source graph: %zu characters each running %s, %d frames x %d repetitions (median), CPU "
           "time in us per frame\n", cfg->characters, cfg->graph ? cfg->graph : "the default blend graph", cfg->frames,
           cfg->reps);
    for (int si = 0; si < ns; si++) {
        pb_scene *sc = &scenes[si];
        pb_graph_scene g;
        if (pb_graph_scene_default(&g, sc) != PB_OK) {
            fprintf(stderr, "posebench frame: %s: %s\n", sc->name, pb_last_error());
            return -1;
        }
        /* --graph: read per scene, against its clips and masks (a motion's "P%" times follow the clip's length) */
        graph_json user;
        char err[512];
        if (cfg->graph && graph_json_load(cfg->graph, &g, &user, err, sizeof err) != 0) {
            fprintf(stderr, "posebench frame: %s (scene %s)\n", err, sc->name);
            pb_graph_scene_free(&g);
            return -2;
        }
        pb_graph_def *def = cfg->graph ? &user.def : &g.def;
        if (cfg->hl_set) def->hl_scale = cfg->hl[0], def->hl_min = cfg->hl[1], def->hl_max = cfg->hl[2];   /* --halflife-* */
        printf("\n%s: %zu joints x %zu characters; %zu states, %zu transitions, %zu layers\n%-8s", sc->name, sc->joints,
               cfg->characters, def->states, def->transitions, def->layers, "variant");
        for (int s = 0; s < PB_GS_COUNT; s++) printf(" %10s", pb_graph_stage_name((pb_graph_stage)s));
        printf(" %9s  %7s  %8s %8s  in transition per frame (xfade/inert/dead/dead_ue), started\n", "total us", "spread",
               "us/char", "ns/joint");
        for (int vi = 0; vi < nv; vi++) {   /* each variant from the same start */
            pb_graph_crowd c;
            graph_row row;
            int st = pb_graph_crowd_init(&c, def, g.clips, 3, sc->parents, cfg->characters, GRAPH_SEED) == PB_OK ? 0 : -1;
            if (st != 0) fprintf(stderr, "posebench frame: %s: %s\n", sc->name, pb_last_error());
            if (st == 0) {
                fprintf(stderr, "posebench frame: %s, blend graph, %s ...\n", sc->name, pb_variant_name(vars[vi]));
                st = measure(&c, &g, cfg->graph ? &user : NULL, cfg, vars[vi], &row);
            }
            pb_graph_crowd_free(&c);
            if (st == 0 && rows && json_row(rows, sc, vars[vi], cfg->characters, &row) != 0) st = -1;
            if (st != 0) {
                if (cfg->graph) graph_json_free(&user);
                pb_graph_scene_free(&g);
                return -1;
            }
            printf("%-8s", pb_variant_name(vars[vi]));
            for (int s = 0; s < PB_GS_COUNT; s++) printf(" %10.1f", row.stage_us[s]);
            printf(" %9.1f%c %6.0f%%%c %8.3f %8.2f  %.1f/%.1f/%.1f/%.1f, %.2f\n", row.total_us,
                   noise_mark(row.noisy, NOISE_STAGE_SUM), 100 * row.spread, noise_mark(row.noisy, NOISE_SPREAD),
                   row.total_us / (double)cfg->characters, 1e3 * row.total_us / (double)(cfg->characters * sc->joints),
                   row.active[PB_GM_CROSSFADE], row.active[PB_GM_INERTIALIZE], row.active[PB_GM_DEAD],
                   row.active[PB_GM_DEAD_UE], row.fired);
            fflush(stdout);
            noisy |= row.noisy;
        }
        if (cfg->graph) graph_json_free(&user);
        pb_graph_scene_free(&g);
    }
    noise_note(noisy);
    printf("\n  control: parameters checked, transitions tried per character (scalar); sample: each character's\n"
           "  state pose (up to 3 motions of a blend space, sample_linear + timescale each, SIMD across the crowd,\n"
           "  2 blends) and the cross-fade sources (gathered); begin: offsets / sources / half-lives of the\n"
           "  transitions that started (gathered); transition: per method, the characters in it gathered, the\n"
           "  op, scattered; layers: upper-body override (blend x mask) and breathing (additive x mask), each a\n"
           "  sample + timescale + op over the crowd; FK: fk with velocities.\n");
    return 0;
}
