/* measure.c — the CLI's clock and medians (measure.h). */
#include "measure.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>

double cpu_seconds(void)
{
    struct timespec t;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) != 0) return 0.0;
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

double wall_seconds(void)
{
    struct timespec t;
    if (clock_gettime(CLOCK_MONOTONIC, &t) != 0) return 0.0;
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

double clock_read_cost(double (*clock)(void))
{
    double t0 = wall_seconds(), sink = 0;
    for (int i = 0; i < 2000; i++) sink += clock();
    double t1 = wall_seconds();
    return sink != 0 || t1 > t0 ? (t1 - t0) / 2000 : 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double median_sort(double *v, int n)
{
    if (n <= 0) return NAN;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
