/* test_pose.c — pose layout invariants and the AoS conversions: exact round
 * trips in every variant at every tail length (1..40 covers every remainder
 * for 4, 8 and 16 lanes), padding kept at identity, in-place ops. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "posebench/posebench.h"
#include "all_variants.h"

static void fill(pb_pose *p, unsigned seed)
{
    for (int i = 0; i < PB_PLANES; i++)
        for (size_t j = 0; j < p->n; j++) {
            seed = seed * 1664525u + 1013904223u;
            p->plane[i][j] = (float)(seed >> 8) / 16777216.0f - 0.5f + (float)i;
        }
}

static int padding_identity(const pb_pose *p)
{
    for (int i = 0; i < PB_PLANES; i++)
        for (size_t j = p->n; j < p->stride; j++)
            if (p->plane[i][j] != pb_plane_identity(i)) return 0;
    return 1;
}

int main(void)
{
    /* layout */
    for (size_t n = 1; n <= 40; n++) {
        pb_pose p;
        CHECK(pb_pose_alloc(&p, n) == PB_OK, "alloc %zu", n);
        CHECK(p.stride % PB_PAD == 0 && p.stride >= n && p.stride < n + PB_PAD, "stride %zu for n %zu", p.stride, n);
        for (int i = 0; i < PB_PLANES; i++) CHECK((uintptr_t)p.plane[i] % PB_ALIGN == 0, "plane %d aligned", i);
        CHECK(pb_pose_check(&p, "p") == PB_OK, "fresh pose valid");
        pb_pose_free(&p);
        CHECK(p.owned == NULL && p.n == 0, "free empties");
    }
    CHECK(pb_crowd_index(3, 5, 100) == 305, "crowd index is joint-major");
    CHECK(pb_group_first(PB_G_ROT) == PB_ROT_W && pb_group_size(PB_G_ROT) == 4, "rot group");

    /* copy and fill */
    pb_pose a, b;
    pb_pose_alloc(&a, 21);
    pb_pose_alloc(&b, 21);
    fill(&a, 7);
    CHECK(pb_pose_copy(&b, &a) == PB_OK, "copy");
    int same = 1;
    for (int i = 0; i < PB_PLANES; i++) same &= memcmp(a.plane[i], b.plane[i], 21 * sizeof(float)) == 0;
    CHECK(same && padding_identity(&b), "copy is exact and keeps padding");
    CHECK(pb_pose_fill_identity(&b) == PB_OK && padding_identity(&b), "fill identity");
    CHECK(b.plane[PB_ROT_W][3] == 1.0f && b.plane[PB_SCL_Z][20] == 1.0f && b.plane[PB_POS_X][0] == 0.0f, "identity values");
    pb_pose_free(&a);
    pb_pose_free(&b);

    /* AoS round trip: every runnable variant, every tail */
    for (size_t vi = 0; vi < pb_all_variant_count(); vi++) {
        const pb_variant *v = pb_all_variant_at(vi);
        if (pb_variant_check(v) != PB_OK) continue;
        int ok = 1;
        for (size_t n = 1; n <= 40 && ok; n++) {
            pb_pose src, dst;
            pb_pose_alloc(&src, n);
            pb_pose_alloc(&dst, n);
            fill(&src, (unsigned)n);
            /* one spare element after each array: must not be written */
            pb_vec3 *v3 = malloc((5 * n + 5) * sizeof *v3);
            pb_quat *q = malloc((n + 1) * sizeof *q);
            for (size_t j = 0; j < 5 * n + 5; j++) v3[j] = (pb_vec3){ -7, -7, -7 };
            for (size_t j = 0; j < n + 1; j++) q[j] = (pb_quat){ -7, -7, -7, -7 };
            pb_pose_aos aos = { n, v3, q, v3 + (n + 1), v3 + 2 * (n + 1), v3 + 3 * (n + 1), v3 + 4 * (n + 1) };
            pb_call to = { .a = &src, .aos_out = &aos }, from = { .aos_in = &aos, .out = &dst };
            ok &= pb_run(PB_OP_pose_to_aos, v, &to) == PB_OK;
            ok &= aos.pos[n - 1].z == src.plane[PB_POS_Z][n - 1] && aos.rot[0].w == src.plane[PB_ROT_W][0] &&
                  aos.svl[n - 1].x == src.plane[PB_SVL_X][n - 1];
            ok &= q[n].w == -7 && v3[n].x == -7 && v3[5 * n + 4].z == -7;   /* nothing past n written */
            ok &= pb_run(PB_OP_pose_from_aos, v, &from) == PB_OK;
            for (int i = 0; i < PB_PLANES; i++) ok &= memcmp(src.plane[i], dst.plane[i], n * sizeof(float)) == 0;
            ok &= padding_identity(&dst);
            CHECK(ok, "%s: AoS round trip at n = %zu", pb_variant_name(v), n);
            free(v3);
            free(q);
            pb_pose_free(&src);
            pb_pose_free(&dst);
        }
    }

    /* in place: out == a gives the same result as a separate out, padding stays identity */
    for (size_t vi = 0; vi < pb_all_variant_count(); vi++) {
        const pb_variant *v = pb_all_variant_at(vi);
        if (pb_variant_check(v) != PB_OK) continue;
        pb_pose x, y, o;
        pb_pose_alloc(&x, 19); pb_pose_alloc(&y, 19); pb_pose_alloc(&o, 19);
        for (size_t j = 0; j < 19; j++) {
            x.plane[PB_POS_X][j] = (float)j;
            y.plane[PB_ROT_W][j] = cosf(0.1f * (float)j);
            y.plane[PB_ROT_Y][j] = sinf(0.1f * (float)j);
            y.plane[PB_SCL_X][j] = 2.0f;
        }
        pb_call c1 = { .a = &x, .b = &y, .out = &o, .params = { .alpha = 0.3f } };
        pb_call c2 = { .a = &x, .b = &y, .out = &x, .params = { .alpha = 0.3f } };
        CHECK(pb_run(PB_OP_blend_static, v, &c1) == PB_OK, "blend");
        CHECK(pb_run(PB_OP_blend_static, v, &c2) == PB_OK, "blend in place");
        int eq = 1;
        for (int i = 0; i < PB_PLANES; i++) eq &= memcmp(x.plane[i], o.plane[i], 19 * sizeof(float)) == 0;
        CHECK(eq && padding_identity(&x) && padding_identity(&o), "%s: in place equals out of place", pb_variant_name(v));
        pb_pose_free(&x); pb_pose_free(&y); pb_pose_free(&o);
    }
    return check_done();
}
