/* params.h — an op parameter as a vector: the uniform value (pb_params), or
 * per character (pb_param_arrays, crowd layout e = joint x C + character)
 * times the per-joint mask for weights. Included by kernel_body.h before the
 * op families; the reference twin is param_at() in reference/common.h. */

/* Lanes i .. i + PB_LANES - 1. Padding lanes (e >= n) of a per-element
 * parameter take 0: padding is identity, which every op keeps at any value. */
PB_VINLINE pb_vf vparam(const pb_kargs *k, const float *arr, float uniform, int masked, size_t i)
{
    const float *mask = masked ? k->per.mask : NULL;
    if (!arr && !mask) return vset1(uniform);
    size_t C = k->per.characters, j = i / C, c = i - j * C;
    if (c + PB_LANES <= C && i + PB_LANES <= k->n) {   /* one joint's contiguous characters */
        pb_vf v = arr ? vloadu(arr + c) : vset1(uniform);
        return mask ? vmul(v, vset1(mask[j])) : v;
    }
    float tmp[PB_LANES];
    for (size_t l = 0; l < PB_LANES; l++) {
        float w = 0.0f;
        if (i + l < k->n) {
            w = arr ? arr[c] : uniform;
            if (mask) w *= mask[j];
        }
        tmp[l] = w;
        if (++c == C) c = 0, j++;
    }
    return vloadu(tmp);
}
/* Per joint, `width` (<= 4) floats per joint at arr: component c of lanes i .. i +
 * PB_LANES - 1 into out[c]; padding lanes take pad[c]. */
PB_VINLINE void vparam_joint(const pb_kargs *k, const float *arr, int width, const float *pad, size_t i, pb_vf *out)
{
    size_t C = k->per.characters, j = i / C, c = i - j * C, w = (size_t)width;
    if (c + PB_LANES <= C && i + PB_LANES <= k->n) {   /* every lane the same joint */
        for (size_t a = 0; a < w; a++) out[a] = vset1(arr[w * j + a]);
        return;
    }
    float tmp[4][PB_LANES];
    for (size_t l = 0; l < PB_LANES; l++) {
        for (size_t a = 0; a < w; a++) tmp[a][l] = i + l < k->n ? arr[w * j + a] : pad[a];
        if (++c == C) c = 0, j++;
    }
    for (size_t a = 0; a < w; a++) out[a] = vloadu(tmp[a]);
}
/* Per joint per axis (per.halflife_axis: 3 floats per joint) as x, y, z vectors; padding 0. */
PB_VINLINE vv3 vparam_axes(const pb_kargs *k, const float *arr, size_t i)
{
    static const float zero[3] = { 0, 0, 0 };
    pb_vf v[3];
    vparam_joint(k, arr, 3, zero, i, v);
    return vv3_make(v[0], v[1], v[2]);
}
/* The weight (alpha, masked) and its rate (alpha_vel, masked). */
#define VALPHA(k, i) vparam((k), (k)->per.alpha, (k)->p.alpha, 1, (i))
#define VALPHA_VEL(k, i) vparam((k), (k)->per.alpha_vel, (k)->p.alpha_vel, 1, (i))
/* 1 when an op's parameters are all uniform: kernels specialize on it. */
static inline int uniform_params(const pb_kargs *k)
{
    const pb_param_arrays *p = &k->per;
    return !p->alpha && !p->alpha_vel && !p->time && !p->duration && !p->halflife && !p->timescale && !p->mask &&
           !p->halflife_axis && !p->halflives && !p->limits && !p->cone && !p->joint_cone;
}
