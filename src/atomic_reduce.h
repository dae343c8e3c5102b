/* Lock-free per-element reductions for the atomic path: many threads apply
   pairs at once, in no particular order, straight into the output. */
#ifndef SGK_ATOMIC_REDUCE_H
#define SGK_ATOMIC_REDUCE_H

#include <stdbool.h>

#include "reduce.h"

/* The kernel has sgk_apply_fn's contract except that pairs may run
   concurrently from several threads and in any order: each element is
   updated with one atomic read-modify-write.  NULL for NONE and where no
   lock-free form exists (complex128 mul needs a 16-byte compare-and-swap). */
sgk_apply_fn sgk_atomic_apply_kernel(sgk_dtype dtype, sgk_reduction reduction);

/* Whether applying a cell's updates in any order gives the same bytes as
   the sequential loop: integer arithmetic wraps and commutes, and bool
   or/xor/and commute.  Float results depend on the order through rounding,
   and float max/min through which of +0/-0 or of two NaNs is kept. */
bool sgk_reduction_commutes(sgk_dtype dtype, sgk_reduction reduction);

#endif
