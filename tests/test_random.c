/*
 * Randomized comparison of the library against tests/support/reference.c.
 *
 * Every case is built from a fixed seed (so runs are deterministic), is valid
 * by construction (its shapes and indices from tests/support/random_shapes.c,
 * its values from tests/support/random_values.c, both shared with the soak)
 * and is checked on every route by tests/support/random_case_checks.c, which
 * says how.  This file chooses the cases: every operator, type, reduction
 * and index type, small and large; ScatterND slices of the vector kernels'
 * lengths; Elements cases whose indices span data along lines.
 *
 * SGK_TEST_CASES=N caps the cases per operator, type and reduction (default:
 * 16 small scatters, 40 small gathers, 2 large), for runs under many
 * configurations (tests/test_reduce_paths.sh).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/common.h"
#include "support/random_case_checks.h"
#include "support/random_shapes.h"
#include "support/random_values.h"
#include "support/reference.h"
#include "registry/registry.h"
#include "sgk.h"
#include "support/tolerance.h"

#define SMALL_CASES_SCATTER 16
#define SMALL_CASES_GATHER 40

static uint64_t case_seed(int op, int dtype, int red, int n, uint64_t salt)
{
    return ((uint64_t)op << 48) ^ ((uint64_t)dtype << 40) ^ ((uint64_t)red << 32) ^
           (uint64_t)n ^ salt;
}

#define LARGE_LIMIT ((int64_t)1 << 18)

/* The small cases' shapes stay a few elements a side; the large ones reach
   ~10^5 elements (GatherND's indices of rank 4 throughout). */
static const shape_limits small_limits[] = {
    [OP_SCATTER_ND] = {.max_rank = 4, .max_index_rank = 4, .max_dim = 4, .max_index_dim = 3,
                       .empty_dims = 1},
    [OP_GATHER_ND] = {.max_rank = 4, .max_index_rank = 4, .max_dim = 4, .max_index_dim = 3,
                      .empty_dims = 1},
    [OP_SCATTER_ELEMENTS] = {.max_rank = 4, .max_dim = 4, .max_axis_len = 6, .empty_dims = 1},
    [OP_GATHER_ELEMENTS] = {.max_rank = 4, .max_dim = 4, .max_axis_len = 6, .empty_dims = 1},
};
static const shape_limits large_limits[] = {
    [OP_SCATTER_ND] = {.max_rank = 4, .max_index_rank = 3, .max_dim = 48, .max_index_dim = 32,
                       .empty_dims = 1},
    [OP_GATHER_ND] = {.max_rank = 4, .max_index_rank = 4, .max_dim = 40, .max_index_dim = 32,
                      .empty_dims = 1},
    [OP_SCATTER_ELEMENTS] = {.max_rank = 4, .max_dim = 40, .max_axis_len = 80, .empty_dims = 1},
    [OP_GATHER_ELEMENTS] = {.max_rank = 4, .max_dim = 40, .max_axis_len = 80, .empty_dims = 1},
};

static void generate_once(random_case *c, tc_rng *r, int large)
{
    const shape_limits *l = large ? &large_limits[c->op] : &small_limits[c->op];
    switch (c->op) {
    case OP_SCATTER_ND: random_scatter_nd_shapes(&c->shapes, r, l); break;
    case OP_GATHER_ND: random_gather_nd_shapes(&c->shapes, r, l); break;
    default: random_elements_shapes(&c->shapes, r, l); break;
    }
}

/* Large cases are redrawn (deterministically) until every tensor is below
   LARGE_LIMIT elements and the work is not trivially small. */
static void generate(random_case *c, tc_rng *r, int large)
{
    for (;;) {
        generate_once(c, r, large);
        if (!large)
            return;
        const random_shapes *s = &c->shapes;
        if (s->dn <= LARGE_LIMIT && s->in <= LARGE_LIMIT && s->un <= LARGE_LIMIT &&
            s->on <= LARGE_LIMIT && s->dn + s->un + s->on >= 16384)
            return;
        free(c->shapes.indices);
        c->shapes.indices = NULL;
    }
}

/* A case's header: its seed (from the combination and the case number), the
   generator seeded with it, and the first draw, the index type.  Shapes,
   threads and the test's name are the caller's. */
static void new_case(random_case *c, tc_rng *r, int op, int dt, int red, int n, uint64_t salt)
{
    memset(c, 0, sizeof *c);
    c->seed = case_seed(op, dt, red, n, salt);
    *r = (tc_rng){c->seed};
    c->op = op;
    c->dtype = (sgk_dtype)dt;
    c->red = (sgk_reduction)red;
    c->shapes.idtype = tc_rng_percent(r, 50) ? SGK_INT32 : SGK_INT64;
    c->threads = -1;
}

static void run_op(int op, int cases_per_combo, int large, uint64_t salt)
{
    int scatter = op == OP_SCATTER_ND || op == OP_SCATTER_ELEMENTS;
    for (int dt = 0; dt < SGK_DTYPE_COUNT; dt++) {
        for (int red = 0; red < SGK_REDUCTION_COUNT; red++) {
            if (!scatter && red != SGK_REDUCE_NONE)
                continue;
            if (!ref_reduction_supported((sgk_dtype)dt, (sgk_reduction)red))
                continue;
            for (int n = 0; n < cases_per_combo; n++) {
                random_case c;
                tc_rng r;
                new_case(&c, &r, op, dt, red, n, salt);
                if (large)
                    c.threads = (int)tc_rng_range(&r, 0, 2);
                c.test = large ? "large" : "small";
                generate(&c, &r, large);
                check_random_case(&c, &r);
            }
        }
    }
    if (large)
        sgk_set_num_threads(0);
}

/* ScatterND with k = 1 on [slots, len] data: whole slices of `len`
   elements, each slot hit several times (duplicates).  The lengths straddle
   the vector kernels' cases: a single element, shorter than a vector, full
   vectors plus a tail. */
static const int64_t slice_lens[] = {1, 3, 17, 64, 129};

static void run_slices(uint64_t salt)
{
    for (int dt = 0; dt < SGK_DTYPE_COUNT; dt++) {
        for (int red = 0; red < SGK_REDUCTION_COUNT; red++) {
            if (!ref_reduction_supported((sgk_dtype)dt, (sgk_reduction)red))
                continue;
            for (size_t l = 0; l < sizeof slice_lens / sizeof *slice_lens; l++) {
                random_case c;
                tc_rng r;
                new_case(&c, &r, OP_SCATTER_ND, dt, red, (int)l, salt);
                random_shapes *s = &c.shapes;
                c.test = "slices";
                s->drank = s->urank = s->irank = 2;
                s->dshape[0] = tc_rng_range(&r, 1, 5);
                s->dshape[1] = slice_lens[l];
                s->ishape[0] = s->ushape[0] = tc_rng_range(&r, 6, 16);
                s->ishape[1] = 1;
                s->ushape[1] = slice_lens[l];
                random_shapes_count(s);
                s->indices = random_indices(&r, s->idtype, s->in, s->dshape, 1, 1);
                check_random_case(&c, &r);
            }
        }
    }
}

static void test_slices(void **state)
{
    (void)state;
    int before = random_cases_so_far().failures;
    run_slices(0x511CE000ull);
    assert_int_equal(random_cases_so_far().failures - before, 0);
}

/* Scatter/GatherElements whose indices span data in every dimension but
   the axis (one-shot calls take them line by line, reading the index values
   as they go).  Small cases of random rank and axis; and one case per cell
   whose lines, 260 long and a page plus 37 elements wide, are more than a
   cache block for one outer position, so that threads take them in
   page-wide columns with a narrower last one; and cases along the last
   axis, with more pairs than a tiny call takes, whose one-shot calls keep
   16-bit slots in the line (gathers: of 4-byte elements; axes of 300
   slots, and of 65536, the most 16 bits hold: one line, which the lines
   path takes only on one thread).  Gathers this small, and
   those scatters, take the lines path only where tests/matrix.sh forces
   the parallel paths on small cases (else the direct path takes them),
   and scatters not where tests/test_reduce_paths.sh forces a reduction
   path. */
static void run_lines(int op, uint64_t salt)
{
    for (int dt = 0; dt < SGK_DTYPE_COUNT; dt++) {
        for (int red = 0; red < SGK_REDUCTION_COUNT; red++) {
            if ((op == OP_GATHER_ELEMENTS && red != SGK_REDUCE_NONE) ||
                !ref_reduction_supported((sgk_dtype)dt, (sgk_reduction)red))
                continue;
            for (int n = 0; n < 6; n++) {
                const int columns = n == 3, last_axis = n >= 4;
                random_case c;
                tc_rng r;
                new_case(&c, &r, op, dt, red, n, salt);
                random_shapes *s = &c.shapes;
                if (columns || last_axis)
                    c.threads = (int)tc_rng_range(&r, 0, 2);
                c.test = columns     ? "lines in columns"
                         : last_axis ? "lines along the last axis"
                                     : "lines";
                if (columns) {
                    s->drank = 3;
                    s->dshape[0] = 2;
                    s->dshape[1] = 260;
                    s->dshape[2] = 4096 / (int64_t)tc_dtype_size(c.dtype) + 37;
                    s->axis = tc_rng_percent(&r, 50) ? 1 : -2;
                } else if (last_axis) {
                    s->drank = 2;
                    s->dshape[0] = n == 4 ? 3 : 1;
                    s->dshape[1] = n == 4 ? 300 : 65536;
                    s->axis = tc_rng_percent(&r, 50) ? 1 : -1;
                } else {
                    s->drank = (int32_t)tc_rng_range(&r, 1, 3);
                    for (int32_t d = 0; d < s->drank; d++)
                        s->dshape[d] = tc_rng_range(&r, 1, 6);
                    s->axis = tc_rng_range(&r, -s->drank, s->drank - 1);
                }
                int32_t ax = (int32_t)(s->axis < 0 ? s->axis + s->drank : s->axis);
                s->irank = s->urank = s->orank = s->drank;
                for (int32_t d = 0; d < s->drank; d++)
                    s->ishape[d] = d != ax ? s->dshape[d]
                                   : last_axis ? tc_rng_range(&r, 120, 700)
                                               : tc_rng_range(&r, 1, 12);
                memcpy(s->ushape, s->ishape, sizeof s->ishape);
                memcpy(s->oshape, s->ishape, sizeof s->ishape);
                random_shapes_count(s);
                s->indices = random_indices(&r, s->idtype, s->in, &s->dshape[ax], 1,
                                            tc_rng_percent(&r, 30));
                check_random_case(&c, &r);
            }
        }
    }
    sgk_set_num_threads(0);
}

static void test_lines(void **state)
{
    (void)state;
    int before = random_cases_so_far().failures;
    run_lines(OP_SCATTER_ELEMENTS, 0x11E50000ull);
    run_lines(OP_GATHER_ELEMENTS, 0x11E50000ull);
    assert_int_equal(random_cases_so_far().failures - before, 0);
}

/* ---- tests ------------------------------------------------------------ */

static const int ops[] = {OP_SCATTER_ND, OP_GATHER_ND, OP_SCATTER_ELEMENTS, OP_GATHER_ELEMENTS};

/* SGK_TEST_CASES caps the cases per combination (see the top of the file). */
static int cases_per_combo(int usual)
{
    const char *v = getenv("SGK_TEST_CASES");
    int cap = v != NULL ? atoi(v) : 0;
    return cap > 0 && cap < usual ? cap : usual;
}

static void test_small(void **state)
{
    int op = *(const int *)*state;
    int before = random_cases_so_far().failures;
    run_op(op, cases_per_combo(op == OP_SCATTER_ND || op == OP_SCATTER_ELEMENTS
                                   ? SMALL_CASES_SCATTER
                                   : SMALL_CASES_GATHER),
           0, 0x5EED0000ull);
    assert_int_equal(random_cases_so_far().failures - before, 0);
}

/* Fewer, bigger cases (up to ~10^5 elements) so that parallel and
   duplicate-segment paths are taken, with 1, 2 and the default threads. */
static void test_large(void **state)
{
    int op = *(const int *)*state;
    int before = random_cases_so_far().failures;
    run_op(op, cases_per_combo(2), 1, 0x1A46E000ull);
    assert_int_equal(random_cases_so_far().failures - before, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        {"small_scatter_nd", test_small, NULL, NULL, (void *)&ops[0]},
        {"small_gather_nd", test_small, NULL, NULL, (void *)&ops[1]},
        {"small_scatter_elements", test_small, NULL, NULL, (void *)&ops[2]},
        {"small_gather_elements", test_small, NULL, NULL, (void *)&ops[3]},
        {"slices", test_slices, NULL, NULL, NULL},
        {"lines", test_lines, NULL, NULL, NULL},
        {"large_scatter_nd", test_large, NULL, NULL, (void *)&ops[0]},
        {"large_gather_nd", test_large, NULL, NULL, (void *)&ops[1]},
        {"large_scatter_elements", test_large, NULL, NULL, (void *)&ops[2]},
        {"large_gather_elements", test_large, NULL, NULL, (void *)&ops[3]},
    };
    int rc = cmocka_run_group_tests_name("test_random", tests, NULL, NULL);
    random_case_counts n = random_cases_so_far();
    printf("test_random: %ld cases, %d failures", n.cases, n.failures);
    if (tol_env_allows_reorder() || n.unjudged_elements > 0)
        printf("; reordered results: %" PRId64 " elements had no order-free answer, not judged",
               n.unjudged_elements);
    printf("\n");
    return rc;
}
