/*
 * One randomized case of tests/test_random.c run through every route and
 * checked bit for bit against tests/support/reference.c: the one-shot call,
 * the one-shot call in place (scatters), and a plan executed on two
 * different data/updates pairs (plus once in place) after the caller's
 * copy of the indices has been overwritten.  Output buffers carry a guard
 * zone that must survive.  On a mismatch the case is printed (operator,
 * dtypes, reduction, shapes, seed, and the tensors when small) so that it
 * can be reproduced.
 *
 * Where the caller allowed reordering (SGK_DETERMINISTIC=0 for the one-shot
 * calls and flag-less plans, SGK_PLAN_ALLOW_REORDER for a plan), float
 * add/sub/mul are judged within the rounding bounds of
 * tests/support/tolerance.c and float max/min up to the sign of a zero and
 * the NaN payload; elements whose terms have no order-independent answer (a
 * partial sum that may overflow in some order, say) are then counted, not
 * judged.
 */
#ifndef SGK_TESTS_RANDOM_CASE_CHECKS_H
#define SGK_TESTS_RANDOM_CASE_CHECKS_H

#include <stdint.h>

#include "common.h"
#include "random_shapes.h"
#include "sgk.h"

enum { OP_SCATTER_ND, OP_GATHER_ND, OP_SCATTER_ELEMENTS, OP_GATHER_ELEMENTS };

typedef struct {
    int op;
    sgk_dtype dtype;
    sgk_reduction red;
    random_shapes shapes;
    void *data, *updates, *data2, *updates2; /* drawn by check_random_case */
    uint64_t seed;
    int threads;      /* sgk_set_num_threads before the calls; -1 leaves it */
    const char *test; /* which generator made it, for the report */
} random_case;

/* Draws the case's values (two data/updates pairs) from r, runs every
   route, reports what differs and frees the case's buffers. */
void check_random_case(random_case *c, tc_rng *r);

/* What the checks have seen in this process so far. */
typedef struct {
    long cases;
    int failures;
    int64_t unjudged_elements; /* reordered results with no order-free answer */
} random_case_counts;
random_case_counts random_cases_so_far(void);

#endif
