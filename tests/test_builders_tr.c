/* test_builders_tr.c — the transition builder on synthetic clips
 * (builders_check.h), and both builders on the packaged CMU motion capture
 * (argv[1], default /usr/share/assimp/models/BVH; skipped when absent):
 * 1000-character and 1 M-joint crowds keep every bone's length through fk,
 * and transitions start where the source is. Ends with "N passed, M failed". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builders_check.h"
#include "all_variants.h"

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
    test_transitions_synthetic();
    test_real(argc > 1 ? argv[1] : "/usr/share/assimp/models/BVH");
    return check_done();
}
