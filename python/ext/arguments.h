/*
 * Python signatures for the module's C functions: one binder takes a
 * vectorcall's positional and keyword arguments to a function's
 * parameters, as Python binds a def's, so that the operators' functions
 * (and Plan.execute) take the arguments a def would with no Python frame
 * in between.
 */
#ifndef SGKPY_ARGUMENTS_H
#define SGKPY_ARGUMENTS_H

#include "common.h"

/* The most parameters a signature has. */
#define SGKPY_MAX_SIGNATURE 12

typedef struct {
    const char *function; /* the function's name, for messages */
    int nparams;
    int npositional; /* the first npositional may come by position */
    PyObject *names[SGKPY_MAX_SIGNATURE];    /* interned */
    PyObject *defaults[SGKPY_MAX_SIGNATURE]; /* NULL: required */
} sgkpy_signature;

/* Parses text, a Python parameter list ("data, indices, axis=0, *,
   out=None": names, defaults that are literals, and a "*"), into sig,
   evaluating the defaults once.  sig keeps its references for the life of
   the process.  0, or -1 with an exception. */
int sgkpy_signature_parse(sgkpy_signature *sig, const char *function, const char *text);

/* Binds a vectorcall's arguments to sig: values[i] becomes parameter i's
   argument, or its default (borrowed references).  0, or -1 with a
   TypeError worded as Python words it. */
int sgkpy_bind(const sgkpy_signature *sig, PyObject *const *args, Py_ssize_t nargs,
               PyObject *kwnames, PyObject **values);

#endif /* SGKPY_ARGUMENTS_H */
