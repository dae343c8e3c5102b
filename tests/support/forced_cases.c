/*
 * The problems tests/test_forced_paths.c forces every path on, and one run
 * of each against the reference.  Shapes are a few dozen elements: what is
 * judged is each path's exactness and the identity of the path taken, not
 * its speed, and every path must be exact wherever it says it can serve.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "forced_cases.h"
#include "reference.h"
#include "registry/registry.h"

#define SHAPE(...) {__VA_ARGS__}

/* One problem kind of an operator: its shapes and what they make of it. */
typedef struct {
    int64_t attr;
    int32_t data_rank, index_rank, update_rank;
    int64_t data_shape[4], index_shape[4], update_shape[4];
    int64_t out_elems;
    bool single, spans, sorted;
} kind;

/* rows, single elements, and both again with the tuples sorted (edges kept
   in CSR order), which the sorted-runs path serves */
static const kind scatter_nd_kinds[] = {
    {0, 2, 2, 2, SHAPE(6, 5), SHAPE(9, 1), SHAPE(9, 5), 30, false, false, false},
    {0, 2, 2, 1, SHAPE(6, 5), SHAPE(12, 2), SHAPE(12), 30, true, false, false},
    {0, 2, 2, 2, SHAPE(6, 5), SHAPE(9, 1), SHAPE(9, 5), 30, false, false, true},
    {0, 2, 2, 1, SHAPE(6, 5), SHAPE(12, 2), SHAPE(12), 30, true, false, true},
};
static const kind gather_nd_kinds[] = {
    {0, 2, 2, 0, SHAPE(6, 5), SHAPE(7, 1), SHAPE(0), 35, false, false, false},
    {0, 2, 2, 0, SHAPE(6, 5), SHAPE(7, 2), SHAPE(0), 7, true, false, false},
    {1, 3, 3, 0, SHAPE(2, 4, 3), SHAPE(2, 3, 1), SHAPE(0), 18, false, false, false},
};
/* axis 1 spanning dimension 0, axis 1 not spanning, axis 0 spanning */
static const kind elements_kinds[] = {
    {1, 2, 2, 2, SHAPE(4, 6), SHAPE(4, 3), SHAPE(4, 3), 0, true, true, false},
    {1, 2, 2, 2, SHAPE(4, 6), SHAPE(3, 3), SHAPE(3, 3), 0, true, false, false},
    {0, 2, 2, 2, SHAPE(4, 6), SHAPE(7, 6), SHAPE(7, 6), 0, true, true, false},
};
static const kind gather_kinds[] = {
    {0, 2, 1, 0, SHAPE(6, 5), SHAPE(7), SHAPE(0), 35, false, false, false},
    {1, 2, 2, 0, SHAPE(6, 5), SHAPE(2, 3), SHAPE(0), 36, true, false, false},
};
/* cache [2, 8, 4], one write index per batch: 3 positions written */
static const kind tensor_scatter_kinds[] = {
    {1, 3, 1, 3, SHAPE(2, 8, 4), SHAPE(2), SHAPE(2, 3, 4), 64, false, false, false},
};

int fc_cases(fc_op op, const sgk_dtype *dtypes, int ndtypes, fc_case *out, int max)
{
    const kind *kinds;
    int nkinds;
    switch (op) {
    case FC_SCATTER_ND: kinds = scatter_nd_kinds, nkinds = 4; break;
    case FC_GATHER_ND: kinds = gather_nd_kinds, nkinds = 3; break;
    case FC_SCATTER_ELEMENTS:
    case FC_GATHER_ELEMENTS: kinds = elements_kinds, nkinds = 3; break;
    case FC_GATHER: kinds = gather_kinds, nkinds = 2; break;
    default: kinds = tensor_scatter_kinds, nkinds = 1; break;
    }
    const bool reduces = op == FC_SCATTER_ND || op == FC_SCATTER_ELEMENTS;
    const sgk_dtype index_dtypes[] = {SGK_INT32, SGK_INT64};
    int n = 0;
    for (int k = 0; k < nkinds; k++)
        for (int d = 0; d < ndtypes; d++)
            for (int r = 0; r < (reduces ? SGK_REDUCTION_COUNT : 1); r++)
                for (int i = 0; i < 2; i++) {
                    if (!ref_reduction_supported(dtypes[d], (sgk_reduction)r) || n == max)
                        continue;
                    const kind *kd = &kinds[k];
                    fc_case *c = &out[n++];
                    *c = (fc_case){.op = op, .dtype = dtypes[d], .index_dtype = index_dtypes[i],
                                   .reduction = (sgk_reduction)r, .attr = kd->attr,
                                   .data_rank = kd->data_rank, .index_rank = kd->index_rank,
                                   .update_rank = kd->update_rank};
                    memcpy(c->data_shape, kd->data_shape, sizeof c->data_shape);
                    memcpy(c->index_shape, kd->index_shape, sizeof c->index_shape);
                    memcpy(c->update_shape, kd->update_shape, sizeof c->update_shape);
                    c->out_elems = kd->out_elems > 0 ? kd->out_elems
                                   : op == FC_SCATTER_ELEMENTS
                                       ? tc_numel(kd->data_rank, kd->data_shape)
                                       : tc_numel(kd->index_rank, kd->index_shape);
                    c->single = kd->single;
                    c->spans = kd->spans;
                    c->sorted = kd->sorted;
                }
    return n;
}

/* Small values, so that sums and products of a few duplicates stay exact
   in every type and no NaN appears. */
static void fill_values(tc_rng *rng, sgk_dtype dtype, void *p, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        int v = (int)tc_rng_range(rng, -3, 3);
        switch (dtype) {
        case SGK_BOOL: ((uint8_t *)p)[i] = v > 0; break;
        case SGK_INT8: case SGK_UINT8: ((int8_t *)p)[i] = (int8_t)v; break;
        case SGK_INT16: case SGK_UINT16: ((int16_t *)p)[i] = (int16_t)v; break;
        case SGK_INT32: case SGK_UINT32: ((int32_t *)p)[i] = v; break;
        case SGK_INT64: case SGK_UINT64: ((int64_t *)p)[i] = v; break;
        case SGK_FLOAT16: ((uint16_t *)p)[i] = ref_f32_to_f16((float)v); break;
        case SGK_BFLOAT16: ((uint16_t *)p)[i] = ref_f32_to_bf16((float)v); break;
        case SGK_FLOAT32: ((float *)p)[i] = (float)v; break;
        case SGK_FLOAT64: ((double *)p)[i] = v; break;
        case SGK_COMPLEX64: ((float *)p)[2 * i] = (float)v, ((float *)p)[2 * i + 1] = 1; break;
        case SGK_COMPLEX128: ((double *)p)[2 * i] = v, ((double *)p)[2 * i + 1] = 1; break;
        default: ((const char **)p)[i] = v > 0 ? "yes" : "no"; break;
        }
    }
}

/* Index values in [-s, s-1] for each coordinate's dimension; TensorScatter's
   write positions leave room for the update in linear mode. */
static void fill_indices(tc_rng *rng, const fc_case *c, void *p)
{
    const int64_t n = tc_numel(c->index_rank, c->index_shape);
    const int64_t k = c->index_shape[c->index_rank - 1];
    for (int64_t i = 0; i < n; i++) {
        int64_t s;
        switch (c->op) {
        case FC_SCATTER_ND: s = c->data_shape[i % k]; break;
        case FC_GATHER_ND: s = c->data_shape[c->attr + i % k]; break;
        case FC_TENSOR_SCATTER: s = 0; break;
        default: s = c->data_shape[c->attr]; break;
        }
        int64_t v = s > 0 ? tc_rng_range(rng, -s, s - 1)
                          : tc_rng_range(rng, 0, c->data_shape[1] - c->update_shape[1]);
        if (c->index_dtype == SGK_INT32)
            ((int32_t *)p)[i] = (int32_t)v;
        else
            ((int64_t *)p)[i] = v;
    }
}

/* A sorted case's tuples in ascending order of their slot (the normalized
   coordinates flattened), each keeping the alias it was drawn with. */
static int64_t coordinate(const fc_case *c, const void *p, int64_t i)
{
    const int64_t v = c->index_dtype == SGK_INT32 ? ((const int32_t *)p)[i]
                                                  : ((const int64_t *)p)[i];
    const int64_t k = c->index_shape[c->index_rank - 1];
    return v < 0 ? v + c->data_shape[i % k] : v;
}

static void sort_tuples(const fc_case *c, void *p)
{
    const int64_t k = c->index_shape[c->index_rank - 1], n = c->index_shape[0];
    const size_t tuple = (size_t)k * tc_dtype_size(c->index_dtype);
    int64_t *slot = xmalloc((size_t)n * sizeof *slot), *order = xmalloc((size_t)n * sizeof *order);
    uint8_t *copy = xmalloc((size_t)n * tuple);
    memcpy(copy, p, (size_t)n * tuple);
    for (int64_t i = 0; i < n; i++) {
        slot[i] = 0;
        for (int64_t d = 0; d < k; d++)
            slot[i] = slot[i] * c->data_shape[d] + coordinate(c, copy, i * k + d);
        int64_t j = i;
        for (; j > 0 && slot[order[j - 1]] > slot[i]; j--)
            order[j] = order[j - 1];
        order[j] = i;
    }
    for (int64_t i = 0; i < n; i++)
        memcpy((uint8_t *)p + (size_t)i * tuple, copy + (size_t)order[i] * tuple, tuple);
    free(slot), free(order), free(copy);
}

static void reference(const fc_case *c, const sgk_tensor *d, const sgk_tensor *ix,
                      const sgk_tensor *u, void *out)
{
    switch (c->op) {
    case FC_SCATTER_ND: ref_scatter_nd(d, ix, u, c->reduction, out); break;
    case FC_GATHER_ND: ref_gather_nd(d, ix, c->attr, out); break;
    case FC_SCATTER_ELEMENTS: ref_scatter_elements(d, ix, u, c->attr, c->reduction, out); break;
    case FC_GATHER_ELEMENTS: ref_gather_elements(d, ix, c->attr, out); break;
    case FC_GATHER: ref_gather(d, ix, c->attr, out); break;
    case FC_TENSOR_SCATTER: ref_tensor_scatter(d, u, ix, c->attr, SGK_TENSOR_SCATTER_LINEAR, out); break;
    }
}

static sgk_status one_shot(const fc_case *c, const sgk_tensor *d, const sgk_tensor *ix,
                           const sgk_tensor *u, void *out)
{
    switch (c->op) {
    case FC_SCATTER_ND: return sgk_scatter_nd(d, ix, u, c->reduction, out);
    case FC_GATHER_ND: return sgk_gather_nd(d, ix, c->attr, out);
    case FC_SCATTER_ELEMENTS: return sgk_scatter_elements(d, ix, u, c->attr, c->reduction, out);
    case FC_GATHER_ELEMENTS: return sgk_gather_elements(d, ix, c->attr, out);
    case FC_GATHER: return sgk_gather(d, ix, c->attr, out);
    default: return sgk_tensor_scatter(d, u, ix, c->attr, SGK_TENSOR_SCATTER_LINEAR, out);
    }
}

static sgk_status plan(const fc_case *c, const sgk_tensor *d, const sgk_tensor *ix,
                       const sgk_tensor *u, sgk_plan **p)
{
    switch (c->op) {
    case FC_SCATTER_ND: return sgk_plan_scatter_nd(p, d, ix, u, c->reduction, 0);
    case FC_GATHER_ND: return sgk_plan_gather_nd(p, d, ix, c->attr, 0);
    case FC_SCATTER_ELEMENTS:
        return sgk_plan_scatter_elements(p, d, ix, u, c->attr, c->reduction, 0);
    case FC_GATHER_ELEMENTS: return sgk_plan_gather_elements(p, d, ix, c->attr, 0);
    case FC_GATHER: return sgk_plan_gather(p, d, ix, c->attr, 0);
    default: return sgk_plan_tensor_scatter(p, d, u, ix, c->attr, SGK_TENSOR_SCATTER_LINEAR, 0);
    }
}

/* Element by element, so that a NaN from both sides matches any NaN. */
static void compare(const fc_case *c, const char *how, const void *want, const void *got,
                    fc_outcome *o)
{
    const size_t es = tc_dtype_size(c->dtype);
    for (int64_t i = 0; i < c->out_elems && o->failure[0] == '\0'; i++)
        if (!ref_same_result(c->dtype, c->reduction, (const char *)want + i * es,
                             (const char *)got + i * es))
            snprintf(o->failure, sizeof o->failure,
                     "%s: element %lld differs from the reference", how, (long long)i);
}

static void check_status(sgk_status st, const char *how, fc_outcome *o)
{
    if (st != SGK_OK && o->failure[0] == '\0')
        snprintf(o->failure, sizeof o->failure, "%s: %s (%s)", how, tc_status_name(st),
                 tc_last_error());
}

void fc_run(const fc_case *c, uint64_t seed, fc_outcome *o)
{
    tc_rng rng = {seed};
    const size_t es = tc_dtype_size(c->dtype);
    const int64_t nd = tc_numel(c->data_rank, c->data_shape);
    const int64_t nu = c->update_rank > 0 ? tc_numel(c->update_rank, c->update_shape) : 0;
    const int64_t ni = tc_numel(c->index_rank, c->index_shape);
    void *data = xmalloc((size_t)nd * es), *upd = xmalloc((size_t)nu * es);
    void *idx = xmalloc((size_t)ni * tc_dtype_size(c->index_dtype));
    void *want = xmalloc((size_t)c->out_elems * es), *got = xmalloc((size_t)c->out_elems * es);
    fill_values(&rng, c->dtype, data, nd);
    fill_values(&rng, c->dtype, upd, nu);
    fill_indices(&rng, c, idx);
    if (c->sorted)
        sort_tuples(c, idx);
    const sgk_tensor d = {c->dtype, c->data_rank, c->data_shape, data};
    const sgk_tensor ix = {c->index_dtype, c->index_rank, c->index_shape, idx};
    const sgk_tensor u = {c->dtype, c->update_rank, c->update_shape, upd};
    memset(o, 0, sizeof *o);
    reference(c, &d, &ix, &u, want);

    check_status(one_shot(c, &d, &ix, &u, got), "one-shot", o);
    o->one_shot_path = sgk_last_path();
    compare(c, "one-shot", want, got, o);

    sgk_plan *p = NULL;
    check_status(plan(c, &d, &ix, &u, &p), "plan", o);
    if (p != NULL) {
        o->plan_path = sgk_plan_path(p);
        snprintf(o->plan_description, sizeof o->plan_description, "%s", sgk_plan_describe(p));
        check_status(sgk_execute(p, data, fc_scatters(c) ? upd : NULL, got), "planned", o);
        compare(c, "planned", want, got, o);
    }
    if (fc_scatters(c) && p != NULL) {
        void *copy = xmalloc((size_t)nd * es);
        memcpy(copy, data, (size_t)nd * es);
        check_status(sgk_execute(p, copy, upd, copy), "planned in place", o);
        compare(c, "planned in place", want, copy, o);
        memcpy(copy, data, (size_t)nd * es);
        const sgk_tensor in_place = {c->dtype, c->data_rank, c->data_shape, copy};
        check_status(one_shot(c, &in_place, &ix, &u, copy), "one-shot in place", o);
        compare(c, "one-shot in place", want, copy, o);
        free(copy);
    }
    sgk_plan_destroy(p);
    free(data), free(upd), free(idx), free(want), free(got);
}
