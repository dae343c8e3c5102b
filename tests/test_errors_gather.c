/*
 * The error contract of Gather (tests/support/error_cases.h states it for
 * the other operators): every bad call returns its exact status, leaves a
 * message that names the operator and the offending value in
 * sgk_last_error(), and writes nothing: the output stays byte for byte as
 * it was.  Each case is a valid call with one thing changed, made one-shot
 * and as a plan (where the plan sees the fault).
 *
 * Base: data [3, 5, 4] float32, indices [2, 3] int64, axis 1, output
 * [3, 2, 3, 4].
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/common.h"
#include "support/error_cases.h"
#include "sgk.h"

static const int64_t G_DSHAPE[] = {3, 5, 4};
static const int64_t G_ISHAPE[] = {2, 3};
#define G_DATA 60
#define G_OUT 72

typedef struct {
    sgk_tensor data, indices;
    int64_t axis;
    int64_t idx[6];
    int32_t idx32[6];
    int null_data, null_indices, null_output;
} gcase;

static gcase gather_base(void)
{
    gcase c = {.data = {SGK_FLOAT32, 3, G_DSHAPE, DATA_F},
               .indices = {SGK_INT64, 2, G_ISHAPE, NULL},
               .axis = 1,
               .idx = {0, 4, -1, -5, 2, 3}};
    return c;
}

/* Makes the call of c one-shot and as a plan; checks status, message and
   an untouched output each time. */
static void run_gather_at(const char *file, int line, const char *label, gcase *c,
                          sgk_status want, const char *needle)
{
    if (c->indices.data == NULL)
        c->indices.data = c->indices.dtype == SGK_INT32 ? (void *)c->idx32 : (void *)c->idx;
    const char *needles[1] = {needle};
    size_t out_bytes = G_OUT * sizeof(float) + GUARD;
    uint8_t *out = malloc(out_bytes);
    memset(out, 0x5C, out_bytes);
    void *before = snapshot(out, out_bytes);
    char what[200];

    prime_last_error("gather: ");
    sgk_status st = sgk_gather(c->null_data ? NULL : &c->data,
                               c->null_indices ? NULL : &c->indices, c->axis,
                               c->null_output ? NULL : out);
    snprintf(what, sizeof what, "%s (one-shot)", label);
    check_error_at(file, line, what, st, want, "gather: ", needles, needle ? 1 : 0);
    check_bytes_at(file, line, what, "output", out, before, out_bytes);

    if (!c->null_output) { /* a NULL output is an execution fault */
        sgk_plan *plan = NULL;
        prime_last_error("gather: ");
        st = sgk_plan_gather(&plan, c->null_data ? NULL : &c->data,
                             c->null_indices ? NULL : &c->indices, c->axis, 0);
        snprintf(what, sizeof what, "%s (plan)", label);
        check_error_at(file, line, what, st, want, "gather: ", needles, needle ? 1 : 0);
        if (plan != NULL)
            failf(file, line, "%s: a plan was handed out", what);
    }
    free(before);
    free(out);
}
#define RUN_GATHER(label, c, want, needle) run_gather_at(__FILE__, __LINE__, label, c, want, needle)

static void test_gather_valid(void **state)
{
    (void)state;
    gcase c = gather_base();
    c.indices.data = c.idx;
    float out[G_OUT];
    CHECK_OK(sgk_gather(&c.data, &c.indices, c.axis, out));
    int64_t shape[8];
    int32_t rank;
    CHECK_OK(sgk_gather_shape(&c.data, &c.indices, c.axis, shape, &rank));
    assert_int_equal(rank, 4);
    assert_int_equal(shape[1], 2);
    assert_int_equal(shape[2], 3);
}

/* The last index out of range (each_bad_index). */
static void gather_bad_index(void *ctx, int64_t value, sgk_dtype index_type, const char *label,
                             const char *needle)
{
    (void)ctx;
    gcase c = gather_base();
    c.idx[5] = value;
    for (int i = 0; i < 6; i++)
        c.idx32[i] = (int32_t)c.idx[i];
    c.indices.dtype = index_type;
    RUN_GATHER(label, &c, SGK_ERR_INDEX_OUT_OF_RANGE, needle);
}

static void test_gather_indices(void **state)
{
    (void)state;
    static const int64_t bad[] = {5, -6, INT64_MAX, INT64_MIN, (int64_t)1 << 32};
    static const char *const text[] = {"= 5", "= -6", "= 9223372036854775807",
                                       "= -9223372036854775808", "= 4294967296"};
    each_bad_index("index", bad, text, sizeof bad / sizeof bad[0], gather_bad_index, NULL);
    /* the position is named */
    gcase c = gather_base();
    c.idx[4] = 9;
    RUN_GATHER("index at [1, 1]", &c, SGK_ERR_INDEX_OUT_OF_RANGE, "indices[1, 1] = 9");
    /* nothing before the axis to gather for: still checked */
    static const int64_t empty_outer[] = {0, 5, 4};
    c = gather_base();
    c.data.shape = empty_outer;
    c.idx[0] = 5;
    RUN_GATHER("bad index, empty output", &c, SGK_ERR_INDEX_OUT_OF_RANGE, "= 5");
}

static void test_gather_shapes_and_arguments(void **state)
{
    (void)state;
    gcase c = gather_base();
    c.axis = 3;
    RUN_GATHER("axis 3 of rank 3", &c, SGK_ERR_SHAPE, "axis 3");
    c = gather_base();
    c.axis = -4;
    RUN_GATHER("axis -4 of rank 3", &c, SGK_ERR_SHAPE, "axis -4");
    c = gather_base();
    c.data.rank = 0;
    c.axis = 0;
    RUN_GATHER("scalar data", &c, SGK_ERR_SHAPE, "rank");
    c = gather_base();
    c.indices.dtype = SGK_UINT32;
    RUN_GATHER("uint32 indices", &c, SGK_ERR_UNSUPPORTED, "int32 or int64");
    c = gather_base();
    c.data.dtype = (sgk_dtype)99;
    RUN_GATHER("bad dtype", &c, SGK_ERR_INVALID_ARGUMENT, "dtype");
    c = gather_base();
    c.null_data = 1;
    RUN_GATHER("NULL data", &c, SGK_ERR_INVALID_ARGUMENT, "data");
    c = gather_base();
    c.null_indices = 1;
    RUN_GATHER("NULL indices", &c, SGK_ERR_INVALID_ARGUMENT, "indices");
    c = gather_base();
    c.null_output = 1;
    RUN_GATHER("NULL output", &c, SGK_ERR_INVALID_ARGUMENT, "output");
    c = gather_base();
    static const int64_t negative[] = {3, -5, 4};
    c.data.shape = negative;
    RUN_GATHER("negative dimension", &c, SGK_ERR_SHAPE, "negative");

    /* the output overlaps data: refused before anything is written */
    float buffer[G_DATA + G_OUT];
    memcpy(buffer, DATA_F, sizeof(float) * G_DATA);
    c = gather_base();
    c.indices.data = c.idx;
    c.data.data = buffer;
    void *before = snapshot(buffer, sizeof buffer);
    prime_last_error("gather: ");
    sgk_status st = sgk_gather(&c.data, &c.indices, c.axis, buffer + 10);
    check_error_at(__FILE__, __LINE__, "output overlapping data", st, SGK_ERR_INVALID_ARGUMENT,
                   "gather: ", (const char *const[]){"overlaps"}, 1);
    check_bytes_at(__FILE__, __LINE__, "output overlapping data", "buffer", buffer, before,
                   sizeof buffer);
    free(before);

    /* an output whose size overflows */
    static const int64_t huge_data[] = {(int64_t)1 << 40, 2};
    static const int64_t huge_indices[] = {(int64_t)1 << 40};
    c = gather_base();
    c.data.shape = huge_data;
    c.data.rank = 2;
    c.data.data = DUMMY_D;
    c.indices.shape = huge_indices;
    c.indices.rank = 1;
    c.indices.data = DUMMY_I;
    c.axis = 1;
    RUN_GATHER("output size overflow", &c, SGK_ERR_OVERFLOW, "output");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gather_valid),
        cmocka_unit_test(test_gather_indices),
        cmocka_unit_test(test_gather_shapes_and_arguments),
    };
    return cmocka_run_group_tests(tests, group_setup, NULL);
}
