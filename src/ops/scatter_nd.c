/* ScatterND (ONNX 11-18) and ScatterNDUpdate (OpenVINO 3, 15). */
#include "runtime/error.h"
#include "ops/frontend.h"
#include "problem/shape.h"
#include "ops/tiny.h"

static const char op[] = "scatter_nd";

static sgk_status describe_problem(const sgk_tensor *data, const sgk_tensor *indices,
                                   const sgk_tensor *updates, sgk_reduction reduction,
                                   uint32_t flags, bool one_shot, sgk_problem *p)
{
    int64_t data_elems, updates_elems, index_elems;
    sgk_status status = sgk_check_scatter_operands(op, data, updates, reduction, flags,
                                                   one_shot, &data_elems, &updates_elems);
    if (status == SGK_OK)
        status = sgk_check_indices(op, indices, &index_elems);
    if (status != SGK_OK)
        return status;
    const int r = data->rank, q = indices->rank;
    if (r < 1 || q < 1)
        return sgk_fail(SGK_ERR_SHAPE, op, "data rank %d and indices rank %d must be >= 1", r,
                        q);
    const int64_t k = indices->shape[q - 1];
    if (k < 1 || k > r)
        return sgk_fail(SGK_ERR_SHAPE, op, "indices.shape[-1] = %lld outside [1, %d]",
                        (long long)k, r);

    /* updates.shape == indices.shape[:-1] ++ data.shape[k:]; OpenVINO also
       passes a scalar update as shape [1]. */
    int64_t expected[2 * SGK_MAX_RANK];
    int expected_rank = 0;
    for (int d = 0; d < q - 1; d++)
        expected[expected_rank++] = indices->shape[d];
    for (int d = (int)k; d < r; d++)
        expected[expected_rank++] = data->shape[d];
    bool match = updates->rank == expected_rank &&
                 sgk_shapes_equal(updates->shape, expected, expected_rank);
    bool scalar_as_one = expected_rank == 0 && updates->rank == 1 && updates->shape[0] == 1;
    if (!match && !scalar_as_one) {
        char got[256], want[256];
        return sgk_fail(SGK_ERR_SHAPE, op, "updates shape %s, expected %s",
                        sgk_format_dims(got, sizeof got, updates->shape, updates->rank),
                        sgk_format_dims(want, sizeof want, expected, expected_rank));
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
        .slice_len = sgk_shape_product(data->shape, (int)k, r),
        .slots = sgk_shape_product(data->shape, 0, (int)k),
        .count = sgk_shape_product(indices->shape, 0, q - 1),
        .map = {.kind = SGK_MAP_TUPLES, .indices = indices, .data = data, .k = (int)k},
    };
    return SGK_OK;
}

/* The full one-shot path: the calls the tiny lane does not serve. */
static sgk_status scatter_nd_full(const sgk_tensor *data, const sgk_tensor *indices,
                                  const sgk_tensor *updates, sgk_reduction reduction,
                                  void *output)
{
    sgk_problem p;
    sgk_status status = describe_problem(data, indices, updates, reduction, 0, true, &p);
    return status != SGK_OK ? status : sgk_run_once(&p, data->data, updates->data, output);
}

sgk_status sgk_scatter_nd(const sgk_tensor *data, const sgk_tensor *indices,
                          const sgk_tensor *updates, sgk_reduction reduction, void *output)
{
    return sgk_tiny_scatter_nd(data, indices, updates, reduction, output, scatter_nd_full);
}

sgk_status sgk_plan_scatter_nd(sgk_plan **plan, const sgk_tensor *data,
                               const sgk_tensor *indices, const sgk_tensor *updates,
                               sgk_reduction reduction, uint32_t flags)
{
    sgk_problem p;
    sgk_status status = describe_problem(data, indices, updates, reduction, flags, false, &p);
    return status != SGK_OK ? status : sgk_plan_problem(&p, plan);
}
