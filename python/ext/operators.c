#include "operators.h"

#include <string.h>

/* ---- kinds -------------------------------------------------------------- */

#define KIND_NAME_(kind) [SGKPY_KIND_##kind] = #kind,
static const char *const kind_names[SGKPY_KIND_COUNT] = {SGKPY_KIND_LIST(KIND_NAME_)};

const char *sgkpy_kind_name(sgkpy_kind kind)
{
    return kind_names[kind];
}

/* What the library is passed for a parameter of each kind. */
#define ARG_data(o) &(o)->data.tensor
#define ARG_indices(o) &(o)->indices.tensor
#define ARG_optional_indices(o) ((o)->has_indices ? &(o)->indices.tensor : NULL)
#define ARG_updates(o) &(o)->updates.tensor
#define ARG_axis(o) (o)->axis
#define ARG_batch_dims(o) (o)->axis
#define ARG_reduction(o) (o)->reduction
#define ARG_mode(o) (o)->mode

/* EACH_(F, c, (a, b, ...)) is F(c, a) F(c, b) ...: a row's parameter
   list, one item at a time (at most SGKPY_MAX_PARAMS). */
#define UNPAREN_(...) __VA_ARGS__
#define EACH_(F, c, list) EACH_N_(F, c, UNPAREN_ list)
#define EACH_N_(F, c, ...) PICK_(__VA_ARGS__, EACH6_, EACH5_, EACH4_, EACH3_, EACH2_, EACH1_, ~)(F, c, __VA_ARGS__)
#define PICK_(_1, _2, _3, _4, _5, _6, N, ...) N
#define EACH1_(F, c, a) F(c, a)
#define EACH2_(F, c, a, ...) F(c, a) EACH1_(F, c, __VA_ARGS__)
#define EACH3_(F, c, a, ...) F(c, a) EACH2_(F, c, __VA_ARGS__)
#define EACH4_(F, c, a, ...) F(c, a) EACH3_(F, c, __VA_ARGS__)
#define EACH5_(F, c, a, ...) F(c, a) EACH4_(F, c, __VA_ARGS__)
#define EACH6_(F, c, a, ...) F(c, a) EACH5_(F, c, __VA_ARGS__)

#define ARG_OF_(o, kind) ARG_##kind(o),
#define KIND_OF_(c, kind) SGKPY_KIND_##kind,
#define COUNT_OF_(c, kind) +1
#define IS_UPDATES_(c, kind) || SGKPY_KIND_##kind == SGKPY_KIND_updates

/* ---- output shapes, by a row's output column ---------------------------- */

static sgk_status shape_of(const sgkpy_tensor *t, int64_t *shape, int32_t *rank)
{
    memcpy(shape, t->shape, (size_t)t->tensor.rank * sizeof *shape);
    *rank = t->tensor.rank;
    return SGK_OK;
}

/* The library's shape queries read no data but want it non-NULL, and a
   plan's operands have none. */
static const int64_t no_data;

static sgkpy_operands with_data(const sgkpy_operands *o)
{
    sgkpy_operands q = *o;
    if (q.data.tensor.data == NULL)
        q.data.tensor.data = &no_data;
    if (q.indices.tensor.data == NULL)
        q.indices.tensor.data = &no_data;
    return q;
}

#define OUTPUT_data(name, params)                                                  \
    static sgk_status output_##name(const sgkpy_operands *o, int64_t *shape, int32_t *rank) \
    {                                                                              \
        return shape_of(&o->data, shape, rank);                                    \
    }
#define OUTPUT_indices(name, params)                                               \
    static sgk_status output_##name(const sgkpy_operands *o, int64_t *shape, int32_t *rank) \
    {                                                                              \
        return shape_of(&o->indices, shape, rank);                                 \
    }
#define OUTPUT_queried(name, params)                                               \
    static sgk_status output_##name(const sgkpy_operands *o, int64_t *shape, int32_t *rank) \
    {                                                                              \
        sgkpy_operands q = with_data(o);                                           \
        return sgk_##name##_shape(EACH_(ARG_OF_, &q, params) shape, rank);         \
    }

/* ---- the calls ----------------------------------------------------------- */

#define CALLS_(name, params, output, arg)                                          \
    static sgk_status oneshot_##name(const sgkpy_operands *o, void *out)           \
    {                                                                              \
        return sgk_##name(EACH_(ARG_OF_, o, params) out);                          \
    }                                                                              \
    static sgk_status plan_##name(sgk_plan **plan, const sgkpy_operands *o, uint32_t flags) \
    {                                                                              \
        return sgk_plan_##name(plan, EACH_(ARG_OF_, o, params) flags);             \
    }                                                                              \
    OUTPUT_##output(name, params)
SGK_OPERATOR_LIST(CALLS_, ~)

#define ROW_(op, list, output, arg)                                                 \
    [SGKPY_OP_##op] = {                                                            \
        .name = #op,                                                               \
        .nparams = 0 EACH_(COUNT_OF_, ~, list),                                    \
        .params = {EACH_(KIND_OF_, ~, list)},                                      \
        .scatter = 0 EACH_(IS_UPDATES_, ~, list),                                  \
        .oneshot = oneshot_##op,                                                   \
        .plan = plan_##op,                                                         \
        .output_shape = output_##op,                                               \
    },
const sgkpy_operator sgkpy_operators[SGKPY_OPERATOR_COUNT] = {SGK_OPERATOR_LIST(ROW_, ~)};

const sgkpy_operator *sgkpy_operator_named(const char *name)
{
    for (int i = 0; i < SGKPY_OPERATOR_COUNT; i++)
        if (strcmp(sgkpy_operators[i].name, name) == 0)
            return &sgkpy_operators[i];
    return NULL;
}

/* ---- reading the operands ------------------------------------------------ */

int sgkpy_read_operand(sgkpy_call *call, sgkpy_kind kind, PyObject *x, sgkpy_operands *o)
{
    switch (kind) {
    case SGKPY_KIND_data:
        return sgkpy_data(call, x, &o->data);
    case SGKPY_KIND_indices:
        return sgkpy_indices(call, x, &o->indices);
    case SGKPY_KIND_optional_indices:
        o->has_indices = x != Py_None;
        return !o->has_indices || sgkpy_indices(call, x, &o->indices);
    case SGKPY_KIND_updates:
        return sgkpy_updates(call, x, &o->updates);
    case SGKPY_KIND_axis:
    case SGKPY_KIND_batch_dims:
        return sgkpy_int64(call, x, kind_names[kind], &o->axis);
    case SGKPY_KIND_reduction:
        return sgkpy_reduction(call, x, &o->reduction);
    case SGKPY_KIND_mode:
        return sgkpy_tensor_scatter_mode(call, x, &o->mode);
    case SGKPY_KIND_COUNT:
        break;
    }
    return 0;
}

int sgkpy_read_operands(sgkpy_call *call, const sgkpy_operator *op, PyObject *const *values,
                        sgkpy_operands *o)
{
    for (int i = 0; i < op->nparams; i++)
        if (!sgkpy_read_operand(call, op->params[i], values[i], o))
            return 0;
    return 1;
}
