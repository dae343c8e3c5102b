/* Element types and reductions: sizes, names, which pairs are defined. */
#ifndef SGK_DTYPE_H
#define SGK_DTYPE_H

#include <stdbool.h>

#include "sgk.h"

bool sgk_dtype_valid(sgk_dtype dtype);
const char *sgk_dtype_name(sgk_dtype dtype);
bool sgk_reduction_valid(sgk_reduction reduction);
const char *sgk_reduction_name(sgk_reduction reduction);
/* Whether the README ("Semantics, stated plainly") defines the cell: every
   type with none, complex without max/min, strings with none only. */
bool sgk_reduction_supported(sgk_dtype dtype, sgk_reduction reduction);

#endif
