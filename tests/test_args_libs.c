/* test_args_libs.c — the public calls of graph.h, mm.h, frame_mm.h, skin.h, bspace.h and
 * blend_n.h each given one bad argument at a time (NULL pointers, objects never made, indices,
 * methods, stages and counts out of range, sizes that disagree, NaN) return a clear status whose
 * message names the argument, never a crash (issue 62); void calls take NULL; an N-way blend whose
 * output's planes overlap each other or an input's (other than exactly in place) is refused. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "refuse.h"
#include "posebench/posebench.h"

#define J 24
#define C 16

static pb_scene sc;

static void test_graph(void)
{
    pb_graph_scene g, gz;
    memset(&gz, 0, sizeof gz);
    REFUSE(PB_ERR_NULL, "graph", pb_graph_scene_default(NULL, &sc));
    REFUSE(PB_ERR_NULL, "scene", pb_graph_scene_default(&g, NULL));
    pb_graph_scene_free(NULL);
    CHECK(pb_graph_scene_default(&g, &sc) == PB_OK, "graph scene: %s", pb_last_error());
    CHECK(pb_graph_method_name(PB_GM_COUNT) == NULL && pb_graph_method_name((pb_graph_method)-1) == NULL,
          "method name out of range");
    CHECK(pb_graph_method_parse(NULL) == PB_GM_COUNT && pb_graph_method_parse("nope") == PB_GM_COUNT, "parse");
    CHECK(pb_graph_stage_name(PB_GS_COUNT) == NULL && pb_graph_stage_name((pb_graph_stage)-1) == NULL, "stage name");
    CHECK(pb_graph_state_find(NULL, "idle") == -1 && pb_graph_state_find(&g.def, NULL) == -1 &&
              pb_graph_param_find(NULL, "speed") == -1 && pb_graph_param_find(&g.def, NULL) == -1,
          "find with NULL");
    CHECK(pb_graph_state_find(&g.def, "idle") >= 0 && pb_graph_param_find(&g.def, "speed") >= 0, "find");
    REFUSE(PB_ERR_NULL, "def", pb_graph_check(NULL, g.clips, 3));
    REFUSE(PB_ERR_NULL, "clips", pb_graph_check(&g.def, NULL, 3));
    REFUSE(PB_ERR_EMPTY, "clips", pb_graph_check(&g.def, g.clips, 0));
    const pb_clip *holes[3] = { g.clips[0], NULL, g.clips[2] };
    REFUSE(PB_ERR_NULL, "clips[1]", pb_graph_check(&g.def, holes, 3));
    pb_graph_def bad = g.def;
    bad.start = 99;
    REFUSE(PB_ERR_PARAM, "start", pb_graph_check(&bad, g.clips, 3));

    pb_graph_crowd c, cz;
    memset(&cz, 0, sizeof cz);
    REFUSE(PB_ERR_NULL, "crowd", pb_graph_crowd_init(NULL, &g.def, g.clips, 3, sc.parents, C, 1));
    REFUSE(PB_ERR_NULL, "def", pb_graph_crowd_init(&c, NULL, g.clips, 3, sc.parents, C, 1));
    REFUSE(PB_ERR_NULL, "parents", pb_graph_crowd_init(&c, &g.def, g.clips, 3, NULL, C, 1));
    REFUSE(PB_ERR_EMPTY, "characters", pb_graph_crowd_init(&c, &g.def, g.clips, 3, sc.parents, 0, 1));
    REFUSE(PB_ERR_PARAM, "start", pb_graph_crowd_init(&c, &bad, g.clips, 3, sc.parents, C, 1));
    pb_graph_crowd_free(NULL);
    CHECK(pb_graph_crowd_init(&c, &g.def, g.clips, 3, sc.parents, C, 1) == PB_OK, "graph crowd: %s", pb_last_error());
    REFUSE(PB_ERR_NULL, "crowd", pb_graph_crowd_stage(NULL, NULL, PB_GS_CONTROL));
    REFUSE(PB_ERR_NULL, "crowd", pb_graph_crowd_stage(&cz, NULL, PB_GS_CONTROL));
    REFUSE(PB_ERR_PARAM, "stage", pb_graph_crowd_stage(&c, NULL, PB_GS_COUNT));
    REFUSE(PB_ERR_PARAM, "stage", pb_graph_crowd_stage(&c, NULL, (pb_graph_stage)-1));
    REFUSE(PB_ERR_NULL, "crowd", pb_graph_crowd_step(NULL, NULL, PB_FRAME_DT));
    REFUSE(PB_ERR_NULL, "crowd", pb_graph_crowd_step(&cz, NULL, PB_FRAME_DT));
    REFUSE(PB_ERR_PARAM, "dt", pb_graph_crowd_step(&c, NULL, NAN));
    REFUSE(PB_ERR_PARAM, "dt", pb_graph_crowd_step(&c, NULL, -1.0f));
    c.param[0] = NAN;
    REFUSE(PB_ERR_PARAM, "character 0", pb_graph_crowd_step(&c, NULL, PB_FRAME_DT));
    c.param[0] = 0;
    pb_graph_crowd_advance(NULL, PB_FRAME_DT);
    pb_graph_crowd_advance(&cz, PB_FRAME_DT);
    pb_graph_scene_drive(NULL, &c, 1, PB_FRAME_DT);
    pb_graph_scene_drive(&g, NULL, 1, PB_FRAME_DT);
    pb_graph_scene_drive(&gz, &c, 1, PB_FRAME_DT);
    pb_graph_scene_drive(&g, &c, 1, PB_FRAME_DT);
    CHECK(pb_graph_crowd_step(&c, NULL, PB_FRAME_DT) == PB_OK, "the graph crowd still steps: %s", pb_last_error());
    pb_graph_crowd_free(&c);
    pb_graph_scene_free(&g);
}

static void test_mm(void)
{
    pb_mm_crowd c, cz;
    memset(&cz, 0, sizeof cz);
    REFUSE(PB_ERR_NULL, "crowd", pb_mm_crowd_init(NULL, &sc, C, PB_MM_INTERVAL, PB_MM_AABB, 0.2f, 1));
    REFUSE(PB_ERR_NULL, "scene", pb_mm_crowd_init(&c, NULL, C, PB_MM_INTERVAL, PB_MM_AABB, 0.2f, 1));
    REFUSE(PB_ERR_EMPTY, "characters", pb_mm_crowd_init(&c, &sc, 0, PB_MM_INTERVAL, PB_MM_AABB, 0.2f, 1));
    REFUSE(PB_ERR_PARAM, "interval", pb_mm_crowd_init(&c, &sc, C, 0, PB_MM_AABB, 0.2f, 1));
    REFUSE(PB_ERR_PARAM, "method", pb_mm_crowd_init(&c, &sc, C, PB_MM_INTERVAL, PB_MM_METHODS, 0.2f, 1));
    REFUSE(PB_ERR_PARAM, "method", pb_mm_crowd_init(&c, &sc, C, PB_MM_INTERVAL, (pb_mm_method)-1, 0.2f, 1));
    REFUSE(PB_ERR_PARAM, "duration", pb_mm_crowd_init(&c, &sc, C, PB_MM_INTERVAL, PB_MM_AABB, NAN, 1));
    REFUSE(PB_ERR_PARAM, "duration", pb_mm_crowd_init(&c, &sc, C, PB_MM_INTERVAL, PB_MM_AABB, 0.0f, 1));
    pb_mm_crowd_free(NULL);
    CHECK(pb_mm_crowd_init(&c, &sc, C, PB_MM_INTERVAL, PB_MM_AABB, 0.2f, 1) == PB_OK, "mm crowd: %s", pb_last_error());
    REFUSE(PB_ERR_NULL, "crowd", pb_mm_crowd_stage(NULL, NULL, PB_MMS_SAMPLE));
    REFUSE(PB_ERR_NULL, "crowd", pb_mm_crowd_stage(&cz, NULL, PB_MMS_SAMPLE));
    REFUSE(PB_ERR_PARAM, "stage", pb_mm_crowd_stage(&c, NULL, PB_MMS_COUNT));
    REFUSE(PB_ERR_PARAM, "stage", pb_mm_crowd_stage(&c, NULL, (pb_mm_stage)-1));
    REFUSE(PB_ERR_NULL, "crowd", pb_mm_crowd_step(NULL, NULL));
    REFUSE(PB_ERR_NULL, "crowd", pb_mm_crowd_step(&cz, NULL));
    pb_mm_crowd_advance(NULL);
    pb_mm_crowd_advance(&cz);
    CHECK(pb_mm_stage_name(PB_MMS_COUNT) == NULL && pb_mm_stage_name((pb_mm_stage)-1) == NULL, "stage name");
    CHECK(pb_mm_method_name(PB_MM_METHODS) == NULL && pb_mm_method_name((pb_mm_method)-1) == NULL, "method name");

    /* the database and the search */
    const pb_mm_db *db = &c.db;
    float q[2 * PB_MM_FEATURES], dist[2];
    uint32_t best[2];
    int32_t ex[2] = { 0, -1 };
    CHECK(pb_mm_features(&sc.clip[0], &c.mskel, 0, q) == PB_OK && pb_mm_features(&sc.clip[0], &c.mskel, 1,
                                                                                 q + PB_MM_FEATURES) == PB_OK,
          "features: %s", pb_last_error());
    REFUSE(PB_ERR_NULL, "clip", pb_mm_features(NULL, &c.mskel, 0, q));
    REFUSE(PB_ERR_NULL, "skeleton", pb_mm_features(&sc.clip[0], NULL, 0, q));
    REFUSE(PB_ERR_NULL, "out", pb_mm_features(&sc.clip[0], &c.mskel, 0, NULL));
    REFUSE(PB_ERR_PARAM, "frame", pb_mm_features(&sc.clip[0], &c.mskel, sc.clip[0].frames, q));
    pb_mm_skeleton sk = c.mskel;
    sk.left_foot = (int)J;
    REFUSE(PB_ERR_PARAM, "feet", pb_mm_features(&sc.clip[0], &sk, 0, q));
    pb_mm_db out;
    REFUSE(PB_ERR_NULL, "db", pb_mm_db_build(NULL, sc.clip, 2, &c.mskel, NULL));
    REFUSE(PB_ERR_NULL, "clips", pb_mm_db_build(&out, NULL, 2, &c.mskel, NULL));
    REFUSE(PB_ERR_EMPTY, "clips", pb_mm_db_build(&out, sc.clip, 0, &c.mskel, NULL));
    REFUSE(PB_ERR_NULL, "skeleton", pb_mm_db_build(&out, sc.clip, 2, NULL, NULL));
    pb_mm_weights w = pb_mm_weights_default();
    w.w[2] = NAN;
    REFUSE(PB_ERR_PARAM, "weight", pb_mm_db_build(&out, sc.clip, 2, &c.mskel, &w));
    pb_mm_db_free(NULL);
    uint8_t *keep = calloc(db->rows, 1);
    CHECK(keep != NULL, "alloc");
    REFUSE(PB_ERR_NULL, "out", pb_mm_db_subset(NULL, db, keep));
    REFUSE(PB_ERR_NULL, "src", pb_mm_db_subset(&out, NULL, keep));
    REFUSE(PB_ERR_NULL, "keep", pb_mm_db_subset(&out, db, NULL));
    REFUSE(PB_ERR_EMPTY, "no row kept", pb_mm_db_subset(&out, db, keep));
    free(keep);
    REFUSE(PB_ERR_NULL, "out", pb_mm_db_replicate(NULL, db, 10, 0.1f, 1));
    REFUSE(PB_ERR_NULL, "src", pb_mm_db_replicate(&out, NULL, 10, 0.1f, 1));
    REFUSE(PB_ERR_EMPTY, "rows = 0", pb_mm_db_replicate(&out, db, 0, 0.1f, 1));
    REFUSE(PB_ERR_PARAM, "sigma", pb_mm_db_replicate(&out, db, 10, NAN, 1));
    REFUSE(PB_ERR_PARAM, "sigma", pb_mm_db_replicate(&out, db, 10, -1.0f, 1));
    REFUSE(PB_ERR_SIZE, "rows", pb_mm_db_replicate(&out, db, PB_MM_MAX_FRAMES + 1, 0.1f, 1));
    pb_mm_normalize(NULL, q, q);
    pb_mm_normalize(db, NULL, q);
    pb_mm_normalize(db, q, NULL);
    REFUSE(PB_ERR_NULL, "db", pb_mm_search(NULL, q, 2, NULL, 0, PB_MM_AABB, best, dist, NULL));
    REFUSE(PB_ERR_NULL, "queries", pb_mm_search(db, NULL, 2, NULL, 0, PB_MM_AABB, best, dist, NULL));
    REFUSE(PB_ERR_NULL, "best", pb_mm_search(db, q, 2, NULL, 0, PB_MM_AABB, NULL, dist, NULL));
    REFUSE(PB_ERR_EMPTY, "n = 0", pb_mm_search(db, q, 0, NULL, 0, PB_MM_AABB, best, dist, NULL));
    REFUSE(PB_ERR_PARAM, "method", pb_mm_search(db, q, 2, NULL, 0, PB_MM_METHODS, best, dist, NULL));
    REFUSE(PB_ERR_PARAM, "method", pb_mm_search(db, q, 2, NULL, 0, (pb_mm_method)-1, best, dist, NULL));
    REFUSE(PB_ERR_PARAM, "exclude_radius", pb_mm_search(db, q, 2, ex, -1, PB_MM_AABB, best, dist, NULL));
    ex[1] = (int32_t)db->rows;
    REFUSE(PB_ERR_PARAM, "exclude[1]", pb_mm_search(db, q, 2, ex, 3, PB_MM_AABB, best, dist, NULL));
    ex[1] = -2;
    REFUSE(PB_ERR_PARAM, "exclude[1]", pb_mm_search(db, q, 2, ex, 3, PB_MM_AABB, best, dist, NULL));
    q[PB_MM_FEATURES + 4] = NAN;
    REFUSE(PB_ERR_PARAM, "query 1", pb_mm_search(db, q, 2, NULL, 0, PB_MM_EXHAUSTIVE, best, dist, NULL));
    pb_mm_db empty;
    memset(&empty, 0, sizeof empty);
    REFUSE(PB_ERR_EMPTY, "empty", pb_mm_search(&empty, q, 1, NULL, 0, PB_MM_EXHAUSTIVE, best, dist, NULL));
    CHECK(pb_mm_crowd_step(&c, NULL) == PB_OK, "the mm crowd still steps: %s", pb_last_error());
    pb_mm_crowd_free(&c);
}

static void test_skin(void)
{
    pb_mesh m, mz;
    pb_skinned o;
    memset(&mz, 0, sizeof mz);
    REFUSE(PB_ERR_NULL, "m", pb_mesh_alloc(NULL, 10, 4));
    REFUSE(PB_ERR_EMPTY, "n = 0", pb_mesh_alloc(&m, 0, 4));
    REFUSE(PB_ERR_SIZE, "n", pb_mesh_alloc(&m, PB_MESH_MAX_VERTICES + 1, 4));
    REFUSE(PB_ERR_PARAM, "influences = 0", pb_mesh_alloc(&m, 10, 0));
    REFUSE(PB_ERR_PARAM, "influences = 5", pb_mesh_alloc(&m, 10, 5));
    REFUSE(PB_ERR_NULL, "s", pb_skinned_alloc(NULL, 10));
    REFUSE(PB_ERR_EMPTY, "n = 0", pb_skinned_alloc(&o, 0));
    pb_mesh_free(NULL);
    pb_skinned_free(NULL);
    CHECK(pb_mesh_alloc(&m, 64, 4) == PB_OK && pb_skinned_alloc(&o, 64) == PB_OK, "alloc: %s", pb_last_error());
    pb_skeleton sk;
    pb_pose rest;
    CHECK(pb_skeleton_init(&sk, sc.parents, J, 1) == PB_OK && pb_pose_alloc_static(&rest, J) == PB_OK, "skeleton");
    REFUSE(PB_ERR_NULL, "m", pb_mesh_synthetic(NULL, &sk, &rest));
    REFUSE(PB_ERR_NULL, "skel", pb_mesh_synthetic(&m, NULL, &rest));
    REFUSE(PB_ERR_NULL, "rest_global", pb_mesh_synthetic(&m, &sk, NULL));
    REFUSE(PB_ERR_PARAM, "pb_mesh_alloc", pb_mesh_synthetic(&mz, &sk, &rest));
    CHECK(pb_mesh_synthetic(&m, &sk, &rest) == PB_OK, "mesh: %s", pb_last_error());
    REFUSE(PB_ERR_NULL, "mesh", pb_mesh_check(NULL, J));
    REFUSE(PB_ERR_EMPTY, "n = 0", pb_mesh_check(&mz, J));
    REFUSE(PB_ERR_PARAM, "joint", pb_mesh_check(&m, 1));

    float *pal = calloc((size_t)J * PB_PALETTE_MAT_FLOATS, sizeof *pal);
    CHECK(pal != NULL, "alloc");
    pb_palette p = { pal, J };
    pb_skin_job *job = (pb_skin_job *)&p;
    pb_skin_call call = { .mesh = &m, .palette = &p, .characters = 1, .character = 0, .out = &o };
    REFUSE(PB_ERR_NULL, "job", pb_skin_job_create(NULL, PB_SKIN_LBS, NULL, &call));
    REFUSE(PB_ERR_NULL, "call", pb_skin_job_create(&job, PB_SKIN_LBS, NULL, NULL));
    CHECK(job == NULL, "a refused job is NULL");
    REFUSE(PB_ERR_PARAM, "method", pb_skin_job_create(&job, (pb_skin_method)7, NULL, &call));
    REFUSE(PB_ERR_PARAM, "method", pb_skin_job_create(&job, (pb_skin_method)-1, NULL, &call));
    pb_skin_call bad = call;
    bad.character = 1;
    REFUSE(PB_ERR_PARAM, "character", pb_skin_job_create(&job, PB_SKIN_LBS, NULL, &bad));
    bad = call;
    bad.mesh = NULL;
    REFUSE(PB_ERR_NULL, "mesh", pb_skin_job_create(&job, PB_SKIN_LBS, NULL, &bad));
    bad = call;
    bad.palette = NULL;
    REFUSE(PB_ERR_NULL, "palette", pb_skin_job_create(&job, PB_SKIN_LBS, NULL, &bad));
    bad = call;
    bad.out = NULL;
    REFUSE(PB_ERR_NULL, "out", pb_skin_job_create(&job, PB_SKIN_LBS, NULL, &bad));
    bad = call;
    bad.characters = 5;   /* 24 entries are not 5 characters' palettes */
    REFUSE(PB_ERR_SIZE, "characters", pb_skin_job_create(&job, PB_SKIN_LBS, NULL, &bad));
    REFUSE(PB_ERR_NULL, "job", pb_skin_job_run(NULL));
    pb_skin_job_free(NULL);
    REFUSE(PB_ERR_NULL, "mesh", pb_skin_lbs(NULL, &p, &o));
    REFUSE(PB_ERR_NULL, "palette", pb_skin_dqs(&m, NULL, &o));
    REFUSE(PB_ERR_NULL, "out", pb_skin_lbs(&m, &p, NULL));
    CHECK(pb_skin_lbs(&m, &p, &o) == PB_OK, "skin: %s", pb_last_error());
    free(pal);
    pb_pose_free(&rest);
    pb_skeleton_free(&sk);
    pb_mesh_free(&m);
    pb_skinned_free(&o);
}

static void test_bspace(void)
{
    const float x[3] = { 0, 1, 0 }, y[3] = { 0, 0, 1 };
    pb_bspace bs, bz;
    memset(&bz, 0, sizeof bz);
    CHECK(pb_bspace_method_name(PB_BSPACE_METHODS) == NULL && pb_bspace_method_name((pb_bspace_method)-1) == NULL,
          "method name");
    REFUSE(PB_ERR_NULL, "bs", pb_bspace_create(NULL, PB_BSPACE_BARYCENTRIC, x, y, 3));
    REFUSE(PB_ERR_PARAM, "method", pb_bspace_create(&bs, PB_BSPACE_METHODS, x, y, 3));
    REFUSE(PB_ERR_PARAM, "method", pb_bspace_create(&bs, (pb_bspace_method)-1, x, y, 3));
    REFUSE(PB_ERR_NULL, "x", pb_bspace_create(&bs, PB_BSPACE_BARYCENTRIC, NULL, y, 3));
    REFUSE(PB_ERR_NULL, "y", pb_bspace_create(&bs, PB_BSPACE_BARYCENTRIC, x, NULL, 3));
    REFUSE(PB_ERR_SIZE, "samples", pb_bspace_create(&bs, PB_BSPACE_1D, x, NULL, 1));
    REFUSE(PB_ERR_SIZE, "samples", pb_bspace_create(&bs, PB_BSPACE_1D, x, NULL, PB_BSPACE_MAX_SAMPLES + 1));
    pb_bspace_free(NULL);
    CHECK(pb_bspace_create(&bs, PB_BSPACE_BARYCENTRIC, x, y, 3) == PB_OK, "bspace: %s", pb_last_error());
    float px[2] = { 0.2f, 0.3f }, py[2] = { 0.1f, 0.2f }, w[3 * 2];
    REFUSE(PB_ERR_NULL, "bs", pb_bspace_weights(NULL, px, py, 2, w, 2, NULL));
    REFUSE(PB_ERR_NULL, "px", pb_bspace_weights(&bs, NULL, py, 2, w, 2, NULL));
    REFUSE(PB_ERR_NULL, "py", pb_bspace_weights(&bs, px, NULL, 2, w, 2, NULL));
    REFUSE(PB_ERR_NULL, "w", pb_bspace_weights(&bs, px, py, 2, NULL, 2, NULL));
    REFUSE(PB_ERR_EMPTY, "n = 0", pb_bspace_weights(&bs, px, py, 0, w, 2, NULL));
    REFUSE(PB_ERR_SIZE, "w_stride", pb_bspace_weights(&bs, px, py, 2, w, 1, NULL));
    REFUSE(PB_ERR_EMPTY, "not created", pb_bspace_weights(&bz, px, py, 2, w, 2, NULL));
    px[1] = NAN;
    REFUSE(PB_ERR_PARAM, "character 1", pb_bspace_weights(&bs, px, py, 2, w, 2, NULL));
    pb_bspace_free(&bs);
}

static void test_blend_n(void)
{
    enum { N = 2 * C };
    pb_pose p[3], out;
    for (int i = 0; i < 3; i++) CHECK(pb_pose_alloc_static(&p[i], N) == PB_OK, "alloc");
    CHECK(pb_pose_alloc_static(&out, N) == PB_OK, "alloc");
    float w[3 * C];
    for (int i = 0; i < 3 * C; i++) w[i] = 1.0f;
    const pb_pose *in[3] = { &p[0], &p[1], &p[2] };
    CHECK(pb_blend_n_method_name(PB_BLEND_N_METHODS) == NULL && pb_blend_n_method_name((pb_blend_n_method)-1) == NULL,
          "method name");
    REFUSE(PB_ERR_NULL, "in", pb_blend_n(NULL, 3, w, C, PB_BLEND_N_FAST, PB_SCALE_DEFAULT, &out, NULL));
    REFUSE(PB_ERR_NULL, "w", pb_blend_n(in, 3, NULL, C, PB_BLEND_N_FAST, PB_SCALE_DEFAULT, &out, NULL));
    REFUSE(PB_ERR_NULL, "out", pb_blend_n(in, 3, w, C, PB_BLEND_N_FAST, PB_SCALE_DEFAULT, NULL, NULL));
    REFUSE(PB_ERR_SIZE, "k = 1", pb_blend_n(in, 1, w, C, PB_BLEND_N_FAST, PB_SCALE_DEFAULT, &out, NULL));
    REFUSE(PB_ERR_SIZE, "k = 17", pb_blend_n(in, PB_BLEND_N_MAX + 1, w, C, PB_BLEND_N_FAST, PB_SCALE_DEFAULT, &out, NULL));
    REFUSE(PB_ERR_SIZE, "characters = 0", pb_blend_n(in, 3, w, 0, PB_BLEND_N_FAST, PB_SCALE_DEFAULT, &out, NULL));
    REFUSE(PB_ERR_SIZE, "characters = 3", pb_blend_n(in, 3, w, 3, PB_BLEND_N_FAST, PB_SCALE_DEFAULT, &out, NULL));
    REFUSE(PB_ERR_PARAM, "method", pb_blend_n(in, 3, w, C, PB_BLEND_N_METHODS, PB_SCALE_DEFAULT, &out, NULL));
    REFUSE(PB_ERR_PARAM, "method", pb_blend_n(in, 3, w, C, (pb_blend_n_method)-1, PB_SCALE_DEFAULT, &out, NULL));
    REFUSE(PB_ERR_PARAM, "scale", pb_blend_n(in, 3, w, C, PB_BLEND_N_FAST, (pb_scale_mode)9, &out, NULL));
    const pb_pose *holes[3] = { &p[0], NULL, &p[2] };
    REFUSE(PB_ERR_NULL, "in[1]", pb_blend_n(holes, 3, w, C, PB_BLEND_N_FAST, PB_SCALE_DEFAULT, &out, NULL));
    w[C + 2] = -1.0f;
    REFUSE(PB_ERR_PARAM, "input 1, character 2", pb_blend_n(in, 3, w, C, PB_BLEND_N_FAST, PB_SCALE_DEFAULT, &out, NULL));
    w[C + 2] = 1.0f;
    /* aliasing: out exactly an input is fine; out's planes on one buffer, or across an input's, are not */
    CHECK(pb_blend_n(in, 3, w, C, PB_BLEND_N_FAST, PB_SCALE_DEFAULT, &p[1], NULL) == PB_OK, "in place: %s",
          pb_last_error());
    pb_pose one = out;
    for (int i = 0; i <= PB_SCL_Z; i++) one.plane[i] = out.plane[0];
    REFUSE(PB_ERR_ALIAS, "out", pb_blend_n(in, 3, w, C, PB_BLEND_N_FAST, PB_SCALE_DEFAULT, &one, NULL));
    pb_pose cross = p[2];
    cross.plane[PB_POS_X] = p[2].plane[PB_POS_Y];
    cross.plane[PB_POS_Y] = p[2].plane[PB_POS_X];
    REFUSE(PB_ERR_ALIAS, "in[2]", pb_blend_n(in, 3, w, C, PB_BLEND_N_FAST, PB_SCALE_DEFAULT, &cross, NULL));
    for (int i = 0; i < 3; i++) pb_pose_free(&p[i]);
    pb_pose_free(&out);
}

int main(void)
{
    CHECK(pb_scene_synthetic(&sc, J, 3) == PB_OK, "scene: %s", pb_last_error());   /* a seed whose feet match */
    test_graph();
    test_mm();
    test_skin();
    test_bspace();
    test_blend_n();
    pb_scene_free(&sc);
    return check_done();
}
