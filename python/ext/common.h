/*
 * What every file of sgk's extension module (sgk._sgk) includes: Python,
 * NumPy's C API, and sgk's public header through the library's registry,
 * whose operator rows the extension's calls are generated from.  NumPy's API table is imported
 * once, by module.c (the one file that defines SGKPY_IMPORTS_NUMPY); the
 * other files share it through PY_ARRAY_UNIQUE_SYMBOL.
 */
#ifndef SGKPY_COMMON_H
#define SGKPY_COMMON_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL sgkpy_numpy_api
#ifndef SGKPY_IMPORTS_NUMPY
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>

#include "registry/registry.h" /* sgk.h, and the operators' rows */

#endif /* SGKPY_COMMON_H */
