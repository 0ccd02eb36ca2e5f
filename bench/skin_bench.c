/* skin_bench.c — the skinning benchmarks behind `posebench bench --op
 * skin_lbs / skin_dqs` (posebench/skin.h): per method and vertex count, a
 * memcpy of the vertex bytes the kernel streams (the roofline, in the same
 * run), then each variant through a job. Inputs: the validation's random
 * case (4 influences, palette in cache, indices random so no two neighbours
 * share an entry) over 64 joints (the synthetic skeleton) and over 31 (the
 * CMU skeleton's count; rows named .../j31): AVX-512 reads palettes of up to
 * 32 joints with one permute per component, up to 64 with two; and the
 * synthetic mesh of the 64-joint synthetic skeleton (rows .../bones: its
 * vertices run along the bones, so neighbours share joints, as in a mesh
 * sorted by bone: where the job keeps its runs, a step in one or two
 * broadcasts each influence's entries). Rows .../pos and .../bones/pos
 * skin positions only (PB_SKIN_POSITIONS_ONLY: no normals read or written),
 * each against a copy of its own bytes (copy/<op>/<n>/pos). With --model FILE
 * (posebench/asset.h) rows .../model (and .../model/pos) skin that character's
 * own mesh (its influences, its vertex order) by the palettes of its rest pose
 * and inverse binds, and the synthetic rows run at its vertex count beside
 * them. With --slots, rows .../slots<k> (k = 1 .. 4) skin the random mesh over
 * 64 joints with pb_mesh.influences = k, the weights renormalised over the
 * kept slots (slots4: the plain row's mesh, renormalised), and the run ends
 * with the least-squares line ns/vertex = a + b k per method, variant and
 * size, and its value at 8 slots: what an influence slot costs (docs/asset.md).
 * Rows state bytes per vertex and GB/s; a summary table follows the run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_internal.h"
#include "skin_check.h"

/* Per vertex: read pos, nrm (24 B), 4 indices and 4 weights (32 B); write
 * pos, nrm (24 B): 80 B. Positions only: 12 + 32 read, 12 written: 56 B. */
#define SKIN_BYTES_PER_VERTEX (24.0 + 32.0 + 24.0)
#define SKIN_POS_BYTES_PER_VERTEX (12.0 + 32.0 + 12.0)
#define SKIN_MAX_ROWS 256
#define SKIN_SLOTS_MAX PB_SKIN_MAX_INFLUENCES   /* --slots: rows .../slots1 .. slots4 */
#define SKIN_SLOTS_EXTRAPOLATE 8    /* the fit's value quoted beyond the kernels' 4 */

typedef struct skin_row {
    bench_item it;              /* name, timing and median seconds per iteration */
    int method;                 /* PB_SKIN_LBS / PB_SKIN_DQS */
    const pb_variant *v;        /* NULL: the copy */
    size_t n, joints;
    int bones;                  /* the synthetic mesh (pb_skin_case_bones), not random influences */
    int pos_only;               /* PB_SKIN_POSITIONS_ONLY */
    int model;                  /* the character of --model (its mesh, its palettes) */
    int slots;                  /* --slots: 1 .. 4 influence slots of the random mesh (0: the mesh's own) */
    struct skin_row *copy;
} skin_row;

/* A slots row reads 8 B (index and weight) per slot it skins, not 32. */
static double row_bytes(const skin_row *r)
{
    if (r->slots) return SKIN_BYTES_PER_VERTEX - 8.0 * (SKIN_SLOTS_MAX - r->slots);
    return r->pos_only ? SKIN_POS_BYTES_PER_VERTEX : SKIN_BYTES_PER_VERTEX;
}

static skin_row rows[SKIN_MAX_ROWS];
static int nrows;

static char *volatile copy_sink, *volatile scratch_sink;

/* The roofline as bench_run's (pool.c): the bytes the kernel writes copied
 * from as many of its input bytes, the rest of its input read (memcpy into
 * an L1 scratch), so the copy moves the kernel's bytes each way: 56 B read,
 * 24 B written per vertex (positions only: 44 and 12). */
static void skin_copy(gb_state *st, void *user)
{
    static char scratch[16384];
    skin_row *r = user;
    const double write_bytes = r->pos_only ? 12.0 : 24.0;
    size_t wr = (size_t)(write_bytes * (double)r->n), rd = (size_t)(row_bytes(r) * (double)r->n) - 2 * wr;
    void *block = NULL;
    char *src = malloc(wr + rd), *dst = src ? bench_copy_dst((uintptr_t)src, wr, &block) : NULL;
    if (!src || !dst) {
        free(src); free(block);
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
    free(src); free(block);
    gb_set_counter(st, "ns_per_vertex", (double)r->n * 1e-9, PB_BC_RATE | PB_BC_ITER_INVARIANT | PB_BC_INVERT);
    gb_set_counter(st, "bytes_per_vertex", row_bytes(r), PB_BC_PLAIN);
    gb_set_counter(st, "bytes_per_s", row_bytes(r) * (double)r->n, PB_BC_RATE | PB_BC_ITER_INVARIANT | PB_BC_1024);
}

/* --model: the file's mesh, skinned by the palettes of its rest pose (FK) and its inverse binds: what the frame
 * skins at that pose. Loaded once per run. */
static bench_model mdl;
static pb_palette model_mat, model_dq;

static void model_free(void)
{
    bench_model_free(&mdl);
    free(model_mat.data), free(model_dq.data);
    model_mat = model_dq = (pb_palette){ 0 };
}

static int model_load(const char *path)
{
    if (bench_model_load(path, &mdl) != 0) return -1;
    pb_status s = mdl.asset.mesh.n == 0 ? pb_fail(PB_ERR_PARSE, "%s: no mesh to skin", path) : PB_OK;
    model_mat = (pb_palette){ malloc(mdl.asset.joints * PB_PALETTE_MAT_FLOATS * sizeof(float)), mdl.asset.joints };
    model_dq = (pb_palette){ malloc(mdl.asset.joints * PB_PALETTE_DQ_FLOATS * sizeof(float)), mdl.asset.joints };
    if (s == PB_OK && (!model_mat.data || !model_dq.data)) s = pb_fail(PB_ERR_NOMEM, "%s: out of memory", path);
    if (s == PB_OK) s = pb_matrix_palette(&mdl.global, &mdl.asset.inv_bind_pose, &model_mat);
    if (s == PB_OK) s = pb_dq_palette(&mdl.global, &mdl.asset.inv_bind_pose, &model_dq);
    if (s == PB_OK) return 0;
    fprintf(stderr, "posebench bench: --model: %s\n", pb_last_error());
    model_free();
    return -1;
}

/* The random mesh cut to its first k slots, each vertex's kept weights divided by their sum (slot 0, the
 * heaviest, holds at least 1/4: the sum never nears 0), so the mesh stays valid for pb_skin_job_create. */
static void keep_slots(pb_mesh *m, int k)
{
    for (size_t v = 0; v < m->n; v++) {
        double sum = 0;
        for (int j = 0; j < k; j++) sum += m->w[j][v];
        for (int j = 0; j < k; j++) m->w[j][v] = (float)(m->w[j][v] / sum);
    }
    m->influences = k;
}

static void skin_kernel(gb_state *st, void *user)
{
    skin_row *r = user;
    pb_skin_case c = { 0 };
    pb_skinned out;
    if (r->model) {
        c.mesh = mdl.asset.mesh, c.mat = model_mat, c.dq = model_dq, c.joints = mdl.asset.joints;
    } else if ((r->bones ? pb_skin_case_bones(&c, r->n, r->joints, 0x5eed)
                         : pb_skin_case_random(&c, r->n, r->joints, 0x5eed + r->n)) != PB_OK) {
        gb_skip_with_error(st, pb_last_error());
        return;
    }
    if (r->slots) keep_slots(&c.mesh, r->slots);
    if (pb_skinned_alloc(&out, r->n) != PB_OK) {
        if (!r->model) pb_skin_case_free(&c);
        gb_skip_with_error(st, pb_last_error());
        return;
    }
    pb_skin_call call = { &c.mesh, r->method == PB_SKIN_LBS ? &c.mat : &c.dq, 1, 0, &out,
                          r->pos_only ? PB_SKIN_POSITIONS_ONLY : 0 };
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
        gb_set_counter(st, "bytes_per_vertex", row_bytes(r), PB_BC_PLAIN);
        gb_set_counter(st, "bytes_per_s", row_bytes(r) * (double)r->n, PB_BC_RATE | PB_BC_ITER_INVARIANT | PB_BC_1024);
    }
    pb_skin_job_free(job);
    pb_skinned_free(&out);
    if (!r->model) pb_skin_case_free(&c);
}

/* The measured slots rows of (method, variant, n): ns per vertex at 1 .. 4 slots. 1 when all four ran. */
static int slots_ns(const skin_row *first, double ns[SKIN_SLOTS_MAX])
{
    int found = 0;
    for (int i = 0; i < nrows; i++) {
        const skin_row *r = &rows[i];
        if (!r->slots || r->method != first->method || r->v != first->v || r->n != first->n) continue;
        if (r->it.error || !(r->it.cpu_s > 0)) return 0;
        ns[r->slots - 1] = r->it.cpu_s * 1e9 / (double)r->n;
        found++;
    }
    return found == SKIN_SLOTS_MAX;
}

/* --slots: ns/vertex = a + b k by least squares over k = 1 .. 4 (per method, variant, size), a the cost of a
 * vertex without its slots (positions and normals in and out, the transform), b one slot's (its index and
 * weight read, its palette entry fetched and summed), and the line at 8 slots, the kernels' 4 doubled. */
static void slots_fit(void)
{
    int header = 0;
    for (int i = 0; i < nrows; i++) {
        const skin_row *r = &rows[i];
        double ns[SKIN_SLOTS_MAX];
        if (r->slots != 1 || !slots_ns(r, ns)) continue;
        double km = 0, nm = 0, skk = 0, skn = 0;
        for (int k = 1; k <= SKIN_SLOTS_MAX; k++) km += k, nm += ns[k - 1];
        km /= SKIN_SLOTS_MAX, nm /= SKIN_SLOTS_MAX;
        for (int k = 1; k <= SKIN_SLOTS_MAX; k++) skk += (k - km) * (k - km), skn += (k - km) * (ns[k - 1] - nm);
        const double b = skn / skk, a = nm - b * km, at8 = a + SKIN_SLOTS_EXTRAPOLATE * b;
        if (!header++)
            printf("\n%-32s %10s %10s %10s %10s %8s\n", "slots fit: ns/vertex = a + b k", "a", "b per slot", "4 slots",
                   "8 slots", "8 / 4");
        char name[96];
        snprintf(name, sizeof name, "%s/%s/%zu", r->method == PB_SKIN_DQS ? "skin_dqs" : "skin_lbs",
                 pb_variant_name(r->v), r->n);
        printf("%-32s %10.3f %10.3f %10.3f %10.3f %7.2fx\n", name, a, b, ns[SKIN_SLOTS_MAX - 1], at8,
               at8 / ns[SKIN_SLOTS_MAX - 1]);
    }
}

int bench_skin_run(const bench_opts *o, int lbs, int dqs)
{
    static const size_t defaults[] = { 1000, 100000, 1000000 };
    const size_t *sizes = o->nsizes ? o->sizes : defaults;
    int nsizes = o->nsizes ? o->nsizes : 3;
    size_t model_n = 0;
    if (o->model) {   /* the character's rows, and the synthetic ones at its vertex count */
        if (model_load(o->model) != 0) return 2;
        model_n = mdl.asset.mesh.n;
        sizes = &model_n, nsizes = 1;
        printf("--model %s: %zu vertices, %zu joints, up to %d influences in the file, %d slots skinned (the table's "
               "B/vertex counts 4); palettes of its rest pose and inverse binds\n", o->model, mdl.asset.mesh.n,
               mdl.asset.joints, mdl.asset.max_influences, mdl.asset.mesh.influences);
    }
    nrows = 0;
    for (int m = 0; m < 2; m++) {
        if (!(m ? dqs : lbs)) continue;
        const char *op = m ? "skin_dqs" : "skin_lbs";
        for (int si = 0; si < nsizes && nrows + 2 + (7 + (o->slots ? SKIN_SLOTS_MAX : 0)) * o->nvars <= SKIN_MAX_ROWS;
             si++) {
            skin_row *copy = &rows[nrows++], *copy_pos = &rows[nrows++];
            *copy = (skin_row){ .it = { .fn = skin_copy }, .method = m, .n = sizes[si] };
            *copy_pos = (skin_row){ .it = { .fn = skin_copy }, .method = m, .n = sizes[si], .pos_only = 1 };
            snprintf(copy->it.name, sizeof copy->it.name, "copy/%s/%zu", op, sizes[si]);
            snprintf(copy_pos->it.name, sizeof copy_pos->it.name, "copy/%s/%zu/pos", op, sizes[si]);
            static const char *const suffix[5] = { "", "/j31", "/bones", "/pos", "/bones/pos" };
            for (int jc = 0; jc < 5; jc++)
                for (int vi = 0; vi < o->nvars; vi++) {
                    skin_row *r = &rows[nrows++];
                    const int pos_only = jc >= 3;
                    *r = (skin_row){ .it = { .fn = skin_kernel }, .method = m, .v = o->vars[vi], .n = sizes[si],
                                     .joints = jc == 1 ? 31 : 64, .bones = jc == 2 || jc == 4, .pos_only = pos_only,
                                     .copy = pos_only ? copy_pos : copy };
                    snprintf(r->it.name, sizeof r->it.name, "%s/%s/%zu%s", op, pb_variant_name(o->vars[vi]), sizes[si],
                             suffix[jc]);
                }
            for (int po = 0; o->model && po < 2; po++)
                for (int vi = 0; vi < o->nvars; vi++) {
                    skin_row *r = &rows[nrows++];
                    *r = (skin_row){ .it = { .fn = skin_kernel }, .method = m, .v = o->vars[vi], .n = model_n,
                                     .joints = mdl.asset.joints, .model = 1, .pos_only = po, .copy = po ? copy_pos : copy };
                    snprintf(r->it.name, sizeof r->it.name, "%s/%s/%zu/model%s", op, pb_variant_name(o->vars[vi]), model_n,
                             po ? "/pos" : "");
                }
            for (int k = 1; o->slots && k <= SKIN_SLOTS_MAX; k++)   /* the random mesh over 64 joints, k slots */
                for (int vi = 0; vi < o->nvars; vi++) {
                    skin_row *r = &rows[nrows++];
                    *r = (skin_row){ .it = { .fn = skin_kernel }, .method = m, .v = o->vars[vi], .n = sizes[si],
                                     .joints = 64, .slots = k };
                    snprintf(r->it.name, sizeof r->it.name, "%s/%s/%zu/slots%d", op, pb_variant_name(o->vars[vi]),
                             sizes[si], k);
                }
        }
    }
    int status = bench_rows_run(o, rows, sizeof rows[0], nrows, NULL);
    if (status == 2) return model_free(), 2;
    printf("\n%-32s %10s %8s %8s %9s %10s\n", "skinning (4 slots unless named)", "ns/vertex", "B/vertex", "GB/s",
           "copy GB/s", "vs copy");
    for (int i = 0; i < nrows; i++) {
        const skin_row *r = &rows[i];
        if (!r->v || r->it.error || !(r->it.cpu_s > 0)) continue;
        const double bytes = row_bytes(r);
        double ns = r->it.cpu_s * 1e9 / (double)r->n, gbs = bytes / ns;
        double cns = r->copy ? r->copy->it.cpu_s * 1e9 / (double)r->n : 0;
        if (!(cns > 0)) {   /* the copy filtered out of this run, or a slots row (no copy of its bytes) */
            printf("%-32s %10.3f %8.0f %8.2f %9s %10s\n", r->it.name, ns, bytes, gbs, "-", "-");
            continue;
        }
        printf("%-32s %10.3f %8.0f %8.2f %9.2f %9.2fx\n", r->it.name, ns, bytes, gbs, bytes / cns, ns / cns);
    }
    if (o->slots) slots_fit();
    model_free();
    return status;
}
