/*
 * test_seeds_gather: the worked examples of GatherND (ONNX 13/12/11, seed
 * file 002) and of Scatter (ONNX 11/9, seed file 003: ScatterElements
 * without reduction) with its inverse GatherElements (the seeds print no
 * GatherElements example), run through sgk's one-shot entry points
 * (tests/support/seed_checks.h).  The examples are the committed rows of
 * tests/seeds/examples.def:
 *   GatherND Examples 1-4 (11/12/13), Example 5 batch_dims=1 (12/13),
 *     _int32, _float32, _int32_batchdim_1                gathernd_example1-5
 *   Scatter Example 1 == _scatter_without_axis,
 *     Example 2 == _scatter_with_axis                    scatter_example1-2
 * and the statements checked alongside: GatherND's out-of-range index,
 * indices_shape[-1] > r-b, b < min(q,r), first b dims equal; Scatter's
 * negative axis, out-of-range index, "inverse of GatherElements".
 *
 * The seed's markup lost GatherND Examples 2 and 5's indices ("indices =
 * [,]") and Example 1's output shape; tests/seeds/extract-examples.py
 * restores the indices, saying why, and the shape follows from the output.
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

static void check_example(sgk_dtype dt, int example, int64_t batch_dims)
{
    check_gather_nd(dt, seed_num(example, SEED_DATA), seed_idx(example), batch_dims,
                    seed_num(example, SEED_OUTPUT));
}

/* ======================================================================== */
/* GatherND (ONNX)                                                           */
/* ======================================================================== */

/* 002 GatherND-13/12/11 "Example 1" and "_int32" (int32 data); the seed's
   "output_shape = " lost its value, which is [2]. */
static void test_gathernd_example1_int32(void **state)
{
    (void)state;
    check_example(SGK_INT32, SEED_gathernd_example1, 0);
    check_example(SGK_FLOAT32, SEED_gathernd_example1, 0);
}

/* 002 GatherND-13/12/11 "Example 2"; the seed's "indices = [,]" lost its
   brackets: shape [2, 1] and output [[2,3],[0,1]] mean [[1],[0]].
   Untyped: run as float32 and int64. */
static void test_gathernd_example2(void **state)
{
    (void)state;
    check_example(SGK_FLOAT32, SEED_gathernd_example2, 0);
    check_example(SGK_INT64, SEED_gathernd_example2, 0);
}

/* 002 GatherND-13/12/11 "Example 3" (untyped: float32). */
static void test_gathernd_example3(void **state)
{
    (void)state;
    check_example(SGK_FLOAT32, SEED_gathernd_example3, 0);
}

/* 002 GatherND-13/12/11 "Example 4" and "_float32". */
static void test_gathernd_example4_float32(void **state)
{
    (void)state;
    check_example(SGK_FLOAT32, SEED_gathernd_example4, 0);
}

/* 002 GatherND-13/12 "Example 5" (batch_dims = 1) and "_int32_batchdim_1"
   (int32 data); "indices = [,]" of shape [2, 1] is [[1],[0]]. */
static void test_gathernd_example5_int32_batch_dim1(void **state)
{
    (void)state;
    check_example(SGK_INT32, SEED_gathernd_example5, 1);
}

/* 002 GatherND-13 salient point 5: "It is an error if any of the index values
   are out of bounds", on Examples 1 and 5's data. */
static void test_gathernd_example1_index_out_of_range(void **state)
{
    (void)state;
    static const int64_t ishape[] = {2, 2};
    static const int64_t idx_hi[] = {0, 0, 1, 2};
    static const int64_t idx_lo[] = {0, 0, -3, 1};
    check_gather_nd_error(SGK_INT32, seed_num(SEED_gathernd_example1, SEED_DATA),
                          IDX(ishape, idx_hi), 0, SGK_ERR_INDEX_OUT_OF_RANGE);
    check_gather_nd_error(SGK_INT32, seed_num(SEED_gathernd_example1, SEED_DATA),
                          IDX(ishape, idx_lo), 0, SGK_ERR_INDEX_OUT_OF_RANGE);
    static const int64_t ishape5[] = {2, 1};
    static const int64_t idx5[] = {2, 0};
    check_gather_nd_error(SGK_INT32, seed_num(SEED_gathernd_example5, SEED_DATA),
                          IDX(ishape5, idx5), 1, SGK_ERR_INDEX_OUT_OF_RANGE);
}

/* 002 GatherND-13 salient points 2-4 and "If indices_shape[-1] > r-b =>
   error condition", on Example 5's data. */
static void test_gathernd_example5_shape_rules(void **state)
{
    (void)state;
    static const int64_t ishape_k3[] = {2, 3}; /* k = 3 > r - b = 2 */
    static const int64_t idx_k3[] = {0, 0, 0, 0, 0, 0};
    check_gather_nd_error(SGK_INT32, seed_num(SEED_gathernd_example5, SEED_DATA),
                          IDX(ishape_k3, idx_k3), 1, SGK_ERR_SHAPE);
    static const int64_t ishape_b2[] = {2, 1}; /* b = 2 >= min(q, r) = 2 */
    static const int64_t idx_b2[] = {0, 0};
    check_gather_nd_error(SGK_INT32, seed_num(SEED_gathernd_example5, SEED_DATA),
                          IDX(ishape_b2, idx_b2), 2, SGK_ERR_SHAPE);
    static const int64_t ishape_batch[] = {3, 1}; /* indices.shape[0] != data.shape[0] */
    static const int64_t idx_batch[] = {0, 1, 0};
    check_gather_nd_error(SGK_INT32, seed_num(SEED_gathernd_example5, SEED_DATA),
                          IDX(ishape_batch, idx_batch), 1, SGK_ERR_SHAPE);
}

/* ======================================================================== */
/* Scatter-11/9 = ScatterElements without reduction; GatherElements          */
/* ======================================================================== */

/* 003 Scatter-11/9 "Example 1" and "_scatter_without_axis" (float32, axis 0;
   also as axis -2: "Negative value means counting dimensions from the back"). */
static void test_scatter_example1_without_axis(void **state)
{
    (void)state;
    check_scatter_elements(SGK_FLOAT32, seed_num(SEED_scatter_example1, SEED_DATA),
                           seed_idx(SEED_scatter_example1),
                           seed_num(SEED_scatter_example1, SEED_UPDATES), 0, SGK_REDUCE_NONE,
                           seed_num(SEED_scatter_example1, SEED_OUTPUT));
    check_scatter_elements(SGK_FLOAT32, seed_num(SEED_scatter_example1, SEED_DATA),
                           seed_idx(SEED_scatter_example1),
                           seed_num(SEED_scatter_example1, SEED_UPDATES), -2, SGK_REDUCE_NONE,
                           seed_num(SEED_scatter_example1, SEED_OUTPUT));
}

/* 003 Scatter-11/9 "Example 2" and "_scatter_with_axis" (float32, axis 1;
   also as axis -1). */
static void test_scatter_example2_with_axis(void **state)
{
    (void)state;
    check_scatter_elements(SGK_FLOAT32, seed_num(SEED_scatter_example2, SEED_DATA),
                           seed_idx(SEED_scatter_example2),
                           seed_num(SEED_scatter_example2, SEED_UPDATES), 1, SGK_REDUCE_NONE,
                           seed_num(SEED_scatter_example2, SEED_OUTPUT));
    check_scatter_elements(SGK_FLOAT32, seed_num(SEED_scatter_example2, SEED_DATA),
                           seed_idx(SEED_scatter_example2),
                           seed_num(SEED_scatter_example2, SEED_UPDATES), -1, SGK_REDUCE_NONE,
                           seed_num(SEED_scatter_example2, SEED_OUTPUT));
}

/* 003 Scatter-11 "This operator is the inverse of GatherElements": gathering
   Example 1's output at its indices gives back its updates. */
static void test_scatter_example1_inverse_gather_elements(void **state)
{
    (void)state;
    check_gather_elements(SGK_FLOAT32, seed_num(SEED_scatter_example1, SEED_OUTPUT),
                          seed_idx(SEED_scatter_example1), 0,
                          seed_num(SEED_scatter_example1, SEED_UPDATES));
    check_gather_elements(SGK_FLOAT32, seed_num(SEED_scatter_example1, SEED_OUTPUT),
                          seed_idx(SEED_scatter_example1), -2,
                          seed_num(SEED_scatter_example1, SEED_UPDATES));
}

/* 003 Scatter-11 "inverse of GatherElements", on Example 2 (axis 1 and -1). */
static void test_scatter_example2_inverse_gather_elements(void **state)
{
    (void)state;
    check_gather_elements(SGK_FLOAT32, seed_num(SEED_scatter_example2, SEED_OUTPUT),
                          seed_idx(SEED_scatter_example2), 1,
                          seed_num(SEED_scatter_example2, SEED_UPDATES));
    check_gather_elements(SGK_FLOAT32, seed_num(SEED_scatter_example2, SEED_OUTPUT),
                          seed_idx(SEED_scatter_example2), -1,
                          seed_num(SEED_scatter_example2, SEED_UPDATES));
}

/* 003 Scatter-11 indices: "It is an error if any of the index values are out
   of bounds", on Examples 1 and 2, every reduction. */
static void test_scatter_examples_index_out_of_range(void **state)
{
    (void)state;
    static const sgk_status want = SGK_ERR_INDEX_OUT_OF_RANGE;
    static const int64_t sc1_ishape[] = {2, 3}, sc2_ishape[] = {1, 2};
    static const int64_t idx1[] = {1, 0, 3, 0, 2, 1};
    static const int64_t idx2_hi[] = {1, 5};
    static const int64_t idx2_lo[] = {-6, 3};
    for (int red = 0; red < SGK_REDUCTION_COUNT; red++) {
        check_scatter_elements_error(
            SGK_FLOAT32, seed_num(SEED_scatter_example1, SEED_DATA), IDX(sc1_ishape, idx1),
            seed_num(SEED_scatter_example1, SEED_UPDATES), 0, (sgk_reduction)red, &want, 1);
        check_scatter_elements_error(
            SGK_FLOAT32, seed_num(SEED_scatter_example2, SEED_DATA), IDX(sc2_ishape, idx2_hi),
            seed_num(SEED_scatter_example2, SEED_UPDATES), 1, (sgk_reduction)red, &want, 1);
        check_scatter_elements_error(
            SGK_FLOAT32, seed_num(SEED_scatter_example2, SEED_DATA), IDX(sc2_ishape, idx2_lo),
            seed_num(SEED_scatter_example2, SEED_UPDATES), -1, (sgk_reduction)red, &want, 1);
    }
}

/* 003 Scatter-11 attributes and inputs: axis "Accepted range is [-r, r-1]",
   updates "same rank and shape as indices", on Example 2.  The seeds and the
   header leave the status of a bad axis open: SGK_ERR_SHAPE or
   SGK_ERR_INVALID_ARGUMENT. */
static void test_scatter_example2_shape_rules(void **state)
{
    (void)state;
    static const sgk_status bad_axis[] = {SGK_ERR_SHAPE, SGK_ERR_INVALID_ARGUMENT};
    static const sgk_status bad_shape[] = {SGK_ERR_SHAPE};
    check_scatter_elements_error(
        SGK_FLOAT32, seed_num(SEED_scatter_example2, SEED_DATA), seed_idx(SEED_scatter_example2),
        seed_num(SEED_scatter_example2, SEED_UPDATES), 2, SGK_REDUCE_NONE, bad_axis, LEN(bad_axis));
    check_scatter_elements_error(SGK_FLOAT32, seed_num(SEED_scatter_example2, SEED_DATA),
                                 seed_idx(SEED_scatter_example2),
                                 seed_num(SEED_scatter_example2, SEED_UPDATES), -3, SGK_REDUCE_NONE,
                                 bad_axis, LEN(bad_axis));
    static const int64_t ushape_bad[] = {2, 1};
    check_scatter_elements_error(SGK_FLOAT32, seed_num(SEED_scatter_example2, SEED_DATA),
                                 seed_idx(SEED_scatter_example2),
                                 NUM(ushape_bad, seed_num(SEED_scatter_example2, SEED_UPDATES).v),
                                 1, SGK_REDUCE_NONE, bad_shape, LEN(bad_shape));
}

/* 003 Scatter-11 "inverse of GatherElements" with an index out of bounds:
   GatherElements on Example 2's output with 5 and -6 along axis 1. */
static void test_gather_elements_example2_index_out_of_range(void **state)
{
    (void)state;
    static const int64_t sc2_ishape[] = {1, 2};
    static const int64_t idx_hi[] = {1, 5};
    static const int64_t idx_lo[] = {-6, 3};
    check_gather_elements_error(SGK_FLOAT32, seed_num(SEED_scatter_example2, SEED_OUTPUT),
                                IDX(sc2_ishape, idx_hi), 1, SGK_ERR_INDEX_OUT_OF_RANGE);
    check_gather_elements_error(SGK_FLOAT32, seed_num(SEED_scatter_example2, SEED_OUTPUT),
                                IDX(sc2_ishape, idx_lo), -1, SGK_ERR_INDEX_OUT_OF_RANGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gathernd_example1_int32),
        cmocka_unit_test(test_gathernd_example2),
        cmocka_unit_test(test_gathernd_example3),
        cmocka_unit_test(test_gathernd_example4_float32),
        cmocka_unit_test(test_gathernd_example5_int32_batch_dim1),
        cmocka_unit_test(test_gathernd_example1_index_out_of_range),
        cmocka_unit_test(test_gathernd_example5_shape_rules),
        cmocka_unit_test(test_scatter_example1_without_axis),
        cmocka_unit_test(test_scatter_example2_with_axis),
        cmocka_unit_test(test_scatter_example1_inverse_gather_elements),
        cmocka_unit_test(test_scatter_example2_inverse_gather_elements),
        cmocka_unit_test(test_scatter_examples_index_out_of_range),
        cmocka_unit_test(test_scatter_example2_shape_rules),
        cmocka_unit_test(test_gather_elements_example2_index_out_of_range),
    };
    return cmocka_run_group_tests_name("test_seeds_gather", tests, NULL, NULL);
}
