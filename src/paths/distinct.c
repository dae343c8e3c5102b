/* Scatters whose operator guarantees that no two pairs share a slot
   (TensorScatter: each row's positions are consecutive, at most one
   turn of the ring): with `none` the order of the pairs cannot matter, so
   the slices are moved in parallel over the pairs, with no grouping,
   counting or dropping.  After the output copy (none in place) each
   written slice is read once and written once: the KV-cache write costs
   its update. */
#include <stdio.h>
#include <stdlib.h>

#include "problem/index_map.h"
#include "runtime/memory.h"
#include "paths/pairs.h"
#include "simd/simd.h"

typedef struct {
    sgk_plan base;
    int64_t *slot;
    bool slot_owned; /* allocated for the plan, not the thread's call scratch */
} distinct_plan;

static const char *distinct_unfit(const sgk_choice *c)
{
    const sgk_problem *p = c->problem;
    if (!p->scatter)
        return "gathers have no slots to collide";
    if (!p->distinct_slots)
        return "the operator lets slots repeat";
    return p->reduction != SGK_REDUCE_NONE ? "reductions read the output" : NULL;
}

static bool distinct_preferred(const sgk_choice *c, const char **why)
{
    (void)c;
    *why = "slots never repeat: slices moved in parallel, in any order";
    return true;
}

/* A one-shot call maps its slots into the thread's call scratch (the
   plan block being the thread's), kept for its next call: a prefill's
   million slots would otherwise fault fresh pages in on every call. */
static sgk_status distinct_make(const sgk_plan *base, const sgk_problem *p, sgk_plan **out)
{
    distinct_plan *dp = sgk_path_alloc(base, sizeof *dp);
    if (dp == NULL)
        return sgk_plan_out_of_memory(base);
    const size_t bytes = (size_t)(p->count > 0 ? p->count : 1) * sizeof *dp->slot;
    if (base->one_shot && sgk_path_owns_thread_buffers(&dp->base) &&
        bytes <= SGK_CALL_SCRATCH_KEEP)
        dp->slot = sgk_call_scratch(bytes);
    if (dp->slot == NULL) {
        dp->slot = sgk_alloc_array(p->count, sizeof *dp->slot);
        dp->slot_owned = true;
    }
    sgk_status status =
        dp->slot == NULL
            ? sgk_plan_out_of_memory(base)
            : sgk_map_indices(p, dp->slot, NULL, base->threads, base->parallel_min_bytes);
    if (status != SGK_OK) {
        if (dp->slot_owned)
            free(dp->slot);
        sgk_path_free(&dp->base);
        return status;
    }
    *out = &dp->base;
    return SGK_OK;
}

typedef struct {
    const distinct_plan *dp;
    const sgk_buffers *b;
} job;

/* The slices land where the next operator (attention) reads them: plain
   stores, kept in cache. */
static void move_pairs(void *ctx, int worker, int64_t begin, int64_t end)
{
    const job *j = ctx;
    (void)worker;
    sgk_simd_move_slices(j->b->out, j->dp->slot, j->b->updates, NULL, begin, end,
                         j->b->slice_bytes, j->b->slice_bytes, false);
}

static sgk_status distinct_run(const sgk_plan *plan, const sgk_buffers *b)
{
    job j = {(const distinct_plan *)plan, b};
    sgk_copy_output(plan, b);
    const int64_t moved = plan->count * (int64_t)b->slice_bytes;
    sgk_parallel_for(plan->count, plan->threads, moved > INT64_MAX / 2 ? INT64_MAX : 2 * moved,
                     plan->parallel_min_bytes, move_pairs, &j);
    return SGK_OK;
}

static void distinct_describe(const sgk_plan *plan, char *text, size_t size)
{
    sgk_describe_pairs(plan, "pairs shared evenly between threads", plan->count, text, size);
}

static void distinct_destroy(sgk_plan *plan)
{
    distinct_plan *dp = (distinct_plan *)plan;
    if (dp->slot_owned)
        free(dp->slot);
    sgk_path_free(&dp->base);
}

const sgk_path sgk_path_distinct = {
    .name = "distinct-slices",
    .unfit = distinct_unfit,
    .preferred = distinct_preferred,
    .make = distinct_make,
    .run = distinct_run,
    .describe = distinct_describe,
    .destroy = distinct_destroy,
};
