/*
 * The tiny-call lane (src/tiny.c): one-shot calls of a few KiB, checked and
 * run without the planner.
 *
 * - Every operator (ScatterND with slices and with single elements,
 *   ScatterElements and GatherElements along each axis of rank 2 and 3
 *   data, GatherND with and without batch dimensions, Gather along each
 *   axis with indices of rank 0 to 2, TensorScatter linear and circular), every type and every
 *   reduction the semantics define, int32 and int64 indices with negative
 *   values and duplicates: bit for bit the reference (tests/reference.c),
 *   in place and not.
 * - The lane bounds what a call moves, not its operands: a gather of a few
 *   rows of a large table and an in-place scatter or TensorScatter into a
 *   large tensor take it; the same scatters copying the tensor do not.
 * - The lane is taken where the configuration leaves it open: sgk_last_path
 *   says "tiny" when no path is forced, SGK_VERBOSE is unset and
 *   SGK_PARALLEL_MIN_BYTES is the default; when tests/matrix.sh sets that
 *   to 0 (small problems to the parallel paths) or a path is forced, the
 *   call names another path.  Calls past the lane's bounds (more than 256
 *   pairs) take the full path.
 * - A bad index at the first, a middle or the last pair, too large or too
 *   negative, int32 and int64 (a linear TensorScatter's write index
 *   running past the sequence, or negative): SGK_ERR_INDEX_OUT_OF_RANGE,
 *   the full path's message (naming the operator and the value), and
 *   nothing written (the data too, in place).  Buffers that overlap fail
 *   as before.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/common.h"
#include "support/reference.h"
#include "support/tiny_cases.h"
#include "sgk.h"

/* ---- the configuration under test ------------------------------------------ */

static bool env_set(const char *name, const char *neutral)
{
    const char *v = getenv(name);
    return v != NULL && strcmp(v, neutral) != 0;
}

/* 1: the lane must be taken; 0: it must not; -1: either (a configuration
   this test does not know). */
static int lane_expected(void)
{
    if (env_set("SGK_PATH", "auto") || env_set("SGK_REDUCE_PATH", "auto") ||
        env_set("SGK_VERBOSE", "0"))
        return 0;
    const char *min = getenv("SGK_PARALLEL_MIN_BYTES");
    if (min == NULL)
        return 1;
    return strcmp(min, "0") == 0 ? 0 : -1;
}

/* Cleared where a case lies past the lane's bounds. */
static bool within_bounds = true;

static void check_path(const char *what)
{
    const char *path = sgk_last_path();
    if (!within_bounds)
        return;
    const int expected = lane_expected();
    if (path == NULL)
        fail_msg("%s: sgk_last_path() is NULL", what);
    if (expected == 1 && strcmp(path, "tiny") != 0)
        fail_msg("%s: took path %s, not the tiny lane", what, path);
    if (expected == 0 && strcmp(path, "tiny") == 0)
        fail_msg("%s: took the tiny lane where the configuration closes it", what);
}

/* For a call past the lane's bounds. */
static void check_not_tiny(const char *what)
{
    const char *path = sgk_last_path();
    if (path != NULL && strcmp(path, "tiny") == 0)
        fail_msg("%s: took the tiny lane past its bounds", what);
}

/* One call of s with type t, reduction red and the index type, against
   the reference; then in place for scatters. */
static void run_case(const shape_case *s, sgk_dtype t, sgk_reduction red, sgk_dtype itype,
                     bool positive_only, tc_rng *r)
{
    const size_t es = sgk_dtype_size(t);
    const int64_t dn = tc_numel(s->data_rank, s->data_shape);
    const int64_t in = tc_numel(s->index_rank, s->index_shape);
    const int64_t on = tiny_output_elems(s);
    int64_t ushape[8];
    const int32_t urank = tiny_updates_shape(s, ushape);
    const int64_t un = tc_numel(urank, ushape);
    const bool scatter = s->op == OP_SND || s->op == OP_SEL;
    void *data = xmalloc((size_t)dn * es), *upd = xmalloc((size_t)un * es);
    void *got = xmalloc((size_t)on * es), *want = xmalloc((size_t)on * es);
    int64_t *idx64 = xmalloc((size_t)in * sizeof *idx64);
    int32_t *idx32 = xmalloc((size_t)in * sizeof *idx32);
    tiny_fill(r, t, data, dn);
    tiny_fill(r, t, upd, un);
    tiny_fill_case_indices(r, s, idx64, in, positive_only);
    for (int64_t i = 0; i < in; i++)
        idx32[i] = (int32_t)idx64[i];
    const sgk_tensor dt = {t, s->data_rank, s->data_shape, data};
    const sgk_tensor it = {itype, s->index_rank, s->index_shape,
                           itype == SGK_INT32 ? (void *)idx32 : (void *)idx64};
    const sgk_tensor ut = {t, urank, ushape, upd};
    char what[160];
    snprintf(what, sizeof what, "%s %s %s, %s indices%s, attr %lld", tiny_op_name(s->op),
             tc_dtype_name(t), tc_reduction_name(red), tc_dtype_name(itype),
             positive_only ? " (non-negative)" : "", (long long)s->attr);

    memset(got, 0xA5, (size_t)on * es);
    tiny_reference(s, &dt, &it, &ut, red, want);
    sgk_status st = tiny_call(s, &dt, &it, &ut, red, got);
    if (st != SGK_OK)
        fail_msg("%s: %s (%s)", what, tc_status_name(st), tc_last_error());
    check_path(what);
    for (int64_t e = 0; e < on; e++)
        if (!ref_same_result(t, red, (char *)want + e * es, (char *)got + e * es))
            fail_msg("%s: output element %lld differs from the reference", what,
                     (long long)e);
    if (scatter) {
        /* in place: the data becomes the output */
        st = tiny_call(s, &dt, &it, &ut, red, data);
        if (st != SGK_OK)
            fail_msg("%s in place: %s (%s)", what, tc_status_name(st), tc_last_error());
        check_path(what);
        for (int64_t e = 0; e < on; e++)
            if (!ref_same_result(t, red, (char *)want + e * es, (char *)data + e * es))
                fail_msg("%s in place: element %lld differs from the reference", what,
                         (long long)e);
    }
    free(data), free(upd), free(got), free(want), free(idx64), free(idx32);
}

static const shape_case cases[] = {
    /* ScatterND: rows of 3, and single elements (k = 2), 7 updates */
    {OP_SND, 2, 2, {6, 3}, {7, 1}, 0},
    {OP_SND, 2, 2, {4, 5}, {7, 2}, 0},
    {OP_SND, 3, 3, {3, 2, 4}, {2, 3, 1}, 0},
    /* ScatterElements along each axis, rank 2 and 3 (the odometer) */
    {OP_SEL, 2, 2, {4, 5}, {4, 3}, 1},
    {OP_SEL, 2, 2, {4, 5}, {3, 5}, 0},
    {OP_SEL, 2, 2, {4, 5}, {3, 4}, -2},
    {OP_SEL, 3, 3, {3, 4, 5}, {2, 3, 4}, 1},
    {OP_SEL, 3, 3, {3, 4, 5}, {2, 3, 4}, 2},
    {OP_SEL, 1, 1, {9}, {12}, 0},
    /* indices of one along some dimensions, which the lane leaves out */
    {OP_SEL, 4, 4, {3, 2, 3, 1}, {6, 2, 1, 1}, 0},
    {OP_SEL, 3, 3, {2, 5, 3}, {1, 4, 3}, 1},
    {OP_SEL, 3, 3, {2, 5, 3}, {2, 1, 3}, -1},
    /* GatherND without and with batch dimensions, k = 1 and 2 */
    {OP_GND, 2, 2, {6, 3}, {7, 1}, 0},
    {OP_GND, 2, 2, {4, 5}, {7, 2}, 0},
    {OP_GND, 3, 3, {2, 4, 3}, {2, 3, 1}, 1},
    {OP_GND, 3, 2, {2, 4, 3}, {5, 1}, 0},
    /* GatherElements, the same shapes */
    {OP_GEL, 2, 2, {4, 5}, {4, 3}, 1},
    {OP_GEL, 2, 2, {4, 5}, {3, 5}, 0},
    {OP_GEL, 2, 2, {4, 5}, {3, 4}, -2},
    {OP_GEL, 3, 3, {3, 4, 5}, {2, 3, 4}, 1},
    {OP_GEL, 3, 3, {3, 4, 5}, {2, 3, 4}, -1},
    {OP_GEL, 1, 1, {9}, {12}, 0},
    {OP_GEL, 3, 3, {1, 9, 4}, {1, 5, 4}, 1},
    {OP_GEL, 4, 4, {3, 2, 3, 2}, {1, 2, 1, 2}, 2},
    {OP_GEL, 3, 3, {2, 5, 3}, {2, 4, 1}, 0},
    /* Gather: rows (an embedding lookup), and along the other axes, with
       indices of rank 1 and 2 */
    {OP_GAT, 2, 1, {6, 3}, {7}, 0},
    {OP_GAT, 2, 2, {4, 5}, {3, 2}, 1},
    {OP_GAT, 3, 1, {3, 4, 5}, {6}, -2},
    {OP_GAT, 3, 2, {2, 5, 3}, {2, 2}, 2},
    {OP_GAT, 1, 1, {9}, {12}, 0},
    /* a scalar index: the last position's row, x[:, -1] */
    {OP_GAT, 3, 0, {2, 5, 3}, {0}, 1},
    {OP_GAT, 1, 0, {9}, {0}, -1},
};

static void test_every_type_and_reduction(void **state)
{
    (void)state;
    tc_rng r = {0x71e7};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        const shape_case *s = &cases[c];
        const bool scatter = s->op == OP_SND || s->op == OP_SEL;
        for (int t = 0; t < sgk_dtype_count(); t++)
            for (int red = 0; red < (scatter ? sgk_reduction_count() : 1); red++) {
                if (!ref_reduction_supported((sgk_dtype)t, (sgk_reduction)red))
                    continue;
                for (int i = 0; i < 2; i++)
                    for (int positive = 0; positive < 2; positive++)
                        run_case(s, (sgk_dtype)t, (sgk_reduction)red,
                                 i ? SGK_INT32 : SGK_INT64, positive, &r);
            }
    }
}

/* ---- bad indices ------------------------------------------------------------ */

/* Whether msg is the full path's error for a bad index: "<op>: ... =
   <value> out of range ...", the value (alone or within a tuple) between
   the "= " and " out of range", not merely in the shape printed after. */
static bool names_bad_value(const char *msg, const char *op, int64_t value)
{
    const size_t n = strlen(op);
    const char *eq = strstr(msg, "= "), *end = eq != NULL ? strstr(eq, " out of range") : NULL;
    if (strncmp(msg, op, n) != 0 || msg[n] != ':' || end == NULL)
        return false;
    char needle[48];
    snprintf(needle, sizeof needle, "%lld", (long long)value);
    const char *at = strstr(eq, needle);
    return at != NULL && at < end;
}

/* Index element `at` of case s replaced by `value`: the call fails with
   SGK_ERR_INDEX_OUT_OF_RANGE, names the operator and the value, and writes
   nothing (nor, in place, changes the data). */
static void bad_index(const shape_case *s, sgk_dtype itype, int64_t at, int64_t value,
                      tc_rng *r)
{
    const sgk_dtype t = SGK_FLOAT32;
    const int64_t dn = tc_numel(s->data_rank, s->data_shape);
    const int64_t in = tc_numel(s->index_rank, s->index_shape), on = tiny_output_elems(s);
    int64_t ushape[8];
    const int32_t urank = tiny_updates_shape(s, ushape);
    const bool scatter = s->op == OP_SND || s->op == OP_SEL;
    float *data = xmalloc((size_t)dn * 4), *upd = xmalloc((size_t)tc_numel(urank, ushape) * 4);
    float *out = xmalloc((size_t)on * 4), *saved = xmalloc((size_t)dn * 4);
    uint8_t *pattern = xmalloc((size_t)on * 4);
    int64_t *idx64 = xmalloc((size_t)in * 8);
    int32_t *idx32 = xmalloc((size_t)in * 4);
    tiny_fill(r, t, data, dn);
    tiny_fill(r, t, upd, tc_numel(urank, ushape));
    tiny_fill_case_indices(r, s, idx64, in, false);
    idx64[at] = value;
    for (int64_t i = 0; i < in; i++)
        idx32[i] = (int32_t)idx64[i];
    const sgk_tensor dt = {t, s->data_rank, s->data_shape, data};
    const sgk_tensor it = {itype, s->index_rank, s->index_shape,
                           itype == SGK_INT32 ? (void *)idx32 : (void *)idx64};
    const sgk_tensor ut = {t, urank, ushape, upd};
    for (int in_place = 0; in_place < 1 + scatter; in_place++) {
        tc_fill_pattern(out, (size_t)on * 4);
        memcpy(pattern, out, (size_t)on * 4);
        memcpy(saved, data, (size_t)dn * 4);
        const sgk_status st = tiny_call(s, &dt, &it, &ut, SGK_REDUCE_ADD, in_place ? data : out);
        const char *msg = tc_last_error();
        if (st != SGK_ERR_INDEX_OUT_OF_RANGE)
            fail_msg("%s, index %lld = %lld%s: %s, not SGK_ERR_INDEX_OUT_OF_RANGE",
                     tiny_op_name(s->op), (long long)at, (long long)value,
                     in_place ? " in place" : "", tc_status_name(st));
        if (!names_bad_value(msg, tiny_op_name(s->op), value))
            fail_msg("%s, index %lld = %lld: message \"%s\"", tiny_op_name(s->op), (long long)at,
                     (long long)value, msg);
        if (memcmp(out, pattern, (size_t)on * 4) != 0 || memcmp(data, saved, (size_t)dn * 4) != 0)
            fail_msg("%s, index %lld = %lld%s: the failed call wrote", tiny_op_name(s->op),
                     (long long)at, (long long)value, in_place ? " in place" : "");
    }
    free(data), free(upd), free(out), free(saved), free(pattern), free(idx64), free(idx32);
}

static void test_bad_indices_write_nothing(void **state)
{
    (void)state;
    tc_rng r = {0xbad};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        const shape_case *s = &cases[c];
        const int64_t in = tc_numel(s->index_rank, s->index_shape);
        const int64_t places[] = {0, in / 2, in - 1};
        for (int p = 0; p < 3; p++) {
            const int64_t dim = tiny_index_dim(s, places[p]);
            for (int i = 0; i < 2; i++) {
                const sgk_dtype itype = i ? SGK_INT32 : SGK_INT64;
                bad_index(s, itype, places[p], dim, &r);
                bad_index(s, itype, places[p], -dim - 1, &r);
            }
        }
    }
}

/* ---- the lane's bounds ------------------------------------------------------ */

/* Beyond the lane's pairs, 256 for scatters and 4096 for gathers (their
   bytes within its bounds: int8 data, int32 indices): the full path
   serves them, exactly. */
static void test_past_the_bounds(void **state)
{
    (void)state;
    tc_rng r = {0x300};
    static const shape_case big[] = {
        {OP_GND, 1, 2, {16}, {5000, 1}, 0},
        {OP_GEL, 1, 1, {16}, {5000}, 0},
        {OP_SND, 2, 2, {16, 2}, {300, 1}, 0},
        {OP_GAT, 1, 1, {16}, {5000}, 0},
        {OP_GAT, 2, 1, {64, 4}, {100}, 1}, /* 64 x 100 pairs */
    };
    within_bounds = false;
    for (size_t c = 0; c < sizeof big / sizeof *big; c++) {
        run_case(&big[c], SGK_INT8, SGK_REDUCE_NONE, SGK_INT32, false, &r);
        check_not_tiny(tiny_op_name(big[c].op));
    }
    within_bounds = true;
}

/* Gathers of more pairs than the stack holds, up to 4096, take the lane
   (run_case checks the path): with their slots in the thread's scratch,
   or straight from non-negative int32 and int64 indices.  DETR's box
   gathers among them, of batch 1 and 4. */
static void test_gathers_past_the_stack(void **state)
{
    (void)state;
    tc_rng r = {0x400};
    static const shape_case big[] = {
        {OP_GEL, 3, 3, {1, 900, 4}, {1, 100, 4}, 1},
        {OP_GEL, 3, 3, {4, 300, 4}, {4, 100, 4}, 1}, /* DETR's boxes by query */
        {OP_GND, 2, 2, {64, 2}, {1000, 1}, 0},
        {OP_GEL, 1, 1, {64}, {4000}, 0},
    };
    for (size_t c = 0; c < sizeof big / sizeof *big; c++)
        for (int t = 0; t < 2; t++)
            for (int i = 0; i < 2; i++)
                for (int positive = 0; positive < 2; positive++)
                    run_case(&big[c], t ? SGK_FLOAT32 : SGK_INT8, SGK_REDUCE_NONE,
                             i ? SGK_INT64 : SGK_INT32, positive, &r);
}

/* ---- large operands, small calls ---------------------------------------------- */

/* A few rows gathered from a table of 100000 rows (3.2 MB as float32):
   the lane's, exactly (run_case checks the path). */
static void test_gathers_from_a_large_table(void **state)
{
    (void)state;
    tc_rng r = {0x500};
    static const shape_case big[] = {
        {OP_GAT, 2, 2, {100000, 8}, {1, 5}, 0},
        {OP_GND, 2, 2, {100000, 8}, {5, 1}, 0},
        {OP_GAT, 2, 1, {3, 100000}, {9}, 1},
    };
    for (size_t c = 0; c < sizeof big / sizeof *big; c++)
        for (int i = 0; i < 2; i++)
            run_case(&big[c], SGK_FLOAT32, SGK_REDUCE_NONE, i ? SGK_INT64 : SGK_INT32, false,
                     &r);
}

/* 4 rows added into a [rows, 8] float32 tensor of 3.2 MB, and of 64000
   bytes (below the lane's 64 KiB, but not twice over): in place, the
   lane's; copying the tensor, not; exact both ways. */
static void test_scatters_into_a_large_tensor(void **state)
{
    (void)state;
    enum { COLS = 8 };
    const int64_t sizes[] = {100000, 2000};
    for (int k = 0; k < 2; k++) {
        const int64_t rows = sizes[k];
        int64_t dshape[] = {rows, COLS}, ishape[] = {4, 1}, ushape[] = {4, COLS};
        int64_t idx[] = {rows - 1, 7, -3, 7};
        float upd[4 * COLS];
        const size_t bytes = (size_t)(rows * COLS) * 4;
        float *data = xmalloc(bytes), *want = xmalloc(bytes), *got = xmalloc(bytes);
        tc_rng r = {0x600};
        tiny_fill(&r, SGK_FLOAT32, data, rows * COLS);
        tiny_fill(&r, SGK_FLOAT32, upd, 4 * COLS);
        const sgk_tensor dt = {SGK_FLOAT32, 2, dshape, data}, it = {SGK_INT64, 2, ishape, idx};
        const sgk_tensor ut = {SGK_FLOAT32, 2, ushape, upd};
        ref_scatter_nd(&dt, &it, &ut, SGK_REDUCE_ADD, want);
        char what[64];
        snprintf(what, sizeof what, "scatter_nd add into [%lld, 8]", (long long)rows);
        for (int in_place = 0; in_place < 2; in_place++) {
            float *out = in_place ? data : got;
            CHECK_OK(sgk_scatter_nd(&dt, &it, &ut, SGK_REDUCE_ADD, out));
            (in_place ? check_path : check_not_tiny)(what);
            for (int64_t e = 0; e < rows * COLS; e++)
                if (!ref_same_result(SGK_FLOAT32, SGK_REDUCE_ADD, want + e, out + e))
                    fail_msg("%s%s: element %lld differs from the reference", what,
                             in_place ? " in place" : "", (long long)e);
        }
        free(data), free(want), free(got);
    }
}

/* ---- TensorScatter ---------------------------------------------------------- */

typedef struct {
    int32_t rank;
    int64_t cache[5], update[5];
    int64_t axis;
} ts_case;

enum { TS_MAX_BATCH = 300 };

static const ts_case ts_cases[] = {
    {4, {2, 3, 8, 4}, {2, 3, 2, 4}, 2},       /* a KV cache: 2 tokens, 3 heads */
    {4, {2, 3, 8, 4}, {2, 3, 1, 4}, -2},      /* one token */
    {2, {3, 6}, {3, 2}, 1},                   /* nothing after the axis */
    {3, {2, 5, 3}, {2, 5, 3}, -2},            /* the whole sequence */
    {5, {1, 4, 2, 3, 2}, {1, 4, 2, 1, 2}, 3}, /* two dimensions before the axis */
    {3, {2, 7, 3}, {2, 3, 3}, 1},
};

/* One call of case c: type t, the mode, write indices of itype (or none
   when itype is not an index type) at `write`, into out. */
static sgk_status ts_call(const ts_case *c, sgk_dtype t, sgk_tensor_scatter_mode mode,
                          sgk_dtype itype, const int64_t *write, void *cache, const void *upd,
                          void *out)
{
    int32_t w32[TS_MAX_BATCH];
    for (int64_t b = 0; b < c->cache[0]; b++)
        w32[b] = (int32_t)write[b];
    const int64_t wshape[] = {c->cache[0]};
    const sgk_tensor ct = {t, c->rank, c->cache, cache}, ut = {t, c->rank, c->update, (void *)upd};
    const sgk_tensor wt = {itype, 1, wshape, itype == SGK_INT32 ? (void *)w32 : (void *)write};
    const bool given = itype == SGK_INT32 || itype == SGK_INT64;
    return sgk_tensor_scatter(&ct, &ut, given ? &wt : NULL, c->axis, mode, out);
}

static void ts_run(const ts_case *c, sgk_dtype t, sgk_tensor_scatter_mode mode, sgk_dtype itype,
                   tc_rng *r)
{
    const size_t es = sgk_dtype_size(t);
    const int64_t cn = tc_numel(c->rank, c->cache), un = tc_numel(c->rank, c->update);
    const int a = (int)(c->axis < 0 ? c->axis + c->rank : c->axis);
    const int64_t S = c->cache[a], len = c->update[a];
    void *cache = xmalloc((size_t)cn * es), *upd = xmalloc((size_t)un * es);
    void *got = xmalloc((size_t)cn * es), *want = xmalloc((size_t)cn * es);
    int64_t write[TS_MAX_BATCH] = {0};
    const bool given = itype == SGK_INT32 || itype == SGK_INT64;
    for (int64_t b = 0; given && b < c->cache[0]; b++)
        write[b] = mode == SGK_TENSOR_SCATTER_LINEAR ? tc_rng_range(r, 0, S - len)
                                                     : tc_rng_range(r, -3 * S, 3 * S);
    tiny_fill(r, t, cache, cn);
    tiny_fill(r, t, upd, un);
    const int64_t wshape[] = {c->cache[0]};
    const sgk_tensor ct = {t, c->rank, c->cache, cache}, ut = {t, c->rank, c->update, upd};
    const sgk_tensor wt = {SGK_INT64, 1, wshape, write};
    ref_tensor_scatter(&ct, &ut, given ? &wt : NULL, c->axis, mode, want);
    char what[120];
    snprintf(what, sizeof what, "tensor_scatter %s %s along %lld, write indices %s",
             tc_dtype_name(t), mode == SGK_TENSOR_SCATTER_LINEAR ? "linear" : "circular",
             (long long)c->axis, given ? tc_dtype_name(itype) : "none");
    for (int in_place = 0; in_place < 2; in_place++) {
        void *out = in_place ? cache : got;
        memset(got, 0xA5, (size_t)cn * es);
        const sgk_status st = ts_call(c, t, mode, itype, write, cache, upd, out);
        if (st != SGK_OK)
            fail_msg("%s: %s (%s)", what, tc_status_name(st), tc_last_error());
        check_path(what);
        for (int64_t e = 0; e < cn; e++)
            if (memcmp((char *)want + e * es, (char *)out + e * es, es) != 0)
                fail_msg("%s%s: element %lld differs from the reference", what,
                         in_place ? " in place" : "", (long long)e);
    }
    free(cache), free(upd), free(got), free(want);
}

static void test_tensor_scatter(void **state)
{
    (void)state;
    tc_rng r = {0x75};
    const sgk_dtype itypes[] = {SGK_INT64, SGK_INT32, SGK_FLOAT32 /* none given */};
    for (size_t c = 0; c < sizeof ts_cases / sizeof *ts_cases; c++)
        for (int t = 0; t < sgk_dtype_count(); t++)
            for (int m = 0; m < 2; m++)
                for (int i = 0; i < 3; i++)
                    ts_run(&ts_cases[c], (sgk_dtype)t,
                           m ? SGK_TENSOR_SCATTER_CIRCULAR : SGK_TENSOR_SCATTER_LINEAR,
                           itypes[i], &r);
}

/* More batches than the lane's 256: the full path serves them, exactly. */
static void test_tensor_scatter_past_the_bounds(void **state)
{
    (void)state;
    tc_rng r = {0x78};
    const ts_case many = {2, {TS_MAX_BATCH, 4}, {TS_MAX_BATCH, 1}, 1};
    within_bounds = false;
    for (int m = 0; m < 2; m++) {
        ts_run(&many, SGK_INT8, m ? SGK_TENSOR_SCATTER_CIRCULAR : SGK_TENSOR_SCATTER_LINEAR,
               SGK_INT64, &r);
        check_not_tiny("tensor_scatter of 300 batches");
    }
    within_bounds = true;
}

/* A linear write index past max_sequence_length - update length, or
   negative, at the first or the last batch: the full path's error, and
   nothing written. */
static void test_tensor_scatter_bad_write_index(void **state)
{
    (void)state;
    const ts_case *c = &ts_cases[0];
    const int64_t cn = tc_numel(c->rank, c->cache), un = tc_numel(c->rank, c->update);
    const int64_t S = c->cache[2], len = c->update[2];
    float *cache = xmalloc((size_t)cn * 4), *saved = xmalloc((size_t)cn * 4);
    float *out = xmalloc((size_t)cn * 4), *pattern = xmalloc((size_t)cn * 4);
    float *upd = xmalloc((size_t)un * 4);
    tc_rng r = {0x76};
    tiny_fill(&r, SGK_FLOAT32, cache, cn);
    tiny_fill(&r, SGK_FLOAT32, upd, un);
    const int64_t bad[] = {S - len + 1, -1};
    for (int k = 0; k < 2; k++)
        for (int64_t at = 0; at < c->cache[0]; at++)
            for (int i = 0; i < 2; i++)
                for (int in_place = 0; in_place < 2; in_place++) {
                    int64_t write[2] = {1, 2};
                    write[at] = bad[k];
                    tc_fill_pattern(out, (size_t)cn * 4);
                    memcpy(pattern, out, (size_t)cn * 4);
                    memcpy(saved, cache, (size_t)cn * 4);
                    const sgk_status st =
                        ts_call(c, SGK_FLOAT32, SGK_TENSOR_SCATTER_LINEAR,
                                i ? SGK_INT32 : SGK_INT64, write, cache, upd,
                                in_place ? cache : out);
                    char needle[48];
                    snprintf(needle, sizeof needle, "write_indices[%lld] = %lld", (long long)at,
                             (long long)bad[k]);
                    if (st != SGK_ERR_INDEX_OUT_OF_RANGE ||
                        strstr(tc_last_error(), needle) == NULL)
                        fail_msg("write index %lld at %lld: %s, \"%s\"", (long long)bad[k],
                                 (long long)at, tc_status_name(st), tc_last_error());
                    if (memcmp(out, pattern, (size_t)cn * 4) != 0 ||
                        memcmp(cache, saved, (size_t)cn * 4) != 0)
                        fail_msg("write index %lld at %lld: the failed call wrote",
                                 (long long)bad[k], (long long)at);
                }
    free(cache), free(saved), free(out), free(pattern), free(upd);
}

/* One token into a KV cache [1, 4, 4096, 64] float32 (4 MiB): in place,
   the lane's; copying the cache, not; exact both ways. */
static void test_tensor_scatter_into_a_large_cache(void **state)
{
    (void)state;
    const ts_case c = {4, {1, 4, 4096, 64}, {1, 4, 1, 64}, 2};
    const int64_t cn = tc_numel(4, c.cache), un = tc_numel(4, c.update), write[] = {4000};
    float *cache = xmalloc((size_t)cn * 4), *got = xmalloc((size_t)cn * 4);
    float *want = xmalloc((size_t)cn * 4), *upd = xmalloc((size_t)un * 4);
    tc_rng r = {0x77};
    tiny_fill(&r, SGK_FLOAT32, cache, cn);
    tiny_fill(&r, SGK_FLOAT32, upd, un);
    const int64_t wshape[] = {1};
    const sgk_tensor ct = {SGK_FLOAT32, 4, c.cache, cache}, ut = {SGK_FLOAT32, 4, c.update, upd};
    const sgk_tensor wt = {SGK_INT64, 1, wshape, (void *)write};
    ref_tensor_scatter(&ct, &ut, &wt, c.axis, SGK_TENSOR_SCATTER_LINEAR, want);
    for (int in_place = 0; in_place < 2; in_place++) {
        float *out = in_place ? cache : got;
        CHECK_OK(ts_call(&c, SGK_FLOAT32, SGK_TENSOR_SCATTER_LINEAR, SGK_INT64, write, cache,
                         upd, out));
        (in_place ? check_path : check_not_tiny)("tensor_scatter into [1, 4, 4096, 64]");
        if (memcmp(out, want, (size_t)cn * 4) != 0)
            fail_msg("tensor_scatter into [1, 4, 4096, 64]%s differs from the reference",
                     in_place ? " in place" : "");
    }
    free(cache), free(got), free(want), free(upd);
}

static void test_overlaps_fail(void **state)
{
    (void)state;
    float data[12] = {0}, upd[6] = {0};
    int64_t buf[16] = {0, 1, 2};
    int64_t dshape[] = {4, 3}, ishape[] = {2, 1}, ushape[] = {2, 3};
    const sgk_tensor dt = {SGK_FLOAT32, 2, dshape, data};
    const sgk_tensor it = {SGK_INT64, 2, ishape, buf};
    const sgk_tensor ut = {SGK_FLOAT32, 2, ushape, upd};
    /* the output over the indices, over the updates, over the data */
    assert_int_equal(sgk_gather_nd(&dt, &it, 0, buf), SGK_ERR_INVALID_ARGUMENT);
    assert_int_equal(sgk_scatter_nd(&dt, &it, &ut, SGK_REDUCE_NONE, buf),
                     SGK_ERR_INVALID_ARGUMENT);
    assert_int_equal(sgk_scatter_nd(&dt, &it, &ut, SGK_REDUCE_NONE, (char *)upd + 4),
                     SGK_ERR_INVALID_ARGUMENT);
    assert_int_equal(sgk_gather_nd(&dt, &it, 0, data + 1), SGK_ERR_INVALID_ARGUMENT);
    assert_int_equal(sgk_gather_nd(&dt, &it, 0, NULL), SGK_ERR_INVALID_ARGUMENT);
    assert_int_equal(sgk_scatter_nd(&dt, &it, &ut, SGK_REDUCE_NONE, data + 1),
                     SGK_ERR_INVALID_ARGUMENT);
    /* Gather: the output over the indices, over the data */
    int64_t rows_shape[] = {2};
    const sgk_tensor rows = {SGK_INT64, 1, rows_shape, buf};
    assert_int_equal(sgk_gather(&dt, &rows, 0, buf + 1), SGK_ERR_INVALID_ARGUMENT);
    assert_int_equal(sgk_gather(&dt, &rows, 0, data + 1), SGK_ERR_INVALID_ARGUMENT);
    /* TensorScatter of [2, 1, 3] into [2, 2, 3]: the output over the
       update, over the write indices, partly over the cache */
    int64_t cshape[] = {2, 2, 3}, tshape[] = {2, 1, 3}, wshape[] = {2};
    const sgk_tensor ct = {SGK_FLOAT32, 3, cshape, data}, tt = {SGK_FLOAT32, 3, tshape, upd};
    const sgk_tensor wt = {SGK_INT64, 1, wshape, buf};
    float big[24] = {0};
    const sgk_tensor_scatter_mode lin = SGK_TENSOR_SCATTER_LINEAR;
    assert_int_equal(sgk_tensor_scatter(&ct, &tt, &wt, 1, lin, upd), SGK_ERR_INVALID_ARGUMENT);
    assert_int_equal(sgk_tensor_scatter(&ct, &tt, &wt, 1, lin, buf), SGK_ERR_INVALID_ARGUMENT);
    assert_int_equal(sgk_tensor_scatter(&ct, &tt, &wt, 1, lin, data + 1),
                     SGK_ERR_INVALID_ARGUMENT);
    /* and apart from all three, served */
    assert_int_equal(sgk_tensor_scatter(&ct, &tt, &wt, 1, lin, big), SGK_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_type_and_reduction),
        cmocka_unit_test(test_bad_indices_write_nothing),
        cmocka_unit_test(test_past_the_bounds),
        cmocka_unit_test(test_gathers_past_the_stack),
        cmocka_unit_test(test_gathers_from_a_large_table),
        cmocka_unit_test(test_scatters_into_a_large_tensor),
        cmocka_unit_test(test_tensor_scatter),
        cmocka_unit_test(test_tensor_scatter_past_the_bounds),
        cmocka_unit_test(test_tensor_scatter_bad_write_index),
        cmocka_unit_test(test_tensor_scatter_into_a_large_cache),
        cmocka_unit_test(test_overlaps_fail),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
