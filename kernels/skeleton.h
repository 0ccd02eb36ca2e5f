/* skeleton.h — the skeleton op family's kernels (fk_static, fk, bk), written
 * once over the pb_vf vocabulary like every op body; included by
 * kernel_body.h, which instantiates it per ISA (see there). */

/* Forward / backward kinematics over a skeleton (see posebench/skeleton.h).
 * Crowd path (characters >= PB_LANES): joint by joint, the characters of a
 * joint are contiguous and so are their parents': plain loads, no gathers;
 * the last partial vector of a joint goes through a buffer. Level path (one
 * large skeleton, small groups): level by level in depth order, gathering
 * each vector's elements and their parents (computed in an earlier level) and
 * scattering the results. np = 10 (static transforms) or 19 (velocities). */
/* End of level l for this lane count: its real elements rounded up to whole vectors. */
static inline size_t level_end(const pb_skeleton *s, size_t l)
{
    return s->level_start[l] + (s->level_len[l] + PB_LANES - 1) / PB_LANES * PB_LANES;
}
static inline vkf compose(const vkf *parent, const vkf *local, int np)
{
    return np == PB_PLANES ? vkf_mul(parent, local) : vkf_mul_static(parent, local);
}
static inline void fk_body(const pb_kargs *k, int np)
{
    const pb_skeleton *s = k->skel;
    size_t C = s->characters;
    const float *const *out = (const float *const *)k->out;
    if (C >= PB_LANES) {
        for (size_t j = 0; j < s->joints; j++) {
            int32_t p = s->parents[j];
            for (size_t c = 0; c < C; c += PB_LANES) {
                size_t cnt = C - c < PB_LANES ? C - c : PB_LANES;
                vkf g = vkf_load_n(k->a, j * C + c, cnt, np);
                if (p >= 0) {
                    vkf parent = vkf_load_n(out, (size_t)p * C + c, cnt, np);
                    g = compose(&parent, &g, np);
                }
                vkf_store_n(k->out, j * C + c, cnt, np, &g);
            }
        }
        return;
    }
    for (size_t l = 0; l < s->levels; l++)
        for (size_t i = s->level_start[l]; i < level_end(s, l); i += PB_LANES) {
            vkf local = vkf_gather(k->a, s->order + i, np);
            vkf parent = vkf_gather(out, s->parent_of + i, np);   /* roots name themselves: discarded below */
            vkf g = compose(&parent, &local, np);
            pb_vm root = vi_eq(vi_load(s->order + i), vi_load(s->parent_of + i));
            g = vkf_sel(root, &local, &g);
            vkf_scatter(k->out, s->order + i, np, &g);
        }
}
static void k_fk(const pb_kargs *k) { fk_body(k, PB_PLANES); }
static void k_fk_static(const pb_kargs *k) { fk_body(k, 10); }

/* bk needs no schedule (each local reads globals only) but runs children
 * before parents so that out may be the input pose. */
static void k_bk(const pb_kargs *k)
{
    const pb_skeleton *s = k->skel;
    size_t C = s->characters;
    if (C >= PB_LANES) {
        for (size_t j = s->joints; j-- > 0;) {
            int32_t p = s->parents[j];
            for (size_t c = 0; c < C; c += PB_LANES) {
                size_t cnt = C - c < PB_LANES ? C - c : PB_LANES;
                vkf g = vkf_load_n(k->a, j * C + c, cnt, PB_PLANES);
                if (p >= 0) {
                    vkf parent = vkf_load_n(k->a, (size_t)p * C + c, cnt, PB_PLANES);
                    g = vkf_div(&parent, &g);
                }
                vkf_store_n(k->out, j * C + c, cnt, PB_PLANES, &g);
            }
        }
        return;
    }
    for (size_t l = s->levels; l-- > 0;)
        for (size_t i = s->level_start[l]; i < level_end(s, l); i += PB_LANES) {
            vkf g = vkf_gather(k->a, s->order + i, PB_PLANES);
            vkf parent = vkf_gather(k->a, s->parent_of + i, PB_PLANES);
            vkf local = vkf_div(&parent, &g);
            pb_vm root = vi_eq(vi_load(s->order + i), vi_load(s->parent_of + i));
            local = vkf_sel(root, &g, &local);
            vkf_scatter(k->out, s->order + i, PB_PLANES, &local);
        }
}
