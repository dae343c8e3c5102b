/*
 * The values of the seeds' worked examples in every type the tests run them
 * in, their indices in four variants, and the expectations every seed check
 * makes of a result (tests/support/seed_values.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "seed_values.h"

/* Exactly representable normal values (or zero) only: the seeds' FP16
   example uses small integers. */
static uint16_t f16_from_double(double v)
{
    float f = (float)v;
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    uint16_t sign = (uint16_t)((b >> 16) & 0x8000u);
    if ((b & 0x7fffffffu) == 0)
        return sign;
    int32_t e = (int32_t)((b >> 23) & 0xffu) - 127 + 15;
    uint32_t m = b & 0x7fffffu;
    assert_true(e > 0 && e < 31 && (m & 0x1fffu) == 0);
    return (uint16_t)(sign | (uint16_t)(e << 10) | (uint16_t)(m >> 13));
}

static double f16_to_double(uint16_t h)
{
    int e = (h >> 10) & 0x1f;
    double m = (double)(h & 0x3ff);
    double v;
    if (e == 0)
        v = m / 1024.0 / 16384.0;
    else if (e == 31)
        v = m != 0 ? (double)NAN : (double)INFINITY;
    else {
        v = 1.0 + m / 1024.0;
        for (; e > 15; e--) v *= 2.0;
        for (; e < 15; e++) v /= 2.0;
    }
    return (h & 0x8000) ? -v : v;
}

static void store_value(sgk_dtype dt, void *p, double v)
{
    switch (dt) {
    case SGK_BOOL: { uint8_t x = v != 0.0; memcpy(p, &x, 1); break; }
    case SGK_UINT8: { uint8_t x = (uint8_t)v; memcpy(p, &x, 1); break; }
    case SGK_INT8: { int8_t x = (int8_t)v; memcpy(p, &x, 1); break; }
    case SGK_INT32: { int32_t x = (int32_t)v; memcpy(p, &x, 4); break; }
    case SGK_INT64: { int64_t x = (int64_t)v; memcpy(p, &x, 8); break; }
    case SGK_FLOAT16: { uint16_t x = f16_from_double(v); memcpy(p, &x, 2); break; }
    case SGK_FLOAT32: { float x = (float)v; memcpy(p, &x, 4); break; }
    case SGK_FLOAT64: memcpy(p, &v, 8); break;
    default: fail_msg("test bug: dtype %d not handled by store_value", (int)dt);
    }
}

static double load_value(sgk_dtype dt, const void *p)
{
    switch (dt) {
    case SGK_BOOL: case SGK_UINT8: { uint8_t x; memcpy(&x, p, 1); return x; }
    case SGK_INT8: { int8_t x; memcpy(&x, p, 1); return x; }
    case SGK_INT32: { int32_t x; memcpy(&x, p, 4); return x; }
    case SGK_INT64: { int64_t x; memcpy(&x, p, 8); return (double)x; }
    case SGK_FLOAT16: { uint16_t x; memcpy(&x, p, 2); return f16_to_double(x); }
    case SGK_FLOAT32: { float x; memcpy(&x, p, 4); return x; }
    case SGK_FLOAT64: { double x; memcpy(&x, p, 8); return x; }
    default: return 0.0;
    }
}

void *make_values(sgk_dtype dt, const num_t *n)
{
    int64_t count = tc_numel(n->rank, n->shape);
    size_t es = tc_dtype_size(dt);
    unsigned char *buf = xmalloc((size_t)count * es + 1);
    for (int64_t i = 0; i < count; i++)
        store_value(dt, buf + (size_t)i * es, n->v[i]);
    return buf;
}

sgk_tensor tensor_of(sgk_dtype dt, const num_t *n, const void *buf)
{
    return (sgk_tensor){dt, n->rank, n->shape, buf};
}

/* ---- index variants ---------------------------------------------------- */

const char *const idx_variant_name[IDX_VARIANTS] = {
    "int64 indices", "int32 indices",
    "int64 indices rewritten negative", "int32 indices rewritten negative"};

/* The i-th index value addresses an axis of size dims[i % ndims]; the
   "negative" variants rewrite every in-range v >= 0 as v - size. */
void *make_indices(const idx_t *idx, int variant, const int64_t *dims,
                          int64_t ndims, sgk_tensor *out)
{
    int64_t n = tc_numel(idx->rank, idx->shape);
    int is32 = variant == IDX_I32 || variant == IDX_I32_NEG;
    int neg = variant == IDX_I64_NEG || variant == IDX_I32_NEG;
    unsigned char *buf = xmalloc((size_t)n * (is32 ? 4 : 8) + 1);
    for (int64_t i = 0; i < n; i++) {
        int64_t v = idx->v[i];
        int64_t s = ndims > 0 ? dims[i % ndims] : 0;
        if (neg && v >= 0 && v < s)
            v -= s;
        if (is32) {
            int32_t x = (int32_t)v;
            memcpy(buf + (size_t)i * 4, &x, 4);
        } else {
            memcpy(buf + (size_t)i * 8, &v, 8);
        }
    }
    *out = (sgk_tensor){is32 ? SGK_INT32 : SGK_INT64, idx->rank, idx->shape, buf};
    return buf;
}

/* Axis sizes addressed by the k coordinates of an ND index tuple. */
int64_t nd_dims(const sgk_tensor *data, const idx_t *idx, int64_t batch_dims,
                       int64_t *dims)
{
    int64_t k = idx->rank > 0 ? idx->shape[idx->rank - 1] : 0;
    if (k > SGK_MAX_RANK)
        k = SGK_MAX_RANK;
    for (int64_t j = 0; j < k; j++)
        dims[j] = batch_dims + j < data->rank ? data->shape[batch_dims + j] : 0;
    return k;
}

int64_t axis_dim(const sgk_tensor *data, int64_t axis)
{
    if (axis < 0)
        axis += data->rank;
    return axis >= 0 && axis < data->rank ? data->shape[axis] : 0;
}

/* ---- expectations ------------------------------------------------------------- */

void expect_values(sgk_dtype dt, const void *got, const void *want, int64_t n,
                          const char *op, const char *ctx)
{
    size_t es = tc_dtype_size(dt);
    if (memcmp(got, want, (size_t)n * es) == 0)
        return;
    int shown = 0;
    for (int64_t i = 0; i < n && shown < 32; i++) {
        const unsigned char *g = (const unsigned char *)got + (size_t)i * es;
        const unsigned char *w = (const unsigned char *)want + (size_t)i * es;
        if (memcmp(g, w, es) != 0) {
            print_error("  %s [%s]: element %lld: expected %.9g, got %.9g\n", op, ctx,
                        (long long)i, load_value(dt, w), load_value(dt, g));
            shown++;
        }
    }
    fail_msg("%s [%s]: output differs from the seed's expected values", op, ctx);
}

void expect_bytes(const unsigned char *got, const unsigned char *want, size_t n,
                         const char *op, const char *ctx, const char *what)
{
    size_t i = tc_first_difference(got, want, n);
    if (i < n)
        fail_msg("%s [%s]: %s changed at byte %zu (0x%02x, expected 0x%02x)", op, ctx, what, i,
                 got[i], want[i]);
}

void expect_fill(const unsigned char *got, unsigned char byte, size_t n,
                        const char *op, const char *ctx, const char *what)
{
    size_t i = tc_first_byte_not(got, byte, n);
    if (i < n)
        fail_msg("%s [%s]: %s written at byte %zu", op, ctx, what, i);
}

void expect_ok(sgk_status st, const char *op, const char *ctx)
{
    if (st != SGK_OK)
        fail_msg("%s [%s]: returned %s: %s", op, ctx, tc_status_name(st), sgk_last_error());
}

/* Leave a last error that does not name `op`, so a stale message cannot
   satisfy the check after the failing call under test. */
void prime_last_error(const char *op)
{
    static const int64_t shape1[] = {1};
    static const float one[] = {1.0f};
    static const int64_t bad[] = {7};
    float out[1] = {0};
    sgk_tensor d = {SGK_FLOAT32, 1, shape1, one};
    sgk_tensor i = {SGK_INT64, 1, shape1, bad};
    if (strcmp(op, "gather_elements") == 0) {
        static const int64_t ishape[] = {1, 1};
        sgk_tensor in = {SGK_INT64, 2, ishape, bad};
        (void)sgk_gather_nd(&d, &in, 0, out);
    } else {
        (void)sgk_gather_elements(&d, &i, 0, out);
    }
}

void expect_failure(sgk_status got, const sgk_status *want, size_t nwant,
                           const char *op, const char *ctx)
{
    int ok = 0;
    for (size_t i = 0; i < nwant; i++)
        ok |= got == want[i];
    if (!ok)
        fail_msg("%s [%s]: expected %s, got %s (%s)", op, ctx, tc_status_name(want[0]),
                 tc_status_name(got), got == SGK_OK ? "" : sgk_last_error());
    const char *msg = sgk_last_error();
    assert_non_null(msg);
    if (msg[0] == '\0')
        fail_msg("%s [%s]: sgk_last_error() is empty after %s", op, ctx, tc_status_name(got));
    if (strstr(msg, op) == NULL)
        fail_msg("%s [%s]: sgk_last_error() \"%s\" does not name the operator", op, ctx, msg);
}

/* ---- ScatterND ---------------------------------------------------------- */

