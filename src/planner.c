/* The planner: everything that depends only on shapes and index values is
   decided here, once, so that execution is pure data movement. */
#include <stdio.h>
#include <stdlib.h>

#include "dtype.h"
#include "duplicates.h"
#include "error.h"
#include "index_map.h"
#include "memory.h"
#include "parallel/partition.h"
#include "plan.h"
#include "runtime_config.h"
#include "simd/simd.h"
#include "topology.h"

/* A destination block should stay in the core's L2 while its updates land:
   a quarter of L2 leaves room for the updates streaming through. */
static int64_t block_bytes(void)
{
    int64_t l2 = sgk_topology_get()->l2_bytes;
    int64_t bytes = l2 > 0 ? l2 / 4 : 256 * 1024;
    return bytes < 32 * 1024 ? 32 * 1024 : bytes > 1024 * 1024 ? 1024 * 1024 : bytes;
}

/* Non-temporal stores skip reading the destination into the cache before
   overwriting it, but leave the output outside the cache: worth it for
   outputs well beyond what the caches keep, written in runs of at least a
   cache line (a scatter's block copies always are). */
static bool streams_pay(const sgk_plan *plan)
{
    const sgk_config *config = sgk_config_get();
    int64_t out_bytes = plan->output_elems * (int64_t)plan->elem_size;
    int64_t slice_bytes = plan->slice_len * (int64_t)plan->elem_size;
    return config->stream_min_bytes >= 0 && out_bytes >= config->stream_min_bytes &&
           (plan->scatter || slice_bytes >= 64);
}

/* `none`: a sequential loop leaves only the last update of each slot, so the
   earlier ones can be dropped here and never moved.  Compacts slot in place and
   records each kept pair's update position. */
static sgk_status drop_overwritten(sgk_plan *plan, int64_t *slot, int64_t **position)
{
    bool *keep = sgk_alloc_array(plan->count, sizeof *keep);
    int64_t *pos = sgk_alloc_array(plan->distinct, sizeof *pos);
    sgk_status status = keep != NULL && pos != NULL
                            ? sgk_find_last_occurrences(slot, plan->count, plan->slots,
                                                        plan->threads, plan->parallel_min_bytes, keep)
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

/* Sets block_start to where each block's pairs begin, when the pairs already
   come in block order (sorted indices, the Elements operators along most
   axes); returns false otherwise. */
static bool blocks_in_order(sgk_plan *plan, const int64_t *slot)
{
    for (int64_t n = 1; n < plan->count; n++)
        if (slot[n] >> plan->block_shift < slot[n - 1] >> plan->block_shift)
            return false;
    int64_t *start = sgk_alloc_array(plan->blocks + 1, sizeof *start);
    if (start == NULL)
        return false;
    int64_t n = 0;
    for (int64_t b = 0; b <= plan->blocks; b++) {
        while (n < plan->count && slot[n] >> plan->block_shift < b)
            n++;
        start[b] = n;
    }
    plan->block_start = start;
    return true;
}

/* Stable partition of the pairs by destination block (in parallel: the
   serial counting sort cost more than an execution for millions of pairs). */
static sgk_status group_by_block(sgk_plan *plan, const int64_t *slot, const int64_t *position)
{
    int64_t *start = sgk_alloc_array(plan->blocks + 1, sizeof *start);
    int64_t *bslot = sgk_alloc_array(plan->count, sizeof *bslot);
    int64_t *bpos = sgk_alloc_array(plan->count, sizeof *bpos);
    sgk_status status = start != NULL && bslot != NULL && bpos != NULL
                            ? sgk_partition_stable(slot, position, plan->count, plan->block_shift,
                                                   plan->blocks, plan->threads,
                                                   plan->parallel_min_bytes, start, bslot, bpos)
                            : SGK_ERR_OUT_OF_MEMORY;
    if (status != SGK_OK) {
        free(start), free(bslot), free(bpos);
        return status;
    }
    plan->block_start = start;
    plan->slot = bslot;
    plan->position = bpos;
    return SGK_OK;
}

static void choose_blocks(sgk_plan *plan)
{
    const int64_t slice_bytes = plan->slice_len * (int64_t)plan->elem_size;
    if (sgk_config_get()->reduce_path == SGK_PATH_CHOICE_SERIAL) {
        plan->threads = 1;
        plan->block_slots = plan->slots;
    } else if (slice_bytes == 0) {
        plan->block_slots = plan->slots;
    } else {
        plan->block_slots = block_bytes() / slice_bytes;
        if (plan->block_slots > plan->slots)
            plan->block_slots = plan->slots;
    }
    /* Rounded up to a power of two, so that finding a pair's block is a
       shift, not a 64-bit division, in the planner's per-pair loops. */
    plan->block_shift = 0;
    while (plan->block_shift < 62 && INT64_C(1) << plan->block_shift < plan->block_slots)
        plan->block_shift++;
    plan->block_slots = INT64_C(1) << plan->block_shift;
    plan->blocks = plan->slots / plan->block_slots + (plan->slots % plan->block_slots != 0);
}

/* When a few blocks hold most of the updates (skewed indices, as in
   embedding gradients) whole blocks cannot be shared evenly between threads;
   long slices can instead be cut by columns, every thread applying all the
   updates in order to its own columns: still exact, still deterministic. */
static int64_t choose_column_parts(const sgk_plan *plan)
{
    const int64_t sb = plan->slice_len * (int64_t)plan->elem_size;
    if (plan->threads < 2 || plan->widen_reduce != NULL || sb < 256 * plan->threads)
        return 1;
    int64_t total = 0, heaviest = 0;
    for (int64_t b = 0; b < plan->blocks; b++) {
        int64_t s0 = b * plan->block_slots;
        int64_t slots = s0 + plan->block_slots < plan->slots ? plan->block_slots
                                                              : plan->slots - s0;
        int64_t cost = (slots + 2 * (plan->block_start[b + 1] - plan->block_start[b])) * sb;
        total += cost;
        heaviest = cost > heaviest ? cost : heaviest;
    }
    return heaviest * plan->threads > total + total / 4 ? plan->threads : 1;
}

/* Takes ownership of slot. */
static sgk_status plan_scatter(sgk_plan *plan, uint32_t flags, int64_t *slot)
{
    int64_t *position = NULL;
    sgk_status status = sgk_count_distinct(slot, plan->count, plan->slots, plan->threads,
                                             plan->parallel_min_bytes, &plan->distinct);
    /* In-order application already lets the last update win; dropping the
       overwritten ones first pays only when they carry more bytes than the
       position list it costs (8 bytes a pair, read again at every run). */
    int64_t slice_bytes = plan->slice_len * (int64_t)plan->elem_size;
    if (status == SGK_OK && plan->reduction == SGK_REDUCE_NONE &&
        (plan->count - plan->distinct) * slice_bytes > plan->count * 8)
        status = drop_overwritten(plan, slot, &position);
    if (status == SGK_OK) {
        if ((flags & SGK_PLAN_WIDE_ACCUMULATE) == 0)
            plan->widen_reduce = NULL;
        plan->path = SGK_PATH_BLOCKED;
        choose_blocks(plan);
        if (blocks_in_order(plan, slot)) {
            plan->slot = slot;
            plan->position = position;
            plan->column_parts = choose_column_parts(plan);
            return SGK_OK;
        }
        status = group_by_block(plan, slot, position);
        if (status == SGK_OK)
            plan->column_parts = choose_column_parts(plan);
    }
    free(slot);
    free(position);
    return status;
}

/* Highway's vector gathers need indices as wide as the elements: 4-byte
   element gathers get 32-bit slots, narrowed here once, which also halves
   what every execution reads. */
static sgk_status narrow_element_slots(sgk_plan *plan)
{
    if (plan->slice_len != 1 || plan->elem_size != 4 || plan->slots > INT32_MAX)
        return SGK_OK;
    int32_t *slot32 = sgk_alloc_array(plan->count, sizeof *slot32);
    if (slot32 == NULL)
        return SGK_ERR_OUT_OF_MEMORY;
    for (int64_t n = 0; n < plan->count; n++)
        slot32[n] = (int32_t)plan->slot[n];
    free(plan->slot);
    plan->slot = NULL;
    plan->slot32 = slot32;
    return SGK_OK;
}

static void describe(sgk_plan *plan)
{
    const sgk_config *config = sgk_config_get();
    char what[256];
    if (plan->scatter)
        snprintf(what, sizeof what,
                 "path blocked (%lld blocks of %lld slots, updates applied in order per "
                 "block%s); %lld updates to %lld distinct of %lld slots",
                 (long long)plan->blocks, (long long)plan->block_slots,
                 plan->column_parts > 1 ? ", slices split by columns between threads" : "",
                 (long long)plan->count, (long long)plan->distinct, (long long)plan->slots);
    else
        snprintf(what, sizeof what, "path gather-%s; %lld rows from %lld slots",
                 plan->slot32 != NULL || (plan->slice_len == 1 && plan->elem_size == 8)
                     ? "elements (vector gathers)"
                     : "rows",
                 (long long)plan->count, (long long)plan->slots);
    /* The blocked path serves every reduction deterministically; a forced
       sorted or atomic path has nothing to add yet and says so. */
    char forced[80] = "";
    if (plan->scatter && (config->reduce_path == SGK_PATH_CHOICE_SORTED ||
                          config->reduce_path == SGK_PATH_CHOICE_ATOMIC))
        snprintf(forced, sizeof forced, "; SGK_REDUCE_PATH=%s cannot serve it, fell back",
                 sgk_path_choice_name(config->reduce_path));
    else if (plan->scatter && config->reduce_path == SGK_PATH_CHOICE_SERIAL)
        snprintf(forced, sizeof forced, "; serial forced by SGK_REDUCE_PATH");
    snprintf(plan->description, sizeof plan->description,
             "%s %s %s%s: %s of %lld elements; threads %d; simd %s%s", plan->op,
             sgk_dtype_name(plan->dtype), sgk_reduction_name(plan->reduction),
             plan->widen_reduce != NULL ? " (float32 accumulation)" : "", what,
             (long long)plan->slice_len, plan->threads, sgk_simd_target_name(), forced);
    if (config->verbose)
        fprintf(stderr, "sgk: %s\n", plan->description);
}

sgk_status sgk_plan_build(const sgk_problem *p, bool for_caller, sgk_plan **out)
{
    /* Planning scratch takes up to 32 bytes per pair. */
    if (p->count > INT64_MAX / 32)
        return sgk_fail(SGK_ERR_OVERFLOW, p->op, "%lld index tuples are too many to plan",
                        (long long)p->count);
    sgk_plan *plan = calloc(1, sizeof *plan);
    int64_t *slot = sgk_alloc_array(p->count, sizeof *slot);
    if (plan == NULL || slot == NULL) {
        free(plan);
        free(slot);
        return sgk_fail(SGK_ERR_OUT_OF_MEMORY, p->op, "no memory for %lld index tuples",
                        (long long)p->count);
    }
    *plan = (sgk_plan){
        .op = p->op,
        .scatter = p->scatter,
        .dtype = p->dtype,
        .elem_size = sgk_dtype_size(p->dtype),
        .reduction = p->reduction,
        .data_elems = p->data_elems,
        .updates_elems = p->updates_elems,
        .output_elems = p->output_elems,
        .slice_len = p->slice_len,
        .slots = p->slots,
        .count = p->count,
        .threads = sgk_config_threads(),
        .parallel_min_bytes = sgk_config_get()->parallel_min_bytes,
        .apply = sgk_apply_kernel(p->dtype, p->reduction),
        .widen_reduce = sgk_widen_reduce_kernel(p->dtype, p->reduction),
    };
    plan->stream_output = streams_pay(plan);
    sgk_status status = sgk_map_indices(p, slot, plan->threads, plan->parallel_min_bytes);
    if (status != SGK_OK) {
        free(slot);
        free(plan);
        return status;
    }
    if (p->scatter) {
        status = plan_scatter(plan, p->flags, slot);
    } else {
        plan->slot = slot;
        plan->path = SGK_PATH_GATHER;
        status = narrow_element_slots(plan);
    }
    if (status != SGK_OK) {
        sgk_plan_destroy(plan);
        return sgk_fail(status, p->op, "no memory to plan %lld updates", (long long)p->count);
    }
    /* The description costs more than a tiny problem's whole execution:
       only plans a caller can ask about, or that are logged, get one. */
    if (for_caller || sgk_config_get()->verbose)
        describe(plan);
    *out = plan;
    return SGK_OK;
}

const char *sgk_plan_describe(const sgk_plan *plan)
{
    return plan != NULL ? plan->description : "(no plan)";
}

void sgk_plan_destroy(sgk_plan *plan)
{
    if (plan == NULL)
        return;
    free(plan->slot);
    free(plan->slot32);
    free(plan->position);
    free(plan->block_start);
    free(plan);
}
