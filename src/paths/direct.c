/* One-shot calls whose pairs are few: nothing is planned or allocated.
   The indices are checked a batch at a time; up to DIRECT_KEPT slots are
   kept for the run, beyond that they are read again a batch at a time as
   the slices move, and both passes find them in cache.  The call
   costs its shape checks and the data movement, which is what a tiny call
   and a KV-cache token write need. */
#include <stdio.h>

#include "registry/registry.h"
#include "problem/index_map.h"
#include "paths/pairs.h"
#include "simd/simd.h"

/* Slots worked out at a time: a stack array that stays in L1. */
#define DIRECT_BATCH 256

/* Up to this many pairs, the slots the check works out are kept for the
   run, in the calling thread's block: one pass over the indices. */
#define DIRECT_KEPT 2048

static _Thread_local int64_t kept_slots[DIRECT_KEPT];

typedef struct {
    sgk_plan base;
    sgk_problem problem; /* the caller's tensors, read during the one call */
    int64_t *slot;       /* kept_slots, or NULL: the run maps them again */
} direct_plan;

/* it takes the thread's plan block, and with it the thread's buffers */
_Static_assert(sizeof(direct_plan) <= SGK_PLAN_BLOCK_BYTES, "one-shot plan too large");

static const char *direct_unfit(const sgk_choice *c)
{
    if (!c->base->one_shot)
        return "a reused plan keeps no pointer to the caller's indices";
    if ((c->problem->flags & SGK_PLAN_WIDE_ACCUMULATE) != 0)
        return "float32 accumulation needs whole segments";
    return NULL;
}

/* The pairs' own traffic (index, update or output slice, destination)
   below SGK_PARALLEL_MIN_BYTES: one thread moves them sooner than a plan
   is made.  The copy of a scatter's data, however large, still runs in
   parallel. */
static bool direct_preferred(const sgk_choice *c, const char **why)
{
    const sgk_problem *p = c->problem;
    const double index_bytes = p->map.kind == SGK_MAP_TUPLES ? 8.0 * p->map.k : 8.0;
    const double slice_bytes = (double)p->slice_len * (double)sgk_elem_size(p->dtype);
    *why = "one-shot, few pairs: indices checked, then applied as they are read again";
    return (double)p->count * (index_bytes + 2.0 * slice_bytes) <
           (double)c->base->parallel_min_bytes;
}

static sgk_status direct_make(const sgk_plan *base, const sgk_problem *p, sgk_plan **out)
{
    direct_plan *dp = sgk_path_alloc(base, sizeof *dp);
    if (dp == NULL)
        return sgk_plan_out_of_memory(base);
    /* a call nested in another on this thread maps twice */
    const bool keep = p->count <= DIRECT_KEPT && sgk_path_owns_thread_buffers(&dp->base);
    int64_t batch[DIRECT_BATCH];
    for (int64_t n = 0; n < p->count; n += DIRECT_BATCH) {
        const int64_t end = p->count - n > DIRECT_BATCH ? n + DIRECT_BATCH : p->count;
        sgk_status status = sgk_map_index_range(p, n, end, keep ? kept_slots + n : batch);
        if (status != SGK_OK) {
            sgk_path_free(&dp->base);
            return status;
        }
    }
    dp->problem = *p;
    dp->slot = keep ? kept_slots : NULL;
    *out = &dp->base;
    return SGK_OK;
}

static sgk_status direct_run(const sgk_plan *plan, const sgk_buffers *b)
{
    const sgk_problem *p = &((const direct_plan *)plan)->problem;
    const size_t sb = b->slice_bytes;
    int64_t batch[DIRECT_BATCH];
    if (plan->scatter)
        sgk_copy_output(plan, b);
    const int64_t *kept = ((const direct_plan *)plan)->slot;
    for (int64_t n = 0; n < p->count; n += DIRECT_BATCH) {
        const int64_t m = p->count - n > DIRECT_BATCH ? DIRECT_BATCH : p->count - n;
        const int64_t *slot = kept != NULL ? kept + n : batch;
        if (kept == NULL)
            sgk_map_index_range(p, n, n + m, batch); /* checked when the plan was made */
        if (!plan->scatter)
            sgk_simd_move_slices(b->out + (size_t)n * sb, NULL, b->data, slot, 0, m, sb, sb,
                                 false);
        else
            sgk_apply_pairs(plan, b, b->out, (size_t)n * sb, slot, NULL, 0, m,
                            plan->slice_len);
    }
    return SGK_OK;
}

static void direct_describe(const sgk_plan *plan, char *text, size_t size)
{
    snprintf(text, size, "path direct (%s); %lld %s", plan->why, (long long)plan->count,
             plan->scatter ? "updates" : "outputs");
}

const sgk_path sgk_path_direct = {
    .name = "direct",
    .unfit = direct_unfit,
    .preferred = direct_preferred,
    .make = direct_make,
    .run = direct_run,
    .describe = direct_describe,
    .destroy = sgk_path_free,
};
