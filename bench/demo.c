/* sgk-demo: runs every operator family once on a realistic workload through
   the plan API and prints the runtime, each plan's choice and its time.
   The benchmark harness proper (medians, bandwidth ratios, peers) lives
   beside it; this program shows the library end to end. */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sgk.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void *filled(size_t bytes, unsigned seed)
{
    uint8_t *p = malloc(bytes);
    if (p == NULL) {
        fprintf(stderr, "sgk-demo: out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < bytes; i++)
        p[i] = (uint8_t)((i * 2654435761u + seed) >> 7) & 0x3f; /* small finite floats */
    return p;
}

static uint64_t rng = 88172645463325252ull;
static uint64_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static int check(sgk_status status, const char *what)
{
    if (status != SGK_OK) {
        fprintf(stderr, "sgk-demo: %s failed: %s (%s)\n", what, sgk_status_name(status),
                sgk_last_error());
        exit(1);
    }
    return 0;
}

/* The first run pays the page faults of fresh buffers; time the second. */
static double timed_execute(const sgk_plan *plan, const void *data, const void *updates,
                            void *output, const char *what)
{
    check(sgk_execute(plan, data, updates, output), what);
    double t = now_ms();
    check(sgk_execute(plan, data, updates, output), what);
    return now_ms() - t;
}

static void report(const char *name, const sgk_plan *plan, double ms, double traffic_bytes)
{
    printf("%-22s %8.3f ms %7.2f GB/s  %s\n", name, ms, traffic_bytes / (ms * 1e6),
           sgk_plan_describe(plan));
}

/* kv_cache_token: data [1,32,2048,128] f32, one new token per head written
   at position 1000, copying. */
static void kv_cache_token(void)
{
    int64_t dshape[] = {1, 32, 2048, 128}, ishape[] = {1, 32, 3}, ushape[] = {1, 32, 128};
    size_t data_bytes = 32ull * 2048 * 128 * 4;
    float *data = filled(data_bytes, 1), *out = filled(data_bytes, 2);
    float *upd = filled(32 * 128 * 4, 3);
    int64_t idx[32 * 3];
    for (int h = 0; h < 32; h++) {
        idx[3 * h] = 0;
        idx[3 * h + 1] = h;
        idx[3 * h + 2] = 1000;
    }
    sgk_tensor d = {SGK_FLOAT32, 4, dshape, data}, i = {SGK_INT64, 3, ishape, idx},
               u = {SGK_FLOAT32, 3, ushape, upd};
    sgk_plan *plan;
    check(sgk_plan_scatter_nd(&plan, &d, &i, &u, SGK_REDUCE_NONE, 0), "plan kv_cache_token");
    double ms = timed_execute(plan, data, upd, out, "kv_cache_token");
    report("kv_cache_token", plan, ms, 2.0 * data_bytes);
    sgk_plan_destroy(plan);
    free(data), free(out), free(upd);
}

/* embedding_grad_add: data [50000,256] f32, 65536 rows with duplicates. */
static void embedding_grad_add(void)
{
    enum { ROWS = 50000, DIM = 256, UPD = 65536 };
    int64_t dshape[] = {ROWS, DIM}, ishape[] = {UPD, 1}, ushape[] = {UPD, DIM};
    float *data = filled((size_t)ROWS * DIM * 4, 4), *out = filled((size_t)ROWS * DIM * 4, 5);
    float *upd = filled((size_t)UPD * DIM * 4, 6);
    int64_t *idx = malloc(UPD * sizeof *idx);
    for (int n = 0; n < UPD; n++)
        idx[n] = (int64_t)(next_random() % 1000) * (int64_t)(next_random() % 50); /* skewed */
    sgk_tensor d = {SGK_FLOAT32, 2, dshape, data}, i = {SGK_INT64, 2, ishape, idx},
               u = {SGK_FLOAT32, 2, ushape, upd};
    sgk_plan *plan;
    check(sgk_plan_scatter_nd(&plan, &d, &i, &u, SGK_REDUCE_ADD, 0), "plan embedding_grad_add");
    double ms = timed_execute(plan, data, upd, out, "embedding_grad_add");
    report("embedding_grad_add", plan, ms,
           2.0 * ROWS * DIM * 4 + (double)UPD * DIM * 4);
    sgk_plan_destroy(plan);
    free(data), free(out), free(upd), free(idx);
}

/* gather_embedding: [50000,256] f32 by 65536 rows. */
static void gather_embedding(void)
{
    enum { ROWS = 50000, DIM = 256, N = 65536 };
    int64_t dshape[] = {ROWS, DIM}, ishape[] = {N, 1};
    float *data = filled((size_t)ROWS * DIM * 4, 7), *out = malloc((size_t)N * DIM * 4);
    int32_t *idx = malloc(N * sizeof *idx);
    for (int n = 0; n < N; n++)
        idx[n] = (int32_t)(next_random() % ROWS);
    sgk_tensor d = {SGK_FLOAT32, 2, dshape, data}, i = {SGK_INT32, 2, ishape, idx};
    sgk_plan *plan;
    check(sgk_plan_gather_nd(&plan, &d, &i, 0, 0), "plan gather_embedding");
    double ms = timed_execute(plan, data, NULL, out, "gather_embedding");
    report("gather_embedding", plan, ms, 2.0 * N * DIM * 4);
    sgk_plan_destroy(plan);
    free(data), free(out), free(idx);
}

/* gather_batch1: [64,2048,128] by [64,512,1], batch_dims 1. */
static void gather_batch1(void)
{
    int64_t dshape[] = {64, 2048, 128}, ishape[] = {64, 512, 1};
    float *data = filled(64ull * 2048 * 128 * 4, 8), *out = malloc(64ull * 512 * 128 * 4);
    int64_t *idx = malloc(64 * 512 * sizeof *idx);
    for (int n = 0; n < 64 * 512; n++)
        idx[n] = (int64_t)(next_random() % 2048) - 1024; /* negative half the time */
    sgk_tensor d = {SGK_FLOAT32, 3, dshape, data}, i = {SGK_INT64, 3, ishape, idx};
    sgk_plan *plan;
    check(sgk_plan_gather_nd(&plan, &d, &i, 1, 0), "plan gather_batch1");
    double ms = timed_execute(plan, data, NULL, out, "gather_batch1");
    report("gather_batch1", plan, ms, 2.0 * 64 * 512 * 128 * 4);
    sgk_plan_destroy(plan);
    free(data), free(out), free(idx);
}

/* scatter_elements_add and gather_elements: [4096,4096] by [4096,1024]. */
static void elements(void)
{
    enum { R = 4096, C = 4096, K = 1024 };
    int64_t dshape[] = {R, C}, ishape[] = {R, K};
    float *data = filled((size_t)R * C * 4, 9), *out = malloc((size_t)R * C * 4);
    float *upd = filled((size_t)R * K * 4, 10);
    int64_t *idx = malloc((size_t)R * K * sizeof *idx);
    for (size_t n = 0; n < (size_t)R * K; n++)
        idx[n] = (int64_t)(next_random() % C);
    sgk_tensor d = {SGK_FLOAT32, 2, dshape, data}, i = {SGK_INT64, 2, ishape, idx},
               u = {SGK_FLOAT32, 2, ishape, upd};
    sgk_plan *plan;
    check(sgk_plan_scatter_elements(&plan, &d, &i, &u, 1, SGK_REDUCE_ADD, 0),
          "plan scatter_elements_add");
    double ms = timed_execute(plan, data, upd, out, "scatter_elements_add");
    report("scatter_elements_add", plan, ms,
           2.0 * R * C * 4 + (double)R * K * 12);
    sgk_plan_destroy(plan);

    check(sgk_plan_gather_elements(&plan, &d, &i, 1, 0), "plan gather_elements");
    ms = timed_execute(plan, data, NULL, out, "gather_elements");
    report("gather_elements", plan, ms, (double)R * K * 8);
    sgk_plan_destroy(plan);
    free(data), free(out), free(upd), free(idx);
}

int main(void)
{
    printf("%s\n\n", sgk_runtime_describe());
    kv_cache_token();
    embedding_grad_add();
    gather_embedding();
    gather_batch1();
    elements();
    return 0;
}
