/* aux_bench.c — the run shared by the benchmarks that are not pose ops
 * (skinning: skin_bench.c; motion matching: mm_bench.c; blend-space
 * weights: bspace_bench.c): Google Benchmark
 * set up with the run's repetitions and flags, each item registered, run,
 * and its median CPU seconds per iteration collected. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_internal.h"

static char *volatile copy_sink;   /* the copy's destination escapes: the memcpy stays */

int bench_copy_loop(gb_state *st, size_t bytes)
{
    bytes /= 2;   /* half the bytes read, half written: a copy of half */
    char *src = malloc(bytes ? bytes : 1), *dst = malloc(bytes ? bytes : 1);
    if (!src || !dst) {
        free(src), free(dst);
        gb_skip_with_error(st, "out of memory");
        return -1;
    }
    memset(src, 1, bytes), memset(dst, 0, bytes);
    copy_sink = dst;
    while (gb_keep_running(st)) {
        memcpy(dst, src, bytes);
        gb_clobber_memory();
    }
    copy_sink = NULL;
    free(src), free(dst);
    return 0;
}

void bench_ratio_line(const char *name, double cpu_s, double copy_s, double scalar_s, size_t n, double bytes)
{
    double ns = cpu_s * 1e9 / (double)n, cns = copy_s * 1e9 / (double)n, sns = scalar_s * 1e9 / (double)n;
    printf("%-44s %9.2f %8.0f %8.2f %9.2f %8.2fx %9.2fx\n", name, ns, bytes, bytes / ns, cns > 0 ? bytes / cns : 0.0,
           cns > 0 ? ns / cns : 0.0, sns > 0 ? sns / ns : 0.0);
}

static bench_item **items;
static int nitems;

/* Medians: Google Benchmark's when it computed them, else the last single run. */
static void on_item_result(const gb_result *res, void *user)
{
    (void)user;
    for (int i = 0; i < nitems; i++) {
        bench_item *it = items[i];
        if (strcmp(res->name, it->name) != 0) continue;
        if (res->error) it->error = 1;
        else if (!strcmp(res->aggregate, "median") || (!res->aggregate[0] && it->nrep++ == 0)) it->cpu_s = res->cpu_time;
    }
}

int bench_rows_run(const bench_opts *o, void *rows, size_t row_size, int n, int *timed)
{
    bench_item **list = malloc((size_t)(n > 0 ? n : 1) * sizeof *list);
    if (timed) *timed = 0;
    if (!list) return 2;
    for (int i = 0; i < n; i++) {
        list[i] = (bench_item *)((char *)rows + (size_t)i * row_size);
        list[i]->user = list[i];
    }
    static char a0[] = "posebench bench", a_rep5[] = "--benchmark_repetitions=5",
                a_rep3[] = "--benchmark_repetitions=3", a_min[] = "--benchmark_min_time=0.1",
                a_aggr[] = "--benchmark_display_aggregates_only=true";
    char **gbv = calloc((size_t)o->ngb + 6, sizeof *gbv);
    if (!gbv) {
        free(list);
        return 2;
    }
    int gbc = 0, status = 2;
    gbv[gbc++] = a0;
    gbv[gbc++] = o->quick ? a_rep3 : a_rep5;
    gbv[gbc++] = a_min;
    gbv[gbc++] = a_aggr;
    for (int i = 0; i < o->ngb; i++) gbv[gbc++] = o->gb_args[i];
    if (gb_init(&gbc, gbv) != 0) {
        fprintf(stderr, "posebench bench: unrecognized Google Benchmark flag (see posebench bench -- --help)\n");
        goto out;
    }
    items = list;
    nitems = n;
    for (int i = 0; i < n; i++) {
        list[i]->cpu_s = 0, list[i]->nrep = 0, list[i]->error = 0;
        if (!gb_register(list[i]->name, list[i]->fn, list[i]->user)) goto out;
    }
    for (int i = 0; i < o->nctx; i++) gb_add_context(o->ctx_keys[i], o->ctx_vals[i]);
    if (gb_run(on_item_result, NULL) < 0) goto out;
    status = 0;
    for (int i = 0; i < n; i++) {
        status |= list[i]->error;
        if (timed) *timed |= list[i]->cpu_s > 0;
    }
out:
    gb_shutdown();
    items = NULL;
    nitems = 0;
    free(gbv);
    free(list);
    return status;
}
