/* What a plan holds: the planner's decisions, read-only once built. */
#ifndef SGK_PLAN_H
#define SGK_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "problem.h"
#include "reduce.h"

typedef enum {
    /* Gathers: output row n = source slot slot[n]; rows in parallel. */
    SGK_PATH_GATHER,
    /* Scatters whose pairs have distinct slots (for `none`, after keeping
       each slot's last update): pairs in parallel, any order. */
    SGK_PATH_DISTINCT,
    /* The sequential definition, one pair after another. */
    SGK_PATH_SERIAL,
    /* fp16/bf16 add/sub/mul under SGK_PLAN_WIDE_ACCUMULATE: the sequential
       loop in a float32 accumulator, rounded once per element at the end. */
    SGK_PATH_SERIAL_WIDE
} sgk_path;

struct sgk_plan {
    const char *op;
    bool scatter;
    sgk_dtype dtype;
    size_t elem_size;
    sgk_reduction reduction;
    int64_t data_elems, updates_elems, output_elems;
    int64_t slice_len;
    int64_t slots;
    int64_t count;      /* pairs kept */
    int64_t *slot;      /* count entries */
    int64_t *position;  /* update slice of pair n; NULL means n */
    sgk_path path;
    int threads;
    int64_t parallel_min_bytes;
    sgk_reduce_fn reduce;            /* NULL for `none` */
    sgk_widen_reduce_fn widen_reduce; /* SGK_PATH_SERIAL_WIDE only */
    char description[320];
};

/* Builds a plan for p: maps and validates every index, analyses duplicates,
   chooses the path.  On failure *out is left untouched. */
sgk_status sgk_plan_build(const sgk_problem *p, sgk_plan **out);

/* sgk_execute with `caller` naming the failing call in messages (the
   operator's name for one-shot calls). */
sgk_status sgk_execute_for(const char *caller, const sgk_plan *plan, const void *data,
                           const void *updates, void *output);

#endif
