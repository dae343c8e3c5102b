/* OpenMP parallel loops over index ranges. */
#ifndef SGK_PARALLEL_FOR_H
#define SGK_PARALLEL_FOR_H

#include <stdint.h>

/* Runs body(ctx, begin, end) over disjoint ranges covering [0, n). */
typedef void (*sgk_range_body)(void *ctx, int64_t begin, int64_t end);

/* Splits [0, n) into at most `threads` contiguous ranges of near-equal
   size.  Runs on the calling thread alone when threads <= 1, when
   work_bytes (the traffic of the whole loop) is below min_bytes, or when
   already inside a parallel region. */
void sgk_parallel_for(int64_t n, int threads, int64_t work_bytes, int64_t min_bytes,
                      sgk_range_body body, void *ctx);

/* How many threads sgk_parallel_for would use for this loop. */
int sgk_parallel_threads(int64_t n, int threads, int64_t work_bytes, int64_t min_bytes);

#endif
