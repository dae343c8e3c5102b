/* The planner: everything that depends only on shapes and index values is
   decided here, once, so that execution is pure data movement.  It fills
   the fields every plan has, picks a path from the table (src/paths/) and
   has the path make the rest. */
#include <stdio.h>
#include <stdlib.h>

#include "registry/registry.h"
#include "runtime/error.h"
#include "paths/path.h"
#include "problem/plan.h"
#include "runtime/runtime_config.h"
#include "simd/simd.h"
#include "plan/whole_rows.h"

/* Non-temporal stores skip reading the destination into the cache before
   overwriting it, but leave the output outside the cache: worth it for
   outputs well beyond what the caches keep, written in runs of at least a
   cache line (a scatter's block copies always are, and element gathers
   write theirs front to back). */
static bool streams_pay(const sgk_plan *plan)
{
    const sgk_config *config = sgk_config_get();
    int64_t out_bytes = plan->output_elems * (int64_t)plan->elem_size;
    int64_t slice_bytes = plan->slice_len * (int64_t)plan->elem_size;
    return config->stream_min_bytes >= 0 && out_bytes >= config->stream_min_bytes &&
           (plan->scatter || slice_bytes >= 64 || plan->slice_len == 1);
}

/* Shortest slice, in bytes, that takes the Highway reduction kernel: below
   it the scalar loop of reduce.c is as fast or faster (with AVX3 on [2048,
   w] rows: float32 add gains from 16 bytes, float64 add breaks even there,
   int8 add loses at 8 bytes).  fp16/bf16 convert in software either way,
   and vectors win from 2 elements.  Single elements always stay with
   reduce.c, whose stride-1 loops prefetch updates far ahead. */
#define SIMD_APPLY_MIN_BYTES 16
#define SIMD_APPLY_MIN_BYTES_HALF 4

/* The reduction kernel: vectorized for slices, reduce.c (the reference)
   for short ones and wherever Highway has no kernel; NULL for NONE.  Front
   ends reject unsupported cells (SGK_ERR_UNSUPPORTED) before planning:
   reaching one here is the planner's error to report, not a move. */
static sgk_status choose_apply(const sgk_problem *p, sgk_apply_fn *apply)
{
    sgk_apply_fn scalar;
    if (sgk_apply_kernel(p->dtype, p->reduction, &scalar) != SGK_OK)
        return sgk_fail(SGK_ERR_UNSUPPORTED, p->op, "reduction %s is not defined for %s",
                        sgk_reduction_name(p->reduction), sgk_dtype_name(p->dtype));
    bool half = p->dtype == SGK_FLOAT16 || p->dtype == SGK_BFLOAT16;
    int64_t min_bytes = half ? SIMD_APPLY_MIN_BYTES_HALF : SIMD_APPLY_MIN_BYTES;
    *apply = scalar;
    if (scalar == NULL || p->slice_len < 2 ||
        p->slice_len < min_bytes / (int64_t)sgk_elem_size(p->dtype))
        return SGK_OK;
    sgk_simd_apply_fn vector = sgk_simd_apply_kernel((int)p->dtype, (int)p->reduction);
    if (vector != NULL)
        *apply = vector;
    return SGK_OK;
}

/* The fields every plan has, before any index is read. */
static sgk_plan base_plan(const sgk_problem *p, bool one_shot, bool whole_rows, int threads,
                          sgk_apply_fn apply)
{
    sgk_plan plan = {
        .op = p->op,
        .scatter = p->scatter,
        .one_shot = one_shot,
        .dtype = p->dtype,
        .elem_size = sgk_elem_size(p->dtype),
        .reduction = p->reduction,
        .data_elems = p->data_elems,
        .updates_elems = p->updates_elems,
        .output_elems = p->output_elems,
        .slice_len = p->slice_len,
        .slots = p->slots,
        .count = p->count,
        .whole_rows = whole_rows,
        .threads = threads,
        .parallel_min_bytes = sgk_config_get()->parallel_min_bytes,
        .apply = apply,
        .widen_reduce = (p->flags & SGK_PLAN_WIDE_ACCUMULATE) != 0
                            ? sgk_widen_reduce_kernel(p->dtype, p->reduction)
                            : NULL,
    };
    plan.stream_output = streams_pay(&plan);
    return plan;
}

/* Two steps: the path SGK_PATH (or SGK_REDUCE_PATH) forces, if it can
   serve the problem; else the first fit path in the table that prefers
   it.  Paths marked in `declined` (by table position) have read the
   indices and turned them down.  Sets the base's path and why, and why a
   forced path could not serve. */
static void choose_path(sgk_plan *base, const sgk_problem *p, uint32_t declined)
{
    const sgk_config *config = sgk_config_get();
    const sgk_choice c = {
        .problem = p,
        .base = base,
        .reorder = (p->flags & SGK_PLAN_ALLOW_REORDER) != 0 ||
                   (!config->deterministic && (p->flags & SGK_PLAN_DETERMINISTIC) == 0),
    };
    const sgk_path *forced = config->forced_path;
    if (forced != NULL && base->unfit_forced == NULL) {
        base->unfit_forced = forced->unfit(&c);
        if (base->unfit_forced == NULL) {
            base->path = forced;
            base->why = "forced";
            return;
        }
    }
    for (int i = 0; sgk_paths[i] != NULL; i++) {
        const char *why;
        if ((declined >> i & 1) == 0 && sgk_paths[i]->unfit(&c) == NULL &&
            sgk_paths[i]->preferred(&c, &why)) {
            base->path = sgk_paths[i];
            base->why = why;
            return;
        }
    }
}

static int table_position(const sgk_path *path)
{
    int i = 0;
    while (sgk_paths[i] != path)
        i++;
    return i;
}

/* Chooses a path and has it make the plan, choosing again without a path
   that declines the indices (path.h).  The last path, which declines
   nothing, ends the loop. */
static sgk_status choose_and_make(sgk_plan *base, const sgk_problem *p, sgk_plan **plan)
{
    uint32_t declined = 0;
    for (;;) {
        choose_path(base, p, declined);
        if (base->one_shot)
            sgk_note_last_path(base->path->name);
        *plan = NULL;
        sgk_status status = base->path->make(base, p, plan);
        if (status != SGK_OK || *plan != NULL)
            return status;
        if (base->path == sgk_config_get()->forced_path)
            base->unfit_forced = base->path->declines;
        declined |= UINT32_C(1) << table_position(base->path);
    }
}

#define DESCRIPTION_BYTES 640

static void describe(sgk_plan *plan)
{
    char what[320], forcing[160] = "";
    plan->description = malloc(DESCRIPTION_BYTES);
    if (plan->description == NULL)
        return;
    plan->path->describe(plan, what, sizeof what);
    const sgk_config *config = sgk_config_get();
    if (plan->unfit_forced != NULL)
        snprintf(forcing, sizeof forcing,
                 "; %s forces path %s, which cannot serve it (%s): fell back", config->forced_by, config->forced_path->name, plan->unfit_forced);
    else if (plan->path == config->forced_path)
        snprintf(forcing, sizeof forcing, "; forced by %s", config->forced_by);
    snprintf(plan->description, DESCRIPTION_BYTES,
             "%s %s %s%s: %s of %lld elements%s; threads %d; simd %s%s", plan->op,
             sgk_dtype_name(plan->dtype), sgk_reduction_name(plan->reduction),
             plan->widen_reduce != NULL ? " (float32 accumulation)" : "", what,
             (long long)plan->slice_len,
             plan->whole_rows ? " (whole rows: the index is constant after the axis)" : "",
             plan->threads, sgk_simd_target_name(), forcing);
    if (config->verbose)
        fprintf(stderr, "sgk: %s\n", plan->description);
}

/* sgk_last_path's answer: a pointer stored per call, no text made. */
static _Thread_local const char *last_one_shot_path;

void sgk_note_last_path(const char *name)
{
    last_one_shot_path = name;
}

sgk_status sgk_plan_build(const sgk_problem *problem, bool one_shot, sgk_plan **out)
{
    const int threads = sgk_config_threads();
    sgk_problem rewritten = *problem;
    const bool whole_rows = sgk_rewrite_as_whole_rows(&rewritten, threads,
                                                      sgk_config_get()->parallel_min_bytes);
    const sgk_problem *p = &rewritten;
    /* Planning scratch takes up to 32 bytes per pair. */
    if (p->count > INT64_MAX / 32)
        return sgk_fail(SGK_ERR_OVERFLOW, p->op, "%lld index tuples are too many to plan",
                        (long long)problem->count);
    sgk_apply_fn apply = NULL;
    sgk_status status = choose_apply(p, &apply);
    if (status != SGK_OK)
        return status;
    sgk_plan base = base_plan(p, one_shot, whole_rows, threads, apply);
    sgk_plan *plan;
    status = choose_and_make(&base, p, &plan);
    if (status != SGK_OK)
        return status;
    /* The description costs more than a tiny problem's whole execution:
       only plans a caller can ask about, or that are logged, get one. */
    if (!one_shot || sgk_config_get()->verbose)
        describe(plan);
    *out = plan;
    return SGK_OK;
}

const char *sgk_plan_describe(const sgk_plan *plan)
{
    if (plan == NULL)
        return "(no plan)";
    return plan->description != NULL ? plan->description : "(no memory for a description)";
}

const char *sgk_plan_path(const sgk_plan *plan)
{
    return plan != NULL ? plan->path->name : NULL;
}

const char *sgk_last_path(void)
{
    return last_one_shot_path;
}

void sgk_plan_destroy(sgk_plan *plan)
{
    if (plan != NULL) {
        free(plan->description);
        plan->path->destroy(plan);
    }
}
