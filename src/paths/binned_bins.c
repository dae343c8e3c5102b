/* Step 1 of the binned path (binned.c): each thread reads its share of
   the pairs once, in order, checks and maps each index a batch at a time,
   and appends the pair to its bin of the slot's block.

   Software write-combining (Wassenberg and Sanders, Euro-Par 2011): a
   pair first goes to its block's staging buffer, a few lines of slots and
   values that stay in L1; a full buffer goes to the end of the bin's
   chain as whole lines, with non-temporal stores when the bins will not
   stay in cache until step 2 reads them.  Per pair that is a handful of
   instructions and no test beyond "is the buffer full"; the chain's
   bookkeeping (is the chunk full, take the next one) comes once a buffer.
   A chunk's capacity is a multiple of a buffer's pairs, so flushed lines
   land on whole lines of the chunk, and the order within each bin is the
   order of the pairs.

   Staging is work on L1 alone, so while a batch is staged nothing of the
   next one would be on its way: the core would stall on its first lines
   every batch.  The staging loop fetches the next batch's index and
   updates ahead instead, a step every AHEAD_PAIRS pairs.  (One thread
   binned elementwise_add's 2M pairs in 6.5 ms instead of 9 on a 2-core
   Xeon VM, whose single core reads memory at only 11-14 GB/s.) */
#include <string.h>

#include "paths/binned.h"
#include "problem/index_map.h"
#include "parallel/parallel_for.h"

/* Pairs staged per step of fetching ahead. */
#define AHEAD_PAIRS 16

/* Bytes still to fetch ahead: [at, end) of base, step bytes a time. */
typedef struct {
    const uint8_t *base;
    size_t at, end, step;
} ahead;

/* The bytes of span, read bytes_per_pair a pair by the next batch (a NULL
   span: nothing to fetch). */
static ahead ahead_of(const uint8_t *span, size_t bytes, size_t bytes_per_pair)
{
    return (ahead){span, 0, span != NULL ? bytes : 0, AHEAD_PAIRS * bytes_per_pair};
}

/* To L2 only: the next batch is read within microseconds. */
static inline void fetch_ahead(ahead *a)
{
    const size_t to = a->at + a->step < a->end ? a->at + a->step : a->end;
    for (; a->at < to; a->at += 64)
        __builtin_prefetch(a->base + a->at, 0, 1);
}

/* Starts a new chunk at the end of bin b's chain. */
static uint8_t *next_chunk(const binned_plan *bp, part *pt, bin *b)
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
    return b->tail = pt->pool + (size_t)c * bp->chunk_bytes;
}

/* The chunk bin b's next pairs go into: a new one when the last is full
   (an empty bin looks full).  A chunk takes whole buffers, so a buffer
   never straddles two. */
static inline uint8_t *room_in(const binned_plan *bp, part *pt, bin *b)
{
    return b->fill == bp->chunk ? next_chunk(bp, pt, b) : b->tail;
}

/* Where block b's staging buffer begins: its narrower entries. */
static inline uint8_t *stage_start(const binned_plan *bp, const part *pt, int64_t b)
{
    return pt->stage + (size_t)b * bp->narrow_line;
}

/* Block b's staging buffer: its slots and its values. */
static void stage_of(const binned_plan *bp, const part *pt, int64_t b, const uint8_t **slots,
                     const uint8_t **values)
{
    const uint8_t *narrow = stage_start(bp, pt, b);
    const uint8_t *wider =
        pt->stage + (size_t)bp->blocks * bp->narrow_line + (size_t)b * bp->wider_line;
    *slots = bp->slot_bytes <= bp->value_bytes ? narrow : wider;
    *values = bp->slot_bytes <= bp->value_bytes ? wider : narrow;
}

/* Appends block b's staging buffer, `pairs` of them, to the block's bin:
   a full buffer as whole lines (streamed when the plan says so), the
   last, part-filled one pair by pair; and empties the buffer. */
static void flush_stage(const binned_plan *bp, part *pt, int64_t b, uint32_t pairs)
{
    bin *x = &pt->bins[b];
    uint8_t *chunk = room_in(bp, pt, x);
    const size_t sb = bp->slot_bytes, vb = bp->value_bytes;
    const uint8_t *slots, *values;
    stage_of(bp, pt, b, &slots, &values);
    uint8_t *slot_to = chunk + (size_t)x->fill * sb;
    uint8_t *value_to = chunk + (size_t)bp->chunk * sb + (size_t)x->fill * vb;
    if (pairs == bp->lane && bp->stream) {
        bp->stream_lines(slot_to, slots, pairs * sb);
        bp->stream_lines(value_to, values, pairs * vb);
    } else {
        memcpy(slot_to, slots, pairs * sb);
        memcpy(value_to, values, pairs * vb);
    }
    x->fill += pairs;
    pt->cursor[b] = stage_start(bp, pt, b);
}

/* Appends pairs [n, n + m), their slots in wide, to their blocks' staging
   buffers, slots of type ST and values of type VT (the caller's updates
   need not be aligned for VT); VALUE(i) is the address of pair n + i's
   value.  Each block's buffer is LINE bytes of the narrower entries
   (STAGE_LINES lines) and RATIO times that of the wider, the narrow
   entries of all blocks first, so that a pair's wider entry lies at
   RATIO times its narrow entry's address plus a constant: one cursor a
   block, one scaled address, and the buffer is full when the cursor
   reaches a multiple of LINE (the stage is aligned to STAGE_ALIGN).  Every
   AHEAD_PAIRS pairs it fetches a step of next_index and next_values. */
#define STAGE_EACH(ST, VT, VALUE)                                                      \
    do {                                                                               \
        enum {                                                                         \
            NARROW = sizeof(ST) < sizeof(VT) ? sizeof(ST) : sizeof(VT),                \
            RATIO = (sizeof(ST) < sizeof(VT) ? sizeof(VT) : sizeof(ST)) / NARROW,      \
            LINE = 64 * STAGE_LINES(NARROW)                                            \
        };                                                                             \
        const uintptr_t to_wider = (uintptr_t)(pt->stage + (size_t)bp->blocks * LINE) - \
                                   RATIO * (uintptr_t)pt->stage;                       \
        _Pragma("GCC unroll 4") for (int64_t i = 0; i < m; i++) {                     \
            if (i % AHEAD_PAIRS == 0) {                                                \
                fetch_ahead(&next_index);                                              \
                fetch_ahead(&next_values);                                             \
            }                                                                          \
            const uint64_t s = (uint64_t)wide[i];                                      \
            const uint64_t b = s >> shift;                                             \
            uint8_t *at = cursor[b];                                                   \
            uint8_t *wider = (uint8_t *)(to_wider + RATIO * (uintptr_t)at);            \
            const ST slot = (ST)(s & mask);                                            \
            memcpy(sizeof(ST) <= sizeof(VT) ? at : wider, &slot, sizeof(ST));          \
            memcpy(sizeof(ST) <= sizeof(VT) ? wider : at, VALUE(i), sizeof(VT));       \
            at += NARROW;                                                              \
            cursor[b] = at;                                                            \
            if ((uintptr_t)at % LINE == 0)                                             \
                flush_stage(bp, pt, (int64_t)b, LINE / NARROW);                        \
        }                                                                              \
    } while (0)

#define UPDATE_AT(i) (updates + (size_t)(n + (i)) * sizeof(value_t))
#define POSITION_AT(i) (&(int64_t){n + (i)})

typedef struct {
    uint64_t lo, hi;
} bytes16;

#define STAGE_VALUES(T)                                                                \
    do {                                                                               \
        typedef T value_t;                                                             \
        STAGE_EACH(uint16_t, value_t, UPDATE_AT);                                      \
    } while (0)

void sgk_binned_bin_pairs(void *ctx, int worker, int64_t first, int64_t last)
{
    bin_job *job = ctx;
    binned_plan *bp = job->bp;
    const int shift = bp->shift;
    const uint64_t mask = ((uint64_t)1 << shift) - 1;
    const uint8_t *updates = job->updates;
    const int64_t count = bp->base.count;
    const size_t narrow = bp->slot_bytes < bp->value_bytes ? bp->slot_bytes : bp->value_bytes;
    int64_t mapped[BIN_BATCH];
    (void)worker;
    for (int64_t t = first; t < last; t++) {
        part *pt = &bp->part[t];
        bin *bins = pt->bins;
        uint8_t **cursor = pt->cursor;
        pt->used = 0;
        pt->first_bad = count;
        /* an empty bin looks full, so that its first pair starts a chunk */
        for (int64_t b = 0; b < bp->blocks; b++) {
            bins[b] = (bin){.fill = bp->chunk, .head = NO_CHUNK};
            cursor[b] = stage_start(bp, pt, b);
        }
        const int64_t end = sgk_even_start(count, t + 1, bp->parts);
        for (int64_t n = sgk_even_start(count, t, bp->parts); n < end; n += BIN_BATCH) {
            const int64_t m = end - n < BIN_BATCH ? end - n : BIN_BATCH;
            /* checked before it is binned; the message comes later */
            const int64_t *wide = sgk_slots_of_range(&bp->p, n, n + m, mapped);
            if (wide == NULL) {
                pt->first_bad = n;
                break;
            }
            const int64_t next = n + m, next_end = end - next < BIN_BATCH ? end : next + BIN_BATCH;
            size_t index_bytes = 0;
            const uint8_t *index_span = sgk_index_span(&bp->p, next, next_end, &index_bytes);
            ahead next_index = ahead_of(index_span, index_bytes,
                                        (size_t)sgk_index_bytes_per_pair(&bp->p));
            ahead next_values = ahead_of(bp->slices ? NULL : updates + (size_t)next * bp->value_bytes,
                                         (size_t)(next_end - next) * bp->value_bytes,
                                         bp->value_bytes);
            if (bp->slices) {
                STAGE_EACH(int64_t, int64_t, POSITION_AT);
                continue;
            }
            switch (bp->value_bytes) {
            case 1: STAGE_VALUES(uint8_t); break;
            case 2: STAGE_VALUES(uint16_t); break;
            case 4: STAGE_VALUES(uint32_t); break;
            case 8: STAGE_VALUES(uint64_t); break;
            default: STAGE_VALUES(bytes16); break;
            }
        }
        if (pt->first_bad < count)
            continue; /* nothing binned is read: the call fails */
        for (int64_t b = 0; b < bp->blocks; b++) {
            const size_t staged =
                (size_t)(cursor[b] - stage_start(bp, pt, b)) / narrow;
            if (staged > 0)
                flush_stage(bp, pt, b, (uint32_t)staged);
        }
        /* the streamed lines before step 2 reads them on other threads */
        if (bp->stream)
            sgk_simd_stream_fence();
    }
}

sgk_status sgk_binned_settle(binned_plan *bp)
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
