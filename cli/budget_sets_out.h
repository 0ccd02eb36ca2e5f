/* budget_sets_out.h — the transition sets' output (budget_sets_out.c): console, JSON, and the Pareto
 * front, separation and claims they are read by. */
#ifndef CLI_BUDGET_SETS_OUT_H
#define CLI_BUDGET_SETS_OUT_H

#include <stddef.h>
#include <cjson/cJSON.h>
#include "budget_sets.h"

/* What the front minimizes for a metric: the value, or |1 - v| for damping (1: the clips' own speed). */
double bs_badness(int metric, double v);
/* The methods of s no other method beats on both cost (cost[i], us) and the metric's median (one strictly;
 * medians within the metric's floor, bs_lower's, are ties):
 * their indices into front, their count returned. */
int bs_pareto(const bs_set *s, const double *cost, int metric, int *front);
/* Of the pairs of blending methods (the cut left out; *pairs of them), how many have disjoint p10..p90
 * intervals of the metric over the set's transitions. */
int bs_separated(const bs_set *s, const pb_frame_method *methods, int metric, int *pairs);
/* On how many of s's transitions method i scores lower (better: bs_badness) than method j on the
 * metric, by more than 1 % of the larger plus a floor per metric (0.1 mm, 1 mm/s, 0.1 m/s^2, 0.001 of a
 * ratio, 0.01 cm or degree, 1 us, 0.001 deg s, 0.1 mm: below what shows, above float noise). */
int bs_lower(const bs_set *s, int i, int j, int metric);
/* Of the pairs of blending methods, how many does the metric separate by more than the transitions'
 * spread, paired (a sign test): the two differ visibly (bs_lower, either way) on at least half the
 * transitions, and one is the lower on at least 90 % of those. */
int bs_paired(const bs_set *s, const pb_frame_method *methods, int metric, int *pairs);
/* Claim `which` (0 very different poses: the hard set; 1 frequent transitions: the interrupted set;
 * 2 damping: the real set) as one measured sentence into buf; 0 when the set was not measured. */
int bs_claim(const bs_set *sets, const pb_frame_method *methods, int which, char *buf, size_t len);
void bs_print(const bs_ctx *x, const bs_set *sets, const pb_frame_method *methods, const double *cost);
/* "transition_sets" and "claims" into root; 0, or -1 when cJSON ran out of memory. */
int bs_add_json(cJSON *root, const bs_ctx *x, const bs_set *sets, const pb_frame_method *methods, const double *cost);

#endif
