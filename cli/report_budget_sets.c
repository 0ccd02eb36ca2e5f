/* report_budget_sets.c — the budget section's transition sets (budget.json's
 * "transition_sets" and "claims", cli/budget_sets_out.c): per set a table of
 * each method's metrics (median and 90th percentile over the transitions),
 * what separates the methods, the Pareto front of cost against each metric,
 * the three claims measured; and plot 9's data, cost against four metrics. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

/* the plot's panels: set, metric, statistic, label (the joint-limit excess is a tail: its medians are 0) */
static const struct { const char *set, *metric, *stat, *label; } panels[4] = {
    { "hard", "jerk_rms", "median", "hard set: RMS jerk / the clips' (median)" },
    { "hard", "limit_deg_s", "p90", "hard set: joint-limit excess, deg s (90th percentile)" },
    { "interrupted", "pop_vel", "median", "interrupted set: velocity pop at the interruptions, m/s (median)" },
    { "real", "damping", "median", "real set: |1 - damping|, joint speed vs the clips' (median)" },
};

static const cJSON *set_named(const cJSON *sets, const char *name)
{
    for (size_t i = 0; i < jlen(sets); i++) {
        const char *n = json_str(jat(sets, i), "name");
        if (n && !strcmp(n, name)) return jat(sets, i);
    }
    return NULL;
}

static double stat_of(const cJSON *method, const char *metric, const char *stat)
{
    return json_num(jget(jget(method, "metrics"), metric), stat);
}

int write_budget_sets_data(report *r, FILE *vars)
{
    const cJSON *sets = jget(r->budget, "transition_sets"), *real = set_named(sets, "real");
    const cJSON *ms = jget(real, "methods");
    if (!jlen(ms)) return -1;
    FILE *f = open_data(r, "budget_sets.dat");
    if (!f) return -1;
    fputs("# method, cost us/frame, then the panels:", f);
    for (int p = 0; p < 4; p++) fprintf(f, " %s %s %s;", panels[p].set, panels[p].metric, panels[p].stat);
    fputc('\n', f);
    for (size_t i = 0; i < jlen(ms); i++) {
        const char *key = json_str(jat(ms, i), "key");
        fprintf(f, "\"%s\"", key ? key : "?");
        dat_num(f, json_num(jat(ms, i), "cost_us"));
        for (int p = 0; p < 4; p++) {
            const cJSON *pm = jat(jget(set_named(sets, panels[p].set), "methods"), i);
            double v = pm ? stat_of(pm, panels[p].metric, panels[p].stat) : NAN;
            dat_num(f, !strcmp(panels[p].metric, "damping") ? fabs(1 - v) : v);
        }
        fputc('\n', f);
    }
    fclose(f);
    fprintf(vars, "array bslab[%zu] = [", jlen(ms));
    for (size_t i = 0; i < jlen(ms); i++) {
        const char *key = json_str(jat(ms, i), "key");
        fprintf(vars, "%s\"%s\"", i ? ", " : "", key ? key : "?");
    }
    fputs("]\narray bspanel[4] = [", vars);
    for (int p = 0; p < 4; p++) fprintf(vars, "%s\"%s\"", p ? ", " : "", panels[p].label);
    fputs("]\n", vars);
    return 0;
}

static const char *const shown[] = { "pop_vel", "pop_acc", "jerk_rms", "dev_cm", "settle_s", "damping", "limit_deg_s",
                                     "slide_m" };
#define NSHOWN (int)(sizeof shown / sizeof shown[0])

static void set_table(out2 *o, const cJSON *s)
{
    const cJSON *ms = jget(s, "methods"), *units = jget(s, "units"), *tr = jget(s, "transitions");
    fprintf(o->h, "<h4>%s</h4>\n<p>seed %.0f, %zu transitions: ", json_str(s, "name"), json_num(s, "seed"), jlen(tr));
    fprintf(o->m, "#### %s\n\nseed %.0f, %zu transitions: ", json_str(s, "name"), json_num(s, "seed"), jlen(tr));
    both(o, json_str(s, "how") ? json_str(s, "how") : "?", json_str(s, "how") ? json_str(s, "how") : "?");
    both(o, " (every transition is listed in budget.json and budget.txt).</p>\n<div class=\"wide\"><table class=\"num\">\n",
         " (listed in budget.json and budget.txt).\n\n");
    const char *head[1 + NSHOWN];
    char hb[NSHOWN][64];
    head[0] = "method";
    for (int k = 0; k < NSHOWN; k++) {
        snprintf(hb[k], sizeof hb[k], "%s (%s)", shown[k], json_str(units, shown[k]) ? json_str(units, shown[k]) : "?");
        head[1 + k] = hb[k];
    }
    trow(o, 1, 1 + NSHOWN, head, NULL);
    for (size_t i = 0; i < jlen(ms); i++) {
        const cJSON *m = jat(ms, i);
        char cb[NSHOWN][48];
        const char *cells[1 + NSHOWN];
        cells[0] = json_str(m, "key") ? json_str(m, "key") : "?";
        for (int k = 0; k < NSHOWN; k++) {
            const cJSON *st = jget(jget(m, "metrics"), shown[k]);
            snprintf(cb[k], sizeof cb[k], "%.3g (%.3g)", json_num(st, "median"), json_num(st, "p90"));
            cells[1 + k] = cb[k];
        }
        trow(o, 0, 1 + NSHOWN, cells, NULL);
    }
    both(o, "</table></div>\n", "\n");
    /* separation and the Pareto front, every metric */
    const cJSON *sep = jget(s, "separated_pairs"), *psep = jget(s, "paired_separated_pairs"), *par = jget(s, "pareto");
    char line[4096];
    size_t n = (size_t)snprintf(line, sizeof line, "Separated pairs of the %.0f blending-method pairs (unpaired / paired):",
                                json_num(s, "blending_pairs"));
    for (const cJSON *it = sep ? sep->child : NULL; it && n < sizeof line; it = it->next)
        n += (size_t)snprintf(line + n, sizeof line - n, " %s %.0f/%.0f%s", it->string, it->valuedouble,
                              json_num(psep, it->string), it->next ? "," : ".");
    fprintf(o->h, "<p class=\"note\">%s Pareto front (no other method both cheaper and better on the median):", line);
    fprintf(o->m, "%s Pareto front:", line);
    for (const cJSON *it = par ? par->child : NULL; it; it = it->next) {
        fprintf(o->h, " <b>%s</b>:", it->string);
        fprintf(o->m, " **%s**:", it->string);
        for (size_t k = 0; k < jlen(it); k++) {
            const char *key = cJSON_GetStringValue(jat(it, k));
            fprintf(o->h, "%s %s", k ? "," : "", key ? key : "?");
            fprintf(o->m, "%s %s", k ? "," : "", key ? key : "?");
        }
        both(o, it->next ? ";" : ".", it->next ? ";" : ".");
    }
    both(o, "</p>\n", "\n\n");
}

void budget_sets_section(report *r, out2 *o, int made)
{
    const cJSON *sets = jget(r->budget, "transition_sets"), *claims = jget(r->budget, "claims");
    if (!jlen(sets)) return;   /* older budget.json: no sets */
    both(o, "<h3>Quality by transition set</h3>\n", "### Quality by transition set\n\n");
    how_to_read(o, "The methods on four seeded sets of transitions, scored by posebench/quality.h (docs/quality.md): "
                   "real pairs of the packaged mocap clips, hard ones (poses far apart, opposite velocities, 0.05-0.4 s), "
                   "interrupted runs (a new transition every 0.05-0.15 s) and the synthetic baseline. Each cell is the "
                   "median over the set's transitions with the 90th percentile in brackets; lower is better but for "
                   "damping, where 1 is the clips' own joint speed. A metric separates two methods when they differ "
                   "visibly on at least half the same transitions and one is the lower on at least 90% of those "
                   "(paired), or when their 10th-90th percentile ranges do not overlap (unpaired). The plot puts each method's cost against four of the metrics; the front is "
                   "the lower-left edge.");
    if (jlen(claims)) {
        both(o, "<p><b>The claims, measured:</b></p>\n<ul>\n", "**The claims, measured:**\n\n");
        for (size_t i = 0; i < jlen(claims); i++) {
            const char *c = cJSON_GetStringValue(jat(claims, i));
            fputs("<li>", o->h);
            html_esc(o->h, c ? c : "?");
            fputs("</li>\n", o->h);
            fprintf(o->m, "- %s\n", c ? c : "?");
        }
        both(o, "</ul>\n", "\n");
    }
    for (size_t i = 0; i < jlen(sets); i++)
        if (jlen(jget(jat(sets, i), "transitions"))) set_table(o, jat(sets, i));
    figure(o, report_plot_file(PL_BUDGET_SETS), "cost per frame vs four quality metrics, each method its own marker "
                                                "(lower left is better; axes from 0)", made);
}
