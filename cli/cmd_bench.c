/* cmd_bench.c — `posebench bench`: the options of the benchmark harness
 * (bench/bench.h), the variants (pick.h) and the context (context.h); the
 * harness registers, runs and writes. Google Benchmark's own flags pass
 * through after `--` (and --benchmark_* ones anywhere). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "all_variants.h"
#include "command.h"
#include "context.h"
#include "env.h"
#include "num.h"
#include "pick.h"
#ifdef PB_HAVE_BENCH
#include "bench.h"
#else
#define BENCH_MAX_SIZES 32
#define BENCH_MAX_SIZE ((size_t)1 << 26)
#endif

#define MAX_VARIANTS 32

enum { O_OP, O_VARIANT, O_SIZES, O_QUICK, O_EMULATED, O_JSON, O_CSV, O_SEED, O_PB_RUN, O_PLAN, O_MOCAP, O_BVH,
       O_THREADS, O_MODEL, O_SLOTS, O_COUNT };
static const opt_spec opts[O_COUNT] = {
    [O_OP] = { "op", OPT_STR, "NAME", 0, 0, NULL, 64, NULL, "only this op (default: every op)" },
    [O_VARIANT] = { "variant", OPT_STR, "NAME", 0, 0, NULL, MAX_VARIANTS, NULL,
                    "only this variant (default: the forced one, else every native variant this CPU\n"
                    "runs); with --emulated an ISA name also selects its -emu build" },
    [O_SIZES] = { "sizes", OPT_STR, "LIST", 0, 0, NULL, 0, "64,256,1000,1024,4096,10000,16384,65536,262144,1048576",
                  "joint counts, comma-separated, 1..67108864; sizes >= 262144 also get a cold-cache run" },
    [O_QUICK] = { "quick", OPT_FLAG, NULL, 0, 0, NULL, 0, NULL, "sizes 256,4096,65536, 3 repetitions, short minimum time" },
    [O_EMULATED] = { "emulated", OPT_FLAG, NULL, 0, 0, NULL, 0, NULL,
                     "also time the emulated (-emu) variants: slow, for completeness, not for speed" },
    [O_JSON] = { "json", OPT_STR, "FILE", 0, 0, NULL, 0, NULL,
                 "Google Benchmark JSON (same as -- --benchmark_out=FILE --benchmark_out_format=json)" },
    [O_CSV] = { "csv", OPT_STR, "FILE", 0, 0, NULL, 0, NULL,
                "summary of the pose ops: op,variant,mode,n,ns_per_joint_median,ns_per_joint_cv,copy_ratio,\n"
                "speedup_vs_scalar,cache,threads (threaded rows: --threads); not for skin_*, mm_*, bspace,\n"
                "blend_n, masked, palette_bind (their own tables)" },
    [O_SEED] = { "seed", OPT_U64, "N", 0, 0, NULL, 0, "from the clock and pid, printed", "input seed" },
    [O_PB_RUN] = { "pb-run", OPT_FLAG, NULL, 0, 0, NULL, 0, NULL,
                   "time calls through pb_run (argument validation included), not the kernel table" },
    [O_PLAN] = { "plan", OPT_FLAG, NULL, 0, 0, NULL, 0, NULL, "time calls through pb_plan_run (plans made once per buffer set)" },
    [O_MOCAP] = { "mocap", OPT_FLAG, NULL, 0, 0, NULL, 0, NULL,
                  "inputs from real motion capture, as validation's real-data cases (the packaged CMU clips,\n"
                  "/usr/share/assimp/models/BVH): real keys, real skeletons for fk/bk, real legs for IK" },
    [O_BVH] = { "bvh", OPT_STR, "FILE", 0, 0, NULL, 16, NULL, "the same with your own clips (implies --mocap)" },
    [O_THREADS] = { "threads", OPT_LONG, "N", 1, PB_POOL_MAX_THREADS, NULL, 0, "all cores; POSEBENCH_THREADS",
                    "N > 1: also the dispatch variant over N threads on disjoint ranges, with an N-thread copy\n"
                    "roofline (warm, sizes >= 65536, wall time)" },
    [O_MODEL] = { "model", OPT_STR, "FILE", 0, 0, NULL, 0, NULL,
                  "skinning (skin_lbs, skin_dqs: the ops it implies) also on this character's mesh, by the\n"
                  "palettes of its rest pose and its inverse binds (FBX, glTF 2, X, ...: docs/asset.md),\n"
                  "the synthetic rows at its vertex count beside them; with --op palette_bind, the palettes\n"
                  "of a crowd of 200 of it" },
    [O_SLOTS] = { "slots", OPT_FLAG, NULL, 0, 0, NULL, 0, NULL,
                  "skinning (skin_lbs, skin_dqs: the ops it implies) also with 1, 2, 3 and 4 influence slots\n"
                  "of the random mesh over 64 joints, weights renormalised over the kept slots (rows\n"
                  ".../<n>/slots<k>; --benchmark_filter=slots runs them alone), then the least-squares line\n"
                  "ns/vertex = a + b k per variant and size and its value at 8 slots" },
};

/* "64,256,1000": every entry a joint count, none empty. 0, or -1 after a message. */
static int parse_sizes(const char *list, size_t *sizes, int *count)
{
    *count = 0;
    const char *p = list;
    for (;;) {
        size_t len = strcspn(p, ",");
        char tok[32];
        if (len == 0) {
            fprintf(stderr, "posebench bench: --sizes: empty entry in '%s' (a comma-separated list of joint "
                            "counts 1..%zu)\n", list, BENCH_MAX_SIZE);
            return -1;
        }
        snprintf(tok, sizeof tok, "%.*s", (int)(len < sizeof tok ? len : sizeof tok - 1), p);
        uint64_t v;
        if (len >= sizeof tok || num_whole(tok, 1, BENCH_MAX_SIZE, &v) != 0) {
            fprintf(stderr, "posebench bench: --sizes expects joint counts 1..%zu, got '%.*s' in '%s'\n",
                    BENCH_MAX_SIZE, (int)len, p, list);
            return -1;
        }
        int dup = 0;
        for (int i = 0; i < *count; i++) dup |= sizes[i] == v;
        if (!dup) {
            if (*count == BENCH_MAX_SIZES) {
                fprintf(stderr, "posebench bench: --sizes: at most %d sizes\n", BENCH_MAX_SIZES);
                return -1;
            }
            sizes[(*count)++] = (size_t)v;
        }
        if (!p[len]) return 0;
        p += len + 1;
    }
}

/* Google Benchmark's own --benchmark_out=FILE: checked here as --json is, so an unwritable file is a usage error
 * (exit 2) before any timing, not the framework's "invalid file name" and exit 1 after registering everything.
 * Opened for appending: the check truncates nothing. 0, or -1 with the reason on stderr. */
static int gb_out_writable(int nrest, char **rest)
{
    static const char flag[] = "--benchmark_out=";
    for (int i = 0; i < nrest; i++) {
        if (strncmp(rest[i], flag, sizeof flag - 1) != 0) continue;
        const char *path = rest[i] + sizeof flag - 1;
        FILE *f = *path ? fopen(path, "a") : NULL;
        if (!f) {
            fprintf(stderr, "posebench bench: %s: cannot write %s: %s\n", rest[i], *path ? path : "''",
                    *path ? strerror(errno) : "empty file name");
            return -1;
        }
        fclose(f);
    }
    return 0;
}

static int run(const opt_val *o, int nrest, char **rest)
{
    int op_on[PB_OP_COUNT] = { 0 }, skin_on[2] = { 0, 0 }, nskin = 0, mm_on[2] = { 0, 0 }, nmm = 0, nbs = 0, nbn = 0, nml = 0, npl = 0;
    for (int i = 0; i < o[O_OP].count; i++) {
        pb_op op;
        const char *name = o[O_OP].all[i];
        if (!strcmp(name, "skin_lbs") || !strcmp(name, "skin_dqs")) {   /* skinning: not a pose op */
            skin_on[name[5] == 'd'] = 1;
            nskin++;
            continue;
        }
        if (!strcmp(name, "mm_search") || !strcmp(name, "mm_aabb")) {   /* motion matching: not a pose op */
            mm_on[name[3] == 'a'] = 1;
            nmm++;
            continue;
        }
        if (!strcmp(name, "bspace")) {   /* blend-space weights: not a pose op */
            nbs++;
            continue;
        }
        if (!strcmp(name, "blend_n")) {   /* the N-way blend: K inputs, not a pose op's call */
            nbn++;
            continue;
        }
        if (!strcmp(name, "masked")) {   /* the masked layers: ops with per-character and per-joint arrays */
            nml++;
            continue;
        }
        if (!strcmp(name, "palette_bind")) {   /* the palettes with the inverse bind per element and per joint */
            npl++;
            continue;
        }
        if (pb_op_find(o[O_OP].all[i], &op) != PB_OK) {
            fprintf(stderr, "posebench bench: %s\n", pb_last_error());
            return EXIT_USAGE;
        }
        op_on[op] = 1;
    }
    if (o[O_MODEL].count) {
        if (nskin + npl != o[O_OP].count || (nskin && npl)) {
            fprintf(stderr, "posebench bench: --model times the skinning or the palette rows: with --op skin_lbs / "
                            "skin_dqs, --op palette_bind or no --op, not with %s\n", o[O_OP].all[0]);
            return EXIT_USAGE;
        }
        if (!nskin && !npl) skin_on[0] = skin_on[1] = 1, nskin = 2;
        if (o[O_SIZES].count) {
            fprintf(stderr, "posebench bench: --model: the rows run at the model's vertex count, not --sizes\n");
            return EXIT_USAGE;
        }
    }
    if (o[O_SLOTS].count) {   /* after --model's check: with no --op, nskin is 2 there */
        if (o[O_OP].count && nskin != o[O_OP].count) {
            fprintf(stderr, "posebench bench: --slots times the skinning rows: with --op skin_lbs / skin_dqs or no "
                            "--op, not with %s\n", o[O_OP].all[0]);
            return EXIT_USAGE;
        }
        if (!nskin) skin_on[0] = skin_on[1] = 1, nskin = 2;
    }
    size_t sizes[BENCH_MAX_SIZES];
    int nsizes = 0;
    if (o[O_SIZES].count && parse_sizes(o[O_SIZES].str, sizes, &nsizes) != 0) return EXIT_USAGE;
    int emulated = o[O_EMULATED].count > 0;
    if (emulated && !pb_all_variant_emulated()) {
        fprintf(stderr, "posebench bench: --emulated: this build has no emulated variants (configure with "
                        "-DPB_EMULATED=ON)\n");
        return EXIT_USAGE;
    }
    const pb_variant *vars[MAX_VARIANTS];
    int nvars = pick_variants("bench", o[O_VARIANT].all, o[O_VARIANT].count,
                              PICK_ALL_NATIVE | (emulated ? PICK_EMULATED : 0), vars, MAX_VARIANTS);
    if (nvars < 0) return EXIT_USAGE;
    if (gb_out_writable(nrest, rest) != 0) return EXIT_USAGE;
#ifdef PB_HAVE_BENCH
    /* the shared context, less what Google Benchmark records itself (date, num_cpus) */
    cJSON *ctx = context_new();
    if (!ctx) {
        fprintf(stderr, "posebench bench: out of memory\n");
        return EXIT_USAGE;
    }
    const char *keys[32], *vals[32];
    int nctx = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, ctx) {
        if (!cJSON_IsString(it) || !strcmp(it->string, "date") || !strcmp(it->string, "num_cpus") || nctx == 32)
            continue;
        keys[nctx] = it->string;
        vals[nctx++] = it->valuestring;
    }
    bench_opts b = {
        .op_on = o[O_OP].count ? op_on : NULL, .vars = vars, .nvars = nvars, .sizes = sizes, .nsizes = nsizes,
        .quick = o[O_QUICK].count > 0, .via_run = o[O_PLAN].count ? 2 : o[O_PB_RUN].count ? 1 : 0,
        .mocap = o[O_MOCAP].count || o[O_BVH].count, .bvh = o[O_BVH].all, .nbvh = o[O_BVH].count,
        .json = o[O_JSON].str, .csv = o[O_CSV].str, .have_seed = o[O_SEED].count > 0, .seed = o[O_SEED].u,
        .threads = o[O_THREADS].count ? (int)o[O_THREADS].l : pick_threads(),
        .threads_from = o[O_THREADS].count ? "--threads" : env_threads() ? "POSEBENCH_THREADS" : NULL,
        .gb_args = rest, .ngb = nrest, .ctx_keys = keys, .ctx_vals = vals, .nctx = nctx, .model = o[O_MODEL].str,
        .slots = o[O_SLOTS].count > 0,
    };
    if ((nskin && o[O_OP].count && nskin != o[O_OP].count) || (nmm && nmm != o[O_OP].count) ||
        (nbs && nbs != o[O_OP].count) ||
        (nbn && nbn != o[O_OP].count) || (nml && nml != o[O_OP].count) || (npl && npl != o[O_OP].count)) {
        cJSON_Delete(ctx);
        fprintf(stderr, "posebench bench: skin_lbs / skin_dqs, mm_search / mm_aabb, bspace, blend_n, masked and "
                        "palette_bind run on their own (not with pose ops or each other)\n");
        return EXIT_USAGE;
    }
    if ((nskin || nmm || nbs || nbn || nml || npl) && o[O_CSV].count) {
        cJSON_Delete(ctx);
        fprintf(stderr, "posebench bench: --csv: the summary has a row per pose op, variant and size; %s prints its "
                        "own table (--json keeps every repetition)\n", o[O_OP].all[0]);
        return EXIT_USAGE;
    }
    int st = nskin ? bench_skin_run(&b, skin_on[0], skin_on[1])
             : nmm ? bench_mm_run(&b, mm_on[0], mm_on[1]) : nbs ? bench_bspace_run(&b) : nbn ? bench_blend_n_run(&b)
             : nml ? bench_layers_run(&b) : npl ? bench_palette_run(&b) : bench_run(&b);
    cJSON_Delete(ctx);
    return st;
#else   /* the options are still checked, so a bad command line says so before the missing framework */
    (void)nrest, (void)rest, (void)op_on, (void)skin_on, (void)nskin, (void)mm_on, (void)nmm, (void)nbs, (void)nbn, (void)nml, (void)npl;
    fprintf(stderr, "posebench bench: this build has no Google Benchmark (install libbenchmark-dev and a C++ "
                    "compiler, then reconfigure)\n");
    return EXIT_USAGE;
#endif
}

const command cmd_bench = {
    .name = "bench",
    .summary = "time every op x variant x size with Google Benchmark, beside a memcpy roofline",
    .about = "  CPU time, repetitions (median and CV), and in the same run a memcpy of the op's own bytes\n"
             "  (copy_ratio = op time / copy time); sizes from 262144 also run cold-cache. Google Benchmark's\n"
             "  flags after --, e.g. --benchmark_filter=REGEX, --benchmark_min_time=SECONDS,\n"
             "  --benchmark_repetitions=N (--benchmark_* flags are also taken before --). Its line \"Library was\n"
             "  built as DEBUG\" is about Debian's build of the framework, not the timed code (docs/performance.md).\n",
    .opts = opts,
    .nopts = O_COUNT,
    .rest = "<Google Benchmark flags>",
    .run = run,
};
