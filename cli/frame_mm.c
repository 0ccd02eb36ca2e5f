/* frame_mm.c — `posebench frame --source mm`: the crowd's pose source is
 * motion matching (posebench/frame_mm.h): per scene, variant and search
 * method, CPU time per stage (sample, inertialize, search, switch, FK) per
 * frame, the frame's total, per character, and how many characters
 * searched and switched per frame. Each repetition runs the crowd on from
 * where the last left it (warm-up: one search interval x 5 frames first).
 * As the clips table: a repetition's frames are one block of CPU time (two
 * reads of the process clock, ~2 us each on a VM), shared out among the
 * stages by CLOCK_MONOTONIC reads between them (~0.1 us each), so the
 * stages add up to the total; medians over repetitions. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame_cmd.h"
#include "measure.h"
#include "noise.h"
#include "posebench/frame_mm.h"

typedef struct {
    double stage_us[PB_MMS_COUNT], total_us, spread, searches, switches;
    int noisy;   /* noise.h */
} mm_row;

static int measure(pb_mm_crowd *c, const frame_cfg *cfg, const pb_variant *v, mm_row *row)
{
    double *per = calloc((size_t)cfg->reps * (PB_MMS_COUNT + 1), sizeof *per);
    if (!per) return -1;
    for (int f = 0; f < 5 * c->interval; f++)
        if (pb_mm_crowd_step(c, v) != PB_OK) goto fail;
    size_t s0 = c->searches, w0 = c->switches;
    for (int r = 0; r < cfg->reps; r++) {
        double wall[PB_MMS_COUNT] = { 0 }, wall_all = 0, cpu0 = cpu_seconds();
        for (int f = 0; f < cfg->frames; f++) {
            double t = wall_seconds();
            for (int s = 0; s < PB_MMS_COUNT; s++) {
                if (pb_mm_crowd_stage(c, v, (pb_mm_stage)s) != PB_OK) goto fail;
                double u = wall_seconds();
                wall[s] += u - t;
                wall_all += u - t;
                t = u;
            }
            pb_mm_crowd_advance(c);
        }
        block_share(per, cfg->reps, r, PB_MMS_COUNT, wall, wall_all, (cpu_seconds() - cpu0) * 1e6 / cfg->frames);
    }
    block_medians(per, cfg->reps, PB_MMS_COUNT, row->stage_us, &row->total_us, &row->spread);
    row->noisy = noise_stages(row->stage_us, PB_MMS_COUNT, row->total_us, row->spread);
    double frames = (double)cfg->frames * cfg->reps;
    row->searches = (double)(c->searches - s0) / frames;
    row->switches = (double)(c->switches - w0) / frames;
    free(per);
    return 0;
fail:
    fprintf(stderr, "posebench frame: motion matching (%s): %s\n", c->failed ? c->failed : "?", pb_last_error());
    free(per);
    return -1;
}

static int json_row(cJSON *rows, const pb_scene *sc, const pb_variant *v, pb_mm_method m, pb_frame_method sw,
                    int interval, size_t characters, const mm_row *row)
{
    cJSON *o = cJSON_CreateObject(), *st = cJSON_CreateObject();
    int ok = o && st;
    for (int s = 0; s < PB_MMS_COUNT && ok; s++) ok = cJSON_AddNumberToObject(st, pb_mm_stage_name((pb_mm_stage)s), row->stage_us[s]) != NULL;
    ok = ok && cJSON_AddStringToObject(o, "scene", sc->name) && cJSON_AddStringToObject(o, "variant", pb_variant_name(v)) &&
         cJSON_AddStringToObject(o, "search", pb_mm_method_name(m)) &&
         cJSON_AddStringToObject(o, "switching", pb_frame_method_name(sw)) && cJSON_AddNumberToObject(o, "interval", interval) &&
         cJSON_AddNumberToObject(o, "characters", (double)characters) &&
         cJSON_AddNumberToObject(o, "joints", (double)sc->joints) && cJSON_AddItemToObject(o, "stage_us", st);
    if (!ok) {
        cJSON_Delete(st);
        cJSON_Delete(o);
        return -1;
    }
    ok = cJSON_AddNumberToObject(o, "total_us", row->total_us) && cJSON_AddNumberToObject(o, "spread", row->spread) &&
         cJSON_AddNumberToObject(o, "us_per_character", row->total_us / (double)characters) &&
         cJSON_AddNumberToObject(o, "searches_per_frame", row->searches) &&
         cJSON_AddNumberToObject(o, "switches_per_frame", row->switches) && noise_json(o, row->noisy);
    if (!ok || !cJSON_AddItemToArray(rows, o)) {
        cJSON_Delete(o);
        return -1;
    }
    return 0;
}

int frame_mm_run(const frame_cfg *cfg, const pb_variant *const *vars, int nv, int interval, const int want_search[2],
                 const pb_frame_method *switching, int nsw, pb_scene *scenes, int ns, cJSON *root)
{
    cJSON *rows = root ? cJSON_AddArrayToObject(root, "mm_rows") : NULL;
    cJSON *cf = root ? cJSON_AddObjectToObject(root, "config") : NULL;
    if (root && (!rows || !cf || noise_config_json(cf) != 0)) return -1;
    int noisy = 0;
    printf("posebench frame --source mm: %zu characters, a search every %d frames each, %d frames x %d repetitions "
           "(median), switches over %.2f s (dead_slerp: half-life %.2f s), CPU time in us per frame\n", cfg->characters,
           interval, cfg->frames, cfg->reps, (double)PB_FRAME_TRANSITION_S, (double)PB_FRAME_HALFLIFE_S);
    for (int si = 0; si < ns; si++) {
        pb_scene *sc = &scenes[si];
        for (int m = 0; m < 2; m++)
          for (int wi = 0; wi < nsw; wi++) {
            if (!want_search[m]) continue;
            for (int vi = 0; vi < nv; vi++) {   /* each variant from the same start: the same frames and switches */
                pb_mm_crowd c;
                if (pb_mm_crowd_init(&c, sc, cfg->characters, interval, (pb_mm_method)m, PB_FRAME_TRANSITION_S, 1) !=
                        PB_OK ||
                    pb_mm_crowd_switching(&c, switching[wi], PB_FRAME_HALFLIFE_S) != PB_OK) {
                    fprintf(stderr, "posebench frame: %s: %s\n", sc->name, pb_last_error());
                    return -1;
                }
                if (vi == 0 && wi == 0 && (m == 0 || !want_search[0]))
                    printf("\n%s: %zu joints x %zu characters; database: %zu frames of its 2 clips\n%-11s %-12s %-8s %9s "
                           "%11s %9s %9s %9s %10s  %7s  %9s %9s %9s\n", sc->name, sc->joints, cfg->characters, c.db.rows,
                           "search", "switch by", "variant", "sample", "blend", "search", "switch", "FK+vel", "total us",
                           "spread", "us/char", "searches", "switches");
                mm_row row;
                fprintf(stderr, "posebench frame: %s, motion matching (%s, switching by %s), %s ...\n", sc->name,
                        pb_mm_method_name((pb_mm_method)m), pb_frame_method_name(switching[wi]), pb_variant_name(vars[vi]));
                if (measure(&c, cfg, vars[vi], &row) != 0) {
                    pb_mm_crowd_free(&c);
                    return -1;
                }
                printf("%-11s %-12s %-8s %9.1f %11.1f %9.1f %9.1f %9.1f %10.1f%c %6.0f%%%c %9.3f %9.1f %9.1f\n",
                       pb_mm_method_name((pb_mm_method)m), pb_frame_method_name(switching[wi]), pb_variant_name(vars[vi]), row.stage_us[0], row.stage_us[1],
                       row.stage_us[2], row.stage_us[3], row.stage_us[4], row.total_us,
                       noise_mark(row.noisy, NOISE_STAGE_SUM), 100 * row.spread, noise_mark(row.noisy, NOISE_SPREAD),
                       row.total_us / (double)cfg->characters, row.searches, row.switches);
                noisy |= row.noisy;
                fflush(stdout);
                pb_mm_crowd_free(&c);
                if (rows && json_row(rows, sc, vars[vi], (pb_mm_method)m, switching[wi], interval, cfg->characters, &row) != 0)
                    return -1;
            }
        }
    }
    noise_note(noisy);
    printf("\n  sample: sample_linear of each character's clip at its own time; blend: by the switch method, the\n"
           "  sample plus its offset decayed (inertialize), the output at the switch extrapolated and blended into\n"
           "  the sample (dead_slerp: dead_blending) or the sample as it is (cut); search: the random walks and the\n"
           "  characters due this frame query the database (pose features of their playing frame, a desired\n"
           "  trajectory) at once; switch: those whose best frame is not the one playing get an offset from their\n"
           "  output to the new frame (inertialize: gathered, inertialize_offset, scattered) or keep their output as\n"
           "  the source (dead_slerp); searches, switches: characters per frame.\n");
    return 0;
}
