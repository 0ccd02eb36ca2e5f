/* num.h — the CLI's one number parser: every numeric option (opts.h), every
 * entry of a list option (bench --sizes) and every numeric POSEBENCH_* value
 * (env.h) goes through it, so " 16", "+16", "0x10", "1e3" for a count and
 * "inf" are refused the same way everywhere. The grammar is plain decimal:
 *   whole  digits                                  (0..hi)
 *   real   [-]digits[.digits][(e|E)[+|-]digits], or [-].digits[...]; finite
 * nothing before or after (no space, no '+', no base prefix). The callers
 * print the message: they know the option's or variable's name. */
#ifndef CLI_NUM_H
#define CLI_NUM_H

#include <stdint.h>

/* s as a whole number within [lo, hi]. 0, or -1 (not digits only, or out of range). */
int num_whole(const char *s, uint64_t lo, uint64_t hi, uint64_t *out);
/* s as an integer within [lo, hi] (a leading '-' is part of the grammar; the range decides). 0, or -1. */
int num_integer(const char *s, long lo, long hi, long *out);
/* s as a finite real number within [lo, hi]. 0, or -1. */
int num_real(const char *s, double lo, double hi, double *out);

#endif
