/* blend_n_bench.c — the N-way blend benchmarks behind `posebench bench --op
 * blend_n` (posebench/blend_n.h): K = 2, 4 and 16 static input poses of n
 * joints (a crowd of 1024 characters: n / 1024 joints each; rotations within
 * 90 degrees of each other, random weights), fast and accurate, every
 * variant, next to a memcpy of the op's bytes (K inputs' and the output's
 * positions, rotations and scales, 40 B each per joint; the weights are
 * per character and negligible). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_internal.h"
#include "rng.h"

#define BN_C 1024
#define BN_MAX_ROWS 240
#define BN_BYTES(k) ((double)((k) + 1) * 10 * sizeof(float))

typedef struct bn_row {
    bench_item it;
    const pb_variant *v;   /* NULL: the copy */
    int method;
    size_t k, n;
    struct bn_row *copy, *scalar;
} bn_row;
static bn_row rows[BN_MAX_ROWS];
static int nrows;

typedef struct { pb_pose in[PB_BLEND_N_MAX], out; const pb_pose *ptr[PB_BLEND_N_MAX]; float *w; } bn_set;

static void set_free(bn_set *s)
{
    for (int i = 0; i < PB_BLEND_N_MAX; i++) pb_pose_free(&s->in[i]);
    pb_pose_free(&s->out);
    free(s->w);
}
static int set_make(bn_set *s, size_t k, size_t n)
{
    memset(s, 0, sizeof *s);
    uint64_t r = 12345 + k;
    if (!(s->w = malloc(k * BN_C * sizeof *s->w)) || pb_pose_alloc_static(&s->out, n) != PB_OK) return -1;
    for (size_t i = 0; i < k * BN_C; i++) s->w[i] = 0.05f + pb_rng_unit01(&r);
    for (size_t i = 0; i < k; i++) {
        if (pb_pose_alloc_static(&s->in[i], n) != PB_OK) return -1;
        s->ptr[i] = &s->in[i];
        for (size_t e = 0; e < n; e++) {
            double d[3], h = 0.39 * pb_rng_unit01d(&r);
            pb_rng_dir(&r, d);
            s->in[i].plane[PB_ROT_W][e] = (float)cos(h);
            for (int c = 0; c < 3; c++) {
                s->in[i].plane[PB_ROT_X + c][e] = (float)(sin(h) * d[c]);
                s->in[i].plane[PB_POS_X + c][e] = pb_rng_unit01(&r);
                s->in[i].plane[PB_SCL_X + c][e] = 0.9f + 0.2f * pb_rng_unit01(&r);
            }
        }
    }
    return 0;
}

static void counters(gb_state *st, const bn_row *r)
{
    gb_set_counter(st, "bytes_per_joint", BN_BYTES(r->k), PB_BC_PLAIN);
    gb_set_counter(st, "bytes_per_s", BN_BYTES(r->k) * (double)r->n, PB_BC_RATE | PB_BC_ITER_INVARIANT | PB_BC_1024);
    gb_set_counter(st, "ns_per_joint", (double)r->n * 1e-9, PB_BC_RATE | PB_BC_ITER_INVARIANT | PB_BC_INVERT);
}

static void bn_copy(gb_state *st, void *user)
{
    bn_row *r = user;
    if (bench_copy_loop(st, (size_t)(BN_BYTES(r->k) * (double)r->n)) == 0) counters(st, r);
}

static void bn_time(gb_state *st, void *user)
{
    bn_row *r = user;
    bn_set s;
    if (set_make(&s, r->k, r->n) != 0) {
        set_free(&s);
        gb_skip_with_error(st, "out of memory");
        return;
    }
    while (gb_keep_running(st)) {
        if (pb_blend_n(s.ptr, r->k, s.w, BN_C, (pb_blend_n_method)r->method, PB_SCALE_LINEAR, &s.out, r->v) != PB_OK) {
            gb_skip_with_error(st, pb_last_error());
            break;
        }
        gb_clobber_memory();
    }
    set_free(&s);
    counters(st, r);
}

static bn_row *add(bn_row r)
{
    if (nrows == BN_MAX_ROWS) return NULL;
    rows[nrows] = r;
    return &rows[nrows++];
}

int bench_blend_n_run(const bench_opts *o)
{
    static const size_t defaults[] = { 65536, 1048576 }, ks[] = { 2, 4, 16 };
    const size_t *sizes = o->nsizes ? o->sizes : defaults;
    int nsizes = o->nsizes ? o->nsizes : 2;
    nrows = 0;
    for (int si = 0; si < nsizes; si++)
        for (int ki = 0; ki < 3; ki++) {
            size_t n = sizes[si] / BN_C * BN_C;
            if (n == 0) n = BN_C;
            bn_row *copy = add((bn_row){ .it = { .fn = bn_copy }, .k = ks[ki], .n = n });
            if (!copy) break;
            snprintf(copy->it.name, sizeof copy->it.name, "copy/blend_n_k%zu/%zu", ks[ki], n);
            for (int m = 0; m < PB_BLEND_N_METHODS; m++) {
                bn_row *sc = NULL;
                for (int vi = 0; vi < o->nvars; vi++) {
                    bn_row *r = add((bn_row){ .it = { .fn = bn_time }, .v = o->vars[vi], .method = m, .k = ks[ki],
                                              .n = n, .copy = copy });
                    if (!r) break;
                    if (!strcmp(pb_variant_name(o->vars[vi]), "scalar")) sc = r;
                    snprintf(r->it.name, sizeof r->it.name, "blend_n_%s_k%zu/%s/%zu",
                             pb_blend_n_method_name((pb_blend_n_method)m), ks[ki], pb_variant_name(o->vars[vi]), n);
                }
                for (int i = 0; i < nrows; i++)
                    if (rows[i].copy == copy && rows[i].method == m && rows[i].v) rows[i].scalar = sc;
            }
        }
    int timed = 0, status = bench_rows_run(o, rows, sizeof rows[0], nrows, &timed);
    if (status == 2 || !timed) return status;
    printf("\nN-way blend: %d characters, rotations within 90 degrees; bytes per joint: K inputs + the output, 40 B "
           "each\n%-44s %9s %8s %8s %9s %9s %10s\n", BN_C, "blend (median CPU time)", "ns/joint", "B/joint", "GB/s",
           "copy GB/s", "vs copy", "vs scalar");
    for (int i = 0; i < nrows; i++) {
        const bn_row *r = &rows[i];
        if (!r->v || r->it.error || !(r->it.cpu_s > 0)) continue;
        bench_ratio_line(r->it.name, r->it.cpu_s, r->copy->it.cpu_s, r->scalar ? r->scalar->it.cpu_s : 0, r->n,
                         BN_BYTES(r->k));
    }
    return status;
}
