/*
 * Plans: the base type sgk.Plan derives from, holding the sgk_plan, and
 * the module functions that make one.
 *
 *   PlanBase.execute(data, updates=None, out=None)
 *       runs the plan when data, updates and out are exactly what it was
 *       planned for (PlanBase._expect); otherwise hands the call to the
 *       Python subclass's _execute_general(data, updates, out).
 *   PlanBase._execute_raw(data, updates, out)
 *       runs it on arrays the general path prepared (byte sizes checked).
 *   PlanBase._expect(dtype, code, data_shape, updates_shape, output_shape)
 *       what execute takes directly (dtype None: nothing, e.g. strings).
 *   PlanBase.close(), .closed, ._describe()
 *   plan_scatter_nd(plan, code, data_shape, indices, updates_code, updates_shape,
 *                   reduction, flags)
 *   plan_gather_nd(plan, code, data_shape, indices, batch_dims, flags)
 *   plan_scatter_elements(plan, code, data_shape, indices, updates_code,
 *                         updates_shape, axis, reduction, flags)
 *   plan_gather_elements(plan, code, data_shape, indices, axis, flags)
 *   plan_gather(plan, code, data_shape, indices, axis, flags)
 *   plan_tensor_scatter(plan, code, cache_shape, write_indices_or_None,
 *                       update_code, update_shape, axis, mode, flags)
 *
 * Thread-safety: execute may run from several threads at once (the GIL is
 * released around sgk_execute, as ctypes did).  close() while executions
 * are in flight retires the plan; the last of them destroys it.
 */
#ifndef SGKPY_PLAN_H
#define SGKPY_PLAN_H

#include "common.h"

extern PyTypeObject sgkpy_plan_type;
extern PyMethodDef sgkpy_plan_methods[];

#endif /* SGKPY_PLAN_H */
