/*
 * test_seeds: every worked example printed in the operator specifications
 * (the seed files below, which this repository does not include), run
 * through sgk's one-shot entry points.
 *
 * Seed files:
 *   000 = ScatterND 18/16/13/11 (ONNX, new doc layout)
 *   001 = ScatterNDUpdate-15 (OpenVINO)
 *   002 = GatherND 13/12/11 (ONNX)
 *   003 = Scatter 11/9 (ONNX; deprecated ScatterElements without reduction)
 *   004 = ScatterND 16/13/11 (ONNX, old doc layout)
 *
 * Examples covered (identical examples repeated across versions/files are
 * tested once):
 *   ScatterND Example 1 (1-D, k = r)            000 v18/16/13/11, 004 v16/13/11
 *   ScatterND Example 2 == _scatternd (float32) 000 v18/16/13/11, 004 v16/13/11,
 *                                               001 "update of two slices of 4x4"
 *   _scatternd_add, _scatternd_multiply         000 v18, 004 v16
 *   _scatternd_max, _scatternd_min              000 v18
 *   ScatterNDUpdate-15 Example 1 (text, negative indices)          001
 *   ScatterNDUpdate-15 XML Examples 1 (none), 2 (sum, FP16),
 *     3 (sub, I32), 4 (prod), 5 (shapes only, values generated)    001
 *   GatherND Examples 1-4 (11/12/13), Example 5 batch_dims=1 (12/13),
 *     _int32, _float32, _int32_batchdim_1                          002
 *   Scatter Example 1 == _scatter_without_axis,
 *     Example 2 == _scatter_with_axis                              003 v11/v9
 * Statements of the seeds checked alongside (not printed examples):
 *   ScatterNDUpdate-15 "0-D updates may be a tensor with a single element",
 *     "bool sum/sub/prod are OR/XOR/AND", out-of-range index raises  001
 *   ScatterND "inverse of GatherND", k <= rank(data), updates shape  000/004
 *   GatherND out-of-range index, indices_shape[-1] > r-b, b < min(q,r),
 *     first b dims equal                                            002
 *   Scatter negative axis, out-of-range index, "inverse of GatherElements"
 *     (the seeds print no GatherElements example; it is checked as the
 *     inverse of the Scatter examples)                              003
 *
 * Seed typos (the operator's own definition wins; docs/semantics.md,
 * Seed errata):
 *   001 XML Example 1 prints [50, 20, 20, 4]      -> [50, 40, 20, 4]
 *   001 XML Example 4 prints [500, 3600, 40, 4]   -> [500, 2400, 60, 4]
 *   001 text Example 1 prints [1,11,3,10,4,6,13,12] -> [1,11,3,10,14,6,13,12]
 *   and, not listed in docs/semantics.md: the "# Expecting output" comments of
 *   _scatternd_add/_multiply/_max/_min (000, 004) print slice 2 as
 *   [[1,1,1,1],...,[4,4,4,4]], but indices [[0],[0]] never touch slice 2, so
 *   it stays data[2] (scatter_nd_impl, which the ONNX test really uses, agrees).
 *
 * Every scatter example runs with int64 and int32 indices, with the
 * non-negative indices also rewritten to their negative equivalents, and both
 * into a separate output and in place (output == a copy of data).
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

#include "support/common.h"
#include "registry/registry.h"
#include "sgk.h"

#define LEN(a) (sizeof(a) / sizeof((a)[0]))
#define GUARD 64            /* bytes past the output that must stay untouched */
#define SENTINEL 0xA5
#define SNAPSHOT_LIMIT ((size_t)1 << 20)

/* ---- values ------------------------------------------------------------ */

/* Example values as doubles (all exact in every type used), with a shape. */
typedef struct {
    int32_t rank;
    const int64_t *shape;
    const double *v;
} num_t;

typedef struct {
    int32_t rank;
    const int64_t *shape;
    const int64_t *v;
} idx_t;

#define NUM(shp, vals) ((num_t){(int32_t)LEN(shp), (shp), (vals)})
#define IDX(shp, vals) ((idx_t){(int32_t)LEN(shp), (shp), (vals)})

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

static void *make_values(sgk_dtype dt, const num_t *n)
{
    int64_t count = tc_numel(n->rank, n->shape);
    size_t es = tc_dtype_size(dt);
    unsigned char *buf = xmalloc((size_t)count * es + 1);
    for (int64_t i = 0; i < count; i++)
        store_value(dt, buf + (size_t)i * es, n->v[i]);
    return buf;
}

static sgk_tensor tensor_of(sgk_dtype dt, const num_t *n, const void *buf)
{
    return (sgk_tensor){dt, n->rank, n->shape, buf};
}

/* ---- index variants ---------------------------------------------------- */

enum { IDX_I64, IDX_I32, IDX_I64_NEG, IDX_I32_NEG, IDX_VARIANTS };
static const char *const idx_variant_name[IDX_VARIANTS] = {
    "int64 indices", "int32 indices",
    "int64 indices rewritten negative", "int32 indices rewritten negative"};

/* The i-th index value addresses an axis of size dims[i % ndims]; the
   "negative" variants rewrite every in-range v >= 0 as v - size. */
static void *make_indices(const idx_t *idx, int variant, const int64_t *dims,
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
static int64_t nd_dims(const sgk_tensor *data, const idx_t *idx, int64_t batch_dims,
                       int64_t *dims)
{
    int64_t k = idx->rank > 0 ? idx->shape[idx->rank - 1] : 0;
    if (k > SGK_MAX_RANK)
        k = SGK_MAX_RANK;
    for (int64_t j = 0; j < k; j++)
        dims[j] = batch_dims + j < data->rank ? data->shape[batch_dims + j] : 0;
    return k;
}

static int64_t axis_dim(const sgk_tensor *data, int64_t axis)
{
    if (axis < 0)
        axis += data->rank;
    return axis >= 0 && axis < data->rank ? data->shape[axis] : 0;
}

/* ---- checks ------------------------------------------------------------- */

static void expect_values(sgk_dtype dt, const void *got, const void *want, int64_t n,
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

static void expect_bytes(const unsigned char *got, const unsigned char *want, size_t n,
                         const char *op, const char *ctx, const char *what)
{
    size_t i = tc_first_difference(got, want, n);
    if (i < n)
        fail_msg("%s [%s]: %s changed at byte %zu (0x%02x, expected 0x%02x)", op, ctx, what, i,
                 got[i], want[i]);
}

static void expect_fill(const unsigned char *got, unsigned char byte, size_t n,
                        const char *op, const char *ctx, const char *what)
{
    size_t i = tc_first_byte_not(got, byte, n);
    if (i < n)
        fail_msg("%s [%s]: %s written at byte %zu", op, ctx, what, i);
}

static void expect_ok(sgk_status st, const char *op, const char *ctx)
{
    if (st != SGK_OK)
        fail_msg("%s [%s]: returned %s: %s", op, ctx, tc_status_name(st), sgk_last_error());
}

/* Leave a last error that does not name `op`, so a stale message cannot
   satisfy the check after the failing call under test. */
static void prime_last_error(const char *op)
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

static void expect_failure(sgk_status got, const sgk_status *want, size_t nwant,
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

static void check_scatter_nd_raw(const sgk_tensor *data, const idx_t *idx,
                                 const sgk_tensor *upd, sgk_reduction red,
                                 const void *want)
{
    size_t nbytes = (size_t)tc_numel(data->rank, data->shape) * tc_dtype_size(data->dtype);
    int64_t dims[SGK_MAX_RANK];
    int64_t k = nd_dims(data, idx, 0, dims);
    unsigned char *snapshot = NULL;
    if (nbytes <= SNAPSHOT_LIMIT) {
        snapshot = xmalloc(nbytes + 1);
        memcpy(snapshot, data->data, nbytes);
    }
    for (int v = 0; v < IDX_VARIANTS; v++) {
        sgk_tensor it;
        void *ibuf = make_indices(idx, v, dims, k, &it);
        for (int in_place = 0; in_place < 2; in_place++) {
            char ctx[96];
            snprintf(ctx, sizeof ctx, "%s, %s", idx_variant_name[v],
                     in_place ? "in place" : "separate output");
            unsigned char *out = xmalloc(nbytes + GUARD);
            memset(out, SENTINEL, nbytes + GUARD);
            sgk_tensor d = *data;
            if (in_place) {
                memcpy(out, data->data, nbytes);
                d.data = out;
            }
            expect_ok(sgk_scatter_nd(&d, &it, upd, red, out), "scatter_nd", ctx);
            expect_values(data->dtype, out, want,
                          tc_numel(data->rank, data->shape), "scatter_nd", ctx);
            expect_fill(out + nbytes, SENTINEL, GUARD, "scatter_nd", ctx,
                        "guard bytes past the output");
            if (snapshot != NULL && !in_place)
                expect_bytes(data->data, snapshot, nbytes, "scatter_nd", ctx, "data input");
            free(out);
        }
        free(ibuf);
    }
    free(snapshot);
}

/* The output shape of a scatter is data's shape: `want` is given with its
   own shape, asserted equal to data's. */
static void check_scatter_nd(sgk_dtype dt, num_t data, idx_t idx, num_t upd,
                             sgk_reduction red, num_t want)
{
    assert_int_equal(want.rank, data.rank);
    assert_memory_equal(want.shape, data.shape, sizeof(int64_t) * (size_t)data.rank);
    void *db = make_values(dt, &data), *ub = make_values(dt, &upd), *wb = make_values(dt, &want);
    sgk_tensor d = tensor_of(dt, &data, db), u = tensor_of(dt, &upd, ub);
    check_scatter_nd_raw(&d, &idx, &u, red, wb);
    free(db);
    free(ub);
    free(wb);
}

static void check_scatter_nd_error(sgk_dtype dt, num_t data, idx_t idx, num_t upd,
                                   sgk_reduction red, sgk_status want)
{
    void *db = make_values(dt, &data), *ub = make_values(dt, &upd);
    sgk_tensor d0 = tensor_of(dt, &data, db), u = tensor_of(dt, &upd, ub);
    size_t nbytes = (size_t)tc_numel(data.rank, data.shape) * tc_dtype_size(dt);
    int64_t dims[SGK_MAX_RANK];
    int64_t k = nd_dims(&d0, &idx, 0, dims);
    for (int v = 0; v < IDX_VARIANTS; v++) {
        sgk_tensor it;
        void *ibuf = make_indices(&idx, v, dims, k, &it);
        for (int in_place = 0; in_place < 2; in_place++) {
            char ctx[96];
            snprintf(ctx, sizeof ctx, "%s, %s", idx_variant_name[v],
                     in_place ? "in place" : "separate output");
            unsigned char *out = xmalloc(nbytes + GUARD), *ref = xmalloc(nbytes + GUARD);
            memset(out, SENTINEL, nbytes + GUARD);
            sgk_tensor d = d0;
            if (in_place) {
                memcpy(out, db, nbytes);
                d.data = out;
            }
            memcpy(ref, out, nbytes + GUARD);
            prime_last_error("scatter_nd");
            expect_failure(sgk_scatter_nd(&d, &it, &u, red, out), &want, 1, "scatter_nd", ctx);
            expect_bytes(out, ref, nbytes + GUARD, "scatter_nd", ctx,
                         in_place ? "data (in place) after a failed call"
                                  : "output after a failed call");
            free(out);
            free(ref);
        }
        free(ibuf);
    }
    free(db);
    free(ub);
}

/* ---- GatherND ----------------------------------------------------------- */

static void check_gather_nd_raw(const sgk_tensor *data, const idx_t *idx, int64_t b,
                                const void *want, int32_t want_rank,
                                const int64_t *want_shape)
{
    size_t nbytes = (size_t)tc_numel(want_rank, want_shape) * tc_dtype_size(data->dtype);
    int64_t dims[SGK_MAX_RANK];
    int64_t k = nd_dims(data, idx, b, dims);
    for (int v = 0; v < IDX_VARIANTS; v++) {
        const char *ctx = idx_variant_name[v];
        sgk_tensor it;
        void *ibuf = make_indices(idx, v, dims, k, &it);

        int64_t shape[2 * SGK_MAX_RANK];
        int32_t rank = -1;
        expect_ok(sgk_gather_nd_shape(data, &it, b, shape, &rank), "gather_nd_shape", ctx);
        assert_int_equal(rank, want_rank);
        assert_memory_equal(shape, want_shape, sizeof(int64_t) * (size_t)want_rank);
        rank = -1;
        expect_ok(sgk_gather_nd_shape(data, &it, b, NULL, &rank), "gather_nd_shape", ctx);
        assert_int_equal(rank, want_rank);

        unsigned char *out = xmalloc(nbytes + GUARD);
        memset(out, SENTINEL, nbytes + GUARD);
        expect_ok(sgk_gather_nd(data, &it, b, out), "gather_nd", ctx);
        expect_values(data->dtype, out, want, tc_numel(want_rank, want_shape), "gather_nd", ctx);
        expect_fill(out + nbytes, SENTINEL, GUARD, "gather_nd", ctx,
                    "guard bytes past the output");
        free(out);
        free(ibuf);
    }
}

static void check_gather_nd(sgk_dtype dt, num_t data, idx_t idx, int64_t b, num_t want)
{
    void *db = make_values(dt, &data), *wb = make_values(dt, &want);
    sgk_tensor d = tensor_of(dt, &data, db);
    check_gather_nd_raw(&d, &idx, b, wb, want.rank, want.shape);
    free(db);
    free(wb);
}

static void check_gather_nd_error(sgk_dtype dt, num_t data, idx_t idx, int64_t b,
                                  sgk_status want)
{
    enum { OUT_BYTES = 256 };
    void *db = make_values(dt, &data);
    sgk_tensor d = tensor_of(dt, &data, db);
    int64_t dims[SGK_MAX_RANK];
    int64_t k = nd_dims(&d, &idx, b, dims);
    for (int v = 0; v < IDX_VARIANTS; v++) {
        const char *ctx = idx_variant_name[v];
        sgk_tensor it;
        void *ibuf = make_indices(&idx, v, dims, k, &it);
        unsigned char out[OUT_BYTES];
        memset(out, SENTINEL, sizeof out);
        prime_last_error("gather_nd");
        expect_failure(sgk_gather_nd(&d, &it, b, out), &want, 1, "gather_nd", ctx);
        expect_fill(out, SENTINEL, sizeof out, "gather_nd", ctx, "output after a failed call");
        if (want == SGK_ERR_SHAPE) {
            int64_t shape[2 * SGK_MAX_RANK];
            int32_t rank = -1;
            prime_last_error("gather_nd");
            expect_failure(sgk_gather_nd_shape(&d, &it, b, shape, &rank), &want, 1,
                           "gather_nd", ctx);
        }
        free(ibuf);
    }
    free(db);
}

/* ---- ScatterElements (Scatter) / GatherElements ------------------------- */

static void check_scatter_elements(sgk_dtype dt, num_t data, idx_t idx, num_t upd,
                                   int64_t axis, sgk_reduction red, num_t want)
{
    assert_int_equal(want.rank, data.rank);
    assert_memory_equal(want.shape, data.shape, sizeof(int64_t) * (size_t)data.rank);
    void *db = make_values(dt, &data), *ub = make_values(dt, &upd), *wb = make_values(dt, &want);
    sgk_tensor d0 = tensor_of(dt, &data, db), u = tensor_of(dt, &upd, ub);
    size_t nbytes = (size_t)tc_numel(data.rank, data.shape) * tc_dtype_size(dt);
    int64_t dim = axis_dim(&d0, axis);
    unsigned char *snapshot = xmalloc(nbytes + 1);
    memcpy(snapshot, db, nbytes);
    for (int v = 0; v < IDX_VARIANTS; v++) {
        sgk_tensor it;
        void *ibuf = make_indices(&idx, v, &dim, 1, &it);
        for (int in_place = 0; in_place < 2; in_place++) {
            char ctx[128];
            snprintf(ctx, sizeof ctx, "axis %lld, %s, %s", (long long)axis,
                     idx_variant_name[v], in_place ? "in place" : "separate output");
            unsigned char *out = xmalloc(nbytes + GUARD);
            memset(out, SENTINEL, nbytes + GUARD);
            sgk_tensor d = d0;
            if (in_place) {
                memcpy(out, db, nbytes);
                d.data = out;
            }
            expect_ok(sgk_scatter_elements(&d, &it, &u, axis, red, out), "scatter_elements", ctx);
            expect_values(dt, out, wb, tc_numel(data.rank, data.shape), "scatter_elements", ctx);
            expect_fill(out + nbytes, SENTINEL, GUARD, "scatter_elements", ctx,
                        "guard bytes past the output");
            if (!in_place)
                expect_bytes(db, snapshot, nbytes, "scatter_elements", ctx, "data input");
            free(out);
        }
        free(ibuf);
    }
    free(snapshot);
    free(db);
    free(ub);
    free(wb);
}

static void check_scatter_elements_error(sgk_dtype dt, num_t data, idx_t idx, num_t upd,
                                         int64_t axis, sgk_reduction red,
                                         const sgk_status *want, size_t nwant)
{
    void *db = make_values(dt, &data), *ub = make_values(dt, &upd);
    sgk_tensor d0 = tensor_of(dt, &data, db), u = tensor_of(dt, &upd, ub);
    size_t nbytes = (size_t)tc_numel(data.rank, data.shape) * tc_dtype_size(dt);
    int64_t dim = axis_dim(&d0, axis);
    for (int v = 0; v < IDX_VARIANTS; v++) {
        sgk_tensor it;
        void *ibuf = make_indices(&idx, v, &dim, 1, &it);
        for (int in_place = 0; in_place < 2; in_place++) {
            char ctx[128];
            snprintf(ctx, sizeof ctx, "axis %lld, %s, %s", (long long)axis,
                     idx_variant_name[v], in_place ? "in place" : "separate output");
            unsigned char *out = xmalloc(nbytes + GUARD), *ref = xmalloc(nbytes + GUARD);
            memset(out, SENTINEL, nbytes + GUARD);
            sgk_tensor d = d0;
            if (in_place) {
                memcpy(out, db, nbytes);
                d.data = out;
            }
            memcpy(ref, out, nbytes + GUARD);
            prime_last_error("scatter_elements");
            expect_failure(sgk_scatter_elements(&d, &it, &u, axis, red, out), want, nwant,
                           "scatter_elements", ctx);
            expect_bytes(out, ref, nbytes + GUARD, "scatter_elements", ctx,
                         in_place ? "data (in place) after a failed call"
                                  : "output after a failed call");
            free(out);
            free(ref);
        }
        free(ibuf);
    }
    free(db);
    free(ub);
}

/* GatherElements' output shape is the indices' shape. */
static void check_gather_elements(sgk_dtype dt, num_t data, idx_t idx, int64_t axis,
                                  num_t want)
{
    assert_int_equal(want.rank, idx.rank);
    assert_memory_equal(want.shape, idx.shape, sizeof(int64_t) * (size_t)idx.rank);
    void *db = make_values(dt, &data), *wb = make_values(dt, &want);
    sgk_tensor d = tensor_of(dt, &data, db);
    size_t nbytes = (size_t)tc_numel(want.rank, want.shape) * tc_dtype_size(dt);
    int64_t dim = axis_dim(&d, axis);
    for (int v = 0; v < IDX_VARIANTS; v++) {
        char ctx[96];
        snprintf(ctx, sizeof ctx, "axis %lld, %s", (long long)axis, idx_variant_name[v]);
        sgk_tensor it;
        void *ibuf = make_indices(&idx, v, &dim, 1, &it);
        unsigned char *out = xmalloc(nbytes + GUARD);
        memset(out, SENTINEL, nbytes + GUARD);
        expect_ok(sgk_gather_elements(&d, &it, axis, out), "gather_elements", ctx);
        expect_values(dt, out, wb, tc_numel(want.rank, want.shape), "gather_elements", ctx);
        expect_fill(out + nbytes, SENTINEL, GUARD, "gather_elements", ctx,
                    "guard bytes past the output");
        free(out);
        free(ibuf);
    }
    free(db);
    free(wb);
}

static void check_gather_elements_error(sgk_dtype dt, num_t data, idx_t idx, int64_t axis,
                                        sgk_status want)
{
    enum { OUT_BYTES = 256 };
    void *db = make_values(dt, &data);
    sgk_tensor d = tensor_of(dt, &data, db);
    int64_t dim = axis_dim(&d, axis);
    for (int v = 0; v < IDX_VARIANTS; v++) {
        char ctx[96];
        snprintf(ctx, sizeof ctx, "axis %lld, %s", (long long)axis, idx_variant_name[v]);
        sgk_tensor it;
        void *ibuf = make_indices(&idx, v, &dim, 1, &it);
        unsigned char out[OUT_BYTES];
        memset(out, SENTINEL, sizeof out);
        prime_last_error("gather_elements");
        expect_failure(sgk_gather_elements(&d, &it, axis, out), &want, 1, "gather_elements", ctx);
        expect_fill(out, SENTINEL, sizeof out, "gather_elements", ctx,
                    "output after a failed call");
        free(ibuf);
    }
    free(db);
}

/* ======================================================================== */
/* ScatterND (ONNX)                                                          */
/* ======================================================================== */

static const int64_t SND1_DSHAPE[] = {8};
static const double SND1_DATA[] = {1, 2, 3, 4, 5, 6, 7, 8};
static const int64_t SND1_ISHAPE[] = {4, 1};
static const int64_t SND1_IDX[] = {4, 3, 1, 7};
static const int64_t SND1_USHAPE[] = {4};
static const double SND1_UPD[] = {9, 10, 11, 12};
static const double SND1_OUT[] = {1, 11, 3, 10, 9, 6, 7, 12};

/* The 4x4x4 data of ScatterND Example 2 and of _scatternd*. */
#define SND_SLICE_A 1, 2, 3, 4, 5, 6, 7, 8, 8, 7, 6, 5, 4, 3, 2, 1
#define SND_SLICE_B 8, 7, 6, 5, 4, 3, 2, 1, 1, 2, 3, 4, 5, 6, 7, 8
static const int64_t SND2_DSHAPE[] = {4, 4, 4};
static const double SND2_DATA[] = {SND_SLICE_A, SND_SLICE_A, SND_SLICE_B, SND_SLICE_B};
static const int64_t SND2_ISHAPE[] = {2, 1};
static const int64_t SND2_IDX[] = {0, 2};
static const int64_t SND2_IDX_DUP[] = {0, 0};
static const int64_t SND2_USHAPE[] = {2, 4, 4};
static const double SND2_UPD[] = {5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8, 8, 8, 8,
                                  1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4};

/* 000 ScatterND-18/16/13/11 "Example 1"; 004 ScatterND-16/13/11 "Example 1".
   Untyped in the seed: run as float32 and int64. */
static void test_scatternd_example1_onnx(void **state)
{
    (void)state;
    check_scatter_nd(SGK_FLOAT32, NUM(SND1_DSHAPE, SND1_DATA), IDX(SND1_ISHAPE, SND1_IDX),
                     NUM(SND1_USHAPE, SND1_UPD), SGK_REDUCE_NONE, NUM(SND1_DSHAPE, SND1_OUT));
    check_scatter_nd(SGK_INT64, NUM(SND1_DSHAPE, SND1_DATA), IDX(SND1_ISHAPE, SND1_IDX),
                     NUM(SND1_USHAPE, SND1_UPD), SGK_REDUCE_NONE, NUM(SND1_DSHAPE, SND1_OUT));
}

/* 000 ScatterND-18 "Example 2" and "_scatternd" (float32), also in 16/13/11 and
   004; 001 ScatterNDUpdate-15 "update of two slices of 4x4 shape". */
static void test_scatternd_example2_onnx(void **state)
{
    (void)state;
    static const double out[] = {5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8, 8, 8, 8,
                                 SND_SLICE_A,
                                 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4,
                                 SND_SLICE_B};
    check_scatter_nd(SGK_FLOAT32, NUM(SND2_DSHAPE, SND2_DATA), IDX(SND2_ISHAPE, SND2_IDX),
                     NUM(SND2_USHAPE, SND2_UPD), SGK_REDUCE_NONE, NUM(SND2_DSHAPE, out));
}

/* 000 ScatterND-18 "_scatternd_add" (also 004 ScatterND-16).  The printed
   comment shows slice 2 as [[1,1,1,1],..]; indices [[0],[0]] leave it as
   data[2] (seed typo, see the file header). */
static void test_scatternd_add_onnx(void **state)
{
    (void)state;
    static const double out[] = {7, 8, 9, 10, 13, 14, 15, 16, 18, 17, 16, 15, 16, 15, 14, 13,
                                 SND_SLICE_A, SND_SLICE_B, SND_SLICE_B};
    check_scatter_nd(SGK_FLOAT32, NUM(SND2_DSHAPE, SND2_DATA), IDX(SND2_ISHAPE, SND2_IDX_DUP),
                     NUM(SND2_USHAPE, SND2_UPD), SGK_REDUCE_ADD, NUM(SND2_DSHAPE, out));
}

/* 000 ScatterND-18 "_scatternd_multiply" (also 004 ScatterND-16); slice 2
   corrected as for _scatternd_add. */
static void test_scatternd_multiply_onnx(void **state)
{
    (void)state;
    static const double out[] = {5, 10, 15, 20, 60, 72, 84, 96,
                                 168, 147, 126, 105, 128, 96, 64, 32,
                                 SND_SLICE_A, SND_SLICE_B, SND_SLICE_B};
    check_scatter_nd(SGK_FLOAT32, NUM(SND2_DSHAPE, SND2_DATA), IDX(SND2_ISHAPE, SND2_IDX_DUP),
                     NUM(SND2_USHAPE, SND2_UPD), SGK_REDUCE_MUL, NUM(SND2_DSHAPE, out));
}

/* 000 ScatterND-18 "_scatternd_max"; slice 2 corrected as for _scatternd_add. */
static void test_scatternd_max_onnx(void **state)
{
    (void)state;
    static const double out[] = {5, 5, 5, 5, 6, 6, 7, 8, 8, 7, 7, 7, 8, 8, 8, 8,
                                 SND_SLICE_A, SND_SLICE_B, SND_SLICE_B};
    check_scatter_nd(SGK_FLOAT32, NUM(SND2_DSHAPE, SND2_DATA), IDX(SND2_ISHAPE, SND2_IDX_DUP),
                     NUM(SND2_USHAPE, SND2_UPD), SGK_REDUCE_MAX, NUM(SND2_DSHAPE, out));
}

/* 000 ScatterND-18 "_scatternd_min"; slice 2 corrected as for _scatternd_add. */
static void test_scatternd_min_onnx(void **state)
{
    (void)state;
    static const double out[] = {1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 3, 2, 1,
                                 SND_SLICE_A, SND_SLICE_B, SND_SLICE_B};
    check_scatter_nd(SGK_FLOAT32, NUM(SND2_DSHAPE, SND2_DATA), IDX(SND2_ISHAPE, SND2_IDX_DUP),
                     NUM(SND2_USHAPE, SND2_UPD), SGK_REDUCE_MIN, NUM(SND2_DSHAPE, out));
}

/* 000 ScatterND-18 "This operator is the inverse of GatherND": GatherND of
   Examples 1 and 2's outputs at the same indices gives back the updates. */
static void test_scatternd_examples_inverse_gathernd(void **state)
{
    (void)state;
    check_gather_nd(SGK_FLOAT32, NUM(SND1_DSHAPE, SND1_OUT), IDX(SND1_ISHAPE, SND1_IDX), 0,
                    NUM(SND1_USHAPE, SND1_UPD));
    static const double out2[] = {5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8, 8, 8, 8,
                                  SND_SLICE_A,
                                  1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4,
                                  SND_SLICE_B};
    check_gather_nd(SGK_FLOAT32, NUM(SND2_DSHAPE, out2), IDX(SND2_ISHAPE, SND2_IDX), 0,
                    NUM(SND2_USHAPE, SND2_UPD));
}

/* 000 ScatterND-18 Summary: "k can be a value at most the rank of data" and
   "the shape of updates must equal indices.shape[0:q-1] ++ data.shape[k:r-1]";
   the Example 2 inputs with a broken shape. */
static void test_scatternd_example2_shape_rules(void **state)
{
    (void)state;
    static const int64_t ishape_k4[] = {1, 4};
    static const int64_t idx_k4[] = {0, 0, 0, 0};
    static const int64_t ushape_k4[] = {1};
    static const double upd_k4[] = {9};
    check_scatter_nd_error(SGK_FLOAT32, NUM(SND2_DSHAPE, SND2_DATA), IDX(ishape_k4, idx_k4),
                           NUM(ushape_k4, upd_k4), SGK_REDUCE_NONE, SGK_ERR_SHAPE);
    static const int64_t ushape_bad[] = {2, 4, 3};
    check_scatter_nd_error(SGK_FLOAT32, NUM(SND2_DSHAPE, SND2_DATA), IDX(SND2_ISHAPE, SND2_IDX),
                           NUM(ushape_bad, SND2_UPD), SGK_REDUCE_NONE, SGK_ERR_SHAPE);
}

/* 000 ScatterND / 001 ScatterNDUpdate-15 index bounds, on Example 2's data
   with k = 2: [0, 4] has an in-range flattened offset (4 < 16) but its second
   coordinate is out of range; checked per coordinate (docs/semantics.md,
   Negative indices). */
static void test_scatternd_example2_coordinate_out_of_range(void **state)
{
    (void)state;
    static const int64_t ishape[] = {1, 2};
    static const int64_t idx_hi[] = {0, 4};
    static const int64_t idx_lo[] = {3, -5};
    static const int64_t idx_first[] = {-5, 0};
    static const int64_t ushape[] = {1, 4};
    static const double upd[] = {1, 2, 3, 4};
    for (int red = 0; red < SGK_REDUCTION_COUNT; red++) {
        check_scatter_nd_error(SGK_FLOAT32, NUM(SND2_DSHAPE, SND2_DATA), IDX(ishape, idx_hi),
                               NUM(ushape, upd), (sgk_reduction)red,
                               SGK_ERR_INDEX_OUT_OF_RANGE);
        check_scatter_nd_error(SGK_FLOAT32, NUM(SND2_DSHAPE, SND2_DATA), IDX(ishape, idx_lo),
                               NUM(ushape, upd), (sgk_reduction)red,
                               SGK_ERR_INDEX_OUT_OF_RANGE);
        check_scatter_nd_error(SGK_FLOAT32, NUM(SND2_DSHAPE, SND2_DATA), IDX(ishape, idx_first),
                               NUM(ushape, upd), (sgk_reduction)red,
                               SGK_ERR_INDEX_OUT_OF_RANGE);
    }
}

/* ======================================================================== */
/* ScatterNDUpdate-15 (OpenVINO)                                             */
/* ======================================================================== */

static const int64_t OV1_ISHAPE[] = {6, 1};
static const int64_t OV1_IDX[] = {4, 3, 1, 7, -2, -4};
static const int64_t OV1_USHAPE[] = {6};
static const double OV1_UPD[] = {9, 10, 11, 12, 13, 14};

/* 001 ScatterNDUpdate-15 "Example 1 that shows simple case of update with
   reduction set to none".  The seed prints [1, 11, 3, 10, 4, 6, 13, 12];
   corrected in docs/semantics.md's Seed errata: index -4 is 4, written last with
   14.  Untyped: run as float32 and int32. */
static void test_ov_scatterndupdate15_example1_text(void **state)
{
    (void)state;
    static const double out[] = {1, 11, 3, 10, 14, 6, 13, 12};
    check_scatter_nd(SGK_FLOAT32, NUM(SND1_DSHAPE, SND1_DATA), IDX(OV1_ISHAPE, OV1_IDX),
                     NUM(OV1_USHAPE, OV1_UPD), SGK_REDUCE_NONE, NUM(SND1_DSHAPE, out));
    check_scatter_nd(SGK_INT32, NUM(SND1_DSHAPE, SND1_DATA), IDX(OV1_ISHAPE, OV1_IDX),
                     NUM(OV1_USHAPE, OV1_UPD), SGK_REDUCE_NONE, NUM(SND1_DSHAPE, out));
}

/* The XML examples 1-4: data [1, 2, 3, 4], indices [0, 2, -3, -3, 0],
   updates [10, 20, 30, 40, 50].  The seed gives indices as <dim>5</dim>;
   as k-tuples they are indices [[0], [2], [-3], [-3], [0]] of shape [5, 1]
   (docs/semantics.md, Shapes), so updates have shape [5]. */
static const int64_t OVX_DSHAPE[] = {4};
static const double OVX_DATA[] = {1, 2, 3, 4};
static const int64_t OVX_ISHAPE[] = {5, 1};
static const int64_t OVX_IDX[] = {0, 2, -3, -3, 0};
static const int64_t OVX_USHAPE[] = {5};
static const double OVX_UPD[] = {10, 20, 30, 40, 50};

/* 001 ScatterNDUpdate-15 XML "Example 1" (none, FP32).  The seed prints
   [50, 20, 20, 4]; corrected in docs/semantics.md's Seed errata: [50, 40, 20, 4]
   (index -3 is 1, written last with 40). */
static void test_ov_scatterndupdate15_example1_none(void **state)
{
    (void)state;
    static const double out[] = {50, 40, 20, 4};
    check_scatter_nd(SGK_FLOAT32, NUM(OVX_DSHAPE, OVX_DATA), IDX(OVX_ISHAPE, OVX_IDX),
                     NUM(OVX_USHAPE, OVX_UPD), SGK_REDUCE_NONE, NUM(OVX_DSHAPE, out));
}

/* 001 ScatterNDUpdate-15 XML "Example 2" (sum, FP16). */
static void test_ov_scatterndupdate15_example2_sum(void **state)
{
    (void)state;
    static const double out[] = {61, 72, 23, 4};
    check_scatter_nd(SGK_FLOAT16, NUM(OVX_DSHAPE, OVX_DATA), IDX(OVX_ISHAPE, OVX_IDX),
                     NUM(OVX_USHAPE, OVX_UPD), SGK_REDUCE_ADD, NUM(OVX_DSHAPE, out));
}

/* 001 ScatterNDUpdate-15 XML "Example 3" (sub, I32). */
static void test_ov_scatterndupdate15_example3_sub(void **state)
{
    (void)state;
    static const double out[] = {-59, -68, -17, 4};
    check_scatter_nd(SGK_INT32, NUM(OVX_DSHAPE, OVX_DATA), IDX(OVX_ISHAPE, OVX_IDX),
                     NUM(OVX_USHAPE, OVX_UPD), SGK_REDUCE_SUB, NUM(OVX_DSHAPE, out));
}

/* 001 ScatterNDUpdate-15 XML "Example 4" (prod, FP32).  The seed prints
   [500, 3600, 40, 4]; corrected in docs/semantics.md's Seed errata:
   [500, 2400, 60, 4] (2*30*40 and 3*20). */
static void test_ov_scatterndupdate15_example_prod(void **state)
{
    (void)state;
    static const double out[] = {500, 2400, 60, 4};
    check_scatter_nd(SGK_FLOAT32, NUM(OVX_DSHAPE, OVX_DATA), IDX(OVX_ISHAPE, OVX_IDX),
                     NUM(OVX_USHAPE, OVX_UPD), SGK_REDUCE_MUL, NUM(OVX_DSHAPE, out));
}

/* 001 ScatterNDUpdate-15 XML "Example 5": data [1000, 256, 10, 15], indices
   [25, 125, 3], updates [25, 125, 15], reduction none.  The seed gives shapes
   only: data and updates get distinct values, the indices are pseudo-random in
   [-s, s-1] with one forced duplicate (the last one written wins), and the
   expected output is the sequential definition. */
static void test_ov_scatterndupdate15_example5_shapes(void **state)
{
    (void)state;
    static const int64_t dshape[] = {1000, 256, 10, 15};
    static const int64_t ishape[] = {25, 125, 3};
    static const int64_t ushape[] = {25, 125, 15};
    const size_t ndata = 1000u * 256u * 10u * 15u, nslices = 25u * 125u, slice = 15;

    float *data = xmalloc(ndata * sizeof(float));
    float *want = xmalloc(ndata * sizeof(float));
    float *upd = xmalloc(nslices * slice * sizeof(float));
    int64_t *idx = xmalloc(nslices * 3 * sizeof(int64_t));
    for (size_t i = 0; i < ndata; i++)
        data[i] = (float)(i & 0xfffffu);
    for (size_t i = 0; i < nslices * slice; i++)
        upd[i] = -(float)(i + 1);
    tc_rng rng = {15};
    for (size_t t = 0; t < nslices; t++)
        for (size_t j = 0; j < 3; j++)
            idx[t * 3 + j] = tc_rng_range(&rng, -dshape[j], dshape[j] - 1);
    memcpy(&idx[(nslices - 1) * 3], &idx[0], 3 * sizeof(int64_t));

    memcpy(want, data, ndata * sizeof(float));
    for (size_t t = 0; t < nslices; t++) {
        int64_t off = 0;
        for (size_t j = 0; j < 3; j++) {
            int64_t v = idx[t * 3 + j];
            off = off * dshape[j] + (v < 0 ? v + dshape[j] : v);
        }
        memcpy(&want[off * (int64_t)slice], &upd[t * slice], slice * sizeof(float));
    }

    sgk_tensor d = {SGK_FLOAT32, 4, dshape, data};
    sgk_tensor u = {SGK_FLOAT32, 3, ushape, upd};
    idx_t it = IDX(ishape, idx);
    check_scatter_nd_raw(&d, &it, &u, SGK_REDUCE_NONE, want);
    free(data);
    free(want);
    free(upd);
    free(idx);
}

/* 001 ScatterNDUpdate-15 Inputs: "If expected updates rank is 0D it can be a
   tensor with single element" — here with indices of shape [1] (k = r = 1)
   and [2] (k = r = 2): updates of shape [] and [1] are both accepted. */
static void test_ov_scatterndupdate15_scalar_update_as_1elem(void **state)
{
    (void)state;
    static const int64_t scalar_shape[1] = {0}; /* unused: rank 0 */
    static const int64_t one[] = {1};
    static const double nine[] = {9};
    static const int64_t ishape1[] = {1};
    static const int64_t idx1[] = {2};
    static const double out1[] = {1, 2, 9, 4};
    check_scatter_nd(SGK_FLOAT32, NUM(OVX_DSHAPE, OVX_DATA), IDX(ishape1, idx1),
                     (num_t){0, scalar_shape, nine}, SGK_REDUCE_NONE, NUM(OVX_DSHAPE, out1));
    check_scatter_nd(SGK_FLOAT32, NUM(OVX_DSHAPE, OVX_DATA), IDX(ishape1, idx1),
                     NUM(one, nine), SGK_REDUCE_NONE, NUM(OVX_DSHAPE, out1));

    static const int64_t dshape2[] = {2, 2};
    static const int64_t ishape2[] = {2};
    static const int64_t idx2[] = {1, 1};
    static const double out2[] = {1, 2, 3, 9};
    check_scatter_nd(SGK_FLOAT32, NUM(dshape2, OVX_DATA), IDX(ishape2, idx2),
                     (num_t){0, scalar_shape, nine}, SGK_REDUCE_NONE, NUM(dshape2, out2));
    check_scatter_nd(SGK_FLOAT32, NUM(dshape2, OVX_DATA), IDX(ishape2, idx2),
                     NUM(one, nine), SGK_REDUCE_NONE, NUM(dshape2, out2));
}

/* 001 ScatterNDUpdate-15 Types: "For boolean type, reduction sum, sub, prod
   behaves like logical OR, XOR, AND accordingly" (max/min are OR/AND per
   docs/semantics.md), on the XML examples' indices. */
static void test_ov_scatterndupdate15_bool_reductions(void **state)
{
    (void)state;
    static const double data[] = {1, 0, 1, 0};
    static const double upd[] = {1, 1, 1, 1, 0};
    /* slot 0 <- 1, 0; slot 1 <- 1, 1; slot 2 <- 1; slot 3 untouched */
    static const double none[] = {0, 1, 1, 0};
    static const double or_[] = {1, 1, 1, 0};
    static const double xor_[] = {0, 0, 0, 0};
    static const double and_[] = {0, 0, 1, 0};
    num_t d = NUM(OVX_DSHAPE, data), u = NUM(OVX_USHAPE, upd);
    idx_t i = IDX(OVX_ISHAPE, OVX_IDX);
    check_scatter_nd(SGK_BOOL, d, i, u, SGK_REDUCE_NONE, NUM(OVX_DSHAPE, none));
    check_scatter_nd(SGK_BOOL, d, i, u, SGK_REDUCE_ADD, NUM(OVX_DSHAPE, or_));
    check_scatter_nd(SGK_BOOL, d, i, u, SGK_REDUCE_SUB, NUM(OVX_DSHAPE, xor_));
    check_scatter_nd(SGK_BOOL, d, i, u, SGK_REDUCE_MUL, NUM(OVX_DSHAPE, and_));
    check_scatter_nd(SGK_BOOL, d, i, u, SGK_REDUCE_MAX, NUM(OVX_DSHAPE, or_));
    check_scatter_nd(SGK_BOOL, d, i, u, SGK_REDUCE_MIN, NUM(OVX_DSHAPE, and_));
}

/* 001 ScatterNDUpdate-15 Inputs: indices "must be within bounds [-s_j,
   s_j - 1] ... If an index points to non-existing element then exception is
   raised": text Example 1 with 7 -> 8 and -2 -> -9, every reduction. */
static void test_ov_scatterndupdate15_example1_index_out_of_range(void **state)
{
    (void)state;
    static const int64_t idx_hi[] = {4, 3, 1, 8, -2, -4};
    static const int64_t idx_lo[] = {4, 3, 1, 7, -9, -4};
    for (int red = 0; red < SGK_REDUCTION_COUNT; red++) {
        check_scatter_nd_error(SGK_FLOAT32, NUM(SND1_DSHAPE, SND1_DATA), IDX(OV1_ISHAPE, idx_hi),
                               NUM(OV1_USHAPE, OV1_UPD), (sgk_reduction)red,
                               SGK_ERR_INDEX_OUT_OF_RANGE);
        check_scatter_nd_error(SGK_INT32, NUM(SND1_DSHAPE, SND1_DATA), IDX(OV1_ISHAPE, idx_lo),
                               NUM(OV1_USHAPE, OV1_UPD), (sgk_reduction)red,
                               SGK_ERR_INDEX_OUT_OF_RANGE);
    }
}

/* ======================================================================== */
/* GatherND (ONNX)                                                           */
/* ======================================================================== */

static const int64_t GND_D2SHAPE[] = {2, 2};
static const double GND_D2[] = {0, 1, 2, 3};
static const int64_t GND_D3SHAPE[] = {2, 2, 2};
static const double GND_D3[] = {0, 1, 2, 3, 4, 5, 6, 7};

/* 002 GatherND-13/12/11 "Example 1" and "_int32" (int32 data); the seed's
   "output_shape = " lost its value, which is [2]. */
static void test_gathernd_example1_int32(void **state)
{
    (void)state;
    static const int64_t ishape[] = {2, 2};
    static const int64_t idx[] = {0, 0, 1, 1};
    static const int64_t oshape[] = {2};
    static const double out[] = {0, 3};
    check_gather_nd(SGK_INT32, NUM(GND_D2SHAPE, GND_D2), IDX(ishape, idx), 0, NUM(oshape, out));
    check_gather_nd(SGK_FLOAT32, NUM(GND_D2SHAPE, GND_D2), IDX(ishape, idx), 0, NUM(oshape, out));
}

/* 002 GatherND-13/12/11 "Example 2"; the seed's "indices = [,]" lost its
   brackets: shape [2, 1] and output [[2,3],[0,1]] mean [[1],[0]].
   Untyped: run as float32 and int64. */
static void test_gathernd_example2(void **state)
{
    (void)state;
    static const int64_t ishape[] = {2, 1};
    static const int64_t idx[] = {1, 0};
    static const int64_t oshape[] = {2, 2};
    static const double out[] = {2, 3, 0, 1};
    check_gather_nd(SGK_FLOAT32, NUM(GND_D2SHAPE, GND_D2), IDX(ishape, idx), 0, NUM(oshape, out));
    check_gather_nd(SGK_INT64, NUM(GND_D2SHAPE, GND_D2), IDX(ishape, idx), 0, NUM(oshape, out));
}

/* 002 GatherND-13/12/11 "Example 3" (untyped: float32). */
static void test_gathernd_example3(void **state)
{
    (void)state;
    static const int64_t ishape[] = {2, 2};
    static const int64_t idx[] = {0, 1, 1, 0};
    static const int64_t oshape[] = {2, 2};
    static const double out[] = {2, 3, 4, 5};
    check_gather_nd(SGK_FLOAT32, NUM(GND_D3SHAPE, GND_D3), IDX(ishape, idx), 0, NUM(oshape, out));
}

/* 002 GatherND-13/12/11 "Example 4" and "_float32". */
static void test_gathernd_example4_float32(void **state)
{
    (void)state;
    static const int64_t ishape[] = {2, 1, 2};
    static const int64_t idx[] = {0, 1, 1, 0};
    static const int64_t oshape[] = {2, 1, 2};
    static const double out[] = {2, 3, 4, 5};
    check_gather_nd(SGK_FLOAT32, NUM(GND_D3SHAPE, GND_D3), IDX(ishape, idx), 0, NUM(oshape, out));
}

/* 002 GatherND-13/12 "Example 5" (batch_dims = 1) and "_int32_batchdim_1"
   (int32 data); "indices = [,]" of shape [2, 1] is [[1],[0]]. */
static void test_gathernd_example5_int32_batch_dim1(void **state)
{
    (void)state;
    static const int64_t ishape[] = {2, 1};
    static const int64_t idx[] = {1, 0};
    static const int64_t oshape[] = {2, 2};
    static const double out[] = {2, 3, 4, 5};
    check_gather_nd(SGK_INT32, NUM(GND_D3SHAPE, GND_D3), IDX(ishape, idx), 1, NUM(oshape, out));
}

/* 002 GatherND-13 salient point 5: "It is an error if any of the index values
   are out of bounds", on Examples 1 and 5's data. */
static void test_gathernd_example1_index_out_of_range(void **state)
{
    (void)state;
    static const int64_t ishape[] = {2, 2};
    static const int64_t idx_hi[] = {0, 0, 1, 2};
    static const int64_t idx_lo[] = {0, 0, -3, 1};
    check_gather_nd_error(SGK_INT32, NUM(GND_D2SHAPE, GND_D2), IDX(ishape, idx_hi), 0,
                          SGK_ERR_INDEX_OUT_OF_RANGE);
    check_gather_nd_error(SGK_INT32, NUM(GND_D2SHAPE, GND_D2), IDX(ishape, idx_lo), 0,
                          SGK_ERR_INDEX_OUT_OF_RANGE);
    static const int64_t ishape5[] = {2, 1};
    static const int64_t idx5[] = {2, 0};
    check_gather_nd_error(SGK_INT32, NUM(GND_D3SHAPE, GND_D3), IDX(ishape5, idx5), 1,
                          SGK_ERR_INDEX_OUT_OF_RANGE);
}

/* 002 GatherND-13 salient points 2-4 and "If indices_shape[-1] > r-b =>
   error condition", on Example 5's data. */
static void test_gathernd_example5_shape_rules(void **state)
{
    (void)state;
    static const int64_t ishape_k3[] = {2, 3};            /* k = 3 > r - b = 2 */
    static const int64_t idx_k3[] = {0, 0, 0, 0, 0, 0};
    check_gather_nd_error(SGK_INT32, NUM(GND_D3SHAPE, GND_D3), IDX(ishape_k3, idx_k3), 1,
                          SGK_ERR_SHAPE);
    static const int64_t ishape_b2[] = {2, 1};            /* b = 2 >= min(q, r) = 2 */
    static const int64_t idx_b2[] = {0, 0};
    check_gather_nd_error(SGK_INT32, NUM(GND_D3SHAPE, GND_D3), IDX(ishape_b2, idx_b2), 2,
                          SGK_ERR_SHAPE);
    static const int64_t ishape_batch[] = {3, 1};         /* indices.shape[0] != data.shape[0] */
    static const int64_t idx_batch[] = {0, 1, 0};
    check_gather_nd_error(SGK_INT32, NUM(GND_D3SHAPE, GND_D3), IDX(ishape_batch, idx_batch), 1,
                          SGK_ERR_SHAPE);
}

/* ======================================================================== */
/* Scatter-11/9 = ScatterElements without reduction; GatherElements          */
/* ======================================================================== */

static const int64_t SC1_DSHAPE[] = {3, 3};
static const double SC1_DATA[] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
static const int64_t SC1_ISHAPE[] = {2, 3};
static const int64_t SC1_IDX[] = {1, 0, 2, 0, 2, 1};
static const double SC1_UPD[] = {1.0, 1.1, 1.2, 2.0, 2.1, 2.2};
static const double SC1_OUT[] = {2.0, 1.1, 0.0, 1.0, 0.0, 2.2, 0.0, 2.1, 1.2};

static const int64_t SC2_DSHAPE[] = {1, 5};
static const double SC2_DATA[] = {1.0, 2.0, 3.0, 4.0, 5.0};
static const int64_t SC2_ISHAPE[] = {1, 2};
static const int64_t SC2_IDX[] = {1, 3};
static const double SC2_UPD[] = {1.1, 2.1};
static const double SC2_OUT[] = {1.0, 1.1, 3.0, 2.1, 5.0};

/* 003 Scatter-11/9 "Example 1" and "_scatter_without_axis" (float32, axis 0;
   also as axis -2: "Negative value means counting dimensions from the back"). */
static void test_scatter_example1_without_axis(void **state)
{
    (void)state;
    check_scatter_elements(SGK_FLOAT32, NUM(SC1_DSHAPE, SC1_DATA), IDX(SC1_ISHAPE, SC1_IDX),
                           NUM(SC1_ISHAPE, SC1_UPD), 0, SGK_REDUCE_NONE,
                           NUM(SC1_DSHAPE, SC1_OUT));
    check_scatter_elements(SGK_FLOAT32, NUM(SC1_DSHAPE, SC1_DATA), IDX(SC1_ISHAPE, SC1_IDX),
                           NUM(SC1_ISHAPE, SC1_UPD), -2, SGK_REDUCE_NONE,
                           NUM(SC1_DSHAPE, SC1_OUT));
}

/* 003 Scatter-11/9 "Example 2" and "_scatter_with_axis" (float32, axis 1;
   also as axis -1). */
static void test_scatter_example2_with_axis(void **state)
{
    (void)state;
    check_scatter_elements(SGK_FLOAT32, NUM(SC2_DSHAPE, SC2_DATA), IDX(SC2_ISHAPE, SC2_IDX),
                           NUM(SC2_ISHAPE, SC2_UPD), 1, SGK_REDUCE_NONE,
                           NUM(SC2_DSHAPE, SC2_OUT));
    check_scatter_elements(SGK_FLOAT32, NUM(SC2_DSHAPE, SC2_DATA), IDX(SC2_ISHAPE, SC2_IDX),
                           NUM(SC2_ISHAPE, SC2_UPD), -1, SGK_REDUCE_NONE,
                           NUM(SC2_DSHAPE, SC2_OUT));
}

/* 003 Scatter-11 "This operator is the inverse of GatherElements": gathering
   Example 1's output at its indices gives back its updates. */
static void test_scatter_example1_inverse_gather_elements(void **state)
{
    (void)state;
    check_gather_elements(SGK_FLOAT32, NUM(SC1_DSHAPE, SC1_OUT), IDX(SC1_ISHAPE, SC1_IDX), 0,
                          NUM(SC1_ISHAPE, SC1_UPD));
    check_gather_elements(SGK_FLOAT32, NUM(SC1_DSHAPE, SC1_OUT), IDX(SC1_ISHAPE, SC1_IDX), -2,
                          NUM(SC1_ISHAPE, SC1_UPD));
}

/* 003 Scatter-11 "inverse of GatherElements", on Example 2 (axis 1 and -1). */
static void test_scatter_example2_inverse_gather_elements(void **state)
{
    (void)state;
    check_gather_elements(SGK_FLOAT32, NUM(SC2_DSHAPE, SC2_OUT), IDX(SC2_ISHAPE, SC2_IDX), 1,
                          NUM(SC2_ISHAPE, SC2_UPD));
    check_gather_elements(SGK_FLOAT32, NUM(SC2_DSHAPE, SC2_OUT), IDX(SC2_ISHAPE, SC2_IDX), -1,
                          NUM(SC2_ISHAPE, SC2_UPD));
}

/* 003 Scatter-11 indices: "It is an error if any of the index values are out
   of bounds", on Examples 1 and 2, every reduction. */
static void test_scatter_examples_index_out_of_range(void **state)
{
    (void)state;
    static const sgk_status want = SGK_ERR_INDEX_OUT_OF_RANGE;
    static const int64_t idx1[] = {1, 0, 3, 0, 2, 1};
    static const int64_t idx2_hi[] = {1, 5};
    static const int64_t idx2_lo[] = {-6, 3};
    for (int red = 0; red < SGK_REDUCTION_COUNT; red++) {
        check_scatter_elements_error(SGK_FLOAT32, NUM(SC1_DSHAPE, SC1_DATA),
                                     IDX(SC1_ISHAPE, idx1), NUM(SC1_ISHAPE, SC1_UPD), 0,
                                     (sgk_reduction)red, &want, 1);
        check_scatter_elements_error(SGK_FLOAT32, NUM(SC2_DSHAPE, SC2_DATA),
                                     IDX(SC2_ISHAPE, idx2_hi), NUM(SC2_ISHAPE, SC2_UPD), 1,
                                     (sgk_reduction)red, &want, 1);
        check_scatter_elements_error(SGK_FLOAT32, NUM(SC2_DSHAPE, SC2_DATA),
                                     IDX(SC2_ISHAPE, idx2_lo), NUM(SC2_ISHAPE, SC2_UPD), -1,
                                     (sgk_reduction)red, &want, 1);
    }
}

/* 003 Scatter-11 attributes and inputs: axis "Accepted range is [-r, r-1]",
   updates "same rank and shape as indices", on Example 2.  The seeds and the
   header leave the status of a bad axis open: SGK_ERR_SHAPE or
   SGK_ERR_INVALID_ARGUMENT. */
static void test_scatter_example2_shape_rules(void **state)
{
    (void)state;
    static const sgk_status bad_axis[] = {SGK_ERR_SHAPE, SGK_ERR_INVALID_ARGUMENT};
    static const sgk_status bad_shape[] = {SGK_ERR_SHAPE};
    check_scatter_elements_error(SGK_FLOAT32, NUM(SC2_DSHAPE, SC2_DATA), IDX(SC2_ISHAPE, SC2_IDX),
                                 NUM(SC2_ISHAPE, SC2_UPD), 2, SGK_REDUCE_NONE, bad_axis,
                                 LEN(bad_axis));
    check_scatter_elements_error(SGK_FLOAT32, NUM(SC2_DSHAPE, SC2_DATA), IDX(SC2_ISHAPE, SC2_IDX),
                                 NUM(SC2_ISHAPE, SC2_UPD), -3, SGK_REDUCE_NONE, bad_axis,
                                 LEN(bad_axis));
    static const int64_t ushape_bad[] = {2, 1};
    check_scatter_elements_error(SGK_FLOAT32, NUM(SC2_DSHAPE, SC2_DATA), IDX(SC2_ISHAPE, SC2_IDX),
                                 NUM(ushape_bad, SC2_UPD), 1, SGK_REDUCE_NONE, bad_shape,
                                 LEN(bad_shape));
}

/* 003 Scatter-11 "inverse of GatherElements" with an index out of bounds:
   GatherElements on Example 2's output with 5 and -6 along axis 1. */
static void test_gather_elements_example2_index_out_of_range(void **state)
{
    (void)state;
    static const int64_t idx_hi[] = {1, 5};
    static const int64_t idx_lo[] = {-6, 3};
    check_gather_elements_error(SGK_FLOAT32, NUM(SC2_DSHAPE, SC2_OUT), IDX(SC2_ISHAPE, idx_hi),
                                1, SGK_ERR_INDEX_OUT_OF_RANGE);
    check_gather_elements_error(SGK_FLOAT32, NUM(SC2_DSHAPE, SC2_OUT), IDX(SC2_ISHAPE, idx_lo),
                                -1, SGK_ERR_INDEX_OUT_OF_RANGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scatternd_example1_onnx),
        cmocka_unit_test(test_scatternd_example2_onnx),
        cmocka_unit_test(test_scatternd_add_onnx),
        cmocka_unit_test(test_scatternd_multiply_onnx),
        cmocka_unit_test(test_scatternd_max_onnx),
        cmocka_unit_test(test_scatternd_min_onnx),
        cmocka_unit_test(test_scatternd_examples_inverse_gathernd),
        cmocka_unit_test(test_scatternd_example2_shape_rules),
        cmocka_unit_test(test_scatternd_example2_coordinate_out_of_range),
        cmocka_unit_test(test_ov_scatterndupdate15_example1_text),
        cmocka_unit_test(test_ov_scatterndupdate15_example1_none),
        cmocka_unit_test(test_ov_scatterndupdate15_example2_sum),
        cmocka_unit_test(test_ov_scatterndupdate15_example3_sub),
        cmocka_unit_test(test_ov_scatterndupdate15_example_prod),
        cmocka_unit_test(test_ov_scatterndupdate15_example5_shapes),
        cmocka_unit_test(test_ov_scatterndupdate15_scalar_update_as_1elem),
        cmocka_unit_test(test_ov_scatterndupdate15_bool_reductions),
        cmocka_unit_test(test_ov_scatterndupdate15_example1_index_out_of_range),
        cmocka_unit_test(test_gathernd_example1_int32),
        cmocka_unit_test(test_gathernd_example2),
        cmocka_unit_test(test_gathernd_example3),
        cmocka_unit_test(test_gathernd_example4_float32),
        cmocka_unit_test(test_gathernd_example5_int32_batch_dim1),
        cmocka_unit_test(test_gathernd_example1_index_out_of_range),
        cmocka_unit_test(test_gathernd_example5_shape_rules),
        cmocka_unit_test(test_scatter_example1_without_axis),
        cmocka_unit_test(test_scatter_example2_with_axis),
        cmocka_unit_test(test_scatter_example1_inverse_gather_elements),
        cmocka_unit_test(test_scatter_example2_inverse_gather_elements),
        cmocka_unit_test(test_scatter_examples_index_out_of_range),
        cmocka_unit_test(test_scatter_example2_shape_rules),
        cmocka_unit_test(test_gather_elements_example2_index_out_of_range),
    };
    return cmocka_run_group_tests_name("seeds", tests, NULL, NULL);
}
