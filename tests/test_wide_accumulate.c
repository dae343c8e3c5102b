/*
 * SGK_PLAN_WIDE_ACCUMULATE: fp16/bf16 add/sub/mul with the flag widen each
 * destination once, apply every update in float32 in original order and
 * round once.  The expectation is computed here from that definition with
 * the reference's conversions (tests/support/reference.c), so whatever path
 * the environment forces is checked: tests/test_reduce_paths.sh runs this
 * under each SGK_REDUCE_PATH, as it runs tests/test_paths.
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

#include "support/common.h"
#include "support/reference.h"
#include "sgk.h"

/* A random sign, for values symmetric around zero. */
static double rng_sign(tc_rng *r)
{
    return tc_rng_percent(r, 50) ? -1.0 : 1.0;
}

/* Slices of 1 and 9 elements, a few hot rows among 512: many duplicates. */
static void test_wide_accumulate(void **state)
{
    (void)state;
    static const sgk_dtype types[] = {SGK_FLOAT16, SGK_BFLOAT16};
    static const sgk_reduction reds[] = {SGK_REDUCE_ADD, SGK_REDUCE_SUB, SGK_REDUCE_MUL};
    static const int64_t slice_lens[] = {1, 9};
    enum { ROWS = 512, UPDATES = 3000 };
    int bad = 0;
    for (size_t t = 0; t < 2; t++)
        for (size_t r = 0; r < 3; r++)
            for (size_t l = 0; l < 2; l++) {
                const int64_t L = slice_lens[l];
                const bool f16 = types[t] == SGK_FLOAT16;
                tc_rng rng = {0x5eedULL + t * 100 + r * 10 + l};
                uint16_t *data = malloc(ROWS * L * 2), *upd = malloc(UPDATES * L * 2);
                uint16_t *out = malloc(ROWS * L * 2), *want = malloc(ROWS * L * 2);
                float *acc = malloc(ROWS * L * sizeof *acc);
                int64_t *idx = malloc(UPDATES * sizeof *idx);
                bool *touched = calloc(ROWS, 1);
                for (int64_t i = 0; i < ROWS * L; i++) {
                    float v = (float)(rng_sign(&rng) * (1.0 + tc_rng_unit(&rng)));
                    data[i] = f16 ? ref_f32_to_f16(v) : ref_f32_to_bf16(v);
                }
                for (int64_t i = 0; i < UPDATES * L; i++) {
                    /* mul near 1 keeps long products finite */
                    float v = reds[r] == SGK_REDUCE_MUL
                                  ? (float)(1.0 + rng_sign(&rng) * tc_rng_unit(&rng) / 64)
                                  : (float)(rng_sign(&rng) * tc_rng_unit(&rng));
                    upd[i] = f16 ? ref_f32_to_f16(v) : ref_f32_to_bf16(v);
                }
                for (int64_t n = 0; n < UPDATES; n++) /* a few hot rows, many duplicates */
                    idx[n] = tc_rng_percent(&rng, 50) ? tc_rng_below(&rng, 4)
                                                      : tc_rng_below(&rng, ROWS);
                for (int64_t i = 0; i < ROWS * L; i++)
                    acc[i] = f16 ? ref_f16_to_f32(data[i]) : ref_bf16_to_f32(data[i]);
                for (int64_t n = 0; n < UPDATES; n++) {
                    touched[idx[n]] = true;
                    for (int64_t e = 0; e < L; e++) {
                        float *a = &acc[idx[n] * L + e];
                        float u = f16 ? ref_f16_to_f32(upd[n * L + e])
                                      : ref_bf16_to_f32(upd[n * L + e]);
                        *a = reds[r] == SGK_REDUCE_ADD ? *a + u
                             : reds[r] == SGK_REDUCE_SUB ? *a - u : *a * u;
                    }
                }
                for (int64_t i = 0; i < ROWS * L; i++)
                    want[i] = !touched[i / L] ? data[i]
                              : f16       ? ref_f32_to_f16(acc[i])
                                          : ref_f32_to_bf16(acc[i]);
                int64_t dshape[2] = {ROWS, L}, ishape[2] = {UPDATES, 1}, ushape[2] = {UPDATES, L};
                sgk_tensor dt = {types[t], L > 1 ? 2 : 1, dshape, data};
                sgk_tensor it = {SGK_INT64, 2, ishape, idx};
                sgk_tensor ut = {types[t], L > 1 ? 2 : 1, ushape, upd};
                sgk_plan *plan = NULL;
                sgk_status st = sgk_plan_scatter_nd(&plan, &dt, &it, &ut, reds[r],
                                                    SGK_PLAN_WIDE_ACCUMULATE);
                if (st == SGK_OK)
                    st = sgk_execute(plan, data, upd, out);
                if (st != SGK_OK) {
                    printf("wide accumulate %s %s L=%lld: status %s: %s\n",
                           tc_dtype_name(types[t]), tc_reduction_name(reds[r]), (long long)L,
                           sgk_status_name(st), sgk_last_error());
                    bad++;
                } else if (memcmp(out, want, ROWS * L * 2) != 0) {
                    int64_t i = 0;
                    while (out[i] == want[i])
                        i++;
                    printf("wide accumulate %s %s L=%lld: element %lld got %04x want %04x "
                           "[%s]\n",
                           tc_dtype_name(types[t]), tc_reduction_name(reds[r]), (long long)L,
                           (long long)i, out[i], want[i], sgk_plan_describe(plan));
                    bad++;
                }
                sgk_plan_destroy(plan);
                free(data), free(upd), free(out), free(want), free(acc), free(idx), free(touched);
            }
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wide_accumulate),
    };
    return cmocka_run_group_tests_name("test_wide_accumulate", tests, NULL, NULL);
}
