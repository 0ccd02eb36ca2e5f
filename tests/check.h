/* check.h — minimal test bookkeeping: CHECK counts, check_done() prints the
 * closing "N passed, M failed" line and gives the exit status. */
#ifndef PB_CHECK_H
#define PB_CHECK_H
#include <stdio.h>

static int check_pass, check_fail;

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        if (cond) {                                                        \
            check_pass++;                                                  \
        } else {                                                           \
            check_fail++;                                                  \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                  \
            fputc('\n', stderr);                                           \
        }                                                                  \
    } while (0)

/* max of two doubles. Tests use this instead of fmax in their reduction
 * loops: gcc 12.2 for aarch64 crashes (internal compiler error in
 * vect_transform_reduction) vectorizing fmax reductions at -O3. */
static inline double dmax(double a, double b) { return b > a ? b : a; }

static inline int check_done(void)
{
    printf("%d passed, %d failed\n", check_pass, check_fail);
    return check_fail ? 1 : 0;
}
#endif
