/* report_html.c — index.html and summary.md: the summary, the context, the
 * sections (report_sections.c) and the files (report.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "report.h"

int write_index(report *r, const int made[NPLOTS], double total_s)
{
    char p1[2400], p2[2400];
    snprintf(p1, sizeof p1, "%s/index.html", r->dir);
    snprintf(p2, sizeof p2, "%s/summary.md", r->dir);
    out2 o = { fopen(p1, "w"), fopen(p2, "w") };
    if (!o.h || !o.m) {
        fprintf(stderr, "posebench report: cannot write %s: %s\n", o.h ? p2 : p1, strerror(errno));
        if (o.h) fclose(o.h);
        if (o.m) fclose(o.m);
        return -1;
    }
    bench_data *b = r->bench;
    char cpu[256], feats[128], when[64];
    pb_cpu_model(cpu, sizeof cpu);
    pb_cpu_feature_names(pb_cpu_features(), feats, sizeof feats);
    time_t now = time(NULL);
    struct tm tmv;
    strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", gmtime_r(&now, &tmv));
    const cJSON *fctx = r->have_frame ? jget(r->frame, "context") : NULL;
    const char *compiler = b && b->ok ? b->compiler : json_str(fctx, "compiler");
    const char *cflags = b && b->ok ? b->c_flags : json_str(fctx, "c_flags");
    const char *kflags = b && b->ok ? b->kernel_flags : json_str(fctx, "kernel_flags");
    const char *btype = b && b->ok ? b->build_type : json_str(fctx, "build_type");
    int total_imgs = 0;
    for (int i = 0; i < NPLOTS; i++) total_imgs += made[i];

    fprintf(o.h, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>posebench report %s</title>\n"
                 "<style>\n"
                 "body{font-family:system-ui,-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;margin:2em auto;"
                 "max-width:1340px;padding:0 1em;color:#222;line-height:1.4}\n"
                 "h1{margin-bottom:.2em}h2{border-bottom:2px solid #ddd;padding-bottom:.2em;margin-top:2em}\n"
                 "table{border-collapse:collapse;margin:.6em 0;font-size:13px}\n"
                 "th,td{border:1px solid #ccc;padding:3px 7px;text-align:left;white-space:nowrap}\n"
                 "th{background:#f0f3f7;white-space:normal}.wide table{font-size:12px}.wide td,.wide th{padding:2px 4px}"
                 "table.num td{text-align:right}table.num td:first-child,"
                 "table.num td:nth-child(2){text-align:left}\n"
                 "table.budget td:nth-child(3){text-align:left;white-space:normal;min-width:14em}"
                 "table.grouped col.g{border-left:2px solid #888}table.grouped th.grp{border-left:2px solid #888}"
                 "tr.bad td{background:#fde8e8}.bad{color:#a00}.good{color:#070}.missing{color:#a60}"
                 ".note{color:#555;font-size:13px}\n"
                 ".wide{overflow-x:auto}figure{margin:1em 0}img{max-width:100%%;border:1px solid #eee}"
                 "figcaption{color:#555;font-size:13px}\n"
                 ".howto{background:#f4f7fb;border-left:4px solid #7a9cc6;padding:.5em .8em;margin:.6em 0;font-size:14px}\n"
                 "dl.ctx{display:grid;grid-template-columns:max-content auto;gap:2px 14px;font-size:13px}"
                 "dl.ctx dt{font-weight:600}dl.ctx dd{margin:0;font-family:monospace}\n"
                 "nav a{margin-right:1em}\n</style></head>\n<body data-images-total=\"%d\">\n",
            when, total_imgs);
    fprintf(o.h, "<h1>posebench report</h1>\n<p class=\"note\">%s &middot; %s run &middot; %.0f s</p>\n", when,
            report_mode(r), total_s);
    fputs("<nav><a href=\"#answers\">answers</a><a href=\"#context\">context</a><a href=\"#validation\">validation</a><a href=\"#bench\">benchmarks</a>"
          "<a href=\"#frame\">frame pipeline</a><a href=\"#scaling\">fusion, threads</a><a href=\"#budget\">budget</a><a href=\"#files\">files</a></nav>\n", o.h);
    fprintf(o.m, "# posebench report\n\n%s, %s run, %.0f s.\n\n", when, report_mode(r), total_s);

    answers_section(r, &o);
    /* the run itself */
    fputs("<h2>This run</h2><ul>\n", o.h);
    fputs("## This run\n\n", o.m);
    if (r->val && r->val->ok) {
        fprintf(o.h, "<li class=\"%s\">validation: %d rows, %d failing</li>\n", r->val->fails ? "bad" : "good",
                r->val->rows, r->val->fails);
        fprintf(o.m, "- validation: %d rows, %d failing\n", r->val->rows, r->val->fails);
    } else {
        fputs("<li class=\"bad\">validation: no results</li>\n", o.h);
        fputs("- validation: no results\n", o.m);
    }
    if (b && b->ok) {
        int nops = 0;
        for (int op = 0; op < PB_OP_COUNT; op++) nops += b->op_on[op];
        fprintf(o.h, "<li>benchmarks: %d ops x %d variants x %d sizes</li>\n", nops, b->nv, b->ns);
        fprintf(o.m, "- benchmarks: %d ops x %d variants x %d sizes\n", nops, b->nv, b->ns);
    }
    if (r->have_frame) {
        const cJSON *rows = jget(r->frame, "rows");
        double best = INFINITY;
        const cJSON *br = NULL;
        for (size_t i = 0; rows && i < jlen(rows); i++) {
            double t = json_num(jat(rows, i), "total_us");
            const char *sc = json_str(jat(rows, i), "scene");
            if (sc && !strncmp(sc, "synthetic", 9) && t < best) {
                best = t;
                br = jat(rows, i);
            }
        }
        if (br) {
            fprintf(o.h, "<li>frame: fastest %s frame %.1f us for %.0f characters x %.0f joints (%s, %s): %.0f "
                         "characters per ms</li>\n", json_strz(br, "scene"), best, json_num(br, "characters"), json_num(br, "joints"),
                    json_strz(br, "method"), json_strz(br, "variant"), json_num(br, "characters_per_ms"));
            fprintf(o.m, "- frame: fastest %s frame %.1f us for %.0f characters (%s, %s)\n", json_strz(br, "scene"), best,
                    json_num(br, "characters"), json_strz(br, "method"), json_strz(br, "variant"));
        }
    }
    if (r->have_budget) {
        const cJSON *rows = jget(r->budget, "rows"), *cfg = jget(r->budget, "config");
        int fits = 0, n = 0;
        for (size_t i = 1; rows && i < jlen(rows); i++, n++) fits += json_bool(jat(rows, i), "fits", 0);
        fprintf(o.h, "<li>budget: %d of %d blending methods fit %.0f us for %.0f characters (variant %s)</li>\n", fits,
                n, json_num(cfg, "budget_us"), json_num(cfg, "characters"), json_strz(cfg, "variant"));
        fprintf(o.m, "- budget: %d of %d blending methods fit %.0f us for %.0f characters\n", fits, n,
                json_num(cfg, "budget_us"), json_num(cfg, "characters"));
    }
    for (int i = 0; i < r->nsteps; i++)
        if (r->steps[i].status != 0) {
            fprintf(o.h, "<li class=\"bad\">step %s exited with status %d</li>\n", r->steps[i].name, r->steps[i].status);
            fprintf(o.m, "- step %s exited with status %d\n", r->steps[i].name, r->steps[i].status);
        }
    if (r->plots_missing[0]) {
        fprintf(o.h, "<li class=\"bad\">%s</li>\n", r->plots_missing);
        fprintf(o.m, "- %s\n", r->plots_missing);
    }
    fputs("</ul>\n", o.h);
    fputs("\n", o.m);

    /* context */
    fputs("<h2 id=\"context\">Context</h2>\n<dl class=\"ctx\">\n", o.h);
    fputs("## Context\n\n", o.m);
    const char *keys[] = { "CPU", "CPU features", "cores", "compiler", "C flags", "kernel flags", "build type",
                           "timed code built with", "streaming threshold", "Google Benchmark (framework) build",
                           "bench run", "steps" };
    char steps[512], cores[64];
    size_t used = 0;
    steps[0] = '\0';
    for (int i = 0; i < r->nsteps && used < sizeof steps; i++)
        used += (size_t)snprintf(steps + used, sizeof steps - used, "%s%s %.0f s%s", i ? ", " : "", r->steps[i].name,
                                 r->steps[i].seconds, r->steps[i].status ? " (failed)" : "");
    snprintf(cores, sizeof cores, "%s (%s MHz)", b && b->ok ? b->ncpu : "?", b && b->ok ? b->mhz : "?");
    char benchrun[128];
    /* the report's mode, and the bench's own timing (the default report runs bench --quick at its sizes) */
    if (b && b->ok)
        snprintf(benchrun, sizeof benchrun, "%s report, %zu sizes, bench %s timing", report_mode(r), (size_t)b->ns,
                 !strcmp(b->quick, "true") ? "--quick (3 x 0.01 s)" : "full (3 x 0.03 s)");
    else
        snprintf(benchrun, sizeof benchrun, "not run");
    const char *kopt = b && b->ok ? b->kernel_opt : json_str(fctx, "kernel_opt");
    const char *sbytes = b && b->ok ? b->stream_bytes : json_str(fctx, "stream_bytes");
    char gb[200];
    snprintf(gb, sizeof gb, "%s (Debian's libbenchmark; see the note below)", b && b->ok ? b->gb_build : "not run");
    const char *vals[] = { cpu, feats, cores, compiler ? compiler : "?", cflags ? cflags : "?", kflags ? kflags : "?",
                           btype ? btype : "?", kopt ? kopt : "?", sbytes && *sbytes ? sbytes : "?", gb, benchrun,
                           steps };
    for (int i = 0; i < (int)(sizeof keys / sizeof keys[0]); i++) {
        fprintf(o.h, "<dt>%s</dt><dd>", keys[i]);
        html_esc(o.h, vals[i]);
        fputs("</dd>\n", o.h);
        fprintf(o.m, "- **%s**: %s\n", keys[i], vals[i]);
    }
    fputs("</dl>\n", o.h);
    fputs("\n", o.m);
    /* Google Benchmark's "Library was built as DEBUG" line, explained where people read the numbers */
    char dbg[700];
    snprintf(dbg, sizeof dbg, "Google Benchmark prints \"***WARNING*** Library was built as DEBUG. Timings may be "
             "affected.\" That concerns Debian's build of the framework (libbenchmark-dev: the \"Google Benchmark "
             "(framework) build\" above), which runs the timing loop around our calls, not the timed code: the "
             "kernels and the reference are built by this project with %s.", kopt ? kopt : "the flags above");
    fputs("<p class=\"note\">", o.h);
    html_esc(o.h, dbg);
    fputs("</p>\n", o.h);
    fprintf(o.m, "%s\n\n", dbg);

    validation_section(r, &o, made[PL_VALID]);
    bench_section(r, &o, made);
    frame_section(r, &o, made[PL_FRAME]);
    scaling_section(r, &o, made[PL_SCALING]);
    budget_section(r, &o, made[PL_BUDGET]);
    if (r->have_budget) budget_sets_section(r, &o, made[PL_BUDGET_SETS]);

    fputs("<h2 id=\"files\">Files</h2><p>", o.h);
    const char *files[] = { "validate.json", "validate.txt", "bench.json", "bench.csv", "bench.txt", "bench_dram.json",
                            "bench_dram.txt", "frame.json",
                            "frame.txt", "budget.json", "budget.txt", "variants.txt", "summary.md" };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char p[2400];
        snprintf(p, sizeof p, "%s/%s", r->dir, files[i]);
        if (file_exists(p) || !strcmp(files[i], "summary.md")) fprintf(o.h, "<a href=\"%s\">%s</a> ", files[i], files[i]);
    }
    fputs("<a href=\"data/\">data/</a> (gnuplot inputs)</p>\n", o.h);
    /* the test (tests/test_report.sh) reads these from headless Chromium's DOM */
    /* the test (tests/test_report.sh) reads these from headless Chromium's DOM: images that loaded and
     * have a size, tables without a data row, the page's width and any element wider than its box */
    fputs("<script>\n(function(){\n  function count(){\n    var d=document.body.dataset, imgs=document.images, ok=0;\n"
          "    for(var i=0;i<imgs.length;i++){ var b=imgs[i].getBoundingClientRect();\n"
          "      if(imgs[i].complete && imgs[i].naturalWidth>0 && b.width>100 && b.height>100) ok++; }\n"
          "    d.imagesLoaded=String(ok);\n    d.imagesFound=String(imgs.length);\n"
          "    var t=document.getElementsByTagName('table'), empty=[];\n"
          "    for(var j=0;j<t.length;j++){ if(t[j].querySelectorAll('td').length==0) empty.push(j); }\n"
          "    d.tables=String(t.length);\n    d.emptyTables=String(empty.length);\n"
          "    d.scrollWidth=String(document.documentElement.scrollWidth);\n"
          "    var w=document.querySelectorAll('table,div,figure,p'), wide=[];\n"
          "    for(var k=0;k<w.length;k++){ if(w[k].scrollWidth>w[k].clientWidth+1) wide.push(w[k].tagName+'.'+w[k].className); }\n"
          "    d.overflowing=String(wide.length);\n    d.overflowingWhat=wide.slice(0,5).join(' ');\n  }\n"
          "  window.addEventListener('load', count);\n  count();\n})();\n</script>\n</body></html>\n", o.h);
    int bad = fclose(o.h) != 0;
    if (bad) fprintf(stderr, "posebench report: error writing %s\n", p1);
    if (fclose(o.m) != 0) {
        fprintf(stderr, "posebench report: error writing %s\n", p2);
        bad = 1;
    }
    return bad ? -1 : 0;
}

