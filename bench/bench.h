/* bench.h — the benchmark harness's entry point (bench/bench.c), called by
 * the CLI's `posebench bench` when the build has Google Benchmark. */
#ifndef PB_BENCH_H
#define PB_BENCH_H

#ifdef __cplusplus
extern "C" {
#endif

/* Run `posebench bench` with the arguments that follow "bench" (argv[0] is
 * the first of them, not the program name). Returns the exit status: 0 when
 * every benchmark ran, 1 if one reported an error, 2 for bad options or a
 * setup failure (message on stderr). */
int pb_bench_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif
