/* measure.h — the one clock, median and percentile module of the harness,
 * the benchmark and the CLI: validation's error percentiles, the benchmark's
 * medians over repetitions, frame/budget time blocks and the report's
 * bandwidth levels all sort and pick the same way. */
#ifndef PB_MEASURE_H
#define PB_MEASURE_H

#include <stddef.h>

double cpu_seconds(void);    /* CLOCK_PROCESS_CPUTIME_ID; 0 if the clock fails */
double wall_seconds(void);   /* CLOCK_MONOTONIC (vDSO: ~0.1 us a read, vs ~2 us for the CPU clock on a VM); 0 if it fails */
double clock_read_cost(double (*clock)(void));   /* seconds per read of clock, measured over 2000 reads */

void sort_doubles(double *v, size_t n);          /* ascending; NaNs (none expected) compare as equal */
/* Of sorted v[0..n): the median (mean of the middle two for even n), and the
 * q-quantile by the nearest rank at or below q (n - 1) (q = 0.99: the 99th
 * percentile that never interpolates past a measured value). NaN if n == 0. */
double median_sorted(const double *v, size_t n);
double quantile_sorted(const double *v, size_t n, double q);
double median_sort(double *v, int n);            /* sorts v[0..n): v[0] is then the min, v[n-1] the max; NaN if n <= 0 */

/* A frame table's blocks of CPU time shared out among stages (frame --source mm / graph):
 * block_share records block r (cpu: its CPU time per frame; wall[s]: stage s's
 * CLOCK_MONOTONIC time, of wall_all in all) as per[s x reps + r] = its share and
 * per[stages x reps + r] = cpu; block_medians then gives each stage's median, the
 * blocks' median and their spread, (max - min) / median (it sorts per). */
void block_share(double *per, int reps, int r, int stages, const double *wall, double wall_all, double cpu);
void block_medians(double *per, int reps, int stages, double *stage, double *total, double *spread);

#endif
