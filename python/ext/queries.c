#define _GNU_SOURCE /* dladdr */
#include "queries.h"

#include <dlfcn.h>
#include <string.h>

#include "operators.h"
#include "status.h"

static PyObject *text(const char *s)
{
    return PyUnicode_DecodeUTF8(s != NULL ? s : "", s != NULL ? (Py_ssize_t)strlen(s) : 0,
                                "replace");
}

/* A tuple of one item per code, made by item(code). */
static PyObject *by_code(int count, PyObject *(*item)(int code))
{
    PyObject *tuple = PyTuple_New(count);
    for (int code = 0; tuple != NULL && code < count; code++) {
        PyObject *x = item(code);
        if (x == NULL)
            Py_CLEAR(tuple);
        else
            PyTuple_SET_ITEM(tuple, code, x);
    }
    return tuple;
}

static PyObject *dtype_row(int code)
{
    sgk_dtype dtype = (sgk_dtype)code;
    return Py_BuildValue("(snk)", sgk_dtype_name(dtype), (Py_ssize_t)sgk_dtype_size(dtype),
                         (unsigned long)sgk_dtype_flags(dtype));
}

static PyObject *reduction_name(int code)
{
    return text(sgk_reduction_name((sgk_reduction)code));
}

static PyObject *status_name_of(int code)
{
    return text(sgk_status_name((sgk_status)code));
}

static PyObject *dtype_table(PyObject *module, PyObject *unused)
{
    (void)module, (void)unused;
    return by_code(sgk_dtype_count(), dtype_row);
}

static PyObject *reduction_names(PyObject *module, PyObject *unused)
{
    (void)module, (void)unused;
    return by_code(sgk_reduction_count(), reduction_name);
}

static PyObject *status_names(PyObject *module, PyObject *unused)
{
    (void)module, (void)unused;
    return by_code(sgk_status_count(), status_name_of);
}

static PyObject *status_name(PyObject *module, PyObject *arg)
{
    (void)module;
    long code = PyLong_AsLong(arg);
    if (code == -1 && PyErr_Occurred())
        return NULL;
    return status_name_of((int)code);
}

/* name -> code through one of the library's *_from_name queries. */
static PyObject *from_name(PyObject *arg, sgk_status (*query)(const char *, int *))
{
    const char *name = PyUnicode_Check(arg) ? PyUnicode_AsUTF8(arg) : NULL;
    if (name == NULL) {
        PyErr_Clear();
        return sgkpy_raise(SGK_ERR_INVALID_ARGUMENT, "a name must be a str");
    }
    int code;
    sgk_status status = query(name, &code);
    return status == SGK_OK ? PyLong_FromLong(code) : sgkpy_raise_last(status);
}

static sgk_status reduction_query(const char *name, int *code)
{
    sgk_reduction r;
    sgk_status status = sgk_reduction_from_name(name, &r);
    *code = (int)r;
    return status;
}

static sgk_status mode_query(const char *name, int *code)
{
    sgk_tensor_scatter_mode m;
    sgk_status status = sgk_tensor_scatter_mode_from_name(name, &m);
    *code = (int)m;
    return status;
}

static PyObject *reduction_from_name(PyObject *module, PyObject *arg)
{
    (void)module;
    return from_name(arg, reduction_query);
}

static PyObject *tensor_scatter_mode_from_name(PyObject *module, PyObject *arg)
{
    (void)module;
    return from_name(arg, mode_query);
}

static PyObject *reduction_flags(PyObject *module, PyObject *args)
{
    (void)module;
    int dtype, reduction;
    if (!PyArg_ParseTuple(args, "ii:reduction_flags", &dtype, &reduction))
        return NULL;
    return PyLong_FromUnsignedLong(sgk_reduction_flags((sgk_dtype)dtype,
                                                       (sgk_reduction)reduction));
}

static PyObject *output_shape(PyObject *module, PyObject *args)
{
    (void)module;
    const char *name;
    PyObject *data_shape, *indices_shape;
    long long attribute;
    if (!PyArg_ParseTuple(args, "sOOL:output_shape", &name, &data_shape, &indices_shape,
                          &attribute))
        return NULL;
    const sgkpy_operator *op = sgkpy_operator_named(name);
    if (op == NULL)
        return PyErr_Format(PyExc_ValueError, "output_shape: no operator %s", name);
    /* The shapes only: the type is any the operators take. */
    sgkpy_operands o = {.axis = attribute, .has_indices = true};
    if (sgkpy_shape_tensor(SGK_FLOAT32, data_shape, &o.data) < 0
        || sgkpy_shape_tensor(SGK_INT64, indices_shape, &o.indices) < 0)
        return NULL;
    int64_t shape[2 * SGK_MAX_RANK];
    int32_t rank;
    sgk_status status = op->output_shape(&o, shape, &rank);
    if (status != SGK_OK)
        return sgkpy_raise_last(status);
    return sgkpy_shape_tuple(rank, shape);
}

static PyObject *operator_row(int index)
{
    const sgkpy_operator *op = &sgkpy_operators[index];
    PyObject *kinds = PyTuple_New(op->nparams);
    for (int i = 0; kinds != NULL && i < op->nparams; i++) {
        PyObject *kind = PyUnicode_FromString(sgkpy_kind_name(op->params[i]));
        if (kind == NULL)
            Py_CLEAR(kinds);
        else
            PyTuple_SET_ITEM(kinds, i, kind);
    }
    return kinds != NULL ? Py_BuildValue("(sN)", op->name, kinds) : NULL;
}

static PyObject *operator_table(PyObject *module, PyObject *unused)
{
    (void)module, (void)unused;
    return by_code(SGKPY_OPERATOR_COUNT, operator_row);
}

static PyObject *version(PyObject *module, PyObject *unused)
{
    (void)module, (void)unused;
    return text(sgk_version());
}

static PyObject *runtime_describe(PyObject *module, PyObject *unused)
{
    (void)module, (void)unused;
    return text(sgk_runtime_describe());
}

static PyObject *set_num_threads(PyObject *module, PyObject *arg)
{
    (void)module;
    long n = PyLong_AsLong(arg);
    if (n == -1 && PyErr_Occurred())
        return NULL;
    sgk_status status = n < INT_MIN || n > INT_MAX ? SGK_ERR_INVALID_ARGUMENT
                                                  : sgk_set_num_threads((int)n);
    if (status != SGK_OK)
        return n < INT_MIN || n > INT_MAX
                   ? sgkpy_raise(status, "set_num_threads: out of range")
                   : sgkpy_raise_last(status);
    Py_RETURN_NONE;
}

/* The file the dynamic loader took libsgk from: whatever this module's
   run path, LD_LIBRARY_PATH or LD_PRELOAD made it. */
static PyObject *library_path(PyObject *module, PyObject *unused)
{
    (void)module, (void)unused;
    Dl_info info;
    if (dladdr((void *)sgk_version, &info) == 0 || info.dli_fname == NULL)
        return PyErr_Format(PyExc_OSError, "dladdr could not name the file of libsgk");
    return PyUnicode_DecodeFSDefault(info.dli_fname);
}

int sgkpy_check_version(int major, int minor)
{
    if (sgk_check_version(major, minor) == SGK_OK)
        return 0;
    PyErr_Format(PyExc_ImportError, "sgk._sgk was built for libsgk %d.%d, which the libsgk "
                 "loaded does not serve: %s", major, minor, sgk_last_error());
    return -1;
}

static PyObject *check_version(PyObject *module, PyObject *args)
{
    (void)module;
    int major, minor;
    if (!PyArg_ParseTuple(args, "ii:check_version", &major, &minor)
        || sgkpy_check_version(major, minor) < 0)
        return NULL;
    Py_RETURN_NONE;
}

PyMethodDef sgkpy_query_methods[] = {
    {"dtype_table", dtype_table, METH_NOARGS, "((name, size, flags), ...) by sgk_dtype code"},
    {"reduction_names", reduction_names, METH_NOARGS, "reduction names by code"},
    {"status_names", status_names, METH_NOARGS, "status names by code"},
    {"status_name", status_name, METH_O, "status_name(code)"},
    {"reduction_from_name", reduction_from_name, METH_O, "reduction_from_name(name) -> code"},
    {"reduction_flags", reduction_flags, METH_VARARGS,
     "reduction_flags(dtype_code, reduction_code) -> CELL_* bits"},
    {"tensor_scatter_mode_from_name", tensor_scatter_mode_from_name, METH_O,
     "tensor_scatter_mode_from_name(name) -> code"},
    {"operator_table", operator_table, METH_NOARGS,
     "((name, (parameter kind, ...)), ...): the registry's operators"},
    {"output_shape", output_shape, METH_VARARGS,
     "output_shape(op_name, data_shape, indices_shape, attribute) -> tuple"},
    {"version", version, METH_NOARGS, "sgk_version()"},
    {"runtime_describe", runtime_describe, METH_NOARGS, "sgk_runtime_describe()"},
    {"set_num_threads", set_num_threads, METH_O, "sgk_set_num_threads(n)"},
    {"library_path", library_path, METH_NOARGS, "the file libsgk was loaded from"},
    {"check_version", check_version, METH_VARARGS,
     "check_version(major, minor): ImportError unless libsgk serves that version"},
    {NULL, NULL, 0, NULL},
};

/* TensorScatter's mode names, in no particular order: their codes come
   from the library (sgk_tensor_scatter_mode_from_name). */
static const char *const mode_names[] = {"linear", "circular"};

static int add_modes(PyObject *module)
{
    enum { N = sizeof mode_names / sizeof *mode_names };
    PyObject *modes = PyTuple_New(N);
    for (int i = 0; modes != NULL && i < N; i++) {
        sgk_tensor_scatter_mode code;
        if (sgk_tensor_scatter_mode_from_name(mode_names[i], &code) != SGK_OK
            || (int)code < 0 || (int)code >= N || PyTuple_GET_ITEM(modes, code) != NULL) {
            PyErr_Format(PyExc_ImportError, "libsgk has no TensorScatter mode %s",
                         mode_names[i]);
            Py_CLEAR(modes);
        } else {
            PyTuple_SET_ITEM(modes, code, PyUnicode_FromString(mode_names[i]));
        }
    }
    if (modes == NULL || PyModule_AddObject(module, "TENSOR_SCATTER_MODES", modes) < 0) {
        Py_XDECREF(modes);
        return -1;
    }
    return 0;
}

int sgkpy_add_constants(PyObject *module)
{
#define CONSTANT_(name) PyModule_AddIntConstant(module, #name, SGK_##name) < 0
    if (CONSTANT_(PLAN_DETERMINISTIC) || CONSTANT_(PLAN_ALLOW_REORDER)
        || CONSTANT_(PLAN_WIDE_ACCUMULATE) || CONSTANT_(DTYPE_BOOLEAN)
        || CONSTANT_(DTYPE_INTEGER) || CONSTANT_(DTYPE_SIGNED) || CONSTANT_(DTYPE_FLOAT)
        || CONSTANT_(DTYPE_COMPLEX) || CONSTANT_(DTYPE_POINTER) || CONSTANT_(CELL_SUPPORTED)
        || CONSTANT_(CELL_ORDER_FREE) || CONSTANT_(TENSOR_SCATTER_LINEAR)
        || CONSTANT_(TENSOR_SCATTER_CIRCULAR) || CONSTANT_(VERSION_MAJOR)
        || CONSTANT_(VERSION_MINOR))
        return -1;
#undef CONSTANT_
    return add_modes(module);
}
