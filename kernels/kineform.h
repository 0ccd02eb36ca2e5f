/* kineform.h — the kineform ops' kernels: kform_mul/div/inv, the point ops
 * (mul_dir/pos/vel), finite_diff and timescale. */

/* Kineform algebra. */
static void k_kform_mul(const pb_kargs *k)
{
    FOR_VECTORS(k) vkf_mul_planes(k->a, i, k->b, i, k->out, i);
}
static void k_kform_div(const pb_kargs *k)
{
    FOR_VECTORS(k) {
        vkf a = vkf_load(k->a, i), b = vkf_load(k->b, i), r = vkf_div(&a, &b);
        vkf_store(k->out, i, &r);
    }
}
static void k_kform_inv(const pb_kargs *k)
{
    vkf id = vkf_identity();
    FOR_VECTORS(k) {
        vkf a = vkf_load(k->a, i), r = vkf_div(&a, &id);
        vkf_store(k->out, i, &r);
    }
}
static void k_kform_mul_dir(const pb_kargs *k)
{
    FOR_VECTORS(k) {
        vkf a = vkf_load_transform(k->a, i);
        vv3_store(k->out, PB_POS_X, i, vkf_mul_dir(&a, vv3_load(k->b, PB_POS_X, i)));
    }
}
static void k_kform_mul_pos(const pb_kargs *k)
{
    FOR_VECTORS(k) {
        vkf a = vkf_load_transform(k->a, i);
        vv3_store(k->out, PB_POS_X, i, vkf_mul_pos(&a, vv3_load(k->b, PB_POS_X, i)));
    }
}
static void k_kform_mul_vel(const pb_kargs *k)
{
    FOR_VECTORS(k) {
        vkf a = vkf_load(k->a, i);
        vv3_store(k->out, PB_VEL_X, i, vkf_mul_vel(&a, vv3_load(k->b, PB_POS_X, i), vv3_load(k->b, PB_VEL_X, i)));
    }
}
static void k_finite_diff(const pb_kargs *k)
{
    pb_vf inv = vset1(k->p.dt > 0.0f ? 1.0f / k->p.dt : 0.0f);
    FOR_VECTORS(k) {
        vkf a = vkf_load_transform(k->a, i), b = vkf_load_transform(k->b, i);
        b.vel = vv3_scale(vv3_sub(b.pos, a.pos), inv);
        vq d = vq_abs(vq_mul(b.rot, vq_inv(a.rot)));
        b.ang = vv3_scale(vq_log(d), vmul(vset1(2.0f), inv));
        b.svl = vv3_scale(vv3_log(vv3_div(b.scl, a.scl)), inv);
        vkf_store(k->out, i, &b);
    }
}
static void k_timescale(const pb_kargs *k)
{
    FOR_VECTORS(k) {
        pb_vf s = vparam(k, k->per.timescale, k->p.timescale, 0, i);
        vkf a = vkf_load(k->a, i);
        a.vel = vv3_scale(a.vel, s);
        a.ang = vv3_scale(a.ang, s);
        a.svl = vv3_scale(a.svl, s);
        vkf_store(k->out, i, &a);
    }
}
