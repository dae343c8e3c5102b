#include "status.h"

/* sgk.errors.error_for; kept for the life of the process, like the
   module's other state (the extension is never unloaded). */
static PyObject *error_factory;

int sgkpy_set_error_factory(PyObject *factory)
{
    if (!PyCallable_Check(factory)) {
        PyErr_SetString(PyExc_TypeError, "the error factory must be callable");
        return -1;
    }
    Py_INCREF(factory);
    Py_XSETREF(error_factory, factory);
    return 0;
}

PyObject *sgkpy_raise(sgk_status status, const char *message)
{
    if (error_factory == NULL) {
        PyErr_Format(PyExc_RuntimeError, "%s: %s", sgk_status_name(status), message);
        return NULL;
    }
    PyObject *exc = PyObject_CallFunction(error_factory, "iN", (int)status,
                                          PyUnicode_DecodeUTF8(message, (Py_ssize_t)strlen(message),
                                                               "replace"));
    if (exc == NULL)
        return NULL;
    PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
    Py_DECREF(exc);
    return NULL;
}

PyObject *sgkpy_raise_last(sgk_status status)
{
    const char *detail = sgk_last_error();
    return sgkpy_raise(status, detail != NULL ? detail : "");
}
