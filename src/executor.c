/* Runs a plan on the caller's buffers. */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "half.h"
#include "index_map.h"
#include "memory.h"
#include "parallel/parallel_for.h"
#include "plan.h"
#include "simd/simd.h"

typedef struct {
    const sgk_plan *plan;
    const uint8_t *data;
    const uint8_t *updates;
    uint8_t *out;
    bool in_place;
    size_t slice_bytes;
    float *acc; /* SGK_PLAN_WIDE_ACCUMULATE: one block of floats per worker */
} job;

/* Element gathers chunk by chunk, each chunk's source range (a line-aligned
   cover of its window) fetched while the chunk before it is gathered. */
static void gather_windows(const job *j, int64_t begin, int64_t end)
{
    const sgk_plan *p = j->plan;
    const int64_t chunks = (p->count + GATHER_CHUNK - 1) / GATHER_CHUNK;
    for (int64_t n = begin, next; n < end; n = next) {
        int64_t c = n / GATHER_CHUNK;
        next = (c + 1) * GATHER_CHUNK < end ? (c + 1) * GATHER_CHUNK : end;
        const uint8_t *lo = NULL;
        size_t span = 0;
        if (c + 1 < chunks) {
            const uintptr_t first = (uintptr_t)(j->data + (size_t)p->window[2 * c + 2] * 4);
            const uintptr_t last = (uintptr_t)(j->data + (size_t)p->window[2 * c + 3] * 4);
            lo = (const uint8_t *)(first & ~(uintptr_t)63);
            span = (size_t)(last - (uintptr_t)lo) + 4;
        }
        sgk_simd_gather_elements32(j->out, j->data, p->slot32, n, next, p->stream_output, lo,
                                   span);
    }
}

static void gather_rows(void *ctx, int worker, int64_t begin, int64_t end)
{
    const job *j = ctx;
    const sgk_plan *p = j->plan;
    (void)worker;
    if (p->window != NULL)
        gather_windows(j, begin, end);
    else if (p->source_order != NULL && (uintptr_t)j->out % 64 == 0)
        sgk_simd_move_rows_in_order(j->out, j->data, p->slot, p->source_order, begin, end,
                                    j->slice_bytes, p->stream_output);
    else if (p->slot32 != NULL)
        sgk_simd_gather_elements32(j->out, j->data, p->slot32, begin, end, p->stream_output, NULL,
                                   0);
    else if (p->slice_len == 1 && p->elem_size == 8)
        sgk_simd_gather_elements64(j->out, j->data, p->slot, begin, end, p->stream_output);
    else
        sgk_simd_move_slices(j->out, NULL, j->data, p->slot, begin, end, j->slice_bytes,
                             j->slice_bytes, p->stream_output);
}

/* Whether `pairs` updates leave most of `slots` slots untouched: then the
   copy of those slots is streamed past the cache, and the few lines the
   updates need are read back. */
static bool few_updates(int64_t pairs, int64_t slots)
{
    return pairs * 8 < slots;
}

/* SGK_PLAN_WIDE_ACCUMULATE: n fp16/bf16 values widened into float32, and
   back, rounded to nearest-even. */
static void widen(const sgk_plan *p, float *acc, const uint16_t *in, int64_t n)
{
    const bool f16 = p->dtype == SGK_FLOAT16;
    for (int64_t e = 0; e < n; e++)
        acc[e] = f16 ? sgk_f16_to_f32(in[e]) : sgk_bf16_to_f32(in[e]);
}

static void round_back(const sgk_plan *p, uint16_t *out, const float *acc, int64_t n)
{
    const bool f16 = p->dtype == SGK_FLOAT16;
    for (int64_t e = 0; e < n; e++)
        out[e] = f16 ? sgk_f32_to_f16(acc[e]) : sgk_f32_to_bf16(acc[e]);
}

/* The update slice pair i takes. */
static const uint8_t *update_of(const job *j, int64_t i)
{
    const int64_t *position = j->plan->position;
    return j->updates + (size_t)(position != NULL ? position[i] : i) * j->slice_bytes;
}

/* fp16/bf16 under SGK_PLAN_WIDE_ACCUMULATE: the block is widened once into
   float32, takes its updates there, and each touched slot is rounded once. */
static void apply_wide(const job *j, float *acc, uint16_t *out, int64_t slots, int64_t begin,
                       int64_t end)
{
    const sgk_plan *p = j->plan;
    const int64_t L = p->slice_len;
    widen(p, acc, out, slots * L);
    for (int64_t i = begin; i < end; i++)
        p->widen_reduce(acc + p->slot[i] * L, update_of(j, i), L);
    for (int64_t i = begin; i < end; i++)
        round_back(p, out + p->slot[i] * L, acc + p->slot[i] * L, L);
}

/* One segment [begin, end) of pairs to the same slot under
   SGK_PLAN_WIDE_ACCUMULATE: widened once, reduced in float32, rounded once. */
static void apply_wide_segment(const job *j, float *acc, uint16_t *out, int64_t begin,
                               int64_t end)
{
    const sgk_plan *p = j->plan;
    widen(p, acc, out, p->slice_len);
    for (int64_t i = begin; i < end; i++)
        p->widen_reduce(acc, update_of(j, i), p->slice_len);
    round_back(p, out, acc, p->slice_len);
}

/* Applies pairs [begin, end) of slot/pos (pos NULL meaning pair i takes
   update slice i) to the slots counted from `base` (elements [c0, c0 +
   width) of every slice, col = c0's byte offset; or, for single-element
   slices, the byte offset of the first pair's update). */
static void apply_pairs(const job *j, uint8_t *base, size_t col, const int64_t *slot,
                        const int64_t *pos, int64_t begin, int64_t end, int64_t width)
{
    const sgk_plan *p = j->plan;
    if (p->apply == NULL)
        sgk_simd_move_slices(base, slot, j->updates + col, pos, begin, end,
                             (size_t)width * p->elem_size, j->slice_bytes, false);
    else
        p->apply(base, slot, j->updates + col, pos, begin, end, p->slice_len, width);
}

/* Pairs [begin, end) of the whole-slice block at `block`, with the plan's
   block-local slots. */
static void apply_block(const job *j, uint8_t *block, int64_t begin, int64_t end)
{
    const sgk_plan *p = j->plan;
    if (p->slot16 != NULL)
        p->apply16(block, p->slot16, j->updates, p->position, begin, end);
    else
        apply_pairs(j, block, 0, p->slot, p->position, begin, end, p->slice_len);
}

/* apply_fetching fetches FETCH_LINES lines between pieces of at least
   FETCH_MIN_PAIRS pairs: more lines at once overflow the core's queue of
   misses (see the fetcher in simd/gather_elements.cc), shorter pieces cost
   calls. */
#define FETCH_LINES 16
#define FETCH_MIN_PAIRS 64

/* apply_block on pairs [begin, end), while the `next`
   bytes of the block after it are brought into L2 a few lines at a time:
   the memory system, otherwise idle while updates land in cache, keeps
   busy, and the data copy of that block finds them there.
   scatter_elements_none 9.8-12.0 ms -> 6.9-9.3, scatter_elements_add
   8.5-9.2 -> 7.5-8.6 (sgk-bench, AMD EPYC VM, builds alternated, 5 and 4
   rounds).  Lines left over when the pairs are few are left to the copy.
   Only for pairs that read their updates in order: where they are read at
   random, their misses need the queue (elementwise_add 4.0-4.2 ms ->
   3.9-6.6 with this fetch). */
static void apply_fetching(const job *j, uint8_t *block, int64_t begin, int64_t end,
                           const uint8_t *next, size_t next_bytes)
{
    const int64_t lines = (int64_t)((next_bytes + 63) / 64);
    const int64_t pieces = (lines + FETCH_LINES - 1) / FETCH_LINES;
    int64_t piece = (end - begin + pieces - 1) / pieces;
    if (piece < FETCH_MIN_PAIRS)
        piece = FETCH_MIN_PAIRS;
    int64_t line = 0;
    for (int64_t i = begin; i < end; i += piece) {
        for (int64_t k = 0; k < FETCH_LINES && line < lines; k++, line++)
            __builtin_prefetch(next + line * 64, 0, 2);
        const int64_t piece_end = end - i > piece ? i + piece : end;
        apply_block(j, block, i, piece_end);
    }
}

/* Blocks [first, last), restricted to elements [c0, c1) of every slice:
   each block is copied (unless in place), then takes its updates in order. */
static void scatter_range(const job *j, int worker, int64_t first, int64_t last, int64_t c0,
                          int64_t c1)
{
    const sgk_plan *p = j->plan;
    const size_t sb = j->slice_bytes, es = p->elem_size;
    const size_t col = (size_t)c0 * es, width = (size_t)(c1 - c0) * es;
    const bool whole = width == sb;
    /* Blocks of outputs streamed past the caches are built here first. */
    uint8_t *scratch = p->stream_output && !j->in_place && whole
                           ? sgk_thread_scratch((size_t)p->block_slots * sb)
                           : NULL;
    for (int64_t b = first; b < last; b++) {
        int64_t s0 = b * p->block_slots;
        int64_t s1 = s0 + p->block_slots < p->slots ? s0 + p->block_slots : p->slots;
        int64_t begin = p->block_start[b], end = p->block_start[b + 1];
        uint8_t *out = j->out + (size_t)s0 * sb;
        const uint8_t *data = j->data + (size_t)s0 * sb;
        size_t bytes = (size_t)(s1 - s0) * sb;
        /* Stream the block unless its updates cover a good part of it: then
           they are better applied to lines the copy just left in cache, or,
           for output past the caches, to a scratch copy of the block that
           is streamed out afterwards, so that the output is never read. */
        bool few = few_updates(end - begin, s1 - s0);
        if (p->stream_output && !few && whole && scratch != NULL && begin != end) {
            sgk_simd_copy_bytes(scratch, data, bytes, false);
            if (p->widen_reduce != NULL)
                apply_wide(j, j->acc + (size_t)worker * (size_t)(p->block_slots * p->slice_len),
                           (uint16_t *)scratch, s1 - s0, begin, end);
            else if (b + 1 < last && p->position == NULL)
                apply_fetching(j, scratch, begin, end, data + bytes,
                               (size_t)(p->slots - s1 < p->block_slots ? p->slots - s1
                                                                       : p->block_slots) * sb);
            else
                apply_block(j, scratch, begin, end);
            sgk_simd_copy_bytes(out, scratch, bytes, true);
            continue;
        }
        bool stream = p->stream_output && few;
        if (!j->in_place && whole)
            sgk_simd_copy_bytes(out, data, bytes, stream);
        else if (!j->in_place)
            sgk_simd_move_slices(out + col, NULL, data + col, NULL, 0, s1 - s0, width, sb,
                                 stream);
        if (begin == end)
            continue;
        if (p->widen_reduce != NULL)
            apply_wide(j, j->acc + (size_t)worker * (size_t)(p->block_slots * p->slice_len),
                       (uint16_t *)out, s1 - s0, begin, end);
        else if (whole)
            apply_block(j, out, begin, end);
        else /* column parts: slices too long for slot16 */
            apply_pairs(j, out + col, col, p->slot, p->position, begin, end, c1 - c0);
    }
}

static void scatter_blocks(void *ctx, int worker, int64_t first, int64_t last)
{
    const job *j = ctx;
    scatter_range(j, worker, first, last, 0, j->plan->slice_len);
}

/* Column parts [first, last): part k owns elements [c0, c1) of every slice,
   cut at cache-line boundaries, through all blocks. */
static void scatter_columns(void *ctx, int worker, int64_t first, int64_t last)
{
    const job *j = ctx;
    const sgk_plan *p = j->plan;
    int64_t unit = 64 / (int64_t)p->elem_size > 0 ? 64 / (int64_t)p->elem_size : 1;
    int64_t units = (p->slice_len + unit - 1) / unit, parts = p->column_parts;
    for (int64_t k = first; k < last; k++) {
        int64_t c0 = units * k / parts * unit, c1 = units * (k + 1) / parts * unit;
        if (c1 > p->slice_len)
            c1 = p->slice_len;
        if (c0 < c1)
            scatter_range(j, worker, 0, p->blocks, c0, c1);
    }
}

/* The atomic path: the whole output is copied first, then the pairs are
   shared evenly, in their original order, between threads. */
static void copy_slots(void *ctx, int worker, int64_t begin, int64_t end)
{
    const job *j = ctx;
    (void)worker;
    /* stream unless updates will land on much of the output soon */
    const sgk_plan *p = j->plan;
    bool few = few_updates(p->count, p->slots);
    sgk_simd_copy_bytes(j->out + (size_t)begin * j->slice_bytes,
                        j->data + (size_t)begin * j->slice_bytes,
                        (size_t)(end - begin) * j->slice_bytes, p->stream_output && few);
}

static void apply_any_order(void *ctx, int worker, int64_t begin, int64_t end)
{
    const job *j = ctx;
    (void)worker;
    apply_pairs(j, j->out, 0, j->plan->slot, j->plan->position, begin, end,
                j->plan->slice_len);
}

/* The sorted-segment path: pairs sorted by slot, each range moved to the
   next segment start so that every slot's updates stay with one thread, in
   order. */
static void apply_segments(void *ctx, int worker, int64_t begin, int64_t end)
{
    const job *j = ctx;
    const sgk_plan *p = j->plan;
    const int64_t *slot = p->slot;
    while (begin > 0 && begin < p->count && slot[begin] == slot[begin - 1])
        begin++;
    while (end > 0 && end < p->count && slot[end] == slot[end - 1])
        end++;
    if (begin >= end)
        return;
    if (p->widen_reduce == NULL) {
        apply_pairs(j, j->out, 0, slot, p->position, begin, end, p->slice_len);
        return;
    }
    float *acc = j->acc + (size_t)worker * (size_t)p->slice_len;
    for (int64_t i = begin, next; i < end; i = next) {
        for (next = i + 1; next < end && slot[next] == slot[i]; next++)
            continue;
        apply_wide_segment(j, acc, (uint16_t *)(j->out + (size_t)slot[i] * j->slice_bytes), i,
                           next);
    }
}

/* Atomic and sorted-segment paths: the whole output is copied first, then
   the pairs are shared between threads. */
static void scatter_unblocked(job *j)
{
    const sgk_plan *p = j->plan;
    int64_t bytes = p->slots * (int64_t)j->slice_bytes;
    if (!j->in_place)
        sgk_parallel_for(p->slots, p->threads, 2 * bytes, p->parallel_min_bytes, copy_slots, j);
    /* each pair reads its update and reads and writes its destination */
    int64_t moved = p->count * (int64_t)j->slice_bytes;
    sgk_parallel_for(p->count, p->threads, moved > INT64_MAX / 3 ? INT64_MAX : 3 * moved,
                     p->parallel_min_bytes,
                     p->path == SGK_PATH_ATOMIC ? apply_any_order : apply_segments, j);
}

/* Owner-computes by ranges: part k of `threads` owns an even share of the
   slots; it copies them, then reads every pair in order, gathering the
   ones it owns a chunk at a time into lists small enough for L1, and
   applies each list in order. */
#define OWNED_CHUNK 512

static void scatter_owned(void *ctx, int worker, int64_t first, int64_t last)
{
    const job *j = ctx;
    const sgk_plan *p = j->plan;
    const int64_t parts = p->threads, S = p->slots;
    (void)worker;
    for (int64_t k = first; k < last; k++) {
        int64_t s0 = sgk_even_start(S, k, parts), s1 = sgk_even_start(S, k + 1, parts);
        if (!j->in_place) {
            /* stream the range unless updates will land on much of it */
            bool few = few_updates(p->count / parts, s1 - s0);
            sgk_simd_copy_bytes(j->out + (size_t)s0 * j->slice_bytes,
                                j->data + (size_t)s0 * j->slice_bytes,
                                (size_t)(s1 - s0) * j->slice_bytes, p->stream_output && few);
        }
        int64_t own_slot[OWNED_CHUNK], own_pos[OWNED_CHUNK];
        for (int64_t i = 0; i < p->count; i += OWNED_CHUNK) {
            int64_t end = i + OWNED_CHUNK < p->count ? i + OWNED_CHUNK : p->count, m = 0;
            for (int64_t n = i; n < end; n++) {
                /* written unconditionally, kept by advancing m: no branch to
                   mispredict on random slots */
                own_slot[m] = p->slot[n];
                own_pos[m] = p->position != NULL ? p->position[n] : n;
                m += p->slot[n] >= s0 && p->slot[n] < s1;
            }
            if (m > 0)
                apply_pairs(j, j->out, 0, own_slot, own_pos, 0, m, p->slice_len);
        }
    }
}

/* SGK_PATH_LINES: a unit of work is one outer position and up to
   inner_chunk inner ones, taken as runs of consecutive pairs (with their
   consecutive updates, or outputs): the unit's whole lines are one run; a
   column of them is one run per index line.  Each run is cut into lists of
   slots worked out from the index values, short enough for L1, for the same
   kernels as every other path. */
#define LINE_PAIRS 512

/* slot[k] for the m consecutive pairs from n0 of a unit whose lines start
   at data offset line0, the first pair at inner position i. */
#define LINE_SLOTS(NAME, T, S)                                                         \
    static void NAME(const void *indices, int64_t n0, int64_t m, int64_t line0,        \
                     int64_t i, int64_t A, int64_t I, S *slot)                         \
    {                                                                                  \
        const T *idx = (const T *)indices + n0;                                        \
        if (I == 1) {                                                                  \
            for (int64_t k = 0; k < m; k++)                                            \
                slot[k] = (S)(line0 + sgk_wrap_index(idx[k], A));                      \
            return;                                                                    \
        }                                                                              \
        for (int64_t k = 0; k < m; k++) {                                              \
            slot[k] = (S)(line0 + sgk_wrap_index(idx[k], A) * I + i);                  \
            i = i + 1 == I ? 0 : i + 1;                                                \
        }                                                                              \
    }

LINE_SLOTS(line_slots_i32, int32_t, int64_t)
LINE_SLOTS(line_slots_i64, int64_t, int64_t)
LINE_SLOTS(line_slots32_i32, int32_t, int32_t)
LINE_SLOTS(line_slots32_i64, int64_t, int32_t)

/* Run [n0, n0 + len) of the unit at line0, starting at inner position i. */
typedef void (*line_run_fn)(const job *j, int64_t n0, int64_t len, int64_t line0, int64_t i);

static void scatter_run(const job *j, int64_t n0, int64_t len, int64_t line0, int64_t i)
{
    const sgk_plan *p = j->plan;
    int64_t slot[LINE_PAIRS];
    for (int64_t k = 0; k < len; k += LINE_PAIRS) {
        const int64_t m = len - k < LINE_PAIRS ? len - k : LINE_PAIRS;
        (p->index64 ? line_slots_i64 : line_slots_i32)(p->indices, n0 + k, m, line0,
                                                       (i + k) % p->inner, p->data_axis,
                                                       p->inner, slot);
        /* slot[k'] takes update n0 + k + k' */
        apply_pairs(j, j->out, (size_t)(n0 + k) * j->slice_bytes, slot, NULL, 0, m, 1);
    }
}

static void gather_run(const job *j, int64_t n0, int64_t len, int64_t line0, int64_t i)
{
    const sgk_plan *p = j->plan;
    const size_t es = p->elem_size;
    union {
        int64_t wide[LINE_PAIRS];
        int32_t narrow[LINE_PAIRS];
    } slot;
    for (int64_t k = 0; k < len; k += LINE_PAIRS) {
        const int64_t m = len - k < LINE_PAIRS ? len - k : LINE_PAIRS;
        uint8_t *out = j->out + (size_t)(n0 + k) * es;
        const int64_t at = (i + k) % p->inner;
        if (p->lines32) {
            (p->index64 ? line_slots32_i64 : line_slots32_i32)(p->indices, n0 + k, m, line0, at,
                                                               p->data_axis, p->inner,
                                                               slot.narrow);
            sgk_simd_gather_elements32(out, j->data, slot.narrow, 0, m, p->stream_output, NULL, 0);
            continue;
        }
        (p->index64 ? line_slots_i64 : line_slots_i32)(p->indices, n0 + k, m, line0, at,
                                                       p->data_axis, p->inner, slot.wide);
        if (es == 8)
            sgk_simd_gather_elements64(out, j->data, slot.wide, 0, m, p->stream_output);
        else
            sgk_simd_move_slices(out, NULL, j->data, slot.wide, 0, m, es, es, false);
    }
}

/* Units [first, last): scatters copy the unit's lines first (unless in
   place); then its runs, in index order. */
static void run_lines(const job *j, int64_t first, int64_t last, line_run_fn run)
{
    const sgk_plan *p = j->plan;
    const int64_t chunks = (p->inner + p->inner_chunk - 1) / p->inner_chunk;
    const int64_t A = p->data_axis, I = p->inner;
    const size_t es = p->elem_size;
    for (int64_t u = first; u < last; u++) {
        const int64_t o = u / chunks, i0 = u % chunks * p->inner_chunk;
        const int64_t w = i0 + p->inner_chunk < I ? p->inner_chunk : I - i0;
        const int64_t line0 = o * A * I;             /* data offset of (o, 0, 0) */
        const int64_t pair0 = o * p->index_axis * I; /* index offset of (o, 0, 0) */
        if (p->scatter && !j->in_place && w == I)
            sgk_simd_copy_bytes(j->out + (size_t)line0 * es, j->data + (size_t)line0 * es,
                                (size_t)(A * I) * es, false);
        else if (p->scatter && !j->in_place)
            sgk_simd_move_slices(j->out + (size_t)(line0 + i0) * es, NULL,
                                 j->data + (size_t)(line0 + i0) * es, NULL, 0, A,
                                 (size_t)w * es, (size_t)I * es, false);
        if (w == I) {
            run(j, pair0, p->index_axis * I, line0, 0);
            continue;
        }
        /* columns [i0, i0 + w): w pairs from each index line, in order of
           the lines, so that each element takes its updates in order */
        for (int64_t a = 0; a < p->index_axis; a++)
            run(j, pair0 + a * I + i0, w, line0, i0);
    }
}

static void scatter_lines(void *ctx, int worker, int64_t first, int64_t last)
{
    (void)worker;
    run_lines(ctx, first, last, scatter_run);
}

static void gather_lines(void *ctx, int worker, int64_t first, int64_t last)
{
    (void)worker;
    run_lines(ctx, first, last, gather_run);
}

/* Traffic of blocks [0, b): their copy (unless in place) plus their
   updates, read once and written once. */
static int64_t blocks_cost(void *ctx, int64_t b)
{
    const job *j = ctx;
    const sgk_plan *p = j->plan;
    int64_t slots = b * p->block_slots < p->slots ? b * p->block_slots : p->slots;
    int64_t copy = j->in_place ? 0 : slots * (int64_t)j->slice_bytes;
    return copy + p->block_start[b] * 2 * (int64_t)j->slice_bytes;
}

/* caller prefixes the messages: the operator for one-shot calls, "execute"
   (followed by the plan's operator) for sgk_execute. */
static sgk_status check_buffers(const char *caller, const sgk_plan *p, const void *data,
                                const void *updates, void *output)
{
    const char *of = caller == p->op ? "" : p->op;
    const char *sep = caller == p->op ? "" : " plan: ";
    const int64_t es = (int64_t)p->elem_size;
    const int64_t data_bytes = p->data_elems * es, out_bytes = p->output_elems * es;
    const int64_t upd_bytes = p->updates_elems * es;
    if (data == NULL && data_bytes > 0)
        return sgk_fail(SGK_ERR_INVALID_ARGUMENT, caller, "%s%sdata buffer is NULL", of, sep);
    if (output == NULL && out_bytes > 0)
        return sgk_fail(SGK_ERR_INVALID_ARGUMENT, caller, "%s%soutput buffer is NULL", of, sep);
    if (p->scatter && updates == NULL && upd_bytes > 0)
        return sgk_fail(SGK_ERR_INVALID_ARGUMENT, caller, "%s%supdates buffer is NULL", of,
                        sep);
    if (p->scatter && sgk_overlaps(updates, upd_bytes, output, out_bytes))
        return sgk_fail(SGK_ERR_INVALID_ARGUMENT, caller,
                        "%s%supdates buffer overlaps the output", of, sep);
    if ((!p->scatter || data != output) && sgk_overlaps(data, data_bytes, output, out_bytes))
        return sgk_fail(SGK_ERR_INVALID_ARGUMENT, caller,
                        "%s%sdata buffer overlaps the output%s", of, sep,
                        p->scatter ? " without being it" : "");
    return SGK_OK;
}

sgk_status sgk_execute(const sgk_plan *plan, const void *data, const void *updates,
                       void *output)
{
    if (plan == NULL)
        return sgk_fail(SGK_ERR_INVALID_ARGUMENT, "execute", "plan is NULL");
    return sgk_execute_for("execute", plan, data, updates, output);
}

sgk_status sgk_execute_for(const char *caller, const sgk_plan *plan, const void *data,
                           const void *updates, void *output)
{
    sgk_status status = check_buffers(caller, plan, data, updates, output);
    /* An empty output moves nothing, and its buffers may all be NULL. */
    if (status != SGK_OK || plan->output_elems == 0 || plan->elem_size == 0)
        return status;
    job j = {
        .plan = plan,
        .data = data,
        .updates = updates,
        .out = output,
        .in_place = data == output,
        .slice_bytes = (size_t)plan->slice_len * plan->elem_size,
    };
    if (plan->path == SGK_PATH_GATHER) {
        /* rows read once and written once: the front end checked that the
           output's bytes fit, so halve before doubling */
        int64_t moved = plan->output_elems * (int64_t)plan->elem_size;
        int64_t traffic = moved > INT64_MAX / 2 ? INT64_MAX : 2 * moved;
        sgk_parallel_for(plan->count, plan->threads, traffic, plan->parallel_min_bytes,
                         gather_rows, &j);
        return SGK_OK;
    }
    if (plan->path == SGK_PATH_LINES) {
        /* the index values are read while outputs are written: sgk_run_once
           refused indices inside the output */
        int64_t units = plan->outer * ((plan->inner + plan->inner_chunk - 1) / plan->inner_chunk);
        /* scatters: the copy, plus each update read and its destination
           read and written; gathers: each output and its source (in
           double: the sum may pass 2^63 bytes where the buffers do not) */
        double moved = (plan->scatter ? 2.0 * plan->slots + 3.0 * plan->count
                                      : 2.0 * plan->count) * (double)j.slice_bytes;
        sgk_parallel_for(units, plan->threads, moved < 9e18 ? (int64_t)moved : INT64_MAX,
                         plan->parallel_min_bytes,
                         plan->scatter ? scatter_lines : gather_lines, &j);
        return SGK_OK;
    }
    if (plan->widen_reduce != NULL) {
        /* scratch before the first write: after it nothing may fail.  A
           worker accumulates a block (blocked paths) or a slice (sorted). */
        int workers = plan->threads > 0 ? plan->threads : 1;
        int64_t floats = plan->path == SGK_PATH_SORTED ? plan->slice_len
                                                       : plan->block_slots * plan->slice_len;
        j.acc = malloc((size_t)workers * (size_t)floats * sizeof *j.acc);
        if (j.acc == NULL)
            return sgk_fail(SGK_ERR_OUT_OF_MEMORY, caller,
                            "no memory for the float32 accumulator");
    }
    if (plan->path == SGK_PATH_ATOMIC || plan->path == SGK_PATH_SORTED) {
        scatter_unblocked(&j);
        free(j.acc);
        return SGK_OK;
    }
    if (plan->path == SGK_PATH_OWNER_RANGES) {
        int64_t moved = (plan->slots + 2 * plan->count) * (int64_t)j.slice_bytes;
        sgk_parallel_for(plan->threads, plan->threads, moved, plan->parallel_min_bytes,
                         scatter_owned, &j);
        free(j.acc);
        return SGK_OK;
    }
    if (plan->column_parts > 1)
        sgk_parallel_for(plan->column_parts, plan->threads, blocks_cost(&j, plan->blocks),
                         plan->parallel_min_bytes, scatter_columns, &j);
    else
        sgk_parallel_for_balanced(plan->blocks, plan->threads, blocks_cost,
                                  plan->parallel_min_bytes, scatter_blocks, &j);
    free(j.acc);
    return SGK_OK;
}
