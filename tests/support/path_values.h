/*
 * The element values of tests/test_paths.c's scatter cases, chosen per
 * reduction so that each check has teeth:
 *   - add/sub on fp16/bf16: small integers, so that every order of the sums
 *     is exact (tolerance.c's exactness clause) and a missing update shows;
 *   - add/sub otherwise: full-mantissa values over 2^-8..2^8, small
 *     integers and signed zeros (rounding shows in the low bits);
 *   - mul: factors near 1 (1 +- [2^-10, 2^-5], full mantissa) so that no
 *     order over- or underflows; on fp16/bf16 +-1 with rare +-2 and +-0.5,
 *     exact in every order;
 *   - max/min: few distinct values, +0 and -0, infinities: ties everywhere;
 *   - none: any bit pattern.
 * NaN and infinities only where `specials` asks for them (the
 * "+nan/inf" structure), where they would otherwise make whole
 * destinations NaN.
 */
#ifndef SGK_TESTS_PATH_VALUES_H
#define SGK_TESTS_PATH_VALUES_H

#include <stdint.h>

#include "common.h"
#include "sgk.h"

/* n elements of dtype for a scatter with reduction red, in a buffer to
   free: of data (`is_data`) or of updates. */
void *path_values(tc_rng *r, sgk_dtype dtype, sgk_reduction red, int specials, int is_data,
                  int64_t n);

#endif
