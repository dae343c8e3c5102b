/*
 * test_seeds_scatter_nd: the worked examples of ScatterND (ONNX, seed files
 * 000 = ScatterND 18/16/13/11 and 004 = the same in the old doc layout) and
 * what its summary states, run through sgk's one-shot entry points
 * (tests/support/seed_checks.h: int64 and int32 indices, as printed and
 * rewritten negative, into a fresh output and in place).  The examples are
 * the committed rows of tests/seeds/examples.def (tests/seeds/
 * extract-examples.py); identical examples repeated across versions and
 * files are one row:
 *   Example 1 (1-D, k = r)              000 v18/16/13/11, 004 v16/13/11
 *   Example 2 == _scatternd (float32)   000 v18/16/13/11, 004 v16/13/11, and
 *                                       001 "update of two slices of 4x4"
 *   _scatternd_add, _scatternd_multiply 000 v18, 004 v16
 *   _scatternd_max, _scatternd_min      000 v18
 *
 * Seed typos, corrected here (seed_corrected_output): the "# Expecting
 * output" comments of _scatternd_add/_multiply/_max/_min print slice 2 as
 * [[1,1,1,1],...,[4,4,4,4]], but indices [[0],[0]] never touch slice 2, so
 * it stays data[2] (scatter_nd_impl, which the ONNX test really uses,
 * agrees).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "support/common.h"
#include "support/seed_checks.h"
#include "support/seed_examples.h"
#include "registry/registry.h"
#include "sgk.h"

/* The printed output of an _scatternd_<reduction> example with slice 2
   (16 elements from 32) put back to data's: the correction above. */
static num_t untouched_slice_2(int example, double *corrected)
{
    num_t printed = seed_num(example, SEED_OUTPUT), data = seed_num(example, SEED_DATA);
    memcpy(corrected, printed.v, 64 * sizeof *corrected);
    memcpy(corrected + 32, data.v + 32, 16 * sizeof *corrected);
    return seed_corrected_output(example, corrected);
}

static void check_example(sgk_dtype dt, int example, sgk_reduction red, num_t want)
{
    check_scatter_nd(dt, seed_num(example, SEED_DATA), seed_idx(example),
                     seed_num(example, SEED_UPDATES), red, want);
}

/* Every row's values fill its shapes: the extraction lost nothing. */
static void test_seed_examples_fill_their_shapes(void **state)
{
    (void)state;
    assert_true(seed_examples_fill_their_shapes());
}

/* "Example 1": untyped in the seed, run as float32 and int64. */
static void test_scatternd_example1_onnx(void **state)
{
    (void)state;
    const int x = SEED_scatternd_example1;
    check_example(SGK_FLOAT32, x, SGK_REDUCE_NONE, seed_num(x, SEED_OUTPUT));
    check_example(SGK_INT64, x, SGK_REDUCE_NONE, seed_num(x, SEED_OUTPUT));
}

/* "Example 2" and "_scatternd" (float32). */
static void test_scatternd_example2_onnx(void **state)
{
    (void)state;
    const int x = SEED_scatternd_example2;
    check_example(SGK_FLOAT32, x, SGK_REDUCE_NONE, seed_num(x, SEED_OUTPUT));
}

/* "_scatternd_add", "_multiply", "_max" and "_min", slice 2 corrected. */
static void check_reduction_example(int example, sgk_reduction red)
{
    double corrected[64];
    assert_int_equal(tc_numel(seed_num(example, SEED_OUTPUT).rank,
                              seed_num(example, SEED_OUTPUT).shape), 64);
    check_example(SGK_FLOAT32, example, red, untouched_slice_2(example, corrected));
}

static void test_scatternd_add_onnx(void **state)
{
    (void)state;
    check_reduction_example(SEED_scatternd_add, SGK_REDUCE_ADD);
}

static void test_scatternd_multiply_onnx(void **state)
{
    (void)state;
    check_reduction_example(SEED_scatternd_multiply, SGK_REDUCE_MUL);
}

static void test_scatternd_max_onnx(void **state)
{
    (void)state;
    check_reduction_example(SEED_scatternd_max, SGK_REDUCE_MAX);
}

static void test_scatternd_min_onnx(void **state)
{
    (void)state;
    check_reduction_example(SEED_scatternd_min, SGK_REDUCE_MIN);
}

/* "This operator is the inverse of GatherND": GatherND of Examples 1 and
   2's outputs at the same indices gives back the updates. */
static void test_scatternd_examples_inverse_gathernd(void **state)
{
    (void)state;
    const int x1 = SEED_scatternd_example1, x2 = SEED_scatternd_example2;
    check_gather_nd(SGK_FLOAT32, seed_num(x1, SEED_OUTPUT), seed_idx(x1), 0,
                    seed_num(x1, SEED_UPDATES));
    check_gather_nd(SGK_FLOAT32, seed_num(x2, SEED_OUTPUT), seed_idx(x2), 0,
                    seed_num(x2, SEED_UPDATES));
}

/* Summary: "k can be a value at most the rank of data" and "the shape of
   updates must equal indices.shape[0:q-1] ++ data.shape[k:r-1]"; the
   Example 2 inputs with a broken shape. */
static void test_scatternd_example2_shape_rules(void **state)
{
    (void)state;
    const int x = SEED_scatternd_example2;
    static const int64_t ishape_k4[] = {1, 4};
    static const int64_t idx_k4[] = {0, 0, 0, 0};
    static const int64_t ushape_k4[] = {1};
    static const double upd_k4[] = {9};
    check_scatter_nd_error(SGK_FLOAT32, seed_num(x, SEED_DATA), IDX(ishape_k4, idx_k4),
                           NUM(ushape_k4, upd_k4), SGK_REDUCE_NONE, SGK_ERR_SHAPE);
    static const int64_t ushape_bad[] = {2, 4, 3};
    check_scatter_nd_error(SGK_FLOAT32, seed_num(x, SEED_DATA), seed_idx(x),
                           NUM(ushape_bad, seed_num(x, SEED_UPDATES).v), SGK_REDUCE_NONE,
                           SGK_ERR_SHAPE);
}

/* 000 ScatterND / 001 ScatterNDUpdate-15 index bounds, on Example 2's data
   with k = 2: [0, 4] has an in-range flattened offset (4 < 16) but its
   second coordinate is out of range; checked per coordinate
   (docs/semantics.md, Negative indices). */
static void test_scatternd_example2_coordinate_out_of_range(void **state)
{
    (void)state;
    const num_t data = seed_num(SEED_scatternd_example2, SEED_DATA);
    static const int64_t ishape[] = {1, 2};
    static const int64_t idx_hi[] = {0, 4};
    static const int64_t idx_lo[] = {3, -5};
    static const int64_t idx_first[] = {-5, 0};
    static const int64_t ushape[] = {1, 4};
    static const double upd[] = {1, 2, 3, 4};
    for (int red = 0; red < SGK_REDUCTION_COUNT; red++) {
        check_scatter_nd_error(SGK_FLOAT32, data, IDX(ishape, idx_hi), NUM(ushape, upd),
                               (sgk_reduction)red, SGK_ERR_INDEX_OUT_OF_RANGE);
        check_scatter_nd_error(SGK_FLOAT32, data, IDX(ishape, idx_lo), NUM(ushape, upd),
                               (sgk_reduction)red, SGK_ERR_INDEX_OUT_OF_RANGE);
        check_scatter_nd_error(SGK_FLOAT32, data, IDX(ishape, idx_first), NUM(ushape, upd),
                               (sgk_reduction)red, SGK_ERR_INDEX_OUT_OF_RANGE);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_examples_fill_their_shapes),
        cmocka_unit_test(test_scatternd_example1_onnx),
        cmocka_unit_test(test_scatternd_example2_onnx),
        cmocka_unit_test(test_scatternd_add_onnx),
        cmocka_unit_test(test_scatternd_multiply_onnx),
        cmocka_unit_test(test_scatternd_max_onnx),
        cmocka_unit_test(test_scatternd_min_onnx),
        cmocka_unit_test(test_scatternd_examples_inverse_gathernd),
        cmocka_unit_test(test_scatternd_example2_shape_rules),
        cmocka_unit_test(test_scatternd_example2_coordinate_out_of_range),
    };
    return cmocka_run_group_tests_name("test_seeds_scatter_nd", tests, NULL, NULL);
}
