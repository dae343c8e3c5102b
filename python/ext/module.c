/*
 * sgk._sgk: the calls of the sgk package whose cost is per call (the
 * one-shot operators, planning and Plan.execute) over libsgk's public C
 * API, so that a tiny operation costs about a microsecond of Python
 * overhead instead of ctypes' five to seven.  The Python layer (sgk/) keeps
 * everything else: the general path for arguments the extension declines,
 * the dtypes, strings, and finding libsgk (loaded before this module, whose
 * dependency on libsgk.so.0 then resolves to the very library loaded).
 *
 * Adding an operator: its one-shot function in oneshot.c and its plan
 * function in plan.c, each with a line in that file's method table.
 */
#define SGKPY_IMPORTS_NUMPY
#include "common.h"

#include "oneshot.h"
#include "operands.h"
#include "plan.h"
#include "status.h"

/* _setup(error_for, bfloat16_dtype_or_None): what the extension needs
   from the Python layer, handed over once at import. */
static PyObject *setup(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *factory, *bfloat16;
    if (!PyArg_ParseTuple(args, "OO:_setup", &factory, &bfloat16))
        return NULL;
    if (bfloat16 != Py_None && !PyArray_DescrCheck(bfloat16))
        return PyErr_Format(PyExc_TypeError, "_setup: bfloat16 must be a NumPy dtype or None");
    if (sgkpy_set_error_factory(factory) < 0)
        return NULL;
    sgkpy_bfloat16_type_num = bfloat16 == Py_None ? -1 : ((PyArray_Descr *)bfloat16)->type_num;
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"_setup", setup, METH_VARARGS, "_setup(error_for, bfloat16_dtype_or_None)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "sgk._sgk",
    .m_doc = "libsgk's per-call entry points for the sgk package (see sgk/__init__.py).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__sgk(void); /* the one exported symbol */

PyMODINIT_FUNC PyInit__sgk(void)
{
    import_array();
    if (PyType_Ready(&sgkpy_plan_type) < 0)
        return NULL;
    PyObject *module = PyModule_Create(&module_def);
    if (module == NULL)
        return NULL;
    Py_INCREF(&sgkpy_plan_type);
    if (PyModule_AddFunctions(module, sgkpy_oneshot_methods) < 0
        || PyModule_AddFunctions(module, sgkpy_plan_methods) < 0
        || PyModule_AddObject(module, "PlanBase", (PyObject *)&sgkpy_plan_type) < 0) {
        Py_DECREF(&sgkpy_plan_type);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
