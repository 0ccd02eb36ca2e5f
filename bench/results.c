/* results.c — benchmark results (bench_internal.h): what the reporter hook
 * receives, medians and CV per benchmark (Google Benchmark's own aggregates
 * when it computed them, so the CSV matches the JSON), and the CSV summary. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_internal.h"
#include "measure.h"

/* Medians and CV of a benchmark: Google Benchmark's own aggregates when it
 * computed them (so the CSV matches the JSON), else from the single runs. */
stats spec_stats(const spec *s)
{
    stats st = { 0, NAN, NAN, NAN, NAN };
    if (s->have_med) {
        st.ok = 1;
        st.cpu_s = s->med_cpu_s;
        st.nspj = s->med_nspj;
        st.ratio = s->med_ratio;
    } else if (s->nrep > 0) {
        double *t = malloc(sizeof(double) * (size_t)s->nrep);
        if (!t) return st;
        int m = s->nrep, k = 0;
        for (int i = 0; i < m; i++) t[i] = s->rep[3 * i];
        st.cpu_s = median_sort(t, m);
        for (int i = 0; i < m; i++) t[i] = s->rep[3 * i + 1];
        st.nspj = median_sort(t, m);
        for (int i = 0; i < m; i++)
            if (!isnan(s->rep[3 * i + 2])) t[k++] = s->rep[3 * i + 2];
        if (k == m) st.ratio = median_sort(t, k);
        free(t);
        st.ok = 1;
    }
    if (s->have_cv) st.cv = s->cv_nspj;
    else if (s->nrep >= 2) { /* sample standard deviation / mean, as Google Benchmark's cv */
        double mean = 0, ss = 0;
        for (int i = 0; i < s->nrep; i++) mean += s->rep[3 * i + 1];
        mean /= s->nrep;
        for (int i = 0; i < s->nrep; i++) ss += (s->rep[3 * i + 1] - mean) * (s->rep[3 * i + 1] - mean);
        st.cv = sqrt(ss / (s->nrep - 1)) / mean;
    }
    return st;
}

static double counter_of(const gb_result *r, const char *name)
{
    for (int i = 0; i < r->ncounters; i++)
        if (!strcmp(r->counter_name[i], name)) return r->counter_value[i];
    return NAN;
}

/* Reporter hook: every run the display reporter sees. */
void on_result(const gb_result *r, void *user)
{
    (void)user;
    spec *s = NULL;
    if (bench_state.cur && !strcmp(bench_state.cur->name, r->name)) s = bench_state.cur;
    for (size_t i = 0; !s && i < bench_state.nspecs; i++)
        if (!strcmp(bench_state.specs[i].name, r->name)) s = &bench_state.specs[i];
    if (!s) return;
    if (r->error) {
        if (cold_is_skip(r->label)) s->skipped = 1;   /* a cold run this host cannot make: not a failure */
        else s->error = 1;
        return;
    }
    if (!r->aggregate[0]) {
        if (s->nrep == s->caprep) {
            int cap = s->caprep ? 2 * s->caprep : 8;
            double *t = realloc(s->rep, sizeof(double) * 3 * (size_t)cap);
            if (!t) return;
            s->rep = t;
            s->caprep = cap;
        }
        s->rep[3 * s->nrep] = s->threads > 1 ? r->real_time : r->cpu_time;   /* threaded rows: wall time */
        s->rep[3 * s->nrep + 1] = counter_of(r, "ns_per_joint");
        s->rep[3 * s->nrep + 2] = counter_of(r, "copy_ratio");
        s->nrep++;
    } else if (!strcmp(r->aggregate, "median")) {
        s->have_med = 1;
        s->med_cpu_s = s->threads > 1 ? r->real_time : r->cpu_time;
        s->med_nspj = counter_of(r, "ns_per_joint");
        s->med_ratio = counter_of(r, "copy_ratio");
    } else if (!strcmp(r->aggregate, "cv")) {
        s->have_cv = 1;
        s->cv_nspj = counter_of(r, "ns_per_joint");
    }
}

static void csv_num(FILE *f, double v)
{
    if (isfinite(v)) fprintf(f, ",%.6g", v);
    else fputs(",", f);
}

int write_csv(FILE *f)
{
    fputs("op,variant,mode,n,ns_per_joint_median,ns_per_joint_cv,copy_ratio,speedup_vs_scalar,cache,threads\n", f);
    for (size_t i = 0; i < bench_state.nspecs; i++) {
        const spec *s = &bench_state.specs[i];
        if (!s->v || s->error || s->kernel) continue;   /* /plan rows: in the summary and the JSON */
        stats st = spec_stats(s);
        if (!st.ok) continue;   /* not run (filtered out) */
        double speedup = NAN;
        if (s->scalar) {
            stats sc = spec_stats(s->scalar);
            if (sc.ok && !s->scalar->error && st.nspj > 0) speedup = sc.nspj / st.nspj;
        }
        fprintf(f, "%s,%s,%s,%zu", pb_op_get(s->op)->name, pb_variant_name(s->v),
                pb_variant_mode(s->v) == PB_MODE_NATIVE ? "native" : "emulated", s->n);
        csv_num(f, st.nspj);
        csv_num(f, st.cv);
        csv_num(f, st.ratio);
        csv_num(f, speedup);
        fprintf(f, ",%s,%d\n", s->cold ? "cold" : "warm", s->threads > 1 ? s->threads : 1);
    }
    return ferror(f) ? -1 : 0;
}
