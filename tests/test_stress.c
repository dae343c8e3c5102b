/*
 * Concurrency stress (docs/integration.md, "The C API": a plan is immutable and
 * may be executed from several threads at once).  One plan executed from 16
 * threads at once (ScatterND add with heavy duplicates in float32 and
 * float16, GatherND, ScatterElements max with signed zeros and NaNs), 16
 * different plans executed concurrently, and the same 16 problems as
 * one-shot calls from 16 threads at once (each thread's call scratch and
 * one-shot plan block, docs/architecture.md); every result must equal, bit
 * for bit (any NaN matching any NaN), the independent reference's
 * (tests/support/reference.c).  With SGK_TEST_HOST_POOL=N the library's
 * loops run on a pool of N workers (tests/support/host_pool.h): the
 * ThreadSanitizer build has no OpenMP.
 *
 * Worker threads never call cmocka (its failure path is not thread-safe):
 * they record what they saw and the main thread asserts after joining.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/common.h"
#include "support/host_pool.h"
#include "support/reference.h"
#include "support/stress_jobs.h"
#include "sgk.h"

#define THREADS 16
#define ROUNDS 4

/* ---- workers ---------------------------------------------------------------- */

typedef struct {
    const job *job;
    pthread_barrier_t *start;
    sgk_status status;   /* first failure, SGK_OK if none */
    char error[256];
    int mismatch_round;  /* first round whose output differed, -1 if none */
    size_t mismatch_byte;
} worker;

/* The first byte of the first element of out that differs from the
   reference (a NaN where it has a NaN matches), or out_bytes. */
static size_t first_mismatch(const job *j, const void *out)
{
    const size_t es = tc_dtype_size(j->dtype);
    const uint8_t *got = out, *want = j->expected;
    size_t at = tc_first_difference(got, want, j->out_bytes);
    for (at -= at % es; at < j->out_bytes; at += es)
        if (!ref_same_result(j->dtype, j->reduction, want + at, got + at))
            return at;
    return j->out_bytes;
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    void *out = malloc(w->job->out_bytes ? w->job->out_bytes : 1);
    w->status = SGK_OK;
    w->mismatch_round = -1;
    pthread_barrier_wait(w->start);
    for (int round = 0; round < ROUNDS && out != NULL; round++) {
        sgk_status s = run_job(w->job, out);
        if (s != SGK_OK) {
            w->status = s;
            snprintf(w->error, sizeof w->error, "%s", tc_last_error());
            break;
        }
        size_t differs = first_mismatch(w->job, out);
        if (differs < w->job->out_bytes) {
            w->mismatch_round = round;
            w->mismatch_byte = differs;
            break;
        }
    }
    if (out == NULL) {
        w->status = SGK_ERR_OUT_OF_MEMORY;
        snprintf(w->error, sizeof w->error, "worker: no memory for the output");
    }
    free(out);
    return NULL;
}

/* Runs jobs[t % n] on each of THREADS threads, all released at once, and
   checks every thread's every round against the job's expected output. */
static void run_concurrently(const job *jobs, int n)
{
    pthread_t threads[THREADS];
    worker workers[THREADS];
    pthread_barrier_t start;
    assert_int_equal(pthread_barrier_init(&start, NULL, THREADS), 0);
    for (int t = 0; t < THREADS; t++) {
        workers[t] = (worker){.job = &jobs[t % n], .start = &start};
        assert_int_equal(pthread_create(&threads[t], NULL, worker_main, &workers[t]), 0);
    }
    for (int t = 0; t < THREADS; t++)
        assert_int_equal(pthread_join(threads[t], NULL), 0);
    pthread_barrier_destroy(&start);
    for (int t = 0; t < THREADS; t++) {
        const worker *w = &workers[t];
        if (w->status != SGK_OK) {
            print_error("thread %d (%s): execute returned %s: %s\n", t, w->job->name,
                        sgk_status_name(w->status), w->error);
            fail();
        }
        if (w->mismatch_round >= 0) {
            print_error("thread %d (%s): round %d differs from the reference "
                        "at byte %zu of %zu\n", t, w->job->name, w->mismatch_round,
                        w->mismatch_byte, w->job->out_bytes);
            fail();
        }
    }
}

/* ---- tests ------------------------------------------------------------------ */

static void test_one_plan_scatter_nd_add_f32(void **state)
{
    (void)state;
    job j = scatter_nd_rows("scatter_nd add f32, 48 distinct of 8192 rows", SGK_FLOAT32,
                            SGK_REDUCE_ADD, 8192, 64, 8192, 48, 0);
    run_concurrently(&j, 1);
    job_free(&j);
}

static void test_one_plan_scatter_nd_add_f16(void **state)
{
    (void)state;
    job j = scatter_nd_rows("scatter_nd add f16 in place, 32 distinct of 16384 rows",
                            SGK_FLOAT16, SGK_REDUCE_ADD, 16384, 32, 8192, 32, 1);
    run_concurrently(&j, 1);
    job_free(&j);
}

static void test_one_plan_gather_nd(void **state)
{
    (void)state;
    job j = gather_nd_batched("gather_nd f32 batch_dims 1", SGK_FLOAT32, 8, 512, 32, 1024);
    run_concurrently(&j, 1);
    job_free(&j);
}

static void test_one_plan_scatter_elements_max(void **state)
{
    (void)state;
    job j = scatter_elements_rows("scatter_elements max f32 (ties, -0, NaN)", SGK_FLOAT32,
                                  SGK_REDUCE_MAX, 1024, 512, 128, 0);
    run_concurrently(&j, 1);
    job_free(&j);
}

/* Sixteen different problems, each planned (oneshot 0) or called one-shot. */
static void sixteen_at_once(int oneshot)
{
    job jobs[THREADS];
    int n = 0;
    jobs[n++] = scatter_nd_rows("scatter_nd none f32", SGK_FLOAT32, SGK_REDUCE_NONE, 512, 32,
                                2048, 64, 0);
    jobs[n++] = scatter_nd_rows("scatter_nd none u8 in place", SGK_UINT8, SGK_REDUCE_NONE,
                                4096, 3, 4096, 512, 1);
    jobs[n++] = scatter_nd_rows("scatter_nd add f32 in place", SGK_FLOAT32, SGK_REDUCE_ADD, 256,
                                64, 4096, 16, 1);
    jobs[n++] = scatter_nd_rows("scatter_nd add f16", SGK_FLOAT16, SGK_REDUCE_ADD, 512, 8,
                                4096, 8, 0);
    jobs[n++] = scatter_nd_rows("scatter_nd sub f64", SGK_FLOAT64, SGK_REDUCE_SUB, 256, 16,
                                2048, 32, 0);
    jobs[n++] = scatter_nd_rows("scatter_nd mul bf16", SGK_BFLOAT16, SGK_REDUCE_MUL, 256, 16,
                                2048, 32, 0);
    jobs[n++] = scatter_nd_rows("scatter_nd add i32", SGK_INT32, SGK_REDUCE_ADD, 1024, 16, 4096,
                                100, 0);
    jobs[n++] = scatter_nd_rows("scatter_nd min i64", SGK_INT64, SGK_REDUCE_MIN, 512, 8, 4096,
                                64, 1);
    jobs[n++] = scatter_nd_rows("scatter_nd mul c64", SGK_COMPLEX64, SGK_REDUCE_MUL, 128, 8,
                                1024, 16, 0);
    jobs[n++] = scatter_nd_rows("scatter_nd add bool", SGK_BOOL, SGK_REDUCE_ADD, 1024, 32, 4096,
                                64, 0);
    jobs[n++] = gather_nd_batched("gather_nd f64", SGK_FLOAT64, 4, 1024, 16, 2048);
    jobs[n++] = gather_nd_batched("gather_nd u16 wide rows", SGK_UINT16, 2, 256, 500, 256);
    jobs[n++] = scatter_elements_rows("scatter_elements min f32", SGK_FLOAT32, SGK_REDUCE_MIN,
                                      128, 256, 512, 1);
    jobs[n++] = scatter_elements_rows("scatter_elements add u32", SGK_UINT32, SGK_REDUCE_ADD,
                                      256, 64, 256, 0);
    jobs[n++] = gather_elements_cols("gather_elements f32", SGK_FLOAT32, 512, 64, 1024);
    jobs[n++] = gather_elements_cols("gather_elements c128", SGK_COMPLEX128, 64, 32, 256);
    assert_int_equal(n, THREADS);
    for (int t = 0; t < n; t++)
        jobs[t].oneshot = oneshot;
    run_concurrently(jobs, n);
    for (int t = 0; t < n; t++)
        job_free(&jobs[t]);
}

static void test_sixteen_plans_at_once(void **state)
{
    (void)state;
    sixteen_at_once(0);
}

/* One-shot calls keep their scratch per thread (the binned path's bins,
   the direct path's slots, the one-shot plan block): 16 callers at once,
   each on its own problem, must not share any. */
static void test_sixteen_one_shot_callers(void **state)
{
    (void)state;
    sixteen_at_once(1);
}

/* And 16 callers of the same one-shot problem. */
static void test_one_shot_same_problem(void **state)
{
    (void)state;
    job j = scatter_nd_rows("scatter_nd add f32 one-shot, 48 distinct of 4096 rows",
                            SGK_FLOAT32, SGK_REDUCE_ADD, 4096, 32, 8192, 48, 0);
    j.oneshot = 1;
    run_concurrently(&j, 1);
    job_free(&j);
}

int main(void)
{
    /* Small enough that every execution also runs an OpenMP team: teams
       inside 16 concurrent callers. */
    setenv("SGK_PARALLEL_MIN_BYTES", "16384", 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_plan_scatter_nd_add_f32),
        cmocka_unit_test(test_one_plan_scatter_nd_add_f16),
        cmocka_unit_test(test_one_plan_gather_nd),
        cmocka_unit_test(test_one_plan_scatter_elements_max),
        cmocka_unit_test(test_sixteen_plans_at_once),
        cmocka_unit_test(test_sixteen_one_shot_callers),
        cmocka_unit_test(test_one_shot_same_problem),
    };
    /* SGK_TEST_HOST_POOL: the loops on a pool (tests/support/host_pool.h) */
    host_pool *pool = host_pool_install_from_env();
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    host_pool_uninstall(pool);
    return failed;
}
