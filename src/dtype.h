/* Element types and reductions: sizes, names, which pairs are defined. */
#ifndef SGK_DTYPE_H
#define SGK_DTYPE_H

#include <stdbool.h>
#include <stddef.h>

#include "sgk.h"

bool sgk_dtype_valid(sgk_dtype dtype);
/* sgk_dtype_size, inline: the exported one is reached through the PLT,
   and a tiny call asks for sizes several times. */
static inline size_t sgk_elem_size(sgk_dtype dtype)
{
    switch (dtype) {
    case SGK_BOOL: case SGK_INT8: case SGK_UINT8: return 1;
    case SGK_INT16: case SGK_UINT16: case SGK_FLOAT16: case SGK_BFLOAT16: return 2;
    case SGK_INT32: case SGK_UINT32: case SGK_FLOAT32: return 4;
    case SGK_INT64: case SGK_UINT64: case SGK_FLOAT64: case SGK_COMPLEX64: return 8;
    case SGK_COMPLEX128: return 16;
    case SGK_STRING: return sizeof(const char *);
    }
    return 0;
}
const char *sgk_dtype_name(sgk_dtype dtype);
bool sgk_reduction_valid(sgk_reduction reduction);
const char *sgk_reduction_name(sgk_reduction reduction);
/* Whether the semantics (docs/semantics.md) define the cell: every
   type with none, complex without max/min, strings with none only. */
bool sgk_reduction_supported(sgk_dtype dtype, sgk_reduction reduction);

#endif
