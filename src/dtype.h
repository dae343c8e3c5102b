/* Element types and reductions: sizes, names, which pairs are defined. */
#ifndef SGK_DTYPE_H
#define SGK_DTYPE_H

#include <stdbool.h>

#include "sgk.h"

bool sgk_dtype_valid(sgk_dtype dtype);
const char *sgk_dtype_name(sgk_dtype dtype);
bool sgk_reduction_valid(sgk_reduction reduction);
const char *sgk_reduction_name(sgk_reduction reduction);
/* The defined cells of DESIGN.md §2's table. */
bool sgk_reduction_supported(sgk_dtype dtype, sgk_reduction reduction);

#endif
