/* test_budget_verdict.c — budget's verdict, tie and bisection logic
 * (cli/budget_verdict.c) on synthetic numbers: no clock, no timing asserted. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

#include "budget_verdict.h"


static void test_verdicts(void)
{
    const bv_meas clear = { 400, 395, 405 }, around = { 490, 470, 520 }, above = { 600, 590, 610 };
    CHECK(bv_judge(&clear, 500, 0) == BV_FITS, "400 [395,405] in 500 fits");
    CHECK(bv_judge(&around, 500, 0) == BV_MARGINAL, "490 [470,520] in 500 is marginal");
    CHECK(bv_judge(&above, 500, 0) == BV_NOT, "600 [590,610] in 500 does not fit");
    /* the flip (479.7 "yes", then 525.3 "NO" in identical runs): with repetitions that spread over the
     * budget both are marginal, not yes and NO */
    const bv_meas run1 = { 479.7, 462, 512 }, run2 = { 525.3, 490, 540 };
    CHECK(bv_judge(&run1, 500, BV_NOISE_FLOOR) == BV_MARGINAL, "479.7 [462,512] is marginal");
    CHECK(bv_judge(&run2, 500, BV_NOISE_FLOOR) == BV_MARGINAL, "525.3 [490,540] is marginal");
    /* tight repetitions 2% under the budget: the 3% floor makes it marginal */
    const bv_meas tight = { 490, 489, 491 };
    CHECK(bv_judge(&tight, 500, 0) == BV_FITS, "490 [489,491] without a floor fits");
    CHECK(bv_judge(&tight, 500, BV_NOISE_FLOOR) == BV_MARGINAL, "490 [489,491] with a 3%% floor is marginal");
    /* the floor widens only: a wide spread stays wide */
    double lo, hi;
    bv_interval(&around, 0.03, &lo, &hi);
    CHECK(lo == 470 && hi == 520, "interval [470,520] kept, got [%g,%g]", lo, hi);
    bv_interval(&clear, 0.03, &lo, &hi);
    CHECK(fabs(lo - 388) < 1e-9 && fabs(hi - 412) < 1e-9, "floor widens to [388,412], got [%g,%g]", lo, hi);
    /* the edges: the budget exactly at the top of the interval fits; at the bottom is marginal */
    const bv_meas edge = { 495, 490, 500 };
    CHECK(bv_judge(&edge, 500, 0) == BV_FITS, "max == budget fits");
    CHECK(bv_judge(&edge, 490, 0) == BV_MARGINAL, "min == budget is marginal");
    /* bad input */
    const bv_meas nan_m = { NAN, 1, 2 }, swapped = { 5, 6, 4 }, neg = { 1, -1, 2 };
    CHECK(bv_judge(&nan_m, 500, 0) == BV_INVALID, "NaN median is invalid");
    CHECK(bv_judge(&swapped, 500, 0) == BV_INVALID, "min > median is invalid");
    CHECK(bv_judge(&neg, 500, 0) == BV_INVALID, "negative min is invalid");
    CHECK(bv_judge(&clear, 0, 0) == BV_INVALID, "budget 0 is invalid");
    CHECK(bv_judge(&clear, NAN, 0) == BV_INVALID, "budget NaN is invalid");
    CHECK(bv_judge(NULL, 500, 0) == BV_INVALID, "NULL is invalid");
    /* the words the output and the tests grep for */
    CHECK(!strcmp(bv_word(BV_FITS), "fits") && !strcmp(bv_word(BV_MARGINAL), "marginal") &&
              !strcmp(bv_word(BV_NOT), "does not fit") && !strcmp(bv_word(BV_INVALID), "invalid"), "words");
}

static void test_ties(void)
{
    const bv_meas a = { 100, 98, 103 }, b = { 102, 100, 104 }, c = { 120, 118, 121 };
    CHECK(bv_tied(&a, &b, 0) == 1, "100 [98,103] and 102 [100,104] are tied");
    CHECK(bv_tied(&b, &a, 0) == 1, "ties are symmetric");
    CHECK(bv_tied(&a, &c, 0) == 0, "100 and 120 are not tied");
    /* a gap smaller than the noise floor is a tie even with tight repetitions */
    const bv_meas d = { 100, 100, 100 }, e = { 104, 104, 104 };
    CHECK(bv_tied(&d, &e, 0) == 0, "100 vs 104 exact: not tied without a floor");
    CHECK(bv_tied(&d, &e, 0.03) == 1, "100 vs 104 with a 3%% floor: tied");
    const bv_meas bad = { NAN, 0, 0 };
    CHECK(bv_tied(&a, &bad, 0) == -1, "invalid input is reported");
}

/* A synthetic crowd cost: fixed + per x n, repetitions +-jitter; counts the probes. */
typedef struct synth {
    double fixed, per, jitter;
    int calls, fail_at;
    long last;
} synth;
static int synth_probe(void *ctx, long n, bv_meas *m)
{
    synth *s = ctx;
    s->calls++;
    s->last = n;
    if (s->fail_at && s->calls == s->fail_at) return 7;
    double c = s->fixed + s->per * (double)n;
    m->median = c;
    m->min = c * (1 - s->jitter);
    m->max = c * (1 + s->jitter);
    return 0;
}

static void test_bisect(void)
{
    /* 10 + 2 n us, exact: fits while 10 + 2n <= 500, n <= 245 */
    synth s = { 10, 2, 0, 0, 0, 0 };
    bv_search r;
    CHECK(bv_bisect(synth_probe, &s, 100, 4096, 500, 0, 0, 64, &r) == 0, "bisect runs");
    CHECK(r.fit == 245 && r.nofit == 246, "exact: fit 245, nofit 246; got %ld, %ld", r.fit, r.nofit);
    CHECK(r.probes == s.calls && !r.capped, "probes counted (%d), not capped", r.probes);
    CHECK(r.fit_m.median == 500 && r.nofit_v == BV_NOT, "measurements kept");
    /* with 2% tolerance the bracket is within 2% of the fit and took fewer probes */
    synth s2 = { 10, 2, 0, 0, 0, 0 };
    CHECK(bv_bisect(synth_probe, &s2, 100, 4096, 500, 0, 0.02, 64, &r) == 0, "bisect 2%%");
    CHECK(r.fit <= 245 && r.nofit > 245 && (double)(r.nofit - r.fit) <= 0.02 * (double)r.fit + 1e-9,
          "2%%: bracket [%ld, %ld] around 245", r.fit, r.nofit);
    CHECK(r.probes < s.calls, "2%% takes fewer probes (%d vs %d)", r.probes, s.calls);
    /* with noise the fit is where the whole interval is within the budget: (10 + 2n) x 1.05 <= 500 */
    synth s3 = { 10, 2, 0.05, 0, 0, 0 };
    CHECK(bv_bisect(synth_probe, &s3, 245, 4096, 500, 0, 0, 64, &r) == 0, "bisect noisy");
    CHECK(r.fit == 233 && r.nofit == 234 && r.nofit_v == BV_MARGINAL, "noisy: fit 233, 234 marginal; got %ld, %ld",
          r.fit, r.nofit);
    /* the guess far above or below */
    synth s4 = { 10, 2, 0, 0, 0, 0 };
    CHECK(bv_bisect(synth_probe, &s4, 4000, 4096, 500, 0, 0, 64, &r) == 0 && r.fit == 245, "guess high: %ld", r.fit);
    synth s5 = { 10, 2, 0, 0, 0, 0 };
    CHECK(bv_bisect(synth_probe, &s5, 1, 4096, 500, 0, 0, 64, &r) == 0 && r.fit == 245, "guess low: %ld", r.fit);
    /* everything fits: the cap, no nofit */
    synth s6 = { 1, 0.01, 0, 0, 0, 0 };
    CHECK(bv_bisect(synth_probe, &s6, 200, 4096, 500, 0, 0, 64, &r) == 0 && r.fit == 4096 && r.nofit == 0 &&
              !r.capped, "all fit: the cap 4096, got %ld/%ld", r.fit, r.nofit);
    /* nothing fits: 0, nofit 1 */
    synth s7 = { 600, 1, 0, 0, 0, 0 };
    CHECK(bv_bisect(synth_probe, &s7, 200, 4096, 500, 0, 0, 64, &r) == 0 && r.fit == 0 && r.nofit == 1 && !r.capped,
          "none fits: 0/1, got %ld/%ld", r.fit, r.nofit);
    /* the probe limit stops it and says so */
    synth s8 = { 10, 2, 0, 0, 0, 0 };
    CHECK(bv_bisect(synth_probe, &s8, 1, 4096, 500, 0, 0, 3, &r) == 0 && r.probes == 3 && r.capped,
          "3 probes: capped (%d probes, capped %d)", r.probes, r.capped);
    /* a probe error is passed back */
    synth s9 = { 10, 2, 0, 0, 2, 0 };
    CHECK(bv_bisect(synth_probe, &s9, 100, 4096, 500, 0, 0, 64, &r) == 7, "probe error passed back");
    /* bad arguments */
    CHECK(bv_bisect(NULL, &s, 100, 4096, 500, 0, 0, 64, &r) == -1, "no probe");
    CHECK(bv_bisect(synth_probe, &s, 100, 0, 500, 0, 0, 64, &r) == -1, "cap 0");
    CHECK(bv_bisect(synth_probe, &s, 100, 4096, 500, 0, -1, 64, &r) == -1, "negative tolerance");
    CHECK(bv_bisect(synth_probe, &s, 100, 4096, 500, 0, 0, 0, &r) == -1, "no probes allowed");
}

int main(void)
{
    test_verdicts();
    test_ties();
    test_bisect();
    return check_done();
}
