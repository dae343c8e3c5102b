#include "oneshot.h"

#include <stdbool.h>

#include "operands.h"
#include "status.h"

/* Checks the argument count; the optional last argument is the code. */
static int begin(sgkpy_call *call, const char *op, PyObject *const *args, Py_ssize_t nargs,
                 Py_ssize_t count)
{
    if (nargs != count && nargs != count + 1) {
        PyErr_Format(PyExc_TypeError, "%s takes %zd or %zd arguments (%zd given)", op, count,
                     count + 1, nargs);
        return -1;
    }
    return sgkpy_call_init(call, op, nargs > count ? args[count] : NULL);
}

static PyObject *scatter_nd(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    sgkpy_call call;
    sgkpy_tensor data, indices, updates;
    sgk_reduction reduction;
    if (begin(&call, "scatter_nd", args, nargs, 5) < 0)
        return NULL;
    if (!sgkpy_data(&call, args[0], &data) || !sgkpy_indices(&call, args[1], &indices)
        || !sgkpy_updates(&call, args[2], &updates)
        || !sgkpy_reduction(&call, args[3], &reduction))
        return sgkpy_decline(&call);
    PyArrayObject *out = sgkpy_output(&call, args[4], &data, data.tensor.rank, data.shape);
    if (out == NULL)
        return sgkpy_decline(&call);
    sgk_status status;
    void *output = PyArray_DATA(out);
    Py_BEGIN_ALLOW_THREADS
    status = sgk_scatter_nd(&data.tensor, &indices.tensor, &updates.tensor, reduction, output);
    Py_END_ALLOW_THREADS
    return sgkpy_finish(status, out);
}

static PyObject *gather_nd(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    sgkpy_call call;
    sgkpy_tensor data, indices;
    int64_t batch_dims;
    if (begin(&call, "gather_nd", args, nargs, 4) < 0)
        return NULL;
    if (!sgkpy_data(&call, args[0], &data) || !sgkpy_indices(&call, args[1], &indices)
        || !sgkpy_int64(&call, args[2], "batch_dims", &batch_dims))
        return sgkpy_decline(&call);
    int64_t shape[2 * SGK_MAX_RANK];
    int32_t rank;
    sgk_status status = sgk_gather_nd_shape(&data.tensor, &indices.tensor, batch_dims, shape,
                                            &rank);
    if (status != SGK_OK)
        return sgkpy_raise_last(status);
    PyArrayObject *out = sgkpy_output(&call, args[3], &data, rank, shape);
    if (out == NULL)
        return sgkpy_decline(&call);
    void *output = PyArray_DATA(out);
    Py_BEGIN_ALLOW_THREADS
    status = sgk_gather_nd(&data.tensor, &indices.tensor, batch_dims, output);
    Py_END_ALLOW_THREADS
    return sgkpy_finish(status, out);
}

static PyObject *scatter_elements(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    sgkpy_call call;
    sgkpy_tensor data, indices, updates;
    int64_t axis;
    sgk_reduction reduction;
    if (begin(&call, "scatter_elements", args, nargs, 6) < 0)
        return NULL;
    if (!sgkpy_data(&call, args[0], &data) || !sgkpy_indices(&call, args[1], &indices)
        || !sgkpy_updates(&call, args[2], &updates) || !sgkpy_int64(&call, args[3], "axis", &axis)
        || !sgkpy_reduction(&call, args[4], &reduction))
        return sgkpy_decline(&call);
    PyArrayObject *out = sgkpy_output(&call, args[5], &data, data.tensor.rank, data.shape);
    if (out == NULL)
        return sgkpy_decline(&call);
    sgk_status status;
    void *output = PyArray_DATA(out);
    Py_BEGIN_ALLOW_THREADS
    status = sgk_scatter_elements(&data.tensor, &indices.tensor, &updates.tensor, axis, reduction,
                                  output);
    Py_END_ALLOW_THREADS
    return sgkpy_finish(status, out);
}

static PyObject *gather_elements(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    sgkpy_call call;
    sgkpy_tensor data, indices;
    int64_t axis;
    if (begin(&call, "gather_elements", args, nargs, 4) < 0)
        return NULL;
    if (!sgkpy_data(&call, args[0], &data) || !sgkpy_indices(&call, args[1], &indices)
        || !sgkpy_int64(&call, args[2], "axis", &axis))
        return sgkpy_decline(&call);
    PyArrayObject *out = sgkpy_output(&call, args[3], &data, indices.tensor.rank, indices.shape);
    if (out == NULL)
        return sgkpy_decline(&call);
    sgk_status status;
    void *output = PyArray_DATA(out);
    Py_BEGIN_ALLOW_THREADS
    status = sgk_gather_elements(&data.tensor, &indices.tensor, axis, output);
    Py_END_ALLOW_THREADS
    return sgkpy_finish(status, out);
}

static PyObject *gather(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    sgkpy_call call;
    sgkpy_tensor data, indices;
    int64_t axis;
    if (begin(&call, "gather", args, nargs, 4) < 0)
        return NULL;
    if (!sgkpy_data(&call, args[0], &data) || !sgkpy_indices(&call, args[1], &indices)
        || !sgkpy_int64(&call, args[2], "axis", &axis))
        return sgkpy_decline(&call);
    int64_t shape[2 * SGK_MAX_RANK]; /* indices' rank + data's rank - 1 at most */
    int32_t rank;
    sgk_status status = sgk_gather_shape(&data.tensor, &indices.tensor, axis, shape, &rank);
    if (status != SGK_OK)
        return sgkpy_raise_last(status);
    PyArrayObject *out = sgkpy_output(&call, args[3], &data, rank, shape);
    if (out == NULL)
        return sgkpy_decline(&call);
    void *output = PyArray_DATA(out);
    Py_BEGIN_ALLOW_THREADS
    status = sgk_gather(&data.tensor, &indices.tensor, axis, output);
    Py_END_ALLOW_THREADS
    return sgkpy_finish(status, out);
}

static PyObject *tensor_scatter(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    sgkpy_call call;
    sgkpy_tensor cache, update, write_indices;
    int64_t axis;
    sgk_tensor_scatter_mode mode;
    if (begin(&call, "tensor_scatter", args, nargs, 6) < 0)
        return NULL;
    /* write_indices None: every batch writes from position 0 (NULL). */
    bool has_indices = args[2] != Py_None;
    if (!sgkpy_data(&call, args[0], &cache) || !sgkpy_updates(&call, args[1], &update))
        return sgkpy_decline(&call);
    if (has_indices && !sgkpy_indices(&call, args[2], &write_indices)) {
        call.declined = "write_indices";
        return sgkpy_decline(&call);
    }
    if (!sgkpy_int64(&call, args[3], "axis", &axis)
        || !sgkpy_tensor_scatter_mode(&call, args[4], &mode))
        return sgkpy_decline(&call);
    /* out may be past_cache itself: the library then writes only the
       updated slices. */
    PyArrayObject *out = sgkpy_output(&call, args[5], &cache, cache.tensor.rank, cache.shape);
    if (out == NULL)
        return sgkpy_decline(&call);
    sgk_status status;
    void *output = PyArray_DATA(out);
    const sgk_tensor *positions = has_indices ? &write_indices.tensor : NULL;
    Py_BEGIN_ALLOW_THREADS
    status = sgk_tensor_scatter(&cache.tensor, &update.tensor, positions, axis, mode, output);
    Py_END_ALLOW_THREADS
    return sgkpy_finish(status, out);
}

PyMethodDef sgkpy_oneshot_methods[] = {
    {"scatter_nd", (PyCFunction)(void (*)(void))scatter_nd, METH_FASTCALL,
     "scatter_nd(data, indices, updates, reduction, out[, code])"},
    {"gather_nd", (PyCFunction)(void (*)(void))gather_nd, METH_FASTCALL,
     "gather_nd(data, indices, batch_dims, out[, code])"},
    {"scatter_elements", (PyCFunction)(void (*)(void))scatter_elements, METH_FASTCALL,
     "scatter_elements(data, indices, updates, axis, reduction, out[, code])"},
    {"gather_elements", (PyCFunction)(void (*)(void))gather_elements, METH_FASTCALL,
     "gather_elements(data, indices, axis, out[, code])"},
    {"gather", (PyCFunction)(void (*)(void))gather, METH_FASTCALL,
     "gather(data, indices, axis, out[, code])"},
    {"tensor_scatter", (PyCFunction)(void (*)(void))tensor_scatter, METH_FASTCALL,
     "tensor_scatter(past_cache, update, write_indices, axis, mode, out[, code])"},
    {NULL, NULL, 0, NULL},
};
