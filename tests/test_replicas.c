/*
 * One-shot scatters whose reduction groups (src/paths/replicas.c): each
 * thread folds its share of the pairs into a replica, and the replicas
 * are folded into the output in order.  Four threads, so that the
 * replicas are several.
 *
 * - ScatterND of single elements (k = 1, 1000 slots), of slices (k = 1
 *   into [250, 4]) and ScatterElements along axis 0 of [250, 4], 80,000
 *   updates at random (enough that no call counts as small), a quarter
 *   of the indices negative or none (int64 indices are then folded from
 *   where they lie), int32 and int64: every type and reduction
 *   the path serves (integer add, sub, mul, max, min; float max and
 *   min), bit for bit the reference (tests/reference.c), and in place.
 *   Bool, whose folds give 0 or 1, must not take the path: a byte of
 *   0x6f that no update touches keeps its value.
 *   Float values include +0 and -0, infinities and NaNs of many payloads
 *   and both signs, so that a replica that kept another NaN, or the other
 *   zero, than the sequential loop fails.
 * - A bad index in the last pair of the last thread's share (one past
 *   either end of the axis), and two bad ones in different shares, among
 *   indices with negatives and without: the status, the message naming
 *   the first, and the output and the data untouched.
 * Where nothing forces another path (tests/matrix.sh), the calls must
 * take the replicas path.
 */
#define _POSIX_C_SOURCE 200809L

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
#include "support/reference.h"
#include "support/tiny_cases.h"
#include "sgk.h"

enum { SLOTS = 1000, PAIRS = 80000, ROW = 4 };

static bool path_free(void)
{
    return getenv("SGK_PATH") == NULL && getenv("SGK_REDUCE_PATH") == NULL;
}

/* A float of the type from a value, +-0, +-inf or a NaN of a random
   payload and sign. */
static void fill_floats(tc_rng *r, sgk_dtype t, void *p, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        const uint64_t bits = tc_rng_next(r), sign = bits >> 63;
        const unsigned kind = (unsigned)tc_rng_below(r, 20);
        const double v = kind == 0 ? 0.0 : kind == 1 ? -0.0 : kind == 2 ? 1.0 / 0.0
                         : kind == 3 ? -1.0 / 0.0 : (double)tc_rng_range(r, -9, 9) * 0.75;
        const bool nan = kind == 4 || kind == 5;
        switch (t) {
        case SGK_FLOAT16:
            ((uint16_t *)p)[i] = nan ? (uint16_t)(sign << 15 | 0x7C00u | (1u + bits % 0x3FF))
                                     : ref_f32_to_f16((float)v);
            break;
        case SGK_BFLOAT16:
            ((uint16_t *)p)[i] = nan ? (uint16_t)(sign << 15 | 0x7F80u | (1u + bits % 0x7F))
                                     : ref_f32_to_bf16((float)v);
            break;
        case SGK_FLOAT32: {
            const uint32_t nan32 =
                (uint32_t)(sign << 31 | 0x7F800000u | (1u + bits % 0x7FFFFF));
            float f = (float)v;
            if (nan)
                memcpy(&f, &nan32, 4);
            ((float *)p)[i] = f;
            break;
        }
        default: {
            const uint64_t nan64 = sign << 63 | UINT64_C(0x7FF0000000000000) |
                                   (1u + (bits >> 1) % UINT64_C(0xFFFFFFFFFFFFF));
            double f = v;
            if (nan)
                memcpy(&f, &nan64, 8);
            ((double *)p)[i] = f;
            break;
        }
        }
    }
}

static void fill(tc_rng *r, sgk_dtype t, void *p, int64_t n)
{
    if ((sgk_dtype_flags(t) & SGK_DTYPE_FLOAT) != 0)
        fill_floats(r, t, p, n);
    else
        tiny_fill(r, t, p, n);
}

typedef enum { ELEMENTS_ND, SLICES_ND, ELEMENTS } form;

typedef struct {
    form f;
    sgk_dtype t, itype;
    sgk_reduction red;
    int64_t dshape[2], ishape[2], ushape[2];
    int rank, irank, urank;
    int64_t n_upd;
    void *data, *upd, *idx;
} scatter_case;

/* positive_only: no index needs wrapping, so that int64 indices are
   folded from where they lie (sgk_slots_of_range). */
static void make_case(scatter_case *c, form f, sgk_dtype t, sgk_reduction red, sgk_dtype itype,
                      bool positive_only, tc_rng *r)
{
    const size_t es = sgk_dtype_size(t);
    *c = (scatter_case){.f = f, .t = t, .itype = itype, .red = red, .rank = 1, .irank = 2,
                        .urank = 1};
    const int64_t slots = f == SLICES_ND ? SLOTS / ROW : SLOTS;
    c->dshape[0] = SLOTS;
    c->ishape[0] = c->ushape[0] = PAIRS;
    c->ishape[1] = 1;
    if (f == SLICES_ND)
        c->dshape[0] = slots, c->dshape[1] = ROW, c->rank = 2, c->ushape[1] = ROW, c->urank = 2;
    /* Elements: [250, 4] along axis 0 by [40000, 2], indices that do not
       span the data beside the axis (the lines path would take those) */
    if (f == ELEMENTS) {
        c->dshape[0] = SLOTS / ROW, c->dshape[1] = ROW, c->rank = 2;
        c->ishape[0] = c->ushape[0] = PAIRS / 2, c->ishape[1] = c->ushape[1] = 2;
        c->urank = 2;
    }
    c->n_upd = f == SLICES_ND ? PAIRS * ROW : PAIRS;
    c->data = xmalloc(SLOTS * es);
    c->upd = xmalloc((size_t)c->n_upd * es);
    c->idx = xmalloc((size_t)PAIRS * 8);
    int64_t *idx64 = xmalloc((size_t)PAIRS * sizeof *idx64);
    tiny_fill_indices(r, idx64, PAIRS, f == ELEMENTS ? SLOTS / ROW : slots, positive_only);
    for (int64_t n = 0; n < PAIRS; n++) {
        if (itype == SGK_INT32)
            ((int32_t *)c->idx)[n] = (int32_t)idx64[n];
        else
            ((int64_t *)c->idx)[n] = idx64[n];
    }
    free(idx64);
    fill(r, t, c->data, SLOTS);
    fill(r, t, c->upd, c->n_upd);
}

static void free_case(scatter_case *c)
{
    free(c->data), free(c->upd), free(c->idx);
}

/* The call (sgk) or the reference's, on data into out. */
static sgk_status scatter(const scatter_case *c, const void *data, void *out, bool reference)
{
    const sgk_tensor d = {c->t, c->rank, c->dshape, data};
    const sgk_tensor i = {c->itype, c->irank, c->ishape, c->idx};
    const sgk_tensor u = {c->t, c->urank, c->ushape, c->upd};
    if (reference) {
        if (c->f == ELEMENTS)
            ref_scatter_elements(&d, &i, &u, 0, c->red, out);
        else
            ref_scatter_nd(&d, &i, &u, c->red, out);
        return SGK_OK;
    }
    return c->f == ELEMENTS ? sgk_scatter_elements(&d, &i, &u, 0, c->red, out)
                            : sgk_scatter_nd(&d, &i, &u, c->red, out);
}

static void expect_same(const scatter_case *c, const void *want, const void *got,
                        const char *what)
{
    const size_t es = sgk_dtype_size(c->t);
    for (int64_t e = 0; e < SLOTS; e++)
        if (memcmp((const char *)want + e * es, (const char *)got + e * es, es) != 0)
            fail_msg("%s: element %lld differs from the reference", what, (long long)e);
}

static void run_case(form f, sgk_dtype t, sgk_reduction red, sgk_dtype itype,
                     bool positive_only, tc_rng *r)
{
    static const char *const forms[] = {"scatter_nd of elements", "scatter_nd of slices",
                                        "scatter_elements"};
    scatter_case c;
    make_case(&c, f, t, red, itype, positive_only, r);
    const size_t bytes = SLOTS * sgk_dtype_size(t);
    void *want = xmalloc(bytes), *got = xmalloc(bytes);
    char what[160];
    snprintf(what, sizeof what, "%s %s %s, %s indices%s", forms[f], tc_dtype_name(t),
             tc_reduction_name(red), tc_dtype_name(itype), positive_only ? ", none negative" : "");
    scatter(&c, c.data, want, true);
    memset(got, 0xA5, bytes);
    sgk_status st = scatter(&c, c.data, got, false);
    if (st != SGK_OK)
        fail_msg("%s: %s (%s)", what, tc_status_name(st), tc_last_error());
    if (path_free() && strcmp(sgk_last_path(), "replicas") != 0)
        fail_msg("%s: took %s, not replicas", what, sgk_last_path());
    expect_same(&c, want, got, what);
    /* in place: the data becomes the output */
    st = scatter(&c, c.data, c.data, false);
    if (st != SGK_OK)
        fail_msg("%s in place: %s (%s)", what, tc_status_name(st), tc_last_error());
    expect_same(&c, want, c.data, what);
    free(want), free(got);
    free_case(&c);
}

static void test_grouping_reductions(void **state)
{
    (void)state;
    static const sgk_dtype types[] = {SGK_FLOAT32, SGK_FLOAT64, SGK_FLOAT16, SGK_BFLOAT16,
                                      SGK_INT8,    SGK_UINT8,   SGK_INT16,   SGK_UINT16,
                                      SGK_INT32,   SGK_UINT32,  SGK_INT64,   SGK_UINT64};
    static const sgk_reduction reds[] = {SGK_REDUCE_ADD, SGK_REDUCE_SUB, SGK_REDUCE_MUL,
                                         SGK_REDUCE_MAX, SGK_REDUCE_MIN};
    tc_rng r = {UINT64_C(0x7e911ca5)};
    int cases = 0;
    for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++)
        for (size_t ri = 0; ri < sizeof reds / sizeof reds[0]; ri++) {
            const sgk_dtype t = types[ti];
            const sgk_reduction red = reds[ri];
            const bool is_float = (sgk_dtype_flags(t) & SGK_DTYPE_FLOAT) != 0;
            if (!ref_reduction_supported(t, red) ||
                (is_float && red != SGK_REDUCE_MAX && red != SGK_REDUCE_MIN))
                continue;
            for (form f = ELEMENTS_ND; f <= ELEMENTS; f++)
                run_case(f, t, red, (ti + ri + f) % 2 ? SGK_INT32 : SGK_INT64,
                         (ti + ri + f) / 2 % 2 == 0, &r);
            cases++;
        }
    assert_true(cases >= 40);
    /* bool never takes the path: a fold gives 0 or 1, and would rewrite
       a byte no update touched */
    tc_rng b = {7};
    scatter_case c;
    make_case(&c, ELEMENTS_ND, SGK_BOOL, SGK_REDUCE_MUL, SGK_INT64, false, &b);
    int64_t *idx = c.idx;
    for (int64_t n = 0; n < PAIRS; n++)
        if (idx[n] == 0 || idx[n] == -SLOTS)
            idx[n] = 1; /* slot 0 untouched */
    ((uint8_t *)c.data)[0] = 0x6f;
    uint8_t want[SLOTS], got[SLOTS];
    scatter(&c, c.data, want, true);
    assert_int_equal(scatter(&c, c.data, got, false), SGK_OK);
    assert_int_equal(got[0], 0x6f);
    assert_memory_equal(want, got, SLOTS);
    assert_false(strcmp(sgk_last_path(), "replicas") == 0);
    free_case(&c);
}

/* Bad indices at `bad`, value + k for the k-th (value - k when value is
   negative), among indices all non-negative or not: the call fails naming
   the first, and neither the output nor the data changes. */
static void expect_refused(const int64_t *bad, int nbad, int64_t value, bool positive_only)
{
    tc_rng r = {UINT64_C(0xbadbad)};
    scatter_case c;
    make_case(&c, ELEMENTS_ND, SGK_INT32, SGK_REDUCE_ADD, SGK_INT64, positive_only, &r);
    const int64_t step = value < 0 ? -1 : 1;
    for (int k = 0; k < nbad; k++)
        ((int64_t *)c.idx)[bad[k]] = value + step * k;
    int32_t *out = xmalloc(SLOTS * sizeof *out), *before = xmalloc(SLOTS * sizeof *before);
    memset(out, 0x5A, SLOTS * sizeof *out);
    memcpy(before, c.data, SLOTS * sizeof *before);
    assert_int_equal(scatter(&c, c.data, out, false), SGK_ERR_INDEX_OUT_OF_RANGE);
    char first[32], second[32];
    snprintf(first, sizeof first, "[%lld]", (long long)value);
    snprintf(second, sizeof second, "[%lld]", (long long)(value + step));
    if (strstr(tc_last_error(), first) == NULL || strstr(tc_last_error(), second) != NULL)
        fail_msg("the message does not name the first bad index, %s: %s", first,
                 tc_last_error());
    for (int64_t e = 0; e < SLOTS; e++)
        if (out[e] != 0x5A5A5A5A)
            fail_msg("output element %lld written by a failing call", (long long)e);
    assert_int_equal(scatter(&c, c.data, c.data, false), SGK_ERR_INDEX_OUT_OF_RANGE);
    assert_memory_equal(c.data, before, SLOTS * sizeof *before);
    free(out), free(before);
    free_case(&c);
}

static void test_bad_indices(void **state)
{
    (void)state;
    const int64_t last[] = {PAIRS - 1};
    const int64_t two[] = {PAIRS / 4 + 3, 3 * PAIRS / 4 + 5};
    for (int positive_only = 0; positive_only <= 1; positive_only++) {
        /* one past either end, and well past */
        expect_refused(last, 1, SLOTS, positive_only);
        expect_refused(last, 1, -SLOTS - 1, positive_only);
        expect_refused(two, 2, SLOTS + 7, positive_only);
    }
}

int main(void)
{
    sgk_set_num_threads(4);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grouping_reductions),
        cmocka_unit_test(test_bad_indices),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
