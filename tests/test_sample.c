/* test_sample.c — clip sampling in every variant: at a key's time both
 * samplers return that key; before the clip and past its end they hold the
 * first / last key with zero velocity (never a negative weight); a crowd of
 * characters at their own offsets matches sampling them one by one; bad
 * offsets and mismatched sizes are refused. */
#include <math.h>
#include <string.h>
#include "check.h"
#include "validate.h"
#include "all_variants.h"

#define F 12
#define J 4
#define NCH 21

static double key_diff(const pb_pose *out, size_t C, size_t c, const pb_clip *clip, size_t frame)
{
    double m = 0;
    for (size_t j = 0; j < J; j++) {
        size_t e = j * C + c, k = frame * J + j;
        double dot = 0;
        for (int p = PB_ROT_W; p <= PB_ROT_Z; p++) dot += (double)out->plane[p][e] * clip->pose.plane[p][k];
        m = dmax(m, 1 - fabs(dot));
        for (int p = PB_POS_X; p <= PB_POS_Z; p++) m = dmax(m, fabs(out->plane[p][e] - clip->pose.plane[p][k]));
        for (int p = PB_SCL_X; p <= PB_SCL_Z; p++)
            m = dmax(m, fabs(out->plane[p][e] / clip->pose.plane[p][k] - 1));
    }
    return m;
}

int main(void)
{
    pb_clip clip;
    CHECK(pb_clip_alloc(&clip, F, J, 30.0f) == PB_OK, "clip");
    pb_pose dummy;
    pb_pose_alloc(&dummy, F * J);
    pb_gen_case(&clip.pose, &dummy, PB_CLASS_RANDOM, 3, pb_op_get(PB_OP_sample_cubic));
    pb_pose out;
    pb_pose_alloc(&out, J * NCH);
    float off[NCH];
    for (size_t vi = 0; vi < pb_all_variant_count(); vi++) {
        const pb_variant *v = pb_all_variant_at(vi);
        if (pb_variant_check(v) != PB_OK) continue;
        for (int cubic = 0; cubic < 2; cubic++) {
            pb_op op = cubic ? PB_OP_sample_cubic : PB_OP_sample_linear;
            const char *vn = pb_variant_name(v);
            /* character c at key c (clamped to the last), via offsets from a clock at 0.5 s */
            for (size_t c = 0; c < NCH; c++) off[c] = (float)(c < F ? c : F - 1) / 30.0f - 0.5f;
            pb_call call = { .out = &out, .clip = &clip, .offsets = off, .params = { .time = 0.5f } };
            CHECK(pb_run(op, v, &call) == PB_OK, "%s: %s", vn, pb_last_error());
            double worst = 0;
            for (size_t c = 0; c < NCH; c++) worst = dmax(worst, key_diff(&out, NCH, c, &clip, c < F ? c : F - 1));
            CHECK(worst < 2e-5, "%s %s: keys at their times, off by %.3g", vn, pb_op_get(op)->name, worst);
            /* before and after the clip: end keys, zero velocity */
            for (size_t c = 0; c < NCH; c++) off[c] = c % 2 ? -3.0f - (float)c : 5.0f + (float)c;
            CHECK(pb_run(op, v, &call) == PB_OK, "outside");
            double ends = 0, vel = 0;
            for (size_t c = 0; c < NCH; c++) {
                ends = dmax(ends, key_diff(&out, NCH, c, &clip, c % 2 ? 0 : F - 1));
                for (size_t j = 0; j < J; j++)
                    for (int p = PB_VEL_X; p < PB_PLANES; p++) vel = dmax(vel, fabs(out.plane[p][j * NCH + c]));
            }
            CHECK(ends < 2e-5 && vel == 0, "%s %s: outside the clip: end keys (%.3g), zero velocity (%.3g)", vn,
                  pb_op_get(op)->name, ends, vel);
            /* negative clock: allowed (a clock before the clip starts) */
            call.params.time = -10.0f;
            CHECK(pb_run(op, v, &call) == PB_OK, "negative clock");
            call.params.time = 0;
            off[3] = NAN;
            CHECK(pb_run(op, v, &call) == PB_ERR_PARAM && strstr(pb_last_error(), "offsets[3]"), "NaN offset: %s",
                  pb_last_error());
            off[3] = 0;
            call.offsets = NULL;
            CHECK(pb_run(op, v, &call) == PB_ERR_NULL, "no offsets");
        }
    }
    pb_pose odd;
    pb_pose_alloc(&odd, J * NCH + 1);
    pb_call bad = { .out = &odd, .clip = &clip, .offsets = off };
    CHECK(pb_run(PB_OP_sample_linear, NULL, &bad) == PB_ERR_SIZE && strstr(pb_last_error(), "multiple"),
          "out not joints x characters: %s", pb_last_error());
    bad.out = &out;
    bad.clip = NULL;
    CHECK(pb_run(PB_OP_sample_linear, NULL, &bad) == PB_ERR_NULL, "no clip");
    pb_clip badclip = clip;
    badclip.fps = 0;
    bad.clip = &badclip;
    CHECK(pb_run(PB_OP_sample_linear, NULL, &bad) == PB_ERR_PARAM && strstr(pb_last_error(), "fps"), "fps 0");
    pb_pose_free(&odd);
    pb_pose_free(&out);
    pb_pose_free(&dummy);
    pb_clip_free(&clip);
    return check_done();
}
