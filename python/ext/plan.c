#include "plan.h"

#include <stdbool.h>

#include "operands.h"
#include "status.h"

/* One planned operand's shape, as execute compares it. */
typedef struct {
    int rank;
    npy_intp dims[SGK_MAX_RANK];
    Py_ssize_t nbytes; /* at the plan's item size; -1 if unknown */
} planned_shape;

typedef struct {
    PyObject_HEAD
    sgk_plan *plan;        /* NULL once closed */
    sgk_plan *retired;     /* closed while executions ran: the last destroys it */
    int in_flight;         /* executions running with the GIL released */
    bool scatter;
    PyArray_Descr *dtype;  /* what execute takes directly; NULL: nothing */
    planned_shape data, updates, output;
} plan_object;

/* ---- lifetime ---------------------------------------------------------- */

static void retire(plan_object *self)
{
    sgk_plan *plan = self->plan;
    self->plan = NULL;
    if (plan == NULL)
        return;
    if (self->in_flight > 0)
        self->retired = plan;
    else
        sgk_plan_destroy(plan);
}

static void plan_dealloc(plan_object *self)
{
    retire(self); /* no execution is in flight: each holds a reference */
    Py_CLEAR(self->dtype);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *plan_close(plan_object *self, PyObject *unused)
{
    (void)unused;
    retire(self);
    Py_RETURN_NONE;
}

static PyObject *plan_closed(plan_object *self, void *unused)
{
    (void)unused;
    return PyBool_FromLong(self->plan == NULL);
}

static PyObject *plan_describe(plan_object *self, PyObject *unused)
{
    (void)unused;
    if (self->plan == NULL)
        Py_RETURN_NONE;
    const char *text = sgk_plan_describe(self->plan);
    return PyUnicode_DecodeUTF8(text != NULL ? text : "", text != NULL ? (Py_ssize_t)strlen(text) : 0,
                                "replace");
}

/* Adopts a plan the library made (status SGK_OK) or raises its status. */
static PyObject *adopt(PyObject *target, sgk_status status, sgk_plan *plan)
{
    if (status != SGK_OK)
        return sgkpy_raise_last(status);
    plan_object *self = (plan_object *)target;
    if (self->plan != NULL || self->retired != NULL) {
        sgk_plan_destroy(plan);
        return sgkpy_raise(SGK_ERR_INVALID_ARGUMENT, "a plan object is planned once");
    }
    self->plan = plan;
    Py_RETURN_NONE;
}

/* ---- what execute takes directly ------------------------------------- */

static int set_shape(planned_shape *s, PyObject *shape, size_t item_size)
{
    s->rank = -1; /* matches nothing */
    s->nbytes = -1;
    if (shape == Py_None)
        return 0;
    sgkpy_tensor t;
    if (sgkpy_shape_tensor(SGK_UINT8, shape, &t) < 0)
        return -1;
    size_t bytes = item_size;
    bool fits = true;
    for (int d = 0; d < t.tensor.rank; d++) {
        s->dims[d] = (npy_intp)t.shape[d];
        if (t.shape[d] < 0 || __builtin_mul_overflow(bytes, (size_t)t.shape[d], &bytes))
            fits = false;
    }
    s->rank = t.tensor.rank;
    s->nbytes = fits && bytes <= PY_SSIZE_T_MAX ? (Py_ssize_t)bytes : -1;
    return 0;
}

static PyObject *plan_expect(plan_object *self, PyObject *args)
{
    PyObject *dtype, *data_shape, *updates_shape, *output_shape;
    int code;
    if (!PyArg_ParseTuple(args, "OiOOO:_expect", &dtype, &code, &data_shape, &updates_shape,
                          &output_shape))
        return NULL;
    if (dtype != Py_None && !PyArray_DescrCheck(dtype))
        return PyErr_Format(PyExc_TypeError, "_expect: dtype must be a NumPy dtype or None");
    size_t item_size = sgk_dtype_size((sgk_dtype)code);
    if (set_shape(&self->data, data_shape, item_size) < 0
        || set_shape(&self->updates, updates_shape, item_size) < 0
        || set_shape(&self->output, output_shape, item_size) < 0)
        return NULL;
    self->scatter = updates_shape != Py_None;
    Py_XINCREF(dtype == Py_None ? NULL : dtype);
    Py_XSETREF(self->dtype, dtype == Py_None ? NULL : (PyArray_Descr *)dtype);
    Py_RETURN_NONE;
}

/* ---- execution --------------------------------------------------------- */

static PyObject *run(plan_object *self, const void *data, const void *updates,
                     PyArrayObject *out)
{
    sgk_plan *plan = self->plan;
    void *output = PyArray_DATA(out);
    sgk_status status;
    self->in_flight++;
    Py_BEGIN_ALLOW_THREADS
    status = sgk_execute(plan, data, updates, output);
    Py_END_ALLOW_THREADS
    if (--self->in_flight == 0 && self->retired != NULL) {
        sgk_plan_destroy(self->retired);
        self->retired = NULL;
    }
    return sgkpy_finish(status, out);
}

/* x is exactly an ndarray of the planned dtype and shape, C-contiguous. */
static bool fits(const plan_object *self, PyObject *x, const planned_shape *s)
{
    if (!PyArray_CheckExact(x))
        return false;
    PyArrayObject *a = (PyArrayObject *)x;
    if (PyArray_NDIM(a) != s->rank || !PyArray_IS_C_CONTIGUOUS(a))
        return false;
    const npy_intp *dims = PyArray_DIMS(a);
    for (int d = 0; d < s->rank; d++)
        if (dims[d] != s->dims[d])
            return false;
    PyArray_Descr *descr = PyArray_DESCR(a);
    return descr == self->dtype || PyArray_EquivTypes(descr, self->dtype);
}

/* execute's arguments: data, updates=None, out=None. */
static int parse_execute(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                         PyObject *values[3])
{
    static const char *const names[3] = {"data", "updates", "out"};
    values[0] = NULL;
    values[1] = values[2] = Py_None;
    if (nargs > 3) {
        PyErr_Format(PyExc_TypeError, "execute() takes at most 3 arguments (%zd given)", nargs);
        return -1;
    }
    for (Py_ssize_t i = 0; i < nargs; i++)
        values[i] = args[i];
    Py_ssize_t nkw = kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, k);
        int slot = -1;
        for (int i = 0; i < 3 && slot < 0; i++)
            if (PyUnicode_CompareWithASCIIString(key, names[i]) == 0)
                slot = i;
        if (slot < 0) {
            PyErr_Format(PyExc_TypeError, "execute() got an unexpected keyword argument '%U'", key);
            return -1;
        }
        if (slot < nargs) {
            PyErr_Format(PyExc_TypeError, "execute() got multiple values for argument '%s'",
                         names[slot]);
            return -1;
        }
        values[slot] = args[nargs + k];
    }
    if (values[0] == NULL) {
        PyErr_SetString(PyExc_TypeError, "execute() missing required argument 'data'");
        return -1;
    }
    return 0;
}

static PyObject *plan_execute(plan_object *self, PyObject *const *args, Py_ssize_t nargs,
                              PyObject *kwnames)
{
    PyObject *v[3];
    if (parse_execute(args, nargs, kwnames, v) < 0)
        return NULL;
    PyObject *data = v[0], *updates = v[1], *out = v[2];
    bool direct = self->plan != NULL && self->dtype != NULL && fits(self, data, &self->data)
                  && (self->scatter ? fits(self, updates, &self->updates) : updates == Py_None)
                  && (out == Py_None || (fits(self, out, &self->output)
                                         && PyArray_ISWRITEABLE((PyArrayObject *)out)));
    if (!direct) {
        PyObject *call[4] = {(PyObject *)self, data, updates, out};
        PyObject *name = PyUnicode_FromString("_execute_general");
        if (name == NULL)
            return NULL;
        PyObject *result = PyObject_VectorcallMethod(name, call, 4 | PY_VECTORCALL_ARGUMENTS_OFFSET,
                                                     NULL);
        Py_DECREF(name);
        return result;
    }
    PyArrayObject *o;
    if (out == Py_None) {
        Py_INCREF(self->dtype);
        o = (PyArrayObject *)PyArray_NewFromDescr(&PyArray_Type, self->dtype, self->output.rank,
                                                  self->output.dims, NULL, NULL, 0, NULL);
        if (o == NULL)
            return NULL;
    } else {
        o = (PyArrayObject *)out;
        Py_INCREF(o);
    }
    return run(self, PyArray_DATA((PyArrayObject *)data),
               self->scatter ? PyArray_DATA((PyArrayObject *)updates) : NULL, o);
}

/* An array the general path prepared: C-contiguous, of the planned size. */
static bool raw_fits(PyObject *x, const planned_shape *s, bool writeable)
{
    if (!PyArray_Check(x))
        return false;
    PyArrayObject *a = (PyArrayObject *)x;
    return PyArray_IS_C_CONTIGUOUS(a) && s->nbytes >= 0 && PyArray_NBYTES(a) == s->nbytes
           && (!writeable || PyArray_ISWRITEABLE(a));
}

static PyObject *plan_execute_raw(plan_object *self, PyObject *args)
{
    PyObject *data, *updates, *out;
    if (!PyArg_ParseTuple(args, "OOO:_execute_raw", &data, &updates, &out))
        return NULL;
    if (self->plan == NULL)
        return sgkpy_raise(SGK_ERR_INVALID_ARGUMENT, "the plan is closed");
    if (!raw_fits(data, &self->data, false)
        || (self->scatter ? !raw_fits(updates, &self->updates, false) : updates != Py_None)
        || !raw_fits(out, &self->output, true))
        return sgkpy_raise(SGK_ERR_INVALID_ARGUMENT,
                           "the binding passed buffers of sizes the plan was not made for");
    Py_INCREF(out);
    return run(self, PyArray_DATA((PyArrayObject *)data),
               self->scatter ? PyArray_DATA((PyArrayObject *)updates) : NULL,
               (PyArrayObject *)out);
}

static PyMethodDef plan_object_methods[] = {
    {"execute", (PyCFunction)(void (*)(void))plan_execute, METH_FASTCALL | METH_KEYWORDS,
     "execute(data, updates=None, out=None)\n--\n\n"
     "Run the plan: returns out (a new array when out is None)."},
    {"_execute_raw", (PyCFunction)plan_execute_raw, METH_VARARGS, NULL},
    {"_expect", (PyCFunction)plan_expect, METH_VARARGS, NULL},
    {"_describe", (PyCFunction)plan_describe, METH_NOARGS, NULL},
    {"close", (PyCFunction)plan_close, METH_NOARGS,
     "close()\n--\n\nFree the plan (executions in flight finish first); twice is fine."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef plan_getset[] = {
    {"closed", (getter)plan_closed, NULL, "Whether close() was called.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject sgkpy_plan_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "sgk._sgk.PlanBase",
    .tp_basicsize = sizeof(plan_object),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "An sgk_plan; sgk.Plan and its subclasses build on it.",
    .tp_new = PyType_GenericNew,
    .tp_dealloc = (destructor)plan_dealloc,
    .tp_methods = plan_object_methods,
    .tp_getset = plan_getset,
};

/* ---- making plans ------------------------------------------------------ */

static int check_target(const char *op, PyObject *target)
{
    if (!PyObject_TypeCheck(target, &sgkpy_plan_type)) {
        PyErr_Format(PyExc_TypeError, "%s: the first argument must be an sgk plan", op);
        return -1;
    }
    return 0;
}

/* Index values the general path prepared (an int32/int64 array). */
static int planned_indices(const char *op, int code, PyObject *array, sgkpy_tensor *indices)
{
    sgkpy_call call;
    sgkpy_call_prepared(&call, op, code);
    if (!sgkpy_indices(&call, array, indices)) {
        sgkpy_decline(&call);
        return -1;
    }
    return 0;
}

/* The plan object and the operands every plan function starts with. */
static int plan_operands(const char *op, PyObject *target, int code, PyObject *data_shape,
                         PyObject *indices_array, sgkpy_tensor *data, sgkpy_tensor *indices)
{
    if (check_target(op, target) < 0 || sgkpy_shape_tensor(code, data_shape, data) < 0)
        return -1;
    return planned_indices(op, code, indices_array, indices);
}

static PyObject *plan_scatter_nd(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *target, *data_shape, *indices_array, *updates_shape;
    int code, updates_code, reduction;
    unsigned long flags;
    sgkpy_tensor data, indices, updates;
    if (!PyArg_ParseTuple(args, "OiOOiOik:plan_scatter_nd", &target, &code, &data_shape,
                          &indices_array, &updates_code, &updates_shape, &reduction, &flags)
        || plan_operands("scatter_nd", target, code, data_shape, indices_array, &data, &indices)
               < 0
        || sgkpy_shape_tensor(updates_code, updates_shape, &updates) < 0)
        return NULL;
    sgk_plan *plan = NULL;
    sgk_status status;
    Py_BEGIN_ALLOW_THREADS
    status = sgk_plan_scatter_nd(&plan, &data.tensor, &indices.tensor, &updates.tensor,
                                 (sgk_reduction)reduction, (uint32_t)flags);
    Py_END_ALLOW_THREADS
    return adopt(target, status, plan);
}

static PyObject *plan_gather_nd(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *target, *data_shape, *indices_array;
    int code;
    long long batch_dims;
    unsigned long flags;
    sgkpy_tensor data, indices;
    if (!PyArg_ParseTuple(args, "OiOOLk:plan_gather_nd", &target, &code, &data_shape,
                          &indices_array, &batch_dims, &flags)
        || plan_operands("gather_nd", target, code, data_shape, indices_array, &data, &indices)
               < 0)
        return NULL;
    sgk_plan *plan = NULL;
    sgk_status status;
    Py_BEGIN_ALLOW_THREADS
    status = sgk_plan_gather_nd(&plan, &data.tensor, &indices.tensor, (int64_t)batch_dims,
                                (uint32_t)flags);
    Py_END_ALLOW_THREADS
    return adopt(target, status, plan);
}

static PyObject *plan_scatter_elements(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *target, *data_shape, *indices_array, *updates_shape;
    int code, updates_code, reduction;
    long long axis;
    unsigned long flags;
    sgkpy_tensor data, indices, updates;
    if (!PyArg_ParseTuple(args, "OiOOiOLik:plan_scatter_elements", &target, &code, &data_shape,
                          &indices_array, &updates_code, &updates_shape, &axis, &reduction,
                          &flags)
        || plan_operands("scatter_elements", target, code, data_shape, indices_array, &data,
                         &indices) < 0
        || sgkpy_shape_tensor(updates_code, updates_shape, &updates) < 0)
        return NULL;
    sgk_plan *plan = NULL;
    sgk_status status;
    Py_BEGIN_ALLOW_THREADS
    status = sgk_plan_scatter_elements(&plan, &data.tensor, &indices.tensor, &updates.tensor,
                                       (int64_t)axis, (sgk_reduction)reduction, (uint32_t)flags);
    Py_END_ALLOW_THREADS
    return adopt(target, status, plan);
}

static PyObject *plan_gather_elements(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *target, *data_shape, *indices_array;
    int code;
    long long axis;
    unsigned long flags;
    sgkpy_tensor data, indices;
    if (!PyArg_ParseTuple(args, "OiOOLk:plan_gather_elements", &target, &code, &data_shape,
                          &indices_array, &axis, &flags)
        || plan_operands("gather_elements", target, code, data_shape, indices_array, &data,
                         &indices) < 0)
        return NULL;
    sgk_plan *plan = NULL;
    sgk_status status;
    Py_BEGIN_ALLOW_THREADS
    status = sgk_plan_gather_elements(&plan, &data.tensor, &indices.tensor, (int64_t)axis,
                                      (uint32_t)flags);
    Py_END_ALLOW_THREADS
    return adopt(target, status, plan);
}

static PyObject *plan_gather(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *target, *data_shape, *indices_array;
    int code;
    long long axis;
    unsigned long flags;
    sgkpy_tensor data, indices;
    if (!PyArg_ParseTuple(args, "OiOOLk:plan_gather", &target, &code, &data_shape,
                          &indices_array, &axis, &flags)
        || plan_operands("gather", target, code, data_shape, indices_array, &data, &indices) < 0)
        return NULL;
    sgk_plan *plan = NULL;
    sgk_status status;
    Py_BEGIN_ALLOW_THREADS
    status = sgk_plan_gather(&plan, &data.tensor, &indices.tensor, (int64_t)axis,
                             (uint32_t)flags);
    Py_END_ALLOW_THREADS
    return adopt(target, status, plan);
}

/* write_indices None plans writes from position 0 (NULL, as the library
   takes it). */
static PyObject *plan_tensor_scatter(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *target, *cache_shape, *indices_array, *update_shape;
    int code, update_code, mode;
    long long axis;
    unsigned long flags;
    sgkpy_tensor cache, update, write_indices;
    if (!PyArg_ParseTuple(args, "OiOOiOLik:plan_tensor_scatter", &target, &code, &cache_shape,
                          &indices_array, &update_code, &update_shape, &axis, &mode, &flags)
        || check_target("tensor_scatter", target) < 0
        || sgkpy_shape_tensor(code, cache_shape, &cache) < 0
        || sgkpy_shape_tensor(update_code, update_shape, &update) < 0)
        return NULL;
    bool has_indices = indices_array != Py_None;
    if (has_indices && planned_indices("tensor_scatter", code, indices_array, &write_indices) < 0)
        return NULL;
    const sgk_tensor *positions = has_indices ? &write_indices.tensor : NULL;
    sgk_plan *plan = NULL;
    sgk_status status;
    Py_BEGIN_ALLOW_THREADS
    status = sgk_plan_tensor_scatter(&plan, &cache.tensor, &update.tensor, positions,
                                     (int64_t)axis, (sgk_tensor_scatter_mode)mode,
                                     (uint32_t)flags);
    Py_END_ALLOW_THREADS
    return adopt(target, status, plan);
}

PyMethodDef sgkpy_plan_methods[] = {
    {"plan_scatter_nd", plan_scatter_nd, METH_VARARGS,
     "plan_scatter_nd(plan, code, data_shape, indices, updates_code, updates_shape, "
     "reduction, flags)"},
    {"plan_gather_nd", plan_gather_nd, METH_VARARGS,
     "plan_gather_nd(plan, code, data_shape, indices, batch_dims, flags)"},
    {"plan_scatter_elements", plan_scatter_elements, METH_VARARGS,
     "plan_scatter_elements(plan, code, data_shape, indices, updates_code, updates_shape, "
     "axis, reduction, flags)"},
    {"plan_gather_elements", plan_gather_elements, METH_VARARGS,
     "plan_gather_elements(plan, code, data_shape, indices, axis, flags)"},
    {"plan_gather", plan_gather, METH_VARARGS,
     "plan_gather(plan, code, data_shape, indices, axis, flags)"},
    {"plan_tensor_scatter", plan_tensor_scatter, METH_VARARGS,
     "plan_tensor_scatter(plan, code, cache_shape, write_indices_or_None, update_code, "
     "update_shape, axis, mode, flags)"},
    {NULL, NULL, 0, NULL},
};
