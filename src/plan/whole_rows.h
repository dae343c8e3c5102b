/* Scatter/GatherElements whose index moves whole rows. */
#ifndef SGK_WHOLE_ROWS_H
#define SGK_WHOLE_ROWS_H

#include "problem/problem.h"

/* When p is an Elements problem whose index value is the same along every
   dimension after the axis, and those dimensions are as long in indices as
   in data, each run of such elements moves one contiguous row of data:
   rewrites *p to move rows of that many elements (fewer pairs, longer
   slices, the same result) and returns true.  Otherwise leaves *p alone.
   Reads the index values once at most, in parallel, stopping at the first
   row whose values differ.  When it rewrites, the index map reads one index
   per row; when a row differs late, the indices are read nearly twice. */
bool sgk_rewrite_as_whole_rows(sgk_problem *p, int threads, int64_t min_bytes);

#endif
