/* layers_bench.c — the masked layer benchmarks behind `posebench bench --op
 * masked`: the override layer (blend_static, blend_static_nlerp) and the
 * additive layer (additive_local_static, additive_local_static_nlerp) on static poses of n joints (a
 * crowd of 1024 characters: n / 1024 joints each), each with a weight per
 * character (per.alpha) times a bone mask per joint (per.mask: a third of
 * the joints 0, a third 1, a third in between), every variant, next to a
 * memcpy of the op's bytes: two inputs and the output, 40 B each per joint
 * (the weights and the mask are per character and per joint: 4 B per 1024
 * joints and per 1024 characters, left out). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_internal.h"
#include "rng.h"

#define ML_C 1024
#define ML_MAX_ROWS 120
#define ML_BYTES (3.0 * 10 * sizeof(float))

static const pb_op forms[] = { PB_OP_blend_static, PB_OP_blend_static_nlerp, PB_OP_additive_local_static,
                               PB_OP_additive_local_static_nlerp };
#define ML_FORMS (int)(sizeof forms / sizeof forms[0])

typedef struct ml_row {
    bench_item it;
    const pb_variant *v;   /* NULL: the copy */
    int form;
    size_t n;
    struct ml_row *copy, *scalar;
} ml_row;
static ml_row rows[ML_MAX_ROWS];
static int nrows;

typedef struct { pb_pose a, b, out; float *alpha, *mask; } ml_set;

static void set_free(ml_set *s)
{
    pb_pose_free(&s->a), pb_pose_free(&s->b), pb_pose_free(&s->out);
    free(s->alpha), free(s->mask);
}

/* Random unit rotations within 90 degrees of each other's, positions, scales near 1; additive deltas small. */
static int set_make(ml_set *s, size_t n)
{
    memset(s, 0, sizeof *s);
    uint64_t r = 4242;
    size_t J = n / ML_C;
    if (!(s->alpha = malloc(ML_C * sizeof *s->alpha)) || !(s->mask = malloc(J * sizeof *s->mask))) return -1;
    if (pb_pose_alloc_static(&s->a, n) != PB_OK || pb_pose_alloc_static(&s->b, n) != PB_OK ||
        pb_pose_alloc_static(&s->out, n) != PB_OK)
        return -1;
    for (size_t k = 0; k < ML_C; k++) s->alpha[k] = pb_rng_unit01(&r);
    for (size_t j = 0; j < J; j++) s->mask[j] = j % 3 == 0 ? 0.0f : j % 3 == 1 ? 1.0f : pb_rng_unit01(&r);
    pb_pose *p[2] = { &s->a, &s->b };
    for (int i = 0; i < 2; i++)
        for (size_t e = 0; e < n; e++) {
            double d[3], h = 0.39 * pb_rng_unit01d(&r);
            pb_rng_dir(&r, d);
            p[i]->plane[PB_ROT_W][e] = (float)cos(h);
            for (int c = 0; c < 3; c++) {
                p[i]->plane[PB_ROT_X + c][e] = (float)(sin(h) * d[c]);
                p[i]->plane[PB_POS_X + c][e] = pb_rng_unit01(&r);
                p[i]->plane[PB_SCL_X + c][e] = 0.9f + 0.2f * pb_rng_unit01(&r);
            }
        }
    return 0;
}

static void counters(gb_state *st, const ml_row *r)
{
    gb_set_counter(st, "bytes_per_joint", ML_BYTES, PB_BC_PLAIN);
    gb_set_counter(st, "bytes_per_s", ML_BYTES * (double)r->n, PB_BC_RATE | PB_BC_ITER_INVARIANT | PB_BC_1024);
    gb_set_counter(st, "ns_per_joint", (double)r->n * 1e-9, PB_BC_RATE | PB_BC_ITER_INVARIANT | PB_BC_INVERT);
}

static void ml_copy(gb_state *st, void *user)
{
    ml_row *r = user;
    if (bench_copy_loop(st, (size_t)(ML_BYTES * (double)r->n)) == 0) counters(st, r);
}

static void ml_time(gb_state *st, void *user)
{
    ml_row *r = user;
    ml_set s;
    if (set_make(&s, r->n) != 0) {
        set_free(&s);
        gb_skip_with_error(st, "out of memory");
        return;
    }
    pb_call call = { .a = &s.a, .b = &s.b, .out = &s.out, .per = { .characters = ML_C, .alpha = s.alpha, .mask = s.mask } };
    int ok = bench_plan_loop(st, forms[r->form], r->v, &call) == 0;
    set_free(&s);
    if (ok) counters(st, r);
}

static ml_row *add(ml_row r)
{
    if (nrows == ML_MAX_ROWS) return NULL;
    rows[nrows] = r;
    return &rows[nrows++];
}

int bench_layers_run(const bench_opts *o)
{
    static const size_t defaults[] = { 65536, 1048576 };
    const size_t *sizes = o->nsizes ? o->sizes : defaults;
    int nsizes = o->nsizes ? o->nsizes : 2;
    nrows = 0;
    for (int si = 0; si < nsizes; si++) {
        size_t n = sizes[si] / ML_C * ML_C;
        if (n == 0) n = ML_C;
        ml_row *copy = add((ml_row){ .it = { .fn = ml_copy }, .n = n });
        if (!copy) break;
        snprintf(copy->it.name, sizeof copy->it.name, "copy/masked/%zu", n);
        for (int f = 0; f < ML_FORMS; f++) {
            ml_row *sc = NULL;
            for (int vi = 0; vi < o->nvars; vi++) {
                ml_row *r = add((ml_row){ .it = { .fn = ml_time }, .v = o->vars[vi], .form = f, .n = n, .copy = copy });
                if (!r) break;
                if (!strcmp(pb_variant_name(o->vars[vi]), "scalar")) sc = r;
                snprintf(r->it.name, sizeof r->it.name, "masked_%s/%s/%zu", pb_op_get(forms[f])->name,
                         pb_variant_name(o->vars[vi]), n);
            }
            for (int i = 0; i < nrows; i++)
                if (rows[i].copy == copy && rows[i].form == f && rows[i].v) rows[i].scalar = sc;
        }
    }
    int timed = 0, status = bench_rows_run(o, rows, sizeof rows[0], nrows, &timed);
    if (status == 2 || !timed) return status;
    printf("\nMasked layers: %d characters, a weight per character x a bone mask per joint (per.alpha, per.mask), "
           "static poses, through a plan; bytes per joint: 2 inputs + the output, 40 B each\n%-44s %9s %8s %8s %9s "
           "%9s %10s\n", ML_C, "layer (median CPU time)", "ns/joint", "B/joint", "GB/s", "copy GB/s", "vs copy",
           "vs scalar");
    for (int i = 0; i < nrows; i++) {
        const ml_row *r = &rows[i];
        if (!r->v || r->it.error || !(r->it.cpu_s > 0)) continue;
        bench_ratio_line(r->it.name, r->it.cpu_s, r->copy->it.cpu_s, r->scalar ? r->scalar->it.cpu_s : 0, r->n, ML_BYTES);
    }
    return status;
}
