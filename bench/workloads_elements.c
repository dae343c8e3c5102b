/* The workloads on single elements: elementwise_* (ScatterND with k = r),
   dense_max_l3/_l2, scatter_elements_* and gather_elements*. */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>

#include "sgk.h"

#include "bench.h"
#include "workloads.h"

/* ---- elementwise_add / elementwise_max ---------------------------------- */

/* The index written as int64, or narrowed to int32 in place: the caller's
   type, which the one-shot floor counts as passed. */
static void narrow_indices(void *idx, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        ((int32_t *)idx)[i] = (int32_t)((int64_t *)idx)[i];
}

/* ScatterND with k = r: data [2048,2048] float32, 2M uniformly random
   element updates (indices [2M,2], one coordinate in eight negative), so
   about 40% of the touched elements get more than one update. */
static void elementwise_of(bench_run *run, const char *W, sgk_reduction reduction,
                           uint64_t seed, sgk_dtype index_type)
{
    const int64_t R = scaled(2048, run->opt.scale), C = 2048, N = scaled(2097152, run->opt.scale);
    int64_t dshape[] = {R, C}, ishape[] = {N, 2}, ushape[] = {N};
    float *data = bench_alloc((size_t)(R * C) * 4), *out = bench_alloc((size_t)(R * C) * 4);
    float *upd = bench_alloc((size_t)N * 4);
    int64_t *idx = bench_alloc((size_t)(N * 2) * 8), *slot = bench_alloc((size_t)N * 8);
    fill_f32(data, (size_t)(R * C), seed);
    fill_f32(upd, (size_t)N, seed + 1);
    rng r = {seed};
    for (int64_t n = 0; n < N; n++) {
        idx[2 * n] = rng_coordinate(&r, R, 8);
        idx[2 * n + 1] = rng_coordinate(&r, C, 8);
        slot[n] = normalized(idx[2 * n], R) * C + normalized(idx[2 * n + 1], C);
    }
    if (index_type == SGK_INT32)
        narrow_indices(idx, 2 * N);
    scatter_ctx ctx = {
        .data = {SGK_FLOAT32, 2, dshape, data}, .indices = {index_type, 2, ishape, idx},
        .updates = {SGK_FLOAT32, 1, ushape, upd}, .reduction = reduction, .output = out,
        .original = data, .slot = slot, .count = N, .slice_len = 1, .slots = R * C};
    if (plan_scatter(run, W, &ctx) == 0) {
        time_scatter(run, &ctx, W, "f32 copy", run->opt.mode, copying_scatter_traffic(&ctx));
        sgk_plan_destroy(ctx.plan);
    }
    free(data), free(out), free(upd), free(idx), free(slot);
}

static void elementwise(bench_run *run, const char *W, sgk_reduction reduction, uint64_t seed)
{
    elementwise_of(run, W, reduction, seed, SGK_INT64);
}

void elementwise_add(bench_run *run)
{
    elementwise(run, "elementwise_add", SGK_REDUCE_ADD, 41);
}

void elementwise_max(bench_run *run)
{
    elementwise(run, "elementwise_max", SGK_REDUCE_MAX, 51);
}

/* As elementwise_add with int32 indices: half the index bytes to read. */
void elementwise_add_i32(bench_run *run)
{
    elementwise_of(run, "elementwise_add_i32", SGK_REDUCE_ADD, 41, SGK_INT32);
}

/* ---- dense_max_l3, dense_max_l2 ------------------------------------------- */

/* Several updates per destination element (NumPy's np.maximum.at case):
   ScatterND max, data [S] float32, per_slot * S random single-element
   updates. */
static void dense_max(bench_run *run, const char *W, int64_t slots, int64_t per_slot,
                      uint64_t seed)
{
    const int64_t S = scaled(slots, run->opt.scale), N = per_slot * S;
    int64_t dshape[] = {S}, ishape[] = {N, 1}, ushape[] = {N};
    float *data = bench_alloc((size_t)S * 4), *out = bench_alloc((size_t)S * 4);
    float *upd = bench_alloc((size_t)N * 4);
    int64_t *idx = bench_alloc((size_t)N * 8);
    fill_f32(data, (size_t)S, seed);
    fill_f32(upd, (size_t)N, seed + 1);
    rng r = {seed};
    for (int64_t n = 0; n < N; n++)
        idx[n] = rng_below(&r, S);
    scatter_ctx ctx = {
        .data = {SGK_FLOAT32, 1, dshape, data}, .indices = {SGK_INT64, 2, ishape, idx},
        .updates = {SGK_FLOAT32, 1, ushape, upd}, .reduction = SGK_REDUCE_MAX, .output = out,
        .original = data, .slot = idx, .count = N, .slice_len = 1, .slots = S};
    if (plan_scatter(run, W, &ctx) == 0) {
        time_scatter(run, &ctx, W, "f32 copy", run->opt.mode, copying_scatter_traffic(&ctx));
        sgk_plan_destroy(ctx.plan);
    }
    free(data), free(out), free(upd), free(idx);
}

/* A destination that fits the last-level cache but not L2: 8 MiB. */
void dense_max_l3(bench_run *run)
{
    dense_max(run, "dense_max_l3", 2097152, 4, 71);
}

/* A destination that fits L2, as a max-pool into few segments or a
   histogram has: 256 KiB, 64 updates per element. */
void dense_max_l2(bench_run *run)
{
    dense_max(run, "dense_max_l2", 65536, 64, 73);
}

/* ---- scatter_elements_add / _none, gather_elements ------------------------ */

/* [4096,4096] float32 with indices [4096,1024] along axis 1: each row
   receives (or yields) 1024 uniformly random columns, one in eight written
   negative; duplicates within a row are frequent (about 12% of updates). */
typedef struct {
    int64_t R, C, K;
    float *data, *out, *upd;
    int64_t *idx, *slot;
    int64_t dshape[2], ishape[2];
} elements_inputs;

static void elements_make(bench_run *run, elements_inputs *e, uint64_t seed, bool with_updates)
{
    e->R = scaled(4096, run->opt.scale), e->C = 4096, e->K = 1024;
    const int64_t RC = e->R * e->C, RK = e->R * e->K;
    e->dshape[0] = e->R, e->dshape[1] = e->C, e->ishape[0] = e->R, e->ishape[1] = e->K;
    e->data = bench_alloc((size_t)RC * 4);
    e->out = bench_alloc((size_t)(with_updates ? RC : RK) * 4);
    e->upd = with_updates ? bench_alloc((size_t)RK * 4) : NULL;
    e->idx = bench_alloc((size_t)RK * 8), e->slot = bench_alloc((size_t)RK * 8);
    fill_f32(e->data, (size_t)RC, seed);
    if (with_updates)
        fill_f32(e->upd, (size_t)RK, seed + 1);
    rng r = {seed};
    for (int64_t n = 0; n < RK; n++) {
        e->idx[n] = rng_coordinate(&r, e->C, 8);
        e->slot[n] = (n / e->K) * e->C + normalized(e->idx[n], e->C);
    }
}

static void elements_free(elements_inputs *e)
{
    free(e->data), free(e->out), free(e->upd), free(e->idx), free(e->slot);
}

static void scatter_elements(bench_run *run, const char *W, sgk_reduction reduction,
                             uint64_t seed)
{
    elements_inputs e;
    elements_make(run, &e, seed, true);
    scatter_ctx ctx = {
        .data = {SGK_FLOAT32, 2, e.dshape, e.data}, .indices = {SGK_INT64, 2, e.ishape, e.idx},
        .updates = {SGK_FLOAT32, 2, e.ishape, e.upd}, .elements = true, .axis = 1,
        .reduction = reduction, .output = e.out, .original = e.data, .slot = e.slot,
        .count = e.R * e.K, .slice_len = 1, .slots = e.R * e.C};
    if (plan_scatter(run, W, &ctx) == 0) {
        time_scatter(run, &ctx, W, "f32 copy", run->opt.mode, copying_scatter_traffic(&ctx));
        sgk_plan_destroy(ctx.plan);
    }
    elements_free(&e);
}

void scatter_elements_add(bench_run *run)
{
    scatter_elements(run, "scatter_elements_add", SGK_REDUCE_ADD, 81);
}

void scatter_elements_none(bench_run *run)
{
    scatter_elements(run, "scatter_elements_none", SGK_REDUCE_NONE, 91);
}

void gather_elements(bench_run *run)
{
    const char *W = "gather_elements";
    elements_inputs e;
    elements_make(run, &e, 101, false);
    gather_ctx ctx = {.data = {SGK_FLOAT32, 2, e.dshape, e.data},
                      .indices = {SGK_INT64, 2, e.ishape, e.idx}, .elements = true, .axis = 1,
                      .output = e.out, .output_bytes = (size_t)(e.R * e.K) * 4, .slot = e.slot,
                      .count = e.R * e.K, .slice_len = 1};
    if (plan_gather(run, W, &ctx) == 0) {
        time_gather(run, &ctx, W, "f32", run->opt.mode);
        sgk_plan_destroy(ctx.plan);
    }
    elements_free(&e);
}

/* GatherElements axis 0 on [4096,4096] float32 with an index [4096,4096]
   constant along each row (torch.gather with an expanded index): output
   row r is data row idx[r, 0], rows uniformly random. */
void gather_elements_rows(bench_run *run)
{
    const char *W = "gather_elements_rows";
    const int64_t R = scaled(4096, run->opt.scale), C = 4096;
    int64_t shape[2] = {R, C};
    float *data = bench_alloc((size_t)(R * C) * 4), *out = bench_alloc((size_t)(R * C) * 4);
    int64_t *idx = bench_alloc((size_t)(R * C) * 8), *slot = bench_alloc((size_t)R * 8);
    fill_f32(data, (size_t)(R * C), 111);
    rng r = {111};
    for (int64_t n = 0; n < R; n++) {
        int64_t row = rng_coordinate(&r, R, 8);
        slot[n] = normalized(row, R);
        for (int64_t c = 0; c < C; c++)
            idx[n * C + c] = row;
    }
    gather_ctx ctx = {.data = {SGK_FLOAT32, 2, shape, data},
                      .indices = {SGK_INT64, 2, shape, idx}, .elements = true, .axis = 0,
                      .output = out, .output_bytes = (size_t)(R * C) * 4, .slot = slot,
                      .count = R, .slice_len = C};
    if (plan_gather(run, W, &ctx) == 0) {
        time_gather(run, &ctx, W, "f32", run->opt.mode);
        sgk_plan_destroy(ctx.plan);
    }
    free(data), free(out), free(idx), free(slot);
}
