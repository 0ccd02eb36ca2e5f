/* cmd_report.c — `posebench report`: runs validate, bench, frame and budget
 * (as subprocesses of this binary, each writing its JSON and its console
 * output into the report folder), reads their JSON back through cJSON
 * (report_read.c), turns it into gnuplot data and plots (report_plots.c), and
 * writes index.html and summary.md (report_html.c, report_sections.c). The
 * folder is new each time (reports/out/YYYYmmdd-HHMMSS, never over tracked
 * files) unless --out names one.
 *
 * Why subprocesses: each step keeps its own exit status, console output and
 * progress lines (stderr passes through), and a crash in one step still
 * leaves a report of the others. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "posebench/posebench.h"   /* PB_HAVE_ASSIMP, pb_asset_load */
#include "budget.h"
#include "command.h"
#include "measure.h"
#include "report.h"
#include "skin_opts.h"

/* What each mode benchmarks (README and docs/frame-and-budget.md give the times measured).
 * The default answers "what does each op cost here" at the sizes a frame's calls have (64
 * joints: one character; 4096: a crowd's call in L2; 65536: a large crowd past L2) with
 * bench --quick's 3 repetitions of 0.01 s, beside one run past the last-level cache (the
 * DRAM point, below); the 1 M-joint size alone took 10 minutes of bench on 2 cores (its
 * buffers and cold-cache runs), so it is --full's. --quick keeps two sizes. --full: the
 * bench's own sizes, L1 to DRAM with cold-cache runs from 262144, 3 repetitions of 0.03 s. */
#define REPORT_MAX_BVH 16
/* The real skinned character the default report runs (the largest packaged one: 58 joints, 3014 vertices) */
#define REPORT_DEFAULT_MODEL "/usr/share/assimp/models/X/BCN_Epileptic.X"
#define DEFAULT_SIZES "64,4096,65536"
#define QUICK_SIZES "4096,65536"
#define FULL_SIZES "64,256,1000,1024,4096,10000,16384,65536,262144,1048576"
#define FULL_REPS "--benchmark_repetitions=3"
#define FULL_MIN_TIME "--benchmark_min_time=0.03"
/* The op of the DRAM-sized run and its bytes per joint (two static poses read,
 * one written: pos, rot, scl = 40 B each; the report reads the real figure
 * back from the bench's "bytes" counter). */
#define DRAM_OP "blend_static"
#define DRAM_OP_BYTES 120.0

enum { O_QUICK, O_FULL, O_OUT, O_NO_BENCH, O_BVH, O_MODEL, O_NO_MODEL, O_COUNT };
static const opt_spec opts[O_COUNT] = {
    [O_QUICK] = { "quick", OPT_FLAG, NULL, 0, 0, NULL, 0, NULL,
                  "validate --quick, bench at " QUICK_SIZES " joints, frame (10 frames) and budget --quick of 50 "
                  "characters: about 2 minutes" },
    [O_FULL] = { "full", OPT_FLAG, NULL, 0, 0, NULL, 0, NULL,
                 "every bench size (" FULL_SIZES "; cold cache from 262144), 3 x 0.03 s each, frame with 100 frames, "
                 "full budget: 30-40 minutes (default: bench at " DEFAULT_SIZES ", 3 x 0.01 s)" },
    [O_OUT] = { "out", OPT_STR, "DIR", 0, 0, NULL, 0, NULL,
                "write into DIR instead (created if missing; existing report files are replaced)" },
    [O_NO_BENCH] = { "no-bench", OPT_FLAG, NULL, 0, 0, NULL, 0, NULL, "leave the benchmarks out (plots 1-3 then say so)" },
    [O_BVH] = { "bvh", OPT_STR, "FILE", 0, 0, NULL, REPORT_MAX_BVH, NULL,
                "your own motion capture: validate on it, time the frame pipeline on its skeleton and\n"
                "score the transition methods on it (passed to `validate --bvh`, `frame --bvh` and, the\n"
                "first 3, `budget --bvh`)" },
    [O_MODEL] = { "model", OPT_STR, "FILE", 0, 0, NULL, 0, NULL,
                  "your character (FBX, glTF 2, Collada, X, ...): its mesh and clips validated, its frame timed\n"
                  "(its own table in the frame section) and its clips scored in the budget (passed to `validate\n"
                  "--model`, `frame --model` and `budget --model`); imported once first, so a bad file stops here.\n"
                  "Default: the packaged " REPORT_DEFAULT_MODEL " (assimp-testmodels), validated and in the frame" },
    [O_NO_MODEL] = { "no-model", OPT_FLAG, NULL, 0, 0, NULL, 0, NULL,
                     "no character: leave the packaged one out (not with --model)" },
};

static const char *self_exe(char *buf, size_t len, const char *fallback)
{
    ssize_t n = readlink("/proc/self/exe", buf, len - 1);
    if (n <= 0) return fallback;
    buf[n] = '\0';
    return buf;
}

static int run(const opt_val *o, int nrest, char **rest)
{
    (void)nrest, (void)rest;
    const char *out = o[O_OUT].str;
    int no_bench = o[O_NO_BENCH].count > 0, status = 0, nbvh = o[O_BVH].count;
    char *bvh[REPORT_MAX_BVH];
    for (int i = 0; i < nbvh; i++) {
        char why[256];
        bvh[i] = (char *)o[O_BVH].all[i];
        if (input_file_check(bvh[i], why, sizeof why) != 0) {
            fprintf(stderr, "posebench report: --bvh %s: %s\n", bvh[i], why);
            return EXIT_USAGE;
        }
    }
    char *model = (char *)o[O_MODEL].str;
    if (model && o[O_NO_MODEL].count) {
        fprintf(stderr, "posebench report: --no-model and --model: give one\n");
        return EXIT_USAGE;
    }
    /* by default the packaged character, when this build imports and the file is there: validated and in
     * the frame, not in the budget (whose cost rows --model moves onto the model's skeleton) */
    int model_default = !model && !o[O_NO_MODEL].count && PB_HAVE_ASSIMP && access(REPORT_DEFAULT_MODEL, R_OK) == 0;
    if (model_default) model = (char *)REPORT_DEFAULT_MODEL;
    if (model) {   /* imported once up front: a bad file is refused before any step runs */
        pb_asset a;
        if (pb_asset_load(model, NULL, &a) != PB_OK) {
            fprintf(stderr, "posebench report: --model: %s\n", pb_last_error());
            return EXIT_USAGE;
        }
        pb_asset_free(&a);
    }
    if (out && strlen(out) >= sizeof ((report *)0)->dir) {   /* never a truncated, different folder */
        fprintf(stderr, "posebench report: --out: a path of %zu bytes; at most %zu\n", strlen(out),
                sizeof ((report *)0)->dir - 1);
        return EXIT_USAGE;
    }
    report *r = calloc(1, sizeof *r);
    if (!r) {
        fprintf(stderr, "posebench report: out of memory\n");
        return EXIT_USAGE;
    }
    r->quick = o[O_QUICK].count > 0;
    r->full = o[O_FULL].count > 0;
    if (r->quick && r->full) {
        fprintf(stderr, "posebench report: --quick and --full: choose one\n");
        free(r);
        return EXIT_USAGE;
    }
    r->no_bench = no_bench;
    /* the folder: new and timestamped, or --out */
    if (out) {
        snprintf(r->dir, sizeof r->dir, "%s", out);
        if (mkdir_p(r->dir) != 0) {
            fprintf(stderr, "posebench report: cannot create %s: %s\n", r->dir, strerror(errno));
            free(r);
            return EXIT_USAGE;
        }
    } else {
        char stamp[32];
        time_t now = time(NULL);
        struct tm tmv;
        strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", gmtime_r(&now, &tmv));
        char base[1900];
        snprintf(base, sizeof base, "%s/out", CLI_REPORTS_DIR);
        if (mkdir_p(base) != 0) {
            fprintf(stderr, "posebench report: cannot create %s: %s\n", base, strerror(errno));
            free(r);
            return EXIT_USAGE;
        }
        int made = 0;
        for (int k = 1; k < 100 && !made; k++) {
            if (k == 1) snprintf(r->dir, sizeof r->dir, "%s/%s", base, stamp);
            else snprintf(r->dir, sizeof r->dir, "%s/%s-%d", base, stamp, k);
            if (mkdir(r->dir, 0755) == 0) made = 1;
            else if (errno != EEXIST) break;
        }
        if (!made) {
            fprintf(stderr, "posebench report: cannot create a new folder under %s: %s\n", base, strerror(errno));
            free(r);
            return EXIT_USAGE;
        }
    }
    snprintf(r->data, sizeof r->data, "%s/data", r->dir);
    if (mkdir_p(r->data) != 0) {
        fprintf(stderr, "posebench report: cannot create %s: %s\n", r->data, strerror(errno));
        free(r);
        return EXIT_USAGE;
    }
    snprintf(r->scripts, sizeof r->scripts, "%s", CLI_REPORTS_DIR);
    {
        char probe[2400];
        snprintf(probe, sizeof probe, "%s/%s", r->scripts, report_probe_script());
        if (!file_exists(probe) && file_exists("reports/ns_per_joint.gp")) snprintf(r->scripts, sizeof r->scripts, "reports");
    }
    fprintf(stderr, "posebench report: writing %s (%s)\n", r->dir, report_mode(r));

    char exe[4096];
    char *self = (char *)self_exe(exe, sizeof exe, "posebench");
    double t_all = wall_seconds();
    char p_val[2400], p_bench[2400], p_dram[2400], p_csv[2400], p_frame[2400], p_budget[2400], p_txt[2400];
    snprintf(p_val, sizeof p_val, "%s/validate.json", r->dir);
    snprintf(p_bench, sizeof p_bench, "%s/bench.json", r->dir);
    snprintf(p_dram, sizeof p_dram, "%s/bench_dram.json", r->dir);
    snprintf(p_csv, sizeof p_csv, "%s/bench.csv", r->dir);
    snprintf(p_frame, sizeof p_frame, "%s/frame.json", r->dir);
    snprintf(p_budget, sizeof p_budget, "%s/budget.json", r->dir);
    char quick[] = "--quick", json[] = "--json";

    /* 0: variants (context) */
    {
        char cmd[] = "variants";
        char *av[] = { self, cmd, NULL };
        snprintf(p_txt, sizeof p_txt, "%s/variants.txt", r->dir);
        run_child(av, p_txt, NULL, 0);
    }
    /* The DRAM point: one op at a size whose bytes are well over the last-level
     * cache, so the copy bandwidth table has a DRAM row on any host (the
     * bench's own sizes stop at 1 M joints, inside a 480 MiB L3). */
    char dram_sizes[32] = "";
    r->dram_n = dram_joints(host_llc_bytes(), DRAM_OP_BYTES, r->dram_note, sizeof r->dram_note);
    if (r->dram_n) snprintf(dram_sizes, sizeof dram_sizes, "%zu", r->dram_n);
    int nsteps_total = no_bench ? 3 : r->dram_n ? 5 : 4;
    for (int k = 0; k < 5; k++) {
        /* k: 0 validate, 1 bench, 2 the DRAM point (a second bench), 3 frame, 4 budget */
        const char *name = k == 0 ? "validate" : k == 1 ? "bench" : k == 2 ? "bench_dram" : k == 3 ? "frame" : "budget";
        if ((k == 1 || k == 2) && no_bench) continue;
        if (k == 2 && !r->dram_n) continue;
#ifndef PB_HAVE_BENCH
        if (k == 1 || k == 2) {
            if (k == 1)
                fprintf(stderr, "posebench report: this build has no Google Benchmark (libbenchmark-dev): no benchmarks\n");
            continue;
        }
#endif
        step *s = &r->steps[r->nsteps++];
        s->name = name;
        fprintf(stderr, "posebench report: [%d/%d] %s (elapsed %.0f s) ...\n", r->nsteps, nsteps_total, name,
                wall_seconds() - t_all);
        char *av[26 + 2 * REPORT_MAX_BVH];
        int ac = 0;
        av[ac++] = self;
        av[ac++] = (char *)(k == 2 ? "bench" : name);
        char sizes_opt[] = "--sizes", csv[] = "--csv", dashdash[] = "--", reps[] = FULL_REPS, mint[] = FULL_MIN_TIME,
             frames_opt[] = "--frames", reps_opt[] = "--reps", chars_opt[] = "--characters", op_opt[] = "--op", dram_op[] = DRAM_OP,
             vertices_opt[] = "--vertices", vertices[24];
        snprintf(vertices, sizeof vertices, "%d", r->quick ? SKIN_OPTS_VERTICES_QUICK : PB_FRAME_VERTICES);
        char *sizes = r->full ? FULL_SIZES : r->quick ? QUICK_SIZES : DEFAULT_SIZES;
        if (k == 0) {
            if (r->quick) av[ac++] = quick;
            av[ac++] = json;
            av[ac++] = p_val;
        } else if (k == 1 || k == 2) {
            if (!r->full) av[ac++] = quick;   /* with --sizes: only its 3 repetitions of 0.01 s */
            if (k == 2) {
                av[ac++] = op_opt;
                av[ac++] = dram_op;
            }
            av[ac++] = sizes_opt;
            av[ac++] = k == 2 ? dram_sizes : sizes;
            av[ac++] = json;
            av[ac++] = k == 2 ? p_dram : p_bench;
            if (k == 1) {
                av[ac++] = csv;
                av[ac++] = p_csv;
            }
            if (r->full) {
                av[ac++] = dashdash;
                av[ac++] = reps;
                av[ac++] = mint;
            }
        } else {
            /* frame: 3 x 30 frames of the full mesh by default (5 x 100 with --full; quick: --quick's
             * 200-vertex mesh, 3 x 10 frames of 50 characters); budget: --quick (3 repetitions of 30
             * frames) unless --full. The sanitizer builds run report --quick: under ASan at -O0 the
             * frame step took 20 min at 200 characters, budget 2.6 */
            if (r->quick || (k == 4 && !r->full)) av[ac++] = quick;
            if (k == 3) {
                av[ac++] = frames_opt;
                av[ac++] = r->quick ? "10" : r->full ? "100" : "30";
                if (!r->quick && !r->full) {
                    av[ac++] = reps_opt;
                    av[ac++] = "3";
                }
            }
            if (r->quick) {
                av[ac++] = chars_opt;
                av[ac++] = "50";
            }
            /* the same mesh for both, so budget's whole frame is the frame's: budget runs --quick by default,
             * whose mesh would be --quick's where the frame skins the full one */
            av[ac++] = vertices_opt;
            av[ac++] = vertices;
            av[ac++] = json;
            av[ac++] = k == 3 ? p_frame : p_budget;
        }
        char bvh_opt[] = "--bvh";
        /* validate and frame take the user's clips, budget's transition sets the first BUDGET_MAX_BVH */
        for (int b = 0; (k == 0 || k == 3 || (k == 4 && b < BUDGET_MAX_BVH)) && b < nbvh; b++) {
            av[ac++] = bvh_opt;
            av[ac++] = bvh[b];
        }
        char model_opt[] = "--model";
        if (model && (k == 0 || k == 3 || (k == 4 && !model_default))) {   /* validate, frame, budget */
            av[ac++] = model_opt;
            av[ac++] = model;
        }
        av[ac] = NULL;
        snprintf(p_txt, sizeof p_txt, "%s/%s.txt", r->dir, name);
        double t0 = wall_seconds();
        s->status = run_child(av, p_txt, NULL, 0);
        s->seconds = wall_seconds() - t0;
        if (k == 4 && s->status == 1)   /* budget's check: judged below, once its JSON is read */
            fprintf(stderr, "posebench report: budget's check failed (exit 1: no blending method fits?), see %s\n", p_txt);
        else if (s->status != 0)
            fprintf(stderr, "posebench report: %s exited with status %d (see %s)\n", name, s->status, p_txt);
    }

    /* read what the steps wrote */
    fprintf(stderr, "posebench report: reading results, plotting ...\n");
    r->val = calloc(1, sizeof *r->val);
    if (r->val && file_exists(p_val) && load_validate(p_val, r->val) != 0) r->val->ok = 0;
    if (file_exists(p_bench)) {
        r->bench = calloc(1, sizeof *r->bench);
        const char *paths[2] = { p_bench, p_dram };
        if (r->bench && load_bench(paths, file_exists(p_dram) ? 2 : 1, r->bench) != 0) r->bench->ok = 0;
        if (r->bench && r->bench->ok && r->bench->ns == 0) r->bench->ok = 0;
    }
    r->frame = file_exists(p_frame) ? load_rows_json(p_frame) : NULL;
    r->budget = file_exists(p_budget) ? load_rows_json(p_budget) : NULL;
    r->have_frame = r->frame != NULL;
    r->have_budget = r->budget != NULL;
    /* budget exits 1 when no blending method fits: for the report a finding (its section says so), not a failed step */
    const cJSON *ck = r->budget ? cJSON_GetObjectItemCaseSensitive(r->budget, "check") : NULL;
    for (int i = 0; i < r->nsteps; i++)
        if (!strcmp(r->steps[i].name, "budget") && r->steps[i].status == 1 &&
            cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(ck, "passed"))) {
            fprintf(stderr, "posebench report: budget: no blending method fits the budget; a finding, not a failure\n");
            r->steps[i].status = 0;
        }

    /* data files, plots, index.html and summary.md */
    int made[NPLOTS];
    int pst = report_plots(r, made);
    if (pst != 0) status = pst;
    if (write_index(r, made, wall_seconds() - t_all) != 0) status = EXIT_USAGE;

    for (int i = 0; i < r->nsteps; i++)
        if (r->steps[i].status != 0 && status == 0) status = 1;
    if (!r->val || !r->val->ok || !r->have_frame || !r->have_budget) status = status ? status : 1;
    if (r->val && r->val->ok && r->val->fails)
        fprintf(stderr, "posebench report: VALIDATION FAILED: %d failing row(s) (see validate.txt)\n", r->val->fails);
    fprintf(stderr, "posebench report: done in %.0f s%s\n", wall_seconds() - t_all, status ? " (with failures, see above)" : "");
    printf("%s\n", r->dir);
    cJSON_Delete(r->frame);
    cJSON_Delete(r->budget);
    free(r->bench);
    free(r->val);
    free(r);
    return status;
}

const command cmd_report = {
    .name = "report",
    .summary = "validate + bench + frame + budget -> plots, index.html and summary.md (the main job)",
    .about = "  Runs validate, bench, frame and budget, then writes plots (gnuplot: png and svg), index.html and\n"
             "  summary.md into a new folder reports/out/YYYYmmdd-HHMMSS/ of the source tree (printed at the end).\n"
             "  Exit status 1 when validation failed or a step or plot failed: the report is written anyway.\n",
    .opts = opts,
    .nopts = O_COUNT,
    .run = run,
};
