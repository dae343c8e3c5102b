/* The KV-cache writes of a decode step: kv_cache_token (ScatterND) and
   tensor_scatter (ONNX TensorScatter), each against the memcpy loop a
   server would otherwise write. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sgk.h"

#include "bench.h"
#include "workloads.h"

/* ---- kv_cache_token ------------------------------------------------------ */

static const char *dtype_name(sgk_dtype dtype)
{
    return dtype == SGK_FLOAT16 ? "f16" : "f32";
}

/* The plain C loop an inference server would otherwise write: one memcpy
   per head at the offset the (already valid) indices give. */
static int kv_c_loop_op(void *arg)
{
    const scatter_ctx *c = arg;
    const int64_t *idx = c->indices.data;
    const int64_t H = c->data.shape[1], T = c->data.shape[2], D = c->data.shape[3];
    const size_t es = sgk_dtype_size(c->data.dtype);
    unsigned char *out = c->output;
    const unsigned char *upd = c->updates.data;
    for (int64_t n = 0; n < c->count; n++) {
        int64_t off = ((idx[3 * n] * H + idx[3 * n + 1]) * T + idx[3 * n + 2]) * D;
        memcpy(out + (size_t)off * es, upd + (size_t)(n * D) * es, (size_t)D * es);
    }
    return 0;
}

/* Decode step of a KV cache [batch 1, 32 heads, T positions, 128]: one new
   token per head at position 3T/4, indices [1,32,3], updates [1,32,128].
   Copying (the ONNX semantics) and in place (what a server does), plus the
   in-place plan against a plain C loop and against the copying call. */
static void kv_cache_dtype(bench_run *run, sgk_dtype dtype)
{
    const char *W = "kv_cache_token";
    const bench_mode mode = run->opt.mode;
    const int64_t H = 32, T = scaled(2048, run->opt.scale), D = 128, pos = T * 3 / 4;
    int64_t dshape[] = {1, H, T, D}, ishape[] = {1, H, 3}, ushape[] = {1, H, D};
    const size_t es = sgk_dtype_size(dtype), data_bytes = (size_t)(H * T * D) * es;
    void *data = bench_alloc(data_bytes), *out = bench_alloc(data_bytes);
    void *pristine = bench_alloc(data_bytes), *upd = bench_alloc((size_t)(H * D) * es);
    int64_t idx[32 * 3], slot[32];
    fill(data, dtype, (size_t)(H * T * D), 11 + dtype);
    fill(upd, dtype, (size_t)(H * D), 12 + dtype);
    memcpy(pristine, data, data_bytes);
    for (int64_t h = 0; h < H; h++) {
        idx[3 * h] = 0, idx[3 * h + 1] = h, idx[3 * h + 2] = pos;
        slot[h] = h * T + pos;
    }

    scatter_ctx copy = {
        .data = {dtype, 4, dshape, data}, .indices = {SGK_INT64, 3, ishape, idx},
        .updates = {dtype, 3, ushape, upd}, .reduction = SGK_REDUCE_NONE, .output = out,
        .original = pristine, .slot = slot, .count = H, .slice_len = D, .slots = H * T};
    if (plan_scatter(run, W, &copy) == 0) {
        scatter_ctx in_place = copy;
        in_place.output = data;
        char what[32], cloop_variant[48];
        snprintf(what, sizeof what, "%s copy", dtype_name(dtype));
        const double copy_traffic = copying_scatter_traffic(&copy);
        const double in_place_traffic = in_place_scatter_traffic(&copy);

        long copy_oneshot = result_index(run, time_scatter(run, &copy, W, what, mode,
                                                           copy_traffic));
        if (mode != BENCH_MODE_ONESHOT)
            copy_oneshot = result_index(run, time_scatter(run, &copy, W, what,
                                                          BENCH_MODE_ONESHOT, copy_traffic));
        snprintf(what, sizeof what, "%s in-place", dtype_name(dtype));
        long in_place_plan = result_index(run, time_scatter(run, &in_place, W, what, mode,
                                                            in_place_traffic));
        if (mode != BENCH_MODE_PLAN)
            in_place_plan = result_index(run, time_scatter(run, &in_place, W, what,
                                                           BENCH_MODE_PLAN, in_place_traffic));

        memcpy(data, pristine, data_bytes);
        snprintf(cloop_variant, sizeof cloop_variant, "%s in-place C loop", dtype_name(dtype));
        bench_case bc = {W, cloop_variant, in_place_traffic, NULL, kv_c_loop_op, check_scatter,
                         &in_place, 0.0};
        long cloop = result_index(run, bench_measure(run, &bc));
        if (in_place_plan >= 0) {
            bench_result *p = &run->results[in_place_plan];
            int len = 0;
            if (cloop >= 0)
                len = snprintf(p->note, sizeof p->note, "%.2fx C loop",
                               p->median_ms / run->results[cloop].median_ms);
            if (copy_oneshot >= 0)
                snprintf(p->note + len, sizeof p->note - (size_t)len, "%s%.4fx copy oneshot",
                         len ? "; " : "", p->median_ms / run->results[copy_oneshot].median_ms);
        }
        sgk_plan_destroy(copy.plan);
    }
    free(data), free(out), free(pristine), free(upd);
}

void kv_cache_token(bench_run *run)
{
    kv_cache_dtype(run, SGK_FLOAT32);
    kv_cache_dtype(run, SGK_FLOAT16);
}

/* ---- tensor_scatter (ONNX TensorScatter) ----------------------------------- */

/* The floor of an in-place token write: one memcpy per (batch, head) of
   the same bytes to the same places, nothing checked. */
static int ts_c_loop_op(void *arg)
{
    const scatter_ctx *c = arg;
    const size_t es = sgk_dtype_size(c->data.dtype), row = (size_t)c->slice_len * es;
    unsigned char *out = c->output;
    const unsigned char *upd = c->updates.data;
    for (int64_t n = 0; n < c->count; n++)
        memcpy(out + (size_t)c->slot[n] * row, upd + (size_t)n * row, row);
    return 0;
}

/* A decode step into a KV cache [B, 32 heads, T = 4096, 128] float16: one
   token per (batch, head), batch b at position 3T/4 + b (linear) or at
   write index 5T + 3T/4 - b, wrapped (circular).  In place (what a server
   does: ONNX's "models an in-place update"), one-shot and planned, against
   the memcpy loop writing the same bytes; and copying, the ONNX semantics
   onnxruntime runs by default. */
static void tensor_scatter_step(bench_run *run, int64_t B, sgk_tensor_scatter_mode mode)
{
    const char *W = "tensor_scatter";
    const int64_t H = 32, T = scaled(4096, run->opt.scale), D = 128;
    const int64_t cshape[] = {B, H, T, D}, ushape[] = {B, H, 1, D}, wshape[] = {B};
    const size_t es = 2, cache_bytes = (size_t)(B * H * T * D) * es;
    void *cache = bench_alloc(cache_bytes), *out = bench_alloc(cache_bytes);
    void *pristine = bench_alloc(cache_bytes), *upd = bench_alloc((size_t)(B * H * D) * es);
    int64_t *write = bench_alloc((size_t)B * 8), *slot = bench_alloc((size_t)(B * H) * 8);
    fill(cache, SGK_FLOAT16, (size_t)(B * H * T * D), 91 + (uint64_t)B);
    fill(upd, SGK_FLOAT16, (size_t)(B * H * D), 92 + (uint64_t)B);
    memcpy(pristine, cache, cache_bytes);
    for (int64_t b = 0; b < B; b++) {
        const int64_t pos = (T * 3 / 4 + b) % T;
        write[b] = mode == SGK_TENSOR_SCATTER_LINEAR ? pos : 5 * T + T * 3 / 4 - b;
        const int64_t wrapped = ((write[b] % T) + T) % T;
        for (int64_t h = 0; h < H; h++)
            slot[b * H + h] = (b * H + h) * T + wrapped;
    }
    scatter_ctx copy = {
        .data = {SGK_FLOAT16, 4, cshape, cache}, .indices = {SGK_INT64, 1, wshape, write},
        .updates = {SGK_FLOAT16, 4, ushape, upd}, .tensor_scatter = true, .axis = -2,
        .mode = mode, .reduction = SGK_REDUCE_NONE, .output = out, .original = pristine,
        .slot = slot, .count = B * H, .slice_len = D, .slots = B * H * T};
    if (plan_scatter(run, W, &copy) == 0) {
        scatter_ctx in_place = copy;
        in_place.output = cache;
        char what[40], loop_variant[48];
        const char *m = mode == SGK_TENSOR_SCATTER_LINEAR ? "linear" : "circular";
        const double in_place_traffic = in_place_scatter_traffic(&copy);
        snprintf(what, sizeof what, "f16 b=%lld %s in-place", (long long)B, m);
        long oneshot = result_index(run, time_scatter(run, &in_place, W, what,
                                                      BENCH_MODE_ONESHOT, in_place_traffic));
        long plan = result_index(run, time_scatter(run, &in_place, W, what, BENCH_MODE_PLAN,
                                                   in_place_traffic));
        memcpy(cache, pristine, cache_bytes);
        snprintf(loop_variant, sizeof loop_variant, "f16 b=%lld %s memcpy loop", (long long)B,
                 m);
        bench_case bc = {W, loop_variant, in_place_traffic, NULL, ts_c_loop_op, check_scatter,
                         &in_place, 0.0};
        long loop = result_index(run, bench_measure(run, &bc));
        snprintf(what, sizeof what, "f16 b=%lld %s copy", (long long)B, m);
        long copying = result_index(run, time_scatter(run, &copy, W, what, BENCH_MODE_ONESHOT,
                                                      copying_scatter_traffic(&copy)));
        for (long k = 0; k < 2 && loop >= 0; k++) {
            long at = k == 0 ? oneshot : plan;
            if (at < 0)
                continue;
            bench_result *p = &run->results[at];
            int len = snprintf(p->note, sizeof p->note, "%.2fx memcpy loop",
                               p->median_ms / run->results[loop].median_ms);
            if (copying >= 0)
                snprintf(p->note + len, sizeof p->note - (size_t)len, "; %.4fx copy",
                         p->median_ms / run->results[copying].median_ms);
        }
        sgk_plan_destroy(copy.plan);
    }
    free(cache), free(out), free(pristine), free(upd), free(write), free(slot);
}

void tensor_scatter_workload(bench_run *run)
{
    for (int64_t B = 1; B <= 8; B += 7) {
        tensor_scatter_step(run, B, SGK_TENSOR_SCATTER_LINEAR);
        tensor_scatter_step(run, B, SGK_TENSOR_SCATTER_CIRCULAR);
    }
}
