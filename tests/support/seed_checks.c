/*
 * One seed example through every route sgk offers (tests/support/seed_checks.h):
 * each index variant, into a fresh output and in place, the expected values
 * or the expected error with the output untouched.
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
#include "seed_checks.h"
#include "seed_values.h"

void check_scatter_nd_raw(const sgk_tensor *data, const idx_t *idx,
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
void check_scatter_nd(sgk_dtype dt, num_t data, idx_t idx, num_t upd,
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

void check_scatter_nd_error(sgk_dtype dt, num_t data, idx_t idx, num_t upd,
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

void check_gather_nd_raw(const sgk_tensor *data, const idx_t *idx, int64_t b,
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

void check_gather_nd(sgk_dtype dt, num_t data, idx_t idx, int64_t b, num_t want)
{
    void *db = make_values(dt, &data), *wb = make_values(dt, &want);
    sgk_tensor d = tensor_of(dt, &data, db);
    check_gather_nd_raw(&d, &idx, b, wb, want.rank, want.shape);
    free(db);
    free(wb);
}

void check_gather_nd_error(sgk_dtype dt, num_t data, idx_t idx, int64_t b,
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

void check_scatter_elements(sgk_dtype dt, num_t data, idx_t idx, num_t upd,
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

void check_scatter_elements_error(sgk_dtype dt, num_t data, idx_t idx, num_t upd,
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
void check_gather_elements(sgk_dtype dt, num_t data, idx_t idx, int64_t axis,
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

void check_gather_elements_error(sgk_dtype dt, num_t data, idx_t idx, int64_t axis,
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
