/* Reductions out = f(out, update) for every (dtype, reduction) cell the
   semantics define (docs/semantics.md), in the exact arithmetic the
   sequential definition prescribes. */
#ifndef SGK_REDUCE_H
#define SGK_REDUCE_H

#include <stdint.h>

#include "sgk.h"

/* Applies pairs [begin, end) in order: for each i, elements [0, width) of
   the slice at dst + slot[i] * stride = f(them, the same elements of the
   slice at src + pos[i] * stride), pos NULL meaning i.  Strides and widths
   count elements; a whole slice has width == stride. */
typedef void (*sgk_apply_fn)(void *dst, const int64_t *slot, const void *src,
                             const int64_t *pos, int64_t begin, int64_t end, int64_t stride,
                             int64_t width);

/* For defining kernels: sgk_apply_fn's parameters, and its plain loop,
   which runs the statements given for element e of each pair's slices,
   d[e] and s[e] as T. */
#define SGK_APPLY_PARAMS                                                          \
    void *dst_, const int64_t *slot, const void *src_, const int64_t *pos,        \
        int64_t begin, int64_t end, int64_t stride, int64_t width
#define SGK_FOR_EACH_PAIR_ELEMENT(T, ...)                                         \
    for (int64_t i = begin; i < end; i++) {                                       \
        T *d = (T *)dst_ + slot[i] * stride;                                      \
        const T *s = (const T *)src_ + (pos != NULL ? pos[i] : i) * stride;       \
        for (int64_t e = 0; e < width; e++) {                                     \
            __VA_ARGS__                                                           \
        }                                                                         \
    }

/* The reduction kernel of a cell: SGK_OK with *kernel set, NULL for NONE
   (its updates are moved, not reduced: sgk_apply_pairs); or
   SGK_ERR_UNSUPPORTED for a cell the semantics leave undefined, which front
   ends reject before planning. */
sgk_status sgk_apply_kernel(sgk_dtype dtype, sgk_reduction reduction, sgk_apply_fn *kernel);

/* Blocks of at most 65536 single elements: a pair's slot in its block fits
   16 bits, a quarter of the bytes an int64 slot costs every execution. */
#define SGK_SLOT16_BLOCK (UINT16_MAX + 1)

/* The single-element form of sgk_apply_fn for such a block: for each pair
   i in [begin, end), in order, block[slot[i]] = f(block[slot[i]], src[pos ?
   pos[i] : i]); for NONE, block[slot[i]] = that update. */
typedef void (*sgk_apply16_fn)(void *block, const uint16_t *slot, const void *src,
                               const int64_t *pos, int64_t begin, int64_t end);

/* NULL where there is none: unsupported cells, and complex reductions
   (kept in their slice loop, see reduce.c). */
sgk_apply16_fn sgk_apply16_kernel(sgk_dtype dtype, sgk_reduction reduction);

/* fp16/bf16 add/sub/mul with a float32 accumulator: acc[i] = f(acc[i], src[i])
   with src widened; the caller rounds acc once. NULL for other cells. */
typedef void (*sgk_widen_reduce_fn)(float *acc, const void *src, int64_t n);
sgk_widen_reduce_fn sgk_widen_reduce_kernel(sgk_dtype dtype, sgk_reduction reduction);

#endif
