/* sgk-bench --callers N: a server calls sgk from many request threads at
   once.  For 1, 2, 4 ... N caller threads, each making one-shot calls in a
   loop on its own output, the aggregate throughput over one caller's, on
   OpenMP and on a host pool (tests/support/host_pool.c) of as many workers as sgk
   has threads.  Nothing may collapse: more callers should move at least as
   many bytes per second as one. */
#define _POSIX_C_SOURCE 200809L /* pthread barriers */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/support/host_pool.h"
#include "bench.h"
#include "sgk.h"

/* How long each configuration runs its calls. */
#define CALLERS_MS 1000.0

typedef struct {
    const char *name;
    const char *summary;
    sgk_tensor data, indices, updates;
    int64_t data_shape[2], index_shape[2], update_shape[2];
    size_t out_bytes;
    double traffic_bytes;
    int (*call)(const void *spec, void *out);
} callers_workload;

static int call_gather_nd(const void *spec, void *out)
{
    const callers_workload *w = spec;
    return sgk_gather_nd(&w->data, &w->indices, 0, out) != SGK_OK;
}

static int call_scatter_elements(const void *spec, void *out)
{
    const callers_workload *w = spec;
    return sgk_scatter_elements(&w->data, &w->indices, &w->updates, 1, SGK_REDUCE_ADD, out) !=
           SGK_OK;
}

static int call_scatter_nd(const void *spec, void *out)
{
    const callers_workload *w = spec;
    return sgk_scatter_nd(&w->data, &w->indices, &w->updates, SGK_REDUCE_ADD, out) != SGK_OK;
}

static void *filled(size_t bytes, uint32_t seed, int64_t index_bound)
{
    void *p = bench_alloc(bytes);
    uint32_t x = seed;
    for (size_t i = 0; i < bytes / 8; i++) {
        x = x * 1664525u + 1013904223u;
        if (index_bound > 0)
            ((int64_t *)p)[i] = (int64_t)(x % (uint32_t)index_bound);
        else
            ((float *)p)[2 * i] = ((float *)p)[2 * i + 1] = (float)(x >> 8) / 16777216.0f;
    }
    return p;
}

static void set(sgk_tensor *t, int64_t *dims, sgk_dtype dtype, int64_t d0, int64_t d1,
                void *buf)
{
    dims[0] = d0, dims[1] = d1;
    *t = (sgk_tensor){dtype, 2, dims, buf};
}

/* gather_rows: 4096 rows of 1 KiB from [50000, 256] float32 (a large call);
   scatter_elements_add: [1024, 1024] by [1024, 256] along axis 1; tiny:
   8 rows of 64 bytes added into [64, 16], a call of nanoseconds' work. */
static void make_workloads(callers_workload *w, double scale)
{
    const int64_t rows = (int64_t)(50000 * scale) + 1, picks = (int64_t)(4096 * scale) + 1;
    memset(w, 0, 3 * sizeof *w);
    w[0].name = "callers_gather_rows";
    w[0].summary = "GatherND, 4096 rows of 1 KiB from [50000,256] f32, one-shot calls "
                   "from concurrent callers";
    set(&w[0].data, w[0].data_shape, SGK_FLOAT32, rows, 256,
        filled((size_t)rows * 1024, 1, 0));
    set(&w[0].indices, w[0].index_shape, SGK_INT64, picks, 1, filled((size_t)picks * 8, 2, rows));
    w[0].out_bytes = (size_t)picks * 1024;
    w[0].traffic_bytes = 2.0 * (double)w[0].out_bytes + 8.0 * (double)picks;
    w[0].call = call_gather_nd;

    w[1].name = "callers_scatter_elements_add";
    w[1].summary = "ScatterElements add axis 1, [1024,1024] f32 by [1024,256], one-shot "
                   "calls from concurrent callers";
    set(&w[1].data, w[1].data_shape, SGK_FLOAT32, 1024, 1024, filled(4 << 20, 3, 0));
    set(&w[1].indices, w[1].index_shape, SGK_INT64, 1024, 256, filled(2 << 20, 4, 1024));
    set(&w[1].updates, w[1].update_shape, SGK_FLOAT32, 1024, 256, filled(1 << 20, 5, 0));
    w[1].out_bytes = 4 << 20;
    w[1].traffic_bytes = 2.0 * (4 << 20) + (2 << 20) + (1 << 20);
    w[1].call = call_scatter_elements;

    w[2].name = "callers_tiny_scatter_nd";
    w[2].summary = "ScatterND add, 8 rows of 64 bytes into [64,16] f32, one-shot calls "
                   "from concurrent callers";
    set(&w[2].data, w[2].data_shape, SGK_FLOAT32, 64, 16, filled(4096, 6, 0));
    set(&w[2].indices, w[2].index_shape, SGK_INT64, 8, 1, filled(64, 7, 64));
    set(&w[2].updates, w[2].update_shape, SGK_FLOAT32, 8, 16, filled(512, 8, 0));
    w[2].out_bytes = 4096;
    w[2].traffic_bytes = 2.0 * 4096 + 64 + 512;
    w[2].call = call_scatter_nd;
}

typedef struct {
    const callers_workload *w;
    pthread_barrier_t *start;
    double deadline_ms;
    long calls;
    int failed;
} caller;

static void *caller_main(void *arg)
{
    caller *c = arg;
    void *out = bench_alloc(c->w->out_bytes);
    pthread_barrier_wait(c->start);
    while (bench_now_ms() < c->deadline_ms) {
        c->failed |= c->w->call(c->w, out);
        c->calls++;
    }
    free(out);
    return NULL;
}

/* Calls per millisecond of `callers` threads calling at once. */
static double throughput(bench_run *run, const callers_workload *w, int callers)
{
    caller *c = calloc((size_t)callers, sizeof *c);
    pthread_t *t = calloc((size_t)callers, sizeof *t);
    pthread_barrier_t start;
    if (c == NULL || t == NULL || pthread_barrier_init(&start, NULL, (unsigned)callers + 1) != 0) {
        bench_fail(run, w->name, "no memory for %d callers", callers);
        free(c), free(t);
        return 0;
    }
    /* every caller touches its output once before the clock starts */
    const double deadline = bench_now_ms() + 200.0 + CALLERS_MS;
    for (int i = 0; i < callers; i++) {
        c[i] = (caller){w, &start, deadline, 0, 0};
        pthread_create(&t[i], NULL, caller_main, &c[i]);
    }
    pthread_barrier_wait(&start);
    const double t0 = bench_now_ms();
    long calls = 0;
    int failed = 0;
    for (int i = 0; i < callers; i++) {
        pthread_join(t[i], NULL);
        calls += c[i].calls;
        failed |= c[i].failed;
    }
    const double elapsed = bench_now_ms() - t0;
    pthread_barrier_destroy(&start);
    free(c), free(t);
    if (failed)
        bench_fail(run, w->name, "a call failed: %s", sgk_last_error());
    return elapsed > 0 ? (double)calls / elapsed : 0;
}

static void record(bench_run *run, const callers_workload *w, const char *backend, int callers,
                   double per_ms, double one_per_ms)
{
    if (run->count == run->capacity) {
        run->capacity = run->capacity ? 2 * run->capacity : 32;
        run->results = realloc(run->results, run->capacity * sizeof *run->results);
        if (run->results == NULL) {
            fprintf(stderr, "sgk-bench: out of memory\n");
            exit(2);
        }
    }
    bench_result *r = &run->results[run->count++];
    memset(r, 0, sizeof *r);
    snprintf(r->workload, sizeof r->workload, "%s", w->name);
    r->summary = w->summary;
    snprintf(r->variant, sizeof r->variant, "%s, %d caller%s", backend, callers,
             callers > 1 ? "s" : "");
    /* the time one call takes, seen from its caller */
    r->median_ms = r->min_ms = r->max_ms = per_ms > 0 ? callers / per_ms : 0;
    r->calls_per_rep = 1;
    r->traffic_bytes = w->traffic_bytes;
    r->gbps = per_ms * w->traffic_bytes / 1e6;
    snprintf(r->note, sizeof r->note, "%.2fx one caller's throughput",
             one_per_ms > 0 ? per_ms / one_per_ms : 0);
}

void bench_callers(bench_run *run)
{
    callers_workload w[3];
    make_workloads(w, run->opt.scale);
    host_pool *pool = host_pool_start(run->threads - 1);
    if (pool == NULL) {
        bench_fail(run, "callers", "cannot start a pool of %d workers", run->threads);
        return;
    }
    for (int k = 0; k < 3; k++) {
        for (int host = 0; host <= 1; host++) {
            sgk_parallel_backend backend = host_pool_backend(pool);
            sgk_set_parallel_backend(host ? &backend : NULL);
            const char *name = host ? "host pool" : "OpenMP";
            fprintf(stderr, "[callers] %s on %s ...", w[k].name, name);
            double one = throughput(run, &w[k], 1);
            record(run, &w[k], name, 1, one, one);
            for (int n = 2; n <= run->opt.callers; n *= 2)
                record(run, &w[k], name, n, throughput(run, &w[k], n), one);
            fprintf(stderr, " done\n");
        }
    }
    sgk_set_parallel_backend(NULL);
    host_pool_stop(pool);
    for (int k = 0; k < 3; k++) {
        free((void *)w[k].data.data);
        free((void *)w[k].indices.data);
        free((void *)w[k].updates.data);
    }
}
