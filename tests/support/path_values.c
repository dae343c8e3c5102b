/*
 * The element values of tests/test_paths.c's cases
 * (tests/support/path_values.h says which and why).
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "common.h"
#include "path_values.h"
#include "reference.h"

/* A random sign, for values symmetric around zero. */
static double rng_sign(tc_rng *r)
{
    return tc_rng_percent(r, 50) ? -1.0 : 1.0;
}

static double real_value(tc_rng *r, sgk_dtype dtype, sgk_reduction red, int specials,
                         int is_data)
{
    int half = dtype == SGK_FLOAT16 || dtype == SGK_BFLOAT16;
    if (specials && tc_rng_percent(r, 8)) {
        int k = (int)tc_rng_below(r, 3);
        return k == 0 ? NAN : k == 1 ? INFINITY : -INFINITY;
    }
    switch (red) {
    case SGK_REDUCE_ADD: case SGK_REDUCE_SUB:
        if (half) {
            int64_t span = is_data ? 4 : dtype == SGK_FLOAT16 ? 2 : 1;
            return (double)(tc_rng_below(r, 2 * span + 1) - span);
        }
        if (tc_rng_percent(r, 10))
            return rng_sign(r) * 0.0;
        if (tc_rng_percent(r, 30))
            return (double)(tc_rng_below(r, 9) - 4);
        return rng_sign(r) * ldexp(1 + tc_rng_unit(r), (int)tc_rng_below(r, 17) - 8);
    case SGK_REDUCE_MUL:
        if (half) {
            if (is_data) {
                static const double d[] = {1, 1.5, 0.75, 2, 0};
                return rng_sign(r) * d[tc_rng_below(r, tc_rng_percent(r, 5) ? 5 : 4)];
            }
            int k = (int)tc_rng_below(r, 100);
            return rng_sign(r) * (k == 0 ? 2.0 : k == 1 ? 0.5 : 1.0);
        }
        if (is_data)
            return rng_sign(r) * ldexp(1 + tc_rng_unit(r), (int)tc_rng_below(r, 9) - 4);
        return rng_sign(r) * (1 + rng_sign(r) * (0x1p-10 + tc_rng_unit(r) * (0x1p-5 - 0x1p-10)));
    default: {
        static const double ties[] = {-2, -1, -0.0, 0.0, 0.5, 1, 2, INFINITY, -INFINITY};
        return ties[tc_rng_below(r, 9)];
    }
    }
}

static void random_value(tc_rng *r, sgk_dtype dtype, sgk_reduction red, int specials,
                         int is_data, void *p)
{
    size_t es = tc_dtype_size(dtype);
    switch (dtype) {
    case SGK_BOOL: {
        static const uint8_t odd[] = {2, 0x80, 0xFF};
        uint8_t v = tc_rng_percent(r, 90) ? (uint8_t)tc_rng_below(r, 2) : odd[tc_rng_below(r, 3)];
        memcpy(p, &v, 1);
        return;
    }
    case SGK_STRING: {
        static const char *const pool[] = {"alpha", "beta", "", "gamma"};
        const char *s = tc_rng_percent(r, 5) ? NULL : pool[tc_rng_below(r, 4)];
        memcpy(p, &s, sizeof s);
        return;
    }
    case SGK_FLOAT16: case SGK_BFLOAT16: case SGK_FLOAT32: case SGK_FLOAT64:
        break;
    case SGK_COMPLEX64: case SGK_COMPLEX128:
        break;
    default: { /* integers: small values, the width's edges, anything */
        uint64_t v;
        int k = (int)tc_rng_below(r, 10);
        unsigned bits = (unsigned)(8 * es);
        if (k < 5)
            v = (uint64_t)(tc_rng_below(r, 9) - 4);
        else if (k < 7)
            v = tc_rng_percent(r, 50) ? (uint64_t)1 << (bits - 1) : ((uint64_t)1 << (bits - 1)) - 1;
        else
            v = tc_rng_next(r);
        memcpy(p, &v, es);
        return;
    }
    }
    if (red == SGK_REDUCE_NONE) { /* any bits: payload NaNs, subnormals */
        uint64_t v[2] = {tc_rng_next(r), tc_rng_next(r)};
        memcpy(p, v, es);
        return;
    }
    if (dtype == SGK_COMPLEX64 || dtype == SGK_COMPLEX128) {
        double z[2];
        if (red == SGK_REDUCE_MUL) { /* near 1: |z - 1| in [2^-10, 2^-5] */
            double a = 0x1p-10 + tc_rng_unit(r) * (0x1p-5 - 0x1p-10);
            double t = 6.283185307179586 * tc_rng_unit(r);
            z[0] = 1 + a * cos(t);
            z[1] = a * sin(t);
            if (is_data) {
                z[0] *= 3 * rng_sign(r);
                z[1] *= 3;
            }
        } else {
            z[0] = real_value(r, dtype, red, specials, is_data);
            z[1] = real_value(r, dtype, red, specials, is_data);
        }
        if (dtype == SGK_COMPLEX64) {
            float f[2] = {(float)z[0], (float)z[1]};
            memcpy(p, f, 8);
        } else {
            memcpy(p, z, 16);
        }
        return;
    }
    double x = real_value(r, dtype, red, specials, is_data);
    if (dtype == SGK_FLOAT16 || dtype == SGK_BFLOAT16) {
        uint16_t h = dtype == SGK_FLOAT16 ? ref_f32_to_f16((float)x) : ref_f32_to_bf16((float)x);
        memcpy(p, &h, 2);
    } else if (dtype == SGK_FLOAT32) {
        float f = (float)x;
        memcpy(p, &f, 4);
    } else {
        memcpy(p, &x, 8);
    }
}

void *path_values(tc_rng *r, sgk_dtype dtype, sgk_reduction red, int specials, int is_data,
                  int64_t n)
{
    size_t es = tc_dtype_size(dtype);
    char *b = xmalloc((size_t)n * es);
    for (int64_t i = 0; i < n; i++)
        random_value(r, dtype, red, specials, is_data, b + (size_t)i * es);
    return b;
}
