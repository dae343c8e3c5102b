/* Gathers of rows: output row n is source slot slot[n], rows copied in
   parallel.  Long rows of whole cache lines from a source beyond the cache
   are read in source order: random reads of long rows wait on memory,
   random streamed writes do not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/memory.h"
#include "paths/pairs.h"
#include "simd/simd.h"

/* Rows this long or longer, a whole number of cache lines, are worth
   reading in source order (sgk-bench gather_embedding, 1 KiB rows, and
   gather_batch1, 512-byte rows); shorter rows were not measured. */
#define SORTED_ROWS_MIN_BYTES 512

typedef struct {
    sgk_plan base;
    int64_t *slot;         /* the call scratch's unless slot_owned */
    bool slot_owned;
    int32_t *source_order; /* the output rows in ascending order of their
                              source slots, or NULL when not worth it */
} row_plan;

static const char *row_unfit(const sgk_choice *c)
{
    return c->problem->scatter ? "scatters apply updates" : NULL;
}

static bool row_preferred(const sgk_choice *c, const char **why)
{
    (void)c;
    *why = "rows";
    return true;
}

/* The source bytes one batch of rows reads from: GatherND's batches, and
   Gather's dimensions before the axis, each read their own stretch. */
static int64_t batch_span(const sgk_plan *plan, const sgk_problem *p, int64_t row_bytes)
{
    const sgk_index_map *m = &p->map;
    const bool batched = m->kind == SGK_MAP_TUPLES && m->rows_per_batch > 0 &&
                         m->rows_per_batch < plan->count;
    return (batched ? m->slots_per_batch : plan->slots) * row_bytes;
}

/* Sets source_order for a row gather whose rows are worth reading in
   source order, whose source is beyond the cache (each batch's stretch
   larger than L2: random reads within a smaller one are served well
   enough, and one-shot Gather axis 1 and GatherND batch_dims 1, reading 1
   MiB stretches, lost the 0.1 ms the sort takes) and which reads at least
   one row for every two of the source's (sparser, the sorted reads are
   too far apart to stream: torch index_select of 16k 512-byte rows from
   100k, a warm source, took 885 us sorted against 756 us unsorted; of
   131k rows, 5.4 ms against 5.9): a stable counting
   sort, by slot where the source has at most 4 slots per row gathered,
   else by buckets of 2^shift slots, 4 per row at most (reads still sweep
   the source front to back).  The counts live in the thread's scratch and
   the order in 32 bits: fresh pages would cost the planner more than the
   sort itself.  Failing to allocate only leaves the gather in output
   order. */
static void sort_rows(row_plan *rp, const sgk_problem *p)
{
    const sgk_plan *plan = &rp->base;
    const int64_t row_bytes = plan->slice_len * (int64_t)plan->elem_size;
    if (row_bytes < SORTED_ROWS_MIN_BYTES || row_bytes % 64 != 0 || plan->count > INT32_MAX ||
        batch_span(plan, p, row_bytes) <= 4 * sgk_cache_block_bytes() ||
        2 * plan->count < plan->slots ||
        plan->slots * row_bytes < plan->parallel_min_bytes ||
        plan->count * row_bytes < plan->parallel_min_bytes ||
        sgk_pairs_in_order(plan, rp->slot, 0))
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
    const int64_t *slot = rp->slot;
    for (int64_t n = 0; n < plan->count; n++)
        start[(slot[n] >> shift) + 1]++;
    for (int64_t b = 0; b < buckets; b++)
        start[b + 1] += start[b];
    for (int64_t n = 0; n < plan->count; n++)
        order[start[slot[n] >> shift]++] = (int32_t)n;
    rp->source_order = order;
}

static sgk_status row_make(const sgk_plan *base, const sgk_problem *p, sgk_plan **out)
{
    row_plan *rp = sgk_path_alloc(base, sizeof *rp);
    if (rp == NULL)
        return sgk_plan_out_of_memory(base);
    sgk_status status = sgk_pairs_map_once(&rp->base, p, &rp->slot, &rp->slot_owned);
    if (status != SGK_OK) {
        sgk_path_free(&rp->base);
        return status;
    }
    sort_rows(rp, p);
    *out = &rp->base;
    return SGK_OK;
}

typedef struct {
    const row_plan *rp;
    const sgk_buffers *b;
} job;

static void gather_rows(void *ctx, int worker, int64_t begin, int64_t end)
{
    const job *j = ctx;
    const row_plan *rp = j->rp;
    (void)worker;
    if (rp->source_order != NULL && (uintptr_t)j->b->out % 64 == 0)
        sgk_simd_move_rows_in_order(j->b->out, j->b->data, rp->slot, rp->source_order, begin,
                                    end, j->b->slice_bytes, j->b->stream);
    else
        sgk_simd_move_slices(j->b->out, NULL, j->b->data, rp->slot, begin, end,
                             j->b->slice_bytes, j->b->slice_bytes, j->b->stream);
}

static sgk_status row_run(const sgk_plan *plan, const sgk_buffers *b)
{
    job j = {(const row_plan *)plan, b};
    sgk_gather_for(plan, gather_rows, &j);
    return SGK_OK;
}

static void row_describe(const sgk_plan *plan, char *text, size_t size)
{
    snprintf(text, size, "path gather-%s; %lld rows from %lld slots",
             ((const row_plan *)plan)->source_order != NULL
                 ? "rows (read in source order into line-aligned outputs)"
                 : "rows",
             (long long)plan->count, (long long)plan->slots);
}

static void row_destroy(sgk_plan *plan)
{
    row_plan *rp = (row_plan *)plan;
    if (rp->slot_owned)
        free(rp->slot);
    free(rp->source_order);
    sgk_path_free(&rp->base);
}

const sgk_path sgk_path_row_gather = {
    .name = "gather-rows",
    .unfit = row_unfit,
    .preferred = row_preferred,
    .make = row_make,
    .run = row_run,
    .describe = row_describe,
    .destroy = row_destroy,
};
