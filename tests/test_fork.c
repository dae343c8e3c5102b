/*
 * sgk in a fork()ed child.  libgomp's workers exist only in the parent, and
 * a child that enters a parallel region waits for them forever (GCC bug
 * 60035): a server that called sgk and then forked its workers hung.  After
 * a fork every operator, one-shot and planned, must give the reference's
 * bytes in the child (serially, or on a pool the child installs), and the
 * parent keeps its threads.  Also when the fork happens while another
 * thread is inside a long sgk call.
 *
 * A child that hangs is killed after CHILD_SECONDS and fails the test; no
 * process is left behind.
 *
 * Under ThreadSanitizer (configure --enable-tsan, no OpenMP) a child forked
 * while another thread runs checks serially only: TSan does not support
 * starting threads after a multi-threaded fork (it stops the child, or
 * with die_after_fork=0 aborts on the reused thread id).  The child's own
 * pool is still tested there, forked from the single-threaded parent of
 * the first test.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "support/common.h"
#include "support/host_pool.h"
#include "support/op_cases.h"
#include "support/sanitizers.h"
#include "sgk.h"

#define CHILD_SECONDS 120

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
    sgk_set_num_threads(0);
    return 0;
}

/* The child's exit status; a child still running after CHILD_SECONDS is
   killed and reaped, and fails like one that died of a signal. */
static int wait_child(pid_t pid)
{
    const struct timespec tick = {0, 10 * 1000 * 1000};
    for (long waited = 0; waited < CHILD_SECONDS * 100L; waited++) {
        int status;
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid)
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        if (r < 0)
            return -1;
        nanosleep(&tick, NULL);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    print_error("the child hung: killed after %d s\n", CHILD_SECONDS);
    return -1;
}

/* In the child: every case against the reference, serially and then (when
   with_pool) on a pool the child installs; the verdict is the exit status,
   the failure on stderr.  _exit: the parent's atexit handlers (cmocka's)
   are not the child's to run. */
static void child_checks(int with_pool)
{
    char msg[512];
    int bad = 0;
    if (strstr(sgk_runtime_describe(), "a forked child") == NULL) {
        fprintf(stderr, "child: the runtime does not say it is a forked child: %s\n",
                sgk_runtime_describe());
        bad = 1;
    }
    if (!bad && op_cases_check_all(cases, ncases, msg, sizeof msg) != 0) {
        fprintf(stderr, "child, serial: %s\n", msg);
        bad = 1;
    }
    host_pool *pool = bad || !with_pool ? NULL : host_pool_start(1);
    if (pool != NULL) {
        sgk_parallel_backend backend = host_pool_backend(pool);
        sgk_set_parallel_backend(&backend);
        if (op_cases_check_all(cases, ncases, msg, sizeof msg) != 0) {
            fprintf(stderr, "child, on its own pool: %s\n", msg);
            bad = 1;
        } else if (host_pool_tasks_by_workers(pool) == 0) {
            fprintf(stderr, "child: its pool ran no task\n");
            bad = 1;
        }
        sgk_set_parallel_backend(NULL);
        host_pool_stop(pool);
    }
    fflush(stderr);
    _exit(bad);
}

static void check_parent(const char *when)
{
    char msg[512];
    if (op_cases_check_all(cases, ncases, msg, sizeof msg) != 0)
        fail_msg("parent, %s: %s", when, msg);
}

/* The runtime's "threads ...; parallel loops on ..." in `out`. */
static void threads_and_loops(char *out, size_t size)
{
    const char *text = sgk_runtime_describe();
    const char *from = strstr(text, "threads ");
    const char *to = from != NULL ? strstr(from, "; numa") : NULL;
    assert_non_null(to);
    snprintf(out, size, "%.*s", (int)(to - from), from);
}

static void test_fork_after_parallel_calls(void **state)
{
    (void)state;
    char before[512], after[512];
    sgk_set_num_threads(2);
    check_parent("before the fork");
    threads_and_loops(before, sizeof before);
    /* libgomp's workers outlive the parallel regions: the hazard is real
       (a library built without OpenMP has no workers to lose) */
    if (strstr(before, "parallel loops on OpenMP") != NULL) {
        assert_non_null(strstr(before, "threads 2 "));
        assert_true(tc_thread_count() >= 2);
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        child_checks(1);
    assert_true(pid > 0);
    assert_int_equal(wait_child(pid), 0);
    /* the parent keeps its threads */
    threads_and_loops(after, sizeof after);
    assert_string_equal(after, before);
    check_parent("after the fork");
    sgk_set_num_threads(0);
}

typedef struct {
    int started, stop, failures;
} long_calls;

/* Keeps calling sgk on the largest case until told to stop. */
static void *call_in_a_loop(void *arg)
{
    long_calls *lc = arg;
    char msg[512];
    while (!__atomic_load_n(&lc->stop, __ATOMIC_ACQUIRE)) {
        __atomic_fetch_add(&lc->started, 1, __ATOMIC_RELEASE);
        for (int i = 0; i < ncases; i++)
            if (op_case_check(&cases[i], 0, msg, sizeof msg) != 0)
                __atomic_fetch_add(&lc->failures, 1, __ATOMIC_RELAXED);
    }
    return NULL;
}

static void test_fork_during_a_call(void **state)
{
    (void)state;
    sgk_set_num_threads(2);
    long_calls lc = {0};
    pthread_t caller;
    assert_int_equal(pthread_create(&caller, NULL, call_in_a_loop, &lc), 0);
    const struct timespec tick = {0, 1000 * 1000};
    while (__atomic_load_n(&lc.started, __ATOMIC_ACQUIRE) < 2)
        nanosleep(&tick, NULL);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        child_checks(!UNDER_TSAN); /* forked while `caller` runs: see the top */
    __atomic_store_n(&lc.stop, 1, __ATOMIC_RELEASE);
    pthread_join(caller, NULL);
    assert_true(pid > 0);
    assert_int_equal(wait_child(pid), 0);
    assert_int_equal(lc.failures, 0);
    sgk_set_num_threads(0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fork_after_parallel_calls),
        cmocka_unit_test(test_fork_during_a_call),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
