/* GatherND (ONNX 11-13, OpenVINO GatherND-8) with batch dimensions. */
#include "registry/registry.h"
#include "runtime/error.h"
#include "ops/frontend.h"
#include "problem/shape.h"
#include "ops/tiny.h"

static const char op[] = "gather_nd";

/* Checks the shape rules and computes the output shape
   indices.shape[:-1] ++ data.shape[b+k:] into out_shape. */
static sgk_status check_shapes(const sgk_tensor *data, const sgk_tensor *indices,
                               int64_t batch_dims, bool one_shot, int64_t *out_shape,
                               int *out_rank, int64_t *data_elems)
{
    int64_t index_elems;
    sgk_status status = sgk_check_tensor(op, "data", data, one_shot, data_elems);
    if (status == SGK_OK)
        status = sgk_check_indices(op, indices, &index_elems);
    if (status != SGK_OK)
        return status;
    const int r = data->rank, q = indices->rank;
    if (r < 1 || q < 1)
        return sgk_fail(SGK_ERR_SHAPE, op, "data rank %d and indices rank %d must be >= 1", r,
                        q);
    if (batch_dims < 0 || batch_dims >= (q < r ? q : r))
        return sgk_fail(SGK_ERR_SHAPE, op, "batch_dims %lld outside [0, min(%d, %d))",
                        (long long)batch_dims, q, r);
    const int b = (int)batch_dims;
    const int64_t k = indices->shape[q - 1];
    if (k < 1 || k > r - b)
        return sgk_fail(SGK_ERR_SHAPE, op, "indices.shape[-1] = %lld outside [1, %d]",
                        (long long)k, r - b);
    for (int d = 0; d < b; d++)
        if (indices->shape[d] != data->shape[d])
            return sgk_fail(SGK_ERR_SHAPE, op,
                            "batch dimension %d differs: indices %lld, data %lld", d,
                            (long long)indices->shape[d], (long long)data->shape[d]);
    int rank = 0;
    for (int d = 0; d < q - 1; d++)
        out_shape[rank++] = indices->shape[d];
    for (int d = b + (int)k; d < r; d++)
        out_shape[rank++] = data->shape[d];
    *out_rank = rank;
    return SGK_OK;
}

static sgk_status describe_problem(const sgk_tensor *data, const sgk_tensor *indices,
                                   int64_t batch_dims, uint32_t flags, bool one_shot,
                                   sgk_problem *p)
{
    int64_t out_shape[2 * SGK_MAX_RANK], data_elems, output_elems;
    int out_rank;
    sgk_status status = sgk_check_flags(op, flags);
    if (status == SGK_OK)
        status = check_shapes(data, indices, batch_dims, one_shot, out_shape, &out_rank,
                              &data_elems);
    if (status == SGK_OK)
        status = sgk_check_dims(op, "output", out_shape, out_rank, sgk_elem_size(data->dtype),
                                &output_elems);
    if (status != SGK_OK)
        return status;
    const int r = data->rank, q = indices->rank, b = (int)batch_dims;
    const int k = (int)indices->shape[q - 1];
    *p = (sgk_problem){
        .op = op,
        .scatter = false,
        .dtype = data->dtype,
        .reduction = SGK_REDUCE_NONE,
        .flags = flags,
        .data_elems = data_elems,
        .output_elems = output_elems,
        .slice_len = sgk_shape_product(data->shape, b + k, r),
        .slots = sgk_shape_product(data->shape, 0, b + k),
        .count = sgk_shape_product(indices->shape, 0, q - 1),
        .map = {.kind = SGK_MAP_TUPLES,
                .indices = indices,
                .data = data,
                .batch_dims = b,
                .k = k,
                .rows_per_batch = b > 0 ? sgk_shape_product(indices->shape, b, q - 1) : 0,
                .slots_per_batch = sgk_shape_product(data->shape, b, b + k)},
    };
    return SGK_OK;
}

sgk_status sgk_gather_nd_shape(const sgk_tensor *data, const sgk_tensor *indices,
                               int64_t batch_dims, int64_t *shape, int32_t *rank)
{
    if (rank == NULL)
        return sgk_fail(SGK_ERR_INVALID_ARGUMENT, op, "rank pointer is NULL");
    int64_t out_shape[2 * SGK_MAX_RANK], data_elems;
    int out_rank;
    sgk_status status =
        check_shapes(data, indices, batch_dims, false, out_shape, &out_rank, &data_elems);
    return status != SGK_OK ? status
                            : sgk_answer_shape(op, out_shape, out_rank, data->dtype, shape, rank);
}

/* The full one-shot path: the calls the tiny lane does not serve. */
static sgk_status gather_nd_full(const sgk_tensor *data, const sgk_tensor *indices,
                                 int64_t batch_dims, void *output)
{
    sgk_problem p;
    sgk_status status = describe_problem(data, indices, batch_dims, 0, true, &p);
    return status != SGK_OK ? status : sgk_run_once(&p, data->data, NULL, output);
}

sgk_status sgk_gather_nd(const sgk_tensor *data, const sgk_tensor *indices, int64_t batch_dims,
                         void *output)
{
    return sgk_tiny_gather_nd(data, indices, batch_dims, output, gather_nd_full);
}

sgk_status sgk_plan_gather_nd(sgk_plan **plan, const sgk_tensor *data,
                              const sgk_tensor *indices, int64_t batch_dims, uint32_t flags)
{
    sgk_problem p;
    sgk_status status = describe_problem(data, indices, batch_dims, flags, false, &p);
    return status != SGK_OK ? status : sgk_plan_problem(&p, plan);
}
