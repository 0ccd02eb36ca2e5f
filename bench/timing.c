/* timing.c — what Google Benchmark times (bench_internal.h): the op through
 * the kernel table, pb_run or a plan, and the copy roofline, over the pool's
 * buffer sets; progress lines on stderr. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_internal.h"
#include "measure.h"

struct harness bench_state;

/* ---- the run ------------------------------------------------------------------------------ */


const char *fmt_dur(double s, char *buf, size_t len)
{
    long t = (long)(s + 0.5);
    if (t >= 3600) snprintf(buf, len, "%ldh%02ldm%02lds", t / 3600, t / 60 % 60, t % 60);
    else if (t >= 60) snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
    else snprintf(buf, len, "%.1fs", s);
    return buf;
}

/* Progress on stderr: one line as each benchmark starts. */
static void note_start(spec *s)
{
    bench_state.cur = s;
    if (s->started) return;
    s->started = 1;
    bench_state.nstarted++;
    double el = (wall_seconds() - bench_state.t0);
    char e[32], r[32];
    size_t done = bench_state.nstarted - 1;
    if (done > 0 && bench_state.total >= bench_state.nstarted)
        fprintf(stderr, "[%zu/%zu] %s  (elapsed %s, about %s left)\n", bench_state.nstarted, bench_state.total, s->name,
                fmt_dur(el, e, sizeof e), fmt_dur(el / (double)done * (double)(bench_state.total - done), r, sizeof r));
    else
        fprintf(stderr, "[%zu/%zu] %s  (elapsed %s)\n", bench_state.nstarted, bench_state.total, s->name, fmt_dur(el, e, sizeof e));
}

static int pool_get(const spec *s, char *err, size_t errlen)
{
    pool *p = &bench_state.pool;
    if (p->valid && p->op == s->op && p->n == s->n && p->cold == s->cold) return 0;
    pool_free(p);
    /* Distinct inputs per op and size, all derived from the run's seed. */
    uint64_t seed = bench_state.seed ^ ((uint64_t)s->op * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)s->n << 20);
    return pool_build(p, s->op, s->n, s->cold, seed, err, errlen);
}

/* Cold runs that flush: the set's arrays out of every cache, the timer paused. */
static void flush_if_cold(gb_state *st, const pool *p, const bufset *s)
{
    if (!p->flush) return;
    gb_pause_timing(st);
    cold_flush(s->in, s->in_len, s->nin);
    cold_flush((const float *const *)s->outp, s->out_len, s->nout);
    gb_resume_timing(st);
}

/* Iterations per timing-loop step: enough calls that the loop's own cost
 * (a call into the shim per step) is negligible next to the work. */
static int64_t batch_for(size_t n) { return n >= BATCH_JOINTS ? 1 : (int64_t)(BATCH_JOINTS / n); }

static void set_counters(gb_state *st, const spec *s, double n, double bytes)
{
    const unsigned per_iter_rate = PB_BC_RATE | PB_BC_ITER_INVARIANT;
    gb_set_label(st, s->cold ? "cold" : "warm");
    /* CPU seconds per iteration / (n x 1e-9) = ns per joint. */
    gb_set_counter(st, "ns_per_joint", n * 1e-9, per_iter_rate | PB_BC_INVERT);
    gb_set_counter(st, "joints_per_s", n, per_iter_rate);
    gb_set_counter(st, "bytes_per_s", bytes, per_iter_rate | PB_BC_1024);
    gb_set_counter(st, "bytes", bytes, PB_BC_PLAIN);
    gb_set_counter(st, "bytes_per_joint", bytes / n, PB_BC_PLAIN);
}

static void set_common_counters(gb_state *st, const spec *s, const pool *p)
{
    set_counters(st, s, (double)p->n_work, (double)(p->bytes_read + p->bytes_written));
}

/* ---- threaded rows ---------------------------------------------------------------------------- */
void mt_free(void)
{
    for (int t = 0; bench_state.mt && t < bench_state.mt_threads; t++) pool_free(&bench_state.mt[t]);
    free(bench_state.mt);
    bench_state.mt = NULL;
    bench_state.mt_threads = 0;
}

/* The threaded row's pools: one per thread, n / threads elements each, seeded apart. */
static int mt_get(const spec *s, char *err, size_t errlen)
{
    if (bench_state.mt && bench_state.mt_op == s->op && bench_state.mt_n == s->n && bench_state.mt_threads == s->threads)
        return 0;
    mt_free();
    pool_free(&bench_state.pool);   /* one op's buffers at a time: the single-thread rows rebuild theirs */
    bench_state.mt = calloc((size_t)s->threads, sizeof *bench_state.mt);
    if (!bench_state.mt) {
        snprintf(err, errlen, "out of memory for %d pools", s->threads);
        return -1;
    }
    bench_state.mt_threads = s->threads;
    bench_state.mt_op = s->op;
    bench_state.mt_n = s->n;
    for (int t = 0; t < s->threads; t++) {
        uint64_t seed = bench_state.seed ^ ((uint64_t)s->op * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)s->n << 20) ^
                        ((uint64_t)(t + 1) << 52);
        if (pool_build(&bench_state.mt[t], s->op, s->n / (size_t)s->threads, 0, seed, err, errlen) != 0) {
            mt_free();
            return -1;
        }
    }
    return 0;
}

typedef struct mt_job {
    pb_kernel_fn fn;   /* NULL: the copy */
} mt_job;

static pb_status mt_task(void *arg, size_t i, int thread)
{
    const mt_job *j = arg;
    (void)thread;
    const bufset *b = &bench_state.mt[i].sets[0];
    if (j->fn) j->fn(&b->k);
    else copy_set(b);
    return PB_OK;
}

/* One iteration = every thread through its own range once (one pb_pool_run); wall time. */
void run_threaded(gb_state *st, void *user)
{
    spec *s = user;
    char err[512];
    note_start(s);
    if (mt_get(s, err, sizeof err) != 0) {
        gb_skip_with_error(st, err);
        return;
    }
    mt_job j = { s->v ? s->v->table[s->op] : NULL };
    double n = 0, bytes = 0;
    for (int t = 0; t < s->threads; t++) {
        const pool *p = &bench_state.mt[t];
        if (s->v && pb_run(s->op, s->v, &p->sets[0].call) != PB_OK) {
            snprintf(err, sizeof err, "pb_run refused the call: %s", pb_last_error());
            gb_skip_with_error(st, err);
            return;
        }
        n += (double)p->n_work;
        bytes += (double)(p->bytes_read + p->bytes_written);
    }
    int bad = 0;
    while (gb_keep_running_batch(st, 1)) bad |= pb_pool_run(bench_state.workers, (size_t)s->threads, mt_task, &j) != PB_OK;
    gb_clobber_memory();
    if (bad) {
        gb_skip_with_error(st, "the worker pool failed inside the timing loop");
        return;
    }
    set_counters(st, s, n, bytes);
    stats c = s->copy ? spec_stats(s->copy) : (stats){ 0, NAN, NAN, NAN, NAN };
    if (s->v && c.ok && c.cpu_s > 0)
        gb_set_counter(st, "copy_ratio", c.cpu_s, PB_BC_RATE | PB_BC_ITER_INVARIANT | PB_BC_INVERT);
    else if (s->v)
        s->ratio_missing = 1;
}

void run_copy(gb_state *st, void *user)
{
    spec *s = user;
    char err[256];
    note_start(s);
    if (pool_get(s, err, sizeof err) != 0) {
        gb_skip_with_error(st, err);
        return;
    }
    const pool *p = &bench_state.pool;
    const int64_t batch = batch_for(s->n);
    int k = 0;
    while (gb_keep_running_batch(st, batch))
        for (int64_t i = 0; i < batch; i++) {
            flush_if_cold(st, p, &p->sets[k]);
            copy_set(&p->sets[k]);
            if (++k == p->nsets) k = 0;
        }
    gb_clobber_memory();
    set_common_counters(st, s, p);
}

/* The op through the kernel table, the way pb_run calls it once the
 * arguments are valid. Every set is validated by one pb_run call first (that
 * also runs the kernel once, warming the warm case; a cold rotation starts
 * with the set used longest ago). Why not pb_run in the loop: its argument
 * checks (layout and identity padding of every pose, overlap of every plane,
 * CPU features, parameters) cost 60-130 ns per call (before pb_run remembered repeated calls:
 * now 27-38 ns for blend_static_nlerp at n = 64, docs/library.md "Plans"), measured with
 * --pb-run (which times through pb_run instead) on the dev VM (AMD EPYC,
 * Zen 5): at n = 64 that is 6-12x the SIMD kernels (quat_mul avx512: 10 ns
 * per call through the table, 123 ns through pb_run) and +70-130% even for
 * scalar quat_mul and quat_abs; it is lost in the noise only for calls of
 * microseconds (blend_static at n = 64). */
void run_op(gb_state *st, void *user)
{
    spec *s = user;
    char err[512];
    note_start(s);
    if (pool_get(s, err, sizeof err) != 0) {
        gb_skip_with_error(st, err);
        return;
    }
    const pool *p = &bench_state.pool;
    for (int i = 0; i < p->nsets; i++)
        if (pb_run(s->op, s->v, &p->sets[i].call) != PB_OK) {
            snprintf(err, sizeof err, "pb_run refused the call: %s", pb_last_error());
            gb_skip_with_error(st, err);
            return;
        }
    const pb_kernel_fn fn = s->v->table[s->op];
    const int64_t batch = batch_for(s->n);
    int k = 0, bad = 0;
    const int via = s->via ? s->via : bench_state.via_run;
    if (via == 2) {   /* --plan or a /plan row: one plan per buffer set, made outside the timing */
        pb_plan *plans[64] = { 0 };
        int np = p->nsets < 64 ? p->nsets : 64;
        for (int i = 0; i < np; i++) bad |= pb_plan_create(&plans[i], s->op, s->v, &p->sets[i].call) != PB_OK;
        while (!bad && gb_keep_running_batch(st, batch))
            for (int64_t i = 0; i < batch; i++) {
                flush_if_cold(st, p, &p->sets[k]);
                bad |= pb_plan_run(plans[k]) != PB_OK;
                if (++k == np) k = 0;
            }
        for (int i = 0; i < np; i++) pb_plan_destroy(plans[i]);
    } else if (via) {
        while (gb_keep_running_batch(st, batch))
            for (int64_t i = 0; i < batch; i++) {
                flush_if_cold(st, p, &p->sets[k]);
                bad |= pb_run(s->op, s->v, &p->sets[k].call) != PB_OK;
                if (++k == p->nsets) k = 0;
            }
    } else {
        while (gb_keep_running_batch(st, batch))
            for (int64_t i = 0; i < batch; i++) {
                flush_if_cold(st, p, &p->sets[k]);
                fn(&p->sets[k].k);
                if (++k == p->nsets) k = 0;
            }
    }
    gb_clobber_memory();
    if (bad) {
        gb_skip_with_error(st, "pb_run failed inside the timing loop");
        return;
    }
    set_common_counters(st, s, p);
    if (s->kernel) {   /* a /plan row: the kernel-table row's median per call, measured just before */
        stats k = spec_stats(s->kernel);
        if (k.ok) gb_set_counter(st, "kernel_ns_per_call", k.cpu_s * 1e9, PB_BC_PLAIN);
    }
    /* copy_ratio = (CPU s per iteration) / (the copy roofline's median CPU s
     * per iteration), via an inverted per-iteration rate. The copy benchmark
     * is registered just before this one's group and Google Benchmark runs
     * benchmarks one after another, all repetitions of one before the next,
     * reporting each when its repetitions are done: so its median is in the
     * table by now. If it did not run (filtered out, or random interleaving)
     * the counter is left out rather than guessed. */
    stats c = s->copy ? spec_stats(s->copy) : (stats){ 0, NAN, NAN, NAN, NAN };
    if (c.ok && c.cpu_s > 0)
        gb_set_counter(st, "copy_ratio", c.cpu_s, PB_BC_RATE | PB_BC_ITER_INVARIANT | PB_BC_INVERT);
    else
        s->ratio_missing = 1;
}

