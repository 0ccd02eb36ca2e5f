/* palette_bench.c — `posebench bench --op palette_bind`: the skinning
 * palettes (palette, palette_dq) of a crowd of 64-joint characters with the
 * inverse bind pose in both of its forms, per element (b.n = n: the per-joint
 * pose repeated for each character) and per joint (b.n = n / characters,
 * per.characters set: one per skeleton, as engines keep it), every variant,
 * through a plan, next to a memcpy of each form's bytes. Bytes per joint: the
 * globals read (40 B), the palette written (48 B, dual quaternions 32 B) and,
 * per element, the inverse bind read (40 B); per joint its 40 B per character
 * are left out. The default sizes hold 200 characters (the frame's crowd: not
 * a multiple of any lane width, so vectors straddle joints) and 1024, 16384.
 * With --model FILE: rows .../model on a crowd of 200 of that character (its
 * rest-pose globals, its inverse binds), the 64-joint rows at the same joint
 * count (rounded down to whole 64-joint characters) beside them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_internal.h"
#include "rng.h"

#define PL_J 64
#define PL_MAX_ROWS 160

static const pb_op ops[] = { PB_OP_palette, PB_OP_palette_dq };

typedef struct pl_row {
    bench_item it;
    const pb_variant *v;   /* NULL: the copy */
    int op, shared;
    int model;             /* the --model character's globals and inverse binds, not random ones */
    size_t n;
    struct pl_row *copy, *scalar;
} pl_row;
static pl_row rows[PL_MAX_ROWS];
static int nrows;

static double row_bytes(const pl_row *r)
{
    double out = ops[r->op] == PB_OP_palette_dq ? PB_PALETTE_DQ_FLOATS : PB_PALETTE_MAT_FLOATS;
    return (10.0 + (r->shared ? 0.0 : 10.0) + out) * sizeof(float);
}

typedef struct { pb_pose a, b; float *pal; } pl_set;

static void set_free(pl_set *s)
{
    pb_pose_free(&s->a), pb_pose_free(&s->b);
    free(s->pal);
}

/* Globals: random unit rotations, positions within 2 m, scales near 1; the
 * inverse bind of each joint (translations within 1 m, small turns) for every
 * character, or once per joint. */
static int set_make(pl_set *s, size_t n, int shared)
{
    memset(s, 0, sizeof *s);
    size_t C = n / PL_J, nb = shared ? PL_J : n;
    if (pb_pose_alloc_static(&s->a, n) != PB_OK || pb_pose_alloc_static(&s->b, nb) != PB_OK ||
        !(s->pal = malloc(n * PB_PALETTE_MAT_FLOATS * sizeof *s->pal)))
        return -1;
    uint64_t r = 777;
    for (size_t e = 0; e < n; e++) {
        double d[3], h = 3.14159 * pb_rng_unit01d(&r);
        pb_rng_dir(&r, d);
        s->a.plane[PB_ROT_W][e] = (float)cos(h);
        for (int c = 0; c < 3; c++) {
            s->a.plane[PB_ROT_X + c][e] = (float)(sin(h) * d[c]);
            s->a.plane[PB_POS_X + c][e] = 4 * pb_rng_unit01(&r) - 2;
            s->a.plane[PB_SCL_X + c][e] = 0.9f + 0.2f * pb_rng_unit01(&r);
        }
    }
    r = 4343;
    for (size_t j = 0; j < PL_J; j++) {
        double d[3], h = 0.2 * pb_rng_unit01d(&r);
        float v[10];
        pb_rng_dir(&r, d);
        for (int c = 0; c < 3; c++) {
            v[PB_POS_X + c] = 2 * pb_rng_unit01(&r) - 1;
            v[PB_ROT_X + c] = (float)(sin(h) * d[c]);
            v[PB_SCL_X + c] = 1.0f;
        }
        v[PB_ROT_W] = (float)cos(h);
        for (size_t k = 0; k < (shared ? 1 : C); k++)
            for (int p = 0; p < PB_STATIC_PLANES; p++) s->b.plane[p][shared ? j : j * C + k] = v[p];
    }
    return 0;
}

/* --model: a crowd of PL_MODEL_CHARS copies of the character: each joint's global at its rest pose, its
 * inverse bind as the file gives it (per element: repeated for each character; per joint: once). */
#define PL_MODEL_CHARS 200
static bench_model mdl;

static int set_make_model(pl_set *s, int shared)
{
    memset(s, 0, sizeof *s);
    size_t J = mdl.asset.joints, n = J * PL_MODEL_CHARS, nb = shared ? J : n;
    if (pb_pose_alloc_static(&s->a, n) != PB_OK || pb_pose_alloc_static(&s->b, nb) != PB_OK ||
        !(s->pal = malloc(n * PB_PALETTE_MAT_FLOATS * sizeof *s->pal)))
        return -1;
    for (size_t c = 0; c < PL_MODEL_CHARS; c++)   /* element = character x J + joint, as the frame lays it out */
        for (size_t j = 0; j < J; j++)
            for (int p = 0; p < PB_STATIC_PLANES; p++) {
                s->a.plane[p][c * J + j] = mdl.global.plane[p][j];
                if (!shared || c == 0) s->b.plane[p][c * J + j] = mdl.asset.inv_bind_pose.plane[p][j];
            }
    return 0;
}

static void counters(gb_state *st, const pl_row *r)
{
    double bytes = row_bytes(r);
    gb_set_counter(st, "bytes_per_joint", bytes, PB_BC_PLAIN);
    gb_set_counter(st, "bytes_per_s", bytes * (double)r->n, PB_BC_RATE | PB_BC_ITER_INVARIANT | PB_BC_1024);
    gb_set_counter(st, "ns_per_joint", (double)r->n * 1e-9, PB_BC_RATE | PB_BC_ITER_INVARIANT | PB_BC_INVERT);
}

static void pl_copy(gb_state *st, void *user)
{
    pl_row *r = user;
    if (bench_copy_loop(st, (size_t)(row_bytes(r) * (double)r->n)) == 0) counters(st, r);
}

static void pl_time(gb_state *st, void *user)
{
    pl_row *r = user;
    pl_set s;
    if ((r->model ? set_make_model(&s, r->shared) : set_make(&s, r->n, r->shared)) != 0) {
        set_free(&s);
        gb_skip_with_error(st, "out of memory");
        return;
    }
    pb_palette pal = { s.pal, r->n };
    pb_call call = { .a = &s.a, .b = &s.b, .palette = &pal };
    if (r->shared) call.per.characters = r->model ? PL_MODEL_CHARS : r->n / PL_J;
    int ok = bench_plan_loop(st, ops[r->op], r->v, &call) == 0;
    set_free(&s);
    if (ok) counters(st, r);
}

static pl_row *add(pl_row r)
{
    if (nrows == PL_MAX_ROWS) return NULL;
    rows[nrows] = r;
    return &rows[nrows++];
}

int bench_palette_run(const bench_opts *o)
{
    static const size_t defaults[] = { 200 * PL_J, 1024 * PL_J, 16384 * PL_J };
    const size_t *sizes = o->nsizes ? o->sizes : defaults;
    int nsizes = o->nsizes ? o->nsizes : 3;
    nrows = 0;
    size_t model_n = 0;
    if (o->model) {   /* the character's crowd, beside the 64-joint one at the same joint count */
        if (bench_model_load(o->model, &mdl) != 0) return 2;
        model_n = mdl.asset.joints * PL_MODEL_CHARS;
        sizes = &model_n, nsizes = 1;
        printf("--model %s: %zu joints (%zu bones), a crowd of %d: %zu joints, the globals of its rest pose, its "
               "inverse binds\n", o->model, mdl.asset.joints, mdl.asset.bones, PL_MODEL_CHARS, model_n);
    }
    for (int si = 0; si < nsizes; si++) {
        size_t n = sizes[si] / PL_J * PL_J;
        if (n == 0) n = PL_J;
        for (int op = 0; op < 2; op++)
            for (int sh = 0; sh < 2; sh++) {
                pl_row *copy = add((pl_row){ .it = { .fn = pl_copy }, .op = op, .shared = sh, .n = n });
                if (!copy) break;
                const char *form = sh ? "[bind=per joint]" : "";
                snprintf(copy->it.name, sizeof copy->it.name, "copy/%s%s/%zu", pb_op_get(ops[op])->name, form, n);
                pl_row *sc = NULL;
                for (int vi = 0; vi < o->nvars; vi++) {
                    pl_row *r = add((pl_row){ .it = { .fn = pl_time }, .v = o->vars[vi], .op = op, .shared = sh,
                                              .n = n, .copy = copy });
                    if (!r) break;
                    if (!strcmp(pb_variant_name(o->vars[vi]), "scalar")) sc = r;
                    snprintf(r->it.name, sizeof r->it.name, "%s%s/%s/%zu", pb_op_get(ops[op])->name, form,
                             pb_variant_name(o->vars[vi]), n);
                }
                for (int i = 0; i < nrows; i++)
                    if (rows[i].copy == copy && rows[i].v) rows[i].scalar = sc;
                if (!o->model) continue;
                pl_row *mcopy = add((pl_row){ .it = { .fn = pl_copy }, .op = op, .shared = sh, .n = model_n });
                if (!mcopy) break;
                snprintf(mcopy->it.name, sizeof mcopy->it.name, "copy/%s%s/%zu/model", pb_op_get(ops[op])->name, form,
                         model_n);
                pl_row *msc = NULL;
                for (int vi = 0; vi < o->nvars; vi++) {
                    pl_row *r = add((pl_row){ .it = { .fn = pl_time }, .v = o->vars[vi], .op = op, .shared = sh,
                                              .model = 1, .n = model_n, .copy = mcopy });
                    if (!r) break;
                    if (!strcmp(pb_variant_name(o->vars[vi]), "scalar")) msc = r;
                    snprintf(r->it.name, sizeof r->it.name, "%s%s/%s/%zu/model", pb_op_get(ops[op])->name, form,
                             pb_variant_name(o->vars[vi]), model_n);
                }
                for (int i = 0; i < nrows; i++)
                    if (rows[i].copy == mcopy && rows[i].v) rows[i].scalar = msc;
            }
    }
    int timed = 0, status = bench_rows_run(o, rows, sizeof rows[0], nrows, &timed);
    if (status == 2 || !timed) return bench_model_free(&mdl), status;
    printf("\nSkinning palettes of %d-joint characters, the inverse bind per element or per joint (shared by the "
           "characters), through a plan; bytes per joint: globals 40 B read, palette 48 B (dq 32 B) written, per "
           "element the inverse bind 40 B read\n%-44s %9s %8s %8s %9s %9s %10s\n", PL_J, "palette (median CPU time)",
           "ns/joint", "B/joint", "GB/s", "copy GB/s", "vs copy", "vs scalar");
    for (int i = 0; i < nrows; i++) {
        const pl_row *r = &rows[i];
        if (!r->v || r->it.error || !(r->it.cpu_s > 0)) continue;
        bench_ratio_line(r->it.name, r->it.cpu_s, r->copy->it.cpu_s, r->scalar ? r->scalar->it.cpu_s : 0, r->n,
                         row_bytes(r));
    }
    bench_model_free(&mdl);
    return status;
}
