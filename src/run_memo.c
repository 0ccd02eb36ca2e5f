/* run_memo.c — a call site's last validated call (internal.h, pb_run_memo).
 *
 * The frame runs the same calls every frame, block by block: the same poses
 * (a block's own, or its thread's scratch), new contents and parameters.
 * pb_run validated each in full every time (every pose's planes, alignment
 * and padding, the overlaps of out with each input), about 5 % of the fused
 * default frame at blocks of 32 characters (AVX-512, Zen 4, perf). A memo
 * keeps the validated call: when the next call names the same op and
 * variant and every struct it points to still describes the same memory,
 * only the parameters are checked again, as pb_plan_set_params checks them;
 * anything else is a new call, validated in full (and remembered if it
 * passes). Contents are not re-checked, as for a plan (ops.h, "Plans").
 *
 * pb_run itself keeps a few memos per thread (pb_run_remembered): its checks cost 130-330 ns a
 * call at 64 joints (perf: the planes' layout and padding loops, the overlap pairs, the kernel
 * block), several times a small kernel. It remembers only calls whose checks read nothing but
 * the structs (no clip, AoS arrays, time offsets, per-element arrays or chain IK, whose checks
 * scan data), and on a repeat checks again what a full check would find changed in memory the
 * structs still describe: the poses' padding (when n is not a whole number of vectors) and the
 * parameters, in pb_plan_prepare's order, so every error is the one a full check gives. */
#include <string.h>

#include "internal.h"

static void pose_keep(pb_pose *dst, const pb_pose *p)
{
    if (p) *dst = *p;
    else memset(dst, 0, sizeof *dst);
}
static int pose_same(const pb_pose *kept, const pb_pose *p)
{
    if (!p) return 1;   /* the pointers were compared: both NULL */
    return kept->gen == p->gen && kept->n == p->n && kept->stride == p->stride &&
           !memcmp(kept->plane, p->plane, sizeof p->plane);
}

/* Whether c repeats the memo's call (op and variant aside). Calls with a clip or AoS arrays are
 * never memoized (their structs hold more than this compares). */
static int call_same(const pb_run_memo *m, const pb_call *c)
{
    const pb_call *o = &m->call;
    if (c->a != o->a || c->b != o->b || c->out != o->out || c->aos_in || c->aos_out || c->clip ||
        c->skel != o->skel || c->offsets != o->offsets || c->palette != o->palette || c->iterations != o->iterations ||
        c->via != o->via || memcmp(&c->per, &o->per, sizeof c->per))
        return 0;
    const pb_pose *p[5] = { c->a, c->b, c->out, c->via, c->per.halflives };
    for (int i = 0; i < 5; i++)
        if (!pose_same(&m->pose[i], p[i])) return 0;
    if (c->palette && (c->palette->data != m->pal.data || c->palette->n != m->pal.n)) return 0;
    return !c->skel || (c->skel->gen == m->skel_gen && c->skel->n == m->skel_n && c->skel->parents == m->parents &&
                        c->skel->order == m->order);
}

static void memo_keep(pb_run_memo *m, const pb_call *c);

static pb_status memo_call(pb_run_memo *m, pb_op op, const pb_variant *v, const pb_call *c)
{
    if (!m || !c || !v) return pb_run(op, v, c);
    if (m->valid && m->plan.op == op && m->plan.variant == v && call_same(m, c)) {
        pb_status s = pb_plan_set_params(&m->plan, &c->params);
        if (s != PB_OK) return s;
        m->plan.k.stream = m->stream_need > (double)pb_stream_bytes();   /* pb_stream_bytes_set may have moved it */
        m->plan.fn(&m->plan.k);
        return PB_OK;
    }
    m->valid = 0;
    pb_status s = pb_plan_prepare(&m->plan, op, v, c);
    if (s != PB_OK) return s;
    m->plan.fn(&m->plan.k);
    /* not kept: calls with a clip or AoS arrays, and the chain IK ops, whose own checks
     * (pb_check_chains) read parameters that pb_plan_set_params does not */
    if (c->clip || c->aos_in || c->aos_out || (pb_op_get(op)->flags & PB_OPF_NCHAIN)) return PB_OK;
    memo_keep(m, c);
    return PB_OK;
}

/* Remember c, just validated into m->plan. */
static void memo_keep(pb_run_memo *m, const pb_call *c)
{
    m->call = *c;
    const pb_pose *p[5] = { c->a, c->b, c->out, c->via, c->per.halflives };
    for (int i = 0; i < 5; i++) pose_keep(&m->pose[i], p[i]);
    if (c->palette) m->pal = *c->palette;
    if (c->skel) {
        m->parents = c->skel->parents;
        m->order = c->skel->order;
        m->skel_n = c->skel->n;
        m->skel_gen = c->skel->gen;
    }
    const pb_kargs *k = &m->plan.k;
    size_t planes = 0;
    for (int i = 0; i < PB_PLANES; i++) planes += (k->a[i] != NULL) + (k->b[i] != NULL) + (k->out[i] != NULL);
    m->stream_need = (double)planes * (double)k->n_padded * sizeof(float);   /* as pb_kargs_from_call */
    m->valid = 1;
}

pb_status pb_run_memoized(struct pb_run_memos *ms, pb_op op, const pb_variant *v, const pb_call *c)
{
    if (!ms) return pb_run(op, v, c);
    for (int i = 0; i < PB_RUN_MEMOS; i++)
        if (ms->m[i].valid && ms->m[i].plan.op == op) return memo_call(&ms->m[i], op, v, c);
    return memo_call(&ms->m[ms->next++ % PB_RUN_MEMOS], op, v, c);
}

/* ---- pb_run's memos ---------------------------------------------------------------------- */

/* Whether pb_plan_prepare's checks of c read only structs (and pose padding, checked again on
 * a repeat): no clip, AoS arrays, time offsets, per-element arrays or chains. */
static int struct_only(const pb_op_info *info, const pb_call *c)
{
    const pb_param_arrays *pa = &c->per;
    if (c->clip || c->aos_in || c->aos_out || c->offsets ||
        (info->flags & (PB_OPF_SAMPLE | PB_OPF_CLIP_IN | PB_OPF_AOS_IN | PB_OPF_AOS_OUT | PB_OPF_NCHAIN)))
        return 0;
    return !pa->alpha && !pa->alpha_vel && !pa->time && !pa->duration && !pa->halflife && !pa->timescale &&
           !pa->mask && !pa->halflife_axis && !pa->halflives && !pa->limits && !pa->cone && !pa->joint_cone;
}

/* What a full check of a repeated call could find changed: a pose's padding (the lanes past n;
 * none when n fills its vectors) and the parameters, in pb_plan_prepare's order (poses a, b,
 * out; parameters; via). */
static pb_status recheck(const pb_op_info *info, pb_run_memo *m, const pb_call *c)
{
    pb_status s;
    if (info->in_a && c->a->n != c->a->stride && (s = pb_pose_check(c->a, "a")) != PB_OK) return s;
    if (info->in_b && c->b->n != c->b->stride && (s = pb_pose_check(c->b, "b")) != PB_OK) return s;
    if (info->out && c->out->n != c->out->stride && (s = pb_pose_check(c->out, "out")) != PB_OK) return s;
    pb_params p = c->params;
    if ((s = pb_check_params(info, &p)) != PB_OK || (s = pb_check_axis(info, &p)) != PB_OK ||
        (s = pb_params_resolve_scale(info, &p)) != PB_OK)
        return s;
    if (c->via && c->via->n != c->via->stride && (s = pb_pose_check(c->via, "via")) != PB_OK) return s;
    m->plan.k.p = p;
    m->plan.k.stream = m->stream_need > (double)pb_stream_bytes();
    return PB_OK;
}

#define PB_ONESHOT_MEMOS 4
static _Thread_local struct {
    pb_run_memo m[PB_ONESHOT_MEMOS];
    unsigned next;
} oneshot;

pb_status pb_run_remembered(pb_op op, const pb_variant *v, const pb_call *c)
{
    const pb_op_info *info = pb_op_get(op);
    pb_plan pl;
    if (!info || !c) return pb_plan_prepare(&pl, op, v, c);   /* its errors */
    pb_status s = v ? pb_variant_check(v) : pb_variant_active(&v);   /* every call: pb_variant_force, pb_cpu_disable */
    if (s != PB_OK) return s;
    if (!struct_only(info, c)) {
        if ((s = pb_plan_prepare_as(&pl, op, v, c)) != PB_OK) return s;
        pl.fn(&pl.k);
        return PB_OK;
    }
    for (int i = 0; i < PB_ONESHOT_MEMOS; i++) {
        pb_run_memo *m = &oneshot.m[i];
        if (!m->valid || m->plan.op != op || m->plan.variant != v || !call_same(m, c)) continue;
        if ((s = recheck(info, m, c)) != PB_OK) return s;
        m->plan.fn(&m->plan.k);
        return PB_OK;
    }
    pb_run_memo *m = &oneshot.m[oneshot.next++ % PB_ONESHOT_MEMOS];
    m->valid = 0;
    if ((s = pb_plan_prepare_as(&m->plan, op, v, c)) != PB_OK) return s;
    m->plan.fn(&m->plan.k);
    memo_keep(m, c);
    return PB_OK;
}
