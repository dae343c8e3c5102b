/* The gathers' calls, traffic, result check and timing (workloads.h). */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sgk.h"

#include "bench.h"
#include "workloads.h"

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

double gather_traffic(const gather_ctx *c)
{
    return bytes_of(&c->indices) + (double)c->output_bytes + 64.0 * gathered_lines(c);
}

int gather_plan_op(void *arg)
{
    const gather_ctx *c = arg;
    return (int)sgk_execute(c->plan, c->data.data, NULL, c->output);
}

int gather_oneshot_op(void *arg)
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
int check_gather(void *arg, char *why, size_t why_size)
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

int plan_gather(bench_run *run, const char *workload, gather_ctx *c)
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

bench_result *time_gather(bench_run *run, gather_ctx *c, const char *workload,
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
