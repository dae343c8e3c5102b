/*
 * The one-shot operators, one module function per row of the registry's
 * SGK_OPERATOR_LIST, each with the Python signature and docstring of the
 * package's API (sgk.scatter_nd is _sgk.scatter_nd):
 *
 *   scatter_nd(data, indices, updates, reduction='none', out=None, *, dtype=None)
 *   ...
 *
 * Called with operands the library takes as they are (operands.h), a
 * function calls the library; otherwise, or with dtype, it hands its
 * bound arguments to the Python layer's general path,
 * general(op_name, *arguments), which converts them and calls
 *
 *   call_prepared(op_name, code, *operands, out)
 *
 * with the prepared arrays (operands in the registry row's order).
 */
#ifndef SGKPY_ONESHOT_H
#define SGKPY_ONESHOT_H

#include "common.h"

/* Parses the signatures, writes the docstrings and adds the functions to
   module; once, at import.  0, or -1 with an exception. */
int sgkpy_oneshot_add(PyObject *module);

/* Keeps the Python layer's general path (a callable); 0, or -1 with an
   exception. */
int sgkpy_set_general_path(PyObject *general);

#endif /* SGKPY_ONESHOT_H */
