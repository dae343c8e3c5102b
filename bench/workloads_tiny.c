/* The tiny workload: per-call overhead of each operator against a plain
   C loop (bench/tiny-calls.c runs the same calls one form at a time). */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <string.h>

#include "sgk.h"

#include "bench.h"
#include "tiny_loops.h"
#include "workloads.h"

/* ---- tiny ---------------------------------------------------------------- */

/* Per-call overhead: each operator on a [16,16] float32 tensor (1 KiB; all
   buffers of one call together stay under 4 KiB), timed as a one-shot call,
   as sgk_execute of a reused plan, and as the plain C loop that does the
   same work with no validation (tiny_loops.h).  Always all three, whatever
   --mode says. */

static int tiny_scatter_nd_loop(void *arg)
{
    const scatter_ctx *c = arg;
    tiny_scatter_nd(c->output, c->data.data, c->indices.data, c->updates.data, c->count,
                    c->reduction);
    return 0;
}

static int tiny_scatter_elements_loop(void *arg)
{
    const scatter_ctx *c = arg;
    tiny_scatter_elements(c->output, c->data.data, c->indices.data, c->updates.data,
                          c->indices.shape[1]);
    return 0;
}

static int tiny_gather_nd_loop(void *arg)
{
    const gather_ctx *c = arg;
    tiny_gather_nd(c->output, c->data.data, c->indices.data, c->count);
    return 0;
}

static int tiny_tensor_scatter_loop(void *arg)
{
    const scatter_ctx *c = arg;
    tiny_tensor_scatter(c->output, c->data.data, c->updates.data, TS_FIRST, TS_ROWS);
    return 0;
}

static int tiny_gather_elements_loop(void *arg)
{
    const gather_ctx *c = arg;
    tiny_gather_elements(c->output, c->data.data, c->indices.data, c->indices.shape[1]);
    return 0;
}

/* The three timings of one tiny operator; notes give each sgk form's time
   over the C loop's. */
static void tiny_triple(bench_run *run, const char *op_name, const char *plan, double traffic,
                        int (*oneshot)(void *), int (*planned)(void *), int (*loop)(void *),
                        int (*check)(void *, char *, size_t), void *ctx, void *output,
                        size_t output_bytes)
{
    const char *W = "tiny";
    const char *forms[3] = {"oneshot", "plan", "C loop"};
    int (*ops[3])(void *) = {oneshot, planned, loop};
    long at[3];
    for (int f = 0; f < 3; f++) {
        char variant[48];
        snprintf(variant, sizeof variant, "%s %s", op_name, forms[f]);
        poison(output, output_bytes);
        bench_case bc = {W, variant, traffic, f < 2 ? plan : NULL, ops[f], check, ctx, 0.0};
        at[f] = result_index(run, bench_measure(run, &bc));
    }
    if (at[2] < 0)
        return;
    for (int f = 0; f < 2; f++)
        if (at[f] >= 0)
            snprintf(run->results[at[f]].note, sizeof run->results[at[f]].note,
                     "%.1fx C loop", run->results[at[f]].median_ms /
                                         run->results[at[2]].median_ms);
}

void tiny(bench_run *run)
{
    const char *W = "tiny";
    static float data[TINY * TINY], out[TINY * TINY], upd[TINY * TINY];
    static int64_t slot[TINY * TINY];
    int64_t dshape[] = {TINY, TINY};
    fill_f32(data, TINY * TINY, 111);
    fill_f32(upd, TINY * TINY, 112);

    /* ScatterND none: 4 distinct rows; add: 8 rows, row 1 three times. */
    int64_t rows_none[] = {3, 7, 12, 0}, rows_add[] = {1, 5, 1, 9, 5, 1, 14, 2};
    int64_t ishape_none[] = {4, 1}, ushape_none[] = {4, TINY};
    int64_t ishape_add[] = {8, 1}, ushape_add[] = {8, TINY};
    for (int pass = 0; pass < 2; pass++) {
        bool add = pass == 1;
        scatter_ctx c = {
            .data = {SGK_FLOAT32, 2, dshape, data},
            .indices = {SGK_INT64, 2, add ? ishape_add : ishape_none,
                        add ? rows_add : rows_none},
            .updates = {SGK_FLOAT32, 2, add ? ushape_add : ushape_none, upd},
            .reduction = add ? SGK_REDUCE_ADD : SGK_REDUCE_NONE, .output = out,
            .original = data, .slot = add ? rows_add : rows_none, .count = add ? 8 : 4,
            .slice_len = TINY, .slots = TINY};
        if (plan_scatter(run, W, &c) != 0)
            continue;
        tiny_triple(run, add ? "scatter_nd_add" : "scatter_nd_none", sgk_plan_describe(c.plan),
                    copying_scatter_traffic(&c), scatter_oneshot_op, scatter_plan_op,
                    tiny_scatter_nd_loop, check_scatter, &c, out, sizeof out);
        sgk_plan_destroy(c.plan);
    }

    /* GatherND: 8 rows, one repeated. */
    int64_t rows_gather[] = {15, 2, 8, 2, 0, 11, 6, 9}, ishape_gather[] = {8, 1};
    gather_ctx g = {.data = {SGK_FLOAT32, 2, dshape, data},
                    .indices = {SGK_INT64, 2, ishape_gather, rows_gather}, .output = out,
                    .output_bytes = 8 * TINY * sizeof(float), .slot = rows_gather, .count = 8,
                    .slice_len = TINY};
    if (plan_gather(run, W, &g) == 0) {
        tiny_triple(run, "gather_nd", sgk_plan_describe(g.plan), gather_traffic(&g),
                    gather_oneshot_op, gather_plan_op, tiny_gather_nd_loop, check_gather, &g,
                    out, sizeof out);
        sgk_plan_destroy(g.plan);
    }

    /* Gather along axis 0 (an embedding lookup): the same 8 rows. */
    gather_ctx take = g;
    take.take = true;
    take.indices = (sgk_tensor){SGK_INT64, 1, ishape_gather, rows_gather};
    if (plan_gather(run, W, &take) == 0) {
        tiny_triple(run, "gather", sgk_plan_describe(take.plan), gather_traffic(&take),
                    gather_oneshot_op, gather_plan_op, tiny_gather_nd_loop, check_gather, &take,
                    out, sizeof out);
        sgk_plan_destroy(take.plan);
    }

    /* TensorScatter of one sequence of 16 positions (the data as [1, 16,
       16]): 4 new rows from write index TS_FIRST, linear. */
    int64_t cshape[] = {1, TINY, TINY}, tshape[] = {1, TS_ROWS, TINY}, wshape[] = {1};
    int64_t write[] = {TS_FIRST}, ts_slot[TS_ROWS];
    for (int64_t n = 0; n < TS_ROWS; n++)
        ts_slot[n] = TS_FIRST + n;
    scatter_ctx ts = {
        .data = {SGK_FLOAT32, 3, cshape, data}, .indices = {SGK_INT64, 1, wshape, write},
        .updates = {SGK_FLOAT32, 3, tshape, upd}, .tensor_scatter = true, .axis = 1,
        .mode = SGK_TENSOR_SCATTER_LINEAR, .reduction = SGK_REDUCE_NONE, .output = out,
        .original = data, .slot = ts_slot, .count = TS_ROWS, .slice_len = TINY,
        .slots = TINY};
    if (plan_scatter(run, W, &ts) == 0) {
        tiny_triple(run, "tensor_scatter", sgk_plan_describe(ts.plan),
                    copying_scatter_traffic(&ts), scatter_oneshot_op, scatter_plan_op,
                    tiny_tensor_scatter_loop, check_scatter, &ts, out, sizeof out);
        sgk_plan_destroy(ts.plan);
    }

    /* Scatter/GatherElements along axis 1: 4 columns per row, some repeated. */
    enum { K = 4 };
    static int64_t cols[TINY * K];
    int64_t eshape[] = {TINY, K};
    rng r = {113};
    for (int64_t n = 0; n < TINY * K; n++) {
        cols[n] = rng_below(&r, TINY);
        slot[n] = (n / K) * TINY + cols[n];
    }
    scatter_ctx se = {
        .data = {SGK_FLOAT32, 2, dshape, data}, .indices = {SGK_INT64, 2, eshape, cols},
        .updates = {SGK_FLOAT32, 2, eshape, upd}, .elements = true, .axis = 1,
        .reduction = SGK_REDUCE_ADD, .output = out, .original = data, .slot = slot,
        .count = TINY * K, .slice_len = 1, .slots = TINY * TINY};
    if (plan_scatter(run, W, &se) == 0) {
        tiny_triple(run, "scatter_elements_add", sgk_plan_describe(se.plan),
                    copying_scatter_traffic(&se), scatter_oneshot_op, scatter_plan_op,
                    tiny_scatter_elements_loop, check_scatter, &se, out, sizeof out);
        sgk_plan_destroy(se.plan);
    }
    gather_ctx ge = {.data = {SGK_FLOAT32, 2, dshape, data},
                     .indices = {SGK_INT64, 2, eshape, cols}, .elements = true, .axis = 1,
                     .output = out, .output_bytes = TINY * K * sizeof(float), .slot = slot,
                     .count = TINY * K, .slice_len = 1};
    if (plan_gather(run, W, &ge) == 0) {
        tiny_triple(run, "gather_elements", sgk_plan_describe(ge.plan), gather_traffic(&ge),
                    gather_oneshot_op, gather_plan_op, tiny_gather_elements_loop, check_gather,
                    &ge, out, sizeof out);
        sgk_plan_destroy(ge.plan);
    }
}
