/* The workload suite (docs/performance.md), through the public API only.

   Minimal traffic (bytes any implementation must move per call), by kind:

   copying scatter (none, or a reduction, duplicates or not):
       read data + write output + read updates + read indices
       (every output byte is written once and every data byte it starts from
       is read once, whatever the updates overwrite)
   in-place scatter `none` (and TensorScatter in place):
       read updates + read indices + write the updated slices
       (the rest of the tensor is never touched)
   gather (GatherND, GatherElements, Gather):
       read indices + read the distinct 64-byte lines the gathered slices
       cover + write output
       (memory moves whole lines: a line read for one output serves every
       other output in it, and a row gathered twice need not be read twice;
       bench/peers.py counts the same way)

   Inputs are deterministic (fixed seeds).  Float values are multiples of
   1/256 below 128 in magnitude, finite and exact; float16 values are random
   finite bit patterns (only `none` runs on float16, which copies bits).
   Every variant's first result is checked against a direct computation of
   sampled output elements before any time is taken. */
#define _POSIX_C_SOURCE 200809L

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sgk.h"

#include "bench.h"

/* ---- deterministic inputs ---------------------------------------------- */

static uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

typedef struct {
    uint64_t state;
} rng;

static uint64_t rng_next(rng *r)
{
    r->state += 0x9e3779b97f4a7c15ull;
    return mix64(r->state);
}

/* Uniform in [0, n); the modulo bias is below 2^-40 for these sizes. */
static int64_t rng_below(rng *r, int64_t n)
{
    return (int64_t)(rng_next(r) % (uint64_t)n);
}

static double rng_unit(rng *r)
{
    return (double)(rng_next(r) >> 11) * 0x1p-53;
}

/* A coordinate in [0, dim), written as its negative alias one time in
   `negative_every` (0: never) to exercise normalization. */
static int64_t rng_coordinate(rng *r, int64_t dim, int negative_every)
{
    int64_t i = rng_below(r, dim);
    return negative_every > 0 && rng_below(r, negative_every) == 0 ? i - dim : i;
}

static int64_t normalized(int64_t i, int64_t dim)
{
    return i < 0 ? i + dim : i;
}

static void fill_f32(float *p, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (float)((int32_t)(mix64(seed ^ (i * 0x2545f4914f6cdd1dull)) & 0xffff) - 32768) /
               256.0f;
}

static void fill_f16(uint16_t *p, size_t n, uint64_t seed)
{
    /* Bit 14 clear keeps the exponent below 31: finite. */
    for (size_t i = 0; i < n; i++)
        p[i] = (uint16_t)(mix64(seed ^ (i * 0x2545f4914f6cdd1dull)) & 0xbfff);
}

static void fill(void *p, sgk_dtype dtype, size_t n, uint64_t seed)
{
    if (dtype == SGK_FLOAT16)
        fill_f16(p, n, seed);
    else
        fill_f32(p, n, seed);
}

/* All-ones bytes are NaN in float32 and float16: a call that writes nothing
   fails its check. */
static void poison(void *p, size_t bytes)
{
    memset(p, 0xff, bytes);
}

static int64_t scaled(int64_t n, double scale)
{
    long long v = llround((double)n * scale);
    return v < 1 ? 1 : (int64_t)v;
}

static int64_t elems_of(const sgk_tensor *t)
{
    int64_t n = 1;
    for (int d = 0; d < t->rank; d++)
        n *= t->shape[d];
    return n;
}

static double bytes_of(const sgk_tensor *t)
{
    return (double)elems_of(t) * (double)sgk_dtype_size(t->dtype);
}

/* Where a result sits in run->results (-1 for none): timing more variants
   may move the array, so sibling results are compared by position. */
static long result_index(const bench_run *run, const bench_result *r)
{
    return r != NULL ? (long)(r - run->results) : -1;
}

static const char *mode_name(bench_mode mode)
{
    return mode == BENCH_MODE_PLAN ? "plan" : "oneshot";
}

static const char *dtype_name(sgk_dtype dtype)
{
    return dtype == SGK_FLOAT16 ? "f16" : "f32";
}

/* ---- scatters: calls, checks, traffic ---------------------------------- */

typedef struct {
    sgk_tensor data, indices, updates;
    bool elements;           /* ScatterElements, else ScatterND */
    bool tensor_scatter;     /* TensorScatter: indices are the write indices */
    int64_t axis;            /* ScatterElements, TensorScatter */
    sgk_tensor_scatter_mode mode; /* TensorScatter */
    sgk_reduction reduction;
    void *output;            /* == data.data in place */
    sgk_plan *plan;
    /* What the check needs: the data before the call and, for each update
       row in row-major order, its normalized destination slot (a slot is
       slice_len consecutive output elements). */
    const void *original;
    const int64_t *slot;
    int64_t count, slice_len, slots;
} scatter_ctx;

static double copying_scatter_traffic(const scatter_ctx *c)
{
    return 2.0 * bytes_of(&c->data) + bytes_of(&c->updates) + bytes_of(&c->indices);
}

static double in_place_scatter_traffic(const scatter_ctx *c)
{
    /* Distinct destinations here, so the written slices are the updates. */
    return 2.0 * bytes_of(&c->updates) + bytes_of(&c->indices);
}

static int scatter_plan_op(void *arg)
{
    const scatter_ctx *c = arg;
    return (int)sgk_execute(c->plan, c->data.data, c->updates.data, c->output);
}

static int scatter_oneshot_op(void *arg)
{
    const scatter_ctx *c = arg;
    if (c->tensor_scatter)
        return (int)sgk_tensor_scatter(&c->data, &c->updates, &c->indices, c->axis, c->mode,
                                       c->output);
    if (c->elements)
        return (int)sgk_scatter_elements(&c->data, &c->indices, &c->updates, c->axis,
                                         c->reduction, c->output);
    return (int)sgk_scatter_nd(&c->data, &c->indices, &c->updates, c->reduction, c->output);
}

static int compare_int64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int find_sample(const int64_t *sample, int count, int64_t slot)
{
    int lo = 0, hi = count;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (sample[mid] < slot)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < count && sample[lo] == slot ? lo : -1;
}

enum { CHECK_SLOTS = 64, CHECK_COLS = 16 };

/* Recomputes sampled output elements by the sequential definition (out =
   data, then every update in row-major order) and compares.  Sampled slots:
   the first, middle and last update's, 24 random updates' (so the hottest
   destinations of skewed indices are likely in), and random ones (mostly
   untouched, which must keep the data).  `none` and `max` must match bit
   for bit; `add` within the rounding a reordering could introduce, which is
   zero when the library runs deterministically. */
static int check_scatter(void *arg, char *why, size_t why_size)
{
    const scatter_ctx *c = arg;
    const int64_t L = c->slice_len;
    const bool f16 = c->data.dtype == SGK_FLOAT16;
    rng r = {0xc4ec4};

    int64_t sample[CHECK_SLOTS];
    int ns = 0;
    if (c->count > 0) {
        sample[ns++] = c->slot[0];
        sample[ns++] = c->slot[c->count / 2];
        sample[ns++] = c->slot[c->count - 1];
        for (int k = 0; k < 24; k++)
            sample[ns++] = c->slot[rng_below(&r, c->count)];
    }
    sample[ns++] = 0;
    sample[ns++] = c->slots - 1;
    while (ns < CHECK_SLOTS)
        sample[ns++] = rng_below(&r, c->slots);
    qsort(sample, (size_t)ns, sizeof *sample, compare_int64);
    int unique = 0;
    for (int k = 0; k < ns; k++)
        if (unique == 0 || sample[unique - 1] != sample[k])
            sample[unique++] = sample[k];
    ns = unique;

    int64_t col[CHECK_COLS];
    int nc = 0;
    if (L <= CHECK_COLS) {
        for (int64_t j = 0; j < L; j++)
            col[nc++] = j;
    } else {
        col[nc++] = 0;
        col[nc++] = L - 1;
        while (nc < CHECK_COLS)
            col[nc++] = rng_below(&r, L);
    }

    static float expect[CHECK_SLOTS][CHECK_COLS];
    static uint16_t expect16[CHECK_SLOTS][CHECK_COLS];
    static double magnitude[CHECK_SLOTS][CHECK_COLS];
    static int64_t terms[CHECK_SLOTS];
    for (int s = 0; s < ns; s++) {
        terms[s] = 0;
        for (int j = 0; j < nc; j++) {
            int64_t e = sample[s] * L + col[j];
            if (f16) {
                expect16[s][j] = ((const uint16_t *)c->original)[e];
            } else {
                expect[s][j] = ((const float *)c->original)[e];
                magnitude[s][j] = fabs(expect[s][j]);
            }
        }
    }
    for (int64_t n = 0; n < c->count; n++) {
        int s = find_sample(sample, ns, c->slot[n]);
        if (s < 0)
            continue;
        terms[s]++;
        for (int j = 0; j < nc; j++) {
            int64_t e = n * L + col[j];
            if (f16) {
                expect16[s][j] = ((const uint16_t *)c->updates.data)[e];
                continue;
            }
            float u = ((const float *)c->updates.data)[e];
            float *x = &expect[s][j];
            switch (c->reduction) {
            case SGK_REDUCE_NONE: *x = u; break;
            case SGK_REDUCE_ADD: *x += u; magnitude[s][j] += fabs(u); break;
            case SGK_REDUCE_MAX: *x = isnan(*x) || isnan(u) ? NAN : (u > *x ? u : *x); break;
            default:
                snprintf(why, why_size, "the check knows no reduction %d", (int)c->reduction);
                return -1;
            }
        }
    }
    for (int s = 0; s < ns; s++) {
        for (int j = 0; j < nc; j++) {
            int64_t e = sample[s] * L + col[j];
            if (f16) {
                uint16_t got = ((const uint16_t *)c->output)[e];
                if (got != expect16[s][j]) {
                    snprintf(why, why_size, "output element %lld (slot %lld) = 0x%04x, "
                             "expected 0x%04x", (long long)e, (long long)sample[s], got,
                             expect16[s][j]);
                    return -1;
                }
                continue;
            }
            float got = ((const float *)c->output)[e], want = expect[s][j];
            bool ok = memcmp(&got, &want, sizeof got) == 0;
            if (!ok && c->reduction == SGK_REDUCE_ADD)
                ok = fabs((double)got - want) <= (double)terms[s] * FLT_EPSILON * magnitude[s][j];
            if (!ok) {
                snprintf(why, why_size, "output element %lld (slot %lld, %lld updates) = %.9g, "
                         "expected %.9g", (long long)e, (long long)sample[s],
                         (long long)terms[s], got, want);
                return -1;
            }
        }
    }
    return 0;
}

static sgk_status make_scatter_plan(const scatter_ctx *c, sgk_plan **plan)
{
    if (c->tensor_scatter)
        return sgk_plan_tensor_scatter(plan, &c->data, &c->updates, &c->indices, c->axis,
                                       c->mode, 0);
    if (c->elements)
        return sgk_plan_scatter_elements(plan, &c->data, &c->indices, &c->updates, c->axis,
                                         c->reduction, 0);
    return sgk_plan_scatter_nd(plan, &c->data, &c->indices, &c->updates, c->reduction, 0);
}

static int plan_scatter(bench_run *run, const char *workload, scatter_ctx *c)
{
    sgk_status st = make_scatter_plan(c, &c->plan);
    if (st != SGK_OK) {
        c->plan = NULL;
        bench_fail(run, workload, "planning: %s: %s", sgk_status_name(st), sgk_last_error());
        return -1;
    }
    return 0;
}

/* The planner's cost beside the execution it plans: a plan made and freed
   up to 11 times, the median written into the note of the reused plan's
   result as "planning X ms = Y executions". */
static void note_planning(bench_run *run, bench_result *res, sgk_status (*build)(void *),
                          void *ctx)
{
    enum { MAX_PLANS = 11 };
    double ms[MAX_PLANS];
    int n = run->opt.reps < MAX_PLANS ? run->opt.reps : MAX_PLANS;
    for (int r = 0; r < n; r++) {
        double t0 = bench_now_ms();
        if (build(ctx) != SGK_OK)
            return;
        ms[r] = bench_now_ms() - t0;
    }
    double median = bench_median(ms, n);
    snprintf(res->note, sizeof res->note, "planning %.3g ms = %.2g executions", median,
             median / res->median_ms);
}

static sgk_status build_scatter_plan(void *arg)
{
    const scatter_ctx *c = arg;
    sgk_plan *plan = NULL;
    sgk_status st = make_scatter_plan(c, &plan);
    sgk_plan_destroy(plan);
    return st;
}

/* Times the scatter in `mode`.  The destination starts from a poisoned
   output (copying) or from the pristine data (in place), so the check sees
   this variant's own work.  A copying reused plan's note says what planning
   costs. */
static bench_result *time_scatter(bench_run *run, scatter_ctx *c, const char *workload,
                                  const char *what, bench_mode mode, double traffic)
{
    char variant[48];
    snprintf(variant, sizeof variant, "%s %s", what, mode_name(mode));
    bool copying = c->output != c->data.data;
    if (!copying)
        memcpy(c->output, c->original, (size_t)bytes_of(&c->data));
    else
        poison(c->output, (size_t)bytes_of(&c->data));
    bench_case bc = {workload, variant, traffic, sgk_plan_describe(c->plan),
                     mode == BENCH_MODE_PLAN ? scatter_plan_op : scatter_oneshot_op,
                     check_scatter, c, copying ? bytes_of(&c->data) : 0.0};
    bench_result *res = bench_measure(run, &bc);
    if (res != NULL && copying && mode == BENCH_MODE_PLAN)
        note_planning(run, res, build_scatter_plan, c);
    return res;
}

/* ---- gathers ------------------------------------------------------------ */

typedef struct {
    sgk_tensor data, indices;
    bool elements;           /* GatherElements, else GatherND */
    bool take;               /* Gather (numpy.take along axis) */
    int64_t batch_dims;      /* GatherND */
    int64_t axis;            /* GatherElements, Gather */
    void *output;
    size_t output_bytes;
    sgk_plan *plan;
    /* Output row n (slice_len elements) is data slot slot[n]. */
    const int64_t *slot;
    int64_t count, slice_len;
} gather_ctx;

/* Distinct 64-byte lines of data (from its first byte, which bench_alloc
   aligns) that the gathered slices cover. */
static double gathered_lines(const gather_ctx *c)
{
    const size_t row = (size_t)c->slice_len * sgk_dtype_size(c->data.dtype);
    const size_t lines = ((size_t)bytes_of(&c->data) + 63) / 64;
    unsigned char *seen = calloc(lines > 0 ? lines : 1, 1);
    if (seen == NULL)
        exit(2);
    double distinct = 0;
    for (int64_t n = 0; n < c->count && row > 0; n++) {
        size_t first = (size_t)c->slot[n] * row / 64, last = ((size_t)c->slot[n] * row + row - 1) / 64;
        for (size_t l = first; l <= last; l++) {
            distinct += !seen[l];
            seen[l] = 1;
        }
    }
    free(seen);
    return distinct;
}

static double gather_traffic(const gather_ctx *c)
{
    return bytes_of(&c->indices) + (double)c->output_bytes + 64.0 * gathered_lines(c);
}

static int gather_plan_op(void *arg)
{
    const gather_ctx *c = arg;
    return (int)sgk_execute(c->plan, c->data.data, NULL, c->output);
}

static int gather_oneshot_op(void *arg)
{
    const gather_ctx *c = arg;
    if (c->take)
        return (int)sgk_gather(&c->data, &c->indices, c->axis, c->output);
    if (c->elements)
        return (int)sgk_gather_elements(&c->data, &c->indices, c->axis, c->output);
    return (int)sgk_gather_nd(&c->data, &c->indices, c->batch_dims, c->output);
}

/* Compares 64 output rows (the first, the last, random ones) with the data
   slices they name. */
static int check_gather(void *arg, char *why, size_t why_size)
{
    const gather_ctx *c = arg;
    const size_t row = (size_t)c->slice_len * sgk_dtype_size(c->data.dtype);
    rng r = {0x6a7e};
    for (int k = 0; k < 64 && c->count > 0; k++) {
        int64_t n = k == 0 ? 0 : k == 1 ? c->count - 1 : rng_below(&r, c->count);
        const unsigned char *got = (const unsigned char *)c->output + (size_t)n * row;
        const unsigned char *want = (const unsigned char *)c->data.data + (size_t)c->slot[n] * row;
        if (memcmp(got, want, row) != 0) {
            snprintf(why, why_size, "output row %lld differs from data slot %lld", (long long)n,
                     (long long)c->slot[n]);
            return -1;
        }
    }
    return 0;
}

static sgk_status make_gather_plan(const gather_ctx *c, sgk_plan **plan)
{
    if (c->take)
        return sgk_plan_gather(plan, &c->data, &c->indices, c->axis, 0);
    if (c->elements)
        return sgk_plan_gather_elements(plan, &c->data, &c->indices, c->axis, 0);
    return sgk_plan_gather_nd(plan, &c->data, &c->indices, c->batch_dims, 0);
}

static int plan_gather(bench_run *run, const char *workload, gather_ctx *c)
{
    sgk_status st = make_gather_plan(c, &c->plan);
    if (st != SGK_OK) {
        c->plan = NULL;
        bench_fail(run, workload, "planning: %s: %s", sgk_status_name(st), sgk_last_error());
        return -1;
    }
    return 0;
}

static sgk_status build_gather_plan(void *arg)
{
    const gather_ctx *c = arg;
    sgk_plan *plan = NULL;
    sgk_status st = make_gather_plan(c, &plan);
    sgk_plan_destroy(plan);
    return st;
}

static bench_result *time_gather(bench_run *run, gather_ctx *c, const char *workload,
                                 const char *what, bench_mode mode)
{
    char variant[48];
    snprintf(variant, sizeof variant, "%s %s", what, mode_name(mode));
    poison(c->output, c->output_bytes);
    bench_case bc = {workload, variant, gather_traffic(c), sgk_plan_describe(c->plan),
                     mode == BENCH_MODE_PLAN ? gather_plan_op : gather_oneshot_op,
                     check_gather, c, (double)c->output_bytes};
    bench_result *res = bench_measure(run, &bc);
    if (res != NULL && mode == BENCH_MODE_PLAN)
        note_planning(run, res, build_gather_plan, c);
    return res;
}

/* ---- kv_cache_token ------------------------------------------------------ */

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

static void kv_cache_token(bench_run *run)
{
    kv_cache_dtype(run, SGK_FLOAT32);
    kv_cache_dtype(run, SGK_FLOAT16);
}

/* ---- ov_example5 ------------------------------------------------------- */

/* OpenVINO ScatterNDUpdate-15, example 5: data [1000,256,10,15], indices
   [25,125,3], updates [25,125,15], reduction none.  The spec's shapes are
   already a realistic size (146 MiB of float32), so they are used as they
   are, the leading 1000 multiplied by --scale.  3125 distinct random
   coordinates (duplicates only if the scaled tensor has too few slices),
   every fifth component written negative. */
static void ov_example5(bench_run *run)
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

/* The backward pass of an embedding lookup: data [50000,256] float32 plus
   65536 gradient rows whose token ids follow Zipf's law (s = 1.1, ranks
   shuffled over the rows), so a few rows collect thousands of updates. */
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

static void embedding_grad_add(bench_run *run)
{
    const char *W = "embedding_grad_add";
    const int64_t R = scaled(50000, run->opt.scale), D = 256, N = scaled(65536, run->opt.scale);
    int64_t dshape[] = {R, D}, ishape[] = {N, 1}, ushape[] = {N, D};
    float *data = bench_alloc((size_t)(R * D) * 4), *out = bench_alloc((size_t)(R * D) * 4);
    float *upd = bench_alloc((size_t)(N * D) * 4);
    int64_t *idx = bench_alloc((size_t)N * 8);
    double *cdf = bench_alloc((size_t)R * sizeof *cdf);
    int64_t *row_of_rank = bench_alloc((size_t)R * 8);
    fill_f32(data, (size_t)(R * D), 31);
    fill_f32(upd, (size_t)(N * D), 32);

    rng r = {7};
    double total = 0.0;
    for (int64_t k = 0; k < R; k++) {
        total += pow((double)(k + 1), -1.1);
        cdf[k] = total;
        row_of_rank[k] = k;
    }
    for (int64_t k = R - 1; k > 0; k--) {
        int64_t j = rng_below(&r, k + 1), t = row_of_rank[k];
        row_of_rank[k] = row_of_rank[j], row_of_rank[j] = t;
    }
    unsigned char *seen = calloc((size_t)R, 1);
    if (seen == NULL)
        exit(2);
    int64_t distinct = 0;
    for (int64_t n = 0; n < N; n++) {
        double u = rng_unit(&r) * total;
        int64_t lo = 0, hi = R - 1;
        while (lo < hi) {
            int64_t mid = (lo + hi) / 2;
            if (cdf[mid] < u)
                lo = mid + 1;
            else
                hi = mid;
        }
        idx[n] = row_of_rank[lo];
        distinct += !seen[idx[n]];
        seen[idx[n]] = 1;
    }
    free(seen), free(cdf), free(row_of_rank);

    scatter_ctx ctx = {
        .data = {SGK_FLOAT32, 2, dshape, data}, .indices = {SGK_INT64, 2, ishape, idx},
        .updates = {SGK_FLOAT32, 2, ushape, upd}, .reduction = SGK_REDUCE_ADD, .output = out,
        .original = data, .slot = idx, .count = N, .slice_len = D, .slots = R};
    time_row_scatter(run, W, &ctx, distinct);
    free(data), free(out), free(upd), free(idx);
}

/* ---- elementwise_add / elementwise_max ---------------------------------- */

/* ScatterND with k = r: data [2048,2048] float32, 2M uniformly random
   element updates (indices [2M,2], one coordinate in eight negative), so
   about 40% of the touched elements get more than one update. */
/* The index written as int64, or narrowed to int32 in place: the caller's
   type, which the one-shot floor counts as passed. */
static void narrow_indices(void *idx, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        ((int32_t *)idx)[i] = (int32_t)((int64_t *)idx)[i];
}

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

static void elementwise_add(bench_run *run)
{
    elementwise(run, "elementwise_add", SGK_REDUCE_ADD, 41);
}

static void elementwise_max(bench_run *run)
{
    elementwise(run, "elementwise_max", SGK_REDUCE_MAX, 51);
}

/* As elementwise_add with int32 indices: half the index bytes to read. */
static void elementwise_add_i32(bench_run *run)
{
    elementwise_of(run, "elementwise_add_i32", SGK_REDUCE_ADD, 41, SGK_INT32);
}

/* ---- dense_max_l3 ---------------------------------------------------------- */

/* Several updates per destination element into a destination that fits the
   last-level cache but not L2 (NumPy's np.maximum.at case): ScatterND max,
   data [2M] float32 (8 MiB), 8M random single-element updates. */
static void dense_max_l3(bench_run *run)
{
    const char *W = "dense_max_l3";
    const int64_t S = scaled(2097152, run->opt.scale), N = 4 * S;
    int64_t dshape[] = {S}, ishape[] = {N, 1}, ushape[] = {N};
    float *data = bench_alloc((size_t)S * 4), *out = bench_alloc((size_t)S * 4);
    float *upd = bench_alloc((size_t)N * 4);
    int64_t *idx = bench_alloc((size_t)N * 8);
    fill_f32(data, (size_t)S, 71);
    fill_f32(upd, (size_t)N, 72);
    rng r = {71};
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

/* ---- short slices ---------------------------------------------------------- */

/* Rows of 64 and 512 bytes, between the single elements and the KiB rows
   above: a GatherND of 64-byte rows ([1M,16] f32 by 1M uniform rows) and a
   ScatterND add of 512-byte rows ([131072,128] f32 by 131072 uniform rows,
   with the duplicates that brings). */
static void gather_rows_64b(bench_run *run)
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

static void scatter_rows_512b_add(bench_run *run)
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

static void sorted_rows_add(bench_run *run)
{
    sorted_rows(run, "sorted_rows_add", SGK_REDUCE_ADD, 101);
}

static void sorted_rows_max(bench_run *run)
{
    sorted_rows(run, "sorted_rows_max", SGK_REDUCE_MAX, 111);
}

/* ---- gather_embedding ---------------------------------------------------- */

/* An embedding lookup: data [50000,256] float32 by 65536 uniform int32 row
   ids (indices [65536,1]), output [65536,256]. */
static void gather_embedding(bench_run *run)
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
static void gather_batch1(bench_run *run)
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

static void scatter_elements_add(bench_run *run)
{
    scatter_elements(run, "scatter_elements_add", SGK_REDUCE_ADD, 81);
}

static void scatter_elements_none(bench_run *run)
{
    scatter_elements(run, "scatter_elements_none", SGK_REDUCE_NONE, 91);
}

static void gather_elements(bench_run *run)
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
static void gather_elements_rows(bench_run *run)
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

/* ---- tiny ---------------------------------------------------------------- */

/* Per-call overhead: each operator on a [16,16] float32 tensor (1 KiB; all
   buffers of one call together stay under 4 KiB), timed as a one-shot call,
   as sgk_execute of a reused plan, and as the plain C loop that does the
   same work with no validation.  Always all three, whatever --mode says. */
enum { TINY = 16 };

static int tiny_scatter_nd_loop(void *arg)
{
    const scatter_ctx *c = arg;
    const int64_t *idx = c->indices.data;
    const float *upd = c->updates.data;
    float *out = c->output;
    memcpy(out, c->data.data, TINY * TINY * sizeof *out);
    for (int64_t n = 0; n < c->count; n++) {
        float *row = out + idx[n] * TINY;
        if (c->reduction == SGK_REDUCE_NONE)
            memcpy(row, upd + n * TINY, TINY * sizeof *out);
        else
            for (int j = 0; j < TINY; j++)
                row[j] += upd[n * TINY + j];
    }
    return 0;
}

static int tiny_scatter_elements_loop(void *arg)
{
    const scatter_ctx *c = arg;
    const int64_t *idx = c->indices.data;
    const float *upd = c->updates.data;
    const int64_t K = c->indices.shape[1];
    float *out = c->output;
    memcpy(out, c->data.data, TINY * TINY * sizeof *out);
    for (int64_t i = 0; i < TINY; i++)
        for (int64_t j = 0; j < K; j++)
            out[i * TINY + idx[i * K + j]] += upd[i * K + j];
    return 0;
}

static int tiny_gather_nd_loop(void *arg)
{
    const gather_ctx *c = arg;
    const int64_t *idx = c->indices.data;
    const float *data = c->data.data;
    float *out = c->output;
    for (int64_t n = 0; n < c->count; n++)
        memcpy(out + n * TINY, data + idx[n] * TINY, TINY * sizeof *out);
    return 0;
}

static int tiny_gather_elements_loop(void *arg)
{
    const gather_ctx *c = arg;
    const int64_t *idx = c->indices.data;
    const float *data = c->data.data;
    const int64_t K = c->indices.shape[1];
    float *out = c->output;
    for (int64_t i = 0; i < TINY; i++)
        for (int64_t j = 0; j < K; j++)
            out[i * K + j] = data[i * TINY + idx[i * K + j]];
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

static void tiny(bench_run *run)
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
static void gather_workload(bench_run *run)
{
    const int64_t embedding[] = {scaled(50000, run->opt.scale), 256};
    gather_take(run, "f32 axis 0", 2, embedding, 0, scaled(65536, run->opt.scale), 81);
    const int64_t heads[] = {scaled(64, run->opt.scale), 2048, 128};
    gather_take(run, "f32 axis 1", 3, heads, 1, 512, 82);
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

static void tensor_scatter_workload(bench_run *run)
{
    for (int64_t B = 1; B <= 8; B += 7) {
        tensor_scatter_step(run, B, SGK_TENSOR_SCATTER_LINEAR);
        tensor_scatter_step(run, B, SGK_TENSOR_SCATTER_CIRCULAR);
    }
}

/* ---- the suite ------------------------------------------------------------ */

const bench_workload bench_workloads[] = {
    {"kv_cache_token", "ScatterND none, [1,32,2048,128] f32/f16, one token per head; "
                       "copying and in place", kv_cache_token},
    {"ov_example5", "ScatterND none, ScatterNDUpdate-15 example 5: [1000,256,10,15] by "
                    "[25,125,3]", ov_example5},
    {"embedding_grad_add", "ScatterND add, [50000,256] f32 by 65536 Zipf(1.1) rows",
     embedding_grad_add},
    {"elementwise_add", "ScatterND add, k = r, [2048,2048] f32, 2M random elements",
     elementwise_add},
    {"elementwise_max", "ScatterND max, k = r, [2048,2048] f32, 2M random elements",
     elementwise_max},
    {"elementwise_add_i32", "ScatterND add, k = r, [2048,2048] f32, 2M random elements, "
                            "int32 indices", elementwise_add_i32},
    {"dense_max_l3", "ScatterND max, [2M] f32 (fits L3, not L2) by 8M random elements",
     dense_max_l3},
    {"gather_embedding", "GatherND, [50000,256] f32 by 65536 int32 rows", gather_embedding},
    {"gather_rows_64b", "GatherND, [1M,16] f32 (64-byte rows) by 1M rows", gather_rows_64b},
    {"gather_batch1", "GatherND batch_dims 1, [64,2048,128] by [64,512,1]", gather_batch1},
    {"scatter_elements_add", "ScatterElements add axis 1, [4096,4096] by [4096,1024]",
     scatter_elements_add},
    {"scatter_elements_none", "ScatterElements none axis 1, [4096,4096] by [4096,1024]",
     scatter_elements_none},
    {"scatter_rows_512b_add", "ScatterND add, [131072,128] f32 (512-byte rows) by 131072 rows",
     scatter_rows_512b_add},
    {"sorted_rows_add", "ScatterND add, [50000,64] f32 by 500000 sorted random rows",
     sorted_rows_add},
    {"sorted_rows_max", "ScatterND max, [50000,64] f32 by 500000 sorted random rows",
     sorted_rows_max},
    {"gather_elements", "GatherElements axis 1, [4096,4096] by [4096,1024]", gather_elements},
    {"gather_elements_rows",
     "GatherElements axis 0, [4096,4096] by [4096,4096] constant along rows", gather_elements_rows},
    {"tiny", "each operator on [16,16] f32: one-shot, reused plan, plain C loop", tiny},
    {"gather", "Gather axis 0, [50000,256] f32 by 65536 ids; axis 1, [64,2048,128] by 512",
     gather_workload},
    {"tensor_scatter", "TensorScatter, one token into [B,32,4096,128] f16, B 1 and 8, linear "
                       "and circular; in place against a memcpy loop, and copying",
     tensor_scatter_workload},
};

const size_t bench_workload_count = sizeof bench_workloads / sizeof bench_workloads[0];
