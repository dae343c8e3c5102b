/*
 * The scatter cases of tests/test_paths.c (tests/support/path_cases.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "path_cases.h"
#include "path_values.h"
#include "reference.h"
#include "tolerance.h"

const char *const path_op_names[OP_COUNT] = {"scatter_nd(slice 1)", "scatter_nd(slice 37)",
                                             "scatter_elements"};
const char *const path_structure_names[ST_COUNT] = {
    "heavy-skew", "all-to-one", "no-duplicates", "random-duplicates", "empty", "single",
    "random-duplicates+nan/inf"};

/* ScatterND slice 1: data [8, 24] indexed by [N, 2].  ScatterND slice 37:
   data [48, 37] indexed by [N, 1].  ScatterElements: data [3, 64], axis -1,
   indices [3, M] (each row's updates land in that row). */
static const int64_t nd1_dims[2] = {8, 24}, nd37_dims[2] = {48, 37}, el_dims[2] = {3, 64};

/* Updates per case (per row for ScatterElements). */
static int64_t updates_for(op_kind op, structure st)
{
    int64_t slots = op == OP_ND_SLICE1 ? 192 : op == OP_ND_SLICE37 ? 48 : 64;
    switch (st) {
    case ST_HEAVY: case ST_ALL_ONE: return op == OP_ELEMENTS ? 86 : 256;
    case ST_UNIQUE: return slots * 3 / 4;
    case ST_RANDOM: case ST_SPECIALS: return 2 * slots;
    case ST_EMPTY: return 0;
    default: return 1;
    }
}
void path_case_put_index(path_case *c, int64_t i, int64_t v)
{
    if (c->idtype == SGK_INT32) {
        int32_t t = (int32_t)v;
        memcpy((char *)c->indices + i * 4, &t, 4);
    } else {
        memcpy((char *)c->indices + i * 8, &v, 8);
    }
}

/* A coordinate in [0, dim), written as its negative alias 30% of the time. */
static int64_t aliased(tc_rng *r, int64_t coord, int64_t dim)
{
    return tc_rng_percent(r, 30) ? coord - dim : coord;
}

/* The destination of each update, by structure: a slot in [0, slots). */
static void choose_slots(tc_rng *r, structure st, int64_t n, int64_t slots, int64_t *out)
{
    int64_t hot = tc_rng_below(r, slots);
    if (st == ST_UNIQUE) {
        int64_t *perm = xmalloc(sizeof(int64_t) * (size_t)slots);
        for (int64_t i = 0; i < slots; i++)
            perm[i] = i;
        for (int64_t i = slots - 1; i > 0; i--) {
            int64_t j = tc_rng_below(r, i + 1), t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        memcpy(out, perm, sizeof(int64_t) * (size_t)n);
        free(perm);
        return;
    }
    for (int64_t i = 0; i < n; i++) {
        if (st == ST_ALL_ONE || (st == ST_HEAVY && tc_rng_percent(r, 90)))
            out[i] = hot;
        else
            out[i] = tc_rng_below(r, slots);
    }
}

static void build_indices(path_case *c, tc_rng *r)
{
    int64_t n = updates_for(c->op, c->st);
    size_t is = c->idtype == SGK_INT32 ? 4 : 8;
    if (c->op == OP_ELEMENTS) {
        int64_t rows = c->st == ST_SINGLE ? 1 : el_dims[0];
        c->drank = c->irank = c->urank = 2;
        memcpy(c->dshape, el_dims, sizeof el_dims);
        c->ishape[0] = c->ushape[0] = rows;
        c->ishape[1] = c->ushape[1] = n;
        c->axis = -1;
        c->in = rows * n;
        c->indices = xmalloc((size_t)c->in * is);
        int64_t *cols = xmalloc(sizeof(int64_t) * (size_t)(n ? n : 1));
        for (int64_t row = 0; row < rows; row++) {
            choose_slots(r, c->st, n, el_dims[1], cols);
            for (int64_t m = 0; m < n; m++)
                path_case_put_index(c, row * n + m, aliased(r, cols[m], el_dims[1]));
        }
        free(cols);
        c->slice = 1;
    } else {
        const int64_t *dims = c->op == OP_ND_SLICE1 ? nd1_dims : nd37_dims;
        int64_t k = c->op == OP_ND_SLICE1 ? 2 : 1;
        int64_t slots = c->op == OP_ND_SLICE1 ? dims[0] * dims[1] : dims[0];
        c->drank = 2;
        memcpy(c->dshape, dims, sizeof c->dshape);
        c->irank = 2;
        c->ishape[0] = n;
        c->ishape[1] = k;
        c->urank = c->op == OP_ND_SLICE1 ? 1 : 2;
        c->ushape[0] = n;
        c->ushape[1] = dims[1];
        c->in = n * k;
        c->indices = xmalloc((size_t)(c->in ? c->in : 1) * is);
        int64_t *slot = xmalloc(sizeof(int64_t) * (size_t)(n ? n : 1));
        choose_slots(r, c->st, n, slots, slot);
        for (int64_t u = 0; u < n; u++) {
            if (k == 2) {
                path_case_put_index(c, 2 * u, aliased(r, slot[u] / dims[1], dims[0]));
                path_case_put_index(c, 2 * u + 1, aliased(r, slot[u] % dims[1], dims[1]));
            } else {
                path_case_put_index(c, u, aliased(r, slot[u], dims[0]));
            }
        }
        free(slot);
        c->slice = c->op == OP_ND_SLICE1 ? 1 : dims[1];
    }
    c->dn = tc_numel(c->drank, c->dshape);
    c->un = tc_numel(c->urank, c->ushape);
}

void path_case_tensors(const path_case *c, sgk_dtype dtype, const void *data,
                       const void *updates, const void *indices, sgk_tensor *d, sgk_tensor *i,
                       sgk_tensor *u)
{
    *d = (sgk_tensor){dtype, c->drank, c->dshape, data};
    *i = (sgk_tensor){c->idtype, c->irank, c->ishape, indices};
    *u = (sgk_tensor){dtype, c->urank, c->ushape, updates};
}

void path_case_reference(const void *ctx, sgk_dtype dtype, sgk_reduction red, const void *data,
                         const void *updates, void *out)
{
    const path_case *c = ctx;
    sgk_tensor d, i, u;
    path_case_tensors(c, dtype, data, updates, c->indices, &d, &i, &u);
    if (c->op == OP_ELEMENTS)
        ref_scatter_elements(&d, &i, &u, c->axis, red, out);
    else
        ref_scatter_nd(&d, &i, &u, red, out);
}

char *path_case_output(const path_case *c)
{
    size_t bytes = (size_t)c->dn * tc_dtype_size(c->dtype);
    char *out = xmalloc(bytes + PATH_GUARD);
    memset(out, PATH_GUARD_BYTE, bytes + PATH_GUARD);
    return out;
}

char *path_case_copy_of_data(const path_case *c)
{
    char *out = path_case_output(c);
    memcpy(out, c->data, (size_t)c->dn * tc_dtype_size(c->dtype));
    return out;
}

void path_case_build(path_case *c, op_kind op, sgk_dtype dtype, sgk_reduction red,
                     structure st)
{
    memset(c, 0, sizeof *c);
    c->op = op;
    c->dtype = dtype;
    c->red = red;
    c->st = st;
    c->seed = 0x9A7E5000ull ^ ((uint64_t)op << 24) ^ ((uint64_t)dtype << 16) ^
              ((uint64_t)red << 8) ^ (uint64_t)st;
    tc_rng r = {c->seed};
    c->idtype = tc_rng_percent(&r, 50) ? SGK_INT32 : SGK_INT64;
    build_indices(c, &r);
    c->data = path_values(&r, dtype, red, st == ST_SPECIALS, 1, c->dn);
    c->updates = path_values(&r, dtype, red, st == ST_SPECIALS, 0, c->un);
    c->want = path_case_output(c);
    path_case_reference(c, dtype, red, c->data, c->updates, c->want);
    c->stats = tol_prepare(dtype, red, c->dn, c->un, c->data, c->updates, path_case_reference, c);
}

void path_case_free(path_case *c)
{
    tol_free(c->stats);
    free(c->indices);
    free(c->data);
    free(c->updates);
    free(c->want);
}
