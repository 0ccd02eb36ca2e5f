/* pool.c — the worker pool of pool.h: T-1 pthreads parked on a condition
 * variable; a run publishes (n, fn, arg) under the mutex with a new
 * generation number, every thread runs its static share, and the caller waits
 * until the count of finished workers reaches T-1. Each thread records its
 * own first failure (task index, status, message) in its own slot; the slots
 * are read only after the handshake, so nothing is shared while tasks run. */
#define _GNU_SOURCE   /* sched_getaffinity, CPU_COUNT */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
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
    unsigned long generation;
    int finished;         /* workers done with the current generation */
    int stop;
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

static void *worker(void *varg)
{
    worker_arg wa = *(worker_arg *)varg;
    free(varg);
    pb_pool *p = wa.pool;
    unsigned long seen = 0;
    for (;;) {
        pthread_mutex_lock(&p->mu);
        while (!p->stop && p->generation == seen) pthread_cond_wait(&p->go, &p->mu);
        if (p->stop) {
            pthread_mutex_unlock(&p->mu);
            return NULL;
        }
        seen = p->generation;
        size_t n = p->n;
        pb_pool_task fn = p->fn;
        void *arg = p->arg;
        pthread_mutex_unlock(&p->mu);
        run_share(p, wa.index, n, fn, arg);
        pthread_mutex_lock(&p->mu);
        if (++p->finished == p->threads - 1) pthread_cond_signal(&p->done);
        pthread_mutex_unlock(&p->mu);
    }
}

static void stop_workers(pb_pool *p, int started)
{
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
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
    pthread_mutex_lock(&p->mu);
    p->n = n;
    p->fn = fn;
    p->arg = arg;
    p->finished = 0;
    p->generation++;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    run_share(p, 0, n, fn, arg);
    pthread_mutex_lock(&p->mu);
    while (p->finished < p->threads - 1) pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
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
