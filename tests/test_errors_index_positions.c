/*
 * SGK_ERR_INDEX_OUT_OF_RANGE at every position of an index that the
 * library checks a vector at a time: single coordinates (Elements, and
 * GatherND and ScatterND with k = 1) and coordinate pairs (k = 2), int32
 * and int64, each bad value found and named with its position, the output
 * untouched; and the extremes around it valid.  The other index errors:
 * tests/test_errors_indices.c.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "support/common.h"
#include "sgk.h"

/* Indices are checked a vector at a time: a bad value at any position of
   41 (past two vectors of 16 int32 lanes and five of 8 int64 lanes, with
   a scalar tail) is found and named, and the output stays untouched; the
   extremes -dim and dim - 1 around it are valid, and without the bad value
   each gathers the element it names. */
static sgk_status call_one_coordinate(int op, const sgk_tensor *d, const sgk_tensor *ix,
                                      const sgk_tensor *u, float *out)
{
    switch (op) {
    case 0: return sgk_gather_elements(d, ix, 1, out);
    case 1: return sgk_scatter_elements(d, ix, u, 1, SGK_REDUCE_NONE, out);
    case 2: return sgk_gather_nd(d, ix, 0, out);
    default: return sgk_scatter_nd(d, ix, u, SGK_REDUCE_ADD, out);
    }
}

static void test_index_bounds_every_position(void **state)
{
    (void)state;
    enum { DIM = 7, N = 41 };
    static const char *const names[] = {"gather_elements", "scatter_elements", "gather_nd",
                                        "scatter_nd"};
    float data[DIM], upd[N], out[N > DIM ? N : DIM], before[N > DIM ? N : DIM];
    int64_t idx64[N];
    int32_t idx32[N];
    for (int i = 0; i < DIM; i++)
        data[i] = (float)(10 + i);
    for (int i = 0; i < N; i++)
        upd[i] = 1.0f;
    for (int op = 0; op < 4; op++) {
        const bool elements = op < 2;
        const int64_t dshape_el[] = {1, DIM}, ishape_el[] = {1, N};
        const int64_t dshape_nd[] = {DIM}, ishape_nd[] = {N, 1}, ushape_nd[] = {N};
        sgk_tensor d = {SGK_FLOAT32, elements ? 2 : 1, elements ? dshape_el : dshape_nd, data};
        sgk_tensor u = {SGK_FLOAT32, elements ? 2 : 1, elements ? ishape_el : ushape_nd, upd};
        for (int t = 0; t < 2; t++) {
            sgk_tensor ix = {t ? SGK_INT64 : SGK_INT32, 2, elements ? ishape_el : ishape_nd,
                             t ? (void *)idx64 : (void *)idx32};
            for (int bad = -1; bad < 2 * N; bad++) {
                const int64_t value = bad < 0 ? 0 : bad % 2 ? -DIM - 1 : DIM;
                for (int i = 0; i < N; i++) {
                    const int64_t valid = i % 3 == 0 ? -DIM : DIM - 1 - i % 2;
                    idx64[i] = bad >= 0 && i == bad / 2 ? value : valid;
                    idx32[i] = (int32_t)idx64[i];
                }
                memset(out, 0x5A, sizeof out);
                memcpy(before, out, sizeof out);
                sgk_status st = call_one_coordinate(op, &d, &ix, &u, out);
                if (bad < 0) {
                    if (st != SGK_OK)
                        fail_msg("%s: %s", names[op], sgk_last_error());
                    for (int i = 0; op == 0 && i < N; i++)
                        if (out[i] != data[idx64[i] < 0 ? idx64[i] + DIM : idx64[i]])
                            fail_msg("%s: output %d is %g", names[op], i, (double)out[i]);
                    continue;
                }
                char needle[32];
                snprintf(needle, sizeof needle, "%lld", (long long)value);
                if (st != SGK_ERR_INDEX_OUT_OF_RANGE || strstr(sgk_last_error(), needle) == NULL)
                    fail_msg("%s, %s index %lld at %d: %s, \"%s\"", names[op],
                             t ? "int64" : "int32", (long long)value, bad / 2,
                             sgk_status_name(st), sgk_last_error());
                if (memcmp(out, before, sizeof out) != 0)
                    fail_msg("%s, bad index at %d: the output was written", names[op], bad / 2);
            }
        }
    }
}

/* The same for pairs of coordinates (k = 2), which are checked and
   flattened a vector at a time: a bad first or second coordinate of any
   of 41 pairs (just outside the dimension, or the type's largest value,
   whose product with the stride must not overflow) is found and its pair
   named, nothing written; without one, GatherND gathers what each pair
   names. */
static void test_index_pair_bounds_every_position(void **state)
{
    (void)state;
    enum { D0 = 7, D1 = 5, N = 41 };
    float data[D0 * D1], upd[N], out[D0 * D1 > N ? D0 * D1 : N], before[sizeof out / 4];
    int64_t idx64[2 * N];
    int32_t idx32[2 * N];
    for (int i = 0; i < D0 * D1; i++)
        data[i] = (float)(100 + i);
    for (int i = 0; i < N; i++)
        upd[i] = 1.0f;
    const int64_t dshape[] = {D0, D1}, ishape[] = {N, 2}, ushape[] = {N};
    sgk_tensor d = {SGK_FLOAT32, 2, dshape, data}, u = {SGK_FLOAT32, 1, ushape, upd};
    for (int scatter = 0; scatter < 2; scatter++)
        for (int t = 0; t < 2; t++) {
            sgk_tensor ix = {t ? SGK_INT64 : SGK_INT32, 2, ishape,
                             t ? (void *)idx64 : (void *)idx32};
            /* bad: pair bad / 6, coordinate bad / 3 % 2, value dim, -dim - 1
               or the type's largest */
            for (int bad = -1; bad < 6 * N; bad++) {
                const int at = bad / 6, j = bad / 3 % 2;
                const int64_t dim = j ? D1 : D0;
                const int64_t value = bad % 3 == 0   ? dim
                                      : bad % 3 == 1 ? -dim - 1
                                      : t            ? INT64_MAX
                                                     : INT32_MAX;
                for (int i = 0; i < 2 * N; i++) {
                    const int64_t di = i % 2 ? D1 : D0;
                    idx64[i] = i / 2 % 3 == 0 ? -di : di - 1 - i / 2 % 2;
                }
                if (bad >= 0)
                    idx64[2 * at + j] = value;
                for (int i = 0; i < 2 * N; i++)
                    idx32[i] = (int32_t)idx64[i];
                memset(out, 0x5A, sizeof out);
                memcpy(before, out, sizeof out);
                sgk_status st = scatter ? sgk_scatter_nd(&d, &ix, &u, SGK_REDUCE_ADD, out)
                                        : sgk_gather_nd(&d, &ix, 0, out);
                if (bad < 0) {
                    if (st != SGK_OK)
                        fail_msg("k = 2: %s", sgk_last_error());
                    if (!scatter) { /* the same through a plan's 32-bit slots */
                        sgk_plan *plan = NULL;
                        float planned[N];
                        CHECK_OK(sgk_plan_gather_nd(&plan, &d, &ix, 0, 0));
                        CHECK_OK(sgk_execute(plan, data, NULL, planned));
                        if (memcmp(planned, out, sizeof planned) != 0)
                            fail_msg("plan_gather_nd k = 2: not the one-shot's outputs");
                        sgk_plan_destroy(plan);
                    }
                    for (int i = 0; !scatter && i < N; i++) {
                        const int64_t r = idx64[2 * i] < 0 ? idx64[2 * i] + D0 : idx64[2 * i];
                        const int64_t c =
                            idx64[2 * i + 1] < 0 ? idx64[2 * i + 1] + D1 : idx64[2 * i + 1];
                        if (out[i] != data[r * D1 + c])
                            fail_msg("gather_nd k = 2: output %d is %g", i, (double)out[i]);
                    }
                    continue;
                }
                char needle[32];
                snprintf(needle, sizeof needle, "indices[%d] = [", at);
                if (st != SGK_ERR_INDEX_OUT_OF_RANGE || strstr(sgk_last_error(), needle) == NULL)
                    fail_msg("%s k = 2, %s coordinate %d of pair %d = %lld: %s, \"%s\"",
                             scatter ? "scatter_nd" : "gather_nd", t ? "int64" : "int32", j, at,
                             (long long)value, sgk_status_name(st), sgk_last_error());
                if (memcmp(out, before, sizeof out) != 0)
                    fail_msg("k = 2, bad pair %d: the output was written", at);
                /* a plan maps the pairs into 32-bit slots, and fails alike */
                sgk_plan *plan = NULL;
                if (!scatter)
                    st = sgk_plan_gather_nd(&plan, &d, &ix, 0, 0);
                if (st != SGK_ERR_INDEX_OUT_OF_RANGE || strstr(sgk_last_error(), needle) == NULL)
                    fail_msg("plan_gather_nd k = 2, pair %d: %s, \"%s\"", at,
                             sgk_status_name(st), sgk_last_error());
                sgk_plan_destroy(plan);
            }
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_index_bounds_every_position),
        cmocka_unit_test(test_index_pair_bounds_every_position),
    };
    return cmocka_run_group_tests_name("sgk errors: index positions", tests, NULL, NULL);
}
