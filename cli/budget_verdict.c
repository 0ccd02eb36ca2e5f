/* budget_verdict.c — budget's verdicts, ties and the crowd bisection as pure
 * functions of measured numbers (budget_verdict.h). */
#include "budget_verdict.h"

#include <math.h>
#include <stddef.h>

static int meas_ok(const bv_meas *m)
{
    return m && isfinite(m->median) && isfinite(m->min) && isfinite(m->max) && m->min >= 0 && m->min <= m->median &&
           m->median <= m->max;
}

void bv_interval(const bv_meas *m, double noise, double *lo, double *hi)
{
    double f = isfinite(noise) && noise > 0 ? noise : 0;
    *lo = fmin(m->min, m->median * (1 - f));
    *hi = fmax(m->max, m->median * (1 + f));
}

bv_verdict bv_judge(const bv_meas *m, double budget, double noise)
{
    if (!meas_ok(m) || !(budget > 0) || !isfinite(budget)) return BV_INVALID;
    double lo, hi;
    bv_interval(m, noise, &lo, &hi);
    if (hi <= budget) return BV_FITS;
    if (lo > budget) return BV_NOT;
    return BV_MARGINAL;
}

const char *bv_word(bv_verdict v)
{
    switch (v) {
    case BV_FITS: return "fits";
    case BV_MARGINAL: return "marginal";
    case BV_NOT: return "does not fit";
    default: return "invalid";
    }
}

int bv_tied(const bv_meas *a, const bv_meas *b, double noise)
{
    if (!meas_ok(a) || !meas_ok(b)) return -1;
    double alo, ahi, blo, bhi;
    bv_interval(a, noise, &alo, &ahi);
    bv_interval(b, noise, &blo, &bhi);
    return alo <= bhi && blo <= ahi;
}

/* One probe: counts it, records fit / nofit. 1 if n fits, 0 if not, -1 on a probe error (status in *st). */
static int probe_at(bv_probe_fn probe, void *ctx, long n, double budget, double noise, bv_search *s, int *st)
{
    bv_meas m;
    s->probes++;
    if ((*st = probe(ctx, n, &m)) != 0) return -1;
    bv_verdict v = bv_judge(&m, budget, noise);
    if (v == BV_FITS) {
        if (n > s->fit) {
            s->fit = n;
            s->fit_m = m;
        }
        return 1;
    }
    if (s->nofit == 0 || n < s->nofit) {
        s->nofit = n;
        s->nofit_m = m;
        s->nofit_v = v;
    }
    return 0;
}

int bv_bisect(bv_probe_fn probe, void *ctx, long guess, long cap, double budget, double noise, double tol,
              int max_probes, bv_search *out)
{
    if (!probe || !out || cap < 1 || !(tol >= 0) || max_probes < 1) return -1;
    bv_search s = { 0 };
    s.nofit_v = BV_NOT;
    long g = guess < 1 ? 1 : guess > cap ? cap : guess;
    int st = 0, r = probe_at(probe, ctx, g, budget, noise, &s, &st);
    if (r < 0) return st;
    /* a bracket: grow from a fit (x1.25, then faster), or shrink from a miss */
    double step = 1.25;
    while (r == 1 && s.fit < cap && s.probes < max_probes) {
        double nx = ceil((double)s.fit * step);
        long n = nx > (double)cap ? cap : (long)nx;
        if (n <= s.fit) n = s.fit + 1;
        if ((r = probe_at(probe, ctx, n, budget, noise, &s, &st)) < 0) return st;
        step *= step;
    }
    step = 1.25;
    while (r == 0 && s.fit == 0 && s.nofit > 1 && s.probes < max_probes) {
        long n = (long)floor((double)s.nofit / step);
        if (n >= s.nofit) n = s.nofit - 1;
        if (n < 1) n = 1;
        if ((r = probe_at(probe, ctx, n, budget, noise, &s, &st)) < 0) return st;
        step *= step;
    }
    /* bisect the bracket [fit, nofit] */
    while (s.fit > 0 && s.nofit > s.fit + 1) {
        double width = tol * (double)s.fit;
        if ((double)(s.nofit - s.fit) <= (width > 1 ? width : 1)) break;
        if (s.probes >= max_probes) break;
        long mid = s.fit + (s.nofit - s.fit) / 2;
        if (probe_at(probe, ctx, mid, budget, noise, &s, &st) < 0) return st;
    }
    /* the probe limit stopped it before the tolerance (or before any bracket) */
    int done = (s.fit == cap && s.nofit == 0) || (s.fit == 0 && s.nofit == 1) ||
               (s.fit > 0 && s.nofit > 0 &&
                (double)(s.nofit - s.fit) <= (tol * (double)s.fit > 1 ? tol * (double)s.fit : 1));
    s.capped = !done;
    *out = s;
    return 0;
}
