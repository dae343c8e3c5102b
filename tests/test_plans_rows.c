/*
 * Plans that move whole rows: Elements operators whose index is constant
 * after the axis (whole rows), and row gathers read in source order into
 * aligned and unaligned outputs.
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

#include "support/plan_checks.h"

/* ---- an index constant after the axis: whole rows move ------------------ */

static void test_whole_rows(void **state)
{
    (void)state;
    /* ScatterElements: data [6, 5], indices/updates [4, 5] on axis 0, each
       row's index repeated along it (slot 2 twice); then one element
       breaks the pattern and the elements are moved one by one. */
    static const int64_t ds[] = {6, 5}, is[] = {4, 5};
    int64_t idx[20];
    static const int64_t rows[] = {2, -1, 2, 0};
    static const sgk_reduction reds[] = {SGK_REDUCE_NONE, SGK_REDUCE_ADD, SGK_REDUCE_MUL,
                                         SGK_REDUCE_MAX, SGK_REDUCE_MIN, SGK_REDUCE_SUB};
    for (int broken = 0; broken < 2; broken++)
        for (size_t ri = 0; ri < sizeof reds / sizeof reds[0]; ri++) {
            for (int i = 0; i < 20; i++)
                idx[i] = rows[i / 5];
            if (broken)
                idx[13] = 1;
            sgk_tensor d = f32(2, ds, NULL), u = f32(2, is, NULL), ix = i64(2, is, idx);
            sgk_plan *plan = NULL;
            CHECK_OK(sgk_plan_scatter_elements(&plan, &d, &ix, &u, 0, reds[ri], 0));
            assert_int_equal(strstr(sgk_plan_describe(plan), "whole rows") != NULL, !broken);
            float *data = random_floats(30), *upd = random_floats(20);
            float out[30], want[30];
            seq_scatter_elements(data, ds, 2, idx, is, 0, upd, reds[ri], want);
            CHECK_OK(sgk_execute(plan, data, upd, out));
            CHECK_FLOATS("scatter_elements, whole rows", out, want, 30);
            CHECK_OK(sgk_execute(plan, data, upd, data)); /* in place */
            CHECK_FLOATS("scatter_elements, whole rows in place", data, want, 30);
            free(data);
            free(upd);
            sgk_plan_destroy(plan);
        }

    /* GatherElements: data [4, 3, 2], indices [3, 5, 2] on axis 1 (int32),
       constant along the last dimension: rows of 2 from the first 3 of 4
       outer positions. */
    static const int64_t gds[] = {4, 3, 2}, gis[] = {3, 5, 2};
    int32_t gidx32[30];
    int64_t gidx[30];
    for (int i = 0; i < 30; i++)
        gidx[i] = gidx32[i] = (int32_t)((i / 2 * 7) % 6) - 3;
    sgk_tensor d = f32(3, gds, NULL), ix = i32(3, gis, gidx32);
    sgk_plan *plan = NULL;
    CHECK_OK(sgk_plan_gather_elements(&plan, &d, &ix, 1, 0));
    assert_non_null(strstr(sgk_plan_describe(plan), "whole rows"));
    float *data = random_floats(24);
    float out[30], want[30];
    seq_gather_elements(data, gds, 3, gidx, gis, 1, want);
    CHECK_OK(sgk_execute(plan, data, NULL, out));
    CHECK_FLOATS("gather_elements, whole rows", out, want, 30);
    free(data);
    sgk_plan_destroy(plan);

    /* Rows of 40, compared a vector at a time: one element off anywhere
       in the last row (vector lanes or scalar tail) means elements, with
       either index type. */
    static const int64_t lds[] = {4, 40}, lis[] = {3, 40};
    int64_t lidx[120];
    int32_t lidx32[120];
    float *ldata = random_floats(160);
    float lout[120], lwant[120];
    for (int is64 = 0; is64 < 2; is64++)
        for (int off = -1; off < 40; off++) {
            for (int i = 0; i < 120; i++)
                lidx[i] = lidx32[i] = (int32_t)(i / 40) - 1;
            if (off >= 0)
                lidx[80 + off] = lidx32[80 + off] = 3;
            sgk_tensor ld = f32(2, lds, NULL);
            sgk_tensor lix = is64 ? i64(2, lis, lidx) : i32(2, lis, lidx32);
            plan = NULL;
            CHECK_OK(sgk_plan_gather_elements(&plan, &ld, &lix, 0, 0));
            assert_int_equal(strstr(sgk_plan_describe(plan), "whole rows") != NULL, off < 0);
            seq_gather_elements(ldata, lds, 2, lidx, lis, 0, lwant);
            CHECK_OK(sgk_execute(plan, ldata, NULL, lout));
            CHECK_FLOATS("gather_elements, rows of 40", lout, lwant, 120);
            sgk_plan_destroy(plan);
        }
    free(ldata);
}

/* GatherND with long rows of whole cache lines from a source beyond the
   cache reads the rows in source order (sorted at plan time) and writes each
   to its place when the output is line-aligned, in output order when it is
   not: both against the sequential definition, at 1, 2 and 4 threads, with
   duplicate and negative indices, batch_dims 0 and 1. */
static void test_rows_in_source_order(void **state)
{
    (void)state;
    enum { ROW = 128, ROWS = 16384, PICKS = 12004 }; /* uneven quarters at 2 and 4 threads */
    const int64_t ds0[] = {ROWS, ROW}, is0[] = {PICKS, 1};
    /* two batches, each reading a 4 MiB stretch: past L2, so still sorted */
    const int64_t ds1[] = {2, ROWS / 2, ROW}, is1[] = {2, PICKS / 2, 1};
    int64_t *idx = xmalloc(PICKS * sizeof *idx);
    float *data = random_floats((size_t)ROWS * ROW);
    float *want = xmalloc((size_t)PICKS * ROW * sizeof *want);
    /* room for an output one line in, and one 16 bytes off a line */
    float *buffer = aligned_alloc(64, (size_t)PICKS * ROW * sizeof *buffer + 64);
    assert_non_null(buffer);
    for (int b = 0; b <= 1; b++) {
        const int64_t *ds = b ? ds1 : ds0, *is = b ? is1 : is0;
        const int64_t rows = ds[b];
        for (int64_t n = 0; n < PICKS; n++) {
            int64_t v = tc_rng_below(&plans_rng, rows);
            idx[n] = tc_rng_next(&plans_rng) & 1 ? v - rows : v;
        }
        seq_gather_nd(data, ds, 2 + b, idx, is, 2 + b, b, want);
        sgk_tensor d = f32(2 + b, ds, NULL), ix = i64(2 + b, is, idx);
        for (int threads = 1; threads <= 4; threads *= 2) {
            CHECK_OK(sgk_set_num_threads(threads));
            sgk_plan *plan = NULL;
            CHECK_OK(sgk_plan_gather_nd(&plan, &d, &ix, b, 0));
            if (strstr(sgk_plan_describe(plan), "read in source order") == NULL) {
                print_error("expected rows read in source order: %s\n",
                            sgk_plan_describe(plan));
                fail();
            }
            for (int offset = 0; offset <= 4; offset += 4) {
                float *out = buffer + offset;
                memset(out, 0, (size_t)PICKS * ROW * sizeof *out);
                CHECK_OK(sgk_execute(plan, data, NULL, out));
                CHECK_FLOATS("gather_nd rows in source order", out, want,
                             (size_t)PICKS * ROW);
            }
            sgk_plan_destroy(plan);
        }
    }
    CHECK_OK(sgk_set_num_threads(0));
    free(idx);
    free(data);
    free(want);
    free(buffer);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_whole_rows),
        cmocka_unit_test(test_rows_in_source_order),
    };
    return cmocka_run_group_tests_name("sgk plans: rows", tests, NULL, NULL);
}
