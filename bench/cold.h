/* cold.h — cold-cache runs of `posebench bench` (bench.c): how each cold
 * benchmark gets memory no cache holds, on any cache size.
 *
 * Flush (x86: clflush + mfence; aarch64: dc civac + dsb ish): before every
 * timed iteration the op's own input and output arrays are written back and
 * evicted from every cache level, with the timer paused (Google Benchmark's
 * PauseTiming/ResumeTiming through the shim), so neither the flush nor its
 * write-backs are timed. Works whatever the LLC size.
 * Rotate (other architectures, or POSEBENCH_COLD=rotate): distinct buffer
 * sets used in turn, enough that more than twice the whole cache is touched
 * between two uses of a set; only where they fit in COLD_MEM_CAP.
 * Skip: neither possible; the benchmark is reported as skipped with the
 * reason (cold_is_skip), never as an error of the run.
 *
 * Environment: POSEBENCH_LLC_BYTES overrides the detected last-level cache
 * size (to see what a host with a huge L3 would do); POSEBENCH_COLD=auto
 * (default), flush or rotate forces a method. */
#ifndef BENCH_COLD_H
#define BENCH_COLD_H

#include <stddef.h>

#define COLD_MEM_CAP ((size_t)1 << 30)   /* at most 1 GiB of rotated buffer sets per benchmark */
#define COLD_SKIP_PREFIX "SKIPPED: "

typedef enum cold_method { COLD_FLUSH, COLD_ROTATE, COLD_SKIP } cold_method;

typedef struct cold_plan {
    cold_method method;
    int nsets;        /* buffer sets: 1 to flush, 2 or more to rotate, 0 to skip */
    char why[320];    /* COLD_SKIP: COLD_SKIP_PREFIX and the reason */
} cold_plan;

/* Whether this build can flush cache lines from user space. */
int cold_can_flush(void);

/* The cache bytes a rotation must exceed twice: detected_total (L1d + L2 +
 * L3 of one core's hierarchy, 0 if unknown) with its last level, detected_llc,
 * replaced by POSEBENCH_LLC_BYTES when set. 0 and a message in why (len
 * bytes) if POSEBENCH_LLC_BYTES is not a positive byte count. */
size_t cold_cache_bytes(size_t detected_total, size_t detected_llc, char *why, size_t len);

/* How to run one cold benchmark that touches `touched` bytes per call and
 * allocates `set_bytes` per buffer set, on a hierarchy of cache_bytes. */
cold_plan cold_choose(size_t touched, size_t set_bytes, size_t cache_bytes);

/* Write back and evict arrays[i][0 .. floats[i]) from every cache level and
 * wait until that is done. */
void cold_flush(const float *const *arrays, const size_t *floats, int count);

/* Is this benchmark error message a skip (see above)? */
int cold_is_skip(const char *msg);

/* One line for the report's context: the method, and the cache sizes used. */
void cold_describe(char *buf, size_t len, size_t min_n, size_t detected_total, size_t detected_llc);

#endif
