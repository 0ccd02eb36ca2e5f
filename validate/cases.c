/* cases.c — the validation's input cases: synthetic families (every class at
 * every lane tail, degenerate parameters, skeleton crowds, clips, chains),
 * the real-data cases drawn from loaded motion capture, and the buffers of
 * one case: its inputs (from the shared builder, inputs.c), outputs, double
 * views and the per-character arrays of the "per" forms. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"

static const float alphas[] = { 0.5f, 0.0f, 1.0f, 0.25f, 0.75f, 1e-3f, 0.999f, 0.37f };
static const size_t sizes[] = { 1, 15, 16, 17, 1000 };
#define BIG_N 100003
#define NA (sizeof alphas / sizeof alphas[0])

/* Ordinary parameters, varied from case to case. */
static pb_params case_params(size_t k)
{
    static const float alpha_vel[] = { 0.0f, 2.5f, -1.0f, 7.0f };
    static const float dt[] = { 1.0f / 60, 1.0f / 30, 0.1f, 1.0f / 120 };
    static const float time[] = { 0.05f, 0.2f, 0.5f, 1.3f };
    static const float halflife[] = { 0.1f, 0.25f, 0.05f, 1.0f };
    static const float duration[] = { 0.3f, 0.5f, 0.15f, 1.0f };
    static const float timescale[] = { 1.0f, 1.5f, -0.5f, 0.25f };
    static const float axes[4][3] = { { 0, 0, 1 }, { 1, 0, 0 }, { 0.3f, -0.4f, 0.5f }, { 0, 2, 0 } };
    static const float cone[4] = { 0.7f, 1.5f, 0.2f, 2.6f };   /* rad: each clamps part of the random turns */
    pb_params p = { alphas[k % NA], alpha_vel[k % 4], dt[k % 4], time[(k / 4) % 4], halflife[(k + 1) % 4],
                    duration[(k + 2) % 4], timescale[(k + 3) % 4], { axes[k % 4][0], axes[k % 4][1], axes[k % 4][2] },
                    PB_SCALE_DEFAULT, cone[(k + 1) % 4], 0, 0, 0, 0, 0, 0 };   /* estimate_halflife: Unreal's defaults */
    return p;
}

/* Degenerate parameters: each must give a defined result, no NaN/Inf. */
/* Chain IK: L joints per chain, 10 iterations, tolerance 0 (all of them;
 * real: 1 mm, the stopping masks at work). */
static pb_params chain_params(int L, int real)
{
    pb_params p = case_params(0);
    p.chain_joints = L;
    p.iterations = 10;
    p.tolerance = real ? 1e-3f : 0.0f;
    p.cone = 0.7f;   /* ccd_cone: clamps many random chains' bends */
    return p;
}

static pb_params degenerate_params(size_t k)
{
    pb_params p = case_params(k);
    switch (k % 4) {
    case 0: p.dt = 0; p.halflife = 0; p.duration = 0; p.time = 0; p.alpha = -0.5f; p.cone = 0; break;
    case 1: p.alpha = 1.5f; p.halflife = 0; p.time = p.duration; p.cone = 1e-7f; break;
    case 2: p.duration = 0; p.alpha = 0; p.timescale = 0; p.cone = 3.14159265f; break;
    default: p.alpha = 2.0f; p.alpha_vel = -40.0f; p.dt = 1e-6f; p.time = 100.0f; p.cone = 100.0f; break;
    }
    return p;
}

static size_t make_cases(pb_vcase *c, int quick)
{
    size_t k = 0;
    for (int cl = 0; cl < PB_CLASS_MIXED; cl++) {
        if (cl == PB_CLASS_DEGENERATE) continue;
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++, k++)
            c[k] = (pb_vcase){ (pb_class)cl, sizes[s], case_params(k), 0, 0, 0, 0, 0, 0 };
    }
    for (size_t d = 0; d < 4; d++, k++) c[k] = (pb_vcase){ PB_CLASS_DEGENERATE, d % 2 ? 1000 : 17, degenerate_params(d), 0, 0, 0, 0, 0, 0 };
    c[k++] = (pb_vcase){ PB_CLASS_MIXED, 1000, case_params(7), 0, 0, 0, 0, 0, 0 };
    if (!quick) c[k++] = (pb_vcase){ PB_CLASS_MIXED, BIG_N, case_params(5), 0, 0, 0, 0, 0, 0 };
    return k;
}

/* Skeleton ops: random 64-joint skeletons up to 16 deep shared by crowds of
 * 1, 3, 16, 17 and 40 characters (both fk paths, every tail), one 4096-joint
 * skeleton up to 24 deep, and (full runs) a crowd of 1600 x 64 joints. */
static size_t make_skel_cases(pb_vcase *c, int quick)
{
    static const size_t chars[] = { 1, 3, 16, 17, 40 };
    static const pb_class cls[] = { PB_CLASS_RANDOM, PB_CLASS_IDENTITY, PB_CLASS_NEAR_IDENTICAL,
                                    PB_CLASS_ANTIPODAL, PB_CLASS_NEAR_PI, PB_CLASS_ZERO_VEL };
    size_t k = 0;
    for (size_t i = 0; i < sizeof cls / sizeof cls[0]; i++)
        for (size_t j = 0; j < sizeof chars / sizeof chars[0]; j++, k++)
            c[k] = (pb_vcase){ cls[i], 64 * chars[j], case_params(k), 64, chars[j], 0, 0, 0, 0 };
    c[k++] = (pb_vcase){ PB_CLASS_MIXED, 4096, case_params(3), 4096, 1, 0, 0, 0, 0 };
    if (!quick) c[k++] = (pb_vcase){ PB_CLASS_MIXED, 64 * 1600, case_params(6), 64, 1600, 0, 0, 0, 0 };
    return k;
}

/* Sampling: clips of frames x joints at a frame rate, sampled by characters
 * at their own times (pb_gen_clip_class says what each class means here).
 * Power-of-two rates keep time -> frame position exact in float, which the
 * velocity check needs; 30 and 120 fps cases check accuracy at real rates. */
static size_t make_sample_cases(pb_vcase *c, int quick)
{
    static const struct { pb_class cls; size_t frames, joints, chars; float fps; } t[] = {
        { PB_CLASS_RANDOM, 30, 31, 1, 64 },       { PB_CLASS_RANDOM, 30, 31, 16, 64 },
        { PB_CLASS_RANDOM, 30, 31, 17, 64 },      { PB_CLASS_RANDOM, 30, 5, 40, 30 },
        { PB_CLASS_RANDOM, 7, 3, 1000, 120 },     { PB_CLASS_IDENTITY, 1, 5, 17, 30 },
        { PB_CLASS_NEAR_IDENTICAL, 30, 5, 17, 30 }, { PB_CLASS_NEAR_PI, 10, 5, 17, 64 },
        { PB_CLASS_ANTIPODAL, 10, 5, 17, 64 },    { PB_CLASS_ZERO_VEL, 10, 5, 17, 64 },
        { PB_CLASS_DEGENERATE, 2, 3, 16, 64 },
    };
    size_t k = 0;
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++, k++) {
        pb_params p = t[i].cls == PB_CLASS_DEGENERATE ? degenerate_params(i) : case_params(i);
        p.time = t[i].cls == PB_CLASS_NEAR_IDENTICAL ? 0.0f : 0.125f;   /* on the 2^-10 grid of the offsets */
        c[k] = (pb_vcase){ t[i].cls, t[i].joints * t[i].chars, p, t[i].joints, t[i].chars, t[i].frames, t[i].fps, 0, 0 };
    }
    if (!quick) c[k++] = (pb_vcase){ PB_CLASS_MIXED, 31 * 1000, case_params(2), 31, 1000, 120, 120, 0, 0 };
    return k;
}

/* Real motion capture, after an op's synthetic cases: the same op family
 * on the loaded clips (elementwise ops on real frames and transitions;
 * crowds of the real skeletons; real legs; the clips themselves). Clip
 * cases take a window of at most PB_CASE_CLIP_WINDOW_KEYS keys at a seeded
 * frame, so a case's memory does not grow with the file. */
static size_t make_mocap_cases(const pb_op_info *info, const pb_mocap *m, uint64_t seed, pb_vcase *c)
{
    size_t k = 0;
    if (!m || m->nclips == 0 || (info->flags & PB_OPF_SCALAR_IN)) return 0;
    pb_params p = case_params(1);
    p.time = 0.125f;
    for (size_t i = 0; i < m->nclips && k < 24; i++) {
        const pb_clip *cl = &m->clips[i];
        size_t J = cl->joints, W, f0;
        pb_case_clip_window(cl, seed + 0x9E3779B97F4A7C15ull * (i + 1), &W, &f0);
        if (info->flags & PB_OPF_CLIP_IN) {
            c[k++] = (pb_vcase){ PB_CLASS_MOCAP, W * J, p, J, 1, W, cl->fps, i, f0 };
        } else if (info->flags & PB_OPF_SAMPLE) {
            static const size_t chars[] = { 1, 17, 100 };
            for (size_t q = 0; q < 3; q++) c[k++] = (pb_vcase){ PB_CLASS_MOCAP, J * chars[q], p, J, chars[q], W, cl->fps, i, f0 };
        } else if (info->flags & (PB_OPF_SKELETON | PB_OPF_ROOTS)) {
            static const size_t chars[] = { 1, 17, 64 };
            for (size_t q = 0; q < (i ? 2u : 3u); q++) c[k++] = (pb_vcase){ PB_CLASS_MOCAP, J * chars[q], p, J, chars[q], 0, 0, i, 0 };
        }
    }
    if (info->flags & PB_OPF_CHAIN) c[k++] = (pb_vcase){ PB_CLASS_MOCAP, 3 * 1000, p, 3, 1000, 0, 0, 0, 0 };
    for (int L = 3; L <= 5 && (info->flags & PB_OPF_NCHAIN); L++) {   /* legs (to the toe) and arms */
        pb_params pc = chain_params(L, 1);
        c[k++] = (pb_vcase){ PB_CLASS_MOCAP, (size_t)L * 1000, pc, (size_t)L, 1000, 0, 0, 0, 0 };
    }
    /* (585 characters: 4095 elements, within the velocity check's 4096) */
    if (info->flags & PB_OPF_FOOT) c[k++] = (pb_vcase){ PB_CLASS_MOCAP, 7 * 585, p, 7, 585, 0, 0, 0, 0 };
    if (!(info->flags & (PB_OPF_CLIP_IN | PB_OPF_SAMPLE | PB_OPF_SKELETON | PB_OPF_ROOTS | PB_OPF_CHAIN |
                         PB_OPF_NCHAIN | PB_OPF_FOOT))) {
        c[k++] = (pb_vcase){ PB_CLASS_MOCAP, 1000, p, 0, 0, 0, 0, 0, 0 };
        c[k++] = (pb_vcase){ PB_CLASS_MOCAP, 4096, case_params(6), 0, 0, 0, 0, 0, 0 };
    }
    return k;
}

/* Two-bone chains: every class (pb_gen_chains says what each means for a
 * chain) at 1, 15, 16, 17 and 1000 chains, and 100003 mixed in full runs. */
static size_t make_chain_cases(pb_vcase *c, int quick)
{
    static const size_t chains[] = { 1, 15, 16, 17, 1000 };
    size_t k = 0;
    for (int cl = 0; cl < PB_CLASS_MIXED; cl++)
        for (size_t j = 0; j < sizeof chains / sizeof chains[0]; j++, k++)
            c[k] = (pb_vcase){ (pb_class)cl, 3 * chains[j], cl == PB_CLASS_DEGENERATE ? degenerate_params(j) : case_params(k),
                            3, chains[j], 0, 0, 0, 0 };
    if (!quick) c[k++] = (pb_vcase){ PB_CLASS_MIXED, 3 * 33334, case_params(3), 3, 33334, 0, 0, 0, 0 };
    return k;
}
/* Chains of L joints for the chain IK ops: every class at 17 and 1000
 * chains (both with a partial vector) of 3, 4, 7 and 16 joints (quick: 4 and 16),
 * 10 iterations at tolerance 0 (see ops.def), and (full runs) 20000 mixed
 * chains of 6. */
static size_t make_nchain_cases(pb_vcase *c, int quick)
{
    static const pb_class cls[] = { PB_CLASS_RANDOM, PB_CLASS_IDENTITY, PB_CLASS_NEAR_IDENTICAL, PB_CLASS_NEAR_PI,
                                    PB_CLASS_ANTIPODAL, PB_CLASS_DEGENERATE, PB_CLASS_MIXED };
    static const int lens[] = { 3, 4, 7, 16 };
    static const size_t chains[] = { 17, 1000 };
    size_t k = 0;
    for (size_t q = 0; q < sizeof cls / sizeof cls[0]; q++)
        for (size_t l = quick; l < 4; l += 1 + (size_t)quick)
            for (size_t j = 0; j < 2; j++)
                c[k++] = (pb_vcase){ cls[q], (size_t)lens[l] * chains[j], chain_params(lens[l], 0), (size_t)lens[l],
                                     chains[j], 0, 0, 0, 0 };
    if (!quick) c[k++] = (pb_vcase){ PB_CLASS_MIXED, 6 * 20000, chain_params(6, 0), 6, 20000, 0, 0, 0, 0 };
    return k;
}

void pb_val_cases_make(pb_val_cases *c, int quick)
{
    c->nnchain = make_nchain_cases(c->nchain_cases, quick);
    c->nplain = make_cases(c->plain, quick);
    c->nskel = make_skel_cases(c->skel, quick);
    c->nchain = make_chain_cases(c->chain, quick);
    c->nsample = make_sample_cases(c->sample, quick);
}

size_t pb_val_op_cases(const pb_val_cases *c, const pb_op_info *info, const pb_mocap *m, uint64_t seed, pb_vcase *out)
{
    int skeletal = (info->flags & (PB_OPF_SKELETON | PB_OPF_ROOTS)) != 0;
    int chained = (info->flags & (PB_OPF_CHAIN | PB_OPF_FOOT)) != 0;
    int sampling = (info->flags & (PB_OPF_SAMPLE | PB_OPF_CLIP_IN)) != 0;
    int nchained = (info->flags & PB_OPF_NCHAIN) != 0;
    const pb_vcase *fam = sampling ? c->sample : chained ? c->chain : nchained ? c->nchain_cases : skeletal ? c->skel : c->plain;
    size_t nfam = sampling ? c->nsample : chained ? c->nchain : nchained ? c->nnchain : skeletal ? c->nskel : c->nplain;
    memcpy(out, fam, nfam * sizeof *fam);
    if (info->flags & PB_OPF_FOOT)   /* foot IK: the chain cases' classes and counts, 7 elements a character */
        for (size_t i = 0; i < nfam; i++) {
            out[i] = c->chain[i];
            out[i].joints = 7;
            out[i].n = 7 * out[i].characters;
        }
    size_t k = nfam + make_mocap_cases(info, m, seed, out + nfam);
    if ((info->flags & (PB_OPF_NCHAIN | PB_OPF_CONE)) == (PB_OPF_NCHAIN | PB_OPF_CONE))
        for (size_t i = 0; i < k; i++) out[i].p.iterations = 1;   /* ccd_cone: one sweep (see its ops.def row) */
    return k;
}

/* ---- one case's buffers ------------------------------------------------------------------- */

void pb_aos_layout(pb_pose_aos *a, float *mem, size_t n)
{
    float *p = mem;
    a->n = n;
    a->pos = (pb_vec3 *)p; p += 3 * n;
    a->rot = (pb_quat *)p; p += 4 * n;
    a->scl = (pb_vec3 *)p; p += 3 * n;
    a->vel = (pb_vec3 *)p; p += 3 * n;
    a->ang = (pb_vec3 *)p; p += 3 * n;
    a->svl = (pb_vec3 *)p;
}

static int aos_alloc(pb_pose_aos *a, float **mem, size_t n)
{
    *mem = malloc(n * PB_AOS_FLOATS * sizeof(float));
    if (!*mem) return -1;
    pb_aos_layout(a, *mem, n);
    return 0;
}

void pb_val_bufs_free(pb_val_bufs *b)
{
    pb_pose_free(&b->a); pb_pose_free(&b->b); pb_pose_free(&b->out); pb_pose_free(&b->hl);
    pb_pose_free(&b->via); pb_pose_free(&b->via0); pb_dpose_free(&b->dvia);
    free(b->aos_mem[0]); free(b->aos_mem[1]); free(b->pal.data); free(b->per_mem); free(b->offsets); free(b->err);
    pb_dpose_free(&b->da); pb_dpose_free(&b->db); pb_dpose_free(&b->oracle);
    pb_dpose_free(&b->method); pb_dpose_free(&b->ref); pb_dpose_free(&b->test);
    pb_skeleton_free(&b->sk);
    memset(b, 0, sizeof *b);
}

/* Inputs of n_in elements, outputs of n_out (equal but for sampling). */
int pb_val_bufs_alloc(pb_val_bufs *b, size_t n_in, size_t n_out)
{
    memset(b, 0, sizeof *b);
    b->pal.n = n_out;
    if (pb_pose_alloc(&b->a, n_in) || pb_pose_alloc(&b->b, n_in) || pb_pose_alloc(&b->out, n_out) ||
        aos_alloc(&b->aos_in, &b->aos_mem[0], n_in) || aos_alloc(&b->aos_out, &b->aos_mem[1], n_in) ||
        pb_dpose_alloc(&b->da, n_in) || pb_dpose_alloc(&b->db, n_in) || pb_dpose_alloc(&b->oracle, n_out) ||
        pb_dpose_alloc(&b->method, n_out) || pb_dpose_alloc(&b->ref, n_out) || pb_dpose_alloc(&b->test, n_out) ||
        !(b->err = malloc(n_out * sizeof *b->err)) ||
        !(b->pal.data = malloc((n_out * PB_PALETTE_MAT_FLOATS + 1) * sizeof(float)))) {
        pb_val_bufs_free(b);
        return -1;
    }
    return 0;
}

/* The "per" form: parameters per character (the skeleton's, else n / J for the
 * largest J of 64, 16, 4, 2, 1 dividing n) and a per-joint weight mask; the
 * half-life-axes form: half-lives per joint per axis, every other parameter uniform; the
 * halflives form: half-lives per element, axis and channel (per.halflives); the limits forms:
 * joint limits per joint (clamp with half-lives per joint per axis, bounce with the uniform
 * half-life); the shared form: the palettes' b (inverse bind) one per joint. */
static pb_status case_arrays(pb_val_bufs *b, const pb_vcase *cs, const pb_op_info *info, int form, uint64_t seed)
{
    size_t J = 64;
    while (cs->n % J) J /= 2;
    size_t C = b->skel ? b->skel->characters : (info->flags & PB_OPF_NCHAIN) ? cs->characters : cs->n / J;
    size_t joints = cs->n / C;
    if (form == PB_FORM_VIA) return pb_val_via_build(b, seed);   /* uniform parameters */
    if (form == PB_FORM_SHARED) {   /* palettes: b's first character per joint, shared by C characters */
        static const size_t want[3] = { 3, 20, 125 };   /* fewer characters than lanes, straddling, many */
        size_t Cs = want[seed % 3] < cs->n ? want[seed % 3] : cs->n;
        while (cs->n % Cs) Cs++;   /* the smallest divisor of n from there (n at most) */
        for (int p = 0; p < PB_PLANES; p++)
            for (size_t j = 0; j < b->b.stride; j++)   /* past the joints: padding, identity */
                b->b.plane[p][j] = j < cs->n / Cs ? b->b.plane[p][j * Cs] : pb_plane_identity(p);
        b->b.n = cs->n / Cs;
        b->per = (pb_param_arrays){ .characters = Cs };
        return PB_OK;
    }
    if (form == PB_FORM_HALFLIVES) {   /* per element, per axis and channel */
        if (pb_pose_alloc(&b->hl, cs->n) != PB_OK) return pb_fail(PB_ERR_NOMEM, "validate: out of memory");
        pb_gen_halflives(&b->hl, seed);
        b->per = (pb_param_arrays){ .halflives = &b->hl };
        return PB_OK;
    }
    if (!(b->per_mem = malloc((7 * C + 13 * joints) * sizeof(float))))
        return pb_fail(PB_ERR_NOMEM, "validate: out of memory");
    if (form == PB_FORM_CLAMP || form == PB_FORM_BOUNCE) {
        float *lo = b->per_mem + 3 * joints, *hi = lo + 3 * joints, *rest = hi + 3 * joints;
        pb_gen_limits(lo, hi, rest, joints, seed);
        b->lim = (pb_joint_limits){ form == PB_FORM_CLAMP ? PB_LIMIT_CLAMP : PB_LIMIT_BOUNCE, lo, hi, rest };
        b->per = (pb_param_arrays){ .characters = C, .limits = &b->lim };
        if (form == PB_FORM_CLAMP) {
            pb_gen_halflife_axes(b->per_mem, joints, seed);
            b->per.halflife_axis = b->per_mem;
        }
    } else if (form == PB_FORM_PER) {
        pb_gen_param_arrays(&b->per, b->per_mem, cs->n, C, info->flags, seed);
    } else if (info->flags & PB_OPF_NCHAIN) {   /* ccd_cone's cones per joint: tight, loose, 0 and no limit */
        static const float cones[6] = { 0.5f, 1.2f, 0.0f, 0.25f, 4.0f, 0.8f };
        for (size_t j = 0; j < cs->n / C; j++) b->per_mem[j] = cones[(j + seed) % 6];
        b->per = (pb_param_arrays){ .characters = C, .joint_cone = b->per_mem };
    } else {
        pb_gen_halflife_axes(b->per_mem, cs->n / C, seed);
        b->per = (pb_param_arrays){ .characters = C, .halflife_axis = b->per_mem };
    }
    return PB_OK;
}

pb_status pb_val_case_build(pb_val_bufs *b, const pb_vcase *cs, const pb_op_info *info, int form, const pb_mocap *m,
                            uint64_t seed, size_t ci)
{
    int skeletal = (info->flags & (PB_OPF_SKELETON | PB_OPF_ROOTS)) != 0;
    int sampling = (info->flags & (PB_OPF_SAMPLE | PB_OPF_CLIP_IN)) != 0;
    size_t n_in = pb_case_in_n(cs, info), n_out = (info->flags & PB_OPF_CLIP_IN) ? n_in : cs->n;
    if (pb_val_bufs_alloc(b, n_in, n_out) || (sampling && !(b->offsets = malloc(cs->characters * sizeof *b->offsets)))) {
        pb_val_bufs_free(b);
        return pb_fail(PB_ERR_NOMEM, "validate: out of memory for n = %zu", cs->n);
    }
    /* the inputs (with the AoS input, which pose_from_aos reads and the double views take) */
    pb_case_bufs io = { &b->a, &b->b, &b->aos_in, b->offsets, skeletal ? &b->sk : NULL };
    pb_status s = pb_case_fill(&io, cs, info, m, seed, ci);
    if (s == PB_OK && skeletal) b->skel = &b->sk;
    if (sampling) {   /* the clip the runner hands the op: pose a's keys */
        b->frames = cs->frames;
        b->joints = cs->joints;
        b->fps = cs->fps;
    }
    if (s == PB_OK && form >= PB_FORM_PER) s = case_arrays(b, cs, info, form, seed + ci);
    if (s != PB_OK) {
        pb_fail(s, "validate: inputs of %s (%s, n = %zu): %s", info->name, pb_class_name(cs->cls), cs->n, pb_last_error());
        pb_val_bufs_free(b);
        return s;
    }
    pb_dpose_from_pose(&b->da, &b->a);
    pb_dpose_from_pose(&b->db, &b->b);
    pb_dpose_from_aos(&b->da, &b->aos_in);
    return PB_OK;
}
