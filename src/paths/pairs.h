/* What the paths share about (slot, update) pairs: mapping them from the
   indices, the statistics the scatter paths plan with, and applying them. */
#ifndef SGK_PAIRS_H
#define SGK_PAIRS_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/reduce.h"
#include "parallel/parallel_for.h"
#include "paths/path.h"

/* ---- planning ----------------------------------------------------------- */

/* A destination block that stays in the core's L2 while its updates land. */
int64_t sgk_cache_block_bytes(void);

/* The smallest shift with 1 << shift >= n (n >= 1). */
int sgk_shift_for(int64_t n);

/* Why a one-shot path that reads the pairs once, checking them as it
   goes, and folds them itself (binned, replicas) cannot serve c: a
   gather, a reused plan, float32 accumulation, an empty output (whose
   run, where such a path checks its indices, is skipped); else NULL. */
const char *sgk_one_shot_fold_unfit(const sgk_choice *c);

/* `bytes` of scratch for a one-shot plan's run: the calling thread's call
   scratch, kept from call to call, when the plan owns the thread's
   buffers and the bytes fit SGK_CALL_SCRATCH_KEEP; else a fresh
   allocation, stored in *owned for the plan to free.  NULL when memory
   is short. */
void *sgk_plan_scratch(const sgk_plan *plan, size_t bytes, void **owned);

/* Fails a plan for want of memory, naming its operator and pairs. */
sgk_status sgk_plan_out_of_memory(const sgk_plan *plan);

/* Maps p's indices into a new array of plan->count slots (index_map.h),
   with plan->threads.  On failure returns the status with the error set. */
sgk_status sgk_pairs_map(const sgk_plan *plan, const sgk_problem *p, int64_t **slot);

/* The same, for a one-shot call that owns its thread's buffers (path.h):
   the slots go to the calling thread's call scratch, kept from call to
   call, when they fit SGK_CALL_SCRATCH_KEEP; else, and for reused plans,
   to a new array, and *owned says so (the plan's destroy frees it). */
sgk_status sgk_pairs_map_once(const sgk_plan *plan, const sgk_problem *p, int64_t **slot,
                              bool *owned);

/* Whether slot[0..plan->count) >> shift never decreases; checked in
   parallel. */
bool sgk_pairs_in_order(const sgk_plan *plan, const int64_t *slot, int shift);

/* How many distinct slots slot[0..plan->count) names. */
sgk_status sgk_pairs_count_distinct(const sgk_plan *plan, const int64_t *slot,
                                    int64_t *distinct);

/* `none`: a sequential loop leaves only the last update of each slot, so
   the earlier ones can be dropped and never moved.  Compacts slot in place,
   sets *position to each kept pair's update and plan->count to the pairs
   kept (the distinct slots). */
sgk_status sgk_pairs_drop_overwritten(sgk_plan *plan, int64_t *slot, int64_t **position);

/* Counts the distinct slots, then drops the overwritten updates where that
   pays: `none` with dropped bytes beyond the position list it costs. */
sgk_status sgk_pairs_count_then_drop(sgk_plan *plan, int64_t *slot, int64_t **position,
                                     int64_t *distinct);

/* Gathers of 4-byte elements whose source slots fit 31 bits: Highway's
   vector gathers need indices as wide as the elements. */
bool sgk_gather_slots_fit_32(const sgk_problem *p);

/* The kernel for a block's 16-bit-slot pairs (kernels/reduce.h): the
   vector one where the target has one (simd.h), else the scalar one; NULL
   where there is neither. */
sgk_apply16_fn sgk_pairs_apply16_kernel(sgk_dtype dtype, sgk_reduction reduction);

/* ---- running ------------------------------------------------------------ */

/* Whether `pairs` updates leave most of `slots` slots untouched: then the
   copy of those slots is streamed past the cache, and the few lines the
   updates need are read back. */
static inline bool sgk_few_updates(int64_t pairs, int64_t slots)
{
    return pairs * 8 < slots;
}

/* The whole output copied from data (nothing in place), in parallel:
   streamed past the caches unless the updates will land on much of it. */
void sgk_copy_output(const sgk_plan *plan, const sgk_buffers *b);

/* A gather's parallel loop over its count outputs: each read once and
   written once. */
void sgk_gather_for(const sgk_plan *plan, sgk_range_body body, void *job);

/* A path's application of pairs [begin, end) of one block, in cache. */
typedef void (*sgk_pair_piece_fn)(const void *ctx, int64_t begin, int64_t end);

/* piece(ctx, ...) over pairs [begin, end), in pieces between which the
   `next_bytes` bytes at `next` (the data of the block after this one) are
   brought into L2 a few lines at a time: the memory system, otherwise idle
   while updates land in cache, keeps busy, and the copy of that block
   finds them there.  Only for pairs that read their updates in order:
   where they are read at random, their misses need the queue (sgk-bench
   elementwise_add). */
void sgk_apply_fetching(sgk_pair_piece_fn piece, const void *ctx, int64_t begin, int64_t end,
                        const uint8_t *next, size_t next_bytes);

/* Applies pairs [begin, end) of slot/pos (pos NULL: pair i takes update
   slice i) to the slots counted from `base`: elements [c0, c0 + width) of
   every slice, col being c0's byte offset (for single-element slices, the
   byte offset of the first pair's update). */
void sgk_apply_pairs(const sgk_plan *plan, const sgk_buffers *b, uint8_t *base, size_t col,
                     const int64_t *slot, const int64_t *pos, int64_t begin, int64_t end,
                     int64_t width);

/* SGK_PLAN_WIDE_ACCUMULATE: n fp16 or bf16 values (the plan's type)
   widened into float32, and back, rounded to nearest-even; nothing for
   other types, which never accumulate wide. */
void sgk_widen(const sgk_plan *plan, float *acc, const uint16_t *in, int64_t n);
void sgk_round_back(const sgk_plan *plan, uint16_t *out, const float *acc, int64_t n);

/* The description of a path over a pair list: "path <name> (<why>; <how>);
   N updates to <distinct> of S slots", distinct < 0 meaning uncounted. */
void sgk_describe_pairs(const sgk_plan *plan, const char *how, int64_t distinct, char *text,
                        size_t size);

#endif
