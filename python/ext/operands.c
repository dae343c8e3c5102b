#include "operands.h"

#include <string.h>

#include "status.h"

void sgkpy_call_prepared(sgkpy_call *call, const char *op, int code)
{
    call->op = op;
    call->code = code;
    call->prepared = 1;
    call->declined = NULL;
}

int sgkpy_call_init(sgkpy_call *call, const char *op, PyObject *code_arg)
{
    call->op = op;
    call->code = -1;
    call->prepared = 0;
    call->declined = NULL;
    if (code_arg == NULL || code_arg == Py_None)
        return 0;
    long code = PyLong_AsLong(code_arg);
    if (code == -1 && PyErr_Occurred())
        return -1;
    if (code < 0 || sgk_dtype_size((sgk_dtype)code) == 0) {
        sgkpy_raise(SGK_ERR_INVALID_ARGUMENT, "binding: unknown sgk_dtype code");
        return -1;
    }
    sgkpy_call_prepared(call, op, (int)code);
    return 0;
}

static int decline(sgkpy_call *call, const char *what)
{
    call->declined = what;
    return 0;
}

/* x as a C-contiguous ndarray: exactly an ndarray when direct (a subclass
   may carry behaviour np.asarray would drop), any ndarray when prepared. */
static PyArrayObject *as_plain_array(const sgkpy_call *call, PyObject *x)
{
    int ok = call->prepared ? PyArray_Check(x) : PyArray_CheckExact(x);
    if (!ok || !PyArray_IS_C_CONTIGUOUS((PyArrayObject *)x))
        return NULL;
    return (PyArrayObject *)x;
}

/* Whether array's items are call->code's: the same sgk_dtype (direct), or
   the same item size (prepared: bits or pointers standing for the type). */
static int has_call_type(const sgkpy_call *call, PyArrayObject *array)
{
    if (call->prepared)
        return (size_t)PyArray_ITEMSIZE(array) == sgk_dtype_size((sgk_dtype)call->code);
    return sgkpy_dtype_code(array) == call->code;
}

static void view(sgkpy_tensor *t, PyArrayObject *array, int code)
{
    int rank = PyArray_NDIM(array);
    const npy_intp *dims = PyArray_DIMS(array);
    for (int d = 0; d < rank; d++)
        t->shape[d] = (int64_t)dims[d];
    t->tensor.dtype = (sgk_dtype)code;
    t->tensor.rank = rank;
    t->tensor.shape = t->shape;
    t->tensor.data = PyArray_DATA(array);
    t->array = array;
}

int sgkpy_data(sgkpy_call *call, PyObject *x, sgkpy_tensor *t)
{
    PyArrayObject *array = as_plain_array(call, x);
    if (array == NULL)
        return decline(call, "data");
    if (!call->prepared)
        call->code = sgkpy_dtype_code(array);
    if (call->code < 0 || !has_call_type(call, array))
        return decline(call, "data");
    view(t, array, call->code);
    return 1;
}

int sgkpy_updates(sgkpy_call *call, PyObject *x, sgkpy_tensor *t)
{
    PyArrayObject *array = as_plain_array(call, x);
    if (array == NULL || !has_call_type(call, array))
        return decline(call, "updates");
    view(t, array, call->code);
    return 1;
}

int sgkpy_indices(sgkpy_call *call, PyObject *x, sgkpy_tensor *t)
{
    PyArrayObject *array = as_plain_array(call, x);
    int code = array != NULL ? sgkpy_dtype_code(array) : -1;
    if (code != SGK_INT32 && code != SGK_INT64)
        return decline(call, "indices");
    view(t, array, code);
    return 1;
}

int sgkpy_reduction(sgkpy_call *call, PyObject *x, sgk_reduction *reduction)
{
    if (PyUnicode_Check(x)) {
        const char *name = PyUnicode_AsUTF8(x);
        if (name == NULL) {
            PyErr_Clear(); /* unencodable: the general path words the error */
            return decline(call, "reduction");
        }
        return sgk_reduction_from_name(name, reduction) == SGK_OK ? 1
                                                                 : decline(call, "reduction");
    }
    if (!PyLong_CheckExact(x))
        return decline(call, "reduction");
    int overflow;
    long value = PyLong_AsLongAndOverflow(x, &overflow);
    if (overflow || value < INT_MIN || value > INT_MAX) {
        PyErr_Clear();
        return decline(call, "reduction");
    }
    /* Out-of-range codes go through: the library rejects them in its words. */
    *reduction = (sgk_reduction)value;
    return 1;
}

int sgkpy_tensor_scatter_mode(sgkpy_call *call, PyObject *x, sgk_tensor_scatter_mode *mode)
{
    if (call->prepared) {
        int64_t code;
        if (!sgkpy_int64(call, x, "mode", &code) || code < INT_MIN || code > INT_MAX)
            return decline(call, "mode");
        /* Out-of-range codes go through: the library rejects them in its words. */
        *mode = (sgk_tensor_scatter_mode)code;
        return 1;
    }
    if (!PyUnicode_Check(x))
        return decline(call, "mode");
    const char *name = PyUnicode_AsUTF8(x);
    if (name == NULL) {
        PyErr_Clear(); /* unencodable: the general path words the error */
        return decline(call, "mode");
    }
    return sgk_tensor_scatter_mode_from_name(name, mode) == SGK_OK ? 1 : decline(call, "mode");
}

int sgkpy_int64(sgkpy_call *call, PyObject *x, const char *what, int64_t *value)
{
    if (!PyLong_Check(x))
        return decline(call, what);
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(x, &overflow);
    if (overflow || (v == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return decline(call, what);
    }
    *value = (int64_t)v;
    return 1;
}

static int same_shape(PyArrayObject *array, int32_t rank, const int64_t *shape)
{
    if (PyArray_NDIM(array) != rank)
        return 0;
    const npy_intp *dims = PyArray_DIMS(array);
    for (int32_t d = 0; d < rank; d++)
        if ((int64_t)dims[d] != shape[d])
            return 0;
    return 1;
}

PyObject *sgkpy_shape_tuple(int32_t rank, const int64_t *shape)
{
    PyObject *tuple = PyTuple_New(rank);
    for (int32_t d = 0; tuple != NULL && d < rank; d++) {
        PyObject *dim = PyLong_FromLongLong(shape[d]);
        if (dim == NULL)
            Py_CLEAR(tuple);
        else
            PyTuple_SET_ITEM(tuple, d, dim);
    }
    return tuple;
}

void sgkpy_shape_text(char *text, size_t size, int32_t rank, const int64_t *shape)
{
    size_t used = (size_t)snprintf(text, size, "[");
    for (int32_t d = 0; d < rank && used < size; d++)
        used += (size_t)snprintf(text + used, size - used, d ? ", %lld" : "%lld",
                                 (long long)shape[d]);
    if (used < size)
        snprintf(text + used, size - used, "]");
}

/* Why out cannot be written as it is, or NULL when it can.  Direct, out
   must hold the call's sgk_dtype; prepared, exactly data's NumPy dtype
   (the general path passes the dtype the user's out must have). */
static const char *output_problem(const sgkpy_call *call, PyObject *out,
                                  const sgkpy_tensor *data, int32_t rank, const int64_t *shape)
{
    PyArrayObject *array = as_plain_array(call, out);
    if (!PyArray_Check(out))
        return "must be a NumPy array";
    if (array == NULL)
        return "must be C-contiguous";
    if (!PyArray_ISWRITEABLE(array))
        return "is read-only";
    if (call->prepared ? !PyArray_EquivTypes(PyArray_DESCR(array), PyArray_DESCR(data->array))
                       : sgkpy_dtype_code(array) != call->code)
        return "has the wrong dtype";
    if (!same_shape(array, rank, shape))
        return "has the wrong shape";
    return NULL;
}

/* The general path's InvalidArgumentError for an out it passed on. */
static void refuse_output(const sgkpy_call *call, PyObject *out, const sgkpy_tensor *data,
                          int32_t rank, const int64_t *shape, const char *problem)
{
    char expected[256], message[600];
    sgkpy_shape_text(expected, sizeof expected, rank, shape);
    PyObject *dtype = PyObject_Str((PyObject *)PyArray_DESCR(data->array));
    PyObject *given = PyObject_Repr(PyArray_Check(out) ? (PyObject *)PyArray_DESCR((PyArrayObject *)out)
                                                       : (PyObject *)Py_TYPE(out));
    const char *dtype_text = dtype != NULL ? PyUnicode_AsUTF8(dtype) : NULL;
    const char *given_text = given != NULL ? PyUnicode_AsUTF8(given) : NULL;
    PyErr_Clear();
    snprintf(message, sizeof message, "%s: out %s (given %s; expected a writeable, C-contiguous "
             "%s array of shape %s)", call->op, problem, given_text ? given_text : "?",
             dtype_text ? dtype_text : "?", expected);
    Py_XDECREF(dtype);
    Py_XDECREF(given);
    sgkpy_raise(SGK_ERR_INVALID_ARGUMENT, message);
}

PyArrayObject *sgkpy_output(sgkpy_call *call, PyObject *out, const sgkpy_tensor *data,
                            int32_t rank, const int64_t *shape)
{
    if (out == Py_None) {
        npy_intp dims[2 * SGK_MAX_RANK];
        for (int32_t d = 0; d < rank; d++)
            dims[d] = (npy_intp)shape[d];
        PyArray_Descr *descr = PyArray_DESCR(data->array);
        Py_INCREF(descr); /* PyArray_NewFromDescr takes this reference */
        return (PyArrayObject *)PyArray_NewFromDescr(&PyArray_Type, descr, rank, dims, NULL, NULL,
                                                     0, NULL);
    }
    const char *problem = output_problem(call, out, data, rank, shape);
    if (problem == NULL) {
        Py_INCREF(out);
        return (PyArrayObject *)out;
    }
    if (call->prepared)
        refuse_output(call, out, data, rank, shape, problem);
    else
        decline(call, "out");
    return NULL;
}

PyObject *sgkpy_decline(const sgkpy_call *call)
{
    if (PyErr_Occurred())
        return NULL;
    if (!call->prepared)
        Py_RETURN_NOTIMPLEMENTED;
    char message[160];
    snprintf(message, sizeof message, "%s: the binding passed %s in a form sgk cannot take",
             call->op, call->declined != NULL ? call->declined : "an operand");
    return sgkpy_raise(SGK_ERR_INVALID_ARGUMENT, message);
}

PyObject *sgkpy_finish(sgk_status status, PyArrayObject *out)
{
    if (status != SGK_OK) {
        Py_DECREF(out);
        return sgkpy_raise_last(status);
    }
    return (PyObject *)out;
}

int sgkpy_shape_tensor(int code, PyObject *shape, sgkpy_tensor *t)
{
    PyObject *seq = PySequence_Fast(shape, "a shape must be a sequence of ints");
    if (seq == NULL)
        return -1;
    Py_ssize_t rank = PySequence_Fast_GET_SIZE(seq);
    if (rank > SGK_MAX_RANK) {
        Py_DECREF(seq);
        char message[96];
        snprintf(message, sizeof message, "rank %zd exceeds SGK_MAX_RANK (%d)", rank,
                 SGK_MAX_RANK);
        sgkpy_raise(SGK_ERR_SHAPE, message);
        return -1;
    }
    for (Py_ssize_t d = 0; d < rank; d++) {
        long long dim = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, d));
        if (dim == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        t->shape[d] = (int64_t)dim;
    }
    Py_DECREF(seq);
    t->tensor.dtype = (sgk_dtype)code;
    t->tensor.rank = (int32_t)rank;
    t->tensor.shape = t->shape;
    t->tensor.data = NULL;
    t->array = NULL;
    return 0;
}
