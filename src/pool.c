/* pool.c — the worker pool of pool.h: T-1 pthreads, each with a slot; a run
 * publishes (n, fn, arg), tells each worker that has tasks (the first
 * min(n, T) - 1) the run's number in its slot, runs the caller's own share
 * and waits until each of those workers has marked the run done in its slot.
 * Each thread records its own first failure (task index, status, message) in
 * its own slot; the slots are read only after the handshake, so nothing is
 * shared while tasks run.
 *
 * Waiting: a worker first spins on its slot (and the caller on the workers'
 * done marks) for up to the pool's spin time, then parks on a condition
 * variable. Parking alone cost 50-60 us per run on the dev VM (KVM, 2 vCPUs:
 * the futex wake-up of a halted vCPU, then the wait back), measured by a
 * driver timing pb_pool_run of two 1 us tasks on 2 threads 20000 times; a
 * frame of 200 x 64 joints is 350 us on one thread, so a sixth of the
 * two-thread frame was the handshake. Frames and benchmarks call runs back to
 * back, and a spinning thread catches the next one at once. The caller
 * broadcasts under the mutex after it writes the slots, and a parking worker
 * holds the mutex from its last check to its wait, so no wake-up is lost
 * (the same for the done marks and the caller). */
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
    atomic_ulong go;      /* the run this worker is to do next (set by the caller) */
    atomic_ulong done;    /* the last run it finished */
    char pad[64];         /* slots of different threads on different cache lines */
} pool_slot;

struct pb_pool {
    int threads;
    pthread_t *tid;
    pool_slot *slot;      /* threads entries */
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    unsigned long run;         /* the runs so far (the caller's only) */
    int active;                /* threads with tasks in the current run: min(n, threads) */
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

void pb_pool_share(size_t n, int threads, int t, size_t *lo, size_t *hi)
{
    size_t T = (size_t)threads, base = n / T, extra = n % T, u = (size_t)t;
    *lo = u * base + (u < extra ? u : extra);
    *hi = *lo + base + (u < extra);
}

static void run_share(pb_pool *p, int t, size_t n, pb_pool_task fn, void *arg)
{
    size_t lo, hi;
    pb_pool_share(n, p->threads, t, &lo, &hi);
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
/* What worker t waits for (a run in its slot newer than its last, or stop), and
 * what the caller waits for (every active worker done with the current run). */
static int work_ready(pb_pool *p, int t)
{
    pool_slot *s = &p->slot[t];
    return atomic_load_explicit(&p->stop, memory_order_acquire) ||
           atomic_load_explicit(&s->go, memory_order_acquire) != atomic_load_explicit(&s->done, memory_order_relaxed);
}
static int all_done(pb_pool *p, int unused)
{
    (void)unused;
    for (int t = 1; t < p->active; t++)
        if (atomic_load_explicit(&p->slot[t].done, memory_order_acquire) != p->run) return 0;
    return 1;
}
/* ready(p, arg) within the pool's spin time (the clock read every 64 pauses), else park on cv. */
static void wait_for(pb_pool *p, int (*ready)(pb_pool *, int), int arg, pthread_cond_t *cv)
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
    pool_slot *s = &p->slot[wa.index];
    for (;;) {
        wait_for(p, work_ready, wa.index, &p->go);
        if (atomic_load_explicit(&p->stop, memory_order_acquire)) return NULL;
        unsigned long run = atomic_load_explicit(&s->go, memory_order_acquire);
        run_share(p, wa.index, p->n, p->fn, p->arg);
        atomic_store_explicit(&s->done, run, memory_order_release);
        /* wake the caller if it parked (under mu: it cannot be between its check and its wait) */
        pthread_mutex_lock(&p->mu);
        pthread_cond_signal(&p->done);
        pthread_mutex_unlock(&p->mu);
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
    for (int t = 0; t < threads; t++) atomic_init(&p->slot[t].go, 0), atomic_init(&p->slot[t].done, 0);
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
    /* read by the active workers after their slot's acquire; rewritten only once they are done */
    p->n = n;
    p->fn = fn;
    p->arg = arg;
    p->run++;
    p->active = n < (size_t)p->threads ? (int)n : p->threads;
    if (p->active > 1) {   /* workers without tasks are not woken: one task runs on the caller alone */
        for (int t = 1; t < p->active; t++) atomic_store_explicit(&p->slot[t].go, p->run, memory_order_release);
        pthread_mutex_lock(&p->mu);   /* a parking worker holds mu from its check to its wait */
        pthread_cond_broadcast(&p->go);
        pthread_mutex_unlock(&p->mu);
    }
    run_share(p, 0, n, fn, arg);
    wait_for(p, all_done, 0, &p->done);
    /* shares are in task order, so the first failing thread holds the lowest failing task */
    for (int t = 0; t < p->active; t++)
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
