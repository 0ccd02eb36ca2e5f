/* aux_bench.c — the run shared by the benchmarks that are not pose ops
 * (skinning: skin_bench.c; motion matching: mm_bench.c; blend-space
 * weights: bspace_bench.c): Google Benchmark
 * set up with the run's repetitions and flags, each item registered, run,
 * and its median CPU seconds per iteration collected. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_internal.h"

static char *volatile copy_sink;   /* the copy's destination escapes: the memcpy stays */

/* Placed by hand, not by malloc: two heap blocks of a multiple of 4 KiB lie
 * 16 bytes apart modulo 4096, and a memcpy whose destination trails its
 * source by 8-16 bytes modulo 4096 is 15-25x slower on Zen 3 (measured:
 * 245760 B at 3.5-5.5 GB/s against 70-88 GB/s at offsets of 32 to 4064 B;
 * the loads alias the previous stores' 4 KiB pages), which made the
 * roofline of `bench --op masked` at 4096 joints about 15x too slow. */
char *bench_copy_dst(uintptr_t src, size_t bytes, void **block)
{
    char *m = malloc(bytes + 4096);
    if (!(*block = m)) return NULL;
    uintptr_t want = (src + 2048) & 4095;
    return m + ((want - ((uintptr_t)m & 4095)) & 4095);
}

int bench_copy_loop(gb_state *st, size_t bytes)
{
    bytes /= 2;   /* half the bytes read, half written: a copy of half */
    void *block = NULL;
    char *src = malloc(bytes ? bytes : 1), *dst = src ? bench_copy_dst((uintptr_t)src, bytes, &block) : NULL;
    if (!src || !dst) {
        free(src), free(block);
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
    free(src), free(block);
    return 0;
}

int bench_plan_loop(gb_state *st, pb_op op, const pb_variant *v, const pb_call *call)
{
    pb_plan *plan = NULL;
    if (pb_plan_create(&plan, op, v, call) != PB_OK) {
        gb_skip_with_error(st, pb_last_error());
        return -1;
    }
    int status = 0;
    while (gb_keep_running(st)) {
        if (pb_plan_run(plan) != PB_OK) {
            gb_skip_with_error(st, pb_last_error());
            status = -1;
            break;
        }
        gb_clobber_memory();
    }
    pb_plan_destroy(plan);
    return status;
}

int bench_out_writable(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "posebench bench: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    fclose(f);
    return 0;
}

/* An unmeasured copy or scalar prints "-", not 0.00x. */
void bench_ratio_line(const char *name, double cpu_s, double copy_s, double scalar_s, size_t n, double bytes)
{
    double ns = cpu_s * 1e9 / (double)n, cns = copy_s * 1e9 / (double)n, sns = scalar_s * 1e9 / (double)n;
    char cgb[32] = "-", cx[32] = "-", sx[32] = "-";
    if (cns > 0) snprintf(cgb, sizeof cgb, "%.2f", bytes / cns), snprintf(cx, sizeof cx, "%.2fx", ns / cns);
    if (sns > 0) snprintf(sx, sizeof sx, "%.2fx", sns / ns);
    printf("%-44s %9.2f %8.0f %8.2f %9s %9s %10s\n", name, ns, bytes, bytes / ns, cgb, cx, sx);
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
    if (timed) *timed = 0;
    if (o->json && bench_out_writable(o->json) != 0) return 2;
    bench_item **list = malloc((size_t)(n > 0 ? n : 1) * sizeof *list);
    if (!list) return 2;
    for (int i = 0; i < n; i++) {
        list[i] = (bench_item *)((char *)rows + (size_t)i * row_size);
        list[i]->user = list[i];
    }
    static char a0[] = "posebench bench", a_rep5[] = "--benchmark_repetitions=5",
                a_rep3[] = "--benchmark_repetitions=3", a_min[] = "--benchmark_min_time=0.1",
                a_aggr[] = "--benchmark_display_aggregates_only=true";
    static char a_fmt[] = "--benchmark_out_format=json";
    char a_out[4200];
    char **gbv = calloc((size_t)o->ngb + 8, sizeof *gbv);
    if (!gbv) {
        free(list);
        return 2;
    }
    int gbc = 0, status = 2;
    gbv[gbc++] = a0;
    gbv[gbc++] = o->quick ? a_rep3 : a_rep5;
    gbv[gbc++] = a_min;
    gbv[gbc++] = a_aggr;
    if (o->json) {   /* every repetition, as bench_run writes it */
        snprintf(a_out, sizeof a_out, "--benchmark_out=%s", o->json);
        gbv[gbc++] = a_out;
        gbv[gbc++] = a_fmt;
    }
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
    if (gb_out_error()) {   /* --json, or Google Benchmark's own --benchmark_out: status stays 2 */
        fprintf(stderr, "posebench bench: error writing %s\n", gb_out_error());
        goto out;
    }
    if (o->json) fprintf(stderr, "posebench bench: wrote %s\n", o->json);
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
