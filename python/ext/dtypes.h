/*
 * NumPy dtypes as sgk_dtype codes (sgk._sgk): the mapping built from the
 * registry at import, and the user-defined dtypes (ml_dtypes') the Python
 * layer names.
 */
#ifndef SGKPY_DTYPES_H
#define SGKPY_DTYPES_H

#include "common.h"

/* Builds the NumPy -> sgk_dtype mapping from the registry: each type
   NumPy knows by the registry's name, kind and size.  Once, at import;
   0, or -1 with an exception. */
int sgkpy_dtype_table_init(void);

/* The user-defined NumPy dtypes sgk has a type for, {dtype: sgk_dtype}
   (ml_dtypes.bfloat16), from the Python layer; replaces any before.  0,
   or -1 with an exception. */
int sgkpy_set_user_dtypes(PyObject *dtypes);

/* The sgk_dtype of an array's items, or -1 when sgk has no equivalent
   (including non-native byte order). */
int sgkpy_dtype_code(PyArrayObject *array);

#endif /* SGKPY_DTYPES_H */
