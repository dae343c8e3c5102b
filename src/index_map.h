/* Reads, validates and flattens index values: the planner's first step. */
#ifndef SGK_INDEX_MAP_H
#define SGK_INDEX_MAP_H

#include "problem.h"

/* Fills slot[0..p->count) with each pair's slot, every coordinate checked
   against [-s, s-1] and normalized.  On a bad index returns
   SGK_ERR_INDEX_OUT_OF_RANGE with the position and value in the message. */
sgk_status sgk_map_indices(const sgk_problem *p, int64_t *slot);

#endif
