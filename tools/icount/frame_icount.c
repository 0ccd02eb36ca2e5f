/* frame_icount.c — the default frame's stages under callgrind, for
 * tools/icount.sh: instructions are counted, not timed, so two builds can be
 * compared on a noisy shared machine to the instruction.
 *
 * The synthetic 64-joint scene of `posebench frame`, in blocks, with the
 * given variant and method: the transition begins at time 0, then frames
 * 1 .. K run stage by stage over the blocks in their own buffers (the staged
 * order: the fused order runs the same kernels on the same data, bit for
 * bit, so the same instructions). Each stage of each frame is one callgrind
 * dump, named "<stage> <frame>" (the counts zeroed before it); frame 0 (the
 * first touch) is not dumped.
 *
 * usage: frame_icount VARIANT [characters] [frames] [method] [block] [linear|cubic]
 *        frame_icount --list      (the variants this CPU runs, one per line)
 *        frame_icount --methods   (the frame methods' keys, one per line)
 * (defaults 200, 3, inertialize, 48, linear: the sampler). Run under valgrind --tool=callgrind;
 * alone it runs the same frames without counting. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/callgrind.h>

#include "posebench/posebench.h"

/* The variant named, if this CPU runs it (else NULL, the reason printed). */
static const pb_variant *variant_named(const char *name)
{
    const pb_variant *v;
    if (pb_variant_find(name, &v) != PB_OK || pb_variant_check(v) != PB_OK) {
        fprintf(stderr, "frame_icount: %s\n", pb_last_error());
        return NULL;
    }
    return v;
}

static int method_named(const char *name, pb_frame_method *m)
{
    for (int i = 0; pb_frame_method_get((pb_frame_method)i); i++)
        if (!strcmp(pb_frame_method_get((pb_frame_method)i)->key, name)) {
            *m = (pb_frame_method)i;
            return 0;
        }
    return -1;
}

static long arg_or(int argc, char **argv, int i, long dflt, long lo, long hi)
{
    if (argc <= i) return dflt;
    char *end;
    long v = strtol(argv[i], &end, 10);
    if (*end || v < lo || v > hi) {
        fprintf(stderr, "frame_icount: argument %d (%s) is not an integer in %ld..%ld\n", i, argv[i], lo, hi);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: frame_icount VARIANT [characters] [frames] [method] [block] [linear|cubic]\n");
        return 2;
    }
    if (!strcmp(argv[1], "--list")) {
        for (size_t i = 0; i < pb_variant_count(); i++)
            if (pb_variant_check(pb_variant_at(i)) == PB_OK) printf("%s\n", pb_variant_name(pb_variant_at(i)));
        return 0;
    }
    if (!strcmp(argv[1], "--methods")) {
        for (int i = 0; pb_frame_method_get((pb_frame_method)i); i++) printf("%s\n", pb_frame_method_get((pb_frame_method)i)->key);
        return 0;
    }
    const pb_variant *v = variant_named(argv[1]);
    if (!v) return 2;
    size_t C = (size_t)arg_or(argc, argv, 2, 200, 1, 4096);
    int K = (int)arg_or(argc, argv, 3, 3, 1, 1000);
    pb_frame_method m = PB_FM_INERTIALIZE;
    if (argc > 4 && method_named(argv[4], &m)) {
        fprintf(stderr, "frame_icount: no frame method \"%s\"\n", argv[4]);
        return 2;
    }
    size_t block = (size_t)arg_or(argc, argv, 5, 48, 16, 4096);
    pb_op sampler = PB_OP_sample_linear;
    if (argc > 6 && strcmp(argv[6], "linear")) {
        if (strcmp(argv[6], "cubic") && strcmp(argv[6], "turns")) {
            fprintf(stderr, "frame_icount: sampler \"%s\" is not linear, cubic or turns\n", argv[6]);
            return 2;
        }
        sampler = strcmp(argv[6], "cubic") ? PB_OP_sample_linear_turns : PB_OP_sample_cubic;
    }
    pb_scene sc;
    pb_frame_blocks b;
    if (pb_scene_synthetic(&sc, 64, 20231) != PB_OK) {
        fprintf(stderr, "frame_icount: %s\n", pb_last_error());
        return 1;
    }
    if (pb_frame_blocks_init(&b, &sc, C, block, sampler) != PB_OK) {
        fprintf(stderr, "frame_icount: %s\n", pb_last_error());
        pb_scene_free(&sc);
        return 1;
    }
    pb_status st = pb_frame_blocks_begin(&b, v, m, 0.0f, NULL);
    for (int k = 0; k <= K && st == PB_OK; k++)
        for (int s = 0; s < PB_FS_COUNT && st == PB_OK; s++) {
            if (k) CALLGRIND_ZERO_STATS;
            for (size_t i = 0; i < b.count && st == PB_OK; i++)
                st = pb_frame_block_run(&b, v, m, k, i, (pb_frame_stage)s, (pb_frame_stage)(s + 1), -1);
            if (k) {
                char name[64];
                snprintf(name, sizeof name, "%s %d", pb_frame_stage_name((pb_frame_stage)s), k);
                CALLGRIND_DUMP_STATS_AT(name);
            }
        }
    if (st != PB_OK) fprintf(stderr, "frame_icount: %s\n", pb_last_error());
    else printf("frame_icount: %s, %zu characters x %zu joints, %d frames, %zu blocks, %s\n", pb_variant_name(v), C,
                sc.joints, K, b.count, pb_op_get(sampler)->name);
    pb_frame_blocks_free(&b);
    pb_scene_free(&sc);
    return st == PB_OK ? 0 : 1;
}
