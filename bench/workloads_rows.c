/* The workloads on rows (slices of one or more elements): ov_example5,
   embedding_grad_add, the short slices, sorted_rows_*, gather_embedding,
   gather_batch1 and gather (ONNX Gather). */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sgk.h"

#include "bench.h"
#include "workloads.h"

/* ---- ov_example5 ------------------------------------------------------- */

/* OpenVINO ScatterNDUpdate-15, example 5: data [1000,256,10,15], indices
   [25,125,3], updates [25,125,15], reduction none.  The spec's shapes are
   already a realistic size (146 MiB of float32), so they are used as they
   are, the leading 1000 multiplied by --scale.  3125 distinct random
   coordinates (duplicates only if the scaled tensor has too few slices),
   every fifth component written negative. */
void ov_example5(bench_run *run)
{
    const char *W = "ov_example5";
    const int64_t A = scaled(1000, run->opt.scale), B = 256, C = 10, D = 15;
    const int64_t N = 25 * 125, slots = A * B * C;
    int64_t dshape[] = {A, B, C, D}, ishape[] = {25, 125, 3}, ushape[] = {25, 125, D};
    float *data = bench_alloc((size_t)(slots * D) * 4), *out = bench_alloc((size_t)(slots * D) * 4);
    float *upd = bench_alloc((size_t)(N * D) * 4);
    int64_t *idx = bench_alloc((size_t)(N * 3) * 8), *slot = bench_alloc((size_t)N * 8);
    unsigned char *used = calloc((size_t)slots, 1);
    if (used == NULL)
        exit(2);
    fill_f32(data, (size_t)(slots * D), 21);
    fill_f32(upd, (size_t)(N * D), 22);
    rng r = {5};
    const bool distinct = 2 * N <= slots;
    for (int64_t n = 0; n < N; n++) {
        int64_t a, b, c;
        do {
            a = rng_coordinate(&r, A, 5), b = rng_coordinate(&r, B, 5),
            c = rng_coordinate(&r, C, 5);
            slot[n] = (normalized(a, A) * B + normalized(b, B)) * C + normalized(c, C);
        } while (distinct && used[slot[n]]);
        used[slot[n]] = 1;
        idx[3 * n] = a, idx[3 * n + 1] = b, idx[3 * n + 2] = c;
    }
    free(used);

    scatter_ctx ctx = {
        .data = {SGK_FLOAT32, 4, dshape, data}, .indices = {SGK_INT64, 3, ishape, idx},
        .updates = {SGK_FLOAT32, 3, ushape, upd}, .reduction = SGK_REDUCE_NONE, .output = out,
        .original = data, .slot = slot, .count = N, .slice_len = D, .slots = slots};
    if (plan_scatter(run, W, &ctx) == 0) {
        time_scatter(run, &ctx, W, "f32 copy", run->opt.mode, copying_scatter_traffic(&ctx));
        sgk_plan_destroy(ctx.plan);
    }
    free(data), free(out), free(upd), free(idx), free(slot);
}

/* ---- embedding_grad_add ------------------------------------------------- */

/* Plans and times a copying scatter of float32 rows, noting how many of
   its rows the index touches (embedding_grad_add, sorted_rows_*). */
static void time_row_scatter(bench_run *run, const char *W, scatter_ctx *ctx, int64_t distinct)
{
    if (plan_scatter(run, W, ctx) != 0)
        return;
    bench_result *res = time_scatter(run, ctx, W, "f32 copy", run->opt.mode,
                                     copying_scatter_traffic(ctx));
    if (res != NULL) {
        size_t len = strlen(res->note);
        snprintf(res->note + len, sizeof res->note - len, "%s%lld distinct rows of %lld",
                 len ? "; " : "", (long long)distinct, (long long)ctx->slots);
    }
    sgk_plan_destroy(ctx->plan);
}

/* The backward pass of an embedding lookup: data [50000,256] float32 plus
   65536 gradient rows whose token ids follow Zipf's law (s = 1.1, ranks
   shuffled over the rows), so a few rows collect thousands of updates. */
void embedding_grad_add(bench_run *run)
{
    const char *W = "embedding_grad_add";
    const int64_t R = scaled(50000, run->opt.scale), D = 256, N = scaled(65536, run->opt.scale);
    int64_t dshape[] = {R, D}, ishape[] = {N, 1}, ushape[] = {N, D};
    float *data = bench_alloc((size_t)(R * D) * 4), *out = bench_alloc((size_t)(R * D) * 4);
    float *upd = bench_alloc((size_t)(N * D) * 4);
    int64_t *idx = bench_alloc((size_t)N * 8);
    fill_f32(data, (size_t)(R * D), 31);
    fill_f32(upd, (size_t)(N * D), 32);

    rng r = {7};
    zipf_ids(&r, idx, N, R, 1.1);
    unsigned char *seen = calloc((size_t)R, 1);
    if (seen == NULL)
        exit(2);
    int64_t distinct = 0;
    for (int64_t n = 0; n < N; n++) {
        distinct += !seen[idx[n]];
        seen[idx[n]] = 1;
    }
    free(seen);

    scatter_ctx ctx = {
        .data = {SGK_FLOAT32, 2, dshape, data}, .indices = {SGK_INT64, 2, ishape, idx},
        .updates = {SGK_FLOAT32, 2, ushape, upd}, .reduction = SGK_REDUCE_ADD, .output = out,
        .original = data, .slot = idx, .count = N, .slice_len = D, .slots = R};
    time_row_scatter(run, W, &ctx, distinct);
    free(data), free(out), free(upd), free(idx);
}

/* ---- short slices ---------------------------------------------------------- */

/* Rows of 64 and 512 bytes, between the single elements and the KiB rows
   above: a GatherND of 64-byte rows ([1M,16] f32 by 1M uniform rows) and a
   ScatterND add of 512-byte rows ([131072,128] f32 by 131072 uniform rows,
   with the duplicates that brings). */
void gather_rows_64b(bench_run *run)
{
    const char *W = "gather_rows_64b";
    const int64_t R = scaled(1048576, run->opt.scale), D = 16, N = R;
    int64_t dshape[] = {R, D}, ishape[] = {N, 1};
    float *data = bench_alloc((size_t)(R * D) * 4), *out = bench_alloc((size_t)(N * D) * 4);
    int64_t *idx = bench_alloc((size_t)N * 8);
    fill_f32(data, (size_t)(R * D), 81);
    rng r = {81};
    for (int64_t n = 0; n < N; n++)
        idx[n] = rng_below(&r, R);
    gather_ctx ctx = {.data = {SGK_FLOAT32, 2, dshape, data},
                      .indices = {SGK_INT64, 2, ishape, idx}, .output = out,
                      .output_bytes = (size_t)(N * D) * 4, .slot = idx, .count = N,
                      .slice_len = D};
    if (plan_gather(run, W, &ctx) == 0) {
        time_gather(run, &ctx, W, "f32", run->opt.mode);
        sgk_plan_destroy(ctx.plan);
    }
    free(data), free(out), free(idx);
}

void scatter_rows_512b_add(bench_run *run)
{
    const char *W = "scatter_rows_512b_add";
    const int64_t R = scaled(131072, run->opt.scale), D = 128, N = R;
    int64_t dshape[] = {R, D}, ishape[] = {N, 1}, ushape[] = {N, D};
    float *data = bench_alloc((size_t)(R * D) * 4), *out = bench_alloc((size_t)(R * D) * 4);
    float *upd = bench_alloc((size_t)(N * D) * 4);
    int64_t *idx = bench_alloc((size_t)N * 8);
    fill_f32(data, (size_t)(R * D), 91);
    fill_f32(upd, (size_t)(N * D), 92);
    rng r = {91};
    for (int64_t n = 0; n < N; n++)
        idx[n] = rng_below(&r, R);
    scatter_ctx ctx = {
        .data = {SGK_FLOAT32, 2, dshape, data}, .indices = {SGK_INT64, 2, ishape, idx},
        .updates = {SGK_FLOAT32, 2, ushape, upd}, .reduction = SGK_REDUCE_ADD, .output = out,
        .original = data, .slot = idx, .count = N, .slice_len = D, .slots = R};
    if (plan_scatter(run, W, &ctx) == 0) {
        time_scatter(run, &ctx, W, "f32 copy", run->opt.mode, copying_scatter_traffic(&ctx));
        sgk_plan_destroy(ctx.plan);
    }
    free(data), free(out), free(upd), free(idx);
}

/* ---- sorted_rows_add / sorted_rows_max ---------------------------------- */

/* A graph layer's aggregation over edges kept sorted by destination (CSR
   order, as PyG keeps edge_index): data [50000,64] float32 by 500000
   uniformly random destination rows, sorted, so a row takes about ten
   updates in a run and some rows none. */
static void sorted_rows(bench_run *run, const char *W, sgk_reduction reduction, uint64_t seed)
{
    const int64_t R = scaled(50000, run->opt.scale), D = 64, N = scaled(500000, run->opt.scale);
    int64_t dshape[] = {R, D}, ishape[] = {N, 1}, ushape[] = {N, D};
    float *data = bench_alloc((size_t)(R * D) * 4), *out = bench_alloc((size_t)(R * D) * 4);
    float *upd = bench_alloc((size_t)(N * D) * 4);
    int64_t *idx = bench_alloc((size_t)N * 8);
    int64_t *per_row = calloc((size_t)R, sizeof *per_row);
    if (per_row == NULL)
        exit(2);
    fill_f32(data, (size_t)(R * D), seed);
    fill_f32(upd, (size_t)(N * D), seed + 1);
    rng r = {seed};
    for (int64_t n = 0; n < N; n++)
        per_row[rng_below(&r, R)]++;
    int64_t distinct = 0;
    for (int64_t row = 0, n = 0; row < R; row++) {
        distinct += per_row[row] > 0;
        for (int64_t k = 0; k < per_row[row]; k++)
            idx[n++] = row;
    }
    free(per_row);
    scatter_ctx ctx = {
        .data = {SGK_FLOAT32, 2, dshape, data}, .indices = {SGK_INT64, 2, ishape, idx},
        .updates = {SGK_FLOAT32, 2, ushape, upd}, .reduction = reduction, .output = out,
        .original = data, .slot = idx, .count = N, .slice_len = D, .slots = R};
    time_row_scatter(run, W, &ctx, distinct);
    free(data), free(out), free(upd), free(idx);
}

void sorted_rows_add(bench_run *run)
{
    sorted_rows(run, "sorted_rows_add", SGK_REDUCE_ADD, 101);
}

void sorted_rows_max(bench_run *run)
{
    sorted_rows(run, "sorted_rows_max", SGK_REDUCE_MAX, 111);
}

/* ---- gather_embedding ---------------------------------------------------- */

/* An embedding lookup: data [50000,256] float32 by 65536 uniform int32 row
   ids (indices [65536,1]), output [65536,256]. */
void gather_embedding(bench_run *run)
{
    const char *W = "gather_embedding";
    const int64_t R = scaled(50000, run->opt.scale), D = 256, N = scaled(65536, run->opt.scale);
    int64_t dshape[] = {R, D}, ishape[] = {N, 1};
    float *data = bench_alloc((size_t)(R * D) * 4), *out = bench_alloc((size_t)(N * D) * 4);
    int32_t *idx = bench_alloc((size_t)N * 4);
    int64_t *slot = bench_alloc((size_t)N * 8);
    fill_f32(data, (size_t)(R * D), 61);
    rng r = {61};
    for (int64_t n = 0; n < N; n++)
        slot[n] = idx[n] = (int32_t)rng_below(&r, R);
    gather_ctx ctx = {.data = {SGK_FLOAT32, 2, dshape, data},
                      .indices = {SGK_INT32, 2, ishape, idx}, .output = out,
                      .output_bytes = (size_t)(N * D) * 4, .slot = slot, .count = N,
                      .slice_len = D};
    if (plan_gather(run, W, &ctx) == 0) {
        time_gather(run, &ctx, W, "f32", run->opt.mode);
        sgk_plan_destroy(ctx.plan);
    }
    free(data), free(out), free(idx), free(slot);
}

/* ---- gather_batch1 ------------------------------------------------------- */

/* GatherND with batch_dims 1: per batch item of [64,2048,128] float32, 512
   rows picked by indices [64,512,1] (half of them written negative);
   output [64,512,128]. */
void gather_batch1(bench_run *run)
{
    const char *W = "gather_batch1";
    const int64_t B = scaled(64, run->opt.scale), T = 2048, D = 128, M = 512;
    int64_t dshape[] = {B, T, D}, ishape[] = {B, M, 1};
    float *data = bench_alloc((size_t)(B * T * D) * 4), *out = bench_alloc((size_t)(B * M * D) * 4);
    int64_t *idx = bench_alloc((size_t)(B * M) * 8), *slot = bench_alloc((size_t)(B * M) * 8);
    fill_f32(data, (size_t)(B * T * D), 71);
    rng r = {71};
    for (int64_t n = 0; n < B * M; n++) {
        idx[n] = rng_coordinate(&r, T, 2);
        slot[n] = (n / M) * T + normalized(idx[n], T);
    }
    gather_ctx ctx = {.data = {SGK_FLOAT32, 3, dshape, data},
                      .indices = {SGK_INT64, 3, ishape, idx}, .batch_dims = 1, .output = out,
                      .output_bytes = (size_t)(B * M * D) * 4, .slot = slot, .count = B * M,
                      .slice_len = D};
    if (plan_gather(run, W, &ctx) == 0) {
        time_gather(run, &ctx, W, "f32 b=1", run->opt.mode);
        sgk_plan_destroy(ctx.plan);
    }
    free(data), free(out), free(idx), free(slot);
}

/* ---- gather (ONNX Gather) -------------------------------------------------- */

/* Gather on data [A, N, I] (A = 1 for axis 0) by Q int64 ids along the
   axis, output [A, Q, I]: row a * Q + q is data slot a * N + ids[q]. */
static void gather_take(bench_run *run, const char *what, int rank, const int64_t *dshape,
                        int64_t axis, int64_t Q, uint64_t seed)
{
    const char *W = "gather";
    const int64_t A = rank == 3 ? dshape[0] : 1, N = dshape[axis], I = dshape[rank - 1];
    const int64_t ishape[] = {Q};
    float *data = bench_alloc((size_t)(A * N * I) * 4), *out = bench_alloc((size_t)(A * Q * I) * 4);
    int64_t *idx = bench_alloc((size_t)Q * 8), *slot = bench_alloc((size_t)(A * Q) * 8);
    fill_f32(data, (size_t)(A * N * I), seed);
    rng r = {seed};
    for (int64_t q = 0; q < Q; q++)
        idx[q] = rng_below(&r, N);
    for (int64_t n = 0; n < A * Q; n++)
        slot[n] = (n / Q) * N + idx[n % Q];
    gather_ctx ctx = {.data = {SGK_FLOAT32, rank, dshape, data},
                      .indices = {SGK_INT64, 1, ishape, idx}, .take = true, .axis = axis,
                      .output = out, .output_bytes = (size_t)(A * Q * I) * 4, .slot = slot,
                      .count = A * Q, .slice_len = I};
    if (plan_gather(run, W, &ctx) == 0) {
        time_gather(run, &ctx, W, what, run->opt.mode);
        if (run->opt.mode != BENCH_MODE_ONESHOT)
            time_gather(run, &ctx, W, what, BENCH_MODE_ONESHOT);
        sgk_plan_destroy(ctx.plan);
    }
    free(data), free(out), free(idx), free(slot);
}

/* An embedding lookup, axis 0: [50000,256] f32 by 65536 ids; and a head
   selection along axis 1: [64,2048,128] f32 by 512 ids, output
   [64,512,128]. */
void gather_workload(bench_run *run)
{
    const int64_t embedding[] = {scaled(50000, run->opt.scale), 256};
    gather_take(run, "f32 axis 0", 2, embedding, 0, scaled(65536, run->opt.scale), 81);
    const int64_t heads[] = {scaled(64, run->opt.scale), 2048, 128};
    gather_take(run, "f32 axis 1", 3, heads, 1, 512, 82);
}
