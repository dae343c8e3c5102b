/* One one-shot call of each operator at a size where sgk runs it on every
   thread it has (a few MiB), for bench/thread-callgrind: callgrind counts
   the instructions of the call on every thread together, so running this
   at 1, 16 and 64 threads (SGK_NUM_THREADS) shows whether the work grows
   with the threads, which a 2-core machine cannot time.  Each call runs
   once untimed first (the thread pool, the configuration and the thread's
   call scratch are set up once per process), then once between
   CALLGRIND_ZERO_STATS and CALLGRIND_DUMP_STATS_AT(<workload>).

   usage: thread-work  (under valgrind --tool=callgrind; outside it the
   client requests do nothing and it only checks that every call works) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#endif
#endif
#ifndef CALLGRIND_DUMP_STATS_AT
#define CALLGRIND_ZERO_STATS
#define CALLGRIND_DUMP_STATS_AT(name) ((void)(name))
#endif

#include "sgk.h"

enum { ROW = 64 };

static uint64_t mix64(uint64_t x) /* bench/workload_inputs.c's generator */
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static void fill_indices(int64_t *idx, int64_t n, int64_t bound, uint64_t seed)
{
    for (int64_t i = 0; i < n; i++)
        idx[i] = (int64_t)(mix64(seed + (uint64_t)i) % (uint64_t)bound);
}

typedef sgk_status (*call_fn)(void);

static sgk_tensor t_data, t_indices, t_updates;
static float *output;

static sgk_status scatter_elements_add(void)
{
    return sgk_scatter_elements(&t_data, &t_indices, &t_updates, 0, SGK_REDUCE_ADD, output);
}
static sgk_status scatter_elements_max(void)
{
    return sgk_scatter_elements(&t_data, &t_indices, &t_updates, 0, SGK_REDUCE_MAX, output);
}
static sgk_status scatter_elements_none(void)
{
    return sgk_scatter_elements(&t_data, &t_indices, &t_updates, 0, SGK_REDUCE_NONE, output);
}
static sgk_status gather_elements(void)
{
    return sgk_gather_elements(&t_data, &t_indices, 0, output);
}
static sgk_status scatter_nd_rows_add(void)
{
    return sgk_scatter_nd(&t_data, &t_indices, &t_updates, SGK_REDUCE_ADD, output);
}
static sgk_status gather_nd_rows(void)
{
    return sgk_gather_nd(&t_data, &t_indices, 0, output);
}

static int measure(const char *name, call_fn call)
{
    if (call() != SGK_OK) { /* untimed: the pool and the scratch */
        fprintf(stderr, "thread-work: %s failed: %s\n", name, sgk_last_error());
        return 1;
    }
    CALLGRIND_ZERO_STATS;
    const sgk_status status = call();
    CALLGRIND_DUMP_STATS_AT(name);
    return status != SGK_OK;
}

int main(void)
{
    /* Elements: 1M updates into 256k float32 slots (1 MiB, 4 per slot);
       rows: 64k rows of 64 float32 into 16k (4 MiB). */
    const int64_t slots = 1 << 18, updates = 1 << 20, rows = 1 << 14, row_updates = 1 << 16;
    float *data = calloc((size_t)(rows * ROW), sizeof *data);
    float *upd = malloc((size_t)(row_updates * ROW) * sizeof *upd);
    int64_t *idx = malloc((size_t)updates * sizeof *idx);
    output = malloc((size_t)(row_updates * ROW) * sizeof *output);
    if (!data || !upd || !idx || !output)
        return 1;
    for (int64_t i = 0; i < row_updates * ROW; i++)
        upd[i] = (float)(i % 89) * 0.5f;
    int failed = 0;

    int64_t dshape[] = {slots}, ushape[] = {updates};
    t_data = (sgk_tensor){SGK_FLOAT32, 1, dshape, data};
    t_indices = (sgk_tensor){SGK_INT64, 1, ushape, idx};
    t_updates = (sgk_tensor){SGK_FLOAT32, 1, ushape, upd};
    fill_indices(idx, updates, slots, 1);
    failed |= measure("scatter_elements_add", scatter_elements_add);
    failed |= measure("scatter_elements_max", scatter_elements_max);
    failed |= measure("scatter_elements_none", scatter_elements_none);
    failed |= measure("gather_elements", gather_elements);

    int64_t rshape[] = {rows, ROW}, rishape[] = {row_updates, 1}, rushape[] = {row_updates, ROW};
    t_data = (sgk_tensor){SGK_FLOAT32, 2, rshape, data};
    t_indices = (sgk_tensor){SGK_INT64, 2, rishape, idx};
    t_updates = (sgk_tensor){SGK_FLOAT32, 2, rushape, upd};
    fill_indices(idx, row_updates, rows, 2);
    failed |= measure("scatter_nd_rows_add", scatter_nd_rows_add);
    failed |= measure("gather_nd_rows", gather_nd_rows);

    printf("thread-work: %s\n", failed ? "some calls failed" : "every call done");
    free(data);
    free(upd);
    free(idx);
    free(output);
    return failed;
}
