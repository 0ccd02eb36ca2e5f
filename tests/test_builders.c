/* test_builders.c — the crowd and transition builders.
 *
 * Synthetic clips made here have keys whose samples are known in closed
 * form (pos = (frame, joint, clip id), a rotation about z growing linearly
 * with the frame, scale.x = e^(frame / 100)), so a crowd element says which
 * joint, which clip and which time it came from: that checks the layout,
 * the clip assignment and each character's offset directly. Against the
 * sample op (one character at a time) for the rest. On the packaged CMU
 * motion capture (argv[1], default /usr/share/assimp/models/BVH; skipped
 * when absent): 1000-character and 1 M-joint crowds keep every bone's length
 * through fk, and transitions start where the source is.
 * Ends with "N passed, M failed". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "posebench/posebench.h"
#include "all_variants.h"

#define F 10       /* synthetic clip: frames */
#define J 3        /* joints */
#define FPS 10.0f

/* ---- synthetic clips and closed-form samples ---------------------------------------- */

static double turn_rate(size_t j) { return 0.05 * (double)(j + 1); }   /* rad per frame about z */

static void make_clip(pb_clip *clip, size_t frames, size_t joints, float id)
{
    pb_status s = pb_clip_alloc(clip, frames, joints, FPS);
    CHECK(s == PB_OK, "clip alloc: %s", pb_last_error());
    for (size_t f = 0; f < frames; f++)
        for (size_t j = 0; j < joints; j++) {
            size_t e = f * joints + j;
            double h = 0.5 * turn_rate(j) * (double)f;
            clip->pose.plane[PB_POS_X][e] = (float)f;
            clip->pose.plane[PB_POS_Y][e] = (float)j;
            clip->pose.plane[PB_POS_Z][e] = id;
            clip->pose.plane[PB_ROT_W][e] = (float)cos(h);
            clip->pose.plane[PB_ROT_Z][e] = (float)sin(h);
            clip->pose.plane[PB_SCL_X][e] = (float)exp((double)f / 100);
        }
}

/* Worst error of element e of a linear sample against the closed form at
 * clip time t: with keys linear in the frame, lerp / slerp about one axis /
 * eerp all give the frame position exactly, and the velocities are its rate. */
static double closed_form_err(const pb_pose *p, size_t e, size_t joint, float id, double t, size_t frames)
{
    double x = t * FPS, last = (double)(frames - 1);
    int inside = x >= 0 && x <= last;
    x = x < 0 ? 0 : x > last ? last : x;
    double rate = inside ? FPS : 0, h = 0.5 * turn_rate(joint) * x;
    double want[PB_PLANES] = { 0 };
    want[PB_POS_X] = x;
    want[PB_POS_Y] = (double)joint;
    want[PB_POS_Z] = id;
    want[PB_ROT_W] = cos(h);
    want[PB_ROT_Z] = sin(h);
    want[PB_SCL_X] = exp(x / 100);
    want[PB_SCL_Y] = want[PB_SCL_Z] = 1;
    want[PB_VEL_X] = rate;
    want[PB_ANG_Z] = turn_rate(joint) * rate;
    want[PB_SVL_X] = rate / 100;
    double m = 0;
    for (int q = 0; q < PB_PLANES; q++) m = dmax(m, fabs(p->plane[q][e] - want[q]) / (1 + fabs(want[q])));
    return m;
}

/* Worst difference between element ex of x and ey of y: rotations
 * sign-agnostic, everything relative to 1 + |value| (velocities of real
 * motion reach tens of units). */
static double elem_diff(const pb_pose *x, size_t ex, const pb_pose *y, size_t ey)
{
    double m = 0, plus = 0, minus = 0;
    for (int q = 0; q < PB_PLANES; q++) {
        double a = x->plane[q][ex], b = y->plane[q][ey];
        if (q >= PB_ROT_W && q <= PB_ROT_Z) {
            minus = dmax(minus, fabs(a - b));
            plus = dmax(plus, fabs(a + b));
        } else {
            m = dmax(m, fabs(a - b) / (1 + fabs(b)));
        }
    }
    return dmax(m, minus < plus ? minus : plus);
}

/* Sample one character of clip at time t into one (n = clip joints) with
 * the op itself: the reference a crowd element must match. */
static pb_status sample_one(const pb_clip *clip, pb_sample_method m, float clock, float offset, pb_pose *one)
{
    pb_call c = { .clip = clip, .offsets = &offset, .out = one, .params = { .time = clock } };
    return pb_run(m == PB_SAMPLE_CUBIC ? PB_OP_sample_cubic : PB_OP_sample_linear, NULL, &c);
}

static int contains(const char *s, const char *what) { return strstr(s, what) != NULL; }

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

/* ---- transitions on synthetic clips --------------------------------------------------- */

/* inertialize(dest, offset, t = 0) must be the source, velocities included. */
static double inertialize_start_err(const pb_transitions *tr)
{
    pb_pose start;
    pb_pose_alloc(&start, tr->n);
    pb_call c = { .a = &tr->dest, .b = &tr->offset, .out = &start, .params = { .time = 0, .duration = 0.5f } };
    pb_status s = pb_run(PB_OP_inertialize, NULL, &c);
    double m = s == PB_OK ? 0 : INFINITY;
    for (size_t e = 0; e < tr->n; e++) m = dmax(m, elem_diff(&start, e, &tr->source, e));
    pb_pose_free(&start);
    return m;
}

/* field by field: the structs have padding */
static int same_pairs(const pb_transition_desc *x, const pb_transition_desc *y, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (x[i].clip_a != y[i].clip_a || x[i].clip_b != y[i].clip_b || x[i].time_a != y[i].time_a ||
            x[i].time_b != y[i].time_b)
            return 0;
    return 1;
}

static void test_transitions_synthetic(void)
{
    pb_clip c0, c1, c4;
    make_clip(&c0, F, J, 0);
    make_clip(&c1, 2 * F, J, 1);
    make_clip(&c4, F, J + 1, 4);
    const pb_transition_desc pairs[] = {
        { &c0, 0.25f, &c1, 1.5f },
        { &c1, 0.0f, &c0, 0.9f },    /* both ends of the allowed range */
        { &c0, 0.61f, &c0, 0.1f },   /* within one clip */
        { &c1, 1.9f, &c1, 1.9f },    /* identical: a zero offset */
    };
    enum { P = sizeof pairs / sizeof pairs[0] };
    pb_transitions tr;
    CHECK(pb_transitions_build(&tr, pairs, P, PB_SAMPLE_LINEAR, NULL) == PB_OK, "build: %s", pb_last_error());
    CHECK(tr.joints == J && tr.pairs == P && tr.n == J * P && tr.source.n == J * P, "sizes");
    double src = 0, dst = 0;
    for (size_t i = 0; i < P; i++)
        for (size_t j = 0; j < J; j++) {
            src = dmax(src, closed_form_err(&tr.source, j * P + i, j, pairs[i].clip_a == &c0 ? 0 : 1, pairs[i].time_a,
                                            pairs[i].clip_a->frames));
            dst = dmax(dst, closed_form_err(&tr.dest, j * P + i, j, pairs[i].clip_b == &c0 ? 0 : 1, pairs[i].time_b,
                                            pairs[i].clip_b->frames));
        }
    CHECK(src < 2e-6 && dst < 2e-6, "source = clip_a at time_a, dest = clip_b at time_b (%.3g, %.3g)", src, dst);
    double start = inertialize_start_err(&tr);
    CHECK(start < 2e-5, "inertialize(dest, offset, 0) = source (%.3g)", start);
    double zero = 0;
    for (size_t j = 0; j < J; j++) {
        size_t e = j * P + 3;
        zero = dmax(zero, fabs(tr.offset.plane[PB_POS_X][e]) + fabs(1 - fabs(tr.offset.plane[PB_ROT_W][e])) +
                              fabs(tr.offset.plane[PB_VEL_X][e]) + fabs(tr.offset.plane[PB_ANG_Z][e]));
    }
    CHECK(zero == 0, "identical ends: identity offset (%.3g)", zero);

    /* playback: dest and source moving on */
    pb_pose now;
    pb_pose_alloc(&now, J * P);
    const float t = 0.3f;
    CHECK(pb_transitions_dest_at(&tr, t, &now) == PB_OK, "dest_at: %s", pb_last_error());
    double moved = 0;
    for (size_t i = 0; i < P; i++)
        for (size_t j = 0; j < J; j++)
            moved = dmax(moved, closed_form_err(&now, j * P + i, j, pairs[i].clip_b == &c0 ? 0 : 1,
                                                (double)pairs[i].time_b + t, pairs[i].clip_b->frames));
    CHECK(moved < 2e-6, "dest_at(t) = clip_b at time_b + t (%.3g)", moved);
    CHECK(pb_transitions_source_at(&tr, t, &now) == PB_OK, "source_at: %s", pb_last_error());
    moved = 0;
    for (size_t i = 0; i < P; i++)
        for (size_t j = 0; j < J; j++)
            moved = dmax(moved, closed_form_err(&now, j * P + i, j, pairs[i].clip_a == &c0 ? 0 : 1,
                                                (double)pairs[i].time_a + t, pairs[i].clip_a->frames));
    CHECK(moved < 2e-6, "source_at(t) = clip_a at time_a + t (%.3g)", moved);
    CHECK(pb_transitions_dest_at(&tr, NAN, &now) == PB_ERR_PARAM, "dest_at NaN");
    CHECK(pb_transitions_dest_at(NULL, 0, &now) == PB_ERR_NULL, "dest_at tr NULL");
    CHECK(pb_transitions_dest_at(&tr, 0, NULL) == PB_ERR_NULL, "dest_at out NULL");
    CHECK(pb_transitions_source_at(&tr, 0, &tr.source) == PB_OK, "source_at into the batch's own source pose");
    pb_transitions_free(&tr);
    CHECK(pb_transitions_dest_at(&tr, 0, &now) == PB_ERR_PARAM && contains(pb_last_error(), "pb_transitions_build"),
          "dest_at on a freed batch: %s", pb_last_error());
    pb_transitions_free(&tr);
    pb_transitions_free(NULL);
    pb_pose_free(&now);

    /* errors, one field at a time */
    struct { const char *what; pb_status want; const char *msg; } cases[] = {
        { "pairs NULL", PB_ERR_NULL, "pairs" },
        { "npairs 0", PB_ERR_EMPTY, "npairs" },
        { "clip_a NULL", PB_ERR_NULL, "pairs[1].clip_a is NULL" },
        { "clip_b NULL", PB_ERR_NULL, "pairs[2].clip_b is NULL" },
        { "time_a NaN", PB_ERR_PARAM, "pairs[0].time_a is nan" },
        { "time_b past the end", PB_ERR_PARAM, "pairs[1].time_b is 0.95 s, outside clip_b's 0 .. 0.9 s" },
        { "time_a negative", PB_ERR_PARAM, "pairs[3].time_a is -0.1" },
        { "joint counts differ", PB_ERR_SIZE, "pairs[2].clip_b has 4 joints but pairs[0].clip_a has 3" },
        { "method", PB_ERR_PARAM, "method" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pb_transition_desc p[P];
        memcpy(p, pairs, sizeof p);
        const pb_transition_desc *pp = p;
        size_t np = P;
        pb_sample_method m = PB_SAMPLE_CUBIC;
        switch (i) {
        case 0: pp = NULL; break;
        case 1: np = 0; break;
        case 2: p[1].clip_a = NULL; break;
        case 3: p[2].clip_b = NULL; break;
        case 4: p[0].time_a = NAN; break;
        case 5: p[1].time_b = 0.95f; break;
        case 6: p[3].time_a = -0.1f; break;
        case 7: p[2].clip_b = &c4; break;
        case 8: m = (pb_sample_method)-1; break;
        }
        memset(&tr, 0xcd, sizeof tr);
        pb_status s = pb_transitions_build(&tr, pp, np, m, NULL);
        static const pb_transitions zero_tr;
        CHECK(s == cases[i].want && contains(pb_last_error(), cases[i].msg), "%s: %s (want %s): %s", cases[i].what,
              pb_status_name(s), pb_status_name(cases[i].want), pb_last_error());
        CHECK(memcmp(&tr, &zero_tr, sizeof tr) == 0, "%s: batch left empty", cases[i].what);
    }
    CHECK(pb_transitions_build(NULL, pairs, P, PB_SAMPLE_LINEAR, NULL) == PB_ERR_NULL, "tr NULL");

    /* the generator: deterministic, every time inside its clip, the four kinds */
    const pb_clip *clips[] = { &c0, &c1 };
    enum { G = 64 };
    pb_transition_desc g1[G], g2[G], g3[G];
    CHECK(pb_transitions_generate(g1, G, clips, 2, 5) == PB_OK && pb_transitions_generate(g2, G, clips, 2, 5) == PB_OK &&
              pb_transitions_generate(g3, G, clips, 2, 6) == PB_OK,
          "generate: %s", pb_last_error());
    CHECK(same_pairs(g1, g2, G), "the same seed generates the same pairs");
    CHECK(!same_pairs(g1, g3, G), "another seed generates others");
    int inside = 1, kinds = 1, both = 0;
    for (size_t i = 0; i < G; i++) {
        const pb_transition_desc *p = &g1[i];
        inside &= p->time_a >= 0 && p->time_a <= pb_clip_duration(p->clip_a) && p->time_b >= 0 &&
                  p->time_b <= pb_clip_duration(p->clip_b);
        both |= p->clip_a == &c1 ? 2 : 1;
        switch (i % 4) {
        case 0: kinds &= p->clip_a != p->clip_b; break;
        case 1: kinds &= p->clip_a == p->clip_b; break;
        case 2: kinds &= p->clip_a == p->clip_b && p->time_b > p->time_a && p->time_b - p->time_a <= 1 / FPS + 1e-6f; break;
        case 3: kinds &= p->clip_a != p->clip_b && p->time_a == pb_clip_duration(p->clip_a) && p->time_b == 0; break;
        }
    }
    CHECK(inside, "generated times inside their clips");
    CHECK(kinds, "generated kinds: cross-clip, jump, one frame ahead, seam");
    CHECK(both == 3, "generated pairs start from every clip");
    CHECK(pb_transitions_build(&tr, g1, G, PB_SAMPLE_CUBIC, NULL) == PB_OK, "generated pairs build: %s", pb_last_error());
    CHECK(inertialize_start_err(&tr) < 2e-5, "generated: inertialize starts at the source (%.3g)",
          inertialize_start_err(&tr));
    pb_transitions_free(&tr);
    const pb_clip *mixed[] = { &c0, &c4 };
    CHECK(pb_transitions_generate(g1, G, mixed, 2, 5) == PB_ERR_SIZE && contains(pb_last_error(), "clips[1]"),
          "generate: joint counts differ: %s", pb_last_error());
    CHECK(pb_transitions_generate(NULL, G, clips, 2, 5) == PB_ERR_NULL, "generate: pairs NULL");
    CHECK(pb_transitions_generate(g1, G, NULL, 2, 5) == PB_ERR_NULL, "generate: clips NULL");
    CHECK(pb_transitions_generate(g1, 0, clips, 2, 5) == PB_ERR_EMPTY, "generate: 0 pairs");
    CHECK(pb_transitions_generate(g1, G, clips, 0, 5) == PB_ERR_EMPTY, "generate: 0 clips");
    pb_clip_free(&c0);
    pb_clip_free(&c1);
    pb_clip_free(&c4);
}

/* ---- real motion capture ----------------------------------------------------------------- */

static void quiet(void *user, const char *msg) { (void)user; (void)msg; }

/* fk the crowd and compare every bone's length (|global pos of joint -
 * global pos of its parent|) with the length of its local offset in the clip
 * the character plays: rotations cannot stretch bones, in any character. */
static double bone_length_err(const pb_pose *local, const pb_crowd_builder *crowd, const pb_bvh_skeleton *bvh, double *moving)
{
    pb_skeleton sk;
    pb_pose global;
    double m = INFINITY;
    if (pb_crowd_skeleton(&sk, bvh, crowd->characters) != PB_OK || pb_pose_alloc(&global, local->n) != PB_OK) {
        CHECK(0, "skeleton / pose: %s", pb_last_error());
        pb_skeleton_free(&sk);
        return m;
    }
    pb_status s = pb_fk(&sk, local, &global);
    CHECK(s == PB_OK, "fk: %s", pb_last_error());
    size_t C = crowd->characters, Jn = crowd->joints;
    m = 0;
    *moving = 0;
    for (size_t j = 0; j < Jn; j++) {
        int32_t p = bvh->parents[j];
        for (size_t c = 0; c < C; c++) {
            size_t e = j * C + c;
            *moving = dmax(*moving, fabs(local->plane[PB_ANG_X][e]) + fabs(local->plane[PB_ANG_Y][e]));
            if (p < 0) continue;
            size_t ep = (size_t)p * C + c;
            double d2 = 0, o2 = 0;
            const pb_pose *keys = &crowd->clips[crowd->clip_of[c]]->pose;
            for (int q = PB_POS_X; q <= PB_POS_Z; q++) {
                double d = (double)global.plane[q][e] - global.plane[q][ep], o = keys->plane[q][j];
                d2 += d * d;
                o2 += o * o;
            }
            m = dmax(m, fabs(sqrt(d2) - sqrt(o2)));
        }
    }
    pb_pose_free(&global);
    pb_skeleton_free(&sk);
    return m;
}

static void test_real(const char *dir)
{
    static const char *const names[] = { "01_01.bvh", "01_03.bvh", "Boxing_Toes.bvh" };
    pb_bvh_skeleton sk[3];
    pb_clip clip[3];
    pb_bvh_options o = pb_bvh_default_options();
    o.unit_scale = 0.01f;   /* cm -> m */
    o.warn = quiet;         /* Boxing_Toes warns about its header's frame count (test_bvh checks that) */
    for (int k = 0; k < 3; k++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        FILE *f = fopen(path, "rb");
        if (!f) {
            printf("skipped: crowds and transitions on real motion capture (%s not found; apt-get install "
                   "assimp-testmodels)\n", path);
            for (int i = 0; i < k; i++) {
                pb_bvh_skeleton_free(&sk[i]);
                pb_clip_free(&clip[i]);
            }
            return;
        }
        fclose(f);
        pb_status s = pb_bvh_load(path, &o, &sk[k], &clip[k]);
        CHECK(s == PB_OK, "%s: %s", names[k], pb_last_error());
    }
    const pb_clip *walk[] = { &clip[0], &clip[1] };

    /* a crowd cannot mix skeletons */
    const pb_clip *mixed[] = { &clip[0], &clip[2] };
    pb_crowd_builder crowd;
    pb_crowd_desc d = { .clips = mixed, .nclips = 2, .characters = 100 };
    CHECK(pb_crowd_builder_init(&crowd, &d) == PB_ERR_SIZE && contains(pb_last_error(), "clips[1] has 21 joints but clips[0] has 31"),
          "01_01 + Boxing_Toes: %s", pb_last_error());

    /* 1000 characters on both walks, linear and cubic: bones keep their lengths */
    for (int cubic = 0; cubic < 2; cubic++) {
        d = (pb_crowd_desc){ .clips = walk, .nclips = 2, .characters = 1000, .seed = 1,
                             .method = cubic ? PB_SAMPLE_CUBIC : PB_SAMPLE_LINEAR };
        CHECK(pb_crowd_builder_init(&crowd, &d) == PB_OK, "init: %s", pb_last_error());
        pb_pose out;
        pb_pose_alloc(&out, crowd.n);
        CHECK(pb_crowd_build(&crowd, 0.5f, &out) == PB_OK, "build: %s", pb_last_error());
        double moving, err = bone_length_err(&out, &crowd, &sk[0], &moving);
        CHECK(err < 1e-5, "%s, 31 x 1000: bone lengths after fk = the clips' offsets (%.3g m)", cubic ? "cubic" : "linear",
              err);
        CHECK(moving > 0.1, "the crowd moves (angular velocities up to %.3g rad/s)", moving);
        pb_pose one;
        pb_pose_alloc(&one, 31);
        double vs_op = 0;
        for (size_t c = 0; c < 1000; c += 97) {
            sample_one(walk[crowd.clip_of[c]], d.method, 0.5f, crowd.offsets[c], &one);
            for (size_t j = 0; j < 31; j++) vs_op = dmax(vs_op, elem_diff(&out, j * 1000 + c, &one, j));
        }
        CHECK(vs_op < 1e-5, "%s: characters = the sampler one at a time (%.3g)", cubic ? "cubic" : "linear", vs_op);
        pb_pose_free(&one);
        pb_pose_free(&out);
        pb_crowd_builder_free(&crowd);
    }

    /* about a million joints (31 x 33826), looping */
    d = (pb_crowd_desc){ .clips = walk, .nclips = 2, .characters = 33826, .seed = 2, .loop = 1 };
    CHECK(pb_crowd_builder_init(&crowd, &d) == PB_OK, "init 1M: %s", pb_last_error());
    pb_pose big;
    if (pb_pose_alloc(&big, crowd.n) == PB_OK) {
        CHECK(crowd.n == 1048606, "31 x 33826 = %zu elements", crowd.n);
        CHECK(pb_crowd_build(&crowd, 100.0f, &big) == PB_OK, "build 1M: %s", pb_last_error());
        size_t bad = 1;
        pb_pose_count_nonfinite(&big, &bad);
        CHECK(bad == 0, "1M: every value finite (%zu not)", bad);
        double moving, err = bone_length_err(&big, &crowd, &sk[0], &moving);
        CHECK(err < 1e-5 && moving > 0.1, "1M joints: bone lengths after fk (%.3g m), moving", err);
    } else {
        CHECK(0, "1M pose: %s", pb_last_error());
    }
    pb_pose_free(&big);
    pb_crowd_builder_free(&crowd);

    /* transitions 01_01 -> 01_03: one chosen, the rest generated */
    enum { P = 65 };
    pb_transition_desc pairs[P];
    pairs[0] = (pb_transition_desc){ &clip[0], 5.0f, &clip[1], 12.0f };
    CHECK(pb_transitions_generate(pairs + 1, P - 1, walk, 2, 9) == PB_OK, "generate: %s", pb_last_error());
    for (int cubic = 0; cubic < 2; cubic++) {
        pb_sample_method m = cubic ? PB_SAMPLE_CUBIC : PB_SAMPLE_LINEAR;
        pb_transitions tr;
        CHECK(pb_transitions_build(&tr, pairs, P, m, NULL) == PB_OK, "transitions: %s", pb_last_error());
        pb_pose one;
        pb_pose_alloc(&one, 31);
        double src = 0, dst = 0;
        for (size_t i = 0; i < P; i++) {
            sample_one(pairs[i].clip_a, m, 0, pairs[i].time_a, &one);
            for (size_t j = 0; j < 31; j++) src = dmax(src, elem_diff(&tr.source, j * P + i, &one, j));
            sample_one(pairs[i].clip_b, m, 0, pairs[i].time_b, &one);
            for (size_t j = 0; j < 31; j++) dst = dmax(dst, elem_diff(&tr.dest, j * P + i, &one, j));
        }
        CHECK(src < 1e-6 && dst < 1e-6, "%s: source = clip A sampled at a, dest = B at b (%.3g, %.3g)",
              cubic ? "cubic" : "linear", src, dst);
        double start = inertialize_start_err(&tr);
        CHECK(start < 1e-4, "%s: inertialize(dest, offset, t = 0) = the source, velocities included (%.3g)",
              cubic ? "cubic" : "linear", start);

        /* dead blending from the source at t = 0 (roots: the destination's, by design) */
        pb_skeleton sk_tr;
        pb_pose blended;
        pb_crowd_skeleton(&sk_tr, &sk[0], P);
        pb_pose_alloc(&blended, tr.n);
        pb_pose now;
        pb_pose_alloc(&now, tr.n);
        CHECK(pb_transitions_dest_at(&tr, 0, &now) == PB_OK, "dest_at");
        pb_call c = { .a = &tr.source, .b = &now, .out = &blended, .skel = &sk_tr,
                      .params = { .time = 0, .duration = 0.3f, .halflife = 0.1f } };
        CHECK(pb_run(PB_OP_dead_blending, NULL, &c) == PB_OK, "dead_blending: %s", pb_last_error());
        double db = 0;
        for (size_t e = P; e < tr.n; e++) db = dmax(db, elem_diff(&blended, e, &tr.source, e));   /* joints 1.. */
        CHECK(db < 1e-5, "%s: dead blending at t = 0 is the source (%.3g)", cubic ? "cubic" : "linear", db);
        /* and the destination moves on along B */
        CHECK(pb_transitions_dest_at(&tr, 0.25f, &now) == PB_OK, "dest_at 0.25");
        double moved = 0;
        for (size_t i = 0; i < P; i += 8) {
            sample_one(pairs[i].clip_b, m, 0.25f, pairs[i].time_b, &one);
            for (size_t j = 0; j < 31; j++) moved = dmax(moved, elem_diff(&now, j * P + i, &one, j));
        }
        CHECK(moved < 1e-6, "dest_at(0.25) = B at b + 0.25 (%.3g)", moved);
        pb_pose_free(&now);
        pb_pose_free(&blended);
        pb_skeleton_free(&sk_tr);
        pb_pose_free(&one);
        pb_transitions_free(&tr);
    }
    for (int k = 0; k < 3; k++) {
        pb_bvh_skeleton_free(&sk[k]);
        pb_clip_free(&clip[k]);
    }
}

int main(int argc, char **argv)
{
    test_crowd_layout();
    test_crowd_clips();
    test_crowd_seeded();
    test_crowd_errors();
    test_transitions_synthetic();
    test_real(argc > 1 ? argv[1] : "/usr/share/assimp/models/BVH");
    return check_done();
}
