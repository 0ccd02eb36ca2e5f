/* noise.h — the noise warning of `posebench frame` and `posebench budget`:
 * one threshold and one check for every timed figure, so a figure measured on
 * a busy machine says so beside itself (a '!' after the figure, a line under
 * the table, "noisy" in the JSON) instead of passing for a measurement. */
#ifndef CLI_NOISE_H
#define CLI_NOISE_H

#include <cjson/cJSON.h>

/* A figure is noisy when its repetitions spread by more than this fraction of
 * their median ((max - min) / median), or when the medians of its stages add up
 * to a whole that differs from the whole's own median by more than this
 * fraction of it. On a quiet machine both stay within a few % (issue 14: ~9 %
 * between identical runs); 20 % is well beyond that, where the machine, not the
 * code, decides the figure (issue 58 item 7). */
#define NOISE_LIMIT 0.20

enum { NOISE_SPREAD = 1, NOISE_STAGE_SUM = 2, NOISE_ANY = 3 };   /* the tests that tripped, OR'ed */

/* The tests that trip for a figure: spread = (max - min) / median of its
 * repetitions; parts = the sum of its stages' medians, whole = its own median
 * (parts NaN: a figure without stages, only the spread is tested). NaN or a
 * whole <= 0 trips nothing (no figure to judge). */
int noise_check(double spread, double parts, double whole);
double noise_spread(double median, double min, double max);   /* (max - min) / median; NaN if median <= 0 */
/* noise_check of a table whose n stages stage[0 .. n) make up total (frame --source mm, graph). */
int noise_stages(const double *stage, int n, double total, double spread);

char noise_mark(int flags, int test);   /* '!' when test is among flags, else ' ' */
/* The line under a table, naming the tests among flags (its rows' OR'ed); nothing when flags has none. */
void noise_note(int flags);
/* obj's "noisy": the tests that tripped by name ("spread", "stage_sum"), [] when none. NULL when out of memory. */
cJSON *noise_json(cJSON *obj, int flags);
/* config's "noise_limit" (NOISE_LIMIT) and "noise_rule". 0, or -1 when out of memory. */
int noise_config_json(cJSON *config);

#endif
