/* report_sections.c — the report's sections, each an HTML table with its
 * plots and the same in Markdown (report.h): validation, benchmarks, the
 * frame pipeline, the budget. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"


void both(out2 *o, const char *html, const char *md)
{
    if (html) fputs(html, o->h);
    if (md) fputs(md, o->m);
}

/* A table row: cells as strings; the first `left` cells left-aligned. */
void trow(out2 *o, int head, int ncell, const char *const *cells, const char *klass)
{
    fputs(klass ? "<tr class=\"" : "<tr>", o->h);
    if (klass) fprintf(o->h, "%s\">", klass);
    for (int i = 0; i < ncell; i++) {
        fputs(head ? "<th>" : "<td>", o->h);
        html_esc(o->h, cells[i]);
        fputs(head ? "</th>" : "</td>", o->h);
    }
    fputs("</tr>\n", o->h);
    fputs("|", o->m);
    for (int i = 0; i < ncell; i++) fprintf(o->m, " %s |", cells[i]);
    fputc('\n', o->m);
    if (head) {
        fputs("|", o->m);
        for (int i = 0; i < ncell; i++) fputs(i ? "---:|" : "---|", o->m);
        fputc('\n', o->m);
    }
}

/* The noise warning of a frame or budget row (cli/noise.h), short (the cells do not wrap): "! spread,
 * stage_sum", the tests of its own "noisy", or "! cost, frame_threads", its noisy figures (budget's, whose
 * test is the spread); "" when quiet or not recorded. */
static void noisy_cell(char *buf, size_t len, const cJSON *row)
{
    size_t n = 0;
    buf[0] = '\0';
    for (const cJSON *c = row ? row->child : NULL; c && n + 1 < len; c = c->next) {
        const cJSON *a = !strcmp(c->string, "noisy") ? c : cJSON_IsObject(c) ? jget(c, "noisy") : NULL;
        if (!cJSON_IsArray(a) || !cJSON_GetArraySize(a)) continue;
        for (size_t i = 0; i < (a == c ? jlen(a) : 1) && n + 1 < len; i++, n += strlen(buf + n))
            snprintf(buf + n, len - n, "%s%s", n ? ", " : "! ", a != c ? c->string : jat_str(a, i) ? jat_str(a, i) : "?");
    }
}

/* A table whose rows are JSON objects: one column per key, formatted by kind:
 * 's' string, 'f' number with `prec` decimals, '%' fraction as a percentage,
 * 'b' boolean as yes/NO, 'g' fmt_num with `prec` significant digits, 'n' the
 * row's noise warning (noisy_cell; key unused). Rows
 * where the boolean key `ok_key` is false are marked bad (NULL: none). */
typedef struct json_col {
    const char *head, *key;
    char kind;
    int prec;
} json_col;

static void json_table(out2 *o, const cJSON *rows, const json_col *cols, int ncols, const char *ok_key)
{
    enum { MAXC = 16 };
    const char *cells[MAXC];
    char buf[MAXC][96];
    if (ncols > MAXC) ncols = MAXC;
    for (int k = 0; k < ncols; k++) cells[k] = cols[k].head;
    trow(o, 1, ncols, cells, NULL);
    for (size_t i = 0; rows && i < jlen(rows); i++) {
        const cJSON *row = jat(rows, i);
        for (int k = 0; k < ncols; k++) {
            const json_col *c = &cols[k];
            double v = json_num(row, c->key);
            switch (c->kind) {
            case 's': snprintf(buf[k], sizeof buf[k], "%s", json_strz(row, c->key)); break;
            case '%': snprintf(buf[k], sizeof buf[k], "%.*f%%", c->prec, 100.0 * v); break;
            case 'b': snprintf(buf[k], sizeof buf[k], "%s", json_bool(row, c->key, 0) ? "yes" : "NO"); break;
            case 'g': fmt_num(buf[k], sizeof buf[k], v, c->prec); break;
            case 'n': noisy_cell(buf[k], sizeof buf[k], row); break;
            default: snprintf(buf[k], sizeof buf[k], "%.*f", c->prec, v); break;
            }
            cells[k] = buf[k];
        }
        trow(o, 0, ncols, cells, ok_key && !json_bool(row, ok_key, 0) ? "bad" : NULL);
    }
}

/* The "how to read this" paragraph that opens each section (HTML and Markdown). */
void how_to_read(out2 *o, const char *text)
{
    fputs("<div class=\"howto\"><b>How to read this.</b> ", o->h);
    html_esc(o->h, text);
    fputs("</div>\n", o->h);
    fprintf(o->m, "*How to read this.* %s\n\n", text);
}

void figure(out2 *o, const char *file, const char *caption, int made)
{
    if (!made) {
        fprintf(o->h, "<p class=\"missing\">plot %s not produced (see the notes above)</p>\n", file);
        return;
    }
    fprintf(o->h, "<figure><a href=\"%s.svg\"><img src=\"%s.png\" alt=\"", file, file);
    html_esc(o->h, caption);
    fprintf(o->h, "\"></a><figcaption>");
    html_esc(o->h, caption);
    fprintf(o->h, " (<a href=\"%s.svg\">svg</a>)</figcaption></figure>\n", file);
    fprintf(o->m, "![%s](%s.png)\n\n", caption, file);
}

void validation_section(report *r, out2 *o, int made)
{
    val_data *d = r->val;
    both(o, "<h2 id=\"validation\">Validation</h2>\n", "## Validation\n\n");
    if (!d || !d->ok) {
        both(o, "<p class=\"missing\">validation did not produce its JSON.</p>\n", "Validation did not produce its JSON.\n\n");
        return;
    }
    how_to_read(o, "Every op runs on every variant over seeded random inputs and edge cases, and its output is compared "
                   "with a double-precision oracle. Each error is divided by its bound from the tolerance table, so 1 "
                   "means exactly at the bound and anything below 1 passes. In the heat map, one cell per op (row) and "
                   "variant (column) shows the worst of these ratios on a log colour scale: green is far inside the "
                   "bound, 0.25 is as accurate as the float reference itself (most bounds are 4 x its error), red "
                   "is near or over the bound, FAIL marks a failing row, a grey '-' has no judged metric. The table "
                   "gives each variant's number of failing rows and its worst cell.");
    fprintf(o->h, "<p class=\"%s\">%d rows (op x variant x metric), <b>%d failing</b>. Each variant is compared with "
                  "the double-precision oracle and the float reference; a row passes when its worst error is within "
                  "the tolerance table's bound.</p>\n", d->fails ? "bad" : "good", d->rows, d->fails);
    fprintf(o->m, "%d rows (op x variant x metric), **%d failing**.\n\n", d->rows, d->fails);
    const char *head[] = { "variant", "mode", "ops", "rows", "failing", "worst err / bound", "at" };
    both(o, "<table>\n", NULL);
    trow(o, 1, 7, head, NULL);
    for (int v = 0; v < d->nv; v++) {
        int ops = 0, rows = 0, fails = 0, wo = -1;
        double worst = -1;
        for (int op = 0; op < PB_OP_COUNT; op++) {
            const val_cell *c = &d->cell[op][v];
            if (!c->rows) continue;
            ops++;
            rows += c->rows;
            fails += c->fails;
            if (c->worst_metric[0] && c->worst > worst) {
                worst = c->worst;
                wo = op;
            }
        }
        char a[16], b[16], c[16], w[32], at[96];
        snprintf(a, sizeof a, "%d", ops);
        snprintf(b, sizeof b, "%d", rows);
        snprintf(c, sizeof c, "%d", fails);
        fmt_num(w, sizeof w, worst >= 0 ? worst : NAN, 3);
        snprintf(at, sizeof at, "%s %s", wo >= 0 ? pb_op_get((pb_op)wo)->name : "-",
                 wo >= 0 ? d->cell[wo][v].worst_metric : "");
        const char *cells[] = { d->variants[v], d->modes[v], a, b, c, w, at };
        trow(o, 0, 7, cells, fails ? "bad" : NULL);
    }
    both(o, "</table>\n", "\n");
    if (d->nfail_list) {
        both(o, "<p>Failing rows:</p><ul>\n", "Failing rows:\n\n");
        for (int i = 0; i < d->nfail_list; i++) {
            fputs("<li>", o->h);
            html_esc(o->h, d->fail_list[i]);
            fputs("</li>\n", o->h);
            fprintf(o->m, "- %s\n", d->fail_list[i]);
        }
        both(o, "</ul>\n", "\n");
    }
    figure(o, report_plot_file(PL_VALID), "validation: worst error / bound per op and variant (green: far within the bound; "
                              "1 = at the bound)", made);
}

void bench_section(report *r, out2 *o, const int *made)
{
    bench_data *b = r->bench;
    both(o, "<h2 id=\"bench\">Benchmarks</h2>\n", "## Benchmarks\n\n");
    if (r->no_bench) {
        both(o, "<p class=\"missing\">benchmarks left out (--no-bench).</p>\n", "Benchmarks left out (--no-bench).\n\n");
        return;
    }
    if (!b || !b->ok) {
        both(o, "<p class=\"missing\">no benchmark JSON: this build has no Google Benchmark (install libbenchmark-dev) "
                "or the bench step failed.</p>\n", "No benchmark results.\n\n");
        return;
    }
    how_to_read(o, "Every figure is a median of CPU time over repetitions. ns per joint = time per call / joints "
                   "processed: lower is better. 'x scalar' = scalar's time / the variant's time at the same size: "
                   "higher is better. 'copy' = the op's time / the time of a memcpy of exactly the op's bytes (bytes "
                   "read + written) in the same run. The copy is a reference measured the same way, not a ceiling: "
                   "near 1 the op moves its data about as fast as copying it, well above 1 its arithmetic limits it, "
                   "and below 1 it beats a plain copy of its bytes (possible: the copy reads and writes its arrays "
                   "one after the other, an op interleaves several streams). GB/s = the op's bytes / its time; the "
                   "copy bandwidth table shows what this machine's copy reaches in each cache level, so a GB/s can "
                   "be compared with the level the op's working set sits in.");
    size_t ns = b->sizes[r->small_i], nl = b->sizes[r->large_i];
    fprintf(o->h, "<p>Google Benchmark, CPU time, median of the repetitions; every op x native variant x size "
                  "(%d sizes, %zu ... %zu joints), warm cache%s. The table: ns per joint at %zu (in cache) and "
                  "%zu joints, speedup over scalar and copy ratio at %zu.", b->ns, b->sizes[0], b->sizes[b->ns - 1],
            b->sizes[b->ns - 1] >= 262144 ? " (the cold-cache runs from 262144 joints are the plot's open points)" : "",
            ns, nl, ns);
    if (r->dram_n)
        fprintf(o->h, " One extra run times blend_static at %zu joints (over twice the last-level cache) for the DRAM "
                      "row of the copy bandwidth table.", r->dram_n);
    fputs("</p>\n", o->h);
    fprintf(o->m, "ns per joint (median, CPU time, warm) at %zu and %zu joints; speedup over scalar and copy ratio "
                  "(op time / memcpy of the same bytes) at %zu.\n\n", ns, nl, ns);
    /* two header rows in HTML (variant over its columns), one in Markdown */
    const char *cells[4 + 4 * MAXV];
    char buf[4 + 4 * MAXV][48];
    int nc = 0;
    fputs("<div class=\"wide\"><table class=\"num grouped\">\n<colgroup><col>", o->h);
    for (int v = 0; v < b->nv; v++) fprintf(o->h, "<col span=\"%d\" class=\"g\">", v != b->scalar ? 4 : 3);
    fputs("</colgroup>\n<tr><th rowspan=\"2\">op</th>", o->h);
    for (int v = 0; v < b->nv; v++) {
        fprintf(o->h, "<th colspan=\"%d\" class=\"grp\">", v != b->scalar ? 4 : 3);
        html_esc(o->h, b->variants[v]);
        fputs("</th>", o->h);
    }
    fputs("</tr>\n<tr>", o->h);
    fputs("| op |", o->m);
    for (int v = 0; v < b->nv; v++) {
        fprintf(o->h, "<th class=\"grp\">ns @%zu</th><th>ns @%zu</th>%s<th>copy</th>", ns, nl,
                v != b->scalar ? "<th>x scalar</th>" : "");
        fprintf(o->m, " %s ns@%zu | ns@%zu |%s copy |", b->variants[v], ns, nl, v != b->scalar ? " x scalar |" : "");
        nc += v != b->scalar ? 4 : 3;
    }
    fputs("</tr>\n", o->h);
    fputs("\n|---|", o->m);
    for (int k = 0; k < nc; k++) fputs("---:|", o->m);
    fputc('\n', o->m);
    for (int op = 0; op < PB_OP_COUNT; op++) {
        if (!b->op_on[op]) continue;
        nc = 0;
        cells[nc++] = pb_op_get((pb_op)op)->name;
        for (int v = 0; v < b->nv; v++) {
            double sc = b->scalar >= 0 ? b->nspj[op][b->scalar][r->small_i][0] : NAN, x = b->nspj[op][v][r->small_i][0];
            fmt_num(buf[nc], sizeof buf[0], x, 3);
            cells[nc] = buf[nc];
            nc++;
            fmt_num(buf[nc], sizeof buf[0], b->nspj[op][v][r->large_i][0], 3);
            cells[nc] = buf[nc];
            nc++;
            if (v != b->scalar) {
                fmt_num(buf[nc], sizeof buf[0], sc > 0 && x > 0 ? sc / x : NAN, 3);
                cells[nc] = buf[nc];
                nc++;
            }
            fmt_num(buf[nc], sizeof buf[0], b->ratio[op][v][r->small_i][0], 3);
            cells[nc] = buf[nc];
            nc++;
        }
        trow(o, 0, nc, cells, NULL);
    }
    both(o, "</table></div>\n", "\n");
    fprintf(o->h, "<p class=\"note\">Google Benchmark prints \"Library was built as DEBUG\" (bench.txt): that is "
                  "Debian's build of the framework (libbenchmark-dev, library_build_type %s), which runs the timing "
                  "loop around our calls, not the timed code. The kernels and the reference are built by this project "
                  "with <b>", b->gb_build);
    html_esc(o->h, b->kernel_opt);
    fputs("</b> (see Context).</p>\n", o->h);
    fprintf(o->m, "Google Benchmark's \"Library was built as DEBUG\" is Debian's build of the framework, not the timed "
                  "code; the kernels are built with %s.\n\n", b->kernel_opt);
    figure(o, report_plot_file(PL_NSPJ), "ns per joint vs joints, one panel per op, one line per variant (log-log; "
                                         "each panel its own y axis); dotted: where the op's bytes fill L1, L2, L3; "
                                         "open points: cold cache", made[PL_NSPJ]);
    figure(o, report_plot_file(PL_SPEEDUP), "speedup over scalar per op (warm cache; above the dashed 1: faster than "
                                            "scalar)", made[PL_SPEEDUP]);
    bandwidth_tables(r, o);
    figure(o, report_plot_file(PL_COPY), "this machine's copy bandwidth: every warm copy row by its working set, "
                                         "coloured by the cache level it measures; thick: each level's median",
           made[PL_COPY]);
    figure(o, report_plot_file(PL_BW), "GB/s per op and variant at an in-cache and a large size (bars), against a "
                                       "copy of the same bytes (black dash) and the copy bandwidth per level (dashed)",
           made[PL_BW]);
}

/* Column headings for frame.c's stage keys (unknown keys as they are). */
static const char *stage_label(const char *key)
{
    const char *map[][2] = { { "sample", "sample" }, { "transition", "transition" }, { "additive", "additive" },
                                    { "legs_fk", "legs FK" }, { "ik", "2-leg IK" }, { "fk", "FK+vel" },
                             { "palette", "palette" }, { "skin", "skin" } };
    for (size_t i = 0; key && i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(key, map[i][0])) return map[i][1];
    return key ? key : "?";
}

const char *budget_stages_text(const cJSON *cfg, const char *key, const char *fallback, char *buf, size_t len)
{
    const cJSON *a = jget(cfg, key);
    size_t used = 0;
    if (!jlen(a) || !len) return fallback;
    buf[0] = '\0';
    for (size_t i = 0; i < jlen(a) && used < len; i++) {
        int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", stage_label(jat_str(a, i)));
        used = n < 0 ? len : used + (size_t)n;
    }
    return buf;
}

void frame_section(report *r, out2 *o, int made)
{
    both(o, "<h2 id=\"frame\">Frame pipeline</h2>\n", "## Frame pipeline\n\n");
    if (!r->have_frame) {
        both(o, "<p class=\"missing\">the frame step did not produce its JSON.</p>\n", "No frame results.\n\n");
        return;
    }
    const cJSON *cfg = jget(r->frame, "config"), *rows = jget(r->frame, "rows"), *stages = jget(r->frame, "stages");
    const cJSON *scenes = jget(r->frame, "scenes");
    how_to_read(o, "One animation frame of a crowd, timed stage by stage. Each bar of the plot is one variant with one "
                   "transition method; its coloured segments are the stages, stacked, in microseconds per frame for the "
                   "whole crowd (lower is better); the number on top is the whole frame. Stages are timed inside "
                   "the whole frame, so their sum (stage sum) matches the total up to the medians' spread; 'apart' "
                   "is the stages timed each on its own, with their data still in cache, which is why it comes out "
                   "lower. Scalar has its own "
                   "panel and axis on the left: it is about ten times slower and would flatten the SIMD bars. "
                   "chars/ms = characters animated per millisecond; spread = (slowest - fastest) / median repetition; "
                   "skin ns/vertex = the skin stage's time per vertex skinned (characters x the scene's vertices); "
                   "noisy: the spread, or the stage sum against the total, over the noise limit (given "
                   "below): the machine was busy, measure again with more repetitions.");
    fprintf(o->h, "<p>A crowd of %.0f characters running one animation frame: sample (%s; both clips for a "
                  "cross-fade, the destination for inertialization and dead blending) &rarr; transition (cross-fade: "
                  "blend; inertialize; dead_blending) &rarr; additive layer &rarr; two-bone IK on both legs (with the "
                  "fk_static it needs) &rarr; FK with velocities. Microseconds per frame for the whole crowd, CPU time, "
                  "median of %.0f repetitions of %.0f frames (spread: (max - min) / median of the total); every "
                  "character mid-transition. Setup: once per transition. Noisy: over %.0f%%.</p>\n",
            json_num(cfg, "characters"), json_str(cfg, "sampler") ? json_str(cfg, "sampler") : "?", json_num(cfg, "repetitions"),
            json_num(cfg, "frames"), 100 * json_num(cfg, "noise_limit"));
    fprintf(o->m, "%.0f characters; us per frame for the whole crowd (CPU time, median of %.0f x %.0f frames); "
                  "sample -> transition -> additive -> 2-leg IK -> FK with velocities; spread = (max - min) / median "
                  "of the total; noisy: over %.0f%%.\n\n",
            json_num(cfg, "characters"), json_num(cfg, "repetitions"), json_num(cfg, "frames"),
            100 * json_num(cfg, "noise_limit"));
    for (size_t si = 0; scenes && si < jlen(scenes); si++) {
        const cJSON *sc = jat(scenes, si);
        const char *name = json_str(sc, "name");
        double nv = json_num(sc, "vertices"), chars = json_num(cfg, "characters");
        fprintf(o->h, "<h3>%s, %.0f joints, %.0f vertices</h3><p class=\"note\">", name ? name : "?",
                json_num(sc, "joints"), nv);
        html_esc(o->h, json_str(sc, "source"));
        fputs("; legs: ", o->h);
        html_esc(o->h, json_str(sc, "legs"));
        char imp[200] = "";
        if (isfinite(json_num(sc, "import_ms")))   /* a --model: what its import cost (model_import.h) */
            snprintf(imp, sizeof imp, "imported in %.0f ms, %.2f MiB of heap kept, peak resident %.0f MiB (+%.0f in the import)",
                     json_num(sc, "import_ms"), json_num(sc, "asset_heap_mib"), json_num(sc, "peak_rss_mib"),
                     json_num(sc, "peak_rss_grew_mib"));
        if (imp[0]) fprintf(o->h, "; %s", imp);
        fputs("</p>\n<table class=\"num\">\n", o->h);
        fprintf(o->m, "### %s, %.0f joints, %.0f vertices\n\n", name ? name : "?", json_num(sc, "joints"), nv);
        if (imp[0]) fprintf(o->m, "%s.\n\n", imp);
        const char *cells[20];
        char buf[20][32];
        int nc = 0;
        cells[nc++] = "method";
        cells[nc++] = "variant";
        for (size_t s = 0; stages && s < jlen(stages) && nc < 12; s++) cells[nc++] = stage_label(jat_str(stages, s));
        cells[nc++] = "stage sum us";
        cells[nc++] = "total us";
        cells[nc++] = "apart us";
        cells[nc++] = "spread";
        cells[nc++] = "chars/ms";
        cells[nc++] = "setup us";
        cells[nc++] = "skin ns/vertex";
        cells[nc++] = "noisy";
        trow(o, 1, nc, cells, NULL);
        for (size_t q = 0; rows && q < jlen(rows); q++) {
            const cJSON *row = jat(rows, q);
            if (!name || !json_str(row, "scene") || strcmp(json_str(row, "scene"), name)) continue;
            nc = 0;
            cells[nc++] = json_str(row, "method") ? json_str(row, "method") : "?";
            cells[nc++] = json_str(row, "variant") ? json_str(row, "variant") : "?";
            const cJSON *su = jget(row, "stage_us");
            for (size_t s = 0; stages && s < jlen(stages) && nc < 12; s++) {
                double v = json_num(su, jat_str(stages, s));
                if (isfinite(v)) snprintf(buf[nc], sizeof buf[0], "%.1f", v);
                else snprintf(buf[nc], sizeof buf[0], "missing");
                cells[nc] = buf[nc];
                nc++;
            }
            static const char *const sums[] = { "stage_sum_us", "total_us", "stage_apart_sum_us" };
            for (int k = 0; k < 3; k++) {
                snprintf(buf[nc], sizeof buf[0], "%.1f", json_num(row, sums[k]));
                cells[nc] = buf[nc];
                nc++;
            }
            snprintf(buf[nc], sizeof buf[0], "%.1f%%", 100.0 * json_num(row, "total_spread"));
            cells[nc] = buf[nc];
            nc++;
            snprintf(buf[nc], sizeof buf[0], "%.0f", json_num(row, "characters_per_ms"));
            cells[nc] = buf[nc];
            nc++;
            double su1 = json_num(row, "setup_once_us");
            if (isfinite(su1)) snprintf(buf[nc], sizeof buf[0], "%.1f", su1);
            else snprintf(buf[nc], sizeof buf[0], "-");
            cells[nc] = buf[nc];
            nc++;
            double skin = json_num(su, "skin") * 1e3 / (chars * nv);   /* the skin stage per vertex skinned */
            if (isfinite(skin) && nv > 0) snprintf(buf[nc], sizeof buf[0], "%.2f", skin);
            else snprintf(buf[nc], sizeof buf[0], "-");
            cells[nc] = buf[nc];
            nc++;
            noisy_cell(buf[nc], sizeof buf[0], row);
            cells[nc] = buf[nc];
            nc++;
            trow(o, 0, nc, cells, NULL);
        }
        both(o, "</table>\n", "\n");
    }
    figure(o, report_plot_file(PL_FRAME), "frame pipeline: us per frame per stage (stacked), per variant and "
                                          "transition method; scalar (left) and SIMD (right) on their own axes", made);
}

/* A table of JSON rows under its own heading, scrolling sideways in a narrow window. */
static void titled_table(out2 *o, const char *title, const cJSON *rows, const json_col *cols, int ncols)
{
    fprintf(o->h, "<h3>%s</h3>\n<div class=\"wide\"><table class=\"num\">\n", title);
    fprintf(o->m, "### %s\n\n", title);
    json_table(o, rows, cols, ncols, NULL);
    both(o, "</table></div>\n", "\n");
}

/* budget's layers (JSON "layers", "layer_transitions"; older JSON has neither: nothing is shown) */
static void budget_layers(out2 *o, const cJSON *b, double budget)
{
    const cJSON *layers = jget(b, "layers"), *lt = jget(b, "layer_transitions"), *cfg = jget(b, "config");
    if (layers && jlen(layers)) {
        const json_col cols[] = { { "layer", "layer", 's', 0 }, { "us/frame", "us", 'f', 1 }, { "spread", "spread", '%', 1 },
                                  { "uniform us", "uniform_us", 'g', 4 }, { "B/joint", "bytes_per_joint", 'f', 1 },
                                  { "GB/s", "gbps", 'f', 2 }, { "share of budget", "budget_fraction", '%', 1 },
                                  { "noisy", "noisy", 'n', 0 } };
        titled_table(o, "Layers", layers, cols, sizeof cols / sizeof cols[0]);
        fprintf(o->h, "<p class=\"note\">What a layer adds to each frame for the crowd (%.0f characters x %.0f joints), "
                      "one call over every character (CPU time, median). Masked override: blend_static (slerp) or "
                      "blend_static_nlerp with a weight per character times a bone mask (1 on the upper body, 0 on "
                      "the legs' %.0f joints); masked additive: the frame's additive layer (with velocities) under "
                      "that mask, or its static forms (additive_local_static, slerp; _nlerp); N-way: "
                      "pb_blend_n of 4 poses with weights per character. <i>uniform</i>: the same "
                      "op without per-element arrays. B/joint: poses read and written plus the shared arrays; "
                      "share of the %.0f us budget.</p>\n",
                json_num(cfg, "characters"), json_num(cfg, "joints"), json_num(b, "lower_body_joints"), budget);
    }
    if (lt && jlen(lt)) {
        const json_col cols[] = { { "transition", "method", 's', 0 }, { "us/frame", "cost_us", 'f', 1 },
                                  { "verdict", "verdict", 's', 0 }, { "frame us", "frame_us", 'f', 1 },
                                  { "frame", "frame_verdict", 's', 0 }, { "velocity jump m/s", "vel_jump_ms", 'f', 3 },
                                  { "angular jump rad/s", "ang_jump_rads", 'f', 2 }, { "deviation cm", "dev_cm", 'f', 2 },
                                  { "deviation deg", "dev_deg", 'f', 2 }, { "range excess deg", "range_deg", 'f', 2 },
                                  { "noisy", "noisy", 'n', 0 } };
        titled_table(o, "Layered transitions", lt, cols, sizeof cols / sizeof cols[0]);
        fprintf(o->h, "<p class=\"note\">Cost as the methods' above (both clips sampled plus the transition; the whole "
                      "frame with it), at the crowd only (no bisection); quality on the same transitions. Split "
                      "cross-fade: one blend_static whose bone mask holds each joint's weight, the upper body "
                      "switching over half the window and the legs (%.0f joints here) over all of it. N-way: the "
                      "cross-fade as pb_blend_n of source and destination (fast: the nlerp cross-fade to rounding; "
                      "accurate: the weighted quaternion mean).</p>\n", json_num(b, "quality_lower_body_joints"));
    }
}

void budget_section(report *r, out2 *o, int made)
{
    both(o, "<h2 id=\"budget\">Budget: which transition fits</h2>\n", "## Budget\n\n");
    if (!r->have_budget) {
        both(o, "<p class=\"missing\">the budget step did not produce its JSON.</p>\n", "No budget results.\n\n");
        return;
    }
    const cJSON *cfg = jget(r->budget, "config"), *rows = jget(r->budget, "rows"), *rest = jget(r->budget, "rest_of_frame_us");
    double budget = json_num(cfg, "budget_us");
    char stg[160];
    how_to_read(o, "Which way of switching between two animations fits the frame budget, and what it looks like. Each "
                   "method is one point in each panel: x its cost per frame for the crowd (clips sampled plus its "
                   "transition ops), the red dashed line the budget (left of it fits). Left panel: the peak velocity "
                   "jump a viewer sees at the switch (lower is smoother); right: how far the pose stays from the "
                   "destination animation over the transition window (lower is more responsive). Lower left is "
                   "better in both; every axis starts at 0. The cost table adds the whole frame (frame) and "
                   "the largest crowd measured to fit the budget; the quality table gives the figures behind the points.");
    fprintf(o->h, "<p>Budget %.0f us per frame for %.0f characters x %.0f joints, variant %s, %s, transition window "
                  "%.2f s, dead-blending half-life %.2f s. Cost: the clips each method samples plus its transition ops, "
                  "per frame for the crowd (CPU time, median of %.0f repetitions). <i>frame</i>: the whole frame "
                  "(pb_frame_step: the method plus the rest of the frame, %s, %.1f us of it). Verdicts: "
                  "<i>fits</i> when the slowest repetition is within the budget, <i>does not fit</i> when the fastest "
                  "is over it, <i>marginal</i> when the budget lies inside the spread (at least +-%.0f%% of the "
                  "median). Max crowd: <b>measured</b> by bisection (the largest crowd measured to fit; the search "
                  "stops within %.0f%% or 1 character).</p>\n",
            budget, json_num(cfg, "characters"), json_num(cfg, "joints"), json_str(cfg, "variant") ? json_str(cfg, "variant") : "?",
            json_str(cfg, "sampler") ? json_str(cfg, "sampler") : "?", json_num(cfg, "duration_s"), json_num(cfg, "halflife_s"),
            json_num(cfg, "repetitions"),
            budget_stages_text(cfg, "rest_of_frame_stages", "additive layer, legs FK, 2-leg IK and FK", stg, sizeof stg),
            rest && jlen(rest) ? jat_num(rest, 0) : json_num(r->budget, "rest_of_frame_us"),
            100 * json_num(cfg, "noise_floor"), 100 * json_num(cfg, "bisection_tolerance"));
    fprintf(o->m, "Budget %.0f us for %.0f characters x %.0f joints (variant %s). Verdicts fits / marginal / does not "
                  "fit against the repetitions' spread; max crowd measured by bisection.\n\n", budget,
            json_num(cfg, "characters"), json_num(cfg, "joints"), json_str(cfg, "variant") ? json_str(cfg, "variant") : "?");
    const cJSON *passed = jget(jget(r->budget, "check"), "passed");
    if (cJSON_IsFalse(passed))
        both(o, "<p class=\"bad\"><b>No blending method's whole frame fits the budget at this crowd</b> (budget's "
                "check failed: exit status 1; recorded here as a finding).</p>\n",
             "**No blending method's whole frame fits the budget at this crowd** (budget's check failed).\n\n");
    char fitsh[64];
    snprintf(fitsh, sizeof fitsh, "%.0f us?", budget);
    const json_col cost_cols[] = {
        { "method", "method", 's', 0 }, { "rotation", "rotation", 's', 0 },
        { "per frame (after sampling)", "ops", 's', 0 }, { "clips sampled", "clips_sampled", 'f', 0 },
        { "us/frame", "cost_us", 'f', 1 }, { "spread", "cost_spread", '%', 1 }, { fitsh, "verdict", 's', 0 },
        { "max crowd*", "max_characters", 'f', 0 }, { "frame us", "frame_us", 'f', 1 },
        { "frame", "frame_verdict", 's', 0 }, { "max crowd* (frame)", "frame_max_characters", 'f', 0 },
        { "frame us, threads**", "frame_threads_us", 'f', 1 }, { "frame, threads", "frame_threads_verdict", 's', 0 },
        { "max crowd* (threads)", "frame_threads_max_characters", 'f', 0 },
        { "setup us (once)", "setup_us", 'g', 3 }, { "noisy", "noisy", 'n', 0 } };
    both(o, "<h3>Cost</h3>\n<div class=\"wide\"><table class=\"num budget\">\n", "### Cost\n\n");
    json_table(o, rows, cost_cols, sizeof cost_cols / sizeof cost_cols[0], "fits");
    both(o, "</table></div>\n", "\n");
    fprintf(o->h, "<p class=\"note\">* largest crowd within %.0f us, measured: a bisection over the character count, "
                  "each probe a median of the repetitions (the JSON's max_crowd_search has every probe). ** the whole "
                  "frame with the crowd in fused blocks of %.0f characters on %.0f threads (wall time). noisy: the "
                  "figures whose spread is over %.0f%%: the machine was busy, measure again with more "
                  "--reps.</p>\n", budget,
            json_num(cfg, "block"), json_num(cfg, "threads"), 100 * json_num(cfg, "noise_limit"));
    const json_col quality_cols[] = {
        { "method", "method", 's', 0 }, { "rotation", "rotation", 's', 0 },
        { "velocity jump m/s", "vel_jump_ms", 'f', 3 }, { "angular jump rad/s", "ang_jump_rads", 'f', 2 },
        { "deviation cm", "dev_cm", 'f', 2 }, { "deviation deg", "dev_deg", 'f', 2 },
        { "range excess deg", "range_deg", 'f', 2 } };
    both(o, "<h3>Quality</h3>\n<table class=\"num\">\n", "### Quality\n\n");
    json_table(o, rows, quality_cols, sizeof quality_cols / sizeof quality_cols[0], NULL);
    both(o, "</table>\n", "\n");
    const cJSON *sa = jget(r->budget, "source_alone_jump");
    const char *src = json_str(r->budget, "quality_source");
    fprintf(o->h, "<p class=\"note\">Quality on %s (%zu transitions, 60 Hz, world space, %.0f body joints). "
                  "Velocity jump: peak over joints of the change of velocity at the transition frame, from world "
                  "transforms differenced over one frame (for scale, the source clip alone changes by %.3f m/s and "
                  "%.2f rad/s there). Deviation: mean distance and angle to the destination animation over the window. "
                  "Range excess: how far local rotations leave the per-joint, per-axis range both clips show "
                  "(peak over the window, mean over transitions). "
                  "blend and blend_static make the same poses, so the same quality.</p>\n",
            src ? src : "?", jget(r->budget, "pairs") ? jlen(jget(r->budget, "pairs")) : 0,
            json_num(r->budget, "quality_body_joints"), json_num(sa, "vel_ms"), json_num(sa, "ang_rads"));
    fprintf(o->m, "Quality on %s; velocity jump at the transition frame (source alone: %.3f m/s), mean deviation from "
                  "the destination over the window.\n\n", src ? src : "?", json_num(sa, "vel_ms"));
    budget_layers(o, r->budget, budget);
    figure(o, report_plot_file(PL_BUDGET), "cost per frame vs quality per transition method (left: velocity jump; "
                                           "right: deviation from the destination; axes from 0)", made);
}

