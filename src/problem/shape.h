/* Tensor descriptors: validation, overflow-checked sizes, printing. */
#ifndef SGK_SHAPE_H
#define SGK_SHAPE_H

#include <stdbool.h>
#include <stddef.h>

#include "sgk.h"

/* Checks t's pointer, dtype, rank and dimensions, and that every product of
   its non-zero dimensions, also in bytes, fits in int64_t (so no sub-product
   can overflow later).  needs_data: the element buffer must be present when
   the tensor has elements.  Stores the element count. */
sgk_status sgk_check_tensor(const char *op, const char *role, const sgk_tensor *t,
                            bool needs_data, int64_t *count);

/* The same checks on bare dimensions (a shape sgk computes, such as an
   output's). */
sgk_status sgk_check_dims(const char *op, const char *role, const int64_t *dims, int rank,
                          size_t elem_size, int64_t *count);

/* Product of shape[from..to); callers pass a shape sgk_check_tensor accepted. */
int64_t sgk_shape_product(const int64_t *shape, int from, int to);

bool sgk_shapes_equal(const int64_t *a, const int64_t *b, int rank);

/* Writes "[d0, d1, ...]" into buf (truncated with "..." if too long). */
const char *sgk_format_dims(char *buf, size_t size, const int64_t *dims, int rank);

#endif
