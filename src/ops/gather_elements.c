/* GatherElements (ONNX 11, 13): the inverse of ScatterElements. */
#include "registry/registry.h"
#include "ops/elements_shape.h"
#include "ops/frontend.h"
#include "problem/shape.h"
#include "ops/tiny.h"

static const char op[] = "gather_elements";

static sgk_status describe_problem(const sgk_tensor *data, const sgk_tensor *indices,
                                   int64_t axis, uint32_t flags, bool one_shot,
                                   sgk_problem *p)
{
    int64_t data_elems, index_elems;
    int axis_norm;
    sgk_status status = sgk_check_flags(op, flags);
    if (status == SGK_OK)
        status = sgk_check_tensor(op, "data", data, one_shot, &data_elems);
    if (status == SGK_OK)
        status = sgk_check_indices(op, indices, &index_elems);
    if (status == SGK_OK)
        status = sgk_check_elements_shapes(op, data, indices, axis, &axis_norm);
    if (status == SGK_OK) /* the output has indices' shape and data's type */
        status = sgk_check_dims(op, "output", indices->shape, indices->rank,
                                sgk_elem_size(data->dtype), &index_elems);
    if (status != SGK_OK)
        return status;
    *p = (sgk_problem){
        .op = op,
        .scatter = false,
        .dtype = data->dtype,
        .reduction = SGK_REDUCE_NONE,
        .flags = flags,
        .data_elems = data_elems,
        .output_elems = index_elems,
        .slice_len = 1,
        .slots = data_elems,
        .count = index_elems,
        .map = {.kind = SGK_MAP_ELEMENTS, .indices = indices, .data = data, .axis = axis_norm},
    };
    return SGK_OK;
}

/* The full one-shot path: the calls the tiny lane does not serve. */
static sgk_status gather_elements_full(const sgk_tensor *data, const sgk_tensor *indices,
                                       int64_t axis, void *output)
{
    sgk_problem p;
    sgk_status status = describe_problem(data, indices, axis, 0, true, &p);
    return status != SGK_OK ? status : sgk_run_once(&p, data->data, NULL, output);
}

sgk_status sgk_gather_elements(const sgk_tensor *data, const sgk_tensor *indices, int64_t axis,
                               void *output)
{
    return sgk_tiny_gather_elements(data, indices, axis, output, gather_elements_full);
}

sgk_status sgk_plan_gather_elements(sgk_plan **plan, const sgk_tensor *data,
                                    const sgk_tensor *indices, int64_t axis, uint32_t flags)
{
    sgk_problem p;
    sgk_status status = describe_problem(data, indices, axis, flags, false, &p);
    return status != SGK_OK ? status : sgk_plan_problem(&p, plan);
}
