/* The scatters' calls, traffic, result check and timing (workloads.h). */
#define _POSIX_C_SOURCE 200809L

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sgk.h"

#include "bench.h"
#include "workloads.h"

double copying_scatter_traffic(const scatter_ctx *c)
{
    return 2.0 * bytes_of(&c->data) + bytes_of(&c->updates) + bytes_of(&c->indices);
}

double in_place_scatter_traffic(const scatter_ctx *c)
{
    /* Distinct destinations here, so the written slices are the updates. */
    return 2.0 * bytes_of(&c->updates) + bytes_of(&c->indices);
}

int scatter_plan_op(void *arg)
{
    const scatter_ctx *c = arg;
    return (int)sgk_execute(c->plan, c->data.data, c->updates.data, c->output);
}

int scatter_oneshot_op(void *arg)
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
int check_scatter(void *arg, char *why, size_t why_size)
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

int plan_scatter(bench_run *run, const char *workload, scatter_ctx *c)
{
    sgk_status st = make_scatter_plan(c, &c->plan);
    if (st != SGK_OK) {
        c->plan = NULL;
        bench_fail(run, workload, "planning: %s: %s", sgk_status_name(st), sgk_last_error());
        return -1;
    }
    return 0;
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
bench_result *time_scatter(bench_run *run, scatter_ctx *c, const char *workload,
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
