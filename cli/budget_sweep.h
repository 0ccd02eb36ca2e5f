/* budget_sweep.h — `posebench budget --sweep`: the transition sets at each value of one
 * per-transition parameter (budget_sweep.c). */
#ifndef CLI_BUDGET_SWEEP_H
#define CLI_BUDGET_SWEEP_H

#include <cjson/cJSON.h>
#include "budget_sets.h"

#define BW_MAX_VALUES 8
#define BW_SETS 3   /* real, interrupted, hard (hard only in a half-life sweep: its durations are authored) */
enum { BW_DURATION, BW_HALFLIFE };

typedef struct bw_sweep {
    int param;                 /* BW_DURATION or BW_HALFLIFE */
    int n;
    double value[BW_MAX_VALUES];   /* s */
    bs_set *sets;              /* n x BW_SETS, value-major */
} bw_sweep;

/* "duration=0.05,0.1,0.2" or "halflife=..." (each a number in s: duration 0.02-10, half-life 0-10; at
 * most BW_MAX_VALUES). 0, or -1 after a message naming the bad part. */
int bw_parse(const char *spec, bw_sweep *w);
const char *bw_param_name(const bw_sweep *w);
/* Every value: the sets made and measured (the context's half-life restored after). PB_ERR_NOMEM, bs_measure's. */
pb_status bw_run(bw_sweep *w, bs_ctx *x, const pb_frame_method *methods, int nm, float duration);
void bw_print(const bw_sweep *w, const pb_frame_method *methods);
int bw_add_json(cJSON *root, const bw_sweep *w, const pb_frame_method *methods);
void bw_free(bw_sweep *w);

#endif
