/* One-shot scatters: propagation blocking (Beamer, Asanovic and
   Patterson, IPDPS 2017).  A plan would group the pairs by destination
   block once and reuse the grouping; a one-shot call pays for any grouping
   every time, so it bins instead, in one streaming pass:
     1. each thread reads its share of the pairs once, in order, checks and
        maps each index, and appends the pair to its own bin of the slot's
        block: a chain of fixed-size chunks taken from the thread's pool.
        Single elements go in as the slot (16 bits within the block) and
        the update's value; slices as the slot within the block and the
        update's position (64 bits each), the slices read only in step 2;
     2. each block is copied (unless in place) and takes its bins, the
        chains of threads 0, 1, ... in turn: the original order, while the
        block sits in L2.
   No pass writes a per-pair array that another reads back at random, and
   no count pass comes first: a chunk is full when it is full.  Nothing
   reaches the output before step 2, so a bad index leaves it untouched. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry/registry.h"
#include "problem/index_map.h"
#include "runtime/memory.h"
#include "parallel/parallel_for.h"
#include "paths/pairs.h"
#include "simd/simd.h"

/* Pairs mapped at a time in step 1: their check fails as one range. */
#define BIN_BATCH 1024

/* Chunk capacities, in pairs: large enough that following a chain costs
   nothing beside the pairs, small enough that the chunks left part-filled
   (at most one per thread and block) stay a fraction of the pairs. */
#define CHUNK_MIN 64
#define CHUNK_MAX 4096

#define NO_CHUNK UINT32_MAX

/* One thread's bin of one block. */
typedef struct {
    uint16_t *tail;  /* the last chunk: its slots, then its values (or
                        positions) */
    uint32_t fill;   /* pairs in the last chunk */
    uint32_t head;   /* the first chunk, or NO_CHUNK */
    uint32_t last;   /* the last chunk's number */
    uint32_t chunks; /* chunks in the chain */
} bin;

/* One thread's bins and chunks, a cache line each (padded, not aligned:
   a scratch too large to keep comes from malloc). */
typedef struct {
    bin *bins;          /* one per block */
    uint8_t *pool;      /* its chunks */
    uint32_t *next;     /* the chunk after each in its chain */
    uint32_t used;      /* chunks taken */
    int64_t first_bad;  /* the first pair of the first bad batch, or count */
    char pad[24];
} part;

_Static_assert(sizeof(part) == 64, "a part per cache line");

typedef struct {
    sgk_plan base;
    bool slices;          /* bins hold (slot, position), 64 bits each */
    sgk_problem p;        /* a copy: the planner's goes before the run;
                             a one-shot plan runs within the call */
    sgk_apply16_fn apply16;
    int shift;            /* a block is 1 << shift slots */
    int64_t blocks;
    int parts;            /* shares of the pairs, one per thread */
    uint32_t chunk;       /* pairs per chunk */
    size_t chunk_bytes;
    part *part;           /* parts */
    int64_t *before;      /* blocks + 1: pairs binned to the blocks before */
    void *owned;          /* the scratch, when too large to keep or nested */
} binned_plan;

/* it takes the thread's plan block, and with it the thread's buffers */
_Static_assert(sizeof(binned_plan) <= SGK_PLAN_BLOCK_BYTES, "one-shot plan too large");

/* Single elements with a 16-bit-slot kernel bin their values; everything
   else bins positions. */
static bool bins_slices(const sgk_plan *plan)
{
    return plan->slice_len != 1 || sgk_apply16_kernel(plan->dtype, plan->reduction) == NULL;
}

static int64_t block_slots_of(const sgk_plan *plan)
{
    const int64_t slice_bytes = plan->slice_len * (int64_t)plan->elem_size;
    const int64_t slots = sgk_cache_block_bytes() / (slice_bytes > 0 ? slice_bytes : 1);
    const int64_t most = bins_slices(plan) ? INT64_C(1) << 40 : SGK_SLOT16_BLOCK;
    return slots < 1 ? 1 : slots > most ? most : slots;
}

/* Destination blocks before rounding the block to a power of two. */
static int64_t blocks_of(const sgk_plan *plan)
{
    const int64_t block_slots = block_slots_of(plan);
    return plan->slots / block_slots + (plan->slots % block_slots != 0);
}

static int parts_of(const sgk_plan *plan)
{
    return plan->threads > 1 ? plan->threads : 1;
}

/* With at least CHUNK_MIN / 2 pairs per thread and block: sparser, the
   chunks left part-filled would outweigh the pairs. */
static bool binned_preferred(const sgk_choice *c, const char **why)
{
    const sgk_plan *plan = c->base;
    *why = "one-shot: pairs binned by destination block, then each block takes its bins "
           "in cache";
    return blocks_of(plan) * parts_of(plan) <= plan->count / (CHUNK_MIN / 2);
}

/* The largest power of two from CHUNK_MIN to CHUNK_MAX that a thread's bin
   of an average block fills. */
static uint32_t chunk_pairs(int64_t count, int64_t bins)
{
    uint32_t c = CHUNK_MIN;
    while (c < CHUNK_MAX && (int64_t)c * 2 * bins <= count)
        c *= 2;
    return c;
}

/* Chunks a part's pool holds: its share in full chunks, plus one
   part-filled chunk per block. */
static int64_t chunks_per_part(const sgk_plan *plan, int64_t blocks, uint32_t chunk)
{
    const int parts = parts_of(plan);
    const int64_t share = plan->count / parts + (plan->count % parts != 0);
    return share / chunk + (share % chunk != 0) + blocks;
}

static const char *binned_unfit(const sgk_choice *c)
{
    const sgk_plan *plan = c->base;
    if (!c->problem->scatter)
        return "not a scatter";
    if (!plan->one_shot)
        return "a reused plan groups its pairs once";
    if (plan->widen_reduce != NULL)
        return "float32 accumulation needs whole segments";
    /* an empty output skips the run, where this path checks its indices */
    if (plan->output_elems == 0 || plan->slice_len == 0 || plan->elem_size == 0)
        return "nothing to move";
    const int64_t blocks = blocks_of(plan);
    const uint32_t chunk = chunk_pairs(plan->count, blocks * parts_of(plan));
    return chunks_per_part(plan, blocks, chunk) >= NO_CHUNK ? "more chunks than 32 bits number"
                                                             : NULL;
}

static void binned_destroy(sgk_plan *plan)
{
    binned_plan *bp = (binned_plan *)plan;
    free(bp->owned);
    sgk_path_free(plan);
}

static size_t line_up(size_t bytes)
{
    return (bytes + 63) & ~(size_t)63;
}

/* Lays the scratch out: per part its bins, chunk links and pool (each on
   cache lines of its own), then the blocks' pair counts. */
static sgk_status binned_make(const sgk_plan *base, const sgk_problem *p, sgk_plan **out)
{
    binned_plan *bp = sgk_path_alloc(base, sizeof *bp);
    if (bp == NULL)
        return sgk_plan_out_of_memory(base);
    const int64_t block_slots = block_slots_of(base);
    bp->p = *p;
    bp->slices = bins_slices(base);
    bp->apply16 = bp->slices ? NULL : sgk_apply16_kernel(base->dtype, base->reduction);
    bp->shift = sgk_shift_for(block_slots < base->slots ? block_slots : base->slots);
    const int64_t block_mask = (INT64_C(1) << bp->shift) - 1;
    bp->blocks = (base->slots >> bp->shift) + ((base->slots & block_mask) != 0);
    bp->parts = parts_of(base);
    bp->chunk = chunk_pairs(base->count, bp->blocks * bp->parts);
    bp->chunk_bytes = line_up((size_t)bp->chunk * (bp->slices ? 16 : 2 + base->elem_size));
    /* the preference keeps the part-filled chunks within 2x the pairs,
       and the fit the chunk numbers within 32 bits */
    const int64_t chunks = chunks_per_part(base, bp->blocks, bp->chunk);
    const size_t parts = line_up((size_t)bp->parts * sizeof(part));
    const size_t bins = line_up((size_t)bp->blocks * sizeof(bin));
    const size_t links = line_up((size_t)chunks * sizeof(uint32_t));
    const size_t pool = (size_t)chunks * bp->chunk_bytes;
    const size_t per_part = bins + links + pool;
    const size_t need = parts + (size_t)bp->parts * per_part +
                        (size_t)(bp->blocks + 1) * sizeof(int64_t);
    uint8_t *scratch = need <= SGK_CALL_SCRATCH_KEEP && sgk_path_owns_thread_buffers(&bp->base)
                           ? sgk_call_scratch(need)
                           : NULL;
    if (scratch == NULL)
        scratch = bp->owned = sgk_alloc_array((int64_t)need, 1);
    if (scratch == NULL) {
        sgk_path_free(&bp->base);
        return sgk_plan_out_of_memory(base);
    }
    bp->part = (part *)scratch;
    for (int t = 0; t < bp->parts; t++) {
        uint8_t *at = scratch + parts + (size_t)t * per_part;
        bp->part[t].bins = (bin *)at;
        bp->part[t].next = (uint32_t *)(at + bins);
        bp->part[t].pool = at + bins + links;
    }
    bp->before = (int64_t *)(scratch + parts + (size_t)bp->parts * per_part);
    *out = &bp->base;
    return SGK_OK;
}

/* Starts a new chunk at the end of bin b's chain. */
static uint16_t *next_chunk(const binned_plan *bp, part *pt, bin *b)
{
    const uint32_t c = pt->used++;
    if (b->head == NO_CHUNK)
        b->head = c;
    else
        pt->next[b->last] = c;
    pt->next[c] = NO_CHUNK;
    b->last = c;
    b->chunks++;
    b->fill = 0;
    return b->tail = (uint16_t *)(pt->pool + (size_t)c * bp->chunk_bytes);
}

typedef struct {
    binned_plan *bp;
    const uint8_t *updates;
} bin_job;

/* The chunk bin b's next pair goes into: a new one when the last is full
   (an empty bin looks full). */
static inline void *room_in(const binned_plan *bp, part *pt, bin *b)
{
    return b->fill == bp->chunk ? next_chunk(bp, pt, b) : b->tail;
}

/* Appends pairs [n, n + m), their slots in wide, to their blocks' bins:
   the statements given store pair n + i as entry k of `chunk`. */
#define BIN_EACH(...)                                                                  \
    for (int64_t i = 0; i < m; i++) {                                                  \
        const uint64_t s = (uint64_t)wide[i];                                          \
        bin *b = bins + (s >> shift);                                                  \
        void *chunk = room_in(bp, pt, b);                                              \
        const uint32_t k = b->fill++;                                                  \
        __VA_ARGS__                                                                    \
    }

/* Single elements: the 16-bit slot, and the value (the caller's updates
   need not be aligned for T). */
#define BIN_VALUES(T)                                                                  \
    BIN_EACH(uint16_t *slot = chunk; slot[k] = (uint16_t)(s & mask);                   \
             memcpy((T *)(slot + capacity) + k, updates + (size_t)(n + i) * sizeof(T), \
                    sizeof(T));)

typedef struct {
    uint64_t lo, hi;
} bytes16;

/* Slices: the slot within its block and the position, as sgk_apply_pairs
   takes them. */
#define BIN_POSITIONS                                                                  \
    BIN_EACH(int64_t *slot = chunk; slot[k] = (int64_t)(s & mask);                     \
             slot[capacity + k] = n + i;)

/* Step 1 for parts [first, last). */
static void bin_pairs(void *ctx, int worker, int64_t first, int64_t last)
{
    bin_job *job = ctx;
    binned_plan *bp = job->bp;
    const int shift = bp->shift;
    const uint64_t mask = ((uint64_t)1 << shift) - 1;
    const uint32_t capacity = bp->chunk;
    const uint8_t *updates = job->updates;
    const int64_t count = bp->base.count;
    int64_t wide[BIN_BATCH];
    (void)worker;
    for (int64_t t = first; t < last; t++) {
        part *pt = &bp->part[t];
        bin *bins = pt->bins;
        pt->used = 0;
        pt->first_bad = count;
        /* an empty bin looks full, so that its first pair starts a chunk */
        for (int64_t b = 0; b < bp->blocks; b++)
            bins[b] = (bin){.fill = capacity, .head = NO_CHUNK};
        const int64_t end = sgk_even_start(count, t + 1, bp->parts);
        for (int64_t n = sgk_even_start(count, t, bp->parts); n < end; n += BIN_BATCH) {
            const int64_t m = end - n < BIN_BATCH ? end - n : BIN_BATCH;
            /* checked before it is binned; the message comes later */
            if (sgk_map_index_range(&bp->p, n, n + m, wide) != SGK_OK) {
                pt->first_bad = n;
                break;
            }
            if (bp->slices) {
                BIN_POSITIONS
                continue;
            }
            switch (bp->base.elem_size) {
            case 1: BIN_VALUES(uint8_t) break;
            case 2: BIN_VALUES(uint16_t) break;
            case 4: BIN_VALUES(uint32_t) break;
            case 8: BIN_VALUES(uint64_t) break;
            default: BIN_VALUES(bytes16) break;
            }
        }
    }
}

/* The first bad pair's message, or the pairs binned before each block. */
static sgk_status settle_bins(binned_plan *bp)
{
    const int64_t count = bp->base.count;
    for (int t = 0; t < bp->parts; t++) {
        const int64_t n = bp->part[t].first_bad;
        if (n < count) {
            /* the parts before found nothing, so the first bad pair is here;
               the message is made on the calling thread */
            int64_t wide[BIN_BATCH];
            return sgk_map_index_range(&bp->p, n, count - n < BIN_BATCH ? count : n + BIN_BATCH,
                                       wide);
        }
    }
    bp->before[0] = 0;
    for (int64_t b = 0; b < bp->blocks; b++) {
        int64_t pairs = 0;
        for (int t = 0; t < bp->parts; t++) {
            const bin *x = &bp->part[t].bins[b];
            if (x->chunks > 0)
                pairs += (int64_t)(x->chunks - 1) * bp->chunk + x->fill;
        }
        bp->before[b + 1] = bp->before[b] + pairs;
    }
    return SGK_OK;
}

typedef struct {
    const binned_plan *bp;
    const sgk_buffers *b;
} apply_job;

/* Traffic of blocks [0, b): their copy plus their pairs (the bins, and
   for slices the updates they read). */
static int64_t blocks_cost(void *ctx, int64_t b)
{
    const apply_job *j = ctx;
    const binned_plan *bp = j->bp;
    const int64_t slots = b << bp->shift;
    const int64_t copied = slots < bp->base.slots ? slots : bp->base.slots;
    const int64_t slice_bytes = (int64_t)j->b->slice_bytes;
    const int64_t pair_bytes = bp->slices ? 16 + 2 * slice_bytes : 2 + slice_bytes;
    return (j->b->in_place ? 0 : 2 * copied) * slice_bytes + bp->before[b] * pair_bytes;
}

/* Block b's bins onto the block, thread by thread, chunk by chunk. */
static void apply_block(const binned_plan *bp, const sgk_buffers *buffers, int64_t b,
                        uint8_t *block)
{
    const uint32_t capacity = bp->chunk;
    for (int t = 0; t < bp->parts; t++) {
        const part *pt = &bp->part[t];
        const bin *x = &pt->bins[b];
        for (uint32_t c = x->head; c != NO_CHUNK; c = pt->next[c]) {
            const uint8_t *chunk = pt->pool + (size_t)c * bp->chunk_bytes;
            const uint32_t pairs = c == x->last ? x->fill : capacity;
            if (bp->slices) {
                const int64_t *slot = (const int64_t *)chunk;
                sgk_apply_pairs(&bp->base, buffers, block, 0, slot, slot + capacity, 0, pairs,
                                bp->base.slice_len);
            } else {
                const uint16_t *slot = (const uint16_t *)chunk;
                bp->apply16(block, slot, slot + capacity, NULL, 0, pairs);
            }
        }
    }
}

/* Step 2 for blocks [first, last). */
static void apply_bins(void *ctx, int worker, int64_t first, int64_t last)
{
    const apply_job *j = ctx;
    const binned_plan *bp = j->bp;
    const sgk_plan *p = &bp->base;
    const size_t es = j->b->slice_bytes, block_bytes = ((size_t)1 << bp->shift) * es;
    const bool via_scratch = j->b->stream && !j->b->in_place;
    uint8_t *scratch = via_scratch ? sgk_thread_scratch(block_bytes) : NULL;
    (void)worker;
    for (int64_t b = first; b < last; b++) {
        const int64_t s0 = b << bp->shift;
        const int64_t s1 = s0 + ((int64_t)1 << bp->shift) < p->slots
                               ? s0 + ((int64_t)1 << bp->shift)
                               : p->slots;
        const size_t bytes = (size_t)(s1 - s0) * es;
        uint8_t *out = j->b->out + (size_t)s0 * es;
        const uint8_t *data = j->b->data + (size_t)s0 * es;
        uint8_t *block = scratch != NULL ? scratch : out;
        if (!j->b->in_place)
            sgk_simd_copy_bytes(block, data, bytes, false);
        apply_block(bp, j->b, b, block);
        if (scratch != NULL)
            sgk_simd_copy_bytes(out, scratch, bytes, true);
    }
}

static sgk_status binned_run(const sgk_plan *plan, const sgk_buffers *b)
{
    binned_plan *bp = (binned_plan *)plan;
    bin_job bj = {bp, b->updates};
    /* the indices and updates read, slot and value written */
    const sgk_index_map *m = &bp->p.map;
    const int64_t index_bytes = m->indices == NULL ? 0
                                : (m->kind == SGK_MAP_TUPLES ? m->k : 1) *
                                      (int64_t)sgk_elem_size(m->indices->dtype);
    const int64_t entry_bytes = bp->slices ? 16 : 2 + (int64_t)plan->elem_size;
    sgk_parallel_for(bp->parts, plan->threads,
                     plan->count * (index_bytes + entry_bytes +
                                    (bp->slices ? 0 : (int64_t)plan->elem_size)),
                     plan->parallel_min_bytes, bin_pairs, &bj);
    sgk_status status = settle_bins(bp);
    if (status != SGK_OK)
        return status;
    apply_job aj = {bp, b};
    sgk_parallel_for_balanced(bp->blocks, plan->threads, blocks_cost, plan->parallel_min_bytes,
                              apply_bins, &aj);
    return SGK_OK;
}

static void binned_describe(const sgk_plan *plan, char *text, size_t size)
{
    const binned_plan *bp = (const binned_plan *)plan;
    snprintf(text, size,
             "path binned (%s; %lld blocks of %lld slots, %d parts, chunks of %u %s); "
             "%lld updates",
             plan->why, (long long)bp->blocks, (long long)1 << bp->shift, bp->parts,
             bp->chunk, bp->slices ? "positions" : "values", (long long)plan->count);
}

const sgk_path sgk_path_binned = {
    .name = "binned",
    .unfit = binned_unfit,
    .preferred = binned_preferred,
    .make = binned_make,
    .run = binned_run,
    .describe = binned_describe,
    .destroy = binned_destroy,
};
