/*
 * A fixed set of calls, one or more per operator, each large enough that
 * sgk runs it in parallel at two threads or more, with its result from the
 * independent reference (tests/support/reference.c).  For the tests that run sgk in
 * a server's conditions: after fork(), on a host's thread pool.  Nothing
 * here calls cmocka: forked children and pool threads use it too.
 */
#ifndef SGK_TESTS_OP_CASES_H
#define SGK_TESTS_OP_CASES_H

#include <stddef.h>
#include <stdint.h>

#include "sgk.h"

typedef enum { OP_SCATTER_ND, OP_GATHER_ND, OP_SCATTER_ELEMENTS, OP_GATHER_ELEMENTS } op_kind;

typedef struct {
    const char *name;
    op_kind op;
    sgk_reduction reduction;
    int64_t axis;       /* Elements: the axis; GatherND: batch_dims */
    sgk_tensor data, indices, updates;
    int64_t data_shape[3], index_shape[3], update_shape[3];
    size_t out_bytes;
    void *expected;     /* the reference's output */
} op_case;

/* The cases, their inputs drawn from a fixed seed; *count receives how many.
   NULL when memory is short. */
op_case *op_cases_make(int *count);
void op_cases_free(op_case *cases, int count);

/* Runs c into out (c->out_bytes): one-shot, or through a plan made and
   executed once. */
sgk_status op_case_run(const op_case *c, int planned, void *out);

/* Runs c into a fresh buffer and compares it with the reference, bit for
   bit: 0 when equal, else -1 with what went wrong in msg. */
int op_case_check(const op_case *c, int planned, char *msg, size_t size);

/* Every case, one-shot and planned: 0 when all match, else -1 with the
   first failure in msg. */
int op_cases_check_all(const op_case *cases, int count, char *msg, size_t size);

#endif
