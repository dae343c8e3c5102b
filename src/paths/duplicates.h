/* Duplicate destinations among a scatter's pairs. */
#ifndef SGK_DUPLICATES_H
#define SGK_DUPLICATES_H

#include <stdbool.h>
#include <stdint.h>

#include "sgk.h"

/* Both use a bitmap over the slots when that is small beside the pairs, else
   a sort, and return SGK_ERR_OUT_OF_MEMORY when scratch cannot be had.  The
   bitmap count runs on up to `threads` threads, as sgk_parallel_for does with
   min_bytes; its result does not depend on the thread count.  Everything
   else is serial: a parallel last-occurrence walk (per-thread bitmaps,
   their suffix unions, then a backward walk per chunk) makes three passes
   where this one makes one, and was slower at two threads
   (bench/partition-bench). */

/* How many distinct slots slot[0..count) names, among `slots`. */
sgk_status sgk_count_distinct(const int64_t *slot, int64_t count, int64_t slots,
                              int threads, int64_t min_bytes, int64_t *distinct);

/* Marks keep[n] for the last pair n of each distinct slot: the one a
   sequential `none` scatter leaves in place. */
sgk_status sgk_find_last_occurrences(const int64_t *slot, int64_t count, int64_t slots,
                                     bool *keep);

#endif
