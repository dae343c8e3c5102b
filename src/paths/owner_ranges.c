/* Owner-computes by ranges, for one-shot scatters with few threads: thread
   t owns the t-th range of slots, copies it, then reads every pair in
   order and applies those it owns.  No planning beyond mapping the slots,
   at the price of every thread reading every pair. */
#include <stdlib.h>

#include "parallel/parallel_for.h"
#include "paths/pairs.h"
#include "simd/simd.h"

/* Past this many threads, reading every pair costs each thread more than
   the atomic path (each pair read once) or grouping. */
#define RANGES_MAX_THREADS 4

/* Pairs are gathered per owner a chunk at a time into lists small enough
   for L1. */
#define OWNED_CHUNK 512

typedef struct {
    sgk_plan base;
    int64_t *slot;   /* the call scratch's unless slot_owned */
    bool slot_owned;
} ranges_plan;

static const char *ranges_unfit(const sgk_choice *c)
{
    if (!c->problem->scatter)
        return "gathers have nothing to own";
    return c->base->widen_reduce != NULL ? "float32 accumulation needs whole segments" : NULL;
}

/* A one-shot call pays for any grouping every time; with few threads,
   reading every pair costs less. */
static bool ranges_preferred(const sgk_choice *c, const char **why)
{
    *why = "one-shot: no grouping, each thread applies the pairs of its own slots";
    return c->base->one_shot && c->base->threads <= RANGES_MAX_THREADS;
}

static sgk_status ranges_make(const sgk_plan *base, const sgk_problem *p, sgk_plan **out)
{
    ranges_plan *rp = sgk_path_alloc(base, sizeof *rp);
    if (rp == NULL)
        return sgk_plan_out_of_memory(base);
    sgk_status status = sgk_pairs_map_once(&rp->base, p, &rp->slot, &rp->slot_owned);
    if (status != SGK_OK) {
        sgk_path_free(&rp->base);
        return status;
    }
    *out = &rp->base;
    return SGK_OK;
}

typedef struct {
    const ranges_plan *rp;
    const sgk_buffers *b;
} job;

/* Parts [first, last) of `threads`: each copies its share of the slots,
   then applies the pairs it owns, in order. */
static void scatter_owned(void *ctx, int worker, int64_t first, int64_t last)
{
    const job *j = ctx;
    const sgk_plan *p = &j->rp->base;
    const int64_t *slot = j->rp->slot;
    const int64_t parts = p->threads, S = p->slots;
    const size_t sb = j->b->slice_bytes;
    (void)worker;
    for (int64_t k = first; k < last; k++) {
        int64_t s0 = sgk_even_start(S, k, parts), s1 = sgk_even_start(S, k + 1, parts);
        if (!j->b->in_place) {
            /* stream the range unless updates will land on much of it */
            bool few = sgk_few_updates(p->count / parts, s1 - s0);
            sgk_simd_copy_bytes(j->b->out + (size_t)s0 * sb, j->b->data + (size_t)s0 * sb,
                                (size_t)(s1 - s0) * sb, j->b->stream && few);
        }
        int64_t own_slot[OWNED_CHUNK], own_pos[OWNED_CHUNK];
        for (int64_t i = 0; i < p->count; i += OWNED_CHUNK) {
            int64_t end = i + OWNED_CHUNK < p->count ? i + OWNED_CHUNK : p->count, m = 0;
            for (int64_t n = i; n < end; n++) {
                /* written unconditionally, kept by advancing m: no branch to
                   mispredict on random slots */
                own_slot[m] = slot[n];
                own_pos[m] = n;
                m += slot[n] >= s0 && slot[n] < s1;
            }
            if (m > 0)
                sgk_apply_pairs(p, j->b, j->b->out, 0, own_slot, own_pos, 0, m, p->slice_len);
        }
    }
}

static sgk_status ranges_run(const sgk_plan *plan, const sgk_buffers *b)
{
    job j = {(const ranges_plan *)plan, b};
    int64_t moved = (plan->slots + 2 * plan->count) * (int64_t)b->slice_bytes;
    sgk_parallel_for(plan->threads, plan->threads, moved, plan->parallel_min_bytes,
                     scatter_owned, &j);
    return SGK_OK;
}

static void ranges_describe(const sgk_plan *plan, char *text, size_t size)
{
    sgk_describe_pairs(plan, "ranges of slots, one per thread", -1, text, size);
}

static void ranges_destroy(sgk_plan *plan)
{
    ranges_plan *rp = (ranges_plan *)plan;
    if (rp->slot_owned)
        free(rp->slot);
    sgk_path_free(&rp->base);
}

const sgk_path sgk_path_owner_ranges = {
    .name = "owner-ranges",
    .unfit = ranges_unfit,
    .preferred = ranges_preferred,
    .make = ranges_make,
    .run = ranges_run,
    .describe = ranges_describe,
    .destroy = ranges_destroy,
};
