/* Reads, validates and flattens index values for the planner. */
#ifndef SGK_INDEX_MAP_H
#define SGK_INDEX_MAP_H

#include "problem/index_math.h"
#include "problem/problem.h"

/* Fills slot[0..p->count) with each pair's slot, every coordinate checked
   against [-s, s-1] and normalized; or, when slot32 is not NULL, fills it
   instead (slot is then NULL), the caller having checked that every slot
   is below 2^31.  On a bad index returns
   SGK_ERR_INDEX_OUT_OF_RANGE naming the first bad pair in row-major order,
   its position and value, whatever the thread count. */
sgk_status sgk_map_indices(const sgk_problem *p, int64_t *slot, int32_t *slot32, int threads,
                           int64_t min_bytes);

/* The slots of pairs [begin, end) into slot[0, end - begin), checked as
   sgk_map_indices checks them, on the calling thread: for one-shot calls
   that work their slots out a batch at a time.  A bad index fails with
   the first bad pair of the range. */
sgk_status sgk_map_index_range(const sgk_problem *p, int64_t begin, int64_t end, int64_t *slot);

/* Pairs [begin, end)'s slots, checked as sgk_map_index_range checks
   them: the int64 index values themselves where they are the slots (one
   coordinate into the whole destination: ScatterND or GatherND with
   k == 1 and no batch dimensions, an Elements call on rank-1 data; every
   value in [0, slots)), else mapped into slot[0, end - begin).  NULL on a
   bad index, which sgk_map_index_range then reports. */
const int64_t *sgk_slots_of_range(const sgk_problem *p, int64_t begin, int64_t end,
                                  int64_t *slot);

/* The index bytes one pair reads: its k coordinates (one for Elements),
   none for a sequence problem or one without indices. */
int64_t sgk_index_bytes_per_pair(const sgk_problem *p);

/* The index bytes pairs [begin, end) read, when they lie in pair order in
   one span (tuples of their own rows, Elements indices): its start, its
   length in *bytes; else NULL.  For fetching them ahead. */
const uint8_t *sgk_index_span(const sgk_problem *p, int64_t begin, int64_t end, size_t *bytes);

/* For an Elements problem (row_len <= 1): checks every index against the
   axis, as sgk_map_indices does, writing nothing but, when col is not
   NULL, col[n]: the n-th index wrapped into [0, dim), for an axis of at
   most 65536 slots. */
sgk_status sgk_check_element_indices(const sgk_problem *p, int threads, int64_t min_bytes,
                                     uint16_t *col);

/* For a sequence problem (TensorScatter): checks every batch's write
   index, as sgk_map_indices does, without writing anything: for problems
   without pairs, whose write indices planning never reads. */
sgk_status sgk_check_write_indices(const sgk_problem *p);

#endif
