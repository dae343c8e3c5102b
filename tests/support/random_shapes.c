/*
 * Random shapes and index values (tests/support/random_shapes.h).  The
 * draws are made in a fixed order, so a case reproduces from its seed; a
 * change of order here changes every case test_random runs.
 */
#include <stdint.h>
#include <string.h>

#include "common.h"
#include "random_shapes.h"
#include "random_values.h"

static int64_t random_dim(tc_rng *r, const shape_limits *l, int64_t hi)
{
    return l->empty_dims && tc_rng_percent(r, 5) ? 0 : tc_rng_range(r, 1, hi);
}

void random_shapes_count(random_shapes *s)
{
    s->dn = tc_numel(s->drank, s->dshape);
    s->in = tc_numel(s->irank, s->ishape);
    s->un = tc_numel(s->urank, s->ushape);
    s->on = tc_numel(s->orank, s->oshape);
}

/* Data dimensions that k index components address must not be empty while
   there are indices to address them. */
static void fill_addressed_dims(random_shapes *s, tc_rng *r, const shape_limits *l,
                                int32_t first, int64_t k)
{
    if (tc_numel(s->irank - 1, s->ishape) == 0)
        return;
    for (int64_t j = 0; j < k; j++)
        if (s->dshape[first + j] == 0)
            s->dshape[first + j] = tc_rng_range(r, 1, l->max_dim);
}

void random_scatter_nd_shapes(random_shapes *s, tc_rng *r, const shape_limits *l)
{
    s->drank = (int32_t)tc_rng_range(r, 1, l->max_rank);
    for (int32_t d = 0; d < s->drank; d++)
        s->dshape[d] = random_dim(r, l, l->max_dim);
    int64_t k = tc_rng_range(r, 1, s->drank);
    s->irank = (int32_t)tc_rng_range(r, 1, l->max_index_rank);
    for (int32_t d = 0; d + 1 < s->irank; d++)
        s->ishape[d] = random_dim(r, l, l->max_index_dim);
    s->ishape[s->irank - 1] = k;
    fill_addressed_dims(s, r, l, 0, k);
    s->urank = 0;
    for (int32_t d = 0; d + 1 < s->irank; d++)
        s->ushape[s->urank++] = s->ishape[d];
    for (int32_t d = (int32_t)k; d < s->drank; d++)
        s->ushape[s->urank++] = s->dshape[d];
    if (s->urank == 0 && tc_rng_percent(r, 50)) {
        s->urank = 1;
        s->ushape[0] = 1;
    }
    random_shapes_count(s);
    s->indices = random_indices(r, s->idtype, s->in, s->dshape, k, tc_rng_percent(r, 30));
}

void random_gather_nd_shapes(random_shapes *s, tc_rng *r, const shape_limits *l)
{
    s->drank = (int32_t)tc_rng_range(r, 1, l->max_rank);
    for (int32_t d = 0; d < s->drank; d++)
        s->dshape[d] = random_dim(r, l, l->max_dim);
    s->irank = (int32_t)tc_rng_range(r, 1, l->max_index_rank);
    int32_t b = (int32_t)tc_rng_range(r, 0, (s->irank < s->drank ? s->irank : s->drank) - 1);
    int64_t k = tc_rng_range(r, 1, s->drank - b);
    s->batch_dims = b;
    for (int32_t d = 0; d < b; d++)
        s->ishape[d] = s->dshape[d];
    for (int32_t d = b; d + 1 < s->irank; d++)
        s->ishape[d] = random_dim(r, l, l->max_index_dim);
    s->ishape[s->irank - 1] = k;
    fill_addressed_dims(s, r, l, b, k);
    s->orank = 0;
    for (int32_t d = 0; d + 1 < s->irank; d++)
        s->oshape[s->orank++] = s->ishape[d];
    for (int32_t d = b + (int32_t)k; d < s->drank; d++)
        s->oshape[s->orank++] = s->dshape[d];
    random_shapes_count(s);
    s->indices = random_indices(r, s->idtype, s->in, s->dshape + b, k, tc_rng_percent(r, 30));
}

/* Every index element takes the value of the first element of its row
   (the dimensions after the axis): an index broadcast along them. */
static void broadcast_along_rows(random_shapes *s, int32_t ax)
{
    int64_t row = 1;
    for (int32_t d = ax + 1; d < s->irank; d++)
        row *= s->ishape[d];
    size_t is = s->idtype == SGK_INT32 ? 4 : 8;
    char *idx = s->indices;
    for (int64_t i = 0; row > 1 && i < s->in; i++)
        memmove(idx + (size_t)i * is, idx + (size_t)(i / row * row) * is, is);
}

void random_elements_shapes(random_shapes *s, tc_rng *r, const shape_limits *l)
{
    s->drank = (int32_t)tc_rng_range(r, 1, l->max_rank);
    for (int32_t d = 0; d < s->drank; d++)
        s->dshape[d] = random_dim(r, l, l->max_dim);
    s->axis = tc_rng_range(r, -s->drank, s->drank - 1);
    int32_t ax = (int32_t)(s->axis < 0 ? s->axis + s->drank : s->axis);
    int lines = l->lines_percent > 0 && tc_rng_percent(r, l->lines_percent);
    s->irank = s->drank;
    for (int32_t d = 0; d < s->drank; d++)
        s->ishape[d] = d == ax  ? random_dim(r, l, l->max_axis_len)
                       : lines ? s->dshape[d]
                               : tc_rng_range(r, l->empty_dims ? 0 : 1, s->dshape[d]);
    int rows = tc_rng_percent(r, 33);
    for (int32_t d = ax + 1; rows && d < s->drank; d++)
        s->ishape[d] = s->dshape[d];
    if (s->dshape[ax] == 0 && tc_numel(s->irank, s->ishape) > 0) {
        if (tc_rng_percent(r, 50))
            s->ishape[ax] = 0;
        else
            s->dshape[ax] = tc_rng_range(r, 1, l->max_dim);
    }
    s->urank = s->orank = s->irank;
    memcpy(s->ushape, s->ishape, sizeof s->ishape);
    memcpy(s->oshape, s->ishape, sizeof s->ishape);
    random_shapes_count(s);
    s->indices = random_indices(r, s->idtype, s->in, &s->dshape[ax], 1, tc_rng_percent(r, 30));
    if (rows)
        broadcast_along_rows(s, ax);
}

void random_gather_shapes(random_shapes *s, tc_rng *r, const shape_limits *l)
{
    s->drank = (int32_t)tc_rng_range(r, 1, l->max_rank);
    for (int32_t d = 0; d < s->drank; d++)
        s->dshape[d] = tc_rng_range(r, 1, l->max_dim);
    s->axis = tc_rng_range(r, -s->drank, s->drank - 1);
    int32_t ax = (int32_t)(s->axis < 0 ? s->axis + s->drank : s->axis);
    s->irank = (int32_t)tc_rng_range(r, 1, l->max_index_rank);
    for (int32_t d = 0; d < s->irank; d++)
        s->ishape[d] = tc_rng_range(r, 1, l->max_index_dim);
    s->orank = 0;
    for (int32_t d = 0; d < ax; d++)
        s->oshape[s->orank++] = s->dshape[d];
    for (int32_t d = 0; d < s->irank; d++)
        s->oshape[s->orank++] = s->ishape[d];
    for (int32_t d = ax + 1; d < s->drank; d++)
        s->oshape[s->orank++] = s->dshape[d];
    random_shapes_count(s);
    s->indices = random_indices(r, s->idtype, s->in, &s->dshape[ax], 1, tc_rng_percent(r, 30));
}

void random_tensor_scatter_shapes(random_shapes *s, tc_rng *r, const shape_limits *l)
{
    s->drank = (int32_t)tc_rng_range(r, 3, 4);
    int32_t ax = s->drank - 2;
    for (int32_t d = 0; d < s->drank; d++)
        s->dshape[d] = tc_rng_range(r, 1, d == ax ? l->max_index_dim : l->max_dim);
    s->axis = tc_rng_percent(r, 50) ? -2 : ax;
    s->mode = tc_rng_percent(r, 50) ? SGK_TENSOR_SCATTER_CIRCULAR : SGK_TENSOR_SCATTER_LINEAR;
    s->urank = s->drank;
    memcpy(s->ushape, s->dshape, sizeof s->dshape);
    int64_t max_seq = s->dshape[ax];
    int64_t seq = tc_rng_percent(r, 40) ? 1 : tc_rng_range(r, 1, max_seq);
    s->ushape[ax] = seq;
    s->irank = 1;
    s->ishape[0] = s->dshape[0];
    random_shapes_count(s);
    if (tc_rng_percent(r, 15)) {
        s->indices = NULL; /* every batch written from 0 */
        return;
    }
    /* Linear writes must fit; circular ones wrap, from any offset. */
    size_t is = s->idtype == SGK_INT32 ? 4 : 8;
    char *buf = xmalloc((size_t)s->in * is);
    for (int64_t b = 0; b < s->in; b++) {
        int64_t w = s->mode == SGK_TENSOR_SCATTER_LINEAR
                        ? tc_rng_range(r, 0, max_seq - seq)
                        : tc_rng_range(r, -2 * max_seq, 2 * max_seq);
        int32_t w32 = (int32_t)w;
        memcpy(buf + (size_t)b * is, is == 4 ? (void *)&w32 : (void *)&w, is);
    }
    s->indices = buf;
}
