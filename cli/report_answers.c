/* report_answers.c — the report's first screen: the three questions a user
 * runs posebench for, answered in a few lines each from the steps' JSON, with
 * links to the sections that hold the detail:
 *   1. what a frame of a crowd costs here, per variant, and skinning's share;
 *   2. which transition methods fit the budget, and the best quality among them;
 *   3. whether every kernel was validated (checks, failures, variants, real data).
 * And, before them, whether the real motion capture (Debian's assimp-testmodels)
 * was there: without it the frame, budget and validation ran on synthetic clips. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

/* The frame row that answers question 1: the real (CMU) scene when it ran, else the
 * first; inertialization (every character mid-transition, the method games use
 * most); the fastest variant. */
static const cJSON *frame_pick(const cJSON *rows, const char **scene)
{
    const cJSON *best = NULL;
    *scene = NULL;
    for (size_t i = 0; i < jlen(rows); i++) {
        const char *sc = json_str(jat(rows, i), "scene");
        if (sc && !strncmp(sc, "cmu", 3)) *scene = sc;
    }
    if (!*scene && jlen(rows)) *scene = json_str(jat(rows, 0), "scene");
    for (size_t i = 0; *scene && i < jlen(rows); i++) {
        const cJSON *row = jat(rows, i);
        const char *sc = json_str(row, "scene"), *m = json_str(row, "method");
        if (!sc || strcmp(sc, *scene) || !m || strcmp(m, "inertialization")) continue;
        if (!best || json_num(row, "total_us") < json_num(best, "total_us")) best = row;
    }
    return best;
}

static void answer_frame(report *r, out2 *o)
{
    const cJSON *rows = r->have_frame ? jget(r->frame, "rows") : NULL;
    const char *scene = NULL;
    const cJSON *row = frame_pick(rows, &scene);
    if (!row) {
        both(o, "<li><b>What a frame costs here:</b> <span class=\"missing\">the frame step wrote no results</span> "
                "(see the step's console output, frame.txt).</li>\n",
             "1. **What a frame costs here:** the frame step wrote no results (frame.txt).\n");
        return;
    }
    double us = json_num(row, "total_us"), chars = json_num(row, "characters"), joints = json_num(row, "joints");
    const cJSON *st = jget(row, "stage_us");
    double skin = json_num(st, "skin"), sum = json_num(row, "stage_sum_us");
    double vertices = NAN;
    const cJSON *scenes = jget(r->frame, "scenes");
    for (size_t i = 0; i < jlen(scenes); i++)
        if (!strcmp(json_strz(jat(scenes, i), "name"), scene)) vertices = json_num(jat(scenes, i), "vertices");
    const char *v = json_strz(row, "variant");
    char skin_txt[160] = "no skinning stage";
    if (isfinite(skin) && sum > 0)
        snprintf(skin_txt, sizeof skin_txt, "skinning (%.0f vertices a character) is %.0f %% of it", vertices,
                 100 * skin / sum);
    fprintf(o->h, "<li><b>What a frame costs here:</b> a frame of %.0f characters &times; %.0f joints (%s, every "
                  "character in an inertialization, sample &rarr; transition &rarr; additive &rarr; IK &rarr; FK "
                  "&rarr; palette &rarr; skin) costs <b>%.0f &micro;s on %s</b> (%.1f ns per joint, one thread); %s.",
            chars, joints, scene, us, v, 1000 * us / (chars * joints), skin_txt);
    fprintf(o->m, "1. **What a frame costs here:** %.0f characters x %.0f joints (%s, inertialization): **%.0f us on "
                  "%s** (%.1f ns per joint, one thread); %s.", chars, joints, scene, us, v, 1000 * us / (chars * joints),
            skin_txt);
    /* the other variants, same scene and method */
    int first = 1;
    for (size_t i = 0; i < jlen(rows); i++) {
        const cJSON *x = jat(rows, i);
        if (x == row || strcmp(json_strz(x, "scene"), scene) || strcmp(json_strz(x, "method"), "inertialization")) continue;
        double t = json_num(x, "total_us");
        fprintf(o->h, "%s%s %.0f &micro;s (%.1fx)", first ? " Other variants: " : ", ", json_strz(x, "variant"), t, t / us);
        fprintf(o->m, "%s%s %.0f us (%.1fx)", first ? " Other variants: " : ", ", json_strz(x, "variant"), t, t / us);
        first = 0;
    }
    both(o, first ? "" : ".", first ? "" : ".");
    both(o, " <a href=\"#frame\">Per stage and method</a>, <a href=\"#scaling\">on more threads</a>.</li>\n",
         " (Frame pipeline, Fusion and threads below.)\n");
}

/* A budget row's name as the plot's legend has it: the method and its rotation form. */
static const char *method_name(const cJSON *row, char *buf, size_t len)
{
    const char *m = json_strz(row, "method"), *rot = json_str(row, "rotation");
    snprintf(buf, len, "%s%s%s", m, rot && strcmp(rot, "n/a") ? " " : "", rot && strcmp(rot, "n/a") ? rot : "");
    return buf;
}

static void answer_budget(report *r, out2 *o)
{
    if (!r->have_budget) {
        both(o, "<li><b>Which methods fit:</b> <span class=\"missing\">the budget step wrote no results</span>.</li>\n",
             "2. **Which methods fit:** the budget step wrote no results.\n");
        return;
    }
    const cJSON *cfg = jget(r->budget, "config"), *rows = jget(r->budget, "rows");
    double budget = json_num(cfg, "budget_us");
    char fit[1024] = "";
    size_t used = 0;
    int nfit = 0, n = 0;
    const cJSON *smooth = NULL, *close = NULL;
    for (size_t i = 0; i < jlen(rows); i++) {
        const cJSON *x = jat(rows, i);
        if (!strcmp(json_strz(x, "key"), "cut")) continue;   /* the reference, not a blend */
        n++;
        const char *fv = json_strz(x, "frame_verdict");
        if (strcmp(fv, "fits") && strcmp(fv, "marginal")) continue;
        nfit++;
        char nm[96];
        if (used < sizeof fit)
            used += (size_t)snprintf(fit + used, sizeof fit - used, "%s%s%s", used ? ", " : "",
                                     method_name(x, nm, sizeof nm), strcmp(fv, "marginal") ? "" : " (marginal)");
        if (!smooth || json_num(x, "vel_jump_ms") < json_num(smooth, "vel_jump_ms")) smooth = x;
        if (!close || json_num(x, "dev_cm") < json_num(close, "dev_cm")) close = x;
    }
    const char *src = json_strz(r->budget, "quality_source");
    char stg[160];
    const char *stages = budget_stages_text(cfg, "stages", "sample, transition, additive, legs FK, 2-leg IK, FK+vel",
                                            stg, sizeof stg);
    fprintf(o->h, "<li><b>Which methods fit %.0f &micro;s</b> (budget's whole frame: %s; %.0f vertices skinned; "
                  "%.0f characters &times; %.0f joints, %s): <b>%d of %d</b>",
            budget, stages, json_num(cfg, "vertices"), json_num(cfg, "characters"), json_num(cfg, "joints"),
            json_strz(cfg, "variant"), nfit, n);
    fprintf(o->m, "2. **Which methods fit %.0f us** (budget's whole frame: %s; %.0f vertices skinned; %.0f "
                  "characters x %.0f joints, %s): **%d of %d**",
            budget, stages, json_num(cfg, "vertices"), json_num(cfg, "characters"), json_num(cfg, "joints"),
            json_strz(cfg, "variant"), nfit, n);
    if (nfit) {
        char sm[96], cl[96];
        method_name(smooth, sm, sizeof sm);
        method_name(close, cl, sizeof cl);
        fprintf(o->h, ": ");
        html_esc(o->h, fit);
        fprintf(o->h, ". Best quality among them, on %s: smoothest <b>", src);
        html_esc(o->h, sm);
        fprintf(o->h, "</b> (velocity jump %.2f m/s at the switch), closest to the destination <b>",
                json_num(smooth, "vel_jump_ms"));
        html_esc(o->h, cl);
        fprintf(o->h, "</b> (%.1f cm mean deviation).", json_num(close, "dev_cm"));
        fprintf(o->m, ": %s. Best quality among them, on %s: smoothest **%s** (%.2f m/s jump), closest **%s** (%.1f cm).",
                fit, src, sm, json_num(smooth, "vel_jump_ms"), cl,
                json_num(close, "dev_cm"));
    } else {
        both(o, ": <span class=\"bad\">none fits at this crowd</span> (the cost table gives each one's largest crowd).",
             ": none fits at this crowd.");
    }
    both(o, " <a href=\"#budget\">Cost and quality per method</a>.</li>\n", " (Budget below.)\n");
}

static void answer_validation(report *r, out2 *o)
{
    const val_data *v = r->val;
    if (!v || !v->ok) {
        both(o, "<li><b>Is every kernel validated:</b> <span class=\"bad\">validation wrote no results</span> "
                "(validate.txt).</li>\n",
             "3. **Is every kernel validated:** validation wrote no results (validate.txt).\n");
        return;
    }
    char vars[512] = "";
    size_t used = 0;
    for (int i = 0; i < v->nv && used < sizeof vars; i++)
        used += (size_t)snprintf(vars + used, sizeof vars - used, "%s%s%s", i ? ", " : "", v->variants[i],
                                 strcmp(v->modes[i], "emulated") ? "" : " (emulated)");
    char real[256];
    if (v->mocap_skipped[0])
        snprintf(real, sizeof real, "edge-case inputs; the real motion-capture class was skipped (%s)", v->mocap_skipped);
    else if (!file_exists(PB_CMU_DIR "/01_01.bvh"))
        snprintf(real, sizeof real, "edge-case inputs; no real motion capture (no CMU clips installed)");
    else
        snprintf(real, sizeof real, "edge-case and real (CMU) motion-capture inputs");
    fprintf(o->h, "<li><b>Is every kernel validated:</b> <span class=\"%s\">%d checks, %d failing</span>, in every "
                  "variant this build has (%s), against the float reference and the double oracle on random, %s. "
                  "<a href=\"#validation\">Per op and variant</a>.</li>\n",
            v->fails ? "bad" : "good", v->rows, v->fails, vars, real);
    fprintf(o->m, "3. **Is every kernel validated:** %d checks, %d failing, in every variant of this build (%s), on "
                  "random, %s.\n", v->rows, v->fails, vars, real);
}

/* The headline ops at the sizes a frame calls them with, from this run's bench: ns per joint per
 * native variant and x a memcpy of the op's own bytes (the same run); the skinning stage of the
 * frame in ns per vertex. README's results table is this table from one named machine. */
static const struct {
    pb_op op;
    size_t n;
    const char *what;
} headline[] = {
    { PB_OP_blend_static_nlerp, 4096, "static nlerp blend" },
    { PB_OP_blend, 4096, "blend with exact velocities" },
    { PB_OP_inertialize, 4096, "inertialization" },
    { PB_OP_dead_blending, 4096, "dead blending" },
    { PB_OP_sample_linear, 4096, "clip sampling, each character its own time" },
    { PB_OP_fk, 64, "FK with velocities, one 64-joint character" },
    { PB_OP_fk, 4096, "FK with velocities, a crowd" },
    { PB_OP_two_bone_ik, 4096, "two-bone IK (ns per chain element)" },
    { PB_OP_palette, 4096, "skinning matrices" },
};

static int size_index(const bench_data *b, size_t n)
{
    for (int i = 0; i < b->ns; i++)
        if (b->sizes[i] == n) return i;
    return -1;
}

static void headline_table(report *r, out2 *o)
{
    const bench_data *b = r->bench;
    if (!b || !b->ok) return;
    const char *cells[2 + 2 * MAXV];
    char buf[2 + 2 * MAXV][64];
    int nc = 0;
    cells[nc++] = "op";
    cells[nc++] = "joints";
    for (int v = 0; v < b->nv && nc + 2 <= 2 + 2 * MAXV; v++) {
        snprintf(buf[nc], sizeof buf[nc], "%s ns/joint", b->variants[v]);
        cells[nc] = buf[nc], nc++;
        if (v == b->scalar) continue;
        snprintf(buf[nc], sizeof buf[nc], "%s x copy", b->variants[v]);
        cells[nc] = buf[nc], nc++;
    }
    both(o, "<h3 id=\"headline\">The headline ops here</h3>\n<div class=\"wide\"><table class=\"num\">\n",
         "### The headline ops here\n\n");
    trow(o, 1, nc, cells, NULL);
    int rows = 0;
    for (size_t h = 0; h < sizeof headline / sizeof headline[0]; h++) {
        int si = size_index(b, headline[h].n), op = headline[h].op;
        if (si < 0 || !b->op_on[op]) continue;
        nc = 0;
        snprintf(buf[nc], sizeof buf[nc], "%s (%s)", pb_op_get(headline[h].op)->name, headline[h].what);
        cells[nc] = buf[nc], nc++;
        snprintf(buf[nc], sizeof buf[nc], "%zu", headline[h].n);
        cells[nc] = buf[nc], nc++;
        for (int v = 0; v < b->nv && nc + 2 <= 2 + 2 * MAXV; v++) {
            fmt_num(buf[nc], sizeof buf[nc], b->nspj[op][v][si][0], 3);
            cells[nc] = buf[nc], nc++;
            if (v == b->scalar) continue;
            fmt_num(buf[nc], sizeof buf[nc], b->ratio[op][v][si][0], 2);
            cells[nc] = buf[nc], nc++;
        }
        trow(o, 0, nc, cells, NULL);
        rows++;
    }
    both(o, "</table></div>\n", "\n");
    /* skinning, from the frame: its stage time over the crowd's vertices */
    const char *scene = NULL;
    const cJSON *row = r->have_frame ? frame_pick(jget(r->frame, "rows"), &scene) : NULL;
    const cJSON *scenes = r->have_frame ? jget(r->frame, "scenes") : NULL;
    double vertices = NAN;
    for (size_t i = 0; i < jlen(scenes); i++)
        if (scene && !strcmp(json_strz(jat(scenes, i), "name"), scene)) vertices = json_num(jat(scenes, i), "vertices");
    double skin = row ? json_num(jget(row, "stage_us"), "skin") : NAN;
    if (row && isfinite(skin) && vertices > 0) {
        double ns = 1000 * skin / (vertices * json_num(row, "characters"));
        fprintf(o->h, "<p class=\"note\">Skinning in the frame above (%s, %s): %.2f ns per vertex (positions and "
                      "normals, 4 influences). ", json_strz(row, "variant"), scene, ns);
        fprintf(o->m, "Skinning in the frame (%s, %s): %.2f ns per vertex (positions and normals, 4 influences). ",
                json_strz(row, "variant"), scene, ns);
    } else {
        both(o, "<p class=\"note\">", "");
    }
    fprintf(o->h, "CPU time, medians of this run's repetitions; x copy: the op's time over a memcpy of its own bytes "
                  "in the same run (%d rows; every op and size: <a href=\"#bench\">benchmarks</a>).</p>\n", rows);
    fprintf(o->m, "CPU time, medians; x copy = op time / memcpy of its bytes, same run.\n\n");
}

void answers_section(report *r, out2 *o)
{
    if (!file_exists(PB_CMU_DIR "/01_01.bvh"))
        both(o, "<p class=\"bad\"><b>No real motion capture on this machine</b>: the CMU clips (Debian's "
                "assimp-testmodels, " PB_CMU_DIR ") are not installed, so the frame, the budget's quality and the "
                "validation below ran on synthetic clips only. <code>bash tools/deps.sh core</code> installs them.</p>\n",
             "**No real motion capture on this machine**: the CMU clips (assimp-testmodels, " PB_CMU_DIR
             ") are not installed; the frame, budget and validation ran on synthetic clips only.\n\n");
    both(o, "<h2 id=\"answers\">The three answers</h2>\n<ol class=\"answers\">\n", "## The three answers\n\n");
    answer_frame(r, o);
    answer_budget(r, o);
    answer_validation(r, o);
    both(o, "</ol>\n", "\n");
    headline_table(r, o);
}
