/* gb_shim.h — a thin C API over Google Benchmark (implemented in
 * shim.cc, the project's only C++). It exposes just what bench.c needs:
 * register a named benchmark with a C callback, drive its timing loop, set
 * counters and labels, add context to the report, and run everything with
 * Google Benchmark's own command-line flags (--benchmark_filter,
 * --benchmark_out, --benchmark_repetitions, ...), seeing every reported run
 * through a C hook.
 *
 * A callback looks like
 *     static void fn(gb_state *st, void *user)
 *     {
 *         ...setup (not timed)...
 *         while (gb_keep_running(st)) { ...one iteration... }
 *         gb_set_counter(st, "items_per_s", n, PB_BC_RATE | PB_BC_ITER_INVARIANT);
 *     }
 * Timing is CPU time unless gb_use_real_time() is called. */
#ifndef GB_SHIM_H
#define GB_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gb_state gb_state;   /* a benchmark::State */
typedef struct gb_bench gb_bench;               /* a registered benchmark */
typedef void (*gb_fn)(gb_state *st, void *user);

/* ---- registration ------------------------------------------------------------
 * Benchmarks run in registration order (unless Google Benchmark's
 * --benchmark_enable_random_interleaving is given). Returns NULL on failure. */
gb_bench *gb_register(const char *name, gb_fn fn, void *user);
/* Time wall-clock instead of CPU time (Google Benchmark appends "/real_time"
 * to the name). */
void gb_use_real_time(gb_bench *b);
/* Per-benchmark repetitions and minimum time. Google Benchmark appends
 * "/repeats:N" and "/min_time:S" to the name; to keep names stable pass
 * --benchmark_repetitions / --benchmark_min_time to gb_run instead. */
void gb_repetitions(gb_bench *b, int n);
void gb_min_time(gb_bench *b, double seconds);

/* ---- inside a callback ----------------------------------------------------------- */
/* Nonzero while another iteration should run. The timer starts at the first
 * call: work before the loop is not timed. */
int gb_keep_running(gb_state *st);
/* Same, counting n iterations per call (amortizes the loop's own cost when
 * one iteration is a few nanoseconds; may overshoot by up to n). */
int gb_keep_running_batch(gb_state *st, int64_t n);
void gb_pause_timing(gb_state *st);
void gb_resume_timing(gb_state *st);
int64_t gb_iterations(const gb_state *st);   /* iterations run so far */
void gb_set_label(gb_state *st, const char *label);
/* Report the benchmark as failed with msg; return from the callback at once
 * (or after the current loop iteration). */
void gb_skip_with_error(gb_state *st, const char *msg);

/* Counter flags (the reported value is transformed in this order). */
enum {
    PB_BC_PLAIN          = 0,
    PB_BC_RATE           = 1u << 0,  /* divided by the measured time (s) */
    PB_BC_ITER_INVARIANT = 1u << 1,  /* value is per iteration: multiplied by the iteration count */
    PB_BC_AVG_ITERATIONS = 1u << 2,  /* divided by the iteration count */
    PB_BC_INVERT         = 1u << 3,  /* finally inverted (1/x) */
    PB_BC_1024           = 1u << 4   /* console display uses 1024 per k (no effect on the value) */
};
/* Set (or replace) a user counter. The console shows inverted counters
 * without Google Benchmark's "s" unit: their unit is the caller's (say, ns
 * for a value scaled by 1e-9). Examples, with n items per iteration:
 *   items per second:        value n,        PB_BC_RATE | PB_BC_ITER_INVARIANT
 *   seconds per item:        value n,        PB_BC_RATE | PB_BC_ITER_INVARIANT | PB_BC_INVERT
 *   time per iter / t0:      value t0 (s),   PB_BC_RATE | PB_BC_ITER_INVARIANT | PB_BC_INVERT */
void gb_set_counter(gb_state *st, const char *name, double value, unsigned flags);

/* Compiler barrier: memory written before it counts as observed. */
void gb_clobber_memory(void);

/* ---- context and running ---------------------------------------------------------- */
/* A key/value pair for the "context" object of the report (JSON, console). */
void gb_add_context(const char *key, const char *value);

/* One run as reported (a repetition, or an aggregate over repetitions). */
typedef struct gb_result {
    const char *name;        /* the registered name, without aggregate suffix */
    const char *aggregate;   /* "" for a repetition; "mean", "median", "stddev", "cv" for aggregates */
    int percentage;          /* the aggregate is a fraction (cv), not a time */
    int error;               /* skipped with an error (message in label) */
    const char *label;       /* label, or the error message */
    int64_t iterations;
    int64_t repetition_index;  /* -1 for aggregates */
    double cpu_time;         /* seconds per iteration (the statistic for aggregates; cv: a fraction) */
    double real_time;
    int ncounters;
    const char *const *counter_name;
    const double *counter_value;  /* counters as reported (rates and inversions applied) */
} gb_result;
typedef void (*gb_report_fn)(const gb_result *r, void *user);

/* Parse Google Benchmark's flags (argv[0] is the program name). Recognized
 * flags are removed from argc/argv. Returns 0, or -1 if arguments were left
 * unrecognized (they are printed on stderr). --help prints Google
 * Benchmark's help and exits. */
int gb_init(int *argc, char **argv);
/* How many registered benchmarks --benchmark_filter selects (for progress). */
size_t gb_count_selected(void);
/* Run the selected benchmarks with the default display reporter (honouring
 * --benchmark_format) and the --benchmark_out file reporter; report (may be
 * NULL) sees every run the display reporter sees, before it is printed.
 * Returns the number of benchmarks run, or -1 (message on stderr) if the
 * run could not start. */
long gb_run(gb_report_fn report, void *user);
/* After gb_run: the --benchmark_out file's path if writing it failed (a full disk, /dev/full), else NULL. */
const char *gb_out_error(void);
/* Last-level cache size in bytes as Google Benchmark detected it, and the sum
 * of the data/unified caches of one core's hierarchy (0 if unknown). */
size_t gb_llc_bytes(void);
size_t gb_cache_total_bytes(void);
void gb_shutdown(void);

#ifdef __cplusplus
}
#endif
#endif
