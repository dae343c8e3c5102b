/*
 * SGK_ERR_SHAPE: invalid ranks and negative dimensions in every tensor, and
 * each operator's own shape rules (docs/semantics.md, Shapes): ScatterND's k and updates shape, GatherND's batch_dims, k and
 * batch dimensions, the Elements operators' axis, ranks and extents; then
 * every error of sgk_gather_nd_shape, which applies GatherND's rules alone.
 * Harness and contract: tests/support/error_cases.h.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "support/common.h"
#include "support/error_cases.h"
#include "sgk.h"

/* ---- SGK_ERR_SHAPE ----------------------------------------------------- */

static void generic_shape_cases(int op)
{
    const sgk_status E = SGK_ERR_SHAPE;
    opcase c;
    static const int32_t bad_ranks[] = {-1, INT32_MIN, SGK_MAX_RANK + 1};
    for (size_t i = 0; i < 3; i++) {
        char lbl[96];
        c = base(op);
        c.data.rank = bad_ranks[i];
        c.data.shape = ONES;
        snprintf(lbl, sizeof lbl, "data rank %d", (int)bad_ranks[i]);
        RUN(lbl, &c, E);
        c = base(op);
        c.indices.rank = bad_ranks[i];
        c.indices.shape = ONES;
        c.indices.data = IDX_ZERO;
        snprintf(lbl, sizeof lbl, "indices rank %d", (int)bad_ranks[i]);
        RUN(lbl, &c, E);
        if (is_scatter(op)) {
            c = base(op);
            c.updates.rank = bad_ranks[i];
            c.updates.shape = ONES;
            snprintf(lbl, sizeof lbl, "updates rank %d", (int)bad_ranks[i]);
            RUN(lbl, &c, E);
        }
    }
    /* Negative dimensions, in each tensor. */
    c = base(op);
    c.data.shape = (const int64_t[]){c.data.shape[0], -c.data.shape[1], 4};
    RUN("negative data dimension", &c, E);
    c = base(op);
    c.data.shape = (const int64_t[]){INT64_MIN, c.data.shape[1], 4};
    RUN("data dimension INT64_MIN", &c, E);
    c = base(op);
    c.indices.shape = (const int64_t[]){-c.indices.shape[0], c.indices.shape[1]};
    RUN("negative indices dimension", &c, E);
    if (is_scatter(op)) {
        c = base(op);
        static const int64_t neg1[] = {-4}, neg2[] = {3, -2};
        c.updates.shape = op == OP_SND ? neg1 : neg2;
        RUN("negative updates dimension", &c, E);
    }
}

static void test_shape(void **state)
{
    const int op = *(const int *)*state;
    const sgk_status E = SGK_ERR_SHAPE;
    opcase c;
    generic_shape_cases(op);

    switch (op) {
    case OP_SND:
        c = base(op); c.data.rank = 0; c.data.shape = NULL; c.data_elems = c.out_elems = 1;
        RUN("data rank 0 (r >= 1)", &c, E);
        c = base(op); c.indices.rank = 0; c.indices.shape = NULL;
        RUN("indices rank 0 (q >= 1)", &c, E);
        c = base(op); c.indices.shape = (const int64_t[]){4, 0};
        c.updates.rank = 3; c.updates.shape = (const int64_t[]){4, 4, 8};
        RUN("k = 0", &c, E);
        c = base(op); c.indices.shape = (const int64_t[]){4, 3}; c.indices.data = IDX_ZERO;
        RUN("k = 3 > r = 2", &c, E);
        c = base(op); c.updates.shape = (const int64_t[]){3};
        RUN("updates [3] for [4]", &c, E);
        c = base(op); c.updates.shape = (const int64_t[]){5};
        RUN("updates [5] for [4]", &c, E);
        c = base(op); c.updates.rank = 2; c.updates.shape = (const int64_t[]){4, 1};
        RUN("updates [4, 1] for [4]", &c, E);
        c = base(op); c.updates.rank = 2; c.updates.shape = (const int64_t[]){4, 8};
        RUN("updates [4, 8] for [4]", &c, E);
        c = base(op); c.updates.rank = 0; c.updates.shape = NULL;
        RUN("updates [] for [4]", &c, E);
        c = base(op); c.indices.rank = 1; c.indices.shape = (const int64_t[]){2};
        c.updates.shape = (const int64_t[]){2};
        RUN("updates [2] where [] (or [1]) is expected", &c, E);
        {
            static const int64_t bad[][2] = {{3, 7}, {3, 9}, {8, 3}, {1, 8}};
            for (size_t i = 0; i < 4; i++) {
                char lbl[96];
                c = base(op);
                c.indices.shape = (const int64_t[]){3, 1};
                c.updates.rank = 2;
                c.updates.shape = bad[i];
                snprintf(lbl, sizeof lbl, "updates [%d, %d] for [3, 8]", (int)bad[i][0],
                         (int)bad[i][1]);
                RUN(lbl, &c, E);
            }
        }
        break;
    case OP_GND: {
        static const int64_t bad_b[] = {-1, 2, 3, INT64_MAX, INT64_MIN};
        for (size_t i = 0; i < sizeof bad_b / sizeof bad_b[0]; i++) {
            char lbl[96];
            c = base(op);
            c.attr = bad_b[i];
            snprintf(lbl, sizeof lbl, "batch_dims %lld with q = 2, r = 3", (long long)bad_b[i]);
            RUN(lbl, &c, E);
        }
        c = base(op); c.indices.shape = (const int64_t[]){2, 0}; c.out_elems = 48;
        RUN("k = 0", &c, E);
        c = base(op); c.indices.shape = (const int64_t[]){2, 4}; c.indices.data = IDX_ZERO;
        RUN("k = 4 > r - b = 3", &c, E);
        c = base(op); c.attr = 1; c.indices.shape = (const int64_t[]){2, 3};
        c.indices.data = IDX_ZERO;
        RUN("k = 3 > r - b = 2", &c, E);
        c = base(op); c.attr = 1; c.indices.shape = (const int64_t[]){3, 1};
        c.indices.data = IDX_ZERO;
        RUN("batch dims [3] vs data [2]", &c, E);
        c = base(op); c.attr = 2; c.indices.rank = 3;
        c.indices.shape = (const int64_t[]){2, 4, 1}; c.indices.data = IDX_ZERO;
        RUN("batch dims [2, 4] vs data [2, 3]", &c, E);
        c = base(op); c.data.rank = 0; c.data.shape = NULL; c.data_elems = 1;
        RUN("data rank 0", &c, E);
        c = base(op); c.indices.rank = 0; c.indices.shape = NULL;
        RUN("indices rank 0", &c, E);
        break;
    }
    case OP_SEL:
    case OP_GEL: {
        const int sc = op == OP_SEL;
        static const int64_t bad_axis[] = {2, -3, 100, INT64_MAX, INT64_MIN};
        for (size_t i = 0; i < sizeof bad_axis / sizeof bad_axis[0]; i++) {
            char lbl[96];
            c = base(op);
            c.attr = bad_axis[i];
            snprintf(lbl, sizeof lbl, "axis %lld with r = 2", (long long)bad_axis[i]);
            RUN(lbl, &c, E);
        }
        static const int64_t s6[] = {6}, s321[] = {3, 2, 1}, s42[] = {4, 2}, s35[] = {3, 5};
        c = base(op); c.indices.rank = 1; c.indices.shape = s6;
        c.attr = 0; c.indices.data = IDX_ZERO;
        if (sc) { c.updates.rank = 1; c.updates.shape = s6; }
        RUN("indices rank 1, data rank 2", &c, E);
        c = base(op); c.indices.rank = 3; c.indices.shape = s321;
        if (sc) { c.updates.rank = 3; c.updates.shape = s321; }
        RUN("indices rank 3, data rank 2", &c, E);
        c = base(op); c.indices.shape = s42; c.indices.data = IDX_ZERO;
        if (sc) c.updates.shape = s42;
        RUN("indices.shape[0] = 4 > data.shape[0] = 3 (axis 1)", &c, E);
        c = base(op); c.attr = 0; c.indices.shape = s35;
        c.indices.data = IDX_ZERO;
        if (sc) c.updates.shape = s35;
        RUN("indices.shape[1] = 5 > data.shape[1] = 4 (axis 0)", &c, E);
        c = base(op); c.data.rank = 0; c.data.shape = NULL; c.indices.rank = 0;
        c.indices.shape = NULL; c.attr = 0; c.data_elems = 1;
        if (sc) { c.updates.rank = 0; c.updates.shape = NULL; }
        RUN("rank 0 (no valid axis)", &c, E);
        if (sc) {
            static const int64_t bad_u[][2] = {{3, 3}, {2, 2}, {2, 3}, {3, 1}};
            for (size_t i = 0; i < 4; i++) {
                char lbl[96];
                c = base(op);
                c.updates.shape = bad_u[i];
                snprintf(lbl, sizeof lbl, "updates [%d, %d] for indices [3, 2]",
                         (int)bad_u[i][0], (int)bad_u[i][1]);
                RUN(lbl, &c, E);
            }
            c = base(op); c.updates.rank = 1; c.updates.shape = (const int64_t[]){6};
            RUN("updates [6] for indices [3, 2]", &c, E);
            c = base(op); c.updates.rank = 3; c.updates.shape = (const int64_t[]){3, 2, 1};
            RUN("updates [3, 2, 1] for indices [3, 2]", &c, E);
        }
        break;
    }
    }
}

/* ---- sgk_gather_nd_shape ----------------------------------------------- */

static void shape_expect_at(const char *file, int line, const char *label, const sgk_tensor *data,
                            const sgk_tensor *indices, int64_t b, int64_t *shape, int32_t *rank,
                            sgk_status want)
{
    char lbl[160];
    snprintf(lbl, sizeof lbl, "gather_nd_shape: %s", label);
    prime_last_error("gather_nd");
    sgk_status st = sgk_gather_nd_shape(data, indices, b, shape, rank);
    check_error_at(file, line, lbl, st, want, "gather_nd", NULL, 0);
}
#define SHAPE_BAD(label, d, i, b, want) \
    shape_expect_at(__FILE__, __LINE__, label, d, i, b, shape, &rank, want)

static void test_gather_nd_shape(void **state)
{
    (void)state;
    int64_t shape[2 * SGK_MAX_RANK + 4];
    int32_t rank = -7;
    opcase c = base(OP_GND);

    /* valid */
    assert_int_equal(sgk_gather_nd_shape(&c.data, &c.indices, 0, shape, &rank), SGK_OK);
    assert_int_equal(rank, 2);
    assert_int_equal(shape[0], 2);
    assert_int_equal(shape[1], 4);
    rank = -7;
    assert_int_equal(sgk_gather_nd_shape(&c.data, &c.indices, 0, NULL, &rank), SGK_OK);
    assert_int_equal(rank, 2);
    {
        sgk_tensor i = c.indices;
        i.shape = (const int64_t[]){2, 1};
        assert_int_equal(sgk_gather_nd_shape(&c.data, &i, 1, shape, &rank), SGK_OK);
        assert_int_equal(rank, 2);
        assert_int_equal(shape[0], 2);
        assert_int_equal(shape[1], 4);
        i.rank = 3;
        i.shape = (const int64_t[]){5, 6, 3};
        assert_int_equal(sgk_gather_nd_shape(&c.data, &i, 0, shape, &rank), SGK_OK);
        assert_int_equal(rank, 2);
        assert_int_equal(shape[0], 5);
        assert_int_equal(shape[1], 6);
    }

    const sgk_status INV = SGK_ERR_INVALID_ARGUMENT, SH = SGK_ERR_SHAPE;
    SHAPE_BAD("NULL data tensor", NULL, &c.indices, 0, INV);
    SHAPE_BAD("NULL indices tensor", &c.data, NULL, 0, INV);
    prime_last_error("gather_nd");
    check_error_at(__FILE__, __LINE__, "gather_nd_shape: NULL rank",
                   sgk_gather_nd_shape(&c.data, &c.indices, 0, shape, NULL), INV, "gather_nd",
                   NULL, 0);
    {
        sgk_tensor d = c.data, i = c.indices;
        d.shape = NULL;
        SHAPE_BAD("NULL data shape", &d, &c.indices, 0, INV);
        i.shape = NULL;
        SHAPE_BAD("NULL indices shape", &c.data, &i, 0, INV);
        d = c.data;
        d.dtype = (sgk_dtype)99;
        SHAPE_BAD("data dtype 99", &d, &c.indices, 0, INV);
        i = c.indices;
        i.dtype = SGK_FLOAT32;
        SHAPE_BAD("float32 indices", &c.data, &i, 0, SGK_ERR_UNSUPPORTED);
        i.dtype = SGK_UINT64;
        SHAPE_BAD("uint64 indices", &c.data, &i, 0, SGK_ERR_UNSUPPORTED);
    }
    SHAPE_BAD("batch_dims -1", &c.data, &c.indices, -1, SH);
    SHAPE_BAD("batch_dims 2 = min(q, r)", &c.data, &c.indices, 2, SH);
    SHAPE_BAD("batch_dims INT64_MAX", &c.data, &c.indices, INT64_MAX, SH);
    {
        sgk_tensor d = c.data, i = c.indices;
        i.shape = (const int64_t[]){2, 0};
        SHAPE_BAD("k = 0", &c.data, &i, 0, SH);
        i.shape = (const int64_t[]){2, 4};
        SHAPE_BAD("k = 4 > r", &c.data, &i, 0, SH);
        i.shape = (const int64_t[]){2, 3};
        SHAPE_BAD("k = 3 > r - b = 2", &c.data, &i, 1, SH);
        i.shape = (const int64_t[]){3, 1};
        SHAPE_BAD("batch [3] vs [2]", &c.data, &i, 1, SH);
        i = c.indices;
        i.rank = SGK_MAX_RANK + 1;
        i.shape = ONES;
        SHAPE_BAD("indices rank 65", &c.data, &i, 0, SH);
        i.rank = -1;
        SHAPE_BAD("indices rank -1", &c.data, &i, 0, SH);
        d.rank = SGK_MAX_RANK + 1;
        d.shape = ONES;
        SHAPE_BAD("data rank 65", &d, &c.indices, 0, SH);
        d.rank = -1;
        SHAPE_BAD("data rank -1", &d, &c.indices, 0, SH);
        d = c.data;
        d.shape = (const int64_t[]){2, -3, 4};
        SHAPE_BAD("negative data dimension", &d, &c.indices, 0, SH);
        i = c.indices;
        i.shape = (const int64_t[]){-2, 2};
        SHAPE_BAD("negative indices dimension", &c.data, &i, 0, SH);
        d = c.data;
        d.rank = 2;
        d.data = DUMMY_D;
        d.shape = (const int64_t[]){P(40), P(40)};
        SHAPE_BAD("data [2^40, 2^40]", &d, &c.indices, 0, SGK_ERR_OVERFLOW);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_base_cases_valid),
        PER_OP("shape", test_shape),
        cmocka_unit_test(test_gather_nd_shape),
    };
    return cmocka_run_group_tests_name("sgk errors: shapes", tests, group_setup, NULL);
}
