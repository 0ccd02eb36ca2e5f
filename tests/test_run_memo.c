/* test_run_memo.c — pb_run remembers a validated call (run_memo.c, pb_run_remembered): a repeat
 * with anything changed is checked again and refused with the error a first call would get,
 * never run on what the memo kept. Each case makes one good call first, so the memo holds it. */
#include <math.h>
#include <string.h>
#include "check.h"
#include "internal.h"

static void fill(pb_pose *p, float v)
{
    for (size_t e = 0; e < p->n; e++) p->plane[PB_POS_X][e] = v + (float)e;
}

static pb_status blend(const pb_pose *a, const pb_pose *b, pb_pose *out, float alpha)
{
    pb_call c = { .a = a, .b = b, .out = out, .params = { .alpha = alpha } };
    return pb_run(PB_OP_blend_static, NULL, &c);
}

int main(void)
{
    pb_pose a, b, out, other;
    CHECK(pb_pose_alloc(&a, 64) == PB_OK && pb_pose_alloc(&b, 64) == PB_OK && pb_pose_alloc(&out, 64) == PB_OK,
          "alloc");
    fill(&a, 0); fill(&b, 100);
    CHECK(blend(&a, &b, &out, 0.5f) == PB_OK, "a good call");
    CHECK(out.plane[PB_POS_X][3] == 53.0f, "it ran: %g", (double)out.plane[PB_POS_X][3]);
    CHECK(blend(&a, &b, &out, 0.25f) == PB_OK && out.plane[PB_POS_X][3] == 28.0f, "the repeat takes the new alpha");

    /* a bad parameter after a good call */
    out.plane[PB_POS_X][3] = -1;
    CHECK(blend(&a, &b, &out, NAN) == PB_ERR_PARAM, "alpha NaN after a good call: %s", pb_last_error());
    CHECK(out.plane[PB_POS_X][3] == -1, "nothing written on error");
    CHECK(blend(&a, &b, &out, 0.5f) == PB_OK, "good again");

    /* a different pose of another size in the same place */
    CHECK(pb_pose_alloc(&other, 16) == PB_OK, "alloc other");
    CHECK(blend(&a, &other, &out, 0.5f) == PB_ERR_SIZE, "b of 16 against 64: %s", pb_last_error());

    /* out freed, then re-allocated with another size in the same struct */
    pb_pose_free(&out);
    CHECK(blend(&a, &b, &out, 0.5f) == PB_ERR_EMPTY, "out freed: %s", pb_last_error());
    CHECK(pb_pose_alloc(&out, 16) == PB_OK, "re-alloc out");
    CHECK(blend(&a, &b, &out, 0.5f) == PB_ERR_SIZE, "out re-made with 16 elements: %s", pb_last_error());
    pb_pose_free(&out);
    CHECK(pb_pose_alloc(&out, 64) == PB_OK, "re-alloc out 64");
    CHECK(blend(&a, &b, &out, 0.5f) == PB_OK, "a re-made pose of the right size is validated and runs");

    /* padding changed under unchanged structs (n = 63: one padding lane) */
    pb_pose a3, b3, o3;
    CHECK(pb_pose_alloc(&a3, 63) == PB_OK && pb_pose_alloc(&b3, 63) == PB_OK && pb_pose_alloc(&o3, 63) == PB_OK,
          "alloc 63");
    CHECK(blend(&a3, &b3, &o3, 0.5f) == PB_OK, "63: a good call");
    a3.plane[PB_ROT_W][63] = 7;
    CHECK(blend(&a3, &b3, &o3, 0.5f) == PB_ERR_PADDING, "padding broken after a good call: %s", pb_last_error());
    a3.plane[PB_ROT_W][63] = 1;
    CHECK(blend(&a3, &b3, &o3, 0.5f) == PB_OK, "padding restored");

    /* a struct re-described by hand (gen 0): another plane pointer, misaligned */
    pb_pose hand = a;
    hand.gen = 0;
    CHECK(blend(&hand, &b, &out, 0.5f) == PB_OK, "hand-described copy of a");
    hand.plane[PB_POS_Y] = a.plane[PB_POS_Y] + 1;
    CHECK(blend(&hand, &b, &out, 0.5f) == PB_ERR_ALIGN, "re-described plane: %s", pb_last_error());

    /* a skeleton re-made with another joint count */
    pb_skeleton sk;
    int32_t parents[64];
    for (int j = 0; j < 64; j++) parents[j] = j - 1;
    CHECK(pb_skeleton_init(&sk, parents, 64, 1) == PB_OK, "skeleton");
    CHECK(pb_fk(&sk, &a, &out) == PB_OK, "fk: a good call");
    pb_skeleton_free(&sk);
    CHECK(pb_skeleton_init(&sk, parents, 63, 1) == PB_OK, "skeleton of 63");
    CHECK(pb_fk(&sk, &a, &out) == PB_ERR_SIZE, "fk with the skeleton re-made at 63 joints: %s", pb_last_error());
    pb_skeleton_free(&sk);

    /* in place, then out overlapping a (another call shape under the same op) */
    CHECK(blend(&a, &b, &a, 0.5f) == PB_OK, "in place");
    pb_pose shifted = out;
    shifted.gen = 0;
    for (int i = 0; i < PB_PLANES; i++) shifted.plane[i] = a.plane[i] + 16;
    shifted.n = shifted.stride = 48;
    pb_pose a48 = a;
    a48.gen = 0;
    a48.n = a48.stride = 48;
    pb_pose b48 = a48;
    CHECK(blend(&a48, &b48, &shifted, 0.5f) == PB_ERR_ALIAS, "out overlapping a: %s", pb_last_error());

    pb_pose_free(&a); pb_pose_free(&b); pb_pose_free(&out); pb_pose_free(&other);
    pb_pose_free(&a3); pb_pose_free(&b3); pb_pose_free(&o3);
    return check_done();
}
