/*
 * Reference implementation of the sgk operators: the sequential definition of
 * docs/semantics.md, one element at a time.  Slow on
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

/* ---- operators -------------------------------------------------------- */

static int64_t index_at(const sgk_tensor *indices, int64_t i)
{
    if (indices->dtype == SGK_INT32) {
        int32_t v;
        memcpy(&v, (const char *)indices->data + i * 4, 4);
        return v;
    }
    int64_t v;
    memcpy(&v, (const char *)indices->data + i * 8, 8);
    return v;
}

static int64_t normalize(int64_t i, int64_t dim)
{
    return i < 0 ? i + dim : i;
}

static void copy_data(const sgk_tensor *data, void *output)
{
    size_t bytes = (size_t)tc_numel(data->rank, data->shape) * tc_dtype_size(data->dtype);
    if (bytes && output != data->data)
        memmove(output, data->data, bytes);
}

void ref_scatter_nd(const sgk_tensor *data, const sgk_tensor *indices,
                    const sgk_tensor *updates, sgk_reduction reduction, void *output)
{
    size_t es = tc_dtype_size(data->dtype);
    int32_t q = indices->rank;
    int64_t k = indices->shape[q - 1];
    int64_t n_updates = tc_numel(q - 1, indices->shape);
    int64_t slice = tc_numel(data->rank - (int32_t)k, data->shape + k);
    char *out = output;
    const char *upd = updates->data;

    copy_data(data, output);
    for (int64_t u = 0; u < n_updates; u++) {
        int64_t slot = 0;
        for (int64_t j = 0; j < k; j++)
            slot = slot * data->shape[j] +
                   normalize(index_at(indices, u * k + j), data->shape[j]);
        for (int64_t e = 0; e < slice; e++)
            ref_apply(data->dtype, reduction, out + (size_t)(slot * slice + e) * es,
                      upd + (size_t)(u * slice + e) * es);
    }
}

void ref_gather_nd(const sgk_tensor *data, const sgk_tensor *indices,
                   int64_t batch_dims, void *output)
{
    size_t es = tc_dtype_size(data->dtype);
    int32_t q = indices->rank;
    int32_t b = (int32_t)batch_dims;
    int64_t k = indices->shape[q - 1];
    int64_t n_batches = tc_numel(b, data->shape);
    int64_t per_batch = tc_numel(q - 1 - b, indices->shape + b);
    int64_t batch_stride = tc_numel(data->rank - b, data->shape + b);
    int64_t slice = tc_numel(data->rank - b - (int32_t)k, data->shape + b + k);
    const char *src = data->data;
    char *out = output;

    for (int64_t bi = 0; bi < n_batches; bi++) {
        for (int64_t u = 0; u < per_batch; u++) {
            int64_t tuple = bi * per_batch + u;
            int64_t slot = 0;
            for (int64_t j = 0; j < k; j++)
                slot = slot * data->shape[b + j] +
                       normalize(index_at(indices, tuple * k + j), data->shape[b + j]);
            if (slice)
                memcpy(out + (size_t)(tuple * slice) * es,
                       src + (size_t)(bi * batch_stride + slot * slice) * es,
                       (size_t)slice * es);
        }
    }
}

/* Offset in `data` of the element at the coordinates of indices position p,
   with coordinate `axis` replaced by the (normalized) index value. */
static int64_t elements_target(const sgk_tensor *data, const sgk_tensor *indices,
                               int32_t axis, int64_t p)
{
    int64_t coord[SGK_MAX_RANK];
    int64_t rest = p;
    for (int32_t d = indices->rank - 1; d >= 0; d--) {
        coord[d] = rest % indices->shape[d];
        rest /= indices->shape[d];
    }
    coord[axis] = normalize(index_at(indices, p), data->shape[axis]);
    int64_t off = 0;
    for (int32_t d = 0; d < data->rank; d++)
        off = off * data->shape[d] + coord[d];
    return off;
}

void ref_scatter_elements(const sgk_tensor *data, const sgk_tensor *indices,
                          const sgk_tensor *updates, int64_t axis,
                          sgk_reduction reduction, void *output)
{
    size_t es = tc_dtype_size(data->dtype);
    int32_t ax = (int32_t)(axis < 0 ? axis + data->rank : axis);
    int64_t n = tc_numel(indices->rank, indices->shape);
    char *out = output;
    const char *upd = updates->data;

    copy_data(data, output);
    for (int64_t p = 0; p < n; p++)
        ref_apply(data->dtype, reduction,
                  out + (size_t)elements_target(data, indices, ax, p) * es,
                  upd + (size_t)p * es);
}

void ref_gather_elements(const sgk_tensor *data, const sgk_tensor *indices,
                         int64_t axis, void *output)
{
    size_t es = tc_dtype_size(data->dtype);
    int32_t ax = (int32_t)(axis < 0 ? axis + data->rank : axis);
    int64_t n = tc_numel(indices->rank, indices->shape);
    const char *src = data->data;
    char *out = output;

    for (int64_t p = 0; p < n; p++)
        memcpy(out + (size_t)p * es,
               src + (size_t)elements_target(data, indices, ax, p) * es, es);
}

void ref_gather(const sgk_tensor *data, const sgk_tensor *indices, int64_t axis,
                void *output)
{
    size_t es = tc_dtype_size(data->dtype);
    int32_t ax = (int32_t)(axis < 0 ? axis + data->rank : axis);
    int64_t outer = tc_numel(ax, data->shape);
    int64_t axis_dim = data->shape[ax];
    int64_t inner = tc_numel(data->rank - ax - 1, data->shape + ax + 1);
    int64_t n_indices = tc_numel(indices->rank, indices->shape);
    const char *src = data->data;
    char *out = output;

    for (int64_t o = 0; o < outer; o++)
        for (int64_t q = 0; q < n_indices; q++) {
            int64_t row = normalize(index_at(indices, q), axis_dim);
            for (int64_t i = 0; i < inner; i++)
                memcpy(out + (size_t)((o * n_indices + q) * inner + i) * es,
                       src + (size_t)((o * axis_dim + row) * inner + i) * es, es);
        }
}

void ref_tensor_scatter(const sgk_tensor *cache, const sgk_tensor *update,
                        const sgk_tensor *write_indices, int64_t axis,
                        sgk_tensor_scatter_mode mode, void *output)
{
    size_t es = tc_dtype_size(cache->dtype);
    int32_t ax = (int32_t)(axis < 0 ? axis + cache->rank : axis);
    int64_t prefixes = tc_numel(ax, cache->shape);
    int64_t prefixes_per_batch = tc_numel(ax - 1, cache->shape + 1);
    int64_t max_len = cache->shape[ax], seq_len = update->shape[ax];
    int64_t inner = tc_numel(cache->rank - ax - 1, cache->shape + ax + 1);
    const char *upd = update->data;
    char *out = output;

    copy_data(cache, output);
    for (int64_t p = 0; p < prefixes; p++) {
        int64_t batch = p / prefixes_per_batch;
        int64_t w = write_indices != NULL ? index_at(write_indices, batch) : 0;
        for (int64_t s = 0; s < seq_len; s++) {
            int64_t pos = w + s; /* linear: the caller kept it in range */
            if (mode == SGK_TENSOR_SCATTER_CIRCULAR) {
                /* (w + s) mod max_len without overflowing near INT64_MAX */
                int64_t w_mod = w % max_len;
                if (w_mod < 0)
                    w_mod += max_len;
                pos = (w_mod + s) % max_len;
            }
            memcpy(out + (size_t)((p * max_len + pos) * inner) * es,
                   upd + (size_t)((p * seq_len + s) * inner) * es, (size_t)inner * es);
        }
    }
}
