/*
 * Plans and threads: one plan executed from many threads at once,
 * identical bytes at every thread count (deterministic by default), and
 * the distinct-destination counts plans report at each.
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

#include "support/host_pool.h"
#include "support/plan_checks.h"

/* ---- one plan, many threads ----------------------------------------------- */

#define NT 8
#define CT_ROWS 2048
#define CT_COLS 128
#define CT_UPD 4096       /* ScatterND updates rows, into 512 distinct rows */
#define CT_GROWS 4096     /* GatherND index rows */
#define CT_ROUNDS 3

typedef struct {
    const sgk_plan *scatter, *gather;
    pthread_barrier_t *barrier;
    const float *data, *upd, *want_scatter, *want_gather;
    float *out_scatter, *out_gather;
    int scatter_bad, gather_bad;
    sgk_status status;
} ct_job;

static void *ct_worker(void *arg)
{
    ct_job *j = arg;
    pthread_barrier_wait(j->barrier);
    for (int r = 0; r < CT_ROUNDS; r++) {
        tc_fill_pattern(j->out_scatter, sizeof(float) * CT_ROWS * CT_COLS);
        sgk_status st = sgk_execute(j->scatter, j->data, j->upd, j->out_scatter);
        if (st != SGK_OK) j->status = st;
        else if (memcmp(j->out_scatter, j->want_scatter, sizeof(float) * CT_ROWS * CT_COLS))
            j->scatter_bad++;
        tc_fill_pattern(j->out_gather, sizeof(float) * CT_GROWS * CT_COLS);
        st = sgk_execute(j->gather, j->data, NULL, j->out_gather);
        if (st != SGK_OK) j->status = st;
        else if (memcmp(j->out_gather, j->want_gather, sizeof(float) * CT_GROWS * CT_COLS))
            j->gather_bad++;
    }
    return NULL;
}

static void test_concurrent_execute(void **state)
{
    (void)state;
    static const int64_t ds[] = {CT_ROWS, CT_COLS}, is[] = {CT_UPD, 1}, us[] = {CT_UPD, CT_COLS};
    static const int64_t gis[] = {CT_GROWS, 1};
    int64_t *idx = xmalloc(CT_UPD * sizeof(int64_t)), *gidx = xmalloc(CT_GROWS * sizeof(int64_t));
    for (int i = 0; i < CT_UPD; i++) idx[i] = tc_rng_below(&plans_rng, 512) * 3 - (i & 1 ? CT_ROWS : 0);
    for (int i = 0; i < CT_GROWS; i++) gidx[i] = tc_rng_below(&plans_rng, 2 * CT_ROWS) - CT_ROWS;

    sgk_tensor d = f32(2, ds, NULL), u = f32(2, us, NULL), ix = i64(2, is, idx);
    sgk_tensor gix = i64(2, gis, gidx);
    sgk_plan *sp = NULL, *gp = NULL;
    CHECK_OK(sgk_plan_scatter_nd(&sp, &d, &ix, &u, SGK_REDUCE_ADD, 0));
    CHECK_OK(sgk_plan_gather_nd(&gp, &d, &gix, 0, 0));
    check_describe(sp);
    check_describe(gp);

    const size_t nd = (size_t)CT_ROWS * CT_COLS, nu = (size_t)CT_UPD * CT_COLS,
                 ng = (size_t)CT_GROWS * CT_COLS;
    ct_job jobs[NT];
    pthread_t th[NT];
    pthread_barrier_t barrier;
    memset(jobs, 0, sizeof jobs);
    for (int t = 0; t < NT; t++) {
        float *data = random_floats(nd), *upd = random_floats(nu);
        float *ws = xmalloc(nd * sizeof(float)), *wg = xmalloc(ng * sizeof(float));
        seq_scatter_nd(data, ds, 2, idx, CT_UPD, 1, upd, SGK_REDUCE_ADD, ws);
        seq_gather_nd(data, ds, 2, gidx, gis, 2, 0, wg);
        jobs[t] = (ct_job){sp, gp, &barrier, data, upd, ws, wg, xmalloc(nd * sizeof(float)),
                           xmalloc(ng * sizeof(float)), 0, 0, SGK_OK};
    }
    /* The single-threaded results equal the sequential definition. */
    CHECK_OK(sgk_execute(sp, jobs[0].data, jobs[0].upd, jobs[0].out_scatter));
    CHECK_FLOATS("scatter_nd add, one thread", jobs[0].out_scatter, jobs[0].want_scatter, nd);
    CHECK_OK(sgk_execute(gp, jobs[0].data, NULL, jobs[0].out_gather));
    CHECK_FLOATS("gather_nd, one thread", jobs[0].out_gather, jobs[0].want_gather, ng);

    assert_int_equal(pthread_barrier_init(&barrier, NULL, NT), 0);
    for (int t = 0; t < NT; t++) assert_int_equal(pthread_create(&th[t], NULL, ct_worker, &jobs[t]), 0);
    for (int t = 0; t < NT; t++) pthread_join(th[t], NULL);
    pthread_barrier_destroy(&barrier);

    for (int t = 0; t < NT; t++) {
        if (jobs[t].status != SGK_OK || jobs[t].scatter_bad || jobs[t].gather_bad) {
            print_error("thread %d: status %d, %d/%d scatter and %d/%d gather results differ "
                        "from the single-threaded result\n",
                        t, (int)jobs[t].status, jobs[t].scatter_bad, CT_ROUNDS,
                        jobs[t].gather_bad, CT_ROUNDS);
            fail();
        }
    }
    for (int t = 0; t < NT; t++) {
        free((void *)jobs[t].data);
        free((void *)jobs[t].upd);
        free((void *)jobs[t].want_scatter);
        free((void *)jobs[t].want_gather);
        free(jobs[t].out_scatter);
        free(jobs[t].out_gather);
    }
    sgk_plan_destroy(sp);
    sgk_plan_destroy(gp);
    free(idx);
    free(gidx);
}

/* ---- identical bytes at every thread count ---------------------------------- */

static void test_thread_counts(void **state)
{
    (void)state;
    /* ScatterND add on rows: data [4096, 64], 32768 update rows into 1024 rows */
    static const int64_t ds[] = {4096, 64}, is[] = {32768, 1}, us[] = {32768, 64};
    /* ScatterND add on elements (k = r): data [512, 512], 262144 updates into 4096 */
    static const int64_t eds[] = {512, 512}, eis[] = {262144, 2}, eus[] = {262144};
    /* ScatterElements add, axis 1: data [256, 1024], indices [256, 2048] */
    static const int64_t sds[] = {256, 1024}, sis[] = {256, 2048};
    /* GatherND: data [4096, 64] by 16384 rows */
    static const int64_t gis[] = {16384, 1};
    const size_t nd = 4096 * 64, nu = 32768 * 64, ne = 512 * 512, nse = 256 * 2048;
    const size_t ng = 16384 * 64;

    int64_t *idx = xmalloc(32768 * sizeof(int64_t)), *eidx = xmalloc(262144 * 2 * sizeof(int64_t));
    int64_t *sidx = xmalloc(nse * sizeof(int64_t)), *gidx = xmalloc(16384 * sizeof(int64_t));
    for (size_t i = 0; i < 32768; i++)
        idx[i] = tc_rng_below(&plans_rng, 1024) * 4 - (i % 3 == 0 ? 4096 : 0);
    for (size_t i = 0; i < 262144; i++) {
        int64_t cell = tc_rng_below(&plans_rng, 4096);
        eidx[2 * i] = (cell / 64) * 8;
        eidx[2 * i + 1] = (cell % 64) * 8 - (i & 1 ? 512 : 0);
    }
    for (size_t i = 0; i < nse; i++) sidx[i] = tc_rng_below(&plans_rng, 64) - (i & 1 ? 1024 : 0);
    for (size_t i = 0; i < 16384; i++) gidx[i] = tc_rng_below(&plans_rng, 8192) - 4096;

    float *data = random_floats(nd), *upd = random_floats(nu);
    float *edata = random_floats(ne), *eupd = random_floats(262144);
    float *sdata = random_floats(256 * 1024), *supd = random_floats(nse);
    float *want = xmalloc(nd * sizeof(float)), *ewant = xmalloc(ne * sizeof(float));
    float *swant = xmalloc(256 * 1024 * sizeof(float)), *gwant = xmalloc(ng * sizeof(float));
    float *out = xmalloc(ng * sizeof(float));
    seq_scatter_nd(data, ds, 2, idx, 32768, 1, upd, SGK_REDUCE_ADD, want);
    seq_scatter_nd(edata, eds, 2, eidx, 262144, 2, eupd, SGK_REDUCE_ADD, ewant);
    seq_scatter_elements(sdata, sds, 2, sidx, sis, 1, supd, SGK_REDUCE_ADD, swant);
    seq_gather_nd(data, ds, 2, gidx, gis, 2, 0, gwant);

    sgk_tensor d = f32(2, ds, data), u = f32(2, us, upd), ix = i64(2, is, idx);
    sgk_tensor ed = f32(2, eds, edata), eu = f32(1, eus, eupd), eix = i64(2, eis, eidx);
    sgk_tensor sd = f32(2, sds, sdata), su = f32(2, sis, supd), six = i64(2, sis, sidx);
    sgk_tensor gix = i64(2, gis, gidx);

    /* a plan made before the thread count changes */
    sgk_plan *early = NULL;
    CHECK_OK(sgk_set_num_threads(1));
    CHECK_OK(sgk_plan_scatter_nd(&early, &d, &ix, &u, SGK_REDUCE_ADD, 0));

    static const int counts[] = {1, 2, 4, 0, 3};
    for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
        char what[96];
        CHECK_OK(sgk_set_num_threads(counts[ci]));
        sgk_plan *plan;
        static const uint32_t flag_sets[] = {0, SGK_PLAN_DETERMINISTIC};

        snprintf(what, sizeof what, "scatter_nd add (rows), %d threads, one-shot", counts[ci]);
        tc_fill_pattern(out, nd * sizeof(float));
        CHECK_OK(sgk_scatter_nd(&d, &ix, &u, SGK_REDUCE_ADD, out));
        check_floats_at(__FILE__, __LINE__, what, out, want, nd);
        for (size_t f = 0; f < 2; f++) {
            plan = NULL;
            CHECK_OK(sgk_plan_scatter_nd(&plan, &d, &ix, &u, SGK_REDUCE_ADD, flag_sets[f]));
            tc_fill_pattern(out, nd * sizeof(float));
            CHECK_OK(sgk_execute(plan, data, upd, out));
            snprintf(what, sizeof what, "scatter_nd add (rows), %d threads, plan flags %u",
                     counts[ci], (unsigned)flag_sets[f]);
            check_floats_at(__FILE__, __LINE__, what, out, want, nd);
            sgk_plan_destroy(plan);
        }
        tc_fill_pattern(out, nd * sizeof(float));
        CHECK_OK(sgk_execute(early, data, upd, out));
        snprintf(what, sizeof what, "scatter_nd add, earlier plan, %d threads", counts[ci]);
        check_floats_at(__FILE__, __LINE__, what, out, want, nd);

        tc_fill_pattern(out, ne * sizeof(float));
        CHECK_OK(sgk_scatter_nd(&ed, &eix, &eu, SGK_REDUCE_ADD, out));
        snprintf(what, sizeof what, "scatter_nd add (elements), %d threads", counts[ci]);
        check_floats_at(__FILE__, __LINE__, what, out, ewant, ne);

        tc_fill_pattern(out, 256 * 1024 * sizeof(float));
        CHECK_OK(sgk_scatter_elements(&sd, &six, &su, 1, SGK_REDUCE_ADD, out));
        snprintf(what, sizeof what, "scatter_elements add, %d threads", counts[ci]);
        check_floats_at(__FILE__, __LINE__, what, out, swant, 256 * 1024);

        tc_fill_pattern(out, ng * sizeof(float));
        CHECK_OK(sgk_gather_nd(&d, &gix, 0, out));
        snprintf(what, sizeof what, "gather_nd, %d threads, one-shot", counts[ci]);
        check_floats_at(__FILE__, __LINE__, what, out, gwant, ng);
        plan = NULL;
        CHECK_OK(sgk_plan_gather_nd(&plan, &d, &gix, 0, 0));
        tc_fill_pattern(out, ng * sizeof(float));
        CHECK_OK(sgk_execute(plan, data, NULL, out));
        snprintf(what, sizeof what, "gather_nd, %d threads, plan", counts[ci]);
        check_floats_at(__FILE__, __LINE__, what, out, gwant, ng);
        sgk_plan_destroy(plan);

        /* Opting out of determinism changes rounding only. */
        plan = NULL;
        CHECK_OK(sgk_plan_scatter_nd(&plan, &d, &ix, &u, SGK_REDUCE_ADD, SGK_PLAN_ALLOW_REORDER));
        CHECK_OK(sgk_execute(plan, data, upd, out));
        for (size_t i = 0; i < nd; i++) {
            double tol = 1e-4 * (absd((double)want[i]) + 64.0);
            if (!(absd((double)out[i] - (double)want[i]) <= tol)) {
                print_error("reorder-allowed scatter_nd add, %d threads: element %zu is %.9g, "
                            "want %.9g within rounding\n",
                            counts[ci], i, (double)out[i], (double)want[i]);
                fail();
            }
        }
        sgk_plan_destroy(plan);
    }
    CHECK_OK(sgk_set_num_threads(0));
    sgk_plan_destroy(early);
    free(idx); free(eidx); free(sidx); free(gidx);
    free(data); free(upd); free(edata); free(eupd); free(sdata); free(supd);
    free(want); free(ewant); free(swant); free(gwant); free(out);
}

/* ---- duplicate statistics ------------------------------------------------ */

/* The distinct destinations a plan reports ("... to D distinct of ..."). */
static long long described_distinct(const sgk_plan *plan)
{
    const char *d = sgk_plan_describe(plan), *to = strstr(d, " updates to ");
    long long distinct = -1;
    if (to == NULL || sscanf(to, " updates to %lld distinct", &distinct) != 1) {
        print_error("no distinct count in \"%s\"\n", d);
        fail();
    }
    return distinct;
}

/* The planner's count of distinct destinations (docs/architecture.md:
   the statistics the reduction paths are chosen by) against a bitmap over the
   slots, on every path that counts them: serial at 1 thread; owner-blocks
   at 2 and 4, where single-element slices are counted block by block while
   the slots are made block-local, and 16-byte `none` slices are counted
   first, to decide whether to drop the overwritten updates.  (Built
   without OpenMP, every count plans for one thread: serial only.) */
static int built_without_openmp(void)
{
    return strstr(sgk_runtime_describe(), "built without OpenMP") != NULL;
}

static void test_duplicate_statistics(void **state)
{
    (void)state;
    enum { SLOTS = 1 << 20, PAIRS = 1 << 19 };
    static const int counts[] = {1, 2, 4};
    static const sgk_reduction reds[] = {SGK_REDUCE_NONE, SGK_REDUCE_ADD};
    int64_t *idx = xmalloc(PAIRS * sizeof *idx);
    uint8_t *seen = xmalloc(SLOTS);
    for (int width = 1; width <= 4; width *= 4) {
        const int64_t slots = SLOTS / width, pairs = PAIRS / width;
        /* a quarter of the slots drawn from, negative half the time */
        memset(seen, 0, SLOTS);
        long long want = 0;
        for (int64_t n = 0; n < pairs; n++) {
            int64_t v = tc_rng_below(&plans_rng, slots / 4) * 4;
            idx[n] = tc_rng_next(&plans_rng) & 1 ? v - slots : v;
            want += !seen[v];
            seen[v] = 1;
        }
        const int64_t ds[] = {slots, width}, is[] = {pairs, 1}, us[] = {pairs, width};
        sgk_tensor d = f32(2, ds, NULL), u = f32(2, us, NULL), ix = i64(2, is, idx);
        for (size_t ci = 0; ci < sizeof counts / sizeof *counts; ci++) {
            CHECK_OK(sgk_set_num_threads(counts[ci]));
            for (size_t ri = 0; ri < sizeof reds / sizeof *reds; ri++) {
                sgk_plan *plan = NULL;
                CHECK_OK(sgk_plan_scatter_nd(&plan, &d, &ix, &u, reds[ri], 0));
                const int threads = built_without_openmp() ? 1 : counts[ci];
                assert_string_equal(sgk_plan_path(plan),
                                    threads == 1 ? "serial" : "owner-blocks");
                assert_int_equal(described_distinct(plan), want);
                sgk_plan_destroy(plan);
            }
        }
    }
    CHECK_OK(sgk_set_num_threads(0));
    free(idx);
    free(seen);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_concurrent_execute),
        cmocka_unit_test(test_thread_counts),
        cmocka_unit_test(test_duplicate_statistics),
    };
    /* SGK_TEST_HOST_POOL: the loops on a pool (tests/support/host_pool.h) */
    host_pool *pool = host_pool_install_from_env();
    int failed = cmocka_run_group_tests_name("sgk plans: threads", tests, NULL, NULL);
    host_pool_uninstall(pool);
    return failed;
}
