#include <string.h>

#include "dtype.h"
#include "error.h"

bool sgk_dtype_valid(sgk_dtype dtype)
{
    return (int)dtype >= SGK_BOOL && (int)dtype <= SGK_STRING;
}

size_t sgk_dtype_size(sgk_dtype dtype)
{
    return sgk_elem_size(dtype);
}

const char *sgk_dtype_name(sgk_dtype dtype)
{
    static const char *const names[] = {
        "bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64",
        "uint64", "float16", "bfloat16", "float32", "float64", "complex64",
        "complex128", "string"};
    return sgk_dtype_valid(dtype) ? names[dtype] : "invalid";
}

bool sgk_reduction_valid(sgk_reduction reduction)
{
    return (int)reduction >= SGK_REDUCE_NONE && (int)reduction <= SGK_REDUCE_MIN;
}

const char *sgk_reduction_name(sgk_reduction reduction)
{
    static const char *const names[] = {"none", "add", "sub", "mul", "max", "min"};
    return sgk_reduction_valid(reduction) ? names[reduction] : "invalid";
}

sgk_status sgk_reduction_from_name(const char *name, sgk_reduction *out)
{
    static const struct { const char *name; sgk_reduction reduction; } table[] = {
        {"none", SGK_REDUCE_NONE}, {"add", SGK_REDUCE_ADD}, {"sum", SGK_REDUCE_ADD},
        {"sub", SGK_REDUCE_SUB},   {"mul", SGK_REDUCE_MUL}, {"prod", SGK_REDUCE_MUL},
        {"max", SGK_REDUCE_MAX},   {"min", SGK_REDUCE_MIN}};
    if (name == NULL || out == NULL)
        return sgk_fail(SGK_ERR_INVALID_ARGUMENT, "reduction_from_name",
                        "name and out must not be NULL");
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (strcmp(name, table[i].name) == 0) {
            *out = table[i].reduction;
            return SGK_OK;
        }
    }
    return sgk_fail(SGK_ERR_INVALID_ARGUMENT, "reduction_from_name",
                    "unknown reduction '%s' (none add sum sub mul prod max min)", name);
}

bool sgk_reduction_supported(sgk_dtype dtype, sgk_reduction reduction)
{
    if (reduction == SGK_REDUCE_NONE)
        return true;
    switch (dtype) {
    case SGK_STRING:
        return false;
    case SGK_COMPLEX64: case SGK_COMPLEX128:
        return reduction != SGK_REDUCE_MAX && reduction != SGK_REDUCE_MIN;
    default:
        return true;
    }
}
