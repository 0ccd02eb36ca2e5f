/* test_args.c — every bad argument returns its error code and a message that
 * names the problem, and nothing is written. One field broken at a time. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "posebench/posebench.h"

#define N 37

static pb_pose a, b, out;

static int mentions(const char *needle) { return strstr(pb_last_error(), needle) != NULL; }

/* Run blend_static with the scalar variant and expect status s whose message contains msg. */
static void expect(pb_status got, pb_status want, const char *msg, const char *what)
{
    CHECK(got == want, "%s: got %s, want %s (%s)", what, pb_status_name(got), pb_status_name(want), pb_last_error());
    if (got != PB_OK) CHECK(mentions(msg), "%s: message '%s' lacks '%s'", what, pb_last_error(), msg);
}

static pb_status blend(const pb_pose *pa, const pb_pose *pb, pb_pose *po, float alpha)
{
    const pb_variant *v;
    pb_variant_find("scalar", &v);
    pb_call c = { .a = pa, .b = pb, .out = po, .params = { .alpha = alpha } };
    return pb_run(PB_OP_blend_static, v, &c);
}

static int out_untouched(void)
{
    for (int i = 0; i < PB_PLANES; i++)
        for (size_t j = 0; j < out.stride; j++)
            if (out.plane[i][j] != pb_plane_identity(i)) return 0;
    return 1;
}

int main(void)
{
    CHECK(pb_pose_alloc(&a, N) == PB_OK, "alloc a");
    CHECK(pb_pose_alloc(&b, N) == PB_OK, "alloc b");
    CHECK(pb_pose_alloc(&out, N) == PB_OK, "alloc out");
    for (size_t j = 0; j < N; j++) b.plane[PB_POS_X][j] = 1.0f;

    /* allocation */
    expect(pb_pose_alloc(NULL, 4), PB_ERR_NULL, "NULL", "alloc NULL");
    pb_pose z;
    expect(pb_pose_alloc(&z, 0), PB_ERR_EMPTY, "n = 0", "alloc n=0");
    CHECK(z.n == 0 && z.owned == NULL, "failed alloc leaves an empty pose");
    pb_pose_free(&z);
    expect(pb_pose_alloc(&z, SIZE_MAX / 2), PB_ERR_SIZE, "too large", "alloc huge");
    pb_pose_free(NULL);

    /* op calls: NULLs */
    expect(blend(NULL, &b, &out, 0.5f), PB_ERR_NULL, "'a'", "a NULL");
    expect(blend(&a, NULL, &out, 0.5f), PB_ERR_NULL, "'b'", "b NULL");
    expect(blend(&a, &b, NULL, 0.5f), PB_ERR_NULL, "'out'", "out NULL");
    expect(pb_run(PB_OP_blend_static, NULL, NULL), PB_ERR_NULL, "call is NULL", "call NULL");
    CHECK(out_untouched(), "out written on error");

    /* op id */
    pb_call c = { .a = &a, .b = &b, .out = &out };
    expect(pb_run((pb_op)PB_OP_COUNT, NULL, &c), PB_ERR_OP, "not a registered op", "bad op id");
    expect(pb_run((pb_op)-1, NULL, &c), PB_ERR_OP, "not a registered op", "negative op id");
    pb_op op;
    expect(pb_op_find("no_such_op", &op), PB_ERR_OP, "no_such_op", "unknown op name");

    /* n = 0, size mismatch */
    pb_pose bad = a;
    bad.n = 0;
    expect(blend(&bad, &b, &out, 0.5f), PB_ERR_EMPTY, "n = 0", "a n=0");
    pb_pose small;
    pb_pose_alloc(&small, N - 1);
    expect(blend(&a, &small, &out, 0.5f), PB_ERR_SIZE, "pose b has n = 36", "a/b size mismatch");
    expect(blend(&a, &b, &small, 0.5f), PB_ERR_SIZE, "pose out has n = 36", "out size mismatch");
    CHECK(out_untouched(), "out written on error");

    /* layout: misaligned plane, unpadded stride, stride < n, non-identity padding, NULL plane */
    bad = a;
    bad.plane[PB_ROT_Y] = a.plane[PB_ROT_Y] + 1;
    expect(blend(&bad, &b, &out, 0.5f), PB_ERR_ALIGN, "rot.y", "misaligned plane");
    bad = a;
    bad.stride = a.stride - 1;
    expect(blend(&bad, &b, &out, 0.5f), PB_ERR_PADDING, "multiple of 16", "unpadded stride");
    bad = a;
    bad.n = a.stride + 16;
    expect(blend(&bad, &b, &out, 0.5f), PB_ERR_SIZE, "smaller than n", "stride < n");
    bad = a;
    bad.plane[PB_VEL_Z] = NULL;
    expect(blend(&bad, &b, &out, 0.5f), PB_ERR_NULL, "vel.z", "NULL plane");
    a.plane[PB_SCL_X][N] = 2.0f;
    expect(blend(&a, &b, &out, 0.5f), PB_ERR_PADDING, "padding lane 37 of plane scl.x", "non-identity padding");
    a.plane[PB_SCL_X][N] = 1.0f;
    CHECK(out_untouched(), "out written on error");

    /* parameters: NaN and Inf policy */
    expect(blend(&a, &b, &out, NAN), PB_ERR_PARAM, "alpha", "alpha NaN");
    expect(blend(&a, &b, &out, INFINITY), PB_ERR_PARAM, "alpha", "alpha Inf");
    expect(blend(&a, &b, &out, 1.5f), PB_OK, "", "alpha 1.5 (extrapolation) is allowed");
    pb_pose_fill_identity(&out);

    /* aliasing: out == a is fine, partial overlap is not */
    pb_pose a2;
    pb_pose_alloc(&a2, N);
    expect(blend(&a2, &b, &a2, 0.5f), PB_OK, "", "in place");
    pb_pose_free(&a2);
    bad = a;   /* out.pos.x is a.pos.y: a kernel would read a.pos.y after writing it */
    bad.plane[PB_POS_X] = a.plane[PB_POS_Y];
    bad.plane[PB_POS_Y] = a.plane[PB_POS_X];
    expect(blend(&a, &b, &bad, 0.5f), PB_ERR_ALIAS, "overlaps input 'a'", "out planes crossed over a's");
    /* issue 62: out's own planes on one buffer (or overlapping), with or without an input there too */
    pb_pose o2;
    pb_pose_alloc(&o2, N);
    bad = o2;   /* the planes of identity 0 on pos.x's buffer, those of identity 1 on rot.w's: padding still right */
    for (int i = 0; i < PB_PLANES; i++) bad.plane[i] = o2.plane[pb_plane_identity(i) == 0 ? PB_POS_X : PB_ROT_W];
    expect(blend(&a, &b, &bad, 0.5f), PB_ERR_ALIAS, "pose 'out': plane", "out planes on one buffer");
    expect(blend(&bad, &b, &bad, 0.5f), PB_ERR_ALIAS, "pose 'out': plane", "in place on a pose of one buffer");
    bad = o2;
    bad.plane[PB_SCL_Y] = o2.plane[PB_SCL_X] + 16;   /* starts inside scl.x (stride 48) */
    expect(blend(&a, &b, &bad, 0.5f), PB_ERR_ALIAS, "plane scl.y overlaps plane scl.x", "out planes overlapping");
    {
        pb_plan *pl = NULL;
        pb_call pc = { .a = &a, .b = &b, .out = &bad, .params = { .alpha = 0.5f } };
        expect(pb_plan_create(&pl, PB_OP_blend_static, NULL, &pc), PB_ERR_ALIAS, "'out'", "plan on overlapping out");
        CHECK(pl == NULL, "no plan for an overlapping out");
        /* dead blending's via is written too; per.halflives is read while out is written */
        pb_pose hl;
        pb_pose_alloc(&hl, N);
        pb_pose via = hl;
        for (int i = 0; i < PB_PLANES; i++) via.plane[i] = hl.plane[pb_plane_identity(i) == 0 ? PB_POS_X : PB_ROT_W];
        int32_t roots[N];
        for (int j = 0; j < N; j++) roots[j] = -1;
        pb_skeleton sk;
        CHECK(pb_skeleton_init(&sk, roots, N, 1) == PB_OK, "skeleton: %s", pb_last_error());
        pb_call dc = { .a = &a, .b = &b, .out = &o2, .via = &via, .skel = &sk,
                       .params = { .alpha = 0.5f, .halflife = 0.1f, .duration = 0.3f, .time = 0.1f } };
        expect(pb_run(PB_OP_dead_blending, NULL, &dc), PB_ERR_ALIAS, "pose 'via': plane", "via planes on one buffer");
        dc.via = NULL;
        dc.per.halflives = &o2;
        expect(pb_run(PB_OP_dead_blending, NULL, &dc), PB_ERR_ALIAS, "per.halflives overlaps pose out",
               "halflives = out");
        pb_pose_free(&hl);
        pb_skeleton_free(&sk);
    }
    CHECK(out_untouched(), "out written on error");
    pb_pose_free(&o2);

    /* wrap: the same checks for caller-owned planes */
    float *mem = aligned_alloc(64, 19 * 48 * sizeof(float) + 64);
    float *planes[PB_PLANES];
    for (int i = 0; i < PB_PLANES; i++) {
        planes[i] = mem + i * 48;
        for (int j = 0; j < 48; j++) planes[i][j] = pb_plane_identity(i);
    }
    pb_pose w;
    expect(pb_pose_wrap(&w, 40, 48, planes), PB_OK, "", "wrap ok");
    expect(pb_pose_wrap(&w, 0, 48, planes), PB_ERR_EMPTY, "n = 0", "wrap n=0");
    expect(pb_pose_wrap(&w, 40, 40, planes), PB_ERR_PADDING, "multiple of 16", "wrap unpadded");
    expect(pb_pose_wrap(NULL, 40, 48, planes), PB_ERR_NULL, "NULL", "wrap NULL pose");
    expect(pb_pose_wrap(&w, 40, 48, NULL), PB_ERR_NULL, "planes", "wrap NULL planes");
    planes[3] = mem + 3 * 48 + 1;
    expect(pb_pose_wrap(&w, 40, 48, planes), PB_ERR_ALIGN, "rot.w", "wrap misaligned");
    free(mem);

    /* copy / fill / nonfinite count */
    expect(pb_pose_copy(&small, &a), PB_ERR_SIZE, "n = 36", "copy size mismatch");
    expect(pb_pose_copy(NULL, &a), PB_ERR_NULL, "dst", "copy NULL");
    expect(pb_pose_fill_identity(NULL), PB_ERR_NULL, "NULL", "fill NULL");
    size_t cnt = 0;
    a.plane[PB_POS_Y][3] = NAN;
    expect(pb_pose_count_nonfinite(&a, &cnt), PB_OK, "", "count nonfinite");
    CHECK(cnt == 1, "nonfinite count %zu", cnt);
    expect(pb_pose_count_nonfinite(&a, NULL), PB_ERR_NULL, "count", "count NULL");
    a.plane[PB_POS_Y][3] = 0;

    /* AoS conversions */
    pb_vec3 *v3 = calloc(5 * N, sizeof *v3);
    pb_quat *q = calloc(N, sizeof *q);
    pb_pose_aos aos = { N, v3, q, v3 + N, v3 + 2 * N, v3 + 3 * N, v3 + 4 * N };
    expect(pb_pose_to_aos(&a, &aos), PB_OK, "", "to_aos ok");
    expect(pb_pose_from_aos(&aos, &out), PB_OK, "", "from_aos ok");
    pb_pose_aos badaos = aos;
    badaos.rot = NULL;
    expect(pb_pose_to_aos(&a, &badaos), PB_ERR_NULL, "array rot", "to_aos NULL array");
    badaos = aos;
    badaos.n = N + 1;
    expect(pb_pose_to_aos(&a, &badaos), PB_ERR_SIZE, "aos_out has n = 38", "to_aos size mismatch");
    badaos.n = 0;
    expect(pb_pose_from_aos(&badaos, &out), PB_ERR_EMPTY, "n = 0", "from_aos n=0");
    expect(pb_pose_from_aos(NULL, &out), PB_ERR_NULL, "aos_in", "from_aos NULL");
    free(v3);
    free(q);

    /* variants */
    const pb_variant *v;
    expect(pb_variant_find("avx9000", &v), PB_ERR_VARIANT, "known: avx512", "unknown variant");
    expect(pb_variant_force("avx9000"), PB_ERR_VARIANT, "avx9000", "force unknown variant");
#if defined(__x86_64__)
    const char *foreign = "neon";
#else
    const char *foreign = "avx2";
#endif
    expect(pb_variant_force(foreign), PB_ERR_UNSUPPORTED, "not built for", "force a foreign-ISA variant");
    pb_variant_find(foreign, &v);
    expect(pb_run(PB_OP_blend_static, v, &c), PB_ERR_UNSUPPORTED, "emu", "run a foreign-ISA variant");
    expect(pb_variant_check(NULL), PB_ERR_NULL, "NULL", "check NULL variant");

    pb_pose_free(&small);
    pb_pose_free(&a);
    pb_pose_free(&b);
    pb_pose_free(&out);
    return check_done();
}
