/* report_read.c — the steps' JSON read back through cJSON (report.h):
 * Google Benchmark's JSON (bench), validate's rows, and frame/budget's. Every
 * figure in the report comes from these files: nothing is measured or
 * estimated here. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"


/* The size column of n (sizes are collected, sorted, before any value is read). */
static int size_index(const bench_data *b, size_t n)
{
    for (int i = 0; i < b->ns; i++)
        if (b->sizes[i] == n) return i;
    return -1;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* Split a benchmark name "<op>/<variant>/<n>[/cold]" or "copy/<op>/<n>[/cold]" (-1 for "<op>/<variant>/<n>/plan"). */
typedef struct bname {
    char buf[160];
    const char *op, *variant;   /* variant NULL for copy */
    size_t n;
    int cold;
} bname;
static int parse_bname(const char *run, bname *o)
{
    char *parts[5];
    int np = 0;
    snprintf(o->buf, sizeof o->buf, "%s", run);
    for (char *save = NULL, *t = strtok_r(o->buf, "/", &save); t && np < 5; t = strtok_r(NULL, "/", &save))
        parts[np++] = t;
    if (np < 3) return -1;
    int copy = !strcmp(parts[0], "copy");
    o->op = copy ? parts[1] : parts[0];
    o->variant = copy ? NULL : parts[1];
    o->n = strtoull(parts[2], NULL, 10);
    o->cold = np >= 4 && !strcmp(parts[3], "cold");
    if (np >= 4 && !strcmp(parts[3], "plan")) return -1;   /* /plan rows: the plan-overhead check, not a kernel row */
    if (np >= 4 && strcmp(parts[3], "cold")) return -1;     /* /t<T> threaded rows: not one thread's figures */
    return o->n ? 0 : -1;
}

static int variant_index(bench_data *b, const char *name)
{
    for (int i = 0; i < b->nv; i++)
        if (!strcmp(b->variants[i], name)) return i;
    if (b->nv == MAXV) return -1;
    snprintf(b->variants[b->nv], sizeof b->variants[0], "%s", name);
    if (!strcmp(name, "scalar")) b->scalar = b->nv;
    return b->nv++;
}

static void copy_str(char *dst, size_t len, const char *src) { snprintf(dst, len, "%s", src ? src : "unknown"); }

static cJSON *load_json(const char *path)
{
    char err[600];
    cJSON *root = json_read_file(path, err, sizeof err);
    if (!root) fprintf(stderr, "posebench report: %s\n", err);
    return root;
}

cJSON *load_rows_json(const char *path)
{
    cJSON *root = load_json(path);
    if (root && !cJSON_IsArray(jget(root, "rows"))) {
        fprintf(stderr, "posebench report: %s has no \"rows\" array\n", path);
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

/* The context (CPU, compiler, flags, caches) from the first file's "context". */
static void read_context(const cJSON *ctx, bench_data *b)
{
    copy_str(b->cpu, sizeof b->cpu, json_str(ctx, "cpu_model"));
    copy_str(b->features, sizeof b->features, json_str(ctx, "cpu_features"));
    copy_str(b->compiler, sizeof b->compiler, json_str(ctx, "compiler"));
    copy_str(b->c_flags, sizeof b->c_flags, json_str(ctx, "c_flags"));
    copy_str(b->kernel_flags, sizeof b->kernel_flags, json_str(ctx, "kernel_flags"));
    copy_str(b->build_type, sizeof b->build_type, json_str(ctx, "build_type"));
    copy_str(b->kernel_opt, sizeof b->kernel_opt, json_str(ctx, "kernel_opt"));
    copy_str(b->stream_bytes, sizeof b->stream_bytes, json_str(ctx, "stream_bytes"));
    copy_str(b->gb_build, sizeof b->gb_build, json_str(ctx, "library_build_type"));
    copy_str(b->date, sizeof b->date, json_str(ctx, "date"));
    copy_str(b->quick, sizeof b->quick, json_str(ctx, "quick"));
    snprintf(b->mhz, sizeof b->mhz, "%.0f", json_num(ctx, "mhz_per_cpu"));
    snprintf(b->ncpu, sizeof b->ncpu, "%.0f", json_num(ctx, "num_cpus"));
    /* variants in the bench's order ("avx512=native,avx2=native,...") */
    const char *vl = json_str(ctx, "variants");
    if (vl) {
        char tmp[512];
        snprintf(tmp, sizeof tmp, "%s", vl);
        for (char *save = NULL, *t = strtok_r(tmp, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            char *eq = strchr(t, '=');
            if (eq) *eq = '\0';
            variant_index(b, t);
        }
    }
    const cJSON *caches = jget(ctx, "caches");
    for (size_t i = 0; i < jlen(caches); i++) {
        const cJSON *c = jat(caches, i);
        const char *type = json_str(c, "type");
        int level = (int)json_num(c, "level");
        if (!type || !strcmp(type, "Instruction") || level < 1 || level > 3) continue;
        b->cache[level - 1] = json_num(c, "size");
    }
    /* Google Benchmark reads the caches from sysfs; where that lists none (some virtual
     * machines) the bench ran on this host moments ago, so take this host's from the C library */
    if (!(b->cache[0] > 0) && !(b->cache[1] > 0) && !(b->cache[2] > 0))
        for (int l = 0; l < 3; l++) b->cache[l] = (double)pb_cache_bytes(l + 1);
}

/* Medians: Google Benchmark's median aggregates; the mean of single runs when
 * there are none. Three figures per row: ns/joint, copy ratio, GB/s. */
static double sum[PB_OP_COUNT][MAXV + 1][MAXS][2][3];   /* static: 0.8 MB */
static int cnt[PB_OP_COUNT][MAXV + 1][MAXS][2];

static void read_rows(const cJSON *list, bench_data *b)
{
    const cJSON *r;
    cJSON_ArrayForEach(r, list) {
        const char *run = json_str(r, "run_name"), *type = json_str(r, "run_type"), *agg = json_str(r, "aggregate_name");
        if (!run) run = json_str(r, "name");
        if (!run || jget(r, "error_occurred")) continue;
        int is_median = type && !strcmp(type, "aggregate") && agg && !strcmp(agg, "median");
        if (type && !strcmp(type, "aggregate") && !is_median) continue;
        bname bn;
        pb_op op;
        if (parse_bname(run, &bn) || pb_op_find(bn.op, &op) != PB_OK) continue;
        int vi = bn.variant ? variant_index(b, bn.variant) : MAXV, si = size_index(b, bn.n), cold = bn.cold;
        size_t n = bn.n;
        if (vi < 0 || si < 0) continue;
        b->op_on[op] = 1;
        double v[3] = { json_num(r, "ns_per_joint"), json_num(r, "copy_ratio"), json_num(r, "bytes_per_s") / 1e9 };
        double bytes = json_num(r, "bytes");
        if (isfinite(bytes) && bytes > 0 && !cold) {
            b->bytes_per_joint[op] = bytes / (double)n;
            b->bytes[op][si] = bytes;
        }
        double *dst[3] = { &b->nspj[op][vi][si][cold], &b->ratio[op][vi][si][cold], &b->gbps[op][vi][si][cold] };
        if (is_median) {
            cnt[op][vi][si][cold] = -1;   /* the aggregate wins */
            for (int k = 0; k < 3; k++) *dst[k] = v[k];
        } else if (cnt[op][vi][si][cold] >= 0) {
            int c = ++cnt[op][vi][si][cold];
            for (int k = 0; k < 3; k++) {
                sum[op][vi][si][cold][k] += isfinite(v[k]) ? v[k] : NAN;
                *dst[k] = sum[op][vi][si][cold][k] / c;
            }
        }
    }
}

int load_bench(const char *const *paths, int npaths, bench_data *b)
{
    enum { MAXF = 4 };
    memset(b, 0, sizeof *b);
    b->scalar = -1;
    cJSON *roots[MAXF] = { NULL };
    int nroots = 0, status = 0;
    for (int i = 0; i < npaths && i < MAXF; i++) {
        roots[nroots] = load_json(paths[i]);
        if (!roots[nroots]) {
            status = -1;
            break;
        }
        nroots++;
    }
    if (status == 0 && nroots == 0) status = -1;
    if (status == 0) {
        read_context(jget(roots[0], "context"), b);
        /* sizes first (sorted), so every value lands in its final column */
        for (int f = 0; f < nroots; f++) {
            const cJSON *r;
            cJSON_ArrayForEach(r, jget(roots[f], "benchmarks")) {
                const char *run = json_str(r, "run_name");
                bname bn;
                if (!run) run = json_str(r, "name");
                if (!run || parse_bname(run, &bn) || size_index(b, bn.n) >= 0 || b->ns == MAXS) continue;
                b->sizes[b->ns++] = bn.n;
            }
        }
        qsort(b->sizes, (size_t)b->ns, sizeof b->sizes[0], cmp_size);
        for (int o = 0; o < PB_OP_COUNT; o++) {
            b->bytes_per_joint[o] = NAN;
            for (int si = 0; si < MAXS; si++) b->bytes[o][si] = NAN;
            for (int v = 0; v <= MAXV; v++)
                for (int si = 0; si < MAXS; si++)
                    for (int c = 0; c < 2; c++)
                        b->nspj[o][v][si][c] = b->ratio[o][v][si][c] = b->gbps[o][v][si][c] = NAN;
        }
        memset(sum, 0, sizeof sum);
        memset(cnt, 0, sizeof cnt);
        for (int f = 0; f < nroots; f++) read_rows(jget(roots[f], "benchmarks"), b);
        b->ok = 1;
    }
    for (int f = 0; f < nroots; f++) cJSON_Delete(roots[f]);
    return status;
}

int load_validate(const char *path, val_data *d)
{
    memset(d, 0, sizeof *d);
    cJSON *root = load_json(path);
    if (!root) return -1;
    /* the rows: the whole file, or its "rows" member (an object may also carry an error record) */
    const cJSON *rows = cJSON_IsArray(root) ? root : jget(root, "rows"), *r;
    cJSON_ArrayForEach(r, rows) {
        const char *opn = json_str(r, "op"), *var = json_str(r, "variant"), *metric = json_str(r, "metric");
        pb_op op;
        if (!opn || !var) continue;
        const char *ms = json_str(r, "mocap_skipped");   /* the real-data class not run, and why */
        if (ms && !d->mocap_skipped[0]) copy_str(d->mocap_skipped, sizeof d->mocap_skipped, ms);
        if (pb_op_find(opn, &op) != PB_OK) {
            /* the tables that are not pose ops (skinning, motion matching, blend spaces, the N-way blend):
             * counted in the totals and the failures; the heat map has a row per pose op */
            int pass = json_bool(r, "pass", 1);
            d->rows++, d->other_rows++;
            if (!pass) {
                d->fails++;
                if (d->nfail_list < 32)
                    snprintf(d->fail_list[d->nfail_list++], sizeof d->fail_list[0], "%s %s %s: max_err %.3g, bound %.3g",
                             opn, var, metric ? metric : "?", json_num(r, "max_err"), json_num(r, "bound"));
            }
            continue;
        }
        int vi = -1;
        for (int k = 0; k < d->nv; k++)
            if (!strcmp(d->variants[k], var)) vi = k;
        if (vi < 0 && d->nv < MAXV) {
            vi = d->nv++;
            snprintf(d->variants[vi], sizeof d->variants[vi], "%s", var);
            copy_str(d->modes[vi], sizeof d->modes[vi], json_str(r, "mode"));
        }
        if (vi < 0) continue;
        val_cell *c = &d->cell[op][vi];
        d->op_on[op] = 1;
        d->rows++;
        c->rows++;
        int pass = json_bool(r, "pass", 1);
        if (!pass) {
            d->fails++;
            c->fails++;
            if (d->nfail_list < 32)
                snprintf(d->fail_list[d->nfail_list++], sizeof d->fail_list[0], "%s %s %s: max_err %.3g, bound %.3g",
                         opn, var, metric ? metric : "?", json_num(r, "max_err"), json_num(r, "bound"));
        }
        /* the worst ratio to its bound: the metric, the method error, the velocity check */
        const char *pairs[3][2] = { { "max_err", "bound" }, { "method_err", "method_bound" },
                                    { "vel_consistency", "vel_bound" } };
        for (int k = 0; k < 3; k++) {
            double e = json_num(r, pairs[k][0]), b = json_num(r, pairs[k][1]);
            if (!(isfinite(e) && isfinite(b) && b > 0)) continue;
            double q = e / b;
            if (c->worst_metric[0] == '\0' || q > c->worst) {
                c->worst = q;
                snprintf(c->worst_metric, sizeof c->worst_metric, "%s%s", metric ? metric : "?",
                         k == 1 ? " (method)" : k == 2 ? " (velchk)" : "");
            }
        }
    }
    d->ok = cJSON_IsArray(rows);
    cJSON_Delete(root);
    return d->ok ? 0 : -1;
}

