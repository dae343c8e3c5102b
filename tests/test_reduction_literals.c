/*
 * Hand-computed reduction cells: wrapping integers, unsigned max/min,
 * rounding to nearest even, overflow and subnormals of the half types,
 * NaN and signed zeros in max/min, sub as out - update, bool logic,
 * complex products, strings' last write.  Each must come out of the
 * reference (tests/support/reference.c) exactly as written here, which
 * checks the reference that tests/test_reductions.c and the other tests
 * judge the library by, and out of sgk_scatter_nd and sgk_scatter_elements
 * with both index types and in place.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "support/common.h"
#include "support/reference.h"
#include "support/result_diff.h"
#include "sgk.h"

#define SENTINEL 0x5C
#define MAX_ELEMS 16
#define MAX_BYTES (MAX_ELEMS * 16)

/* 1-D case: data [n], `m` updates at `idx`.  Checks that the reference gives
   `expected` exactly, then that sgk_scatter_nd (indices [m,1]) and
   sgk_scatter_elements (indices [m], axis 0 and -1) do too, with both index
   types and in place. */
static void check_literal(sgk_dtype dtype, sgk_reduction red, const void *data, int64_t n,
                          const int64_t *idx, int64_t m, const void *upd, const void *expected)
{
    size_t es = tc_dtype_size(dtype);
    size_t bytes = (size_t)n * es;
    unsigned char out[MAX_BYTES];
    int32_t idx32[MAX_ELEMS];
    int64_t dshape[1] = {n}, ishape_nd[2] = {m, 1}, ushape[1] = {m}, ishape_el[1] = {m};
    int bad = 0;

    assert_true(bytes <= sizeof out && m <= MAX_ELEMS);
    for (int64_t i = 0; i < m; i++)
        idx32[i] = (int32_t)idx[i];

    sgk_tensor d = {dtype, 1, dshape, data};
    sgk_tensor u = {dtype, 1, ushape, upd};
    sgk_tensor i64nd = {SGK_INT64, 2, ishape_nd, idx};
    sgk_tensor i32nd = {SGK_INT32, 2, ishape_nd, idx32};
    sgk_tensor i64el = {SGK_INT64, 1, ishape_el, idx};
    sgk_tensor i32el = {SGK_INT32, 1, ishape_el, idx32};

    ref_scatter_nd(&d, &i64nd, &u, red, out);
    if (memcmp(out, expected, bytes) != 0) {
        printf("reference disagrees with the literal:\n");
        bad += count_result_differences("reference", dtype, SGK_REDUCE_NONE, expected, out, n);
    }

    for (int variant = 0; variant < 8; variant++) {
        const sgk_tensor *ind = variant & 1 ? (variant & 4 ? &i32el : &i32nd)
                                            : (variant & 4 ? &i64el : &i64nd);
        int in_place = (variant & 2) != 0;
        char what[96];
        sgk_tensor dd = d;
        sgk_status st;
        if (in_place) {
            memcpy(out, data, bytes);
            dd.data = out;
        } else {
            memset(out, SENTINEL, sizeof out);
        }
        if (variant & 4)
            st = sgk_scatter_elements(&dd, ind, &u, variant & 1 ? -1 : 0, red, out);
        else
            st = sgk_scatter_nd(&dd, ind, &u, red, out);
        snprintf(what, sizeof what, "literal %s%s (%s indices)",
                 variant & 4 ? "scatter_elements" : "scatter_nd", in_place ? " in place" : "",
                 tc_dtype_name(ind->dtype));
        if (st != SGK_OK) {
            printf("FAIL %s dtype=%s reduction=%s: status %s (%s)\n", what,
                   tc_dtype_name(dtype), tc_reduction_name(red), sgk_status_name(st),
                   sgk_last_error());
            bad++;
            continue;
        }
        /* Literals avoid arithmetic NaN, so demand the exact bytes. */
        bad += count_result_differences(what, dtype, SGK_REDUCE_NONE, expected, out, n);
    }
    assert_int_equal(bad, 0);
}

static void test_int8_add_wraps(void **state)
{
    (void)state;
    const int8_t data[] = {127, -128};
    const int64_t idx[] = {0, 1, 1};
    const int8_t upd[] = {1, -1, -1};
    const int8_t expected[] = {-128, 126}; /* 127+1 wraps; -128-1 wraps to 127, then 126 */
    check_literal(SGK_INT8, SGK_REDUCE_ADD, data, 2, idx, 3, upd, expected);
}

static void test_uint8_mul_wraps(void **state)
{
    (void)state;
    const uint8_t data[] = {200, 3};
    const int64_t idx[] = {0, -2, 1};
    const uint8_t upd[] = {2, 3, 171};
    const uint8_t expected[] = {176, 1}; /* 400 -> 144, 432 -> 176; 513 -> 1 */
    check_literal(SGK_UINT8, SGK_REDUCE_MUL, data, 2, idx, 3, upd, expected);
}

static void test_int16_sub_wraps(void **state)
{
    (void)state;
    const int16_t data[] = {-32768, 5};
    const int64_t idx[] = {0, 0, 1};
    const int16_t upd[] = {1, 1, -32768};
    const int16_t expected[] = {32766, -32763}; /* 5 + 32768 wraps to -32763 */
    check_literal(SGK_INT16, SGK_REDUCE_SUB, data, 2, idx, 3, upd, expected);
}

static void test_uint16_mul_wraps(void **state)
{
    (void)state;
    const uint16_t data[] = {65535};
    const int64_t idx[] = {0, 0};
    const uint16_t upd[] = {65535, 3};
    const uint16_t expected[] = {3}; /* 65535^2 = 1 mod 2^16, then 3 */
    check_literal(SGK_UINT16, SGK_REDUCE_MUL, data, 1, idx, 2, upd, expected);
}

static void test_int32_mul_wraps(void **state)
{
    (void)state;
    const int32_t data[] = {65536, INT32_MIN};
    const int64_t idx[] = {0, 1};
    const int32_t upd[] = {65536, -1};
    const int32_t expected[] = {0, INT32_MIN};
    check_literal(SGK_INT32, SGK_REDUCE_MUL, data, 2, idx, 2, upd, expected);
}

static void test_uint32_max_min_unsigned(void **state)
{
    (void)state;
    const uint32_t data[] = {1, 0xFFFFFFFFu};
    const int64_t idx[] = {0, 1, -2};
    const uint32_t upd[] = {0xFFFFFFFFu, 0, 0x80000000u};
    const uint32_t expected_max[] = {0xFFFFFFFFu, 0xFFFFFFFFu};
    const uint32_t expected_min[] = {1, 0};
    check_literal(SGK_UINT32, SGK_REDUCE_MAX, data, 2, idx, 3, upd, expected_max);
    check_literal(SGK_UINT32, SGK_REDUCE_MIN, data, 2, idx, 3, upd, expected_min);
}

static void test_int64_wraps_and_signed_max(void **state)
{
    (void)state;
    const int64_t data[] = {INT64_MIN, (int64_t)1 << 32, -5};
    const int64_t idx[] = {0, 1, 2};
    const int64_t upd[] = {-1, (int64_t)1 << 32, 3};
    const int64_t expected_mul[] = {INT64_MIN, 0, -15};
    check_literal(SGK_INT64, SGK_REDUCE_MUL, data, 3, idx, 3, upd, expected_mul);
    const int64_t expected_max[] = {-1, (int64_t)1 << 32, 3};
    check_literal(SGK_INT64, SGK_REDUCE_MAX, data, 3, idx, 3, upd, expected_max);
    const int64_t expected_min[] = {INT64_MIN, (int64_t)1 << 32, -5};
    check_literal(SGK_INT64, SGK_REDUCE_MIN, data, 3, idx, 3, upd, expected_min);
}

static void test_uint64_add_wraps(void **state)
{
    (void)state;
    const uint64_t data[] = {UINT64_MAX};
    const int64_t idx[] = {0, -1};
    const uint64_t upd[] = {1, 1};
    const uint64_t expected[] = {1};
    check_literal(SGK_UINT64, SGK_REDUCE_ADD, data, 1, idx, 2, upd, expected);
}

static void test_bf16_round_nearest_even(void **state)
{
    (void)state;
    /* 1.0 + 2^-8 = 0x3F808000 exactly halfway: ties to even 0x3F80, and the
       next add from 1.0 again ties back, so three duplicates stay at 1.0;
       0x3F81 + 2^-8 = 0x3F818000 ties up to the even 0x3F82. */
    const uint16_t data[] = {0x3F80, 0x3F81, 0x7F7F};
    const int64_t idx[] = {0, 0, 0, 1, 2};
    const uint16_t upd[] = {0x3B80, 0x3B80, 0x3B80, 0x3B80, 0x4000};
    /* slot 2: max finite 0x7F7F * 2 overflows to +inf (mul) but add:
       0x7F7F + 2 stays 0x7F7F. */
    const uint16_t expected_add[] = {0x3F80, 0x3F82, 0x7F7F};
    check_literal(SGK_BFLOAT16, SGK_REDUCE_ADD, data, 3, idx, 5, upd, expected_add);
    /* mul: 1.0 * 2^-8 three times = 2^-24 (0x3380); 0x3F81 * 2^-8 = 0x3B81;
       0x7F7F * 2 = inf. */
    const uint16_t expected_mul[] = {0x3380, 0x3B81, 0x7F80};
    check_literal(SGK_BFLOAT16, SGK_REDUCE_MUL, data, 3, idx, 5, upd, expected_mul);
    /* sub: 1.0 - 2^-8 = 0.99609375 = 0x3F7F exactly; minus again 0.9921875 =
       0x3F7E; again 0x3F7D. */
    const uint16_t expected_sub[] = {0x3F7D, 0x3F80, 0x7F7F};
    check_literal(SGK_BFLOAT16, SGK_REDUCE_SUB, data, 3, idx, 5, upd, expected_sub);
}

static void test_fp16_overflow_and_subnormals(void **state)
{
    (void)state;
    /* 65504 + 16 = 65520: halfway to 65536, ties to even = inf;
       65504 + 8 = 65512 rounds back to 65504; 2^-24 + 2^-24 + 2^-24 = 3*2^-24
       (subnormal arithmetic). */
    const uint16_t data[] = {0x7BFF, 0x7BFF, 0x0001, 0x8000};
    const int64_t idx[] = {0, 1, 2, -2, 3};
    const uint16_t upd[] = {0x4C00, 0x4800, 0x0001, 0x0001, 0x0000};
    const uint16_t expected_add[] = {0x7C00, 0x7BFF, 0x0003, 0x0000}; /* -0 + +0 = +0 */
    check_literal(SGK_FLOAT16, SGK_REDUCE_ADD, data, 4, idx, 5, upd, expected_add);
    /* sub: 65504 - 16 = 65488, halfway between 65472 (0x7BFE, even) and
       65504 (0x7BFF) -> 0x7BFE; 65504 - 8 = 65496 rounds to 65504;
       2^-24 - 2^-24 - 2^-24 = -2^-24 (0x8001); -0 - +0 = -0. */
    const uint16_t expected_sub[] = {0x7BFE, 0x7BFF, 0x8001, 0x8000};
    check_literal(SGK_FLOAT16, SGK_REDUCE_SUB, data, 4, idx, 5, upd, expected_sub);
    /* mul: 2^-14 * 0.5 = 2^-15, a subnormal (0x0200). */
    const uint16_t mdata[] = {0x0400, 0x7BFF};
    const int64_t midx[] = {0, 1};
    const uint16_t mupd[] = {0x3800, 0x4000};
    const uint16_t expected_mul[] = {0x0200, 0x7C00};
    check_literal(SGK_FLOAT16, SGK_REDUCE_MUL, mdata, 2, midx, 2, mupd, expected_mul);
}

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static void test_float32_max_min_nan_and_zeros(void **state)
{
    (void)state;
    /* numpy maximum/minimum keeping the chosen operand's bits:
       slot 0: 1 vs NaN(payload 2) -> the update's NaN; slot 1: NaN(payload 1)
       kept against 5 and then 7 (NaN sticks); slot 2: -0 vs +0 keeps -0 (out
       wins ties); slot 3: +0 vs -0 keeps +0. */
    const uint32_t data[] = {f32_bits(1.0f), 0x7FC00001u, 0x80000000u, 0x00000000u};
    const int64_t idx[] = {0, 1, 2, 3, 1};
    const uint32_t upd[] = {0x7FC00002u, f32_bits(5.0f), 0x00000000u, 0x80000000u,
                            f32_bits(7.0f)};
    const uint32_t expected[] = {0x7FC00002u, 0x7FC00001u, 0x80000000u, 0x00000000u};
    check_literal(SGK_FLOAT32, SGK_REDUCE_MAX, data, 4, idx, 5, upd, expected);
    check_literal(SGK_FLOAT32, SGK_REDUCE_MIN, data, 4, idx, 5, upd, expected);
    /* A NaN arriving after a real value also sticks: 3 max 9 max NaN max 1. */
    const uint32_t d2[] = {f32_bits(3.0f)};
    const int64_t i2[] = {0, 0, 0};
    const uint32_t u2[] = {f32_bits(9.0f), 0xFFC00003u, f32_bits(1.0f)};
    const uint32_t e2[] = {0xFFC00003u};
    check_literal(SGK_FLOAT32, SGK_REDUCE_MAX, d2, 1, i2, 3, u2, e2);
    const uint32_t e2min[] = {0xFFC00003u};
    check_literal(SGK_FLOAT32, SGK_REDUCE_MIN, d2, 1, i2, 3, u2, e2min);
    /* plain max/min: 3 max 9 max -inf = 9; 3 min -inf = -inf. */
    const uint32_t u3[] = {f32_bits(9.0f), f32_bits(-INFINITY), f32_bits(4.0f)};
    const uint32_t e3max[] = {f32_bits(9.0f)};
    const uint32_t e3min[] = {f32_bits(-INFINITY)};
    check_literal(SGK_FLOAT32, SGK_REDUCE_MAX, d2, 1, i2, 3, u3, e3max);
    check_literal(SGK_FLOAT32, SGK_REDUCE_MIN, d2, 1, i2, 3, u3, e3min);
}

static void test_float64_and_half_max_nan(void **state)
{
    (void)state;
    const double data[] = {2.0, -1.0};
    const int64_t idx[] = {0, 0, 1, 1};
    const double upd[] = {NAN, 100.0, -INFINITY, -2.0};
    double e_max[2], e_min[2];
    e_max[0] = NAN; /* the update's NaN bits */
    e_max[1] = -1.0;
    e_min[0] = NAN;
    e_min[1] = -INFINITY;
    check_literal(SGK_FLOAT64, SGK_REDUCE_MAX, data, 2, idx, 4, upd, e_max);
    check_literal(SGK_FLOAT64, SGK_REDUCE_MIN, data, 2, idx, 4, upd, e_min);

    /* fp16 and bf16: compare as float, keep the chosen 16 bits. */
    const uint16_t h_data[] = {0x3C00, 0x7E01};
    const int64_t h_idx[] = {0, 0, 1};
    const uint16_t h_upd[] = {0x7E05, 0x4000, 0xFC00};
    const uint16_t h_expected[] = {0x7E05, 0x7E01};
    check_literal(SGK_FLOAT16, SGK_REDUCE_MAX, h_data, 2, h_idx, 3, h_upd, h_expected);
    check_literal(SGK_FLOAT16, SGK_REDUCE_MIN, h_data, 2, h_idx, 3, h_upd, h_expected);
    const uint16_t b_data[] = {0x3F80, 0x8000};
    const int64_t b_idx[] = {0, 0, 1};
    const uint16_t b_upd[] = {0x4000, 0x3F00, 0x0000}; /* 2.0, 0.5, +0 */
    const uint16_t b_max[] = {0x4000, 0x8000};         /* -0 vs +0 keeps -0 */
    const uint16_t b_min[] = {0x3F00, 0x8000};
    check_literal(SGK_BFLOAT16, SGK_REDUCE_MAX, b_data, 2, b_idx, 3, b_upd, b_max);
    check_literal(SGK_BFLOAT16, SGK_REDUCE_MIN, b_data, 2, b_idx, 3, b_upd, b_min);
}

static void test_float_sub_is_out_minus_update(void **state)
{
    (void)state;
    const float data[] = {10.0f, 0.0f};
    const int64_t idx[] = {0, 0, 1};
    const float upd[] = {3.0f, 2.0f, 0.0f};
    const float expected[] = {5.0f, 0.0f}; /* +0 - +0 = +0 */
    check_literal(SGK_FLOAT32, SGK_REDUCE_SUB, data, 2, idx, 3, upd, expected);
    /* float64 add: 0.1 + 0.2 + 0.3 in that order. */
    const double d64[] = {0.1};
    const int64_t i64[] = {0, 0};
    const double u64[] = {0.2, 0.3};
    const double e64[] = {(0.1 + 0.2) + 0.3};
    check_literal(SGK_FLOAT64, SGK_REDUCE_ADD, d64, 1, i64, 2, u64, e64);
}

static void test_bool_logic_with_duplicates(void **state)
{
    (void)state;
    const uint8_t data[] = {1, 2, 0};
    const int64_t idx[] = {0, 0, 0, 1, 2, 2};
    const uint8_t upd[] = {1, 1, 1, 1, 5, 0};
    /* sub = XOR: 1^1^1^1 = 0; 2(true)^1 = 0; 0^5(true)^0 = 1 */
    const uint8_t e_sub[] = {0, 0, 1};
    check_literal(SGK_BOOL, SGK_REDUCE_SUB, data, 3, idx, 6, upd, e_sub);
    /* add = OR */
    const uint8_t e_add[] = {1, 1, 1};
    check_literal(SGK_BOOL, SGK_REDUCE_ADD, data, 3, idx, 6, upd, e_add);
    check_literal(SGK_BOOL, SGK_REDUCE_MAX, data, 3, idx, 6, upd, e_add);
    /* mul = AND: 1&1&1&1 = 1; 2&1 = 1; 0&... = 0 */
    const uint8_t e_mul[] = {1, 1, 0};
    check_literal(SGK_BOOL, SGK_REDUCE_MUL, data, 3, idx, 6, upd, e_mul);
    check_literal(SGK_BOOL, SGK_REDUCE_MIN, data, 3, idx, 6, upd, e_mul);
    /* none copies the byte (last wins); untouched bytes keep their value. */
    const uint8_t d2[] = {0, 7, 0};
    const int64_t i2[] = {0, 0};
    const uint8_t u2[] = {9, 0x80};
    const uint8_t e2[] = {0x80, 7, 0};
    check_literal(SGK_BOOL, SGK_REDUCE_NONE, d2, 3, i2, 2, u2, e2);
}

static void test_complex_product(void **state)
{
    (void)state;
    /* (1+2i)(3+4i) = -5+10i, then *(i) = -10-5i. */
    const float data[] = {1, 2, 0.5f, -1};
    const int64_t idx[] = {0, 0, 1};
    const float upd[] = {3, 4, 0, 1, 2, 2};
    /* (0.5 - i)(2 + 2i) = (1 + 2) + (1 - 2)i = 3 - i */
    const float e_mul[] = {-10, -5, 3, -1};
    check_literal(SGK_COMPLEX64, SGK_REDUCE_MUL, data, 2, idx, 3, upd, e_mul);
    const float e_add[] = {4, 7, 2.5f, 1};
    check_literal(SGK_COMPLEX64, SGK_REDUCE_ADD, data, 2, idx, 3, upd, e_add);
    const float e_sub[] = {-2, -3, -1.5f, -3};
    check_literal(SGK_COMPLEX64, SGK_REDUCE_SUB, data, 2, idx, 3, upd, e_sub);

    const double d128[] = {1, 2};
    const int64_t i128[] = {0, 0};
    const double u128[] = {3, 4, 0, 1};
    const double e128[] = {-10, -5};
    check_literal(SGK_COMPLEX128, SGK_REDUCE_MUL, d128, 1, i128, 2, u128, e128);
}

static void test_string_none_last_wins(void **state)
{
    (void)state;
    const char *data[] = {"a", "b", "c"};
    const int64_t idx[] = {2, 0, -1, 2};
    const char *upd[] = {"x", "y", "z", "w"};
    const char *expected[] = {upd[1], data[1], upd[3]}; /* the same pointers */
    check_literal(SGK_STRING, SGK_REDUCE_NONE, data, 3, idx, 4, upd, expected);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_int8_add_wraps),
        cmocka_unit_test(test_uint8_mul_wraps),
        cmocka_unit_test(test_int16_sub_wraps),
        cmocka_unit_test(test_uint16_mul_wraps),
        cmocka_unit_test(test_int32_mul_wraps),
        cmocka_unit_test(test_uint32_max_min_unsigned),
        cmocka_unit_test(test_int64_wraps_and_signed_max),
        cmocka_unit_test(test_uint64_add_wraps),
        cmocka_unit_test(test_bf16_round_nearest_even),
        cmocka_unit_test(test_fp16_overflow_and_subnormals),
        cmocka_unit_test(test_float32_max_min_nan_and_zeros),
        cmocka_unit_test(test_float64_and_half_max_nan),
        cmocka_unit_test(test_float_sub_is_out_minus_update),
        cmocka_unit_test(test_bool_logic_with_duplicates),
        cmocka_unit_test(test_complex_product),
        cmocka_unit_test(test_string_none_last_wins),
    };
    return cmocka_run_group_tests_name("test_reduction_literals", tests, NULL, NULL);
}
