/* bench.c — `posebench bench`'s run (bench.h): registers every op x variant
 * x size of the op registry with Google Benchmark (through the C shim,
 * gb_shim.h), next to a memory-copy roofline of the same bytes, runs
 * them, and writes Google Benchmark's JSON (--json) and a one-line-per-
 * benchmark CSV summary (--csv).
 *
 * What keeps the numbers honest (STYLE.md, "Benchmarks that don't lie"):
 *  - Inputs are pb_gen_case's mixed class (random rotations plus every edge
 *    class) from a seed that changes per run (time and pid; --seed repeats it),
 *    so a branchy kernel cannot be timed on one memorized pattern across runs.
 *    Within a run a warm benchmark reuses one input set, so that n keeps
 *    meaning the working set (and its cache level); a predictor can partly
 *    learn a pattern that repeats every n elements when n is small. Only the
 *    scalar reference branches on data (the SIMD kernels select). Measured on
 *    the dev VM (AMD EPYC, Zen 5): scalar blend_static and smoothstep at
 *    n = 64 and 256 ran 6-19% faster on one repeated set than on 64 rotated
 *    sets; from n = 1024 the difference was within noise (+-5%). So at
 *    n <= 256 scalar is flattered and speedup_vs_scalar is, if anything,
 *    understated.
 *  - CPU time (Google Benchmark's default), medians and CV over repetitions
 *    (5 by default, 3 with --quick).
 *  - copy/<op>/<n> moves exactly the op's bytes and runs in the same process,
 *    just before the op's benchmarks at that size: copy_ratio = op time / copy
 *    time is the op's distance from the memory roofline.
 *  - Sizes span L1 to DRAM; at n >= 262144 a cold-cache run follows the warm
 *    one (see struct pool, bench_internal.h).
 *  - Nothing is reported that was not measured: a figure whose inputs did not
 *    run (a filtered-out copy or scalar benchmark) is left empty, never guessed.
 *
 * Names (a contract with the report generator): "<op>/<variant>/<n>" and
 * "copy/<op>/<n>"; the cold-cache runs add "/cold". Label: "warm" or "cold".
 * A variant's mode is in its name: emulated variants end in "-emu" (and the
 * "variants" context key maps every benchmarked variant to its mode). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_internal.h"
#include "measure.h"

static const size_t default_sizes[] = { 64, 256, 1000, 1024, 4096, 10000, 16384, 65536, 262144, 1048576 };
static const size_t quick_sizes[] = { 256, 4096, 65536 };

/* The JSON's context: the caller's (CPU, compiler, flags, ...), then what
 * this run is (variants, sizes, seed, inputs, call path, cold cache). */
static void add_context(const bench_opts *o, const char *variants, const size_t *sizes, int nsizes)
{
    char buf[1024];
    for (int i = 0; i < o->nctx; i++) gb_add_context(o->ctx_keys[i], o->ctx_vals[i]);
    gb_add_context("variants", variants);
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < nsizes && used < sizeof buf; i++)
        used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%zu", i ? "," : "", sizes[i]);
    gb_add_context("sizes", buf);
    snprintf(buf, sizeof buf, "%" PRIu64, bench_state.seed);
    gb_add_context("seed", buf);
    if (bench_mocap.nclips) {
        const pb_mocap *m = &bench_mocap;
        size_t used2 = (size_t)snprintf(buf, sizeof buf, "mocap: validation's real-data cases from %zu clip(s), "
                                        "clip 0 of %zu joints (", m->nclips, m->clips[0].joints);
        for (size_t i = 0; i < m->nclips && used2 < sizeof buf; i++)
            used2 += (size_t)snprintf(buf + used2, sizeof buf - used2, "%s%zu frames at %g fps", i ? ", " : "",
                                      m->clips[i].frames, (double)m->clips[i].fps);
        if (used2 < sizeof buf)
            snprintf(buf + used2, sizeof buf - used2, "): elementwise ops keys at random frames of every clip, b "
                     "the same joint at another moment; ops taking unnormalized, log or scalar inputs, and unroll, "
                     "keep the mixed class");
        gb_add_context("input_class", buf);
        gb_add_context("skeleton", "skeleton and sampling ops: whole characters of clip 0's skeleton "
                                         "(n rounded down to a multiple of its joints; ns_per_joint counts those), "
                                         "each at a random frame (sampling: random times in a window of clip 0); "
                                         "chains: the clips' legs; skeleton arrays not counted in bytes");
    } else {
        gb_add_context("input_class", "mixed");
        gb_add_context("skeleton", "skeleton ops: 64-joint characters (random parents, depth <= 16) x n/64 "
                                         "when 64 divides n, else one n-joint skeleton (depth <= 24); skeleton "
                                         "arrays not counted in bytes");
    }
    gb_add_context("quick", o->quick ? "true" : "false");
    snprintf(buf, sizeof buf, "%d", o->threads > 1 ? o->threads : 1);
    gb_add_context("threads", buf);
    if (o->threads > 1)
        gb_add_context("threaded_rows", "<op>/<variant>/<n>/t<T>/real_time: the dispatch variant over T threads, "
                                        "each its own buffer set of n / T elements (disjoint), one pb_pool run per "
                                        "iteration, wall time; copy/<op>/<n>/t<T>: a memcpy of every thread's bytes "
                                        "at once, the same way (the all-core copy roofline); warm, n >= 65536");
    gb_add_context("timing", "cpu_time");
    gb_add_context("call_path", bench_state.via_run == 2 ? "pb_plan_run" : bench_state.via_run ? "pb_run" : "kernel_table");
    gb_add_context("copy_roofline", "copy/<op>/<n>: memcpy of the op's input arrays into its output arrays "
                                          "for the bytes it writes, memcpy of the bytes it reads beyond that into "
                                          "a 16 KiB L1-resident scratch, memset of the bytes it writes beyond that");
    cold_describe(buf, sizeof buf, COLD_MIN_N, gb_cache_total_bytes(), gb_llc_bytes());
    gb_add_context("cold_cache", buf);
}


/* Per-run overhead of plans: each /plan row against its kernel-table row,
 * medians of CPU time per call from the same run. */
static void plan_overhead_summary(void)
{
    int header = 0;
    for (size_t i = 0; i < bench_state.nspecs; i++) {
        const spec *s = &bench_state.specs[i];
        if (!s->kernel || s->error || s->kernel->error) continue;
        stats p = spec_stats(s), k = spec_stats(s->kernel);
        if (!p.ok || !k.ok) continue;
        if (!header++) fprintf(stderr, "posebench bench: plan overhead per run (pb_plan_run minus the kernel table, medians):\n");
        fprintf(stderr, "  %-44s %8.1f ns - %8.1f ns = %+6.1f ns\n", s->kernel->name, p.cpu_s * 1e9, k.cpu_s * 1e9,
                (p.cpu_s - k.cpu_s) * 1e9);
    }
}

static void free_specs(void)
{
    mt_free();
    pb_pool_destroy(bench_state.workers);
    for (size_t i = 0; i < bench_state.nspecs; i++) free(bench_state.specs[i].rep);
    free(bench_state.specs);
    pool_free(&bench_state.pool);
    memset(&bench_state, 0, sizeof bench_state);
}


int bench_run(const bench_opts *opt)
{
    size_t sizes[BENCH_MAX_SIZES];
    int nsizes = opt->nsizes, quick = opt->quick, nvars = opt->nvars;
    const pb_variant *const *vars = opt->vars;
    const char *json = opt->json, *csv = opt->csv;
    memset(&bench_state, 0, sizeof bench_state);
    bench_state.via_run = opt->via_run;
    if (nsizes) memcpy(sizes, opt->sizes, sizeof(size_t) * (size_t)nsizes);
    int op_on[PB_OP_COUNT] = { 0 }, any_op = opt->op_on != NULL;
    for (int i = 0; any_op && i < PB_OP_COUNT; i++) op_on[i] = opt->op_on[i];

#define BAD(...) do { fprintf(stderr, "posebench bench: " __VA_ARGS__); fputc('\n', stderr); return 2; } while (0)
    if (!nsizes) {
        const size_t *src = quick ? quick_sizes : default_sizes;
        nsizes = quick ? (int)(sizeof quick_sizes / sizeof *quick_sizes)
                       : (int)(sizeof default_sizes / sizeof *default_sizes);
        memcpy(sizes, src, sizeof(size_t) * (size_t)nsizes);
    }

    /* Fail on unwritable outputs now, not after an hour of benchmarks. */
    FILE *csvf = NULL;
    if (json && bench_out_writable(json) != 0) return 2;
    if (csv && !(csvf = fopen(csv, "w"))) BAD("cannot write %s: %s", csv, strerror(errno));
    if (opt->mocap) {
        if (pb_mocap_load(&bench_mocap, opt->nbvh ? opt->bvh : NULL, (size_t)opt->nbvh, 0, stderr) != PB_OK) {
            if (csvf) fclose(csvf);
            BAD("%s", pb_last_error());
        }
        if (!bench_mocap.nclips) {
            if (csvf) fclose(csvf);
            BAD("--mocap: no clips (the packaged CMU files are not installed: apt-get install assimp-testmodels, "
                "or pass --bvh FILE)");
        }
        fprintf(stderr, "posebench bench: inputs from %zu-joint characters of %zu mocap clip(s)\n",
                bench_mocap.clips[0].joints, bench_mocap.nclips);
    }
#undef BAD

    uint64_t seed = opt->seed;
    if (!opt->have_seed) {
        struct timespec t;
        clock_gettime(CLOCK_REALTIME, &t);
        seed = ((uint64_t)t.tv_sec * 1000000007ull) ^ (uint64_t)t.tv_nsec ^ ((uint64_t)getpid() << 32);
    }
    bench_state.seed = seed;

    /* Google Benchmark's arguments: our defaults first, so the user's flags
     * (later) override them. Repetitions and minimum time go in as global
     * flags rather than per benchmark, which would append "/repeats:N" and
     * "/min_time:S" to every name. Console shows aggregates only; the JSON
     * file keeps every repetition too. */
    static char a0[] = "posebench bench", a_rep5[] = "--benchmark_repetitions=5",
                a_rep3[] = "--benchmark_repetitions=3", a_min_full[] = "--benchmark_min_time=0.1",
                a_min_quick[] = "--benchmark_min_time=0.01", a_aggr[] = "--benchmark_display_aggregates_only=true",
                a_fmt[] = "--benchmark_out_format=json";
    char a_out[4200];
    int gbc = 0;
    char **gbv = calloc((size_t)opt->ngb + 8, sizeof *gbv);
    if (!gbv) {
        pb_mocap_free(&bench_mocap);
        if (csvf) fclose(csvf);
        return 2;
    }
    gbv[gbc++] = a0;
    gbv[gbc++] = quick ? a_rep3 : a_rep5;
    gbv[gbc++] = quick ? a_min_quick : a_min_full;
    gbv[gbc++] = a_aggr;
    if (json) {
        snprintf(a_out, sizeof a_out, "--benchmark_out=%s", json);
        gbv[gbc++] = a_out;
        gbv[gbc++] = a_fmt;
    }
    for (int i = 0; i < opt->ngb; i++) gbv[gbc++] = opt->gb_args[i];
    gbv[gbc] = NULL;
    int status = 2;
    if (gb_init(&gbc, gbv) != 0) {
        fprintf(stderr, "posebench bench: unrecognized Google Benchmark flag (see posebench bench -- --help)\n");
        goto out;
    }

    /* Register: per op and size, the copy roofline first, then each variant;
     * sizes from COLD_MIN_N again cold. */
    size_t nops = 0;
    for (int o = 0; o < PB_OP_COUNT; o++) {
        if (any_op && !op_on[o]) continue;
        char why[512];
        if (probe_op((pb_op)o, why, sizeof why) != 0) {
            fprintf(stderr, "posebench bench: %s op %s: %s\n", any_op ? "cannot benchmark" : "skipping",
                    pb_op_get((pb_op)o)->name, why);
            if (any_op) goto out;   /* asked for by name: an error */
            op_on[o] = -1;
            continue;
        }
        nops++;
    }
    /* threaded rows: the dispatch variant, when it is one of those asked for */
    const pb_variant *mtv = NULL;
    if (opt->threads > 1 && pb_variant_active(&mtv) == PB_OK) {
        int in = 0;
        for (int vi = 0; vi < nvars; vi++) in |= vars[vi] == mtv;
        if (!in) {
            if (opt->threads_from)
                fprintf(stderr, "posebench bench: %s%s%d: no threaded rows (they time the dispatch variant, %s, "
                                "which is not among those asked for)\n", opt->threads_from,
                        opt->threads_from[0] == '-' ? " " : "=", opt->threads, pb_variant_name(mtv));
            mtv = NULL;
        } else if (pb_pool_create(&bench_state.workers, opt->threads) != PB_OK) {
            fprintf(stderr, "posebench bench: %s\n", pb_last_error());
            goto out;
        }
    }
    bench_state.specs = calloc(nops * (size_t)nsizes * 2 * (size_t)(nvars + 3), sizeof *bench_state.specs);
    if (!bench_state.specs) {
        fprintf(stderr, "posebench bench: out of memory\n");
        goto out;
    }
    for (int o = 0; o < PB_OP_COUNT; o++) {
        if ((any_op && !op_on[o]) || op_on[o] < 0) continue;
        const char *opname = pb_op_get((pb_op)o)->name;
        for (int si = 0; si < nsizes; si++)
            for (int cold = 0; cold <= (sizes[si] >= COLD_MIN_N); cold++) {
                spec *copy = &bench_state.specs[bench_state.nspecs++];
                copy->op = (pb_op)o;
                copy->n = sizes[si];
                copy->cold = cold;
                snprintf(copy->name, sizeof copy->name, "copy/%s/%zu%s", opname, sizes[si], cold ? "/cold" : "");
                spec *scalar = NULL, *first = copy + 1;
                for (int vi = 0; vi < nvars; vi++) {
                    spec *s = &bench_state.specs[bench_state.nspecs++];
                    *s = (spec){ .op = (pb_op)o, .v = vars[vi], .n = sizes[si], .cold = cold, .copy = copy };
                    snprintf(s->name, sizeof s->name, "%s/%s/%zu%s", opname, pb_variant_name(vars[vi]), sizes[si],
                             cold ? "/cold" : "");
                    if (!strcmp(pb_variant_name(vars[vi]), "scalar")) scalar = s;
                }
                /* the per-run overhead of plans: the same calls through pb_plan_run (slots: no cold run here) */
                spec *end = &bench_state.specs[bench_state.nspecs];
                if (!cold && sizes[si] <= PLAN_ROW_MAX_N && !bench_state.via_run)
                    for (spec *k = first; k < end; k++) {
                        spec *s = &bench_state.specs[bench_state.nspecs++];
                        *s = *k;
                        s->via = 2;
                        s->kernel = k;
                        snprintf(s->name, sizeof s->name, "%.120s/plan", k->name);
                    }
                for (spec *s = first; s < &bench_state.specs[bench_state.nspecs]; s++) s->scalar = scalar;
                if (!gb_register(copy->name, run_copy, copy)) goto oom;
                for (spec *s = first; s < &bench_state.specs[bench_state.nspecs]; s++)
                    if (!gb_register(s->name, run_op, s)) goto oom;
                if (!mtv || cold || sizes[si] < THREADED_MIN_N) continue;
                /* threaded: the copy of every thread's bytes at once, then the op (wall time) */
                spec *mcopy = &bench_state.specs[bench_state.nspecs++], *mop = &bench_state.specs[bench_state.nspecs++];
                *mcopy = (spec){ .op = (pb_op)o, .n = sizes[si], .threads = opt->threads };
                *mop = (spec){ .op = (pb_op)o, .v = mtv, .n = sizes[si], .threads = opt->threads, .copy = mcopy };
                snprintf(mcopy->name, sizeof mcopy->name, "copy/%s/%zu/t%d", opname, sizes[si], opt->threads);
                snprintf(mop->name, sizeof mop->name, "%s/%s/%zu/t%d", opname, pb_variant_name(mtv), sizes[si],
                         opt->threads);
                for (spec *s = mcopy; s <= mop; s++) {
                    gb_bench *b = gb_register(s->name, run_threaded, s);
                    if (!b) goto oom;
                    gb_use_real_time(b);
                    strncat(s->name, "/real_time", sizeof s->name - strlen(s->name) - 1);   /* as reported */
                }
            }
    }

    char vlist[512];
    size_t used = 0;
    vlist[0] = '\0';
    for (int vi = 0; vi < nvars && used < sizeof vlist; vi++)
        used += (size_t)snprintf(vlist + used, sizeof vlist - used, "%s%s=%s", vi ? "," : "", pb_variant_name(vars[vi]),
                                 pb_variant_mode(vars[vi]) == PB_MODE_NATIVE ? "native" : "emulated");
    add_context(opt, vlist, sizes, nsizes);

    bench_state.total = gb_count_selected();
    fprintf(stderr, "posebench bench: %zu benchmarks (variants %s), seed %" PRIu64 " (--seed %" PRIu64
            " repeats the inputs)\n", bench_state.total, vlist, bench_state.seed, bench_state.seed);
    bench_state.t0 = wall_seconds();
    long ran = gb_run(on_result, NULL);
    if (ran < 0) goto out;
    char e[32];
    fprintf(stderr, "posebench bench: %ld benchmarks in %s\n", ran, fmt_dur((wall_seconds() - bench_state.t0), e, sizeof e));

    size_t errors = 0, missing = 0, skipped = 0;
    for (size_t i = 0; i < bench_state.nspecs; i++) {
        errors += bench_state.specs[i].error;
        skipped += bench_state.specs[i].skipped;
        missing += bench_state.specs[i].ratio_missing;
    }
    if (missing)
        fprintf(stderr, "posebench bench: copy_ratio left out for %zu benchmark(s): their copy/<op>/<n> "
                        "benchmark did not run before them\n", missing);
    plan_overhead_summary();
    if (skipped) fprintf(stderr, "posebench bench: %zu cold-cache benchmark(s) skipped (reason in the output)\n", skipped);
    if (errors) fprintf(stderr, "posebench bench: %zu benchmark(s) reported an error\n", errors);
    status = errors ? 1 : 0;
    if (csvf) {
        if (write_csv(csvf) != 0) {
            fprintf(stderr, "posebench bench: error writing %s\n", csv);
            status = 2;
        }
        if (fclose(csvf) != 0 && status != 2) {
            fprintf(stderr, "posebench bench: error writing %s\n", csv);
            status = 2;
        }
        csvf = NULL;
    }
    if (gb_out_error()) {   /* --json, or Google Benchmark's own --benchmark_out */
        fprintf(stderr, "posebench bench: error writing %s\n", gb_out_error());
        status = 2;
    } else if (json) {
        fprintf(stderr, "posebench bench: wrote %s\n", json);
    }
    if (csv && status != 2) fprintf(stderr, "posebench bench: wrote %s\n", csv);
    goto out;
oom:
    fprintf(stderr, "posebench bench: cannot register benchmarks (out of memory)\n");
out:
    if (csvf) fclose(csvf);
    gb_shutdown();
    free_specs();
    pb_mocap_free(&bench_mocap);
    free(gbv);
    return status;
}
