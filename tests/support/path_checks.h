/*
 * Running tests/test_paths.c's cases through the library and judging them.
 *
 * The process's environment decides which expectations apply, so the test
 * is run once per configuration (tests/test_reduce_paths.sh):
 *   SGK_REDUCE_PATH=sorted|atomic|serial: every scatter takes that path
 *     (sgk_plan_path, sgk_last_path: sorted-segment, atomic, serial) where
 *     it can serve, and a plan that cannot says it "fell back";
 *   SGK_DETERMINISTIC=0: float add/sub/mul (and max/min's zero signs and
 *     NaN payloads) may differ from the sequential loop by rounding, except
 *     in plans made with SGK_PLAN_DETERMINISTIC; no plan that must be exact
 *     may take the atomic path for them.
 * Results are compared with the reference bit for bit or, where the caller
 * allowed reordering, within the bounds of tests/support/tolerance.c.
 */
#ifndef SGK_TESTS_PATH_CHECKS_H
#define SGK_TESTS_PATH_CHECKS_H

#include <stdint.h>

#include "path_cases.h"
#include "sgk.h"

/* Reads SGK_REDUCE_PATH as the library does, and prints the configuration. */
void path_checks_read_environment(void);

/* The one-shot call, and the one-shot call in place: status, path taken,
   result. */
void check_one_shots(const path_case *c);
/* A plan with the given flags (data and updates NULL at plan time when
   `null_buffers`): its path, `runs` executions (identical bytes required
   where the plan must be exact), then one in place. */
void check_plan(const path_case *c, uint32_t flags, int runs, int null_buffers);

/* Plans c from a private copy of the indices, overwritten and freed before
   it returns. */
sgk_status path_case_plan(const path_case *c, uint32_t flags, int null_buffers, sgk_plan **plan);

/* Counts a failure of c on `route` and prints it (the first few); desc is
   the plan's description, or NULL. */
void path_case_fail(const path_case *c, const char *route, const char *desc, const char *fmt,
                    ...);

/* Failures counted, and the library calls made, in this process so far. */
int path_failures(void);
long path_executions(void);

#endif
