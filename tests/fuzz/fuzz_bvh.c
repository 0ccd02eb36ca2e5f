/* fuzz_bvh.c — libFuzzer target for the BVH loader (pb_bvh_load_mem).
 *
 * Build (clang):
 *   clang -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -Iinclude -Isrc \
 *     src/bvh.c src/clip.c src/status.c src/pose.c tests/fuzz/fuzz_bvh.c -lm -o fuzz_bvh
 *   ./fuzz_bvh -max_len=4096 CORPUS_DIR tests/fuzz/seed
 * Besides crashes and sanitizer reports, it aborts when a load breaks the
 * loader's contract: a failure must leave zeroed outputs and a "name:line:"
 * message; a success must give parents that precede children, unit
 * quaternions and finite positions. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "posebench/bvh.h"

static void ignore_warning(void *user, const char *msg)
{
    (void)user;
    (void)msg;
}

static int all_zero(const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i]) return 0;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pb_bvh_options o = pb_bvh_default_options();
    o.warn = ignore_warning;
    o.strict = (int)(size & 1);   /* exercise both modes; deterministic per input */
    pb_bvh_skeleton sk;
    pb_clip cl;
    pb_status s = pb_bvh_load_mem(data, size, "fuzz.bvh", &o, &sk, &cl);
    if (s != PB_OK) {
        if (!all_zero(&sk, sizeof sk) || !all_zero(&cl, sizeof cl)) abort();
        if (s == PB_ERR_PARSE && strncmp(pb_last_error(), "fuzz.bvh:", 9) != 0) abort();
        return 0;
    }
    if (pb_clip_check(&cl) != PB_OK || sk.joints == 0 || cl.joints != sk.joints) abort();
    if (!(cl.fps > 0) || !isfinite(cl.fps) || !(cl.frame_time > 0)) abort();
    if (o.strict && cl.warnings) abort();
    for (size_t j = 0; j < sk.joints; j++)
        if (sk.parents[j] < -1 || sk.parents[j] >= (int)j || strlen(sk.names[j]) == 0) abort();
    if (sk.parents[0] != -1) abort();
    for (size_t i = 0; i < cl.pose.n; i++) {
        double n2 = 0;
        for (int k = 0; k < 4; k++) n2 += (double)cl.pose.plane[PB_ROT_W + k][i] * cl.pose.plane[PB_ROT_W + k][i];
        if (!(fabs(sqrt(n2) - 1.0) < 1e-5)) abort();
        for (int k = 0; k < 3; k++)
            if (!isfinite(cl.pose.plane[PB_POS_X + k][i])) abort();
    }
    pb_bvh_skeleton_free(&sk);
    pb_clip_free(&cl);
    return 0;
}
