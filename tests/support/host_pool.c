#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "host_pool.h"

struct host_pool {
    pthread_t *threads;
    int workers;
    pthread_mutex_t lock;
    pthread_cond_t wake, finished;
    pthread_mutex_t submit;     /* one job at a time */
    /* the job, under lock */
    unsigned long generation;
    size_t n, next, done;
    sgk_task_fn task;
    void *ctx;
    int stopping;
    long by_workers;
};

/* The pool whose worker this thread is, for in_worker. */
static _Thread_local host_pool *own_pool;

/* Takes and runs tasks of the current job until none are left; returns
   how many it ran. */
static long work(host_pool *pool)
{
    long ran = 0;
    pthread_mutex_lock(&pool->lock);
    while (pool->next < pool->n) {
        size_t i = pool->next++;
        sgk_task_fn task = pool->task;
        void *ctx = pool->ctx;
        pthread_mutex_unlock(&pool->lock);
        task(ctx, i);
        ran++;
        pthread_mutex_lock(&pool->lock);
        if (++pool->done == pool->n)
            pthread_cond_broadcast(&pool->finished);
    }
    pthread_mutex_unlock(&pool->lock);
    return ran;
}

static void *worker_main(void *arg)
{
    host_pool *pool = arg;
    own_pool = pool;
    unsigned long seen = 0;
    for (;;) {
        pthread_mutex_lock(&pool->lock);
        while (!pool->stopping && pool->generation == seen)
            pthread_cond_wait(&pool->wake, &pool->lock);
        if (pool->stopping) {
            pthread_mutex_unlock(&pool->lock);
            return NULL;
        }
        seen = pool->generation;
        pthread_mutex_unlock(&pool->lock);
        long ran = work(pool);
        __atomic_fetch_add(&pool->by_workers, ran, __ATOMIC_RELAXED);
    }
}

void host_pool_run(void *pool_, size_t n, sgk_task_fn task, void *ctx)
{
    host_pool *pool = pool_;
    pthread_mutex_lock(&pool->submit);
    pthread_mutex_lock(&pool->lock);
    pool->n = n;
    pool->next = pool->done = 0;
    pool->task = task;
    pool->ctx = ctx;
    pool->generation++;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    /* the caller is one of the job's workers while it helps */
    host_pool *outer = own_pool;
    own_pool = pool;
    work(pool);
    own_pool = outer;
    pthread_mutex_lock(&pool->lock);
    while (pool->done < pool->n)
        pthread_cond_wait(&pool->finished, &pool->lock);
    pthread_mutex_unlock(&pool->lock);
    pthread_mutex_unlock(&pool->submit);
}

static int in_worker(void *pool)
{
    return own_pool == pool;
}

host_pool *host_pool_start(int workers)
{
    host_pool *pool = calloc(1, sizeof *pool);
    if (pool == NULL || (pool->threads = calloc((size_t)workers + 1, sizeof *pool->threads)) == NULL) {
        free(pool);
        return NULL;
    }
    pthread_mutex_init(&pool->lock, NULL);
    pthread_mutex_init(&pool->submit, NULL);
    pthread_cond_init(&pool->wake, NULL);
    pthread_cond_init(&pool->finished, NULL);
    for (; pool->workers < workers; pool->workers++)
        if (pthread_create(&pool->threads[pool->workers], NULL, worker_main, pool) != 0) {
            host_pool_stop(pool);
            return NULL;
        }
    return pool;
}

void host_pool_stop(host_pool *pool)
{
    pthread_mutex_lock(&pool->lock);
    pool->stopping = 1;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    for (int t = 0; t < pool->workers; t++)
        pthread_join(pool->threads[t], NULL);
    pthread_mutex_destroy(&pool->lock);
    pthread_mutex_destroy(&pool->submit);
    pthread_cond_destroy(&pool->wake);
    pthread_cond_destroy(&pool->finished);
    free(pool->threads);
    free(pool);
}

sgk_parallel_backend host_pool_backend(host_pool *pool)
{
    return (sgk_parallel_backend){host_pool_run, pool, pool->workers + 1, in_worker};
}

long host_pool_tasks_by_workers(host_pool *pool)
{
    return __atomic_load_n(&pool->by_workers, __ATOMIC_RELAXED);
}

host_pool *host_pool_install_from_env(void)
{
    const char *text = getenv("SGK_TEST_HOST_POOL");
    if (text == NULL || *text == '\0')
        return NULL;
    char *end;
    long workers = strtol(text, &end, 10);
    if (*end != '\0' || workers < 0 || workers > 256) {
        fprintf(stderr, "SGK_TEST_HOST_POOL=%s: want a number of workers, 0 to 256\n", text);
        exit(2);
    }
    if (workers == 0)
        return NULL;
    host_pool *pool = host_pool_start((int)workers);
    sgk_parallel_backend backend;
    if (pool != NULL)
        backend = host_pool_backend(pool);
    if (pool == NULL || sgk_set_parallel_backend(&backend) != SGK_OK) {
        fprintf(stderr, "SGK_TEST_HOST_POOL=%s: cannot start and install the pool\n", text);
        exit(2);
    }
    return pool;
}

void host_pool_uninstall(host_pool *pool)
{
    if (pool == NULL)
        return;
    sgk_set_parallel_backend(NULL);
    host_pool_stop(pool);
}
