/* validate.c — the harness: for every op (registry) x variant (dispatch
 * table, native and emulated) x input case, run the double oracle, the float
 * reference and the variant on the same inputs; accumulate per-metric errors;
 * judge against the tolerance table; report rows. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "validate.h"

typedef struct { pb_class cls; size_t n; float alpha; } vcase;

static const float alphas[] = { 0.5f, 0.0f, 1.0f, 0.25f, 0.75f, 1e-3f, 0.999f, 0.37f };
static const size_t sizes[] = { 1, 15, 16, 17, 1000 };
#define BIG_N 100003

static size_t make_cases(vcase *c, int quick)
{
    size_t k = 0;
    for (int cl = 0; cl < PB_CLASS_MIXED; cl++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++, k++)
            c[k] = (vcase){ (pb_class)cl, sizes[s], alphas[k % (sizeof alphas / sizeof alphas[0])] };
    c[k++] = (vcase){ PB_CLASS_MIXED, 1000, 0.37f };
    if (!quick) c[k++] = (vcase){ PB_CLASS_MIXED, BIG_N, 0.61f };
    return k;
}

/* Growing per-(variant, metric) error sample, for max and percentile. */
typedef struct {
    double *err;
    size_t n, cap;
    double max, vs_ref, class_max[PB_CLASSES];
} acc;

static int acc_push(acc *a, const double *e, size_t n, pb_class cls)
{
    if (a->n + n > a->cap) {
        size_t cap = (a->cap + n) * 2;
        double *p = realloc(a->err, cap * sizeof *p);
        if (!p) return -1;
        a->err = p;
        a->cap = cap;
    }
    for (size_t i = 0; i < n; i++) {
        a->err[a->n++] = e[i];
        if (e[i] > a->max) a->max = e[i];
        if (e[i] > a->class_max[cls]) a->class_max[cls] = e[i];
    }
    return 0;
}
static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}
static double percentile99(acc *a)
{
    if (a->n == 0) return 0;
    qsort(a->err, a->n, sizeof *a->err, cmp_double);
    return a->err[(size_t)floor(0.99 * (double)(a->n - 1))];
}

/* Buffers for one case. */
typedef struct {
    pb_pose a, b, out;
    pb_pose_aos aos_in, aos_out;
    float *aos_mem[2];
    pb_dpose da, db, oracle, method, ref, test;
} bufs;

static int aos_alloc(pb_pose_aos *a, float **mem, size_t n)
{
    size_t per = 3 + 4 + 3 * 4;   /* pos, rot, scl, vel, ang, svl */
    *mem = malloc(n * per * sizeof(float));
    if (!*mem) return -1;
    float *p = *mem;
    a->n = n;
    a->pos = (pb_vec3 *)p; p += 3 * n;
    a->rot = (pb_quat *)p; p += 4 * n;
    a->scl = (pb_vec3 *)p; p += 3 * n;
    a->vel = (pb_vec3 *)p; p += 3 * n;
    a->ang = (pb_vec3 *)p; p += 3 * n;
    a->svl = (pb_vec3 *)p;
    return 0;
}

static void bufs_free(bufs *b)
{
    pb_pose_free(&b->a); pb_pose_free(&b->b); pb_pose_free(&b->out);
    free(b->aos_mem[0]); free(b->aos_mem[1]);
    pb_dpose_free(&b->da); pb_dpose_free(&b->db); pb_dpose_free(&b->oracle);
    pb_dpose_free(&b->method); pb_dpose_free(&b->ref); pb_dpose_free(&b->test);
}

static int bufs_alloc(bufs *b, size_t n)
{
    memset(b, 0, sizeof *b);
    if (pb_pose_alloc(&b->a, n) || pb_pose_alloc(&b->b, n) || pb_pose_alloc(&b->out, n) ||
        aos_alloc(&b->aos_in, &b->aos_mem[0], n) || aos_alloc(&b->aos_out, &b->aos_mem[1], n) ||
        pb_dpose_alloc(&b->da, n) || pb_dpose_alloc(&b->db, n) || pb_dpose_alloc(&b->oracle, n) ||
        pb_dpose_alloc(&b->method, n) || pb_dpose_alloc(&b->ref, n) || pb_dpose_alloc(&b->test, n)) {
        bufs_free(b);
        return -1;
    }
    return 0;
}

/* Run the double oracle of op on the case's inputs into d. */
static void run_oracle(pb_op op, bufs *b, float alpha, pb_dpose *d)
{
    pb_kargs_f64 k;
    memset(&k, 0, sizeof k);
    k.n = b->da.n;
    k.n_padded = b->da.n_padded;
    for (int i = 0; i < PB_PLANES; i++) {
        k.a[i] = b->da.plane[i];
        k.b[i] = b->db.plane[i];
        k.out[i] = d->plane[i];
        d->plane[i][0] = 0;
    }
    for (int a = 0; a < PB_AOS_ARRAYS; a++) {
        k.aos_in[a] = b->da.aos[a];
        k.aos_out[a] = d->aos[a];
    }
    /* Outputs start at identity so planes an op does not write compare equal. */
    for (int i = 0; i < PB_PLANES; i++)
        for (size_t j = 0; j < d->n_padded; j++) d->plane[i][j] = pb_plane_identity(i);
    k.p.alpha = alpha;
    pb_ref_f64_table[op](&k);
}

/* Run variant v through the public entry point (so argument checks and
 * padding restoration are exercised too) into d. Outputs are pre-filled with
 * NaN so a lane a kernel forgets to write is caught. */
static pb_status run_variant(pb_op op, const pb_variant *v, bufs *b, float alpha, pb_dpose *d)
{
    const pb_op_info *info = pb_op_get(op);
    size_t n = b->a.n;
    for (int i = 0; i < PB_PLANES; i++)
        for (size_t j = 0; j < n; j++) b->out.plane[i][j] = NAN;
    float *aos_out[PB_AOS_ARRAYS] = { &b->aos_out.pos->x, &b->aos_out.rot->w, &b->aos_out.scl->x,
                                       &b->aos_out.vel->x, &b->aos_out.ang->x, &b->aos_out.svl->x };
    for (int a = 0; a < PB_AOS_ARRAYS; a++)
        for (size_t j = 0; j < n * (size_t)pb_aos_width[a]; j++) aos_out[a][j] = NAN;
    /* planes the op does not write: identity, to match the oracle */
    for (int g = 0; g < PB_GROUPS; g++)
        if (!(info->out & (1u << g)))
            for (int p = pb_group_first((pb_group)g); p < pb_group_first((pb_group)g) + pb_group_size((pb_group)g); p++)
                for (size_t j = 0; j < n; j++) b->out.plane[p][j] = pb_plane_identity(p);
    pb_call c = { .a = &b->a, .b = &b->b, .out = &b->out, .aos_in = &b->aos_in, .aos_out = &b->aos_out,
                  .params = { .alpha = alpha } };
    pb_status s = pb_run(op, v, &c);
    if (s != PB_OK) return s;
    pb_dpose_from_pose(d, &b->out);
    pb_dpose_from_aos(d, &b->aos_out);
    return PB_OK;
}

static int variant_selected(const pb_variant *v, const char *filter)
{
    if (!filter) return 1;
    return strcmp(filter, pb_variant_name(v)) == 0 || strcmp(filter, pb_variant_isa(v)) == 0;
}

/* Variants to validate: those selected that this build has and this CPU runs. */
static size_t pick_variants(const char *filter, const pb_variant **out, FILE *note)
{
    size_t k = 0;
    for (size_t i = 0; i < pb_variant_count(); i++) {
        const pb_variant *v = pb_variant_at(i);
        if (!variant_selected(v, filter)) continue;
        if (pb_variant_check(v) != PB_OK) {
            if (note) fprintf(note, "# skipped %s: %s\n", pb_variant_name(v), pb_last_error());
            continue;
        }
        out[k++] = v;
    }
    return k;
}

#define MAXV 16

int pb_validate(const pb_validate_opts *o, pb_row_fn row_fn, void *user)
{
    const pb_variant *vars[MAXV];
    size_t nv = pick_variants(o->variant, vars, o->table);
    if (nv == 0) {
        pb_fail(PB_ERR_VARIANT, "no runnable variant matches '%s'", o->variant ? o->variant : "(all)");
        return -1;
    }
    const pb_variant *scalar = NULL;
    pb_variant_find("scalar", &scalar);
    pb_op only = PB_OP_COUNT;
    if (o->op && pb_op_find(o->op, &only) != PB_OK) return -1;

    vcase cases[64];
    size_t ncases = make_cases(cases, o->quick);
    size_t maxn = 0;
    for (size_t c = 0; c < ncases; c++)
        if (cases[c].n > maxn) maxn = cases[c].n;
    double *err = malloc(maxn * sizeof *err);
    if (!err) {
        pb_fail(PB_ERR_NOMEM, "validate: out of memory");
        return -1;
    }
    int failures = 0;

    for (int op = 0; op < PB_OP_COUNT; op++) {
        if (only != PB_OP_COUNT && op != (int)only) continue;
        const pb_op_info *info = pb_op_get((pb_op)op);
        const pb_tolerance *tol = pb_tolerance_for(info->name);
        if (!tol) {
            pb_fail(PB_ERR_OP, "op '%s' has no row in the tolerance table", info->name);
            free(err);
            return -1;
        }
        pb_metric m[PB_MAX_METRICS];
        int nm = pb_metrics_for(info, m);
        acc accs[MAXV][PB_MAX_METRICS], ref[PB_MAX_METRICS];
        double method_max[PB_MAX_METRICS] = { 0 };
        size_t nan[MAXV] = { 0 }, pad_bad[MAXV] = { 0 };
        memset(accs, 0, sizeof accs);
        memset(ref, 0, sizeof ref);

        for (size_t ci = 0; ci < ncases; ci++) {
            const vcase *cs = &cases[ci];
            bufs b;
            if (bufs_alloc(&b, cs->n)) {
                pb_fail(PB_ERR_NOMEM, "validate: out of memory for n = %zu", cs->n);
                failures = -1;
                goto done;
            }
            pb_gen_case(&b.a, &b.b, cs->cls, o->seed + ci * 7919u, info);
            /* AoS input (pose_from_aos): the case's pose a in engine layout. */
            pb_call to = { .a = &b.a, .aos_out = &b.aos_in };
            pb_run(PB_OP_pose_to_aos, scalar, &to);
            pb_dpose_from_pose(&b.da, &b.a);
            pb_dpose_from_pose(&b.db, &b.b);
            pb_dpose_from_aos(&b.da, &b.aos_in);

            run_oracle((pb_op)op, &b, cs->alpha, &b.oracle);
            if (info->method_of >= 0) run_oracle((pb_op)info->method_of, &b, cs->alpha, &b.method);
            pb_status s = run_variant((pb_op)op, scalar, &b, cs->alpha, &b.ref);
            for (int mi = 0; mi < nm && s == PB_OK; mi++) {
                pb_metric_eval(&m[mi], &b.ref, &b.oracle, err);
                acc_push(&ref[mi], err, cs->n, cs->cls);
                if (info->method_of >= 0) {
                    /* Method error in absolute terms for scalar approximations:
                     * fast_negexp's relative error where exp(-x) ~ 1e-7 says nothing useful. */
                    pb_metric mm = m[mi];
                    if (mm.kind == PB_M_SCL_REL) mm.kind = PB_M_SCL_ABS;
                    pb_metric_eval(&mm, &b.oracle, &b.method, err);
                    for (size_t i = 0; i < cs->n; i++) method_max[mi] = fmax(method_max[mi], err[i]);
                }
            }
            for (size_t vi = 0; vi < nv && s == PB_OK; vi++) {
                s = run_variant((pb_op)op, vars[vi], &b, cs->alpha, &b.test);
                if (s != PB_OK) break;
                if (pb_pose_check(&b.out, "out") != PB_OK) pad_bad[vi]++;
                nan[vi] += pb_count_nan(info, &b.test, &b.oracle);
                for (int mi = 0; mi < nm; mi++) {
                    pb_metric_eval(&m[mi], &b.test, &b.oracle, err);
                    if (acc_push(&accs[vi][mi], err, cs->n, cs->cls)) s = PB_ERR_NOMEM;
                    pb_metric_eval(&m[mi], &b.test, &b.ref, err);
                    for (size_t i = 0; i < cs->n; i++) accs[vi][mi].vs_ref = fmax(accs[vi][mi].vs_ref, err[i]);
                }
            }
            bufs_free(&b);
            if (s != PB_OK) {
                pb_fail(s, "validate: %s, case %s n=%zu: %s", info->name, pb_class_name(cs->cls), cs->n,
                        pb_last_error());
                failures = -1;
                goto done;
            }
        }

        /* n = 0 must be rejected cleanly by every variant, with nothing written. */
        int rejects_empty[MAXV];
        for (size_t vi = 0; vi < nv; vi++) {
            bufs z;
            rejects_empty[vi] = 0;
            if (bufs_alloc(&z, 1) == 0) {
                z.a.n = z.b.n = z.out.n = 0;
                z.aos_in.n = z.aos_out.n = 0;
                pb_call c = { .a = &z.a, .b = &z.b, .out = &z.out, .aos_in = &z.aos_in, .aos_out = &z.aos_out };
                rejects_empty[vi] = pb_run((pb_op)op, vars[vi], &c) == PB_ERR_EMPTY &&
                                    z.out.plane[PB_ROT_W][0] == 1.0f && z.out.plane[PB_POS_X][0] == 0.0f;
                bufs_free(&z);
            }
        }
        for (size_t vi = 0; vi < nv; vi++)
            for (int mi = 0; mi < nm; mi++) {
                pb_val_row r;
                memset(&r, 0, sizeof r);
                r.op = info->name;
                r.variant = pb_variant_name(vars[vi]);
                r.mode = pb_variant_mode(vars[vi]) == PB_MODE_NATIVE ? "native" : "emulated";
                r.metric = m[mi];
                r.max_err = accs[vi][mi].max;
                r.p99_err = percentile99(&accs[vi][mi]);
                r.ref_err = ref[mi].max;
                r.var_vs_ref = accs[vi][mi].vs_ref;
                memcpy(r.class_max, accs[vi][mi].class_max, sizeof r.class_max);
                double floor_ = pb_tolerance_floor(tol, m[mi].kind);
                r.bound = floor_ < 0 ? -1 : fmax(tol->k * r.ref_err, floor_);
                r.method_err = info->method_of >= 0 ? method_max[mi] : -1;
                r.method_bound = (info->flags & PB_OPF_EST) ? tol->method_bound : -1;
                r.nan = nan[vi];
                r.pad_bad = pad_bad[vi];
                r.rejects_empty = rejects_empty[vi];
                r.pass = r.nan == 0 && r.pad_bad == 0 && r.rejects_empty && (r.bound < 0 || r.max_err <= r.bound) &&
                         (r.method_bound < 0 || r.method_err <= r.method_bound);
                if (!r.pass) failures++;
                if (row_fn) row_fn(&r, user);
            }
    done:
        for (size_t vi = 0; vi < MAXV; vi++)
            for (int mi = 0; mi < PB_MAX_METRICS; mi++) free(accs[vi][mi].err);
        for (int mi = 0; mi < PB_MAX_METRICS; mi++) free(ref[mi].err);
        if (failures < 0) break;
    }
    free(err);
    return failures;
}

/* ---- report: a table line per op x variant (its worst metric), JSON rows ---- */
typedef struct {
    const pb_validate_opts *o;
    pb_val_row worst;
    int have, any_fail, rows;
    double worst_ratio;
} report;

static double ratio(const pb_val_row *r)
{
    if (!r->pass) return INFINITY;
    if (r->bound < 0) return -1;
    return r->bound > 0 ? r->max_err / r->bound : (r->max_err > 0 ? INFINITY : 0);
}

static void print_row(FILE *f, const pb_val_row *r, int fail)
{
    char method[16] = "-";
    if (r->method_err >= 0) snprintf(method, sizeof method, "%.2e", r->method_err);
    char bound[16] = "report";
    if (r->bound >= 0) snprintf(bound, sizeof bound, "%.2e", r->bound);
    fprintf(f, "%-28s %-11s %-8s %-10s %9.2e %9.2e %9.2e %9.2e %9s %9s %5zu  %s\n", r->op, r->variant, r->mode,
            r->metric.name, r->max_err, r->p99_err, r->ref_err, r->var_vs_ref, bound, method, r->nan,
            fail ? (r->rejects_empty ? "FAIL" : "FAIL (n = 0 not rejected)") : "pass");
}

static void flush(report *rp)
{
    if (rp->have && !rp->o->verbose && rp->o->table) print_row(rp->o->table, &rp->worst, rp->any_fail);
    rp->have = 0;
    rp->any_fail = 0;
}

static void json_num(FILE *f, const char *key, double v)
{
    if (isfinite(v)) fprintf(f, "\"%s\": %.6g", key, v);
    else fprintf(f, "\"%s\": null", key);
}

static void on_row(const pb_val_row *r, void *user)
{
    report *rp = user;
    const pb_validate_opts *o = rp->o;
    if (rp->have && (strcmp(rp->worst.op, r->op) || strcmp(rp->worst.variant, r->variant))) flush(rp);
    if (!rp->have || ratio(r) > rp->worst_ratio) {
        rp->worst = *r;
        rp->worst_ratio = ratio(r);
    }
    rp->have = 1;
    rp->any_fail |= !r->pass;
    if (o->verbose && o->table) print_row(o->table, r, !r->pass);
    if (o->json) {
        FILE *f = o->json;
        fprintf(f, "%s\n  {\"op\": \"%s\", \"variant\": \"%s\", \"mode\": \"%s\", \"metric\": \"%s\", \"unit\": \"%s\", "
                   "\"pass\": %s, ",
                rp->rows ? "," : "", r->op, r->variant, r->mode, r->metric.name, r->metric.unit,
                r->pass ? "true" : "false");
        json_num(f, "max_err", r->max_err); fputs(", ", f);
        json_num(f, "p99_err", r->p99_err); fputs(", ", f);
        json_num(f, "ref_err", r->ref_err); fputs(", ", f);
        json_num(f, "var_vs_ref", r->var_vs_ref); fputs(", ", f);
        if (r->bound >= 0) json_num(f, "bound", r->bound); else fputs("\"bound\": null", f);
        fputs(", ", f);
        if (r->method_err >= 0) json_num(f, "method_err", r->method_err); else fputs("\"method_err\": null", f);
        fputs(", ", f);
        if (r->method_bound >= 0) json_num(f, "method_bound", r->method_bound); else fputs("\"method_bound\": null", f);
        fprintf(f, ", \"nan\": %zu, \"padding_bad\": %zu, \"rejects_n0\": %s, \"classes\": {", r->nan, r->pad_bad,
                r->rejects_empty ? "true" : "false");
        for (int c = 0; c < PB_CLASSES; c++) {
            fprintf(f, "%s\"%s\": ", c ? ", " : "", pb_class_name((pb_class)c));
            fprintf(f, isfinite(r->class_max[c]) ? "%.6g" : "null", r->class_max[c]);
        }
        fputs("}}", f);
    }
    rp->rows++;
}

int pb_validate_report(const pb_validate_opts *o)
{
    report rp;
    memset(&rp, 0, sizeof rp);
    rp.o = o;
    if (o->table)
        fprintf(o->table, "%-28s %-11s %-8s %-10s %9s %9s %9s %9s %9s %9s %5s  %s\n", "op", "variant", "mode",
                o->verbose ? "metric" : "worst", "max", "p99", "ref", "vs_ref", "bound", "method", "nan", "verdict");
    if (o->json) fputs("[", o->json);
    int fails = pb_validate(o, on_row, &rp);
    flush(&rp);
    if (o->json) fputs("\n]\n", o->json);
    return fails;
}
