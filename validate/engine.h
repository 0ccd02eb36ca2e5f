/* engine.h — internal to the validation harness (validate/), not for the CLI:
 * the validation's case lists and one case's buffers (cases.c; the inputs
 * themselves: inputs.c, validate.h), the velocity check
 * (velcheck.c), one op in one form over every case and variant (runner.c),
 * the entry point that loops over ops (validate.c) and the table/JSON front
 * end (table.c). validate.h is the harness's public face. */
#ifndef PB_VALIDATE_ENGINE_H
#define PB_VALIDATE_ENGINE_H

#include "validate.h"

#define PB_VAL_MAXV 16        /* variants validated at once */
#define PB_VAL_FAMILY 64      /* cases per synthetic family */
#define PB_VAL_OP_CASES 96    /* an op's cases: its family's and its real-data ones */

/* The synthetic case families, made once per run. */
typedef struct pb_val_cases {
    pb_vcase plain[PB_VAL_FAMILY], skel[PB_VAL_FAMILY], chain[PB_VAL_FAMILY], sample[PB_VAL_FAMILY];
    size_t nplain, nskel, nchain, nsample;
    pb_vcase nchain_cases[PB_VAL_FAMILY];   /* chains of L joints (PB_OPF_NCHAIN) */
    size_t nnchain;
} pb_val_cases;

void pb_val_cases_make(pb_val_cases *c, int quick);
/* An op's cases into out (PB_VAL_OP_CASES): its family's, then the real-data
 * ones drawn from m (may be empty). Returns the count. */
size_t pb_val_op_cases(const pb_val_cases *c, const pb_op_info *info, const pb_mocap *m, uint64_t seed, pb_vcase *out);

/* Forms an op is validated in besides the full one: static poses for the ops
 * that need no velocities, the other scale mode, per-character parameters,
 * per-axis half-lives, joint limits (clamped and bouncing), dead blending's slerp via, and
 * the palettes' inverse bind per joint (shared by the characters). */
enum { PB_FORM_FULL, PB_FORM_STATIC, PB_FORM_SCALE_ALT, PB_FORM_PER, PB_FORM_AXES, PB_FORM_HALFLIVES, PB_FORM_CLAMP,
       PB_FORM_BOUNCE, PB_FORM_VIA, PB_FORM_SHARED, PB_FORMS };

/* Buffers of one case, and what it owns (skeleton, offsets, per arrays). */
typedef struct pb_val_bufs {
    pb_pose a, b, out;
    pb_pose_aos aos_in, aos_out;
    float *aos_mem[2];
    pb_palette pal;            /* palette ops' output: out.n x PB_PALETTE_MAT_FLOATS floats */
    pb_dpose da, db, oracle, method, ref, test;
    const pb_skeleton *skel;   /* &sk, or NULL */
    pb_skeleton sk;
    /* sampling ops: the clip is pose a (frames x joints keys), outputs joints x characters */
    float *offsets;
    size_t frames, joints;
    float fps;
    pb_param_arrays per;       /* the "per" form's arrays (in per_mem), else none */
    float *per_mem;
    pb_pose hl;                /* the "halflives" form's per.halflives */
    pb_joint_limits lim;       /* the limits forms' per.limits (arrays in per_mem) */
    pb_pose via, via0;         /* the via form: call.via (each run starts from via0), else empty */
    pb_dpose dvia;             /* via0 in double, the oracle's */
    double *err;               /* one metric's per-element errors: out.n of them */
} pb_val_bufs;

/* Inputs of n_in elements, outputs of n_out (equal but for clip ops); 0 or -1. */
int pb_val_bufs_alloc(pb_val_bufs *b, size_t n_in, size_t n_out);
void pb_val_bufs_free(pb_val_bufs *b);
/* Allocate and fill case cs (the ci-th of the op; seed: the run's) of op
 * (info: the form's view) for form: inputs, skeleton, clip and offsets,
 * parameter arrays, the double views of the inputs. On failure everything is
 * freed and the status says why (pb_last_error()). */
pb_status pb_val_case_build(pb_val_bufs *b, const pb_vcase *cs, const pb_op_info *info, int form, const pb_mocap *m,
                            uint64_t seed, size_t ci);

/* Run the double oracle of op on inputs (da, db; AoS in da) into d, with
 * the skeleton, clip, offsets and arrays of ctx. */
void pb_val_oracle(pb_op op, const pb_dpose *da, const pb_dpose *db, const pb_params *p, const pb_val_bufs *ctx,
                   pb_dpose *d);

/* The via form (via.c): the direction states (allocated and drawn), via reset to via0 before
 * each run, elements whose choice is ill-posed marked in skip, and the elements (not skipped)
 * whose state after a run is not the oracle's choice. */
pb_status pb_val_via_build(pb_val_bufs *b, uint64_t seed);
void pb_val_via_reset(pb_val_bufs *b);
int pb_val_via_skip(const pb_val_bufs *b, const pb_params *p, unsigned char *skip);   /* 0, or -1: no memory */
size_t pb_val_via_bad(const pb_val_bufs *b, const unsigned char *skip);

/* Velocity consistency (velcheck.c): worst |fd - v| / max(1, |v|) of the
 * oracle's propagated velocities against central differences of its own
 * outputs, over the elements not in skip (NULL: all); *ok 0 if it could not run (out of memory). */
#define PB_VAL_VEL_H (1.0 / 131072.0)
double pb_val_vel_consistency(pb_op op, const pb_op_info *info, pb_val_bufs *b, const pb_params *p,
                              const unsigned char *skip, int *ok);

/* A run: what every op shares. */
typedef struct pb_val_run {
    const pb_validate_opts *o;
    const pb_variant *vars[PB_VAL_MAXV];
    size_t nv;
    const pb_variant *scalar;
    pb_val_cases cases;
    pb_mocap mocap;
    pb_row_fn row_fn;
    void *user;
} pb_val_run;

int pb_val_form_applies(const pb_op_info *info, int form);
/* Validate op in form: every case, every variant; rows through run->row_fn.
 * Returns the failing rows, or -1 on a setup error (pb_last_error()). */
int pb_val_op(const pb_val_run *run, pb_op op, int form);

#endif
