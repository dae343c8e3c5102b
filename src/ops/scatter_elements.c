/* ScatterElements (ONNX 11-18); the deprecated Scatter-9/11 is its `none`
   case. */
#include "ops/elements_shape.h"
#include "runtime/error.h"
#include "ops/frontend.h"
#include "problem/shape.h"
#include "ops/tiny.h"

static const char op[] = "scatter_elements";

static sgk_status describe_problem(const sgk_tensor *data, const sgk_tensor *indices,
                                   const sgk_tensor *updates, int64_t axis,
                                   sgk_reduction reduction, uint32_t flags, bool one_shot,
                                   sgk_problem *p)
{
    int64_t data_elems, updates_elems, index_elems;
    int axis_norm;
    sgk_status status = sgk_check_scatter_operands(op, data, updates, reduction, flags,
                                                   one_shot, &data_elems, &updates_elems);
    if (status == SGK_OK)
        status = sgk_check_indices(op, indices, &index_elems);
    if (status == SGK_OK)
        status = sgk_check_elements_shapes(op, data, indices, axis, &axis_norm);
    if (status != SGK_OK)
        return status;
    if (updates->rank != indices->rank ||
        !sgk_shapes_equal(updates->shape, indices->shape, indices->rank)) {
        char got[256], want[256];
        return sgk_fail(SGK_ERR_SHAPE, op, "updates shape %s differs from indices shape %s",
                        sgk_format_dims(got, sizeof got, updates->shape, updates->rank),
                        sgk_format_dims(want, sizeof want, indices->shape, indices->rank));
    }
    *p = (sgk_problem){
        .op = op,
        .scatter = true,
        .dtype = data->dtype,
        .reduction = reduction,
        .flags = flags,
        .data_elems = data_elems,
        .updates_elems = updates_elems,
        .output_elems = data_elems,
        .slice_len = 1,
        .slots = data_elems,
        .count = index_elems,
        .map = {.kind = SGK_MAP_ELEMENTS, .indices = indices, .data = data, .axis = axis_norm},
    };
    return SGK_OK;
}

/* The full one-shot path: the calls the tiny lane does not serve. */
static sgk_status scatter_elements_full(const sgk_tensor *data, const sgk_tensor *indices,
                                        const sgk_tensor *updates, int64_t axis,
                                        sgk_reduction reduction, void *output)
{
    sgk_problem p;
    sgk_status status =
        describe_problem(data, indices, updates, axis, reduction, 0, true, &p);
    return status != SGK_OK ? status : sgk_run_once(&p, data->data, updates->data, output);
}

sgk_status sgk_scatter_elements(const sgk_tensor *data, const sgk_tensor *indices,
                                const sgk_tensor *updates, int64_t axis,
                                sgk_reduction reduction, void *output)
{
    return sgk_tiny_scatter_elements(data, indices, updates, axis, reduction, output,
                                     scatter_elements_full);
}

sgk_status sgk_plan_scatter_elements(sgk_plan **plan, const sgk_tensor *data,
                                     const sgk_tensor *indices, const sgk_tensor *updates,
                                     int64_t axis, sgk_reduction reduction, uint32_t flags)
{
    sgk_problem p;
    sgk_status status =
        describe_problem(data, indices, updates, axis, reduction, flags, false, &p);
    return status != SGK_OK ? status : sgk_plan_problem(&p, plan);
}
