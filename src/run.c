/* run.c — pb_run: validate a call completely, then hand it to a kernel.
 * Kernels trust their arguments; everything a user can get wrong is caught
 * here, with a message naming the argument. Nothing is written on error. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"


/* out may be exactly an input (same plane pointers, op-by-op in place), but
 * no out plane may overlap a different input plane. */
static pb_status check_alias(const pb_pose *out, const pb_pose *in, const char *name)
{
    if (!pb_poses_overlap(out, in)) return PB_OK;
    /* exactly in place (the frame's layers): the pair loop below would only compare out's planes with
     * each other, which a separate out is not checked for either; 361 pairs a call saved */
    if (out->stride == in->stride && !memcmp(out->plane, in->plane, sizeof out->plane)) return PB_OK;
    for (int i = 0; i < PB_PLANES; i++) {
        if (!out->plane[i]) continue;
        uintptr_t a = (uintptr_t)out->plane[i], ae = a + out->stride * sizeof(float);
        for (int j = 0; j < PB_PLANES; j++) {
            if (!in->plane[j]) continue;
            uintptr_t b = (uintptr_t)in->plane[j], be = b + in->stride * sizeof(float);
            if (a < be && b < ae && !(i == j && a == b && out->stride == in->stride))
                return pb_fail(PB_ERR_ALIAS, "output pose overlaps input '%s' (out plane %d vs %s plane %d): "
                                             "out must be a separate pose or exactly the same pose", name, i, name, j);
        }
    }
    return PB_OK;
}

/* The AoS side of a conversion: pos/rot/scl arrays always; the velocity
 * arrays exactly when the pose has velocity planes (pose_static: it has not). */
static pb_status check_aos(const pb_pose_aos *a, const char *what, int pose_static)
{
    if (!a) return pb_fail(PB_ERR_NULL, "%s is NULL", what);
    const void *arr[PB_AOS_ARRAYS] = { a->pos, a->rot, a->scl, a->vel, a->ang, a->svl };
    static const char *const names[PB_AOS_ARRAYS] = { "pos", "rot", "scl", "vel", "ang", "svl" };
    if (a->n == 0) return pb_fail(PB_ERR_EMPTY, "%s: n = 0 (at least one element required)", what);
    for (int i = 0; i < PB_AOS_ARRAYS; i++) {
        if (i >= 3 && pose_static) {
            if (arr[i])
                return pb_fail(PB_ERR_STATIC, "%s: array %s is set but the pose is static (no velocity planes): "
                                              "pass NULL velocity arrays, or a pose made by pb_pose_alloc", what, names[i]);
            continue;
        }
        if (!arr[i])
            return pb_fail(PB_ERR_NULL, "%s: array %s is NULL%s", what, names[i],
                           i >= 3 ? " (the pose has velocity planes: give all six arrays, or use a static pose)" : "");
        if ((uintptr_t)arr[i] % _Alignof(float))
            return pb_fail(PB_ERR_ALIGN, "%s: array %s is not aligned for float", what, names[i]);
    }
    return PB_OK;
}

static void aos_arrays(const pb_pose_aos *a, float *out[PB_AOS_ARRAYS])
{
    out[0] = &a->pos->x; out[1] = &a->rot->w; out[2] = &a->scl->x;
    out[3] = a->vel ? &a->vel->x : NULL; out[4] = a->ang ? &a->ang->x : NULL; out[5] = a->svl ? &a->svl->x : NULL;
}

static pb_status check_aos_alias(const pb_pose_aos *a, const pb_pose *p, const char *what)
{
    float *arr[PB_AOS_ARRAYS];
    aos_arrays(a, arr);
    pb_span ps = pb_pose_span(p);
    for (int i = 0; i < PB_AOS_ARRAYS; i++) {
        if (!arr[i]) continue;
        pb_span s = { (uintptr_t)arr[i], (uintptr_t)(arr[i] + a->n * (size_t)pb_aos_width[i]) };
        if (pb_spans_overlap(s, ps)) return pb_fail(PB_ERR_ALIAS, "%s overlaps the pose's planes", what);
    }
    return PB_OK;
}

/* A palette op's b of one element per joint, shared by per.characters characters. */
#define PB_B_SHARED(info, c, n)                                                                 \
    (((info)->flags & (PB_OPF_MAT_OUT | PB_OPF_DQ_OUT)) && (c)->per.characters > 0 && (c)->b->n > 0 && \
     (c)->b->n <= (n) / (c)->per.characters && (c)->b->n * (c)->per.characters == (n))
/* The palette output: non-NULL, n entries, float-aligned, not overlapping
 * the input poses (it is written while they are read). */
static pb_status check_palette(const pb_op_info *info, const pb_call *c, size_t n)
{
    const pb_palette *pal = c->palette;
    if (!pal) return pb_fail(PB_ERR_NULL, "%s: call.palette is NULL (the output of a palette op)", info->name);
    if (!pal->data) return pb_fail(PB_ERR_NULL, "%s: palette.data is NULL", info->name);
    if (pal->n != n)
        return pb_fail(PB_ERR_SIZE, "%s: palette has n = %zu but pose a has n = %zu (one entry per element)", info->name,
                       pal->n, n);
    if ((uintptr_t)pal->data % _Alignof(float))
        return pb_fail(PB_ERR_ALIGN, "%s: palette.data is not aligned for float", info->name);
    size_t w = (info->flags & PB_OPF_MAT_OUT) ? PB_PALETTE_MAT_FLOATS : PB_PALETTE_DQ_FLOATS;
    pb_span ps = { (uintptr_t)pal->data, (uintptr_t)(pal->data + n * w) };
    if (pb_spans_overlap(ps, pb_pose_span(c->a)) || pb_spans_overlap(ps, pb_pose_span(c->b)))
        return pb_fail(PB_ERR_ALIAS, "%s: palette.data overlaps pose %s", info->name,
                       pb_spans_overlap(ps, pb_pose_span(c->a)) ? "a" : "b");
    return PB_OK;
}

/* A static pose where the op needs velocity planes: name the first missing one. */
static pb_status need_groups(const pb_op_info *info, const pb_pose *p, uint32_t groups, const char *what)
{
    if (pb_pose_has_velocities(p)) return PB_OK;
    for (int g = PB_G_VEL; g < PB_GROUPS; g++)
        if (groups & (1u << g))
            return pb_fail(PB_ERR_STATIC, "%s: pose '%s' is static: it has no plane %s, which %s %s (a pose with "
                                          "velocities comes from pb_pose_alloc)", info->name, what,
                           pb_plane_name(pb_group_first((pb_group)g)), info->name,
                           strcmp(what, "out") == 0 ? "writes" : "reads");
    return PB_OK;
}

/* Each parameter an op reads must be finite; times and durations >= 0. */
pb_status pb_check_params(const pb_op_info *info, const pb_params *p)
{
    static const struct { uint32_t flag; size_t off; const char *name; int nonneg; } params[] = {
        { PB_OPF_ALPHA, offsetof(pb_params, alpha), "alpha", 0 },
        { PB_OPF_ALPHA_VEL, offsetof(pb_params, alpha_vel), "alpha_vel", 0 },
        { PB_OPF_DT, offsetof(pb_params, dt), "dt", 1 },
        { PB_OPF_TIME, offsetof(pb_params, time), "time", 1 },
        { PB_OPF_HALFLIFE, offsetof(pb_params, halflife), "halflife", 1 },
        { PB_OPF_DURATION, offsetof(pb_params, duration), "duration", 1 },
        { PB_OPF_TIMESCALE, offsetof(pb_params, timescale), "timescale", 0 },
        { PB_OPF_CONE, offsetof(pb_params, cone), "cone", 1 },
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
    if (strcmp(info->name, "estimate_halflife") != 0) return PB_OK;   /* the only op reading them */
    return pb_halflife_est_check(info->name, p->hl_scale, p->hl_min, p->hl_max);
}

pb_status pb_halflife_est_check(const char *who, float scale, float lo, float hi)
{
    if (scale == 0 && lo == 0 && hi == 0) return PB_OK;   /* Unreal's defaults */
    const float L = PB_HALFLIFE_EST_LIMIT;
    if (!(scale > 0 && scale <= L))
        return pb_fail(PB_ERR_PARAM, "%s: hl_scale is %g (must be in (0, %g]; all three 0: Unreal's defaults)", who,
                       (double)scale, (double)L);
    if (!(lo >= 0 && lo <= L))
        return pb_fail(PB_ERR_PARAM, "%s: hl_min is %g (must be in [0, %g] s)", who, (double)lo, (double)L);
    if (!(hi >= lo && hi <= L))
        return pb_fail(PB_ERR_PARAM, "%s: hl_max is %g (must be in [hl_min = %g, %g] s)", who, (double)hi, (double)lo,
                       (double)L);
    return PB_OK;
}

pb_status pb_check_axis(const pb_op_info *info, const pb_params *p)
{
    if (!(info->flags & PB_OPF_AXIS)) return PB_OK;
    const float *ax = p->axis;
    if (!isfinite(ax[0]) || !isfinite(ax[1]) || !isfinite(ax[2]))
        return pb_fail(PB_ERR_PARAM, "%s: axis has a NaN/Inf component", info->name);
    if (ax[0] == 0 && ax[1] == 0 && ax[2] == 0)
        return pb_fail(PB_ERR_PARAM, "%s: axis is the zero vector (it names a direction)", info->name);
    return PB_OK;
}

/* per.halflives: a pose of the call's n with velocity planes, every half-life finite and >= 0. */
static pb_status check_halflives(const pb_op_info *info, const pb_call *c, size_t n)
{
    const pb_pose *h = c->per.halflives;
    if (!h) return PB_OK;
    if (!(info->flags & PB_OPF_HALFLIFE))
        return pb_fail(PB_ERR_PARAM, "%s: per.halflives is given but %s does not read half-lives (leave it NULL)",
                       info->name, info->name);
    if (c->per.halflife || c->per.halflife_axis)
        return pb_fail(PB_ERR_PARAM, "%s: per.halflives and per.%s are both given (one replaces the other: give "
                       "one)", info->name, c->per.halflife ? "halflife" : "halflife_axis");
    pb_status s = pb_pose_check(h, "per.halflives");
    if (s != PB_OK) return s;
    if (h->n != n) return pb_fail(PB_ERR_SIZE, "%s: per.halflives has n = %zu, the call %zu", info->name, h->n, n);
    if (c->out && pb_poses_overlap(h, c->out))   /* read while out is written */
        return pb_fail(PB_ERR_ALIAS, "%s: per.halflives overlaps pose out", info->name);
    if (!h->plane[PB_VEL_X])
        return pb_fail(PB_ERR_NULL, "%s: per.halflives is a static pose (its vel, ang and svl planes hold the "
                       "half-lives)", info->name);
    for (int p = PB_VEL_X; p < PB_PLANES; p++)
        for (size_t e = 0; e < n; e++) {
            float v = h->plane[p][e];
            if (isfinite(v) && v >= 0) continue;
            return pb_fail(PB_ERR_PARAM, "%s: per.halflives %s plane, element %zu, is %g (must be finite and >= 0)",
                           info->name, pb_plane_name(p), e, (double)v);
        }
    return PB_OK;
}

/* per.limits (after check_per's size checks): the mode, and per joint lo <= hi finite, the rest
 * rotation finite and unit within 1e-3. */
static pb_status check_limits(const pb_op_info *info, const pb_joint_limits *L, size_t joints)
{
    if (L->mode != PB_LIMIT_CLAMP && L->mode != PB_LIMIT_BOUNCE)
        return pb_fail(PB_ERR_PARAM, "%s: per.limits->mode is %d (PB_LIMIT_CLAMP or PB_LIMIT_BOUNCE)", info->name,
                       (int)L->mode);
    if (!L->lo || !L->hi)
        return pb_fail(PB_ERR_NULL, "%s: per.limits->%s is NULL (3 floats per joint, %zu joints)", info->name,
                       L->lo ? "hi" : "lo", joints);
    for (size_t j = 0; j < joints; j++) {
        for (size_t a = 0; a < 3; a++) {
            float lo = L->lo[3 * j + a], hi = L->hi[3 * j + a];
            if (!isfinite(lo) || !isfinite(hi) || lo > hi)
                return pb_fail(PB_ERR_PARAM, "%s: per.limits joint %zu, axis %c: lo = %g, hi = %g (must be finite, lo "
                               "<= hi)", info->name, j, "xyz"[a], (double)lo, (double)hi);
        }
        if (!L->rest) continue;
        const float *q = L->rest + 4 * j;
        double len = pb_quat_len(q);
        if (!(fabs(len - 1) <= PB_UNIT_TOL))
            return pb_fail(PB_ERR_PARAM, "%s: per.limits->rest of joint %zu is (%g, %g, %g, %g), |q| = %g (must be a "
                           "unit quaternion w, x, y, z)", info->name, j, (double)q[0], (double)q[1], (double)q[2],
                           (double)q[3], len);
    }
    return PB_OK;
}

/* Per-element parameter arrays (pb_param_arrays): each one the op reads,
 * sized by characters, finite, non-negative where the parameter is. */
static pb_status check_per(const pb_op_info *info, const pb_call *c, size_t n)
{
    const pb_param_arrays *pa = &c->per;
    const struct { const float *arr; uint32_t flag; const char *name; int nonneg; } arrs[] = {
        { pa->alpha, PB_OPF_ALPHA, "alpha", 0 },       { pa->alpha_vel, PB_OPF_ALPHA_VEL, "alpha_vel", 0 },
        { pa->time, PB_OPF_TIME, "time", 1 },          { pa->duration, PB_OPF_DURATION, "duration", 1 },
        { pa->halflife, PB_OPF_HALFLIFE, "halflife", 1 }, { pa->timescale, PB_OPF_TIMESCALE, "timescale", 0 },
        { pa->mask, PB_OPF_ALPHA, "mask", 0 },         { pa->halflife_axis, PB_OPF_HALFLIFE, "halflife_axis", 1 },
        { pa->cone, PB_OPF_CONE, "cone", 1 },
        { pa->joint_cone, PB_OPF_CONE, "joint_cone", 1 },
    };
    enum { MASK = 6, AXIS = 7, JOINT_CONE = 9 };
    pb_status hs = check_halflives(info, c, n);
    if (hs != PB_OK) return hs;
    int any = 0;
    for (size_t i = 0; i < sizeof arrs / sizeof arrs[0]; i++) {
        if (!arrs[i].arr) continue;
        if (!(info->flags & arrs[i].flag))
            return pb_fail(PB_ERR_PARAM, "%s: per.%s is given but %s does not read %s (leave it NULL)", info->name,
                           arrs[i].name, info->name, i == MASK ? "a weight to mask" : arrs[i].name);
        any = 1;
    }
    if (pa->limits && !(info->flags & PB_OPF_HALFLIFE))
        return pb_fail(PB_ERR_PARAM, "%s: per.limits is given but %s extrapolates nothing (leave it NULL)", info->name,
                       info->name);
    any |= pa->limits != NULL;
    if (!any) return PB_OK;
    if (pa->joint_cone && !(info->flags & PB_OPF_NCHAIN))
        return pb_fail(PB_ERR_PARAM, "%s: per.joint_cone is given but only the chain IK ops read it (leave it NULL)",
                       info->name);
    if (pa->halflife && pa->halflife_axis)
        return pb_fail(PB_ERR_PARAM, "%s: per.halflife and per.halflife_axis are both given (one replaces the other: "
                       "give one)", info->name);
    if (info->flags & (PB_OPF_SAMPLE | PB_OPF_CLIP_IN | PB_OPF_AOS_IN | PB_OPF_AOS_OUT | PB_OPF_CHAIN | PB_OPF_MAT_OUT |
                       PB_OPF_DQ_OUT | PB_OPF_FOOT))
        return pb_fail(PB_ERR_PARAM, "%s: takes no per-element parameters (sampling takes call.offsets per character)",
                       info->name);
    size_t C = pa->characters;
    if (C == 0) return pb_fail(PB_ERR_SIZE, "%s: per-element arrays given but per.characters is 0", info->name);
    if (n % C != 0)
        return pb_fail(PB_ERR_SIZE, "%s: n = %zu is not a whole number of joints x per.characters = %zu", info->name,
                       n, C);
    if ((info->flags & PB_OPF_NCHAIN) && c->params.chain_joints > 0 && n / C != (size_t)c->params.chain_joints)
        return pb_fail(PB_ERR_SIZE, "%s: per.characters = %zu but there are %zu chains of %d joints (per-chain and "
                       "per-joint arrays count the chains)", info->name, C, n / (size_t)c->params.chain_joints,
                       c->params.chain_joints);
    if ((info->flags & (PB_OPF_SKELETON | PB_OPF_ROOTS)) && C != c->skel->characters)
        return pb_fail(PB_ERR_SIZE, "%s: per.characters = %zu but the skeleton has %zu characters", info->name, C,
                       c->skel->characters);
    for (size_t i = 0; i < sizeof arrs / sizeof arrs[0]; i++) {
        if (!arrs[i].arr) continue;
        size_t len = i == MASK || i == JOINT_CONE ? n / C : i == AXIS ? 3 * (n / C) : C;
        for (size_t e = 0; e < len; e++) {
            float v = arrs[i].arr[e];
            if (isfinite(v) && !(arrs[i].nonneg && v < 0)) continue;
            if (i == AXIS)
                return pb_fail(PB_ERR_PARAM, "%s: per.halflife_axis[%zu] (joint %zu, axis %c) is %g (must be finite "
                               "and >= 0; 3 x %zu joints)", info->name, e, e / 3, "xyz"[e % 3], (double)v, n / C);
            return pb_fail(PB_ERR_PARAM, "%s: per.%s[%zu] is %g (must be finite%s; %zu %s)", info->name,
                           arrs[i].name, e, (double)v, arrs[i].nonneg ? " and >= 0" : "", len,
                           i == MASK || i == JOINT_CONE ? "joints" : "characters");
        }
    }
    return pa->limits ? check_limits(info, pa->limits, n / C) : PB_OK;
}

/* PB_SCALE_DEFAULT resolved to the op's own default; others checked. */
pb_status pb_params_resolve_scale(const pb_op_info *info, pb_params *p)
{
    if (!(info->flags & (PB_OPF_SCALE_LIN | PB_OPF_SCALE_EXP))) return PB_OK;
    if (p->scale == PB_SCALE_DEFAULT) p->scale = (info->flags & PB_OPF_SCALE_LIN) ? PB_SCALE_LINEAR : PB_SCALE_EXP;
    if (p->scale != PB_SCALE_LINEAR && p->scale != PB_SCALE_EXP)
        return pb_fail(PB_ERR_PARAM, "%s: scale mode %d is not PB_SCALE_DEFAULT, PB_SCALE_LINEAR or PB_SCALE_EXP",
                       info->name, (int)p->scale);
    return PB_OK;
}

/* call.via (dead blending's direction state): only where an op takes it; a pose of n with
 * rotations, apart from every other pose of the call. */
static pb_status check_via(const pb_op_info *info, const pb_call *c, size_t n)
{
    if (!c->via) return PB_OK;
    if (!PB_OP_TAKES_VIA(info))
        return pb_fail(PB_ERR_PARAM, "%s: call.via is given but %s blends no extrapolation (leave it NULL)",
                       info->name, info->name);
    pb_status s = pb_pose_check(c->via, "via");
    if (s == PB_OK) s = need_groups(info, c->via, 1u << PB_G_ROT, "via");
    if (s != PB_OK) return s;
    if (c->via->n != n)
        return pb_fail(PB_ERR_SIZE, "%s: call.via has n = %zu but the poses have n = %zu", info->name, c->via->n, n);
    if ((s = pb_pose_check_disjoint(c->via, info->name, "via")) != PB_OK) return s;   /* written too */
    const pb_pose *other[3] = { c->a, c->b, c->out };
    for (int i = 0; i < 3; i++)
        if (pb_poses_overlap(c->via, other[i]))
            return pb_fail(PB_ERR_ALIAS, "%s: call.via overlaps pose %s", info->name, i == 0 ? "a" : i == 1 ? "b" : "out");
    return PB_OK;
}

/* Validate a call completely and fill pl (the kernel and its arguments). */
pb_status pb_plan_prepare(pb_plan *pl, pb_op op, const pb_variant *v, const pb_call *c)
{
    const pb_op_info *info = pb_op_get(op);
    if (!info) return pb_fail(PB_ERR_OP, "pb_run: op id %d is not a registered op", (int)op);
    if (!c) return pb_fail(PB_ERR_NULL, "%s: call is NULL", info->name);
    pb_status s = v ? pb_variant_check(v) : pb_variant_active(&v);
    if (s != PB_OK) return s;
    return pb_plan_prepare_as(pl, op, v, c);
}

/* pb_plan_prepare with v already resolved and checked by the caller: not checked again, so
 * a pb_cpu_disable between the two cannot fail a call that resolved before it. */
pb_status pb_plan_prepare_as(pb_plan *pl, pb_op op, const pb_variant *v, const pb_call *c)
{
    const pb_op_info *info = pb_op_get(op);
    pb_status s;

    size_t n = 0;
    if (info->in_a) {
        if ((s = pb_pose_check(c->a, "a")) != PB_OK || (s = need_groups(info, c->a, info->in_a, "a")) != PB_OK)
            return s;
        n = c->a->n;
    }
    if (info->in_b) {
        if ((s = pb_pose_check(c->b, "b")) != PB_OK || (s = need_groups(info, c->b, info->in_b, "b")) != PB_OK)
            return s;
        if (c->b->n != n && !PB_B_SHARED(info, c, n) && !(info->flags & PB_OPF_SAMPLE))   /* sampling: below */
            return pb_fail(PB_ERR_SIZE, "%s: pose b has n = %zu but a has n = %zu%s", info->name, c->b->n, n,
                           (info->flags & (PB_OPF_MAT_OUT | PB_OPF_DQ_OUT))
                               ? " (or, with per.characters = C, n / C: one inverse bind per joint)" : "");
    }
    if (info->flags & (PB_OPF_SAMPLE | PB_OPF_CLIP_IN)) {
        if ((s = pb_clip_check(c->clip)) != PB_OK) return s;
        if (c->clip->pose.n > (size_t)INT32_MAX)
            return pb_fail(PB_ERR_SIZE, "%s: clip of %zu keys is too large (gathers index it with 32 bits)", info->name,
                           c->clip->pose.n);
        n = c->clip->pose.n;   /* input elements; out is checked against joints below */
    }
    if (info->flags & PB_OPF_AOS_IN) {
        if ((s = pb_pose_check(c->out, "out")) != PB_OK) return s;
        if ((s = check_aos(c->aos_in, "aos_in", !pb_pose_has_velocities(c->out))) != PB_OK) return s;
        n = c->aos_in->n;
    }
    if (info->flags & PB_OPF_SAMPLE) {
        if ((s = pb_pose_check(c->out, "out")) != PB_OK || (s = need_groups(info, c->out, info->out, "out")) != PB_OK)
            return s;
        size_t J = c->clip->joints;
        if (c->out->n % J != 0)
            return pb_fail(PB_ERR_SIZE, "%s: out has n = %zu, not a multiple of the clip's %zu joints", info->name,
                           c->out->n, J);
        if (!c->offsets) return pb_fail(PB_ERR_NULL, "%s: call.offsets is NULL (one time offset per character)", info->name);
        for (size_t ch = 0; ch < c->out->n / J; ch++)
            if (!isfinite(c->offsets[ch]))
                return pb_fail(PB_ERR_PARAM, "%s: offsets[%zu] is %g (must be finite)", info->name, ch, (double)c->offsets[ch]);
        if (pb_poses_overlap(c->out, &c->clip->pose))
            return pb_fail(PB_ERR_ALIAS, "%s: out overlaps the clip", info->name);
        if (info->in_b) {   /* the clip's turns (pb_clip_turns): one element per key */
            if (c->b->n != c->clip->pose.n)
                return pb_fail(PB_ERR_SIZE, "%s: pose b (the clip's turns) has n = %zu but the clip has %zu frames x "
                               "%zu joints (pb_clip_turns makes it)", info->name, c->b->n, c->clip->frames, J);
            if (pb_poses_overlap(c->out, c->b))
                return pb_fail(PB_ERR_ALIAS, "%s: out overlaps pose b (the clip's turns)", info->name);
        }
        n = c->out->n;
    } else if (info->flags & PB_OPF_CLIP_IN) {
        if ((s = pb_pose_check(c->out, "out")) != PB_OK || (s = need_groups(info, c->out, info->out, "out")) != PB_OK)
            return s;
        if (c->out->n != n)
            return pb_fail(PB_ERR_SIZE, "%s: out has n = %zu, the clip has %zu frames x %zu joints", info->name,
                           c->out->n, c->clip->frames, c->clip->joints);
        if ((s = check_alias(c->out, &c->clip->pose, "clip")) != PB_OK) return s;
    } else if (info->out) {
        if ((s = pb_pose_check(c->out, "out")) != PB_OK || (s = need_groups(info, c->out, info->out, "out")) != PB_OK)
            return s;
        if (c->out->n != n)
            return pb_fail(PB_ERR_SIZE, "%s: pose out has n = %zu but the input has n = %zu", info->name, c->out->n, n);
        if (info->in_a && (s = check_alias(c->out, c->a, "a")) != PB_OK) return s;
        if (info->in_b && (s = check_alias(c->out, c->b, "b")) != PB_OK) return s;
        if ((info->flags & PB_OPF_AOS_IN) && (s = check_aos_alias(c->aos_in, c->out, "aos_in")) != PB_OK) return s;
    }
    /* out's planes apart from each other (out == a passed check_alias without looking at them) */
    if ((info->out || (info->flags & PB_OPF_SAMPLE)) && (s = pb_pose_check_disjoint(c->out, info->name, "out")) != PB_OK)
        return s;
    if (info->flags & PB_OPF_AOS_OUT) {
        if ((s = check_aos(c->aos_out, "aos_out", !pb_pose_has_velocities(c->a))) != PB_OK) return s;
        if (c->aos_out->n != n)
            return pb_fail(PB_ERR_SIZE, "%s: aos_out has n = %zu but pose a has n = %zu", info->name, c->aos_out->n, n);
        if ((s = check_aos_alias(c->aos_out, c->a, "aos_out")) != PB_OK) return s;
    }
    if ((info->flags & (PB_OPF_MAT_OUT | PB_OPF_DQ_OUT)) && (s = check_palette(info, c, n)) != PB_OK) return s;
    /* Optional velocity groups are read from a and b when written to out. */
    if (info->opt && info->out && pb_pose_has_velocities(c->out)) {
        if (info->in_a && (s = need_groups(info, c->a, info->opt, "a")) != PB_OK) return s;
        if (info->in_b && !(info->flags & PB_OPF_SAMPLE) && (s = need_groups(info, c->b, info->opt, "b")) != PB_OK)
            return s;   /* (a sampler's b is the clip's turns: no velocities) */
    }
    if ((s = pb_check_params(info, &c->params)) != PB_OK) return s;
    if ((info->flags & PB_OPF_CHAIN) && n % 3 != 0)
        return pb_fail(PB_ERR_SIZE, "%s: n = %zu is not 3 x chains (root, mid, end per chain)", info->name, n);
    if ((info->flags & PB_OPF_FOOT) && n % 7 != 0)
        return pb_fail(PB_ERR_SIZE, "%s: n = %zu is not 7 x characters (pelvis, then hip, knee, ankle per leg)",
                       info->name, n);
    if ((s = pb_check_axis(info, &c->params)) != PB_OK) return s;
    if ((info->flags & PB_OPF_NCHAIN) && (s = pb_check_chains(info, c, n)) != PB_OK) return s;
    if (info->flags & (PB_OPF_SKELETON | PB_OPF_ROOTS)) {
        if (!c->skel) return pb_fail(PB_ERR_NULL, "%s: call.skel is NULL (this op needs a skeleton)", info->name);
        if (!c->skel->parents || !c->skel->order || !c->skel->gen)
            return pb_fail(PB_ERR_PARAM, "%s: skeleton was not made by pb_skeleton_init", info->name);
        if (c->skel->n != n)
            return pb_fail(PB_ERR_SIZE, "%s: skeleton has %zu joints x %zu characters = %zu elements, poses have n = %zu",
                           info->name, c->skel->joints, c->skel->characters, c->skel->n, n);
    }

    pb_params params = c->params;
    if ((s = pb_params_resolve_scale(info, &params)) != PB_OK) return s;
    if ((s = check_per(info, c, n)) != PB_OK || (s = check_via(info, c, n)) != PB_OK) return s;

    memset(pl, 0, offsetof(pb_plan, watch));   /* the watch (900 B) is pb_plan_create's, filled there */
    if ((s = pb_kargs_from_call(&pl->k, info, c, n)) != PB_OK) return s;
    pl->fn = v->table[op];
    pl->op = op;
    pl->variant = v;
    return PB_OK;
}

pb_status pb_run(pb_op op, const pb_variant *v, const pb_call *c)
{
    return pb_run_remembered(op, v, c);   /* pb_plan_prepare's checks; a repeat checks what can change */
}

pb_status pb_kargs_from_call(pb_kargs *k, const pb_op_info *info, const pb_call *c, size_t n)
{
    *k = (pb_kargs){ 0 };
    k->n = n;
    k->n_padded = pb_padded(n);
    k->p = c->params;
    pb_status s = pb_params_resolve_scale(info, &k->p);
    if (s != PB_OK) return s;
    size_t planes = 0;
    for (int i = 0; i < PB_PLANES; i++) {
        if (c->a) k->a[i] = c->a->plane[i];
        if (c->b) k->b[i] = c->b->plane[i];
        if (c->out) k->out[i] = c->out->plane[i];
        planes += (k->a[i] != NULL) + (k->b[i] != NULL) + (k->out[i] != NULL);
    }
    k->stream = (double)planes * (double)k->n_padded * sizeof(float) > (double)pb_stream_bytes();
    float *arr[PB_AOS_ARRAYS];
    if (c->aos_in) {
        aos_arrays(c->aos_in, arr);
        for (int i = 0; i < PB_AOS_ARRAYS; i++) k->aos_in[i] = arr[i];
    }
    if (c->aos_out) {
        aos_arrays(c->aos_out, arr);
        for (int i = 0; i < PB_AOS_ARRAYS; i++) k->aos_out[i] = arr[i];
    }
    if (info->flags & (PB_OPF_MAT_OUT | PB_OPF_DQ_OUT)) k->pal = c->palette->data;
    if (c->b && PB_B_SHARED(info, c, n) && c->b->n != n) k->b_chars = c->per.characters;
    if (info->flags & PB_OPF_NCHAIN) k->iters = c->iterations;
    k->skel = c->skel;
    if (c->clip) {
        for (int i = 0; i < PB_PLANES; i++) k->a[i] = c->clip->pose.plane[i];
        k->frames = c->clip->frames;
        k->joints = c->clip->joints;
        k->fps = c->clip->fps;
    }
    k->offsets = c->offsets;
    k->per = c->per;
    if (c->via)
        for (int i = PB_ROT_W; i <= PB_ROT_Z; i++) k->via[i] = k->via_out[i] = c->via->plane[i];
    return PB_OK;
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
pb_status pb_matrix_palette(const pb_pose *global, const pb_pose *inv_bind, pb_palette *out)
{
    pb_call c = { .a = global, .b = inv_bind, .palette = out };
    return pb_run(PB_OP_palette, NULL, &c);
}
pb_status pb_dq_palette(const pb_pose *global, const pb_pose *inv_bind, pb_palette *out)
{
    pb_call c = { .a = global, .b = inv_bind, .palette = out };
    return pb_run(PB_OP_palette_dq, NULL, &c);
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
