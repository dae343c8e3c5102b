/*
 * SGK_ERR_INVALID_ARGUMENT from the argument checks of every operator, one
 * wrong argument at a time: NULL tensors, shapes and buffer pointers, a
 * NULL output, invalid dtype and reduction values, updates whose type is not
 * data's, invalid or contradictory plan flags, and a NULL plan out-pointer.
 * Overlapping buffers: tests/test_errors_buffers.c.
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

/* ---- SGK_ERR_INVALID_ARGUMENT ----------------------------------------- */

static void test_invalid_argument(void **state)
{
    const int op = *(const int *)*state;
    const int sc = is_scatter(op);
    const sgk_status E = SGK_ERR_INVALID_ARGUMENT;
    opcase c;

    c = base(op); c.null_tensor = 1; c.modes = M_ONESHOT | M_PLAN;
    RUN("NULL data tensor", &c, E);
    c = base(op); c.null_tensor = 2;
    RUN("NULL indices tensor", &c, E);
    if (sc) { c = base(op); c.null_tensor = 3; RUN("NULL updates tensor", &c, E); }

    c = base(op); c.data.shape = NULL;
    RUN("NULL data shape with rank > 0", &c, E);
    c = base(op); c.indices.shape = NULL;
    RUN("NULL indices shape with rank > 0", &c, E);
    if (sc) { c = base(op); c.updates.shape = NULL; RUN("NULL updates shape with rank > 0", &c, E); }

    /* data/updates pointers may be NULL at plan time, so only the one-shot form. */
    c = base(op); c.data.data = NULL; c.modes = M_ONESHOT;
    RUN("NULL data pointer", &c, E);
    c = base(op); c.indices.data = NULL;
    RUN("NULL indices pointer", &c, E);
    if (sc) {
        c = base(op); c.updates.data = NULL; c.modes = M_ONESHOT | M_INPLACE;
        RUN("NULL updates pointer", &c, E);
    }
    c = base(op); c.null_output = 1; c.modes = M_ONESHOT;
    RUN("NULL output", &c, E);

    static const int bad_dtypes[] = {16, -1, 1000, INT_MAX};
    for (size_t i = 0; i < sizeof bad_dtypes / sizeof bad_dtypes[0]; i++) {
        char lbl[96];
        c = base(op);
        c.data.dtype = (sgk_dtype)bad_dtypes[i];
        snprintf(lbl, sizeof lbl, "data dtype %d", bad_dtypes[i]);
        RUN(lbl, &c, E);
        if (sc) {
            c.updates.dtype = (sgk_dtype)bad_dtypes[i];
            snprintf(lbl, sizeof lbl, "data and updates dtype %d", bad_dtypes[i]);
            RUN(lbl, &c, E);
        }
    }

    if (sc) {
        /* INT32 has float32's size: the check must compare types, not sizes. */
        static const sgk_dtype other[] = {SGK_FLOAT64, SGK_INT32, SGK_UINT32, SGK_FLOAT16};
        for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
            char lbl[96];
            c = base(op);
            c.updates.dtype = other[i];
            snprintf(lbl, sizeof lbl, "updates dtype %d with float32 data", (int)other[i]);
            RUN(lbl, &c, E);
        }
        static const int bad_red[] = {6, -1, 100};
        for (size_t i = 0; i < sizeof bad_red / sizeof bad_red[0]; i++) {
            char lbl[96];
            c = base(op);
            c.red = (sgk_reduction)bad_red[i];
            snprintf(lbl, sizeof lbl, "reduction %d", bad_red[i]);
            RUN(lbl, &c, E);
        }
    }

    static const uint32_t bad_flags[] = {1u << 3, 1u << 31, 0xffffffffu,
                                         SGK_PLAN_DETERMINISTIC | SGK_PLAN_ALLOW_REORDER,
                                         SGK_PLAN_DETERMINISTIC | SGK_PLAN_ALLOW_REORDER |
                                             SGK_PLAN_WIDE_ACCUMULATE,
                                         SGK_PLAN_DETERMINISTIC | (1u << 4)};
    for (size_t i = 0; i < sizeof bad_flags / sizeof bad_flags[0]; i++) {
        char lbl[96];
        c = base(op);
        c.flags = bad_flags[i];
        c.modes = M_PLAN;
        snprintf(lbl, sizeof lbl, "plan flags 0x%x", (unsigned)bad_flags[i]);
        RUN(lbl, &c, E);
    }

    /* NULL plan out-pointer. */
    c = base(op);
    prime_last_error(op_prefix[op]);
    sgk_status st;
    switch (op) {
    case OP_SND: st = sgk_plan_scatter_nd(NULL, &c.data, &c.indices, &c.updates, c.red, 0); break;
    case OP_GND: st = sgk_plan_gather_nd(NULL, &c.data, &c.indices, c.attr, 0); break;
    case OP_SEL:
        st = sgk_plan_scatter_elements(NULL, &c.data, &c.indices, &c.updates, c.attr, c.red, 0);
        break;
    default: st = sgk_plan_gather_elements(NULL, &c.data, &c.indices, c.attr, 0); break;
    }
    check_error_at(__FILE__, __LINE__, "NULL plan out-pointer", st, E, op_prefix[op], NULL, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_base_cases_valid),
        PER_OP("invalid_argument", test_invalid_argument),
    };
    return cmocka_run_group_tests_name("sgk errors: invalid arguments", tests, group_setup, NULL);
}
