/* One-shot Elements calls whose indices span data in every dimension but
   the axis: each line along the axis takes its updates (or gives its
   outputs) from the indices' line at the same place, so threads take lines
   (or columns of them) and, for scatters, copy them and apply their
   updates in order, working the slots out from the index values as they
   go.  The indices are only checked first; along a last axis of at most
   65536 slots (gathers: of 4-byte elements) the check also writes 16-bit
   slots, which the lines then read instead of the indices. */
#include <stdio.h>
#include <stdlib.h>

#include "registry/registry.h"
#include "problem/index_map.h"
#include "runtime/memory.h"
#include "parallel/parallel_for.h"
#include "paths/pairs.h"
#include "problem/shape.h"
#include "simd/simd.h"

/* Slots worked out per run, a list short enough for L1. */
#define LINE_PAIRS 512

typedef struct {
    sgk_plan base;
    const void *indices; /* the caller's, read during the one call the plan
                            serves */
    bool index64;
    bool lines32;        /* gathers: slots in 32 bits for vector gathers */
    uint16_t *col;       /* along a last axis of at most 65536 slots (for
                            gathers, of 4-byte elements): each pair's slot
                            in its line, written by the index check (the
                            call scratch's), or NULL */
    sgk_apply16_fn apply16;
    /* data seen as [outer, data_axis, inner], indices as [outer,
       index_axis, inner]; a unit of work is one outer position and
       inner_chunk inner ones */
    int64_t outer, inner, data_axis, index_axis, inner_chunk;
} lines_plan;

typedef struct {
    int64_t outer, inner, data_axis;
    int64_t chunk; /* inner positions per unit */
    int64_t units;
} lines_layout;

/* A scatter's unit copies its lines and then updates them while they are
   still in cache: as many as a cache block holds, with enough units to
   share.  Where the lines are cut into columns, a column is a page wide at
   least: narrower ones made the copy crawl through the data a few cache
   lines per page (sgk-bench scatter_elements, axis 0). */
static lines_layout lay_out_lines(const sgk_problem *p, int threads)
{
    const sgk_index_map *m = &p->map;
    const int64_t es = (int64_t)sgk_elem_size(p->dtype), page = 4096 / es;
    lines_layout l = {
        .outer = sgk_shape_product(m->data->shape, 0, m->axis),
        .inner = sgk_shape_product(m->data->shape, m->axis + 1, m->data->rank),
        .data_axis = m->data->shape[m->axis],
    };
    int64_t chunk = l.data_axis > 0 ? sgk_cache_block_bytes() / (l.data_axis * es) : l.inner;
    chunk = chunk < page ? page : chunk / page * page;
    while (chunk > page && l.outer * ((l.inner + chunk - 1) / chunk) < 4 * threads)
        chunk = chunk / 2 < page ? page : chunk / 2 / page * page;
    l.chunk = l.inner < chunk ? (l.inner > 0 ? l.inner : 1) : chunk;
    l.units = l.outer * ((l.inner + l.chunk - 1) / l.chunk);
    return l;
}

static const char *lines_unfit(const sgk_choice *c)
{
    const sgk_problem *p = c->problem;
    const sgk_index_map *m = &p->map;
    if (!c->base->one_shot)
        return "a reused plan keeps no pointer to the caller's indices";
    if (m->kind != SGK_MAP_ELEMENTS || m->row_len > 1)
        return "not an Elements operator moving single elements";
    if ((p->flags & SGK_PLAN_WIDE_ACCUMULATE) != 0)
        return "float32 accumulation needs whole segments";
    for (int d = 0; d < m->data->rank; d++)
        if (d != m->axis && m->indices->shape[d] != m->data->shape[d])
            return "the indices do not span data beside the axis";
    return NULL;
}

/* Taken when there are units enough for the threads the problem deserves
   (axis 0 of a narrow matrix is one unit: mapped slots share it out), and
   by every scatter below SGK_PARALLEL_MIN_BYTES.  Gathers below
   SGK_PARALLEL_MIN_BYTES map their slots: a vector gather call per short
   line costs more than mapping them (sgk-bench tiny gather_elements). */
static bool lines_preferred(const sgk_choice *c, const char **why)
{
    const sgk_problem *p = c->problem;
    *why = p->scatter ? "one-shot, indices spanning data but along the axis: each "
                        "thread copies lines and applies their updates in order"
                      : "one-shot, indices spanning data but along the axis: slots "
                        "worked out from the indices as they are gathered";
    const int64_t es = (int64_t)sgk_elem_size(p->dtype);
    /* bytes moved: output (and for scatters the copied data), pairs; in
       double, as the sum may pass 2^63 where the buffers do not */
    const double moved =
        (p->scatter ? 2.0 * p->data_elems + 3.0 * p->count : 2.0 * p->count) * (double)es;
    if (moved < (double)c->base->parallel_min_bytes)
        return p->scatter;
    return lay_out_lines(p, c->base->threads).units >= c->base->threads;
}

/* Along a last axis of at most 65536 slots, each pair's slot in its line
   is kept as 16 bits, written as the check reads the indices: the run
   then reads 2 bytes a pair where it would read the index's 4 or 8 again,
   and works nothing out (sgk-bench scatter_elements and gather_elements,
   int64 indices).  Scatters apply them with the blocked paths' 16-bit
   kernels, gathers of 4-byte elements widen them in the vector gather.
   In the call scratch, or not at all. */
static uint16_t *columns_for(const sgk_plan *plan, const sgk_problem *p, const lines_layout *l,
                             sgk_apply16_fn *apply16)
{
    const size_t bytes = (size_t)(p->count > 0 ? p->count : 1) * sizeof(uint16_t);
    if (l->inner != 1 || l->data_axis > SGK_SLOT16_BLOCK ||
        !sgk_path_owns_thread_buffers(plan) || bytes > SGK_CALL_SCRATCH_KEEP)
        return NULL;
    if (p->scatter) {
        *apply16 = sgk_pairs_apply16_kernel(p->dtype, p->reduction);
        if (*apply16 == NULL)
            return NULL;
    } else if (sgk_elem_size(p->dtype) != 4) {
        return NULL;
    }
    return sgk_call_scratch(bytes);
}

static sgk_status lines_make(const sgk_plan *base, const sgk_problem *p, sgk_plan **out)
{
    const sgk_index_map *m = &p->map;
    lines_plan *lp = sgk_path_alloc(base, sizeof *lp);
    if (lp == NULL)
        return sgk_plan_out_of_memory(base);
    const lines_layout l = lay_out_lines(p, base->threads);
    lp->col = columns_for(&lp->base, p, &l, &lp->apply16);
    sgk_status status =
        sgk_check_element_indices(p, base->threads, base->parallel_min_bytes, lp->col);
    if (status != SGK_OK) {
        sgk_path_free(&lp->base);
        return status;
    }
    lp->indices = m->indices->data;
    lp->index64 = m->indices->dtype == SGK_INT64;
    lp->lines32 = sgk_gather_slots_fit_32(p); /* as mapped element gathers */
    lp->outer = l.outer;
    lp->inner = l.inner;
    lp->data_axis = l.data_axis;
    lp->index_axis = m->indices->shape[m->axis];
    lp->inner_chunk = l.chunk;
    *out = &lp->base;
    return SGK_OK;
}

typedef struct {
    const lines_plan *lp;
    const sgk_buffers *b;
} job;

/* slot[k] for the m consecutive pairs from n0 of a unit whose lines start
   at data offset line0, the first pair at inner position i. */
#define LINE_SLOTS(NAME, T, S)                                                         \
    static void NAME(const void *indices, int64_t n0, int64_t m, int64_t line0,        \
                     int64_t i, int64_t A, int64_t I, S *slot)                         \
    {                                                                                  \
        const T *idx = (const T *)indices + n0;                                        \
        if (I == 1) {                                                                  \
            sgk_simd_offset_indices(idx, sizeof(T) == 8, m, A, line0,                  \
                                    sizeof(S) == 8 ? (int64_t *)slot : NULL,           \
                                    sizeof(S) == 8 ? NULL : (int32_t *)slot);          \
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

/* Where a run's slots land (scatters: in base, counted from line0 there)
   or come from (gathers: data, from line0), and, for a gather, the bytes
   at `next` to bring into cache over the run: the next unit's lines. */
typedef struct {
    uint8_t *base;
    int64_t line0;
    const uint8_t *next;
    size_t next_bytes;
} run_target;

/* Run [n0, n0 + len) of a unit, starting at inner position i: consecutive
   pairs with their consecutive updates (or outputs). */
typedef void (*line_run_fn)(const job *j, int64_t n0, int64_t len, int64_t i,
                            const run_target *t);

static void scatter_run(const job *j, int64_t n0, int64_t len, int64_t i, const run_target *t)
{
    const lines_plan *lp = j->lp;
    if (lp->col != NULL) {
        const size_t es = lp->base.elem_size;
        lp->apply16(t->base + (size_t)t->line0 * es, lp->col + n0, j->b->updates + (size_t)n0 * es,
                    NULL, 0, len);
        return;
    }
    int64_t slot[LINE_PAIRS];
    for (int64_t k = 0; k < len; k += LINE_PAIRS) {
        const int64_t m = len - k < LINE_PAIRS ? len - k : LINE_PAIRS;
        (lp->index64 ? line_slots_i64 : line_slots_i32)(lp->indices, n0 + k, m, t->line0,
                                                        (i + k) % lp->inner, lp->data_axis,
                                                        lp->inner, slot);
        /* slot[k'] takes update n0 + k + k' */
        sgk_apply_pairs(&lp->base, j->b, t->base, (size_t)(n0 + k) * j->b->slice_bytes, slot,
                        NULL, 0, m, 1);
    }
}

static void gather_run(const job *j, int64_t n0, int64_t len, int64_t i, const run_target *t)
{
    const lines_plan *lp = j->lp;
    const sgk_plan *p = &lp->base;
    const size_t es = p->elem_size;
    if (lp->col != NULL) {
        sgk_simd_gather_elements16(j->b->out + (size_t)n0 * es, j->b->data + (size_t)t->line0 * es,
                                   lp->col + n0, len, j->b->stream, t->next, t->next_bytes);
        return;
    }
    union {
        int64_t wide[LINE_PAIRS];
        int32_t narrow[LINE_PAIRS];
    } slot;
    /* the next unit's lines, a share per list of slots */
    const int64_t lists = (len + LINE_PAIRS - 1) / LINE_PAIRS;
    const size_t share = lists > 0 ? (t->next_bytes / (size_t)lists + 63) & ~(size_t)63 : 0;
    for (int64_t k = 0, list = 0; k < len; k += LINE_PAIRS, list++) {
        const int64_t m = len - k < LINE_PAIRS ? len - k : LINE_PAIRS;
        uint8_t *out = j->b->out + (size_t)(n0 + k) * es;
        const int64_t at = (i + k) % lp->inner;
        if (lp->lines32) {
            const size_t from = (size_t)list * share;
            const size_t bytes = from < t->next_bytes ? t->next_bytes - from : 0;
            (lp->index64 ? line_slots32_i64 : line_slots32_i32)(
                lp->indices, n0 + k, m, t->line0, at, lp->data_axis, lp->inner, slot.narrow);
            sgk_simd_gather_elements32(out, j->b->data, slot.narrow, 0, m, j->b->stream,
                                       bytes > 0 ? t->next + from : NULL,
                                       bytes < share ? bytes : share);
            continue;
        }
        (lp->index64 ? line_slots_i64 : line_slots_i32)(lp->indices, n0 + k, m, t->line0, at,
                                                        lp->data_axis, lp->inner, slot.wide);
        if (es == 8)
            sgk_simd_gather_elements64(out, j->b->data, slot.wide, 0, m, j->b->stream);
        else
            sgk_simd_move_slices(out, NULL, j->b->data, slot.wide, 0, m, es, es, false);
    }
}

/* scatter_run on pairs [begin, end) of a unit built in scratch, as an
   sgk_pair_piece_fn. */
typedef struct {
    const job *j;
    const run_target *t;
} scratch_unit;

static void scatter_piece(const void *ctx, int64_t begin, int64_t end)
{
    const scratch_unit *unit = ctx;
    scatter_run(unit->j, begin, end - begin, 0, unit->t);
}

/* A scatter unit of whole lines, no larger than L2, whose output goes
   past the caches: its lines are copied into the thread's scratch, take
   their updates there and are streamed out, so that the output is never
   read (as blocked scatters do; sgk-bench scatter_elements, one-shot).
   Where its pairs have 16-bit slots (lines along the last axis), the next
   unit's lines are fetched while they land, as blocked scatters fetch
   their next block: scatter_elements_add and _none of sgk-bench's shape,
   one-shot, ran 1.08-1.13x as fast (Intel Xeon, calls alternated with the
   unit left unfetched); fetching for groups of 4 or 16 lines copied at
   once gained less (1.03-1.08x). */
static void scatter_via_scratch(const job *j, uint8_t *scratch, int64_t pair0, int64_t line0,
                                bool fetch_next)
{
    const lines_plan *lp = j->lp;
    const size_t bytes = (size_t)(lp->data_axis * lp->inner) * lp->base.elem_size;
    const size_t at = (size_t)line0 * lp->base.elem_size;
    const int64_t pairs = lp->index_axis * lp->inner;
    const run_target t = {scratch, 0, NULL, 0};
    sgk_simd_copy_bytes(scratch, j->b->data + at, bytes, false);
    if (fetch_next && lp->col != NULL)
        sgk_apply_fetching(scatter_piece, &(scratch_unit){j, &t}, pair0, pair0 + pairs,
                           j->b->data + at + bytes, bytes);
    else
        scatter_run(j, pair0, pairs, 0, &t);
    sgk_simd_copy_bytes(j->b->out + at, scratch, bytes, true);
}

/* Units [first, last): scatters copy the unit's lines first (unless in
   place); then its runs, in index order. */
static void run_lines(const job *j, int64_t first, int64_t last, line_run_fn run)
{
    const lines_plan *lp = j->lp;
    const sgk_plan *p = &lp->base;
    const int64_t chunks = (lp->inner + lp->inner_chunk - 1) / lp->inner_chunk;
    const int64_t A = lp->data_axis, I = lp->inner;
    const size_t es = p->elem_size, unit_bytes = (size_t)(A * I) * es;
    const bool copy = p->scatter && !j->b->in_place;
    const bool via_scratch = copy && j->b->stream && chunks == 1 &&
                             unit_bytes <= 2 * (size_t)sgk_cache_block_bytes();
    uint8_t *scratch = via_scratch ? sgk_thread_scratch(unit_bytes) : NULL;
    for (int64_t u = first; u < last; u++) {
        const int64_t o = u / chunks, i0 = u % chunks * lp->inner_chunk;
        const int64_t w = i0 + lp->inner_chunk < I ? lp->inner_chunk : I - i0;
        const int64_t line0 = o * A * I;              /* data offset of (o, 0, 0) */
        const int64_t pair0 = o * lp->index_axis * I; /* index offset of (o, 0, 0) */
        if (scratch != NULL) {
            scatter_via_scratch(j, scratch, pair0, line0, u + 1 < last);
            continue;
        }
        if (copy && w == I)
            sgk_simd_copy_bytes(j->b->out + (size_t)line0 * es, j->b->data + (size_t)line0 * es,
                                unit_bytes, false);
        else if (copy)
            sgk_simd_move_slices(j->b->out + (size_t)(line0 + i0) * es, NULL,
                                 j->b->data + (size_t)(line0 + i0) * es, NULL, 0, A,
                                 (size_t)w * es, (size_t)I * es, false);
        run_target t = {j->b->out, line0, NULL, 0};
        if (w == I) {
            /* a gather fetches the next unit's lines as it goes */
            if (!p->scatter && u + 1 < last) {
                t.next = j->b->data + (size_t)(line0 + A * I) * es;
                t.next_bytes = unit_bytes;
            }
            run(j, pair0, lp->index_axis * I, 0, &t);
            continue;
        }
        /* columns [i0, i0 + w): w pairs from each index line, in order of
           the lines, so that each element takes its updates in order */
        for (int64_t a = 0; a < lp->index_axis; a++)
            run(j, pair0 + a * I + i0, w, i0, &t);
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

/* The index values are read while outputs are written: sgk_run_once
   refused indices inside the output. */
static sgk_status lines_run(const sgk_plan *plan, const sgk_buffers *b)
{
    const lines_plan *lp = (const lines_plan *)plan;
    job j = {lp, b};
    int64_t units = lp->outer * ((lp->inner + lp->inner_chunk - 1) / lp->inner_chunk);
    /* scatters: the copy, plus each update read and its destination read
       and written; gathers: each output and its source (in double: the sum
       may pass 2^63 bytes where the buffers do not) */
    double moved = (plan->scatter ? 2.0 * plan->slots + 3.0 * plan->count
                                  : 2.0 * plan->count) * (double)b->slice_bytes;
    sgk_parallel_for(units, plan->threads, moved < 9e18 ? (int64_t)moved : INT64_MAX,
                     plan->parallel_min_bytes, plan->scatter ? scatter_lines : gather_lines, &j);
    return SGK_OK;
}

static void lines_describe(const sgk_plan *plan, char *text, size_t size)
{
    const lines_plan *lp = (const lines_plan *)plan;
    snprintf(text, size,
             "path lines (%s; %lld x %lld lines of %lld slots, %lld index elements "
             "each, in units of %lld lines); %lld %s",
             plan->why, (long long)lp->outer, (long long)lp->inner, (long long)lp->data_axis,
             (long long)lp->index_axis, (long long)lp->inner_chunk, (long long)plan->count,
             plan->scatter ? "updates" : "outputs");
}

const sgk_path sgk_path_lines = {
    .name = "lines",
    .unfit = lines_unfit,
    .preferred = lines_preferred,
    .make = lines_make,
    .run = lines_run,
    .describe = lines_describe,
    .destroy = sgk_path_free,
};
