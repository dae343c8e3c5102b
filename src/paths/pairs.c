#include <stdio.h>
#include <stdlib.h>

#include "registry/registry.h"
#include "paths/duplicates.h"
#include "runtime/error.h"
#include "kernels/half.h"
#include "problem/index_map.h"
#include "runtime/memory.h"
#include "parallel/parallel_for.h"
#include "paths/pairs.h"
#include "simd/simd.h"
#include "runtime/topology.h"

/* A quarter of L2 leaves room for the updates streaming through. */
int64_t sgk_cache_block_bytes(void)
{
    int64_t l2 = sgk_topology_get()->l2_bytes;
    int64_t bytes = l2 > 0 ? l2 / 4 : 256 * 1024;
    return bytes < 32 * 1024 ? 32 * 1024 : bytes > 1024 * 1024 ? 1024 * 1024 : bytes;
}

int sgk_shift_for(int64_t n)
{
    int shift = 0;
    while (shift < 62 && INT64_C(1) << shift < n)
        shift++;
    return shift;
}

const char *sgk_one_shot_fold_unfit(const sgk_choice *c)
{
    const sgk_plan *plan = c->base;
    if (!c->problem->scatter)
        return "not a scatter";
    if (!plan->one_shot)
        return "a reused plan groups its pairs once";
    if (plan->widen_reduce != NULL)
        return "float32 accumulation needs whole segments";
    if (plan->output_elems == 0 || plan->slice_len == 0 || plan->elem_size == 0)
        return "nothing to move";
    return NULL;
}

void *sgk_plan_scratch(const sgk_plan *plan, size_t bytes, void **owned)
{
    void *scratch = bytes <= SGK_CALL_SCRATCH_KEEP && sgk_path_owns_thread_buffers(plan)
                        ? sgk_call_scratch(bytes)
                        : NULL;
    return scratch != NULL ? scratch : (*owned = sgk_alloc_array((int64_t)bytes, 1));
}

sgk_status sgk_plan_out_of_memory(const sgk_plan *plan)
{
    return sgk_fail(SGK_ERR_OUT_OF_MEMORY, plan->op, "no memory to plan %lld updates",
                    (long long)plan->count);
}

sgk_status sgk_pairs_map(const sgk_plan *plan, const sgk_problem *p, int64_t **slot)
{
    int64_t *s = sgk_alloc_array(p->count, sizeof *s);
    if (s == NULL)
        return sgk_fail(SGK_ERR_OUT_OF_MEMORY, p->op, "no memory for %lld index tuples",
                        (long long)p->count);
    sgk_status status = sgk_map_indices(p, s, NULL, plan->threads, plan->parallel_min_bytes);
    if (status != SGK_OK) {
        free(s);
        return status;
    }
    *slot = s;
    return SGK_OK;
}

sgk_status sgk_pairs_map_once(const sgk_plan *plan, const sgk_problem *p, int64_t **slot,
                              bool *owned)
{
    const size_t bytes = (size_t)(p->count > 0 ? p->count : 1) * sizeof **slot;
    int64_t *s = plan->one_shot && sgk_path_owns_thread_buffers(plan) &&
                         bytes <= SGK_CALL_SCRATCH_KEEP
                     ? sgk_call_scratch(bytes)
                     : NULL;
    if (s == NULL) {
        *owned = true;
        return sgk_pairs_map(plan, p, slot);
    }
    *owned = false;
    sgk_status status = sgk_map_indices(p, s, NULL, plan->threads, plan->parallel_min_bytes);
    if (status == SGK_OK)
        *slot = s;
    return status;
}

typedef struct {
    const int64_t *slot;
    int shift;
    int out_of_order; /* set by any range that finds a pair before its predecessor */
} order_job;

/* Pairs [begin, end), each against the pair before it, a stretch at a
   time: indices in no order are found out in the first stretch, and every
   range stops once one has, so the check costs little beside planning. */
static void check_order(void *ctx, int worker, int64_t begin, int64_t end)
{
    order_job *job = ctx;
    (void)worker;
    const int shift = job->shift;
    for (int64_t n = begin > 0 ? begin : 1, next; n < end; n = next) {
        next = end - n > 4096 ? n + 4096 : end;
        bool out_of_order = false;
        for (int64_t i = n; i < next; i++)
            out_of_order |= job->slot[i] >> shift < job->slot[i - 1] >> shift;
        if (out_of_order)
            __atomic_store_n(&job->out_of_order, 1, __ATOMIC_RELAXED);
        if (__atomic_load_n(&job->out_of_order, __ATOMIC_RELAXED))
            return;
    }
}

bool sgk_pairs_in_order(const sgk_plan *plan, const int64_t *slot, int shift)
{
    order_job job = {slot, shift, 0};
    sgk_parallel_for(plan->count, plan->threads, plan->count * 8, plan->parallel_min_bytes,
                     check_order, &job);
    return !job.out_of_order;
}

sgk_status sgk_pairs_count_distinct(const sgk_plan *plan, const int64_t *slot,
                                    int64_t *distinct)
{
    return sgk_count_distinct(slot, plan->count, plan->slots, plan->threads,
                              plan->parallel_min_bytes, distinct);
}

sgk_status sgk_pairs_drop_overwritten(sgk_plan *plan, int64_t *slot, int64_t **position)
{
    bool *keep = sgk_alloc_array(plan->count, sizeof *keep);
    int64_t *pos = sgk_alloc_array(plan->count, sizeof *pos);
    sgk_status status = keep != NULL && pos != NULL
                            ? sgk_find_last_occurrences(slot, plan->count, plan->slots, keep)
                            : SGK_ERR_OUT_OF_MEMORY;
    if (status == SGK_OK) {
        int64_t out = 0;
        for (int64_t n = 0; n < plan->count; n++) {
            if (keep[n]) {
                slot[out] = slot[n];
                pos[out++] = n;
            }
        }
        plan->count = out;
        *position = pos;
    } else {
        free(pos);
    }
    free(keep);
    return status;
}

/* In-order application already lets the last update win; dropping the
   overwritten ones first pays only when they carry more bytes than the
   position list it costs (8 bytes a pair, read again at every run), which
   slices of 8 bytes or less never do. */
sgk_status sgk_pairs_count_then_drop(sgk_plan *plan, int64_t *slot, int64_t **position,
                                     int64_t *distinct)
{
    sgk_status status = sgk_pairs_count_distinct(plan, slot, distinct);
    const int64_t slice_bytes = plan->slice_len * (int64_t)plan->elem_size;
    if (status == SGK_OK && plan->reduction == SGK_REDUCE_NONE && slice_bytes > 8 &&
        (plan->count - *distinct) * slice_bytes > plan->count * 8)
        status = sgk_pairs_drop_overwritten(plan, slot, position);
    return status;
}

bool sgk_gather_slots_fit_32(const sgk_problem *p)
{
    return !p->scatter && p->slice_len == 1 && sgk_elem_size(p->dtype) == 4 &&
           p->slots <= INT32_MAX;
}

sgk_apply16_fn sgk_pairs_apply16_kernel(sgk_dtype dtype, sgk_reduction reduction)
{
    sgk_apply16_fn scalar = sgk_apply16_kernel(dtype, reduction);
    sgk_apply16_fn vector =
        scalar != NULL ? sgk_simd_apply16_kernel((int)dtype, (int)reduction) : NULL;
    return vector != NULL ? vector : scalar;
}

typedef struct {
    const sgk_plan *plan;
    const sgk_buffers *b;
} copy_job;

static void copy_slots(void *ctx, int worker, int64_t begin, int64_t end)
{
    const copy_job *j = ctx;
    const size_t sb = j->b->slice_bytes;
    (void)worker;
    bool few = sgk_few_updates(j->plan->count, j->plan->slots);
    sgk_simd_copy_bytes(j->b->out + (size_t)begin * sb, j->b->data + (size_t)begin * sb,
                        (size_t)(end - begin) * sb, j->b->stream && few);
}

/* FETCH_LINES lines between pieces of at least FETCH_MIN_PAIRS pairs:
   more lines at once overflow the core's queue of misses (see the fetcher
   in simd/gather_elements.cc), shorter pieces cost calls.  Lines left over
   when the pairs are few are left to the copy. */
#define FETCH_LINES 16
#define FETCH_MIN_PAIRS 64

void sgk_apply_fetching(sgk_pair_piece_fn piece, const void *ctx, int64_t begin, int64_t end,
                        const uint8_t *next, size_t next_bytes)
{
    const int64_t lines = (int64_t)((next_bytes + 63) / 64);
    const int64_t pieces = (lines + FETCH_LINES - 1) / FETCH_LINES;
    int64_t size = pieces > 0 ? (end - begin + pieces - 1) / pieces : end - begin;
    if (size < FETCH_MIN_PAIRS)
        size = FETCH_MIN_PAIRS;
    int64_t line = 0;
    for (int64_t i = begin; i < end; i += size) {
        for (int64_t k = 0; k < FETCH_LINES && line < lines; k++, line++)
            __builtin_prefetch(next + line * 64, 0, 2);
        piece(ctx, i, end - i > size ? i + size : end);
    }
}

void sgk_copy_output(const sgk_plan *plan, const sgk_buffers *b)
{
    if (b->in_place)
        return;
    copy_job j = {plan, b};
    int64_t bytes = plan->slots * (int64_t)b->slice_bytes;
    sgk_parallel_for(plan->slots, plan->threads, 2 * bytes, plan->parallel_min_bytes,
                     copy_slots, &j);
}

void sgk_gather_for(const sgk_plan *plan, sgk_range_body body, void *job)
{
    /* the front end checked that the output's bytes fit, so halve before
       doubling */
    const int64_t moved = plan->output_elems * (int64_t)plan->elem_size;
    sgk_parallel_for(plan->count, plan->threads, moved > INT64_MAX / 2 ? INT64_MAX : 2 * moved,
                     plan->parallel_min_bytes, body, job);
}

void sgk_apply_pairs(const sgk_plan *plan, const sgk_buffers *b, uint8_t *base, size_t col,
                     const int64_t *slot, const int64_t *pos, int64_t begin, int64_t end,
                     int64_t width)
{
    if (plan->reduction == SGK_REDUCE_NONE)
        sgk_simd_move_slices(base, slot, b->updates + col, pos, begin, end,
                             (size_t)width * plan->elem_size, b->slice_bytes, false);
    else
        plan->apply(base, slot, b->updates + col, pos, begin, end, plan->slice_len, width);
}

/* Only fp16 and bf16 plans accumulate wide (sgk_widen_reduce_kernel gives
   no other type a kernel), and each is converted as what it is. */
void sgk_widen(const sgk_plan *plan, float *acc, const uint16_t *in, int64_t n)
{
    switch (plan->dtype) {
    case SGK_FLOAT16:
        for (int64_t e = 0; e < n; e++)
            acc[e] = sgk_f16_to_f32(in[e]);
        break;
    case SGK_BFLOAT16:
        for (int64_t e = 0; e < n; e++)
            acc[e] = sgk_bf16_to_f32(in[e]);
        break;
    default:
        break;
    }
}

void sgk_round_back(const sgk_plan *plan, uint16_t *out, const float *acc, int64_t n)
{
    switch (plan->dtype) {
    case SGK_FLOAT16:
        for (int64_t e = 0; e < n; e++)
            out[e] = sgk_f32_to_f16(acc[e]);
        break;
    case SGK_BFLOAT16:
        for (int64_t e = 0; e < n; e++)
            out[e] = sgk_f32_to_bf16(acc[e]);
        break;
    default:
        break;
    }
}

void sgk_describe_pairs(const sgk_plan *plan, const char *how, int64_t distinct, char *text,
                        size_t size)
{
    char counted[48] = "uncounted destinations";
    if (distinct >= 0)
        snprintf(counted, sizeof counted, "%lld distinct", (long long)distinct);
    snprintf(text, size, "path %s (%s; %s); %lld updates to %s of %lld slots",
             plan->path->name, plan->why, how, (long long)plan->count, counted,
             (long long)plan->slots);
}
