/* Index arithmetic the planner and the paths share. */
#ifndef SGK_INDEX_MATH_H
#define SGK_INDEX_MATH_H

#include <stdint.h>

/* An index value c in [-dim, dim) as a coordinate in [0, dim) (callers
   mask the result of a value outside that range, or checked it before).
   Without a branch: each negative value mixed in at random would cost a
   mispredicted one (sgk-bench elementwise_add writes one coordinate in
   eight negative). */
static inline int64_t sgk_wrap_index(int64_t c, int64_t dim)
{
    return c + (dim & -(int64_t)(c < 0));
}

#endif
