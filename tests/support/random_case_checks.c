/*
 * One randomized case on every route (tests/support/random_case_checks.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "random_case_checks.h"
#include "random_values.h"
#include "reference.h"
#include "sgk.h"
#include "tolerance.h"

static const char *const op_names[] = {"scatter_nd", "gather_nd", "scatter_elements",
                                       "gather_elements"};

#define GUARD 64
#define GUARD_BYTE 0xA5
#define MAX_REPORTS 20

static random_case_counts counts;
static int reported;

random_case_counts random_cases_so_far(void)
{
    return counts;
}

static int is_scatter(const random_case *c)
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

static void dump_indices(const random_case *c)
{
    printf("    indices:");
    for (int64_t i = 0; i < c->shapes.in; i++) {
        int64_t v;
        if (c->shapes.idtype == SGK_INT32) {
            int32_t t;
            memcpy(&t, (const char *)c->shapes.indices + i * 4, 4);
            v = t;
        } else {
            memcpy(&v, (const char *)c->shapes.indices + i * 8, 8);
        }
        printf(" %" PRId64, v);
    }
    printf("\n");
}

static void report(const random_case *c, const char *route, const char *what, const void *data,
                   const void *updates, const void *expected, const void *actual, int64_t elem)
{
    char ds[256], is[256], us[256], os[256];
    size_t es = tc_dtype_size(c->dtype);
    counts.failures++;
    if (reported++ >= MAX_REPORTS)
        return;
    printf("FAIL [%s/%s] %s: op=%s dtype=%s reduction=%s index=%s data=%s indices=%s",
           c->test, route, what, op_names[c->op], tc_dtype_name(c->dtype),
           tc_reduction_name(c->red), tc_dtype_name(c->shapes.idtype),
           shape_str(ds, sizeof ds, c->shapes.drank, c->shapes.dshape),
           shape_str(is, sizeof is, c->shapes.irank, c->shapes.ishape));
    if (is_scatter(c))
        printf(" updates=%s", shape_str(us, sizeof us, c->shapes.urank, c->shapes.ushape));
    else
        printf(" output=%s", shape_str(os, sizeof os, c->shapes.orank, c->shapes.oshape));
    if (c->op == OP_GATHER_ND)
        printf(" batch_dims=%" PRId64, c->shapes.batch_dims);
    if (c->op == OP_SCATTER_ELEMENTS || c->op == OP_GATHER_ELEMENTS)
        printf(" axis=%" PRId64, c->shapes.axis);
    printf(" threads=%d seed=0x%016" PRIx64 "\n", c->threads, c->seed);
    printf("    last error: %s\n", sgk_last_error());
    if (expected && actual && elem >= 0) {
        printf("    first bad element %" PRId64 "\n", elem);
        dump_bytes("expected", (const char *)expected + (size_t)elem * es, 1, es);
        dump_bytes("actual  ", (const char *)actual + (size_t)elem * es, 1, es);
    }
    if (c->shapes.dn + c->shapes.in + c->shapes.un <= 96 && c->dtype != SGK_STRING) {
        dump_bytes("data", data, c->shapes.dn, es);
        dump_indices(c);
        if (is_scatter(c))
            dump_bytes("updates", updates, c->shapes.un, es);
        if (expected)
            dump_bytes("expected", expected, is_scatter(c) ? c->shapes.dn : c->shapes.on, es);
        if (actual)
            dump_bytes("actual", actual, is_scatter(c) ? c->shapes.dn : c->shapes.on, es);
    }
}

static int64_t out_elems(const random_case *c)
{
    return is_scatter(c) ? c->shapes.dn : c->shapes.on;
}

static char *alloc_out(const random_case *c)
{
    size_t bytes = (size_t)out_elems(c) * tc_dtype_size(c->dtype);
    char *out = xmalloc(bytes + GUARD);
    memset(out, GUARD_BYTE, bytes + GUARD);
    return out;
}

static void reference_scatter(const void *ctx, sgk_dtype dtype, sgk_reduction red,
                              const void *data, const void *updates, void *out);

/* Compares `actual` (with its guard zone) against `expected`; reports once.
   `reordered`: the route allowed reordering (random_case_checks.h says how it is judged). */
static void compare(const random_case *c, const char *route, int reordered, const void *data,
                    const void *updates, const char *expected, const char *actual)
{
    size_t es = tc_dtype_size(c->dtype);
    int64_t n = out_elems(c);
    sgk_reduction red = is_scatter(c) ? c->red : SGK_REDUCE_NONE;
    if (is_scatter(c) && reordered && tol_reorder_relaxes(c->dtype, red)) {
        tol_stats *st = tol_prepare(c->dtype, red, c->shapes.dn, c->shapes.un, data, updates,
                                    reference_scatter, c);
        tol_result res;
        int ok = tol_compare(c->dtype, red, st, 1, 0, n, expected, actual, &res);
        tol_free(st);
        counts.unjudged_elements += res.unjudged;
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

static void tensors(const random_case *c, const void *indices, const void *data,
                    const void *updates, sgk_tensor *d, sgk_tensor *i, sgk_tensor *u)
{
    *d = (sgk_tensor){c->dtype, c->shapes.drank, c->shapes.dshape, data};
    *i = (sgk_tensor){c->shapes.idtype, c->shapes.irank, c->shapes.ishape, indices};
    *u = (sgk_tensor){c->dtype, c->shapes.urank, c->shapes.ushape, updates};
}

static sgk_status call_one_shot(const random_case *c, const void *data, const void *updates,
                                void *out)
{
    sgk_tensor d, i, u;
    tensors(c, c->shapes.indices, data, updates, &d, &i, &u);
    switch (c->op) {
    case OP_SCATTER_ND: return sgk_scatter_nd(&d, &i, &u, c->red, out);
    case OP_GATHER_ND: return sgk_gather_nd(&d, &i, c->shapes.batch_dims, out);
    case OP_SCATTER_ELEMENTS:
        return sgk_scatter_elements(&d, &i, &u, c->shapes.axis, c->red, out);
    default: return sgk_gather_elements(&d, &i, c->shapes.axis, out);
    }
}

/* tol_scatter_fn: the reference scatter on this case's indices and shapes. */
static void reference_scatter(const void *ctx, sgk_dtype dtype, sgk_reduction red,
                              const void *data, const void *updates, void *out)
{
    const random_case *c = ctx;
    sgk_tensor d, i, u;
    tensors(c, c->shapes.indices, data, updates, &d, &i, &u);
    d.dtype = u.dtype = dtype;
    if (c->op == OP_SCATTER_ND)
        ref_scatter_nd(&d, &i, &u, red, out);
    else
        ref_scatter_elements(&d, &i, &u, c->shapes.axis, red, out);
}

static void call_reference(const random_case *c, const void *data, const void *updates, void *out)
{
    sgk_tensor d, i, u;
    tensors(c, c->shapes.indices, data, updates, &d, &i, &u);
    switch (c->op) {
    case OP_SCATTER_ND: ref_scatter_nd(&d, &i, &u, c->red, out); break;
    case OP_GATHER_ND: ref_gather_nd(&d, &i, c->shapes.batch_dims, out); break;
    case OP_SCATTER_ELEMENTS:
        ref_scatter_elements(&d, &i, &u, c->shapes.axis, c->red, out);
        break;
    default: ref_gather_elements(&d, &i, c->shapes.axis, out); break;
    }
}

static sgk_status make_plan(const random_case *c, sgk_plan **plan, const void *indices,
                            const void *data, const void *updates, uint32_t flags)
{
    sgk_tensor d, i, u;
    tensors(c, indices, data, updates, &d, &i, &u);
    switch (c->op) {
    case OP_SCATTER_ND: return sgk_plan_scatter_nd(plan, &d, &i, &u, c->red, flags);
    case OP_GATHER_ND: return sgk_plan_gather_nd(plan, &d, &i, c->shapes.batch_dims, flags);
    case OP_SCATTER_ELEMENTS:
        return sgk_plan_scatter_elements(plan, &d, &i, &u, c->shapes.axis, c->red, flags);
    default: return sgk_plan_gather_elements(plan, &d, &i, c->shapes.axis, flags);
    }
}

void check_random_case(random_case *c, tc_rng *r)
{
    size_t es = tc_dtype_size(c->dtype);
    size_t dbytes = (size_t)c->shapes.dn * es;
    int scatter = is_scatter(c);
    char ctx[160];
    sgk_status st;

    counts.cases++;
    if (c->threads >= 0)
        sgk_set_num_threads(c->threads);

    /* Two data/updates pairs with their expected results. */
    c->data = random_buffer(r, c->dtype, c->shapes.dn);
    c->data2 = random_buffer(r, c->dtype, c->shapes.dn);
    c->updates = scatter ? random_buffer(r, c->dtype, c->shapes.un) : NULL;
    c->updates2 = scatter ? random_buffer(r, c->dtype, c->shapes.un) : NULL;
    char *expected = alloc_out(c), *expected2 = alloc_out(c);
    call_reference(c, c->data, c->updates, expected);
    call_reference(c, c->data2, c->updates2, expected2);

    /* GatherND's shape query. */
    if (c->op == OP_GATHER_ND) {
        sgk_tensor d, i, u;
        int64_t shape[2 * RANDOM_SHAPES_MAX_RANK];
        int32_t rank = -1;
        tensors(c, c->shapes.indices, c->data, NULL, &d, &i, &u);
        st = sgk_gather_nd_shape(&d, &i, c->shapes.batch_dims, shape, &rank);
        if (st != SGK_OK || rank != c->shapes.orank ||
            memcmp(shape, c->shapes.oshape, sizeof(int64_t) * (size_t)c->shapes.orank) != 0) {
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
    size_t ibytes = (size_t)c->shapes.in * tc_dtype_size(c->shapes.idtype);
    char *icopy = xmalloc(ibytes);
    memcpy(icopy, c->shapes.indices, ibytes);
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
    free(c->shapes.indices);
}
