/* The jobs of tests/test_stress.c (stress_jobs.h). */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "reference.h"
#include "stress_jobs.h"
#include "sgk.h"

/* ---- helpers -------------------------------------------------------------- */

/* Random inputs; every expected result is computed from them. */
static tc_rng rng = {0x2545F4914F6CDD1Dull};

/* float16 values with full mantissas in [-1, 1). */
static void fill_f16(uint16_t *p, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        p[i] = ref_f32_to_f16((float)tc_rng_uniform(&rng, -1.0, 1.0));
}

/* Few distinct values, +0 and -0 among them, and a NaN now and then: ties
   and NaNs make max order-sensitive, so only the sequential order is right. */
static void fill_f32_ties(float *p, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        int64_t r = tc_rng_below(&rng, 64);
        p[i] = r == 0 ? NAN : r < 8 ? 0.0f : r < 16 ? -0.0f : (float)(r % 5) - 2.0f;
    }
}

/* Index values in [-rows, rows) drawn from only `distinct` rows: heavy
   duplication. */
static void fill_rows(int64_t *idx, int64_t n, int64_t rows, int64_t distinct)
{
    for (int64_t i = 0; i < n; i++) {
        int64_t row = tc_rng_below(&rng, distinct) * (rows / distinct);
        idx[i] = tc_rng_next(&rng) & 1 ? row - rows : row;
    }
}

/* ---- one job: a plan, its buffers, the single-threaded result ------------- */

/* The job's one-shot call on data (which may be out) into out. */
static sgk_status run_one_shot(const job *j, const void *data, void *out)
{
    sgk_tensor d = {j->dtype, j->rank, j->data_shape, data};
    sgk_tensor i = {j->index_dtype, j->index_rank, j->index_shape, j->indices};
    /* updates: indices.shape[:-1] ++ data.shape[k:] (ScatterND, k = 1 here),
       else indices' shape */
    int64_t ushape[3];
    int32_t urank = j->index_rank;
    memcpy(ushape, j->index_shape, sizeof ushape);
    if (j->op == SCATTER_ND) {
        urank = j->index_rank - 1 + j->rank - 1;
        for (int32_t a = 1; a < j->rank; a++)
            ushape[j->index_rank - 1 + a - 1] = j->data_shape[a];
    }
    sgk_tensor u = {j->dtype, urank, ushape, j->updates};
    switch (j->op) {
    case SCATTER_ND: return sgk_scatter_nd(&d, &i, &u, j->reduction, out);
    case GATHER_ND: return sgk_gather_nd(&d, &i, j->attr, out);
    case SCATTER_ELEMENTS: return sgk_scatter_elements(&d, &i, &u, j->attr, j->reduction, out);
    case GATHER_ELEMENTS: return sgk_gather_elements(&d, &i, j->attr, out);
    }
    return SGK_ERR_INVALID_ARGUMENT;
}

/* Runs the job once into out (out_bytes); for in-place jobs out first takes
   a copy of data. */
sgk_status run_job(const job *j, void *out)
{
    if (j->in_place) {
        memcpy(out, j->data, j->data_bytes);
        return j->oneshot ? run_one_shot(j, out, out) : sgk_execute(j->plan, out, j->updates, out);
    }
    memset(out, 0xA5, j->out_bytes);
    return j->oneshot ? run_one_shot(j, j->data, out)
                      : sgk_execute(j->plan, j->data, j->updates, out);
}

/* Keeps the operands of the job's one-shot call: d and i's shapes, a copy
   of i's values. */
static void keep_operands(job *j, enum op op, const sgk_tensor *d, const sgk_tensor *i,
                          int64_t attr)
{
    j->op = op;
    j->attr = attr;
    j->rank = d->rank;
    j->index_rank = i->rank;
    memcpy(j->data_shape, d->shape, (size_t)d->rank * sizeof *d->shape);
    memcpy(j->index_shape, i->shape, (size_t)i->rank * sizeof *i->shape);
    j->index_dtype = i->dtype;
    size_t n = tc_dtype_size(i->dtype);
    for (int32_t a = 0; a < i->rank; a++)
        n *= (size_t)i->shape[a];
    j->indices = xmalloc(n ? n : 1);
    memcpy(j->indices, i->data, n);
}

/* The reference's output into a new j->expected (`reference`, a call of
   tests/support/reference.c writing there), then `call` (storing into j->plan)
   plans the problem with the default threads. */
#define PLAN_WITH_REFERENCE(j, call, reference)                                           \
    do {                                                                                  \
        (j)->expected = xmalloc((j)->out_bytes);                                          \
        reference;                                                                        \
        CHECK_OK(call);                                                                   \
        assert_non_null(sgk_plan_describe((j)->plan));                                    \
        print_message("  %s: %s\n", (j)->name, sgk_plan_describe((j)->plan));            \
    } while (0)

void job_free(job *j)
{
    sgk_plan_destroy(j->plan);
    free(j->data);
    free(j->updates);
    free(j->expected);
    free(j->indices);
}

/* ---- the jobs ----------------------------------------------------------------- */

/* ScatterND, k = 1, rows of `width` elements, heavy duplicates. */
job scatter_nd_rows(const char *name, sgk_dtype dtype, sgk_reduction red, int64_t rows,
                    int64_t width, int64_t n_updates, int64_t distinct, int in_place)
{
    const size_t es = tc_dtype_size(dtype);
    const int64_t dshape[2] = {rows, width}, ishape[2] = {n_updates, 1};
    const int64_t ushape[2] = {n_updates, width};
    job j = {.name = name, .dtype = dtype, .reduction = red, .in_place = in_place};
    j.data_bytes = j.out_bytes = (size_t)(rows * width) * es;
    j.data = xmalloc(j.data_bytes);
    j.updates = xmalloc((size_t)(n_updates * width) * es);
    int64_t *idx = xmalloc((size_t)n_updates * sizeof *idx);
    fill_rows(idx, n_updates, rows, distinct);
    switch (dtype) {
    case SGK_FLOAT16:
        fill_f16(j.data, rows * width);
        fill_f16(j.updates, n_updates * width);
        break;
    case SGK_FLOAT32: /* full mantissas: a change in the order of a sum shows */
        tc_fill_uniform_f32(&rng, j.data, (size_t)(rows * width), -4.0, 4.0);
        tc_fill_uniform_f32(&rng, j.updates, (size_t)(n_updates * width), -4.0, 4.0);
        break;
    default: /* bytes of any other type */
        for (size_t i = 0; i < j.data_bytes; i++)
            ((uint8_t *)j.data)[i] = (uint8_t)tc_rng_next(&rng);
        for (size_t i = 0; i < (size_t)(n_updates * width) * es; i++)
            ((uint8_t *)j.updates)[i] = (uint8_t)tc_rng_next(&rng);
        break;
    }
    sgk_tensor d = {dtype, 2, dshape, j.data}, i = {SGK_INT64, 2, ishape, idx};
    sgk_tensor u = {dtype, 2, ushape, j.updates};
    PLAN_WITH_REFERENCE(&j, sgk_plan_scatter_nd(&j.plan, &d, &i, &u, red, 0),
                        ref_scatter_nd(&d, &i, &u, red, j.expected));
    keep_operands(&j, SCATTER_ND, &d, &i, 0);
    free(idx); /* the plan keeps no pointer to the indices */
    return j;
}

/* GatherND with batch_dims = 1: data [batch, rows, width], indices
   [batch, n, 1]. */
job gather_nd_batched(const char *name, sgk_dtype dtype, int64_t batch, int64_t rows,
                      int64_t width, int64_t n)
{
    const size_t es = tc_dtype_size(dtype);
    const int64_t dshape[3] = {batch, rows, width}, ishape[3] = {batch, n, 1};
    job j = {.name = name, .dtype = dtype};
    j.data_bytes = (size_t)(batch * rows * width) * es;
    j.out_bytes = (size_t)(batch * n * width) * es;
    j.data = xmalloc(j.data_bytes);
    for (size_t b = 0; b < j.data_bytes; b++)
        ((uint8_t *)j.data)[b] = (uint8_t)tc_rng_next(&rng);
    int32_t *idx = xmalloc((size_t)(batch * n) * sizeof *idx);
    for (int64_t t = 0; t < batch * n; t++)
        idx[t] = (int32_t)(tc_rng_below(&rng, 2 * rows) - rows);
    sgk_tensor d = {dtype, 3, dshape, j.data}, i = {SGK_INT32, 3, ishape, idx};
    PLAN_WITH_REFERENCE(&j, sgk_plan_gather_nd(&j.plan, &d, &i, 1, 0),
                        ref_gather_nd(&d, &i, 1, j.expected));
    keep_operands(&j, GATHER_ND, &d, &i, 1);
    free(idx);
    return j;
}

/* ScatterElements along axis 1: data [rows, cols], indices [rows, n]. */
job scatter_elements_rows(const char *name, sgk_dtype dtype, sgk_reduction red,
                          int64_t rows, int64_t cols, int64_t n, int in_place)
{
    const size_t es = tc_dtype_size(dtype);
    const int64_t dshape[2] = {rows, cols}, ishape[2] = {rows, n};
    job j = {.name = name, .dtype = dtype, .reduction = red, .in_place = in_place};
    j.data_bytes = j.out_bytes = (size_t)(rows * cols) * es;
    j.data = xmalloc(j.data_bytes);
    j.updates = xmalloc((size_t)(rows * n) * es);
    if (dtype == SGK_FLOAT32) {
        fill_f32_ties(j.data, rows * cols);
        fill_f32_ties(j.updates, rows * n);
    } else {
        for (size_t b = 0; b < j.data_bytes; b++)
            ((uint8_t *)j.data)[b] = (uint8_t)tc_rng_next(&rng);
        for (size_t b = 0; b < (size_t)(rows * n) * es; b++)
            ((uint8_t *)j.updates)[b] = (uint8_t)tc_rng_next(&rng);
    }
    int64_t *idx = xmalloc((size_t)(rows * n) * sizeof *idx);
    for (int64_t t = 0; t < rows * n; t++)
        idx[t] = tc_rng_below(&rng, 2 * cols) - cols;
    sgk_tensor d = {dtype, 2, dshape, j.data}, i = {SGK_INT64, 2, ishape, idx};
    sgk_tensor u = {dtype, 2, ishape, j.updates};
    PLAN_WITH_REFERENCE(&j, sgk_plan_scatter_elements(&j.plan, &d, &i, &u, 1, red, 0),
                        ref_scatter_elements(&d, &i, &u, 1, red, j.expected));
    keep_operands(&j, SCATTER_ELEMENTS, &d, &i, 1);
    free(idx);
    return j;
}

/* GatherElements along axis 0: data [rows, cols], indices [n, cols]. */
job gather_elements_cols(const char *name, sgk_dtype dtype, int64_t rows, int64_t cols,
                         int64_t n)
{
    const size_t es = tc_dtype_size(dtype);
    const int64_t dshape[2] = {rows, cols}, ishape[2] = {n, cols};
    job j = {.name = name, .dtype = dtype};
    j.data_bytes = (size_t)(rows * cols) * es;
    j.out_bytes = (size_t)(n * cols) * es;
    j.data = xmalloc(j.data_bytes);
    for (size_t b = 0; b < j.data_bytes; b++)
        ((uint8_t *)j.data)[b] = (uint8_t)tc_rng_next(&rng);
    int32_t *idx = xmalloc((size_t)(n * cols) * sizeof *idx);
    for (int64_t t = 0; t < n * cols; t++)
        idx[t] = (int32_t)(tc_rng_below(&rng, 2 * rows) - rows);
    sgk_tensor d = {dtype, 2, dshape, j.data}, i = {SGK_INT32, 2, ishape, idx};
    PLAN_WITH_REFERENCE(&j, sgk_plan_gather_elements(&j.plan, &d, &i, 0, 0),
                        ref_gather_elements(&d, &i, 0, j.expected));
    keep_operands(&j, GATHER_ELEMENTS, &d, &i, 0);
    free(idx);
    return j;
}
