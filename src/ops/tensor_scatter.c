/* TensorScatter (ONNX 24): the KV-cache write.  On a cache [B, P, S, I]
   (B the batch, P the dimensions between it and the axis, S the axis:
   max_sequence_length, I those after it) and an update [B, P, s, I], row
   (b, p) of the update moves its s slices of I elements to positions
   write_indices[b], write_indices[b] + 1, ... of row (b, p) of the cache,
   wrapped modulo S in circular mode.  A slice scatter with reduction
   `none` whose slots are worked out from one write index per batch, and
   never collide (s <= S): in place it costs the written slices alone. */
#include <string.h>

#include "registry/registry.h"
#include "runtime/error.h"
#include "ops/frontend.h"
#include "problem/shape.h"
#include "ops/tiny.h"

static const char op[] = "tensor_scatter";

sgk_status sgk_tensor_scatter_mode_from_name(const char *name, sgk_tensor_scatter_mode *out)
{
    if (name == NULL || out == NULL)
        return sgk_fail(SGK_ERR_INVALID_ARGUMENT, "tensor_scatter_mode_from_name",
                        "name or output pointer is NULL");
    if (strcmp(name, "linear") == 0 || strcmp(name, "circular") == 0) {
        *out = name[0] == 'l' ? SGK_TENSOR_SCATTER_LINEAR : SGK_TENSOR_SCATTER_CIRCULAR;
        return SGK_OK;
    }
    return sgk_fail(SGK_ERR_INVALID_ARGUMENT, "tensor_scatter_mode_from_name",
                    "unknown mode \"%s\" (linear, circular)", name);
}

/* update has the cache's shape but for the axis, where it is no longer. */
static sgk_status check_update_shape(const sgk_tensor *cache, const sgk_tensor *update,
                                     int axis)
{
    bool fits = update->rank == cache->rank;
    for (int d = 0; fits && d < cache->rank; d++)
        fits = d == axis ? update->shape[d] <= cache->shape[d]
                         : update->shape[d] == cache->shape[d];
    if (fits)
        return SGK_OK;
    char got[256], cache_shape[256];
    return sgk_fail(SGK_ERR_SHAPE, op,
                    "update shape %s does not fit past_cache shape %s: it must match it but "
                    "along axis %d, where it may be shorter",
                    sgk_format_dims(got, sizeof got, update->shape, update->rank),
                    sgk_format_dims(cache_shape, sizeof cache_shape, cache->shape, cache->rank),
                    axis);
}

/* write_indices, when given: int32 or int64, of shape [batch]. */
static sgk_status check_write_indices(const sgk_tensor *cache, const sgk_tensor *write_indices)
{
    int64_t count;
    if (write_indices == NULL)
        return SGK_OK;
    sgk_status status = sgk_check_tensor(op, "write_indices", write_indices, true, &count);
    if (status != SGK_OK)
        return status;
    if (write_indices->dtype != SGK_INT32 && write_indices->dtype != SGK_INT64)
        return sgk_fail(SGK_ERR_UNSUPPORTED, op, "write_indices must be int32 or int64, not %s",
                        sgk_dtype_name(write_indices->dtype));
    if (write_indices->rank != 1 || write_indices->shape[0] != cache->shape[0]) {
        char got[256];
        return sgk_fail(SGK_ERR_SHAPE, op, "write_indices shape %s, expected [%lld] (the batch)",
                        sgk_format_dims(got, sizeof got, write_indices->shape,
                                        write_indices->rank),
                        (long long)cache->shape[0]);
    }
    return SGK_OK;
}

static sgk_status describe_problem(const sgk_tensor *cache, const sgk_tensor *update,
                                   const sgk_tensor *write_indices, int64_t axis,
                                   sgk_tensor_scatter_mode mode, uint32_t flags, bool one_shot,
                                   sgk_problem *p)
{
    int64_t data_elems, updates_elems;
    sgk_status status = sgk_check_tensor(op, "past_cache", cache, one_shot, &data_elems);
    if (status == SGK_OK)
        status = sgk_check_tensor(op, "update", update, one_shot, &updates_elems);
    if (status == SGK_OK)
        status = sgk_check_flags(op, flags);
    if (status != SGK_OK)
        return status;
    if (update->dtype != cache->dtype)
        return sgk_fail(SGK_ERR_INVALID_ARGUMENT, op, "update is %s but past_cache is %s",
                        sgk_dtype_name(update->dtype), sgk_dtype_name(cache->dtype));
    if (mode != SGK_TENSOR_SCATTER_LINEAR && mode != SGK_TENSOR_SCATTER_CIRCULAR)
        return sgk_fail(SGK_ERR_INVALID_ARGUMENT, op, "invalid mode %d", (int)mode);
    const int r = cache->rank;
    if (r < 2)
        return sgk_fail(SGK_ERR_SHAPE, op,
                        "past_cache rank %d must be >= 2: a batch dimension and a sequence "
                        "axis",
                        r);
    int a;
    status = sgk_normalize_axis(op, axis, r, &a);
    if (status != SGK_OK)
        return status;
    if (a == 0)
        return sgk_fail(SGK_ERR_SHAPE, op,
                        "axis %lld is the batch dimension; the sequence axis must be in "
                        "[1, %d] or [%d, -1]",
                        (long long)axis, r - 1, -(r - 1));
    status = check_update_shape(cache, update, a);
    if (status == SGK_OK)
        status = check_write_indices(cache, write_indices);
    if (status != SGK_OK)
        return status;
    const int64_t seq_len = update->shape[a];
    /* products of the update's or the cache's dimensions: check_tensor
       bounded them */
    *p = (sgk_problem){
        .op = op,
        .scatter = true,
        .dtype = cache->dtype,
        .reduction = SGK_REDUCE_NONE,
        .flags = flags,
        .data_elems = data_elems,
        .updates_elems = updates_elems,
        .output_elems = data_elems,
        .slice_len = sgk_shape_product(cache->shape, a + 1, r),
        .slots = sgk_shape_product(cache->shape, 0, a + 1),
        .count = sgk_shape_product(update->shape, 0, a + 1),
        .distinct_slots = true,
        .map = {.kind = SGK_MAP_SEQUENCE,
                .indices = write_indices,
                .data = cache,
                .axis = a,
                .rows_per_batch = sgk_shape_product(update->shape, 1, a + 1),
                .seq_len = seq_len,
                .max_seq_len = cache->shape[a],
                .circular = mode == SGK_TENSOR_SCATTER_CIRCULAR},
    };
    return p->count == 0 ? sgk_check_unpaired_indices(p) : SGK_OK;
}

/* The full one-shot path: the calls the tiny lane does not serve. */
static sgk_status tensor_scatter_full(const sgk_tensor *past_cache, const sgk_tensor *update,
                                      const sgk_tensor *write_indices, int64_t axis,
                                      sgk_tensor_scatter_mode mode, void *output)
{
    sgk_problem p;
    sgk_status status =
        describe_problem(past_cache, update, write_indices, axis, mode, 0, true, &p);
    return status != SGK_OK ? status
                            : sgk_run_once(&p, past_cache->data, update->data, output);
}

sgk_status sgk_tensor_scatter(const sgk_tensor *past_cache, const sgk_tensor *update,
                              const sgk_tensor *write_indices, int64_t axis,
                              sgk_tensor_scatter_mode mode, void *output)
{
    return sgk_tiny_tensor_scatter(past_cache, update, write_indices, axis, mode, output,
                                   tensor_scatter_full);
}

sgk_status sgk_plan_tensor_scatter(sgk_plan **plan, const sgk_tensor *past_cache,
                                   const sgk_tensor *update, const sgk_tensor *write_indices,
                                   int64_t axis, sgk_tensor_scatter_mode mode, uint32_t flags)
{
    sgk_problem p;
    sgk_status status =
        describe_problem(past_cache, update, write_indices, axis, mode, flags, false, &p);
    return status != SGK_OK ? status : sgk_plan_problem(&p, plan);
}
