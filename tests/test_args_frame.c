/* test_args_frame.c — the frame pipeline's public calls (frame.h: scenes, crowds, stages, blocks)
 * each given one bad argument at a time — a NULL pointer, a crowd never made, a role, clip,
 * method, stage, frame, block or thread out of range, a time that is not finite — return a clear
 * status whose message names the argument, never a crash (issue 62: pb_frame_crowd_play took
 * role 2, clip 7 or a NULL crowd and freed or read what it should not); the crowd still runs
 * after every refusal. The other libraries' calls: test_args_libs.c. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "refuse.h"
#include "posebench/posebench.h"

#define J 24
#define C 16

static pb_scene sc;
static pb_frame_crowd crowd, zero;   /* zero: a crowd never made (or freed) */

static void test_scene(void)
{
    REFUSE(PB_ERR_NULL, "scene", pb_scene_synthetic(NULL, J, 1));
    pb_scene s;
    REFUSE(PB_ERR_EMPTY, "joints", pb_scene_synthetic(&s, 0, 1));
    REFUSE(PB_ERR_SIZE, "joints", pb_scene_synthetic(&s, (size_t)PB_MAX_JOINTS + 1, 1));
    pb_scene_free(&s);
    REFUSE(PB_ERR_NULL, "scene", pb_scene_turns(NULL));
    REFUSE(PB_ERR_NULL, "scene", pb_scene_mesh(NULL, 100));
    memset(&s, 0, sizeof s);
    REFUSE(PB_ERR_NULL, "scene", pb_scene_mesh(&s, 100));
    REFUSE(PB_ERR_SIZE, "vertices", pb_scene_mesh(&sc, PB_MESH_MAX_VERTICES + 1));
    pb_scene_free(NULL);
    CHECK(pb_frame_method_get(PB_FM_COUNT) == NULL && pb_frame_method_get((pb_frame_method)-1) == NULL,
          "method info out of range");
    CHECK(pb_frame_stage_name(PB_FS_COUNT) == NULL && pb_frame_stage_name((pb_frame_stage)-1) == NULL,
          "stage name out of range");
    CHECK(pb_frame_block_default(NULL, 0) >= PB_FRAME_BLOCK_MIN, "block default without a scene");
#if PB_HAVE_BVH
    pb_bvh_file f;
    REFUSE(PB_ERR_NULL, "file", pb_bvh_file_load(NULL, "x.bvh", 1.0f, NULL, NULL));
    REFUSE(PB_ERR_NULL, "path", pb_bvh_file_load(&f, NULL, 1.0f, NULL, NULL));
    pb_bvh_file_free(&f);
    pb_bvh_file_free(NULL);
    CHECK(pb_bvh_file_same_skeleton(NULL, NULL) == 0, "same skeleton of NULL files");
    pb_bvh_file empty;
    memset(&empty, 0, sizeof empty);
    REFUSE(PB_ERR_NULL, "scene", pb_scene_bvh(NULL, NULL, &empty, &empty));
    REFUSE(PB_ERR_NULL, "file a", pb_scene_bvh(&s, NULL, NULL, &empty));
    REFUSE(PB_ERR_NULL, "file a", pb_scene_bvh(&s, NULL, &empty, &empty));
    REFUSE(PB_ERR_NULL, "scene", pb_scene_bvh_files(NULL, NULL, "a.bvh", "b.bvh", 1.0f, NULL, NULL));
    REFUSE(PB_ERR_NULL, "path_a", pb_scene_bvh_files(&s, NULL, NULL, "b.bvh", 1.0f, NULL, NULL));
    REFUSE(PB_ERR_NULL, "path_b", pb_scene_bvh_files(&s, NULL, "a.bvh", NULL, 1.0f, NULL, NULL));
#endif
}

static void test_crowd_init(void)
{
    pb_frame_crowd c;
    REFUSE(PB_ERR_NULL, "crowd", pb_frame_crowd_init(NULL, &sc, C, PB_OP_sample_linear));
    REFUSE(PB_ERR_NULL, "scene", pb_frame_crowd_init(&c, NULL, C, PB_OP_sample_linear));
    pb_scene none;
    memset(&none, 0, sizeof none);
    REFUSE(PB_ERR_NULL, "scene", pb_frame_crowd_init(&c, &none, C, PB_OP_sample_linear));
    REFUSE(PB_ERR_EMPTY, "characters", pb_frame_crowd_init(&c, &sc, 0, PB_OP_sample_linear));
    REFUSE(PB_ERR_PARAM, "sampler", pb_frame_crowd_init(&c, &sc, C, PB_OP_blend));
    REFUSE(PB_ERR_PARAM, "sampler", pb_frame_crowd_init(&c, &sc, C, (pb_op)-1));
    REFUSE(PB_ERR_PARAM, "sampler", pb_frame_crowd_init(&c, &sc, C, PB_OP_COUNT));
    REFUSE(PB_ERR_SIZE, "characters", pb_frame_crowd_init(&c, &sc, PB_FRAME_CROWD_MAX_ELEMENTS, PB_OP_sample_linear));
    pb_frame_crowd_free(&c);
    pb_frame_crowd_free(NULL);
}

/* The crowd, after a refusal, computes what it computed before. */
static float frame_value(void)
{
    pb_status s = pb_frame_step(&crowd, NULL, PB_FM_CROSSFADE, 3);
    CHECK(s == PB_OK, "the crowd steps: %s", pb_last_error());
    return crowd.global.plane[PB_POS_Y][crowd.n - 1];
}

static void test_play(void)
{
    const float before = frame_value();
    float off[C];
    for (int k = 0; k < C; k++) off[k] = 0.01f * (float)k;
    REFUSE(PB_ERR_NULL, "crowd", pb_frame_crowd_play(NULL, 0, 0, off));
    REFUSE(PB_ERR_NULL, "crowd", pb_frame_crowd_play(&zero, 0, 0, off));
    REFUSE(PB_ERR_PARAM, "role = 2", pb_frame_crowd_play(&crowd, 2, 0, off));
    REFUSE(PB_ERR_PARAM, "role = -1", pb_frame_crowd_play(&crowd, -1, 0, off));
    REFUSE(PB_ERR_PARAM, "clip = 7", pb_frame_crowd_play(&crowd, 0, 7, off));
    REFUSE(PB_ERR_PARAM, "clip = -1", pb_frame_crowd_play(&crowd, 1, -1, off));
    REFUSE(PB_ERR_NULL, "offsets", pb_frame_crowd_play(&crowd, 0, 0, NULL));
    CHECK(crowd.clip_of[0] == 0 && crowd.clip_of[1] == 1, "a refused play changes nothing");
    CHECK(frame_value() == before, "the crowd computes the same frame after refused plays");
    /* a good play still works: both roles on clip 1 */
    CHECK(pb_frame_crowd_play(&crowd, 0, 1, off) == PB_OK && crowd.clip_of[0] == 1, "play: %s", pb_last_error());
}

static void test_stages(void)
{
    REFUSE(PB_ERR_NULL, "crowd", pb_frame_sample(NULL, NULL, 0, 0.0f));
    REFUSE(PB_ERR_NULL, "crowd", pb_frame_sample(&zero, NULL, 0, 0.0f));
    REFUSE(PB_ERR_PARAM, "role = 2", pb_frame_sample(&crowd, NULL, 2, 0.0f));
    REFUSE(PB_ERR_PARAM, "role = -1", pb_frame_sample(&crowd, NULL, -1, 0.0f));
    REFUSE(PB_ERR_PARAM, "time", pb_frame_sample(&crowd, NULL, 0, NAN));
    REFUSE(PB_ERR_PARAM, "time", pb_frame_sample(&crowd, NULL, 1, INFINITY));

    REFUSE(PB_ERR_NULL, "crowd", pb_frame_begin(NULL, NULL, PB_FM_CROSSFADE));
    REFUSE(PB_ERR_NULL, "crowd", pb_frame_begin(&zero, NULL, PB_FM_CROSSFADE));
    REFUSE(PB_ERR_PARAM, "method", pb_frame_begin(&crowd, NULL, PB_FM_COUNT));
    REFUSE(PB_ERR_PARAM, "method", pb_frame_begin(&crowd, NULL, (pb_frame_method)-1));
    REFUSE(PB_ERR_NULL, "crowd", pb_frame_transition(NULL, NULL, PB_FM_CROSSFADE, 0.1f));
    REFUSE(PB_ERR_NULL, "crowd", pb_frame_transition(&zero, NULL, PB_FM_CROSSFADE, 0.1f));
    REFUSE(PB_ERR_PARAM, "method", pb_frame_transition(&crowd, NULL, PB_FM_COUNT, 0.1f));
    REFUSE(PB_ERR_PARAM, "method", pb_frame_transition(&crowd, NULL, (pb_frame_method)-3, 0.1f));
    REFUSE(PB_ERR_PARAM, "t is", pb_frame_transition(&crowd, NULL, PB_FM_CROSSFADE, NAN));

    pb_status (*const one[])(pb_frame_crowd *, const pb_variant *) = { pb_frame_additive, pb_frame_leg_fk, pb_frame_ik,
                                                                         pb_frame_fk, pb_frame_palette, pb_frame_skin };
    static const char *const names[] = { "pb_frame_additive", "pb_frame_leg_fk", "pb_frame_ik", "pb_frame_fk",
                                         "pb_frame_palette", "pb_frame_skin" };
    for (size_t i = 0; i < sizeof one / sizeof one[0]; i++) {
        REFUSE(PB_ERR_NULL, names[i], one[i](NULL, NULL));
        REFUSE(PB_ERR_NULL, "crowd", one[i](&zero, NULL));
    }

    CHECK(isnan(pb_frame_crowd_clip_time(NULL, 0, 1)) && strstr(pb_last_error(), "crowd"), "clip time of NULL: %s",
          pb_last_error());
    CHECK(isnan(pb_frame_crowd_clip_time(&zero, 0, 1)), "clip time of a crowd never made");
    CHECK(isnan(pb_frame_crowd_clip_time(&crowd, 2, 1)) && strstr(pb_last_error(), "role = 2"), "clip time, role 2");
    CHECK(isnan(pb_frame_crowd_clip_time(&crowd, -1, 1)) && strstr(pb_last_error(), "role = -1"), "clip time, role -1");
    CHECK(isfinite(pb_frame_crowd_clip_time(&crowd, 1, 1)), "clip time, role 1");
    CHECK(isnan(pb_frame_crowd_trans_time(NULL, 1)) && strstr(pb_last_error(), "crowd"), "trans time of NULL");
    CHECK(isnan(pb_frame_crowd_trans_time(&zero, 1)), "trans time of a crowd never made");

    REFUSE(PB_ERR_NULL, "crowd", pb_frame_step(NULL, NULL, PB_FM_CROSSFADE, 0));
    REFUSE(PB_ERR_NULL, "crowd", pb_frame_step(&zero, NULL, PB_FM_CROSSFADE, 0));
    REFUSE(PB_ERR_PARAM, "method", pb_frame_step(&crowd, NULL, PB_FM_COUNT, 0));
    REFUSE(PB_ERR_PARAM, "k = -1", pb_frame_step(&crowd, NULL, PB_FM_CROSSFADE, -1));
    REFUSE(PB_ERR_PARAM, "stages", pb_frame_stages_run(&crowd, NULL, PB_FM_CROSSFADE, 0, PB_FS_FK, PB_FS_IK));
    REFUSE(PB_ERR_PARAM, "stages", pb_frame_stages_run(&crowd, NULL, PB_FM_CROSSFADE, 0, 0, (pb_frame_stage)(PB_FS_COUNT + 1)));
    REFUSE(PB_ERR_PARAM, "stages", pb_frame_stages_run(&crowd, NULL, PB_FM_CROSSFADE, 0, (pb_frame_stage)-1, PB_FS_FK));
    REFUSE(PB_ERR_PARAM, "stage", pb_frame_stage_run(&crowd, NULL, PB_FM_CROSSFADE, 0, PB_FS_COUNT));
    REFUSE(PB_ERR_PARAM, "stage", pb_frame_stage_run(&crowd, NULL, PB_FM_CROSSFADE, 0, (pb_frame_stage)-1));
    REFUSE(PB_ERR_NULL, "crowd", pb_frame_stage_run(NULL, NULL, PB_FM_CROSSFADE, 0, PB_FS_FK));
    CHECK(pb_frame_step(&crowd, NULL, PB_FM_CROSSFADE, 0) == PB_OK, "the crowd still steps: %s", pb_last_error());
}

static void test_blocks(void)
{
    pb_frame_blocks b, none;
    memset(&none, 0, sizeof none);
    REFUSE(PB_ERR_NULL, "blocks", pb_frame_blocks_init(NULL, &sc, 2 * C, C, PB_OP_sample_linear));
    REFUSE(PB_ERR_NULL, "scene", pb_frame_blocks_init(&b, NULL, 2 * C, C, PB_OP_sample_linear));
    REFUSE(PB_ERR_EMPTY, "characters", pb_frame_blocks_init(&b, &sc, 0, C, PB_OP_sample_linear));
    REFUSE(PB_ERR_PARAM, "block = 8", pb_frame_blocks_init(&b, &sc, 2 * C, 8, PB_OP_sample_linear));
    REFUSE(PB_ERR_PARAM, "sampler", pb_frame_blocks_init(&b, &sc, 2 * C, C, PB_OP_fk));
    pb_frame_blocks_free(NULL);
    CHECK(pb_frame_blocks_init(&b, &sc, 2 * C, C, PB_OP_sample_linear) == PB_OK && b.count == 2, "blocks: %s",
          pb_last_error());

    REFUSE(PB_ERR_NULL, "blocks", pb_frame_blocks_begin(NULL, NULL, PB_FM_CROSSFADE, 0.0f, NULL));
    REFUSE(PB_ERR_NULL, "blocks", pb_frame_blocks_begin(&none, NULL, PB_FM_CROSSFADE, 0.0f, NULL));
    REFUSE(PB_ERR_PARAM, "method", pb_frame_blocks_begin(&b, NULL, PB_FM_COUNT, 0.0f, NULL));
    REFUSE(PB_ERR_PARAM, "time", pb_frame_blocks_begin(&b, NULL, PB_FM_CROSSFADE, NAN, NULL));
    REFUSE(PB_ERR_NULL, "blocks", pb_frame_blocks_step(NULL, NULL, PB_FM_CROSSFADE, 0, PB_FO_FUSED, NULL));
    REFUSE(PB_ERR_PARAM, "method", pb_frame_blocks_step(&b, NULL, (pb_frame_method)-1, 0, PB_FO_FUSED, NULL));
    REFUSE(PB_ERR_PARAM, "k = -1", pb_frame_blocks_step(&b, NULL, PB_FM_CROSSFADE, -1, PB_FO_FUSED, NULL));
    REFUSE(PB_ERR_PARAM, "order", pb_frame_blocks_step(&b, NULL, PB_FM_CROSSFADE, 0, (pb_frame_order)5, NULL));
    REFUSE(PB_ERR_NULL, "blocks", pb_frame_blocks_scratch(NULL, 1));
    REFUSE(PB_ERR_PARAM, "threads = 0", pb_frame_blocks_scratch(&b, 0));
    REFUSE(PB_ERR_PARAM, "threads", pb_frame_blocks_scratch(&b, PB_POOL_MAX_THREADS + 1));
    CHECK(pb_frame_blocks_scratch(&b, 1) == PB_OK, "scratch: %s", pb_last_error());
    REFUSE(PB_ERR_NULL, "blocks", pb_frame_block_run(NULL, NULL, PB_FM_CROSSFADE, 0, 0, 0, PB_FS_COUNT, 0));
    REFUSE(PB_ERR_PARAM, "block 2", pb_frame_block_run(&b, NULL, PB_FM_CROSSFADE, 0, 2, 0, PB_FS_COUNT, 0));
    REFUSE(PB_ERR_PARAM, "block", pb_frame_block_run(&b, NULL, PB_FM_CROSSFADE, 0, SIZE_MAX, 0, PB_FS_COUNT, 0));
    REFUSE(PB_ERR_PARAM, "thread 1", pb_frame_block_run(&b, NULL, PB_FM_CROSSFADE, 0, 0, 0, PB_FS_COUNT, 1));
    REFUSE(PB_ERR_PARAM, "thread -2", pb_frame_block_run(&b, NULL, PB_FM_CROSSFADE, 0, 0, 0, PB_FS_COUNT, -2));
    REFUSE(PB_ERR_PARAM, "stages", pb_frame_block_run(&b, NULL, PB_FM_CROSSFADE, 0, 0, PB_FS_FK, PB_FS_IK, 0));
    REFUSE(PB_ERR_PARAM, "method", pb_frame_block_run(&b, NULL, PB_FM_COUNT, 0, 0, 0, PB_FS_COUNT, -1));
    CHECK(pb_frame_blocks_begin(&b, NULL, PB_FM_CROSSFADE, 0.0f, NULL) == PB_OK &&
              pb_frame_blocks_step(&b, NULL, PB_FM_CROSSFADE, 1, PB_FO_FUSED, NULL) == PB_OK,
          "the blocks still run: %s", pb_last_error());
    pb_frame_blocks_free(&b);
}

int main(void)
{
    memset(&zero, 0, sizeof zero);
    CHECK(pb_scene_synthetic(&sc, J, 7) == PB_OK, "scene: %s", pb_last_error());
    CHECK(pb_frame_crowd_init(&crowd, &sc, C, PB_OP_sample_linear) == PB_OK, "crowd: %s", pb_last_error());
    CHECK(pb_frame_sample(&crowd, NULL, 0, 0.0f) == PB_OK && pb_frame_sample(&crowd, NULL, 1, 0.0f) == PB_OK &&
              pb_frame_begin(&crowd, NULL, PB_FM_CROSSFADE) == PB_OK, "begin: %s", pb_last_error());
    test_scene();
    test_crowd_init();
    test_play();
    test_stages();
    test_blocks();
    pb_frame_crowd_free(&crowd);
    pb_scene_free(&sc);
    return check_done();
}
