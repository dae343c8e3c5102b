/* The public queries over the registry's rows (registry.h), and the
   facts the kernels and paths ask of a (type, reduction) cell. */
#include <string.h>

#include "runtime/error.h"
#include "registry/registry.h"

/* The rows must be in code order, for the tables' designated rows to
   line up with the counts: each row's position is its code. */
#define DTYPE_POSITION_(code, name, size, flags, reductions, arg) DTYPE_AT_##code,
#define DTYPE_IN_ORDER_(code, name, size, flags, reductions, arg)                  \
    _Static_assert(DTYPE_AT_##code == (int)code, #code " is out of code order");
enum { SGK_DTYPE_LIST(DTYPE_POSITION_, ~) };
SGK_DTYPE_LIST(DTYPE_IN_ORDER_, ~)
#define REDUCTION_POSITION_(code, op, alias, arg) REDUCTION_AT_##code,
#define REDUCTION_IN_ORDER_(code, op, alias, arg)                                  \
    _Static_assert(REDUCTION_AT_##code == (int)code, #code " is out of code order");
enum { REDUCTION_AT_NONE, SGK_REDUCTION_LIST(REDUCTION_POSITION_, ~) };
SGK_REDUCTION_LIST(REDUCTION_IN_ORDER_, ~)
#define STATUS_POSITION_(code, arg) STATUS_AT_##code,
#define STATUS_IN_ORDER_(code, arg)                                                \
    _Static_assert(STATUS_AT_##code == (int)code, #code " is out of code order");
enum { SGK_STATUS_LIST(STATUS_POSITION_, ~) };
SGK_STATUS_LIST(STATUS_IN_ORDER_, ~)

/* ---- types ---------------------------------------------------------- */

#define DTYPE_FIELDS_(code, name, size, flags, reductions, arg)                    \
    [code] = {name, flags, reductions},
static const struct {
    const char *name;
    uint32_t flags;
    uint32_t reductions;
} dtypes[SGK_DTYPE_COUNT] = {SGK_DTYPE_LIST(DTYPE_FIELDS_, ~)};

bool sgk_dtype_valid(sgk_dtype dtype)
{
    return (unsigned)dtype < SGK_DTYPE_COUNT;
}

int sgk_dtype_count(void)
{
    return SGK_DTYPE_COUNT;
}

size_t sgk_dtype_size(sgk_dtype dtype)
{
    return sgk_elem_size(dtype);
}

const char *sgk_dtype_name(sgk_dtype dtype)
{
    return sgk_dtype_valid(dtype) ? dtypes[dtype].name : "invalid";
}

uint32_t sgk_dtype_flags(sgk_dtype dtype)
{
    return sgk_dtype_valid(dtype) ? dtypes[dtype].flags : 0;
}

sgk_status sgk_dtype_from_name(const char *name, sgk_dtype *out)
{
    if (name == NULL || out == NULL)
        return sgk_fail(SGK_ERR_INVALID_ARGUMENT, "dtype_from_name",
                        "name and out must not be NULL");
    for (int code = 0; code < SGK_DTYPE_COUNT; code++) {
        if (strcmp(name, dtypes[code].name) == 0) {
            *out = (sgk_dtype)code;
            return SGK_OK;
        }
    }
    return sgk_fail(SGK_ERR_INVALID_ARGUMENT, "dtype_from_name", "unknown dtype '%s'", name);
}

/* ---- reductions ----------------------------------------------------- */

#define REDUCTION_NAMES_(code, op, alias, arg) [code] = {#op, alias},
static const struct {
    const char *name, *alias;
} reductions[SGK_REDUCTION_COUNT] = {
    [SGK_REDUCE_NONE] = {"none", ""},
    SGK_REDUCTION_LIST(REDUCTION_NAMES_, ~)};

bool sgk_reduction_valid(sgk_reduction reduction)
{
    return (unsigned)reduction < SGK_REDUCTION_COUNT;
}

int sgk_reduction_count(void)
{
    return SGK_REDUCTION_COUNT;
}

const char *sgk_reduction_name(sgk_reduction reduction)
{
    return sgk_reduction_valid(reduction) ? reductions[reduction].name : "invalid";
}

sgk_status sgk_reduction_from_name(const char *name, sgk_reduction *out)
{
    if (name == NULL || out == NULL)
        return sgk_fail(SGK_ERR_INVALID_ARGUMENT, "reduction_from_name",
                        "name and out must not be NULL");
    char known[128] = "";
    for (int code = 0; code < SGK_REDUCTION_COUNT; code++) {
        if (strcmp(name, reductions[code].name) == 0 ||
            (reductions[code].alias[0] != '\0' && strcmp(name, reductions[code].alias) == 0)) {
            *out = (sgk_reduction)code;
            return SGK_OK;
        }
        strncat(known, code ? " " : "", sizeof known - strlen(known) - 1);
        strncat(known, reductions[code].name, sizeof known - strlen(known) - 1);
        if (reductions[code].alias[0] != '\0') {
            strncat(known, " ", sizeof known - strlen(known) - 1);
            strncat(known, reductions[code].alias, sizeof known - strlen(known) - 1);
        }
    }
    return sgk_fail(SGK_ERR_INVALID_ARGUMENT, "reduction_from_name",
                    "unknown reduction '%s' (%s)", name, known);
}

bool sgk_reduction_supported(sgk_dtype dtype, sgk_reduction reduction)
{
    return sgk_dtype_valid(dtype) && sgk_reduction_valid(reduction) &&
           (dtypes[dtype].reductions >> reduction & 1u) != 0;
}

bool sgk_reduction_commutes(sgk_dtype dtype, sgk_reduction reduction)
{
    uint32_t exact = SGK_DTYPE_INTEGER | SGK_DTYPE_BOOLEAN;
    return reduction != SGK_REDUCE_NONE && sgk_reduction_supported(dtype, reduction) &&
           (dtypes[dtype].flags & exact) != 0;
}

bool sgk_reduction_groups(sgk_dtype dtype, sgk_reduction reduction)
{
    const bool selects = reduction == SGK_REDUCE_MAX || reduction == SGK_REDUCE_MIN;
    return sgk_reduction_commutes(dtype, reduction) ||
           (selects && sgk_reduction_supported(dtype, reduction) &&
            (dtypes[dtype].flags & SGK_DTYPE_FLOAT) != 0);
}

uint32_t sgk_reduction_flags(sgk_dtype dtype, sgk_reduction reduction)
{
    return (sgk_reduction_supported(dtype, reduction) ? SGK_CELL_SUPPORTED : 0u) |
           (sgk_reduction_commutes(dtype, reduction) ? SGK_CELL_ORDER_FREE : 0u);
}

/* ---- statuses ------------------------------------------------------- */

#define STATUS_NAME_(code, arg) [code] = #code,
static const char *const statuses[SGK_STATUS_COUNT] = {SGK_STATUS_LIST(STATUS_NAME_, ~)};

int sgk_status_count(void)
{
    return SGK_STATUS_COUNT;
}

const char *sgk_status_name(sgk_status status)
{
    return (unsigned)status < SGK_STATUS_COUNT ? statuses[status] : "SGK_ERR_UNKNOWN_STATUS";
}

/* ---- version -------------------------------------------------------- */

sgk_status sgk_check_version(int major, int minor)
{
    if (major == SGK_VERSION_MAJOR && minor <= SGK_VERSION_MINOR)
        return SGK_OK;
    return sgk_fail(SGK_ERR_UNSUPPORTED, "check_version",
                    "built against sgk %d.%d, but the library loaded is %s", major, minor,
                    sgk_version());
}
