/*
 * SGK_ERR_UNSUPPORTED: index types other than int32 and int64, complex data
 * with max or min, strings with any reduction but none.  The reductions
 * these types do support are in the positive control.
 * Harness and contract: tests/support/error_cases.h.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>

#include "support/common.h"
#include "support/error_cases.h"
#include "sgk.h"

/* ---- SGK_ERR_UNSUPPORTED ---------------------------------------------- */

static void test_unsupported(void **state)
{
    const int op = *(const int *)*state;
    const sgk_status E = SGK_ERR_UNSUPPORTED;
    opcase c;

    static const sgk_dtype bad_index_types[] = {SGK_BOOL,    SGK_INT8,    SGK_UINT8,
                                                SGK_INT16,   SGK_UINT16,  SGK_UINT32,
                                                SGK_UINT64,  SGK_FLOAT16, SGK_FLOAT32,
                                                SGK_FLOAT64, SGK_COMPLEX64};
    for (size_t i = 0; i < sizeof bad_index_types / sizeof bad_index_types[0]; i++) {
        char lbl[96];
        c = base(op);
        c.indices.dtype = bad_index_types[i];
        c.indices.data = IDX_ZERO;
        snprintf(lbl, sizeof lbl, "indices dtype %d", (int)bad_index_types[i]);
        RUN(lbl, &c, E);
    }

    if (!is_scatter(op)) return;
    static const sgk_dtype complex_types[] = {SGK_COMPLEX64, SGK_COMPLEX128};
    static const sgk_reduction minmax[] = {SGK_REDUCE_MAX, SGK_REDUCE_MIN};
    for (size_t t = 0; t < 2; t++)
        for (size_t r = 0; r < 2; r++) {
            char lbl[96];
            c = base(op);
            c.data.dtype = c.updates.dtype = complex_types[t];
            c.red = minmax[r];
            snprintf(lbl, sizeof lbl, "complex dtype %d with reduction %d", (int)complex_types[t],
                     (int)minmax[r]);
            RUN(lbl, &c, E);
        }
    /* strings take no reduction but none: every other row of the registry */
    for (int r = 0; r < sgk_reduction_count(); r++) {
        if (r == SGK_REDUCE_NONE)
            continue;
        char lbl[96];
        c = base(op);
        c.data.dtype = c.updates.dtype = SGK_STRING;
        c.data.data = STRS;
        c.updates.data = STRS + 64;
        c.red = (sgk_reduction)r;
        snprintf(lbl, sizeof lbl, "string with reduction %d", r);
        RUN(lbl, &c, E);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_base_cases_valid),
        PER_OP("unsupported", test_unsupported),
    };
    return cmocka_run_group_tests_name("sgk errors: unsupported", tests, group_setup, NULL);
}
