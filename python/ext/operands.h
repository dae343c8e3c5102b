/*
 * Python objects as sgk operands.
 *
 * Every operator function of the module is called in one of two ways:
 *
 * - direct (code None): with whatever the user passed.  When every operand
 *   already is what the library takes (an exact, C-contiguous, native-order
 *   ndarray of a dtype sgk knows; int32/int64 indices; an `out` of the right
 *   dtype and shape), the call goes straight to the library.  Otherwise the
 *   function declines: it returns NotImplemented, with no exception set,
 *   and the Python layer takes its general path (conversions, strings,
 *   reinterpreted bits, and every error message about the arguments).
 * - prepared (code an sgk_dtype): from that general path, with arrays it
 *   has already converted, whose items are taken as `code` (uint16 bits as
 *   bfloat16, pointer arrays as strings).  Anything unexpected then is the
 *   binding's own bug and raises InvalidArgumentError.
 *
 * The library's own failures raise in both ways (status.h).
 */
#ifndef SGKPY_OPERANDS_H
#define SGKPY_OPERANDS_H

#include "common.h"
#include "dtypes.h"

typedef struct {
    const char *op;       /* operator name, for messages */
    int code;             /* sgk_dtype of data/updates/output; -1 until data is seen */
    int prepared;         /* called from the general path, with code given */
    const char *declined; /* the operand that could not be passed as it is */
} sgkpy_call;

/* An sgk_tensor over an ndarray (or over a shape alone, data NULL). */
typedef struct {
    sgk_tensor tensor;
    int64_t shape[SGK_MAX_RANK];
    PyArrayObject *array; /* borrowed */
} sgkpy_tensor;

/* code_arg: None (direct) or an sgk_dtype (prepared).  0 on success; -1
   with an exception. */
int sgkpy_call_init(sgkpy_call *call, const char *op, PyObject *code_arg);

/* A prepared call of the given code (not checked: the library checks the
   dtype of what it is given). */
void sgkpy_call_prepared(sgkpy_call *call, const char *op, int code);

/* Each returns 1 when the operand can be passed as it is, else 0 with
   call->declined set and no exception. */
int sgkpy_data(sgkpy_call *call, PyObject *x, sgkpy_tensor *t);
int sgkpy_updates(sgkpy_call *call, PyObject *x, sgkpy_tensor *t);
int sgkpy_indices(sgkpy_call *call, PyObject *x, sgkpy_tensor *t);
int sgkpy_reduction(sgkpy_call *call, PyObject *x, sgk_reduction *reduction);
/* A TensorScatter mode: its name ("linear", "circular") when direct, as the
   Python API takes it; its code when prepared. */
int sgkpy_tensor_scatter_mode(sgkpy_call *call, PyObject *x, sgk_tensor_scatter_mode *mode);
int sgkpy_int64(sgkpy_call *call, PyObject *x, const char *what, int64_t *value);

/* The array the call writes: out itself when it can be written as it is,
   or a new array like data's when out is None.  NULL with no exception:
   declined (direct); NULL with an exception: allocation failed, or
   (prepared) an InvalidArgumentError saying what is wrong with out. */
PyArrayObject *sgkpy_output(sgkpy_call *call, PyObject *out, const sgkpy_tensor *data,
                            int32_t rank, const int64_t *shape);

/* What a function returns when an operand was declined: NotImplemented
   (direct), or InvalidArgumentError (prepared); NULL when an exception is
   already set. */
PyObject *sgkpy_decline(const sgkpy_call *call);

/* The result of a library call that wrote out: out on success (the
   reference is passed on), else out released and the status raised. */
PyObject *sgkpy_finish(sgk_status status, PyArrayObject *out);

/* shape as a tuple of ints; NULL with an exception. */
PyObject *sgkpy_shape_tuple(int32_t rank, const int64_t *shape);

/* shape as text, "[2, 3]", truncated to size. */
void sgkpy_shape_text(char *text, size_t size, int32_t rank, const int64_t *shape);

/* A tensor of the given sgk_dtype and shape (a sequence of ints) with no
   data, for planning.  0 on success; -1 with an exception. */
int sgkpy_shape_tensor(int code, PyObject *shape, sgkpy_tensor *t);

#endif /* SGKPY_OPERANDS_H */
