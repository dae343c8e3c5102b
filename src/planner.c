/* The planner: everything that depends only on shapes and index values is
   decided here, once, so that execution is pure data movement. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtype.h"
#include "duplicates.h"
#include "error.h"
#include "index_map.h"
#include "memory.h"
#include "atomic_reduce.h"
#include "parallel/parallel_for.h"
#include "parallel/partition.h"
#include "plan.h"
#include "runtime_config.h"
#include "shape.h"
#include "simd/simd.h"
#include "topology.h"
#include "whole_rows.h"

/* Prefetch windows of element gathers pay while they fit in L1 beside
   the chunk's indices and output. */
#define WINDOW_MAX_BYTES (32 * 1024)

/* Owner-computes by ranges has every thread read every pair: past this
   many threads the atomic path (each pair read once) or grouping wins. */
#define RANGES_MAX_THREADS 4

/* A destination block should stay in the core's L2 while its updates land:
   a quarter of L2 leaves room for the updates streaming through. */
static int64_t block_bytes(void)
{
    int64_t l2 = sgk_topology_get()->l2_bytes;
    int64_t bytes = l2 > 0 ? l2 / 4 : 256 * 1024;
    return bytes < 32 * 1024 ? 32 * 1024 : bytes > 1024 * 1024 ? 1024 * 1024 : bytes;
}

/* Non-temporal stores skip reading the destination into the cache before
   overwriting it, but leave the output outside the cache: worth it for
   outputs well beyond what the caches keep, written in runs of at least a
   cache line (a scatter's block copies always are, and element gathers
   write theirs front to back). */
static bool streams_pay(const sgk_plan *plan)
{
    const sgk_config *config = sgk_config_get();
    int64_t out_bytes = plan->output_elems * (int64_t)plan->elem_size;
    int64_t slice_bytes = plan->slice_len * (int64_t)plan->elem_size;
    return config->stream_min_bytes >= 0 && out_bytes >= config->stream_min_bytes &&
           (plan->scatter || slice_bytes >= 64 || plan->slice_len == 1);
}

/* `none`: a sequential loop leaves only the last update of each slot, so the
   earlier ones can be dropped here and never moved.  Compacts slot in place and
   records each kept pair's update position. */
static sgk_status drop_overwritten(sgk_plan *plan, int64_t *slot, int64_t **position)
{
    bool *keep = sgk_alloc_array(plan->count, sizeof *keep);
    int64_t *pos = sgk_alloc_array(plan->count, sizeof *pos);
    sgk_status status = keep != NULL && pos != NULL
                            ? sgk_find_last_occurrences(slot, plan->count, plan->slots, keep)
                            : SGK_ERR_OUT_OF_MEMORY;
    if (status == SGK_OK) {
        int64_t out = 0;
        for (int64_t n = 0; n < plan->count; n++) {
            if (keep[n]) {
                slot[out] = slot[n];
                pos[out++] = n;
            }
        }
        plan->count = plan->distinct = out;
        *position = pos;
    } else {
        free(pos);
    }
    free(keep);
    return status;
}

typedef struct {
    const int64_t *slot;
    int shift;        /* compare slot >> shift: 0 for slots, block_shift for blocks */
    int out_of_order; /* set by any range that finds a pair before its predecessor */
} order_job;

/* Pairs [begin, end), each against the pair before it, a stretch at a
   time: indices in no order are found out in the first stretch, and every
   range stops once one has (for 2 M random pairs the whole pass was 5% of
   planning). */
static void check_order(void *ctx, int worker, int64_t begin, int64_t end)
{
    order_job *job = ctx;
    (void)worker;
    const int shift = job->shift;
    for (int64_t n = begin > 0 ? begin : 1, next; n < end; n = next) {
        next = end - n > 4096 ? n + 4096 : end;
        bool out_of_order = false;
        for (int64_t i = n; i < next; i++)
            out_of_order |= job->slot[i] >> shift < job->slot[i - 1] >> shift;
        if (out_of_order)
            __atomic_store_n(&job->out_of_order, 1, __ATOMIC_RELAXED);
        if (__atomic_load_n(&job->out_of_order, __ATOMIC_RELAXED))
            return;
    }
}

/* Whether the pairs' slots >> shift never decrease; checked in parallel. */
static bool in_order(const sgk_plan *plan, const int64_t *slot, int shift)
{
    order_job job = {slot, shift, 0};
    sgk_parallel_for(plan->count, plan->threads, plan->count * 8, plan->parallel_min_bytes,
                     check_order, &job);
    return !job.out_of_order;
}

/* Sets block_start to where each block's pairs begin, when the pairs already
   come in block order (sorted indices, the Elements operators along most
   axes); returns false otherwise.  Each block's start is a binary search. */
static bool blocks_in_order(sgk_plan *plan, const int64_t *slot)
{
    if (!in_order(plan, slot, plan->block_shift))
        return false;
    int64_t *start = sgk_alloc_array(plan->blocks + 1, sizeof *start);
    if (start == NULL)
        return false;
    for (int64_t b = 0; b <= plan->blocks; b++) {
        /* the first pair of block b or later */
        int64_t lo = b > 0 ? start[b - 1] : 0, hi = plan->count;
        while (lo < hi) {
            int64_t mid = lo + (hi - lo) / 2;
            if (slot[mid] >> plan->block_shift < b)
                lo = mid + 1;
            else
                hi = mid;
        }
        start[b] = lo;
    }
    plan->block_start = start;
    return true;
}

/* Stable counting sort of the pairs by destination block. */
static sgk_status group_by_block(sgk_plan *plan, const int64_t *slot, const int64_t *position)
{
    int64_t *start = sgk_alloc_array(plan->blocks + 1, sizeof *start);
    int64_t *bslot = sgk_alloc_array(plan->count, sizeof *bslot);
    int64_t *bpos = sgk_alloc_array(plan->count, sizeof *bpos);
    sgk_status status = start != NULL && bslot != NULL && bpos != NULL
                            ? sgk_partition_stable(slot, position, plan->count, plan->block_shift,
                                                   plan->blocks, plan->threads,
                                                   plan->parallel_min_bytes, start, bslot, bpos)
                            : SGK_ERR_OUT_OF_MEMORY;
    if (status != SGK_OK) {
        free(start), free(bslot), free(bpos);
        return status;
    }
    plan->block_start = start;
    plan->slot = bslot;
    plan->position = bpos;
    return SGK_OK;
}

/* Owner-computes scatters of single elements with a 16-bit kernel: their
   blocks are kept to SGK_SLOT16_BLOCK slots, so that an execution reads 2
   bytes a pair for its slot, not 8.  scatter_elements_none, sgk-bench, AMD
   EPYC VM, builds alternated: 9.4-9.7 ms with the int64 slots and move
   kernel, 7.3-8.3 with a plain loop over them, 6.1-6.3 over 16-bit slots
   (3 rounds); 6.6-7.4 over 32-bit slots against 6.3-7.1 over 16-bit (4
   rounds). */
static bool takes_16_bit_slots(const sgk_plan *plan)
{
    return plan->path == SGK_PATH_OWNER && plan->slice_len == 1 &&
           plan->widen_reduce == NULL && sgk_apply16_kernel(plan->dtype, plan->reduction) != NULL;
}

static void choose_blocks(sgk_plan *plan)
{
    const int64_t slice_bytes = plan->slice_len * (int64_t)plan->elem_size;
    if (plan->path == SGK_PATH_SERIAL || slice_bytes == 0) {
        plan->block_slots = plan->slots;
    } else {
        plan->block_slots = block_bytes() / slice_bytes;
        if (plan->block_slots > plan->slots)
            plan->block_slots = plan->slots;
    }
    /* smaller than L2 / 4 only where that holds more than 65536 elements
       (here, with a 1 MiB L2: elements of 1 or 2 bytes) */
    if (takes_16_bit_slots(plan) && plan->block_slots > SGK_SLOT16_BLOCK)
        plan->block_slots = SGK_SLOT16_BLOCK;
    /* Rounded up to a power of two, so that finding a pair's block is a
       shift, not a 64-bit division, in the planner's per-pair loops. */
    plan->block_shift = 0;
    while (plan->block_shift < 62 && INT64_C(1) << plan->block_shift < plan->block_slots)
        plan->block_shift++;
    plan->block_slots = INT64_C(1) << plan->block_shift;
    plan->blocks = plan->slots / plan->block_slots + (plan->slots % plan->block_slots != 0);
}

/* When a few blocks hold most of the updates (skewed indices, as in
   embedding gradients) whole blocks cannot be shared evenly between threads;
   long slices can instead be cut by columns, every thread applying all the
   updates in order to its own columns: still exact, still deterministic. */
static int64_t choose_column_parts(const sgk_plan *plan)
{
    const int64_t sb = plan->slice_len * (int64_t)plan->elem_size;
    if (plan->threads < 2 || plan->widen_reduce != NULL || sb < 256 * plan->threads)
        return 1;
    int64_t total = 0, heaviest = 0;
    for (int64_t b = 0; b < plan->blocks; b++) {
        int64_t s0 = b * plan->block_slots;
        int64_t slots = s0 + plan->block_slots < plan->slots ? plan->block_slots
                                                              : plan->slots - s0;
        int64_t cost = (slots + 2 * (plan->block_start[b + 1] - plan->block_start[b])) * sb;
        total += cost;
        heaviest = cost > heaviest ? cost : heaviest;
    }
    return heaviest * plan->threads > total + total / 4 ? plan->threads : 1;
}

/* The sorted-segment path: all pairs sorted stably by slot, through buckets
   of at least a cache block and at least one pair each on average (so the
   bucket table grows with the pairs, not with the destination), each
   bucket then sorted by slot.  Takes ownership
   of slot and position. */
static sgk_status plan_sorted(sgk_plan *plan, int64_t *slot, int64_t *position)
{
    plan->slot = slot;
    plan->position = position;
    if (in_order(plan, slot, 0))
        return SGK_OK;
    /* cache-sized buckets at least: few buckets partition fastest, and
       then each bucket's counting sort stays in cache */
    choose_blocks(plan);
    while (plan->block_shift < 62 && plan->slots >> plan->block_shift > plan->count)
        plan->block_shift++;
    plan->block_slots = INT64_C(1) << plan->block_shift;
    plan->blocks = plan->slots / plan->block_slots + (plan->slots % plan->block_slots != 0);
    plan->slot = plan->position = NULL;
    sgk_status status = group_by_block(plan, slot, position);
    free(slot);
    free(position);
    if (status == SGK_OK)
        status = sgk_sort_blocks_by_slot_parallel(plan->block_start, plan->blocks,
                                                  plan->block_shift, plan->slot, plan->position,
                                                  NULL, plan->threads, plan->parallel_min_bytes);
    /* the executor walks segments, not buckets */
    free(plan->block_start);
    plan->block_start = NULL;
    plan->blocks = 0;
    return status;
}

typedef struct {
    sgk_plan *plan;
    uint16_t *slot16;     /* where the block-local slots go in 16 bits, or NULL */
    bool count;           /* count the distinct slots too */
    int64_t distinct;     /* summed atomically over the ranges */
    int failed;           /* a range had no memory to count */
} localize_job;

/* Blocked paths count slots from their block's first slot: the executor
   then applies a block's pairs to wherever the block is (the output, or a
   scratch copy of it).  The same pass can count the distinct slots, block
   by block in a bitmap of one block's slots that stays in cache, for a
   fraction of a separate pass over all the pairs. */
static void localize_blocks(void *ctx, int worker, int64_t first, int64_t last)
{
    localize_job *job = ctx;
    sgk_plan *plan = job->plan;
    const int64_t words = plan->block_slots / 64 + 1;
    uint64_t *seen = job->count ? malloc((size_t)words * sizeof *seen) : NULL;
    (void)worker;
    if (job->count && seen == NULL)
        __atomic_store_n(&job->failed, 1, __ATOMIC_RELAXED);
    int64_t found = 0;
    for (int64_t b = first; b < last; b++) {
        const int64_t base = b << plan->block_shift;
        if (seen != NULL)
            memset(seen, 0, (size_t)words * sizeof *seen);
        for (int64_t i = plan->block_start[b]; i < plan->block_start[b + 1]; i++) {
            const int64_t s = plan->slot[i] - base;
            if (job->slot16 != NULL)
                job->slot16[i] = (uint16_t)s;
            else
                plan->slot[i] = s;
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
   them only keeps them in 64), and, when `count`, sets plan->distinct. */
static sgk_status make_slots_block_local(sgk_plan *plan, bool count)
{
    localize_job job = {plan, NULL, count, 0, 0};
    if (takes_16_bit_slots(plan) && plan->count > 0)
        job.slot16 = sgk_alloc_array(plan->count, sizeof *job.slot16);
    /* block 0 already counts from 0: with nothing to count or narrow,
       nothing to do */
    if (plan->blocks > 1 || count || job.slot16 != NULL)
        sgk_parallel_for(plan->blocks, plan->threads, plan->count * 16,
                         plan->parallel_min_bytes, localize_blocks, &job);
    if (job.slot16 != NULL) {
        free(plan->slot);
        plan->slot = NULL;
        plan->slot16 = job.slot16;
        plan->apply16 = sgk_apply16_kernel(plan->dtype, plan->reduction);
    }
    if (count && job.failed)
        return SGK_ERR_OUT_OF_MEMORY;
    if (count)
        plan->distinct = job.distinct;
    return SGK_OK;
}

/* Groups the pairs for the blocked paths (owner-computes and
   serial), counting the distinct slots on the way when count_distinct.
   Takes ownership of slot and position. */
static sgk_status plan_blocks(sgk_plan *plan, int64_t *slot, int64_t *position,
                              bool count_distinct)
{
    choose_blocks(plan);
    sgk_status status = SGK_OK;
    if (blocks_in_order(plan, slot)) {
        plan->slot = slot;
        plan->position = position;
    } else {
        status = group_by_block(plan, slot, position);
        free(slot);
        free(position);
    }
    if (status == SGK_OK)
        status = make_slots_block_local(plan, count_distinct);
    if (status == SGK_OK)
        plan->column_parts = choose_column_parts(plan);
    return status;
}

static const char *const path_names[] = {
    [SGK_PATH_GATHER] = "gather", [SGK_PATH_OWNER] = "owner-computes",
    [SGK_PATH_SORTED] = "sorted-segment", [SGK_PATH_ATOMIC] = "atomic",
    [SGK_PATH_SERIAL] = "serial", [SGK_PATH_OWNER_RANGES] = "owner-computes",
    [SGK_PATH_LINES] = "lines",
};

/* Chooses the scatter path from the determinism setting, the reduction, the
   kernels this CPU has and whether the plan is reused (see the README's
   figures for the thresholds); records why, and why a forced path could not
   serve. */
static void choose_scatter_path(sgk_plan *plan, uint32_t flags, bool one_shot)
{
    const sgk_config *config = sgk_config_get();
    bool reorder = (flags & SGK_PLAN_ALLOW_REORDER) != 0 ||
                   (!config->deterministic && (flags & SGK_PLAN_DETERMINISTIC) == 0);
    bool none = plan->reduction == SGK_REDUCE_NONE;
    bool commutes = none || sgk_reduction_commutes(plan->dtype, plan->reduction);
    sgk_apply_fn atomic = sgk_atomic_apply_kernel(plan->dtype, plan->reduction);
    const char *no_atomic = NULL;
    if (plan->widen_reduce != NULL)
        no_atomic = "float32 accumulation needs whole segments";
    else if (!none && atomic == NULL)
        no_atomic = "no lock-free atomic for this type";
    else if (!commutes && !reorder)
        no_atomic = "the order matters and SGK_DETERMINISTIC is on";

    switch (config->reduce_path) {
    case SGK_PATH_CHOICE_SERIAL:
        plan->path = SGK_PATH_SERIAL;
        plan->why = "forced by SGK_REDUCE_PATH";
        return;
    case SGK_PATH_CHOICE_SORTED:
        plan->path = SGK_PATH_SORTED;
        plan->why = "forced by SGK_REDUCE_PATH";
        return;
    case SGK_PATH_CHOICE_ATOMIC:
        if (no_atomic == NULL) {
            plan->path = SGK_PATH_ATOMIC;
            plan->why = "forced by SGK_REDUCE_PATH";
            return;
        }
        snprintf(plan->fallback, sizeof plan->fallback,
                 "SGK_REDUCE_PATH=atomic cannot serve it (%s), fell back", no_atomic);
        break;
    case SGK_PATH_CHOICE_AUTO:
        break;
    }
    /* Thresholds: README, "Choosing a reduction path" (bench/compare-paths). */
    const int64_t slice_bytes = plan->slice_len * (int64_t)plan->elem_size;
    /* output and updates each fit in memory; their sum may still not fit
       in 63 bits, which only means "large" here */
    int64_t moved;
    if (__builtin_add_overflow(plan->slots * slice_bytes, plan->count * slice_bytes, &moved) ||
        __builtin_add_overflow(moved, plan->count * slice_bytes, &moved))
        moved = INT64_MAX;
    if (moved < plan->parallel_min_bytes || plan->threads <= 1) {
        /* one thread either way: one block, pairs in order, nothing to group */
        plan->path = SGK_PATH_SERIAL;
        plan->why = plan->threads <= 1 ? "one thread" : "below SGK_PARALLEL_MIN_BYTES";
        return;
    }
    /* A one-shot call pays for its grouping every time.  Owner-computes by
       ranges needs none, and with few threads reading every pair costs
       less than grouping them; with many, the atomic path reads each pair
       once.  A reused plan groups once and then runs fastest in blocks. */
    if (one_shot && plan->threads <= RANGES_MAX_THREADS && plan->widen_reduce == NULL) {
        plan->path = SGK_PATH_OWNER_RANGES;
        plan->why = "one-shot: no grouping, each thread applies the pairs of its own slots";
        return;
    }
    if (no_atomic == NULL && one_shot) {
        plan->path = SGK_PATH_ATOMIC;
        plan->why = none ? "one-shot, last updates only: no grouping needed"
                         : "one-shot, order-independent: no grouping needed";
        return;
    }
    /* Fewer updates than cache-sized destination blocks: a block table
       would outgrow the pairs, and most blocks would be plain copies. */
    int64_t block_slots = slice_bytes > 0 ? block_bytes() / slice_bytes : plan->slots;
    if (block_slots > 0 && plan->slots / block_slots > plan->count) {
        plan->path = SGK_PATH_SORTED;
        plan->why = "fewer updates than destination blocks";
        return;
    }
    plan->path = SGK_PATH_OWNER;
    plan->why = "destination blocks in cache, updates in order";
}

/* Takes ownership of slot. */
static sgk_status plan_scatter(sgk_plan *plan, uint32_t flags, bool one_shot, int64_t *slot)
{
    if ((flags & SGK_PLAN_WIDE_ACCUMULATE) == 0)
        plan->widen_reduce = NULL;
    choose_scatter_path(plan, flags, one_shot);
    if (plan->path == SGK_PATH_SERIAL)
        plan->threads = 1;
    int64_t *position = NULL;
    /* One-shot plans without grouping have no use for the statistics
       (atomic `none` still needs the last occurrences). */
    bool statistics = !(one_shot && ((plan->path == SGK_PATH_ATOMIC &&
                                      plan->reduction != SGK_REDUCE_NONE) ||
                                     plan->path == SGK_PATH_OWNER_RANGES));
    /* In-order application already lets the last update win; dropping the
       overwritten ones first pays only when they carry more bytes than the
       position list it costs (8 bytes a pair, read again at every run), which
       slices of 8 bytes or less never do.  The atomic path always drops
       them: its pairs must name distinct slots. */
    int64_t slice_bytes = plan->slice_len * (int64_t)plan->elem_size;
    bool may_drop = plan->reduction == SGK_REDUCE_NONE && plan->path != SGK_PATH_OWNER_RANGES &&
                    (plan->path == SGK_PATH_ATOMIC || slice_bytes > 8);
    /* Owner-computes counts while it makes the slots block-local, unless
       the count must come first, to decide on the drop. */
    bool count_later = statistics && plan->path == SGK_PATH_OWNER && !may_drop;
    sgk_status status = statistics && !count_later
                            ? sgk_count_distinct(slot, plan->count, plan->slots, plan->threads,
                                                 plan->parallel_min_bytes, &plan->distinct)
                            : SGK_OK;
    if (!statistics)
        plan->distinct = -1;
    if (status == SGK_OK && may_drop &&
        (plan->path == SGK_PATH_ATOMIC ||
         (plan->count - plan->distinct) * slice_bytes > plan->count * 8))
        status = drop_overwritten(plan, slot, &position);
    if (status != SGK_OK) {
        free(slot);
        return status;
    }
    if (plan->path == SGK_PATH_ATOMIC || plan->path == SGK_PATH_OWNER_RANGES) {
        if (plan->path == SGK_PATH_ATOMIC)
            plan->apply = sgk_atomic_apply_kernel(plan->dtype, plan->reduction);
        plan->slot = slot;
        plan->position = position;
        return SGK_OK;
    }
    if (plan->path == SGK_PATH_SORTED)
        return plan_sorted(plan, slot, position);
    return plan_blocks(plan, slot, position, count_later);
}

/* Chunks [first, last) of GATHER_CHUNK outputs: each chunk's range of
   source slots recorded. */
static void chunk_windows(void *ctx, int worker, int64_t first, int64_t last)
{
    sgk_plan *plan = ctx;
    (void)worker;
    const int32_t *slot = plan->slot32;
    for (int64_t c = first; c < last; c++) {
        int32_t lo = INT32_MAX, hi = 0;
        /* one bound, read once: the loop vectorizes */
        const int64_t end = (c + 1) * GATHER_CHUNK < plan->count ? (c + 1) * GATHER_CHUNK
                                                                 : plan->count;
        for (int64_t n = c * GATHER_CHUNK; n < end; n++) {
            lo = slot[n] < lo ? slot[n] : lo;
            hi = slot[n] > hi ? slot[n] : hi;
        }
        plan->window[2 * c] = lo;
        plan->window[2 * c + 1] = hi;
    }
}

/* Each chunk reading a narrow range of source slots (rows of an Elements
   gather along its last axis): fetching the next range in order while this
   chunk gathers replaces random misses by a sequential stream.  Records
   the ranges when they are narrow enough. */
static sgk_status find_windows(sgk_plan *plan)
{
    int64_t chunks = (plan->count + GATHER_CHUNK - 1) / GATHER_CHUNK;
    plan->window = sgk_alloc_array(2 * chunks, sizeof *plan->window);
    if (plan->window == NULL)
        return SGK_ERR_OUT_OF_MEMORY; /* sgk_plan_destroy frees what there is */
    sgk_parallel_for(chunks, plan->threads, plan->count * 4, plan->parallel_min_bytes,
                     chunk_windows, plan);
    int64_t span = 0;
    for (int64_t c = 0; c < chunks; c++)
        span += plan->window[2 * c + 1] - plan->window[2 * c] + 1;
    if (chunks == 0 || span / chunks * 4 > WINDOW_MAX_BYTES) {
        free(plan->window);
        plan->window = NULL;
    }
    return SGK_OK;
}

/* Highway's vector gathers need indices as wide as the elements: 4-byte
   element gathers map their slots straight to 32 bits, which also halves
   what the planner writes and every execution reads. */
static bool maps_to_32_bits(const sgk_problem *p)
{
    return !p->scatter && p->slice_len == 1 && sgk_dtype_size(p->dtype) == 4 &&
           p->slots <= INT32_MAX;
}

static void describe(sgk_plan *plan)
{
    char what[320], distinct[48] = "uncounted destinations";
    if (plan->distinct >= 0)
        snprintf(distinct, sizeof distinct, "%lld distinct", (long long)plan->distinct);
    if (plan->path == SGK_PATH_LINES)
        snprintf(what, sizeof what,
                 "path lines (%s; %lld x %lld lines of %lld slots, %lld index elements "
                 "each, in units of %lld lines); %lld %s",
                 plan->why, (long long)plan->outer, (long long)plan->inner,
                 (long long)plan->data_axis, (long long)plan->index_axis,
                 (long long)plan->inner_chunk, (long long)plan->count,
                 plan->scatter ? "updates" : "outputs");
    else if (plan->path == SGK_PATH_ATOMIC || plan->path == SGK_PATH_SORTED ||
             plan->path == SGK_PATH_OWNER_RANGES)
        snprintf(what, sizeof what,
                 "path %s (%s; %s); %lld updates to %s of %lld slots",
                 path_names[plan->path], plan->why,
                 plan->path == SGK_PATH_ATOMIC
                     ? "output copied, then pairs shared evenly between threads"
                 : plan->path == SGK_PATH_SORTED
                     ? "output copied, then one segment per slot, segments shared between "
                       "threads"
                     : "ranges of slots, one per thread",
                 (long long)plan->count, distinct, (long long)plan->slots);
    else if (plan->scatter)
        snprintf(what, sizeof what,
                 "path %s (%s; %lld blocks of %lld slots%s%s); %lld updates to %lld distinct "
                 "of %lld slots",
                 path_names[plan->path], plan->why, (long long)plan->blocks,
                 (long long)plan->block_slots, plan->slot16 != NULL ? ", 16-bit slots" : "",
                 plan->column_parts > 1 ? ", slices split by columns between threads" : "",
                 (long long)plan->count, (long long)plan->distinct, (long long)plan->slots);
    else
        snprintf(what, sizeof what, "path gather-%s; %lld rows from %lld slots",
                 plan->slot32 != NULL || (plan->slice_len == 1 && plan->elem_size == 8)
                     ? "elements (vector gathers)"
                 : plan->source_order != NULL
                     ? "rows (read in source order into line-aligned outputs)"
                     : "rows",
                 (long long)plan->count, (long long)plan->slots);
    snprintf(plan->description, sizeof plan->description,
             "%s %s %s%s: %s of %lld elements%s; threads %d; simd %s%s%s", plan->op,
             sgk_dtype_name(plan->dtype), sgk_reduction_name(plan->reduction),
             plan->widen_reduce != NULL ? " (float32 accumulation)" : "", what,
             (long long)plan->slice_len,
             plan->whole_rows ? " (whole rows: the index is constant after the axis)" : "",
             plan->threads, sgk_simd_target_name(),
             plan->fallback[0] ? "; " : "", plan->fallback);
    if (sgk_config_get()->verbose)
        fprintf(stderr, "sgk: %s\n", plan->description);
}

/* SGK_PATH_LINES' unit of work is one outer position and a chunk of inner
   ones, whose lines a scatter copies and then updates while they are still
   in cache (as many as a cache block holds, but a page-wide column at
   least, in cache or not), with enough units to share.
   Where the lines are cut into columns, a column is a page wide at least:
   narrower ones made the copy crawl through the data a few cache lines per
   page (axis 0 of [4096, 4096] float32 by [1024, 4096]: one-shot add 80 ms
   with 64-byte columns, 56-63 ms with 4 KiB ones, 69-73 ms mapping every
   slot as before). */
typedef struct {
    int64_t outer, inner, data_axis; /* data seen as [outer, data_axis, inner] */
    int64_t chunk;                   /* inner positions per unit */
    int64_t units;
} lines_layout;

static lines_layout lay_out_lines(const sgk_problem *p, int threads)
{
    const sgk_index_map *m = &p->map;
    const int64_t es = (int64_t)sgk_dtype_size(p->dtype), page = 4096 / es;
    lines_layout l = {
        .outer = sgk_shape_product(m->data->shape, 0, m->axis),
        .inner = sgk_shape_product(m->data->shape, m->axis + 1, m->data->rank),
        .data_axis = m->data->shape[m->axis],
    };
    int64_t chunk = l.data_axis > 0 ? block_bytes() / (l.data_axis * es) : l.inner;
    chunk = chunk < page ? page : chunk / page * page;
    while (chunk > page && l.outer * ((l.inner + chunk - 1) / chunk) < 4 * threads)
        chunk = chunk / 2 < page ? page : chunk / 2 / page * page;
    l.chunk = l.inner < chunk ? (l.inner > 0 ? l.inner : 1) : chunk;
    l.units = l.outer * ((l.inner + l.chunk - 1) / l.chunk);
    return l;
}

/* One-shot Elements calls take SGK_PATH_LINES when the indices span data
   in every dimension but the axis, so that each data line along the axis
   has exactly one line of indices; when (scatters) no reduction path is
   forced; and when there are units enough for the threads the problem
   deserves (axis 0 of a narrow matrix is one unit: mapped slots share it
   out).  Gathers below SGK_PARALLEL_MIN_BYTES map their slots: a vector
   gather call per short line cost more than mapping them (64 outputs in
   lines of 4: 1.7 us against 1.0). */
static bool takes_lines(const sgk_problem *p, int threads, int64_t min_bytes)
{
    const sgk_index_map *m = &p->map;
    if (m->kind != SGK_MAP_ELEMENTS || m->row_len > 1 ||
        (p->flags & SGK_PLAN_WIDE_ACCUMULATE) != 0 ||
        (p->scatter && sgk_config_get()->reduce_path != SGK_PATH_CHOICE_AUTO))
        return false;
    for (int d = 0; d < m->data->rank; d++)
        if (d != m->axis && m->indices->shape[d] != m->data->shape[d])
            return false;
    const int64_t es = (int64_t)sgk_dtype_size(p->dtype);
    /* bytes moved: output (and for scatters the copied data), pairs; in
       double, as the sum may pass 2^63 where the buffers do not */
    const double moved =
        (p->scatter ? 2.0 * p->data_elems + 3.0 * p->count : 2.0 * p->count) * (double)es;
    if (moved < (double)min_bytes)
        return p->scatter;
    return lay_out_lines(p, threads).units >= threads;
}

/* Checks the indices and lays out the lines. */
static sgk_status plan_lines(sgk_plan *plan, const sgk_problem *p)
{
    const sgk_index_map *m = &p->map;
    sgk_status status = sgk_check_element_indices(p, plan->threads, plan->parallel_min_bytes);
    if (status != SGK_OK)
        return status;
    plan->path = SGK_PATH_LINES;
    plan->why = p->scatter ? "one-shot, indices spanning data but along the axis: each "
                             "thread copies lines and applies their updates in order"
                           : "one-shot, indices spanning data but along the axis: slots "
                             "worked out from the indices as they are gathered";
    /* 4-byte elements take 32-bit vector gathers, as mapped gathers do */
    plan->lines32 = maps_to_32_bits(p);
    plan->distinct = -1;
    plan->widen_reduce = NULL; /* the sequential definition: one rounding per update */
    plan->indices = m->indices->data;
    plan->index64 = m->indices->dtype == SGK_INT64;
    const lines_layout l = lay_out_lines(p, plan->threads);
    plan->outer = l.outer;
    plan->inner = l.inner;
    plan->data_axis = l.data_axis;
    plan->index_axis = m->indices->shape[m->axis];
    plan->inner_chunk = l.chunk;
    return SGK_OK;
}

/* Shortest slice, in bytes, that takes the Highway reduction kernel: below
   it the scalar loop of reduce.c is as fast or faster (measured with AVX3 on
   [2048, w] rows, 65536 pairs: at 16 bytes float32 add is 1.8x faster,
   float64 add about even, int8 add loses at 8 bytes).  fp16/bf16 convert in
   software either way, and vectors win from 2 elements.  Single elements
   always stay with reduce.c, whose stride-1 loops prefetch updates far
   ahead. */
#define SIMD_APPLY_MIN_BYTES 16
#define SIMD_APPLY_MIN_BYTES_HALF 4

/* The reduction kernel: vectorized for slices, reduce.c (the reference)
   for short ones and wherever Highway has no kernel. */
static sgk_apply_fn choose_apply(const sgk_problem *p)
{
    sgk_apply_fn scalar = sgk_apply_kernel(p->dtype, p->reduction);
    bool half = p->dtype == SGK_FLOAT16 || p->dtype == SGK_BFLOAT16;
    int64_t min_bytes = half ? SIMD_APPLY_MIN_BYTES_HALF : SIMD_APPLY_MIN_BYTES;
    if (scalar == NULL || p->slice_len < 2 ||
        p->slice_len < min_bytes / (int64_t)sgk_dtype_size(p->dtype))
        return scalar;
    sgk_simd_apply_fn vector = sgk_simd_apply_kernel((int)p->dtype, (int)p->reduction);
    return vector != NULL ? vector : scalar;
}

/* Rows this long or longer, a whole number of cache lines, are worth
   reading in source order: gather_embedding (1 KiB rows at random from a
   51 MB table) 4.5-5.8 ms in output order, 3.5-4.0 in source order;
   gather_batch1 (512-byte rows) 0.98-1.10 against 0.85-0.95 (sgk-bench,
   alternated builds).  Shorter rows were not measured. */
#define SORTED_ROWS_MIN_BYTES 512

/* Sets source_order for a row gather whose rows are worth reading in
   source order and whose source is beyond the cache: a stable counting
   sort, by slot where the source has at most 4 slots per row gathered,
   else by buckets of 2^shift slots, 4 per row at most (reads still sweep
   the source front to back).  The counts
   live in the thread's scratch and the order in 32 bits: on this machine
   fresh pages cost the planner more than the sort (gather_embedding:
   planning 0.23 ms, 1.6-1.8 ms with three fresh 64-bit arrays).  Failing
   to allocate only leaves the gather in output order. */
static void sort_gather_rows(sgk_plan *plan)
{
    const int64_t row_bytes = plan->slice_len * (int64_t)plan->elem_size;
    if (plan->slot == NULL || row_bytes < SORTED_ROWS_MIN_BYTES || row_bytes % 64 != 0 ||
        plan->count > INT32_MAX || plan->slots * row_bytes < plan->parallel_min_bytes ||
        plan->count * row_bytes < plan->parallel_min_bytes || in_order(plan, plan->slot, 0))
        return;
    int shift = 0;
    while ((plan->slots - 1) >> shift >= 4 * plan->count)
        shift++;
    const int64_t buckets = ((plan->slots - 1) >> shift) + 1;
    int32_t *start = sgk_thread_scratch((size_t)(buckets + 1) * sizeof *start);
    int32_t *order = start != NULL ? sgk_alloc_array(plan->count, sizeof *order) : NULL;
    if (order == NULL)
        return;
    memset(start, 0, (size_t)(buckets + 1) * sizeof *start);
    const int64_t *slot = plan->slot;
    for (int64_t n = 0; n < plan->count; n++)
        start[(slot[n] >> shift) + 1]++;
    for (int64_t b = 0; b < buckets; b++)
        start[b + 1] += start[b];
    for (int64_t n = 0; n < plan->count; n++)
        order[start[slot[n] >> shift]++] = (int32_t)n;
    plan->source_order = order;
}

sgk_status sgk_plan_build(const sgk_problem *problem, bool for_caller, sgk_plan **out)
{
    const int threads = sgk_config_threads();
    const int64_t min_bytes = sgk_config_get()->parallel_min_bytes;
    sgk_problem rewritten = *problem;
    const bool whole_rows = sgk_rewrite_as_whole_rows(&rewritten, threads, min_bytes);
    const sgk_problem *p = &rewritten;
    /* Planning scratch takes up to 32 bytes per pair. */
    if (p->count > INT64_MAX / 32)
        return sgk_fail(SGK_ERR_OVERFLOW, p->op, "%lld index tuples are too many to plan",
                        (long long)problem->count);
    const bool lines = !for_caller && takes_lines(p, threads, min_bytes);
    const bool narrow = !lines && maps_to_32_bits(p);
    sgk_plan *plan = calloc(1, sizeof *plan);
    int64_t *slot = lines || narrow ? NULL : sgk_alloc_array(p->count, sizeof *slot);
    int32_t *slot32 = narrow ? sgk_alloc_array(p->count, sizeof *slot32) : NULL;
    if (plan == NULL || (!lines && slot == NULL && slot32 == NULL)) {
        free(plan);
        free(slot);
        free(slot32);
        return sgk_fail(SGK_ERR_OUT_OF_MEMORY, p->op, "no memory for %lld index tuples",
                        (long long)problem->count);
    }
    *plan = (sgk_plan){
        .op = p->op,
        .scatter = p->scatter,
        .dtype = p->dtype,
        .elem_size = sgk_dtype_size(p->dtype),
        .reduction = p->reduction,
        .data_elems = p->data_elems,
        .updates_elems = p->updates_elems,
        .output_elems = p->output_elems,
        .slice_len = p->slice_len,
        .slots = p->slots,
        .count = p->count,
        .whole_rows = whole_rows,
        .threads = threads,
        .parallel_min_bytes = min_bytes,
        .apply = choose_apply(p),
        .widen_reduce = sgk_widen_reduce_kernel(p->dtype, p->reduction),
    };
    plan->stream_output = streams_pay(plan);
    sgk_status status =
        lines ? plan_lines(plan, p)
              : sgk_map_indices(p, slot, slot32, plan->threads, plan->parallel_min_bytes);
    if (status != SGK_OK) {
        free(slot);
        free(slot32);
        free(plan);
        return status;
    }
    if (lines) {
        /* planned */
    } else if (p->scatter) {
        status = plan_scatter(plan, p->flags, !for_caller, slot);
    } else {
        plan->slot = slot;
        plan->slot32 = slot32;
        plan->path = SGK_PATH_GATHER;
        status = narrow ? find_windows(plan) : SGK_OK;
        sort_gather_rows(plan);
    }
    if (status != SGK_OK) {
        sgk_plan_destroy(plan);
        return sgk_fail(status, p->op, "no memory to plan %lld updates",
                        (long long)problem->count);
    }
    /* The description costs more than a tiny problem's whole execution:
       only plans a caller can ask about, or that are logged, get one. */
    if (for_caller || sgk_config_get()->verbose)
        describe(plan);
    *out = plan;
    return SGK_OK;
}

const char *sgk_plan_describe(const sgk_plan *plan)
{
    return plan != NULL ? plan->description : "(no plan)";
}

void sgk_plan_destroy(sgk_plan *plan)
{
    if (plan == NULL)
        return;
    free(plan->slot);
    free(plan->slot16);
    free(plan->slot32);
    free(plan->window);
    free(plan->position);
    free(plan->source_order);
    free(plan->block_start);
    free(plan);
}
