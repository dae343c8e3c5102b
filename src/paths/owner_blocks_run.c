/* Running owner-computes blocks (and serial, one block): each block copied
   from data, unless in place, then updated in order while in cache;
   outputs past the caches built in a scratch block and streamed out. */
#include <stdlib.h>
#include <string.h>

#include "runtime/memory.h"
#include "parallel/parallel_for.h"
#include "paths/owner_blocks.h"
#include "paths/pairs.h"
#include "simd/simd.h"

typedef struct {
    const blocked_plan *bp;
    const sgk_buffers *b;
    float *acc; /* SGK_PLAN_WIDE_ACCUMULATE: one block of floats per worker */
} job;

/* The update slice pair i takes. */
static const uint8_t *update_of(const job *j, int64_t i)
{
    const int64_t *position = j->bp->position;
    return j->b->updates + (size_t)(position != NULL ? position[i] : i) * j->b->slice_bytes;
}

/* fp16/bf16 under SGK_PLAN_WIDE_ACCUMULATE: the block is widened once into
   float32, takes its updates there, and each touched slot is rounded once. */
static void apply_wide(const job *j, float *acc, uint16_t *out, int64_t slots, int64_t begin,
                       int64_t end)
{
    const sgk_plan *p = &j->bp->base;
    const int64_t L = p->slice_len;
    const int64_t *slot = j->bp->slot;
    sgk_widen(p, acc, out, slots * L);
    for (int64_t i = begin; i < end; i++)
        p->widen_reduce(acc + slot[i] * L, update_of(j, i), L);
    for (int64_t i = begin; i < end; i++)
        sgk_round_back(p, out + slot[i] * L, acc + slot[i] * L, L);
}

/* Pairs [begin, end) of the whole-slice block at `block`, with the plan's
   block-local slots. */
static void apply_block(const job *j, uint8_t *block, int64_t begin, int64_t end)
{
    const blocked_plan *bp = j->bp;
    if (bp->slot16 != NULL)
        bp->apply16(block, bp->slot16, j->b->updates, bp->position, begin, end);
    else
        sgk_apply_pairs(&bp->base, j->b, block, 0, bp->slot, bp->position, begin, end,
                        bp->base.slice_len);
}

/* apply_block as an sgk_pair_piece_fn, for sgk_apply_fetching. */
typedef struct {
    const job *j;
    uint8_t *block;
} block_piece;

static void apply_piece(const void *ctx, int64_t begin, int64_t end)
{
    const block_piece *piece = ctx;
    apply_block(piece->j, piece->block, begin, end);
}

/* Block b's updates into a scratch copy of the block, streamed out
   afterwards, so that an output past the caches is never read. */
static void scatter_via_scratch(const job *j, int worker, uint8_t *scratch, int64_t b,
                                int64_t last)
{
    const blocked_plan *bp = j->bp;
    const sgk_plan *p = &bp->base;
    const size_t sb = j->b->slice_bytes;
    const int64_t s0 = b * bp->block_slots;
    const int64_t s1 = s0 + bp->block_slots < p->slots ? s0 + bp->block_slots : p->slots;
    const int64_t begin = bp->block_start[b], end = bp->block_start[b + 1];
    const uint8_t *data = j->b->data + (size_t)s0 * sb;
    const size_t bytes = (size_t)(s1 - s0) * sb;
    sgk_simd_copy_bytes(scratch, data, bytes, false);
    if (p->widen_reduce != NULL)
        apply_wide(j, j->acc + (size_t)worker * (size_t)(bp->block_slots * p->slice_len),
                   (uint16_t *)scratch, s1 - s0, begin, end);
    else if (b + 1 < last && bp->position == NULL)
        /* sgk-bench scatter_elements_none and _add, reused plans */
        sgk_apply_fetching(apply_piece, &(block_piece){j, scratch}, begin, end, data + bytes,
                           (size_t)(p->slots - s1 < bp->block_slots ? p->slots - s1
                                                                    : bp->block_slots) * sb);
    else
        apply_block(j, scratch, begin, end);
    sgk_simd_copy_bytes(j->b->out + (size_t)s0 * sb, scratch, bytes, true);
}

/* Blocks [first, last), restricted to elements [c0, c1) of every slice:
   each block is copied (unless in place), then takes its updates in order. */
static void scatter_range(const job *j, int worker, int64_t first, int64_t last, int64_t c0,
                          int64_t c1)
{
    const blocked_plan *bp = j->bp;
    const sgk_plan *p = &bp->base;
    const size_t sb = j->b->slice_bytes, es = p->elem_size;
    const size_t col = (size_t)c0 * es, width = (size_t)(c1 - c0) * es;
    const bool whole = width == sb, in_place = j->b->in_place;
    /* Blocks of outputs streamed past the caches are built here first. */
    uint8_t *scratch = j->b->stream && !in_place && whole
                           ? sgk_thread_scratch((size_t)bp->block_slots * sb)
                           : NULL;
    for (int64_t b = first; b < last; b++) {
        int64_t s0 = b * bp->block_slots;
        int64_t s1 = s0 + bp->block_slots < p->slots ? s0 + bp->block_slots : p->slots;
        int64_t begin = bp->block_start[b], end = bp->block_start[b + 1];
        uint8_t *out = j->b->out + (size_t)s0 * sb;
        const uint8_t *data = j->b->data + (size_t)s0 * sb;
        /* Stream the block unless its updates cover a good part of it: then
           they are better applied to lines the copy just left in cache, or,
           for output past the caches, to a scratch copy of the block. */
        bool few = sgk_few_updates(end - begin, s1 - s0);
        if (j->b->stream && !few && whole && scratch != NULL && begin != end) {
            scatter_via_scratch(j, worker, scratch, b, last);
            continue;
        }
        bool stream = j->b->stream && few;
        if (!in_place && whole)
            sgk_simd_copy_bytes(out, data, (size_t)(s1 - s0) * sb, stream);
        else if (!in_place)
            sgk_simd_move_slices(out + col, NULL, data + col, NULL, 0, s1 - s0, width, sb,
                                 stream);
        if (begin == end)
            continue;
        if (p->widen_reduce != NULL)
            apply_wide(j, j->acc + (size_t)worker * (size_t)(bp->block_slots * p->slice_len),
                       (uint16_t *)out, s1 - s0, begin, end);
        else if (whole)
            apply_block(j, out, begin, end);
        else /* column parts: slices too long for slot16 */
            sgk_apply_pairs(p, j->b, out + col, col, bp->slot, bp->position, begin, end,
                            c1 - c0);
    }
}

static void scatter_blocks(void *ctx, int worker, int64_t first, int64_t last)
{
    const job *j = ctx;
    scatter_range(j, worker, first, last, 0, j->bp->base.slice_len);
}

/* Column parts [first, last): part k owns elements [c0, c1) of every slice,
   cut at cache-line boundaries, through all blocks. */
static void scatter_columns(void *ctx, int worker, int64_t first, int64_t last)
{
    const job *j = ctx;
    const blocked_plan *bp = j->bp;
    const int64_t len = bp->base.slice_len, es = (int64_t)bp->base.elem_size;
    int64_t unit = 64 / es > 0 ? 64 / es : 1;
    int64_t units = (len + unit - 1) / unit, parts = bp->column_parts;
    for (int64_t k = first; k < last; k++) {
        int64_t c0 = units * k / parts * unit, c1 = units * (k + 1) / parts * unit;
        if (c1 > len)
            c1 = len;
        if (c0 < c1)
            scatter_range(j, worker, 0, bp->blocks, c0, c1);
    }
}

/* Traffic of blocks [0, b): their copy (unless in place) plus their
   updates, read once and written once. */
static int64_t blocks_cost(void *ctx, int64_t b)
{
    const job *j = ctx;
    const blocked_plan *bp = j->bp;
    int64_t slots = b * bp->block_slots < bp->base.slots ? b * bp->block_slots : bp->base.slots;
    int64_t copy = j->b->in_place ? 0 : slots * (int64_t)j->b->slice_bytes;
    return copy + bp->block_start[b] * 2 * (int64_t)j->b->slice_bytes;
}

typedef struct {
    const uint32_t *rank;
    const uint8_t *updates;
    uint8_t *grouped;
    int64_t count, parts;
    size_t es;
} group_job;

#define MOVE_TO_RANK(T)                                                                 \
    do {                                                                               \
        const T *from = (const T *)(const void *)g->updates;                           \
        T *to = (T *)(void *)g->grouped;                                               \
        for (int64_t n = begin; n < end; n++)                                          \
            to[g->rank[n]] = from[n];                                                  \
    } while (0)

/* Updates [begin, end) of parts [first, last) to their ranks. */
static void move_to_ranks(void *ctx, int worker, int64_t first, int64_t last)
{
    const group_job *g = ctx;
    (void)worker;
    const int64_t begin = sgk_even_start(g->count, first, g->parts);
    const int64_t end = sgk_even_start(g->count, last, g->parts);
    switch (g->es) {
    case 1: MOVE_TO_RANK(uint8_t); break;
    case 2: MOVE_TO_RANK(uint16_t); break;
    case 4: MOVE_TO_RANK(uint32_t); break;
    case 8: MOVE_TO_RANK(uint64_t); break;
    default:
        for (int64_t n = begin; n < end; n++)
            memcpy(g->grouped + (size_t)g->rank[n] * g->es, g->updates + (size_t)n * g->es,
                   g->es);
    }
}

/* The plan's updates in pair order, in the calling thread's call scratch
   when the execution holds it (`scratch`), else in memory of their own,
   *owned; NULL when memory is short. */
static const uint8_t *grouped_updates(const blocked_plan *bp, const sgk_buffers *b,
                                      bool scratch, void **owned)
{
    const sgk_plan *plan = &bp->base;
    const size_t bytes = (size_t)plan->count * b->slice_bytes;
    uint8_t *grouped =
        scratch && bytes <= SGK_CALL_SCRATCH_KEEP ? sgk_call_scratch(bytes) : NULL;
    if (grouped == NULL)
        grouped = *owned = sgk_alloc_array(plan->count, b->slice_bytes);
    if (grouped == NULL)
        return NULL;
    const int threads = plan->threads > 0 ? plan->threads : 1;
    group_job g = {bp->rank, b->updates, grouped, plan->count, threads, b->slice_bytes};
    sgk_parallel_for(threads, plan->threads, plan->count * (int64_t)(3 * b->slice_bytes + 4),
                     plan->parallel_min_bytes, move_to_ranks, &g);
    return grouped;
}

/* Gives back what grouped_updates took: the thread's buffers, or memory
   of the execution's own. */
static void give_back(bool took, void *owned)
{
    free(owned);
    if (took)
        sgk_path_give_thread_buffers();
}

sgk_status sgk_blocks_run(const sgk_plan *plan, const sgk_buffers *b)
{
    const blocked_plan *bp = (const blocked_plan *)plan;
    sgk_buffers in_order;
    void *owned = NULL;
    bool took = false;
    if (bp->rank != NULL) {
        /* before the first write: after it nothing may fail */
        took = sgk_path_take_thread_buffers();
        in_order = *b;
        in_order.updates = grouped_updates(bp, b, took, &owned);
        if (in_order.updates == NULL) {
            give_back(took, NULL);
            return SGK_ERR_OUT_OF_MEMORY;
        }
        b = &in_order;
    }
    job j = {.bp = bp, .b = b};
    if (plan->widen_reduce != NULL) {
        /* scratch before the first write: after it nothing may fail */
        int workers = plan->threads > 0 ? plan->threads : 1;
        j.acc = malloc((size_t)workers * (size_t)(bp->block_slots * plan->slice_len) *
                       sizeof *j.acc);
        if (j.acc == NULL) {
            give_back(took, owned);
            return SGK_ERR_OUT_OF_MEMORY;
        }
    }
    if (bp->column_parts > 1)
        sgk_parallel_for(bp->column_parts, plan->threads, blocks_cost(&j, bp->blocks),
                         plan->parallel_min_bytes, scatter_columns, &j);
    else
        sgk_parallel_for_balanced(bp->blocks, plan->threads, blocks_cost,
                                  plan->parallel_min_bytes, scatter_blocks, &j);
    free(j.acc);
    give_back(took, owned);
    return SGK_OK;
}
