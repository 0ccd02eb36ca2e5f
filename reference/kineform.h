/* kineform.h — the reference's kineform ops: kform_mul/div/inv, the
 * point ops (mul_dir/pos/vel), finite_diff and timescale. */

/* Kineform algebra over arrays. */
void REF(kform_mul)(const KARGS *k) { FOR_EACH(k) st_k(k->out, i, kf_mul(ld_k(k->a, i), ld_k(k->b, i))); }
void REF(kform_div)(const KARGS *k) { FOR_EACH(k) st_k(k->out, i, kf_div(ld_k(k->a, i), ld_k(k->b, i))); }
void REF(kform_inv)(const KARGS *k) { FOR_EACH(k) st_k(k->out, i, kf_inv(ld_k(k->a, i))); }
void REF(kform_mul_dir)(const KARGS *k)
{
    FOR_EACH(k) st_v(k->out, PB_POS_X, i, kf_mul_dir(ld_k(k->a, i), ld_v(k->b, PB_POS_X, i)));
}
void REF(kform_mul_pos)(const KARGS *k)
{
    FOR_EACH(k) st_v(k->out, PB_POS_X, i, kf_mul_pos(ld_k(k->a, i), ld_v(k->b, PB_POS_X, i)));
}
void REF(kform_mul_vel)(const KARGS *k)
{
    FOR_EACH(k) st_v(k->out, PB_VEL_X, i, kf_mul_vel(ld_k(k->a, i), ld_v(k->b, PB_POS_X, i), ld_v(k->b, PB_VEL_X, i)));
}

/* Velocities of b by finite difference from a over dt (shorter arc for
 * rotations); dt = 0 has no defined difference and gives zero velocities. */
void REF(finite_diff)(const KARGS *k)
{
    REAL dt = k->p.dt;
    REAL inv = dt > R(0) ? R(1) / dt : R(0);
    FOR_EACH(k) {
        kform a = ld_k(k->a, i), b = ld_k(k->b, i);
        b.vel = v3_scale(v3_sub(b.pos, a.pos), inv);
        b.ang = v3_scale(q_to_scaled_angle_axis(q_abs(q_mul_inv(b.rot, a.rot))), inv);
        b.svl = v3_scale(v3_log(v3_div(b.scl, a.scl)), inv);
        st_k(k->out, i, b);
    }
}

/* Playback at another rate: the same poses, velocities scaled. */
void REF(timescale)(const KARGS *k)
{
    FOR_EACH(k) {
        REAL s = PARAM(k, timescale, i);
        kform a = ld_k(k->a, i);
        a.vel = v3_scale(a.vel, s);
        a.ang = v3_scale(a.ang, s);
        a.svl = v3_scale(a.svl, s);
        st_k(k->out, i, a);
    }
}
