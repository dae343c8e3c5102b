/* Reading single indices, for the index map (index_map.c) and for the
   messages that name an index out of range (index_errors.c). */
#ifndef SGK_INDEX_ERRORS_H
#define SGK_INDEX_ERRORS_H

#include <stdint.h>

#include "problem/problem.h"

static inline int64_t load_index(const sgk_tensor *indices, int64_t i)
{
    return indices->dtype == SGK_INT64 ? ((const int64_t *)indices->data)[i]
                                       : ((const int32_t *)indices->data)[i];
}

/* The index row pair n reads: with shared rows every batch starts again
   from row 0. */
static inline int64_t index_row(const sgk_index_map *m, int64_t n)
{
    return m->shared_rows && m->rows_per_batch > 0 ? n % m->rows_per_batch : n;
}

/* Sequence: the rows of each batch write from the batch's first position
   on; it is only read, and checked, once per row. */
static inline int64_t write_index(const sgk_index_map *m, int64_t batch)
{
    return m->indices == NULL ? 0 : load_index(m->indices, batch);
}

/* Where the rows of a batch start writing, or -1 when a linear write runs
   outside the row: [0, max_seq_len - seq_len] linear, the write index
   modulo max_seq_len (floored, as Python's %) circular.  Not inline: the
   sequence loop calls it once a row, and stays small. */
static int64_t first_position(const sgk_index_map *m, int64_t batch)
{
    const int64_t w = write_index(m, batch), max = m->max_seq_len;
    if (!m->circular)
        return w >= 0 && w <= max - m->seq_len ? w : -1;
    const int64_t r = w % max; /* max > 0: a batch with pairs has seq_len >= 1 */
    return r < 0 ? r + max : r;
}

/* Fails with SGK_ERR_INDEX_OUT_OF_RANGE naming pair n's index (for a
   sequence problem, its batch's write index), its position and value. */
sgk_status sgk_index_out_of_range(const sgk_problem *p, int64_t n);

#endif
