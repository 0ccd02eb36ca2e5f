/* mm_index.c — the motion-matching database's search index (the boxes of
 * PB_MM_AABB, posebench/mm.h) and the perturbed copies used to measure
 * larger databases. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

const char *pb_mm_method_name(pb_mm_method m)
{
    static const char *const names[PB_MM_METHODS] = { "exhaustive", "aabb" };
    return (unsigned)m < PB_MM_METHODS ? names[m] : NULL;
}

/* Boxes of both levels from db's rows; 0, or -1 out of memory (db's boxes
 * then NULL). Box slots run a whole block past the last box (boxes of
 * padding, +inf), so a kernel may load PB_LANES boxes from any box it
 * searches. */
int pb_mm_db_index(pb_mm_db *db)
{
    static const size_t size[2] = { PB_MM_BOX_SMALL, PB_MM_BOX_LARGE };
    for (int lv = 0; lv < 2; lv++) {
        size_t nb = db->stride / size[lv], s = (nb + PB_MM_BLOCK - 1) / PB_MM_BLOCK * PB_MM_BLOCK + PB_MM_BLOCK;
        db->nbox[lv] = nb;
        db->box_stride[lv] = s;
        db->box[lv] = aligned_alloc(64, 2 * s * PB_MM_FEATURES * sizeof(float));   /* whole lines */
        if (!db->box[lv]) return -1;
        for (int f = 0; f < PB_MM_FEATURES; f++)
            for (size_t b = 0; b < s; b++) {
                float lo = INFINITY, hi = INFINITY;   /* padding only: never nearer than any row */
                for (size_t r = b * size[lv]; b < nb && r < (b + 1) * size[lv] && r < db->rows; r++) {
                    float x = db->feat[pb_mm_at(r, f)];
                    if (r == b * size[lv] || x < lo) lo = x;
                    if (r == b * size[lv] || x > hi) hi = x;
                }
                db->box[lv][pb_mm_box_at(b, f, 0)] = lo;
                db->box[lv][pb_mm_box_at(b, f, 1)] = hi;
            }
    }
    return 0;
}

static uint64_t next(uint64_t *x)
{
    *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
    return *x;
}

/* out: src's normalization and room for rows rows (index not yet built). */
static pb_status alloc_like(pb_mm_db *out, const pb_mm_db *src, size_t rows, const char *fn)
{
    *out = *src;
    out->rows = rows;
    out->stride = (rows + 63) / 64 * 64;
    out->feat = aligned_alloc(64, out->stride * PB_MM_FEATURES * sizeof(float));
    out->clip = malloc(rows * sizeof *out->clip);
    out->frame = malloc(rows * sizeof *out->frame);
    for (int lv = 0; lv < 2; lv++) out->box[lv] = NULL;
    if (!out->feat || !out->clip || !out->frame) {
        pb_mm_db_free(out);
        return pb_fail(PB_ERR_NOMEM, "%s: out of memory for %zu rows", fn, rows);
    }
    for (int f = 0; f < PB_MM_FEATURES; f++)
        for (size_t i = rows; i < out->stride; i++) out->feat[pb_mm_at(i, f)] = INFINITY;
    return PB_OK;
}

static pb_status finish(pb_mm_db *out, const char *fn)
{
    if (pb_mm_db_index(out) == 0) return PB_OK;
    size_t rows = out->rows;
    pb_mm_db_free(out);
    return pb_fail(PB_ERR_NOMEM, "%s: out of memory for the index of %zu rows", fn, rows);
}

pb_status pb_mm_db_subset(pb_mm_db *out, const pb_mm_db *src, const uint8_t *keep)
{
    static const char *fn = "pb_mm_db_subset";
    if (!out || !src || !keep) return pb_fail(PB_ERR_NULL, "%s: %s is NULL", fn, !out ? "out" : !src ? "src" : "keep");
    memset(out, 0, sizeof *out);
    size_t rows = 0;
    for (size_t r = 0; r < src->rows; r++) rows += keep[r] != 0;
    if (rows == 0) return pb_fail(PB_ERR_EMPTY, "%s: no row kept (of %zu)", fn, src->rows);
    pb_status s = alloc_like(out, src, rows, fn);
    if (s != PB_OK) return s;
    for (size_t r = 0, i = 0; r < src->rows; r++) {
        if (!keep[r]) continue;
        for (int f = 0; f < PB_MM_FEATURES; f++) out->feat[pb_mm_at(i, f)] = src->feat[pb_mm_at(r, f)];
        out->clip[i] = src->clip[r];
        out->frame[i++] = src->frame[r];
    }
    return finish(out, fn);
}

pb_status pb_mm_db_replicate(pb_mm_db *out, const pb_mm_db *src, size_t rows, float sigma, uint64_t seed)
{
    static const char *fn = "pb_mm_db_replicate";
    if (!out || !src) return pb_fail(PB_ERR_NULL, "%s: %s is NULL", fn, out ? "src" : "out");
    memset(out, 0, sizeof *out);
    if (src->rows == 0 || !src->feat) return pb_fail(PB_ERR_EMPTY, "%s: src is empty", fn);
    if (rows == 0) return pb_fail(PB_ERR_EMPTY, "%s: rows = 0", fn);
    if (rows > PB_MM_MAX_FRAMES) return pb_fail(PB_ERR_SIZE, "%s: %zu rows (at most %zu)", fn, rows, PB_MM_MAX_FRAMES);
    if (!(sigma >= 0) || !isfinite(sigma)) return pb_fail(PB_ERR_PARAM, "%s: sigma is %g (>= 0)", fn, (double)sigma);
    pb_status s = alloc_like(out, src, rows, fn);
    if (s != PB_OK) return s;
    uint64_t r = seed * 0x9E3779B97F4A7C15ull + 1;
    for (size_t i = 0; i < rows; i++) {
        size_t from = i % src->rows;
        out->clip[i] = src->clip[from];
        out->frame[i] = src->frame[from];
    }
    for (int f = 0; f < PB_MM_FEATURES; f++) {
        float shift = 0;
        for (size_t i = 0; i < rows; i++) {
            if (i % src->rows == 0 && i > 0)   /* a new copy: its own shift of this feature */
                shift = (float)(sigma * (2 * ((double)(next(&r) >> 11) / 9007199254740992.0) - 1));
            out->feat[pb_mm_at(i, f)] = src->feat[pb_mm_at(i % src->rows, f)] + shift;
        }
    }
    return finish(out, fn);
}
