/* sgk-bench's tiny workloads (bench/workloads_tiny.c), one form at a
   time, for bench/tiny-callgrind: each operator on [16, 16] float32 as a
   one-shot call, as sgk_execute of a reused plan, and as the plain C loop
   sgk-bench times beside them (the same loops, the same shapes and
   indices).  Each form runs `reps` times inside a function of its own,
   measure_<operator>_<form>, after one untimed call has read the
   configuration and the topology; callgrind counts the instructions
   inside those functions only (--toggle-collect=measure_*).

   usage: tiny-calls [reps]  (default 1000) */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sgk.h"

#include "tiny_loops.h"

enum { K = 4 };

typedef struct {
    sgk_tensor data, indices, updates;
    sgk_reduction reduction;
    bool elements;
    bool take;           /* Gather */
    bool tensor_scatter; /* TensorScatter: indices are the write indices */
    int64_t count;
    sgk_plan *plan;
    float *output;
} tiny_case;

static float data[TINY * TINY], upd[TINY * TINY], out[TINY * TINY];

/* Keeps the compiler from dropping or merging the repeated calls. */
#define OPAQUE(p) __asm__ volatile("" : : "r"(p) : "memory")

/* ---- the C loops (tiny_loops.h), as sgk-bench times them ------------------ */

static __attribute__((noipa)) int scatter_nd_loop(const tiny_case *c)
{
    tiny_scatter_nd(c->output, c->data.data, c->indices.data, upd, c->count, c->reduction);
    return 0;
}

static __attribute__((noipa)) int scatter_elements_loop(const tiny_case *c)
{
    tiny_scatter_elements(c->output, c->data.data, c->indices.data, upd, K);
    return 0;
}

static __attribute__((noipa)) int gather_nd_loop(const tiny_case *c)
{
    tiny_gather_nd(c->output, c->data.data, c->indices.data, c->count);
    return 0;
}

static __attribute__((noipa)) int tensor_scatter_loop(const tiny_case *c)
{
    tiny_tensor_scatter(c->output, c->data.data, upd, TS_FIRST, TS_ROWS);
    return 0;
}

static __attribute__((noipa)) int gather_elements_loop(const tiny_case *c)
{
    tiny_gather_elements(c->output, c->data.data, c->indices.data, K);
    return 0;
}

/* ---- sgk's two forms ----------------------------------------------------- */

static int scatter_oneshot(const tiny_case *c)
{
    if (c->tensor_scatter)
        return (int)sgk_tensor_scatter(&c->data, &c->updates, &c->indices, 1,
                                       SGK_TENSOR_SCATTER_LINEAR, c->output);
    if (c->elements)
        return (int)sgk_scatter_elements(&c->data, &c->indices, &c->updates, 1, c->reduction,
                                         c->output);
    return (int)sgk_scatter_nd(&c->data, &c->indices, &c->updates, c->reduction, c->output);
}

static int gather_oneshot(const tiny_case *c)
{
    if (c->take)
        return (int)sgk_gather(&c->data, &c->indices, 0, c->output);
    if (c->elements)
        return (int)sgk_gather_elements(&c->data, &c->indices, 1, c->output);
    return (int)sgk_gather_nd(&c->data, &c->indices, 0, c->output);
}

static int scatter_plan(const tiny_case *c)
{
    return (int)sgk_execute(c->plan, c->data.data, c->updates.data, c->output);
}

static int gather_plan(const tiny_case *c)
{
    return (int)sgk_execute(c->plan, c->data.data, NULL, c->output);
}

/* measure_<name>: fn on c, reps times. */
#define MEASURE(name, fn)                                                               \
    static __attribute__((noipa)) int measure_##name(const tiny_case *c, int reps)  \
    {                                                                                  \
        int failed = 0;                                                                \
        for (int r = 0; r < reps; r++) {                                               \
            OPAQUE(c);                                                                 \
            failed |= fn(c);                                                           \
        }                                                                              \
        return failed;                                                                 \
    }

MEASURE(scatter_nd_none_oneshot, scatter_oneshot)
MEASURE(scatter_nd_none_plan, scatter_plan)
MEASURE(scatter_nd_none_loop, scatter_nd_loop)
MEASURE(scatter_nd_add_oneshot, scatter_oneshot)
MEASURE(scatter_nd_add_plan, scatter_plan)
MEASURE(scatter_nd_add_loop, scatter_nd_loop)
MEASURE(gather_nd_oneshot, gather_oneshot)
MEASURE(gather_nd_plan, gather_plan)
MEASURE(gather_nd_loop, gather_nd_loop)
MEASURE(gather_oneshot, gather_oneshot)
MEASURE(gather_plan, gather_plan)
MEASURE(gather_loop, gather_nd_loop)
MEASURE(tensor_scatter_oneshot, scatter_oneshot)
MEASURE(tensor_scatter_plan, scatter_plan)
MEASURE(tensor_scatter_loop, tensor_scatter_loop)
MEASURE(scatter_elements_add_oneshot, scatter_oneshot)
MEASURE(scatter_elements_add_plan, scatter_plan)
MEASURE(scatter_elements_add_loop, scatter_elements_loop)
MEASURE(gather_elements_oneshot, gather_oneshot)
MEASURE(gather_elements_plan, gather_plan)
MEASURE(gather_elements_loop, gather_elements_loop)

typedef int (*measure_fn)(const tiny_case *c, int reps);

/* One uncounted call of each form first (outside the measure_ functions):
   the configuration, the topology and the thread's one-shot buffers are
   set up once per process. */
static int run(const char *name, const tiny_case *c, measure_fn forms[3], int reps)
{
    int failed = c->updates.data != NULL ? scatter_oneshot(c) | scatter_plan(c)
                                         : gather_oneshot(c) | gather_plan(c);
    for (int f = 0; f < 3; f++)
        failed |= forms[f](c, reps);
    if (failed)
        fprintf(stderr, "tiny-calls: %s failed: %s\n", name, sgk_last_error());
    return failed;
}

static uint64_t mix64(uint64_t x) /* bench/workload_inputs.c's generator */
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

int main(int argc, char **argv)
{
    const int reps = argc > 1 ? atoi(argv[1]) : 1000;
    int64_t dshape[] = {TINY, TINY};
    for (int i = 0; i < TINY * TINY; i++) {
        data[i] = (float)(i % 97) * 0.25f;
        upd[i] = (float)(i % 89) * 0.5f;
    }
    int failed = 0;

    /* ScatterND none: 4 distinct rows; add: 8 rows, row 1 three times. */
    int64_t rows_none[] = {3, 7, 12, 0}, rows_add[] = {1, 5, 1, 9, 5, 1, 14, 2};
    int64_t ishape_none[] = {4, 1}, ushape_none[] = {4, TINY};
    int64_t ishape_add[] = {8, 1}, ushape_add[] = {8, TINY};
    for (int pass = 0; pass < 2; pass++) {
        const bool add = pass == 1;
        tiny_case c = {
            .data = {SGK_FLOAT32, 2, dshape, data},
            .indices = {SGK_INT64, 2, add ? ishape_add : ishape_none, add ? rows_add : rows_none},
            .updates = {SGK_FLOAT32, 2, add ? ushape_add : ushape_none, upd},
            .reduction = add ? SGK_REDUCE_ADD : SGK_REDUCE_NONE,
            .count = add ? 8 : 4,
            .output = out,
        };
        failed |= sgk_plan_scatter_nd(&c.plan, &c.data, &c.indices, &c.updates, c.reduction, 0);
        measure_fn none[3] = {measure_scatter_nd_none_oneshot, measure_scatter_nd_none_plan,
                              measure_scatter_nd_none_loop};
        measure_fn sum[3] = {measure_scatter_nd_add_oneshot, measure_scatter_nd_add_plan,
                             measure_scatter_nd_add_loop};
        failed |= run(add ? "scatter_nd add" : "scatter_nd none", &c, add ? sum : none, reps);
        sgk_plan_destroy(c.plan);
    }

    /* GatherND: 8 rows, one repeated. */
    int64_t rows_gather[] = {15, 2, 8, 2, 0, 11, 6, 9}, ishape_gather[] = {8, 1};
    tiny_case g = {
        .data = {SGK_FLOAT32, 2, dshape, data},
        .indices = {SGK_INT64, 2, ishape_gather, rows_gather},
        .count = 8,
        .output = out,
    };
    failed |= sgk_plan_gather_nd(&g.plan, &g.data, &g.indices, 0, 0);
    measure_fn gnd[3] = {measure_gather_nd_oneshot, measure_gather_nd_plan, measure_gather_nd_loop};
    failed |= run("gather_nd", &g, gnd, reps);
    sgk_plan_destroy(g.plan);

    /* Gather along axis 0 (an embedding lookup): the same 8 rows. */
    int64_t ishape_take[] = {8};
    tiny_case take = g;
    take.take = true;
    take.indices = (sgk_tensor){SGK_INT64, 1, ishape_take, rows_gather};
    failed |= sgk_plan_gather(&take.plan, &take.data, &take.indices, 0, 0);
    measure_fn gat[3] = {measure_gather_oneshot, measure_gather_plan, measure_gather_loop};
    failed |= run("gather", &take, gat, reps);
    sgk_plan_destroy(take.plan);

    /* TensorScatter of one sequence of 16 positions (the data as [1, 16,
       16]): 4 new rows from write index TS_FIRST, linear. */
    int64_t cshape[] = {1, TINY, TINY}, tshape[] = {1, TS_ROWS, TINY}, wshape[] = {1};
    int64_t write[] = {TS_FIRST};
    tiny_case ts = {
        .data = {SGK_FLOAT32, 3, cshape, data},
        .indices = {SGK_INT64, 1, wshape, write},
        .updates = {SGK_FLOAT32, 3, tshape, upd},
        .tensor_scatter = true,
        .output = out,
    };
    failed |= sgk_plan_tensor_scatter(&ts.plan, &ts.data, &ts.updates, &ts.indices, 1,
                                      SGK_TENSOR_SCATTER_LINEAR, 0);
    measure_fn tsc[3] = {measure_tensor_scatter_oneshot, measure_tensor_scatter_plan,
                         measure_tensor_scatter_loop};
    failed |= run("tensor_scatter", &ts, tsc, reps);
    sgk_plan_destroy(ts.plan);

    /* Scatter/GatherElements along axis 1: 4 columns per row, some repeated. */
    static int64_t cols[TINY * K];
    int64_t eshape[] = {TINY, K};
    uint64_t state = 113;
    for (int64_t n = 0; n < TINY * K; n++) {
        state += 0x9e3779b97f4a7c15ull;
        cols[n] = (int64_t)(mix64(state) % TINY);
    }
    tiny_case se = {
        .data = {SGK_FLOAT32, 2, dshape, data},
        .indices = {SGK_INT64, 2, eshape, cols},
        .updates = {SGK_FLOAT32, 2, eshape, upd},
        .reduction = SGK_REDUCE_ADD,
        .elements = true,
        .count = TINY * K,
        .output = out,
    };
    failed |= sgk_plan_scatter_elements(&se.plan, &se.data, &se.indices, &se.updates, 1,
                                        se.reduction, 0);
    measure_fn sel[3] = {measure_scatter_elements_add_oneshot, measure_scatter_elements_add_plan,
                         measure_scatter_elements_add_loop};
    failed |= run("scatter_elements add", &se, sel, reps);
    sgk_plan_destroy(se.plan);

    tiny_case ge = {
        .data = {SGK_FLOAT32, 2, dshape, data},
        .indices = {SGK_INT64, 2, eshape, cols},
        .elements = true,
        .count = TINY * K,
        .output = out,
    };
    failed |= sgk_plan_gather_elements(&ge.plan, &ge.data, &ge.indices, 1, 0);
    measure_fn gel[3] = {measure_gather_elements_oneshot, measure_gather_elements_plan,
                         measure_gather_elements_loop};
    failed |= run("gather_elements", &ge, gel, reps);
    sgk_plan_destroy(ge.plan);

    printf("tiny-calls: %d calls of each form%s\n", reps, failed ? ", some failed" : "");
    return failed ? 1 : 0;
}
