/* plan.c — plans: a call validated once by pb_plan_prepare (run.c), then run many times with
 * only the staleness compare in front of the kernel (ops.h, "Plans"). */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* What pb_plan_run compares to notice a pose, clip or skeleton freed or re-made since: the
 * structs' generations, and what they describe. */
static void plan_watch_fill(pb_plan *pl, const pb_op_info *info, const pb_call *c)
{
    const pb_pose *poses[PB_PLAN_WATCH] = { info->in_a ? c->a : NULL, info->in_b ? c->b : NULL,
                                             info->out || (info->flags & PB_OPF_SAMPLE) ? c->out : NULL,
                                             c->clip && (info->flags & (PB_OPF_SAMPLE | PB_OPF_CLIP_IN)) ? &c->clip->pose
                                                                                                       : NULL,
                                             c->via };
    for (int i = 0; i < PB_PLAN_WATCH; i++)
        if (poses[i]) {
            pb_plan_watch *w = &pl->watch[pl->nwatch++];
            *w = (pb_plan_watch){ poses[i], poses[i]->gen, poses[i]->n, poses[i]->stride, { 0 } };
            memcpy(w->plane, poses[i]->plane, sizeof w->plane);
        }
    if (info->flags & (PB_OPF_SKELETON | PB_OPF_ROOTS)) {
        pl->skel = c->skel;
        pl->skel_parents = c->skel->parents;
        pl->skel_gen = c->skel->gen;
        pl->skel_n = c->skel->n;
    }
}

pb_status pb_plan_create(pb_plan **plan, pb_op op, const pb_variant *v, const pb_call *call)
{
    if (!plan) return pb_fail(PB_ERR_NULL, "pb_plan_create: plan pointer is NULL");
    *plan = NULL;
    pb_plan tmp;
    pb_status s = pb_plan_prepare(&tmp, op, v, call);
    if (s != PB_OK) return s;
    plan_watch_fill(&tmp, pb_op_get(op), call);   /* not pb_run's: only a plan outlives its call */
    pb_plan *p = malloc(sizeof *p);
    if (!p) return pb_fail(PB_ERR_NOMEM, "pb_plan_create: out of memory (%zu bytes)", sizeof *p);
    *p = tmp;
    *plan = p;
    return PB_OK;
}

/* A watched pose re-made (another generation) or re-described (n, first plane; all of it for a
 * pose described by hand, which has no generation). A few loads per pose. */
static inline int watch_stale(const pb_plan_watch *w)
{
    const pb_pose *p = w->pose;
    if (p->gen != w->gen || p->n != w->n || p->plane[0] != w->plane[0]) return 1;
    return !w->gen && (p->stride != w->stride || memcmp(p->plane, w->plane, sizeof w->plane));
}

pb_status pb_plan_run(const pb_plan *plan)
{
    if (!plan) return pb_fail(PB_ERR_NULL, "pb_plan_run: plan is NULL");
    for (int i = 0; i < plan->nwatch; i++)
        if (watch_stale(&plan->watch[i]))
            return pb_fail(PB_ERR_STALE, "pb_plan_run: %s: a pose or clip of the plan was freed or changed after "
                                         "pb_plan_create (make a new plan)", pb_op_get(plan->op)->name);
    const pb_skeleton *sk = plan->skel;
    if (sk && (sk->gen != plan->skel_gen || sk->parents != plan->skel_parents || sk->n != plan->skel_n))
        return pb_fail(PB_ERR_STALE, "pb_plan_run: %s: the plan's skeleton was freed or re-initialized after "
                                     "pb_plan_create (make a new plan)", pb_op_get(plan->op)->name);
    plan->fn(&plan->k);
    return PB_OK;
}

pb_status pb_plan_set_params(pb_plan *plan, const pb_params *params)
{
    if (!plan || !params) return pb_fail(PB_ERR_NULL, "pb_plan_set_params: %s is NULL", plan ? "params" : "plan");
    const pb_op_info *info = pb_op_get(plan->op);
    pb_params p = *params;
    pb_status s = pb_check_params(info, &p);
    if (s == PB_OK) s = pb_check_axis(info, &p);
    if (s == PB_OK) s = pb_params_resolve_scale(info, &p);
    if (s != PB_OK) return s;
    plan->k.p = p;
    return PB_OK;
}

const pb_params *pb_plan_params(const pb_plan *plan) { return plan ? &plan->k.p : NULL; }
pb_op pb_plan_op(const pb_plan *plan) { return plan ? plan->op : PB_OP_COUNT; }
const pb_variant *pb_plan_variant(const pb_plan *plan) { return plan ? plan->variant : NULL; }
void pb_plan_destroy(pb_plan *plan) { free(plan); }
