/* One-shot scatters: propagation blocking (Beamer, Asanovic and
   Patterson, IPDPS 2017).  A plan would group the pairs by destination
   block once and reuse the grouping; a one-shot call pays for any grouping
   every time, so it bins instead, in one streaming pass:
     1. each thread reads its share of the pairs once, in order, checks and
        maps each index, and appends the pair to its own bin of the slot's
        block: a chain of fixed-size chunks taken from the thread's pool.
        Single elements go in as the slot (16 bits within the block) and
        the update's value; slices as the slot within the block and the
        update's position (64 bits each), the slices read only in step 2;
     2. each block is copied (unless in place) and takes its bins, the
        chains of threads 0, 1, ... in turn: the original order, while the
        block sits in L2.
   No pass writes a per-pair array that another reads back at random, and
   no count pass comes first: a chunk is full when it is full.  Nothing
   reaches the output before step 2, so a bad index leaves it untouched. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry/registry.h"
#include "problem/index_map.h"
#include "runtime/memory.h"
#include "parallel/parallel_for.h"
#include "paths/pairs.h"
#include "simd/simd.h"
#include "paths/binned.h"
#include "runtime/topology.h"

/* it takes the thread's plan block, and with it the thread's buffers */
_Static_assert(sizeof(binned_plan) <= SGK_PLAN_BLOCK_BYTES, "one-shot plan too large");

/* Single elements with a 16-bit-slot kernel bin their values; everything
   else bins positions. */
static bool bins_slices(const sgk_plan *plan)
{
    return plan->slice_len != 1 || sgk_apply16_kernel(plan->dtype, plan->reduction) == NULL;
}

static int64_t block_slots_of(const sgk_plan *plan)
{
    const int64_t slice_bytes = plan->slice_len * (int64_t)plan->elem_size;
    const int64_t slots = sgk_cache_block_bytes() / (slice_bytes > 0 ? slice_bytes : 1);
    const int64_t most = bins_slices(plan) ? INT64_C(1) << 40 : SGK_SLOT16_BLOCK;
    return slots < 1 ? 1 : slots > most ? most : slots;
}

/* Destination blocks before rounding the block to a power of two. */
static int64_t blocks_of(const sgk_plan *plan)
{
    const int64_t block_slots = block_slots_of(plan);
    return plan->slots / block_slots + (plan->slots % block_slots != 0);
}

static int parts_of(const sgk_plan *plan)
{
    return plan->threads > 1 ? plan->threads : 1;
}

/* With at least CHUNK_MIN / 2 pairs per thread and block: sparser, the
   chunks left part-filled would outweigh the pairs. */
static bool binned_preferred(const sgk_choice *c, const char **why)
{
    const sgk_plan *plan = c->base;
    *why = "one-shot: pairs binned by destination block, then each block takes its bins "
           "in cache";
    return blocks_of(plan) * parts_of(plan) <= plan->count / (CHUNK_MIN / 2);
}

/* The largest power of two from CHUNK_MIN to CHUNK_MAX that a thread's bin
   of an average block fills. */
static uint32_t chunk_pairs(int64_t count, int64_t bins)
{
    uint32_t c = CHUNK_MIN;
    while (c < CHUNK_MAX && (int64_t)c * 2 * bins <= count)
        c *= 2;
    return c;
}

/* Chunks a part's pool holds: its share in full chunks, plus one
   part-filled chunk per block. */
static int64_t chunks_per_part(const sgk_plan *plan, int64_t blocks, uint32_t chunk)
{
    const int parts = parts_of(plan);
    const int64_t share = plan->count / parts + (plan->count % parts != 0);
    return share / chunk + (share % chunk != 0) + blocks;
}

static const char *binned_unfit(const sgk_choice *c)
{
    const sgk_plan *plan = c->base;
    const char *unfit = sgk_one_shot_fold_unfit(c);
    if (unfit != NULL)
        return unfit;
    const int64_t blocks = blocks_of(plan);
    const uint32_t chunk = chunk_pairs(plan->count, blocks * parts_of(plan));
    return chunks_per_part(plan, blocks, chunk) >= NO_CHUNK ? "more chunks than 32 bits number"
                                                             : NULL;
}

static void binned_destroy(sgk_plan *plan)
{
    binned_plan *bp = (binned_plan *)plan;
    free(bp->owned);
    sgk_path_free(plan);
}

/* Up to the staging buffers' alignment (a few lines). */
static size_t line_up(size_t bytes)
{
    return (bytes + STAGE_ALIGN - 1) & ~(size_t)(STAGE_ALIGN - 1);
}

/* Whether staged lines go out with non-temporal stores: when the bins,
   entry_bytes a pair, outgrow the threads' L2 caches, where step 2 would
   find them.  Farther out, a plain store first reads the line it fills:
   streaming skips that read, a third of the bins' traffic.  (Measured on
   a 2-core Xeon VM whose L3 reports 260 MiB: streaming was as fast or
   faster even for bins that would fit that L3.) */
static bool binned_streams(const sgk_plan *plan, size_t entry_bytes)
{
    const int64_t l2 = sgk_topology_get()->l2_bytes;
    const int64_t cache = (l2 > 0 ? l2 : INT64_C(1) << 20) * parts_of(plan);
    return plan->count > cache / (int64_t)entry_bytes;
}

/* Lays the scratch out: per part its bins, chunk links, pool, staging
   buffers and their counts (each on cache lines of its own), then the
   blocks' pair counts. */
static sgk_status binned_make(const sgk_plan *base, const sgk_problem *p, sgk_plan **out)
{
    binned_plan *bp = sgk_path_alloc(base, sizeof *bp);
    if (bp == NULL)
        return sgk_plan_out_of_memory(base);
    const int64_t block_slots = block_slots_of(base);
    bp->p = *p;
    bp->slices = bins_slices(base);
    bp->apply16 = bp->slices ? NULL : sgk_pairs_apply16_kernel(base->dtype, base->reduction);
    bp->shift = sgk_shift_for(block_slots < base->slots ? block_slots : base->slots);
    const int64_t block_mask = (INT64_C(1) << bp->shift) - 1;
    bp->blocks = (base->slots >> bp->shift) + ((base->slots & block_mask) != 0);
    bp->parts = parts_of(base);
    bp->chunk = chunk_pairs(base->count, bp->blocks * bp->parts);
    bp->slot_bytes = bp->slices ? 8 : 2;
    bp->value_bytes = bp->slices ? 8 : base->elem_size;
    bp->lane = binned_lane(bp->slot_bytes, bp->value_bytes);
    bp->chunk_bytes = line_up((size_t)bp->chunk * (bp->slot_bytes + bp->value_bytes));
    const size_t stage_bytes = (size_t)bp->lane * (bp->slot_bytes + bp->value_bytes);
    bp->narrow_line = (size_t)bp->lane * (bp->slot_bytes < bp->value_bytes ? bp->slot_bytes
                                                                           : bp->value_bytes);
    bp->wider_line = stage_bytes - bp->narrow_line;
    bp->stream = binned_streams(base, bp->slot_bytes + bp->value_bytes);
    bp->stream_lines = bp->stream ? sgk_simd_stream_lines_kernel() : NULL;
    /* the preference keeps the part-filled chunks within 2x the pairs,
       and the fit the chunk numbers within 32 bits */
    const int64_t chunks = chunks_per_part(base, bp->blocks, bp->chunk);
    const size_t parts = line_up((size_t)bp->parts * sizeof(part));
    const size_t bins = line_up((size_t)bp->blocks * sizeof(bin));
    const size_t links = line_up((size_t)chunks * sizeof(uint32_t));
    const size_t pool = line_up((size_t)chunks * bp->chunk_bytes);
    const size_t stage = (size_t)bp->blocks * stage_bytes;
    const size_t staged = line_up((size_t)bp->blocks * sizeof(uint8_t *));
    const size_t per_part = bins + links + pool + stage + staged;
    /* room to align the scratch by hand */
    const size_t need = STAGE_ALIGN + parts + (size_t)bp->parts * per_part +
                        (size_t)(bp->blocks + 1) * sizeof(int64_t);
    uint8_t *scratch = sgk_plan_scratch(&bp->base, need, &bp->owned);
    if (scratch == NULL) {
        sgk_path_free(&bp->base);
        return sgk_plan_out_of_memory(base);
    }
    /* streamed lines need aligned chunks and staging buffers */
    scratch += (STAGE_ALIGN - (uintptr_t)scratch % STAGE_ALIGN) % STAGE_ALIGN;
    bp->part = (part *)scratch;
    for (int t = 0; t < bp->parts; t++) {
        uint8_t *at = scratch + parts + (size_t)t * per_part;
        bp->part[t].bins = (bin *)at;
        bp->part[t].next = (uint32_t *)(at + bins);
        bp->part[t].pool = at + bins + links;
        bp->part[t].stage = at + bins + links + pool;
        bp->part[t].cursor = (uint8_t **)(at + bins + links + pool + stage);
    }
    bp->before = (int64_t *)(scratch + parts + (size_t)bp->parts * per_part);
    *out = &bp->base;
    return SGK_OK;
}

typedef struct {
    const binned_plan *bp;
    const sgk_buffers *b;
} apply_job;

/* Traffic of blocks [0, b): their copy plus their pairs (the bins, and
   for slices the updates they read). */
static int64_t blocks_cost(void *ctx, int64_t b)
{
    const apply_job *j = ctx;
    const binned_plan *bp = j->bp;
    const int64_t slots = b << bp->shift;
    const int64_t copied = slots < bp->base.slots ? slots : bp->base.slots;
    const int64_t slice_bytes = (int64_t)j->b->slice_bytes;
    const int64_t pair_bytes = bp->slices ? 16 + 2 * slice_bytes : 2 + slice_bytes;
    return (j->b->in_place ? 0 : 2 * copied) * slice_bytes + bp->before[b] * pair_bytes;
}

/* Block b's bins onto the block, thread by thread, chunk by chunk. */
static void apply_block(const binned_plan *bp, const sgk_buffers *buffers, int64_t b,
                        uint8_t *block)
{
    const uint32_t capacity = bp->chunk;
    for (int t = 0; t < bp->parts; t++) {
        const part *pt = &bp->part[t];
        const bin *x = &pt->bins[b];
        for (uint32_t c = x->head; c != NO_CHUNK; c = pt->next[c]) {
            const uint8_t *chunk = pt->pool + (size_t)c * bp->chunk_bytes;
            const uint32_t pairs = c == x->last ? x->fill : capacity;
            if (bp->slices) {
                const int64_t *slot = (const int64_t *)chunk;
                sgk_apply_pairs(&bp->base, buffers, block, 0, slot, slot + capacity, 0, pairs,
                                bp->base.slice_len);
            } else {
                const uint16_t *slot = (const uint16_t *)chunk;
                bp->apply16(block, slot, slot + capacity, NULL, 0, pairs);
            }
        }
    }
}

/* Step 2 for blocks [first, last). */
static void apply_bins(void *ctx, int worker, int64_t first, int64_t last)
{
    const apply_job *j = ctx;
    const binned_plan *bp = j->bp;
    const sgk_plan *p = &bp->base;
    const size_t es = j->b->slice_bytes, block_bytes = ((size_t)1 << bp->shift) * es;
    const bool via_scratch = j->b->stream && !j->b->in_place;
    uint8_t *scratch = via_scratch ? sgk_thread_scratch(block_bytes) : NULL;
    (void)worker;
    for (int64_t b = first; b < last; b++) {
        const int64_t s0 = b << bp->shift;
        const int64_t s1 = s0 + ((int64_t)1 << bp->shift) < p->slots
                               ? s0 + ((int64_t)1 << bp->shift)
                               : p->slots;
        const size_t bytes = (size_t)(s1 - s0) * es;
        uint8_t *out = j->b->out + (size_t)s0 * es;
        const uint8_t *data = j->b->data + (size_t)s0 * es;
        uint8_t *block = scratch != NULL ? scratch : out;
        if (!j->b->in_place)
            sgk_simd_copy_bytes(block, data, bytes, false);
        apply_block(bp, j->b, b, block);
        if (scratch != NULL)
            sgk_simd_copy_bytes(out, scratch, bytes, true);
    }
}

static sgk_status binned_run(const sgk_plan *plan, const sgk_buffers *b)
{
    binned_plan *bp = (binned_plan *)plan;
    bin_job bj = {bp, b->updates};
    /* the indices and updates read, slot and value written */
    const int64_t index_bytes = sgk_index_bytes_per_pair(&bp->p);
    const int64_t entry_bytes = bp->slices ? 16 : 2 + (int64_t)plan->elem_size;
    sgk_parallel_for(bp->parts, plan->threads,
                     plan->count * (index_bytes + entry_bytes +
                                    (bp->slices ? 0 : (int64_t)plan->elem_size)),
                     plan->parallel_min_bytes, sgk_binned_bin_pairs, &bj);
    sgk_status status = sgk_binned_settle(bp);
    if (status != SGK_OK)
        return status;
    apply_job aj = {bp, b};
    sgk_parallel_for_balanced(bp->blocks, plan->threads, blocks_cost, plan->parallel_min_bytes,
                              apply_bins, &aj);
    return SGK_OK;
}

static void binned_describe(const sgk_plan *plan, char *text, size_t size)
{
    const binned_plan *bp = (const binned_plan *)plan;
    snprintf(text, size,
             "path binned (%s; %lld blocks of %lld slots, %d parts, chunks of %u %s); "
             "%lld updates",
             plan->why, (long long)bp->blocks, (long long)1 << bp->shift, bp->parts,
             bp->chunk, bp->slices ? "positions" : "values", (long long)plan->count);
}

const sgk_path sgk_path_binned = {
    .name = "binned",
    .unfit = binned_unfit,
    .preferred = binned_preferred,
    .make = binned_make,
    .run = binned_run,
    .describe = binned_describe,
    .destroy = binned_destroy,
};
