/*
 * The registry's public queries (sgk.h): counts, names and their round
 * trips, flags, the version check; and that the registry agrees with what
 * the semantics say, as the independent reference (tests/support/reference.c) has
 * them: a cell is flagged supported, and scatter_nd accepts it, exactly
 * where the reference defines it, and order-free only where the semantics
 * make it so (integers and bool, never NONE).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "support/error_cases.h"
#include "support/reference.h"
#include "registry/registry.h"
#include "sgk.h"

static void test_dtypes(void **state)
{
    (void)state;
    assert_int_equal(sgk_dtype_count(), SGK_DTYPE_COUNT);
    assert_int_equal(sgk_dtype_count(), SGK_STRING + 1);
    for (int t = 0; t < sgk_dtype_count(); t++) {
        const char *name = sgk_dtype_name((sgk_dtype)t);
        sgk_dtype back = (sgk_dtype)-1;
        assert_int_equal(sgk_dtype_from_name(name, &back), SGK_OK);
        if ((int)back != t)
            failf(__FILE__, __LINE__, "dtype %d is named \"%s\", which names %d", t, name,
                  (int)back);
        uint32_t f = sgk_dtype_flags((sgk_dtype)t);
        /* exactly one kind, and SIGNED only on integers */
        uint32_t kinds = f & (SGK_DTYPE_BOOLEAN | SGK_DTYPE_INTEGER | SGK_DTYPE_FLOAT |
                              SGK_DTYPE_COMPLEX | SGK_DTYPE_POINTER);
        if (kinds == 0 || (kinds & (kinds - 1)) != 0)
            failf(__FILE__, __LINE__, "dtype %s has kinds %#x", name, kinds);
        if ((f & SGK_DTYPE_SIGNED) && !(f & SGK_DTYPE_INTEGER))
            failf(__FILE__, __LINE__, "dtype %s is signed but no integer", name);
    }
    assert_int_equal(sgk_dtype_flags(SGK_INT32), SGK_DTYPE_INTEGER | SGK_DTYPE_SIGNED);
    assert_int_equal(sgk_dtype_flags(SGK_UINT8), SGK_DTYPE_INTEGER);
    assert_int_equal(sgk_dtype_flags(SGK_BFLOAT16), SGK_DTYPE_FLOAT);
    assert_int_equal(sgk_dtype_flags((sgk_dtype)SGK_DTYPE_COUNT), 0);
    assert_string_equal(sgk_dtype_name((sgk_dtype)-1), "invalid");
    sgk_dtype out = SGK_INT8;
    assert_int_equal(sgk_dtype_from_name("float", &out), SGK_ERR_INVALID_ARGUMENT);
    assert_int_equal(out, SGK_INT8);
    assert_non_null(strstr(sgk_last_error(), "'float'"));
    assert_int_equal(sgk_dtype_from_name(NULL, &out), SGK_ERR_INVALID_ARGUMENT);
    assert_int_equal(sgk_dtype_from_name("int8", NULL), SGK_ERR_INVALID_ARGUMENT);
}

static void test_reductions(void **state)
{
    (void)state;
    assert_int_equal(sgk_reduction_count(), SGK_REDUCTION_COUNT);
    assert_int_equal(sgk_reduction_count(), SGK_REDUCE_MIN + 1);
    for (int r = 0; r < sgk_reduction_count(); r++) {
        const char *name = sgk_reduction_name((sgk_reduction)r);
        sgk_reduction back = (sgk_reduction)-1;
        assert_int_equal(sgk_reduction_from_name(name, &back), SGK_OK);
        if ((int)back != r)
            failf(__FILE__, __LINE__, "reduction %d is named \"%s\", which names %d", r, name,
                  (int)back);
    }
    assert_string_equal(sgk_reduction_name(SGK_REDUCE_MUL), "mul");
    assert_string_equal(sgk_reduction_name((sgk_reduction)SGK_REDUCTION_COUNT), "invalid");
    /* the message lists every name the registry takes */
    sgk_reduction out;
    assert_int_equal(sgk_reduction_from_name("avg", &out), SGK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(sgk_last_error(), "none add sum sub mul prod max min"));
}

/* 4 int64 elements of the type's size, one update at index 1: what
   scatter_nd says of the cell.  Strings get pointers to a literal. */
static sgk_status scatter_one(sgk_dtype dtype, sgk_reduction reduction)
{
    static const char *word = "w";
    unsigned char data[4 * 16], update[16], out[4 * 16];
    size_t size = sgk_dtype_size(dtype);
    for (size_t i = 0; i < 4 * size; i += size)
        if (dtype == SGK_STRING)
            memcpy(data + i, &word, sizeof word);
        else
            memset(data + i, 0, size);
    memcpy(update, data, size);
    int64_t index = 1, dshape[1] = {4}, ishape[2] = {1, 1}, ushape[1] = {1};
    sgk_tensor d = {dtype, 1, dshape, data}, i = {SGK_INT64, 2, ishape, &index},
               u = {dtype, 1, ushape, update};
    return sgk_scatter_nd(&d, &i, &u, reduction, out);
}

static void test_cells_match_the_operators(void **state)
{
    (void)state;
    for (int t = 0; t < SGK_DTYPE_COUNT; t++)
        for (int r = 0; r < SGK_REDUCTION_COUNT; r++) {
            uint32_t f = sgk_reduction_flags((sgk_dtype)t, (sgk_reduction)r);
            bool defined = ref_reduction_supported((sgk_dtype)t, (sgk_reduction)r);
            sgk_status got = scatter_one((sgk_dtype)t, (sgk_reduction)r);
            if (((f & SGK_CELL_SUPPORTED) != 0) != defined ||
                got != (defined ? SGK_OK : SGK_ERR_UNSUPPORTED))
                failf(__FILE__, __LINE__, "%s %s: the reference %s it, flags %#x, scatter_nd %s",
                      sgk_dtype_name((sgk_dtype)t), sgk_reduction_name((sgk_reduction)r),
                      defined ? "defines" : "does not define", f, sgk_status_name(got));
            uint32_t kind = sgk_dtype_flags((sgk_dtype)t);
            bool order_free = r != SGK_REDUCE_NONE && (f & SGK_CELL_SUPPORTED) &&
                              (kind & (SGK_DTYPE_INTEGER | SGK_DTYPE_BOOLEAN));
            if (((f & SGK_CELL_ORDER_FREE) != 0) != order_free)
                failf(__FILE__, __LINE__, "%s %s: order-free flag %d, want %d",
                      sgk_dtype_name((sgk_dtype)t), sgk_reduction_name((sgk_reduction)r),
                      (f & SGK_CELL_ORDER_FREE) != 0, order_free);
        }
    assert_int_equal(sgk_reduction_flags(SGK_STRING, SGK_REDUCE_NONE), SGK_CELL_SUPPORTED);
    assert_int_equal(sgk_reduction_flags(SGK_COMPLEX64, SGK_REDUCE_MAX), 0);
    assert_int_equal(sgk_reduction_flags((sgk_dtype)-1, SGK_REDUCE_ADD), 0);
}

static void test_statuses(void **state)
{
    (void)state;
    assert_int_equal(sgk_status_count(), SGK_STATUS_COUNT);
    assert_int_equal(sgk_status_count(), SGK_ERR_OVERFLOW + 1);
    assert_string_equal(sgk_status_name(SGK_ERR_INDEX_OUT_OF_RANGE),
                        "SGK_ERR_INDEX_OUT_OF_RANGE");
    for (int s = 1; s < sgk_status_count(); s++)
        assert_int_equal(strncmp(sgk_status_name((sgk_status)s), "SGK_ERR_", 8), 0);
}

static void test_version(void **state)
{
    (void)state;
    char want[32];
    snprintf(want, sizeof want, "%d.%d.", SGK_VERSION_MAJOR, SGK_VERSION_MINOR);
    if (strncmp(sgk_version(), want, strlen(want)) != 0)
        failf(__FILE__, __LINE__, "sgk.h says %d.%d but the library is %s", SGK_VERSION_MAJOR,
              SGK_VERSION_MINOR, sgk_version());
    assert_int_equal(sgk_check_version(SGK_VERSION_MAJOR, SGK_VERSION_MINOR), SGK_OK);
    assert_int_equal(sgk_check_version(SGK_VERSION_MAJOR, 0), SGK_OK);
    assert_int_equal(sgk_check_version(SGK_VERSION_MAJOR, SGK_VERSION_MINOR + 1),
                     SGK_ERR_UNSUPPORTED);
    assert_non_null(strstr(sgk_last_error(), sgk_version()));
    assert_int_equal(sgk_check_version(SGK_VERSION_MAJOR + 1, 0), SGK_ERR_UNSUPPORTED);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dtypes),
        cmocka_unit_test(test_reductions),
        cmocka_unit_test(test_cells_match_the_operators),
        cmocka_unit_test(test_statuses),
        cmocka_unit_test(test_version),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
