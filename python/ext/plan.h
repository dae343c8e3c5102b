/*
 * Plans: the base type sgk.Plan derives from, holding the sgk_plan.
 *
 *   PlanBase._plan(op_name, code, updates_code, dtype, flags, *operands)
 *       plans the operator (operands in its registry row's order, data
 *       and updates given by their shapes); dtype is the NumPy dtype
 *       execute then takes directly (None: nothing, e.g. strings).
 *   PlanBase.execute(data, updates=None, out=None)
 *       runs the plan when data, updates and out are exactly what it was
 *       planned for; otherwise hands the call to the Python subclass's
 *       _execute_general(data, updates, out).
 *   PlanBase._execute_raw(data, updates, out, code)
 *       runs it on arrays the general path prepared, checked against the
 *       planned type and shapes (InvalidArgumentError saying what differs).
 *   PlanBase.close(), .closed, .describe(), .output_shape
 *
 * Thread-safety: execute may run from several threads at once (the GIL is
 * released around sgk_execute).  close() while executions are in flight
 * retires the plan; the last of them destroys it.
 */
#ifndef SGKPY_PLAN_H
#define SGKPY_PLAN_H

#include "common.h"

extern PyTypeObject sgkpy_plan_type;

/* Readies the type; once, at import.  0, or -1 with an exception. */
int sgkpy_plan_type_ready(void);

#endif /* SGKPY_PLAN_H */
