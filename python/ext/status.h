/*
 * Failed calls become the package's own exceptions: the Python layer hands
 * the extension sgk.errors.error_for(status, message) once, so a status
 * raised here is the very SgkError subclass the Python code raises.
 */
#ifndef SGKPY_STATUS_H
#define SGKPY_STATUS_H

#include "common.h"

/* Keeps factory (a callable (status, message) -> exception); 0 on success. */
int sgkpy_set_error_factory(PyObject *factory);

/* Raises status's exception carrying message; returns NULL. */
PyObject *sgkpy_raise(sgk_status status, const char *message);

/* Raises status's exception carrying this thread's sgk_last_error(); call it
   right after the failed call, on the same thread.  Returns NULL. */
PyObject *sgkpy_raise_last(sgk_status status);

#endif /* SGKPY_STATUS_H */
