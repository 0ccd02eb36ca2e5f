/* budget.h — `posebench budget`'s results, shared by the measuring command
 * (cmd_budget.c) and its output, console and JSON (budget_out.c). */
#ifndef CLI_BUDGET_H
#define CLI_BUDGET_H

#include "budget_quality.h"
#include "budget_verdict.h"

#define BUDGET_NM 11         /* methods: cut, three cross-fades, inertialization, six dead blendings */
#define BUDGET_MAX_PAIRS 8   /* quality transitions */
extern const pb_frame_method budget_methods[BUDGET_NM];

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
    bv_meas rest;                        /* the rest of the frame at the crowd (additive, legs FK, IK, FK), us */
    int real;                            /* quality on CMU mocap (else the synthetic clips) */
    const pb_scene *qscene;
    bq_pair pairs[BUDGET_MAX_PAIRS];
    int np;
    double src_vj, src_aj;               /* the source alone's change of velocity, for scale */
    size_t body;                         /* body joints of the quality scene */
} budget_res;

void budget_print(const budget_res *r);
/* 0, or -1 after a message. */
int budget_write_json(const budget_res *r, const char *path);
/* 1 when at least one blending method (the cut excluded) fits or is marginal
 * at the asked crowd: the command's check; 0 sends it to exit status 1. */
int budget_check_passes(const budget_res *r);

#endif
