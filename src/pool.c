/* pool.c — the worker pool of pool.h: T-1 pthreads; a run publishes (n, fn,
 * arg) with a new generation number, every thread runs its static share, and
 * the caller waits until the count of finished workers reaches T-1. Each
 * thread records its own first failure (task index, status, message) in its
 * own slot; the slots are read only after the handshake, so nothing is shared
 * while tasks run.
 *
 * Waiting: a worker first spins on the generation (and the caller on the
 * finished count) for up to the pool's spin time, then parks on a condition
 * variable. Parking alone cost 50-60 us per run on the dev VM (KVM, 2 vCPUs:
 * the futex wake-up of a halted vCPU, then the wait back), measured by a
 * driver timing pb_pool_run of two 1 us tasks on 2 threads 20000 times; a
 * frame of 200 x 64 joints is 350 us on one thread, so a sixth of the
 * two-thread frame was the handshake. Frames and benchmarks call runs back to
 * back, and a spinning thread catches the next one at once. The generation is
 * incremented under the mutex, which a parking thread holds from its last
 * check to its wait, so no wake-up is lost. */
#define _GNU_SOURCE   /* sched_getaffinity, CPU_COUNT */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "posebench/pool.h"
#include "internal.h"

typedef struct pool_slot {
    size_t failed_task;   /* (size_t)-1: none */
    pb_status status;
    char message[512];
    char pad[64];         /* slots of different threads on different cache lines */
} pool_slot;

struct pb_pool {
    int threads;
    pthread_t *tid;
    pool_slot *slot;      /* threads entries */
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    atomic_ulong generation;   /* incremented under mu by each run */
    atomic_int finished;       /* workers done with the current generation */
    atomic_int stop;
    int64_t spin_ns;           /* how long a waiting thread spins before it parks */
    size_t n;
    pb_pool_task fn;
    void *arg;
};

typedef struct worker_arg {
    pb_pool *pool;
    int index;
} worker_arg;

static void run_share(pb_pool *p, int t, size_t n, pb_pool_task fn, void *arg)
{
    size_t T = (size_t)p->threads, lo = n * (size_t)t / T, hi = n * ((size_t)t + 1) / T;
    pool_slot *s = &p->slot[t];
    s->failed_task = (size_t)-1;
    s->status = PB_OK;
    for (size_t i = lo; i < hi; i++) {
        pb_status st = fn(arg, i, t);
        if (st != PB_OK) {
            s->failed_task = i;
            s->status = st;
            strncpy(s->message, pb_last_error(), sizeof s->message - 1);
            s->message[sizeof s->message - 1] = 0;
            return;
        }
    }
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}
static int64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
/* what a worker waits for (a run newer than `seen`, or stop) and what the caller waits for */
static int work_ready(pb_pool *p, unsigned long seen)
{
    return atomic_load_explicit(&p->stop, memory_order_acquire) ||
           atomic_load_explicit(&p->generation, memory_order_acquire) != seen;
}
static int all_done(pb_pool *p, unsigned long unused)
{
    (void)unused;
    return atomic_load_explicit(&p->finished, memory_order_acquire) == p->threads - 1;
}
/* ready(p, arg) within the pool's spin time (the clock read every 64 pauses), else park on cv. */
static void wait_for(pb_pool *p, int (*ready)(pb_pool *, unsigned long), unsigned long arg, pthread_cond_t *cv)
{
    if (ready(p, arg)) return;
    if (p->spin_ns > 0)
        for (int64_t end = mono_ns() + p->spin_ns;;) {
            for (int i = 0; i < 64; i++) {
                if (ready(p, arg)) return;
                cpu_relax();
            }
            if (mono_ns() > end) break;
        }
    pthread_mutex_lock(&p->mu);
    while (!ready(p, arg)) pthread_cond_wait(cv, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

static void *worker(void *varg)
{
    worker_arg wa = *(worker_arg *)varg;
    free(varg);
    pb_pool *p = wa.pool;
    unsigned long seen = 0;
    for (;;) {
        wait_for(p, work_ready, seen, &p->go);
        if (atomic_load_explicit(&p->stop, memory_order_acquire)) return NULL;
        seen = atomic_load_explicit(&p->generation, memory_order_acquire);
        run_share(p, wa.index, p->n, p->fn, p->arg);
        /* the last one wakes the caller if it parked (under mu: it cannot be between its check and its wait) */
        if (atomic_fetch_add_explicit(&p->finished, 1, memory_order_acq_rel) + 1 == p->threads - 1) {
            pthread_mutex_lock(&p->mu);
            pthread_cond_signal(&p->done);
            pthread_mutex_unlock(&p->mu);
        }
    }
}

static void stop_workers(pb_pool *p, int started)
{
    pthread_mutex_lock(&p->mu);
    atomic_store_explicit(&p->stop, 1, memory_order_release);
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    for (int i = 0; i < started; i++) pthread_join(p->tid[i], NULL);
}

static void pool_free(pb_pool *p)
{
    pthread_cond_destroy(&p->done);
    pthread_cond_destroy(&p->go);
    pthread_mutex_destroy(&p->mu);
    free(p->slot);
    free(p->tid);
    free(p);
}

/* PB_POOL_SPIN_US, or POSEBENCH_POOL_SPIN_US when that is a whole number (at most 1 s), in ns */
static int64_t pool_spin_ns(void)
{
    unsigned long long us = PB_POOL_SPIN_US;
    if (pb_env_whole("POSEBENCH_POOL_SPIN_US", &us) && us > 1000000) us = 1000000;
    return (int64_t)us * 1000;
}

pb_status pb_pool_create(pb_pool **pool, int threads)
{
    if (!pool) return pb_fail(PB_ERR_NULL, "pb_pool_create: pool is NULL");
    *pool = NULL;
    if (threads < 1 || threads > PB_POOL_MAX_THREADS)
        return pb_fail(PB_ERR_PARAM, "pb_pool_create: threads = %d; it must be 1 .. %d", threads, PB_POOL_MAX_THREADS);
    pb_pool *p = calloc(1, sizeof *p);
    if (p) {
        p->tid = calloc((size_t)threads, sizeof *p->tid);
        p->slot = calloc((size_t)threads, sizeof *p->slot);
    }
    if (!p || !p->tid || !p->slot) {
        if (p) free(p->tid), free(p->slot);
        free(p);
        return pb_fail(PB_ERR_NOMEM, "pb_pool_create: out of memory for %d threads", threads);
    }
    p->threads = threads;
    p->spin_ns = pool_spin_ns();
    atomic_init(&p->generation, 0);
    atomic_init(&p->finished, 0);
    atomic_init(&p->stop, 0);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->go, NULL);
    pthread_cond_init(&p->done, NULL);
    for (int i = 1; i < threads; i++) {
        worker_arg *wa = malloc(sizeof *wa);
        int err = wa ? 0 : ENOMEM;
        if (wa) {
            wa->pool = p;
            wa->index = i;
            err = pthread_create(&p->tid[i - 1], NULL, worker, wa);
            if (err) free(wa);
        }
        if (err) {
            stop_workers(p, i - 1);
            pool_free(p);
            return pb_fail(PB_ERR_THREAD, "pb_pool_create: worker %d of %d could not be created (%s); none is left "
                           "running", i, threads - 1, strerror(err));
        }
    }
    *pool = p;
    return PB_OK;
}

int pb_pool_threads(const pb_pool *pool) { return pool ? pool->threads : 1; }

pb_status pb_pool_run(pb_pool *pool, size_t n, pb_pool_task fn, void *arg)
{
    if (!fn) return pb_fail(PB_ERR_NULL, "pb_pool_run: fn is NULL");
    if (!pool || pool->threads == 1) {
        for (size_t i = 0; i < n; i++) {
            pb_status st = fn(arg, i, 0);
            if (st != PB_OK) return st;
        }
        return PB_OK;
    }
    pb_pool *p = pool;
    p->n = n;   /* read by the workers after the generation's acquire; untouched until all have finished */
    p->fn = fn;
    p->arg = arg;
    atomic_store_explicit(&p->finished, 0, memory_order_relaxed);
    pthread_mutex_lock(&p->mu);
    atomic_fetch_add_explicit(&p->generation, 1, memory_order_release);
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    run_share(p, 0, n, fn, arg);
    wait_for(p, all_done, 0, &p->done);
    /* shares are in task order, so the first failing thread holds the lowest failing task */
    for (int t = 0; t < p->threads; t++)
        if (p->slot[t].status != PB_OK) return pb_fail(p->slot[t].status, "%s", p->slot[t].message);
    return PB_OK;
}

void pb_pool_destroy(pb_pool *pool)
{
    if (!pool) return;
    stop_workers(pool, pool->threads - 1);
    pool_free(pool);
}

int pb_cpu_threads(void)
{
#ifdef CPU_COUNT
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
#endif
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)(n > PB_POOL_MAX_THREADS ? PB_POOL_MAX_THREADS : n) : 1;
}
