#include <stdio.h>
#include <stdlib.h>

#include "dtype.h"
#include "duplicates.h"
#include "error.h"
#include "index_map.h"
#include "plan.h"
#include "runtime_config.h"
#include "simd/simd.h"

/* Replaces the pair list by the pairs whose keep flag is set, in order,
   remembering each one's update position. */
static sgk_status keep_marked_pairs(sgk_plan *plan, const bool *keep, int64_t kept)
{
    int64_t *slot = malloc((size_t)(kept > 0 ? kept : 1) * sizeof *slot);
    int64_t *position = malloc((size_t)(kept > 0 ? kept : 1) * sizeof *position);
    if (slot == NULL || position == NULL) {
        free(slot);
        free(position);
        return SGK_ERR_OUT_OF_MEMORY;
    }
    int64_t out = 0;
    for (int64_t n = 0; n < plan->count; n++) {
        if (keep[n]) {
            slot[out] = plan->slot[n];
            position[out] = n;
            out++;
        }
    }
    free(plan->slot);
    plan->slot = slot;
    plan->position = position;
    plan->count = kept;
    return SGK_OK;
}

/* Scatter path choice: pairs with distinct slots run in parallel; `none`
   always gets there by dropping every update a later one overwrites;
   reductions with duplicates run the sequential loop. */
static sgk_status choose_scatter_path(sgk_plan *plan, uint32_t flags, const char **why)
{
    if (plan->count <= 1) {
        plan->path = SGK_PATH_DISTINCT;
        *why = "at most one update";
        return SGK_OK;
    }
    bool *keep = malloc((size_t)plan->count * sizeof *keep);
    if (keep == NULL)
        return SGK_ERR_OUT_OF_MEMORY;
    int64_t kept;
    sgk_status status = sgk_find_last_occurrences(plan->slot, plan->count, plan->slots, keep,
                                                  &kept);
    if (status == SGK_OK) {
        if (kept == plan->count) {
            plan->path = SGK_PATH_DISTINCT;
            *why = "destinations distinct";
        } else if (plan->reduction == SGK_REDUCE_NONE) {
            status = keep_marked_pairs(plan, keep, kept);
            plan->path = SGK_PATH_DISTINCT;
            *why = "duplicates dropped, last update kept";
        } else if ((flags & SGK_PLAN_WIDE_ACCUMULATE) && plan->widen_reduce != NULL) {
            plan->path = SGK_PATH_SERIAL_WIDE;
            *why = "duplicates, float32 accumulation requested";
        } else {
            plan->path = SGK_PATH_SERIAL;
            *why = "duplicates, sequential order";
        }
    }
    free(keep);
    return status;
}

static const char *path_name(sgk_path path)
{
    switch (path) {
    case SGK_PATH_GATHER: return "gather-rows";
    case SGK_PATH_DISTINCT: return "distinct-parallel";
    case SGK_PATH_SERIAL: return "serial";
    case SGK_PATH_SERIAL_WIDE: return "serial-wide-accumulate";
    }
    return "unknown";
}

static void describe(sgk_plan *plan, const char *why)
{
    const sgk_config *config = sgk_config_get();
    /* Only the serial and distinct paths exist so far: a forced sorted or
       atomic path falls back, and the description says so. */
    char forced[64] = "";
    if (plan->scatter && (config->reduce_path == SGK_PATH_CHOICE_SORTED ||
                          config->reduce_path == SGK_PATH_CHOICE_ATOMIC))
        snprintf(forced, sizeof forced, "; SGK_REDUCE_PATH=%s cannot serve it, fell back",
                 sgk_path_choice_name(config->reduce_path));
    snprintf(plan->description, sizeof plan->description,
             "%s %s %s: path %s (%s); %lld pairs of %lld elements into %lld slots; "
             "threads %d; simd %s%s",
             plan->op, sgk_dtype_name(plan->dtype), sgk_reduction_name(plan->reduction),
             path_name(plan->path), why, (long long)plan->count, (long long)plan->slice_len,
             (long long)plan->slots, plan->threads, sgk_simd_target_name(), forced);
    if (config->verbose)
        fprintf(stderr, "sgk: %s\n", plan->description);
}

sgk_status sgk_plan_build(const sgk_problem *p, sgk_plan **out)
{
    /* Planning scratch takes up to 32 bytes per pair. */
    if (p->count > INT64_MAX / 32)
        return sgk_fail(SGK_ERR_OVERFLOW, p->op, "%lld index tuples are too many to plan",
                        (long long)p->count);
    const sgk_config *config = sgk_config_get();
    sgk_plan *plan = calloc(1, sizeof *plan);
    int64_t *slot = malloc((size_t)(p->count > 0 ? p->count : 1) * sizeof *slot);
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
        .slot = slot,
        .threads = sgk_config_threads(),
        .parallel_min_bytes = config->parallel_min_bytes,
        .reduce = sgk_reduce_kernel(p->dtype, p->reduction),
        .widen_reduce = sgk_widen_reduce_kernel(p->dtype, p->reduction),
    };
    sgk_status status = sgk_map_indices(p, slot, plan->threads, plan->parallel_min_bytes);
    const char *why = "rows independent";
    if (status == SGK_OK) {
        if (p->scatter) {
            status = choose_scatter_path(plan, p->flags, &why);
            if (status != SGK_OK)
                sgk_fail(status, p->op, "no memory to analyse %lld updates",
                         (long long)p->count);
        } else {
            plan->path = SGK_PATH_GATHER;
        }
    }
    if (status != SGK_OK) {
        sgk_plan_destroy(plan);
        return status;
    }
    if (config->reduce_path == SGK_PATH_CHOICE_SERIAL && plan->path == SGK_PATH_DISTINCT) {
        plan->threads = 1;
        why = "SGK_REDUCE_PATH=serial";
    }
    describe(plan, why);
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
    free(plan->position);
    free(plan);
}
