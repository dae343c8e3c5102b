/*
 * Reused plans of single elements whose updates lie past the caches
 * (src/paths/owner_blocks.c, groups_updates): an execution first moves the
 * updates into pair order, then the blocks read them front to back.  The
 * test lowers SGK_STREAM_MIN_BYTES to 0, the measure of "past the
 * caches", so that small problems take that way.
 *
 * - ScatterND (k = 1 and k = 2) and ScatterElements (along axis 0) into
 *   300,000 slots (several blocks) with 60,000 updates at random,
 *   duplicates among them, a quarter of the indices negative, int32 and
 *   int64; every type with a 16-bit-slot kernel and every reduction
 *   (complex `none`, which drops overwritten updates and so keeps
 *   positions, among them): bit for bit the reference (tests/reference.c),
 *   executed twice on new updates and once in place.
 * - One plan executed from four threads at once, each into an output of
 *   its own (each moves the updates in its own call scratch): every
 *   output the reference's.
 * - Where the plan is owner-blocks, it says it moves the updates (under
 *   the configurations of tests/matrix.sh that run on one thread or force
 *   another path, the plan is another, and only the results are checked).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/common.h"
#include "support/reference.h"
#include "support/tiny_cases.h"
#include "sgk.h"

enum { SLOTS = 300000, PAIRS = 60000, COLS = 600 };

static sgk_status plan_of(bool elements, sgk_plan **plan, const sgk_tensor *d,
                          const sgk_tensor *i, const sgk_tensor *u, sgk_reduction red)
{
    return elements ? sgk_plan_scatter_elements(plan, d, i, u, 0, red, 0)
                    : sgk_plan_scatter_nd(plan, d, i, u, red, 0);
}

static void reference(bool elements, const sgk_tensor *d, const sgk_tensor *i,
                      const sgk_tensor *u, sgk_reduction red, void *out)
{
    if (elements)
        ref_scatter_elements(d, i, u, 0, red, out);
    else
        ref_scatter_nd(d, i, u, red, out);
}

static void expect_same(sgk_dtype t, sgk_reduction red, const void *want, const void *got,
                        const char *what)
{
    const size_t es = sgk_dtype_size(t);
    for (int64_t e = 0; e < SLOTS; e++)
        if (!ref_same_result(t, red, (const char *)want + e * es, (const char *)got + e * es))
            fail_msg("%s: element %lld differs from the reference", what, (long long)e);
}

/* One form (ScatterND with k coordinates, or ScatterElements along axis 0
   of [SLOTS / COLS, COLS]), type, reduction and index type. */
static void run_case(bool elements, int k, sgk_dtype t, sgk_reduction red, sgk_dtype itype,
                     tc_rng *r)
{
    const size_t es = sgk_dtype_size(t);
    const int64_t rows = SLOTS / COLS;
    int64_t dshape[2] = {SLOTS, 0}, ishape[2] = {PAIRS, k}, ushape[2] = {PAIRS, 0};
    int rank = 1, irank = 2, urank = 1;
    if (k == 2 || elements)
        dshape[0] = rows, dshape[1] = COLS, rank = 2;
    if (elements) /* indices and updates [PAIRS / COLS, COLS] */
        ishape[0] = ushape[0] = PAIRS / COLS, ishape[1] = ushape[1] = COLS, urank = 2;
    const int64_t n_idx = elements ? PAIRS : PAIRS * k;
    void *data = xmalloc(SLOTS * es), *upd = xmalloc(PAIRS * es);
    void *got = xmalloc(SLOTS * es), *want = xmalloc(SLOTS * es);
    int64_t *idx64 = xmalloc((size_t)n_idx * sizeof *idx64);
    int32_t *idx32 = xmalloc((size_t)n_idx * sizeof *idx32);
    for (int64_t n = 0; n < n_idx; n++) {
        const int64_t dim = elements ? rows : k == 1 ? SLOTS : dshape[n % 2];
        tiny_fill_indices(r, idx64 + n, 1, dim, false);
        idx32[n] = (int32_t)idx64[n];
    }
    tiny_fill(r, t, data, SLOTS);
    const sgk_tensor d = {t, rank, dshape, data};
    const sgk_tensor it = {itype, irank, ishape,
                           itype == SGK_INT32 ? (void *)idx32 : (void *)idx64};
    const sgk_tensor u = {t, urank, ushape, upd};
    char what[160];
    snprintf(what, sizeof what, "%s %s %s, %s indices",
             elements ? "scatter_elements" : k == 1 ? "scatter_nd k=1" : "scatter_nd k=2",
             tc_dtype_name(t), tc_reduction_name(red), tc_dtype_name(itype));

    sgk_plan *plan = NULL;
    sgk_status st = plan_of(elements, &plan, &d, &it, &u, red);
    if (st != SGK_OK)
        fail_msg("%s: plan: %s (%s)", what, tc_status_name(st), tc_last_error());
    const char *text = sgk_plan_describe(plan);
    /* `none` of 16-byte elements drops overwritten updates instead */
    const bool drops = red == SGK_REDUCE_NONE && es > 8;
    if (strstr(text, "path owner-blocks") != NULL && strstr(text, "16-bit slots") != NULL &&
        !drops && strstr(text, "updates moved into pair order first") == NULL)
        fail_msg("%s: an owner-blocks plan that reads its updates at random: %s", what, text);
    /* twice on new updates: nothing of the first execution lingers */
    for (int round = 0; round < 2; round++) {
        tiny_fill(r, t, upd, PAIRS);
        reference(elements, &d, &it, &u, red, want);
        memset(got, 0xA5, SLOTS * es);
        st = sgk_execute(plan, data, upd, got);
        if (st != SGK_OK)
            fail_msg("%s: execute: %s (%s)", what, tc_status_name(st), tc_last_error());
        expect_same(t, red, want, got, what);
    }
    /* in place: the data becomes the output */
    st = sgk_execute(plan, data, upd, data);
    if (st != SGK_OK)
        fail_msg("%s in place: %s (%s)", what, tc_status_name(st), tc_last_error());
    expect_same(t, red, want, data, what);
    sgk_plan_destroy(plan);
    free(data), free(upd), free(got), free(want), free(idx64), free(idx32);
}

static void test_grouped_updates(void **state)
{
    (void)state;
    static const sgk_dtype types[] = {SGK_FLOAT32, SGK_FLOAT64, SGK_FLOAT16, SGK_BFLOAT16,
                                      SGK_INT32, SGK_INT64, SGK_UINT8, SGK_INT16, SGK_BOOL,
                                      SGK_COMPLEX64, SGK_COMPLEX128};
    static const sgk_reduction reds[] = {SGK_REDUCE_NONE, SGK_REDUCE_ADD, SGK_REDUCE_MUL,
                                         SGK_REDUCE_MAX, SGK_REDUCE_MIN};
    tc_rng r = {UINT64_C(0x5eed0f11)};
    for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++)
        for (size_t ri = 0; ri < sizeof reds / sizeof reds[0]; ri++) {
            if (!ref_reduction_supported(types[ti], reds[ri]))
                continue;
            const sgk_dtype itype = (ti + ri) % 2 ? SGK_INT32 : SGK_INT64;
            run_case(false, 1, types[ti], reds[ri], itype, &r);
            run_case(false, 2, types[ti], reds[ri], itype, &r);
            run_case(true, 1, types[ti], reds[ri], itype, &r);
        }
}

typedef struct {
    sgk_plan *plan;
    const void *data, *upd;
    void *out;
    sgk_status status;
} exec_job;

static void *execute_one(void *arg)
{
    exec_job *e = arg;
    for (int round = 0; round < 3 && e->status == SGK_OK; round++)
        e->status = sgk_execute(e->plan, e->data, e->upd, e->out);
    return NULL;
}

static void test_concurrent_executions(void **state)
{
    (void)state;
    enum { THREADS = 4 };
    tc_rng r = {UINT64_C(0xc0ffee)};
    int64_t dshape[1] = {SLOTS}, ishape[2] = {PAIRS, 1}, ushape[1] = {PAIRS};
    float *data = xmalloc(SLOTS * sizeof *data), *upd = xmalloc(PAIRS * sizeof *upd);
    float *want = xmalloc(SLOTS * sizeof *want);
    int64_t *idx = xmalloc(PAIRS * sizeof *idx);
    tiny_fill_indices(&r, idx, PAIRS, SLOTS, false);
    tiny_fill(&r, SGK_FLOAT32, data, SLOTS);
    tiny_fill(&r, SGK_FLOAT32, upd, PAIRS);
    const sgk_tensor d = {SGK_FLOAT32, 1, dshape, data}, u = {SGK_FLOAT32, 1, ushape, upd};
    const sgk_tensor it = {SGK_INT64, 2, ishape, idx};
    ref_scatter_nd(&d, &it, &u, SGK_REDUCE_MAX, want);
    sgk_plan *plan = NULL;
    assert_int_equal(sgk_plan_scatter_nd(&plan, &d, &it, &u, SGK_REDUCE_MAX, 0), SGK_OK);
    pthread_t th[THREADS];
    exec_job jobs[THREADS];
    for (int t = 0; t < THREADS; t++) {
        jobs[t] = (exec_job){plan, data, upd, xmalloc(SLOTS * sizeof(float)), SGK_OK};
        assert_int_equal(pthread_create(&th[t], NULL, execute_one, &jobs[t]), 0);
    }
    for (int t = 0; t < THREADS; t++) {
        assert_int_equal(pthread_join(th[t], NULL), 0);
        if (jobs[t].status != SGK_OK)
            fail_msg("thread %d: %s (%s)", t, tc_status_name(jobs[t].status), tc_last_error());
        expect_same(SGK_FLOAT32, SGK_REDUCE_MAX, want, jobs[t].out, "concurrent execution");
        free(jobs[t].out);
    }
    sgk_plan_destroy(plan);
    free(data), free(upd), free(want), free(idx);
}

int main(void)
{
    /* read once, at the library's first call: every output and update
       array counts as past the caches */
    setenv("SGK_STREAM_MIN_BYTES", "0", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grouped_updates),
        cmocka_unit_test(test_concurrent_executions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
