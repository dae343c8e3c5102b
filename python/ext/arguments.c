#include "arguments.h"

#include <string.h>

/* The literal text of a default, evaluated as Python evaluates it. */
static PyObject *evaluate(const char *literal)
{
    PyObject *globals = PyDict_New();
    if (globals == NULL)
        return NULL;
    PyObject *value = PyRun_String(literal, Py_eval_input, globals, globals);
    Py_DECREF(globals);
    return value;
}

static int parse_parameter(sgkpy_signature *sig, const char *start, size_t length)
{
    char item[128];
    if (length >= sizeof item || sig->nparams == SGKPY_MAX_SIGNATURE) {
        PyErr_Format(PyExc_SystemError, "%s: signature too long", sig->function);
        return -1;
    }
    memcpy(item, start, length);
    item[length] = '\0';
    if (strcmp(item, "*") == 0) {
        sig->npositional = sig->nparams;
        return 0;
    }
    char *equals = strchr(item, '=');
    PyObject *value = NULL;
    if (equals != NULL) {
        *equals = '\0';
        if ((value = evaluate(equals + 1)) == NULL)
            return -1;
    }
    PyObject *name = PyUnicode_InternFromString(item);
    if (name == NULL) {
        Py_XDECREF(value);
        return -1;
    }
    sig->names[sig->nparams] = name;
    sig->defaults[sig->nparams] = value;
    sig->nparams++;
    return 0;
}

int sgkpy_signature_parse(sgkpy_signature *sig, const char *function, const char *text)
{
    sig->function = function;
    sig->nparams = 0;
    sig->npositional = -1;
    for (const char *p = text; *p != '\0';) {
        size_t length = strcspn(p, ",");
        if (parse_parameter(sig, p, length) < 0)
            return -1;
        p += length;
        p += strspn(p, ", ");
    }
    if (sig->npositional < 0)
        sig->npositional = sig->nparams;
    return 0;
}

static int slot_of(const sgkpy_signature *sig, PyObject *key)
{
    for (int i = 0; i < sig->nparams; i++)
        if (key == sig->names[i]) /* keyword names are interned, as ours are */
            return i;
    for (int i = 0; i < sig->nparams; i++)
        if (PyUnicode_Compare(key, sig->names[i]) == 0)
            return i;
    return -1;
}

int sgkpy_bind(const sgkpy_signature *sig, PyObject *const *args, Py_ssize_t nargs,
               PyObject *kwnames, PyObject **values)
{
    if (nargs > sig->npositional) {
        PyErr_Format(PyExc_TypeError, "%s() takes %d positional arguments but %zd were given",
                     sig->function, sig->npositional, nargs);
        return -1;
    }
    for (int i = 0; i < sig->nparams; i++)
        values[i] = i < nargs ? args[i] : NULL;
    Py_ssize_t nkw = kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, k);
        int slot = slot_of(sig, key);
        if (slot < 0) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'",
                         sig->function, key);
            return -1;
        }
        if (values[slot] != NULL) {
            PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%U'",
                         sig->function, key);
            return -1;
        }
        values[slot] = args[nargs + k];
    }
    for (int i = 0; i < sig->nparams; i++) {
        if (values[i] != NULL)
            continue;
        if (sig->defaults[i] == NULL) {
            PyErr_Format(PyExc_TypeError, "%s() missing required argument '%U'", sig->function,
                         sig->names[i]);
            return -1;
        }
        values[i] = sig->defaults[i];
    }
    return 0;
}
