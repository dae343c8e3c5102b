/*
 * A small pthreads pool, as a server would own one, for the tests of
 * sgk_set_parallel_backend: a fixed set of workers, one job at a time (a
 * second caller waits), the calling thread working beside them.  It cannot
 * be entered from its own workers, which is what its in_worker is for.
 */
#ifndef SGK_TESTS_HOST_POOL_H
#define SGK_TESTS_HOST_POOL_H

#include <stddef.h>

#include "sgk.h"

typedef struct host_pool host_pool;

/* A pool of `workers` threads beside the caller; NULL on failure. */
host_pool *host_pool_start(int workers);
void host_pool_stop(host_pool *pool);

/* The pool as sgk's backend: every field set, workers + 1 workers. */
sgk_parallel_backend host_pool_backend(host_pool *pool);

/* Runs task(ctx, i) for i in [0, n) on the pool and the calling thread. */
void host_pool_run(void *pool, size_t n, sgk_task_fn task, void *ctx);

/* Tasks the pool's own threads (not callers) have run so far. */
long host_pool_tasks_by_workers(host_pool *pool);

/* For the tests of concurrency in a library built without OpenMP (the
   ThreadSanitizer build, configure --enable-tsan): with SGK_TEST_HOST_POOL
   set to N > 0, starts a pool of N workers and installs it as sgk's
   backend, so that the library's loops run on threads (which TSan then
   watches) and not on the calling thread alone.  Returns the pool, NULL
   when the variable is unset or 0; exits the program when it is bad or
   the pool cannot start.  host_pool_uninstall(pool) restores the default
   and stops it (NULL: nothing). */
host_pool *host_pool_install_from_env(void);
void host_pool_uninstall(host_pool *pool);

#endif
