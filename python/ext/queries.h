/*
 * What the library knows and says of itself, for the Python layer: the
 * registry's types, reductions and statuses (by code, from sgk.h's
 * queries), names to codes, the runtime, the output shapes, which libsgk
 * is loaded and whether its version serves this module.  Module functions:
 *
 *   dtype_table()                 ((name, size, flags), ...) by code
 *   reduction_names()             (name, ...) by code
 *   status_names()                (name, ...) by code
 *   reduction_from_name(name)     the code; InvalidArgumentError if unknown
 *   reduction_flags(dtype, reduction)   SGK_CELL_* bits
 *   tensor_scatter_mode_from_name(name) the code; InvalidArgumentError
 *   output_shape(op_name, data_shape, indices_shape, attribute)
 *   version(), runtime_describe(), set_num_threads(n), library_path()
 *   check_version(major, minor)   ImportError unless the library serves it
 */
#ifndef SGKPY_QUERIES_H
#define SGKPY_QUERIES_H

#include "common.h"

extern PyMethodDef sgkpy_query_methods[];

/* sgk_check_version(major, minor), as ImportError carrying
   sgk_last_error() when the library loaded does not serve headers of
   that version.  0, or -1 with the exception. */
int sgkpy_check_version(int major, int minor);

/* The registry's constants (flags, modes) as module constants.  0, or -1
   with an exception. */
int sgkpy_add_constants(PyObject *module);

#endif /* SGKPY_QUERIES_H */
