/*
 * The one-shot operators: module functions taking the Python layer's
 * arguments in order, then the prepared call's code (operands.h):
 *
 *   scatter_nd(data, indices, updates, reduction, out[, code])
 *   gather_nd(data, indices, batch_dims, out[, code])
 *   scatter_elements(data, indices, updates, axis, reduction, out[, code])
 *   gather_elements(data, indices, axis, out[, code])
 *   gather(data, indices, axis, out[, code])
 *   tensor_scatter(past_cache, update, write_indices, axis, mode, out[, code])
 *
 * tensor_scatter's write_indices may be None (zeros); its mode is a name
 * when direct, an sgk_tensor_scatter_mode when prepared.
 *
 * Each returns the array written, or NotImplemented (operands.h).
 */
#ifndef SGKPY_ONESHOT_H
#define SGKPY_ONESHOT_H

#include "common.h"

extern PyMethodDef sgkpy_oneshot_methods[];

#endif /* SGKPY_ONESHOT_H */
