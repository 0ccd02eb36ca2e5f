/* test_sample.c — clip sampling in every variant: at a key's time the
 * samplers (sample_linear, sample_cubic, sample_linear_turns with the
 * clip's turns) return that key; before the clip and past its end they hold the
 * first / last key with zero velocity (never a negative weight); a crowd of
 * characters at their own offsets matches sampling them one by one (few
 * joints, gathered; many, by blocks with every kind of last block); the
 * exponential forms' shortcuts for unchanging scales write the bits the
 * full path writes; bad offsets and mismatched sizes are refused. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "pose_check.h"
#include "validate.h"
#include "all_variants.h"

#define F 12
#define J 4
#define NCH 21

/* Key times sample the key itself, up to the key time's own rounding: the
 * offsets c / 30 - 0.5 and the clock 0.5 in float are ~3e-8 s off the key, and
 * random keys turn by up to pi per frame (~94 rad/s), so ~3e-6 rad (measured
 * 1.5e-6 rad, 1.4e-6 m in every variant). The old 1 - |dot| < 2e-5 allowed 0.7
 * degrees. */
#define KEY_ROT 1e-5
#define KEY_LIN 2e-5

/* Character c of out (C characters) against key `frame` of the clip: pos, rot, scl. */
static void key_gap(pose_gap *g, const pb_pose *out, size_t C, size_t c, const pb_clip *clip, size_t frame)
{
    for (size_t j = 0; j < J; j++) pose_gap_add(g, out, j * C + c, &clip->pose, frame * J + j, 0);
}

/* A crowd of nch characters at its own offsets equals sampling each
 * character alone at its offset: the same arithmetic per lane, so bit for
 * bit, every plane. */
static void crowd_vs_one(const pb_variant *v, pb_op op, const pb_clip *clip, const pb_pose *turns, const pb_pose *crowd,
                         const float *off, size_t nch, const char *how)
{
    size_t nj = clip->joints;
    pb_pose one;
    if (!poses_alloc(nj, 1, &one)) return;
    size_t mismatched = 0;
    for (size_t c = 0; c < nch; c++) {
        pb_call call = { .out = &one, .clip = clip, .b = turns, .offsets = &off[c], .params = { .time = 0.5f } };
        CHECK(pb_run(op, v, &call) == PB_OK, "%s one character: %s", pb_variant_name(v), pb_last_error());
        for (size_t j = 0; j < nj; j++)
            for (int p = 0; p < PB_PLANES; p++)
                mismatched += memcmp(&one.plane[p][j], &crowd->plane[p][j * nch + c], sizeof(float)) != 0;
    }
    CHECK(mismatched == 0, "%s %s: %zu values of a crowd of %zu x %zu joints (%s) differ from sampling one by one",
          pb_variant_name(v), pb_op_get(op)->name, mismatched, nch, nj, how);
    pb_pose_free(&one);
}

/* Characters of at least a vector of joints are sampled by blocks of
 * characters x joints (kernels/sample.h): full blocks transpose in
 * registers, a last block of few characters writes by element, and one
 * character alone writes its vectors directly. Crowds of 18 and 21 (tails
 * of 2 and 5 on AVX-512 and AVX2, 2 and 1 on SSE4.1) of a 40-joint clip
 * against each character alone: every path, bit for bit. Crowds of 32 and
 * 48 (multiples of 16) again with pb_stream_bytes 0: AVX-512 and AVX2 write
 * whole lines past the caches (AVX2 two blocks to a line, 40 joints: a last
 * joint block of 8 rows on AVX-512), the same bits. */
static void blocked_crowds(const pb_variant *v, pb_op op, const pb_clip *clip, const pb_pose *turns)
{
    static const size_t sizes[] = { 18, 21, 32, 48 };
    float off[48];
    size_t dflt = pb_stream_bytes();
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
        for (int streamed = 0; streamed < 1 + (sizes[si] % 16 == 0); streamed++) {
            size_t nch = sizes[si];
            pb_pose crowd;
            if (!poses_alloc(clip->joints * nch, 1, &crowd)) return;
            for (size_t c = 0; c < nch; c++) off[c] = (float)((c * 7919) % 101) / 100.0f * 0.6f - 0.55f;
            pb_call call = { .out = &crowd, .clip = clip, .b = turns, .offsets = off, .params = { .time = 0.5f } };
            pb_stream_bytes_set(streamed ? 0 : SIZE_MAX);
            CHECK(pb_run(op, v, &call) == PB_OK, "%s blocked crowd: %s", pb_variant_name(v), pb_last_error());
            pb_stream_bytes_set(dflt);
            crowd_vs_one(v, op, clip, turns, &crowd, off, nch, streamed ? "streamed" : "plain stores");
            pb_pose_free(&crowd);
        }
}

/* Scales that do not change skip the log and exp where a whole vector has
 * them (kernels/transition.h: vv3_same_scale in sample_linear, any scale the
 * same in both keys; vv3_log_scl and vv3_mul_exp in sample_cubic, unit
 * scales; the other ops' shortcuts: test_scale_shortcut). Joint 0's scale is
 * then made to change, so the vectors holding it take the full path: every
 * other joint, shortcut or full path, must keep its bits. JS joints fill
 * whole vectors in every variant (lanes = joints when sampling). */
#define JS 40
static void same_scale_bits(const pb_variant *v, pb_op op)
{
    const char *vn = pb_variant_name(v), *on = pb_op_get(op)->name;
    pb_clip c;
    pb_pose dummy, o1, o2;
    CHECK(pb_clip_alloc(&c, F, JS, 30.0f) == PB_OK, "clip");
    if (!poses_alloc(F * JS, 1, &dummy) || !poses_alloc(JS * NCH, 2, &o1, &o2)) return;
    pb_gen_case(&c.pose, &dummy, PB_CLASS_RANDOM, 5, pb_op_get(op));
    for (size_t e = 0; e < F * JS; e++)   /* joint j's scale the same in every frame */
        for (int p = PB_SCL_X; p <= PB_SCL_Z; p++)
            c.pose.plane[p][e] = op == PB_OP_sample_cubic ? 1.0f : 0.5f + (float)(e % JS + p) / JS;
    float off[NCH];
    for (size_t ch = 0; ch < NCH; ch++) off[ch] = (float)((ch * 7919) % 101) / 100.0f * 0.4f - 0.05f;
    pb_call call = { .out = &o1, .clip = &c, .offsets = off, .params = { .time = 0.1f } };
    CHECK(pb_run(op, v, &call) == PB_OK, "%s %s: %s", vn, on, pb_last_error());
    for (size_t f = 0; f < F; f += 2) c.pose.plane[PB_SCL_Y][f * JS] *= 1.25f;   /* joint 0 changes scale */
    call.out = &o2;
    CHECK(pb_run(op, v, &call) == PB_OK, "%s %s: %s", vn, on, pb_last_error());
    size_t d = 0, moved = 0;   /* joint 0: elements 0 .. NCH - 1 (crowd layout), apart */
    for (size_t e = 0; e < JS * NCH; e++)
        for (int p = 0; p < PB_PLANES; p++) {
            int ne = memcmp(&o1.plane[p][e], &o2.plane[p][e], sizeof(float)) != 0;
            if (e < NCH) moved += ne;
            else d += ne;
        }
    CHECK(d == 0 && moved > 0, "%s %s: %zu values of joints with unchanged scales moved when joint 0's scale changed "
          "(%zu of joint 0's)", vn, on, d, moved);
    pb_pose_free(&o1), pb_pose_free(&o2), pb_pose_free(&dummy);
    pb_clip_free(&c);
}

int main(void)
{
    pb_clip clip;
    pb_status clip_st = pb_clip_alloc(&clip, F, J, 30.0f);
    CHECK(clip_st == PB_OK, "clip");
    if (clip_st != PB_OK) return check_done();   /* nothing to fill */
    pb_pose dummy, out;
    pb_clip wide;   /* JS joints: sampled by blocks in every variant */
    pb_status wide_st = pb_clip_alloc(&wide, F, JS, 30.0f);
    CHECK(wide_st == PB_OK, "wide clip");
    if (wide_st != PB_OK) return check_done();   /* nothing to fill */
    pb_pose dummy_w;
    if (!poses_alloc(F * J, 1, &dummy) || !poses_alloc(J * NCH, 1, &out) || !poses_alloc(F * JS, 1, &dummy_w))
        return check_done();
    pb_gen_case(&clip.pose, &dummy, PB_CLASS_RANDOM, 3, pb_op_get(PB_OP_sample_cubic));
    pb_gen_case(&wide.pose, &dummy_w, PB_CLASS_RANDOM, 4, pb_op_get(PB_OP_sample_cubic));
    /* The wide clip with every joint but the root holding its offset and
     * scale, as a real clip's bones do: blocks without the root have rows of
     * zero velocity and scale rate, which the blocked path writes as zeros
     * without transposing them (kernels/sample.h); the crowds above check
     * their bits too. */
    pb_clip still;
    pb_status still_st = pb_clip_alloc(&still, F, JS, 30.0f);
    CHECK(still_st == PB_OK, "still clip");
    if (still_st != PB_OK) return check_done();   /* nothing to fill */
    for (int p = 0; p < 10; p++)
        for (size_t e = 0; e < F * JS; e++) {
            int held = (p < PB_ROT_W || p >= PB_SCL_X) && e % JS != 0;
            still.pose.plane[p][e] = wide.pose.plane[p][held ? e % JS : e];
        }
    /* sample_linear_turns reads each clip's turns (pb_clip_turns) */
    pb_pose turns[3];
    const pb_clip *of[3] = { &clip, &wide, &still };
    for (int k = 0; k < 3; k++) {
        CHECK(pb_pose_alloc(&turns[k], of[k]->pose.n) == PB_OK && pb_clip_turns(of[k], &turns[k]) == PB_OK,
              "turns of clip %d: %s", k, pb_last_error());
    }
    float off[NCH];
    for (size_t vi = 0; vi < pb_all_variant_count(); vi++) {
        const pb_variant *v = pb_all_variant_at(vi);
        if (pb_variant_check(v) != PB_OK) continue;
        same_scale_bits(v, PB_OP_sample_linear);
        same_scale_bits(v, PB_OP_sample_cubic);
        for (int which = 0; which < 3; which++) {
            static const pb_op ops[3] = { PB_OP_sample_linear, PB_OP_sample_cubic, PB_OP_sample_linear_turns };
            pb_op op = ops[which];
            int tn = op == PB_OP_sample_linear_turns;
            const char *vn = pb_variant_name(v);
            /* character c at key c (clamped to the last), via offsets from a clock at 0.5 s */
            for (size_t c = 0; c < NCH; c++) off[c] = (float)(c < F ? c : F - 1) / 30.0f - 0.5f;
            pb_call call = { .out = &out, .clip = &clip, .b = tn ? &turns[0] : NULL, .offsets = off,
                             .params = { .time = 0.5f } };
            CHECK(pb_run(op, v, &call) == PB_OK, "%s: %s", vn, pb_last_error());
            pose_gap keys = { 0, 0, 0 };
            for (size_t c = 0; c < NCH; c++) key_gap(&keys, &out, NCH, c, &clip, c < F ? c : F - 1);
            CHECK(pose_gap_within(keys, KEY_ROT, KEY_LIN, KEY_LIN), "%s %s: keys at their times, off by " POSE_GAP_FMT,
                  vn, pb_op_get(op)->name, POSE_GAP_ARGS(keys));
            if (getenv("PB_TEST_VERBOSE")) printf("%s %s keys " POSE_GAP_FMT "\n", vn, pb_op_get(op)->name, POSE_GAP_ARGS(keys));
            /* random offsets inside and around the clip: crowd = one by one */
            for (size_t c = 0; c < NCH; c++) off[c] = (float)((c * 7919) % 101) / 100.0f * 0.6f - 0.55f;
            CHECK(pb_run(op, v, &call) == PB_OK, "%s crowd: %s", vn, pb_last_error());
            crowd_vs_one(v, op, &clip, tn ? &turns[0] : NULL, &out, off, NCH, "few joints");
            blocked_crowds(v, op, &wide, tn ? &turns[1] : NULL);
            blocked_crowds(v, op, &still, tn ? &turns[2] : NULL);
            /* before and after the clip: end keys, zero velocity */
            for (size_t c = 0; c < NCH; c++) off[c] = c % 2 ? -3.0f - (float)c : 5.0f + (float)c;
            CHECK(pb_run(op, v, &call) == PB_OK, "outside");
            pose_gap ends = { 0, 0, 0 };
            double vel = 0;
            for (size_t c = 0; c < NCH; c++) {
                key_gap(&ends, &out, NCH, c, &clip, c % 2 ? 0 : F - 1);
                for (size_t j = 0; j < J; j++)
                    for (int p = PB_VEL_X; p < PB_PLANES; p++) vel = dmax(vel, fabs(out.plane[p][j * NCH + c]));
            }
            CHECK(pose_gap_within(ends, KEY_ROT, KEY_LIN, KEY_LIN) && vel == 0,
                  "%s %s: outside the clip: end keys (" POSE_GAP_FMT "), zero velocity (%.3g)", vn, pb_op_get(op)->name,
                  POSE_GAP_ARGS(ends), vel);
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
    if (!poses_alloc(J * NCH + 1, 1, &odd)) return check_done();
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
    for (int k = 0; k < 3; k++) pb_pose_free(&turns[k]);
    pb_pose_free(&out);
    pb_pose_free(&dummy);
    pb_pose_free(&dummy_w);
    pb_clip_free(&clip);
    pb_clip_free(&still);
    pb_clip_free(&wide);
    return check_done();
}
