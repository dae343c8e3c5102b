/* Scatters whose updates may land in any order (integer and bool
   reductions, float ones when reordering is allowed, `none` once only the
   last update of each slot is kept): the output is copied, then the pairs,
   in original order and never grouped, are shared evenly between threads
   and applied with atomic read-modify-writes. */
#include <stdlib.h>

#include "kernels/atomic_reduce.h"
#include "registry/registry.h"
#include "parallel/parallel_for.h"
#include "paths/pairs.h"

typedef struct {
    sgk_plan base;
    int64_t *slot;
    int64_t *position; /* the update slice of each pair kept; NULL: pair i
                          takes slice i */
    int64_t distinct;  /* -1 when not counted */
} atomic_plan;

static const char *atomic_unfit(const sgk_choice *c)
{
    const sgk_plan *plan = c->base;
    const bool none = plan->reduction == SGK_REDUCE_NONE;
    if (!c->problem->scatter)
        return "gathers apply nothing";
    if (plan->widen_reduce != NULL)
        return "float32 accumulation needs whole segments";
    if (!none && sgk_atomic_apply_kernel(plan->dtype, plan->reduction) == NULL)
        return "no lock-free atomic for this type";
    if (!none && !sgk_reduction_commutes(plan->dtype, plan->reduction) && !c->reorder)
        return "the order matters and SGK_DETERMINISTIC is on";
    return NULL;
}

/* A one-shot call pays for any grouping every time; this path has none. */
static bool atomic_preferred(const sgk_choice *c, const char **why)
{
    *why = c->base->reduction == SGK_REDUCE_NONE
               ? "one-shot, last updates only: no grouping needed"
               : "one-shot, order-independent: no grouping needed";
    return c->base->one_shot;
}

static sgk_status atomic_make(const sgk_plan *base, const sgk_problem *p, sgk_plan **out)
{
    atomic_plan *ap = sgk_path_alloc(base, sizeof *ap);
    if (ap == NULL)
        return sgk_plan_out_of_memory(base);
    sgk_plan *plan = &ap->base;
    plan->apply = sgk_atomic_apply_kernel(plan->dtype, plan->reduction);
    ap->distinct = -1;
    sgk_status status = sgk_pairs_map(plan, p, &ap->slot);
    if (status != SGK_OK) {
        sgk_path_free(&ap->base);
        return status;
    }
    /* One-shot calls have no use for the count, but `none` must keep only
       the last update of each slot: its pairs must name distinct slots. */
    const bool none = plan->reduction == SGK_REDUCE_NONE;
    if (none || !plan->one_shot)
        status = sgk_pairs_count_distinct(plan, ap->slot, &ap->distinct);
    if (status == SGK_OK && none)
        status = sgk_pairs_drop_overwritten(plan, ap->slot, &ap->position);
    if (status != SGK_OK) {
        free(ap->slot);
        sgk_path_free(&ap->base);
        return sgk_plan_out_of_memory(base);
    }
    *out = plan;
    return SGK_OK;
}

typedef struct {
    const atomic_plan *ap;
    const sgk_buffers *b;
} job;

static void apply_any_order(void *ctx, int worker, int64_t begin, int64_t end)
{
    const job *j = ctx;
    (void)worker;
    sgk_apply_pairs(&j->ap->base, j->b, j->b->out, 0, j->ap->slot, j->ap->position, begin,
                    end, j->ap->base.slice_len);
}

static sgk_status atomic_run(const sgk_plan *plan, const sgk_buffers *b)
{
    job j = {(const atomic_plan *)plan, b};
    sgk_copy_output(plan, b);
    /* each pair reads its update and reads and writes its destination */
    int64_t moved = plan->count * (int64_t)b->slice_bytes;
    sgk_parallel_for(plan->count, plan->threads, moved > INT64_MAX / 3 ? INT64_MAX : 3 * moved,
                     plan->parallel_min_bytes, apply_any_order, &j);
    return SGK_OK;
}

static void atomic_describe(const sgk_plan *plan, char *text, size_t size)
{
    sgk_describe_pairs(plan, "output copied, then pairs shared evenly between threads",
                       ((const atomic_plan *)plan)->distinct, text, size);
}

static void atomic_destroy(sgk_plan *plan)
{
    atomic_plan *ap = (atomic_plan *)plan;
    free(ap->slot);
    free(ap->position);
    sgk_path_free(&ap->base);
}

const sgk_path sgk_path_atomic = {
    .name = "atomic",
    .unfit = atomic_unfit,
    .preferred = atomic_preferred,
    .make = atomic_make,
    .run = atomic_run,
    .describe = atomic_describe,
    .destroy = atomic_destroy,
};
