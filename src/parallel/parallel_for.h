/* OpenMP parallel loops over index ranges. */
#ifndef SGK_PARALLEL_FOR_H
#define SGK_PARALLEL_FOR_H

#include <stdint.h>

/* Runs body(ctx, worker, begin, end) over disjoint ranges covering [0, n);
   worker in [0, threads) tells the calls running at once apart, for
   per-worker scratch. */
typedef void (*sgk_range_body)(void *ctx, int worker, int64_t begin, int64_t end);

/* Splits [0, n) into at most `threads` contiguous ranges of near-equal
   size.  Runs on the calling thread alone when threads <= 1, when
   work_bytes (the traffic of the whole loop) is below min_bytes, or when
   already inside a parallel region. */
void sgk_parallel_for(int64_t n, int threads, int64_t work_bytes, int64_t min_bytes,
                      sgk_range_body body, void *ctx);

/* Like sgk_parallel_for over items [0, n) of uneven cost: prefix_cost(ctx, i)
   is the cost of items [0, i), non-decreasing, prefix_cost(ctx, n) the
   total (in bytes of traffic); the ranges are cut where that cost splits
   evenly between the threads. */
typedef int64_t (*sgk_prefix_cost)(void *ctx, int64_t i);
void sgk_parallel_for_balanced(int64_t n, int threads, sgk_prefix_cost prefix_cost,
                               int64_t min_bytes, sgk_range_body body, void *ctx);

/* Where part t of `team` near-equal contiguous parts of [0, n) begins;
   t == team gives n. */
int64_t sgk_even_start(int64_t n, int64_t t, int64_t team);

/* How many threads sgk_parallel_for would use for this loop. */
int sgk_parallel_threads(int64_t n, int threads, int64_t work_bytes, int64_t min_bytes);

#endif
