/* What the workload files of sgk-bench share: deterministic inputs, the
   scatter and gather contexts with their calls, traffic formulas, checks
   and timing, and the workloads the suite (workloads.c) lists.

   workload_inputs.c   seeded generator, float fills, --scale
   workload_results.c  variant names, sibling results, planning notes
   workload_scatter.c  scatter calls, traffic, check, timing
   workload_gather.c   gather calls, traffic, check, timing
   workloads_kv_cache.c  kv_cache_token, tensor_scatter
   workloads_rows.c      slices of rows: embeddings, sorted rows, Gather ...
   workloads_elements.c  single elements: elementwise_*, *_elements*
   workloads_tiny.c      tiny: per-call overhead against a C loop */
#ifndef SGK_BENCH_WORKLOADS_H
#define SGK_BENCH_WORKLOADS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sgk.h"

#include "bench.h"

/* ---- deterministic inputs (workload_inputs.c) ---------------------------- */

typedef struct {
    uint64_t state;
} rng;

int64_t rng_below(rng *r, int64_t n);
double rng_unit(rng *r);
int64_t rng_coordinate(rng *r, int64_t dim, int negative_every);
/* count ids in [0, slots) following Zipf's law with exponent s (rank k,
   from 1, drawn with weight k^-s), the ranks shuffled over the slots so
   that the hot ids are scattered: embedding gradients, graph hubs. */
void zipf_ids(rng *r, int64_t *ids, int64_t count, int64_t slots, double s);
int64_t normalized(int64_t i, int64_t dim);
void fill_f32(float *p, size_t n, uint64_t seed);
void fill(void *p, sgk_dtype dtype, size_t n, uint64_t seed);
void poison(void *p, size_t bytes);
int64_t scaled(int64_t n, double scale);
double bytes_of(const sgk_tensor *t);

/* ---- results (workload_results.c) ----------------------------------------- */

long result_index(const bench_run *run, const bench_result *r);
const char *mode_name(bench_mode mode);
void note_planning(bench_run *run, bench_result *res, sgk_status (*build)(void *), void *ctx);

/* ---- scatters (workload_scatter.c) ---------------------------------------- */

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

double copying_scatter_traffic(const scatter_ctx *c);
double in_place_scatter_traffic(const scatter_ctx *c);
int scatter_plan_op(void *arg);
int scatter_oneshot_op(void *arg);
int check_scatter(void *arg, char *why, size_t why_size);
int plan_scatter(bench_run *run, const char *workload, scatter_ctx *c);
bench_result *time_scatter(bench_run *run, scatter_ctx *c, const char *workload,
                           const char *what, bench_mode mode, double traffic);

/* ---- gathers (workload_gather.c) ------------------------------------------ */

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

double gather_traffic(const gather_ctx *c);
int gather_plan_op(void *arg);
int gather_oneshot_op(void *arg);
int check_gather(void *arg, char *why, size_t why_size);
int plan_gather(bench_run *run, const char *workload, gather_ctx *c);
bench_result *time_gather(bench_run *run, gather_ctx *c, const char *workload,
                          const char *what, bench_mode mode);

/* ---- the workloads, one per entry of bench_workloads ---------------------- */

void kv_cache_token(bench_run *run);          /* workloads_kv_cache.c */
void tensor_scatter_workload(bench_run *run);
void ov_example5(bench_run *run);             /* workloads_rows.c */
void embedding_grad_add(bench_run *run);
void gather_rows_64b(bench_run *run);
void scatter_rows_512b_add(bench_run *run);
void sorted_rows_add(bench_run *run);
void sorted_rows_max(bench_run *run);
void gather_embedding(bench_run *run);
void gather_batch1(bench_run *run);
void gather_workload(bench_run *run);
void elementwise_add(bench_run *run);         /* workloads_elements.c */
void elementwise_max(bench_run *run);
void elementwise_add_i32(bench_run *run);
void dense_max_l3(bench_run *run);
void dense_max_l2(bench_run *run);
void scatter_elements_add(bench_run *run);
void scatter_elements_none(bench_run *run);
void gather_elements(bench_run *run);
void gather_elements_rows(bench_run *run);
void tiny(bench_run *run);                    /* workloads_tiny.c */

#endif
