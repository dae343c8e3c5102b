/*
 * One seed example through every route sgk offers (tests/support/seed_checks.h):
 * each index variant, into a fresh output and in place, the expected values
 * or the expected error with the output untouched.
 *
 * The four operators share four loops (a scatter's values, a scatter's
 * failure, a gather's values, a gather's failure); what differs between
 * them is the call, which a seed_call describes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "seed_checks.h"
#include "seed_values.h"

/* ---- one call, whichever the operator ----------------------------------- */

typedef enum { SEED_SCATTER_ND, SEED_GATHER_ND, SEED_SCATTER_ELEMENTS, SEED_GATHER_ELEMENTS }
    seed_op;

typedef struct {
    seed_op op;
    const char *name;       /* the operator's name, as errors and messages give it */
    int64_t attr;           /* batch_dims (GatherND) or axis (the Elements ops) */
    sgk_reduction red;      /* scatters */
    const sgk_tensor *upd;  /* scatters */
    /* the extents the index values address (make_indices): nd_dims' or the
       axis' */
    const int64_t *dims;
    int64_t ndims;
} seed_call;

static bool is_scatter(const seed_call *c)
{
    return c->op == SEED_SCATTER_ND || c->op == SEED_SCATTER_ELEMENTS;
}

static sgk_status run_call(const seed_call *c, const sgk_tensor *data, const sgk_tensor *it,
                           void *out)
{
    switch (c->op) {
    case SEED_SCATTER_ND: return sgk_scatter_nd(data, it, c->upd, c->red, out);
    case SEED_GATHER_ND: return sgk_gather_nd(data, it, c->attr, out);
    case SEED_SCATTER_ELEMENTS:
        return sgk_scatter_elements(data, it, c->upd, c->attr, c->red, out);
    case SEED_GATHER_ELEMENTS: return sgk_gather_elements(data, it, c->attr, out);
    }
    return SGK_ERR_INVALID_ARGUMENT;
}

/* What a failure message says of the call: the axis (Elements ops), the
   index variant and, for scatters, where the output was. */
static void context(char *ctx, size_t size, const seed_call *c, int variant, int in_place)
{
    int n = 0;
    if (c->op == SEED_SCATTER_ELEMENTS || c->op == SEED_GATHER_ELEMENTS)
        n = snprintf(ctx, size, "axis %lld, ", (long long)c->attr);
    if (is_scatter(c))
        snprintf(ctx + n, size - (size_t)n, "%s, %s", idx_variant_name[variant],
                 in_place ? "in place" : "separate output");
    else
        snprintf(ctx + n, size - (size_t)n, "%s", idx_variant_name[variant]);
}

/* ---- the four loops ---------------------------------------------------------- */

/* A scatter's output is data's shape: want holds that many values. */
static void scatter_values(const seed_call *c, const sgk_tensor *data, const idx_t *idx,
                           const void *want)
{
    size_t nbytes = (size_t)tc_numel(data->rank, data->shape) * tc_dtype_size(data->dtype);
    unsigned char *snapshot = NULL;
    if (nbytes <= SNAPSHOT_LIMIT) {
        snapshot = xmalloc(nbytes + 1);
        memcpy(snapshot, data->data, nbytes);
    }
    for (int v = 0; v < IDX_VARIANTS; v++) {
        sgk_tensor it;
        void *ibuf = make_indices(idx, v, c->dims, c->ndims, &it);
        for (int in_place = 0; in_place < 2; in_place++) {
            char ctx[128];
            context(ctx, sizeof ctx, c, v, in_place);
            unsigned char *out = xmalloc(nbytes + GUARD);
            memset(out, SENTINEL, nbytes + GUARD);
            sgk_tensor d = *data;
            if (in_place) {
                memcpy(out, data->data, nbytes);
                d.data = out;
            }
            expect_ok(run_call(c, &d, &it, out), c->name, ctx);
            expect_values(data->dtype, out, want, tc_numel(data->rank, data->shape), c->name,
                          ctx);
            expect_fill(out + nbytes, SENTINEL, GUARD, c->name, ctx,
                        "guard bytes past the output");
            if (snapshot != NULL && !in_place)
                expect_bytes(data->data, snapshot, nbytes, c->name, ctx, "data input");
            free(out);
        }
        free(ibuf);
    }
    free(snapshot);
}

/* The status must be one of want[0..nwant), the output (or, in place, the
   data) untouched. */
static void scatter_failure(const seed_call *c, const sgk_tensor *data, const idx_t *idx,
                            const sgk_status *want, size_t nwant)
{
    size_t nbytes = (size_t)tc_numel(data->rank, data->shape) * tc_dtype_size(data->dtype);
    for (int v = 0; v < IDX_VARIANTS; v++) {
        sgk_tensor it;
        void *ibuf = make_indices(idx, v, c->dims, c->ndims, &it);
        for (int in_place = 0; in_place < 2; in_place++) {
            char ctx[128];
            context(ctx, sizeof ctx, c, v, in_place);
            unsigned char *out = xmalloc(nbytes + GUARD), *ref = xmalloc(nbytes + GUARD);
            memset(out, SENTINEL, nbytes + GUARD);
            sgk_tensor d = *data;
            if (in_place) {
                memcpy(out, data->data, nbytes);
                d.data = out;
            }
            memcpy(ref, out, nbytes + GUARD);
            prime_last_error(c->name);
            expect_failure(run_call(c, &d, &it, out), want, nwant, c->name, ctx);
            expect_bytes(out, ref, nbytes + GUARD, c->name, ctx,
                         in_place ? "data (in place) after a failed call"
                                  : "output after a failed call");
            free(out);
            free(ref);
        }
        free(ibuf);
    }
}

/* sgk_gather_nd_shape gives want's shape, with and without the shape array. */
static void gather_nd_shape_is(const sgk_tensor *data, const sgk_tensor *it, int64_t b,
                               int32_t want_rank, const int64_t *want_shape, const char *ctx)
{
    int64_t shape[2 * SGK_MAX_RANK];
    int32_t rank = -1;
    expect_ok(sgk_gather_nd_shape(data, it, b, shape, &rank), "gather_nd_shape", ctx);
    assert_int_equal(rank, want_rank);
    assert_memory_equal(shape, want_shape, sizeof(int64_t) * (size_t)want_rank);
    rank = -1;
    expect_ok(sgk_gather_nd_shape(data, it, b, NULL, &rank), "gather_nd_shape", ctx);
    assert_int_equal(rank, want_rank);
}

static void gather_values(const seed_call *c, const sgk_tensor *data, const idx_t *idx,
                          const void *want, int32_t want_rank, const int64_t *want_shape)
{
    size_t nbytes = (size_t)tc_numel(want_rank, want_shape) * tc_dtype_size(data->dtype);
    for (int v = 0; v < IDX_VARIANTS; v++) {
        char ctx[96];
        context(ctx, sizeof ctx, c, v, 0);
        sgk_tensor it;
        void *ibuf = make_indices(idx, v, c->dims, c->ndims, &it);
        if (c->op == SEED_GATHER_ND)
            gather_nd_shape_is(data, &it, c->attr, want_rank, want_shape, ctx);
        unsigned char *out = xmalloc(nbytes + GUARD);
        memset(out, SENTINEL, nbytes + GUARD);
        expect_ok(run_call(c, data, &it, out), c->name, ctx);
        expect_values(data->dtype, out, want, tc_numel(want_rank, want_shape), c->name, ctx);
        expect_fill(out + nbytes, SENTINEL, GUARD, c->name, ctx, "guard bytes past the output");
        free(out);
        free(ibuf);
    }
}

/* GatherND's shape errors fail sgk_gather_nd_shape too. */
static void gather_failure(const seed_call *c, const sgk_tensor *data, const idx_t *idx,
                           sgk_status want)
{
    enum { OUT_BYTES = 256 };
    for (int v = 0; v < IDX_VARIANTS; v++) {
        char ctx[96];
        context(ctx, sizeof ctx, c, v, 0);
        sgk_tensor it;
        void *ibuf = make_indices(idx, v, c->dims, c->ndims, &it);
        unsigned char out[OUT_BYTES];
        memset(out, SENTINEL, sizeof out);
        prime_last_error(c->name);
        expect_failure(run_call(c, data, &it, out), &want, 1, c->name, ctx);
        expect_fill(out, SENTINEL, sizeof out, c->name, ctx, "output after a failed call");
        if (c->op == SEED_GATHER_ND && want == SGK_ERR_SHAPE) {
            int64_t shape[2 * SGK_MAX_RANK];
            int32_t rank = -1;
            prime_last_error(c->name);
            expect_failure(sgk_gather_nd_shape(data, &it, c->attr, shape, &rank), &want, 1,
                           c->name, ctx);
        }
        free(ibuf);
    }
}

/* ---- ScatterND ---------------------------------------------------------- */

void check_scatter_nd_raw(const sgk_tensor *data, const idx_t *idx, const sgk_tensor *upd,
                          sgk_reduction red, const void *want)
{
    int64_t dims[SGK_MAX_RANK];
    int64_t k = nd_dims(data, idx, 0, dims);
    seed_call c = {SEED_SCATTER_ND, "scatter_nd", 0, red, upd, dims, k};
    scatter_values(&c, data, idx, want);
}

/* The output shape of a scatter is data's shape: `want` is given with its
   own shape, asserted equal to data's. */
void check_scatter_nd(sgk_dtype dt, num_t data, idx_t idx, num_t upd, sgk_reduction red,
                      num_t want)
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

void check_scatter_nd_error(sgk_dtype dt, num_t data, idx_t idx, num_t upd, sgk_reduction red,
                            sgk_status want)
{
    void *db = make_values(dt, &data), *ub = make_values(dt, &upd);
    sgk_tensor d = tensor_of(dt, &data, db), u = tensor_of(dt, &upd, ub);
    int64_t dims[SGK_MAX_RANK];
    int64_t k = nd_dims(&d, &idx, 0, dims);
    seed_call c = {SEED_SCATTER_ND, "scatter_nd", 0, red, &u, dims, k};
    scatter_failure(&c, &d, &idx, &want, 1);
    free(db);
    free(ub);
}

/* ---- GatherND ----------------------------------------------------------- */

void check_gather_nd_raw(const sgk_tensor *data, const idx_t *idx, int64_t b, const void *want,
                         int32_t want_rank, const int64_t *want_shape)
{
    int64_t dims[SGK_MAX_RANK];
    int64_t k = nd_dims(data, idx, b, dims);
    seed_call c = {SEED_GATHER_ND, "gather_nd", b, SGK_REDUCE_NONE, NULL, dims, k};
    gather_values(&c, data, idx, want, want_rank, want_shape);
}

void check_gather_nd(sgk_dtype dt, num_t data, idx_t idx, int64_t b, num_t want)
{
    void *db = make_values(dt, &data), *wb = make_values(dt, &want);
    sgk_tensor d = tensor_of(dt, &data, db);
    check_gather_nd_raw(&d, &idx, b, wb, want.rank, want.shape);
    free(db);
    free(wb);
}

void check_gather_nd_error(sgk_dtype dt, num_t data, idx_t idx, int64_t b, sgk_status want)
{
    void *db = make_values(dt, &data);
    sgk_tensor d = tensor_of(dt, &data, db);
    int64_t dims[SGK_MAX_RANK];
    int64_t k = nd_dims(&d, &idx, b, dims);
    seed_call c = {SEED_GATHER_ND, "gather_nd", b, SGK_REDUCE_NONE, NULL, dims, k};
    gather_failure(&c, &d, &idx, want);
    free(db);
}

/* ---- ScatterElements (Scatter) / GatherElements ------------------------- */

void check_scatter_elements(sgk_dtype dt, num_t data, idx_t idx, num_t upd, int64_t axis,
                            sgk_reduction red, num_t want)
{
    assert_int_equal(want.rank, data.rank);
    assert_memory_equal(want.shape, data.shape, sizeof(int64_t) * (size_t)data.rank);
    void *db = make_values(dt, &data), *ub = make_values(dt, &upd), *wb = make_values(dt, &want);
    sgk_tensor d = tensor_of(dt, &data, db), u = tensor_of(dt, &upd, ub);
    int64_t dim = axis_dim(&d, axis);
    seed_call c = {SEED_SCATTER_ELEMENTS, "scatter_elements", axis, red, &u, &dim, 1};
    scatter_values(&c, &d, &idx, wb);
    free(db);
    free(ub);
    free(wb);
}

void check_scatter_elements_error(sgk_dtype dt, num_t data, idx_t idx, num_t upd, int64_t axis,
                                  sgk_reduction red, const sgk_status *want, size_t nwant)
{
    void *db = make_values(dt, &data), *ub = make_values(dt, &upd);
    sgk_tensor d = tensor_of(dt, &data, db), u = tensor_of(dt, &upd, ub);
    int64_t dim = axis_dim(&d, axis);
    seed_call c = {SEED_SCATTER_ELEMENTS, "scatter_elements", axis, red, &u, &dim, 1};
    scatter_failure(&c, &d, &idx, want, nwant);
    free(db);
    free(ub);
}

/* GatherElements' output shape is the indices' shape. */
void check_gather_elements(sgk_dtype dt, num_t data, idx_t idx, int64_t axis, num_t want)
{
    assert_int_equal(want.rank, idx.rank);
    assert_memory_equal(want.shape, idx.shape, sizeof(int64_t) * (size_t)idx.rank);
    void *db = make_values(dt, &data), *wb = make_values(dt, &want);
    sgk_tensor d = tensor_of(dt, &data, db);
    int64_t dim = axis_dim(&d, axis);
    seed_call c = {SEED_GATHER_ELEMENTS, "gather_elements", axis, SGK_REDUCE_NONE, NULL, &dim, 1};
    gather_values(&c, &d, &idx, wb, want.rank, want.shape);
    free(db);
    free(wb);
}

void check_gather_elements_error(sgk_dtype dt, num_t data, idx_t idx, int64_t axis,
                                 sgk_status want)
{
    void *db = make_values(dt, &data);
    sgk_tensor d = tensor_of(dt, &data, db);
    int64_t dim = axis_dim(&d, axis);
    seed_call c = {SEED_GATHER_ELEMENTS, "gather_elements", axis, SGK_REDUCE_NONE, NULL, &dim, 1};
    gather_failure(&c, &d, &idx, want);
    free(db);
}
