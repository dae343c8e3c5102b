/*
 * The soak's random calls (tests/soak.c): any of the six operators, any
 * type, reduction and index type, small or large, with the output the
 * reference computes for it (tests/support/reference.c).  Shapes, indices
 * and values come from tests/support/random_shapes.c and random_values.c,
 * as test_random's do.  Nothing here calls cmocka, and the worker threads
 * each draw from their own generator.
 */
#ifndef SGK_TESTS_SOAK_CASES_H
#define SGK_TESTS_SOAK_CASES_H

#include "common.h"
#include "random_shapes.h"
#include "sgk.h"

enum { SCATTER_ND, GATHER_ND, SCATTER_ELEMENTS, GATHER_ELEMENTS, GATHER, TENSOR_SCATTER, OPS };
extern const char *const soak_op_names[OPS];

typedef struct {
    int op;
    sgk_dtype dtype;
    sgk_reduction red;
    random_shapes shapes; /* TensorScatter: data the cache, updates the update */
    void *data, *updates;
    void *expected;
} soak_case;

/* 1 for the operators that write into a copy of data. */
int soak_op_is_scatter(int op);

/* Draws a case with its inputs and expected output from r. */
void soak_case_generate(soak_case *c, tc_rng *r);
void soak_case_free(soak_case *c);

/* The one-shot call on data (which may be out: in place) into out. */
sgk_status soak_case_call(const soak_case *c, const void *data, void *out);
/* A plan of the case, made without data and updates. */
sgk_status soak_case_plan(const soak_case *c, sgk_plan **plan);

#endif
