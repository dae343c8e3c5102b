/*
 * SGK_ERR_INDEX_OUT_OF_RANGE: one bad index (the last row, or element) of
 * int32 and int64 indices, checked per coordinate and never on the flattened
 * offset, at the int32 and int64 limits and at 2^32 (which truncation to 32
 * bits would bring into range), with the value named in the message; and
 * errors found in the last chunk of a long index, which must leave the
 * output untouched (a library that writes while it validates is caught),
 * also where one-shot element scatters bin their pairs first.  A bad value
 * at every position of a vectorized check: tests/test_errors_index_positions.c.
 * Harness and contract: tests/support/error_cases.h.
 */
#include <stdarg.h>
#include <stdbool.h>
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

/* ---- SGK_ERR_INDEX_OUT_OF_RANGE ---------------------------------------- */

/* The base case with the last index row (or element) replaced. */
static void index_case_at(const char *file, int line, int op, const int64_t *last, int32_t idx_type,
                          int64_t attr, const char *needle1, const char *needle2)
{
    opcase c = base(op);
    int64_t idx64[8];
    int32_t idx32[8];
    size_t n = op == OP_SND || op == OP_GND ? (op == OP_SND ? 8 : 4) : 6;
    size_t row = op == OP_SND || op == OP_GND ? 2 : 1;
    static const int64_t shape_2_1[] = {2, 1};
    static const int64_t el_axis0[] = {0, 2, 1, -1, 2, -3}; /* valid along axis 0 (size 3) */
    memcpy(idx64, c.indices.data, n * sizeof(int64_t));
    if (op == OP_GND && attr == 1) { /* indices [2, 1] for batch_dims 1 */
        c.indices.shape = shape_2_1;
        idx64[0] = 2;
        idx64[1] = -3;
        n = 2;
        row = 1;
    }
    if ((op == OP_SEL || op == OP_GEL) && attr == 0) memcpy(idx64, el_axis0, sizeof el_axis0);
    c.attr = attr;
    memcpy(idx64 + n - row, last, row * sizeof(int64_t));
    for (size_t i = 0; i < n; i++) idx32[i] = (int32_t)idx64[i];
    c.indices.dtype = (sgk_dtype)idx_type;
    c.indices.data = idx_type == SGK_INT32 ? (const void *)idx32 : (const void *)idx64;
    c.needles[0] = needle1;
    c.needles[1] = needle2;
    char lbl[160];
    if (row == 2)
        snprintf(lbl, sizeof lbl, "last index [%lld, %lld] (%s)", (long long)last[0],
                 (long long)last[1], idx_type == SGK_INT32 ? "int32" : "int64");
    else
        snprintf(lbl, sizeof lbl, "last index %lld (%s, attr %lld)", (long long)last[0],
                 idx_type == SGK_INT32 ? "int32" : "int64", (long long)attr);
    run_case_at(file, line, lbl, &c, SGK_ERR_INDEX_OUT_OF_RANGE);
}
#define IDX_CASE(op, last, type, attr, n1, n2) \
    index_case_at(__FILE__, __LINE__, op, (const int64_t[])last, type, attr, n1, n2)
#define L2(a, b) {a, b}
#define L1(a) {a}

/* Many valid indices, the bad one last (a library that writes while it
   validates is caught); big enough to take any parallel path. */
static void many_then_bad_at(const char *file, int line, int op, int32_t idx_type,
                             sgk_reduction red)
{
    opcase c = base(op);
    size_t n_idx, data_n, upd_n;
    int64_t bad;
    int64_t *data_shape = xmalloc(2 * sizeof(int64_t)), *idx_shape = xmalloc(2 * sizeof(int64_t));
    if (op == OP_SND || op == OP_GND) {
        /* data [65536, 4]; indices [262144, 1] */
        data_shape[0] = 65536; data_shape[1] = 4;
        idx_shape[0] = 262144; idx_shape[1] = 1;
        n_idx = 262144;
        data_n = 65536 * 4;
        upd_n = n_idx * 4;
        bad = -65537;
        c.data.rank = 2; c.indices.rank = 2;
        static const int64_t upd_shape[] = {262144, 4};
        c.updates.rank = 2;
        c.updates.shape = upd_shape;
        c.out_elems = op == OP_SND ? data_n : upd_n;
        c.attr = 0;
    } else {
        /* data [512, 512]; indices [512, 512], axis 1 */
        data_shape[0] = data_shape[1] = 512;
        idx_shape[0] = idx_shape[1] = 512;
        n_idx = 512 * 512;
        data_n = upd_n = n_idx;
        bad = -513;
        c.updates.shape = idx_shape;
        c.out_elems = op == OP_SEL ? data_n : n_idx;
        c.attr = 1;
    }
    float *data = xmalloc(data_n * sizeof(float)), *upd = xmalloc(upd_n * sizeof(float));
    int64_t *idx64 = xmalloc(n_idx * sizeof(int64_t));
    int32_t *idx32 = xmalloc(n_idx * sizeof(int32_t));
    const int64_t s = op == OP_SND || op == OP_GND ? 65536 : 512;
    for (size_t i = 0; i < data_n; i++) data[i] = (float)(i % 1000) * 0.5f;
    for (size_t i = 0; i < upd_n; i++) upd[i] = (float)(i % 777) - 300.0f;
    for (size_t i = 0; i < n_idx; i++) {
        int64_t v = (int64_t)((i * 2654435761u) % (uint64_t)s);
        idx64[i] = (i & 1) ? v - s : v; /* half negative, all valid */
    }
    idx64[n_idx - 1] = bad;
    for (size_t i = 0; i < n_idx; i++) idx32[i] = (int32_t)idx64[i];
    c.data.shape = data_shape;
    c.data.data = data;
    c.indices.shape = idx_shape;
    c.indices.dtype = (sgk_dtype)idx_type;
    c.indices.data = idx_type == SGK_INT32 ? (const void *)idx32 : (const void *)idx64;
    c.updates.data = upd;
    c.red = red;
    c.data_elems = data_n;
    char needle[32], lbl[128];
    snprintf(needle, sizeof needle, "%lld", (long long)bad);
    c.needles[0] = needle;
    snprintf(lbl, sizeof lbl, "%zu valid indices then %lld (%s, reduction %d)", n_idx - 1,
             (long long)bad, idx_type == SGK_INT32 ? "int32" : "int64", (int)red);
    run_case_at(file, line, lbl, &c, SGK_ERR_INDEX_OUT_OF_RANGE);
    free(data); free(upd); free(idx64); free(idx32); free(data_shape); free(idx_shape);
}
#define MANY_THEN_BAD(op, type, red) many_then_bad_at(__FILE__, __LINE__, op, type, red)

static void test_index_out_of_range(void **state)
{
    const int op = *(const int *)*state;
    const int32_t I32 = SGK_INT32, I64 = SGK_INT64;
    switch (op) {
    case OP_SND: /* data [4, 8] */
        IDX_CASE(op, L2(5, -9), I64, 0, "5, -9", "[4, 8]");
        IDX_CASE(op, L2(5, -9), I32, 0, "5, -9", "[4, 8]");
        IDX_CASE(op, L2(1, 9), I64, 0, "9", NULL);  /* flat offset 17 would be in range */
        IDX_CASE(op, L2(0, -9), I64, 0, "-9", NULL);
        IDX_CASE(op, L2(0, 8), I32, 0, "8", NULL);
        IDX_CASE(op, L2(4, 0), I64, 0, "4", NULL);
        IDX_CASE(op, L2(-5, 0), I64, 0, "-5", NULL);
        IDX_CASE(op, L2(0, INT64_MIN), I64, 0, "-9223372036854775808", NULL);
        IDX_CASE(op, L2(INT64_MAX, 0), I64, 0, "9223372036854775807", NULL);
        IDX_CASE(op, L2(P(32), 0), I64, 0, "4294967296", NULL); /* 0 if truncated to 32 bits */
        IDX_CASE(op, L2(0, P(32) + 1), I64, 0, "4294967297", NULL);
        IDX_CASE(op, L2(-P(32), 0), I64, 0, "-4294967296", NULL);
        IDX_CASE(op, L2(INT32_MIN, 0), I32, 0, "-2147483648", NULL);
        IDX_CASE(op, L2(0, INT32_MAX), I32, 0, "2147483647", NULL);
        /* k = 1: whole rows of [4, 8] */
        {
            opcase c = base(op);
            c.indices.shape = (const int64_t[]){3, 1};
            c.indices.data = (const int64_t[]){0, -4, 7};
            c.updates.rank = 2;
            c.updates.shape = (const int64_t[]){3, 8};
            c.needles[0] = "7";
            RUN("row index 7 of 4 (k = 1)", &c, SGK_ERR_INDEX_OUT_OF_RANGE);
        }
        break;
    case OP_GND: /* data [2, 3, 4], indices rows [0, 1], [x, y] */
        IDX_CASE(op, L2(1, 1000003), I64, 0, "1000003", NULL);
        IDX_CASE(op, L2(0, -4), I64, 0, "-4", NULL);
        IDX_CASE(op, L2(0, 3), I32, 0, "3", NULL); /* flat offset 3 would be in range */
        IDX_CASE(op, L2(-3, 0), I64, 0, "-3", NULL);
        IDX_CASE(op, L2(INT64_MIN, 0), I64, 0, "-9223372036854775808", NULL);
        IDX_CASE(op, L2(0, INT64_MAX), I64, 0, "9223372036854775807", NULL);
        IDX_CASE(op, L2(P(32) + 1, 0), I64, 0, "4294967297", NULL);
        IDX_CASE(op, L2(INT32_MIN, 0), I32, 0, "-2147483648", NULL);
        IDX_CASE(op, L2(0, INT32_MAX), I32, 0, "2147483647", NULL);
        /* batch_dims 1: indices [2, 1] address dimension 1 (size 3) */
        IDX_CASE(op, L1(-4), I64, 1, "-4", NULL);
        IDX_CASE(op, L1(3), I32, 1, "3", NULL);
        IDX_CASE(op, L1(INT64_MIN), I64, 1, "-9223372036854775808", NULL);
        break;
    default: /* Elements: data [3, 4], axis 1 (size 4) unless stated */
        IDX_CASE(op, L1(17), I64, 1, "17", NULL);
        IDX_CASE(op, L1(4), I32, 1, "4", NULL);
        IDX_CASE(op, L1(-5), I64, 1, "-5", NULL);
        IDX_CASE(op, L1(3), I64, 0, "3", NULL); /* axis 0 has size 3 */
        IDX_CASE(op, L1(-4), I32, 0, "-4", NULL);
        IDX_CASE(op, L1(INT64_MIN), I64, 1, "-9223372036854775808", NULL);
        IDX_CASE(op, L1(INT64_MAX), I64, 1, "9223372036854775807", NULL);
        IDX_CASE(op, L1(P(32) + 2), I64, 1, "4294967298", NULL);
        IDX_CASE(op, L1(INT32_MIN), I32, 1, "-2147483648", NULL);
        IDX_CASE(op, L1(INT32_MAX), I32, 1, "2147483647", NULL);
        /* axis 0, the index the same along each row of 4: whole rows move,
           and the message still names the row's first element */
        {
            opcase c = base(op);
            static const int64_t shape_2_4[] = {2, 4};
            c.indices.shape = shape_2_4;
            c.indices.data = (const int64_t[]){2, 2, 2, 2, -4, -4, -4, -4};
            c.updates.shape = shape_2_4;
            c.attr = 0;
            if (op == OP_GEL)
                c.out_elems = 8;
            c.needles[0] = "[1, 0] = -4";
            RUN("whole row index -4 of 3 (axis 0)", &c, SGK_ERR_INDEX_OUT_OF_RANGE);
        }
        break;
    }
}

/* The bad index last in an index long enough to take the parallel paths:
   found only in the last chunk, and still nothing written. */
static void test_index_out_of_range_last(void **state)
{
    const int op = *(const int *)*state;
    const int32_t I32 = SGK_INT32, I64 = SGK_INT64;
    MANY_THEN_BAD(op, I64, SGK_REDUCE_NONE);
    MANY_THEN_BAD(op, I32, SGK_REDUCE_NONE);
    if (is_scatter(op)) {
        MANY_THEN_BAD(op, I64, SGK_REDUCE_ADD);
        MANY_THEN_BAD(op, I32, SGK_REDUCE_MAX);
    }
}

/* One-shot scatters of single elements bin their pairs before anything
   reaches the output: a bad index in the last pair, found by whichever
   thread maps that share, still leaves the output (or, in place, the
   data) untouched, and names that pair. */
static void check_binned_untouched(const char *what, const sgk_tensor *data,
                                   const sgk_tensor *idx, const sgk_tensor *upd, int elements,
                                   const char *needle)
{
    const size_t n = 512 * 512;
    float *out = xmalloc(n * sizeof *out), *copy = xmalloc(n * sizeof *copy);
    for (int in_place = 0; in_place <= 1; in_place++) {
        float *target = in_place ? (float *)data->data : out;
        if (!in_place)
            memset(out, 0x5A, n * sizeof *out);
        memcpy(copy, target, n * sizeof *copy);
        sgk_status st = elements ? sgk_scatter_elements(data, idx, upd, 1, SGK_REDUCE_ADD, target)
                                 : sgk_scatter_nd(data, idx, upd, SGK_REDUCE_ADD, target);
        if (st != SGK_ERR_INDEX_OUT_OF_RANGE || strstr(sgk_last_error(), needle) == NULL)
            fail_msg("%s%s: %s, \"%s\"", what, in_place ? " in place" : "",
                     sgk_status_name(st), sgk_last_error());
        if (memcmp(copy, target, n * sizeof *copy) != 0)
            fail_msg("%s%s: the output was written", what, in_place ? " in place" : "");
    }
    free(out);
    free(copy);
}

static void test_index_out_of_range_last_binned(void **state)
{
    (void)state;
    const int64_t pairs = 262144;
    float *data = xmalloc(512 * 512 * sizeof *data), *upd = xmalloc(pairs * sizeof *upd);
    int64_t *idx = xmalloc(2 * pairs * sizeof *idx);
    for (int64_t i = 0; i < 512 * 512; i++)
        data[i] = (float)(i % 1000);
    for (int64_t i = 0; i < pairs; i++) {
        upd[i] = 1.0f;
        idx[2 * i] = (i * 7) % 512 - (i & 1) * 512;
        idx[2 * i + 1] = (i * 13) % 512;
    }
    idx[2 * pairs - 1] = 512;
    const int64_t dshape[] = {512, 512}, ishape[] = {pairs, 2}, ushape[] = {pairs};
    sgk_tensor d = {SGK_FLOAT32, 2, dshape, data}, ix = {SGK_INT64, 2, ishape, idx};
    sgk_tensor u = {SGK_FLOAT32, 1, ushape, upd};
    check_binned_untouched("scatter_nd k = 2, last pair bad", &d, &ix, &u, 0, "[262143]");
    /* ScatterElements, indices [512, 256] along axis 1: not spanning data */
    for (int64_t i = 0; i < pairs / 2; i++)
        idx[i] = (i * 13) % 512 - (i & 1) * 512;
    idx[pairs / 2 - 1] = -513;
    const int64_t eshape[] = {512, 256};
    sgk_tensor ex = {SGK_INT64, 2, eshape, idx}, eu = {SGK_FLOAT32, 2, eshape, upd};
    check_binned_untouched("scatter_elements, last index bad", &d, &ex, &eu, 1, "-513");
    /* ScatterND k = 1 into [262144], every index but the last in range and
       none negative (the bins take them as they lie): the last one past
       the end */
    for (int64_t i = 0; i < pairs; i++)
        idx[i] = (i * 7919) % pairs;
    idx[pairs - 1] = pairs;
    const int64_t fshape[] = {pairs}, kshape[] = {pairs, 1};
    sgk_tensor f = {SGK_FLOAT32, 1, fshape, data}, kx = {SGK_INT64, 2, kshape, idx};
    check_binned_untouched("scatter_nd k = 1, last index one past", &f, &kx, &u, 0, "[262143]");
    free(data);
    free(upd);
    free(idx);
}

/* Slices of no elements leave nothing to move, and the executor skips an
   empty output: a bad index among 200 must still be found while planning
   (the matrix runs this with SGK_PARALLEL_MIN_BYTES=0 too, where one-shot
   scatters take the paths that check their indices as they run). */
static void test_index_out_of_range_empty_slices(void **state)
{
    (void)state;
    enum { N = 200 };
    int64_t idx[N];
    for (int i = 0; i < N; i++)
        idx[i] = i % 5 - 2;
    idx[N - 1] = 5;
    float data[1], upd[1], out[1];
    const int64_t dshape[] = {5, 0}, ishape[] = {N, 1}, ushape[] = {N, 0};
    sgk_tensor d = {SGK_FLOAT32, 2, dshape, data}, ix = {SGK_INT64, 2, ishape, idx};
    sgk_tensor u = {SGK_FLOAT32, 2, ushape, upd};
    for (int r = 0; r < 2; r++) {
        sgk_status st = sgk_scatter_nd(&d, &ix, &u, r ? SGK_REDUCE_ADD : SGK_REDUCE_NONE, out);
        if (st != SGK_ERR_INDEX_OUT_OF_RANGE || strstr(sgk_last_error(), "[199]") == NULL)
            fail_msg("scatter_nd, empty slices: %s, \"%s\"", sgk_status_name(st),
                     sgk_last_error());
    }
    /* ScatterElements along an empty axis: data [0, 4], indices [50, 4],
       so every index is out of range and the output has no elements */
    const int64_t edshape[] = {0, 4}, eishape[] = {N / 4, 4};
    sgk_tensor ed = {SGK_FLOAT32, 2, edshape, data}, eix = {SGK_INT64, 2, eishape, idx};
    sgk_tensor eu = {SGK_FLOAT32, 2, eishape, upd};
    float eupd[N];
    for (int i = 0; i < N; i++)
        eupd[i] = 1.0f;
    eu.data = eupd;
    for (int r = 0; r < 2; r++) {
        sgk_status st = sgk_scatter_elements(&ed, &eix, &eu, 0,
                                             r ? SGK_REDUCE_ADD : SGK_REDUCE_NONE, out);
        if (st != SGK_ERR_INDEX_OUT_OF_RANGE || strstr(sgk_last_error(), "[0, 0]") == NULL)
            fail_msg("scatter_elements, empty axis: %s, \"%s\"", sgk_status_name(st),
                     sgk_last_error());
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_base_cases_valid),
        PER_OP("index_out_of_range", test_index_out_of_range),
        PER_OP("index_out_of_range_last", test_index_out_of_range_last),
        cmocka_unit_test(test_index_out_of_range_last_binned),
        cmocka_unit_test(test_index_out_of_range_empty_slices),
    };
    return cmocka_run_group_tests_name("sgk errors: indices", tests, group_setup, NULL);
}
