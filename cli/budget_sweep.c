/* budget_sweep.c — `posebench budget --sweep PARAM=V1,V2,...`: the transition
 * sets played again at each value of one per-transition parameter (the
 * window's duration, dead blending's extrapolation half-life, or the scale,
 * min or max of Unreal's half-life estimate), so a user picks a method and its
 * setting. The hard set keeps its authored durations (0.05-0.4 s), so a
 * duration sweep plays the real and interrupted sets. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "budget_sweep.h"
#include "internal.h"   /* pb_fail */
#include "num.h"

static const char *const names[BW_NPARAMS] = { "duration", "halflife", "halflife-scale", "halflife-min",
                                                "halflife-max" };

/* a value of an estimate parameter against the other two as given: 0, or -1 after a message */
static int hl_value_ok(const char *spec, int param, int at, double value, const float hl[3])
{
    float h[3] = { hl[0], hl[1], hl[2] };
    h[param - BW_HL_SCALE] = (float)value;
    if (pb_halflife_est_check("--sweep", h[0], h[1], h[2]) == PB_OK) return 0;
    fprintf(stderr, "posebench budget: --sweep %s: value %d (%g): %s\n", spec, at, value, pb_last_error());
    return -1;
}

int bw_parse(const char *spec, const float hl[3], bw_sweep *w)
{
    memset(w, 0, sizeof *w);
    const char *eq = strchr(spec, '=');
    size_t n = eq ? (size_t)(eq - spec) : 0;
    w->param = -1;
    for (int k = 0; k < BW_NPARAMS && eq; k++)
        if (n == strlen(names[k]) && !strncmp(spec, names[k], n)) w->param = k;
    if (w->param < 0) {
        fprintf(stderr, "posebench budget: --sweep %s: expected duration=V1,V2,... (or halflife, halflife-scale, "
                        "halflife-min, halflife-max)\n", spec);
        return -1;
    }
    const char *p = eq + 1;
    while (*p) {
        char buf[64];
        size_t k = strcspn(p, ",");
        if (w->n >= BW_MAX_VALUES || k == 0 || k >= sizeof buf) {
            fprintf(stderr, "posebench budget: --sweep %s: value %d %s (at most %d values, each a number)\n", spec,
                    w->n + 1, w->n >= BW_MAX_VALUES ? "is one too many" : "is empty or too long", BW_MAX_VALUES);
            return -1;
        }
        memcpy(buf, p, k);
        buf[k] = '\0';
        double lo = w->param == BW_DURATION ? 0.02 : 0, hi = w->param >= BW_HL_SCALE ? PB_HALFLIFE_EST_LIMIT : 10;
        if (num_real(buf, lo, hi, &w->value[w->n]) != 0) {
            fprintf(stderr, "posebench budget: --sweep %s: value %d \"%s\" is not a number in [%g, %g]%s%s\n", spec,
                    w->n + 1, buf, lo, hi, *bw_param_unit(w) ? " " : "", bw_param_unit(w));
            return -1;
        }
        if (w->param >= BW_HL_SCALE && hl_value_ok(spec, w->param, w->n + 1, w->value[w->n], hl) != 0) return -1;
        w->n++;
        p += k;
        if (*p == ',' && !*++p) {
            fprintf(stderr, "posebench budget: --sweep %s: a value after the last ','\n", spec);
            return -1;
        }
    }
    if (!w->n) {
        fprintf(stderr, "posebench budget: --sweep %s: no values\n", spec);
        return -1;
    }
    return 0;
}

const char *bw_param_name(const bw_sweep *w) { return names[w->param]; }
const char *bw_param_unit(const bw_sweep *w) { return w->param == BW_HL_SCALE ? "" : "s"; }

pb_status bw_run(bw_sweep *w, bs_ctx *x, const pb_frame_method *methods, int nm, float duration)
{
    w->sets = calloc((size_t)w->n * BW_SETS, sizeof *w->sets);
    if (!w->sets) return pb_fail(PB_ERR_NOMEM, "sweep: out of memory (%d values)", w->n);
    float keep = x->halflife, keep_hl[3] = { x->hl[0], x->hl[1], x->hl[2] };
    pb_status st = PB_OK;
    for (int i = 0; i < w->n && st == PB_OK; i++) {
        float d = w->param == BW_DURATION ? (float)w->value[i] : duration;
        if (w->param == BW_HALFLIFE) x->halflife = (float)w->value[i];
        if (w->param >= BW_HL_SCALE) x->hl[w->param - BW_HL_SCALE] = (float)w->value[i];
        bs_set *s = &w->sets[(size_t)i * BW_SETS];
        bs_make_real(x, &s[0], 5901, d);
        bs_make_interrupted(x, &s[1], 5903, d, 4);
        if (w->param != BW_DURATION) bs_make_hard(x, &s[2], 5902);
        else memset(&s[2], 0, sizeof s[2]), s[2].name = "hard";
        for (int k = 0; k < BW_SETS && st == PB_OK; k++) st = bs_measure(x, &s[k], methods, nm);
    }
    x->halflife = keep;
    memcpy(x->hl, keep_hl, sizeof keep_hl);
    return st;
}

static const int cols[] = { PB_QM_JERK_RMS, PB_QM_POP_VEL, PB_QM_DEV_CM, PB_QM_DAMPING, PB_QM_LIMIT_DEG_S, PB_QM_SLIDE_M };
#define NCOLS (int)(sizeof cols / sizeof cols[0])

void bw_print(const bw_sweep *w, const pb_frame_method *methods)
{
    printf("\nSWEEP of %s over", bw_param_name(w));
    for (int i = 0; i < w->n; i++) printf(" %g", w->value[i]);
    printf("%s%s: the sets again at each value (seeds as above), medians over each set's transitions\n",
           *bw_param_unit(w) ? " " : "", bw_param_unit(w));
    for (int k = 0; k < BW_SETS; k++) {
        if (!w->sets[k].nt) continue;
        printf("  %s set:\n  %-18s %14s", w->sets[k].name, "method", bw_param_name(w));
        for (int c = 0; c < NCOLS; c++) printf(" %12s", pb_quality_metric_name((pb_quality_metric)cols[c]));
        printf("\n");
        for (int mi = 0; mi < w->sets[k].nm; mi++)
            for (int i = 0; i < w->n; i++) {
                const bs_set *s = &w->sets[(size_t)i * BW_SETS + (size_t)k];
                printf("  %-18s %14g", i ? "" : pb_frame_method_get(methods[mi])->key, w->value[i]);
                for (int c = 0; c < NCOLS; c++) printf(" %12.4g", s->s[mi][cols[c]].med);
                printf("\n");
            }
    }
}

int bw_add_json(cJSON *root, const bw_sweep *w, const pb_frame_method *methods)
{
    cJSON *o = cJSON_AddObjectToObject(root, "sweep"), *vals, *rows;
    int ok = o && cJSON_AddStringToObject(o, "param", bw_param_name(w)) &&
             cJSON_AddStringToObject(o, "unit", bw_param_unit(w)) &&
             (vals = cJSON_CreateDoubleArray(w->value, w->n)) && cJSON_AddItemToObject(o, "values", vals) &&
             (rows = cJSON_AddArrayToObject(o, "rows"));
    for (int i = 0; ok && i < w->n; i++)
        for (int k = 0; ok && k < BW_SETS; k++) {
            const bs_set *s = &w->sets[(size_t)i * BW_SETS + (size_t)k];
            for (int mi = 0; ok && s->nt && mi < s->nm; mi++) {
                cJSON *r = cJSON_CreateObject(), *m;
                ok = r && cJSON_AddItemToArray(rows, r) && cJSON_AddNumberToObject(r, "value", w->value[i]) &&
                     cJSON_AddStringToObject(r, "set", s->name) &&
                     cJSON_AddStringToObject(r, "method", pb_frame_method_get(methods[mi])->key) &&
                     (m = cJSON_AddObjectToObject(r, "median"));
                for (int q = 0; ok && q < PB_QM_COUNT; q++)
                    ok = cJSON_AddNumberToObject(m, pb_quality_metric_name((pb_quality_metric)q), s->s[mi][q].med) != NULL;
            }
        }
    return ok ? 0 : -1;
}

void bw_free(bw_sweep *w)
{
    free(w->sets);
    w->sets = NULL;
}
