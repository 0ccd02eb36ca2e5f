/* minmax.h — max / min of doubles as plain comparisons, for the library, the harness and the
 * tests. Not fmax / fmin: gcc 12.2 for aarch64 crashes (internal compiler error in
 * vect_transform_reduction) when it vectorizes an fmax / fmin reduction at -O3. Neither
 * argument is expected to be NaN; where one is, the first argument wins unless the second
 * compares greater (less). */
#ifndef PB_MINMAX_H
#define PB_MINMAX_H

static inline double bmax(double a, double b) { return b > a ? b : a; }
static inline double bmin(double a, double b) { return b < a ? b : a; }

#endif
