/*
 * Plans at the edges of their buffers: executed in place (output == data)
 * and on zero-sized problems.
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

/* ---- in place ------------------------------------------------------------- */

static void test_in_place(void **state)
{
    (void)state;
    static const int64_t ds[] = {16, 8}, is[] = {40, 1}, us[] = {40, 8};
    int64_t idx[40];
    for (int i = 0; i < 40; i++) idx[i] = (i * 7) % 16 - (i % 3 == 0 ? 16 : 0);
    static const sgk_reduction reds[] = {SGK_REDUCE_NONE, SGK_REDUCE_ADD, SGK_REDUCE_MAX};
    for (size_t ri = 0; ri < 3; ri++) {
        float *data = random_floats(128), *upd = random_floats(320);
        float want[128], work[128];
        seq_scatter_nd(data, ds, 2, idx, 40, 1, upd, reds[ri], want);
        sgk_tensor d = f32(2, ds, NULL), u = f32(2, us, NULL), ix = i64(2, is, idx);
        sgk_plan *plan = NULL;
        CHECK_OK(sgk_plan_scatter_nd(&plan, &d, &ix, &u, reds[ri], 0));
        memcpy(work, data, sizeof work);
        CHECK_OK(sgk_execute(plan, work, upd, work));
        CHECK_FLOATS("scatter_nd execute in place", work, want, 128);
        sgk_plan_destroy(plan);

        memcpy(work, data, sizeof work);
        d.data = work;
        u.data = upd;
        CHECK_OK(sgk_scatter_nd(&d, &ix, &u, reds[ri], work));
        CHECK_FLOATS("scatter_nd one-shot in place", work, want, 128);

        /* ScatterElements on axis 0 with indices [16, 8] */
        static const int64_t eis[] = {16, 8};
        int64_t eidx[128];
        for (int i = 0; i < 128; i++) eidx[i] = tc_rng_below(&plans_rng, 32) - 16;
        seq_scatter_elements(data, ds, 2, eidx, eis, 0, upd, reds[ri], want);
        sgk_tensor eix = i64(2, eis, eidx), eu = f32(2, eis, upd);
        memcpy(work, data, sizeof work);
        d.data = work;
        CHECK_OK(sgk_scatter_elements(&d, &eix, &eu, 0, reds[ri], work));
        CHECK_FLOATS("scatter_elements one-shot in place", work, want, 128);
        memcpy(work, data, sizeof work);
        plan = NULL;
        CHECK_OK(sgk_plan_scatter_elements(&plan, &d, &eix, &eu, 0, reds[ri], 0));
        CHECK_OK(sgk_execute(plan, work, upd, work));
        CHECK_FLOATS("scatter_elements execute in place", work, want, 128);
        sgk_plan_destroy(plan);
        free(data);
        free(upd);
    }
}

/* ---- zero-sized problems --------------------------------------------------- */

static void test_zero_sized(void **state)
{
    (void)state;
    float data[32], out[40];
    for (int i = 0; i < 32; i++) data[i] = (float)i * 1.5f - 7.0f;
    static const int64_t ds[] = {4, 8};
    sgk_plan *plan;

    /* ScatterND, zero updates: output == data. NULL indices/updates pointers
       are fine for tensors without elements. */
    {
        static const int64_t is[] = {0, 2}, us[] = {0}, is1[] = {0, 1}, us1[] = {0, 8};
        static const sgk_reduction reds[] = {SGK_REDUCE_NONE, SGK_REDUCE_ADD, SGK_REDUCE_MUL};
        for (size_t ri = 0; ri < 3; ri++) {
            sgk_tensor d = f32(2, ds, data), ix = i64(2, is, NULL), u = f32(1, us, NULL);
            tc_fill_pattern(out, sizeof out);
            CHECK_OK(sgk_scatter_nd(&d, &ix, &u, reds[ri], out));
            CHECK_FLOATS("scatter_nd with zero updates", out, data, 32);
            ix = i32(2, is1, NULL);
            u = f32(2, us1, NULL);
            tc_fill_pattern(out, sizeof out);
            CHECK_OK(sgk_scatter_nd(&d, &ix, &u, reds[ri], out));
            CHECK_FLOATS("scatter_nd with zero slice updates", out, data, 32);
            plan = NULL;
            CHECK_OK(sgk_plan_scatter_nd(&plan, &d, &ix, &u, reds[ri], 0));
            check_describe(plan);
            tc_fill_pattern(out, sizeof out);
            CHECK_OK(sgk_execute(plan, data, NULL, out));
            CHECK_FLOATS("scatter_nd plan with zero updates", out, data, 32);
            float work[32];
            memcpy(work, data, sizeof work);
            CHECK_OK(sgk_execute(plan, work, NULL, work));
            CHECK_FLOATS("scatter_nd plan with zero updates, in place", work, data, 32);
            sgk_plan_destroy(plan);
        }
    }
    /* ScatterND on data with a zero dimension: nothing to write, NULL output ok. */
    {
        static const int64_t zds[] = {0, 8}, is[] = {0, 1}, us[] = {0, 8};
        sgk_tensor d = f32(2, zds, NULL), ix = i64(2, is, NULL), u = f32(2, us, NULL);
        CHECK_OK(sgk_scatter_nd(&d, &ix, &u, SGK_REDUCE_ADD, NULL));
        tc_fill_pattern(out, sizeof out);
        uint8_t before[sizeof out];
        memcpy(before, out, sizeof out);
        CHECK_OK(sgk_scatter_nd(&d, &ix, &u, SGK_REDUCE_ADD, out));
        assert_memory_equal(out, before, sizeof out);

        static const int64_t zds2[] = {4, 0}, is2[] = {3, 1}, us2[] = {3, 0};
        static const int64_t idx2[] = {3, -4, 0};
        d = f32(2, zds2, NULL);
        ix = i64(2, is2, idx2);
        u = f32(2, us2, NULL);
        CHECK_OK(sgk_scatter_nd(&d, &ix, &u, SGK_REDUCE_NONE, NULL));
        plan = NULL;
        CHECK_OK(sgk_plan_scatter_nd(&plan, &d, &ix, &u, SGK_REDUCE_ADD, 0));
        CHECK_OK(sgk_execute(plan, NULL, NULL, NULL));
        CHECK_OK(sgk_execute(plan, NULL, NULL, out));
        assert_memory_equal(out, before, sizeof out);
        sgk_plan_destroy(plan);
    }
    /* GatherND: no index tuples, or empty slices. */
    {
        static const int64_t is[] = {0, 1}, zds[] = {4, 0}, is2[] = {2, 1};
        static const int64_t idx2[] = {-1, 2};
        int64_t shape[8];
        int32_t rank = -1;
        sgk_tensor d = f32(2, ds, data), ix = i64(2, is, NULL);
        CHECK_OK(sgk_gather_nd_shape(&d, &ix, 0, shape, &rank));
        assert_int_equal(rank, 2);
        assert_int_equal(shape[0], 0);
        assert_int_equal(shape[1], 8);
        CHECK_OK(sgk_gather_nd(&d, &ix, 0, NULL));
        tc_fill_pattern(out, sizeof out);
        uint8_t before[sizeof out];
        memcpy(before, out, sizeof out);
        CHECK_OK(sgk_gather_nd(&d, &ix, 0, out));
        assert_memory_equal(out, before, sizeof out);
        d = f32(2, zds, NULL);
        ix = i64(2, is2, idx2);
        CHECK_OK(sgk_gather_nd(&d, &ix, 0, NULL));
        plan = NULL;
        CHECK_OK(sgk_plan_gather_nd(&plan, &d, &ix, 0, 0));
        CHECK_OK(sgk_execute(plan, NULL, NULL, NULL));
        sgk_plan_destroy(plan);
        /* batch_dims 1 with an empty batch */
        static const int64_t bds[] = {0, 3}, bis[] = {0, 1};
        d = f32(2, bds, NULL);
        ix = i64(2, bis, NULL);
        CHECK_OK(sgk_gather_nd(&d, &ix, 1, NULL));
    }
    /* Elements. */
    {
        static const int64_t eds[] = {4, 8}, eis[] = {4, 0}, zds[] = {3, 0}, zis[] = {3, 0};
        sgk_tensor d = f32(2, eds, data), ix = i64(2, eis, NULL), u = f32(2, eis, NULL);
        tc_fill_pattern(out, sizeof out);
        CHECK_OK(sgk_scatter_elements(&d, &ix, &u, 1, SGK_REDUCE_ADD, out));
        CHECK_FLOATS("scatter_elements with zero updates", out, data, 32);
        plan = NULL;
        CHECK_OK(sgk_plan_scatter_elements(&plan, &d, &ix, &u, 0, SGK_REDUCE_MAX, 0));
        tc_fill_pattern(out, sizeof out);
        CHECK_OK(sgk_execute(plan, data, NULL, out));
        CHECK_FLOATS("scatter_elements plan with zero updates", out, data, 32);
        sgk_plan_destroy(plan);
        CHECK_OK(sgk_gather_elements(&d, &ix, 1, NULL));
        d = f32(2, zds, NULL);
        ix = i64(2, zis, NULL);
        u = f32(2, zis, NULL);
        CHECK_OK(sgk_scatter_elements(&d, &ix, &u, 1, SGK_REDUCE_NONE, NULL));
        CHECK_OK(sgk_gather_elements(&d, &ix, -1, NULL));
        plan = NULL;
        CHECK_OK(sgk_plan_gather_elements(&plan, &d, &ix, 0, 0));
        CHECK_OK(sgk_execute(plan, NULL, NULL, NULL));
        sgk_plan_destroy(plan);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_in_place),
        cmocka_unit_test(test_zero_sized),
    };
    return cmocka_run_group_tests_name("sgk plans: in place and empty", tests, NULL, NULL);
}
