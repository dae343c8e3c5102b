/* Sorted-segment scatters: the pairs sorted stably by slot, so that a
   slot's updates form one segment applied in original order; the output
   is copied, then segments are shared between threads.  Its tables grow
   with the updates, not with the destination: the path for few updates
   into a large destination. */
#include <stdlib.h>

#include "runtime/memory.h"
#include "parallel/parallel_for.h"
#include "parallel/partition.h"
#include "paths/pairs.h"

typedef struct {
    sgk_plan base;
    int64_t *slot;     /* sorted */
    int64_t *position; /* the update slice of each pair; NULL: pair i takes
                          slice i (indices already in order) */
    int64_t distinct;
} sorted_plan;

static const char *sorted_unfit(const sgk_choice *c)
{
    return c->problem->scatter ? NULL : "gathers have no segments";
}

/* Fewer updates than cache-sized destination blocks: a block table would
   outgrow the pairs, and most blocks would be plain copies. */
static bool sorted_preferred(const sgk_choice *c, const char **why)
{
    const sgk_plan *plan = c->base;
    const int64_t slice_bytes = plan->slice_len * (int64_t)plan->elem_size;
    int64_t block_slots = slice_bytes > 0 ? sgk_cache_block_bytes() / slice_bytes : plan->slots;
    *why = "fewer updates than destination blocks";
    return block_slots > 0 && plan->slots / block_slots > plan->count;
}

/* All pairs sorted stably by slot, through buckets of at least a cache
   block and at least one pair each on average (so that the bucket table
   grows with the pairs, not with the destination), each bucket then sorted
   by slot.  Takes ownership of slot and position. */
static sgk_status sort_pairs(sorted_plan *sp, int64_t *slot, int64_t *position)
{
    const sgk_plan *plan = &sp->base;
    sp->slot = slot;
    sp->position = position;
    if (sgk_pairs_in_order(plan, slot, 0))
        return SGK_OK;
    /* cache-sized buckets at least: few buckets partition fastest, and
       then each bucket's counting sort stays in cache */
    const int64_t slice_bytes = plan->slice_len * (int64_t)plan->elem_size;
    int64_t block_slots = plan->slots;
    if (slice_bytes > 0 && sgk_cache_block_bytes() / slice_bytes < plan->slots)
        block_slots = sgk_cache_block_bytes() / slice_bytes;
    int shift = sgk_shift_for(block_slots);
    while (shift < 62 && plan->slots >> shift > plan->count)
        shift++;
    const int64_t bucket_slots = INT64_C(1) << shift;
    const int64_t buckets = plan->slots / bucket_slots + (plan->slots % bucket_slots != 0);
    int64_t *start = sgk_alloc_array(buckets + 1, sizeof *start);
    sp->slot = sgk_alloc_array(plan->count, sizeof *sp->slot);
    sp->position = sgk_alloc_array(plan->count, sizeof *sp->position);
    sgk_status status = start != NULL && sp->slot != NULL && sp->position != NULL
                            ? sgk_partition_stable(slot, position, plan->count, shift, buckets,
                                                   plan->threads, plan->parallel_min_bytes,
                                                   start, sp->slot, sp->position)
                            : SGK_ERR_OUT_OF_MEMORY;
    free(slot);
    free(position);
    if (status == SGK_OK)
        status = sgk_sort_blocks_by_slot_parallel(start, buckets, shift, sp->slot, sp->position,
                                                  NULL, plan->threads, plan->parallel_min_bytes);
    free(start);
    return status;
}

static void sorted_destroy(sgk_plan *plan)
{
    sorted_plan *sp = (sorted_plan *)plan;
    free(sp->slot);
    free(sp->position);
    sgk_path_free(&sp->base);
}

static sgk_status sorted_make(const sgk_plan *base, const sgk_problem *p, sgk_plan **out)
{
    sorted_plan *sp = sgk_path_alloc(base, sizeof *sp);
    if (sp == NULL)
        return sgk_plan_out_of_memory(base);
    int64_t *slot, *position = NULL;
    sgk_status status = sgk_pairs_map(&sp->base, p, &slot);
    if (status != SGK_OK) {
        sgk_path_free(&sp->base);
        return status;
    }
    status = sgk_pairs_count_then_drop(&sp->base, slot, &position, &sp->distinct);
    if (status == SGK_OK) {
        status = sort_pairs(sp, slot, position);
    } else {
        free(slot);
        free(position);
    }
    if (status != SGK_OK) {
        sorted_destroy(&sp->base);
        return sgk_plan_out_of_memory(base);
    }
    *out = &sp->base;
    return SGK_OK;
}

typedef struct {
    const sorted_plan *sp;
    const sgk_buffers *b;
    float *acc; /* SGK_PLAN_WIDE_ACCUMULATE: one slice of floats per worker */
} job;

/* One segment [begin, end) of pairs to the same slot under
   SGK_PLAN_WIDE_ACCUMULATE: widened once, reduced in float32, rounded once. */
static void apply_wide_segment(const job *j, float *acc, uint16_t *out, int64_t begin,
                               int64_t end)
{
    const sgk_plan *p = &j->sp->base;
    const int64_t *position = j->sp->position;
    sgk_widen(p, acc, out, p->slice_len);
    for (int64_t i = begin; i < end; i++)
        p->widen_reduce(acc,
                        j->b->updates +
                            (size_t)(position != NULL ? position[i] : i) * j->b->slice_bytes,
                        p->slice_len);
    sgk_round_back(p, out, acc, p->slice_len);
}

/* Each range moved to the next segment start, so that every slot's
   updates stay with one thread, in order. */
static void apply_segments(void *ctx, int worker, int64_t begin, int64_t end)
{
    const job *j = ctx;
    const sgk_plan *p = &j->sp->base;
    const int64_t *slot = j->sp->slot;
    while (begin > 0 && begin < p->count && slot[begin] == slot[begin - 1])
        begin++;
    while (end > 0 && end < p->count && slot[end] == slot[end - 1])
        end++;
    if (begin >= end)
        return;
    if (p->widen_reduce == NULL) {
        sgk_apply_pairs(p, j->b, j->b->out, 0, slot, j->sp->position, begin, end, p->slice_len);
        return;
    }
    float *acc = j->acc + (size_t)worker * (size_t)p->slice_len;
    for (int64_t i = begin, next; i < end; i = next) {
        for (next = i + 1; next < end && slot[next] == slot[i]; next++)
            continue;
        apply_wide_segment(j, acc, (uint16_t *)(j->b->out + (size_t)slot[i] * j->b->slice_bytes),
                           i, next);
    }
}

static sgk_status sorted_run(const sgk_plan *plan, const sgk_buffers *b)
{
    job j = {(const sorted_plan *)plan, b, NULL};
    if (plan->widen_reduce != NULL) {
        /* scratch before the first write: after it nothing may fail */
        int workers = plan->threads > 0 ? plan->threads : 1;
        j.acc = malloc((size_t)workers * (size_t)plan->slice_len * sizeof *j.acc);
        if (j.acc == NULL)
            return SGK_ERR_OUT_OF_MEMORY;
    }
    sgk_copy_output(plan, b);
    /* each pair reads its update and reads and writes its destination */
    int64_t moved = plan->count * (int64_t)b->slice_bytes;
    sgk_parallel_for(plan->count, plan->threads, moved > INT64_MAX / 3 ? INT64_MAX : 3 * moved,
                     plan->parallel_min_bytes, apply_segments, &j);
    free(j.acc);
    return SGK_OK;
}

static void sorted_describe(const sgk_plan *plan, char *text, size_t size)
{
    sgk_describe_pairs(plan,
                       "output copied, then one segment per slot, segments shared between "
                       "threads",
                       ((const sorted_plan *)plan)->distinct, text, size);
}

const sgk_path sgk_path_sorted = {
    .name = "sorted-segment",
    .unfit = sorted_unfit,
    .preferred = sorted_preferred,
    .make = sorted_make,
    .run = sorted_run,
    .describe = sorted_describe,
    .destroy = sorted_destroy,
};
