/* budget_layers.h — layers in `posebench budget`: what the layer operations
 * an engine adds to a frame cost for the budget's crowd (a masked override
 * in its slerp and nlerp forms, a masked additive, the N-way blend of
 * BL_K inputs, fast and accurate), and two kinds of transition made of them:
 * a masked cross-fade whose upper body switches faster than its legs, and the
 * cross-fade as an N-way blend of source and destination. The rows' data
 * live in budget_res (budget.h); the output in budget_out.c. */
#ifndef CLI_BUDGET_LAYERS_H
#define CLI_BUDGET_LAYERS_H

#include "posebench/blend_n.h"
#include "budget.h"

#define BL_K 4                   /* inputs of the N-way layer rows: the 4 samples around a point of a 2D blend space */
#define BL_UPPER_FRACTION 0.5f   /* the split cross-fade: the upper body switches over this share of the window */

typedef struct bl_info {
    const char *key;    /* JSON key: "override_slerp_masked" */
    const char *name;   /* console and report: "masked override (slerp)" */
    const char *ops;    /* what runs each frame */
} bl_info;
const bl_info *bl_op_info(int i);     /* BL_OVERRIDE_SLERP .. BL_NWAY_ACCURATE; NULL out of range */
const bl_info *bl_form_info(int i);   /* BL_SPLIT .. BL_NWAY2_ACCURATE; NULL out of range */

/* lower[j] = 1 for the joints of the scene's two legs (each leg's root joint
 * and everything below it), else 0; returns how many. None when the scene
 * has no legs (leg[0][0] < 0). */
size_t bl_lower_body(const pb_scene *sc, unsigned char *lower);

/* A layered transition for bq_form.fn (bl_transition) on one crowd. */
typedef struct bl_xf {
    int form;                 /* BL_SPLIT, BL_NWAY2_FAST or BL_NWAY2_ACCURATE */
    float upper_fraction;     /* BL_SPLIT: the upper body's window / the window (1: the plain cross-fade) */
    unsigned char *lower;     /* per joint of the crowd's scene */
    float *mask;              /* per joint: the split's weights at the current frame */
    float *w;                 /* 2 x characters: the N-way weights (source plane, then destination plane) */
} bl_xf;
/* Errors: PB_ERR_PARAM (form), PB_ERR_NOMEM. */
pb_status bl_xf_init(bl_xf *x, const pb_frame_crowd *c, int form, float upper_fraction);
void bl_xf_free(bl_xf *x);
/* The transition at t seconds since its start (bq_transition_fn; user: a bl_xf made for crowd c), with
 * the weight curve of the frame methods (smoothstep of t / window):
 *   BL_SPLIT      blend_static (slerp) of source and destination at alpha 1 with per.mask holding each
 *                 joint's weight: smoothstep(t / (window x upper_fraction)) for the upper body,
 *                 smoothstep(t / window) for the legs (the per-joint bone mask as per-joint weights);
 *   BL_NWAY2_*    pb_blend_n of source and destination, weights 1 - a and a (a the smoothstep), fast or
 *                 accurate: static poses, the mix's velocity planes are left as they were.
 * Errors: pb_run's or pb_blend_n's (c->failed names the op). */
pb_status bl_transition(pb_frame_crowd *c, const pb_variant *v, float t, void *user);

/* The layer ops and the layered transitions' cost on crowd c (R's crowd, scene and samplers; every
 * method of budget_methods begun and stepped on it before): R->layer, R->lform[].cost / frame, R->lower.
 * EXIT_OK, or an exit status after a message. */
int bl_measure_cost(budget_res *R, pb_frame_crowd *c);
/* The layered transitions' quality on crowd c (one character of R->qscene), over R->pairs:
 * R->lform[].q / pq, R->qlower. EXIT_OK, or an exit status after a message. */
int bl_measure_quality(budget_res *R, pb_frame_crowd *c);

#endif
