/* Indices out of range: the message naming the first bad one, and the
   write-index check of sequence problems without pairs. */
#include <stdio.h>

#include "runtime/error.h"
#include "problem/index_errors.h"
#include "problem/index_map.h"
#include "problem/shape.h"

/* Formats the multi-index of flat position `flat` within dims[0..rank). */
static const char *format_position(char *buf, size_t size, int64_t flat, const int64_t *dims,
                                   int rank)
{
    int64_t coords[SGK_MAX_RANK];
    for (int d = rank - 1; d >= 0; d--) {
        coords[d] = flat % dims[d];
        flat /= dims[d];
    }
    return sgk_format_dims(buf, size, coords, rank);
}

static sgk_status write_out_of_range(const sgk_problem *p, int64_t batch)
{
    const sgk_index_map *m = &p->map;
    const long long w = (long long)write_index(m, batch), len = (long long)m->seq_len;
    char shape[256];
    sgk_format_dims(shape, sizeof shape, m->data->shape, m->data->rank);
    return sgk_fail(SGK_ERR_INDEX_OUT_OF_RANGE, p->op,
                    "write_indices[%lld] = %lld: linear mode writes positions [%lld, %lld + %lld) "
                    "outside [0, %lld) (past_cache shape %s, axis %d)",
                    (long long)batch, w, w, w, len, (long long)m->max_seq_len, shape, m->axis);
}

sgk_status sgk_index_out_of_range(const sgk_problem *p, int64_t n)
{
    const sgk_index_map *m = &p->map;
    char pos[256], value[256], shape[256];
    sgk_format_dims(shape, sizeof shape, m->data->shape, m->data->rank);
    if (m->kind == SGK_MAP_SEQUENCE)
        return write_out_of_range(p, n / m->rows_per_batch);
    if (m->shared_rows) {
        const int64_t row = index_row(m, n);
        if (m->indices->rank == 0)
            pos[0] = '\0';
        else
            format_position(pos, sizeof pos, row, m->indices->shape, m->indices->rank);
        return sgk_fail(SGK_ERR_INDEX_OUT_OF_RANGE, p->op,
                        "indices%s = %lld out of range for axis %d of data shape %s", pos,
                        (long long)load_index(m->indices, row), m->batch_dims, shape);
    }
    if (m->kind == SGK_MAP_ELEMENTS) {
        /* a whole row's first element is the first bad one */
        if (m->row_len > 1)
            n *= m->row_len;
        format_position(pos, sizeof pos, n, m->indices->shape, m->indices->rank);
        return sgk_fail(SGK_ERR_INDEX_OUT_OF_RANGE, p->op,
                        "indices%s = %lld out of range for axis %d of data shape %s", pos,
                        (long long)load_index(m->indices, n), m->axis, shape);
    }
    int64_t tuple[SGK_MAX_RANK];
    for (int j = 0; j < m->k; j++)
        tuple[j] = load_index(m->indices, n * m->k + j);
    format_position(pos, sizeof pos, n, m->indices->shape, m->indices->rank - 1);
    sgk_format_dims(value, sizeof value, tuple, m->k);
    return sgk_fail(SGK_ERR_INDEX_OUT_OF_RANGE, p->op,
                    "indices%s = %s out of range for data shape %s%s", pos, value, shape,
                    m->batch_dims > 0 ? " after the batch dimensions" : "");
}

sgk_status sgk_check_write_indices(const sgk_problem *p)
{
    const sgk_index_map *m = &p->map;
    const int64_t batches = m->data->shape[0];
    for (int64_t b = 0; !m->circular && b < batches; b++)
        if (first_position(m, b) < 0)
            return write_out_of_range(p, b);
    return SGK_OK;
}
