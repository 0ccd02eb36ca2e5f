/* frame_opts.c — `posebench frame`'s option table and the checks that span options (frame_opts.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame_opts.h"
#include "pick.h"
#include "skin_opts.h"

const opt_spec frame_opts[O_COUNT] = {
    [O_CHARACTERS] = { "characters", OPT_LONG, "N", 1, 4096, NULL, 0, "200", "crowd size" },
    [O_JOINTS] = { "joints", OPT_LONG, "N", 4, 4096, NULL, 0, "64", "synthetic skeleton joints" },
    [O_BVH] = { "bvh", OPT_STR, "FILE", 0, 0, NULL, FRAME_MAX_BVH, NULL,
                "also run a BVH clip (two consecutive files with the same hierarchy are source and\n"
                "destination, otherwise a file plays against itself)" },
    [O_BVH_SCALE] = { "bvh-scale", OPT_DOUBLE, "S", 1e-6, 1e6, NULL, 0, "0.01: centimetres to metres",
                      "unit scale of the --bvh files" },
    [O_NO_CMU] = { "no-cmu", OPT_FLAG, NULL, 0, 0, NULL, 0, NULL,
                   "skip the packaged CMU clips (" PB_CMU_DIR "/01_01.bvh, 01_03.bvh)" },
    [O_METHOD] = { "method", OPT_STR, "NAME", 0, 0, NULL, FRAME_MAX_METHODS, "crossfade_exact, inertialize, dead_slerp",
                   "a transition method by its name in posebench/frame.h's table: cut, crossfade_slerp,\n"
                   "crossfade_nlerp, crossfade_exact (or crossfade), inertialize, dead_slerp (or dead), dead_nlerp,\n"
                   "dead_ue, dead_clamp, dead_bounce, dead_via; several allowed; --source mm: how it switches\n"
                   "(inertialize, its default, dead_slerp or cut; the others refused)" },
    [O_FRAMES] = { "frames", OPT_LONG, "N", 1, 1000000, NULL, 0, "200; --quick 20", "timed frames per repetition" },
    [O_REPS] = { "reps", OPT_LONG, "N", 1, 1000, NULL, 0, "5; --quick 3", "repetitions, median reported" },
    [O_SAMPLER] = { "sampler", OPT_CHOICE, NULL, 0, 0, PICK_SAMPLER_CHOICES, 0, "linear", PICK_SAMPLER_HELP },
    [O_VARIANT] = { "variant", OPT_STR, "NAME", 0, 0, NULL, FRAME_MAX_VARIANTS, NULL,
                    "only this variant (default: the forced one, else every native variant this CPU runs)" },
    [O_QUICK] = { "quick", OPT_FLAG, NULL, 0, 0, NULL, 0, NULL, "20 frames x 3 repetitions, a 200-vertex mesh" },
    [O_JSON] = { "json", OPT_STR, "FILE", 0, 0, NULL, 0, NULL, "write the table as JSON" },
    [O_THREADS] = { "threads", OPT_LONG, "N", 1, PB_POOL_MAX_THREADS, NULL, 0, "all cores; POSEBENCH_THREADS",
                    "the blocked table's scaling rows: 1, 2, ... N threads" },
    [O_BLOCK] = { "block", OPT_LONG, "N", PB_FRAME_BLOCK_MIN, 4096, NULL, 0, "the most that fits half of L2",
                  "characters per block in the blocked table (fused and staged)" },
    [O_VERTICES] = SKIN_OPT_VERTICES,   /* skin_opts.h: budget's too */
    [O_SKIN] = SKIN_OPT_SKIN,
    [O_SOURCE] = { "source", OPT_CHOICE, NULL, 0, 0, "clips|mm|graph", 0, "clips",
                   "the pose source: each character playing its clips (the stages above), motion matching\n"
                   "(search, switch by --method, FK: its own table), or a blend graph per character\n"
                   "(state machine, blend spaces, all transition methods, masked layers: its own table;\n"
                   "1000 characters unless --characters; --block, --vertices, --skin, --sampler, --threads,\n"
                   "--curve, --bezier and --frozen are the clips source's, --method the clips' and mm's,\n"
                   "--halflife-* the clips' and the graph's, refused with the others)" },
    [O_MM_INTERVAL] = { "mm-interval", OPT_LONG, "N", 1, 1000, NULL, 0, "6", "--source mm: frames between a character's searches" },
    [O_MM_SEARCH] = { "mm-search", OPT_CHOICE, NULL, 0, 0, "exhaustive|aabb", 2, "both",
                      "--source mm: the database search" },
    [O_GRAPH] = { "graph", OPT_STR, "FILE", 0, 0, NULL, 0, NULL,
                  "--source graph: run the blend graph defined in this JSON file instead of the built-in one\n"
                  "(docs/graph_json.md; data/graph_default.json is the built-in one as a file)" },
    HALFLIFE_EST_OPTS(";\nwith --source graph it replaces the graph's"),   /* O_HL_SCALE, O_HL_MIN, O_HL_MAX */
    [O_CURVE] = { "curve", OPT_CHOICE, NULL, 0, 0, PB_CURVE_NAMES, 0, "smoothstep",
                  "the cross-fades' weight over the window (posebench/curve.h); with --method cross-fades only" },
    [O_BEZIER] = { "bezier", OPT_STR, "X1,Y1,X2,Y2", 0, 0, NULL, 0, NULL,
                   "--curve bezier: its control points (as CSS's cubic-bezier), each value in [0, 1]\n"
                   "(1/3,0,2/3,1 is smoothstep; no vertical tangent: posebench/curve.h)" },
    [O_FROZEN] = { "frozen", OPT_FLAG, NULL, 0, 0, NULL, 0, NULL,
                   "frozen cross-fade: the source held at its pose at the switch while the destination takes over" },
    [O_MODEL] = { "model", OPT_STR, "FILE", 0, 0, NULL, 0, NULL,
                  "also run your character (FBX, glTF 2, Collada, X, ...: docs/asset.md): its skeleton, two of\n"
                  "its clips (--clip), its own mesh skinned with the file's inverse binds (--vertices sizes the\n"
                  "synthetic meshes; --vertices 0 skins none)" },
    [O_CLIP] = { "clip", OPT_STR, "NAME", 0, 0, NULL, 2, "its first two (one clip: itself twice)",
                 "--model's source clip, then its destination, by name" },
};

enum { S_CLIPS = 1, S_MM = 2, S_GRAPH = 4 };

int frame_opts_sources(const opt_val *v)
{
    static const struct { int opt, sources; } only[] = {
        { O_MM_INTERVAL, S_MM }, { O_MM_SEARCH, S_MM }, { O_GRAPH, S_GRAPH }, { O_BLOCK, S_CLIPS },
        { O_VERTICES, S_CLIPS }, { O_SKIN, S_CLIPS }, { O_METHOD, S_CLIPS | S_MM }, { O_SAMPLER, S_CLIPS },
        { O_THREADS, S_CLIPS }, { O_HL_SCALE, S_CLIPS | S_GRAPH }, { O_HL_MIN, S_CLIPS | S_GRAPH },
        { O_HL_MAX, S_CLIPS | S_GRAPH }, { O_CURVE, S_CLIPS }, { O_BEZIER, S_CLIPS }, { O_FROZEN, S_CLIPS },
    };
    static const char *const source_name[3] = { "clips", "mm", "graph" };
    int source = v[O_SOURCE].count ? v[O_SOURCE].choice : 0;
    for (size_t i = 0; i < sizeof only / sizeof only[0]; i++) {
        if (!v[only[i].opt].count || (only[i].sources & (1 << source))) continue;
        char with[64] = "";
        for (int s = 0; s < 3; s++)
            if (only[i].sources & (1 << s))
                snprintf(with + strlen(with), sizeof with - strlen(with), "%s--source %s%s", with[0] ? " or " : "",
                         source_name[s], s ? "" : " (the default)");
        fprintf(stderr, "posebench frame: --%s goes with %s, not --source %s%s\n", frame_opts[only[i].opt].name, with,
                source_name[source], v[O_SOURCE].count ? "" : " (the default)");
        return -1;
    }
    return 0;
}

int frame_opts_methods(const opt_val *v, pb_frame_method *list)
{
    if (!v[O_METHOD].count) {
        list[0] = PB_FM_CROSSFADE, list[1] = PB_FM_INERTIALIZE, list[2] = PB_FM_DEAD;
        return 3;
    }
    int n = 0;
    for (int i = 0; i < v[O_METHOD].count; i++) {
        pb_frame_method m = pb_frame_method_by_name(v[O_METHOD].all[i]);
        if (m == PB_FM_COUNT) {
            fprintf(stderr, "posebench frame: --method expects a transition method (");
            for (int k = 0; k < PB_FM_COUNT; k++) fprintf(stderr, "%s%s", k ? ", " : "", pb_frame_method_name((pb_frame_method)k));
            fprintf(stderr, "; or crossfade, dead), got '%s'\n", v[O_METHOD].all[i]);
            return -1;
        }
        int seen = 0;
        for (int k = 0; k < n; k++) seen |= list[k] == m;
        if (!seen) list[n++] = m;
    }
    return n;
}

int halflife_est_opts(const char *cmd, const opt_val *given[3], float hl[3])
{
    const float dflt[3] = { PB_HALFLIFE_EST_SCALE, PB_HALFLIFE_EST_MIN, PB_HALFLIFE_EST_MAX };
    for (int i = 0; i < 3; i++) hl[i] = given[i]->count ? (float)given[i]->d : dflt[i];
    if (!(hl[0] > 0)) {
        fprintf(stderr, "posebench %s: --halflife-scale %g: must be above 0\n", cmd, (double)hl[0]);
        return -1;
    }
    if (hl[1] > hl[2]) {
        fprintf(stderr, "posebench %s: --halflife-min %g is above --halflife-max %g%s\n", cmd, (double)hl[1],
                (double)hl[2], given[1]->count && given[2]->count ? "" : " (its default)");
        return -1;
    }
    if (pb_halflife_est_check("--halflife-scale, --halflife-min, --halflife-max", hl[0], hl[1], hl[2]) != PB_OK) {
        fprintf(stderr, "posebench %s: %s\n", cmd, pb_last_error());
        return -1;
    }
    return 0;
}

int frame_opts_halflife_est(const opt_val *v, frame_cfg *cfg)
{
    const opt_val *given[3] = { &v[O_HL_SCALE], &v[O_HL_MIN], &v[O_HL_MAX] };
    cfg->hl_set = given[0]->count || given[1]->count || given[2]->count;
    return halflife_est_opts("frame", given, cfg->hl);
}

int frame_opts_curve(const opt_val *v, const pb_frame_method *list, int nm, frame_cfg *cfg)
{
    cfg->curve = (pb_curve){ v[O_CURVE].count ? pb_curve_by_name(v[O_CURVE].str) : PB_CURVE_SMOOTHSTEP, 0, 0, 0, 0 };
    cfg->frozen = v[O_FROZEN].count > 0;
    if (v[O_BEZIER].count && cfg->curve.kind != PB_CURVE_BEZIER) {
        fprintf(stderr, "posebench frame: --bezier goes with --curve bezier\n");
        return -1;
    }
    if (cfg->curve.kind == PB_CURVE_BEZIER) {
        const char *s = v[O_BEZIER].str, *p = s;
        float *dst[4] = { &cfg->curve.x1, &cfg->curve.y1, &cfg->curve.x2, &cfg->curve.y2 };
        int ok = s != NULL;
        for (int i = 0; ok && i < 4; i++) {
            char *end = NULL;
            errno = 0;
            double x = strtod(p, &end);
            ok = end != p && errno == 0 && *end == (i < 3 ? ',' : '\0');
            *dst[i] = (float)x;
            p = end + 1;
        }
        if (!ok) {
            fprintf(stderr, "posebench frame: --curve bezier needs --bezier X1,Y1,X2,Y2 (four numbers), got '%s'\n",
                    s ? s : "");
            return -1;
        }
        if (pb_curve_check("--bezier", &cfg->curve) != PB_OK) {
            fprintf(stderr, "posebench frame: %s\n", pb_last_error());
            return -1;
        }
    }
    if (cfg->curve.kind == PB_CURVE_SMOOTHSTEP && !cfg->frozen) return 0;
    for (int i = 0; i < nm; i++)
        if (list[i] != PB_FM_CROSSFADE_STATIC && list[i] != PB_FM_CROSSFADE_NLERP && list[i] != PB_FM_CROSSFADE) {
            fprintf(stderr, "posebench frame: --%s applies to the cross-fades (--method crossfade_slerp, crossfade_nlerp, "
                    "crossfade_exact), not %s%s (it blends by its op's own weight)\n", cfg->frozen ? "frozen" : "curve",
                    pb_frame_method_name(list[i]), v[O_METHOD].count ? "" : " (a default method)");
            return -1;
        }
    return 0;
}
