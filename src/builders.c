/* builders.c — crowds and transition batches built from clips (see
 * include/posebench/builders.h).
 *
 * Everything is sampled by the registered sample_linear / sample_cubic ops
 * through pb_run: this file only arranges characters. The sampler plays one
 * clip for every character of its output, so a crowd playing several clips
 * is split into one group per clip: a group that is the whole crowd samples
 * straight into the output; otherwise each group is sampled into scratch
 * (joints x group size, allocated once) and scattered to its characters. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "posebench/builders.h"
#include "internal.h"
#include "rng.h"


float pb_clip_duration(const pb_clip *clip)
{
    if (!clip || clip->frames == 0 || !(clip->fps > 0)) return 0.0f;
    float last = (float)(clip->frames - 1);
    float d = last / clip->fps;
    /* The samplers place t at frame t * fps, in float: step down until that
     * product is not past the last key, so t = duration is inside the clip
     * (velocities live) rather than "after the end" (velocities zero). */
    while (d > 0.0f && d * clip->fps > last) d = nextafterf(d, 0.0f);
    return d;
}

/* Re-raise a callee's failure with a prefix naming which argument it was
 * about. The message is copied first: pb_fail formats into the buffer
 * pb_last_error() returns. */
static pb_status fail_prefixed(pb_status s, const char *fn, const char *what)
{
    char msg[512];
    snprintf(msg, sizeof msg, "%s", pb_last_error());
    return pb_fail(s, "%s: %s: %s", fn, what, msg);
}

/* Shared by crowds, transitions and the generator: one clip is usable and
 * has the joint count of the others (joints = 0: this is the first). */
static pb_status check_clip(const char *fn, const char *what, const pb_clip *clip, size_t *joints)
{
    if (!clip) return pb_fail(PB_ERR_NULL, "%s: %s is NULL", fn, what);
    pb_status s = pb_clip_check(clip);
    if (s != PB_OK) return fail_prefixed(s, fn, what);
    if (clip->pose.n > (size_t)INT32_MAX)
        return pb_fail(PB_ERR_SIZE, "%s: %s has %zu keys (the samplers index clips with 32 bits)", fn, what,
                       clip->pose.n);
    if (*joints == 0) *joints = clip->joints;
    return PB_OK;
}

static int method_ok(pb_sample_method m) { return m == PB_SAMPLE_LINEAR || m == PB_SAMPLE_CUBIC; }
static pb_op method_op(pb_sample_method m) { return m == PB_SAMPLE_CUBIC ? PB_OP_sample_cubic : PB_OP_sample_linear; }

/* ---- Crowds ------------------------------------------------------------------------ */

void pb_crowd_builder_free(pb_crowd_builder *crowd)
{
    if (!crowd) return;
    free(crowd->clips);
    free((void *)crowd->turns);
    free(crowd->clip_of);
    free(crowd->offsets);
    free(crowd->group_start);
    free(crowd->members);
    free(crowd->times);
    pb_pose_free(&crowd->scratch);
    memset(crowd, 0, sizeof *crowd);
}

static pb_status crowd_check_desc(const pb_crowd_desc *d, size_t *joints)
{
    static const char fn[] = "pb_crowd_builder_init";
    if (!d) return pb_fail(PB_ERR_NULL, "%s: desc is NULL", fn);
    if (!d->clips) return pb_fail(PB_ERR_NULL, "%s: desc.clips is NULL", fn);
    if (d->nclips == 0) return pb_fail(PB_ERR_EMPTY, "%s: desc.nclips is 0 (at least one clip)", fn);
    if (d->characters == 0) return pb_fail(PB_ERR_EMPTY, "%s: desc.characters is 0 (at least one)", fn);
    *joints = 0;
    for (size_t k = 0; k < d->nclips; k++) {
        char what[48];
        snprintf(what, sizeof what, "clips[%zu]", k);
        pb_status s = check_clip(fn, what, d->clips[k], joints);
        if (s != PB_OK) return s;
        if (d->clips[k]->joints != *joints)
            return pb_fail(PB_ERR_SIZE, "%s: clips[%zu] has %zu joints but clips[0] has %zu (a crowd shares one "
                                        "skeleton)", fn, k, d->clips[k]->joints, *joints);
    }
    if (d->characters > SIZE_MAX / *joints || d->characters > SIZE_MAX / sizeof(size_t))
        return pb_fail(PB_ERR_SIZE, "%s: %zu joints x %zu characters overflows", fn, *joints, d->characters);
    if (!method_ok(d->method)) return pb_fail(PB_ERR_PARAM, "%s: desc.method is %d (not a pb_sample_method)", fn, (int)d->method);
    for (size_t c = 0; d->clip_of && c < d->characters; c++)
        if (d->clip_of[c] >= d->nclips)
            return pb_fail(PB_ERR_PARAM, "%s: clip_of[%zu] is %zu, not below nclips = %zu", fn, c, d->clip_of[c],
                           d->nclips);
    for (size_t c = 0; d->offsets && c < d->characters; c++)
        if (!isfinite(d->offsets[c]))
            return pb_fail(PB_ERR_PARAM, "%s: offsets[%zu] is %g (must be finite)", fn, c, (double)d->offsets[c]);
    if (d->variant) {
        pb_status s = pb_variant_check(d->variant);
        if (s != PB_OK) return s;
    }
    if (d->turns && d->method != PB_SAMPLE_LINEAR)
        return pb_fail(PB_ERR_PARAM, "%s: desc.turns is given but desc.method is not PB_SAMPLE_LINEAR (only the linear "
                       "sampler reads turns; leave it NULL)", fn);
    for (size_t k = 0; d->turns && k < d->nclips; k++) {
        char what[48];
        snprintf(what, sizeof what, "desc.turns[%zu]", k);
        if (!d->turns[k]) return pb_fail(PB_ERR_NULL, "%s: %s is NULL", fn, what);
        pb_status s = pb_pose_check(d->turns[k], what);
        if (s != PB_OK) return s;
        if (d->turns[k]->n != d->clips[k]->pose.n)
            return pb_fail(PB_ERR_SIZE, "%s: %s has n = %zu but clips[%zu] has %zu keys (pb_clip_turns makes it)", fn,
                           what, d->turns[k]->n, k, d->clips[k]->pose.n);
    }
    return PB_OK;
}

pb_status pb_crowd_builder_init(pb_crowd_builder *crowd, const pb_crowd_desc *desc)
{
    if (!crowd) return pb_fail(PB_ERR_NULL, "pb_crowd_builder_init: crowd is NULL");
    memset(crowd, 0, sizeof *crowd);
    size_t J = 0;
    pb_status s = crowd_check_desc(desc, &J);
    if (s != PB_OK) return s;
    size_t C = desc->characters, K = desc->nclips;

    crowd->clips = malloc(K * sizeof *crowd->clips);
    crowd->clip_of = malloc(C * sizeof *crowd->clip_of);
    crowd->offsets = malloc(C * sizeof *crowd->offsets);
    crowd->group_start = calloc(K + 1, sizeof *crowd->group_start);
    crowd->members = malloc(C * sizeof *crowd->members);
    crowd->times = malloc(C * sizeof *crowd->times);
    if (desc->turns) crowd->turns = malloc(K * sizeof *crowd->turns);
    if (!crowd->clips || (desc->turns && !crowd->turns) || !crowd->clip_of || !crowd->offsets || !crowd->group_start || !crowd->members || !crowd->times) {
        pb_crowd_builder_free(crowd);
        return pb_fail(PB_ERR_NOMEM, "pb_crowd_builder_init: out of memory for %zu characters", C);
    }
    crowd->joints = J;
    crowd->characters = C;
    crowd->n = J * C;
    crowd->nclips = K;
    crowd->method = desc->method;
    crowd->loop = desc->loop != 0;
    crowd->variant = desc->variant;
    for (size_t k = 0; k < K; k++) crowd->clips[k] = desc->clips[k];
    for (size_t k = 0; desc->turns && k < K; k++) crowd->turns[k] = desc->turns[k];

    uint64_t rng = desc->seed;
    for (size_t c = 0; c < C; c++) {
        size_t k = desc->clip_of ? desc->clip_of[c] : c % K;
        crowd->clip_of[c] = k;
        crowd->offsets[c] = desc->offsets ? desc->offsets[c] : pb_rng_unit01(&rng) * pb_clip_duration(crowd->clips[k]);
    }

    /* Group characters by clip, a counting sort (characters ascending within
     * a clip): count into group_start[k + 1], prefix-sum, place each character
     * at its group's cursor group_start[k]++, which leaves group_start[k]
     * holding group k + 1's start, then shift back. */
    for (size_t c = 0; c < C; c++) crowd->group_start[crowd->clip_of[c] + 1]++;
    size_t largest = 0;
    for (size_t k = 0; k < K; k++) {
        if (crowd->group_start[k + 1] > largest) largest = crowd->group_start[k + 1];
        crowd->group_start[k + 1] += crowd->group_start[k];
    }
    for (size_t c = 0; c < C; c++) crowd->members[crowd->group_start[crowd->clip_of[c]]++] = c;
    memmove(crowd->group_start + 1, crowd->group_start, K * sizeof *crowd->group_start);
    crowd->group_start[0] = 0;
    for (size_t m = 0; m < C; m++) crowd->times[m] = crowd->offsets[crowd->members[m]];

    /* One group holding every character samples straight into the output. */
    if (largest < C) {
        s = pb_pose_alloc(&crowd->scratch, J * largest);
        if (s != PB_OK) {
            pb_crowd_builder_free(crowd);
            return fail_prefixed(s, "pb_crowd_builder_init", "scratch");
        }
    }
    return PB_OK;
}


pb_status pb_crowd_builder_set_variant(pb_crowd_builder *crowd, const pb_variant *variant)
{
    if (!crowd) return pb_fail(PB_ERR_NULL, "pb_crowd_builder_set_variant: crowd is NULL");
    if (!crowd->clips || !crowd->members || crowd->n == 0)
        return pb_fail(PB_ERR_PARAM,
                       "pb_crowd_builder_set_variant: crowd was not made by pb_crowd_builder_init (or was freed)");
    if (variant) {
        pb_status s = pb_variant_check(variant);
        if (s != PB_OK) return s;
    }
    crowd->variant = variant;
    return PB_OK;
}

/* Everything pb_run could refuse, checked before the first group writes, so
 * that a failing call writes nothing. */
static pb_status crowd_check_build(const char *fn, const pb_crowd_builder *crowd, float time, const pb_pose *out,
                                   const pb_variant **v)
{
    if (!crowd) return pb_fail(PB_ERR_NULL, "%s: crowd is NULL", fn);
    if (!crowd->clips || !crowd->members || crowd->n == 0)
        return pb_fail(PB_ERR_PARAM, "%s: crowd was not made by pb_crowd_builder_init (or was freed)", fn);
    if (!out) return pb_fail(PB_ERR_NULL, "%s: out is NULL", fn);
    if (!isfinite(time)) return pb_fail(PB_ERR_PARAM, "%s: time is %g (must be finite)", fn, (double)time);
    pb_status s = pb_pose_check(out, "out");
    if (s != PB_OK) return s;
    if (out->n != crowd->n)
        return pb_fail(PB_ERR_SIZE, "%s: out has n = %zu, the crowd has %zu joints x %zu characters = %zu", fn, out->n,
                       crowd->joints, crowd->characters, crowd->n);
    for (size_t k = 0; k < crowd->nclips; k++) {
        size_t J = crowd->joints;
        char what[48];
        snprintf(what, sizeof what, "clips[%zu]", k);
        if ((s = check_clip(fn, what, crowd->clips[k], &J)) != PB_OK) return s;
        if (crowd->clips[k]->joints != crowd->joints)
            return pb_fail(PB_ERR_SIZE, "%s: clips[%zu] now has %zu joints, %zu at init", fn, k,
                           crowd->clips[k]->joints, crowd->joints);
        if (pb_poses_overlap(out, &crowd->clips[k]->pose))
            return pb_fail(PB_ERR_ALIAS, "%s: out overlaps clips[%zu]", fn, k);
        if (crowd->turns && crowd->turns[k]->n != crowd->clips[k]->pose.n)
            return pb_fail(PB_ERR_SIZE, "%s: turns[%zu] has n = %zu but clips[%zu] now has %zu keys", fn, k,
                           crowd->turns[k]->n, k, crowd->clips[k]->pose.n);
        if (crowd->turns && pb_poses_overlap(out, crowd->turns[k]))
            return pb_fail(PB_ERR_ALIAS, "%s: out overlaps turns[%zu]", fn, k);
    }
    *v = crowd->variant;
    if (*v) return pb_variant_check(*v);
    return pb_variant_active(v);
}

/* The scratch as a pose of exactly n elements (the sampler takes its
 * character count from out.n). The lanes past n up to the padded length may
 * hold an earlier, larger group's samples: reset them, as pb_run requires
 * identity padding (at most PB_PAD - 1 lanes per plane). */
static pb_pose scratch_view(pb_pose *scratch, size_t n)
{
    pb_pose v = { .n = n, .stride = pb_padded(n) };
    for (int i = 0; i < PB_PLANES; i++) {
        v.plane[i] = scratch->plane[i];
        float id = pb_plane_identity(i);
        for (size_t e = n; e < v.stride; e++) v.plane[i][e] = id;
    }
    return v;
}

static pb_status crowd_build(const char *fn, pb_crowd_builder *crowd, float time, pb_pose *out)
{
    const pb_variant *v;
    pb_status s = crowd_check_build(fn, crowd, time, out, &v);
    if (s != PB_OK) return s;
    size_t J = crowd->joints, C = crowd->characters;

    /* Looping: hand the sampler each character's wrapped time as its offset
     * with a clock of 0 (exact: 0 + t = t), computed in double so long-running
     * clocks keep their fraction of a frame. */
    float clock = time;
    if (crowd->loop) {
        clock = 0.0f;
        for (size_t k = 0; k < crowd->nclips; k++) {
            double d = pb_clip_duration(crowd->clips[k]);
            for (size_t m = crowd->group_start[k]; m < crowd->group_start[k + 1]; m++) {
                double t = d > 0 ? fmod((double)time + crowd->offsets[crowd->members[m]], d) : 0.0;
                if (t < 0) t += d;
                crowd->times[m] = (float)t;   /* rounds to at most d, still inside the clip */
            }
        }
    }

    for (size_t k = 0; k < crowd->nclips; k++) {
        size_t first = crowd->group_start[k], len = crowd->group_start[k + 1] - first;
        if (len == 0) continue;
        pb_call call = { .clip = crowd->clips[k], .b = crowd->turns ? crowd->turns[k] : NULL,
                         .offsets = crowd->times + first, .params = { .time = clock } };
        pb_op op = crowd->turns ? PB_OP_sample_linear_turns : method_op(crowd->method);
        if (len == C) {   /* the whole crowd plays this clip, in character order */
            call.out = out;
            return pb_run(op, v, &call);
        }
        pb_pose group = scratch_view(&crowd->scratch, J * len);
        call.out = &group;
        if ((s = pb_run(op, v, &call)) != PB_OK) return s;
        const size_t *who = crowd->members + first;
        for (int p = 0; p < PB_PLANES; p++)
            for (size_t j = 0; j < J; j++) {
                const float *src = group.plane[p] + j * len;
                float *dst = out->plane[p] + j * C;
                for (size_t m = 0; m < len; m++) dst[who[m]] = src[m];
            }
    }
    return PB_OK;
}

pb_status pb_crowd_build(pb_crowd_builder *crowd, float time, pb_pose *out)
{
    return crowd_build("pb_crowd_build", crowd, time, out);
}

pb_status pb_crowd_skeleton(pb_skeleton *s, const pb_bvh_skeleton *bvh, size_t characters)
{
    if (!s) return pb_fail(PB_ERR_NULL, "pb_crowd_skeleton: skeleton is NULL");
    memset(s, 0, sizeof *s);
    if (!bvh) return pb_fail(PB_ERR_NULL, "pb_crowd_skeleton: bvh is NULL");
    if (bvh->joints == 0) return pb_fail(PB_ERR_EMPTY, "pb_crowd_skeleton: bvh has 0 joints");
    if (!bvh->parents) return pb_fail(PB_ERR_NULL, "pb_crowd_skeleton: bvh.parents is NULL");
    if (characters == 0) return pb_fail(PB_ERR_EMPTY, "pb_crowd_skeleton: characters is 0 (at least one)");
    return pb_skeleton_init(s, bvh->parents, bvh->joints, characters);
}

/* ---- Transitions ------------------------------------------------------------------- */

void pb_transitions_free(pb_transitions *tr)
{
    if (!tr) return;
    free(tr->desc);
    pb_crowd_builder_free(&tr->src);
    pb_crowd_builder_free(&tr->dst);
    pb_pose_free(&tr->source);
    pb_pose_free(&tr->dest);
    pb_pose_free(&tr->offset);
    memset(tr, 0, sizeof *tr);
}

/* One side of a pair: a usable clip with the batch's joint count, and a time
 * inside it (a transition leaves or enters a clip at a moment it has). */
static pb_status check_side(const char *fn, size_t i, const char *side, const pb_clip *clip, float t, size_t *joints)
{
    char what[64];
    snprintf(what, sizeof what, "pairs[%zu].clip_%s", i, side);
    size_t first = *joints;
    pb_status s = check_clip(fn, what, clip, joints);
    if (s != PB_OK) return s;
    if (first && clip->joints != first)
        return pb_fail(PB_ERR_SIZE, "%s: %s has %zu joints but pairs[0].clip_a has %zu (a batch shares one skeleton)",
                       fn, what, clip->joints, first);
    float d = pb_clip_duration(clip);
    if (!isfinite(t) || t < 0 || t > d)
        return pb_fail(PB_ERR_PARAM, "%s: pairs[%zu].time_%s is %g s, outside clip_%s's 0 .. %g s", fn, i, side,
                       (double)t, side, (double)d);
    return PB_OK;
}

/* The index of clip in list[0 .. *count), appended if absent. Linear: a batch
 * plays a handful of distinct clips, and this runs once per pair at build. */
static size_t clip_slot(const pb_clip **list, size_t *count, const pb_clip *clip)
{
    for (size_t k = 0; k < *count; k++)
        if (list[k] == clip) return k;
    list[*count] = clip;
    return (*count)++;
}

/* One side of the batch as a crowd: pair i is character i, playing its clip
 * from its time (the offset), so a clock t samples time + t. */
static pb_status side_crowd(pb_crowd_builder *crowd, const pb_transition_desc *pairs, size_t npairs, int side_b,
                            pb_sample_method method, const pb_variant *variant)
{
    const pb_clip **clips = malloc(npairs * sizeof *clips);
    size_t *clip_of = malloc(npairs * sizeof *clip_of);
    float *times = malloc(npairs * sizeof *times);
    pb_status s = PB_ERR_NOMEM;
    if (clips && clip_of && times) {
        size_t nclips = 0;
        for (size_t i = 0; i < npairs; i++) {
            clip_of[i] = clip_slot(clips, &nclips, side_b ? pairs[i].clip_b : pairs[i].clip_a);
            times[i] = side_b ? pairs[i].time_b : pairs[i].time_a;
        }
        pb_crowd_desc d = { .clips = clips, .nclips = nclips, .characters = npairs, .clip_of = clip_of,
                            .offsets = times, .method = method, .variant = variant };
        s = pb_crowd_builder_init(crowd, &d);
    } else {
        pb_fail(s, "pb_transitions_build: out of memory for %zu pairs", npairs);
    }
    free(clips);
    free(clip_of);
    free(times);
    return s;
}

pb_status pb_transitions_build(pb_transitions *tr, const pb_transition_desc *pairs, size_t npairs,
                               pb_sample_method method, const pb_variant *variant)
{
    static const char fn[] = "pb_transitions_build";
    if (!tr) return pb_fail(PB_ERR_NULL, "%s: tr is NULL", fn);
    memset(tr, 0, sizeof *tr);
    if (!pairs) return pb_fail(PB_ERR_NULL, "%s: pairs is NULL", fn);
    if (npairs == 0) return pb_fail(PB_ERR_EMPTY, "%s: npairs is 0 (at least one transition)", fn);
    if (!method_ok(method)) return pb_fail(PB_ERR_PARAM, "%s: method is %d (not a pb_sample_method)", fn, (int)method);
    pb_status s;
    if (variant && (s = pb_variant_check(variant)) != PB_OK) return s;
    size_t J = 0;
    for (size_t i = 0; i < npairs; i++) {
        if ((s = check_side(fn, i, "a", pairs[i].clip_a, pairs[i].time_a, &J)) != PB_OK) return s;
        if ((s = check_side(fn, i, "b", pairs[i].clip_b, pairs[i].time_b, &J)) != PB_OK) return s;
    }
    if (npairs > SIZE_MAX / J || npairs > SIZE_MAX / sizeof *tr->desc)
        return pb_fail(PB_ERR_SIZE, "%s: %zu joints x %zu pairs overflows", fn, J, npairs);

    tr->joints = J;
    tr->pairs = npairs;
    tr->n = J * npairs;
    tr->desc = malloc(npairs * sizeof *tr->desc);
    if (!tr->desc) {
        memset(tr, 0, sizeof *tr);
        return pb_fail(PB_ERR_NOMEM, "%s: out of memory for %zu pairs", fn, npairs);
    }
    memcpy(tr->desc, pairs, npairs * sizeof *tr->desc);
    if ((s = side_crowd(&tr->src, pairs, npairs, 0, method, variant)) != PB_OK ||
        (s = side_crowd(&tr->dst, pairs, npairs, 1, method, variant)) != PB_OK ||
        (s = pb_pose_alloc(&tr->source, tr->n)) != PB_OK || (s = pb_pose_alloc(&tr->dest, tr->n)) != PB_OK ||
        (s = pb_pose_alloc(&tr->offset, tr->n)) != PB_OK)
        goto fail;
    /* At the transition: each side's clock at 0, so every pair samples
     * exactly its time_a / time_b; then the offset the inertializer decays. */
    if ((s = crowd_build(fn, &tr->src, 0.0f, &tr->source)) != PB_OK ||
        (s = crowd_build(fn, &tr->dst, 0.0f, &tr->dest)) != PB_OK)
        goto fail;
    pb_call call = { .a = &tr->source, .b = &tr->dest, .out = &tr->offset };
    if ((s = pb_run(PB_OP_inertialize_offset, variant, &call)) != PB_OK) goto fail;
    return PB_OK;
fail:
    pb_transitions_free(tr);
    return s;
}

static pb_status transitions_at(const char *fn, pb_transitions *tr, int dest, float t, pb_pose *out)
{
    if (!tr) return pb_fail(PB_ERR_NULL, "%s: tr is NULL", fn);
    if (!tr->desc) return pb_fail(PB_ERR_PARAM, "%s: tr was not built by pb_transitions_build (or was freed)", fn);
    return crowd_build(fn, dest ? &tr->dst : &tr->src, t, out);
}
pb_status pb_transitions_dest_at(pb_transitions *tr, float t, pb_pose *out)
{
    return transitions_at("pb_transitions_dest_at", tr, 1, t, out);
}
pb_status pb_transitions_source_at(pb_transitions *tr, float t, pb_pose *out)
{
    return transitions_at("pb_transitions_source_at", tr, 0, t, out);
}

pb_status pb_transitions_generate(pb_transition_desc *pairs, size_t npairs, const pb_clip *const *clips,
                                  size_t nclips, uint64_t seed)
{
    static const char fn[] = "pb_transitions_generate";
    if (!pairs) return pb_fail(PB_ERR_NULL, "%s: pairs is NULL", fn);
    if (!clips) return pb_fail(PB_ERR_NULL, "%s: clips is NULL", fn);
    if (npairs == 0) return pb_fail(PB_ERR_EMPTY, "%s: npairs is 0", fn);
    if (nclips == 0) return pb_fail(PB_ERR_EMPTY, "%s: nclips is 0 (at least one clip)", fn);
    size_t J = 0;
    for (size_t k = 0; k < nclips; k++) {
        char what[48];
        snprintf(what, sizeof what, "clips[%zu]", k);
        pb_status s = check_clip(fn, what, clips[k], &J);
        if (s != PB_OK) return s;
        if (clips[k]->joints != J)
            return pb_fail(PB_ERR_SIZE, "%s: clips[%zu] has %zu joints but clips[0] has %zu", fn, k, clips[k]->joints, J);
    }
    uint64_t rng = seed;
    for (size_t i = 0; i < npairs; i++) {
        size_t k = (i / 4) % nclips;
        const pb_clip *a = clips[k], *next = clips[(k + 1) % nclips];
        float da = pb_clip_duration(a);
        pb_transition_desc p = { .clip_a = a, .clip_b = a };
        switch (i % 4) {
        case 0:   /* different motion: the large offsets inertialization is for */
            p.clip_b = next;
            p.time_a = pb_rng_unit01(&rng) * da;
            p.time_b = pb_rng_unit01(&rng) * pb_clip_duration(next);
            break;
        case 1:   /* a jump within a clip, as motion matching makes */
            p.time_a = pb_rng_unit01(&rng) * da;
            p.time_b = pb_rng_unit01(&rng) * da;
            break;
        case 2:   /* one frame ahead: a tiny offset, where rounding shows */
            p.time_a = pb_rng_unit01(&rng) * da;
            p.time_b = fminf(p.time_a + 1.0f / a->fps, da);
            break;
        default:  /* a seam: the end of one clip into the start of the next */
            p.clip_b = next;
            p.time_a = da;
            p.time_b = 0.0f;
            break;
        }
        pairs[i] = p;
    }
    return PB_OK;
}
