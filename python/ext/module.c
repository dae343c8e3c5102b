/*
 * sgk._sgk: the sgk package's way into libsgk, over its public C API and
 * the registry's operator rows: the operators (oneshot.c), plans
 * (plan.c), and what the library says of itself (queries.c).  The Python
 * layer (sgk/) keeps the general path for arguments the extension
 * declines (conversions, strings, reinterpreted bits) and the package's
 * classes.
 *
 * The module links libsgk.so.0 and finds it through its run path (the
 * package's own copy, or the build tree's); it refuses to load over a
 * libsgk that does not serve the sgk.h it was built with.
 *
 * Adding an operator: its row in the registry (SGK_OPERATOR_LIST) and its
 * Python signature and summary in oneshot.c.
 */
#define SGKPY_IMPORTS_NUMPY
#include "common.h"

#include "oneshot.h"
#include "operands.h"
#include "plan.h"
#include "queries.h"
#include "status.h"

/* _setup(error_for, user_dtypes, general): what the extension needs from
   the Python layer, once at import: the exception factory, the
   user-defined NumPy dtypes sgk has a type for ({dtype: code}, e.g.
   ml_dtypes.bfloat16), and the one-shot operators' general path. */
static PyObject *setup(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *factory, *user_dtypes, *general;
    if (!PyArg_ParseTuple(args, "OO!O:_setup", &factory, &PyDict_Type, &user_dtypes, &general))
        return NULL;
    if (sgkpy_set_error_factory(factory) < 0 || sgkpy_set_general_path(general) < 0
        || sgkpy_set_user_dtypes(user_dtypes) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"_setup", setup, METH_VARARGS, "_setup(error_for, user_dtypes, general)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "sgk._sgk",
    .m_doc = "libsgk for the sgk package (see sgk/__init__.py).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__sgk(void); /* the one exported symbol */

PyMODINIT_FUNC PyInit__sgk(void)
{
    if (sgkpy_check_version(SGK_VERSION_MAJOR, SGK_VERSION_MINOR) < 0)
        return NULL;
    import_array();
    if (sgkpy_dtype_table_init() < 0 || sgkpy_plan_type_ready() < 0)
        return NULL;
    PyObject *module = PyModule_Create(&module_def);
    if (module == NULL)
        return NULL;
    Py_INCREF(&sgkpy_plan_type);
    if (sgkpy_oneshot_add(module) < 0 || PyModule_AddFunctions(module, sgkpy_query_methods) < 0
        || sgkpy_add_constants(module) < 0
        || PyModule_AddObject(module, "PlanBase", (PyObject *)&sgkpy_plan_type) < 0) {
        Py_DECREF(&sgkpy_plan_type);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
