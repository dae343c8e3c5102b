/* One-shot scatters of single elements: propagation blocking (Beamer,
   Asanovic and Patterson, IPDPS 2017).  A plan would group the pairs by
   destination block once and reuse the grouping; a one-shot call pays for
   any grouping every time, so it bins instead, streaming:
     1. each thread maps its share of the pairs, in order, to 32-bit slots
        (every index checked) and counts them per destination block;
     2. each thread copies its pairs, each slot in 16 bits and its update's
        value (two arrays), into its own run of every block's bin;
     3. each block is copied (unless in place) and takes its bin, the runs
        of threads 0, 1, ... in turn: the original order, while the block
        sits in L2.
   Every thread reads its own share of the pairs once.  Nothing reaches
   the output before step 3, so a bad index leaves it untouched. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "index_map.h"
#include "memory.h"
#include "parallel/parallel_for.h"
#include "paths/pairs.h"
#include "simd/simd.h"

/* Pairs mapped at a time in step 1: their check fails as one range. */
#define BIN_BATCH 1024

typedef struct {
    sgk_plan base;
    sgk_apply16_fn apply16;
    int shift;            /* a block is 1 << shift slots */
    int64_t blocks;
    int parts;            /* shares of the pairs, one per thread */
    int64_t stride;       /* cursors per part, padded to cache lines */
    int64_t *cursor;      /* parts x stride: where part t's run of block b
                             begins; after step 2, where it ends */
    uint32_t *slot;       /* count, step 1 */
    uint16_t *bin_slot;   /* count, grouped by block, then by part */
    uint8_t *bin_value;   /* count values of elem_size bytes, alike */
    void *owned;          /* the scratch, when too large to keep or nested */
} binned_plan;

/* it takes the thread's plan block, and with it the thread's buffers */
_Static_assert(sizeof(binned_plan) <= SGK_PLAN_BLOCK_BYTES, "one-shot plan too large");

static const char *binned_unfit(const sgk_choice *c)
{
    const sgk_plan *plan = c->base;
    const sgk_problem *p = c->problem;
    if (!p->scatter || plan->slice_len != 1)
        return "not a scatter of single elements";
    if (!plan->one_shot)
        return "a reused plan groups its pairs once";
    if (plan->widen_reduce != NULL || sgk_apply16_kernel(plan->dtype, plan->reduction) == NULL)
        return "no 16-bit-slot kernel for this cell";
    if (p->map.kind == SGK_MAP_ELEMENTS && p->map.row_len > 1)
        return "whole rows";
    return plan->slots > UINT32_MAX ? "more than 2^32 destination slots" : NULL;
}

/* With no more destination blocks than pairs: the tables of a sparse
   destination (blocks of cursors per thread, visited serially) would
   outgrow the pairs; sorted segments' tables grow with the pairs. */
static bool binned_preferred(const sgk_choice *c, const char **why)
{
    const sgk_plan *plan = c->base;
    const int64_t block_slots = sgk_cache_block_bytes() / (int64_t)plan->elem_size;
    *why = "one-shot single elements: pairs binned by destination block, then each block "
           "takes its bin in cache";
    return plan->slots / (block_slots > 0 ? block_slots : 1) <= plan->count;
}

typedef struct {
    binned_plan *bp;
    const sgk_problem *p;
    int64_t first_bad_batch; /* the smallest batch with a bad index */
} map_job;

/* Step 1 for parts [first, last). */
static void map_and_count(void *ctx, int worker, int64_t first, int64_t last)
{
    map_job *job = ctx;
    binned_plan *bp = job->bp;
    const int64_t count = bp->base.count;
    int64_t wide[BIN_BATCH];
    (void)worker;
    for (int64_t t = first; t < last; t++) {
        int64_t *hist = bp->cursor + t * bp->stride;
        memset(hist, 0, (size_t)bp->blocks * sizeof *hist);
        const int64_t end = sgk_even_start(count, t + 1, bp->parts);
        for (int64_t n = sgk_even_start(count, t, bp->parts); n < end; n += BIN_BATCH) {
            const int64_t m = end - n < BIN_BATCH ? end - n : BIN_BATCH;
            if (sgk_map_index_range(job->p, n, n + m, wide) != SGK_OK) {
                int64_t seen = __atomic_load_n(&job->first_bad_batch, __ATOMIC_RELAXED);
                while (n < seen && !__atomic_compare_exchange_n(&job->first_bad_batch, &seen, n,
                                                                true, __ATOMIC_RELAXED,
                                                                __ATOMIC_RELAXED)) {
                }
                break;
            }
            for (int64_t i = 0; i < m; i++) {
                bp->slot[n + i] = (uint32_t)wide[i];
                hist[wide[i] >> bp->shift]++;
            }
        }
    }
}

/* Turns the per-part counts into cursors: block by block, part by part,
   so that each block's bin holds the runs of parts 0, 1, ... in turn. */
static void place_runs(binned_plan *bp)
{
    int64_t running = 0;
    for (int64_t b = 0; b < bp->blocks; b++)
        for (int t = 0; t < bp->parts; t++) {
            int64_t *c = bp->cursor + t * bp->stride + b;
            const int64_t n = *c;
            *c = running;
            running += n;
        }
}

typedef struct {
    binned_plan *bp;
    const uint8_t *updates;
} bin_job;

/* Step 2 for parts [first, last): slot and value to the part's run of the
   slot's block. */
#define BIN_PAIRS(T)                                                                   \
    for (int64_t n = begin; n < end; n++) {                                            \
        const uint32_t s = bp->slot[n];                                                \
        const int64_t at = cursor[s >> shift]++;                                       \
        bp->bin_slot[at] = (uint16_t)(s & mask);                                       \
        /* the caller's updates need not be aligned for T */                          \
        memcpy((T *)bp->bin_value + at, (const uint8_t *)job->updates + n * sizeof(T),  \
               sizeof(T));                                                             \
    }

typedef struct {
    uint64_t lo, hi;
} bytes16;

static void bin_pairs(void *ctx, int worker, int64_t first, int64_t last)
{
    bin_job *job = ctx;
    binned_plan *bp = job->bp;
    const int shift = bp->shift;
    const uint32_t mask = ((uint32_t)1 << shift) - 1;
    (void)worker;
    for (int64_t t = first; t < last; t++) {
        int64_t *cursor = bp->cursor + t * bp->stride;
        const int64_t begin = sgk_even_start(bp->base.count, t, bp->parts);
        const int64_t end = sgk_even_start(bp->base.count, t + 1, bp->parts);
        switch (bp->base.elem_size) {
        case 1: BIN_PAIRS(uint8_t) break;
        case 2: BIN_PAIRS(uint16_t) break;
        case 4: BIN_PAIRS(uint32_t) break;
        case 8: BIN_PAIRS(uint64_t) break;
        default: BIN_PAIRS(bytes16) break;
        }
    }
}

static void binned_destroy(sgk_plan *plan)
{
    binned_plan *bp = (binned_plan *)plan;
    free(bp->owned);
    sgk_path_free(plan);
}

static sgk_status binned_make(const sgk_plan *base, const sgk_problem *p, sgk_plan **out)
{
    binned_plan *bp = sgk_path_alloc(base, sizeof *bp);
    if (bp == NULL)
        return sgk_plan_out_of_memory(base);
    const int64_t es = (int64_t)base->elem_size;
    int64_t block_slots = sgk_cache_block_bytes() / es;
    block_slots = block_slots > SGK_SLOT16_BLOCK ? SGK_SLOT16_BLOCK : block_slots;
    bp->apply16 = sgk_apply16_kernel(base->dtype, base->reduction);
    bp->shift = sgk_shift_for(block_slots < base->slots ? block_slots : base->slots);
    bp->blocks = (base->slots >> bp->shift) + ((base->slots & ((INT64_C(1) << bp->shift) - 1)) != 0);
    bp->parts = base->threads > 1 ? base->threads : 1;
    bp->stride = (bp->blocks + 7) & ~INT64_C(7);
    /* cursors, slots, bin slots, bin values; each array on a cache line */
    const size_t cursors = (size_t)(bp->parts * bp->stride) * sizeof(int64_t);
    const size_t slots = ((size_t)base->count * 4 + 63) & ~(size_t)63;
    const size_t bins = ((size_t)base->count * 2 + 63) & ~(size_t)63;
    const size_t need = cursors + slots + bins + (size_t)base->count * (size_t)es;
    uint8_t *scratch = need <= SGK_CALL_SCRATCH_KEEP && sgk_path_owns_thread_buffers(&bp->base)
                           ? sgk_call_scratch(need)
                           : NULL;
    if (scratch == NULL)
        scratch = bp->owned = sgk_alloc_array((int64_t)need, 1);
    if (scratch == NULL) {
        sgk_path_free(&bp->base);
        return sgk_plan_out_of_memory(base);
    }
    bp->cursor = (int64_t *)scratch;
    bp->slot = (uint32_t *)(scratch + cursors);
    bp->bin_slot = (uint16_t *)(scratch + cursors + slots);
    bp->bin_value = scratch + cursors + slots + bins;
    map_job job = {bp, p, base->count};
    /* the indices read, the slots written */
    sgk_parallel_for(bp->parts, base->threads, base->count * 12, base->parallel_min_bytes,
                     map_and_count, &job);
    if (job.first_bad_batch < base->count) {
        /* the message, naming the first bad pair, on the calling thread */
        int64_t wide[BIN_BATCH];
        const int64_t n = job.first_bad_batch;
        sgk_status status = sgk_map_index_range(
            p, n, base->count - n < BIN_BATCH ? base->count : n + BIN_BATCH, wide);
        binned_destroy(&bp->base);
        return status;
    }
    place_runs(bp);
    *out = &bp->base;
    return SGK_OK;
}

typedef struct {
    const binned_plan *bp;
    const sgk_buffers *b;
} apply_job;

/* After step 2, where block b's bin begins (b == blocks: where the bins
   end): where the last part's run of the block before it ends. */
static int64_t bin_start(const binned_plan *bp, int64_t b)
{
    return b > 0 ? bp->cursor[(bp->parts - 1) * bp->stride + b - 1] : 0;
}

/* Traffic of blocks [0, b): their copy plus their pairs. */
static int64_t blocks_cost(void *ctx, int64_t b)
{
    const apply_job *j = ctx;
    const int64_t slots = b << j->bp->shift;
    const int64_t copied = slots < j->bp->base.slots ? slots : j->bp->base.slots;
    return (j->b->in_place ? 0 : 2 * copied) * (int64_t)j->bp->base.elem_size +
           bin_start(j->bp, b) * (2 + (int64_t)j->bp->base.elem_size);
}

/* Step 3 for blocks [first, last). */
static void apply_bins(void *ctx, int worker, int64_t first, int64_t last)
{
    const apply_job *j = ctx;
    const binned_plan *bp = j->bp;
    const sgk_plan *p = &bp->base;
    const size_t es = p->elem_size, block_bytes = ((size_t)1 << bp->shift) * es;
    const bool via_scratch = p->stream_output && !j->b->in_place;
    uint8_t *scratch = via_scratch ? sgk_thread_scratch(block_bytes) : NULL;
    (void)worker;
    for (int64_t b = first; b < last; b++) {
        const int64_t s0 = b << bp->shift;
        const int64_t s1 = s0 + ((int64_t)1 << bp->shift) < p->slots
                               ? s0 + ((int64_t)1 << bp->shift)
                               : p->slots;
        const size_t bytes = (size_t)(s1 - s0) * es;
        const int64_t begin = bin_start(bp, b), end = bin_start(bp, b + 1);
        uint8_t *out = j->b->out + (size_t)s0 * es;
        const uint8_t *data = j->b->data + (size_t)s0 * es;
        uint8_t *block = scratch != NULL ? scratch : out;
        if (!j->b->in_place)
            sgk_simd_copy_bytes(block, data, bytes, false);
        bp->apply16(block, bp->bin_slot, bp->bin_value, NULL, begin, end);
        if (scratch != NULL)
            sgk_simd_copy_bytes(out, scratch, bytes, true);
    }
}

static sgk_status binned_run(const sgk_plan *plan, const sgk_buffers *b)
{
    binned_plan *bp = (binned_plan *)plan;
    bin_job bj = {bp, b->updates};
    /* the slots and updates read, slot and value written */
    sgk_parallel_for(bp->parts, plan->threads,
                     plan->count * (6 + 2 * (int64_t)plan->elem_size),
                     plan->parallel_min_bytes, bin_pairs, &bj);
    apply_job aj = {bp, b};
    sgk_parallel_for_balanced(bp->blocks, plan->threads, blocks_cost, plan->parallel_min_bytes,
                              apply_bins, &aj);
    return SGK_OK;
}

static void binned_describe(const sgk_plan *plan, char *text, size_t size)
{
    const binned_plan *bp = (const binned_plan *)plan;
    snprintf(text, size, "path binned (%s; %lld blocks of %lld slots, %d parts); %lld updates",
             plan->why, (long long)bp->blocks, (long long)1 << bp->shift, bp->parts,
             (long long)plan->count);
}

const sgk_path sgk_path_binned = {
    .name = "binned",
    .forced_by = SGK_PATH_CHOICE_AUTO,
    .unfit = binned_unfit,
    .preferred = binned_preferred,
    .make = binned_make,
    .run = binned_run,
    .describe = binned_describe,
    .destroy = binned_destroy,
};
