/*
 * The reference's element arithmetic (tests/support/reference.h): which
 * cells the semantics define, one step of the sequential loop per type,
 * the 16-bit float conversions, and when a result element matches.  The
 * operators' loops (tests/support/reference.c) are built on it.  Slow on
 * purpose; every step is meant to be checkable by reading it.  Must be
 * compiled with -ffp-contract=off; the complex product also goes through
 * volatile temporaries so that no compiler setting can fuse it into an FMA.
 */
#include "reference.h"

#include <math.h>
#include <string.h>

#include "common.h"

int ref_reduction_supported(sgk_dtype dtype, sgk_reduction reduction)
{
    if (reduction == SGK_REDUCE_NONE)
        return 1;
    if (dtype == SGK_STRING)
        return 0;
    if (dtype == SGK_COMPLEX64 || dtype == SGK_COMPLEX128)
        return reduction != SGK_REDUCE_MAX && reduction != SGK_REDUCE_MIN;
    return 1;
}

/* ---- 16-bit floats ---------------------------------------------------- */

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float f32_from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

float ref_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1Fu;
    uint32_t mant = h & 0x3FFu;
    if (exp == 0x1F) /* inf or NaN: keep the payload */
        return f32_from_bits(sign | 0x7F800000u | (mant << 13));
    if (exp == 0) { /* zero or subnormal: mant * 2^-24, exact in float */
        float v = ldexpf((float)mant, -24);
        return sign ? -v : v;
    }
    return f32_from_bits(sign | ((exp - 15 + 127) << 23) | (mant << 13));
}

uint16_t ref_f32_to_f16(float f)
{
    uint32_t x = f32_bits(f);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    int32_t exp = (int32_t)((x >> 23) & 0xFFu);
    uint32_t mant = x & 0x7FFFFFu;

    if (exp == 0xFF) {
        if (mant != 0) /* NaN: quiet, keep what fits of the payload */
            return (uint16_t)(sign | 0x7E00u | (mant >> 13));
        return (uint16_t)(sign | 0x7C00u);
    }
    if (exp == 0) /* zero or float32 subnormal (< 2^-126): rounds to zero */
        return sign;

    int32_t e = exp - 127; /* value = 1.mant * 2^e */
    if (e > 15)
        return (uint16_t)(sign | 0x7C00u);
    if (e >= -14) {
        /* Normal range: drop 13 mantissa bits, round to nearest even; a carry
           ripples into the exponent and may reach 0x7C00 (infinity). */
        uint32_t base = ((uint32_t)(e + 15) << 10) | (mant >> 13);
        uint32_t rem = mant & 0x1FFFu;
        if (rem > 0x1000u || (rem == 0x1000u && (base & 1u)))
            base++;
        return (uint16_t)(sign | base);
    }
    /* Subnormal result m * 2^-24.  With sig = 1.mant as a 24-bit integer,
       value = sig * 2^(e - 23), so m = sig * 2^(e + 1) = sig / 2^shift. */
    uint32_t sig = mant | 0x800000u;
    int32_t shift = -(e + 1); /* >= 14 here */
    if (shift > 24) /* value < 2^-25: below half the smallest subnormal */
        return sign;
    uint32_t m = sig >> shift;
    uint32_t rem = sig & ((1u << shift) - 1u);
    uint32_t half = 1u << (shift - 1);
    if (rem > half || (rem == half && (m & 1u)))
        m++; /* m == 0x400 is the smallest normal: still the right bits */
    return (uint16_t)(sign | m);
}

float ref_bf16_to_f32(uint16_t b)
{
    return f32_from_bits((uint32_t)b << 16);
}

uint16_t ref_f32_to_bf16(float f)
{
    uint32_t x = f32_bits(f);
    if (isnan(f))
        return (uint16_t)((x >> 16) | 0x0040u); /* quiet NaN, sign kept */
    x = x + 0x7FFFu + ((x >> 16) & 1u);
    return (uint16_t)(x >> 16);
}

/* ---- one step of the loop, per type ----------------------------------- */

static uint64_t load_uint(const void *p, size_t width)
{
    switch (width) {
    case 1: { uint8_t v; memcpy(&v, p, 1); return v; }
    case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}

static void store_uint(void *p, size_t width, uint64_t v)
{
    switch (width) {
    case 1: { uint8_t t = (uint8_t)v; memcpy(p, &t, 1); break; }
    case 2: { uint16_t t = (uint16_t)v; memcpy(p, &t, 2); break; }
    case 4: { uint32_t t = (uint32_t)v; memcpy(p, &t, 4); break; }
    default: memcpy(p, &v, 8); break;
    }
}

static int64_t sign_extend(uint64_t v, size_t width)
{
    if (width < 8) {
        unsigned bits = (unsigned)(8 * width);
        uint64_t sign_bit = (uint64_t)1 << (bits - 1);
        if (v & sign_bit)
            v |= ~(((uint64_t)1 << bits) - 1);
    }
    return (int64_t)v;
}

/* Arithmetic in uint64_t wraps modulo 2^64, so its low `width` bytes are the
   two's complement result for any width and signedness. */
static void apply_int(size_t width, int is_signed, sgk_reduction red, void *dst,
                      const void *src)
{
    uint64_t a = load_uint(dst, width), b = load_uint(src, width), r = a;
    int a_wins;
    switch (red) {
    case SGK_REDUCE_NONE: r = b; break;
    case SGK_REDUCE_ADD: r = a + b; break;
    case SGK_REDUCE_SUB: r = a - b; break;
    case SGK_REDUCE_MUL: r = a * b; break;
    case SGK_REDUCE_MAX:
    case SGK_REDUCE_MIN:
        if (is_signed) {
            int64_t sa = sign_extend(a, width), sb = sign_extend(b, width);
            a_wins = red == SGK_REDUCE_MAX ? sa >= sb : sa <= sb;
        } else {
            a_wins = red == SGK_REDUCE_MAX ? a >= b : a <= b;
        }
        r = a_wins ? a : b;
        break;
    }
    store_uint(dst, width, r);
}

/* numpy maximum/minimum, operand-preserving: keep out when it wins or is NaN. */
static int out_wins(sgk_reduction red, double out, double upd)
{
    if (isnan(out))
        return 1;
    return red == SGK_REDUCE_MAX ? out >= upd : out <= upd;
}

static float arith_f32(sgk_reduction red, float a, float b)
{
    switch (red) {
    case SGK_REDUCE_ADD: return a + b;
    case SGK_REDUCE_SUB: return a - b;
    default: return a * b;
    }
}

static double arith_f64(sgk_reduction red, double a, double b)
{
    switch (red) {
    case SGK_REDUCE_ADD: return a + b;
    case SGK_REDUCE_SUB: return a - b;
    default: return a * b;
    }
}

static void apply_f16(int is_bf16, sgk_reduction red, void *dst, const void *src)
{
    uint16_t ha, hb;
    memcpy(&ha, dst, 2);
    memcpy(&hb, src, 2);
    float a = is_bf16 ? ref_bf16_to_f32(ha) : ref_f16_to_f32(ha);
    float b = is_bf16 ? ref_bf16_to_f32(hb) : ref_f16_to_f32(hb);
    uint16_t r;
    if (red == SGK_REDUCE_NONE) {
        r = hb;
    } else if (red == SGK_REDUCE_MAX || red == SGK_REDUCE_MIN) {
        r = out_wins(red, a, b) ? ha : hb;
    } else {
        float v = arith_f32(red, a, b);
        r = is_bf16 ? ref_f32_to_bf16(v) : ref_f32_to_f16(v);
    }
    memcpy(dst, &r, 2);
}

static void apply_f32(sgk_reduction red, void *dst, const void *src)
{
    float a, b, r;
    memcpy(&a, dst, 4);
    memcpy(&b, src, 4);
    switch (red) {
    case SGK_REDUCE_NONE: memcpy(dst, src, 4); break;
    case SGK_REDUCE_MAX:
    case SGK_REDUCE_MIN:
        if (!out_wins(red, a, b))
            memcpy(dst, src, 4);
        break;
    default:
        r = arith_f32(red, a, b);
        memcpy(dst, &r, 4);
        break;
    }
}

static void apply_f64(sgk_reduction red, void *dst, const void *src)
{
    double a, b, r;
    memcpy(&a, dst, 8);
    memcpy(&b, src, 8);
    switch (red) {
    case SGK_REDUCE_NONE: memcpy(dst, src, 8); break;
    case SGK_REDUCE_MAX:
    case SGK_REDUCE_MIN:
        if (!out_wins(red, a, b))
            memcpy(dst, src, 8);
        break;
    default:
        r = arith_f64(red, a, b);
        memcpy(dst, &r, 8);
        break;
    }
}

static void apply_c64(sgk_reduction red, void *dst, const void *src)
{
    float a[2], b[2], r[2];
    memcpy(a, dst, 8);
    memcpy(b, src, 8);
    switch (red) {
    case SGK_REDUCE_ADD: r[0] = a[0] + b[0]; r[1] = a[1] + b[1]; break;
    case SGK_REDUCE_SUB: r[0] = a[0] - b[0]; r[1] = a[1] - b[1]; break;
    case SGK_REDUCE_MUL: {
        volatile float ac = a[0] * b[0], bd = a[1] * b[1];
        volatile float ad = a[0] * b[1], bc = a[1] * b[0];
        r[0] = ac - bd;
        r[1] = ad + bc;
        break;
    }
    default: r[0] = b[0]; r[1] = b[1]; break; /* none */
    }
    memcpy(dst, r, 8);
}

static void apply_c128(sgk_reduction red, void *dst, const void *src)
{
    double a[2], b[2], r[2];
    memcpy(a, dst, 16);
    memcpy(b, src, 16);
    switch (red) {
    case SGK_REDUCE_ADD: r[0] = a[0] + b[0]; r[1] = a[1] + b[1]; break;
    case SGK_REDUCE_SUB: r[0] = a[0] - b[0]; r[1] = a[1] - b[1]; break;
    case SGK_REDUCE_MUL: {
        volatile double ac = a[0] * b[0], bd = a[1] * b[1];
        volatile double ad = a[0] * b[1], bc = a[1] * b[0];
        r[0] = ac - bd;
        r[1] = ad + bc;
        break;
    }
    default: r[0] = b[0]; r[1] = b[1]; break; /* none */
    }
    memcpy(dst, r, 16);
}

static void apply_bool(sgk_reduction red, void *dst, const void *src)
{
    uint8_t a, b, r;
    memcpy(&a, dst, 1);
    memcpy(&b, src, 1);
    int ta = a != 0, tb = b != 0;
    switch (red) {
    case SGK_REDUCE_NONE: r = b; break;
    case SGK_REDUCE_ADD: case SGK_REDUCE_MAX: r = (uint8_t)(ta || tb); break;
    case SGK_REDUCE_SUB: r = (uint8_t)(ta != tb); break;
    default: r = (uint8_t)(ta && tb); break; /* mul, min */
    }
    memcpy(dst, &r, 1);
}

void ref_apply(sgk_dtype dtype, sgk_reduction red, void *dst, const void *src)
{
    switch (dtype) {
    case SGK_BOOL: apply_bool(red, dst, src); break;
    case SGK_INT8: case SGK_INT16: case SGK_INT32: case SGK_INT64:
        apply_int(tc_dtype_size(dtype), 1, red, dst, src);
        break;
    case SGK_UINT8: case SGK_UINT16: case SGK_UINT32: case SGK_UINT64:
        apply_int(tc_dtype_size(dtype), 0, red, dst, src);
        break;
    case SGK_FLOAT16: apply_f16(0, red, dst, src); break;
    case SGK_BFLOAT16: apply_f16(1, red, dst, src); break;
    case SGK_FLOAT32: apply_f32(red, dst, src); break;
    case SGK_FLOAT64: apply_f64(red, dst, src); break;
    case SGK_COMPLEX64: apply_c64(red, dst, src); break;
    case SGK_COMPLEX128: apply_c128(red, dst, src); break;
    case SGK_STRING: memcpy(dst, src, sizeof(const char *)); break; /* none only */
    }
}

static int is_nan_bits(const unsigned char *p, size_t width, int is_bf16)
{
    if (width == 2) {
        uint16_t h;
        memcpy(&h, p, 2);
        return is_bf16 ? (h & 0x7F80u) == 0x7F80u && (h & 0x7Fu)
                       : (h & 0x7C00u) == 0x7C00u && (h & 0x3FFu);
    }
    if (width == 4) {
        float f;
        memcpy(&f, p, 4);
        return isnan(f);
    }
    double d;
    memcpy(&d, p, 8);
    return isnan(d);
}

int ref_same_result(sgk_dtype dtype, sgk_reduction reduction, const void *expected,
                    const void *actual)
{
    size_t es = tc_dtype_size(dtype);
    if (memcmp(expected, actual, es) == 0)
        return 1;
    int arith = reduction == SGK_REDUCE_ADD || reduction == SGK_REDUCE_SUB ||
                reduction == SGK_REDUCE_MUL;
    size_t width;
    switch (dtype) {
    case SGK_FLOAT16: case SGK_BFLOAT16: case SGK_FLOAT32: case SGK_FLOAT64: width = es; break;
    case SGK_COMPLEX64: case SGK_COMPLEX128: width = es / 2; break;
    default: return 0;
    }
    if (!arith)
        return 0;
    const unsigned char *e = expected, *a = actual;
    for (size_t off = 0; off < es; off += width) {
        int bf = dtype == SGK_BFLOAT16;
        if (memcmp(e + off, a + off, width) != 0 &&
            !(is_nan_bits(e + off, width, bf) && is_nan_bits(a + off, width, bf)))
            return 0;
    }
    return 1;
}
