#include "registry/registry.h"
#include "runtime/error.h"
#include "ops/frontend.h"
#include "problem/index_map.h"
#include "runtime/memory.h"
#include "problem/plan.h"
#include "problem/shape.h"

sgk_status sgk_check_indices(const char *op, const sgk_tensor *indices, int64_t *count)
{
    sgk_status status = sgk_check_tensor(op, "indices", indices, true, count);
    if (status != SGK_OK)
        return status;
    if (indices->dtype != SGK_INT32 && indices->dtype != SGK_INT64)
        return sgk_fail(SGK_ERR_UNSUPPORTED, op, "indices must be int32 or int64, not %s",
                        sgk_dtype_name(indices->dtype));
    return SGK_OK;
}

sgk_status sgk_check_flags(const char *op, uint32_t flags)
{
    const uint32_t known =
        SGK_PLAN_DETERMINISTIC | SGK_PLAN_ALLOW_REORDER | SGK_PLAN_WIDE_ACCUMULATE;
    if (flags & ~known)
        return sgk_fail(SGK_ERR_INVALID_ARGUMENT, op, "unknown plan flags 0x%x",
                        (unsigned)(flags & ~known));
    if ((flags & SGK_PLAN_DETERMINISTIC) && (flags & SGK_PLAN_ALLOW_REORDER))
        return sgk_fail(SGK_ERR_INVALID_ARGUMENT, op,
                        "SGK_PLAN_DETERMINISTIC and SGK_PLAN_ALLOW_REORDER contradict");
    return SGK_OK;
}

sgk_status sgk_check_scatter_operands(const char *op, const sgk_tensor *data,
                                      const sgk_tensor *updates, sgk_reduction reduction,
                                      uint32_t flags, bool one_shot,
                                      int64_t *data_elems, int64_t *updates_elems)
{
    sgk_status status = sgk_check_tensor(op, "data", data, one_shot, data_elems);
    if (status == SGK_OK)
        status = sgk_check_tensor(op, "updates", updates, one_shot, updates_elems);
    if (status == SGK_OK)
        status = sgk_check_flags(op, flags);
    if (status != SGK_OK)
        return status;
    if (updates->dtype != data->dtype)
        return sgk_fail(SGK_ERR_INVALID_ARGUMENT, op, "updates are %s but data is %s",
                        sgk_dtype_name(updates->dtype), sgk_dtype_name(data->dtype));
    if (!sgk_reduction_valid(reduction))
        return sgk_fail(SGK_ERR_INVALID_ARGUMENT, op, "invalid reduction %d", (int)reduction);
    if (!sgk_reduction_supported(data->dtype, reduction))
        return sgk_fail(SGK_ERR_UNSUPPORTED, op, "reduction %s is not defined for %s",
                        sgk_reduction_name(reduction), sgk_dtype_name(data->dtype));
    return SGK_OK;
}

sgk_status sgk_normalize_axis(const char *op, int64_t axis, int rank, int *out)
{
    if (axis < -rank || axis >= rank)
        return sgk_fail(SGK_ERR_SHAPE, op, "axis %lld outside [%d, %d]", (long long)axis,
                        -rank, rank - 1);
    *out = (int)(axis < 0 ? axis + rank : axis);
    return SGK_OK;
}

sgk_status sgk_check_unpaired_indices(const sgk_problem *p)
{
    if (p->map.kind == SGK_MAP_SEQUENCE)
        return sgk_check_write_indices(p);
    /* shared rows: the one list of index rows, as one batch */
    sgk_problem one = *p;
    one.count = p->map.rows_per_batch;
    int64_t slot[256];
    for (int64_t n = 0; n < one.count; n += 256) {
        const int64_t end = one.count - n > 256 ? n + 256 : one.count;
        sgk_status status = sgk_map_index_range(&one, n, end, slot);
        if (status != SGK_OK)
            return status;
    }
    return SGK_OK;
}

sgk_status sgk_answer_shape(const char *op, const int64_t *out_shape, int out_rank,
                            sgk_dtype dtype, int64_t *shape, int32_t *rank)
{
    int64_t output_elems;
    sgk_status status =
        sgk_check_dims(op, "output", out_shape, out_rank, sgk_elem_size(dtype), &output_elems);
    if (status != SGK_OK)
        return status;
    *rank = out_rank;
    for (int d = 0; shape != NULL && d < out_rank; d++)
        shape[d] = out_shape[d];
    return SGK_OK;
}

sgk_status sgk_plan_problem(const sgk_problem *p, sgk_plan **plan)
{
    if (plan == NULL)
        return sgk_fail(SGK_ERR_INVALID_ARGUMENT, p->op, "plan pointer is NULL");
    return sgk_plan_build(p, false, plan);
}

/* One-shot calls may read the index values while they write the output
   (the lines path), where overlapping indices would be overwritten and then
   followed out of bounds: on every path, indices inside the output are
   refused before anything is read or written. */
static bool indices_overlap_output(const sgk_problem *p, const void *output)
{
    const sgk_tensor *ix = p->map.indices;
    if (ix == NULL)
        return false;
    return sgk_overlaps(ix->data,
                        sgk_shape_product(ix->shape, 0, ix->rank) *
                            (int64_t)sgk_elem_size(ix->dtype),
                        output, p->output_elems * (int64_t)sgk_elem_size(p->dtype));
}

sgk_status sgk_run_once(const sgk_problem *p, const void *data, const void *updates,
                        void *output)
{
    if (indices_overlap_output(p, output))
        return sgk_fail(SGK_ERR_INVALID_ARGUMENT, p->op, "indices buffer overlaps the output");
    sgk_plan *plan;
    sgk_status status = sgk_plan_build(p, true, &plan);
    if (status != SGK_OK)
        return status;
    status = sgk_execute_for(p->op, plan, data, updates, output);
    sgk_plan_destroy(plan);
    return status;
}
