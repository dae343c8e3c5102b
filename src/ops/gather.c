/* Gather (ONNX 1, 11, 13; NumPy's take along an axis).  On data [A, N, I]
   (A the dimensions before the axis, N the axis, I those after it) and Q
   index values, output [A, Q, I] is a gather of I-element rows: pair
   a * Q + q takes row a * N + indices[q].  The A outer batches share one
   index list, which the index map reads again for each (shared rows), so
   Gather runs on the GatherND paths without a copy of the indices. */
#include "registry/registry.h"
#include "runtime/error.h"
#include "ops/frontend.h"
#include "problem/shape.h"
#include "ops/tiny.h"

static const char op[] = "gather";

/* Checks the operands and the axis, and computes the output shape
   data.shape[:axis] ++ indices.shape ++ data.shape[axis+1:]. */
static sgk_status check_shapes(const sgk_tensor *data, const sgk_tensor *indices, int64_t axis,
                               bool one_shot, int64_t *out_shape, int *out_rank, int *axis_out,
                               int64_t *data_elems)
{
    int64_t index_elems;
    sgk_status status = sgk_check_tensor(op, "data", data, one_shot, data_elems);
    if (status == SGK_OK)
        status = sgk_check_indices(op, indices, &index_elems);
    if (status != SGK_OK)
        return status;
    if (data->rank < 1)
        return sgk_fail(SGK_ERR_SHAPE, op, "data rank must be >= 1, not 0");
    int a;
    status = sgk_normalize_axis(op, axis, data->rank, &a);
    if (status != SGK_OK)
        return status;
    int rank = 0;
    for (int d = 0; d < a; d++)
        out_shape[rank++] = data->shape[d];
    for (int d = 0; d < indices->rank; d++)
        out_shape[rank++] = indices->shape[d];
    for (int d = a + 1; d < data->rank; d++)
        out_shape[rank++] = data->shape[d];
    *out_rank = rank;
    *axis_out = a;
    return SGK_OK;
}

static sgk_status describe_problem(const sgk_tensor *data, const sgk_tensor *indices,
                                   int64_t axis, uint32_t flags, bool one_shot, sgk_problem *p)
{
    int64_t out_shape[2 * SGK_MAX_RANK], data_elems, output_elems;
    int out_rank, a;
    sgk_status status = sgk_check_flags(op, flags);
    if (status == SGK_OK)
        status = check_shapes(data, indices, axis, one_shot, out_shape, &out_rank, &a,
                              &data_elems);
    if (status == SGK_OK)
        status = sgk_check_dims(op, "output", out_shape, out_rank, sgk_dtype_size(data->dtype),
                                &output_elems);
    if (status != SGK_OK)
        return status;
    const int r = data->rank;
    const int64_t outer = sgk_shape_product(data->shape, 0, a);
    const int64_t index_count = sgk_shape_product(indices->shape, 0, indices->rank);
    *p = (sgk_problem){
        .op = op,
        .scatter = false,
        .dtype = data->dtype,
        .reduction = SGK_REDUCE_NONE,
        .flags = flags,
        .data_elems = data_elems,
        .output_elems = output_elems,
        .slice_len = sgk_shape_product(data->shape, a + 1, r),
        .slots = sgk_shape_product(data->shape, 0, a + 1),
        /* a product of output dimensions: check_dims bounded it */
        .count = outer * index_count,
        .map = {.kind = SGK_MAP_TUPLES,
                .indices = indices,
                .data = data,
                .batch_dims = a,
                .k = 1,
                .rows_per_batch = index_count,
                .slots_per_batch = data->shape[a],
                .shared_rows = true},
    };
    /* Nothing before the axis to gather for (a zero-sized dimension
       there): no pairs, but Gather's indices must be valid whatever the
       output's size (NumPy's take agrees). */
    return p->count == 0 ? sgk_check_unpaired_indices(p) : SGK_OK;
}

sgk_status sgk_gather_shape(const sgk_tensor *data, const sgk_tensor *indices, int64_t axis,
                            int64_t *shape, int32_t *rank)
{
    if (rank == NULL)
        return sgk_fail(SGK_ERR_INVALID_ARGUMENT, op, "rank pointer is NULL");
    int64_t out_shape[2 * SGK_MAX_RANK], data_elems;
    int out_rank, a;
    sgk_status status =
        check_shapes(data, indices, axis, false, out_shape, &out_rank, &a, &data_elems);
    return status != SGK_OK ? status
                            : sgk_answer_shape(op, out_shape, out_rank, data->dtype, shape, rank);
}

/* The full one-shot path: the calls the tiny lane does not serve. */
static sgk_status gather_full(const sgk_tensor *data, const sgk_tensor *indices, int64_t axis,
                              void *output)
{
    sgk_problem p;
    sgk_status status = describe_problem(data, indices, axis, 0, true, &p);
    return status != SGK_OK ? status : sgk_run_once(&p, data->data, NULL, output);
}

sgk_status sgk_gather(const sgk_tensor *data, const sgk_tensor *indices, int64_t axis,
                      void *output)
{
    return sgk_tiny_gather(data, indices, axis, output, gather_full);
}

sgk_status sgk_plan_gather(sgk_plan **plan, const sgk_tensor *data, const sgk_tensor *indices,
                           int64_t axis, uint32_t flags)
{
    sgk_problem p;
    sgk_status status = describe_problem(data, indices, axis, flags, false, &p);
    return status != SGK_OK ? status : sgk_plan_problem(&p, plan);
}
