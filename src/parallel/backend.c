#include <pthread.h>
#include <stdio.h>

#include "runtime/error.h"
#include "parallel/backend.h"

/* The installed backend, read without a lock by every parallel loop: a
   sequence count, odd while a writer changes the fields, tells a reader
   to read again.  Writers take the mutex. */
static sgk_parallel_backend current;
static unsigned sequence;
static pthread_mutex_t writer = PTHREAD_MUTEX_INITIALIZER;

/* Where loops run without a host pool: what NULL restores, and in the
   words of sgk_runtime_describe. */
#ifdef _OPENMP
#define DEFAULT_BACKEND "OpenMP"
#define DEFAULT_LOOPS "OpenMP"
#else
#define DEFAULT_BACKEND "the calling thread"
#define DEFAULT_LOOPS                                                                         \
    "calling thread only (built without OpenMP; sgk_set_parallel_backend gives it a pool)"
#endif

/* Set in a fork()ed child: OpenMP's workers are the parent's, and so is
   the host pool installed before the fork (inherited_host). */
static int forked, inherited_host;

static void before_fork(void)
{
    pthread_mutex_lock(&writer);
}

static void after_fork_in_parent(void)
{
    pthread_mutex_unlock(&writer);
}

static void after_fork_in_child(void)
{
    __atomic_store_n(&forked, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&inherited_host, current.parallel_for != NULL, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&writer);
}

/* At load, not at first use: a process may fork before it calls sgk,
   after another library started libgomp's workers. */
__attribute__((constructor)) static void watch_forks(void)
{
    pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
}

static void read_current(sgk_parallel_backend *out)
{
    unsigned before, after;
    do {
        before = __atomic_load_n(&sequence, __ATOMIC_ACQUIRE);
        out->parallel_for = __atomic_load_n(&current.parallel_for, __ATOMIC_RELAXED);
        out->pool = __atomic_load_n(&current.pool, __ATOMIC_RELAXED);
        out->workers = __atomic_load_n(&current.workers, __ATOMIC_RELAXED);
        out->in_worker = __atomic_load_n(&current.in_worker, __ATOMIC_RELAXED);
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        after = __atomic_load_n(&sequence, __ATOMIC_RELAXED);
    } while (before != after || (before & 1) != 0);
}

bool sgk_backend_host(sgk_parallel_backend *out)
{
    read_current(out);
    return out->parallel_for != NULL && !__atomic_load_n(&inherited_host, __ATOMIC_RELAXED);
}

bool sgk_backend_forked(void)
{
    return __atomic_load_n(&forked, __ATOMIC_RELAXED) != 0;
}

/* Why a forked child runs on its calling thread: whose workers it lost. */
static const char *forked_child_reason(void)
{
    const bool host = __atomic_load_n(&inherited_host, __ATOMIC_RELAXED);
#ifdef _OPENMP
    return host ? "a forked child: OpenMP's workers and the host pool are the parent's"
                : "a forked child: OpenMP's workers are the parent's";
#else
    return host ? "a forked child: the host pool is the parent's"
                : "a forked child, built without OpenMP";
#endif
}

const char *sgk_backend_describe(char *text, size_t size)
{
    sgk_parallel_backend b;
    if (sgk_backend_host(&b))
        snprintf(text, size, "host pool (%d workers)", b.workers);
    else if (sgk_backend_forked())
        snprintf(text, size,
                 "calling thread only (%s; sgk_set_parallel_backend gives it a pool)",
                 forked_child_reason());
    else
        snprintf(text, size, "%s", DEFAULT_LOOPS);
    return text;
}

sgk_status sgk_set_parallel_backend(const sgk_parallel_backend *backend)
{
    if (backend != NULL && backend->parallel_for == NULL)
        return sgk_fail(SGK_ERR_INVALID_ARGUMENT, "set_parallel_backend",
                        "parallel_for is NULL (pass NULL to restore %s)", DEFAULT_BACKEND);
    if (backend != NULL && backend->workers < 0)
        return sgk_fail(SGK_ERR_INVALID_ARGUMENT, "set_parallel_backend",
                        "workers %d is negative", backend->workers);
    const sgk_parallel_backend none = {0};
    const sgk_parallel_backend *b = backend != NULL ? backend : &none;
    pthread_mutex_lock(&writer);
    __atomic_store_n(&sequence, sequence + 1, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    __atomic_store_n(&current.parallel_for, b->parallel_for, __ATOMIC_RELAXED);
    __atomic_store_n(&current.pool, b->pool, __ATOMIC_RELAXED);
    __atomic_store_n(&current.workers, b->workers, __ATOMIC_RELAXED);
    __atomic_store_n(&current.in_worker, b->in_worker, __ATOMIC_RELAXED);
    __atomic_store_n(&inherited_host, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&sequence, sequence + 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&writer);
    return SGK_OK;
}
