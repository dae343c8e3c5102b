#include "ops/elements_shape.h"
#include "runtime/error.h"
#include "ops/frontend.h"

sgk_status sgk_check_elements_shapes(const char *op, const sgk_tensor *data,
                                     const sgk_tensor *indices, int64_t axis, int *axis_out)
{
    const int r = data->rank;
    if (r < 1)
        return sgk_fail(SGK_ERR_SHAPE, op, "data rank must be >= 1");
    if (indices->rank != r)
        return sgk_fail(SGK_ERR_SHAPE, op, "indices rank %d differs from data rank %d",
                        (int)indices->rank, r);
    sgk_status status = sgk_normalize_axis(op, axis, r, axis_out);
    if (status != SGK_OK)
        return status;
    for (int d = 0; d < r; d++)
        if (d != *axis_out && indices->shape[d] > data->shape[d])
            return sgk_fail(SGK_ERR_SHAPE, op,
                            "indices dimension %d is %lld, larger than data's %lld", d,
                            (long long)indices->shape[d], (long long)data->shape[d]);
    return SGK_OK;
}
