/*
 * Random values and indices for the randomized tests (tests/test_random.c,
 * tests/soak.c), drawn from a tc_rng so that a case reproduces from its
 * seed.  Nothing here calls the library or cmocka: the soak's worker
 * threads draw from it.
 */
#ifndef SGK_TESTS_RANDOM_VALUES_H
#define SGK_TESTS_RANDOM_VALUES_H

#include <stdint.h>

#include "common.h"
#include "sgk.h"

/* One element of dtype at p: small integers, general values, signed zeros,
   infinities, NaNs, each type's edges (MIN/MAX and their neighbours, the
   largest finite and subnormal halves, rounding ties, odd bool bytes) and
   NULL strings. */
void random_value(tc_rng *r, sgk_dtype dtype, void *p);
/* n such elements, in a buffer to free. */
void *random_buffer(tc_rng *r, sgk_dtype dtype, int64_t n);
/* n index values of type idtype (int32 or int64), the i-th in [-s, s-1]
   for s = dim_of[i % period]: uniform, or (skewed) mostly a few
   favourites, to force duplicates.  In a buffer to free. */
void *random_indices(tc_rng *r, sgk_dtype idtype, int64_t n, const int64_t *dim_of,
                     int64_t period, int skewed);

#endif
