/* run.c — pb_run: validate a call completely, then hand it to a kernel.
 * Kernels trust their arguments; everything a user can get wrong is caught
 * here, with a message naming the argument. Nothing is written on error. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "internal.h"

typedef struct { uintptr_t lo, hi; } span;

static span pose_span(const pb_pose *p)
{
    span s = { UINTPTR_MAX, 0 };
    for (int i = 0; i < PB_PLANES; i++) {
        uintptr_t a = (uintptr_t)p->plane[i], b = a + p->stride * sizeof(float);
        if (a < s.lo) s.lo = a;
        if (b > s.hi) s.hi = b;
    }
    return s;
}
static int spans_overlap(span a, span b) { return a.lo < b.hi && b.lo < a.hi; }

/* out may be exactly an input (same plane pointers, op-by-op in place), but
 * no out plane may overlap a different input plane. */
static pb_status check_alias(const pb_pose *out, const pb_pose *in, const char *name)
{
    if (!spans_overlap(pose_span(out), pose_span(in))) return PB_OK;
    for (int i = 0; i < PB_PLANES; i++) {
        uintptr_t a = (uintptr_t)out->plane[i], ae = a + out->stride * sizeof(float);
        for (int j = 0; j < PB_PLANES; j++) {
            uintptr_t b = (uintptr_t)in->plane[j], be = b + in->stride * sizeof(float);
            if (a < be && b < ae && !(i == j && a == b && out->stride == in->stride))
                return pb_fail(PB_ERR_ALIAS, "output pose overlaps input '%s' (out plane %d vs %s plane %d): "
                                             "out must be a separate pose or exactly the same pose", name, i, name, j);
        }
    }
    return PB_OK;
}

static pb_status check_aos(const pb_pose_aos *a, const char *what)
{
    if (!a) return pb_fail(PB_ERR_NULL, "%s is NULL", what);
    const void *arr[PB_AOS_ARRAYS] = { a->pos, a->rot, a->scl, a->vel, a->ang, a->svl };
    static const char *const names[PB_AOS_ARRAYS] = { "pos", "rot", "scl", "vel", "ang", "svl" };
    if (a->n == 0) return pb_fail(PB_ERR_EMPTY, "%s: n = 0 (at least one element required)", what);
    for (int i = 0; i < PB_AOS_ARRAYS; i++) {
        if (!arr[i]) return pb_fail(PB_ERR_NULL, "%s: array %s is NULL", what, names[i]);
        if ((uintptr_t)arr[i] % _Alignof(float))
            return pb_fail(PB_ERR_ALIGN, "%s: array %s is not aligned for float", what, names[i]);
    }
    return PB_OK;
}

static void aos_arrays(const pb_pose_aos *a, float *out[PB_AOS_ARRAYS])
{
    out[0] = &a->pos->x; out[1] = &a->rot->w; out[2] = &a->scl->x;
    out[3] = &a->vel->x; out[4] = &a->ang->x; out[5] = &a->svl->x;
}

static pb_status check_aos_alias(const pb_pose_aos *a, const pb_pose *p, const char *what)
{
    float *arr[PB_AOS_ARRAYS];
    aos_arrays(a, arr);
    span ps = pose_span(p);
    for (int i = 0; i < PB_AOS_ARRAYS; i++) {
        span s = { (uintptr_t)arr[i], (uintptr_t)(arr[i] + a->n * (size_t)pb_aos_width[i]) };
        if (spans_overlap(s, ps)) return pb_fail(PB_ERR_ALIAS, "%s overlaps the pose's planes", what);
    }
    return PB_OK;
}

/* Each parameter an op reads must be finite; times and durations >= 0. */
static pb_status check_params(const pb_op_info *info, const pb_params *p)
{
    static const struct { uint32_t flag; size_t off; const char *name; int nonneg; } params[] = {
        { PB_OPF_ALPHA, offsetof(pb_params, alpha), "alpha", 0 },
        { PB_OPF_ALPHA_VEL, offsetof(pb_params, alpha_vel), "alpha_vel", 0 },
        { PB_OPF_DT, offsetof(pb_params, dt), "dt", 1 },
        { PB_OPF_TIME, offsetof(pb_params, time), "time", 1 },
        { PB_OPF_HALFLIFE, offsetof(pb_params, halflife), "halflife", 1 },
        { PB_OPF_DURATION, offsetof(pb_params, duration), "duration", 1 },
        { PB_OPF_TIMESCALE, offsetof(pb_params, timescale), "timescale", 0 },
    };
    for (size_t i = 0; i < sizeof params / sizeof params[0]; i++) {
        if (!(info->flags & params[i].flag)) continue;
        float v;
        memcpy(&v, (const char *)p + params[i].off, sizeof v);
        if (!isfinite(v))
            return pb_fail(PB_ERR_PARAM, "%s: %s is %g (must be finite)", info->name, params[i].name, (double)v);
        /* sampling reads time as a clock: before the clip is defined (it holds the first key) */
        int clock = params[i].flag == PB_OPF_TIME && (info->flags & PB_OPF_SAMPLE);
        if (params[i].nonneg && !clock && v < 0)
            return pb_fail(PB_ERR_PARAM, "%s: %s is %g (must be >= 0)", info->name, params[i].name, (double)v);
    }
    return PB_OK;
}

pb_status pb_run(pb_op op, const pb_variant *v, const pb_call *c)
{
    const pb_op_info *info = pb_op_get(op);
    if (!info) return pb_fail(PB_ERR_OP, "pb_run: op id %d is not a registered op", (int)op);
    if (!c) return pb_fail(PB_ERR_NULL, "%s: call is NULL", info->name);
    pb_status s = v ? pb_variant_check(v) : pb_variant_active(&v);
    if (s != PB_OK) return s;

    size_t n = 0;
    if (info->in_a) {
        if ((s = pb_pose_check(c->a, "a")) != PB_OK) return s;
        n = c->a->n;
    }
    if (info->in_b) {
        if ((s = pb_pose_check(c->b, "b")) != PB_OK) return s;
        if (c->b->n != n)
            return pb_fail(PB_ERR_SIZE, "%s: pose b has n = %zu but a has n = %zu", info->name, c->b->n, n);
    }
    if (info->flags & (PB_OPF_SAMPLE | PB_OPF_CLIP_IN)) {
        if ((s = pb_clip_check(c->clip)) != PB_OK) return s;
        if (c->clip->pose.n > (size_t)INT32_MAX)
            return pb_fail(PB_ERR_SIZE, "%s: clip of %zu keys is too large (gathers index it with 32 bits)", info->name,
                           c->clip->pose.n);
        n = c->clip->pose.n;   /* input elements; out is checked against joints below */
    }
    if (info->flags & PB_OPF_AOS_IN) {
        if ((s = check_aos(c->aos_in, "aos_in")) != PB_OK) return s;
        n = c->aos_in->n;
    }
    if (info->flags & PB_OPF_SAMPLE) {
        if ((s = pb_pose_check(c->out, "out")) != PB_OK) return s;
        size_t J = c->clip->joints;
        if (c->out->n % J != 0)
            return pb_fail(PB_ERR_SIZE, "%s: out has n = %zu, not a multiple of the clip's %zu joints", info->name,
                           c->out->n, J);
        if (!c->offsets) return pb_fail(PB_ERR_NULL, "%s: call.offsets is NULL (one time offset per character)", info->name);
        for (size_t ch = 0; ch < c->out->n / J; ch++)
            if (!isfinite(c->offsets[ch]))
                return pb_fail(PB_ERR_PARAM, "%s: offsets[%zu] is %g (must be finite)", info->name, ch, (double)c->offsets[ch]);
        if (spans_overlap(pose_span(c->out), pose_span(&c->clip->pose)))
            return pb_fail(PB_ERR_ALIAS, "%s: out overlaps the clip", info->name);
        n = c->out->n;
    } else if (info->flags & PB_OPF_CLIP_IN) {
        if ((s = pb_pose_check(c->out, "out")) != PB_OK) return s;
        if (c->out->n != n)
            return pb_fail(PB_ERR_SIZE, "%s: out has n = %zu, the clip has %zu frames x %zu joints", info->name,
                           c->out->n, c->clip->frames, c->clip->joints);
        if ((s = check_alias(c->out, &c->clip->pose, "clip")) != PB_OK) return s;
    } else if (info->out) {
        if ((s = pb_pose_check(c->out, "out")) != PB_OK) return s;
        if (c->out->n != n)
            return pb_fail(PB_ERR_SIZE, "%s: pose out has n = %zu but the input has n = %zu", info->name, c->out->n, n);
        if (info->in_a && (s = check_alias(c->out, c->a, "a")) != PB_OK) return s;
        if (info->in_b && (s = check_alias(c->out, c->b, "b")) != PB_OK) return s;
        if ((info->flags & PB_OPF_AOS_IN) && (s = check_aos_alias(c->aos_in, c->out, "aos_in")) != PB_OK) return s;
    }
    if (info->flags & PB_OPF_AOS_OUT) {
        if ((s = check_aos(c->aos_out, "aos_out")) != PB_OK) return s;
        if (c->aos_out->n != n)
            return pb_fail(PB_ERR_SIZE, "%s: aos_out has n = %zu but pose a has n = %zu", info->name, c->aos_out->n, n);
        if ((s = check_aos_alias(c->aos_out, c->a, "aos_out")) != PB_OK) return s;
    }
    if ((s = check_params(info, &c->params)) != PB_OK) return s;
    if ((info->flags & PB_OPF_CHAIN) && n % 3 != 0)
        return pb_fail(PB_ERR_SIZE, "%s: n = %zu is not 3 x chains (root, mid, end per chain)", info->name, n);
    if (info->flags & PB_OPF_AXIS) {
        const float *ax = c->params.axis;
        if (!isfinite(ax[0]) || !isfinite(ax[1]) || !isfinite(ax[2]))
            return pb_fail(PB_ERR_PARAM, "%s: axis has a NaN/Inf component", info->name);
        if (ax[0] == 0 && ax[1] == 0 && ax[2] == 0)
            return pb_fail(PB_ERR_PARAM, "%s: axis is the zero vector (it names a direction)", info->name);
    }
    if (info->flags & (PB_OPF_SKELETON | PB_OPF_ROOTS)) {
        if (!c->skel) return pb_fail(PB_ERR_NULL, "%s: call.skel is NULL (this op needs a skeleton)", info->name);
        if (!c->skel->parents || !c->skel->order)
            return pb_fail(PB_ERR_PARAM, "%s: skeleton was not made by pb_skeleton_init", info->name);
        if (c->skel->n != n)
            return pb_fail(PB_ERR_SIZE, "%s: skeleton has %zu joints x %zu characters = %zu elements, poses have n = %zu",
                           info->name, c->skel->joints, c->skel->characters, c->skel->n, n);
    }

    pb_kargs k;
    pb_kargs_from_call(&k, c);
    k.n = n;
    k.n_padded = pb_padded(n);
    v->table[op](&k);
    return PB_OK;
}

void pb_kargs_from_call(pb_kargs *k, const pb_call *c)
{
    *k = (pb_kargs){ 0 };
    for (int i = 0; i < PB_PLANES; i++) {
        if (c->a) k->a[i] = c->a->plane[i];
        if (c->b) k->b[i] = c->b->plane[i];
        if (c->out) k->out[i] = c->out->plane[i];
    }
    float *arr[PB_AOS_ARRAYS];
    if (c->aos_in) {
        aos_arrays(c->aos_in, arr);
        for (int i = 0; i < PB_AOS_ARRAYS; i++) k->aos_in[i] = arr[i];
    }
    if (c->aos_out) {
        aos_arrays(c->aos_out, arr);
        for (int i = 0; i < PB_AOS_ARRAYS; i++) k->aos_out[i] = arr[i];
    }
    k->skel = c->skel;
    if (c->clip) {
        for (int i = 0; i < PB_PLANES; i++) k->a[i] = c->clip->pose.plane[i];
        k->frames = c->clip->frames;
        k->joints = c->clip->joints;
        k->fps = c->clip->fps;
    }
    k->offsets = c->offsets;
    k->p = c->params;
}

static pb_status run2(pb_op op, const pb_pose *a, const pb_pose *b, float alpha, pb_pose *out)
{
    pb_call c = { .a = a, .b = b, .out = out, .params = { .alpha = alpha } };
    return pb_run(op, NULL, &c);
}
pb_status pb_blend_static(const pb_pose *a, const pb_pose *b, float alpha, pb_pose *out)
{
    return run2(PB_OP_blend_static, a, b, alpha, out);
}
pb_status pb_blend_static_nlerp(const pb_pose *a, const pb_pose *b, float alpha, pb_pose *out)
{
    return run2(PB_OP_blend_static_nlerp, a, b, alpha, out);
}
pb_status pb_pose_to_aos(const pb_pose *pose, pb_pose_aos *aos)
{
    pb_call c = { .a = pose, .aos_out = aos };
    return pb_run(PB_OP_pose_to_aos, NULL, &c);
}
pb_status pb_pose_from_aos(const pb_pose_aos *aos, pb_pose *pose)
{
    pb_call c = { .aos_in = aos, .out = pose };
    return pb_run(PB_OP_pose_from_aos, NULL, &c);
}
static pb_status run_skel(pb_op op, const pb_skeleton *skel, const pb_pose *in, pb_pose *out)
{
    pb_call c = { .a = in, .out = out, .skel = skel };
    return pb_run(op, NULL, &c);
}
pb_status pb_fk(const pb_skeleton *skel, const pb_pose *local, pb_pose *global)
{
    return run_skel(PB_OP_fk, skel, local, global);
}
pb_status pb_fk_static(const pb_skeleton *skel, const pb_pose *local, pb_pose *global)
{
    return run_skel(PB_OP_fk_static, skel, local, global);
}
pb_status pb_bk(const pb_skeleton *skel, const pb_pose *global, pb_pose *local)
{
    return run_skel(PB_OP_bk, skel, global, local);
}
