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
 * passes). Contents are not re-checked, as for a plan (ops.h, "Plans"). */
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
    return kept->n == p->n && kept->stride == p->stride && !memcmp(kept->plane, p->plane, sizeof p->plane);
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

static pb_status memo_call(pb_run_memo *m, pb_op op, const pb_variant *v, const pb_call *c)
{
    if (!m || !c || !v) return pb_run(op, v, c);
    if (m->valid && m->plan.op == op && m->plan.variant == v && call_same(m, c)) {
        pb_status s = pb_plan_set_params(&m->plan, &c->params);
        if (s != PB_OK) return s;
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
    m->valid = 1;
    return PB_OK;
}

pb_status pb_run_memoized(struct pb_run_memos *ms, pb_op op, const pb_variant *v, const pb_call *c)
{
    if (!ms) return pb_run(op, v, c);
    for (int i = 0; i < PB_RUN_MEMOS; i++)
        if (ms->m[i].valid && ms->m[i].plan.op == op) return memo_call(&ms->m[i], op, v, c);
    return memo_call(&ms->m[ms->next++ % PB_RUN_MEMOS], op, v, c);
}
