/* Owner-computes blocks: the destination is cut into blocks of block_slots
   slots, each owned by one thread at a time.  A block is copied from data
   (unless in place) and then takes its own updates in their original order
   while it is still in cache, so every output byte is written once,
   duplicates reduce exactly as the sequential loop does, and blocks run in
   parallel; or, when the updates crowd into a few blocks and slices are
   long, every thread takes a column range of every slice through all
   blocks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/memory.h"
#include "runtime/runtime_config.h"
#include "parallel/parallel_for.h"
#include "parallel/partition.h"
#include "paths/owner_blocks.h"
#include "paths/pairs.h"

/* Owner-computes scatters of single elements with a 16-bit kernel: their
   blocks are kept to SGK_SLOT16_BLOCK slots, so that an execution reads 2
   bytes a pair for its slot, not 8 (sgk-bench scatter_elements_none). */
static bool takes_16_bit_slots(const blocked_plan *bp, bool serial)
{
    const sgk_plan *plan = &bp->base;
    return !serial && plan->slice_len == 1 && plan->widen_reduce == NULL &&
           sgk_apply16_kernel(plan->dtype, plan->reduction) != NULL;
}

static void choose_blocks(blocked_plan *bp, bool serial)
{
    const sgk_plan *plan = &bp->base;
    const int64_t slice_bytes = plan->slice_len * (int64_t)plan->elem_size;
    if (serial || slice_bytes == 0) {
        bp->block_slots = plan->slots;
    } else {
        bp->block_slots = sgk_cache_block_bytes() / slice_bytes;
        if (bp->block_slots > plan->slots)
            bp->block_slots = plan->slots;
    }
    /* smaller than a cache block only where that holds more than 65536
       elements (elements of 1 or 2 bytes, with a 1 MiB L2) */
    if (takes_16_bit_slots(bp, serial) && bp->block_slots > SGK_SLOT16_BLOCK)
        bp->block_slots = SGK_SLOT16_BLOCK;
    /* A power of two, so that finding a pair's block is a shift, not a
       64-bit division, in the planner's per-pair loops. */
    bp->block_shift = sgk_shift_for(bp->block_slots);
    bp->block_slots = INT64_C(1) << bp->block_shift;
    bp->blocks = plan->slots / bp->block_slots + (plan->slots % bp->block_slots != 0);
}

/* Sets block_start to where each block's pairs begin, when the pairs already
   come in block order (sorted indices, the Elements operators along most
   axes); returns false otherwise.  Each block's start is a binary search. */
static bool blocks_in_order(blocked_plan *bp, const int64_t *slot)
{
    if (!sgk_pairs_in_order(&bp->base, slot, bp->block_shift))
        return false;
    int64_t *start = sgk_alloc_array(bp->blocks + 1, sizeof *start);
    if (start == NULL)
        return false;
    for (int64_t b = 0; b <= bp->blocks; b++) {
        /* the first pair of block b or later */
        int64_t lo = b > 0 ? start[b - 1] : 0, hi = bp->base.count;
        while (lo < hi) {
            int64_t mid = lo + (hi - lo) / 2;
            if (slot[mid] >> bp->block_shift < b)
                lo = mid + 1;
            else
                hi = mid;
        }
        start[b] = lo;
    }
    bp->block_start = start;
    return true;
}

/* Stable counting sort of the pairs by destination block. */
static sgk_status group_by_block(blocked_plan *bp, const int64_t *slot, const int64_t *position)
{
    const sgk_plan *plan = &bp->base;
    int64_t *start = sgk_alloc_array(bp->blocks + 1, sizeof *start);
    int64_t *bslot = sgk_alloc_array(plan->count, sizeof *bslot);
    int64_t *bpos = sgk_alloc_array(plan->count, sizeof *bpos);
    sgk_status status = start != NULL && bslot != NULL && bpos != NULL
                            ? sgk_partition_stable(slot, position, plan->count, bp->block_shift,
                                                   bp->blocks, plan->threads,
                                                   plan->parallel_min_bytes, start, bslot, bpos)
                            : SGK_ERR_OUT_OF_MEMORY;
    if (status != SGK_OK) {
        free(start), free(bslot), free(bpos);
        return status;
    }
    bp->block_start = start;
    bp->slot = bslot;
    bp->position = bpos;
    return SGK_OK;
}

typedef struct {
    blocked_plan *bp;
    uint16_t *slot16;     /* where the block-local slots go in 16 bits, or NULL */
    bool count;           /* count the distinct slots too */
    int64_t distinct;     /* summed atomically over the ranges */
    int failed;           /* a range had no memory to count */
} localize_job;

/* Blocked paths count slots from their block's first slot: an execution
   then applies a block's pairs to wherever the block is (the output, or a
   scratch copy of it).  The same pass can count the distinct slots, block
   by block in a bitmap of one block's slots that stays in cache, for a
   fraction of a separate pass over all the pairs. */
static void localize_blocks(void *ctx, int worker, int64_t first, int64_t last)
{
    localize_job *job = ctx;
    blocked_plan *bp = job->bp;
    const int64_t words = bp->block_slots / 64 + 1;
    uint64_t *seen = job->count ? malloc((size_t)words * sizeof *seen) : NULL;
    (void)worker;
    if (job->count && seen == NULL)
        __atomic_store_n(&job->failed, 1, __ATOMIC_RELAXED);
    int64_t found = 0;
    for (int64_t b = first; b < last; b++) {
        const int64_t base = b << bp->block_shift;
        if (seen != NULL)
            memset(seen, 0, (size_t)words * sizeof *seen);
        for (int64_t i = bp->block_start[b]; i < bp->block_start[b + 1]; i++) {
            const int64_t s = bp->slot[i] - base;
            if (job->slot16 != NULL)
                job->slot16[i] = (uint16_t)s;
            else
                bp->slot[i] = s;
            if (seen != NULL) {
                found += (seen[s >> 6] >> (s & 63) & 1) == 0;
                seen[s >> 6] |= UINT64_C(1) << (s & 63);
            }
        }
    }
    free(seen);
    __atomic_fetch_add(&job->distinct, found, __ATOMIC_RELAXED);
}

/* Makes the slots block-local, in 16 bits where they fit (no memory for
   them only keeps them in 64), and, when `count`, sets distinct. */
static sgk_status make_slots_block_local(blocked_plan *bp, bool serial, bool count)
{
    const sgk_plan *plan = &bp->base;
    localize_job job = {bp, NULL, count, 0, 0};
    if (takes_16_bit_slots(bp, serial) && plan->count > 0)
        job.slot16 = sgk_alloc_array(plan->count, sizeof *job.slot16);
    /* block 0 already counts from 0: with nothing to count or narrow,
       nothing to do */
    if (bp->blocks > 1 || count || job.slot16 != NULL)
        sgk_parallel_for(bp->blocks, plan->threads, plan->count * 16,
                         plan->parallel_min_bytes, localize_blocks, &job);
    if (job.slot16 != NULL) {
        free(bp->slot);
        bp->slot = NULL;
        bp->slot16 = job.slot16;
        bp->apply16 = sgk_pairs_apply16_kernel(plan->dtype, plan->reduction);
    }
    if (count && job.failed)
        return SGK_ERR_OUT_OF_MEMORY;
    if (count)
        bp->distinct = job.distinct;
    return SGK_OK;
}

/* When a few blocks hold most of the updates (skewed indices, as in
   embedding gradients) whole blocks cannot be shared evenly between threads;
   long slices can instead be cut by columns, every thread applying all the
   updates in order to its own columns: still exact, still deterministic. */
static int64_t choose_column_parts(const blocked_plan *bp)
{
    const sgk_plan *plan = &bp->base;
    const int64_t sb = plan->slice_len * (int64_t)plan->elem_size;
    if (plan->threads < 2 || plan->widen_reduce != NULL || sb < 256 * plan->threads)
        return 1;
    int64_t total = 0, heaviest = 0;
    for (int64_t b = 0; b < bp->blocks; b++) {
        int64_t s0 = b * bp->block_slots;
        int64_t slots = s0 + bp->block_slots < plan->slots ? bp->block_slots : plan->slots - s0;
        int64_t cost = (slots + 2 * (bp->block_start[b + 1] - bp->block_start[b])) * sb;
        total += cost;
        heaviest = cost > heaviest ? cost : heaviest;
    }
    return heaviest * plan->threads > total + total / 4 ? plan->threads : 1;
}

/* Whether a reused plan's pairs should read their updates from a copy in
   pair order rather than at their positions: single elements whose
   updates are too large to stay near the cores, by the measure that
   streams outputs (SGK_STREAM_MIN_BYTES).  Read at random, each update
   then costs a line from farther out, and a block's pairs touch lines
   every other block touches too (sgk-bench dense_max_l3 on a 32 MiB-L3
   EPYC: 47 ms a plan execution, against 17 ms for the one-shot call,
   which bins its values). */
static bool groups_updates(const blocked_plan *bp)
{
    const sgk_plan *plan = &bp->base;
    const int64_t past_caches = sgk_config_get()->stream_min_bytes;
    return !plan->one_shot && bp->slot16 != NULL && bp->position != NULL &&
           plan->count <= UINT32_MAX && past_caches >= 0 &&
           plan->count * (int64_t)plan->elem_size >= past_caches;
}

typedef struct {
    const int64_t *position;
    uint32_t *rank;
    int64_t count, parts;
} rank_job;

/* Ranks of pairs [begin, end) of parts [first, last): writes at random,
   each fetched a few dozen pairs ahead. */
static void rank_pairs(void *ctx, int worker, int64_t first, int64_t last)
{
    const rank_job *r = ctx;
    enum { AHEAD = 32 };
    (void)worker;
    const int64_t begin = sgk_even_start(r->count, first, r->parts);
    const int64_t end = sgk_even_start(r->count, last, r->parts);
    for (int64_t i = begin; i < end; i++) {
        if (i + AHEAD < end)
            __builtin_prefetch(&r->rank[r->position[i + AHEAD]], 1, 0);
        r->rank[r->position[i]] = (uint32_t)i;
    }
}

/* Turns the plan's positions into ranks: rank[position[i]] = i, so that an
   execution moves the updates into pair order reading them in their own
   order (writes go to one run per block, each front to back).  Without
   dropped updates position is a permutation, and threads write places of
   their own. */
static sgk_status rank_updates(blocked_plan *bp)
{
    const sgk_plan *plan = &bp->base;
    uint32_t *rank = sgk_alloc_array(plan->count, sizeof *rank);
    if (rank == NULL)
        return SGK_ERR_OUT_OF_MEMORY;
    const int parts = plan->threads > 0 ? plan->threads : 1;
    rank_job r = {bp->position, rank, plan->count, parts};
    sgk_parallel_for(parts, plan->threads, plan->count * 12, plan->parallel_min_bytes,
                     rank_pairs, &r);
    free(bp->position);
    bp->position = NULL;
    bp->rank = rank;
    return SGK_OK;
}

/* Takes ownership of slot and position. */
static sgk_status group_pairs(blocked_plan *bp, bool serial, int64_t *slot, int64_t *position,
                              bool count_distinct)
{
    choose_blocks(bp, serial);
    sgk_status status = SGK_OK;
    if (blocks_in_order(bp, slot)) {
        bp->slot = slot;
        bp->position = position;
    } else {
        status = group_by_block(bp, slot, position);
        free(slot);
        free(position);
    }
    if (status == SGK_OK)
        status = make_slots_block_local(bp, serial, count_distinct);
    if (status == SGK_OK)
        bp->column_parts = choose_column_parts(bp);
    /* counting the distinct slots here means none were counted first, so
       no update was dropped: position is a permutation */
    if (status == SGK_OK && count_distinct && groups_updates(bp))
        status = rank_updates(bp);
    return status;
}

sgk_status sgk_blocks_make(const sgk_plan *base, const sgk_problem *p, bool serial,
                           sgk_plan **out)
{
    blocked_plan *bp = sgk_path_alloc(base, sizeof *bp);
    if (bp == NULL)
        return sgk_plan_out_of_memory(base);
    int64_t *slot, *position = NULL;
    sgk_status status = sgk_pairs_map(&bp->base, p, &slot);
    if (status != SGK_OK) {
        sgk_path_free(&bp->base);
        return status;
    }
    if (serial)
        bp->base.threads = 1;
    /* Only `none` with slices over 8 bytes may drop updates (pairs.h), and
       deciding that takes the count first; otherwise owner-computes counts
       while it makes the slots block-local. */
    const int64_t slice_bytes = bp->base.slice_len * (int64_t)bp->base.elem_size;
    const bool count_first = serial || (bp->base.reduction == SGK_REDUCE_NONE && slice_bytes > 8);
    if (count_first)
        status = sgk_pairs_count_then_drop(&bp->base, slot, &position, &bp->distinct);
    if (status == SGK_OK) {
        status = group_pairs(bp, serial, slot, position, !count_first);
    } else {
        free(slot);
        free(position);
    }
    if (status != SGK_OK) {
        sgk_blocks_destroy(&bp->base);
        return sgk_plan_out_of_memory(base);
    }
    *out = &bp->base;
    return SGK_OK;
}

void sgk_blocks_describe(const sgk_plan *plan, char *text, size_t size)
{
    const blocked_plan *bp = (const blocked_plan *)plan;
    snprintf(text, size,
             "path %s (%s; %lld blocks of %lld slots%s%s%s); %lld updates to %lld distinct "
             "of %lld slots",
             plan->path->name, plan->why, (long long)bp->blocks, (long long)bp->block_slots,
             bp->slot16 != NULL ? ", 16-bit slots" : "",
             bp->rank != NULL ? ", updates moved into pair order first" : "",
             bp->column_parts > 1 ? ", slices split by columns between threads" : "",
             (long long)plan->count, (long long)bp->distinct, (long long)plan->slots);
}

void sgk_blocks_destroy(sgk_plan *plan)
{
    blocked_plan *bp = (blocked_plan *)plan;
    free(bp->slot);
    free(bp->slot16);
    free(bp->position);
    free(bp->rank);
    free(bp->block_start);
    sgk_path_free(&bp->base);
}

static const char *owner_blocks_unfit(const sgk_choice *c)
{
    return c->problem->scatter ? NULL : "gathers have nothing to own";
}

static bool owner_blocks_preferred(const sgk_choice *c, const char **why)
{
    (void)c;
    *why = "destination blocks in cache, updates in order";
    return true;
}

static sgk_status owner_blocks_make(const sgk_plan *base, const sgk_problem *p, sgk_plan **out)
{
    return sgk_blocks_make(base, p, false, out);
}

const sgk_path sgk_path_owner_blocks = {
    .name = "owner-blocks",
    .unfit = owner_blocks_unfit,
    .preferred = owner_blocks_preferred,
    .make = owner_blocks_make,
    .run = sgk_blocks_run,
    .describe = sgk_blocks_describe,
    .destroy = sgk_blocks_destroy,
};
