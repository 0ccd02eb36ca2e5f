/* skin_bench.c — the skinning benchmarks behind `posebench bench --op
 * skin_lbs / skin_dqs` (posebench/skin.h): per method and vertex count, a
 * memcpy of the vertex bytes the kernel streams (the roofline, in the same
 * run), then each variant through a job. Inputs: the validation's random
 * case (4 influences over 64 joints, palette in cache, indices random so
 * no two neighbours share an entry). Rows state bytes per vertex and GB/s;
 * a summary table follows the run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_internal.h"
#include "skin_check.h"

/* Per vertex: read pos, nrm (24 B), 4 indices and 4 weights (32 B); write pos, nrm (24 B): 80 B. */
#define SKIN_BYTES_PER_VERTEX (24.0 + 32.0 + 24.0)
#define SKIN_JOINTS 64
#define SKIN_MAX_ROWS 256

typedef struct skin_row {
    char name[96];
    int method;                 /* PB_SKIN_LBS / PB_SKIN_DQS */
    const pb_variant *v;        /* NULL: the copy */
    size_t n;
    struct skin_row *copy;
    double cpu_s;               /* median seconds per iteration */
    int nrep, error;
} skin_row;

static skin_row rows[SKIN_MAX_ROWS];
static int nrows;

static char *volatile copy_sink, *volatile scratch_sink;

/* The roofline as bench_run's (pool.c): the bytes the kernel writes copied
 * from as many of its input bytes, the rest of its input read (memcpy into
 * an L1 scratch), so the copy moves the kernel's bytes each way: 56 B read,
 * 24 B written per vertex. */
#define SKIN_WRITE_BYTES 24.0
static void skin_copy(gb_state *st, void *user)
{
    static char scratch[16384];
    skin_row *r = user;
    size_t wr = (size_t)(SKIN_WRITE_BYTES * (double)r->n), rd = (size_t)(SKIN_BYTES_PER_VERTEX * (double)r->n) - 2 * wr;
    char *src = malloc(wr + rd), *dst = malloc(wr);
    if (!src || !dst) {
        free(src); free(dst);
        gb_skip_with_error(st, "out of memory");
        return;
    }
    memset(src, 1, wr + rd);
    memset(dst, 0, wr);
    scratch_sink = scratch;
    copy_sink = dst;   /* dst escapes: the copies cannot be dropped as unobserved */
    while (gb_keep_running(st)) {
        memcpy(dst, src, wr);
        for (size_t i = 0; i < rd; i += sizeof scratch)
            memcpy(scratch, src + wr + i, rd - i < sizeof scratch ? rd - i : sizeof scratch);
        gb_clobber_memory();
    }
    copy_sink = NULL;
    free(src); free(dst);
    gb_set_counter(st, "ns_per_vertex", (double)r->n * 1e-9, PB_BC_RATE | PB_BC_ITER_INVARIANT | PB_BC_INVERT);
    gb_set_counter(st, "bytes_per_vertex", SKIN_BYTES_PER_VERTEX, PB_BC_PLAIN);
    gb_set_counter(st, "bytes_per_s", SKIN_BYTES_PER_VERTEX * (double)r->n,
                   PB_BC_RATE | PB_BC_ITER_INVARIANT | PB_BC_1024);
}

static void skin_kernel(gb_state *st, void *user)
{
    skin_row *r = user;
    pb_skin_case c;
    pb_skinned out;
    if (pb_skin_case_random(&c, r->n, SKIN_JOINTS, 0x5eed + r->n) != PB_OK) {
        gb_skip_with_error(st, pb_last_error());
        return;
    }
    if (pb_skinned_alloc(&out, r->n) != PB_OK) {
        pb_skin_case_free(&c);
        gb_skip_with_error(st, pb_last_error());
        return;
    }
    pb_skin_call call = { &c.mesh, r->method == PB_SKIN_LBS ? &c.mat : &c.dq, 1, 0, &out };
    pb_skin_job *job = NULL;
    if (pb_skin_job_create(&job, (pb_skin_method)r->method, r->v, &call) != PB_OK) {
        gb_skip_with_error(st, pb_last_error());
    } else {
        pb_skin_job_run(job);   /* warm: first touch of the output */
        while (gb_keep_running(st)) {
            pb_skin_job_run(job);
            gb_clobber_memory();
        }
        gb_set_counter(st, "ns_per_vertex", (double)r->n * 1e-9, PB_BC_RATE | PB_BC_ITER_INVARIANT | PB_BC_INVERT);
        gb_set_counter(st, "bytes_per_vertex", SKIN_BYTES_PER_VERTEX, PB_BC_PLAIN);
        gb_set_counter(st, "bytes_per_s", SKIN_BYTES_PER_VERTEX * (double)r->n,
                       PB_BC_RATE | PB_BC_ITER_INVARIANT | PB_BC_1024);
    }
    pb_skin_job_free(job);
    pb_skinned_free(&out);
    pb_skin_case_free(&c);
}

/* Medians: Google Benchmark's when it computed them, else the last single run. */
static void on_skin_result(const gb_result *res, void *user)
{
    (void)user;
    for (int i = 0; i < nrows; i++) {
        skin_row *r = &rows[i];
        if (strcmp(res->name, r->name) != 0) continue;
        if (res->error) r->error = 1;
        else if (!strcmp(res->aggregate, "median") || (!res->aggregate[0] && r->nrep++ == 0)) r->cpu_s = res->cpu_time;
    }
}

int bench_skin_run(const bench_opts *o, int lbs, int dqs)
{
    static const size_t defaults[] = { 1000, 100000, 1000000 };
    const size_t *sizes = o->nsizes ? o->sizes : defaults;
    const int nsizes = o->nsizes ? o->nsizes : 3;
    static char a0[] = "posebench bench", a_rep5[] = "--benchmark_repetitions=5",
                a_rep3[] = "--benchmark_repetitions=3", a_min[] = "--benchmark_min_time=0.1",
                a_aggr[] = "--benchmark_display_aggregates_only=true";
    char **gbv = calloc((size_t)o->ngb + 6, sizeof *gbv);
    if (!gbv) return 2;
    int gbc = 0;
    gbv[gbc++] = a0;
    gbv[gbc++] = o->quick ? a_rep3 : a_rep5;
    gbv[gbc++] = a_min;
    gbv[gbc++] = a_aggr;
    for (int i = 0; i < o->ngb; i++) gbv[gbc++] = o->gb_args[i];
    int status = 2;
    if (gb_init(&gbc, gbv) != 0) {
        fprintf(stderr, "posebench bench: unrecognized Google Benchmark flag (see posebench bench -- --help)\n");
        goto out;
    }
    nrows = 0;
    for (int m = 0; m < 2; m++) {
        if (!(m ? dqs : lbs)) continue;
        const char *op = m ? "skin_dqs" : "skin_lbs";
        for (int si = 0; si < nsizes; si++) {
            if (nrows + 1 + o->nvars > SKIN_MAX_ROWS) break;
            skin_row *copy = &rows[nrows++];
            *copy = (skin_row){ .method = m, .n = sizes[si] };
            snprintf(copy->name, sizeof copy->name, "copy/%s/%zu", op, sizes[si]);
            if (!gb_register(copy->name, skin_copy, copy)) goto out;
            for (int vi = 0; vi < o->nvars; vi++) {
                skin_row *r = &rows[nrows++];
                *r = (skin_row){ .method = m, .v = o->vars[vi], .n = sizes[si], .copy = copy };
                snprintf(r->name, sizeof r->name, "%s/%s/%zu", op, pb_variant_name(o->vars[vi]), sizes[si]);
                if (!gb_register(r->name, skin_kernel, r)) goto out;
            }
        }
    }
    for (int i = 0; i < o->nctx; i++) gb_add_context(o->ctx_keys[i], o->ctx_vals[i]);
    if (gb_run(on_skin_result, NULL) < 0) goto out;
    printf("\n%-28s %10s %8s %8s %9s %10s\n", "skinning (4 influences)", "ns/vertex", "B/vertex", "GB/s", "copy GB/s",
           "vs copy");
    int errors = 0;
    for (int i = 0; i < nrows; i++) {
        const skin_row *r = &rows[i];
        errors += r->error;
        if (!r->v || r->error || !(r->cpu_s > 0)) continue;
        double ns = r->cpu_s * 1e9 / (double)r->n, gbs = SKIN_BYTES_PER_VERTEX / ns;
        double cns = r->copy->cpu_s * 1e9 / (double)r->n;
        printf("%-28s %10.3f %8.0f %8.2f %9.2f %9.2fx\n", r->name, ns, SKIN_BYTES_PER_VERTEX, gbs,
               SKIN_BYTES_PER_VERTEX / cns, ns / cns);
    }
    status = errors ? 1 : 0;
out:
    gb_shutdown();
    free(gbv);
    return status;
}
