/* bspace_bench.c — the blend-space weights benchmarks behind `posebench
 * bench --op bspace` (posebench/bspace.h). Per method its sample sets (the
 * validation's: validate/bspace_check.c): 1D over 5 speeds; barycentric and
 * gradient band over 8 random samples (the 2D case) and the
 * 17-sample locomotion set; polar over 8 directions plus the origin and the
 * locomotion set. Parameters: seeded, the samples' box grown by 30 %, so
 * lanes land in different triangles and some outside the hull. Per number of
 * characters: a memcpy of the op's bytes (parameters in, weight planes out)
 * as the roofline, then each method x set x variant. Rows state ns per
 * character, bytes per character, GB/s and the ratios to the copy and to
 * scalar, from the same run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_internal.h"
#include "bspace_check.h"

#define BS_MAX_ROWS 400
#define BS_MAX_SIZES 8

enum { ROW_COPY, ROW_WEIGHTS };
typedef struct bs_row {
    bench_item it;
    int kind;
    const pb_variant *v;
    const pb_bspace *bs;
    size_t n;
    struct bs_row *copy, *scalar;
} bs_row;

static bs_row rows[BS_MAX_ROWS];
static int nrows;
static char *volatile copy_sink;

/* Each case: a method over a sample set (bspace_check.h's numbering). */
static const struct { pb_bspace_method method; int set; } cases[] = {
    { PB_BSPACE_1D, 0 },       { PB_BSPACE_BARYCENTRIC, 3 }, { PB_BSPACE_BARYCENTRIC, 1 }, { PB_BSPACE_GRADIENT, 3 },
    { PB_BSPACE_GRADIENT, 1 }, { PB_BSPACE_POLAR, 4 },       { PB_BSPACE_POLAR, 1 },
};
#define NCASES (sizeof cases / sizeof cases[0])
static pb_bspace spaces[NCASES];
static const char *set_names[NCASES];

static double bytes_per_char(const pb_bspace *bs)
{
    return (double)((bs->method == PB_BSPACE_1D ? 1 : 2) + bs->samples) * sizeof(float);
}

typedef struct { float *px, *py, *w; } bs_buffers;

static int buffers(bs_buffers *b, const pb_bspace *bs, size_t n)
{
    b->px = malloc(n * sizeof(float)), b->py = malloc(n * sizeof(float));
    b->w = malloc(n * bs->samples * sizeof(float));
    if (!b->px || !b->py || !b->w) return -1;
    pb_bs_params(bs, 0, b->px, b->py, n, 99);
    memset(b->w, 0, n * bs->samples * sizeof(float));
    return 0;
}
static void buffers_free(bs_buffers *b) { free(b->px), free(b->py), free(b->w); }

static void set_counters(gb_state *st, const bs_row *r)
{
    double bpc = bytes_per_char(r->bs);
    gb_set_counter(st, "bytes_per_char", bpc, PB_BC_PLAIN);
    gb_set_counter(st, "bytes_per_s", bpc * (double)r->n, PB_BC_RATE | PB_BC_ITER_INVARIANT | PB_BC_1024);
    gb_set_counter(st, "ns_per_char", (double)r->n * 1e-9, PB_BC_RATE | PB_BC_ITER_INVARIANT | PB_BC_INVERT);
}

/* The roofline: the parameters read and the weight planes written, as memcpy. */
static void bs_copy(gb_state *st, void *user)
{
    bs_row *r = user;
    bs_buffers b, d;
    if (buffers(&b, r->bs, r->n) != 0 || buffers(&d, r->bs, r->n) != 0) {
        gb_skip_with_error(st, "out of memory");
        return;
    }
    int two = r->bs->method != PB_BSPACE_1D;
    size_t wb = r->n * r->bs->samples * sizeof(float);
    copy_sink = (char *)d.w;
    while (gb_keep_running(st)) {
        memcpy(d.px, b.px, r->n * sizeof(float));
        if (two) memcpy(d.py, b.py, r->n * sizeof(float));
        memcpy(d.w, b.w, wb);
        gb_clobber_memory();
    }
    copy_sink = NULL;
    buffers_free(&b), buffers_free(&d);
    set_counters(st, r);
}

static void bs_weights(gb_state *st, void *user)
{
    bs_row *r = user;
    bs_buffers b;
    if (buffers(&b, r->bs, r->n) != 0) {
        gb_skip_with_error(st, "out of memory");
        return;
    }
    while (gb_keep_running(st)) {
        if (pb_bspace_weights(r->bs, b.px, b.py, r->n, b.w, r->n, r->v) != PB_OK) {
            gb_skip_with_error(st, pb_last_error());
            break;
        }
        gb_clobber_memory();
    }
    buffers_free(&b);
    set_counters(st, r);
}

static bs_row *add(bs_row r)
{
    if (nrows == BS_MAX_ROWS) return NULL;
    rows[nrows] = r;
    return &rows[nrows++];
}

int bench_bspace_run(const bench_opts *o)
{
    static const size_t defaults[] = { 1000, 100000 };
    const size_t *sizes = o->nsizes ? o->sizes : defaults;
    const int nsizes = o->nsizes < BS_MAX_SIZES ? (o->nsizes ? o->nsizes : 2) : BS_MAX_SIZES;
    const pb_variant *scalar = NULL;
    int status = 2;
    memset(spaces, 0, sizeof spaces);
    for (size_t c = 0; c < NCASES; c++) {
        float x[PB_BSPACE_MAX_SAMPLES], y[PB_BSPACE_MAX_SAMPLES];
        size_t m = pb_bs_set(cases[c].set, x, y, &set_names[c]);
        if (pb_bspace_create(&spaces[c], cases[c].method, x, y, m) != PB_OK) {
            fprintf(stderr, "posebench bench: blend space %s: %s\n", set_names[c], pb_last_error());
            goto out;
        }
    }
    for (int vi = 0; vi < o->nvars; vi++)
        if (!strcmp(pb_variant_name(o->vars[vi]), "scalar")) scalar = o->vars[vi];
    nrows = 0;
    for (int si = 0; si < nsizes; si++)
        for (size_t c = 0; c < NCASES; c++) {
            bs_row *copy = add((bs_row){ .it = { .fn = bs_copy }, .kind = ROW_COPY, .bs = &spaces[c], .n = sizes[si] });
            if (!copy) break;
            snprintf(copy->it.name, sizeof copy->it.name, "copy/bspace_%s_%s/%zu",
                     pb_bspace_method_name(cases[c].method), set_names[c], sizes[si]);
            bs_row *srow = NULL;
            for (int vi = 0; vi < o->nvars; vi++) {
                bs_row *r = add((bs_row){ .it = { .fn = bs_weights }, .kind = ROW_WEIGHTS, .v = o->vars[vi],
                                          .bs = &spaces[c], .n = sizes[si], .copy = copy });
                if (!r) break;
                if (o->vars[vi] == scalar) srow = r;
                snprintf(r->it.name, sizeof r->it.name, "bspace_%s_%s/%s/%zu", pb_bspace_method_name(cases[c].method),
                         set_names[c], pb_variant_name(o->vars[vi]), sizes[si]);
            }
            for (int i = 0; i < nrows; i++)
                if (rows[i].kind == ROW_WEIGHTS && rows[i].copy == copy) rows[i].scalar = srow;
        }
    int timed = 0;
    status = bench_rows_run(o, rows, sizeof rows[0], nrows, &timed);
    if (status == 2 || !timed) goto out;   /* (--benchmark_list_tests: nothing ran) */
    printf("\nblend-space weights: parameters seeded over the samples' box grown by 30 %% (some outside the hull); "
           "bytes per character: parameters read + one weight per sample written\n");
    printf("%-44s %9s %8s %8s %9s %9s %10s\n", "weights (median CPU time)", "ns/char", "B/char", "GB/s", "copy GB/s",
           "vs copy", "vs scalar");
    for (int i = 0; i < nrows; i++) {
        const bs_row *r = &rows[i];
        if (r->kind != ROW_WEIGHTS || r->it.error || !(r->it.cpu_s > 0)) continue;
        bench_ratio_line(r->it.name, r->it.cpu_s, r->copy->it.cpu_s, r->scalar ? r->scalar->it.cpu_s : 0, r->n,
                         bytes_per_char(r->bs));
    }
out:
    for (size_t c = 0; c < NCASES; c++) pb_bspace_free(&spaces[c]);
    return status;
}
