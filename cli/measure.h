/* measure.h — the CLI's clock and medians (frame and budget time blocks of
 * frames with the process CPU clock and report medians over repetitions). */
#ifndef CLI_MEASURE_H
#define CLI_MEASURE_H

double cpu_seconds(void);               /* CLOCK_PROCESS_CPUTIME_ID; 0 if the clock fails */
double wall_seconds(void);              /* CLOCK_MONOTONIC (vDSO: ~0.1 us a read, vs ~2 us for the CPU clock on a VM); 0 if it fails */
double clock_read_cost(double (*clock)(void));   /* seconds per read of clock, measured over 2000 reads */
double median_sort(double *v, int n);   /* sorts v[0..n): v[0] is then the min, v[n-1] the max; NaN if n <= 0 */

#endif
