/* The cases of tests/test_tiny.c (tiny_cases.h): values of every type,
   index values within each case's extents, and each operator's call and
   reference call on a case. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "common.h"
#include "reference.h"
#include "tiny_cases.h"
#include "sgk.h"

/* ---- values ----------------------------------------------------------------- */

static const char *const words[] = {"a", "bb", "ccc", "dddd", "eeeee", "ffffff"};

/* n elements of type t: small numbers (a NaN and a negative zero among
   floats, so that max/min and sign handling show), 0/1 for bool, pointers
   to static words for strings. */
void tiny_fill(tc_rng *r, sgk_dtype t, void *p, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        const double v = (double)tc_rng_range(r, -9, 9) * 0.75;
        const bool nan = tc_rng_percent(r, 5), nzero = tc_rng_percent(r, 5);
        const double f = nan ? (double)NAN : nzero ? -0.0 : v;
        switch (t) {
        case SGK_BOOL: ((uint8_t *)p)[i] = (uint8_t)tc_rng_below(r, 2); break;
        case SGK_INT8: case SGK_UINT8: ((uint8_t *)p)[i] = (uint8_t)tc_rng_next(r); break;
        case SGK_INT16: case SGK_UINT16: ((uint16_t *)p)[i] = (uint16_t)tc_rng_next(r); break;
        case SGK_INT32: case SGK_UINT32: ((uint32_t *)p)[i] = (uint32_t)tc_rng_next(r); break;
        case SGK_INT64: case SGK_UINT64: ((uint64_t *)p)[i] = tc_rng_next(r); break;
        case SGK_FLOAT16: ((uint16_t *)p)[i] = ref_f32_to_f16((float)f); break;
        case SGK_BFLOAT16: ((uint16_t *)p)[i] = ref_f32_to_bf16((float)f); break;
        case SGK_FLOAT32: ((float *)p)[i] = (float)f; break;
        case SGK_FLOAT64: ((double *)p)[i] = f; break;
        case SGK_COMPLEX64: ((float *)p)[2 * i] = (float)f, ((float *)p)[2 * i + 1] = (float)v; break;
        case SGK_COMPLEX128: ((double *)p)[2 * i] = f, ((double *)p)[2 * i + 1] = v; break;
        case SGK_STRING: ((const char **)p)[i] = words[tc_rng_below(r, 6)]; break;
        }
    }
}

void tiny_fill_indices(tc_rng *r, int64_t *idx, int64_t n, int64_t dim, bool positive_only)
{
    for (int64_t i = 0; i < n; i++) {
        idx[i] = tc_rng_below(r, dim);
        if (!positive_only && tc_rng_percent(r, 25))
            idx[i] -= dim;
    }
}

/* ---- one case --------------------------------------------------------------- */


/* The extent index element i must stay within. */
int64_t tiny_index_dim(const shape_case *s, int64_t i)
{
    if (s->op == OP_SEL || s->op == OP_GEL || s->op == OP_GAT) {
        const int64_t axis = s->attr < 0 ? s->attr + s->data_rank : s->attr;
        return s->data_shape[axis];
    }
    const int64_t k = s->index_shape[s->index_rank - 1];
    const int64_t b = s->op == OP_GND ? s->attr : 0;
    return s->data_shape[b + i % k];
}

void tiny_fill_case_indices(tc_rng *r, const shape_case *s, int64_t *idx, int64_t n,
                       bool positive_only)
{
    for (int64_t i = 0; i < n; i++)
        tiny_fill_indices(r, idx + i, 1, tiny_index_dim(s, i), positive_only);
}

/* Output shape and element count. */
int64_t tiny_output_elems(const shape_case *s)
{
    if (s->op == OP_SND || s->op == OP_SEL)
        return tc_numel(s->data_rank, s->data_shape);
    if (s->op == OP_GEL)
        return tc_numel(s->index_rank, s->index_shape);
    if (s->op == OP_GAT)
        /* data.shape[:axis] ++ indices.shape ++ data.shape[axis+1:] */
        return tc_numel(s->data_rank, s->data_shape) / tiny_index_dim(s, 0) *
               tc_numel(s->index_rank, s->index_shape);
    const int64_t k = s->index_shape[s->index_rank - 1], b = s->attr;
    return tc_numel(s->index_rank - 1, s->index_shape) *
           tc_numel((int32_t)(s->data_rank - b - k), s->data_shape + b + k);
}

/* Updates' shape for ScatterND: indices.shape[:-1] ++ data.shape[k:];
   rank 0 for gathers, which have none. */
int32_t tiny_updates_shape(const shape_case *s, int64_t *shape)
{
    if (s->op != OP_SND && s->op != OP_SEL)
        return 0;
    if (s->op == OP_SEL) {
        memcpy(shape, s->index_shape, sizeof s->index_shape);
        return s->index_rank;
    }
    const int64_t k = s->index_shape[s->index_rank - 1];
    int32_t rank = 0;
    for (int d = 0; d < s->index_rank - 1; d++)
        shape[rank++] = s->index_shape[d];
    for (int d = (int)k; d < s->data_rank; d++)
        shape[rank++] = s->data_shape[d];
    return rank;
}

sgk_status tiny_call(const shape_case *s, const sgk_tensor *data, const sgk_tensor *indices,
                const sgk_tensor *updates, sgk_reduction red, void *out)
{
    switch (s->op) {
    case OP_SND: return sgk_scatter_nd(data, indices, updates, red, out);
    case OP_SEL: return sgk_scatter_elements(data, indices, updates, s->attr, red, out);
    case OP_GND: return sgk_gather_nd(data, indices, s->attr, out);
    case OP_GAT: return sgk_gather(data, indices, s->attr, out);
    default: return sgk_gather_elements(data, indices, s->attr, out);
    }
}

void tiny_reference(const shape_case *s, const sgk_tensor *data, const sgk_tensor *indices,
               const sgk_tensor *updates, sgk_reduction red, void *out)
{
    switch (s->op) {
    case OP_SND: ref_scatter_nd(data, indices, updates, red, out); break;
    case OP_SEL: ref_scatter_elements(data, indices, updates, s->attr, red, out); break;
    case OP_GND: ref_gather_nd(data, indices, s->attr, out); break;
    case OP_GAT: ref_gather(data, indices, s->attr, out); break;
    default: ref_gather_elements(data, indices, s->attr, out); break;
    }
}

const char *tiny_op_name(int op)
{
    static const char *const names[] = {"scatter_nd", "scatter_elements", "gather_nd",
                                        "gather_elements", "gather"};
    return names[op];
}
