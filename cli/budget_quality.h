/* budget_quality.h — the quality half of `posebench budget`: per transition
 * method, the velocity jump at the transition, the deviation from the
 * destination over the window and how far the poses leave the clips' joint
 * ranges, on one character. */
#ifndef CLI_BUDGET_QUALITY_H
#define CLI_BUDGET_QUALITY_H

#include "posebench/frame.h"

typedef struct bq_pair {
    int from;        /* scene clip played before the transition */
    float at;        /* its time at the transition (s) */
    int to;          /* scene clip after */
    float to_at;
} bq_pair;

typedef struct bq_quality {
    double vel_jump, ang_jump;   /* m/s, rad/s: peak over body joints */
    double dev_cm, dev_deg;      /* mean over the window and body joints */
    double range_deg;            /* peak over the window and body joints of how far a local rotation leaves
                                    the box of rotations the two clips show (degrees; 0: inside) */
} bq_quality;

/* out = in with a new joint 0 (parent of every former root): the first
 * root's position on the floor (y = 0, y up) turned by its heading (the
 * yaw of its local +z axis). Former roots become its children; the legs
 * (leg) keep their joints, one index down.
 * Errors: PB_ERR_NOMEM, pb_clip_alloc's. */
pb_status bq_add_trajectory(const pb_scene *in, pb_scene *out);

/* A transition the quality half plays: a frame method (fn NULL: pb_frame_begin
 * at the transition, then pb_frame_transition), or a form the app composes
 * from ops (budget_layers.h): fn writes the shown pose at t seconds since the
 * transition into c->mix and points c->mixed at it; nothing runs at the
 * transition itself. */
typedef pb_status (*bq_transition_fn)(pb_frame_crowd *c, const pb_variant *v, float t, void *user);
typedef struct bq_form {
    pb_frame_method m;
    bq_transition_fn fn;
    void *user;
} bq_form;

/* Quality of forms[0..nf) over pairs[0..np) on crowd c (one character), as bq_measure. */
pb_status bq_measure_forms(pb_frame_crowd *c, const pb_variant *v, const bq_form *forms, int nf, const bq_pair *pairs,
                           int np, bq_quality *per_pair, bq_quality *mean, double *src_vj, double *src_aj);

/* Quality of methods[0..nm) over pairs[0..np) on crowd c (one character):
 * per_pair[m * np + p] and the mean over the pairs mean[m]; src_vj/src_aj the
 * source clip alone's change of velocity there (for scale). pb_run's status
 * (c->failed names the op), or PB_ERR_NOMEM. */
pb_status bq_measure(pb_frame_crowd *c, const pb_variant *v, const pb_frame_method *methods, int nm, const bq_pair *pairs, int np,
                     bq_quality *per_pair, bq_quality *mean, double *src_vj, double *src_aj);

#endif
