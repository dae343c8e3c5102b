/* Scalar kernels, the reference every faster path must match.  Compiled with
   -ffp-contract=off: a*b+c must round twice, as the sequential definition
   does. */
#include <stdbool.h>
#include <string.h>

#include "half.h"
#include "reduce.h"

/* max/min are numpy's maximum/minimum: a NaN on either side wins (the stored
   one first); ties keep the stored operand. */

/* Pairs ahead whose update is prefetched: enough to cover a memory latency
   at a few nanoseconds per pair. */
#define PREFETCH_AHEAD 16

/* Applies pairs [begin, end): elements [0, width) of the slice at
   dst + slot[i] * stride take f(that, the same elements of the slice at
   src + pos[i] * stride) (pos NULL meaning i), in pair order.  Callers pass
   dst and src already offset to a column range when threads split slices.
   Single elements (stride 1, the Elements operators and k == rank) get their
   own loops: one load, one op and one store per pair. */
#define ELEMENTWISE(name, T, expr)                                                   \
    static void name(void *dst_, const int64_t *slot, const void *src_,               \
                     const int64_t *pos, int64_t begin, int64_t end, int64_t stride,  \
                     int64_t width)                                                  \
    {                                                                                \
        T *dst = dst_;                                                               \
        const T *src = src_;                                                         \
        if (stride == 1 && pos != NULL) {                                            \
            /* grouped pairs read their updates out of order: fetch ahead */         \
            for (int64_t i = begin; i < end; i++) {                                  \
                if (i + PREFETCH_AHEAD < end)                                        \
                    __builtin_prefetch(src + pos[i + PREFETCH_AHEAD]);               \
                T a = dst[slot[i]], b = src[pos[i]];                                 \
                dst[slot[i]] = (expr);                                               \
            }                                                                        \
            return;                                                                  \
        }                                                                            \
        if (stride == 1) {                                                           \
            for (int64_t i = begin; i < end; i++) {                                  \
                T a = dst[slot[i]], b = src[i];                                      \
                dst[slot[i]] = (expr);                                               \
            }                                                                        \
            return;                                                                  \
        }                                                                            \
        for (int64_t i = begin; i < end; i++) {                                      \
            T *d = dst + slot[i] * stride;                                           \
            const T *s = src + (pos != NULL ? pos[i] : i) * stride;                  \
            for (int64_t e = 0; e < width; e++) {                                    \
                T a = d[e], b = s[e];                                                \
                d[e] = (expr);                                                       \
            }                                                                        \
        }                                                                            \
    }

/* Integers wrap: arithmetic happens in the unsigned type of the same width,
   promoted to at least unsigned int so that uint16_t * uint16_t cannot
   overflow a signed int. */
#define INTEGER_KERNELS(S, U)                                                      \
    ELEMENTWISE(add_##S, S, (S)((U)((unsigned)(U)a + (unsigned)(U)b)))              \
    ELEMENTWISE(sub_##S, S, (S)((U)((unsigned)(U)a - (unsigned)(U)b)))              \
    ELEMENTWISE(mul_##S, S, (S)((U)((unsigned)(U)a * (unsigned)(U)b)))              \
    ELEMENTWISE(max_##S, S, a >= b ? a : b)                                        \
    ELEMENTWISE(min_##S, S, a <= b ? a : b)

/* 64-bit lanes: unsigned long long arithmetic already wraps. */
#define INTEGER64_KERNELS(S, U)                                            \
    ELEMENTWISE(add_##S, S, (S)((U)a + (U)b))                              \
    ELEMENTWISE(sub_##S, S, (S)((U)a - (U)b))                              \
    ELEMENTWISE(mul_##S, S, (S)((U)a * (U)b))                              \
    ELEMENTWISE(max_##S, S, a >= b ? a : b)                                \
    ELEMENTWISE(min_##S, S, a <= b ? a : b)

INTEGER_KERNELS(int8_t, uint8_t)
INTEGER_KERNELS(uint8_t, uint8_t)
INTEGER_KERNELS(int16_t, uint16_t)
INTEGER_KERNELS(uint16_t, uint16_t)
INTEGER_KERNELS(int32_t, uint32_t)
INTEGER_KERNELS(uint32_t, uint32_t)
INTEGER64_KERNELS(int64_t, uint64_t)
INTEGER64_KERNELS(uint64_t, uint64_t)

/* Float max/min select by bit mask, not by branch: with random data a branch
   mispredicts half the time and doubles the cost of the loop. */
#define SELECT_KERNELS(T, U)                                                \
    static inline T select_##T(bool keep_a, T a, T b)                      \
    {                                                                      \
        U ua, ub, mask = (U)0 - (U)keep_a;                                 \
        memcpy(&ua, &a, sizeof ua);                                        \
        memcpy(&ub, &b, sizeof ub);                                        \
        ua = (ua & mask) | (ub & ~mask);                                   \
        memcpy(&a, &ua, sizeof a);                                         \
        return a;                                                          \
    }

SELECT_KERNELS(float, uint32_t)
SELECT_KERNELS(double, uint64_t)

#define FLOAT_KERNELS(T)                                                          \
    ELEMENTWISE(add_##T, T, a + b)                                                \
    ELEMENTWISE(sub_##T, T, a - b)                                                \
    ELEMENTWISE(mul_##T, T, a * b)                                                \
    ELEMENTWISE(max_##T, T, select_##T((a >= b) | (a != a), a, b))               \
    ELEMENTWISE(min_##T, T, select_##T((a <= b) | (a != a), a, b))

FLOAT_KERNELS(float)
FLOAT_KERNELS(double)

/* fp16/bf16: widen exactly, compute in float32, round to nearest-even after
   every update.  max/min compare the widened values and keep the chosen
   operand's own bits. */
static uint16_t pick_max(uint16_t a, uint16_t b, float fa, float fb)
{
    return (fa >= fb || fa != fa) ? a : b;
}

static uint16_t pick_min(uint16_t a, uint16_t b, float fa, float fb)
{
    return (fa <= fb || fa != fa) ? a : b;
}

#define HALF_KERNELS(H)                                                              \
    ELEMENTWISE(add_##H, uint16_t, sgk_f32_to_##H(sgk_##H##_to_f32(a) + sgk_##H##_to_f32(b))) \
    ELEMENTWISE(sub_##H, uint16_t, sgk_f32_to_##H(sgk_##H##_to_f32(a) - sgk_##H##_to_f32(b))) \
    ELEMENTWISE(mul_##H, uint16_t, sgk_f32_to_##H(sgk_##H##_to_f32(a) * sgk_##H##_to_f32(b))) \
    ELEMENTWISE(max_##H, uint16_t, pick_max(a, b, sgk_##H##_to_f32(a), sgk_##H##_to_f32(b)))  \
    ELEMENTWISE(min_##H, uint16_t, pick_min(a, b, sgk_##H##_to_f32(a), sgk_##H##_to_f32(b)))

HALF_KERNELS(f16)
HALF_KERNELS(bf16)

/* Complex numbers are (re, im) pairs; the product is the plain formula
   (ac - bd, ad + bc), as numpy computes it. */
#define COMPLEX_KERNEL(name, T, re_expr, im_expr)                                    \
    static void name(void *dst_, const int64_t *slot, const void *src_,               \
                     const int64_t *pos, int64_t begin, int64_t end, int64_t stride,  \
                     int64_t width)                                                  \
    {                                                                                \
        T *dst = dst_;                                                               \
        const T *src = src_;                                                         \
        for (int64_t i = begin; i < end; i++) {                                      \
            T *d = dst + 2 * slot[i] * stride;                                       \
            const T *s = src + 2 * (pos != NULL ? pos[i] : i) * stride;              \
            for (int64_t e = 0; e < 2 * width; e += 2) {                             \
                T a = d[e], b = d[e + 1], c = s[e], dd = s[e + 1];                   \
                d[e] = (re_expr);                                                    \
                d[e + 1] = (im_expr);                                                \
            }                                                                        \
        }                                                                            \
    }

#define COMPLEX_KERNELS(T)                                                 \
    COMPLEX_KERNEL(cadd_##T, T, a + c, b + dd)                             \
    COMPLEX_KERNEL(csub_##T, T, a - c, b - dd)                             \
    COMPLEX_KERNEL(cmul_##T, T, a * c - b * dd, a * dd + b * c)

COMPLEX_KERNELS(float)
COMPLEX_KERNELS(double)

/* bool: one byte, any non-zero byte is true, results are 0 or 1. */
ELEMENTWISE(or_bool, uint8_t, (uint8_t)((a != 0) | (b != 0)))
ELEMENTWISE(xor_bool, uint8_t, (uint8_t)((a != 0) ^ (b != 0)))
ELEMENTWISE(and_bool, uint8_t, (uint8_t)((a != 0) & (b != 0)))

#define ROW(T) {NULL, add_##T, sub_##T, mul_##T, max_##T, min_##T}

static const sgk_apply_fn kernels[SGK_STRING + 1][SGK_REDUCE_MIN + 1] = {
    [SGK_BOOL] = {NULL, or_bool, xor_bool, and_bool, or_bool, and_bool},
    [SGK_INT8] = ROW(int8_t),       [SGK_UINT8] = ROW(uint8_t),
    [SGK_INT16] = ROW(int16_t),     [SGK_UINT16] = ROW(uint16_t),
    [SGK_INT32] = ROW(int32_t),     [SGK_UINT32] = ROW(uint32_t),
    [SGK_INT64] = ROW(int64_t),     [SGK_UINT64] = ROW(uint64_t),
    [SGK_FLOAT16] = ROW(f16),       [SGK_BFLOAT16] = ROW(bf16),
    [SGK_FLOAT32] = ROW(float),     [SGK_FLOAT64] = ROW(double),
    [SGK_COMPLEX64] = {NULL, cadd_float, csub_float, cmul_float, NULL, NULL},
    [SGK_COMPLEX128] = {NULL, cadd_double, csub_double, cmul_double, NULL, NULL},
    [SGK_STRING] = {NULL, NULL, NULL, NULL, NULL, NULL},
};

sgk_apply_fn sgk_apply_kernel(sgk_dtype dtype, sgk_reduction reduction)
{
    if ((int)dtype < 0 || dtype > SGK_STRING || (int)reduction < 0 ||
        reduction > SGK_REDUCE_MIN)
        return NULL;
    return kernels[dtype][reduction];
}

#define WIDEN_KERNEL(name, H, op)                                          \
    static void name(float *acc, const void *src_, int64_t n)              \
    {                                                                      \
        const uint16_t *src = src_;                                        \
        for (int64_t i = 0; i < n; i++)                                    \
            acc[i] = acc[i] op sgk_##H##_to_f32(src[i]);                   \
    }

WIDEN_KERNEL(wide_add_f16, f16, +)
WIDEN_KERNEL(wide_sub_f16, f16, -)
WIDEN_KERNEL(wide_mul_f16, f16, *)
WIDEN_KERNEL(wide_add_bf16, bf16, +)
WIDEN_KERNEL(wide_sub_bf16, bf16, -)
WIDEN_KERNEL(wide_mul_bf16, bf16, *)

sgk_widen_reduce_fn sgk_widen_reduce_kernel(sgk_dtype dtype, sgk_reduction reduction)
{
    bool f16 = dtype == SGK_FLOAT16;
    if (!f16 && dtype != SGK_BFLOAT16)
        return NULL;
    switch (reduction) {
    case SGK_REDUCE_ADD: return f16 ? wide_add_f16 : wide_add_bf16;
    case SGK_REDUCE_SUB: return f16 ? wide_sub_f16 : wide_sub_bf16;
    case SGK_REDUCE_MUL: return f16 ? wide_mul_f16 : wide_mul_bf16;
    default: return NULL;
    }
}
