/* The normalized problem every front end produces for the planner: a
   destination of `slots` slots of `slice_len` elements and `count` (slot,
   position) pairs, pair n moving slice n of the updates (scatter) or of the
   output (gather).  Only the index map differs between operators. */
#ifndef SGK_PROBLEM_H
#define SGK_PROBLEM_H

#include <stdbool.h>
#include <stdint.h>

#include "sgk.h"

typedef enum {
    /* Pair n's slot is a k-tuple of coordinates (ScatterND, GatherND):
       indices[n, 0..k) index data dims [batch_dims, batch_dims + k), and
       pairs come in batches of rows_per_batch, batch b owning slots
       [b * slots_per_batch, (b + 1) * slots_per_batch). */
    SGK_MAP_TUPLES,
    /* Pair n is element n of indices (Scatter/GatherElements): its slot is
       the data element at n's own coordinates with the axis coordinate
       replaced by the index value. */
    SGK_MAP_ELEMENTS,
    /* Pair n writes position n % seq_len of the sequence row n / seq_len
       (TensorScatter): its slot is row * max_seq_len plus that position
       counted from the write index of batch n / rows_per_batch (0 without
       write indices), wrapped modulo max_seq_len when circular.  Only the
       batch's write index is read, once per row. */
    SGK_MAP_SEQUENCE
} sgk_map_kind;

typedef struct {
    sgk_map_kind kind;
    const sgk_tensor *indices; /* read while planning, and by one-shot
                                  lines plans during their one call;
                                  NULL for a sequence without write
                                  indices */
    const sgk_tensor *data;    /* its shape, for the bounds and messages */
    int batch_dims;            /* tuples */
    int k;                     /* tuples: coordinates per tuple */
    int64_t rows_per_batch;    /* tuples; sequence: pairs per batch */
    int64_t slots_per_batch;   /* tuples */
    bool shared_rows;          /* tuples: every batch reads the same index
                                  rows, pair n row n % rows_per_batch
                                  (Gather: the dimensions before the axis
                                  are batches taking the same indices) */
    int axis;                  /* elements and sequence, already normalized */
    int64_t row_len;           /* elements: 0 or 1, or the length of the rows
                                  moved whole (whole_rows.h): pair n is then
                                  the row starting at index element
                                  n * row_len */
    int64_t seq_len;           /* sequence: positions written per row */
    int64_t max_seq_len;       /* sequence: positions per row */
    bool circular;             /* sequence: positions wrap modulo max_seq_len,
                                  else they must fit */
} sgk_index_map;

typedef struct {
    const char *op;          /* "scatter_nd", ... : prefixes every message */
    bool scatter;
    sgk_dtype dtype;
    sgk_reduction reduction; /* NONE for gathers */
    uint32_t flags;
    int64_t data_elems;
    int64_t updates_elems;   /* 0 for gathers */
    int64_t output_elems;    /* data_elems for scatters */
    int64_t slice_len;       /* elements per slot */
    int64_t slots;           /* destination slots (scatter) or source slots (gather) */
    int64_t count;           /* pairs */
    bool distinct_slots;     /* the operator's rules leave no two pairs on
                                one slot (TensorScatter) */
    sgk_index_map map;
} sgk_problem;

#endif
