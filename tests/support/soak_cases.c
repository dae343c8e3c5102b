/*
 * The soak's random calls (tests/support/soak_cases.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "random_shapes.h"
#include "random_values.h"
#include "reference.h"
#include "registry/registry.h"
#include "sgk.h"
#include "soak_cases.h"

#define LARGE_LIMIT ((int64_t)1 << 17) /* elements of any tensor of a large case */

const char *const soak_op_names[OPS] = {"scatter_nd",      "gather_nd", "scatter_elements",
                                        "gather_elements", "gather",    "tensor_scatter"};

int soak_op_is_scatter(int op)
{
    return op == SCATTER_ND || op == SCATTER_ELEMENTS || op == TENSOR_SCATTER;
}

static sgk_reduction pick_reduction(tc_rng *r, sgk_dtype dtype)
{
    for (;;) {
        sgk_reduction red = (sgk_reduction)tc_rng_below(r, SGK_REDUCTION_COUNT);
        if (ref_reduction_supported(dtype, red))
            return red;
    }
}

/* A random case with its inputs; large ones have up to LARGE_LIMIT
   elements per tensor (several thousand at least), the others a handful.
   Every dimension at least 1, and Elements indices along lines a third of
   the time: the soak is after the paths' scratch, not the edge shapes. */
void soak_case_generate(soak_case *c, tc_rng *r)
{
    int large = tc_rng_percent(r, 20);
    random_shapes *s = &c->shapes;
    for (;;) {
        memset(c, 0, sizeof *c);
        c->op = (int)tc_rng_below(r, OPS);
        c->dtype = (sgk_dtype)tc_rng_below(r, SGK_DTYPE_COUNT);
        s->idtype = tc_rng_percent(r, 50) ? SGK_INT32 : SGK_INT64;
        c->red = c->op == SCATTER_ND || c->op == SCATTER_ELEMENTS ? pick_reduction(r, c->dtype)
                                                                  : SGK_REDUCE_NONE;
        shape_limits l = {.max_rank = 3, .max_index_rank = 3, .max_dim = large ? 64 : 5,
                          .max_index_dim = large ? 48 : 4, .max_axis_len = large ? 96 : 6,
                          .lines_percent = 33};
        switch (c->op) {
        case SCATTER_ND: random_scatter_nd_shapes(s, r, &l); break;
        case GATHER_ND: random_gather_nd_shapes(s, r, &l); break;
        case SCATTER_ELEMENTS: case GATHER_ELEMENTS: random_elements_shapes(s, r, &l); break;
        case GATHER:
            l.max_index_rank = 2;
            l.max_index_dim = large ? 512 : 6;
            random_gather_shapes(s, r, &l);
            break;
        default:
            l.max_dim = large ? 24 : 4;
            l.max_index_dim = large ? 256 : 6; /* max_seq */
            random_tensor_scatter_shapes(s, r, &l);
            break;
        }
        if (soak_op_is_scatter(c->op))
            s->on = s->dn;
        else
            s->un = 0;
        int64_t most = s->dn > s->in ? s->dn : s->in;
        most = most > s->un ? most : s->un;
        most = most > s->on ? most : s->on;
        if (!large || (most <= LARGE_LIMIT && s->dn + s->un + s->on >= 4096))
            break;
        free(s->indices);
    }
    c->data = random_buffer(r, c->dtype, s->dn);
    c->updates = soak_op_is_scatter(c->op) ? random_buffer(r, c->dtype, s->un) : NULL;
    c->expected = xmalloc((size_t)s->on * tc_dtype_size(c->dtype) + 1);
    sgk_tensor d = {c->dtype, s->drank, s->dshape, c->data};
    sgk_tensor i = {s->idtype, s->irank, s->ishape, s->indices};
    sgk_tensor u = {c->dtype, s->urank, s->ushape, c->updates};
    switch (c->op) {
    case SCATTER_ND: ref_scatter_nd(&d, &i, &u, c->red, c->expected); break;
    case GATHER_ND: ref_gather_nd(&d, &i, s->batch_dims, c->expected); break;
    case SCATTER_ELEMENTS: ref_scatter_elements(&d, &i, &u, s->axis, c->red, c->expected); break;
    case GATHER_ELEMENTS: ref_gather_elements(&d, &i, s->axis, c->expected); break;
    case GATHER: ref_gather(&d, &i, s->axis, c->expected); break;
    default:
        ref_tensor_scatter(&d, &u, s->indices ? &i : NULL, s->axis, s->mode, c->expected);
        break;
    }
}

void soak_case_free(soak_case *c)
{
    free(c->data);
    free(c->shapes.indices);
    free(c->updates);
    free(c->expected);
}

sgk_status soak_case_call(const soak_case *c, const void *data, void *out)
{
    const random_shapes *s = &c->shapes;
    sgk_tensor d = {c->dtype, s->drank, s->dshape, data};
    sgk_tensor i = {s->idtype, s->irank, s->ishape, s->indices};
    sgk_tensor u = {c->dtype, s->urank, s->ushape, c->updates};
    switch (c->op) {
    case SCATTER_ND: return sgk_scatter_nd(&d, &i, &u, c->red, out);
    case GATHER_ND: return sgk_gather_nd(&d, &i, s->batch_dims, out);
    case SCATTER_ELEMENTS: return sgk_scatter_elements(&d, &i, &u, s->axis, c->red, out);
    case GATHER_ELEMENTS: return sgk_gather_elements(&d, &i, s->axis, out);
    case GATHER: return sgk_gather(&d, &i, s->axis, out);
    default: return sgk_tensor_scatter(&d, &u, s->indices ? &i : NULL, s->axis, s->mode, out);
    }
}

sgk_status soak_case_plan(const soak_case *c, sgk_plan **plan)
{
    /* data and updates are not needed to plan */
    const random_shapes *s = &c->shapes;
    sgk_tensor d = {c->dtype, s->drank, s->dshape, NULL};
    sgk_tensor i = {s->idtype, s->irank, s->ishape, s->indices};
    sgk_tensor u = {c->dtype, s->urank, s->ushape, NULL};
    switch (c->op) {
    case SCATTER_ND: return sgk_plan_scatter_nd(plan, &d, &i, &u, c->red, 0);
    case GATHER_ND: return sgk_plan_gather_nd(plan, &d, &i, s->batch_dims, 0);
    case SCATTER_ELEMENTS: return sgk_plan_scatter_elements(plan, &d, &i, &u, s->axis, c->red, 0);
    case GATHER_ELEMENTS: return sgk_plan_gather_elements(plan, &d, &i, s->axis, 0);
    case GATHER: return sgk_plan_gather(plan, &d, &i, s->axis, 0);
    default:
        return sgk_plan_tensor_scatter(plan, &d, &u, s->indices ? &i : NULL, s->axis, s->mode, 0);
    }
}
