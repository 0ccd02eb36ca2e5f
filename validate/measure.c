/* measure.c — clocks, medians and percentiles (measure.h). */
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

void sort_doubles(double *v, size_t n)
{
    if (n > 1) qsort(v, n, sizeof *v, cmp_double);
}

double median_sorted(const double *v, size_t n)
{
    if (n == 0) return NAN;
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double quantile_sorted(const double *v, size_t n, double q)
{
    if (n == 0) return NAN;
    double r = floor((q < 0 ? 0 : q > 1 ? 1 : q) * (double)(n - 1));
    return v[(size_t)r];
}

double median_sort(double *v, int n)
{
    if (n <= 0) return NAN;
    sort_doubles(v, (size_t)n);
    return median_sorted(v, (size_t)n);
}

void block_share(double *per, int reps, int r, int stages, const double *wall, double wall_all, double cpu)
{
    for (int s = 0; s < stages; s++) per[(size_t)s * (size_t)reps + (size_t)r] = wall_all > 0 ? cpu * wall[s] / wall_all : 0;
    per[(size_t)stages * (size_t)reps + (size_t)r] = cpu;
}

void block_medians(double *per, int reps, int stages, double *stage, double *total, double *spread)
{
    for (int s = 0; s <= stages; s++) {
        double *x = per + (size_t)s * (size_t)reps, m = median_sort(x, reps);
        if (s < stages) stage[s] = m;
        else *total = m, *spread = m > 0 ? (x[reps - 1] - x[0]) / m : 0;
    }
}
