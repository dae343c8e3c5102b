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

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/common.h"
#include "support/host_pool.h"
#include "support/reference.h"
#include "sgk.h"

#define THREADS 16
#define ROUNDS 4

/* ---- helpers -------------------------------------------------------------- */

/* Random inputs; every expected result is computed from them. */
static tc_rng rng = {0x2545F4914F6CDD1Dull};

/* float16 values with full mantissas in [-1, 1). */
static void fill_f16(uint16_t *p, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        p[i] = ref_f32_to_f16((float)tc_rng_uniform(&rng, -1.0, 1.0));
}

/* Few distinct values, +0 and -0 among them, and a NaN now and then: ties
   and NaNs make max order-sensitive, so only the sequential order is right. */
static void fill_f32_ties(float *p, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        int64_t r = tc_rng_below(&rng, 64);
        p[i] = r == 0 ? NAN : r < 8 ? 0.0f : r < 16 ? -0.0f : (float)(r % 5) - 2.0f;
    }
}

/* Index values in [-rows, rows) drawn from only `distinct` rows: heavy
   duplication. */
static void fill_rows(int64_t *idx, int64_t n, int64_t rows, int64_t distinct)
{
    for (int64_t i = 0; i < n; i++) {
        int64_t row = tc_rng_below(&rng, distinct) * (rows / distinct);
        idx[i] = tc_rng_next(&rng) & 1 ? row - rows : row;
    }
}

/* ---- one job: a plan, its buffers, the single-threaded result ------------- */

enum op { SCATTER_ND, GATHER_ND, SCATTER_ELEMENTS, GATHER_ELEMENTS };

typedef struct {
    const char *name;
    sgk_dtype dtype;
    sgk_reduction reduction;
    sgk_plan *plan;
    /* the operands of the one-shot call (a copy of the indices: the plan
       keeps no pointer to them) */
    enum op op;
    int64_t attr;         /* batch_dims or axis */
    int32_t rank, index_rank;
    int64_t data_shape[3], index_shape[3];
    sgk_dtype index_dtype;
    void *indices;
    int oneshot;          /* run_job calls the one-shot function, not the plan */
    void *data, *updates; /* updates NULL for gathers */
    size_t data_bytes, out_bytes;
    int in_place;         /* scatter: each run starts from a private copy of data */
    void *expected;       /* the reference's output */
} job;

/* The job's one-shot call on data (which may be out) into out. */
static sgk_status run_one_shot(const job *j, const void *data, void *out)
{
    sgk_tensor d = {j->dtype, j->rank, j->data_shape, data};
    sgk_tensor i = {j->index_dtype, j->index_rank, j->index_shape, j->indices};
    /* updates: indices.shape[:-1] ++ data.shape[k:] (ScatterND, k = 1 here),
       else indices' shape */
    int64_t ushape[3];
    int32_t urank = j->index_rank;
    memcpy(ushape, j->index_shape, sizeof ushape);
    if (j->op == SCATTER_ND) {
        urank = j->index_rank - 1 + j->rank - 1;
        for (int32_t a = 1; a < j->rank; a++)
            ushape[j->index_rank - 1 + a - 1] = j->data_shape[a];
    }
    sgk_tensor u = {j->dtype, urank, ushape, j->updates};
    switch (j->op) {
    case SCATTER_ND: return sgk_scatter_nd(&d, &i, &u, j->reduction, out);
    case GATHER_ND: return sgk_gather_nd(&d, &i, j->attr, out);
    case SCATTER_ELEMENTS: return sgk_scatter_elements(&d, &i, &u, j->attr, j->reduction, out);
    case GATHER_ELEMENTS: return sgk_gather_elements(&d, &i, j->attr, out);
    }
    return SGK_ERR_INVALID_ARGUMENT;
}

/* Runs the job once into out (out_bytes); for in-place jobs out first takes
   a copy of data. */
static sgk_status run_job(const job *j, void *out)
{
    if (j->in_place) {
        memcpy(out, j->data, j->data_bytes);
        return j->oneshot ? run_one_shot(j, out, out) : sgk_execute(j->plan, out, j->updates, out);
    }
    memset(out, 0xA5, j->out_bytes);
    return j->oneshot ? run_one_shot(j, j->data, out)
                      : sgk_execute(j->plan, j->data, j->updates, out);
}

/* Keeps the operands of the job's one-shot call: d and i's shapes, a copy
   of i's values. */
static void keep_operands(job *j, enum op op, const sgk_tensor *d, const sgk_tensor *i,
                          int64_t attr)
{
    j->op = op;
    j->attr = attr;
    j->rank = d->rank;
    j->index_rank = i->rank;
    memcpy(j->data_shape, d->shape, (size_t)d->rank * sizeof *d->shape);
    memcpy(j->index_shape, i->shape, (size_t)i->rank * sizeof *i->shape);
    j->index_dtype = i->dtype;
    size_t n = tc_dtype_size(i->dtype);
    for (int32_t a = 0; a < i->rank; a++)
        n *= (size_t)i->shape[a];
    j->indices = xmalloc(n ? n : 1);
    memcpy(j->indices, i->data, n);
}

/* The reference's output into a new j->expected (`reference`, a call of
   tests/support/reference.c writing there), then `call` (storing into j->plan)
   plans the problem with the default threads. */
#define PLAN_WITH_REFERENCE(j, call, reference)                                           \
    do {                                                                                  \
        (j)->expected = xmalloc((j)->out_bytes);                                          \
        reference;                                                                        \
        CHECK_OK(call);                                                                   \
        assert_non_null(sgk_plan_describe((j)->plan));                                    \
        print_message("  %s: %s\n", (j)->name, sgk_plan_describe((j)->plan));            \
    } while (0)

static void job_free(job *j)
{
    sgk_plan_destroy(j->plan);
    free(j->data);
    free(j->updates);
    free(j->expected);
    free(j->indices);
}

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

/* ---- the jobs ----------------------------------------------------------------- */

/* ScatterND, k = 1, rows of `width` elements, heavy duplicates. */
static job scatter_nd_rows(const char *name, sgk_dtype dtype, sgk_reduction red, int64_t rows,
                           int64_t width, int64_t n_updates, int64_t distinct, int in_place)
{
    const size_t es = tc_dtype_size(dtype);
    const int64_t dshape[2] = {rows, width}, ishape[2] = {n_updates, 1};
    const int64_t ushape[2] = {n_updates, width};
    job j = {.name = name, .dtype = dtype, .reduction = red, .in_place = in_place};
    j.data_bytes = j.out_bytes = (size_t)(rows * width) * es;
    j.data = xmalloc(j.data_bytes);
    j.updates = xmalloc((size_t)(n_updates * width) * es);
    int64_t *idx = xmalloc((size_t)n_updates * sizeof *idx);
    fill_rows(idx, n_updates, rows, distinct);
    switch (dtype) {
    case SGK_FLOAT16:
        fill_f16(j.data, rows * width);
        fill_f16(j.updates, n_updates * width);
        break;
    case SGK_FLOAT32: /* full mantissas: a change in the order of a sum shows */
        tc_fill_uniform_f32(&rng, j.data, (size_t)(rows * width), -4.0, 4.0);
        tc_fill_uniform_f32(&rng, j.updates, (size_t)(n_updates * width), -4.0, 4.0);
        break;
    default: /* bytes of any other type */
        for (size_t i = 0; i < j.data_bytes; i++)
            ((uint8_t *)j.data)[i] = (uint8_t)tc_rng_next(&rng);
        for (size_t i = 0; i < (size_t)(n_updates * width) * es; i++)
            ((uint8_t *)j.updates)[i] = (uint8_t)tc_rng_next(&rng);
        break;
    }
    sgk_tensor d = {dtype, 2, dshape, j.data}, i = {SGK_INT64, 2, ishape, idx};
    sgk_tensor u = {dtype, 2, ushape, j.updates};
    PLAN_WITH_REFERENCE(&j, sgk_plan_scatter_nd(&j.plan, &d, &i, &u, red, 0),
                        ref_scatter_nd(&d, &i, &u, red, j.expected));
    keep_operands(&j, SCATTER_ND, &d, &i, 0);
    free(idx); /* the plan keeps no pointer to the indices */
    return j;
}

/* GatherND with batch_dims = 1: data [batch, rows, width], indices
   [batch, n, 1]. */
static job gather_nd_batched(const char *name, sgk_dtype dtype, int64_t batch, int64_t rows,
                             int64_t width, int64_t n)
{
    const size_t es = tc_dtype_size(dtype);
    const int64_t dshape[3] = {batch, rows, width}, ishape[3] = {batch, n, 1};
    job j = {.name = name, .dtype = dtype};
    j.data_bytes = (size_t)(batch * rows * width) * es;
    j.out_bytes = (size_t)(batch * n * width) * es;
    j.data = xmalloc(j.data_bytes);
    for (size_t b = 0; b < j.data_bytes; b++)
        ((uint8_t *)j.data)[b] = (uint8_t)tc_rng_next(&rng);
    int32_t *idx = xmalloc((size_t)(batch * n) * sizeof *idx);
    for (int64_t t = 0; t < batch * n; t++)
        idx[t] = (int32_t)(tc_rng_below(&rng, 2 * rows) - rows);
    sgk_tensor d = {dtype, 3, dshape, j.data}, i = {SGK_INT32, 3, ishape, idx};
    PLAN_WITH_REFERENCE(&j, sgk_plan_gather_nd(&j.plan, &d, &i, 1, 0),
                        ref_gather_nd(&d, &i, 1, j.expected));
    keep_operands(&j, GATHER_ND, &d, &i, 1);
    free(idx);
    return j;
}

/* ScatterElements along axis 1: data [rows, cols], indices [rows, n]. */
static job scatter_elements_rows(const char *name, sgk_dtype dtype, sgk_reduction red,
                                 int64_t rows, int64_t cols, int64_t n, int in_place)
{
    const size_t es = tc_dtype_size(dtype);
    const int64_t dshape[2] = {rows, cols}, ishape[2] = {rows, n};
    job j = {.name = name, .dtype = dtype, .reduction = red, .in_place = in_place};
    j.data_bytes = j.out_bytes = (size_t)(rows * cols) * es;
    j.data = xmalloc(j.data_bytes);
    j.updates = xmalloc((size_t)(rows * n) * es);
    if (dtype == SGK_FLOAT32) {
        fill_f32_ties(j.data, rows * cols);
        fill_f32_ties(j.updates, rows * n);
    } else {
        for (size_t b = 0; b < j.data_bytes; b++)
            ((uint8_t *)j.data)[b] = (uint8_t)tc_rng_next(&rng);
        for (size_t b = 0; b < (size_t)(rows * n) * es; b++)
            ((uint8_t *)j.updates)[b] = (uint8_t)tc_rng_next(&rng);
    }
    int64_t *idx = xmalloc((size_t)(rows * n) * sizeof *idx);
    for (int64_t t = 0; t < rows * n; t++)
        idx[t] = tc_rng_below(&rng, 2 * cols) - cols;
    sgk_tensor d = {dtype, 2, dshape, j.data}, i = {SGK_INT64, 2, ishape, idx};
    sgk_tensor u = {dtype, 2, ishape, j.updates};
    PLAN_WITH_REFERENCE(&j, sgk_plan_scatter_elements(&j.plan, &d, &i, &u, 1, red, 0),
                        ref_scatter_elements(&d, &i, &u, 1, red, j.expected));
    keep_operands(&j, SCATTER_ELEMENTS, &d, &i, 1);
    free(idx);
    return j;
}

/* GatherElements along axis 0: data [rows, cols], indices [n, cols]. */
static job gather_elements_cols(const char *name, sgk_dtype dtype, int64_t rows, int64_t cols,
                                int64_t n)
{
    const size_t es = tc_dtype_size(dtype);
    const int64_t dshape[2] = {rows, cols}, ishape[2] = {n, cols};
    job j = {.name = name, .dtype = dtype};
    j.data_bytes = (size_t)(rows * cols) * es;
    j.out_bytes = (size_t)(n * cols) * es;
    j.data = xmalloc(j.data_bytes);
    for (size_t b = 0; b < j.data_bytes; b++)
        ((uint8_t *)j.data)[b] = (uint8_t)tc_rng_next(&rng);
    int32_t *idx = xmalloc((size_t)(n * cols) * sizeof *idx);
    for (int64_t t = 0; t < n * cols; t++)
        idx[t] = (int32_t)(tc_rng_below(&rng, 2 * rows) - rows);
    sgk_tensor d = {dtype, 2, dshape, j.data}, i = {SGK_INT32, 2, ishape, idx};
    PLAN_WITH_REFERENCE(&j, sgk_plan_gather_elements(&j.plan, &d, &i, 0, 0),
                        ref_gather_elements(&d, &i, 0, j.expected));
    keep_operands(&j, GATHER_ELEMENTS, &d, &i, 0);
    free(idx);
    return j;
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
