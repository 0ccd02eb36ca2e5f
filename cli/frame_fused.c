/* frame_fused.c — `posebench frame`'s second table: the crowd in blocks of
 * characters (frame.h, pb_frame_blocks), in the same run:
 *   fusion   one thread, the blocks run stage by stage (every block through a
 *            stage, then the next stage) and fused (each block through every
 *            stage, then the next block); per stage and in total, CPU time
 *            shared out by wall-clock reads after each stage of each block
 *            (as the first table does), and what fusion saves;
 *   threads  the fused frame on 1, 2, ... --threads threads of a pb_pool
 *            (wall time: CPU time adds up over threads), characters per ms,
 *            speedup and parallel efficiency against one thread, and the
 *            roofline: a copy, on as many threads, whose reads and writes add
 *            up to what a fused frame must stream (the state, delta and
 *            inverse bind it reads, the globals and palette it writes; its
 *            other 5 poses stay in the threads' scratch): a memcpy of half
 *            those bytes, as a copy reads each byte once and writes it once.
 * Every run checks the blocks' globals against the whole crowd's (the first
 * table's), bit for bit: a mismatch is an error, not a footnote. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame_cmd.h"
#include "measure.h"

size_t fused_block(const pb_scene *sc, size_t want)
{
    return want ? want : pb_frame_block_default(sc, pb_cache_bytes(2));
}

/* ---- one thread: staged vs fused, per stage ---- */
static int time_order(pb_frame_blocks *b, const pb_variant *v, pb_frame_method m, int order, const frame_cfg *cfg,
                      double stage_us[PB_FS_COUNT], double *total_us)
{
    int R = cfg->reps, F = cfg->frames;
    double *tot = calloc((size_t)R * (PB_FS_COUNT + 1), sizeof(double)), *stg = tot + R;
    if (!tot) return -1;
    for (int r = 0; r < R; r++) {
        double acc[PB_FS_COUNT] = { 0 }, c0 = cpu_seconds(), w0 = wall_seconds(), prev = w0;
        for (int k = 0; k < F; k++)
            for (size_t outer = 0; outer < (order ? (size_t)PB_FS_COUNT : b->count); outer++)
                for (size_t inner = 0; inner < (order ? b->count : (size_t)PB_FS_COUNT); inner++) {
                    size_t blk = order ? inner : outer, st = order ? outer : inner;
                    /* fused: in thread 0's scratch, as pb_frame_blocks_step runs it */
                    if (pb_frame_block_run(b, v, m, k, blk, (pb_frame_stage)st, (pb_frame_stage)(st + 1),
                                           order ? -1 : 0) != PB_OK) {
                        free(tot);
                        return -1;
                    }
                    double t = wall_seconds();
                    acc[st] += t - prev;
                    prev = t;
                }
        double scale = prev > w0 ? (cpu_seconds() - c0) / (prev - w0) : 0;
        tot[r] = 0;
        for (int s = 0; s < PB_FS_COUNT; s++) tot[r] += stg[(size_t)s * R + r] = acc[s] * scale / F * 1e6;
    }
    for (int s = 0; s < PB_FS_COUNT; s++) stage_us[s] = median_sort(stg + (size_t)s * R, R);
    *total_us = median_sort(tot, R);
    free(tot);
    return 0;
}

/* ---- threads: the fused frame on a pool, wall time ---- */
typedef struct copy_job {
    float *dst, *src;
    size_t bytes, parts;
} copy_job;

static pb_status copy_task(void *arg, size_t i, int thread)
{
    (void)thread;
    const copy_job *j = arg;
    size_t lo = j->bytes * i / j->parts / 64 * 64, hi = i + 1 == j->parts ? j->bytes : j->bytes * (i + 1) / j->parts / 64 * 64;
    memcpy((char *)j->dst + lo, (const char *)j->src + lo, hi - lo);
    return PB_OK;
}

/* GB/s of copying `bytes` on pool's threads (median of reps, wall time); NAN if out of memory. */
static double copy_gbs(pb_pool *pool, size_t bytes, int reps)
{
    copy_job j = { malloc(bytes), malloc(bytes), bytes, (size_t)pb_pool_threads(pool) * 4 };
    double *t = malloc((size_t)reps * sizeof *t), gbs = NAN;
    if (j.dst && j.src && t) {
        memset(j.src, 1, bytes);
        memset(j.dst, 0, bytes);
        pb_pool_run(pool, j.parts, copy_task, &j);   /* untimed: wakes parked workers (50-60 us on a VM) */
        for (int r = 0; r < reps; r++) {
            double w0 = wall_seconds();
            pb_pool_run(pool, j.parts, copy_task, &j);
            t[r] = wall_seconds() - w0;
        }
        gbs = 2.0 * (double)bytes / median_sort(t, reps) / 1e9;   /* read + write */
    }
    free(j.dst), free(j.src), free(t);
    return gbs;
}

static int same_as_whole(const pb_frame_crowd *w, const pb_frame_blocks *b)
{
    size_t J = w->sc->joints;
    for (size_t i = 0; i < b->count; i++)
        for (int p = 0; p < PB_PLANES; p++)
            for (size_t j = 0; j < J; j++)
                if (memcmp(w->global.plane[p] + j * w->characters + b->crowd[i].first,
                           b->crowd[i].global.plane[p] + j * b->crowd[i].characters,
                           b->crowd[i].characters * sizeof(float)))
                    return 0;
    return 1;
}

int fused_measure(pb_frame_crowd *whole, const frame_cfg *cfg, const pb_variant *v, pb_frame_method m,
                  fused_row *row)
{
    const pb_scene *sc = whole->sc;
    memset(row, 0, sizeof *row);
    row->block = fused_block(sc, cfg->block);
    pb_frame_blocks b;
    if (pb_frame_blocks_init(&b, sc, cfg->characters, row->block, cfg->sampler) != PB_OK ||
        pb_frame_blocks_halflife_est(&b, cfg->hl[0], cfg->hl[1], cfg->hl[2]) != PB_OK ||
        pb_frame_blocks_curve(&b, &cfg->curve, cfg->frozen) != PB_OK) {
        fprintf(stderr, "posebench frame: %s\n", pb_last_error());
        pb_frame_blocks_free(&b);   /* (frees what init made; nothing after init's own failure) */
        return -1;
    }
    row->blocks = b.count;
    int rc = -1, F = cfg->frames;
    /* the whole crowd and the blocks from the same transition to the same frame, compared bit for bit */
    pb_status st = pb_frame_sample(whole, v, 0, 0.0f);
    if (st == PB_OK) st = pb_frame_sample(whole, v, 1, 0.0f);
    if (st == PB_OK) st = pb_frame_begin(whole, v, m);
    if (st == PB_OK) st = pb_frame_blocks_begin(&b, v, m, 0.0f, NULL);
    if (st == PB_OK) st = pb_frame_step(whole, v, m, F - 1);
    if (st == PB_OK) st = pb_frame_blocks_step(&b, v, m, F - 1, PB_FO_FUSED, NULL);
    if (st != PB_OK) {
        fprintf(stderr, "posebench frame: blocks: %s\n", pb_last_error());
        goto out;
    }
    if (!same_as_whole(whole, &b)) {
        fprintf(stderr, "posebench frame: %s, %s: the blocks' globals differ from the whole crowd's\n", sc->name,
                pb_variant_name(v));
        goto out;
    }
    if (pb_frame_blocks_scratch(&b, 1) != PB_OK || time_order(&b, v, m, 1, cfg, row->staged_us, &row->staged_total) != 0 ||
        time_order(&b, v, m, 0, cfg, row->fused_us, &row->fused_total) != 0) {
        fprintf(stderr, "posebench frame: blocks: %s\n", pb_last_error());
        goto out;
    }
    /* what a fused frame must stream: the 3 poses per character that outlive it (the transition state and the
     * additive delta read, the globals written) and the palette written; the other 5 poses live in the threads'
     * scratch, and the static inverse bind pose, one per joint shared by the characters, in cache */
    size_t pose_bytes = whole->n * (3 * PB_PLANES + PB_PALETTE_MAT_FLOATS) * sizeof(float) +
                        whole->characters * sc->mesh.n * 6 * sizeof(float);   /* and the skinned vertices written */
    double *t = malloc((size_t)cfg->reps * sizeof *t);
    if (!t) goto out;
    for (int T = 1; T <= cfg->threads && row->nthreads < FUSED_MAX_THREADS; T = T < 8 ? T + 1 : 2 * T) {
        pb_pool *pool = NULL;
        if (pb_pool_create(&pool, T) != PB_OK) {
            fprintf(stderr, "posebench frame: %s\n", pb_last_error());
            free(t);
            goto out;
        }
        for (int r = 0; r < cfg->reps && st == PB_OK; r++) {
            double w0 = wall_seconds();
            for (int k = 0; k < F && st == PB_OK; k++) st = pb_frame_blocks_step(&b, v, m, k, PB_FO_FUSED, pool);
            t[r] = (wall_seconds() - w0) / F * 1e6;
        }
        fused_threads *ft = &row->threads[row->nthreads++];
        ft->threads = T;
        ft->wall_us = st == PB_OK ? median_sort(t, cfg->reps) : NAN;
        /* a copy of half: its reads and writes are the frame's bytes (a copy of all of them moved twice as
         * many, and made the roofline twice as slow as the frame's traffic needs) */
        ft->copy_gbs = copy_gbs(pool, pose_bytes / 2, cfg->reps);
        ft->copy_us = (double)pose_bytes / (ft->copy_gbs * 1e9) * 1e6;
        pb_pool_destroy(pool);
        if (st != PB_OK) {
            fprintf(stderr, "posebench frame: threads: %s\n", pb_last_error());
            free(t);
            goto out;
        }
    }
    free(t);
    rc = 0;
out:
    pb_frame_blocks_free(&b);
    return rc;
}

void fused_print(const fused_row *row, const pb_scene *sc, const pb_variant *v, pb_frame_method m, size_t characters)
{
    const char *mk = pb_frame_method_name(m);
    double per = (double)(sc->joints * characters) / 1000.0;   /* us per frame -> ns per joint */
    printf("%-16s %-8s %-7s", mk, pb_variant_name(v), "staged");
    for (int s = 0; s < PB_FS_COUNT; s++) printf(" %9.1f", row->staged_us[s]);
    printf(" %9.1f %8.1f\n", row->staged_total, row->staged_total / per);
    printf("%-16s %-8s %-7s", "", "", "fused");
    for (int s = 0; s < PB_FS_COUNT; s++) printf(" %9.1f", row->fused_us[s]);
    printf(" %9.1f %8.1f\n", row->fused_total, row->fused_total / per);
    printf("%-16s %-8s %-7s", "", "", "saved");
    for (int s = 0; s < PB_FS_COUNT; s++)
        if (row->staged_us[s] > 0) printf(" %8.0f%%", 100.0 * (1.0 - row->fused_us[s] / row->staged_us[s]));
        else printf(" %9s", "-");
    printf(" %8.0f%%\n", row->staged_total > 0 ? 100.0 * (1.0 - row->fused_total / row->staged_total) : NAN);
    for (int i = 0; i < row->nthreads; i++) {
        const fused_threads *ft = &row->threads[i];
        double t1 = row->threads[0].wall_us;
        printf("%-16s %-8s %2d thread%s  %9.1f us/frame %8.1f ns/joint %8.0f chars/ms  speedup %4.2f  efficiency "
               "%5.1f%%  copy roofline %6.1f GB/s = %7.1f us\n", "", "", ft->threads, ft->threads > 1 ? "s" : " ",
               ft->wall_us, ft->wall_us / per, (double)characters / (ft->wall_us / 1000.0), t1 / ft->wall_us,
               100.0 * t1 / ft->wall_us / ft->threads, ft->copy_gbs, ft->copy_us);
    }
    fflush(stdout);
}

int fused_json(cJSON *rows, const fused_row *row, const pb_scene *sc, const pb_variant *v, pb_frame_method m,
               size_t characters)
{
    cJSON *o = cJSON_CreateObject(), *sg, *fu, *th;
    if (!o || !cJSON_AddItemToArray(rows, o)) {
        cJSON_Delete(o);
        return -1;
    }
    int ok = cJSON_AddStringToObject(o, "scene", sc->name) && cJSON_AddNumberToObject(o, "joints", (double)sc->joints) &&
             cJSON_AddNumberToObject(o, "characters", (double)characters) &&
             cJSON_AddStringToObject(o, "variant", pb_variant_name(v)) &&
             cJSON_AddStringToObject(o, "method_key", pb_frame_method_get(m)->key) &&
             cJSON_AddNumberToObject(o, "block", (double)row->block) &&
             cJSON_AddNumberToObject(o, "blocks", (double)row->blocks) &&
             (sg = cJSON_AddObjectToObject(o, "staged_us")) && (fu = cJSON_AddObjectToObject(o, "fused_us")) &&
             json_add_num(o, "staged_total_us", row->staged_total) && json_add_num(o, "fused_total_us", row->fused_total) &&
             (th = cJSON_AddArrayToObject(o, "threads"));
    for (int s = 0; ok && s < PB_FS_COUNT; s++)
        ok = json_add_num(sg, pb_frame_stage_name((pb_frame_stage)s), row->staged_us[s]) &&
             json_add_num(fu, pb_frame_stage_name((pb_frame_stage)s), row->fused_us[s]);
    for (int i = 0; ok && i < row->nthreads; i++) {
        const fused_threads *ft = &row->threads[i];
        cJSON *t = cJSON_CreateObject();
        double t1 = row->threads[0].wall_us;
        ok = t && cJSON_AddItemToArray(th, t) && cJSON_AddNumberToObject(t, "threads", ft->threads) &&
             json_add_num(t, "wall_us", ft->wall_us) &&
             json_add_num(t, "characters_per_ms", (double)characters / (ft->wall_us / 1000.0)) &&
             json_add_num(t, "speedup", t1 / ft->wall_us) &&
             json_add_num(t, "efficiency", t1 / ft->wall_us / ft->threads) &&
             json_add_num(t, "copy_gbs", ft->copy_gbs) && json_add_num(t, "copy_us", ft->copy_us);
    }
    return ok ? 0 : -1;
}
