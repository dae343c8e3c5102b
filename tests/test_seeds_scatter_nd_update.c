/*
 * test_seeds_scatter_nd_update: the worked examples of OpenVINO's
 * ScatterNDUpdate-15 (seed file 001) and what its text states, run through
 * sgk's one-shot ScatterND (tests/support/seed_checks.h).  The examples are
 * the committed rows of tests/seeds/examples.def:
 *   Example 1 (text, negative indices)                     ov_text_example1
 *   XML Examples 1 (none), 2 (sum, FP16), 3 (sub, I32),
 *     4 (prod)                                             ov_xml_example1-4
 *   XML Example 5 (shapes only, values generated)          ov_xml_example5
 *   ("update of two slices of 4x4" is ONNX's Example 2: test_seeds_scatter_nd)
 * and the statements checked alongside: "0-D updates may be a tensor with a
 * single element", "bool sum/sub/prod are OR/XOR/AND", an out-of-range
 * index raises.
 *
 * Seed typos (DESIGN.md section 2, docs/semantics.md "Seed errata"; the
 * operator's own definition wins), corrected here by seed_corrected_output:
 *   XML Example 1 prints [50, 20, 20, 4]        -> [50, 40, 20, 4]
 *   XML Example 4 prints [500, 3600, 40, 4]     -> [500, 2400, 60, 4]
 *   text Example 1 prints [1,11,3,10,4,6,13,12] -> [1,11,3,10,14,6,13,12]
 *
 * The seed gives the XML examples' indices as <dim>5</dim>; as k-tuples
 * they are [[0], [2], [-3], [-3], [0]] of shape [5, 1] (docs/semantics.md,
 * Shapes), so updates have shape [5].
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

static void check_xml_example(sgk_dtype dt, int example, sgk_reduction red, num_t want)
{
    check_scatter_nd(dt, seed_num(example, SEED_DATA), seed_idx(example),
                     seed_num(example, SEED_UPDATES), red, want);
}

/* ScatterNDUpdate-15 (OpenVINO)                                             */
/* ======================================================================== */

/* 001 ScatterNDUpdate-15 "Example 1 that shows simple case of update with
   reduction set to none".  The seed prints [1, 11, 3, 10, 4, 6, 13, 12];
   corrected in docs/semantics.md's Seed errata: index -4 is 4, written last with
   14.  Untyped: run as float32 and int32. */
static void test_ov_scatterndupdate15_example1_text(void **state)
{
    (void)state;
    static const double out[] = {1, 11, 3, 10, 14, 6, 13, 12};
    check_scatter_nd(SGK_FLOAT32, seed_num(SEED_ov_text_example1, SEED_DATA),
                     seed_idx(SEED_ov_text_example1), seed_num(SEED_ov_text_example1, SEED_UPDATES),
                     SGK_REDUCE_NONE, seed_corrected_output(SEED_ov_text_example1, out));
    check_scatter_nd(SGK_INT32, seed_num(SEED_ov_text_example1, SEED_DATA),
                     seed_idx(SEED_ov_text_example1), seed_num(SEED_ov_text_example1, SEED_UPDATES),
                     SGK_REDUCE_NONE, seed_corrected_output(SEED_ov_text_example1, out));
}

/* 001 ScatterNDUpdate-15 XML "Example 1" (none, FP32).  The seed prints
   [50, 20, 20, 4]; corrected in docs/semantics.md's Seed errata: [50, 40, 20, 4]
   (index -3 is 1, written last with 40). */
static void test_ov_scatterndupdate15_example1_none(void **state)
{
    (void)state;
    static const double out[] = {50, 40, 20, 4};
    check_xml_example(SGK_FLOAT32, SEED_ov_xml_example1_none, SGK_REDUCE_NONE,
                      seed_corrected_output(SEED_ov_xml_example1_none, out));
}

/* 001 ScatterNDUpdate-15 XML "Example 2" (sum, FP16). */
static void test_ov_scatterndupdate15_example2_sum(void **state)
{
    (void)state;
    check_xml_example(SGK_FLOAT16, SEED_ov_xml_example2_sum, SGK_REDUCE_ADD,
                      seed_num(SEED_ov_xml_example2_sum, SEED_OUTPUT));
}

/* 001 ScatterNDUpdate-15 XML "Example 3" (sub, I32). */
static void test_ov_scatterndupdate15_example3_sub(void **state)
{
    (void)state;
    check_xml_example(SGK_INT32, SEED_ov_xml_example3_sub, SGK_REDUCE_SUB,
                      seed_num(SEED_ov_xml_example3_sub, SEED_OUTPUT));
}

/* 001 ScatterNDUpdate-15 XML "Example 4" (prod, FP32).  The seed prints
   [500, 3600, 40, 4]; corrected in docs/semantics.md's Seed errata:
   [500, 2400, 60, 4] (2*30*40 and 3*20). */
static void test_ov_scatterndupdate15_example_prod(void **state)
{
    (void)state;
    static const double out[] = {500, 2400, 60, 4};
    check_xml_example(SGK_FLOAT32, SEED_ov_xml_example4_prod, SGK_REDUCE_MUL,
                      seed_corrected_output(SEED_ov_xml_example4_prod, out));
}

/* 001 ScatterNDUpdate-15 XML "Example 5": data [1000, 256, 10, 15], indices
   [25, 125, 3], updates [25, 125, 15], reduction none.  The seed gives shapes
   only: data and updates get distinct values, the indices are pseudo-random in
   [-s, s-1] with one forced duplicate (the last one written wins), and the
   expected output is the sequential definition. */
static void test_ov_scatterndupdate15_example5_shapes(void **state)
{
    (void)state;
    const seed_example *e = &seed_examples[SEED_ov_xml_example5_shapes];
    const int64_t *dshape = e->dims[SEED_DATA] + 1, *ishape = e->dims[SEED_INDICES] + 1;
    const int64_t *ushape = e->dims[SEED_UPDATES] + 1;
    assert_int_equal(e->dims[SEED_DATA][0], 4);
    assert_int_equal(e->dims[SEED_INDICES][0], 3);
    assert_int_equal(ishape[2], 3);
    assert_int_equal(e->dims[SEED_UPDATES][0], 3);
    const size_t ndata = (size_t)tc_numel(4, dshape), slice = (size_t)dshape[3];
    const size_t nslices = (size_t)(ishape[0] * ishape[1]);

    float *data = xmalloc(ndata * sizeof(float));
    float *want = xmalloc(ndata * sizeof(float));
    float *upd = xmalloc(nslices * slice * sizeof(float));
    int64_t *idx = xmalloc(nslices * 3 * sizeof(int64_t));
    for (size_t i = 0; i < ndata; i++)
        data[i] = (float)(i & 0xfffffu);
    for (size_t i = 0; i < nslices * slice; i++)
        upd[i] = -(float)(i + 1);
    tc_rng rng = {15};
    for (size_t t = 0; t < nslices; t++)
        for (size_t j = 0; j < 3; j++)
            idx[t * 3 + j] = tc_rng_range(&rng, -dshape[j], dshape[j] - 1);
    memcpy(&idx[(nslices - 1) * 3], &idx[0], 3 * sizeof(int64_t));

    memcpy(want, data, ndata * sizeof(float));
    for (size_t t = 0; t < nslices; t++) {
        int64_t off = 0;
        for (size_t j = 0; j < 3; j++) {
            int64_t v = idx[t * 3 + j];
            off = off * dshape[j] + (v < 0 ? v + dshape[j] : v);
        }
        memcpy(&want[off * (int64_t)slice], &upd[t * slice], slice * sizeof(float));
    }

    sgk_tensor d = {SGK_FLOAT32, 4, dshape, data};
    sgk_tensor u = {SGK_FLOAT32, 3, ushape, upd};
    idx_t it = {3, ishape, idx};
    check_scatter_nd_raw(&d, &it, &u, SGK_REDUCE_NONE, want);
    free(data);
    free(want);
    free(upd);
    free(idx);
}

/* 001 ScatterNDUpdate-15 Inputs: "If expected updates rank is 0D it can be a
   tensor with single element" — here with indices of shape [1] (k = r = 1)
   and [2] (k = r = 2): updates of shape [] and [1] are both accepted. */
static void test_ov_scatterndupdate15_scalar_update_as_1elem(void **state)
{
    (void)state;
    static const int64_t scalar_shape[1] = {0}; /* unused: rank 0 */
    static const int64_t one[] = {1};
    static const double nine[] = {9};
    static const int64_t ishape1[] = {1};
    static const int64_t idx1[] = {2};
    static const double out1[] = {1, 2, 9, 4};
    check_scatter_nd(SGK_FLOAT32, seed_num(SEED_ov_xml_example1_none, SEED_DATA),
                     IDX(ishape1, idx1), (num_t){0, scalar_shape, nine}, SGK_REDUCE_NONE,
                     seed_shaped(SEED_ov_xml_example1_none, SEED_DATA, out1));
    check_scatter_nd(SGK_FLOAT32, seed_num(SEED_ov_xml_example1_none, SEED_DATA),
                     IDX(ishape1, idx1), NUM(one, nine), SGK_REDUCE_NONE,
                     seed_shaped(SEED_ov_xml_example1_none, SEED_DATA, out1));

    static const int64_t dshape2[] = {2, 2};
    static const int64_t ishape2[] = {2};
    static const int64_t idx2[] = {1, 1};
    static const double out2[] = {1, 2, 3, 9};
    check_scatter_nd(SGK_FLOAT32, NUM(dshape2, seed_num(SEED_ov_xml_example1_none, SEED_DATA).v),
                     IDX(ishape2, idx2), (num_t){0, scalar_shape, nine}, SGK_REDUCE_NONE,
                     NUM(dshape2, out2));
    check_scatter_nd(SGK_FLOAT32, NUM(dshape2, seed_num(SEED_ov_xml_example1_none, SEED_DATA).v),
                     IDX(ishape2, idx2), NUM(one, nine), SGK_REDUCE_NONE, NUM(dshape2, out2));
}

/* 001 ScatterNDUpdate-15 Types: "For boolean type, reduction sum, sub, prod
   behaves like logical OR, XOR, AND accordingly" (max/min are OR/AND per
   docs/semantics.md), on the XML examples' indices. */
static void test_ov_scatterndupdate15_bool_reductions(void **state)
{
    (void)state;
    static const double data[] = {1, 0, 1, 0};
    static const double upd[] = {1, 1, 1, 1, 0};
    /* slot 0 <- 1, 0; slot 1 <- 1, 1; slot 2 <- 1; slot 3 untouched */
    static const double none[] = {0, 1, 1, 0};
    static const double or_[] = {1, 1, 1, 0};
    static const double xor_[] = {0, 0, 0, 0};
    static const double and_[] = {0, 0, 1, 0};
    num_t d = seed_shaped(SEED_ov_xml_example1_none, SEED_DATA, data),
          u = seed_shaped(SEED_ov_xml_example1_none, SEED_UPDATES, upd);
    idx_t i = seed_idx(SEED_ov_xml_example1_none);
    check_scatter_nd(SGK_BOOL, d, i, u, SGK_REDUCE_NONE,
                     seed_shaped(SEED_ov_xml_example1_none, SEED_DATA, none));
    check_scatter_nd(SGK_BOOL, d, i, u, SGK_REDUCE_ADD,
                     seed_shaped(SEED_ov_xml_example1_none, SEED_DATA, or_));
    check_scatter_nd(SGK_BOOL, d, i, u, SGK_REDUCE_SUB,
                     seed_shaped(SEED_ov_xml_example1_none, SEED_DATA, xor_));
    check_scatter_nd(SGK_BOOL, d, i, u, SGK_REDUCE_MUL,
                     seed_shaped(SEED_ov_xml_example1_none, SEED_DATA, and_));
    check_scatter_nd(SGK_BOOL, d, i, u, SGK_REDUCE_MAX,
                     seed_shaped(SEED_ov_xml_example1_none, SEED_DATA, or_));
    check_scatter_nd(SGK_BOOL, d, i, u, SGK_REDUCE_MIN,
                     seed_shaped(SEED_ov_xml_example1_none, SEED_DATA, and_));
}

/* 001 ScatterNDUpdate-15 Inputs: indices "must be within bounds [-s_j,
   s_j - 1] ... If an index points to non-existing element then exception is
   raised": text Example 1 with 7 -> 8 and -2 -> -9, every reduction. */
static void test_ov_scatterndupdate15_example1_index_out_of_range(void **state)
{
    (void)state;
    static const int64_t ov1_ishape[] = {6, 1};
    static const int64_t idx_hi[] = {4, 3, 1, 8, -2, -4};
    static const int64_t idx_lo[] = {4, 3, 1, 7, -9, -4};
    for (int red = 0; red < SGK_REDUCTION_COUNT; red++) {
        check_scatter_nd_error(SGK_FLOAT32, seed_num(SEED_ov_text_example1, SEED_DATA),
                               IDX(ov1_ishape, idx_hi),
                               seed_num(SEED_ov_text_example1, SEED_UPDATES), (sgk_reduction)red,
                               SGK_ERR_INDEX_OUT_OF_RANGE);
        check_scatter_nd_error(SGK_INT32, seed_num(SEED_ov_text_example1, SEED_DATA),
                               IDX(ov1_ishape, idx_lo),
                               seed_num(SEED_ov_text_example1, SEED_UPDATES), (sgk_reduction)red,
                               SGK_ERR_INDEX_OUT_OF_RANGE);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ov_scatterndupdate15_example1_text),
        cmocka_unit_test(test_ov_scatterndupdate15_example1_none),
        cmocka_unit_test(test_ov_scatterndupdate15_example2_sum),
        cmocka_unit_test(test_ov_scatterndupdate15_example3_sub),
        cmocka_unit_test(test_ov_scatterndupdate15_example_prod),
        cmocka_unit_test(test_ov_scatterndupdate15_example5_shapes),
        cmocka_unit_test(test_ov_scatterndupdate15_scalar_update_as_1elem),
        cmocka_unit_test(test_ov_scatterndupdate15_bool_reductions),
        cmocka_unit_test(test_ov_scatterndupdate15_example1_index_out_of_range),
    };
    return cmocka_run_group_tests_name("test_seeds_scatter_nd_update", tests, NULL, NULL);
}
