/* Lock-free per-element reductions for the atomic path: many threads apply
   pairs at once, in no particular order, straight into the output. */
#ifndef SGK_ATOMIC_REDUCE_H
#define SGK_ATOMIC_REDUCE_H

#include <stdbool.h>

#include "kernels/reduce.h"

/* The kernel has sgk_apply_fn's contract except that pairs may run
   concurrently from several threads and in any order: each element is
   updated with one atomic read-modify-write.  NULL for NONE and where no
   lock-free form exists (complex128 mul needs a 16-byte compare-and-swap). */
sgk_apply_fn sgk_atomic_apply_kernel(sgk_dtype dtype, sgk_reduction reduction);

#endif
