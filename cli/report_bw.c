/* report_bw.c — memory bandwidth in the report (report.h): the machine's
 * copy bandwidth per cache level, measured by the bench's own copy/<op>/<n>
 * rows (a memcpy of exactly an op's bytes, in the same run), the joint count
 * of the extra DRAM-sized run, the gnuplot data of plots 3 and 4 and the two
 * bandwidth tables.
 *
 * Why levels by working set: every op's copy row moves that op's bytes, so
 * the rows of all ops at all sizes sample working sets from a few KiB to the
 * DRAM run's hundreds of MiB. A row counts for a level only when its working
 * set sits well inside that level and well outside the one below; rows near a
 * boundary measure a mix and are left out (and counted as such). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure.h"
#include "num.h"
#include "report.h"

const char *const level_name[LV_COUNT] = { "L1", "L2", "L3", "DRAM" };

/* The level a working set measures, or -1 (near a boundary, or a cache size unknown). */
static int level_of(const bw_level lv[LV_COUNT], double ws)
{
    for (int l = 0; l < LV_COUNT; l++)
        if (lv[l].ws_max > 0 && ws >= lv[l].ws_min && ws <= lv[l].ws_max) return l;
    return -1;
}

void copy_levels(const bench_data *b, bw_level lv[LV_COUNT])
{
    memset(lv, 0, sizeof(bw_level) * LV_COUNT);
    const double *c = b->cache;
    for (int l = 0; l < 3; l++) lv[l].cache = c[l];
    /* a level is known only when its cache and the one below are */
    if (c[0] > 0) lv[LV_L1] = (bw_level){ .cache = c[0], .ws_min = 0, .ws_max = 0.75 * c[0] };
    if (c[0] > 0 && c[1] > 1.5 * c[0]) lv[LV_L2] = (bw_level){ .cache = c[1], .ws_min = 1.5 * c[0], .ws_max = 0.75 * c[1] };
    if (c[1] > 0 && c[2] > 1.5 * c[1]) lv[LV_L3] = (bw_level){ .cache = c[2], .ws_min = 1.5 * c[1], .ws_max = 0.75 * c[2] };
    double llc = c[2] > 0 ? c[2] : c[1];
    if (llc > 0) lv[LV_DRAM] = (bw_level){ .cache = 0, .ws_min = 2 * llc, .ws_max = INFINITY };
    enum { MAXR = PB_OP_COUNT * MAXS };
    static double vals[LV_COUNT][MAXR];
    for (int l = 0; l < LV_COUNT; l++) {
        lv[l].got_min = INFINITY;
        lv[l].got_max = 0;
        lv[l].median = lv[l].lo = lv[l].hi = NAN;
    }
    int seen[LV_COUNT][MAXS] = { { 0 } };
    for (int o = 0; o < PB_OP_COUNT; o++)
        for (int s = 0; s < b->ns; s++) {
            double g = b->gbps[o][MAXV][s][0], ws = b->bytes[o][s];
            int l = isfinite(g) && isfinite(ws) ? level_of(lv, ws) : -1;
            if (l < 0) continue;
            vals[l][lv[l].rows++] = g;
            seen[l][s] = 1;
            if (ws < lv[l].got_min) lv[l].got_min = ws;
            if (ws > lv[l].got_max) lv[l].got_max = ws;
        }
    for (int l = 0; l < LV_COUNT; l++) {
        bw_level *v = &lv[l];
        size_t used = 0;
        for (int s = 0; s < b->ns && used < sizeof v->sizes; s++)
            if (seen[l][s]) used += (size_t)snprintf(v->sizes + used, sizeof v->sizes - used, "%s%zu", used ? ", " : "", b->sizes[s]);
        if (!v->rows) continue;
        v->median = median_sort(vals[l], v->rows);   /* sorts: the extremes are then at the ends */
        v->lo = vals[l][0];
        v->hi = vals[l][v->rows - 1];
    }
}

size_t dram_joints(double llc_bytes, double op_bytes_per_joint, char *why, size_t len)
{
    const double cap = 1024.0 * 1024 * 1024;
    if (!(llc_bytes > 0)) {
        snprintf(why, len, "the last-level cache size is unknown, so no size is known to be in DRAM");
        return 0;
    }
    double ws = 4 * llc_bytes <= cap ? 4 * llc_bytes : 2 * llc_bytes;
    if (ws > cap) {
        snprintf(why, len, "twice the last-level cache (%.0f MiB) is over the 1 GiB this run allows", 2 * llc_bytes / 1048576);
        return 0;
    }
    /* a multiple of 1024, so of every lane count and joint count of the bench's skeletons: a power of two
     * could double the working set past the cap (a 508 MiB last-level cache gave 2 GiB) */
    return (size_t)ceil(ws / op_bytes_per_joint / 1024) * 1024;
}

double host_llc_bytes(void)
{
    uint64_t v;   /* checked at start-up (env.h): a set value is a positive whole number of bytes */
    if (num_whole(getenv("POSEBENCH_LLC_BYTES"), 1, SIZE_MAX, &v) == 0) return (double)v;
    return (double)pb_cache_bytes(0);
}


int write_bw_data(report *r, FILE *vars)
{
    const bench_data *b = r->bench;
    copy_levels(b, r->lv);
    /* 3: every warm copy row: working set, GB/s, its level (0-based, -1 none), n */
    FILE *f = open_data(r, "copy_levels.dat");
    if (!f) return -1;
    fputs("# warm copy/<op>/<n> rows: working set bytes, GB/s, level (0 L1 .. 3 DRAM, -1 between), n, op\n", f);
    int nrows = 0;
    for (int o = 0; o < PB_OP_COUNT; o++)
        for (int s = 0; s < b->ns; s++) {
            double g = b->gbps[o][MAXV][s][0], ws = b->bytes[o][s];
            if (!isfinite(g) || !isfinite(ws)) continue;
            fprintf(f, "%.6g %.6g %d %zu %s\n", ws, g, level_of(r->lv, ws), b->sizes[s], pb_op_get((pb_op)o)->name);
            nrows++;
        }
    if (fclose(f) != 0) return -1;
    fprintf(vars, "copy_rows = %d\n", nrows);
    for (int l = 0; l < LV_COUNT; l++) {
        const bw_level *v = &r->lv[l];
        fprintf(vars, "lv%d_cache = %.6g\nlv%d_med = %.6g\nlv%d_min = %.6g\nlv%d_max = %.6g\nlv%d_rows = %d\n", l + 1,
                v->cache, l + 1, isfinite(v->median) ? v->median : 0, l + 1, v->ws_min,
                l + 1, isfinite(v->ws_max) ? v->ws_max : 0, l + 1, v->rows);
    }
    /* 4: per panel size a block: op, GB/s per variant, copy GB/s of the same bytes */
    f = open_data(r, "bandwidth.dat");
    if (!f) return -1;
    int si[2] = { r->small_i, r->large_i };
    for (int k = 0; k < 2; k++) {
        fprintf(f, "# n = %zu: op, GB/s per variant (the op's bytes / its time, warm), copy GB/s\n", b->sizes[si[k]]);
        for (int o = 0; o < PB_OP_COUNT; o++) {
            if (!b->op_on[o]) continue;
            fprintf(f, "%s", pb_op_get((pb_op)o)->name);
            for (int v = 0; v < b->nv; v++) dat_num(f, b->gbps[o][v][si[k]][0]);
            dat_num(f, b->gbps[o][MAXV][si[k]][0]);
            fputc('\n', f);
        }
        fputs("\n\n", f);
    }
    return fclose(f) != 0 ? -1 : 0;
}

static void fmt_bytes(char *buf, size_t len, double v)
{
    if (!isfinite(v) || v <= 0) snprintf(buf, len, "-");
    else if (v >= 1048576) snprintf(buf, len, "%.3g MiB", v / 1048576);
    else snprintf(buf, len, "%.3g KiB", v / 1024);
}

void bandwidth_tables(report *r, out2 *o)
{
    const bench_data *b = r->bench;
    fputs("<h3 id=\"copy-levels\">This machine's copy bandwidth per cache level</h3>\n<table class=\"num\">\n"
          "<tr><th>level</th><th>cache</th><th>working sets counted</th><th>copy rows</th><th>at joints</th>"
          "<th>working sets seen</th><th>median GB/s</th><th>min - max GB/s</th></tr>\n", o->h);
    fputs("### Copy bandwidth per cache level\n\n| level | cache | working sets counted | rows | at joints | median GB/s "
          "| min - max |\n|---|---:|---:|---:|---:|---:|---:|\n", o->m);
    for (int l = 0; l < LV_COUNT; l++) {
        const bw_level *v = &r->lv[l];
        char cache[32], lo[32], hi[32], glo[32], ghi[32], range[80], seen[80], med[32], span[40];
        fmt_bytes(cache, sizeof cache, v->cache);
        fmt_bytes(lo, sizeof lo, v->ws_min);
        fmt_bytes(hi, sizeof hi, v->ws_max);
        fmt_bytes(glo, sizeof glo, v->got_min);
        fmt_bytes(ghi, sizeof ghi, v->got_max);
        if (!(v->ws_max > 0)) snprintf(range, sizeof range, "cache size unknown");
        else if (l == LV_L1) snprintf(range, sizeof range, "up to %s", hi);
        else if (l == LV_DRAM) snprintf(range, sizeof range, "from %s (2 x L3)", lo);
        else snprintf(range, sizeof range, "%s - %s", lo, hi);
        snprintf(seen, sizeof seen, "%s - %s", glo, ghi);
        fmt_num(med, sizeof med, v->median, 3);
        if (v->rows) snprintf(span, sizeof span, "%.3g - %.3g", v->lo, v->hi);
        else snprintf(span, sizeof span, "-");
        fprintf(o->h, "<tr%s><td>%s</td><td>%s</td><td>%s</td><td>%d</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n",
                v->rows ? "" : " class=\"bad\"", level_name[l], l == LV_DRAM ? "-" : cache, range, v->rows,
                v->rows ? v->sizes : "none", v->rows ? seen : "-", med, span);
        fprintf(o->m, "| %s | %s | %s | %d | %s | %s | %s |\n", level_name[l], l == LV_DRAM ? "-" : cache, range, v->rows,
                v->rows ? v->sizes : "none", med, span);
    }
    fputs("</table>\n", o->h);
    fputc('\n', o->m);
    if (!r->lv[LV_DRAM].rows)
        fprintf(o->h, "<p class=\"missing\">No DRAM-sized copy row: %s.</p>\n",
                r->dram_note[0] ? r->dram_note : "the DRAM-sized run did not produce one");
    /* per op: GB/s of each variant and of its copy at the two table sizes */
    size_t ns = b->sizes[r->small_i], nl = b->sizes[r->large_i];
    fputs("<h3>Bandwidth per op</h3>\n<table class=\"num grouped\">\n<tr><th rowspan=\"2\">op</th>"
          "<th rowspan=\"2\">B/joint</th>", o->h);
    for (int v = 0; v < b->nv; v++) {
        fputs("<th colspan=\"2\" class=\"grp\">", o->h);
        html_esc(o->h, b->variants[v]);
        fputs("</th>", o->h);
    }
    fputs("<th colspan=\"2\" class=\"grp\">copy</th></tr>\n<tr>", o->h);
    for (int v = 0; v <= b->nv; v++) fprintf(o->h, "<th class=\"grp\">@%zu</th><th>@%zu</th>", ns, nl);
    fputs("</tr>\n", o->h);
    for (int op = 0; op < PB_OP_COUNT; op++) {
        if (!b->op_on[op]) continue;
        char c[32];
        fmt_num(c, sizeof c, b->bytes_per_joint[op], 3);
        fprintf(o->h, "<tr><td>%s</td><td>%s</td>", pb_op_get((pb_op)op)->name, c);
        for (int v = 0; v <= b->nv; v++) {
            int vi = v == b->nv ? MAXV : v;
            for (int k = 0; k < 2; k++) {
                fmt_num(c, sizeof c, b->gbps[op][vi][k ? r->large_i : r->small_i][0], 3);
                fprintf(o->h, "<td>%s</td>", c);
            }
        }
        fputs("</tr>\n", o->h);
    }
    fputs("</table>\n", o->h);
}
