/* mm_bench.c — the motion-matching benchmarks behind `posebench bench --op
 * mm_search / mm_aabb` (posebench/mm.h). The database: the packaged CMU clip
 * 01_01 (every frame with a 60-frame future), else the synthetic scene's
 * clip 0; larger sizes are perturbed copies of it (pb_mm_db_replicate,
 * sigma 0.1 in normalized units: labelled "perturbed copies", they are not
 * new motion). Queries: real features of a held-out clip (CMU 01_03, or the
 * synthetic scene's clip 1), 16 per iteration from a set of 256, and for the
 * AABB search also random queries within 3 deviations (where its boxes stop
 * helping). Per size: a memcpy of the database's feature bytes (the
 * roofline, same run), then each method x query set x variant; first, the
 * database build itself (per frame). Rows state bytes per row and GB/s (the
 * feature bytes a query would scan exhaustively, per second). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_internal.h"

#define MM_Q 16          /* queries per iteration (a crowd's searches) */
#define MM_QSET 256      /* distinct queries, cycled */
#define MM_SIGMA 0.5f
#define MM_BYTES_PER_ROW ((double)PB_MM_FEATURES * sizeof(float))
#define MM_MAX_ROWS 160
#define MM_MAX_SIZES 8

enum { ROW_BUILD, ROW_COPY, ROW_SEARCH };
typedef struct mm_row {
    bench_item it;
    int kind, method, random_q;   /* ROW_SEARCH: method, query set */
    const pb_variant *v;
    const pb_mm_db *db;
    struct mm_row *copy;
} mm_row;

static mm_row rows[MM_MAX_ROWS];
static int nrows;
static pb_scene scene;
static pb_mm_skeleton skel;
static float queries[2][MM_QSET * PB_MM_FEATURES];   /* held-out, random */
static char *volatile copy_sink;

static void set_counters(gb_state *st, double rows_per_iter)
{
    gb_set_counter(st, "bytes_per_row", MM_BYTES_PER_ROW, PB_BC_PLAIN);
    gb_set_counter(st, "bytes_per_s", MM_BYTES_PER_ROW * rows_per_iter, PB_BC_RATE | PB_BC_ITER_INVARIANT | PB_BC_1024);
}

static void mm_build(gb_state *st, void *user)
{
    (void)user;
    pb_mm_db db;
    size_t frames = 0;
    while (gb_keep_running(st)) {
        if (pb_mm_db_build(&db, scene.clip, 2, &skel, NULL) != PB_OK) {
            gb_skip_with_error(st, pb_last_error());
            return;
        }
        frames = db.rows;
        pb_mm_db_free(&db);
    }
    gb_set_counter(st, "us_per_frame", (double)frames * 1e-6, PB_BC_RATE | PB_BC_ITER_INVARIANT | PB_BC_INVERT);
}

static void mm_copy(gb_state *st, void *user)
{
    mm_row *r = user;
    size_t bytes = (size_t)(MM_BYTES_PER_ROW * (double)r->db->rows);
    void *block = NULL;
    char *dst = bench_copy_dst((uintptr_t)r->db->feat, bytes, &block);
    if (!dst) {
        gb_skip_with_error(st, "out of memory");
        return;
    }
    memset(dst, 0, bytes);
    copy_sink = dst;
    while (gb_keep_running(st)) {
        memcpy(dst, r->db->feat, bytes);
        gb_clobber_memory();
    }
    copy_sink = NULL;
    free(block);
    set_counters(st, (double)r->db->rows);
}

static void mm_search(gb_state *st, void *user)
{
    mm_row *r = user;
    uint32_t best[MM_Q];
    float dist[MM_Q];
    size_t at = 0;
    while (gb_keep_running(st)) {
        if (pb_mm_search(r->db, queries[r->random_q] + at * PB_MM_FEATURES, MM_Q, NULL, 0, (pb_mm_method)r->method,
                         best, dist, r->v) != PB_OK) {
            gb_skip_with_error(st, pb_last_error());
            return;
        }
        at = (at + MM_Q) % MM_QSET;
        gb_clobber_memory();
    }
    gb_set_counter(st, "us_per_query", MM_Q * 1e-6, PB_BC_RATE | PB_BC_ITER_INVARIANT | PB_BC_INVERT);
    gb_set_counter(st, "queries_per_s", MM_Q, PB_BC_RATE | PB_BC_ITER_INVARIANT);
    set_counters(st, (double)r->db->rows * MM_Q);
}

/* The scene (CMU when packaged, else synthetic) and both query sets. */
static int mm_setup(const char **label)
{
    char pa[512], pbp[512];
    snprintf(pa, sizeof pa, "%s/01_01.bvh", PB_CMU_DIR);
    snprintf(pbp, sizeof pbp, "%s/01_03.bvh", PB_CMU_DIR);
    *label = "CMU 01_01 + 01_03";
    if (access(pa, R_OK) != 0 || access(pbp, R_OK) != 0 ||
        pb_scene_bvh_files(&scene, "cmu", pa, pbp, PB_CMU_UNIT_SCALE, NULL, NULL) != PB_OK) {
        *label = "synthetic 40 joints, 2 clips";
        if (pb_scene_synthetic(&scene, 40, 11) != PB_OK) return -1;
    }
    skel = (pb_mm_skeleton){ scene.parents, scene.joints, scene.leg[0][2], scene.leg[1][2] };
    return 0;
}

/* The database (src: the full one less the held-out segments) and both
 * query sets: held-out rows' raw features, random ones. */
static int mm_split(const pb_mm_db *full, pb_mm_db *src)
{
    size_t seg = full->rows / 8 < 240 ? full->rows / 8 : 240, nheld = 0;
    uint8_t *keep = malloc(full->rows);
    size_t *held = malloc(full->rows * sizeof *held);
    int bad = !keep || !held || seg == 0;
    for (size_t r = 0; r < full->rows && !bad; r++) {
        keep[r] = (r / seg) % 2 == 0;
        if (!keep[r]) held[nheld++] = r;
    }
    bad = bad || nheld == 0 || pb_mm_db_subset(src, full, keep) != PB_OK;
    uint64_t x = 0x5eed;
    for (size_t q = 0; q < MM_QSET && !bad; q++) {
        size_t r = held[(q * 7919) % nheld];
        bad = pb_mm_features(&scene.clip[full->clip[r]], &skel, full->frame[r], queries[0] + q * PB_MM_FEATURES) != PB_OK;
        for (int f = 0; f < PB_MM_FEATURES; f++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            double u = (double)(x >> 11) / 9007199254740992.0;
            queries[1][q * PB_MM_FEATURES + f] = src->mean[f] + (float)(3.0 * (2 * u - 1) / src->scale[f]);
        }
    }
    free(keep);
    free(held);
    return bad ? -1 : 0;
}

static mm_row *add(mm_row r)
{
    if (nrows == MM_MAX_ROWS) return NULL;
    rows[nrows] = r;
    return &rows[nrows++];
}

int bench_mm_run(const bench_opts *o, int exhaustive, int aabb)
{
    static const size_t defaults[] = { 10000, 100000, 1000000 };
    const size_t *sizes = o->nsizes ? o->sizes : defaults;
    const int nsizes = o->nsizes < MM_MAX_SIZES ? (o->nsizes ? o->nsizes : 3) : MM_MAX_SIZES;
    const char *label;
    pb_mm_db full = { 0 }, src = { 0 }, dbs[MM_MAX_SIZES];
    memset(dbs, 0, sizeof dbs);
    int status = 2;
    if (mm_setup(&label) != 0 || pb_mm_db_build(&full, scene.clip, 2, &skel, NULL) != PB_OK ||
        mm_split(&full, &src) != 0) {
        fprintf(stderr, "posebench bench: motion-matching set-up: %s\n", pb_last_error());
        goto out;
    }
    nrows = 0;
    mm_row *b = add((mm_row){ .it = { .fn = mm_build }, .kind = ROW_BUILD, .db = &full });
    snprintf(b->it.name, sizeof b->it.name, "mm_build/%zu", full.rows);
    for (int si = 0; si < nsizes; si++) {
        if (pb_mm_db_replicate(&dbs[si], &src, sizes[si], MM_SIGMA, 7) != PB_OK) {
            fprintf(stderr, "posebench bench: %zu rows: %s\n", sizes[si], pb_last_error());
            goto out;
        }
        mm_row *copy = add((mm_row){ .it = { .fn = mm_copy }, .kind = ROW_COPY, .db = &dbs[si] });
        if (!copy) break;
        snprintf(copy->it.name, sizeof copy->it.name, "copy/mm/%zu", sizes[si]);
        for (int m = 0; m < 3; m++) {   /* exhaustive, aabb held-out, aabb random */
            if (!(m ? aabb : exhaustive)) continue;
            for (int vi = 0; vi < o->nvars; vi++) {
                mm_row *r = add((mm_row){ .it = { .fn = mm_search }, .kind = ROW_SEARCH, .method = m > 0,
                                          .random_q = m == 2, .v = o->vars[vi], .db = &dbs[si], .copy = copy });
                if (!r) break;
                snprintf(r->it.name, sizeof r->it.name, "%s%s/%s/%zu", m ? "mm_aabb" : "mm_search",
                         m == 2 ? "_random" : "", pb_variant_name(o->vars[vi]), sizes[si]);
            }
        }
    }
    int timed = 0;
    status = bench_rows_run(o, rows, sizeof rows[0], nrows, &timed);
    if (status == 2 || !timed) goto out;   /* (--benchmark_list_tests: nothing ran) */
    printf("\nmotion matching: %s, %zu rows; every other segment of %zu rows held out as queries, %zu rows "
           "kept; larger sizes are perturbed copies of those (each shifted by up to %.2f per normalized feature)\n",
           label, full.rows, full.rows / 8 < 240 ? full.rows / 8 : 240, src.rows, (double)MM_SIGMA);
    if (rows[0].it.cpu_s > 0)
        printf("build: %.3f ms for %zu frames (%.2f us per frame); memory per row: %zu B features + %.2f B index + "
               "8 B clip/frame\n", rows[0].it.cpu_s * 1e3, full.rows, rows[0].it.cpu_s * 1e6 / (double)full.rows,
               (size_t)MM_BYTES_PER_ROW,
               (double)(full.box_stride[0] + full.box_stride[1]) * 2 * MM_BYTES_PER_ROW / (double)full.rows);
    printf("%-34s %10s %12s %8s %8s %9s %10s %9s\n", "search (16 queries per call)", "us/query", "queries/s", "B/row",
           "GB/s", "copy GB/s", "vs copy", "speedup");
    for (int i = 0; i < nrows; i++) {
        const mm_row *r = &rows[i];
        if (r->kind != ROW_SEARCH || r->it.error || !(r->it.cpu_s > 0)) continue;
        double us = r->it.cpu_s * 1e6 / MM_Q, rows_n = (double)r->db->rows;
        double gbs = MM_BYTES_PER_ROW * rows_n / (us * 1e3), copy_us = r->copy->it.cpu_s * 1e6;
        printf("%-34s %10.2f %12.0f %8.0f %8.2f %9.2f %9.2fx", r->it.name, us, 1e6 / us, MM_BYTES_PER_ROW, gbs,
               copy_us > 0 ? MM_BYTES_PER_ROW * rows_n / (copy_us * 1e3) : 0.0, copy_us > 0 ? us / copy_us : 0.0);
        /* speedup: an AABB row against the exhaustive search of its variant and
         * database, an exhaustive row against the scalar one (same run) */
        for (int j = 0; j < nrows; j++) {
            const mm_row *e = &rows[j];
            int base = r->method ? e->v == r->v : pb_variant_lanes(e->v) == 1;
            if (j == i || e->kind != ROW_SEARCH || e->method || e->db != r->db || !base || !(e->it.cpu_s > 0)) continue;
            printf(" %8.2fx %s", e->it.cpu_s / r->it.cpu_s, r->method ? "exhaustive" : "scalar");
        }
        printf("\n");
    }
out:
    for (int si = 0; si < MM_MAX_SIZES; si++) pb_mm_db_free(&dbs[si]);
    pb_mm_db_free(&src);
    pb_mm_db_free(&full);
    pb_scene_free(&scene);
    return status;
}
