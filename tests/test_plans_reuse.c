/*
 * Plan once, execute many (docs/integration.md, "The C API"): a plan
 * executed again on new buffers gives the sequential definition's result
 * each time, and keeps no pointer to the caller's indices or shapes.
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

/* ---- plan once, execute many --------------------------------------------- */

static void test_reuse_scatter_nd(void **state)
{
    (void)state;
    /* data [6, 4], indices [5, 1] with duplicates, updates [5, 4] */
    static const int64_t ds[] = {6, 4}, is[] = {5, 1}, us[] = {5, 4};
    static const int64_t idx[] = {1, 3, 1, -1, -5};
    static const int32_t idx32[] = {1, 3, 1, -1, -5};
    static const sgk_reduction reds[] = {SGK_REDUCE_NONE, SGK_REDUCE_ADD, SGK_REDUCE_SUB,
                                         SGK_REDUCE_MUL, SGK_REDUCE_MAX, SGK_REDUCE_MIN};
    for (int use32 = 0; use32 < 2; use32++)
        for (size_t ri = 0; ri < sizeof reds / sizeof reds[0]; ri++) {
            sgk_tensor d = f32(2, ds, NULL), u = f32(2, us, NULL);
            sgk_tensor ix = use32 ? i32(2, is, idx32) : i64(2, is, idx);
            sgk_plan *plan = NULL;
            CHECK_OK(sgk_plan_scatter_nd(&plan, &d, &ix, &u, reds[ri], 0));
            assert_non_null(plan);
            check_describe(plan);
            for (int round = 0; round < 4; round++) {
                float *data = random_floats(24), *upd = random_floats(20);
                float out[24], want[24];
                seq_scatter_nd(data, ds, 2, idx, 5, 1, upd, reds[ri], want);
                CHECK_OK(sgk_execute(plan, data, upd, out));
                CHECK_FLOATS("scatter_nd plan reuse", out, want, 24);
                free(data);
                free(upd);
            }
            sgk_plan_destroy(plan);
        }

    /* k = r (element updates), last-wins duplicates, data pointer given at plan
       time but other buffers at execute */
    {
        static const int64_t is2[] = {7, 2}, us2[] = {7};
        static const int64_t idx2[] = {0, 0, 5, 3, -1, -1, 0, 0, 2, 1, 5, -1, 0, -4};
        float *plan_data = random_floats(24), *plan_upd = random_floats(7);
        sgk_tensor d = f32(2, ds, plan_data), u = f32(1, us2, plan_upd), ix = i64(2, is2, idx2);
        for (size_t ri = 0; ri < 3; ri++) {
            sgk_plan *plan = NULL;
            CHECK_OK(sgk_plan_scatter_nd(&plan, &d, &ix, &u, reds[ri], SGK_PLAN_DETERMINISTIC));
            for (int round = 0; round < 3; round++) {
                float *data = random_floats(24), *upd = random_floats(7);
                float out[24], want[24];
                seq_scatter_nd(data, ds, 2, idx2, 7, 2, upd, reds[ri], want);
                CHECK_OK(sgk_execute(plan, data, upd, out));
                CHECK_FLOATS("scatter_nd (k = r) plan reuse", out, want, 24);
                free(data);
                free(upd);
            }
            sgk_plan_destroy(plan);
        }
        free(plan_data);
        free(plan_upd);
    }
}

static void test_reuse_gather_nd(void **state)
{
    (void)state;
    /* batch_dims 0: data [5, 3, 4], indices [3, 2, 2]  -> output [3, 2, 4]
       batch_dims 1: data [2, 6, 3], indices [2, 4, 1]  -> output [2, 4, 3] */
    static const int64_t ds0[] = {5, 3, 4}, is0[] = {3, 2, 2};
    static const int64_t idx0[] = {0, 0, 4, 2, -1, -3, 2, 1, 1, -1, -5, 0};
    static const int64_t ds1[] = {2, 6, 3}, is1[] = {2, 4, 1};
    static const int64_t idx1[] = {5, 0, -6, 2, 3, 3, -1, 1};
    static const int32_t idx1_32[] = {5, 0, -6, 2, 3, 3, -1, 1};
    struct {
        const int64_t *ds, *is, *idx;
        const void *idx_data;
        sgk_dtype idx_type;
        int b;
        int64_t n_data, n_out;
    } cases[] = {
        {ds0, is0, idx0, idx0, SGK_INT64, 0, 60, 24},
        {ds1, is1, idx1, idx1, SGK_INT64, 1, 36, 24},
        {ds1, is1, idx1, idx1_32, SGK_INT32, 1, 36, 24},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        sgk_tensor d = f32(3, cases[c].ds, NULL);
        sgk_tensor ix = {cases[c].idx_type, 3, cases[c].is, cases[c].idx_data};
        sgk_plan *plan = NULL;
        CHECK_OK(sgk_plan_gather_nd(&plan, &d, &ix, cases[c].b, 0));
        check_describe(plan);
        for (int round = 0; round < 4; round++) {
            float *data = random_floats((size_t)cases[c].n_data);
            float out[64], want[64];
            seq_gather_nd(data, cases[c].ds, 3, cases[c].idx, cases[c].is, 3, cases[c].b, want);
            CHECK_OK(sgk_execute(plan, data, NULL, out));
            CHECK_FLOATS("gather_nd plan reuse", out, want, (size_t)cases[c].n_out);
            free(data);
        }
        sgk_plan_destroy(plan);
    }
}

static void test_reuse_elements(void **state)
{
    (void)state;
    /* ScatterElements: data [4, 5], indices/updates [3, 5] on axis 0 (duplicates),
       and [4, 3] on axis 1. GatherElements: data [3, 5], indices [3, 7] on axis 1. */
    static const int64_t ds[] = {4, 5}, is0[] = {3, 5}, is1[] = {4, 3};
    static const int64_t idx0[] = {0, 3, 1, -1, 2, 0, 3, 1, 3, -4, 0, -1, 1, 3, 2};
    static const int64_t idx1[] = {0, 4, 0, -1, 2, 4, 3, 3, -5, 1, 1, 1};
    static const sgk_reduction reds[] = {SGK_REDUCE_NONE, SGK_REDUCE_ADD, SGK_REDUCE_MUL,
                                         SGK_REDUCE_MAX, SGK_REDUCE_MIN, SGK_REDUCE_SUB};
    for (int ax = 0; ax < 2; ax++)
        for (size_t ri = 0; ri < sizeof reds / sizeof reds[0]; ri++) {
            const int64_t *is = ax ? is1 : is0, *idx = ax ? idx1 : idx0;
            sgk_tensor d = f32(2, ds, NULL), u = f32(2, is, NULL), ix = i64(2, is, idx);
            sgk_plan *plan = NULL;
            int64_t axis = (ax == 1 && (ri & 1)) ? -1 : ax; /* axis 1 also as -1 */
            CHECK_OK(sgk_plan_scatter_elements(&plan, &d, &ix, &u, axis, reds[ri], 0));
            check_describe(plan);
            for (int round = 0; round < 3; round++) {
                float *data = random_floats(20), *upd = random_floats(15);
                float out[20], want[20];
                seq_scatter_elements(data, ds, 2, idx, is, ax, upd, reds[ri], want);
                CHECK_OK(sgk_execute(plan, data, upd, out));
                CHECK_FLOATS("scatter_elements plan reuse", out, want, 20);
                free(data);
                free(upd);
            }
            sgk_plan_destroy(plan);
        }

    static const int64_t gds[] = {3, 5}, gis[] = {3, 7};
    static const int32_t gidx32[] = {0, 4, -1, -5, 2, 2, 3, 1, 1, 1, 0, -2, 4, 3, 4, 3, 2, 1, 0, -1, -3};
    int64_t gidx[21];
    for (int i = 0; i < 21; i++) gidx[i] = gidx32[i];
    sgk_tensor d = f32(2, gds, NULL), ix = i32(2, gis, gidx32);
    sgk_plan *plan = NULL;
    CHECK_OK(sgk_plan_gather_elements(&plan, &d, &ix, -1, 0));
    check_describe(plan);
    for (int round = 0; round < 3; round++) {
        float *data = random_floats(15);
        float out[21], want[21];
        seq_gather_elements(data, gds, 2, gidx, gis, 1, want);
        CHECK_OK(sgk_execute(plan, data, NULL, out));
        CHECK_FLOATS("gather_elements plan reuse", out, want, 21);
        free(data);
    }
    sgk_plan_destroy(plan);
    sgk_plan_destroy(NULL); /* like free(NULL) */
}

/* ---- the plan keeps no pointer to the caller's indices or shapes ---------- */

static void test_indices_freed_after_planning(void **state)
{
    (void)state;
    static const int64_t ds[] = {8, 3}, is[] = {6, 1}, us[] = {6, 3};
    static const int64_t orig[] = {7, 0, 7, -8, 3, 0};
    int64_t *idx = xmalloc(sizeof orig);
    memcpy(idx, orig, sizeof orig);
    sgk_tensor d = f32(2, ds, NULL), u = f32(2, us, NULL), ix = i64(2, is, idx);
    sgk_plan *sp = NULL, *gp = NULL, *ep = NULL;
    CHECK_OK(sgk_plan_scatter_nd(&sp, &d, &ix, &u, SGK_REDUCE_ADD, 0));
    CHECK_OK(sgk_plan_gather_nd(&gp, &d, &ix, 0, 0));
    static const int64_t eis[] = {2, 3};
    sgk_tensor eix = i64(2, eis, idx), eu = f32(2, eis, NULL);
    CHECK_OK(sgk_plan_scatter_elements(&ep, &d, &eix, &eu, 0, SGK_REDUCE_MUL, 0));

    /* overwrite with values that would be out of range, then free */
    memset(idx, 0x7f, sizeof orig);
    float *data = random_floats(24), *upd = random_floats(18);
    float out[24], want[24];
    seq_scatter_nd(data, ds, 2, orig, 6, 1, upd, SGK_REDUCE_ADD, want);
    CHECK_OK(sgk_execute(sp, data, upd, out));
    CHECK_FLOATS("scatter_nd after indices overwritten", out, want, 24);
    free(idx);
    idx = xmalloc(sizeof orig); /* likely reuses the block */
    memset(idx, 0x80, sizeof orig);

    CHECK_OK(sgk_execute(sp, data, upd, out));
    CHECK_FLOATS("scatter_nd after indices freed", out, want, 24);
    seq_gather_nd(data, ds, 2, orig, is, 2, 0, want);
    CHECK_OK(sgk_execute(gp, data, NULL, out));
    CHECK_FLOATS("gather_nd after indices freed", out, want, 18);
    seq_scatter_elements(data, ds, 2, orig, eis, 0, upd, SGK_REDUCE_MUL, want);
    CHECK_OK(sgk_execute(ep, data, upd, out));
    CHECK_FLOATS("scatter_elements after indices freed", out, want, 24);

    free(idx);
    free(data);
    free(upd);
    sgk_plan_destroy(sp);
    sgk_plan_destroy(gp);
    sgk_plan_destroy(ep);
}

static void test_shapes_freed_after_planning(void **state)
{
    (void)state;
    static const int64_t ds_c[] = {5, 4}, is_c[] = {3, 1}, us_c[] = {3, 4};
    static const int64_t idx[] = {4, -5, 2};
    int64_t *ds = xmalloc(sizeof ds_c), *is = xmalloc(sizeof is_c), *us = xmalloc(sizeof us_c);
    memcpy(ds, ds_c, sizeof ds_c);
    memcpy(is, is_c, sizeof is_c);
    memcpy(us, us_c, sizeof us_c);
    sgk_tensor d = f32(2, ds, NULL), u = f32(2, us, NULL), ix = i64(2, is, idx);
    sgk_plan *sp = NULL, *gp = NULL;
    CHECK_OK(sgk_plan_scatter_nd(&sp, &d, &ix, &u, SGK_REDUCE_NONE, 0));
    CHECK_OK(sgk_plan_gather_nd(&gp, &d, &ix, 0, 0));
    memset(ds, 0xff, sizeof ds_c);
    memset(is, 0xff, sizeof is_c);
    memset(us, 0xff, sizeof us_c);
    free(ds);
    free(is);
    free(us);

    float *data = random_floats(20), *upd = random_floats(12);
    float out[20], want[20];
    seq_scatter_nd(data, ds_c, 2, idx, 3, 1, upd, SGK_REDUCE_NONE, want);
    CHECK_OK(sgk_execute(sp, data, upd, out));
    CHECK_FLOATS("scatter_nd after shapes freed", out, want, 20);
    seq_gather_nd(data, ds_c, 2, idx, is_c, 2, 0, want);
    CHECK_OK(sgk_execute(gp, data, NULL, out));
    CHECK_FLOATS("gather_nd after shapes freed", out, want, 12);
    free(data);
    free(upd);
    sgk_plan_destroy(sp);
    sgk_plan_destroy(gp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reuse_scatter_nd),
        cmocka_unit_test(test_reuse_gather_nd),
        cmocka_unit_test(test_reuse_elements),
        cmocka_unit_test(test_indices_freed_after_planning),
        cmocka_unit_test(test_shapes_freed_after_planning),
    };
    return cmocka_run_group_tests_name("sgk plans: reuse", tests, NULL, NULL);
}
