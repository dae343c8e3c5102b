/* One-shot scatters into a destination small enough for a core's L2,
   with many updates, whose reduction groups (docs/semantics.md, "Grouping"):
   the result depends only on the order of the updates, never on how they
   are grouped, so each thread folds a contiguous share of the pairs, in
   order, into a replica of its own, and the replicas are then folded into
   the output in the order of the shares:
     1. part t checks and maps its pairs a batch at a time and applies
        them to replica t, which stays in its core's cache; part 0's
        replica starts as the data, the others as the reduction's
        identity (the data too where the reduction is idempotent);
     2. each slot range of the output takes replica 0 and then folds
        replicas 1, 2, ... into it.
   No pair is grouped, sorted or binned, and no thread reads another's
   pairs.  Nothing reaches the output before step 2, so a bad index leaves
   it untouched.  The replicas are few: a part gets at least
   PAIRS_PER_REPLICA_SLOT pairs a slot, so folding them costs a fraction
   of the pairs at any thread count. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry/registry.h"
#include "problem/index_map.h"
#include "runtime/topology.h"
#include "parallel/parallel_for.h"
#include "paths/pairs.h"

/* Pairs mapped at a time: their check fails as one range. */
#define REPLICA_BATCH 1024

/* Pairs a part takes at least per slot of its replica: folding a
   replica costs about one pair's work per slot, so this bounds the folds
   to a quarter of the pairs' work. */
#define PAIRS_PER_REPLICA_SLOT 4

typedef struct {
    sgk_plan base;
    sgk_problem p;        /* a copy: the planner's goes before the run; a
                             one-shot plan runs within the call */
    sgk_apply_fn fold;    /* parts after the first: into the identity */
    int parts;
    bool idempotent;      /* the replicas after the first start as the data */
    size_t replica_bytes; /* a replica, rounded up to whole lines */
    uint8_t *replicas;    /* parts of them, in the call scratch or owned */
    void *owned;
    int64_t *first_bad;   /* per part: the first pair of its first bad
                             batch, or count */
} replicas_plan;

_Static_assert(sizeof(replicas_plan) <= SGK_PLAN_BLOCK_BYTES, "one-shot plan too large");

/* Whether folding an update twice is folding it once, bits and all:
   max and min. */
static bool idempotent(sgk_reduction reduction)
{
    return reduction == SGK_REDUCE_MAX || reduction == SGK_REDUCE_MIN;
}

/* What the parts after the first fold their updates with: integer sub
   sums them (the output then subtracts the sum), every other reduction
   folds them as itself. */
static sgk_reduction part_reduction(sgk_dtype dtype, sgk_reduction reduction)
{
    const bool integer = (sgk_dtype_flags(dtype) & SGK_DTYPE_INTEGER) != 0;
    return integer && reduction == SGK_REDUCE_SUB ? SGK_REDUCE_ADD : reduction;
}

static int64_t replica_bytes_of(const sgk_plan *plan)
{
    return plan->slots * plan->slice_len * (int64_t)plan->elem_size;
}

/* Parts: one per thread, fewer where the pairs per slot are few. */
static int parts_of(const sgk_plan *plan)
{
    const int64_t per_part = PAIRS_PER_REPLICA_SLOT * plan->slots;
    const int64_t most = per_part > 0 ? plan->count / per_part : 1;
    const int threads = plan->threads > 1 ? plan->threads : 1;
    return most < 1 ? 1 : most < threads ? (int)most : threads;
}

static const char *replicas_unfit(const sgk_choice *c)
{
    const char *unfit = sgk_one_shot_fold_unfit(c);
    if (unfit != NULL)
        return unfit;
    if (!sgk_reduction_groups(c->base->dtype, c->base->reduction))
        return "the reduction's result depends on how its updates are grouped";
    /* a bool fold gives 0 or 1: folding a replica into a byte no update
       touched (say 0x6f) would change it (fuzz_elements found it) */
    return c->base->dtype == SGK_BOOL ? "bool folds would rewrite bytes no update touched"
                                      : NULL;
}

/* A replica in half a core's L2, and at least two parts where there are
   two threads: the pairs then land in cache on every thread. */
static bool replicas_preferred(const sgk_choice *c, const char **why)
{
    const sgk_plan *plan = c->base;
    const int64_t l2 = sgk_topology_get()->l2_bytes;
    *why = "one-shot, a destination in cache and a reduction that groups: each thread "
           "folds its share of the pairs into a replica, then the replicas are folded in "
           "order";
    return replica_bytes_of(plan) <= (l2 > 0 ? l2 : INT64_C(1) << 20) / 2 &&
           parts_of(plan) >= (plan->threads > 1 ? 2 : 1);
}

static sgk_status replicas_make(const sgk_plan *base, const sgk_problem *p, sgk_plan **out)
{
    replicas_plan *rp = sgk_path_alloc(base, sizeof *rp);
    if (rp == NULL)
        return sgk_plan_out_of_memory(base);
    rp->p = *p;
    rp->parts = parts_of(base);
    rp->idempotent = idempotent(base->reduction);
    sgk_status status =
        sgk_apply_kernel(base->dtype, part_reduction(base->dtype, base->reduction), &rp->fold);
    if (status != SGK_OK) {
        sgk_path_free(&rp->base);
        return status;
    }
    rp->replica_bytes = ((size_t)replica_bytes_of(base) + 63) & ~(size_t)63;
    const size_t bad_bytes = ((size_t)rp->parts * sizeof(int64_t) + 63) & ~(size_t)63;
    const size_t need = 64 + bad_bytes + (size_t)rp->parts * rp->replica_bytes;
    uint8_t *scratch = sgk_plan_scratch(&rp->base, need, &rp->owned);
    if (scratch == NULL) {
        sgk_path_free(&rp->base);
        return sgk_plan_out_of_memory(base);
    }
    /* each replica on lines of its own */
    scratch += (64 - (uintptr_t)scratch % 64) % 64;
    rp->first_bad = (int64_t *)scratch;
    rp->replicas = scratch + bad_bytes;
    *out = &rp->base;
    return SGK_OK;
}

/* Fills a replica with the identity of a reduction that is not
   idempotent: 0 for add and sub (which sums its updates), 1 for mul. */
static void fill_identity(const sgk_plan *plan, uint8_t *replica, int64_t elems)
{
    memset(replica, 0, (size_t)elems * plan->elem_size);
    if (plan->reduction != SGK_REDUCE_MUL)
        return;
    for (int64_t e = 0; e < elems; e++) {
        uint8_t *x = replica + (size_t)e * plan->elem_size;
        switch (plan->elem_size) {
        case 1: *x = 1; break;
        case 2: { const uint16_t one = 1; memcpy(x, &one, 2); break; }
        case 4: { const uint32_t one = 1; memcpy(x, &one, 4); break; }
        default: { const uint64_t one = 1; memcpy(x, &one, 8); break; }
        }
    }
}

typedef struct {
    replicas_plan *rp;
    const sgk_buffers *b;
} job;

/* Step 1 for parts [first, last). */
static void fold_parts(void *ctx, int worker, int64_t first, int64_t last)
{
    const job *j = ctx;
    replicas_plan *rp = j->rp;
    const sgk_plan *plan = &rp->base;
    const int64_t count = plan->count, L = plan->slice_len;
    const size_t sb = j->b->slice_bytes;
    int64_t slot[REPLICA_BATCH];
    (void)worker;
    for (int64_t t = first; t < last; t++) {
        uint8_t *replica = rp->replicas + (size_t)t * rp->replica_bytes;
        if (t == 0 || rp->idempotent)
            memcpy(replica, j->b->data, (size_t)(plan->slots * L) * plan->elem_size);
        else
            fill_identity(plan, replica, plan->slots * L);
        /* part 0 folds onto the data with the reduction itself */
        const sgk_apply_fn fold = t == 0 ? plan->apply : rp->fold;
        rp->first_bad[t] = count;
        const int64_t end = sgk_even_start(count, t + 1, rp->parts);
        for (int64_t n = sgk_even_start(count, t, rp->parts); n < end; n += REPLICA_BATCH) {
            const int64_t m = end - n < REPLICA_BATCH ? end - n : REPLICA_BATCH;
            /* checked before it is applied; the message comes later */
            const int64_t *at = sgk_slots_of_range(&rp->p, n, n + m, slot);
            if (at == NULL) {
                rp->first_bad[t] = n;
                break;
            }
            fold(replica, at, j->b->updates + (size_t)n * sb, NULL, 0, m, L, L);
        }
    }
}

/* Step 2 for slots [first, last): replica 0, then the others folded in. */
static void fold_replicas(void *ctx, int worker, int64_t first, int64_t last)
{
    const job *j = ctx;
    const replicas_plan *rp = j->rp;
    const sgk_plan *plan = &rp->base;
    const size_t sb = j->b->slice_bytes, at = (size_t)first * sb;
    const int64_t zero = 0;
    (void)worker;
    memcpy(j->b->out + at, rp->replicas + at, (size_t)(last - first) * sb);
    for (int t = 1; t < rp->parts; t++)
        plan->apply(j->b->out + at, &zero, rp->replicas + (size_t)t * rp->replica_bytes + at,
                    NULL, 0, 1, 0, (last - first) * plan->slice_len);
}

static sgk_status replicas_run(const sgk_plan *plan, const sgk_buffers *b)
{
    replicas_plan *rp = (replicas_plan *)plan;
    job j = {rp, b};
    /* the indices and updates read: the replicas stay in cache */
    sgk_parallel_for(rp->parts, plan->threads,
                     plan->count * (sgk_index_bytes_per_pair(&rp->p) + (int64_t)b->slice_bytes),
                     plan->parallel_min_bytes, fold_parts, &j);
    for (int t = 0; t < rp->parts; t++) {
        const int64_t n = rp->first_bad[t];
        if (n < plan->count) {
            /* the parts before found nothing, so the first bad pair is
               here; the message is made on the calling thread */
            int64_t slot[REPLICA_BATCH];
            return sgk_map_index_range(&rp->p, n,
                                       plan->count - n < REPLICA_BATCH ? plan->count
                                                                       : n + REPLICA_BATCH,
                                       slot);
        }
    }
    /* each replica read, the output written */
    sgk_parallel_for(plan->slots, plan->threads,
                     (rp->parts + 1) * plan->slots * (int64_t)b->slice_bytes,
                     plan->parallel_min_bytes, fold_replicas, &j);
    return SGK_OK;
}

static void replicas_describe(const sgk_plan *plan, char *text, size_t size)
{
    const replicas_plan *rp = (const replicas_plan *)plan;
    snprintf(text, size, "path replicas (%s; %d replicas of %lld slots); %lld updates",
             plan->why, rp->parts, (long long)plan->slots, (long long)plan->count);
}

static void replicas_destroy(sgk_plan *plan)
{
    free(((replicas_plan *)plan)->owned);
    sgk_path_free(plan);
}

const sgk_path sgk_path_replicas = {
    .name = "replicas",
    .unfit = replicas_unfit,
    .preferred = replicas_preferred,
    .make = replicas_make,
    .run = replicas_run,
    .describe = replicas_describe,
    .destroy = replicas_destroy,
};
