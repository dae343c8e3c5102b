#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "op_cases.h"
#include "reference.h"

static tc_rng rng;

/* Index values in [-n, n): negative ones too, duplicates among them. */
static void fill_indices(const sgk_tensor *t, int64_t n)
{
    const int64_t count = tc_numel(t->rank, t->shape);
    for (int64_t i = 0; i < count; i++) {
        int64_t v = tc_rng_range(&rng, -n, n - 1);
        if (t->dtype == SGK_INT64)
            ((int64_t *)t->data)[i] = v;
        else
            ((int32_t *)t->data)[i] = (int32_t)v;
    }
}

/* Values with full mantissas, so that a change in the order of a float sum
   shows in the low bits. */
static void fill_values(const sgk_tensor *t)
{
    const int64_t count = tc_numel(t->rank, t->shape);
    for (int64_t i = 0; i < count; i++) {
        double v = tc_rng_uniform(&rng, -4.0, 4.0);
        switch (t->dtype) {
        case SGK_FLOAT32: ((float *)t->data)[i] = (float)v; break;
        case SGK_FLOAT64: ((double *)t->data)[i] = v; break;
        case SGK_FLOAT16: ((uint16_t *)t->data)[i] = ref_f32_to_f16((float)v); break;
        case SGK_INT32: ((int32_t *)t->data)[i] = (int32_t)tc_rng_next(&rng); break;
        default: break; /* the cases use only the types above */
        }
    }
}

/* Points t at shape (copied into dims) and a new buffer of its elements. */
static int set_tensor(sgk_tensor *t, int64_t *dims, sgk_dtype dtype, int rank,
                      const int64_t *shape)
{
    memcpy(dims, shape, (size_t)rank * sizeof *dims);
    void *buf = malloc((size_t)tc_numel(rank, shape) * tc_dtype_size(dtype) + 1);
    *t = (sgk_tensor){dtype, rank, dims, buf};
    return buf != NULL ? 0 : -1;
}

typedef struct {
    const char *name;
    op_kind op;
    sgk_reduction reduction;
    int64_t axis;
    sgk_dtype dtype, index_dtype;
    int data_rank, index_rank;
    int64_t data_shape[3], index_shape[3];
} case_spec;

/* Each past SGK_PARALLEL_MIN_BYTES (about one L2) of traffic. */
static const case_spec specs[] = {
    {"scatter_nd add float32", OP_SCATTER_ND, SGK_REDUCE_ADD, 0, SGK_FLOAT32, SGK_INT64, 2, 2,
     {16384, 64}, {32768, 1}},
    {"scatter_nd none float16", OP_SCATTER_ND, SGK_REDUCE_NONE, 0, SGK_FLOAT16, SGK_INT32, 2, 2,
     {4096, 256}, {8192, 1}},
    {"scatter_nd mul float64 elements", OP_SCATTER_ND, SGK_REDUCE_MUL, 0, SGK_FLOAT64, SGK_INT64,
     2, 2, {512, 512}, {262144, 2}},
    {"gather_nd batch_dims 1", OP_GATHER_ND, SGK_REDUCE_NONE, 1, SGK_FLOAT32, SGK_INT64, 3, 3,
     {16, 1024, 64}, {16, 512, 1}},
    {"scatter_elements add int32 axis 1", OP_SCATTER_ELEMENTS, SGK_REDUCE_ADD, 1, SGK_INT32,
     SGK_INT64, 2, 2, {1024, 1024}, {1024, 512}},
    {"scatter_elements max float32 axis 0", OP_SCATTER_ELEMENTS, SGK_REDUCE_MAX, 0, SGK_FLOAT32,
     SGK_INT32, 2, 2, {512, 2048}, {512, 2048}},
    {"gather_elements float32 axis 1", OP_GATHER_ELEMENTS, SGK_REDUCE_NONE, 1, SGK_FLOAT32,
     SGK_INT32, 2, 2, {1024, 1024}, {1024, 1024}},
    {"gather_elements float64 axis 0", OP_GATHER_ELEMENTS, SGK_REDUCE_NONE, 0, SGK_FLOAT64,
     SGK_INT64, 2, 2, {1024, 1024}, {256, 1024}},
};

/* The updates' shape (scatters), and the bound of index values. */
static void derived(const case_spec *s, int64_t *update_shape, int *update_rank, int64_t *bound)
{
    switch (s->op) {
    case OP_SCATTER_ND: {
        const int64_t k = s->index_shape[s->index_rank - 1];
        *update_rank = 0;
        for (int d = 0; d < s->index_rank - 1; d++)
            update_shape[(*update_rank)++] = s->index_shape[d];
        for (int d = (int)k; d < s->data_rank; d++)
            update_shape[(*update_rank)++] = s->data_shape[d];
        *bound = s->data_shape[0]; /* the cases' indexed dims are all this long */
        break;
    }
    case OP_GATHER_ND: *bound = s->data_shape[s->axis]; break;
    default:
        memcpy(update_shape, s->index_shape, sizeof s->index_shape);
        *update_rank = s->index_rank;
        *bound = s->data_shape[s->axis];
    }
}

static int make_case(op_case *c, const case_spec *s)
{
    int64_t update_shape[3] = {0};
    int update_rank = 0;
    int64_t bound;
    derived(s, update_shape, &update_rank, &bound);
    *c = (op_case){.name = s->name, .op = s->op, .reduction = s->reduction, .axis = s->axis};
    const int scatter = s->op == OP_SCATTER_ND || s->op == OP_SCATTER_ELEMENTS;
    if (set_tensor(&c->data, c->data_shape, s->dtype, s->data_rank, s->data_shape) != 0 ||
        set_tensor(&c->indices, c->index_shape, s->index_dtype, s->index_rank,
                   s->index_shape) != 0 ||
        (scatter && set_tensor(&c->updates, c->update_shape, s->dtype, update_rank,
                               update_shape) != 0))
        return -1;
    fill_values(&c->data);
    fill_indices(&c->indices, bound);
    if (scatter)
        fill_values(&c->updates);
    const size_t es = tc_dtype_size(s->dtype);
    switch (s->op) {
    case OP_SCATTER_ND:
    case OP_SCATTER_ELEMENTS: c->out_bytes = (size_t)tc_numel(c->data.rank, c->data.shape) * es; break;
    case OP_GATHER_ND: c->out_bytes = (size_t)tc_numel(2, s->index_shape) * (size_t)s->data_shape[2] * es; break;
    case OP_GATHER_ELEMENTS: c->out_bytes = (size_t)tc_numel(s->index_rank, s->index_shape) * es; break;
    }
    if ((c->expected = malloc(c->out_bytes)) == NULL)
        return -1;
    switch (s->op) {
    case OP_SCATTER_ND:
        ref_scatter_nd(&c->data, &c->indices, &c->updates, c->reduction, c->expected);
        break;
    case OP_GATHER_ND: ref_gather_nd(&c->data, &c->indices, c->axis, c->expected); break;
    case OP_SCATTER_ELEMENTS:
        ref_scatter_elements(&c->data, &c->indices, &c->updates, c->axis, c->reduction,
                             c->expected);
        break;
    case OP_GATHER_ELEMENTS:
        ref_gather_elements(&c->data, &c->indices, c->axis, c->expected);
        break;
    }
    return 0;
}

op_case *op_cases_make(int *count)
{
    const int n = (int)(sizeof specs / sizeof *specs);
    op_case *cases = calloc((size_t)n, sizeof *cases);
    rng = (tc_rng){0x9E3779B97F4A7C15ull};
    for (int i = 0; cases != NULL && i < n; i++) {
        if (make_case(&cases[i], &specs[i]) != 0) {
            op_cases_free(cases, n);
            return NULL;
        }
    }
    *count = n;
    return cases;
}

void op_cases_free(op_case *cases, int count)
{
    for (int i = 0; cases != NULL && i < count; i++) {
        free((void *)cases[i].data.data);
        free((void *)cases[i].indices.data);
        free((void *)cases[i].updates.data);
        free(cases[i].expected);
    }
    free(cases);
}

static sgk_status make_plan(const op_case *c, sgk_plan **plan)
{
    switch (c->op) {
    case OP_SCATTER_ND:
        return sgk_plan_scatter_nd(plan, &c->data, &c->indices, &c->updates, c->reduction, 0);
    case OP_GATHER_ND: return sgk_plan_gather_nd(plan, &c->data, &c->indices, c->axis, 0);
    case OP_SCATTER_ELEMENTS:
        return sgk_plan_scatter_elements(plan, &c->data, &c->indices, &c->updates, c->axis,
                                         c->reduction, 0);
    case OP_GATHER_ELEMENTS:
        return sgk_plan_gather_elements(plan, &c->data, &c->indices, c->axis, 0);
    }
    return SGK_ERR_INVALID_ARGUMENT;
}

sgk_status op_case_run(const op_case *c, int planned, void *out)
{
    if (planned) {
        sgk_plan *plan;
        sgk_status status = make_plan(c, &plan);
        if (status == SGK_OK) {
            status = sgk_execute(plan, c->data.data, c->updates.data, out);
            sgk_plan_destroy(plan);
        }
        return status;
    }
    switch (c->op) {
    case OP_SCATTER_ND:
        return sgk_scatter_nd(&c->data, &c->indices, &c->updates, c->reduction, out);
    case OP_GATHER_ND: return sgk_gather_nd(&c->data, &c->indices, c->axis, out);
    case OP_SCATTER_ELEMENTS:
        return sgk_scatter_elements(&c->data, &c->indices, &c->updates, c->axis, c->reduction,
                                    out);
    case OP_GATHER_ELEMENTS: return sgk_gather_elements(&c->data, &c->indices, c->axis, out);
    }
    return SGK_ERR_INVALID_ARGUMENT;
}

int op_case_check(const op_case *c, int planned, char *msg, size_t size)
{
    void *out = malloc(c->out_bytes);
    if (out == NULL) {
        snprintf(msg, size, "%s: no memory for the output", c->name);
        return -1;
    }
    memset(out, 0xA5, c->out_bytes);
    sgk_status status = op_case_run(c, planned, out);
    int result = 0;
    if (status != SGK_OK) {
        snprintf(msg, size, "%s (%s): %s: %s", c->name, planned ? "planned" : "one-shot",
                 sgk_status_name(status), sgk_last_error());
        result = -1;
    } else if (memcmp(out, c->expected, c->out_bytes) != 0) {
        size_t at = tc_first_difference(out, c->expected, c->out_bytes);
        snprintf(msg, size, "%s (%s): output differs from the reference at byte %zu",
                 c->name, planned ? "planned" : "one-shot", at);
        result = -1;
    }
    free(out);
    return result;
}

int op_cases_check_all(const op_case *cases, int count, char *msg, size_t size)
{
    for (int i = 0; i < count; i++)
        for (int planned = 0; planned <= 1; planned++)
            if (op_case_check(&cases[i], planned, msg, size) != 0)
                return -1;
    return 0;
}
