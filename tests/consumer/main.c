/* main.c — the install test's consumer: links the installed runtime only,
 * blends two static poses through a plan (validated once, run per frame) and
 * checks every status and the result (a unit quaternion on the arc between the inputs). Exit 0 on
 * success, 1 with a message otherwise. */
#include <math.h>
#include <stdio.h>
#include <posebench/posebench.h>

#define N 5   /* a few joints: kernels run whole vectors over the identity padding */

static int failed(const char *what, pb_status s)
{
    fprintf(stderr, "consumer: %s: %s: %s\n", what, pb_status_name(s), pb_last_error());
    return 1;
}

/* Angle in radians between unit quaternions (sign-agnostic). */
static double angle(const double p[4], const double q[4])
{
    double d = fabs(p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3]);
    return 2.0 * acos(d > 1.0 ? 1.0 : d);
}

int main(void)
{
    pb_pose a = { 0 }, b = { 0 }, out = { 0 };
    pb_status s;
    int rc = 0;
    if ((s = pb_pose_alloc_static(&a, N)) != PB_OK) return failed("pb_pose_alloc_static a", s);
    if ((s = pb_pose_alloc_static(&b, N)) != PB_OK) return failed("pb_pose_alloc_static b", s);
    if ((s = pb_pose_alloc_static(&out, N)) != PB_OK) return failed("pb_pose_alloc_static out", s);
    /* a: identity; b: joint i turned 0.4 + 0.5 i rad about z, moved along x. */
    for (int i = 0; i < N; i++) {
        float h = 0.5f * (0.4f + 0.5f * (float)i);
        b.plane[PB_ROT_W][i] = cosf(h);
        b.plane[PB_ROT_Z][i] = sinf(h);
        b.plane[PB_POS_X][i] = 1.0f;
    }
    const float alpha = 0.25f;
    /* set-up once: every argument checked here */
    pb_call call = { .a = &a, .b = &b, .out = &out, .params = { .alpha = 0.9f } };
    pb_plan *plan = NULL;
    if ((s = pb_plan_create(&plan, PB_OP_blend_static, NULL, &call)) != PB_OK) return failed("pb_plan_create", s);
    /* per frame: new parameters (checked), then the kernel alone */
    pb_params p = { .alpha = alpha };
    if ((s = pb_plan_set_params(plan, &p)) != PB_OK) return failed("pb_plan_set_params", s);
    if ((s = pb_plan_run(plan)) != PB_OK) return failed("pb_plan_run", s);
    pb_plan_destroy(plan);

    for (int i = 0; i < N && !rc; i++) {
        double qa[4], qb[4], qo[4];
        for (int c = 0; c < 4; c++) {
            qa[c] = a.plane[PB_ROT_W + c][i];
            qb[c] = b.plane[PB_ROT_W + c][i];
            qo[c] = out.plane[PB_ROT_W + c][i];
        }
        double norm = sqrt(qo[0] * qo[0] + qo[1] * qo[1] + qo[2] * qo[2] + qo[3] * qo[3]);
        double ab = angle(qa, qb), ao = angle(qa, qo), ob = angle(qo, qb);
        if (!(fabs(norm - 1.0) < 1e-5)) {
            fprintf(stderr, "consumer: joint %d: |q| = %.9f, not a unit quaternion\n", i, norm);
            rc = 1;
        } else if (!(fabs(ao + ob - ab) < 1e-4 && fabs(ao - alpha * ab) < 1e-4)) {
            fprintf(stderr, "consumer: joint %d: not %.2f of the way from a to b (%.6f + %.6f vs %.6f rad)\n", i,
                    (double)alpha, ao, ob, ab);
            rc = 1;
        } else if (!(fabsf(out.plane[PB_POS_X][i] - alpha) < 1e-6f)) {
            fprintf(stderr, "consumer: joint %d: pos.x %.9f, want %.2f\n", i, (double)out.plane[PB_POS_X][i],
                    (double)alpha);
            rc = 1;
        }
    }

    const pb_variant *v = NULL;
    if (!rc && (s = pb_variant_active(&v)) != PB_OK) rc = failed("pb_variant_active", s);
    if (!rc)
        printf("consumer: posebench %s (headers %s), variant %s: blend_static of %d joints ok\n", pb_version(),
               PB_VERSION_STRING, pb_variant_name(v), N);
    pb_pose_free(&a);
    pb_pose_free(&b);
    pb_pose_free(&out);
    return rc;
}
