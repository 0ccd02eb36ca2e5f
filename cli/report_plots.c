/* report_plots.c — gnuplot data files from the steps' results and the
 * plots of the gnuplot scripts in reports/, png and svg (report.h). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"

/* A gnuplot single-quoted string: quotes doubled. */
static void gp_str(char *buf, size_t len, const char *s)
{
    size_t k = 0;
    if (k + 1 < len) buf[k++] = '\'';
    for (; *s && k + 3 < len; s++) {
        if (*s == '\'') buf[k++] = '\'';
        buf[k++] = *s;
    }
    buf[k++] = '\'';
    buf[k] = '\0';
}

typedef struct plot {
    const char *file;      /* output base name */
    const char *script;    /* reports/<script> */
    const char *title;
    int needs;             /* 1 bench, 2 validate, 3 frame, 4 budget, 5 scaling, 6 budget's transition sets */
} plot;


static int write_bench_data(report *r, FILE *vars)
{
    bench_data *b = r->bench;
    char words[8192];
    size_t used = 0;
    int nops = 0;
    words[0] = '\0';
    for (int o = 0; o < PB_OP_COUNT; o++)
        if (b->op_on[o]) {
            used += (size_t)snprintf(words + used, sizeof words - used, "%s%s", nops ? " " : "", pb_op_get((pb_op)o)->name);
            nops++;
            if (used >= sizeof words) return -1;
        }
    fprintf(vars, "ops = \"%s\"\nnops = %d\n", words, nops);
    fputs("variants = \"", vars);
    for (int v = 0; v < b->nv; v++) fprintf(vars, "%s%s", v ? " " : "", b->variants[v]);
    fprintf(vars, "\"\nnvars = %d\n", b->nv);
    /* cache sizes in joints of each op (bytes / the op's bytes per joint) */
    const char *lv[3] = { "l1", "l2", "l3" };
    for (int l = 0; l < 3; l++) {
        fprintf(vars, "%s = \"", lv[l]);
        int k = 0;
        for (int o = 0; o < PB_OP_COUNT; o++)
            if (b->op_on[o]) {
                double j = b->cache[l] > 0 && b->bytes_per_joint[o] > 0 ? b->cache[l] / b->bytes_per_joint[o] : 0;
                fprintf(vars, "%s%.6g", k++ ? " " : "", j);
            }
        fputs("\"\n", vars);
    }
    int cold = 0;
    for (int o = 0; o < PB_OP_COUNT; o++)
        for (int v = 0; v < b->nv; v++)
            for (int s = 0; s < b->ns; s++) cold |= isfinite(b->nspj[o][v][s][1]);
    fprintf(vars, "has_cold = %d\n", cold);
    fprintf(vars, "small_n = %zu\nlarge_n = %zu\nmin_n = %zu\nmax_n = %zu\n", b->sizes[r->small_i],
            b->sizes[r->large_i], b->sizes[0], b->sizes[b->ns - 1]);
    fputs("svariants = \"", vars);   /* the speedup plot's variants: all but scalar */
    for (int v = 0, k = 0; v < b->nv; v++)
        if (v != b->scalar) fprintf(vars, "%s%s", k++ ? " " : "", b->variants[v]);
    fprintf(vars, "\"\nnsvars = %d\n", b->nv - (b->scalar >= 0));

    /* 1: per op a block: n, warm ns/joint per variant, cold ns/joint per variant */
    FILE *f = open_data(r, "ns_per_joint.dat");
    if (!f) return -1;
    for (int o = 0; o < PB_OP_COUNT; o++) {
        if (!b->op_on[o]) continue;
        fprintf(f, "# %s: n", pb_op_get((pb_op)o)->name);
        for (int v = 0; v < b->nv; v++) fprintf(f, " %s", b->variants[v]);
        for (int v = 0; v < b->nv; v++) fprintf(f, " %s/cold", b->variants[v]);
        fputc('\n', f);
        for (int s = 0; s < b->ns; s++) {
            fprintf(f, "%zu", b->sizes[s]);
            for (int c = 0; c < 2; c++)
                for (int v = 0; v < b->nv; v++) dat_num(f, b->nspj[o][v][s][c]);
            fputc('\n', f);
        }
        fputs("\n\n", f);
    }
    if (fclose(f) != 0) return -1;
    /* 2: per op one row: speedup over scalar per variant, at two sizes */
    FILE *fs = open_data(r, "speedup.dat");
    if (!fs) return -1;
    int si[2] = { r->small_i, r->large_i };
    for (int k = 0; k < 2; k++) {
        fprintf(fs, "# n = %zu: op, speedup of each variant over scalar (warm)\n", b->sizes[si[k]]);
        for (int o = 0; o < PB_OP_COUNT; o++) {
            if (!b->op_on[o]) continue;
            fprintf(fs, "%s", pb_op_get((pb_op)o)->name);
            for (int v = 0; v < b->nv; v++) {
                double sc = b->scalar >= 0 ? b->nspj[o][b->scalar][si[k]][0] : NAN, x = b->nspj[o][v][si[k]][0];
                if (v != b->scalar) dat_num(fs, sc > 0 && x > 0 ? sc / x : NAN);
            }
            fputc('\n', fs);
        }
        fputs("\n\n", fs);
    }
    if (fclose(fs) != 0) return -1;
    /* 3 and 4: copy bandwidth per cache level, op bandwidth (report_bw.c) */
    return write_bw_data(r, vars);
}

static int write_validate_data(report *r, FILE *vars)
{
    val_data *d = r->val;
    FILE *f = open_data(r, "validation.dat");
    if (!f) return -1;
    int y = 0;
    fputs("vops = \"", vars);
    for (int o = PB_OP_COUNT - 1; o >= 0; o--)   /* first op at the top: gnuplot's y grows upwards */
        if (d->op_on[o]) fprintf(vars, "%s%s", y++ ? " " : "", pb_op_get((pb_op)o)->name);
    fprintf(vars, "\"\nnvops = %d\nvvariants = \"", y);
    for (int v = 0; v < d->nv; v++) fprintf(vars, "%s%s", v ? " " : "", d->variants[v]);
    fprintf(vars, "\"\nnvvars = %d\n", d->nv);
    fputs("# x (variant), y (op, bottom up), log10(worst err / bound), label, failing rows\n", f);
    y = 0;
    for (int o = PB_OP_COUNT - 1; o >= 0; o--) {
        if (!d->op_on[o]) continue;
        for (int v = 0; v < d->nv; v++) {
            const val_cell *c = &d->cell[o][v];
            if (!c->rows) {
                fprintf(f, "%d %d ? \"\" 0\n", v, y);
                continue;
            }
            double q = c->worst, lq = log10(q > 1e-4 ? q : 1e-4);
            char lab[32];
            if (c->fails) snprintf(lab, sizeof lab, "FAIL");
            else if (!c->worst_metric[0]) snprintf(lab, sizeof lab, "-");
            else snprintf(lab, sizeof lab, "%.2g", q);
            if (c->worst_metric[0]) fprintf(f, "%d %d %.4f \"%s\" %d\n", v, y, lq, lab, c->fails);
            else fprintf(f, "%d %d ? \"%s\" %d\n", v, y, lab, c->fails);   /* nothing judged: no colour */
        }
        y++;
    }
    fclose(f);
    return 0;
}

/* 6: per scene two blocks, the scalar rows then the SIMD rows (their own
 * panels: scalar's ~10 ms would flatten the SIMD bars): label, each stage's
 * us, the whole frame's. */
static int write_frame_data(report *r, FILE *vars)
{
    const cJSON *rows = jget(r->frame, "rows"), *stages = jget(r->frame, "stages"), *scenes = jget(r->frame, "scenes");
    if (!rows || !stages || !scenes) return -1;
    FILE *f = open_data(r, "frame.dat");
    if (!f) return -1;
    fputs("stages = \"", vars);
    for (size_t s = 0; s < jlen(stages); s++) fprintf(vars, "%s%s", s ? " " : "", jat_str(stages, s));
    fprintf(vars, "\"\nnstages = %zu\nscenes = \"", jlen(stages));
    for (size_t i = 0; i < jlen(scenes); i++) fprintf(vars, "%s%s", i ? " " : "", json_strz(jat(scenes, i), "name"));
    fprintf(vars, "\"\nnscenes = %zu\n", jlen(scenes));
    int maxrows[2] = { 0, 0 };
    for (size_t i = 0; i < jlen(scenes); i++) {
        const char *sn = json_str(jat(scenes, i), "name");
        for (int simd = 0; simd < 2; simd++) {
            int k = 0;
            fprintf(f, "# %s, %s: label, us per stage, total\n", sn ? sn : "?", simd ? "SIMD variants" : "scalar");
            for (size_t q = 0; q < jlen(rows); q++) {
                const cJSON *row = jat(rows, q);
                const char *m = json_str(row, "method_key"), *v = json_str(row, "variant"), *rs = json_str(row, "scene");
                if (!sn || !rs || strcmp(rs, sn) || (v && !strcmp(v, "scalar")) != !simd) continue;
                fprintf(f, "\"%s %s\"", v ? v : "?", m ? (strncmp(m, "crossfade", 9) ? (m[0] == 'i' ? "inert." : "dead")
                                                       : "x-fade") : "?");
                const cJSON *su = jget(row, "stage_us");
                for (size_t s = 0; s < jlen(stages); s++) dat_num(f, json_num(su, jat_str(stages, s)));
                dat_num(f, json_num(row, "total_us"));
                fputc('\n', f);
                k++;
            }
            if (!k) fputs("\"none\" ?\n", f);   /* an empty block would end gnuplot's index count */
            if (k > maxrows[simd]) maxrows[simd] = k;
            fputs("\n\n", f);
        }
    }
    fprintf(vars, "frame_scalar_bars = %d\nframe_bars = %d\n", maxrows[0], maxrows[1]);
    return fclose(f) != 0 ? -1 : 0;
}

static int write_budget_data(report *r, FILE *vars)
{
    const cJSON *rows = jget(r->budget, "rows"), *cfg = jget(r->budget, "config");
    if (!rows) return -1;
    FILE *f = open_data(r, "budget.dat");
    if (!f) return -1;
    fputs("# label, cost us/frame, velocity jump m/s, deviation cm, frame us (with the rest), ang jump rad/s\n", f);
    for (size_t i = 0; i < jlen(rows); i++) {
        const cJSON *row = jat(rows, i);
        const char *m = json_str(row, "method"), *rot = json_str(row, "rotation");
        char lab[96];
        if (rot && strcmp(rot, "n/a")) snprintf(lab, sizeof lab, "%s %s", m ? m : "?", rot);
        else snprintf(lab, sizeof lab, "%s", m ? m : "?");
        fprintf(f, "\"%s\"", lab);
        dat_num(f, json_num(row, "cost_us"));
        dat_num(f, json_num(row, "vel_jump_ms"));
        dat_num(f, json_num(row, "dev_cm"));
        dat_num(f, json_num(row, "frame_us"));
        dat_num(f, json_num(row, "ang_jump_rads"));
        fputc('\n', f);
    }
    fclose(f);
    fprintf(vars, "array blab[%zu] = [", jlen(rows));   /* labels with spaces: a gnuplot array */
    for (size_t i = 0; i < jlen(rows); i++) {
        const char *m = json_str(jat(rows, i), "method"), *rot = json_str(jat(rows, i), "rotation");
        fprintf(vars, "%s\"%s%s%s\"", i ? ", " : "", m ? m : "?", rot && strcmp(rot, "n/a") ? " " : "",
                rot && strcmp(rot, "n/a") ? rot : "");
    }
    fputs("]\n", vars);
    fprintf(vars, "budget_us = %.6g\nbudget_chars = %.0f\n", json_num(cfg, "budget_us"), json_num(cfg, "characters"));
    const char *src = json_str(r->budget, "quality_source");
    fprintf(vars, "budget_quality = \"%s\"\n", src && !strncmp(src, "cmu", 3) ? "CMU mocap transitions" : "synthetic transitions");
    return 0;
}

/* ============================ plots ============================ */

static const plot plots[NPLOTS] = {
    [PL_NSPJ] = { "1_ns_per_joint", "ns_per_joint.gp", "ns per joint vs size, per op (log-log; L1/L2/L3 marked)", 1 },
    [PL_SPEEDUP] = { "2_speedup", "speedup.gp", "speedup over scalar", 1 },
    [PL_COPY] = { "3_copy_levels", "copy_levels.gp", "this machine's copy bandwidth per cache level", 1 },
    [PL_BW] = { "4_bandwidth", "bandwidth.gp", "GB/s per op and variant, against a copy of the same bytes", 1 },
    [PL_VALID] = { "5_validation", "validation.gp", "validation: worst error / bound per op and variant", 2 },
    [PL_FRAME] = { "6_frame", "frame.gp", "frame pipeline: us per stage", 3 },
    [PL_BUDGET] = { "7_budget", "budget.gp", "transition methods: cost vs quality", 4 },
    [PL_SCALING] = { "8_scaling", "scaling.gp", "the frame fused by block and on threads", 5 },
    [PL_BUDGET_SETS] = { "9_budget_sets", "budget_sets.gp", "transition methods: cost vs quality on the transition sets", 6 },
};

const char *report_plot_file(int i) { return plots[i].file; }

static int have_input(const report *r, int needs)
{
    return needs == 1 ? r->bench && r->bench->ok : needs == 2 ? r->val && r->val->ok
           : needs == 3 ? r->have_frame : needs == 5 ? r->have_scaling : needs == 6 ? r->have_budget_sets : r->have_budget;
}

static int run_plots(report *r, int made[NPLOTS])
{
    int fails = 0;
    for (int i = 0; i < NPLOTS; i++) {
        made[i] = 0;
        if (!have_input(r, plots[i].needs)) continue;
        char script[2400];
        snprintf(script, sizeof script, "%s/%s", r->scripts, plots[i].script);
        int ok = 0;
        for (int t = 0; t < 2; t++) {
            const char *fmt = t ? "svg" : "png";
            char out[2400], qd[2400], qo[2400], qs[2400], expr[8000], log[2400];
            snprintf(out, sizeof out, "%s/%s.%s", r->dir, plots[i].file, fmt);
            gp_str(qd, sizeof qd, r->data);
            gp_str(qo, sizeof qo, out);
            gp_str(qs, sizeof qs, r->scripts);
            snprintf(expr, sizeof expr, "datadir=%s; outfile=%s; scriptdir=%s; fmt='%s'", qd, qo, qs, fmt);
            snprintf(log, sizeof log, "%s/gnuplot-%s-%s.log", r->data, plots[i].file, fmt);
            char *argv[] = { "gnuplot", "-e", expr, script, NULL };
            /* gnuplot's messages go to stderr: keep them in a log next to the data */
            fflush(stderr);
            int saved = dup(STDERR_FILENO), fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (fd >= 0) dup2(fd, STDERR_FILENO);
            int st = run_child(argv, NULL, NULL, 1);
            if (fd >= 0) {
                dup2(saved, STDERR_FILENO);
                close(fd);
            }
            if (saved >= 0) close(saved);
            struct stat sb;
            if (st != 0 || stat(out, &sb) != 0 || sb.st_size == 0) {
                fprintf(stderr, "posebench report: gnuplot failed for %s (status %d): see %s\n", out, st, log);
                if (st == 127) {
                    snprintf(r->plots_missing, sizeof r->plots_missing,
                             "gnuplot could not run (install gnuplot-nox: tools/deps.sh core): no plots");
                    return -1;
                }
                fails++;
            } else ok++;
        }
        made[i] = ok == 2;
    }
    return fails ? -1 : 0;
}


const char *report_probe_script(void) { return plots[0].script; }

int report_plots(report *r, int made[NPLOTS])
{
    for (int i = 0; i < NPLOTS; i++) made[i] = 0;
    FILE *vars = open_data(r, "vars.gp");
    if (!vars) return 2;
    fputs("# written by posebench report: what the plot scripts iterate over\n", vars);
    if (r->bench && r->bench->ok) {
        bench_data *b = r->bench;
        r->small_i = 0;
        for (int s = 0; s < b->ns; s++)
            if (b->sizes[s] <= 4096) r->small_i = s;   /* the largest size up to 4096: in cache */
        /* the largest size most ops ran at (the DRAM point has one op) */
        int most = 0;
        r->large_i = b->ns - 1;
        for (int s = 0; s < b->ns; s++) {
            int k = 0;
            for (int o = 0; o < PB_OP_COUNT; o++) k += b->op_on[o] && isfinite(b->gbps[o][MAXV][s][0]);
            if (k >= most) {
                most = k;
                r->large_i = s;
            }
        }
        if (write_bench_data(r, vars) != 0) r->bench->ok = 0;
    }
    if (r->val && r->val->ok && write_validate_data(r, vars) != 0) r->val->ok = 0;
    if (r->have_frame && write_frame_data(r, vars) != 0) r->have_frame = 0;
    r->have_scaling = r->have_frame && write_scaling_data(r, vars) == 0;
    if (r->have_budget && write_budget_data(r, vars) != 0) r->have_budget = 0;
    r->have_budget_sets = r->have_budget && write_budget_sets_data(r, vars) == 0;
    if (fclose(vars) != 0) {
        fprintf(stderr, "posebench report: error writing %s/vars.gp\n", r->data);
        return 2;
    }
    return run_plots(r, made) != 0 ? 1 : 0;
}
