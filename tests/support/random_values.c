/*
 * The random inputs of the randomized tests (tests/support/random_values.h),
 * shared by tests/test_random.c and tests/soak.c so that both draw the same
 * values: the edges of every type, not only typical numbers.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "common.h"
#include "random_values.h"
#include "reference.h"

static const char *const string_pool[] = {"alpha", "beta", "", "gamma", "delta", "x"};

/* Small integers, general values, signed zeros, infinities, NaN, and values
   far out of range (overflow/underflow for the narrow types). */
static double random_real(tc_rng *r, int exp_lo, int exp_hi)
{
    int c = (int)tc_rng_range(r, 0, 99);
    double sign = tc_rng_percent(r, 50) ? -1.0 : 1.0;
    if (c < 40)
        return (double)tc_rng_range(r, -4, 4);
    if (c < 78) {
        double m = 1.0 + tc_rng_unit(r);
        return sign * ldexp(m, (int)tc_rng_range(r, -8, 8));
    }
    if (c < 84)
        return sign * 0.0;
    if (c < 89)
        return sign * INFINITY;
    if (c < 93)
        return tc_rng_percent(r, 80) ? NAN : -NAN;
    double m = 1.0 + tc_rng_unit(r);
    return sign * ldexp(m, (int)tc_rng_range(r, exp_lo, exp_hi));
}

void random_value(tc_rng *r, sgk_dtype dtype, void *p)
{
    size_t es = tc_dtype_size(dtype);
    switch (dtype) {
    case SGK_BOOL: {
        static const uint8_t odd[] = {2, 0x80, 0xFF};
        uint8_t v = tc_rng_percent(r, 90) ? (uint8_t)tc_rng_range(r, 0, 1)
                                          : odd[tc_rng_range(r, 0, 2)];
        memcpy(p, &v, 1);
        break;
    }
    case SGK_INT8: case SGK_UINT8: case SGK_INT16: case SGK_UINT16:
    case SGK_INT32: case SGK_UINT32: case SGK_INT64: case SGK_UINT64: {
        uint64_t v;
        int c = (int)tc_rng_range(r, 0, 9);
        unsigned bits = (unsigned)(8 * es);
        if (c < 5)
            v = (uint64_t)tc_rng_range(r, -4, 4);
        else if (c < 7) /* the edges: MIN, MAX, 0x80.., 0x7F.. of the width */
            v = tc_rng_percent(r, 50) ? (uint64_t)1 << (bits - 1) : ((uint64_t)1 << (bits - 1)) - 1;
        else
            v = tc_rng_next(r);
        if (tc_rng_percent(r, 10) && c >= 5) /* MIN-1 / MAX+1 style neighbours */
            v += tc_rng_percent(r, 50) ? 1 : (uint64_t)-1;
        memcpy(p, &v, es); /* little endian: the low bytes */
        break;
    }
    case SGK_FLOAT16: case SGK_BFLOAT16: {
        /* largest finite, subnormal edges, 1 and its neighbour, half an ulp
           of 1 (1 + it is a rounding tie), inf, quiet and signaling NaN */
        static const uint16_t f16_edges[] = {0x7bff, 0xfbfe, 0x0001, 0x83ff, 0x0400, 0x3c00,
                                             0x3c01, 0x1000, 0x7c00, 0x7e00, 0x7c01, 0x8000};
        static const uint16_t bf16_edges[] = {0x7f7f, 0xff7e, 0x0001, 0x807f, 0x0080, 0x3f80,
                                              0x3f81, 0x3b80, 0x7f80, 0x7fc0, 0x7f81, 0x8000};
        const uint16_t *edges = dtype == SGK_FLOAT16 ? f16_edges : bf16_edges;
        uint16_t h;
        if (tc_rng_percent(r, 10)) {
            h = edges[tc_rng_range(r, 0, 11)];
        } else if (tc_rng_percent(r, 5)) {
            h = (uint16_t)tc_rng_next(r); /* any pattern: subnormals, payload NaNs */
        } else {
            float f = (float)random_real(r, dtype == SGK_FLOAT16 ? -27 : -135,
                                         dtype == SGK_FLOAT16 ? 17 : 129);
            h = dtype == SGK_FLOAT16 ? ref_f32_to_f16(f) : ref_f32_to_bf16(f);
        }
        memcpy(p, &h, 2);
        break;
    }
    case SGK_FLOAT32: {
        float f = (float)random_real(r, -150, 129);
        memcpy(p, &f, 4);
        break;
    }
    case SGK_FLOAT64: {
        double d = random_real(r, -1075, 1025);
        memcpy(p, &d, 8);
        break;
    }
    case SGK_COMPLEX64: {
        float f[2] = {(float)random_real(r, -150, 129), (float)random_real(r, -150, 129)};
        memcpy(p, f, 8);
        break;
    }
    case SGK_COMPLEX128: {
        double d[2] = {random_real(r, -1075, 1025), random_real(r, -1075, 1025)};
        memcpy(p, d, 16);
        break;
    }
    case SGK_STRING: {
        const int64_t last = (int64_t)(sizeof string_pool / sizeof *string_pool) - 1;
        const char *s = tc_rng_percent(r, 5) ? NULL : string_pool[tc_rng_range(r, 0, last)];
        memcpy(p, &s, sizeof s);
        break;
    }
    }
}

void *random_buffer(tc_rng *r, sgk_dtype dtype, int64_t n)
{
    size_t es = tc_dtype_size(dtype);
    char *buf = xmalloc((size_t)n * es);
    for (int64_t i = 0; i < n; i++)
        random_value(r, dtype, buf + (size_t)i * es);
    return buf;
}

/* Index values for the given per-position dimension sizes: uniform over
   [-s, s-1], or (skewed) a few favourite values, to force duplicates. */
void *random_indices(tc_rng *r, sgk_dtype idtype, int64_t n, const int64_t *dim_of,
                            int64_t period, int skewed)
{
    size_t is = idtype == SGK_INT32 ? 4 : 8;
    char *buf = xmalloc((size_t)n * is);
    for (int64_t i = 0; i < n; i++) {
        int64_t s = dim_of[i % period], v;
        if (skewed && tc_rng_percent(r, 70)) {
            int64_t fav = tc_rng_range(r, 0, 3);
            v = fav == 0 ? 0 : fav == 1 ? -1 : fav == 2 ? s / 2 : -s;
        } else {
            v = tc_rng_range(r, -s, s - 1);
        }
        if (idtype == SGK_INT32) {
            int32_t t = (int32_t)v;
            memcpy(buf + (size_t)i * 4, &t, 4);
        } else {
            memcpy(buf + (size_t)i * 8, &v, 8);
        }
    }
    return buf;
}
