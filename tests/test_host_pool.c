/*
 * sgk on a host's thread pool (sgk_set_parallel_backend): every operator,
 * one-shot and planned, on a small pthreads pool (tests/support/host_pool.c) of 1,
 * 2 and 4 workers gives the reference's bytes and the same bytes as
 * OpenMP at as many threads; with the pool installed sgk starts no OpenMP
 * thread of its own; a call from inside one of the pool's workers runs on
 * that worker alone instead of waiting on its own pool.
 *
 * Each test arms alarm(): a deadlock kills the program, which fails it,
 * instead of stalling the suite.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* syscall, usleep */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include "support/common.h"
#include "support/host_pool.h"
#include "support/op_cases.h"
#include "sgk.h"

#define TEST_SECONDS 300

static op_case *cases;
static int ncases;

static int setup(void **state)
{
    (void)state;
    cases = op_cases_make(&ncases);
    return cases != NULL ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    op_cases_free(cases, ncases);
    sgk_set_parallel_backend(NULL);
    sgk_set_num_threads(0);
    return 0;
}

static void check_all_cases(const char *where)
{
    char msg[512];
    if (op_cases_check_all(cases, ncases, msg, sizeof msg) != 0)
        fail_msg("%s: %s", where, msg);
}

/* Records its thread id in *arg. */
static void *note_tid(void *arg)
{
    *(pid_t *)arg = (pid_t)syscall(SYS_gettid);
    return NULL;
}

/* Waits (up to 5 s) until the thread tid, joined, has left
   /proc/self/task: pthread_join returns once the thread has cleared its
   id, which comes before the kernel drops its task, so a count taken
   right after the join could still include it (seen once: 3 threads
   counted where 4 were expected). */
static void wait_gone(pid_t tid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%ld", (long)tid);
    for (int ms = 0; ms < 5000 && access(path, F_OK) == 0; ms++)
        usleep(1000);
}

/* First, before any OpenMP loop of this process: the pool takes every
   parallel loop, so the only threads are the pool's. */
static void test_no_openmp_threads_with_a_pool(void **state)
{
    (void)state;
    alarm(TEST_SECONDS);
    /* A thread started and joined first: ThreadSanitizer starts a thread
       of its own at a process's first pthread_create, which belongs in
       `before`, not among the pool's. */
    pthread_t first;
    pid_t first_tid = 0;
    assert_int_equal(pthread_create(&first, NULL, note_tid, &first_tid), 0);
    assert_int_equal(pthread_join(first, NULL), 0);
    wait_gone(first_tid);
    const int before = tc_thread_count();
    host_pool *pool = host_pool_start(2);
    assert_non_null(pool);
    sgk_parallel_backend backend = host_pool_backend(pool);
    assert_int_equal(sgk_set_parallel_backend(&backend), SGK_OK);
    assert_non_null(strstr(sgk_runtime_describe(), "parallel loops on host pool (3 workers)"));
    /* the pool's workers are the default thread count */
    if (getenv("SGK_NUM_THREADS") == NULL)
        assert_non_null(strstr(sgk_runtime_describe(), "threads 3 "));
    sgk_set_num_threads(3);
    check_all_cases("on a pool of 3");
    assert_true(host_pool_tasks_by_workers(pool) > 0);
    if (before > 0)
        assert_int_equal(tc_thread_count(), before + 2);
    assert_int_equal(sgk_set_parallel_backend(NULL), SGK_OK);
    host_pool_stop(pool);
    sgk_set_num_threads(0);
    alarm(0);
}

/* Every case at `workers` threads on OpenMP, then on a pool of as many:
   the same bytes, which are the reference's. */
static void check_against_openmp(int workers)
{
    char msg[512];
    sgk_set_num_threads(workers);
    void **openmp = calloc((size_t)ncases * 2, sizeof *openmp);
    assert_non_null(openmp);
    for (int i = 0; i < 2 * ncases; i++) {
        openmp[i] = malloc(cases[i / 2].out_bytes);
        assert_non_null(openmp[i]);
        assert_int_equal(op_case_run(&cases[i / 2], i % 2, openmp[i]), SGK_OK);
    }
    host_pool *pool = host_pool_start(workers - 1);
    assert_non_null(pool);
    sgk_parallel_backend backend = host_pool_backend(pool);
    assert_int_equal(sgk_set_parallel_backend(&backend), SGK_OK);
    for (int i = 0; i < 2 * ncases; i++) {
        const op_case *c = &cases[i / 2];
        void *out = malloc(c->out_bytes);
        assert_non_null(out);
        assert_int_equal(op_case_run(c, i % 2, out), SGK_OK);
        if (memcmp(out, openmp[i], c->out_bytes) != 0)
            fail_msg("%s (%s) on a pool of %d differs from OpenMP at %d threads", c->name,
                     i % 2 ? "planned" : "one-shot", workers, workers);
        free(out);
        free(openmp[i]);
    }
    free(openmp);
    if (op_cases_check_all(cases, ncases, msg, sizeof msg) != 0)
        fail_msg("on a pool of %d: %s", workers, msg);
    if (workers > 1)
        assert_true(host_pool_tasks_by_workers(pool) > 0);
    assert_int_equal(sgk_set_parallel_backend(NULL), SGK_OK);
    host_pool_stop(pool);
    sgk_set_num_threads(0);
}

static void test_pool_equals_openmp(void **state)
{
    (void)state;
    alarm(TEST_SECONDS);
    check_against_openmp(1);
    check_against_openmp(2);
    check_against_openmp(4);
    alarm(0);
}

typedef struct {
    int failures;
    char msg[512];
} nested_job;

/* A host's own task that calls sgk: it runs on a pool worker (or the
   caller), and sgk must not submit to the pool that is running it. */
static void call_sgk_from_task(void *ctx, size_t i)
{
    nested_job *job = ctx;
    char msg[512];
    if (op_case_check(&cases[i % (size_t)ncases], (int)(i / (size_t)ncases) % 2, msg,
                      sizeof msg) != 0) {
        __atomic_fetch_add(&job->failures, 1, __ATOMIC_RELAXED);
        snprintf(job->msg, sizeof job->msg, "%s", msg);
    }
}

static void test_calls_from_pool_workers(void **state)
{
    (void)state;
    alarm(TEST_SECONDS);
    host_pool *pool = host_pool_start(2);
    assert_non_null(pool);
    sgk_parallel_backend backend = host_pool_backend(pool);
    assert_int_equal(sgk_set_parallel_backend(&backend), SGK_OK);
    sgk_set_num_threads(3);
    nested_job job = {0};
    host_pool_run(pool, (size_t)ncases * 2, call_sgk_from_task, &job);
    if (job.failures != 0)
        fail_msg("%d calls from pool workers failed, e.g. %s", job.failures, job.msg);
    assert_int_equal(sgk_set_parallel_backend(NULL), SGK_OK);
    host_pool_stop(pool);
    sgk_set_num_threads(0);
    alarm(0);
}

/* Where loops run with no pool installed: OpenMP, or the calling thread
   in a library built without it. */
static int on_default_loops(void)
{
    const char *text = sgk_runtime_describe();
    return strstr(text, "parallel loops on OpenMP;") != NULL ||
           strstr(text, "parallel loops on calling thread only (built without OpenMP;") != NULL;
}

static void test_bad_backend(void **state)
{
    (void)state;
    sgk_parallel_backend backend = {0};
    assert_int_equal(sgk_set_parallel_backend(&backend), SGK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(sgk_last_error(), "parallel_for is NULL"));
    backend = (sgk_parallel_backend){host_pool_run, NULL, -1, NULL};
    assert_int_equal(sgk_set_parallel_backend(&backend), SGK_ERR_INVALID_ARGUMENT);
    assert_true(on_default_loops());
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_openmp_threads_with_a_pool),
        cmocka_unit_test(test_pool_equals_openmp),
        cmocka_unit_test(test_calls_from_pool_workers),
        cmocka_unit_test(test_bad_backend),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
