/* bspace_check.c — blend-space weights against the double oracle and the
 * float reference, with the checks that do not come from the reference
 * (bspace_check.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "all_variants.h"
#include "bspace_check.h"
#include "rng.h"

#include "minmax.h"

const char *const pb_bs_class_name[PB_BS_CLASSES] = { "random", "inside", "samples", "far" };

static pb_status nomem(void) { return pb_fail(PB_ERR_NOMEM, "blend-space check: out of memory"); }

/* The samples' box and its larger side. */
static double extent(const pb_bspace *bs, double lo[2], double hi[2])
{
    lo[0] = lo[1] = INFINITY, hi[0] = hi[1] = -INFINITY;
    for (size_t i = 0; i < bs->samples; i++) {
        lo[0] = bmin(lo[0], bs->x[i]), hi[0] = bmax(hi[0], bs->x[i]);
        lo[1] = bmin(lo[1], bs->y[i]), hi[1] = bmax(hi[1], bs->y[i]);
    }
    return bmax(hi[0] - lo[0], hi[1] - lo[1]);
}

void pb_bs_params(const pb_bspace *bs, int cls, float *px, float *py, size_t n, uint64_t seed)
{
    uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
    double lo[2], hi[2], ext = extent(bs, lo, hi);
    size_t m = bs->samples;
    for (size_t c = 0; c < n; c++) {
        double x, y;
        if (cls == 0) {
            x = lo[0] - 0.3 * ext + (hi[0] - lo[0] + 0.6 * ext) * pb_rng_unit01d(&s);
            y = lo[1] - 0.3 * ext + (hi[1] - lo[1] + 0.6 * ext) * pb_rng_unit01d(&s);
        } else if (cls == 1) {
            double a = pb_rng_unit01d(&s), b = pb_rng_unit01d(&s), c0 = pb_rng_unit01d(&s), t = a + b + c0;
            size_t i = pb_rng_next(&s) % m, j = pb_rng_next(&s) % m, k = pb_rng_next(&s) % m;
            x = (a * bs->x[i] + b * bs->x[j] + c0 * bs->x[k]) / t;
            y = (a * bs->y[i] + b * bs->y[j] + c0 * bs->y[k]) / t;
        } else if (cls == 2) {
            x = bs->x[c % m], y = bs->y[c % m];
        } else {
            double th = 6.283185307179586 * pb_rng_unit01d(&s);
            x = 0.5 * (lo[0] + hi[0]) + 1e3 * ext * cos(th), y = 0.5 * (lo[1] + hi[1]) + 1e3 * ext * sin(th);
        }
        px[c] = (float)x;
        if (py) py[c] = bs->method == PB_BSPACE_1D ? 0.0f : (float)y;
    }
}

/* The oracle's weights (double planes of stride n) for float parameters. */
static pb_status oracle(const pb_bspace *bs, const float *px, const float *py, size_t n, double *w)
{
    double *t = NULL, *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    if (!x || !y || pb_bspace_tables_f64(bs, &t) != 0) {
        free(x), free(y), free(t);
        return nomem();
    }
    for (size_t c = 0; c < n; c++) x[c] = px[c], y[c] = py ? py[c] : 0.0;
    pb_bs_kargs_f64 k = { bs->samples, n, x, y, w, n, t, bs->itab, bs->triangles, bs->hull, bs->origin };
    pb_ref_aux_f64_table.bspace[bs->method](&k);
    free(x), free(y), free(t);
    return PB_OK;
}

pb_status pb_bs_error(const pb_variant *v, const pb_bspace *bs, const float *px, const float *py, size_t n,
                      pb_bs_err *e)
{
    size_t m = bs->samples;
    float *w = malloc(m * n * sizeof *w), *r = malloc(m * n * sizeof *r);
    double *o = malloc(m * n * sizeof *o);
    pb_status s = w && r && o ? PB_OK : nomem();
    if (s == PB_OK) s = pb_bspace_weights(bs, px, py, n, w, n, v);
    const pb_variant *ref = NULL;
    if (s == PB_OK) s = pb_all_variant_find("scalar", &ref);   /* the float reference */
    if (s == PB_OK) s = pb_bspace_weights(bs, px, py, n, r, n, ref);
    if (s == PB_OK) s = oracle(bs, px, py, n, o);
    if (s != PB_OK) {
        free(w), free(r), free(o);
        return s;
    }
    double lo[2], hi[2], ext = extent(bs, lo, hi);
    memset(e, 0, sizeof *e);
    e->n = n;
    for (size_t c = 0; c < n; c++) {
        double sum = 0, rx = 0, ry = 0;
        for (size_t i = 0; i < m; i++) {
            double wi = w[i * n + c];
            if (!isfinite(wi)) {
                e->nonfinite++;
                continue;
            }
            e->worst = bmax(e->worst, fabs(wi - o[i * n + c]));
            e->ref_worst = bmax(e->ref_worst, fabs(r[i * n + c] - o[i * n + c]));
            e->vs_ref += memcmp(&w[i * n + c], &r[i * n + c], sizeof(float)) != 0;
            e->neg = bmin(e->neg, wi);
            sum += wi, rx += wi * bs->x[i], ry += wi * bs->y[i];
        }
        e->sum_dev = bmax(e->sum_dev, fabs(sum - 1));
        e->lin_dev = bmax(e->lin_dev, hypot(rx - px[c], bs->method == PB_BSPACE_1D ? 0 : ry - py[c]) / ext);
    }
    free(w), free(r), free(o);
    return PB_OK;
}

pb_status pb_bs_at_samples(const pb_variant *v, const pb_bspace *bs, double *worst)
{
    size_t m = bs->samples;
    float px[PB_BSPACE_MAX_SAMPLES], py[PB_BSPACE_MAX_SAMPLES], w[PB_BSPACE_MAX_SAMPLES * PB_BSPACE_MAX_SAMPLES];
    memcpy(px, bs->x, m * sizeof *px), memcpy(py, bs->y, m * sizeof *py);
    pb_status s = pb_bspace_weights(bs, px, py, m, w, m, v);
    *worst = 0;
    for (size_t i = 0; i < m && s == PB_OK; i++) *worst = bmax(*worst, fabs(1.0 - w[i * m + i]));
    return s;
}

pb_status pb_bs_grid_jump(const pb_variant *v, const pb_bspace *bs, const double lo[2], const double hi[2], size_t N,
                          double rmin, double *jump)
{
    int one = bs->method == PB_BSPACE_1D;
    size_t rows = one ? 1 : N, n = N * rows, m = bs->samples;
    float *px = malloc(n * sizeof *px), *py = malloc(n * sizeof *py), *w = malloc(m * n * sizeof *w);
    pb_status s = px && py && w ? PB_OK : nomem();
    for (size_t j = 0; j < rows && s == PB_OK; j++)
        for (size_t i = 0; i < N; i++) {
            px[j * N + i] = (float)(lo[0] + (hi[0] - lo[0]) * (double)i / (double)(N - 1));
            py[j * N + i] = one ? 0.0f : (float)(lo[1] + (hi[1] - lo[1]) * (double)j / (double)(N - 1));
        }
    if (s == PB_OK) s = pb_bspace_weights(bs, px, py, n, w, n, v);
    *jump = 0;
    if (s != PB_OK) m = 0;
    for (size_t k = 0; k < m; k++)
        for (size_t j = 0; j < rows; j++)
            for (size_t i = 0; i < N; i++) {
                size_t c = j * N + i;
                const float *p = w + k * n + c;
                if (hypot(px[c], py[c]) < rmin) continue;
                if (i + 1 < N && hypot(px[c + 1], py[c + 1]) >= rmin) *jump = bmax(*jump, fabs(p[1] - p[0]));
                if (j + 1 < rows && hypot(px[c + N], py[c + N]) >= rmin) *jump = bmax(*jump, fabs(p[N] - p[0]));
            }
    free(px), free(py), free(w);
    return s;
}

size_t pb_bs_set(int set, float *x, float *y, const char **name)
{
    static const char *names[PB_BS_SETS] = { "speeds", "locomotion", "grid3x3", "random8", "dirs8", "line120" };
    *name = names[set];
    size_t m = 0;
    if (set == 0) {
        static const float sp[5] = { 3.0f, 0.0f, 6.5f, 1.4f, 2.2f };
        for (; m < 5; m++) x[m] = sp[m], y[m] = 0;
    } else if (set == 1 || set == 4) {
        x[m] = 0, y[m] = 0, m++;
        for (int ring = 0; ring < (set == 1 ? 2 : 1); ring++)
            for (int d = 0; d < 8; d++, m++) {
                double r = ring ? 3.5 : 1.4, a = d * 0.7853981633974483;
                x[m] = (float)(r * sin(a)), y[m] = (float)(r * cos(a));
            }
    } else if (set == 2) {
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++, m++) x[m] = (float)(j - 1), y[m] = (float)(i - 1);
    } else if (set == 5) {   /* idle, walk and run at 120 degrees (collinear to float rounding), a walk at 0 */
        double a = 2.0943951023931957;
        x[0] = 0, y[0] = 0, x[1] = (float)cos(a), y[1] = (float)sin(a), x[2] = (float)(3 * cos(a));
        y[2] = (float)(3 * sin(a)), x[3] = 1, y[3] = 0, m = 4;
    } else {
        uint64_t s = 77;
        for (; m < 8; m++) x[m] = 4 * pb_rng_unit01(&s) - 2, y[m] = 4 * pb_rng_unit01(&s) - 2;
    }
    return m;
}

/* Continuity bound: the largest weight change between neighbours of the
 * 256^2 grid over the samples' box grown by 30 % (measured worst 0.235:
 * polar weights of 8 random samples without one at the origin; 0.10 for the
 * others). */
#define BS_JUMP_256 0.3
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define BS_VAL_N 1027   /* sanitizer builds (every emulated variant, unoptimized) check memory safety on every path */
#else
#define BS_VAL_N 4099   /* characters per row: a partial last vector at every lane width */
#endif

/* The verdict of one row (1: fails). Bounds: see the closing comment line in pb_bs_validate. */
static int judge(const pb_variant *v, const pb_bspace *bs, int cls, const pb_bs_err *e)
{
    /* bit for bit where the ISA divides exactly (NEON through SIMDe: a refined estimate, within an ulp) */
    int exact = bs->method != PB_BSPACE_POLAR && strcmp(pb_variant_isa(v), "neon") != 0;
    double bound = bmax(4 * e->ref_worst, 2e-6);
    int lin = (bs->method == PB_BSPACE_1D || bs->method == PB_BSPACE_BARYCENTRIC) && cls == 1;
    return e->worst > bound || (exact && e->vs_ref) || e->neg < 0 || e->sum_dev > 1e-6 || e->nonfinite ||
           (lin && e->lin_dev > 1e-5);
}

static int set_rows(FILE *out, const pb_val_sink *sink, pb_bspace_method method, int set)
{
    float sx[PB_BSPACE_MAX_SAMPLES], sy[PB_BSPACE_MAX_SAMPLES];
    const char *name;
    size_t m = pb_bs_set(set, sx, sy, &name);
    pb_bspace bs;
    if (pb_bspace_create(&bs, method, sx, sy, m) != PB_OK) return -1;
    float *px = malloc(BS_VAL_N * sizeof *px), *py = malloc(BS_VAL_N * sizeof *py);
    int fails = px && py ? 0 : -1;
    for (int cls = 0; cls < PB_BS_CLASSES && fails >= 0; cls++) {
        pb_bs_params(&bs, cls, px, py, BS_VAL_N, (uint64_t)(set * 16 + cls + 1));
        for (size_t i = 0; i < pb_all_variant_count() && fails >= 0; i++) {
            const pb_variant *v = pb_all_variant_at(i);
            if (pb_variant_check(v) != PB_OK) continue;
            pb_bs_err e;
            if (pb_bs_error(v, &bs, px, py, BS_VAL_N, &e) != PB_OK) {
                fails = -1;
                break;
            }
            int bad = judge(v, &bs, cls, &e);
            char form[64];   /* the JSON: the weights against the oracle; the row's verdict is all of judge's checks */
            snprintf(form, sizeof form, "%s %s %s", pb_bspace_method_name(method), name, pb_bs_class_name[cls]);
            pb_val_emit(sink, "bspace", form, v, "weight", "abs", e.worst, e.ref_worst, bmax(4 * e.ref_worst, 2e-6),
                        BS_VAL_N, e.nonfinite, !bad);
            fprintf(out, "%-11s %-10s %-7s %-12s %9.2e %9.2e %6zu %8.1e %8.1e %8.1e  %s\n",
                    pb_bspace_method_name(method), name, pb_bs_class_name[cls], pb_variant_name(v), e.worst,
                    e.ref_worst, e.vs_ref, e.sum_dev, -e.neg, cls == 1 ? e.lin_dev : NAN, bad ? "FAIL" : "ok");
            fails += bad;
        }
    }
    /* sample points and continuity: the active variant and scalar */
    double lo[2], hi[2], ext = extent(&bs, lo, hi), at = 0, j1 = 0, j2 = 0;
    double rmin = method == PB_BSPACE_POLAR ? 0.1 * ext : 0;   /* polar: angles are ill-defined at the origin */
    lo[0] -= 0.3 * ext, lo[1] -= 0.3 * ext, hi[0] += 0.3 * ext, hi[1] += 0.3 * ext;
    for (size_t i = 0; i < pb_all_variant_count() && fails >= 0; i++) {
        const pb_variant *v = pb_all_variant_at(i);
        if (pb_variant_check(v) != PB_OK || pb_variant_mode(v) != PB_MODE_NATIVE) continue;
        if (pb_bs_at_samples(v, &bs, &at) != PB_OK || pb_bs_grid_jump(v, &bs, lo, hi, 256, rmin, &j1) != PB_OK ||
            pb_bs_grid_jump(v, &bs, lo, hi, 511, rmin, &j2) != PB_OK) {
            fails = -1;
            break;
        }
        int bad = at > 1e-6 || j1 > BS_JUMP_256 || j2 > 0.6 * j1 + 1e-6;
        char form[64];
        snprintf(form, sizeof form, "%s %s grid", pb_bspace_method_name(method), name);
        pb_val_emit(sink, "bspace", form, v, "at_sample", "abs", at, -1, 1e-6, m, 0, at <= 1e-6);
        pb_val_emit(sink, "bspace", form, v, "jump_256", "abs", j1, -1, BS_JUMP_256, 256 * 256, 0, j1 <= BS_JUMP_256);
        pb_val_emit(sink, "bspace", form, v, "jump_511", "abs", j2, -1, 0.6 * j1 + 1e-6, 511 * 511, 0,
                    j2 <= 0.6 * j1 + 1e-6);
        fprintf(out, "%-11s %-10s %-7s %-12s at-sample |1-w| %.1e; largest grid jump 256^2 %.4f, 511^2 %.4f  %s\n",
                pb_bspace_method_name(method), name, "grid", pb_variant_name(v), at, j1, j2, bad ? "FAIL" : "ok");
        fails += bad;
    }
    free(px), free(py);
    pb_bspace_free(&bs);
    return fails;
}

int pb_bs_validate(FILE *out, const pb_val_sink *sink)
{
    fprintf(out, "# blend-space weights vs the double oracle (%d characters per row; worst / ref_worst: largest "
            "|w - w_oracle| of the variant / the float reference; vs_ref: weights not the reference's bits; "
            "sum: largest |sum - 1|; neg: most negative weight; lin: |sum w_i p_i - p| / extent, inside the hull)\n",
            BS_VAL_N);
    fprintf(out, "%-11s %-10s %-7s %-12s %9s %9s %6s %8s %8s %8s  %s\n", "method", "set", "params", "variant", "worst",
            "ref_worst", "vs_ref", "sum", "neg", "lin", "verdict");
    int fails = 0;
    for (int method = 0; method < PB_BSPACE_METHODS && fails >= 0; method++)
        for (int set = 0; set < PB_BS_SETS && fails >= 0; set++) {
            if ((method == PB_BSPACE_1D) != (set == 0)) continue;
            if (set == 5 && method == PB_BSPACE_POLAR) continue;   /* not around the origin: the seam (bspace.h) */
            int f = set_rows(out, sink, (pb_bspace_method)method, set);
            fails = f < 0 ? -1 : fails + f;
        }
    fprintf(out, "# bspace bounds: worst <= max(4 x ref_worst, 2e-6); 1d, barycentric and gradient also the float "
            "reference's bits (same operations, same order; not on neon, whose division is a refined estimate); weights >= 0; |sum - 1| <= 1e-6; lin <= 1e-5 (1d, "
            "barycentric); at a sample's own point |1 - w| <= 1e-6; continuity: the largest jump between grid "
            "neighbours at most %.2f at 256^2, and at 511^2 at most 0.6 x that at 256^2 (+1e-6): a jump that does "
            "not shrink with the grid step is a discontinuity (polar: outside 10 %% of the extent around the origin, "
            "where angles are ill-defined and the weights' slope grows as 1 / r)\n", BS_JUMP_256);
    return fails;
}
