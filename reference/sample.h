/* sample.h — the reference's clip ops: sample_linear, sample_cubic (with the
 * Hermite helpers) and unroll. */

/* ---- sampling -------------------------------------------------------------------------------
 * Character c samples the clip at params.time + offsets[c]; out element
 * joint * characters + c. Outside the clip the pose holds its end key and the
 * velocities are 0. Keys are read from the pos/rot/scl planes of k->a. */
#define CLIP_KEY(k, frame, joint) ((frame) * (k)->joints + (joint))
static REAL hermite(REAL p0, REAL m0, REAL p1, REAL m1, REAL a, REAL *d)
{
    REAL a2 = a * a, a3 = a2 * a;
    *d = (R(6) * a2 - R(6) * a) * p0 + (R(3) * a2 - R(4) * a + R(1)) * m0 + (R(6) * a - R(6) * a2) * p1 +
         (R(3) * a2 - R(2) * a) * m1;
    return (R(2) * a3 - R(3) * a2 + R(1)) * p0 + (a3 - R(2) * a2 + a) * m0 + (R(3) * a2 - R(2) * a3) * p1 + (a3 - a2) * m1;
}
static vec3 v3_hermite(vec3 x[4], REAL a, vec3 *d)
{
    /* Catmull-Rom: tangents (x1 - x-1) / 2 and (x2 - x0) / 2, per frame */
    vec3 r;
    REAL *xs[3] = { &r.x, &r.y, &r.z }, *ds[3] = { &d->x, &d->y, &d->z };
    for (int c = 0; c < 3; c++) {
        REAL v[4];
        for (int k = 0; k < 4; k++) v[k] = c == 0 ? x[k].x : c == 1 ? x[k].y : x[k].z;
        *xs[c] = hermite(v[1], (v[2] - v[0]) / R(2), v[2], (v[3] - v[1]) / R(2), a, ds[c]);
    }
    return r;
}
static void sample_impl(const KARGS *k, int cubic)
{
    size_t C = k->n / k->joints;
    for (size_t c = 0; c < C; c++) {
        size_t f0;
        float alpha;
        int inside;
        pb_frame_at(k->p.time + k->offsets[c], k->frames, k->fps, &f0, &alpha, &inside);
        size_t f1 = f0 + 1 < k->frames ? f0 + 1 : f0;
        size_t fm = f0 > 0 ? f0 - 1 : f0, f2 = f1 + 1 < k->frames ? f1 + 1 : f1;
        REAL a = alpha, fps = k->fps, live = inside ? fps : R(0);
        for (size_t j = 0; j < k->joints; j++) {
            kform key[4];
            size_t frames4[4] = { fm, f0, f1, f2 };
            for (int q = 0; q < 4; q++) key[q] = ld_k(k->a, CLIP_KEY(k, frames4[q], j));
            kform r = kf_identity();
            if (!cubic) {
                r.pos = v3_lerp(key[1].pos, key[2].pos, a);
                r.rot = q_slerp_shortest(key[1].rot, key[2].rot, a);
                int sm = k->p.scale;
                r.scl = v3(scale_blend(key[1].scl.x, key[2].scl.x, a, sm), scale_blend(key[1].scl.y, key[2].scl.y, a, sm),
                           scale_blend(key[1].scl.z, key[2].scl.z, a, sm));
                r.vel = v3_scale(v3_sub(key[2].pos, key[1].pos), live);
                r.ang = v3_scale(q_to_scaled_angle_axis(q_abs(q_mul_inv(key[2].rot, key[1].rot))), live);
                /* d log(s)/dt: eerp moves log s linearly; lerp moves s linearly */
                r.svl = sm == PB_SCALE_LINEAR ? v3_div(v3_scale(v3_sub(key[2].scl, key[1].scl), live), r.scl)
                                              : v3_scale(v3_log(v3_div(key[2].scl, key[1].scl)), live);
            } else {
                vec3 p[4], l[4], rv[4], dp, dl, dr;
                for (int q = 0; q < 4; q++) {
                    p[q] = key[q].pos;
                    l[q] = v3_log(key[q].scl);
                    /* rotations as rotation vectors relative to the interval's first key */
                    rv[q] = q_to_scaled_angle_axis(q_abs(q_mul_inv(key[q].rot, key[1].rot)));
                }
                r.pos = v3_hermite(p, a, &dp);
                vec3 ls = v3_hermite(l, a, &dl);
                vec3 th = v3_hermite(rv, a, &dr);
                r.scl = v3(exp(ls.x), exp(ls.y), exp(ls.z));
                r.rot = q_mul(q_from_scaled_angle_axis(th), key[1].rot);
                r.vel = v3_scale(dp, live);
                r.svl = v3_scale(dl, live);
                r.ang = v3_scale(jl_mul(th, dr), live);
            }
            st_k(k->out, j * C + c, r);
        }
    }
}
void REF(sample_linear)(const KARGS *k) { sample_impl(k, 0); }
void REF(sample_cubic)(const KARGS *k) { sample_impl(k, 1); }
/* The turns in b are a cache of what the formulas above compute from the keys: the reference's
 * twin is sample_linear itself, b unread. */
void REF(sample_linear_turns)(const KARGS *k) { sample_impl(k, 0); }

/* Hemisphere continuity along a clip: frame 0 as it is, then each joint's
 * rotation negated where the dot with its (already unrolled) previous frame
 * is negative, so interpolation between frames never takes the long way. */
void REF(unroll)(const KARGS *k)
{
    size_t J = k->joints;
    for (size_t f = 0; f < k->frames; f++)
        for (size_t j = 0; j < J; j++) {
            kform key = ld_k(k->a, f * J + j);
            if (f > 0 && q_dot(key.rot, ld_q((const REAL *const *)k->out, (f - 1) * J + j)) < R(0))
                key.rot = q_neg(key.rot);
            st_k(k->out, f * J + j, key);
        }
}
