/* test_frame_methods.c — the one table of transition method names (posebench/frame.h) and Unreal's
 * half-life estimate as parameters:
 *   - every method's name (its key) maps back to it, in PB_FRAME_METHOD_NAMES' order, with the two
 *     aliases; unknown and NULL names give PB_FM_COUNT; every method runs a whole frame;
 *   - pb_frame_crowd_halflife_est: out of range refused naming the field, the crowd unchanged; the
 *     defaults set explicitly give the default crowd's frame bit for bit; another scale changes dead_ue's
 *     half-lives and output, and the half-lives are estimate_halflife's with that scale run directly;
 *   - the blend graph: its def's scale changes a dead_ue transition's output. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "refuse.h"
#include "posebench/posebench.h"

#define C 32

static int poses_equal(const pb_pose *a, const pb_pose *b)
{
    int same = a->n == b->n;
    for (int p = 0; same && p < PB_PLANES; p++) same = !memcmp(a->plane[p], b->plane[p], a->n * sizeof(float));
    return same;
}

static void names(void)
{
    const char *list = PB_FRAME_METHOD_NAMES;
    for (int m = 0; m < PB_FM_COUNT; m++) {
        const char *n = pb_frame_method_name((pb_frame_method)m);
        CHECK(n && pb_frame_method_by_name(n) == (pb_frame_method)m, "method %d: name %s", m, n ? n : "(null)");
        size_t len = n ? strlen(n) : 0;
        CHECK(n && !strncmp(list, n, len) && (list[len] == '|' || list[len] == 0),
              "PB_FRAME_METHOD_NAMES at method %d: \"%s\", want %s first", m, list, n ? n : "(null)");
        list += len + (list[len] == '|');
        CHECK(!strcmp(n ? n : "", pb_frame_method_get((pb_frame_method)m)->key), "name is the info key");
    }
    CHECK(*list == 0, "PB_FRAME_METHOD_NAMES has more names than methods: \"%s\"", list);
    CHECK(pb_frame_method_by_name("crossfade") == PB_FM_CROSSFADE && pb_frame_method_by_name("dead") == PB_FM_DEAD,
          "aliases");
    CHECK(pb_frame_method_by_name("blend") == PB_FM_COUNT && pb_frame_method_by_name(NULL) == PB_FM_COUNT &&
          pb_frame_method_by_name("") == PB_FM_COUNT && pb_frame_method_name(PB_FM_COUNT) == NULL, "unknown names");
}

/* crowd c of scene s at the transition of method m, then timed frame k */
static pb_status frame_of(pb_frame_crowd *c, const pb_scene *s, pb_frame_method m, int k, const float *est)
{
    pb_status st = pb_frame_crowd_init(c, s, C, PB_OP_sample_linear);
    if (st == PB_OK && est) st = pb_frame_crowd_halflife_est(c, est[0], est[1], est[2]);
    if (st == PB_OK) st = pb_frame_sample(c, NULL, 0, 0.4f);
    if (st == PB_OK) st = pb_frame_sample(c, NULL, 1, 0.4f);
    if (st == PB_OK) st = pb_frame_begin(c, NULL, m);
    if (st == PB_OK) st = pb_frame_step(c, NULL, m, k);
    return st;
}

static void every_method(const pb_scene *s)
{
    for (int m = 0; m < PB_FM_COUNT; m++) {
        pb_frame_crowd c;
        pb_status st = frame_of(&c, s, (pb_frame_method)m, 5, NULL);
        CHECK(st == PB_OK, "%s: %s", pb_frame_method_name((pb_frame_method)m), pb_last_error());
        pb_frame_crowd_free(&c);
    }
}

static void halflife_est(const pb_scene *s)
{
    pb_frame_crowd c;
    CHECK(pb_frame_crowd_init(&c, s, C, PB_OP_sample_linear) == PB_OK, "%s", pb_last_error());
    REFUSE(PB_ERR_PARAM, "hl_scale is 0", pb_frame_crowd_halflife_est(&c, 0, 0.1f, 1));
    REFUSE(PB_ERR_PARAM, "hl_max is 0.2", pb_frame_crowd_halflife_est(&c, 0.3f, 0.5f, 0.2f));
    REFUSE(PB_ERR_PARAM, "hl_scale is nan", pb_frame_crowd_halflife_est(&c, NAN, 0.1f, 1));
    REFUSE(PB_ERR_NULL, "pb_frame_crowd_halflife_est", pb_frame_crowd_halflife_est(NULL, 0.3f, 0.1f, 1));
    CHECK(c.hl_scale == PB_HALFLIFE_EST_SCALE && c.hl_min == PB_HALFLIFE_EST_MIN && c.hl_max == PB_HALFLIFE_EST_MAX,
          "refused: the crowd keeps Unreal's defaults");
    c.hl_max = -1;   /* set by hand, out of range: pb_frame_begin (pb_run) refuses it */
    pb_status st = pb_frame_sample(&c, NULL, 0, 0.4f);
    if (st == PB_OK) st = pb_frame_sample(&c, NULL, 1, 0.4f);
    CHECK(st == PB_OK, "%s", pb_last_error());
    REFUSE(PB_ERR_PARAM, "hl_max is -1", pb_frame_begin(&c, NULL, PB_FM_DEAD_UE));
    pb_frame_crowd_free(&c);

    pb_frame_crowd d, e, f;
    const float ue[3] = { PB_HALFLIFE_EST_SCALE, PB_HALFLIFE_EST_MIN, PB_HALFLIFE_EST_MAX }, own[3] = { 0.9f, 0.05f, 3 };
    CHECK(frame_of(&d, s, PB_FM_DEAD_UE, 4, NULL) == PB_OK && frame_of(&e, s, PB_FM_DEAD_UE, 4, ue) == PB_OK &&
          frame_of(&f, s, PB_FM_DEAD_UE, 4, own) == PB_OK, "%s", pb_last_error());
    CHECK(poses_equal(&d.global, &e.global) && poses_equal(&d.halflives, &e.halflives),
          "Unreal's defaults given explicitly: the default frame, bit for bit");
    CHECK(!poses_equal(&d.halflives, &f.halflives) && !poses_equal(&d.global, &f.global),
          "scale 0.9, min 0.05, max 3: the half-lives and the frame differ from the defaults'");
    /* the crowd's half-lives are estimate_halflife's with those parameters (src, dst as the transition saw them) */
    pb_pose want = { 0 };
    CHECK(pb_pose_alloc(&want, f.n) == PB_OK, "alloc");
    CHECK(pb_frame_sample(&f, NULL, 0, 0.4f) == PB_OK && pb_frame_sample(&f, NULL, 1, 0.4f) == PB_OK, "%s",
          pb_last_error());
    pb_call call = { .a = &f.src, .b = &f.dst, .out = &want, .params = { .hl_scale = 0.9f, .hl_min = 0.05f, .hl_max = 3 } };
    CHECK(pb_run(PB_OP_estimate_halflife, NULL, &call) == PB_OK, "%s", pb_last_error());
    int same = 1;
    for (int p = PB_VEL_X; p < PB_PLANES; p++)
        same &= !memcmp(want.plane[p], f.halflives.plane[p], f.n * sizeof(float));
    CHECK(same, "dead_ue's half-lives are estimate_halflife's with the crowd's scale, min and max");
    size_t above = 0;   /* the larger max reached: some half-lives above the default max */
    for (int p = PB_VEL_X; p < PB_PLANES; p++)
        for (size_t i = 0; i < f.n; i++) above += f.halflives.plane[p][i] > PB_HALFLIFE_EST_MAX;
    CHECK(above > 0, "max 3 s: no half-life above 1 s");
    pb_pose_free(&want);
    pb_frame_crowd_free(&d), pb_frame_crowd_free(&e), pb_frame_crowd_free(&f);

    pb_frame_blocks b;
    CHECK(pb_frame_blocks_init(&b, s, C, 16, PB_OP_sample_linear) == PB_OK, "%s", pb_last_error());
    REFUSE(PB_ERR_PARAM, "hl_min is -1", pb_frame_blocks_halflife_est(&b, 0.3f, -1, 1));
    CHECK(pb_frame_blocks_halflife_est(&b, 0.9f, 0.05f, 3) == PB_OK && b.crowd[1].hl_scale == 0.9f &&
          b.crowd[1].hl_max == 3.0f, "blocks: %s", pb_last_error());
    pb_frame_blocks_free(&b);
}

/* The default graph (its jumps start by Unreal's dead blending) with the def's scale changed: a dead_ue transition
 * fires and the outputs differ from the default's. */
static void graph(const pb_scene *s)
{
    pb_graph_scene g;
    CHECK(pb_graph_scene_default(&g, s) == PB_OK, "%s", pb_last_error());
    pb_graph_def def = g.def;
    def.hl_scale = 0.9f, def.hl_max = 3;
    pb_graph_crowd c[2];
    pb_status st = pb_graph_crowd_init(&c[0], &g.def, g.clips, 3, s->parents, C, 5);
    if (st == PB_OK) st = pb_graph_crowd_init(&c[1], &def, g.clips, 3, s->parents, C, 5);
    CHECK(st == PB_OK, "%s", pb_last_error());
    int differ = 0;
    for (int fr = 0; st == PB_OK && fr < 400 && !differ; fr++)
        for (int r = 0; r < 2 && st == PB_OK; r++) {
            pb_graph_scene_drive(&g, &c[r], 11, PB_FRAME_DT);
            st = pb_graph_crowd_step(&c[r], NULL, PB_FRAME_DT);
            if (r == 1) differ = !poses_equal(&c[0].global, &c[1].global);
        }
    CHECK(st == PB_OK, "%s", pb_last_error());
    CHECK(c[0].fired[PB_GM_DEAD_UE] > 0 && differ, "graph: %zu dead_ue transitions, outputs %s",
          c[0].fired[PB_GM_DEAD_UE], differ ? "differ" : "the same");
    def.hl_min = 5;   /* above its max */
    REFUSE(PB_ERR_PARAM, "hl_max is 3", pb_graph_check(&def, g.clips, 3));
    pb_graph_crowd_free(&c[0]), pb_graph_crowd_free(&c[1]);
    pb_graph_scene_free(&g);
}

int main(void)
{
    names();
    pb_scene s;
    CHECK(pb_scene_synthetic(&s, 24, 3) == PB_OK, "%s", pb_last_error());
    every_method(&s);
    halflife_est(&s);
    graph(&s);
    pb_scene_free(&s);
    return check_done();
}
