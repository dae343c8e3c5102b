/*
 * Randomized comparison of the library against tests/support/reference.c.
 *
 * Every case is built from a fixed seed (so runs are deterministic), is valid
 * by construction, and is checked bit for bit against the reference through
 * four routes: the one-shot call, the one-shot call in place (scatter), and a
 * plan executed on two different data/updates pairs (plus once in place)
 * after the caller's copy of the indices has been overwritten.  Output
 * buffers carry a guard zone that must survive.  On a mismatch the case is
 * printed (operator, dtypes, reduction, shapes, seed, and the tensors when
 * small) so that it can be reproduced.
 *
 * Where the caller allowed reordering (SGK_DETERMINISTIC=0 for the one-shot
 * calls and flag-less plans, SGK_PLAN_ALLOW_REORDER for a plan), float
 * add/sub/mul are judged within the rounding bounds of tests/support/tolerance.c and
 * float max/min up to the sign of a zero and the NaN payload; elements whose
 * terms have no order-independent answer (a partial sum that may overflow in
 * some order, say) are then counted, not judged.
 *
 * SGK_TEST_CASES=N caps the cases per operator, type and reduction (default:
 * 16 small scatters, 40 small gathers, 2 large), for runs under many
 * configurations (tests/test_reduce_paths.sh).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/common.h"
#include "support/reference.h"
#include "registry/registry.h"
#include "sgk.h"
#include "support/random_values.h"
#include "support/tolerance.h"

enum { OP_SCATTER_ND, OP_GATHER_ND, OP_SCATTER_ELEMENTS, OP_GATHER_ELEMENTS };
static const char *const op_names[] = {"scatter_nd", "gather_nd", "scatter_elements",
                                       "gather_elements"};

#define MAX_DIMS 16
#define GUARD 64
#define GUARD_BYTE 0xA5
#define MAX_REPORTS 20
#define SMALL_CASES_SCATTER 16
#define SMALL_CASES_GATHER 40

/* ---- one case --------------------------------------------------------- */

typedef struct {
    int op;
    sgk_dtype dtype, idtype;
    sgk_reduction red;
    int32_t drank, irank, urank, orank;
    int64_t dshape[MAX_DIMS], ishape[MAX_DIMS], ushape[MAX_DIMS], oshape[MAX_DIMS];
    int64_t axis, batch_dims;
    int64_t dn, in, un, on;
    void *indices, *data, *updates, *data2, *updates2;
    uint64_t seed;
    int threads;
    const char *test; /* which generator made it */
} tcase;

static int total_failures;
static int reported;
static long cases_run;
static int64_t unjudged_elements;

static int is_scatter(const tcase *c)
{
    return c->op == OP_SCATTER_ND || c->op == OP_SCATTER_ELEMENTS;
}

static char *shape_str(char *buf, size_t n, int32_t rank, const int64_t *shape)
{
    size_t len = 0;
    len += (size_t)snprintf(buf + len, n - len, "[");
    for (int32_t d = 0; d < rank && len < n; d++)
        len += (size_t)snprintf(buf + len, n - len, "%s%" PRId64, d ? "," : "", shape[d]);
    if (len < n)
        snprintf(buf + len, n - len, "]");
    return buf;
}

static void dump_bytes(const char *name, const void *p, int64_t n, size_t es)
{
    printf("    %s:", name);
    for (int64_t i = 0; i < n; i++) {
        printf(" ");
        tc_print_hex((const char *)p + (size_t)i * es, es);
    }
    printf("\n");
}

static void dump_indices(const tcase *c)
{
    printf("    indices:");
    for (int64_t i = 0; i < c->in; i++) {
        int64_t v;
        if (c->idtype == SGK_INT32) {
            int32_t t;
            memcpy(&t, (const char *)c->indices + i * 4, 4);
            v = t;
        } else {
            memcpy(&v, (const char *)c->indices + i * 8, 8);
        }
        printf(" %" PRId64, v);
    }
    printf("\n");
}

static void report(const tcase *c, const char *route, const char *what, const void *data,
                   const void *updates, const void *expected, const void *actual, int64_t elem)
{
    char ds[256], is[256], us[256], os[256];
    size_t es = tc_dtype_size(c->dtype);
    total_failures++;
    if (reported++ >= MAX_REPORTS)
        return;
    printf("FAIL [%s/%s] %s: op=%s dtype=%s reduction=%s index=%s data=%s indices=%s",
           c->test, route, what, op_names[c->op], tc_dtype_name(c->dtype),
           tc_reduction_name(c->red), tc_dtype_name(c->idtype),
           shape_str(ds, sizeof ds, c->drank, c->dshape),
           shape_str(is, sizeof is, c->irank, c->ishape));
    if (is_scatter(c))
        printf(" updates=%s", shape_str(us, sizeof us, c->urank, c->ushape));
    else
        printf(" output=%s", shape_str(os, sizeof os, c->orank, c->oshape));
    if (c->op == OP_GATHER_ND)
        printf(" batch_dims=%" PRId64, c->batch_dims);
    if (c->op == OP_SCATTER_ELEMENTS || c->op == OP_GATHER_ELEMENTS)
        printf(" axis=%" PRId64, c->axis);
    printf(" threads=%d seed=0x%016" PRIx64 "\n", c->threads, c->seed);
    printf("    last error: %s\n", sgk_last_error());
    if (expected && actual && elem >= 0) {
        printf("    first bad element %" PRId64 "\n", elem);
        dump_bytes("expected", (const char *)expected + (size_t)elem * es, 1, es);
        dump_bytes("actual  ", (const char *)actual + (size_t)elem * es, 1, es);
    }
    if (c->dn + c->in + c->un <= 96 && c->dtype != SGK_STRING) {
        dump_bytes("data", data, c->dn, es);
        dump_indices(c);
        if (is_scatter(c))
            dump_bytes("updates", updates, c->un, es);
        if (expected)
            dump_bytes("expected", expected, is_scatter(c) ? c->dn : c->on, es);
        if (actual)
            dump_bytes("actual", actual, is_scatter(c) ? c->dn : c->on, es);
    }
}

static int64_t out_elems(const tcase *c)
{
    return is_scatter(c) ? c->dn : c->on;
}

static char *alloc_out(const tcase *c)
{
    size_t bytes = (size_t)out_elems(c) * tc_dtype_size(c->dtype);
    char *out = xmalloc(bytes + GUARD);
    memset(out, GUARD_BYTE, bytes + GUARD);
    return out;
}

static void reference_scatter(const void *ctx, sgk_dtype dtype, sgk_reduction red,
                              const void *data, const void *updates, void *out);

/* Compares `actual` (with its guard zone) against `expected`; reports once.
   `reordered`: the route allowed reordering (see the top of the file). */
static void compare(const tcase *c, const char *route, int reordered, const void *data,
                    const void *updates, const char *expected, const char *actual)
{
    size_t es = tc_dtype_size(c->dtype);
    int64_t n = out_elems(c);
    sgk_reduction red = is_scatter(c) ? c->red : SGK_REDUCE_NONE;
    if (is_scatter(c) && reordered && tol_reorder_relaxes(c->dtype, red)) {
        tol_stats *st = tol_prepare(c->dtype, red, c->dn, c->un, data, updates,
                                    reference_scatter, c);
        tol_result res;
        int ok = tol_compare(c->dtype, red, st, 1, 0, n, expected, actual, &res);
        tol_free(st);
        unjudged_elements += res.unjudged;
        if (!ok) {
            char what[200];
            snprintf(what, sizeof what,
                     "reordered result outside tolerance (%s; got %.17g want %.17g bound %.6g)",
                     res.why, res.got, res.want, res.bound);
            report(c, route, what, data, updates, expected, actual, res.element);
            return;
        }
    } else {
        for (int64_t i = 0; i < n; i++) {
            if (!ref_same_result(c->dtype, red, expected + (size_t)i * es,
                                 actual + (size_t)i * es)) {
                report(c, route, "result differs from reference", data, updates, expected,
                       actual, i);
                return;
            }
        }
    }
    if (tc_first_byte_not(actual + (size_t)n * es, GUARD_BYTE, GUARD) < GUARD)
        report(c, route, "wrote past the end of the output", data, updates, NULL, NULL, -1);
}

static void tensors(const tcase *c, const void *indices, const void *data, const void *updates,
                    sgk_tensor *d, sgk_tensor *i, sgk_tensor *u)
{
    *d = (sgk_tensor){c->dtype, c->drank, c->dshape, data};
    *i = (sgk_tensor){c->idtype, c->irank, c->ishape, indices};
    *u = (sgk_tensor){c->dtype, c->urank, c->ushape, updates};
}

static sgk_status call_one_shot(const tcase *c, const void *data, const void *updates, void *out)
{
    sgk_tensor d, i, u;
    tensors(c, c->indices, data, updates, &d, &i, &u);
    switch (c->op) {
    case OP_SCATTER_ND: return sgk_scatter_nd(&d, &i, &u, c->red, out);
    case OP_GATHER_ND: return sgk_gather_nd(&d, &i, c->batch_dims, out);
    case OP_SCATTER_ELEMENTS: return sgk_scatter_elements(&d, &i, &u, c->axis, c->red, out);
    default: return sgk_gather_elements(&d, &i, c->axis, out);
    }
}

/* tol_scatter_fn: the reference scatter on this case's indices and shapes. */
static void reference_scatter(const void *ctx, sgk_dtype dtype, sgk_reduction red,
                              const void *data, const void *updates, void *out)
{
    const tcase *c = ctx;
    sgk_tensor d, i, u;
    tensors(c, c->indices, data, updates, &d, &i, &u);
    d.dtype = u.dtype = dtype;
    if (c->op == OP_SCATTER_ND)
        ref_scatter_nd(&d, &i, &u, red, out);
    else
        ref_scatter_elements(&d, &i, &u, c->axis, red, out);
}

static void call_reference(const tcase *c, const void *data, const void *updates, void *out)
{
    sgk_tensor d, i, u;
    tensors(c, c->indices, data, updates, &d, &i, &u);
    switch (c->op) {
    case OP_SCATTER_ND: ref_scatter_nd(&d, &i, &u, c->red, out); break;
    case OP_GATHER_ND: ref_gather_nd(&d, &i, c->batch_dims, out); break;
    case OP_SCATTER_ELEMENTS: ref_scatter_elements(&d, &i, &u, c->axis, c->red, out); break;
    default: ref_gather_elements(&d, &i, c->axis, out); break;
    }
}

static sgk_status make_plan(const tcase *c, sgk_plan **plan, const void *indices,
                            const void *data, const void *updates, uint32_t flags)
{
    sgk_tensor d, i, u;
    tensors(c, indices, data, updates, &d, &i, &u);
    switch (c->op) {
    case OP_SCATTER_ND: return sgk_plan_scatter_nd(plan, &d, &i, &u, c->red, flags);
    case OP_GATHER_ND: return sgk_plan_gather_nd(plan, &d, &i, c->batch_dims, flags);
    case OP_SCATTER_ELEMENTS:
        return sgk_plan_scatter_elements(plan, &d, &i, &u, c->axis, c->red, flags);
    default: return sgk_plan_gather_elements(plan, &d, &i, c->axis, flags);
    }
}

static void run_case(tcase *c, tc_rng *r)
{
    size_t es = tc_dtype_size(c->dtype);
    size_t dbytes = (size_t)c->dn * es;
    int scatter = is_scatter(c);
    char ctx[160];
    sgk_status st;

    cases_run++;
    if (c->threads >= 0)
        sgk_set_num_threads(c->threads);

    /* Two data/updates pairs with their expected results. */
    c->data = random_buffer(r, c->dtype, c->dn);
    c->data2 = random_buffer(r, c->dtype, c->dn);
    c->updates = scatter ? random_buffer(r, c->dtype, c->un) : NULL;
    c->updates2 = scatter ? random_buffer(r, c->dtype, c->un) : NULL;
    char *expected = alloc_out(c), *expected2 = alloc_out(c);
    call_reference(c, c->data, c->updates, expected);
    call_reference(c, c->data2, c->updates2, expected2);

    /* GatherND's shape query. */
    if (c->op == OP_GATHER_ND) {
        sgk_tensor d, i, u;
        int64_t shape[2 * MAX_DIMS];
        int32_t rank = -1;
        tensors(c, c->indices, c->data, NULL, &d, &i, &u);
        st = sgk_gather_nd_shape(&d, &i, c->batch_dims, shape, &rank);
        if (st != SGK_OK || rank != c->orank ||
            memcmp(shape, c->oshape, sizeof(int64_t) * (size_t)c->orank) != 0) {
            snprintf(ctx, sizeof ctx, "gather_nd_shape: status %s, rank %d",
                     sgk_status_name(st), (int)rank);
            report(c, "shape", ctx, c->data, NULL, NULL, NULL, -1);
        }
    }

    /* One-shot. */
    char *out = alloc_out(c);
    st = call_one_shot(c, c->data, c->updates, out);
    if (st != SGK_OK) {
        snprintf(ctx, sizeof ctx, "status %s", sgk_status_name(st));
        report(c, "one-shot", ctx, c->data, c->updates, NULL, NULL, -1);
    } else {
        compare(c, "one-shot", tol_reorder_allowed(0), c->data, c->updates, expected, out);
    }

    /* One-shot in place. */
    char *inplace = NULL;
    if (scatter) {
        inplace = xmalloc(dbytes + GUARD);
        memcpy(inplace, c->data, dbytes);
        memset(inplace + dbytes, GUARD_BYTE, GUARD);
        st = call_one_shot(c, inplace, c->updates, inplace);
        if (st != SGK_OK) {
            snprintf(ctx, sizeof ctx, "status %s", sgk_status_name(st));
            report(c, "in-place", ctx, c->data, c->updates, NULL, NULL, -1);
        } else {
            compare(c, "in-place", tol_reorder_allowed(0), c->data, c->updates, expected,
                    inplace);
        }
    }

    /* Plan from a private copy of the indices that is destroyed before the
       plan runs; data/updates pointers NULL at plan time half the time. */
    size_t ibytes = (size_t)c->in * tc_dtype_size(c->idtype);
    char *icopy = xmalloc(ibytes);
    memcpy(icopy, c->indices, ibytes);
    /* Reordering plans are judged by tests/support/tolerance.c where it matters. */
    uint32_t flags = tc_rng_percent(r, 50) ? SGK_PLAN_DETERMINISTIC : 0;
    if (tc_rng_percent(r, 30))
        flags = SGK_PLAN_ALLOW_REORDER;
    int null_at_plan = tc_rng_percent(r, 50);
    sgk_plan *plan = NULL;
    st = make_plan(c, &plan, icopy, null_at_plan ? NULL : c->data,
                   null_at_plan ? NULL : c->updates, flags);
    memset(icopy, 0x7F, ibytes);
    free(icopy);
    if (st != SGK_OK || !plan) {
        snprintf(ctx, sizeof ctx, "plan status %s (flags %u)", sgk_status_name(st), flags);
        report(c, "plan", ctx, c->data, c->updates, NULL, NULL, -1);
    } else {
        snprintf(ctx, sizeof ctx, "plan#1 flags=%u [%s]", flags, sgk_plan_describe(plan));
        memset(out, GUARD_BYTE, (size_t)out_elems(c) * es + GUARD);
        st = sgk_execute(plan, c->data, c->updates, out);
        if (st != SGK_OK)
            report(c, ctx, sgk_status_name(st), c->data, c->updates, NULL, NULL, -1);
        else
            compare(c, ctx, tol_reorder_allowed(flags), c->data, c->updates, expected, out);

        snprintf(ctx, sizeof ctx, "plan#2 flags=%u [%s]", flags, sgk_plan_describe(plan));
        memset(out, GUARD_BYTE, (size_t)out_elems(c) * es + GUARD);
        st = sgk_execute(plan, c->data2, c->updates2, out);
        if (st != SGK_OK)
            report(c, ctx, sgk_status_name(st), c->data2, c->updates2, NULL, NULL, -1);
        else
            compare(c, ctx, tol_reorder_allowed(flags), c->data2, c->updates2, expected2, out);

        if (scatter) {
            snprintf(ctx, sizeof ctx, "plan-in-place flags=%u [%s]", flags,
                     sgk_plan_describe(plan));
            memcpy(inplace, c->data2, dbytes);
            memset(inplace + dbytes, GUARD_BYTE, GUARD);
            st = sgk_execute(plan, inplace, c->updates2, inplace);
            if (st != SGK_OK)
                report(c, ctx, sgk_status_name(st), c->data2, c->updates2, NULL, NULL, -1);
            else
                compare(c, ctx, tol_reorder_allowed(flags), c->data2, c->updates2, expected2,
                        inplace);
        }
        sgk_plan_destroy(plan);
    }

    free(inplace);
    free(out);
    free(expected);
    free(expected2);
    free(c->data);
    free(c->data2);
    free(c->updates);
    free(c->updates2);
    free(c->indices);
}

/* ---- case generators -------------------------------------------------- */

static int64_t random_dim(tc_rng *r, int64_t hi)
{
    return tc_rng_percent(r, 5) ? 0 : tc_rng_range(r, 1, hi);
}

static void finish_shapes(tcase *c)
{
    c->dn = tc_numel(c->drank, c->dshape);
    c->in = tc_numel(c->irank, c->ishape);
    c->un = tc_numel(c->urank, c->ushape);
    c->on = tc_numel(c->orank, c->oshape);
}

/* ScatterND: data rank r, indices [..., k], updates indices[:-1] ++ data[k:]. */
static void gen_scatter_nd(tcase *c, tc_rng *r, int64_t max_dim, int64_t max_idim, int max_q)
{
    c->drank = (int32_t)tc_rng_range(r, 1, 4);
    for (int32_t d = 0; d < c->drank; d++)
        c->dshape[d] = random_dim(r, max_dim);
    int64_t k = tc_rng_range(r, 1, c->drank);
    c->irank = (int32_t)tc_rng_range(r, 1, max_q);
    for (int32_t d = 0; d + 1 < c->irank; d++)
        c->ishape[d] = random_dim(r, max_idim);
    c->ishape[c->irank - 1] = k;
    if (tc_numel(c->irank - 1, c->ishape) > 0)
        for (int64_t j = 0; j < k; j++)
            if (c->dshape[j] == 0)
                c->dshape[j] = tc_rng_range(r, 1, max_dim);
    c->urank = 0;
    for (int32_t d = 0; d + 1 < c->irank; d++)
        c->ushape[c->urank++] = c->ishape[d];
    for (int32_t d = (int32_t)k; d < c->drank; d++)
        c->ushape[c->urank++] = c->dshape[d];
    if (c->urank == 0 && tc_rng_percent(r, 50)) { /* OpenVINO's [1] for a [] update */
        c->urank = 1;
        c->ushape[0] = 1;
    }
    finish_shapes(c);
    c->indices = random_indices(r, c->idtype, c->in, c->dshape, k, tc_rng_percent(r, 30));
}

/* GatherND with batch_dims b: indices.shape[:b] == data.shape[:b]. */
static void gen_gather_nd(tcase *c, tc_rng *r, int64_t max_dim, int64_t max_idim)
{
    c->drank = (int32_t)tc_rng_range(r, 1, 4);
    for (int32_t d = 0; d < c->drank; d++)
        c->dshape[d] = random_dim(r, max_dim);
    c->irank = (int32_t)tc_rng_range(r, 1, 4);
    int32_t b = (int32_t)tc_rng_range(r, 0, (c->irank < c->drank ? c->irank : c->drank) - 1);
    int64_t k = tc_rng_range(r, 1, c->drank - b);
    c->batch_dims = b;
    for (int32_t d = 0; d < b; d++)
        c->ishape[d] = c->dshape[d];
    for (int32_t d = b; d + 1 < c->irank; d++)
        c->ishape[d] = random_dim(r, max_idim);
    c->ishape[c->irank - 1] = k;
    if (tc_numel(c->irank - 1, c->ishape) > 0)
        for (int64_t j = 0; j < k; j++)
            if (c->dshape[b + j] == 0)
                c->dshape[b + j] = tc_rng_range(r, 1, max_dim);
    c->orank = 0;
    for (int32_t d = 0; d + 1 < c->irank; d++)
        c->oshape[c->orank++] = c->ishape[d];
    for (int32_t d = b + (int32_t)k; d < c->drank; d++)
        c->oshape[c->orank++] = c->dshape[d];
    finish_shapes(c);
    c->indices = random_indices(r, c->idtype, c->in, c->dshape + b, k, tc_rng_percent(r, 30));
}

/* Every index element takes the value of the first element of its row
   (the dimensions after the axis): an index broadcast along them. */
static void broadcast_along_rows(tcase *c, int32_t ax)
{
    int64_t row = 1;
    for (int32_t d = ax + 1; d < c->irank; d++)
        row *= c->ishape[d];
    size_t is = c->idtype == SGK_INT32 ? 4 : 8;
    char *idx = c->indices;
    for (int64_t i = 0; row > 1 && i < c->in; i++)
        memmove(idx + (size_t)i * is, idx + (size_t)(i / row * row) * is, is);
}

/* Scatter/GatherElements: indices.shape[d] <= data.shape[d] off the axis;
   along the axis any length (duplicates).  A third of the cases cover the
   dimensions after the axis fully and broadcast the index along them: whole
   rows move. */
static void gen_elements(tcase *c, tc_rng *r, int64_t max_dim, int64_t max_axis_len)
{
    c->drank = (int32_t)tc_rng_range(r, 1, 4);
    for (int32_t d = 0; d < c->drank; d++)
        c->dshape[d] = random_dim(r, max_dim);
    c->axis = tc_rng_range(r, -c->drank, c->drank - 1);
    int32_t ax = (int32_t)(c->axis < 0 ? c->axis + c->drank : c->axis);
    c->irank = c->drank;
    for (int32_t d = 0; d < c->drank; d++)
        c->ishape[d] = d == ax ? random_dim(r, max_axis_len) : tc_rng_range(r, 0, c->dshape[d]);
    int rows = tc_rng_percent(r, 33);
    for (int32_t d = ax + 1; rows && d < c->drank; d++)
        c->ishape[d] = c->dshape[d];
    if (c->dshape[ax] == 0 && tc_numel(c->irank, c->ishape) > 0) {
        if (tc_rng_percent(r, 50))
            c->ishape[ax] = 0;
        else
            c->dshape[ax] = tc_rng_range(r, 1, max_dim);
    }
    c->urank = c->orank = c->irank;
    memcpy(c->ushape, c->ishape, sizeof c->ishape);
    memcpy(c->oshape, c->ishape, sizeof c->ishape);
    finish_shapes(c);
    c->indices = random_indices(r, c->idtype, c->in, &c->dshape[ax], 1, tc_rng_percent(r, 30));
    if (rows)
        broadcast_along_rows(c, ax);
}

static uint64_t case_seed(int op, int dtype, int red, int n, uint64_t salt)
{
    return ((uint64_t)op << 48) ^ ((uint64_t)dtype << 40) ^ ((uint64_t)red << 32) ^
           (uint64_t)n ^ salt;
}

#define LARGE_LIMIT ((int64_t)1 << 18)

static void generate_once(tcase *c, tc_rng *r, int large)
{
    switch (c->op) {
    case OP_SCATTER_ND:
        if (large)
            gen_scatter_nd(c, r, 48, 32, 3);
        else
            gen_scatter_nd(c, r, 4, 3, 4);
        break;
    case OP_GATHER_ND:
        if (large)
            gen_gather_nd(c, r, 40, 32);
        else
            gen_gather_nd(c, r, 4, 3);
        break;
    default:
        if (large)
            gen_elements(c, r, 40, 80);
        else
            gen_elements(c, r, 4, 6);
        break;
    }
}

/* Large cases are redrawn (deterministically) until every tensor is below
   LARGE_LIMIT elements and the work is not trivially small. */
static void generate(tcase *c, tc_rng *r, int large)
{
    for (;;) {
        generate_once(c, r, large);
        if (!large)
            return;
        int64_t work = c->dn + c->un + c->on;
        if (c->dn <= LARGE_LIMIT && c->in <= LARGE_LIMIT && c->un <= LARGE_LIMIT &&
            c->on <= LARGE_LIMIT && work >= 16384)
            return;
        free(c->indices);
        c->indices = NULL;
    }
}

/* A case's header: its seed (from the combination and the case number), the
   generator seeded with it, and the first draw, the index type.  Shapes,
   threads and the test's name are the caller's. */
static void new_case(tcase *c, tc_rng *r, int op, int dt, int red, int n, uint64_t salt)
{
    memset(c, 0, sizeof *c);
    c->seed = case_seed(op, dt, red, n, salt);
    *r = (tc_rng){c->seed};
    c->op = op;
    c->dtype = (sgk_dtype)dt;
    c->red = (sgk_reduction)red;
    c->idtype = tc_rng_percent(r, 50) ? SGK_INT32 : SGK_INT64;
    c->threads = -1;
}

static void run_op(int op, int cases_per_combo, int large, uint64_t salt)
{
    int scatter = op == OP_SCATTER_ND || op == OP_SCATTER_ELEMENTS;
    for (int dt = 0; dt < SGK_DTYPE_COUNT; dt++) {
        for (int red = 0; red < SGK_REDUCTION_COUNT; red++) {
            if (!scatter && red != SGK_REDUCE_NONE)
                continue;
            if (!ref_reduction_supported((sgk_dtype)dt, (sgk_reduction)red))
                continue;
            for (int n = 0; n < cases_per_combo; n++) {
                tcase c;
                tc_rng r;
                new_case(&c, &r, op, dt, red, n, salt);
                if (large)
                    c.threads = (int)tc_rng_range(&r, 0, 2);
                c.test = large ? "large" : "small";
                generate(&c, &r, large);
                run_case(&c, &r);
            }
        }
    }
    if (large)
        sgk_set_num_threads(0);
}

/* ScatterND with k = 1 on [slots, len] data: whole slices of `len`
   elements, each slot hit several times (duplicates).  The lengths straddle
   the vector kernels' cases: a single element, shorter than a vector, full
   vectors plus a tail. */
static const int64_t slice_lens[] = {1, 3, 17, 64, 129};

static void run_slices(uint64_t salt)
{
    for (int dt = 0; dt < SGK_DTYPE_COUNT; dt++) {
        for (int red = 0; red < SGK_REDUCTION_COUNT; red++) {
            if (!ref_reduction_supported((sgk_dtype)dt, (sgk_reduction)red))
                continue;
            for (size_t l = 0; l < sizeof slice_lens / sizeof *slice_lens; l++) {
                tcase c;
                tc_rng r;
                new_case(&c, &r, OP_SCATTER_ND, dt, red, (int)l, salt);
                c.test = "slices";
                c.drank = c.urank = c.irank = 2;
                c.dshape[0] = tc_rng_range(&r, 1, 5);
                c.dshape[1] = slice_lens[l];
                c.ishape[0] = c.ushape[0] = tc_rng_range(&r, 6, 16);
                c.ishape[1] = 1;
                c.ushape[1] = slice_lens[l];
                finish_shapes(&c);
                c.indices = random_indices(&r, c.idtype, c.in, c.dshape, 1, 1);
                run_case(&c, &r);
            }
        }
    }
}

static void test_slices(void **state)
{
    (void)state;
    int before = total_failures;
    run_slices(0x511CE000ull);
    assert_int_equal(total_failures - before, 0);
}

/* Scatter/GatherElements whose indices span data in every dimension but
   the axis (one-shot calls take them line by line, reading the index values
   as they go).  Small cases of random rank and axis; and one case per cell
   whose lines, 260 long and a page plus 37 elements wide, are more than a
   cache block for one outer position, so that threads take them in
   page-wide columns with a narrower last one.  Gathers this small take the
   lines path only where tests/matrix.sh forces the parallel paths on small
   cases, and scatters not where tests/test_reduce_paths.sh forces a
   reduction path. */
static void run_lines(int op, uint64_t salt)
{
    for (int dt = 0; dt < SGK_DTYPE_COUNT; dt++) {
        for (int red = 0; red < SGK_REDUCTION_COUNT; red++) {
            if ((op == OP_GATHER_ELEMENTS && red != SGK_REDUCE_NONE) ||
                !ref_reduction_supported((sgk_dtype)dt, (sgk_reduction)red))
                continue;
            for (int n = 0; n < 4; n++) {
                const int columns = n == 3;
                tcase c;
                tc_rng r;
                new_case(&c, &r, op, dt, red, n, salt);
                if (columns)
                    c.threads = (int)tc_rng_range(&r, 0, 2);
                c.test = columns ? "lines in columns" : "lines";
                if (columns) {
                    c.drank = 3;
                    c.dshape[0] = 2;
                    c.dshape[1] = 260;
                    c.dshape[2] = 4096 / (int64_t)tc_dtype_size(c.dtype) + 37;
                    c.axis = tc_rng_percent(&r, 50) ? 1 : -2;
                } else {
                    c.drank = (int32_t)tc_rng_range(&r, 1, 3);
                    for (int32_t d = 0; d < c.drank; d++)
                        c.dshape[d] = tc_rng_range(&r, 1, 6);
                    c.axis = tc_rng_range(&r, -c.drank, c.drank - 1);
                }
                int32_t ax = (int32_t)(c.axis < 0 ? c.axis + c.drank : c.axis);
                c.irank = c.urank = c.orank = c.drank;
                for (int32_t d = 0; d < c.drank; d++)
                    c.ishape[d] = d == ax ? tc_rng_range(&r, 1, 12) : c.dshape[d];
                memcpy(c.ushape, c.ishape, sizeof c.ishape);
                memcpy(c.oshape, c.ishape, sizeof c.ishape);
                finish_shapes(&c);
                c.indices = random_indices(&r, c.idtype, c.in, &c.dshape[ax], 1,
                                           tc_rng_percent(&r, 30));
                run_case(&c, &r);
            }
        }
    }
    sgk_set_num_threads(0);
}

static void test_lines(void **state)
{
    (void)state;
    int before = total_failures;
    run_lines(OP_SCATTER_ELEMENTS, 0x11E50000ull);
    run_lines(OP_GATHER_ELEMENTS, 0x11E50000ull);
    assert_int_equal(total_failures - before, 0);
}

/* ---- tests ------------------------------------------------------------ */

static const int ops[] = {OP_SCATTER_ND, OP_GATHER_ND, OP_SCATTER_ELEMENTS, OP_GATHER_ELEMENTS};

/* SGK_TEST_CASES caps the cases per combination (see the top of the file). */
static int cases_per_combo(int usual)
{
    const char *v = getenv("SGK_TEST_CASES");
    int cap = v != NULL ? atoi(v) : 0;
    return cap > 0 && cap < usual ? cap : usual;
}

static void test_small(void **state)
{
    int op = *(const int *)*state;
    int before = total_failures;
    run_op(op, cases_per_combo(op == OP_SCATTER_ND || op == OP_SCATTER_ELEMENTS
                                   ? SMALL_CASES_SCATTER
                                   : SMALL_CASES_GATHER),
           0, 0x5EED0000ull);
    assert_int_equal(total_failures - before, 0);
}

/* Fewer, bigger cases (up to ~10^5 elements) so that parallel and
   duplicate-segment paths are taken, with 1, 2 and the default threads. */
static void test_large(void **state)
{
    int op = *(const int *)*state;
    int before = total_failures;
    run_op(op, cases_per_combo(2), 1, 0x1A46E000ull);
    assert_int_equal(total_failures - before, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        {"small_scatter_nd", test_small, NULL, NULL, (void *)&ops[0]},
        {"small_gather_nd", test_small, NULL, NULL, (void *)&ops[1]},
        {"small_scatter_elements", test_small, NULL, NULL, (void *)&ops[2]},
        {"small_gather_elements", test_small, NULL, NULL, (void *)&ops[3]},
        {"slices", test_slices, NULL, NULL, NULL},
        {"lines", test_lines, NULL, NULL, NULL},
        {"large_scatter_nd", test_large, NULL, NULL, (void *)&ops[0]},
        {"large_gather_nd", test_large, NULL, NULL, (void *)&ops[1]},
        {"large_scatter_elements", test_large, NULL, NULL, (void *)&ops[2]},
        {"large_gather_elements", test_large, NULL, NULL, (void *)&ops[3]},
    };
    int rc = cmocka_run_group_tests_name("test_random", tests, NULL, NULL);
    printf("test_random: %ld cases, %d failures", cases_run, total_failures);
    if (tol_env_allows_reorder() || unjudged_elements > 0)
        printf("; reordered results: %" PRId64 " elements had no order-free answer, not judged",
               unjudged_elements);
    printf("\n");
    return rc;
}
