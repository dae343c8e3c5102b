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

/* ---- the plain C loop ------------------------------------------------------ */

/* Output rows [begin, end) of a gather, for one thread of the C loop. */
typedef struct {
    const gather_ctx *c;
    int64_t begin, end;
} loop_piece;

/* Rows of `bytes` from their slots: a constant size becomes one load. */
#define COPY_ROWS(bytes)                                                           \
    for (int64_t n = piece->begin; n < piece->end; n++)                            \
        memcpy(out + (size_t)n * (bytes), data + (size_t)slot[n] * (bytes), (bytes))

/* The loop a caller would write, nothing checked: each output row copied
   from its slot, read from the normalized slots (8 bytes a row, as the
   caller's int64 index). */
static void *gather_loop_piece(void *arg)
{
    const loop_piece *piece = arg;
    const gather_ctx *c = piece->c;
    const size_t row = (size_t)c->slice_len * sgk_dtype_size(c->data.dtype);
    const unsigned char *data = c->data.data;
    unsigned char *out = c->output;
    const int64_t *slot = c->slot;
    if (row == 4)
        COPY_ROWS(4);
    else if (row == 8)
        COPY_ROWS(8);
    else
        COPY_ROWS(row);
    return NULL;
}

typedef struct {
    const gather_ctx *c;
    int threads;
} loop_job;

/* The rows in equal shares over the threads sgk runs on. */
static int gather_loop_op(void *arg)
{
    const loop_job *job = arg;
    loop_piece piece[job->threads];
    for (int t = 0; t < job->threads; t++)
        piece[t] = (loop_piece){job->c, job->c->count * t / job->threads,
                                job->c->count * (t + 1) / job->threads};
    bench_team_run(job->threads, gather_loop_piece, piece, sizeof piece[0]);
    return 0;
}

static int check_gather_loop(void *arg, char *why, size_t why_size)
{
    return check_gather((void *)((const loop_job *)arg)->c, why, why_size);
}

/* Whether the loop reads as many index values as the caller's index
   holds, a tuple a row: not where the rows were worked out from a larger
   index (GatherElements of whole rows) or a smaller one (Gather after a
   batch axis). */
static bool loop_reads_the_index(const gather_ctx *c)
{
    const sgk_tensor *t = &c->indices;
    const int64_t k = c->elements || c->take || t->rank == 0 ? 1 : t->shape[t->rank - 1];
    return bytes_of(t) == (double)(c->count * k) * (double)sgk_dtype_size(t->dtype);
}

/* The one-shot call against the C loop, in a one-shot run: random rows
   wait on memory latency, which the traffic floor never meets, and the
   loop shows what that latency leaves a plain gather of them (DESIGN.md,
   "two ceilings"). */
static void time_gather_loop(bench_run *run, gather_ctx *c, const char *workload,
                             const char *what, long oneshot)
{
    char variant[48];
    snprintf(variant, sizeof variant, "%s C loop", what);
    poison(c->output, c->output_bytes);
    loop_job job = {c, run->threads};
    bench_case bc = {workload, variant, gather_traffic(c), NULL, gather_loop_op,
                     check_gather_loop, &job, 0.0};
    const bench_result *loop = bench_measure(run, &bc);
    bench_result *sgk = &run->results[oneshot]; /* bench_measure may move it */
    if (loop != NULL)
        snprintf(sgk->note, sizeof sgk->note, "%.2fx C loop", sgk->median_ms / loop->median_ms);
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
    const long i = result_index(run, res);
    if (i >= 0 && mode == BENCH_MODE_ONESHOT && run->opt.mode == BENCH_MODE_ONESHOT &&
        loop_reads_the_index(c))
        time_gather_loop(run, c, workload, what, i);
    return i >= 0 ? &run->results[i] : NULL;
}
