/* Reads, validates and flattens index values for the planner. */
#ifndef SGK_INDEX_MAP_H
#define SGK_INDEX_MAP_H

#include "problem.h"

/* An index value c in [-dim, dim) as a coordinate in [0, dim) (callers
   mask the result of a value outside that range, or checked it before).
   Without a branch: each negative value mixed in at random would cost a
   mispredicted one (sgk-bench elementwise_add writes one coordinate in
   eight negative). */
static inline int64_t sgk_wrap_index(int64_t c, int64_t dim)
{
    return c + (dim & -(int64_t)(c < 0));
}

/* Fills slot[0..p->count) with each pair's slot, every coordinate checked
   against [-s, s-1] and normalized; or, when slot32 is not NULL, fills it
   instead (slot is then NULL), the caller having checked that every slot
   is below 2^31.  On a bad index returns
   SGK_ERR_INDEX_OUT_OF_RANGE naming the first bad pair in row-major order,
   its position and value, whatever the thread count. */
sgk_status sgk_map_indices(const sgk_problem *p, int64_t *slot, int32_t *slot32, int threads,
                           int64_t min_bytes);

/* For an Elements problem (row_len <= 1): checks every index against the
   axis, as sgk_map_indices does, without writing anything. */
sgk_status sgk_check_element_indices(const sgk_problem *p, int threads, int64_t min_bytes);

#endif
