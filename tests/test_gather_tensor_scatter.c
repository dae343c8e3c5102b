/*
 * Gather and TensorScatter against tests/support/reference.c: random cases of every
 * element type, both index types, every axis (negative ones too) and both
 * TensorScatter modes, valid by construction and checked bit for bit
 * through every route a caller has:
 *   gather:         sgk_gather_shape, the one-shot call, a plan executed on
 *                   two data buffers after the caller's indices were
 *                   overwritten;
 *   tensor_scatter: the one-shot call copying and in place, a plan
 *                   executed copying and twice in place (the second time on
 *                   the cache the first left), after the caller's write
 *                   indices were overwritten.
 * Outputs carry a guard zone that must survive.  Large cases reach the
 * parallel paths (row gathers read in source order, element gathers, the
 * distinct-slices scatter); tests/matrix.sh runs the program at 1, 2 and 4
 * threads and under SGK_SIMD=scalar, tests/test_reduce_paths.sh with every
 * scatter path forced.  Values are random bytes (strings: pointers never
 * dereferenced): both operators only move elements.
 *
 * SGK_TEST_CASES=N caps the random cases per type and index type (default
 * 24).
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
#include "registry/registry.h"
#include "support/reference.h"
#include "sgk.h"

#define GUARD 64
#define GUARD_BYTE 0xA5
#define DEFAULT_CASES 24
#define MAX_DIMS 8

static int cases_per_combination(void)
{
    const char *env = getenv("SGK_TEST_CASES");
    int n = env != NULL ? atoi(env) : 0;
    return n > 0 ? n : DEFAULT_CASES;
}

static void *random_bytes(tc_rng *r, size_t n)
{
    uint8_t *p = xmalloc(n);
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)tc_rng_next(r);
    return p;
}

/* An output buffer of n bytes plus the guard, 64-byte aligned (the row
   gather reads in source order only into line-aligned outputs). */
static uint8_t *alloc_out(size_t n)
{
    size_t total = (n + GUARD + 63) / 64 * 64;
    uint8_t *p = aligned_alloc(64, total);
    if (p == NULL)
        abort();
    memset(p, GUARD_BYTE, total);
    return p;
}

static const char *shape_text(char *buf, size_t size, int32_t rank, const int64_t *shape)
{
    size_t used = (size_t)snprintf(buf, size, "[");
    for (int32_t d = 0; d < rank && used < size; d++)
        used += (size_t)snprintf(buf + used, size - used, "%s%" PRId64, d ? "," : "", shape[d]);
    if (used < size)
        snprintf(buf + used, size - used, "]");
    return buf;
}

/* Fails the test with the case's description unless actual holds the n
   expected bytes and its guard is intact. */
static void check_result(const char *what, const char *route, const uint8_t *expected,
                         const uint8_t *actual, size_t n)
{
    size_t at = tc_first_difference(expected, actual, n);
    if (at < n)
        fail_msg("%s, %s: byte %zu differs from the reference (%s)", what, route, at,
                 tc_last_error());
    if (tc_first_byte_not(actual + n, GUARD_BYTE, GUARD) < GUARD)
        fail_msg("%s, %s: wrote past the end of the output", what, route);
}

static void write_index_values(void *buf, sgk_dtype idtype, const int64_t *values, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        if (idtype == SGK_INT32) {
            int32_t v = (int32_t)values[i];
            memcpy((char *)buf + i * 4, &v, 4);
        } else {
            memcpy((char *)buf + i * 8, &values[i], 8);
        }
    }
}

/* ---- Gather --------------------------------------------------------------- */

typedef struct {
    sgk_dtype dtype, idtype;
    int32_t drank, irank;
    int64_t dshape[MAX_DIMS], ishape[MAX_DIMS];
    int64_t axis;
} gather_case;

static void run_gather(const gather_case *c, tc_rng *r)
{
    const size_t es = tc_dtype_size(c->dtype), is = tc_dtype_size(c->idtype);
    const int32_t ax = (int32_t)(c->axis < 0 ? c->axis + c->drank : c->axis);
    const int64_t dn = tc_numel(c->drank, c->dshape), in = tc_numel(c->irank, c->ishape);
    const int64_t axis_dim = c->dshape[ax];
    int64_t *values = xmalloc((size_t)in * sizeof *values);
    for (int64_t i = 0; i < in; i++)
        values[i] = tc_rng_range(r, -axis_dim, axis_dim - 1);
    void *indices = xmalloc((size_t)in * is);
    write_index_values(indices, c->idtype, values, in);

    int64_t oshape[2 * MAX_DIMS];
    int32_t orank = 0;
    for (int32_t d = 0; d < ax; d++)
        oshape[orank++] = c->dshape[d];
    for (int32_t d = 0; d < c->irank; d++)
        oshape[orank++] = c->ishape[d];
    for (int32_t d = ax + 1; d < c->drank; d++)
        oshape[orank++] = c->dshape[d];
    const int64_t on = tc_numel(orank, oshape);
    const size_t obytes = (size_t)on * es;

    char what[256], ds[96], is_[96];
    snprintf(what, sizeof what, "gather %s data %s indices %s (%s) axis %" PRId64,
             tc_dtype_name(c->dtype), shape_text(ds, sizeof ds, c->drank, c->dshape),
             shape_text(is_, sizeof is_, c->irank, c->ishape), tc_dtype_name(c->idtype),
             c->axis);

    uint8_t *data = random_bytes(r, (size_t)dn * es), *data2 = random_bytes(r, (size_t)dn * es);
    sgk_tensor d = {c->dtype, c->drank, c->dshape, data};
    sgk_tensor i = {c->idtype, c->irank, c->ishape, indices};
    uint8_t *expected = alloc_out(obytes), *expected2 = alloc_out(obytes);
    ref_gather(&d, &i, c->axis, expected);
    d.data = data2;
    ref_gather(&d, &i, c->axis, expected2);
    d.data = data;

    int64_t shape[2 * MAX_DIMS];
    int32_t rank = -1;
    CHECK_OK(sgk_gather_shape(&d, &i, c->axis, shape, &rank));
    if (rank != orank || memcmp(shape, oshape, sizeof *shape * (size_t)orank) != 0)
        fail_msg("%s: sgk_gather_shape gave rank %d", what, (int)rank);

    uint8_t *out = alloc_out(obytes);
    CHECK_OK(sgk_gather(&d, &i, c->axis, out));
    check_result(what, "one-shot", expected, out, obytes);

    sgk_plan *plan = NULL;
    CHECK_OK(sgk_plan_gather(&plan, &d, &i, c->axis, 0));
    memset(indices, 0x7F, (size_t)in * is); /* the plan keeps no pointer to them */
    memset(out, GUARD_BYTE, obytes + GUARD);
    CHECK_OK(sgk_execute(plan, data, NULL, out));
    check_result(what, "plan", expected, out, obytes);
    CHECK_OK(sgk_execute(plan, data2, NULL, out));
    check_result(what, "plan, other data", expected2, out, obytes);
    if (strstr(sgk_plan_describe(plan), "gather") == NULL)
        fail_msg("%s: description \"%s\"", what, sgk_plan_describe(plan));
    sgk_plan_destroy(plan);

    free(values);
    free(indices);
    free(data);
    free(data2);
    free(expected);
    free(expected2);
    free(out);
}


/* Ranks 1-4 of data, 0-3 of indices, dimensions 0-5 (now and then 0, but
   never an empty axis under indices that must index it). */
static void test_gather_random(void **state)
{
    (void)state;
    tc_rng r = {0x9a7e5};
    const int cases = cases_per_combination();
    for (int t = 0; t < SGK_DTYPE_COUNT; t++)
        for (int ix = 0; ix < 2; ix++)
            for (int n = 0; n < cases; n++) {
                gather_case c = {.dtype = (sgk_dtype)t, .idtype = ix ? SGK_INT64 : SGK_INT32};
                c.drank = (int32_t)tc_rng_range(&r, 1, 4);
                c.irank = (int32_t)tc_rng_range(&r, 0, 3);
                for (int32_t d = 0; d < c.drank; d++)
                    c.dshape[d] = tc_rng_percent(&r, 5) ? 0 : tc_rng_range(&r, 1, 5);
                for (int32_t d = 0; d < c.irank; d++)
                    c.ishape[d] = tc_rng_percent(&r, 5) ? 0 : tc_rng_range(&r, 1, 4);
                c.axis = tc_rng_range(&r, -c.drank, c.drank - 1);
                const int32_t ax = (int32_t)(c.axis < 0 ? c.axis + c.drank : c.axis);
                if (c.dshape[ax] == 0 && tc_numel(c.irank, c.ishape) > 0)
                    c.dshape[ax] = 1;
                run_gather(&c, &r);
            }
}

/* Sizes past SGK_PARALLEL_MIN_BYTES: an embedding lookup of 1 KiB rows
   (read in source order), a gather of single 4- and 8-byte elements along
   the last axis (vector gathers), a batched head selection along axis 1. */
static void test_gather_large(void **state)
{
    (void)state;
    tc_rng r = {0x1a59e};
    const gather_case cases[] = {
        {SGK_FLOAT32, SGK_INT64, 2, 1, {3000, 256}, {8192}, 0},
        {SGK_FLOAT32, SGK_INT32, 2, 2, {512, 1024}, {16, 40}, -1},
        {SGK_INT64, SGK_INT64, 2, 1, {300, 2000}, {700}, 1},
        {SGK_FLOAT16, SGK_INT32, 3, 1, {64, 512, 32}, {300}, 1},
        {SGK_BFLOAT16, SGK_INT64, 4, 2, {4, 8, 256, 64}, {3, 50}, -2},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        run_gather(&cases[k], &r);
}

/* ---- TensorScatter ----------------------------------------------------------- */

typedef struct {
    sgk_dtype dtype, idtype;
    int32_t rank;
    int64_t cshape[MAX_DIMS];
    int64_t seq_len;
    int64_t axis;
    sgk_tensor_scatter_mode mode;
    int with_indices; /* 0: write_indices NULL (zeros) */
} ts_case;

/* Write indices valid for the case: [0, S - s] linear; anything circular,
   often beyond [0, S) and negative, and with int64 now and then near the
   ends of the type. */
static int64_t random_write_index(const ts_case *c, tc_rng *r, int64_t max_len)
{
    if (c->mode == SGK_TENSOR_SCATTER_LINEAR)
        return tc_rng_range(r, 0, max_len - c->seq_len);
    if (c->idtype == SGK_INT64 && tc_rng_percent(r, 10))
        return tc_rng_percent(r, 50) ? INT64_MAX - tc_rng_below(r, 8)
                                     : INT64_MIN + tc_rng_below(r, 8);
    return tc_rng_range(r, -3 * max_len - 2, 3 * max_len + 2);
}

static void run_tensor_scatter(const ts_case *c, tc_rng *r)
{
    const size_t es = tc_dtype_size(c->dtype), is = tc_dtype_size(c->idtype);
    const int32_t ax = (int32_t)(c->axis < 0 ? c->axis + c->rank : c->axis);
    int64_t ushape[MAX_DIMS];
    memcpy(ushape, c->cshape, sizeof ushape);
    ushape[ax] = c->seq_len;
    const int64_t cn = tc_numel(c->rank, c->cshape), un = tc_numel(c->rank, ushape);
    const int64_t batch = c->cshape[0];
    const size_t cbytes = (size_t)cn * es, ubytes = (size_t)un * es;

    int64_t *values = xmalloc((size_t)batch * sizeof *values);
    for (int64_t b = 0; b < batch; b++)
        values[b] = random_write_index(c, r, c->cshape[ax]);
    void *wbuf = xmalloc((size_t)batch * is);
    write_index_values(wbuf, c->idtype, values, batch);
    const int64_t wshape[1] = {batch};
    sgk_tensor w = {c->idtype, 1, wshape, wbuf};
    const sgk_tensor *wp = c->with_indices ? &w : NULL;

    char what[256], cs[96], us[96];
    snprintf(what, sizeof what,
             "tensor_scatter %s cache %s update %s axis %" PRId64 " %s, write_indices %s",
             tc_dtype_name(c->dtype), shape_text(cs, sizeof cs, c->rank, c->cshape),
             shape_text(us, sizeof us, c->rank, ushape), c->axis,
             c->mode == SGK_TENSOR_SCATTER_LINEAR ? "linear" : "circular",
             c->with_indices ? tc_dtype_name(c->idtype) : "absent");

    uint8_t *cache = random_bytes(r, cbytes), *update = random_bytes(r, ubytes);
    uint8_t *update2 = random_bytes(r, ubytes);
    sgk_tensor ct = {c->dtype, c->rank, c->cshape, cache};
    sgk_tensor ut = {c->dtype, c->rank, ushape, update};
    uint8_t *expected = alloc_out(cbytes), *expected2 = alloc_out(cbytes);
    ref_tensor_scatter(&ct, &ut, wp, c->axis, c->mode, expected);
    /* the second in-place execution starts from the first's result */
    ct.data = expected;
    ut.data = update2;
    ref_tensor_scatter(&ct, &ut, wp, c->axis, c->mode, expected2);
    ct.data = cache;
    ut.data = update;

    uint8_t *out = alloc_out(cbytes);
    CHECK_OK(sgk_tensor_scatter(&ct, &ut, wp, c->axis, c->mode, out));
    check_result(what, "one-shot", expected, out, cbytes);

    memcpy(out, cache, cbytes);
    ct.data = out;
    CHECK_OK(sgk_tensor_scatter(&ct, &ut, wp, c->axis, c->mode, out));
    check_result(what, "one-shot in place", expected, out, cbytes);
    ct.data = cache;

    sgk_plan *plan = NULL;
    sgk_tensor shapes_only = {c->dtype, c->rank, c->cshape, NULL};
    sgk_tensor update_shape = {c->dtype, c->rank, ushape, NULL};
    CHECK_OK(sgk_plan_tensor_scatter(&plan, &shapes_only, &update_shape, wp, c->axis, c->mode,
                                     0));
    memset(wbuf, 0x7F, (size_t)batch * is); /* the plan keeps no pointer to them */
    memset(out, GUARD_BYTE, cbytes + GUARD);
    CHECK_OK(sgk_execute(plan, cache, update, out));
    check_result(what, "plan", expected, out, cbytes);
    memcpy(out, cache, cbytes);
    CHECK_OK(sgk_execute(plan, out, update, out));
    check_result(what, "plan in place", expected, out, cbytes);
    CHECK_OK(sgk_execute(plan, out, update2, out));
    check_result(what, "plan in place, next step", expected2, out, cbytes);
    if (strstr(sgk_plan_describe(plan), "tensor_scatter") == NULL)
        fail_msg("%s: description \"%s\"", what, sgk_plan_describe(plan));
    sgk_plan_destroy(plan);

    free(values);
    free(wbuf);
    free(cache);
    free(update);
    free(update2);
    free(expected);
    free(expected2);
    free(out);
}

/* Ranks 2-5, dimensions 0-5, the sequence any axis but the batch's, the
   update any length up to the whole sequence. */
static void test_tensor_scatter_random(void **state)
{
    (void)state;
    tc_rng r = {0x75ca7};
    const int cases = cases_per_combination();
    for (int t = 0; t < SGK_DTYPE_COUNT; t++)
        for (int ix = 0; ix < 2; ix++)
            for (int mode = 0; mode < 2; mode++)
                for (int n = 0; n < cases; n++) {
                    ts_case c = {.dtype = (sgk_dtype)t,
                                 .idtype = ix ? SGK_INT64 : SGK_INT32,
                                 .mode = (sgk_tensor_scatter_mode)mode,
                                 .with_indices = !tc_rng_percent(&r, 15)};
                    c.rank = (int32_t)tc_rng_range(&r, 2, 5);
                    for (int32_t d = 0; d < c.rank; d++)
                        c.cshape[d] = tc_rng_percent(&r, 4) ? 0 : tc_rng_range(&r, 1, 5);
                    const int32_t ax = (int32_t)tc_rng_range(&r, 1, c.rank - 1);
                    c.axis = tc_rng_percent(&r, 50) ? ax : ax - c.rank;
                    c.seq_len = tc_rng_range(&r, 0, c.cshape[ax]);
                    run_tensor_scatter(&c, &r);
                }
}

/* The LLM shapes, scaled down: a decode step (one token) at batch 1 and 8,
   a prefill of many tokens, linear and circular, past the parallel
   thresholds. */
static void test_tensor_scatter_large(void **state)
{
    (void)state;
    tc_rng r = {0xdec0de};
    const ts_case cases[] = {
        {SGK_FLOAT16, SGK_INT64, 4, {1, 8, 1024, 64}, 1, -2, SGK_TENSOR_SCATTER_LINEAR, 1},
        {SGK_FLOAT16, SGK_INT64, 4, {8, 8, 512, 64}, 1, -2, SGK_TENSOR_SCATTER_CIRCULAR, 1},
        {SGK_FLOAT32, SGK_INT32, 4, {2, 8, 512, 64}, 300, 2, SGK_TENSOR_SCATTER_LINEAR, 1},
        {SGK_BFLOAT16, SGK_INT64, 4, {4, 4, 256, 128}, 200, -2, SGK_TENSOR_SCATTER_CIRCULAR,
         1},
        {SGK_FLOAT32, SGK_INT64, 3, {4, 2048, 256}, 1000, 1, SGK_TENSOR_SCATTER_LINEAR, 0},
        {SGK_FLOAT32, SGK_INT64, 2, {64, 65536}, 5000, -1, SGK_TENSOR_SCATTER_CIRCULAR, 1},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        run_tensor_scatter(&cases[k], &r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gather_random),
        cmocka_unit_test(test_gather_large),
        cmocka_unit_test(test_tensor_scatter_random),
        cmocka_unit_test(test_tensor_scatter_large),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
