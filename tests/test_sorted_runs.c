/*
 * The sorted-runs path (src/paths/sorted_runs.c): one-shot scatters whose
 * index turns out to be sorted, taken by the automatic choice, exact bit
 * for bit against the reference (tests/support/reference.c) for every
 * element type, reduction and index type, with negative indices and
 * without, copying and in place; indices sorted but for one pair, which
 * another path must serve as exactly; and a bad last index, one past
 * either end, which must leave the output untouched.  (Forced by
 * SGK_PATH, the path is tested with the others: tests/test_forced_paths.c.)
 *
 * Problems are just large enough that the direct path, for few pairs, does
 * not take them (its threshold is SGK_PARALLEL_MIN_BYTES, 0 in most of
 * tests/matrix.sh's configurations): rows of 16 elements, eight updates a
 * row on average.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry/registry.h"
#include "support/common.h"
#include "support/reference.h"

enum { LEN = 16, MIN_PAIRS = 4096 };

/* How the sorted slots fall: about twelve updates a row in runs, some rows
   none; every pair on one row (a run longer than any thread's share); or
   few pairs far apart (long stretches of rows copied). */
typedef enum { RUNS, ONE_ROW, SPARSE } layout;

/* The traffic below which one-shot calls stay on the calling thread, as
   the runtime reports it. */
static int64_t parallel_min_bytes(void)
{
    const char *at = strstr(sgk_runtime_describe(), "parallel above ");
    long long bytes = 0;
    if (at == NULL || sscanf(at, "parallel above %lld", &bytes) != 1)
        fail_msg("the runtime does not say where loops go parallel: %s",
                 sgk_runtime_describe());
    return bytes;
}

/* Pairs enough that the direct path leaves the call to the others. */
static int64_t pairs_for(sgk_dtype dtype)
{
    const int64_t per_pair = 8 + 2 * LEN * (int64_t)tc_dtype_size(dtype);
    const int64_t pairs = parallel_min_bytes() / per_pair * 5 / 4 + 1;
    return pairs > MIN_PAIRS ? pairs : MIN_PAIRS;
}

/* Whether the environment forces a path, which then takes the calls. */
static bool forcing(void)
{
    const char *p = getenv("SGK_PATH"), *r = getenv("SGK_REDUCE_PATH");
    return (p != NULL && strcmp(p, "auto") != 0) || (r != NULL && strcmp(r, "auto") != 0);
}

static const char *const strings[] = {"a", "b", "c", "d"};

/* Values whose float sums change with their order in the last bits. */
static void fill_values(tc_rng *r, sgk_dtype t, void *p, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        const double u = tc_rng_uniform(r, -4.0, 4.0);
        switch (t) {
        case SGK_BOOL: ((uint8_t *)p)[i] = (uint8_t)tc_rng_below(r, 2); break;
        case SGK_FLOAT16: ((uint16_t *)p)[i] = ref_f32_to_f16((float)u); break;
        case SGK_BFLOAT16: ((uint16_t *)p)[i] = ref_f32_to_bf16((float)u); break;
        case SGK_FLOAT32: ((float *)p)[i] = (float)u; break;
        case SGK_FLOAT64: ((double *)p)[i] = u; break;
        case SGK_COMPLEX64:
            ((float *)p)[2 * i] = (float)u, ((float *)p)[2 * i + 1] = (float)-u;
            break;
        case SGK_COMPLEX128: ((double *)p)[2 * i] = u, ((double *)p)[2 * i + 1] = u / 3; break;
        case SGK_STRING: ((const char **)p)[i] = strings[tc_rng_below(r, 4)]; break;
        default: {
            const uint64_t bits = tc_rng_next(r);
            memcpy((uint8_t *)p + (size_t)i * tc_dtype_size(t), &bits, tc_dtype_size(t));
        }
        }
    }
}

/* n sorted slots in [0, rows) laid out as asked, every third written as
   its negative alias. */
static void sorted_index(tc_rng *r, layout how, sgk_dtype index_dtype, int64_t n, int64_t rows,
                         void *idx)
{
    int64_t *per_row = calloc((size_t)rows, sizeof *per_row);
    assert_non_null(per_row);
    for (int64_t k = 0; k < n; k++)
        per_row[how == ONE_ROW   ? rows / 2
                : how == SPARSE ? tc_rng_below(r, rows / 64) * 64
                                : tc_rng_below(r, rows)]++;
    for (int64_t row = 0, k = 0; row < rows; row++)
        for (int64_t j = 0; j < per_row[row]; j++, k++) {
            const int64_t v = tc_rng_below(r, 3) == 0 ? row - rows : row;
            if (index_dtype == SGK_INT32)
                ((int32_t *)idx)[k] = (int32_t)v;
            else
                ((int64_t *)idx)[k] = v;
        }
    free(per_row);
}

static void set_index(sgk_dtype index_dtype, void *idx, int64_t k, int64_t v)
{
    if (index_dtype == SGK_INT32)
        ((int32_t *)idx)[k] = (int32_t)v;
    else
        ((int64_t *)idx)[k] = v;
}

/* One problem: ScatterND of rows, or ScatterElements along axis 0 with
   the index constant along each row (whole rows). */
typedef struct {
    bool elements;
    sgk_dtype dtype, index_dtype;
    sgk_reduction reduction;
    int64_t pairs, rows;
    sgk_tensor data, indices, updates;
    int64_t dshape[2], ishape[2], ushape[2];
    void *data_buf, *idx, *upd;
    size_t out_bytes;
} problem;

static void make_problem(problem *p, bool elements, sgk_dtype dtype, sgk_dtype index_dtype,
                         sgk_reduction reduction, layout how, uint64_t seed)
{
    tc_rng r = {seed};
    const size_t es = tc_dtype_size(dtype), is = tc_dtype_size(index_dtype);
    const int64_t pairs = pairs_for(dtype), rows = pairs / 8;
    *p = (problem){.elements = elements, .dtype = dtype, .index_dtype = index_dtype,
                   .reduction = reduction, .pairs = pairs, .rows = rows};
    p->dshape[0] = rows, p->dshape[1] = LEN;
    p->ishape[0] = pairs, p->ishape[1] = elements ? LEN : 1;
    p->ushape[0] = pairs, p->ushape[1] = LEN;
    p->out_bytes = (size_t)rows * LEN * es;
    p->data_buf = xmalloc(p->out_bytes);
    p->upd = xmalloc((size_t)pairs * LEN * es);
    p->idx = xmalloc((size_t)(pairs * p->ishape[1]) * is);
    fill_values(&r, dtype, p->data_buf, rows * LEN);
    fill_values(&r, dtype, p->upd, pairs * LEN);
    sorted_index(&r, how, index_dtype, pairs, rows, p->idx);
    /* whole rows: each row's value along it, from the last row back */
    for (int64_t k = pairs - 1; elements && k >= 0; k--) {
        const int64_t v = index_dtype == SGK_INT32 ? ((int32_t *)p->idx)[k]
                                                   : ((int64_t *)p->idx)[k];
        for (int64_t e = 0; e < LEN; e++)
            set_index(index_dtype, p->idx, k * LEN + e, v);
    }
    p->data = (sgk_tensor){dtype, 2, p->dshape, p->data_buf};
    p->indices = (sgk_tensor){index_dtype, 2, p->ishape, p->idx};
    p->updates = (sgk_tensor){dtype, 2, p->ushape, p->upd};
}

static void free_problem(problem *p)
{
    free(p->data_buf), free(p->idx), free(p->upd);
}

/* Pair k's index set to v, along its whole row for ScatterElements. */
static void set_pair(problem *p, int64_t k, int64_t v)
{
    for (int64_t e = 0; e < p->ishape[1]; e++)
        set_index(p->index_dtype, p->idx, k * p->ishape[1] + e, v);
}

/* Each negative index replaced by the same row counted from the front:
   int64 indices none of which is negative are checked and used as they
   lie (sgk_slots_of_range). */
static void drop_negatives(problem *p)
{
    for (int64_t k = 0; k < p->pairs; k++) {
        const int64_t at = k * p->ishape[1];
        const int64_t v = p->index_dtype == SGK_INT32 ? ((const int32_t *)p->idx)[at]
                                                      : ((const int64_t *)p->idx)[at];
        set_pair(p, k, v < 0 ? v + p->rows : v);
    }
}

static sgk_status call(const problem *p, const sgk_tensor *data, void *out)
{
    return p->elements ? sgk_scatter_elements(data, &p->indices, &p->updates, 0, p->reduction, out)
                       : sgk_scatter_nd(data, &p->indices, &p->updates, p->reduction, out);
}

static void reference(const problem *p, void *out)
{
    if (p->elements)
        ref_scatter_elements(&p->data, &p->indices, &p->updates, 0, p->reduction, out);
    else
        ref_scatter_nd(&p->data, &p->indices, &p->updates, p->reduction, out);
}

static void compare(const problem *p, const char *how, const void *want, const void *got)
{
    const size_t es = tc_dtype_size(p->dtype);
    for (int64_t i = 0; i < p->rows * LEN; i++)
        if (!ref_same_result(p->dtype, p->reduction, (const char *)want + i * es,
                             (const char *)got + i * es))
            fail_msg("%s %s %s, %s indices, %s: element %lld differs from the reference",
                     p->elements ? "scatter_elements" : "scatter_nd", tc_dtype_name(p->dtype),
                     tc_reduction_name(p->reduction), tc_dtype_name(p->index_dtype), how,
                     (long long)i);
}

/* Runs p one-shot, copying and in place, against the reference; the path
   taken must be sorted-runs exactly when `sorted_path` says so. */
static void check_problem(const problem *p, bool sorted_path)
{
    void *want = xmalloc(p->out_bytes), *got = xmalloc(p->out_bytes);
    reference(p, want);
    CHECK_OK(call(p, &p->data, got));
    const char *path = sgk_last_path();
    if (!forcing() && sorted_path != (path != NULL && strcmp(path, "sorted-runs") == 0))
        fail_msg("%s %s: took path %s", tc_dtype_name(p->dtype),
                 tc_reduction_name(p->reduction), path ? path : "(none)");
    compare(p, "copying", want, got);
    memcpy(got, p->data_buf, p->out_bytes);
    const sgk_tensor in_place = {p->dtype, 2, p->dshape, got};
    CHECK_OK(call(p, &in_place, got));
    compare(p, "in place", want, got);
    free(want), free(got);
}

static const sgk_dtype index_types[] = {SGK_INT32, SGK_INT64};

/* Every cell of the semantics table, both index types, one layout each in
   turn. */
static void every_cell(bool elements)
{
    int n = 0;
    for (int t = 0; t < SGK_DTYPE_COUNT; t++)
        for (int red = 0; red < SGK_REDUCTION_COUNT; red++)
            for (int i = 0; i < 2; i++) {
                if (!ref_reduction_supported((sgk_dtype)t, (sgk_reduction)red))
                    continue;
                problem p;
                make_problem(&p, elements, (sgk_dtype)t, index_types[i], (sgk_reduction)red,
                             (layout)(n % 3), 0x50A7ED00u + (uint64_t)n);
                if (n / 3 % 2 == 1)
                    drop_negatives(&p);
                check_problem(&p, true);
                free_problem(&p);
                n++;
            }
}

static void test_scatter_nd_every_cell(void **state)
{
    (void)state;
    every_cell(false);
}

static void test_scatter_elements_whole_rows(void **state)
{
    (void)state;
    every_cell(true);
}

/* Sorted but for one pair, at the end, in the middle or at the start: the
   path declines after reading the index, and the one that takes over is
   as exact. */
static void test_one_pair_out_of_order(void **state)
{
    (void)state;
    for (int e = 0; e < 2; e++)
        for (int k = 0; k < 3; k++)
            for (int red = SGK_REDUCE_NONE; red <= SGK_REDUCE_MAX; red += 2) {
                problem p;
                make_problem(&p, e == 1, SGK_FLOAT32, index_types[k % 2], (sgk_reduction)red,
                             RUNS, 0x0DD00u + (uint64_t)(k * 8 + red));
                const int64_t at = k == 0 ? p.pairs - 1 : k == 1 ? p.pairs / 2 : 0;
                /* below its predecessor, or above its successor at the start */
                set_pair(&p, at, at == 0 ? p.rows - 1 : 0);
                check_problem(&p, false);
                free_problem(&p);
            }
}

/* A bad index in the last pair: found before the first write, the output
   (or, in place, the data) is left as it was, and the error names it. */
static void test_bad_last_index_leaves_output(void **state)
{
    (void)state;
    for (int e = 0; e < 2; e++)
        for (int t = 0; t < 8; t++) {
            problem p;
            make_problem(&p, e == 1, SGK_FLOAT32, index_types[t % 2], SGK_REDUCE_ADD, RUNS,
                         0xBAD0u + (uint64_t)(e * 8 + t));
            if (t >= 4)
                drop_negatives(&p);
            /* one past either end */
            set_pair(&p, p.pairs - 1, t % 4 < 2 ? p.rows : -p.rows - 1);
            void *out = xmalloc(p.out_bytes), *before = xmalloc(p.out_bytes);
            tc_fill_pattern(out, p.out_bytes);
            memcpy(before, out, p.out_bytes);
            sgk_status st = call(&p, &p.data, out);
            assert_int_equal(st, SGK_ERR_INDEX_OUT_OF_RANGE);
            char position[32];
            snprintf(position, sizeof position, "[%lld", (long long)p.pairs - 1);
            if (strstr(tc_last_error(), position) == NULL)
                fail_msg("the error does not name pair %s]: %s", position, tc_last_error());
            if (tc_first_difference(out, before, p.out_bytes) != p.out_bytes)
                fail_msg("a failed call wrote its output");
            memcpy(out, p.data_buf, p.out_bytes);
            const sgk_tensor in_place = {p.dtype, 2, p.dshape, out};
            assert_int_equal(call(&p, &in_place, out), SGK_ERR_INDEX_OUT_OF_RANGE);
            if (tc_first_difference(out, p.data_buf, p.out_bytes) != p.out_bytes)
                fail_msg("a failed call in place changed the data");
            free(out), free(before);
            free_problem(&p);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scatter_nd_every_cell),
        cmocka_unit_test(test_scatter_elements_whole_rows),
        cmocka_unit_test(test_one_pair_out_of_order),
        cmocka_unit_test(test_bad_last_index_leaves_output),
    };
    return cmocka_run_group_tests_name("sorted runs", tests, NULL, NULL);
}
