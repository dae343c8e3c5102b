/*
 * Small problems of every operator, for forcing every path on them
 * (tests/test_forced_paths.c): each built with random inputs, run through
 * sgk one-shot, planned and in place, and compared bit for bit with the
 * independent reference (tests/support/reference.c).  Nothing here calls cmocka.
 */
#ifndef SGK_TESTS_FORCED_CASES_H
#define SGK_TESTS_FORCED_CASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sgk.h"

typedef enum {
    FC_SCATTER_ND,
    FC_GATHER_ND,
    FC_SCATTER_ELEMENTS,
    FC_GATHER_ELEMENTS,
    FC_GATHER,
    FC_TENSOR_SCATTER
} fc_op;

/* A problem's operator and shapes; fc_run draws its values. */
typedef struct {
    fc_op op;
    sgk_dtype dtype, index_dtype;
    sgk_reduction reduction;
    int64_t attr;     /* axis (Elements, Gather, TensorScatter), batch_dims (GatherND) */
    int32_t data_rank, index_rank, update_rank;
    int64_t data_shape[4], index_shape[4], update_shape[4];
    int64_t out_elems;
    bool single;      /* each pair moves one element (slices of length 1) */
    bool spans;       /* Elements: indices as long as data beside the axis */
    bool sorted;      /* ScatterND: the index tuples in ascending order of slot */
} fc_case;

static inline bool fc_scatters(const fc_case *c)
{
    return c->op == FC_SCATTER_ND || c->op == FC_SCATTER_ELEMENTS || c->op == FC_TENSOR_SCATTER;
}

/* What one run of a case gave. */
typedef struct {
    const char *one_shot_path; /* sgk_last_path() after the one-shot call */
    const char *plan_path;     /* sgk_plan_path() of its plan */
    char plan_description[640];
    char failure[256];         /* "" when every result equals the reference */
} fc_outcome;

/* The problem kinds of one operator, for every dtype, reduction and index
   type given; returns how many were stored (at most max). */
int fc_cases(fc_op op, const sgk_dtype *dtypes, int ndtypes, fc_case *out, int max);

/* Runs c one-shot, planned and (scatters) in place on random inputs drawn
   from seed, checking each result against the reference. */
void fc_run(const fc_case *c, uint64_t seed, fc_outcome *o);

#endif
