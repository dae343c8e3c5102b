/*
 * Reference implementation of the sgk operators: the sequential definition of
 * docs/semantics.md, one element at a time, each step applied by
 * tests/support/reference_cells.c.  Slow on purpose; every step is meant to
 * be checkable by reading it.
 */
#include "reference.h"

#include <string.h>

#include "common.h"

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
