/*
 * Elements of a result that differ from the expected ones
 * (tests/support/result_diff.h).
 */
#include <inttypes.h>
#include <stdio.h>

#include "common.h"
#include "reference.h"
#include "result_diff.h"

static void print_elem(const char *label, const void *p, size_t es)
{
    printf("      %s ", label);
    tc_print_hex(p, es);
    printf("\n");
}

int count_result_differences(const char *what, sgk_dtype dtype, sgk_reduction red,
                             const void *expected, const void *actual, int64_t n)
{
    size_t es = tc_dtype_size(dtype);
    int bad = 0;
    for (int64_t i = 0; i < n; i++) {
        const char *e = (const char *)expected + (size_t)i * es;
        const char *a = (const char *)actual + (size_t)i * es;
        if (!ref_same_result(dtype, red, e, a)) {
            if (!bad)
                printf("FAIL %s dtype=%s reduction=%s\n", what, tc_dtype_name(dtype),
                       tc_reduction_name(red));
            printf("    element %" PRId64 ":\n", i);
            print_elem("expected", e, es);
            print_elem("actual  ", a, es);
            bad++;
        }
    }
    return bad;
}
