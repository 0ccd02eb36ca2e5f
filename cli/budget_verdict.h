/* budget_verdict.h — `posebench budget`'s judgements as pure functions of
 * measured numbers (no clocks, no I/O), so tests can drive them with
 * synthetic values:
 *   - a verdict on one measurement against a budget: fits / marginal / does
 *     not fit, "marginal" when the budget lies inside the measurement's noise
 *     interval;
 *   - whether two measurements are tied within noise (their intervals overlap);
 *   - the bisection over the crowd size for the largest crowd that fits, with
 *     the measurement passed in as a callback. */
#ifndef CLI_BUDGET_VERDICT_H
#define CLI_BUDGET_VERDICT_H

/* One measured cost: the median and the extremes of its repetitions (us). */
typedef struct bv_meas {
    double median, min, max;
} bv_meas;

/* The noise interval is [min, max] of the repetitions, widened to at least
 * median x (1 -/+ noise): with 3-5 repetitions the extremes understate the
 * run-to-run drift of a shared machine (identical runs differed by ~9% in
 * issue 14). noise is a fraction (BV_NOISE_FLOOR by default). */
#define BV_NOISE_FLOOR 0.03
void bv_interval(const bv_meas *m, double noise, double *lo, double *hi);

typedef enum bv_verdict {
    BV_FITS,       /* the whole interval is within the budget */
    BV_MARGINAL,   /* the budget lies inside the interval: noise decides */
    BV_NOT,        /* the whole interval is above the budget */
    BV_INVALID     /* a NaN or negative measurement, or a budget <= 0 */
} bv_verdict;

bv_verdict bv_judge(const bv_meas *m, double budget, double noise);
const char *bv_word(bv_verdict v);   /* "fits", "marginal", "does not fit", "invalid" */

/* 1 if a and b are tied within noise (their intervals overlap), 0 if one is
 * clearly cheaper, -1 if either is invalid. */
int bv_tied(const bv_meas *a, const bv_meas *b, double noise);

/* Measure the cost of a crowd of n characters into *m; 0, or nonzero to stop
 * (an error, already reported). */
typedef int (*bv_probe_fn)(void *ctx, long n, bv_meas *m);

typedef struct bv_search {
    long fit;            /* largest crowd measured to fit (0: even 1 character did not) */
    long nofit;          /* smallest crowd measured not to fit (beyond fit); 0 if none: fit is the cap */
    bv_meas fit_m;       /* its measurement (valid when fit > 0) */
    bv_meas nofit_m;     /* (valid when nofit > 0) */
    bv_verdict nofit_v;  /* marginal or does not fit */
    int probes;          /* measurements taken */
    int capped;          /* 1 if the probe limit stopped it before the tolerance */
} bv_search;

/* The largest crowd in [1, cap] whose measurement fits the budget
 * (bv_judge == BV_FITS), by measuring: start at guess (clamped to [1, cap]),
 * step by doubling / halving to a bracket, then bisect until
 * nofit - fit <= max(1, tol x fit) or max_probes measurements were taken.
 * Each probe is one call of probe. Noisy measurements may make "fits" not
 * monotone in n: the result is a measured bracket, not a guarantee. Returns 0,
 * -1 for bad arguments (cap < 1, tol < 0, max_probes < 1, no probe), or the
 * probe's nonzero status. */
int bv_bisect(bv_probe_fn probe, void *ctx, long guess, long cap, double budget, double noise, double tol,
              int max_probes, bv_search *out);

#endif
