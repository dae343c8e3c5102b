/*
 * Counting and printing the elements of a result that differ from the
 * expected ones, as the reduction cell judges them (ref_same_result: bit
 * for bit, except what the semantics leave open, such as a NaN's payload).
 * Shared by tests/test_reductions.c and tests/test_reduction_literals.c.
 */
#ifndef SGK_TESTS_RESULT_DIFF_H
#define SGK_TESTS_RESULT_DIFF_H

#include <stdint.h>

#include "sgk.h"

/* The number of the n elements of actual that differ from expected; each
   is printed under "FAIL <what> dtype=... reduction=...".  SGK_REDUCE_NONE
   demands the exact bytes. */
int count_result_differences(const char *what, sgk_dtype dtype, sgk_reduction red,
                             const void *expected, const void *actual, int64_t n);

#endif
