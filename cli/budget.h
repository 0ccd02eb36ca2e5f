/* budget.h — `posebench budget`'s results, shared by the measuring command
 * (cmd_budget.c) and its output, console and JSON (budget_out.c). */
#ifndef CLI_BUDGET_H
#define CLI_BUDGET_H

#include "budget_quality.h"
#include "budget_sets.h"
#include "budget_sweep.h"
#include "budget_verdict.h"
#include "measure.h"
#include "model_import.h"

#define BUDGET_NM 11         /* methods: cut, three cross-fades, inertialization, six dead blendings */
#define BUDGET_MAX_PAIRS 8   /* quality transitions */
#define BUDGET_MAX_BVH 3     /* --bvh files (scenes in the transition sets) */
extern const pb_frame_method budget_methods[BUDGET_NM];

/* Layers (budget_layers.c). The layer operations, timed alone at the crowd as per-frame add-ons: */
enum { BL_OVERRIDE_SLERP, BL_OVERRIDE_NLERP, BL_ADDITIVE, BL_ADDITIVE_STATIC, BL_ADDITIVE_NLERP, BL_NWAY_FAST,
       BL_NWAY_ACCURATE, BL_NOPS };
/* and the transitions made of them, timed like the methods at the crowd and played on the quality clips: */
enum { BL_SPLIT, BL_NWAY2_FAST, BL_NWAY2_ACCURATE, BL_NFORMS };

typedef struct bl_op_row {
    bv_meas us;              /* us per frame for the crowd, the masked (or N-way) call */
    bv_meas plain_us;        /* the same op unmasked (median NaN for the N-way rows: no unmasked form) */
    double bytes_per_joint;  /* read + written per joint of a character, the per-joint / per-character arrays
                                spread over the elements that share them */
} bl_op_row;

typedef struct bl_form_row {
    bv_meas cost, frame;     /* us per frame: its samples + the transition; the whole frame with it */
    bv_verdict cost_v, frame_v;
    bq_quality q;            /* mean over pairs */
    bq_quality pq[BUDGET_MAX_PAIRS];
} bl_form_row;

typedef struct budget_row {
    bv_meas cost;            /* us per frame of the method's own work (its samples + transition) at the crowd */
    bv_meas frame;           /* us per whole frame (pb_frame_step: the method + the rest) at the crowd */
    bv_verdict cost_v, frame_v;
    double setup_us;         /* once per transition */
    bv_search max, frame_max;   /* the largest crowd that fits, measured by bisection (alone, whole frame) */
    bv_meas frame_mt;        /* us per whole frame, fused blocks on budget_res.threads threads (wall time) */
    bv_verdict frame_mt_v;
    bv_search frame_mt_max;  /* the largest crowd whose threaded frame fits */
    bq_quality q;            /* mean over pairs (jumps: mean of each pair's peak) */
    bq_quality pq[BUDGET_MAX_PAIRS];
} budget_row;

/* bisection: stop when the bracket is within BUDGET_TOL of the crowd (or 1 character), at most BUDGET_PROBES probes */
#define BUDGET_TOL 0.02
#define BUDGET_PROBES 10

typedef struct budget_res {
    double budget, duration, halflife;   /* us; s; s */
    float hl[3];                         /* Unreal's dead blending: estimate_halflife's scale, min, max (s) */
    long joints, frames, reps;
    size_t characters;                   /* the crowd asked for */
    long cap;                            /* the largest crowd a search may measure */
    const char *scene;                   /* the cost scene's name */
    const pb_scene *cost_scene;
    const pb_variant *v;
    pb_op sampler;
    int threads;                         /* the threaded whole frame: pool threads */
    pb_pool *pool;
    budget_row rows[BUDGET_NM];
    bv_meas rest;                        /* the rest of the frame at the crowd (additive .. skin: budget_skin.h), us */
    size_t vertices;                     /* skinned per character by the whole frame (0: no skin stage) */
    int skin;                            /* what the skin stage runs: SKIN_OPT_LBS, _DQS or _NONE (no stage) */
    char mesh[160];                      /* which mesh, or why none is skinned (budget_skin.c) */
    int real;                            /* quality on CMU mocap (else the synthetic clips) */
    const pb_scene *qscene;
    bq_pair pairs[BUDGET_MAX_PAIRS];
    int np;
    double src_vj, src_aj;               /* the source alone's change of velocity, for scale */
    size_t body;                         /* body joints of the quality scene */
    bl_op_row layer[BL_NOPS];
    bl_form_row lform[BL_NFORMS];
    size_t lower, qlower;                /* lower-body joints (the legs' subtrees) of the cost and quality scenes */
    bs_ctx sets_ctx;                     /* the transition sets' scenes (budget_sets.h) */
    bs_set sets[BS_NSETS];               /* real, hard, interrupted, synthetic */
    double set_cost[BUDGET_NM];          /* each method's own cost (us per frame at the crowd), for the Pareto front */
    bw_sweep sweep;                      /* --sweep (sweep.n 0: none) */
    model_cost model_cost;               /* --model's import (have_model_cost 1) */
    int have_model_cost;
} budget_res;

/* Median and extremes of n samples (sorts them): the methods' and the layers' rows (inline: the layers'
 * test links budget_layers.c without the command). */
static inline bv_meas budget_meas_of(double *sm, long n)
{
    bv_meas m;
    m.median = median_sort(sm, (int)n);
    m.min = sm[0];
    m.max = sm[n - 1];
    return m;
}
void budget_print(const budget_res *r);
/* 0, or -1 after a message. */
int budget_write_json(const budget_res *r, const char *path);
/* 1 when at least one blending method (the cut excluded) fits or is marginal
 * at the asked crowd: the command's check; 0 sends it to exit status 1. */
int budget_check_passes(const budget_res *r);

#endif
