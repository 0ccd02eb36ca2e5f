/* test_builders.c — the crowd builder (the transition builder and the
 * real-data checks: test_builders_tr.c).
 *
 * Synthetic clips (builders_check.h) have keys whose samples are known in
 * closed form (pos = (frame, joint, clip id), a rotation about z growing
 * linearly with the frame, scale.x = e^(frame / 100)), so a crowd element
 * says which joint, which clip and which time it came from: that checks the
 * layout, the clip assignment and each character's offset directly.
 * Against the sample op (one character at a time) for the rest.
 * Ends with "N passed, M failed". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builders_check.h"
#include "all_variants.h"

/* ---- crowds on synthetic clips ------------------------------------------------------- */

static void test_crowd_layout(void)
{
    pb_clip clip;
    make_clip(&clip, F, J, 7);
    const pb_clip *clips[] = { &clip };
    enum { C = 37 };   /* not a multiple of any vector width: tails */
    float off[C];
    for (size_t c = 0; c < C; c++) off[c] = 0.04f * (float)c - 0.7f;   /* before, inside and past the clip */
    pb_crowd_desc d = { .clips = clips, .nclips = 1, .characters = C, .offsets = off };
    pb_crowd_builder crowd;
    CHECK(pb_crowd_builder_init(&crowd, &d) == PB_OK, "init: %s", pb_last_error());
    CHECK(crowd.joints == J && crowd.characters == C && crowd.n == J * C, "sizes");
    CHECK(crowd.scratch.n == 0, "one clip: no scratch (samples straight into the output)");
    pb_pose out;
    pb_pose_alloc(&out, J * C);
    const float time = 0.55f;
    CHECK(pb_crowd_build(&crowd, time, &out) == PB_OK, "build: %s", pb_last_error());
    int layout = 1;
    double worst = 0;
    for (size_t j = 0; j < J; j++)
        for (size_t c = 0; c < C; c++) {
            size_t e = pb_crowd_index(j, c, C);
            layout &= out.plane[PB_POS_Y][e] == (float)j && out.plane[PB_POS_Z][e] == 7.0f;
            worst = dmax(worst, closed_form_err(&out, e, j, 7, (double)(time + off[c]), F));
        }
    CHECK(layout, "element joint * C + character holds that joint");
    CHECK(worst < 2e-6, "character c at time + offsets[c] (before, inside, past the clip): off by %.3g", worst);
    /* the op's own view of the same characters */
    pb_pose one;
    pb_pose_alloc(&one, J);
    double vs_op = 0;
    for (size_t c = 0; c < C; c++) {
        sample_one(&clip, PB_SAMPLE_LINEAR, time, off[c], &one);
        for (size_t j = 0; j < J; j++) vs_op = dmax(vs_op, elem_diff(&out, j * C + c, &one, j));
    }
    CHECK(vs_op == 0, "crowd = sample_linear one character at a time, bit for bit (%.3g)", vs_op);
    pb_pose_free(&one);
    pb_pose_free(&out);
    pb_crowd_builder_free(&crowd);
    pb_crowd_builder_free(&crowd);   /* twice is fine */
    pb_crowd_builder_free(NULL);
    pb_clip_free(&clip);
}

/* Several clips, uneven groups, cubic: each character plays its own clip. */
static void test_crowd_clips(void)
{
    pb_clip c0, c1, c2;
    make_clip(&c0, F, J, 0);
    make_clip(&c1, F + 5, J, 1);
    make_clip(&c2, 2, J, 2);   /* two keys: the shortest clip the cubic sampler takes */
    const pb_clip *clips[] = { &c0, &c1, &c2 };
    enum { C = 41 };
    size_t clip_of[C];
    float off[C];
    for (size_t c = 0; c < C; c++) {
        clip_of[c] = c % 5 == 0 ? 2 : c % 3 == 0 ? 1 : 0;
        off[c] = 0.037f * (float)c;
    }
    for (int cubic = 0; cubic < 2; cubic++) {
        pb_sample_method m = cubic ? PB_SAMPLE_CUBIC : PB_SAMPLE_LINEAR;
        pb_crowd_desc d = { .clips = clips, .nclips = 3, .characters = C, .clip_of = clip_of, .offsets = off, .method = m };
        pb_crowd_builder crowd;
        CHECK(pb_crowd_builder_init(&crowd, &d) == PB_OK, "init: %s", pb_last_error());
        pb_pose out, one;
        pb_pose_alloc(&out, J * C);
        pb_pose_alloc(&one, J);
        for (float time = -0.2f; time < 2.0f; time += 0.45f) {   /* repeated builds reuse the scratch */
            CHECK(pb_crowd_build(&crowd, time, &out) == PB_OK, "build: %s", pb_last_error());
            double worst = 0;
            int which = 1;
            for (size_t c = 0; c < C; c++) {
                sample_one(clips[clip_of[c]], m, time, off[c], &one);
                for (size_t j = 0; j < J; j++) {
                    worst = dmax(worst, elem_diff(&out, j * C + c, &one, j));
                    which &= out.plane[PB_POS_Z][j * C + c] == (float)clip_of[c];
                }
            }
            CHECK(which, "%s t = %g: every character plays clips[clip_of[c]]", cubic ? "cubic" : "linear", (double)time);
            CHECK(worst < 1e-6, "%s t = %g: crowd = the sampler one character at a time (%.3g)",
                  cubic ? "cubic" : "linear", (double)time, worst);
        }
        pb_pose_free(&one);
        pb_pose_free(&out);
        pb_crowd_builder_free(&crowd);
    }
    /* every character on one clip of several: straight into the output, no scratch */
    size_t all1[C];
    for (size_t c = 0; c < C; c++) all1[c] = 1;
    pb_crowd_desc d = { .clips = clips, .nclips = 3, .characters = C, .clip_of = all1, .offsets = off };
    pb_crowd_builder crowd;
    CHECK(pb_crowd_builder_init(&crowd, &d) == PB_OK && crowd.scratch.n == 0, "one group in use: no scratch");
    pb_crowd_builder_free(&crowd);
    pb_clip_free(&c0);
    pb_clip_free(&c1);
    pb_clip_free(&c2);
}

/* Seeded assignment: clip c % nclips, offsets uniform over the clip, the
 * same for a seed; looping wraps every character into its clip. */
static void test_crowd_seeded(void)
{
    pb_clip c0, c1;
    make_clip(&c0, F, J, 0);
    make_clip(&c1, 3 * F, J, 1);
    const pb_clip *clips[] = { &c0, &c1 };
    enum { C = 500 };
    pb_crowd_desc d = { .clips = clips, .nclips = 2, .characters = C, .seed = 42 };
    pb_crowd_builder a, b, other;
    CHECK(pb_crowd_builder_init(&a, &d) == PB_OK && pb_crowd_builder_init(&b, &d) == PB_OK, "init");
    d.seed = 43;
    CHECK(pb_crowd_builder_init(&other, &d) == PB_OK, "init other seed");
    int assign = 1, same = 1, inside = 1, differ = 0;
    double lo[2] = { 1e9, 1e9 }, hi[2] = { 0, 0 };
    for (size_t c = 0; c < C; c++) {
        size_t k = a.clip_of[c];
        assign &= k == c % 2;
        same &= a.offsets[c] == b.offsets[c];
        differ += a.offsets[c] != other.offsets[c];
        float dur = pb_clip_duration(clips[k]);
        inside &= a.offsets[c] >= 0 && a.offsets[c] < dur;
        lo[k] = a.offsets[c] < lo[k] ? a.offsets[c] : lo[k];
        hi[k] = dmax(hi[k], a.offsets[c]);
    }
    CHECK(assign, "clip_of NULL: character c plays clips[c %% nclips]");
    CHECK(same, "the same seed draws the same offsets");
    CHECK(differ > C / 2, "another seed draws other offsets (%d of %d differ)", differ, C);
    CHECK(inside, "offsets within [0, duration) of each character's clip");
    CHECK(lo[0] < 0.05 && hi[0] > 0.85 && lo[1] < 0.1 && hi[1] > 2.8, "offsets spread over each clip (%g..%g, %g..%g)",
          lo[0], hi[0], lo[1], hi[1]);

    /* looping: any clock, every character inside its clip at (clock + offset) mod duration */
    d.seed = 42;
    d.loop = 1;
    pb_crowd_builder loop;
    CHECK(pb_crowd_builder_init(&loop, &d) == PB_OK, "init loop");
    pb_pose out;
    pb_pose_alloc(&out, J * C);
    const float clocks[] = { 0.0f, 1234.567f, -77.7f };
    for (int t = 0; t < 3; t++) {
        CHECK(pb_crowd_build(&loop, clocks[t], &out) == PB_OK, "build loop: %s", pb_last_error());
        double worst = 0, still = 0;
        for (size_t c = 0; c < C; c++) {
            double dur = pb_clip_duration(clips[c % 2]);
            double w = fmod((double)clocks[t] + loop.offsets[c], dur);
            if (w < 0) w += dur;
            for (size_t j = 0; j < J; j++) {
                size_t e = j * C + c;
                worst = dmax(worst, closed_form_err(&out, e, j, (float)(c % 2), w, c % 2 ? 3 * F : F));
                still = dmax(still, out.plane[PB_VEL_X][e] == FPS ? 0 : 1);
            }
        }
        CHECK(worst < 2e-5, "loop at clock %g: character c at (clock + offset) mod duration (%.3g)", (double)clocks[t], worst);
        CHECK(still == 0, "loop at clock %g: every character moving (inside its clip)", (double)clocks[t]);
    }
    pb_pose_free(&out);
    pb_crowd_builder_free(&loop);
    pb_crowd_builder_free(&a);
    pb_crowd_builder_free(&b);
    pb_crowd_builder_free(&other);
    pb_clip_free(&c0);
    pb_clip_free(&c1);
}

static int empty_crowd(const pb_crowd_builder *c)
{
    static const pb_crowd_builder zero;
    return memcmp(c, &zero, sizeof zero) == 0;
}

/* Every argument a caller can get wrong, one at a time. */
static void test_crowd_errors(void)
{
    pb_clip c0, c4;
    make_clip(&c0, F, J, 0);
    make_clip(&c4, F, J + 1, 1);
    const pb_clip *clips[] = { &c0, &c0 };
    enum { C = 10 };   /* J x C = F x J: a pose the size of the clip's */
    size_t clip_of[C] = { 0 };
    float off[C] = { 0 };
    pb_crowd_desc good = { .clips = clips, .nclips = 2, .characters = C, .clip_of = clip_of, .offsets = off };
    pb_crowd_builder crowd;
    struct { const char *what; pb_status want; const char *msg; } cases[] = {
        { "desc NULL", PB_ERR_NULL, "desc" },
        { "clips NULL", PB_ERR_NULL, "clips" },
        { "nclips 0", PB_ERR_EMPTY, "nclips" },
        { "characters 0", PB_ERR_EMPTY, "characters" },
        { "clips[1] NULL", PB_ERR_NULL, "clips[1]" },
        { "joint counts differ", PB_ERR_SIZE, "clips[1] has 4 joints but clips[0] has 3" },
        { "clip fps 0", PB_ERR_PARAM, "clips[0]: clip fps" },
        { "clip_of out of range", PB_ERR_PARAM, "clip_of[5] is 2" },
        { "offset NaN", PB_ERR_PARAM, "offsets[2] is nan" },
        { "offset Inf", PB_ERR_PARAM, "offsets[3] is inf" },
        { "method", PB_ERR_PARAM, "method" },
        { "too many characters", PB_ERR_SIZE, "overflows" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pb_crowd_desc d = good;
        const pb_clip *bad_clips[2] = { &c0, &c0 };
        size_t bad_of[C] = { 0 };
        float bad_off[C] = { 0 };
        pb_clip broken = c0;
        d.clips = bad_clips;
        d.clip_of = bad_of;
        d.offsets = bad_off;
        const pb_crowd_desc *dp = &d;
        switch (i) {
        case 0: dp = NULL; break;
        case 1: d.clips = NULL; break;
        case 2: d.nclips = 0; break;
        case 3: d.characters = 0; break;
        case 4: bad_clips[1] = NULL; break;
        case 5: bad_clips[1] = &c4; break;
        case 6: broken.fps = 0; bad_clips[0] = &broken; break;
        case 7: bad_of[5] = 2; break;
        case 8: bad_off[2] = NAN; break;
        case 9: bad_off[3] = INFINITY; break;
        case 10: d.method = (pb_sample_method)7; break;
        case 11: d.characters = SIZE_MAX / 2; break;
        }
        memset(&crowd, 0xab, sizeof crowd);
        pb_status s = pb_crowd_builder_init(&crowd, dp);
        CHECK(s == cases[i].want && contains(pb_last_error(), cases[i].msg), "%s: %s (want %s): %s", cases[i].what,
              pb_status_name(s), pb_status_name(cases[i].want), pb_last_error());
        CHECK(empty_crowd(&crowd), "%s: crowd left empty", cases[i].what);
    }
    CHECK(pb_crowd_builder_init(NULL, &good) == PB_ERR_NULL, "crowd NULL");

    /* build */
    CHECK(pb_crowd_builder_init(&crowd, &good) == PB_OK, "init: %s", pb_last_error());
    pb_pose out, wrong;
    pb_pose_alloc(&out, J * C);
    pb_pose_alloc(&wrong, J * C + 1);
    for (int q = 0; q < PB_PLANES; q++)
        for (size_t e = 0; e < out.n; e++) out.plane[q][e] = 12345.0f;
    CHECK(pb_crowd_build(NULL, 0, &out) == PB_ERR_NULL, "build: crowd NULL");
    CHECK(pb_crowd_build(&crowd, 0, NULL) == PB_ERR_NULL, "build: out NULL");
    CHECK(pb_crowd_build(&crowd, NAN, &out) == PB_ERR_PARAM && contains(pb_last_error(), "time"), "time NaN: %s",
          pb_last_error());
    CHECK(pb_crowd_build(&crowd, INFINITY, &out) == PB_ERR_PARAM, "time Inf");
    CHECK(pb_crowd_build(&crowd, 0, &wrong) == PB_ERR_SIZE && contains(pb_last_error(), "3 joints x 10 characters"),
          "out of another size: %s", pb_last_error());
    CHECK(pb_crowd_build(&crowd, 0, &c0.pose) == PB_ERR_ALIAS && contains(pb_last_error(), "clips[0]"),
          "out is the clip: %s", pb_last_error());
    int untouched = 1;
    for (int q = 0; q < PB_PLANES; q++)
        for (size_t e = 0; e < out.n; e++) untouched &= out.plane[q][e] == 12345.0f;
    CHECK(untouched, "failed builds write nothing");
    pb_crowd_builder zero = { 0 };
    CHECK(pb_crowd_build(&zero, 0, &out) == PB_ERR_PARAM && contains(pb_last_error(), "pb_crowd_builder_init"),
          "a crowd never initialized: %s", pb_last_error());
    out.plane[PB_POS_X][out.stride - 1] = 1;   /* broken padding */
    CHECK(pb_crowd_build(&crowd, 0, &out) == PB_ERR_PADDING, "out's padding is checked");
    out.plane[PB_POS_X][out.stride - 1] = 0;
    CHECK(pb_crowd_build(&crowd, 0, &out) == PB_OK, "then it builds: %s", pb_last_error());
    pb_crowd_builder_free(&crowd);
    CHECK(pb_crowd_build(&crowd, 0, &out) == PB_ERR_PARAM, "a freed crowd");

    /* variant: a forced one is used, one this CPU cannot run is refused at init */
    for (size_t vi = 0; vi < pb_all_variant_count(); vi++) {
        const pb_variant *v = pb_all_variant_at(vi);
        pb_crowd_desc d = good;
        d.variant = v;
        pb_status want = pb_variant_check(v);
        pb_status s = pb_crowd_builder_init(&crowd, &d);
        CHECK(s == want, "variant %s: init %s, variant check %s", pb_variant_name(v), pb_status_name(s),
              pb_status_name(want));
        if (s == PB_OK) CHECK(pb_crowd_build(&crowd, 0.3f, &out) == PB_OK, "build with %s", pb_variant_name(v));
        pb_crowd_builder_free(&crowd);
    }
    /* switching variants on a live crowd: same refusals, and a refused switch keeps the old one */
    CHECK(pb_crowd_builder_set_variant(NULL, NULL) == PB_ERR_NULL, "set_variant: crowd NULL");
    CHECK(pb_crowd_builder_set_variant(&zero, NULL) == PB_ERR_PARAM, "set_variant: crowd never initialized");
    CHECK(pb_crowd_builder_init(&crowd, &good) == PB_OK, "init: %s", pb_last_error());
    pb_pose first;
    pb_pose_alloc(&first, J * C);
    const pb_variant *first_v = NULL;
    for (size_t vi = 0; vi < pb_all_variant_count(); vi++) {
        const pb_variant *v = pb_all_variant_at(vi), *before = crowd.variant;
        pb_status want = pb_variant_check(v), s = pb_crowd_builder_set_variant(&crowd, v);
        CHECK(s == want, "set_variant %s: %s, variant check %s", pb_variant_name(v), pb_status_name(s),
              pb_status_name(want));
        CHECK(crowd.variant == (s == PB_OK ? v : before), "set_variant %s: the crowd's variant", pb_variant_name(v));
        if (s != PB_OK) continue;
        CHECK(pb_crowd_build(&crowd, 0.3f, first_v ? &out : &first) == PB_OK, "build with %s", pb_variant_name(v));
        if (!first_v) {
            first_v = v;
            continue;
        }
        double d = 0;
        for (size_t e = 0; e < out.n; e++) d = dmax(d, elem_diff(&out, e, &first, e));
        CHECK(d < 1e-5, "set_variant %s: agrees with %s (%.3g)", pb_variant_name(v), pb_variant_name(first_v), d);
    }
    CHECK(pb_crowd_builder_set_variant(&crowd, NULL) == PB_OK && crowd.variant == NULL, "back to the active variant");
    pb_pose_free(&first);
    pb_crowd_builder_free(&crowd);

    /* the skeleton helper */
    pb_skeleton sk;
    int32_t parents[J] = { -1, 0, 1 };
    char names[J][PB_BVH_NAME_MAX] = { "a", "b", "c" };
    pb_bvh_skeleton bvh = { .joints = J, .names = names, .parents = parents };
    CHECK(pb_crowd_skeleton(&sk, &bvh, C) == PB_OK && sk.n == J * C && sk.characters == C, "crowd skeleton");
    pb_skeleton_free(&sk);
    CHECK(pb_crowd_skeleton(NULL, &bvh, C) == PB_ERR_NULL, "skeleton NULL");
    CHECK(pb_crowd_skeleton(&sk, NULL, C) == PB_ERR_NULL, "bvh NULL");
    CHECK(pb_crowd_skeleton(&sk, &bvh, 0) == PB_ERR_EMPTY, "0 characters");
    bvh.parents = NULL;
    CHECK(pb_crowd_skeleton(&sk, &bvh, C) == PB_ERR_NULL, "no parents");
    bvh.parents = parents;
    bvh.joints = 0;
    CHECK(pb_crowd_skeleton(&sk, &bvh, C) == PB_ERR_EMPTY, "0 joints");
    bvh.joints = J;
    parents[1] = 2;
    CHECK(pb_crowd_skeleton(&sk, &bvh, C) == PB_ERR_PARAM && sk.parents == NULL, "a parent after its child: %s",
          pb_last_error());

    CHECK(pb_clip_duration(NULL) == 0, "duration of NULL");
    CHECK(pb_clip_duration(&c0) * FPS <= F - 1 && fabs(pb_clip_duration(&c0) - (F - 1) / FPS) < 1e-6,
          "duration: (frames - 1) / fps, inside the clip");
    pb_pose_free(&out);
    pb_pose_free(&wrong);
    pb_clip_free(&c0);
    pb_clip_free(&c4);
}

int main(void)
{
    test_crowd_layout();
    test_crowd_clips();
    test_crowd_seeded();
    test_crowd_errors();
    return check_done();
}
