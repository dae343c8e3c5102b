/*
 * The teeth of the reordered comparison (tests/support/tolerance.c), on
 * each of tests/test_paths.c's cases: it must accept the same updates
 * applied in other orders (bit for bit where the cell is order-free), and
 * must reject a result that misses the most effective update or applies it
 * twice.  Otherwise a reordering path could lose or double an update and
 * still pass.
 */
#ifndef SGK_TESTS_TOLERANCE_TEETH_H
#define SGK_TESTS_TOLERANCE_TEETH_H

#include "path_cases.h"

/* Checks c's comparison; a failure is counted by path_case_fail. */
void check_tolerance_teeth(const path_case *c);

/* What the checks have done in this process so far. */
typedef struct {
    long other_orders;       /* the same updates in other orders, compared */
    long perturbed;          /* results missing an update or doubling it, compared */
    long nothing_to_perturb; /* cases whose every update is the identity */
} teeth_counts;
teeth_counts tolerance_teeth_so_far(void);

#endif
