#include "plan.h"

#include <stdbool.h>

#include "arguments.h"
#include "operands.h"
#include "operators.h"
#include "status.h"

/* One planned operand's shape, as execute compares it (an output may
   have up to twice SGK_MAX_RANK dimensions). */
typedef struct {
    int32_t rank;
    int64_t dims[2 * SGK_MAX_RANK];
} planned_shape;

typedef struct {
    PyObject_HEAD
    sgk_plan *plan;            /* NULL once closed */
    sgk_plan *retired;         /* closed while executions ran: the last destroys it */
    int in_flight;             /* executions running with the GIL released */
    const sgkpy_operator *op;  /* NULL until planned */
    int code;                  /* the planned sgk_dtype */
    PyArray_Descr *dtype;      /* what execute takes directly; NULL: nothing */
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

static PyObject *raise_closed(const plan_object *self)
{
    char message[96];
    snprintf(message, sizeof message, "%s plan is closed",
             self->op != NULL ? self->op->name : "an unplanned");
    return sgkpy_raise(SGK_ERR_INVALID_ARGUMENT, message);
}

static PyObject *plan_describe(plan_object *self, PyObject *unused)
{
    (void)unused;
    if (self->plan == NULL)
        return raise_closed(self);
    const char *text = sgk_plan_describe(self->plan);
    return PyUnicode_DecodeUTF8(text != NULL ? text : "", text != NULL ? (Py_ssize_t)strlen(text) : 0,
                                "replace");
}

static PyObject *plan_output_shape(plan_object *self, void *unused)
{
    (void)unused;
    if (self->op == NULL)
        Py_RETURN_NONE;
    return sgkpy_shape_tuple(self->output.rank, self->output.dims);
}

/* ---- making the plan ----------------------------------------------------- */

static void plan_shape(planned_shape *s, const sgkpy_tensor *t)
{
    s->rank = t->tensor.rank;
    memcpy(s->dims, t->shape, (size_t)t->tensor.rank * sizeof *s->dims);
}

/* Reads the operands at plan time: data and updates as shapes of the
   given codes, the rest as a prepared call takes them.  0, or -1 with an
   exception. */
static int read_planned(const sgkpy_operator *op, int code, int updates_code,
                        PyObject *const *values, sgkpy_operands *o)
{
    sgkpy_call call;
    sgkpy_call_prepared(&call, op->name, code);
    for (int i = 0; i < op->nparams; i++) {
        sgkpy_kind kind = op->params[i];
        int ok = kind == SGKPY_KIND_data      ? sgkpy_shape_tensor(code, values[i], &o->data) == 0
                 : kind == SGKPY_KIND_updates ? sgkpy_shape_tensor(updates_code, values[i],
                                                                   &o->updates) == 0
                                              : sgkpy_read_operand(&call, kind, values[i], o);
        if (!ok) {
            if (!PyErr_Occurred())
                sgkpy_decline(&call);
            return -1;
        }
    }
    return 0;
}

/* _plan(op_name, code, updates_code, dtype, flags, *operands): plans the
   operator; dtype (a NumPy dtype, or None for nothing) is what execute
   then takes directly. */
static PyObject *plan_make(plan_object *self, PyObject *const *args, Py_ssize_t nargs)
{
    const char *name = nargs > 0 && PyUnicode_Check(args[0]) ? PyUnicode_AsUTF8(args[0]) : NULL;
    const sgkpy_operator *op = name != NULL ? sgkpy_operator_named(name) : NULL;
    if (op == NULL || nargs != 5 + op->nparams
        || (args[3] != Py_None && !PyArray_DescrCheck(args[3]))) {
        PyErr_Clear();
        return PyErr_Format(PyExc_TypeError, "_plan(op_name, code, updates_code, dtype, flags, "
                                             "*operands): bad arguments");
    }
    if (self->op != NULL)
        return sgkpy_raise(SGK_ERR_INVALID_ARGUMENT, "a plan object is planned once");
    int code = (int)PyLong_AsLong(args[1]), updates_code = (int)PyLong_AsLong(args[2]);
    unsigned long flags = PyLong_AsUnsignedLong(args[4]);
    if (PyErr_Occurred())
        return NULL;
    sgkpy_operands o;
    if (read_planned(op, code, updates_code, args + 5, &o) < 0)
        return NULL;
    sgk_plan *plan = NULL;
    sgk_status status;
    Py_BEGIN_ALLOW_THREADS
    status = op->plan(&plan, &o, (uint32_t)flags);
    Py_END_ALLOW_THREADS
    if (status == SGK_OK)
        status = op->output_shape(&o, self->output.dims, &self->output.rank);
    if (status != SGK_OK) {
        sgk_plan_destroy(plan);
        return sgkpy_raise_last(status);
    }
    self->plan = plan;
    self->op = op;
    self->code = code;
    plan_shape(&self->data, &o.data);
    if (op->scatter)
        plan_shape(&self->updates, &o.updates);
    PyArray_Descr *dtype = args[3] == Py_None ? NULL : (PyArray_Descr *)args[3];
    Py_XINCREF(dtype);
    Py_XSETREF(self->dtype, dtype);
    Py_RETURN_NONE;
}

/* ---- execution ----------------------------------------------------------- */

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

static bool same_dims(PyArrayObject *a, const planned_shape *s)
{
    if (PyArray_NDIM(a) != s->rank)
        return false;
    const npy_intp *dims = PyArray_DIMS(a);
    for (int d = 0; d < s->rank; d++)
        if ((int64_t)dims[d] != s->dims[d])
            return false;
    return true;
}

/* x is exactly an ndarray of the planned dtype and shape, C-contiguous. */
static bool fits(const plan_object *self, PyObject *x, const planned_shape *s)
{
    if (!PyArray_CheckExact(x))
        return false;
    PyArrayObject *a = (PyArrayObject *)x;
    if (!PyArray_IS_C_CONTIGUOUS(a) || !same_dims(a, s))
        return false;
    PyArray_Descr *descr = PyArray_DESCR(a);
    return descr == self->dtype || PyArray_EquivTypes(descr, self->dtype);
}

static sgkpy_signature execute_signature;

static PyObject *plan_execute(plan_object *self, PyObject *const *args, Py_ssize_t nargs,
                              PyObject *kwnames)
{
    PyObject *v[3];
    if (sgkpy_bind(&execute_signature, args, nargs, kwnames, v) < 0)
        return NULL;
    PyObject *data = v[0], *updates = v[1], *out = v[2];
    bool direct = self->plan != NULL && self->dtype != NULL && fits(self, data, &self->data)
                  && (self->op->scatter ? fits(self, updates, &self->updates) : updates == Py_None)
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
        npy_intp dims[2 * SGK_MAX_RANK];
        for (int d = 0; d < self->output.rank; d++)
            dims[d] = (npy_intp)self->output.dims[d];
        Py_INCREF(self->dtype);
        o = (PyArrayObject *)PyArray_NewFromDescr(&PyArray_Type, self->dtype, self->output.rank,
                                                  dims, NULL, NULL, 0, NULL);
        if (o == NULL)
            return NULL;
    } else {
        o = (PyArrayObject *)out;
        Py_INCREF(o);
    }
    return run(self, PyArray_DATA((PyArrayObject *)data),
               self->op->scatter ? PyArray_DATA((PyArrayObject *)updates) : NULL, o);
}

/* InvalidArgumentError: an operand the general path converted is not of
   the planned type or shape. */
static PyObject *refuse(const plan_object *self, const char *what, PyObject *x, int code,
                        const planned_shape *planned)
{
    char given[256] = "?", expected[256], message[700];
    if (PyArray_Check(x)) {
        PyArrayObject *a = (PyArrayObject *)x;
        int64_t dims[SGK_MAX_RANK];
        int rank = PyArray_NDIM(a) < SGK_MAX_RANK ? PyArray_NDIM(a) : SGK_MAX_RANK;
        for (int d = 0; d < rank; d++)
            dims[d] = (int64_t)PyArray_DIMS(a)[d];
        sgkpy_shape_text(given, sizeof given, rank, dims);
    }
    sgkpy_shape_text(expected, sizeof expected, planned->rank, planned->dims);
    snprintf(message, sizeof message, "%s: %s is %s%s, planned for %s%s", self->op->name, what,
             sgk_dtype_name((sgk_dtype)code), given, sgk_dtype_name((sgk_dtype)self->code),
             expected);
    return sgkpy_raise(SGK_ERR_INVALID_ARGUMENT, message);
}

static PyObject *refuse_updates(const char *op, const char *why)
{
    char message[160];
    snprintf(message, sizeof message, "%s: %s", op, why);
    return sgkpy_raise(SGK_ERR_INVALID_ARGUMENT, message);
}

/* _execute_raw(data, updates, out, code): runs the plan on arrays the
   general path prepared, whose items are taken as sgk_dtype code; out
   None makes a new array like data. */
static PyObject *plan_execute_raw(plan_object *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4)
        return PyErr_Format(PyExc_TypeError, "_execute_raw(data, updates, out, code)");
    if (self->plan == NULL)
        return raise_closed(self);
    PyObject *data = args[0], *updates = args[1], *out = args[2];
    const char *op = self->op->name;
    sgkpy_call call;
    if (sgkpy_call_init(&call, op, args[3]) < 0)
        return NULL;
    sgkpy_tensor d, u;
    if (call.code != self->code || !sgkpy_data(&call, data, &d)
        || !same_dims(d.array, &self->data))
        return refuse(self, "data", data, call.code, &self->data);
    if (self->op->scatter) {
        if (updates == Py_None)
            return refuse_updates(op, "a scatter's execute() needs updates");
        if (!sgkpy_updates(&call, updates, &u) || !same_dims(u.array, &self->updates))
            return refuse(self, "updates", updates, call.code, &self->updates);
    } else if (updates != Py_None) {
        return refuse_updates(op, "a gather's execute() takes no updates");
    }
    PyArrayObject *o = sgkpy_output(&call, out, &d, self->output.rank, self->output.dims);
    if (o == NULL)
        return sgkpy_decline(&call);
    return run(self, d.tensor.data, self->op->scatter ? u.tensor.data : NULL, o);
}

static PyMethodDef plan_object_methods[] = {
    {"execute", (PyCFunction)(void (*)(void))plan_execute, METH_FASTCALL | METH_KEYWORDS,
     "execute($self, data, updates=None, out=None)\n--\n\n"
     "Run the plan on data (and updates, for scatters) of the planned shapes and\n"
     "type: returns out (a new array when out is None).  out may be data for\n"
     "scatters (in place).  Several threads may execute one plan at once."},
    {"_plan", (PyCFunction)(void (*)(void))plan_make, METH_FASTCALL, NULL},
    {"_execute_raw", (PyCFunction)(void (*)(void))plan_execute_raw, METH_FASTCALL, NULL},
    {"describe", (PyCFunction)plan_describe, METH_NOARGS,
     "describe($self)\n--\n\nThe path, threads and SIMD target chosen for this plan."},
    {"close", (PyCFunction)plan_close, METH_NOARGS,
     "close($self)\n--\n\nFree the plan (executions in flight finish first); twice is fine."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef plan_getset[] = {
    {"closed", (getter)plan_closed, NULL, "Whether close() was called.", NULL},
    {"output_shape", (getter)plan_output_shape, NULL, "The planned output's shape.", NULL},
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

int sgkpy_plan_type_ready(void)
{
    if (sgkpy_signature_parse(&execute_signature, "execute", "data, updates=None, out=None") < 0)
        return -1;
    return PyType_Ready(&sgkpy_plan_type);
}
