/* budget.h — `posebench budget`'s results, shared by the measuring command
 * (cmd_budget.c) and its output, console and JSON (budget_out.c). */
#ifndef CLI_BUDGET_H
#define CLI_BUDGET_H

#include "budget_quality.h"

#define BUDGET_NM 7          /* methods: cut, three cross-fades, inertialization, two dead blendings */
#define BUDGET_MAX_PAIRS 8   /* quality transitions */
extern const pb_frame_method budget_methods[BUDGET_NM];

typedef struct budget_row {
    double cost[2];          /* us per frame at the two crowd sizes */
    double spread;           /* (max - min) / median of the repetitions at the requested crowd */
    double setup_us;         /* once per transition */
    double fixed, per_char;  /* linear fit */
    double cost_at;          /* at the requested crowd (= cost[0]) */
    long max_chars, frame_max_chars;
    bq_quality q;            /* mean over pairs (jumps: mean of each pair's peak) */
    bq_quality pq[BUDGET_MAX_PAIRS];
} budget_row;

typedef struct budget_res {
    double budget, duration, halflife;   /* us; s; s */
    long joints, frames, reps;
    size_t sizes[2];                     /* crowd sizes measured: the one asked for, and twice (or half) it */
    const char *scene;                   /* the cost scene's name */
    const pb_variant *v;
    pb_op sampler;
    budget_row rows[BUDGET_NM];
    double rest[2];                      /* the rest of the frame at the two sizes, us */
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

#endif
