/* table.c — the validation's front end: one table line per op x form x
 * variant (its worst metric; --verbose: every metric) and the JSON rows of
 * every table (the pose ops' and, through pb_val_emit, skinning, motion
 * matching, blend-space weights and the N-way blend), written once with
 * Debian's cJSON. When the run cannot start or stops on an error (a BVH that
 * does not load, an unknown op or variant) the JSON is an error record, not
 * an empty list, so a reader can tell "nothing failed" from "nothing ran". */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "validate.h"

struct pb_val_json {
    cJSON *rows;
    int oom;
    const char *mocap_skipped;   /* NULL: used */
};

typedef struct {
    const pb_validate_opts *o;
    pb_val_row worst;
    int have, any_fail;
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
    char vel[16] = "-";
    if (r->vel_consistency >= 0) snprintf(vel, sizeof vel, "%.2e", r->vel_consistency);
    char opf[64];
    if (strcmp(r->form, "full") == 0) snprintf(opf, sizeof opf, "%s", r->op);
    else snprintf(opf, sizeof opf, "%s[%s]", r->op, r->form);
    fprintf(f, "%-34s %-11s %-8s %-10s %9.2e %9.2e %9.2e %9.2e %9s %9s %9s %5zu  %s\n", opf, r->variant, r->mode,
            r->metric.name, r->max_err, r->p99_err, r->ref_err, r->var_vs_ref, bound, method, vel, r->nan,
            fail ? (!r->rejects_empty ? "FAIL (n = 0 not rejected)" : r->inplace_bad ? "FAIL (in place differs)" : "FAIL")
                 : "pass");
}

static void flush_worst(report *rp)
{
    if (rp->have && !rp->o->verbose && rp->o->table) print_row(rp->o->table, &rp->worst, rp->any_fail);
    if (rp->have && rp->o->table && rp->worst.ill_posed)
        fprintf(rp->o->table, "#   %zu of %zu elements ill-posed at float precision, left out (runner.c)\n",
                rp->worst.ill_posed, rp->worst.elements);
    rp->have = 0;
    rp->any_fail = 0;
}

/* A number, or null where there is none (negative: "not applicable"; non-finite). */
static int add_num(cJSON *obj, const char *key, double v, int negative_is_null)
{
    cJSON *item = (!isfinite(v) || (negative_is_null && v < 0)) ? cJSON_CreateNull() : cJSON_CreateNumber(v);
    return item && cJSON_AddItemToObject(obj, key, item) ? 0 : -1;
}

static cJSON *row_json(const pb_val_row *r, const char *mocap_skipped)
{
    cJSON *o = cJSON_CreateObject(), *classes = cJSON_CreateObject();
    int bad = !o || !classes;
    bad |= !cJSON_AddStringToObject(o, "op", r->op) || !cJSON_AddStringToObject(o, "form", r->form) ||
           !cJSON_AddStringToObject(o, "variant", r->variant) || !cJSON_AddStringToObject(o, "mode", r->mode) ||
           !cJSON_AddStringToObject(o, "metric", r->metric.name) || !cJSON_AddStringToObject(o, "unit", r->metric.unit) ||
           !cJSON_AddBoolToObject(o, "pass", r->pass);
    bad |= add_num(o, "max_err", r->max_err, 0) | add_num(o, "p99_err", r->p99_err, 0) |
           add_num(o, "ref_err", r->ref_err, 0) | add_num(o, "var_vs_ref", r->var_vs_ref, 0) |
           add_num(o, "bound", r->bound, 1) | add_num(o, "method_err", r->method_err, 1) |
           add_num(o, "method_bound", r->method_bound, 1) | add_num(o, "vel_consistency", r->vel_consistency, 1) |
           add_num(o, "vel_bound", r->vel_bound, 1) | add_num(o, "nan", (double)r->nan, 0) |
           add_num(o, "padding_bad", (double)r->pad_bad, 0) | add_num(o, "state_bad", (double)r->state_bad, 0) |
           add_num(o, "inplace_bad", (double)r->inplace_bad, 0) | add_num(o, "ill_posed", (double)r->ill_posed, 0) |
           add_num(o, "elements", (double)r->elements, 0);
    /* the other tables' rows (elements counted, class_max -1) make no n = 0 check and have no classes */
    bad |= r->rejects_empty < 0 ? !cJSON_AddNullToObject(o, "rejects_n0") : !cJSON_AddBoolToObject(o, "rejects_n0", r->rejects_empty);
    bad |= !cJSON_AddStringToObject(o, "mocap", mocap_skipped ? "skipped" : "used");
    if (mocap_skipped) bad |= !cJSON_AddStringToObject(o, "mocap_skipped", mocap_skipped);
    for (int c = 0; c < PB_CLASSES && !bad; c++) {
        double v = c == PB_CLASS_MOCAP && mocap_skipped ? -1 : r->class_max[c];   /* not run: null, not 0 */
        bad |= add_num(classes, pb_class_name((pb_class)c), v, 1);
    }
    if (!bad && cJSON_AddItemToObject(o, "classes", classes)) return o;
    cJSON_Delete(classes);   /* not attached to o */
    cJSON_Delete(o);
    return NULL;
}

static void on_row(const pb_val_row *r, void *user)
{
    report *rp = user;
    const pb_validate_opts *o = rp->o;
    if (rp->have && (strcmp(rp->worst.op, r->op) || strcmp(rp->worst.form, r->form) ||
                     strcmp(rp->worst.variant, r->variant)))
        flush_worst(rp);
    if (!rp->have || ratio(r) > rp->worst_ratio) {
        rp->worst = *r;
        rp->worst_ratio = ratio(r);
    }
    rp->have = 1;
    rp->any_fail |= !r->pass;
    if (o->verbose && o->table) print_row(o->table, r, !r->pass);
    if (o->json) pb_val_json_row(r, o->json);
}

pb_val_json *pb_val_json_new(const char *mocap_skipped)
{
    pb_val_json *j = calloc(1, sizeof *j);
    if (j && !(j->rows = cJSON_CreateArray())) {
        free(j);
        j = NULL;
    }
    if (j) j->mocap_skipped = mocap_skipped;
    return j;
}

void pb_val_json_free(pb_val_json *j)
{
    if (!j) return;
    cJSON_Delete(j->rows);
    free(j);
}

void pb_val_json_row(const pb_val_row *r, void *user)
{
    pb_val_json *j = user;
    if (!j || j->oom) return;
    cJSON *row = row_json(r, j->mocap_skipped);
    if (!row || !cJSON_AddItemToArray(j->rows, row)) {
        cJSON_Delete(row);
        j->oom = 1;
    }
}

void pb_val_emit(const pb_val_sink *sink, const char *op, const char *form, const pb_variant *v, const char *metric,
                 const char *unit, double err, double ref, double bound, size_t elements, size_t nonfinite, int pass)
{
    if (!sink || !sink->fn) return;
    pb_val_row r;
    memset(&r, 0, sizeof r);
    r.op = op;
    r.form = form;
    r.variant = pb_variant_name(v);
    r.mode = pb_variant_mode(v) == PB_MODE_NATIVE ? "native" : "emulated";
    snprintf(r.metric.name, sizeof r.metric.name, "%s", metric);
    r.metric.unit = unit;
    r.max_err = err;
    r.p99_err = NAN;
    r.ref_err = ref < 0 ? NAN : ref;
    r.var_vs_ref = NAN;
    r.bound = bound;
    r.method_err = r.method_bound = r.vel_consistency = r.vel_bound = -1;
    r.nan = nonfinite;
    r.rejects_empty = -1;
    r.elements = elements;
    for (int c = 0; c < PB_CLASSES; c++) r.class_max[c] = -1;
    r.pass = pass;
    sink->fn(&r, sink->user);
}

/* The rows, one object per line; 0 or -1 (out of memory, write error). */
static int write_rows(FILE *f, const cJSON *rows)
{
    int bad = fputs("[", f) < 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, rows) {
        char *s = cJSON_PrintUnformatted(row);
        if (!s) return -1;
        bad |= fprintf(f, "%s\n  %s", row == rows->child ? "" : ",", s) < 0;
        cJSON_free(s);
    }
    bad |= fputs("\n]\n", f) < 0;
    return bad ? -1 : 0;
}

/* e[key] = the n strings (nothing when there are none); 0 on success. */
static int add_strings(cJSON *e, const char *key, const char *const *strs, size_t n)
{
    if (!strs || !n) return 0;
    cJSON *arr = cJSON_CreateStringArray(strs, (int)n);
    if (arr && cJSON_AddItemToObject(e, key, arr)) return 0;
    cJSON_Delete(arr);
    return -1;
}

/* {"error": message, "op": ..., "ops": [...], "variant": ..., "bvh": [...]}: why there are no rows. */
static int write_error(FILE *f, const pb_validate_opts *o, const char *msg)
{
    cJSON *e = cJSON_CreateObject();
    int bad = !e || !cJSON_AddStringToObject(e, "error", msg);
    if (!bad && o->op) bad = !cJSON_AddStringToObject(e, "op", o->op);
    if (!bad) bad = add_strings(e, "ops", o->ops, o->nops) != 0;
    if (!bad && o->variant) bad = !cJSON_AddStringToObject(e, "variant", o->variant);
    if (!bad) bad = add_strings(e, "bvh", o->bvh, o->nbvh) != 0;
    char *s = bad ? NULL : cJSON_Print(e);
    cJSON_Delete(e);
    if (!s) return -1;
    bad = fprintf(f, "%s\n", s) < 0;
    cJSON_free(s);
    return bad ? -1 : 0;
}

int pb_val_json_write(pb_val_json *j, FILE *f, const pb_validate_opts *o, const char *error)
{
    int bad = error ? write_error(f, o, error) : j->oom || write_rows(f, j->rows);
    if (bad) pb_fail(PB_ERR_NOMEM, "validate: cannot write the JSON rows (out of memory or write error)");
    return bad ? -1 : 0;
}

int pb_validate_report(const pb_validate_opts *o)
{
    report rp;
    memset(&rp, 0, sizeof rp);
    rp.o = o;
    if (o->table)
        fprintf(o->table, "%-34s %-11s %-8s %-10s %9s %9s %9s %9s %9s %9s %9s %5s  %s\n", "op", "variant", "mode",
                o->verbose ? "metric" : "worst", "max", "p99", "ref", "vs_ref", "bound", "method", "velchk", "nan",
                "verdict");
    int fails = pb_validate(o, on_row, &rp);
    flush_worst(&rp);
    return fails;
}
