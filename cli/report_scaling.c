/* report_scaling.c — the report's "fusion and threads" part, from frame.json's
 * "blocked" rows (cli/frame_fused.c): what running the crowd block by block
 * (fused) saves against stage by stage, and the fused frame on 1 .. N
 * threads against the copy roofline. Plot 8 (reports/scaling.gp) and its
 * section. Scalar rows are in the table, not in the plot (ten times slower,
 * they would flatten the SIMD variants). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

static const cJSON *blocked(const report *r) { return r->have_frame ? jget(r->frame, "blocked") : NULL; }

static void short_label(char *buf, size_t len, const cJSON *row)
{
    const char *m = json_str(row, "method_key"), *v = json_str(row, "variant"), *s = json_str(row, "scene");
    snprintf(buf, len, "%s %s %s", s ? s : "?", v ? v : "?",
             !m ? "?" : !strncmp(m, "crossfade", 9) ? "x-fade" : m[0] == 'i' ? "inert." : "dead");
}

int write_scaling_data(report *r, FILE *vars)
{
    const cJSON *rows = blocked(r);
    if (!jlen(rows)) return -1;
    FILE *f = open_data(r, "scaling.dat");
    if (!f) return -1;
    /* block 0: label, staged us, fused us (one thread) */
    fputs("# label, staged us, fused us (one thread, CPU time)\n", f);
    int nb = 0, maxt = 1;
    for (size_t i = 0; i < jlen(rows); i++) {
        const cJSON *row = jat(rows, i);
        const char *v = json_str(row, "variant");
        if (v && !strcmp(v, "scalar")) continue;
        char lab[160];
        short_label(lab, sizeof lab, row);
        fprintf(f, "\"%s\"", lab);
        dat_num(f, json_num(row, "staged_total_us"));
        dat_num(f, json_num(row, "fused_total_us"));
        fputc('\n', f);
        nb++;
    }
    if (!nb) fputs("\"none\" ? ?\n", f);
    fputs("\n\n", f);
    /* blocks 1..: per row of the fastest variant (the lowest fused frame of any row; the others would crowd
     * the panel), threads, characters per ms, the copy roofline in characters per ms */
    const char *best = NULL;
    double best_us = INFINITY;
    for (size_t i = 0; i < jlen(rows); i++) {
        double us = json_num(jat(rows, i), "fused_total_us");
        if (us < best_us) best_us = us, best = json_str(jat(rows, i), "variant");
    }
    fprintf(vars, "scaling_variant = \"%s\"\n", best ? best : "?");
    fputs("scaling_labels = \"", vars);
    int nl = 0;
    for (size_t i = 0; i < jlen(rows); i++) {
        const cJSON *row = jat(rows, i), *th = jget(row, "threads");
        const char *v = json_str(row, "variant");
        if (!v || !best || strcmp(v, best) || !jlen(th)) continue;
        char lab[160];
        short_label(lab, sizeof lab, row);
        for (char *p = lab; *p; p++)
            if (*p == ' ') *p = '_';   /* one word per series in gnuplot's word() */
        fprintf(vars, "%s%s", nl ? " " : "", lab);
        fprintf(f, "# %s: threads, characters/ms, copy-bound characters/ms\n", lab);
        double chars = json_num(row, "characters");
        for (size_t t = 0; t < jlen(th); t++) {
            const cJSON *e = jat(th, t);
            double copy_us = json_num(e, "copy_us"), n = json_num(e, "threads");
            if (n > maxt) maxt = (int)n;
            fprintf(f, "%.0f", n);
            dat_num(f, json_num(e, "characters_per_ms"));
            dat_num(f, copy_us > 0 ? chars / (copy_us / 1000.0) : NAN);
            fputc('\n', f);
        }
        fputs("\n\n", f);
        nl++;
    }
    fprintf(vars, "\"\nscaling_series = %d\nscaling_bars = %d\nscaling_max_threads = %d\n", nl, nb, maxt);
    return fclose(f) != 0 || !nl ? -1 : 0;
}

void scaling_section(report *r, out2 *o, int made)
{
    const cJSON *rows = blocked(r);
    both(o, "<h2 id=\"scaling\">Fusion and threads</h2>\n", "## Fusion and threads\n\n");
    if (!jlen(rows)) {
        both(o, "<p class=\"missing\">frame.json has no blocked rows.</p>\n", "No blocked-frame results.\n\n");
        return;
    }
    how_to_read(o, "The same frame with the crowd cut into blocks of characters. Staged: every block through one "
                   "stage, then the next stage (each stage streams the whole crowd through memory); fused: each "
                   "block through every stage, then the next block (a block's poses stay in L2 between stages). "
                   "Both on one thread, CPU time; saved = 1 - fused / staged. Then the fused frame on 1, 2, ... "
                   "threads, wall time: speedup and parallel efficiency (speedup / threads) against one thread. "
                   "The copy roofline is a memcpy, on as many threads, whose reads and writes add up to what a "
                   "fused frame must stream per character (the transition state, additive delta and inverse bind "
                   "pose it reads, the globals and palette it writes): the frame cannot move those bytes faster. Every run is checked bit for bit against the whole crowd.");
    both(o, "<div class=\"wide\"><table class=\"num\">\n", "");
    const char *head[] = { "scene", "method", "variant", "block", "staged us", "fused us", "saved",
                           "threads: us/frame (efficiency)", "copy us (all threads)" };
    trow(o, 1, 9, head, NULL);
    for (size_t i = 0; i < jlen(rows); i++) {
        const cJSON *row = jat(rows, i), *th = jget(row, "threads");
        char b[6][48], ts[320] = "";
        double st = json_num(row, "staged_total_us"), fu = json_num(row, "fused_total_us");
        snprintf(b[0], sizeof b[0], "%.0f", json_num(row, "block"));
        snprintf(b[1], sizeof b[1], "%.1f", st);
        snprintf(b[2], sizeof b[2], "%.1f", fu);
        snprintf(b[3], sizeof b[3], "%.0f%%", st > 0 ? 100.0 * (1.0 - fu / st) : NAN);
        size_t used = 0;
        for (size_t t = 0; t < jlen(th) && used + 40 < sizeof ts; t++) {
            const cJSON *e = jat(th, t);
            used += (size_t)snprintf(ts + used, sizeof ts - used, "%s%.0f: %.1f (%.0f%%)", t ? "; " : "",
                                     json_num(e, "threads"), json_num(e, "wall_us"), 100.0 * json_num(e, "efficiency"));
        }
        snprintf(b[4], sizeof b[4], "%.1f", jlen(th) ? json_num(jat(th, jlen(th) - 1), "copy_us") : NAN);
        const char *cells[9] = { json_strz(row, "scene"), json_strz(row, "method_key"), json_strz(row, "variant"),
                                 b[0], b[1], b[2], b[3], ts, b[4] };
        trow(o, 0, 9, cells, NULL);
    }
    both(o, "</table></div>\n", "\n");
    figure(o, report_plot_file(PL_SCALING), "left: the frame staged vs fused on one thread; right: characters per ms "
                                            "on 1 .. N threads, with the copy roofline (dashed)", made);
}
