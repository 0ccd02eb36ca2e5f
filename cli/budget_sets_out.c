/* budget_sets_out.c — the transition sets' results (budget_sets.h) on the
 * console and as JSON: per set the transitions (seeded, listed), per method
 * each metric's median and spread, which metrics separate the blending
 * methods, the Pareto front of cost against each metric, and the measured
 * reading of the three claims the budget was asked about. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "budget_sets_out.h"

/* what the Pareto front and the claims minimize: the ratios' distance from the clips' own (1) for damping */
double bs_badness(int metric, double v)
{
    return metric == PB_QM_DAMPING ? fabs(1 - v) : v;
}


/* the smallest difference that counts, per metric: below what a viewer could see (and above float noise) */
static const double floor_of[PB_QM_COUNT] = { 1e-4, 1e-3, 0.1, 1e-3, 1e-3, 0.01, 0.01, 1e-6, 1e-3, 1e-3, 1e-4 };

/* quality within the metric's floor is a tie: a method is not beaten by an invisible difference */
int bs_pareto(const bs_set *s, const double *cost, int metric, int *front)
{
    int n = 0;
    double fl = floor_of[metric];
    for (int i = 0; i < s->nm; i++) {
        double ci = cost[i], bi = bs_badness(metric, s->s[i][metric].med);
        int beaten = 0;
        for (int j = 0; j < s->nm && !beaten; j++) {
            if (j == i) continue;
            double cj = cost[j], bj = bs_badness(metric, s->s[j][metric].med);
            beaten = cj <= ci && bj <= bi + fl && (cj < ci || bj < bi - fl);
        }
        if (!beaten) front[n++] = i;
    }
    return n;
}

int bs_separated(const bs_set *s, const pb_frame_method *methods, int metric, int *pairs)
{
    int sep = 0, n = 0;
    for (int i = 0; i < s->nm; i++)
        for (int j = i + 1; j < s->nm; j++) {
            if (methods[i] == PB_FM_CUT || methods[j] == PB_FM_CUT) continue;
            const bs_stat *a = &s->s[i][metric], *b = &s->s[j][metric];
            n++;
            double fl = floor_of[metric];
            sep += a->p90 + fl < b->p10 || b->p90 + fl < a->p10;
        }
    *pairs = n;
    return sep;
}

int bs_lower(const bs_set *s, int i, int j, int metric)
{
    int n = 0;
    for (int t = 0; t < s->nt; t++) {
        double a = bs_badness(metric, s->v[i][t][metric]), b = bs_badness(metric, s->v[j][t][metric]);
        n += a < b - 0.01 * fmax(fabs(a), fabs(b)) - floor_of[metric];
    }
    return n;
}

int bs_paired(const bs_set *s, const pb_frame_method *methods, int metric, int *pairs)
{
    int sep = 0, n = 0;
    for (int i = 0; i < s->nm; i++)
        for (int j = i + 1; j < s->nm; j++) {
            if (methods[i] == PB_FM_CUT || methods[j] == PB_FM_CUT) continue;
            n++;
            /* a sign test: the two differ visibly on at least half the transitions, and one is the lower on at
             * least 90 % of those */
            int lo = bs_lower(s, i, j, metric), hi = bs_lower(s, j, i, metric), d = lo + hi;
            sep += 2 * d >= s->nt && 10 * (lo > hi ? lo : hi) >= 9 * d;
        }
    *pairs = n;
    return sep;
}

static int index_of(const pb_frame_method *methods, int nm, pb_frame_method m)
{
    for (int i = 0; i < nm; i++)
        if (methods[i] == m) return i;
    return -1;
}

/* how many transitions method i has a lower raw value than j (no badness: damping's speed itself) */
static int raw_lower(const bs_set *s, int i, int j, int metric)
{
    int n = 0;
    for (int t = 0; t < s->nt; t++) n += s->v[i][t][metric] < s->v[j][t][metric];
    return n;
}

int bs_claim(const bs_set *sets, const pb_frame_method *methods, int which, char *buf, size_t len)
{
    const bs_set *s = &sets[which == 0 ? BS_HARD : which == 1 ? BS_INTERRUPTED : BS_REAL];
    int d = index_of(methods, s->nm, PB_FM_DEAD), in = index_of(methods, s->nm, PB_FM_INERTIALIZE);
    if (s->nt == 0 || d < 0 || in < 0) return snprintf(buf, len, "not measured (no %s set)", s->name), 0;
    const bs_stat *D = s->s[d], *I = s->s[in];
    if (which == 2) {
        int k = raw_lower(s, d, in, PB_QM_DAMPING);
        snprintf(buf, len,
                 "Damping (real set, %d transitions): over the window dead blending moves the joints at %.3f x the clips' "
                 "mean speed (median; p10-p90 %.3f-%.3f), inertialization at %.3f (%.3f-%.3f); dead blending is the slower "
                 "on %d of the %d transitions, so the claim that it damps the motion more %s.",
                 s->nt, D[PB_QM_DAMPING].med, D[PB_QM_DAMPING].p10, D[PB_QM_DAMPING].p90, I[PB_QM_DAMPING].med,
                 I[PB_QM_DAMPING].p10, I[PB_QM_DAMPING].p90, k, s->nt,
                 2 * k > s->nt ? (10 * k >= 9 * s->nt ? "holds" : "holds on most") : "does not hold");
        return 1;
    }
    int ms[3] = { PB_QM_JERK_RMS, PB_QM_JERK_PEAK, PB_QM_LIMIT_DEG_S };
    if (which == 1) ms[1] = PB_QM_POP_VEL;
    int wins = 0, kd[3], ki[3];
    for (int k = 0; k < 3; k++) {
        kd[k] = bs_lower(s, d, in, ms[k]);
        ki[k] = bs_lower(s, in, d, ms[k]);
        wins += kd[k] > ki[k];
    }
    static const char *const word[4] = { "does not hold", "mostly does not hold", "mostly holds", "holds" };
    char part[3][160];
    for (int k = 0; k < 3; k++)
        snprintf(part[k], sizeof part[k], "%s %.3g vs %.3g %s (p90 %.3g vs %.3g; lower on %d, higher on %d)",
                 pb_quality_metric_name((pb_quality_metric)ms[k]), D[ms[k]].med, I[ms[k]].med,
                 pb_quality_metric_unit((pb_quality_metric)ms[k]), D[ms[k]].p90, I[ms[k]].p90, kd[k], ki[k]);
    snprintf(buf, len, "%s (%s set, %d transitions), dead blending vs inertialization, medians: %s; %s; %s: dead blending "
             "is better on %d of the 3, so the claim that it looks better %s.",
             which == 0 ? "On very different poses" : "On frequent transitions", s->name, s->nt, part[0], part[1], part[2],
             wins, word[wins]);
    return 1;
}

static const int shown[] = { PB_QM_POP_VEL, PB_QM_POP_ACC, PB_QM_JERK_RMS, PB_QM_DEV_CM, PB_QM_SETTLE_S, PB_QM_DAMPING,
                             PB_QM_LIMIT_DEG_S, PB_QM_SLIDE_M };
#define NSHOWN (int)(sizeof shown / sizeof shown[0])

static void print_trans(const bs_ctx *x, const bs_trans *t, int i)
{
    const pb_scene *sc = x->scenes[t->scene].sc;
    printf("    %2d %-10.10s %s@%.2f", i, x->scenes[t->scene].name, sc->clip_name[t->clip[0]], (double)t->at[0]);
    for (int k = 1; k < t->nseg; k++)
        printf(" ->[f%d] %s@%.2f", t->start[k], sc->clip_name[t->clip[k]], (double)t->at[k]);
    printf("  %.2f s%s%s\n", (double)t->duration, t->why[0] ? ", by " : "", t->why);
}

void bs_print(const bs_ctx *x, const bs_set *sets, const pb_frame_method *methods, const double *cost)
{
    char nm[48];
    printf("\nQUALITY BY TRANSITION SET (posebench/quality.h, docs/quality.md): world space, 60 Hz, one character; "
           "per method the median (90th percentile) over the set's transitions\n");
    for (int si = 0; si < BS_NSETS; si++) {
        const bs_set *s = &sets[si];
        if (!s->nt) {
            printf("\n%s: no transitions (no mocap scene)\n", s->name);
            continue;
        }
        printf("\n%s (seed %llu): %s; %d transitions:\n", s->name, (unsigned long long)s->seed, s->how, s->nt);
        for (int i = 0; i < s->nt; i++) print_trans(x, &s->t[i], i);
        printf("  %-22s", "method");
        for (int k = 0; k < NSHOWN; k++)
            printf(" %18s", pb_quality_metric_name((pb_quality_metric)shown[k]));
        printf("\n  %-22s", "");
        for (int k = 0; k < NSHOWN; k++) printf(" %18s", pb_quality_metric_unit((pb_quality_metric)shown[k]));
        printf("\n");
        for (int mi = 0; mi < s->nm; mi++) {
            snprintf(nm, sizeof nm, "%s", pb_frame_method_get(methods[mi])->key);
            printf("  %-22s", nm);
            for (int k = 0; k < NSHOWN; k++) {
                char cell[40];
                snprintf(cell, sizeof cell, "%.3g (%.3g)", s->s[mi][shown[k]].med, s->s[mi][shown[k]].p90);
                printf(" %18s", cell);
            }
            printf("\n");
        }
        printf("  separates, of the pairs of blending methods: unpaired (p10..p90 over the transitions disjoint) / paired\n"
               "  (visibly different on at least half the transitions, one the lower on at least 90%% of those):");
        for (int m = 0; m < PB_QM_COUNT; m++) {
            int pairs, sep = bs_separated(s, methods, m, &pairs), pp = bs_paired(s, methods, m, &pairs);
            printf("%s %s %d/%d/%d", m % 6 ? "," : "\n   ", pb_quality_metric_name((pb_quality_metric)m), sep, pp, pairs);
        }
        printf("\n");
        printf("  Pareto (no other method is cheaper and better; cost = the method's own us per frame):\n");
        for (int m = 0; m < PB_QM_COUNT; m++) {
            int front[BS_MAX_METHODS], n = bs_pareto(s, cost, m, front);
            printf("    %-12s", pb_quality_metric_name((pb_quality_metric)m));
            for (int i = 0; i < n; i++) printf("%s%s", i ? ", " : " ", pb_frame_method_get(methods[front[i]])->key);
            printf("\n");
        }
    }
    printf("\nthe claims, measured:\n");
    for (int c = 0; c < 3; c++) {
        char buf[600];
        bs_claim(sets, methods, c, buf, sizeof buf);
        printf("  - %s\n", buf);
    }
}

static int add_stat(cJSON *o, const char *name, const bs_stat *st, const bs_scene *S)
{
    cJSON *m = cJSON_AddObjectToObject(o, name);
    (void)S;
    return m && cJSON_AddNumberToObject(m, "median", st->med) && cJSON_AddNumberToObject(m, "p10", st->p10) &&
           cJSON_AddNumberToObject(m, "p90", st->p90) && cJSON_AddNumberToObject(m, "worst_joint", st->worst);
}

int bs_add_json(cJSON *root, const bs_ctx *x, const bs_set *sets, const pb_frame_method *methods, const double *cost)
{
    cJSON *arr = cJSON_AddArrayToObject(root, "transition_sets");
    int ok = arr != NULL;
    for (int si = 0; ok && si < BS_NSETS; si++) {
        const bs_set *s = &sets[si];
        cJSON *o = cJSON_CreateObject(), *tr, *ms, *units, *par, *sep, *psep;
        ok = o && cJSON_AddItemToArray(arr, o) && cJSON_AddStringToObject(o, "name", s->name) &&
             cJSON_AddNumberToObject(o, "seed", (double)s->seed) && cJSON_AddStringToObject(o, "how", s->how) &&
             (tr = cJSON_AddArrayToObject(o, "transitions")) && (ms = cJSON_AddArrayToObject(o, "methods")) &&
             (units = cJSON_AddObjectToObject(o, "units")) && (par = cJSON_AddObjectToObject(o, "pareto")) &&
             (sep = cJSON_AddObjectToObject(o, "separated_pairs")) &&
             (psep = cJSON_AddObjectToObject(o, "paired_separated_pairs"));
        for (int m = 0; ok && m < PB_QM_COUNT; m++)
            ok = cJSON_AddStringToObject(units, pb_quality_metric_name((pb_quality_metric)m),
                                         pb_quality_metric_unit((pb_quality_metric)m)) != NULL;
        for (int i = 0; ok && i < s->nt; i++) {
            const bs_trans *t = &s->t[i];
            const bs_scene *S = &x->scenes[t->scene];
            cJSON *to = cJSON_CreateObject(), *segs;
            ok = to && cJSON_AddItemToArray(tr, to) && cJSON_AddStringToObject(to, "scene", S->name) &&
                 cJSON_AddNumberToObject(to, "duration_s", t->duration) && cJSON_AddStringToObject(to, "why", t->why) &&
                 (segs = cJSON_AddArrayToObject(to, "segments"));
            for (int k = 0; ok && k < t->nseg; k++) {
                cJSON *g = cJSON_CreateObject();
                ok = g && cJSON_AddItemToArray(segs, g) && cJSON_AddStringToObject(g, "clip", S->sc->clip_name[t->clip[k]]) &&
                     cJSON_AddNumberToObject(g, "at_s", t->at[k]) && cJSON_AddNumberToObject(g, "start_frame", t->start[k]);
            }
        }
        for (int mi = 0; ok && mi < s->nm; mi++) {
            cJSON *mo = cJSON_CreateObject(), *mets;
            ok = mo && cJSON_AddItemToArray(ms, mo) && cJSON_AddStringToObject(mo, "key", pb_frame_method_get(methods[mi])->key) &&
                 cJSON_AddNumberToObject(mo, "cost_us", cost[mi]) && (mets = cJSON_AddObjectToObject(mo, "metrics"));
            for (int m = 0; ok && m < PB_QM_COUNT; m++)
                ok = add_stat(mets, pb_quality_metric_name((pb_quality_metric)m), &s->s[mi][m], NULL);
            cJSON *pt = ok ? cJSON_AddArrayToObject(mo, "per_transition") : NULL;   /* metric order: "units" */
            ok = ok && pt;
            for (int i = 0; ok && i < s->nt; i++) {
                cJSON *row = cJSON_CreateDoubleArray(s->v[mi][i], PB_QM_COUNT);
                ok = row && cJSON_AddItemToArray(pt, row);
            }
        }
        for (int m = 0; ok && s->nt && m < PB_QM_COUNT; m++) {
            int front[BS_MAX_METHODS], n = bs_pareto(s, cost, m, front), pairs, k = bs_separated(s, methods, m, &pairs);
            cJSON *f = cJSON_AddArrayToObject(par, pb_quality_metric_name((pb_quality_metric)m));
            ok = f && cJSON_AddNumberToObject(sep, pb_quality_metric_name((pb_quality_metric)m), k) &&
                 cJSON_AddNumberToObject(psep, pb_quality_metric_name((pb_quality_metric)m), bs_paired(s, methods, m, &pairs));
            for (int i = 0; ok && i < n; i++)
                ok = cJSON_AddItemToArray(f, cJSON_CreateString(pb_frame_method_get(methods[front[i]])->key)) != 0;
        }
        if (ok && s->nt) {
            int pairs;
            bs_separated(s, methods, 0, &pairs);
            ok = cJSON_AddNumberToObject(o, "blending_pairs", pairs) != NULL;
        }
    }
    cJSON *claims = ok ? cJSON_AddArrayToObject(root, "claims") : NULL;
    ok = ok && claims;
    for (int c = 0; ok && c < 3; c++) {
        char buf[600];
        bs_claim(sets, methods, c, buf, sizeof buf);
        ok = cJSON_AddItemToArray(claims, cJSON_CreateString(buf)) != 0;
    }
    return ok ? 0 : -1;
}
