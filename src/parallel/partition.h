/* Stable partitions and sorts of (slot, position) pairs, in parallel. */
#ifndef SGK_PARTITION_H
#define SGK_PARTITION_H

#include <stdint.h>

#include "sgk.h"

/* Lists the pairs (key_slot[n], position[n]) bucket by bucket into out_slot
   and out_position, in their original order within each bucket: pair n goes
   to bucket key_slot[n] >> shift, which must lie in [0, buckets).  position
   NULL stands for 0, 1, 2, ...  bucket_start (buckets + 1 entries) receives
   where each bucket begins, bucket_start[buckets] == count.  The outputs must
   not overlap the inputs.  threads and min_bytes as for sgk_parallel_for:
   runs on the calling thread when threads <= 1 or the pairs are fewer than
   min_bytes of traffic.  Fails only with SGK_ERR_OUT_OF_MEMORY. */
sgk_status sgk_partition_stable(const int64_t *key_slot, const int64_t *position,
                                int64_t count, int shift, int64_t buckets, int threads,
                                int64_t min_bytes, int64_t *bucket_start, int64_t *out_slot,
                                int64_t *out_position);

/* The sorted-segment path: pairs already grouped by block (block b's pairs at
   [block_start[b], block_start[b + 1]), every slot of block b in
   [b << shift, (b + 1) << shift)) are sorted stably by slot within each of
   the blocks [first, last), in place.  Safe to run on disjoint block ranges
   at once: the planner's unit of parallel work.  When block_segments is not
   NULL, block_segments[b] receives how many distinct slots (segments) block
   b holds.  Fails only with SGK_ERR_OUT_OF_MEMORY (scratch as large as the
   range's largest block). */
sgk_status sgk_sort_blocks_by_slot(const int64_t *block_start, int64_t first, int64_t last,
                                   int shift, int64_t *slot, int64_t *position,
                                   int64_t *block_segments);

/* All blocks [0, blocks) sorted as above, blocks shared between threads by
   their pair counts. */
sgk_status sgk_sort_blocks_by_slot_parallel(const int64_t *block_start, int64_t blocks,
                                            int shift, int64_t *slot, int64_t *position,
                                            int64_t *block_segments, int threads,
                                            int64_t min_bytes);

/* After sorting, where each segment (run of one slot) of blocks [first, last)
   begins: block b's segments are written from segment_start[segment_first[b]]
   on, segment_first being the exclusive prefix sum of block_segments. */
void sgk_block_segment_starts(const int64_t *block_start, int64_t first, int64_t last,
                              const int64_t *slot, const int64_t *segment_first,
                              int64_t *segment_start);

#endif
