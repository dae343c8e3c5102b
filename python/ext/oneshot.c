#include "oneshot.h"

#include <string.h>

#include "arguments.h"
#include "operands.h"
#include "operators.h"
#include "status.h"

/* ---- what the Python API says of each operator --------------------------- */

/* Each operator's Python signature: its registry row's parameters, in
   that order, under the names the Python API gives them, then out and
   dtype.  A row without one here fails the import (sgkpy_oneshot_add). */
static const char *const signature_texts[SGKPY_OPERATOR_COUNT] = {
    [SGKPY_OP_scatter_nd] = "data, indices, updates, reduction='none', out=None, *, dtype=None",
    [SGKPY_OP_gather_nd] = "data, indices, batch_dims=0, *, out=None, dtype=None",
    [SGKPY_OP_scatter_elements] =
        "data, indices, updates, axis=0, reduction='none', out=None, *, dtype=None",
    [SGKPY_OP_gather_elements] = "data, indices, axis=0, *, out=None, dtype=None",
    [SGKPY_OP_gather] = "data, indices, axis=0, out=None, *, dtype=None",
    [SGKPY_OP_tensor_scatter] = "past_cache, update, write_indices=None, axis=-2, "
                                "mode='linear', out=None, *, dtype=None",
};

static const char *const summaries[SGKPY_OPERATOR_COUNT] = {
    [SGKPY_OP_scatter_nd] =
        "ScatterND (ONNX 11-18) / ScatterNDUpdate (OpenVINO 3, 15): out = copy(data),\n"
        "then out[indices[i]] = f(out[indices[i]], updates[i]) in row-major order of\n"
        "indices.shape[:-1]; duplicates allowed (with 'none' the last wins).\n"
        "reduction: none, add (sum), sub, mul (prod), max, min (sgk.reductions()).\n"
        "out may be data itself (in place).",
    [SGKPY_OP_gather_nd] =
        "GatherND (ONNX 11-13, OpenVINO GatherND-8): the slices of data that\n"
        "indices' tuples name, after batch_dims leading batch dimensions; the\n"
        "output shape is gather_nd_shape(data, indices, batch_dims).",
    [SGKPY_OP_scatter_elements] =
        "ScatterElements (ONNX 11-18; Scatter-9/11 is reduction 'none'):\n"
        "out = copy(data), then out[p with indices[p] on axis] = f(that, updates[p])\n"
        "for each position p of indices in row-major order.  out may be data.",
    [SGKPY_OP_gather_elements] =
        "GatherElements (ONNX 11, 13): out[p] = data[p with indices[p] on axis];\n"
        "the output has indices' shape.",
    [SGKPY_OP_gather] =
        "Gather (ONNX 1, 11, 13): numpy.take(data, indices, axis) with negative\n"
        "indices counted from the end, every index checked first; the output\n"
        "shape is data.shape[:axis] + indices.shape + data.shape[axis+1:].",
    [SGKPY_OP_tensor_scatter] =
        "TensorScatter (ONNX 24), the KV-cache write: a copy of past_cache (or\n"
        "past_cache itself, with out=past_cache) with update's sequence positions\n"
        "(along axis, not 0) written from write_indices[b] on for each batch b\n"
        "(zeros when None); mode 'linear' (positions must fit) or 'circular'\n"
        "(they wrap).",
};

static const char common_doc[] =
    "\n\n"
    "Types: sgk.dtypes() -- bool, int8..uint64, float16/32/64, complex64/128;\n"
    "bfloat16 as ml_dtypes.bfloat16 arrays, or uint16 arrays of bits with\n"
    "dtype='bfloat16' (dtype: an sgk type name reinterpreting the arrays); strings\n"
    "as object, str or bytes arrays (results hold the very objects passed in).\n"
    "Indices int32/int64 as given, other integers as int64.  out: a writeable,\n"
    "C-contiguous array of the result's shape and type, else None (a new array).\n"
    "\n"
    "Raises IndexOutOfRangeError (an index outside [-s, s-1]), ShapeError,\n"
    "InvalidArgumentError, UnsupportedError (a type or reduction sgk does not\n"
    "define), SizeOverflowError, OutOfMemoryError: SgkError subclasses carrying\n"
    "the library's message.  On error nothing is written.";

/* ---- the calls ------------------------------------------------------------- */

static sgkpy_signature signatures[SGKPY_OPERATOR_COUNT];
static PyObject *operator_names[SGKPY_OPERATOR_COUNT]; /* interned */
static PyObject *general_path;

int sgkpy_set_general_path(PyObject *general)
{
    if (!PyCallable_Check(general)) {
        PyErr_SetString(PyExc_TypeError, "the general path must be callable");
        return -1;
    }
    Py_INCREF(general);
    Py_XSETREF(general_path, general);
    return 0;
}

/* Runs op on operands (its parameters in row order) into out, as call's
   mode takes them; NotImplemented when a direct call declines. */
static PyObject *run(const sgkpy_operator *op, sgkpy_call *call, PyObject *const *operands,
                     PyObject *out)
{
    sgkpy_operands o;
    if (!sgkpy_read_operands(call, op, operands, &o))
        return sgkpy_decline(call);
    int64_t shape[2 * SGK_MAX_RANK];
    int32_t rank;
    sgk_status status = op->output_shape(&o, shape, &rank);
    if (status != SGK_OK)
        return sgkpy_raise_last(status);
    PyArrayObject *output = sgkpy_output(call, out, &o.data, rank, shape);
    if (output == NULL)
        return sgkpy_decline(call);
    void *buffer = PyArray_DATA(output);
    Py_BEGIN_ALLOW_THREADS
    status = op->oneshot(&o, buffer);
    Py_END_ALLOW_THREADS
    return sgkpy_finish(status, output);
}

static PyObject *oneshot(int index, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    const sgkpy_operator *op = &sgkpy_operators[index];
    /* the operator's name, then its bound arguments, for the general path */
    PyObject *call_args[1 + SGKPY_MAX_SIGNATURE];
    PyObject **values = call_args + 1;
    if (sgkpy_bind(&signatures[index], args, nargs, kwnames, values) < 0)
        return NULL;
    PyObject *out = values[op->nparams], *dtype = values[op->nparams + 1];
    if (dtype == Py_None) {
        sgkpy_call call;
        sgkpy_call_init(&call, op->name, NULL); /* direct: cannot fail */
        PyObject *result = run(op, &call, values, out);
        if (result != Py_NotImplemented)
            return result;
        Py_DECREF(result);
    }
    if (general_path == NULL)
        return PyErr_Format(PyExc_RuntimeError, "%s: sgk's general path is not set up", op->name);
    call_args[0] = operator_names[index];
    return PyObject_Vectorcall(general_path, call_args, 1 + (size_t)signatures[index].nparams,
                               NULL);
}

#define ENTRY_(name, params, output, arg)                                          \
    static PyObject *entry_##name(PyObject *module, PyObject *const *args, Py_ssize_t nargs, \
                                  PyObject *kwnames)                               \
    {                                                                              \
        (void)module;                                                              \
        return oneshot(SGKPY_OP_##name, args, nargs, kwnames);                     \
    }
SGK_OPERATOR_LIST(ENTRY_, ~)

/* call_prepared(op_name, code, *operands, out): the general path's call. */
static PyObject *call_prepared(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    const char *name = nargs > 0 && PyUnicode_Check(args[0]) ? PyUnicode_AsUTF8(args[0]) : NULL;
    const sgkpy_operator *op = name != NULL ? sgkpy_operator_named(name) : NULL;
    if (op == NULL || nargs != 3 + op->nparams) {
        PyErr_Clear();
        return PyErr_Format(PyExc_TypeError, "call_prepared(op_name, code, *operands, out): "
                                             "an unknown operator or a wrong argument count");
    }
    sgkpy_call call;
    if (sgkpy_call_init(&call, op->name, args[1]) < 0)
        return NULL;
    return run(op, &call, args + 2, args[2 + op->nparams]);
}

/* ---- the module's functions ------------------------------------------------ */

#define METHOD_(name, params, output, arg)                                         \
    {#name, (PyCFunction)(void (*)(void))entry_##name, METH_FASTCALL | METH_KEYWORDS, NULL},
static PyMethodDef methods[] = {
    SGK_OPERATOR_LIST(METHOD_, ~)
    {"call_prepared", (PyCFunction)(void (*)(void))call_prepared, METH_FASTCALL,
     "call_prepared(op_name, code, *operands, out): the general path's call."},
    {NULL, NULL, 0, NULL},
};

/* "name(signature)\n--\n\n" (what inspect reads), the summary, and what
   every operator shares; kept for the life of the process. */
static const char *docstring(int index)
{
    const char *name = sgkpy_operators[index].name;
    size_t size = strlen(name) + strlen(signature_texts[index]) + strlen(summaries[index])
                  + sizeof common_doc + 16;
    char *doc = PyMem_RawMalloc(size);
    if (doc != NULL)
        snprintf(doc, size, "%s(%s)\n--\n\n%s%s", name, signature_texts[index],
                 summaries[index], common_doc);
    return doc;
}

int sgkpy_oneshot_add(PyObject *module)
{
    for (int i = 0; i < SGKPY_OPERATOR_COUNT; i++) {
        const sgkpy_operator *op = &sgkpy_operators[i];
        if (signature_texts[i] == NULL || summaries[i] == NULL) {
            PyErr_Format(PyExc_ImportError, "sgk._sgk: operator %s has no Python signature "
                                            "or summary (python/ext/oneshot.c)", op->name);
            return -1;
        }
        sgkpy_signature *sig = &signatures[i];
        if (sgkpy_signature_parse(sig, op->name, signature_texts[i]) < 0)
            return -1;
        if (sig->nparams != op->nparams + 2
            || PyUnicode_CompareWithASCIIString(sig->names[op->nparams], "out") != 0
            || PyUnicode_CompareWithASCIIString(sig->names[op->nparams + 1], "dtype") != 0) {
            PyErr_Format(PyExc_ImportError, "sgk._sgk: %s's Python signature must be its "
                                            "registry parameters, out and dtype", op->name);
            return -1;
        }
        if ((operator_names[i] = PyUnicode_InternFromString(op->name)) == NULL)
            return -1;
        if ((methods[i].ml_doc = docstring(i)) == NULL) {
            PyErr_NoMemory();
            return -1;
        }
    }
    return PyModule_AddFunctions(module, methods);
}
