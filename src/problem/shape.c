#include <stdio.h>
#include <string.h>

#include "registry/registry.h"
#include "runtime/error.h"
#include "problem/shape.h"

sgk_status sgk_check_dims(const char *op, const char *role, const int64_t *dims, int rank,
                          size_t elem_size, int64_t *count)
{
    int64_t nonzero = 1;
    bool empty = false;
    for (int d = 0; d < rank; d++) {
        int64_t dim = dims[d];
        if (dim < 0)
            return sgk_fail(SGK_ERR_SHAPE, op, "%s dimension %d is negative (%lld)", role,
                            d, (long long)dim);
        if (dim == 0) {
            empty = true;
            continue;
        }
        if (__builtin_mul_overflow(nonzero, dim, &nonzero))
            return sgk_fail(SGK_ERR_OVERFLOW, op,
                            "%s element count overflows 64 bits at dimension %d", role, d);
    }
    int64_t bytes;
    if (__builtin_mul_overflow(nonzero, (int64_t)elem_size, &bytes) ||
        (uint64_t)bytes > SIZE_MAX)
        return sgk_fail(SGK_ERR_OVERFLOW, op, "%s byte size overflows 64 bits", role);
    *count = empty ? 0 : nonzero;
    return SGK_OK;
}

sgk_status sgk_check_tensor(const char *op, const char *role, const sgk_tensor *t,
                            bool needs_data, int64_t *count)
{
    if (t == NULL)
        return sgk_fail(SGK_ERR_INVALID_ARGUMENT, op, "%s tensor is NULL", role);
    if (!sgk_dtype_valid(t->dtype))
        return sgk_fail(SGK_ERR_INVALID_ARGUMENT, op, "%s has invalid dtype %d", role,
                        (int)t->dtype);
    if (t->rank < 0 || t->rank > SGK_MAX_RANK)
        return sgk_fail(SGK_ERR_SHAPE, op, "%s rank %d outside [0, %d]", role,
                        (int)t->rank, SGK_MAX_RANK);
    if (t->rank > 0 && t->shape == NULL)
        return sgk_fail(SGK_ERR_INVALID_ARGUMENT, op, "%s shape is NULL with rank %d",
                        role, (int)t->rank);
    sgk_status status = sgk_check_dims(op, role, t->shape, t->rank,
                                       sgk_elem_size(t->dtype), count);
    if (status != SGK_OK)
        return status;
    if (needs_data && *count > 0 && t->data == NULL)
        return sgk_fail(SGK_ERR_INVALID_ARGUMENT, op, "%s buffer is NULL", role);
    return SGK_OK;
}

int64_t sgk_shape_product(const int64_t *shape, int from, int to)
{
    int64_t product = 1;
    for (int d = from; d < to; d++)
        product *= shape[d];
    return product;
}

bool sgk_shapes_equal(const int64_t *a, const int64_t *b, int rank)
{
    for (int d = 0; d < rank; d++)
        if (a[d] != b[d])
            return false;
    return true;
}

const char *sgk_format_dims(char *buf, size_t size, const int64_t *dims, int rank)
{
    size_t used = (size_t)snprintf(buf, size, "[");
    for (int d = 0; d < rank && used < size; d++)
        used += (size_t)snprintf(buf + used, size - used, "%s%lld", d ? ", " : "",
                                 (long long)dims[d]);
    if (used < size)
        used += (size_t)snprintf(buf + used, size - used, "]");
    if (used >= size && size >= 4)
        memcpy(buf + size - 4, "...", 4);
    return buf;
}
