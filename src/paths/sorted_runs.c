/* One-shot scatters whose index turns out to be sorted.  Graph libraries
   keep edge_index sorted by destination (CSR order), and so do many
   embedding pipelines: then each slot's updates already form one run, and
   nothing needs grouping.  make reads the indices once, checking each and
   comparing its slot with the one before; at the first slot below its
   predecessor it declines (path.h), and the choice goes on down the table.
   run reads the indices again, a batch at a time: each thread takes a
   stretch of pairs cut at run boundaries and the rows from its first run's
   slot to the next thread's, and walks them front to back, copying the rows
   without updates and reducing each run onto its row in original order.
   Every row is written once, by one thread, and every update read once. */

#include "registry/registry.h"
#include "problem/index_map.h"
#include "parallel/parallel_for.h"
#include "paths/pairs.h"
#include "simd/simd.h"

/* Pairs mapped at a time, on the stack: a batch of slots stays in L1. */
#define RUN_BATCH 512

/* Pairs checked on the calling thread before any other thread is woken:
   an index in no order is found out here, for the cost of a few loads. */
#define ORDER_PROBE 64

typedef struct {
    sgk_plan base;
    sgk_problem p; /* a copy: run reads the caller's indices again, within
                      the call */
} runs_plan;

/* it takes the thread's plan block */
_Static_assert(sizeof(runs_plan) <= SGK_PLAN_BLOCK_BYTES, "one-shot plan too large");

static const char *runs_unfit(const sgk_choice *c)
{
    if (!c->problem->scatter)
        return "not a scatter";
    if (!c->base->one_shot)
        return "a reused plan keeps no pointer to the caller's indices";
    if (c->base->widen_reduce != NULL)
        return "float32 accumulation is the sorted-segment path's";
    return NULL;
}

/* Every one-shot scatter the paths before did not take: whether the index
   is sorted only make can tell, and an index in no order costs it the
   probe. */
static bool runs_preferred(const sgk_choice *c, const char **why)
{
    (void)c;
    *why = "one-shot, index sorted: each run of one slot's updates reduced onto its row as "
           "the rows are walked";
    return true;
}

typedef struct {
    const sgk_problem *p;
    int64_t first_bad;  /* the first pair of the first batch holding a bad
                           index, or count */
    int out_of_order;   /* set by any range that finds a slot below the one
                           before it */
} check_job;

/* Lowers job->first_bad to n: ranges race, the smallest wins. */
static void note_bad(check_job *job, int64_t n)
{
    int64_t seen = __atomic_load_n(&job->first_bad, __ATOMIC_RELAXED);
    while (n < seen && !__atomic_compare_exchange_n(&job->first_bad, &seen, n, true,
                                                    __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}

/* Pairs [begin, end), a batch at a time, each slot against the one before
   (the first against pair begin - 1's, whose range checks that pair).  A
   range stops at its first bad batch, and every range once any has found
   the index out of order. */
static void check_range(void *ctx, int worker, int64_t begin, int64_t end)
{
    check_job *job = ctx;
    int64_t slot[RUN_BATCH], before = -1;
    (void)worker;
    if (begin > 0 && sgk_map_index_range(job->p, begin - 1, begin, &before) != SGK_OK)
        before = -1;
    for (int64_t n = begin; n < end; n += RUN_BATCH) {
        if (__atomic_load_n(&job->out_of_order, __ATOMIC_RELAXED))
            return;
        const int64_t m = end - n < RUN_BATCH ? end - n : RUN_BATCH;
        const int64_t *at = sgk_slots_of_range(job->p, n, n + m, slot);
        if (at == NULL) {
            note_bad(job, n);
            return;
        }
        bool down = at[0] < before;
        for (int64_t i = 1; i < m; i++)
            down |= at[i] < at[i - 1];
        if (down) {
            __atomic_store_n(&job->out_of_order, 1, __ATOMIC_RELAXED);
            return;
        }
        before = at[m - 1];
    }
}

/* Checks every index and whether the slots never decrease: *sorted says.
   An index out of order anywhere leaves the verdict on bad indices to the
   path that takes over; otherwise the first bad index is reported, as
   sgk_map_indices reports it. */
static sgk_status check_indices(const sgk_plan *base, const sgk_problem *p, bool *sorted)
{
    check_job job = {p, p->count, 0};
    const int64_t probe = p->count < ORDER_PROBE ? p->count : ORDER_PROBE;
    check_range(&job, 0, 0, probe);
    if (!job.out_of_order && job.first_bad == p->count && probe < p->count) {
        sgk_parallel_for(p->count, base->threads, p->count * sgk_index_bytes_per_pair(p),
                         base->parallel_min_bytes, check_range, &job);
    }
    *sorted = !job.out_of_order;
    if (!*sorted || job.first_bad == p->count)
        return SGK_OK;
    /* the message is made on the calling thread */
    int64_t slot[RUN_BATCH];
    const int64_t n = job.first_bad;
    return sgk_map_index_range(p, n, p->count - n < RUN_BATCH ? p->count : n + RUN_BATCH, slot);
}

static sgk_status runs_make(const sgk_plan *base, const sgk_problem *p, sgk_plan **out)
{
    bool sorted;
    sgk_status status = check_indices(base, p, &sorted);
    if (status != SGK_OK)
        return status;
    if (!sorted) {
        *out = NULL;
        return SGK_OK;
    }
    runs_plan *rp = sgk_path_alloc(base, sizeof *rp);
    if (rp == NULL)
        return sgk_plan_out_of_memory(base);
    rp->p = *p;
    *out = &rp->base;
    return SGK_OK;
}

/* Pair n's slot: make checked it. */
static int64_t slot_of(const sgk_problem *p, int64_t n)
{
    int64_t slot = 0;
    sgk_map_index_range(p, n, n + 1, &slot);
    return slot;
}

/* The first pair from n on that begins a run: n at 0 and count, else the
   first pair whose slot differs from pair n - 1's, found by galloping and
   halving (the slots never decrease), so that a long run costs a few
   loads. */
static int64_t run_start(const sgk_problem *p, int64_t n)
{
    if (n == 0 || n >= p->count)
        return n;
    const int64_t before = slot_of(p, n - 1);
    int64_t same = n - 1, differs = n;
    for (int64_t step = 1; differs < p->count && slot_of(p, differs) == before; step *= 2) {
        same = differs;
        differs = p->count - differs > step ? differs + step : p->count;
    }
    while (differs - same > 1) {
        const int64_t mid = same + (differs - same) / 2;
        if (slot_of(p, mid) == before)
            same = mid;
        else
            differs = mid;
    }
    return differs;
}

/* The first row of the part whose pairs begin at run start n: 0 for the
   first part, every slot for a part past the last pair. */
static int64_t first_row(const sgk_problem *p, int64_t n)
{
    return n == 0 ? 0 : n >= p->count ? p->slots : slot_of(p, n);
}

typedef struct {
    const runs_plan *rp;
    const sgk_buffers *b;
    int64_t pair_bytes; /* an update read and its row's bytes touched */
    int64_t row_bytes;  /* a row copied: read and written, or 0 in place */
} run_job;

/* Traffic of the parts before pair n: its pairs and the rows before its
   run's slot (non-decreasing in n, as the slots are). */
static int64_t pairs_cost(void *ctx, int64_t n)
{
    const run_job *j = ctx;
    const sgk_problem *p = &j->rp->p;
    return n * j->pair_bytes + j->row_bytes * (n >= p->count ? p->slots : first_row(p, n));
}

static void copy_rows(const run_job *j, int64_t from, int64_t to)
{
    const size_t sb = j->b->slice_bytes;
    if (!j->b->in_place && from < to)
        sgk_simd_copy_bytes(j->b->out + (size_t)from * sb, j->b->data + (size_t)from * sb,
                            (size_t)(to - from) * sb, false);
}

/* The part of pairs [begin, end), both moved to run starts: its rows
   front to back, each batch's rows copied (those not copied before) just
   before the batch lands on them. */
static void run_part(void *ctx, int worker, int64_t begin, int64_t end)
{
    const run_job *j = ctx;
    const sgk_plan *plan = &j->rp->base;
    const sgk_problem *p = &j->rp->p;
    const int64_t first = run_start(p, begin), last = run_start(p, end);
    int64_t row = first_row(p, first), slot[RUN_BATCH];
    sgk_buffers batch = *j->b;
    (void)worker;
    for (int64_t n = first; n < last; n += RUN_BATCH) {
        const int64_t m = last - n < RUN_BATCH ? last - n : RUN_BATCH;
        /* checked before: never NULL */
        const int64_t *at = sgk_slots_of_range(p, n, n + m, slot);
        if (row <= at[m - 1]) {
            copy_rows(j, row, at[m - 1] + 1);
            row = at[m - 1] + 1;
        }
        batch.updates = j->b->updates + (size_t)n * j->b->slice_bytes;
        sgk_apply_pairs(plan, &batch, j->b->out, 0, at, NULL, 0, m, plan->slice_len);
    }
    copy_rows(j, row, first_row(p, last));
}

static sgk_status runs_run(const sgk_plan *plan, const sgk_buffers *b)
{
    const runs_plan *rp = (const runs_plan *)plan;
    if (plan->count == 0) {
        sgk_copy_output(plan, b);
        return SGK_OK;
    }
    const int64_t sb = (int64_t)b->slice_bytes;
    run_job j = {rp, b, 3 * sb, b->in_place ? 0 : 2 * sb};
    sgk_parallel_for_balanced(plan->count, plan->threads, pairs_cost,
                              plan->parallel_min_bytes, run_part, &j);
    return SGK_OK;
}

static void runs_describe(const sgk_plan *plan, char *text, size_t size)
{
    sgk_describe_pairs(plan,
                       "index checked in order, then each thread walks its rows, cut at run "
                       "boundaries, reducing each run onto its row",
                       -1, text, size);
}

const sgk_path sgk_path_sorted_runs = {
    .name = "sorted-runs",
    .unfit = runs_unfit,
    .preferred = runs_preferred,
    .make = runs_make,
    .declines = "the index is not sorted",
    .run = runs_run,
    .describe = runs_describe,
    .destroy = sgk_path_free,
};
