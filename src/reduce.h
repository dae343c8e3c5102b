/* Element-wise reductions dst[i] = f(dst[i], src[i]) for every defined
   (dtype, reduction) cell of DESIGN.md §2, in the exact arithmetic the
   sequential definition prescribes. */
#ifndef SGK_REDUCE_H
#define SGK_REDUCE_H

#include <stdint.h>

#include "sgk.h"

typedef void (*sgk_reduce_fn)(void *dst, const void *src, int64_t n);

/* NULL for NONE (a copy) and for unsupported cells. */
sgk_reduce_fn sgk_reduce_kernel(sgk_dtype dtype, sgk_reduction reduction);

/* fp16/bf16 add/sub/mul with a float32 accumulator: acc[i] = f(acc[i], src[i])
   with src widened; the caller rounds acc once. NULL for other cells. */
typedef void (*sgk_widen_reduce_fn)(float *acc, const void *src, int64_t n);
sgk_widen_reduce_fn sgk_widen_reduce_kernel(sgk_dtype dtype, sgk_reduction reduction);

#endif
