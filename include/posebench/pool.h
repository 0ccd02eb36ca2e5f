/* pool.h — a small fixed pool of worker threads that runs a range of
 * independent tasks, each thread a fixed contiguous share of the range.
 *
 * Why a pool of its own and not OpenMP: the frame pipeline needs exactly one
 * thing, "run tasks 0..n-1 split statically over T threads and wait", and
 * (1) ThreadSanitizer cannot see libgomp's own synchronisation unless libgomp
 * is rebuilt with it, so CI's race check would report false races; (2) a
 * library linked into an engine should not pull libgomp and -fopenmp into the
 * engine's link line; (3) measured on an earlier dev VM (cli `frame --threads
 * 2`, 200 x 64), a frame dispatch cost a few microseconds either way (on a
 * later one a parked handshake cost 50-60 us: hence the spin, below; libgomp
 * spins before it sleeps too). An engine with its
 * own job system does not need this pool at all: every pb_frame_blocks call
 * that takes a pool also has a per-block form (frame.h).
 *
 * Waiting: a thread waiting for a run (a worker) or for its end (the caller)
 * spins for up to PB_POOL_SPIN_US microseconds (POSEBENCH_POOL_SPIN_US when
 * that is a whole number, at most 1000000; 0 parks at once), then parks on a
 * condition variable. Runs called back to back (a frame's blocks, frame
 * after frame) then skip the kernel's wake-up: on a KVM guest with 2 vCPUs a
 * parked handshake cost 50-60 us per run, a spinning one 2-5 us (src/pool.c).
 * The price is up to that long of one core per worker after each run.
 *
 * Work split (pb_pool_share): with T threads and n tasks, thread t runs a
 * contiguous range of n / T tasks, one more for t < n % T, in task order;
 * the calling thread is thread 0 and T-1 workers are the others. With fewer
 * tasks than threads, threads 0 .. n-1 run one each and the others are not
 * woken at all (one task runs on the caller alone: waking an idle worker
 * only to hear it had nothing to do cost a parked pool 35-80 us per run).
 * The split depends only on n and T, never on timing, and nothing is shared
 * in the hot path but one handshake per run (each active worker's slot: the
 * run it is to do and the last it finished), so results are deterministic
 * when the tasks are independent. A pool of 1 thread creates no thread at all.
 *
 * A pool is driven by one thread at a time (pb_pool_run is not reentrant). */
#ifndef POSEBENCH_POOL_H
#define POSEBENCH_POOL_H

#include <stddef.h>
#include "export.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PB_POOL_MAX_THREADS 1024
#define PB_POOL_SPIN_US 100   /* see "Waiting" above */

typedef struct pb_pool pb_pool;

/* One task: task index in [0, n), thread index in [0, threads). Returns
 * PB_OK or an error (the message set with pb_last_error's machinery on the
 * thread that ran it: pb_pool_run carries it back to the caller). */
typedef pb_status (*pb_pool_task)(void *arg, size_t task, int thread);

/* Start threads - 1 workers. threads in [1, PB_POOL_MAX_THREADS].
 * Errors: PB_ERR_NULL (pool), PB_ERR_PARAM (threads out of range),
 * PB_ERR_NOMEM, PB_ERR_THREAD (a worker could not be created: the ones
 * already started are stopped and joined, *pool is NULL). */
PB_API pb_status pb_pool_create(pb_pool **pool, int threads);
PB_API int pb_pool_threads(const pb_pool *pool);   /* 1 for NULL */
/* Run fn(arg, i, t) for every task i in [0, n), split as above, and wait for
 * all. Each thread stops at its own first failing task; the status returned is
 * that of the failing task with the lowest index (its message in
 * pb_last_error()), else PB_OK. pool NULL runs everything on the caller.
 * Errors also: PB_ERR_NULL (fn). */
PB_API pb_status pb_pool_run(pb_pool *pool, size_t n, pb_pool_task fn, void *arg);
/* The tasks [*lo, *hi) that thread t (0 .. threads - 1) of a pool of
 * `threads` runs when a run has n tasks (the split above). */
PB_API void pb_pool_share(size_t n, int threads, int t, size_t *lo, size_t *hi);
/* Stop and join the workers. NULL is fine. */
PB_API void pb_pool_destroy(pb_pool *pool);
/* Hardware threads this process may run on (sched_getaffinity, else the
 * online CPU count; at least 1). */
PB_API int pb_cpu_threads(void);

#ifdef __cplusplus
}
#endif
#endif
