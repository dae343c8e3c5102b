#include <stdio.h>

#include "error.h"
#include "index_map.h"
#include "shape.h"

/* Formats the multi-index of flat position `flat` within dims[0..rank). */
static const char *format_position(char *buf, size_t size, int64_t flat, const int64_t *dims,
                                   int rank)
{
    int64_t coords[SGK_MAX_RANK];
    for (int d = rank - 1; d >= 0; d--) {
        coords[d] = dims[d] > 0 ? flat % dims[d] : 0;
        flat = dims[d] > 0 ? flat / dims[d] : 0;
    }
    return sgk_format_dims(buf, size, coords, rank);
}

#define LOAD_INDEX(idx, i) \
    (is64 ? ((const int64_t *)(idx)->data)[i] : (int64_t)((const int32_t *)(idx)->data)[i])

static sgk_status tuple_out_of_range(const sgk_problem *p, int64_t n)
{
    const sgk_index_map *m = &p->map;
    bool is64 = m->indices->dtype == SGK_INT64;
    int64_t tuple[SGK_MAX_RANK];
    for (int j = 0; j < m->k; j++)
        tuple[j] = LOAD_INDEX(m->indices, n * m->k + j);
    char pos[128], value[256], shape[256];
    format_position(pos, sizeof pos, n, m->indices->shape, m->indices->rank - 1);
    sgk_format_dims(value, sizeof value, tuple, m->k);
    sgk_format_dims(shape, sizeof shape, m->data->shape, m->data->rank);
    return sgk_fail(SGK_ERR_INDEX_OUT_OF_RANGE, p->op,
                    "indices%s = %s out of range for data shape %s%s", pos, value, shape,
                    m->batch_dims > 0 ? " after the batch dimensions" : "");
}

static sgk_status map_tuples(const sgk_problem *p, int64_t *slot)
{
    const sgk_index_map *m = &p->map;
    const int64_t *dims = m->data->shape + m->batch_dims;
    const bool is64 = m->indices->dtype == SGK_INT64;
    int64_t stride[SGK_MAX_RANK];
    int64_t s = 1;
    for (int j = m->k - 1; j >= 0; j--) {
        stride[j] = s;
        s *= dims[j];
    }
    for (int64_t n = 0; n < p->count; n++) {
        int64_t flat = m->rows_per_batch > 0 ? n / m->rows_per_batch * m->slots_per_batch : 0;
        for (int j = 0; j < m->k; j++) {
            int64_t c = LOAD_INDEX(m->indices, n * m->k + j);
            if (c < -dims[j] || c >= dims[j])
                return tuple_out_of_range(p, n);
            flat += (c < 0 ? c + dims[j] : c) * stride[j];
        }
        slot[n] = flat;
    }
    return SGK_OK;
}

static sgk_status map_elements(const sgk_problem *p, int64_t *slot)
{
    const sgk_index_map *m = &p->map;
    const int rank = m->data->rank;
    const int64_t *idims = m->indices->shape;
    const int64_t axis_dim = m->data->shape[m->axis];
    const bool is64 = m->indices->dtype == SGK_INT64;
    int64_t stride[SGK_MAX_RANK], coord[SGK_MAX_RANK] = {0};
    int64_t s = 1;
    for (int d = rank - 1; d >= 0; d--) {
        stride[d] = s;
        s *= m->data->shape[d];
    }
    /* base: the offset of n's own coordinates with the axis coordinate at 0,
       advanced like an odometer as n walks the indices row-major. */
    int64_t base = 0;
    for (int64_t n = 0; n < p->count; n++) {
        int64_t c = LOAD_INDEX(m->indices, n);
        if (c < -axis_dim || c >= axis_dim) {
            char pos[256], shape[256];
            sgk_format_dims(pos, sizeof pos, coord, rank);
            sgk_format_dims(shape, sizeof shape, m->data->shape, rank);
            return sgk_fail(SGK_ERR_INDEX_OUT_OF_RANGE, p->op,
                            "indices%s = %lld out of range for axis %d of data shape %s", pos,
                            (long long)c, m->axis, shape);
        }
        slot[n] = base + (c < 0 ? c + axis_dim : c) * stride[m->axis];
        for (int d = rank - 1; d >= 0; d--) {
            if (++coord[d] < idims[d]) {
                if (d != m->axis)
                    base += stride[d];
                break;
            }
            if (d != m->axis)
                base -= (coord[d] - 1) * stride[d];
            coord[d] = 0;
        }
    }
    return SGK_OK;
}

sgk_status sgk_map_indices(const sgk_problem *p, int64_t *slot)
{
    return p->map.kind == SGK_MAP_TUPLES ? map_tuples(p, slot) : map_elements(p, slot);
}
