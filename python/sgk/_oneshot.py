"""The one-shot operators.

Each is the extension's own function (python/ext/oneshot.c), one per row
of the registry's operator list, with its Python signature and docstring.
It calls the library directly when every operand is what the library
takes; otherwise it hands its bound arguments to general() here, which
converts them (_marshal.py) and calls the extension's call_prepared with
the prepared arrays.
"""
import numpy as np

from . import _dtypes, _marshal, errors
from ._native import available, ext

OPERATORS = tuple(_marshal.KINDS)


def general(op, *arguments):
    """The general path of operator op: arguments are its parameters in
    registry order, then out and dtype."""
    *params, out, dtype = arguments
    operands = _marshal.CallOperands(_marshal.KINDS[op], params, dtype)
    code = operands.data.code
    if operands.strings is None:
        return ext.call_prepared(op, code, *operands.raw, out)
    pointers = ext.call_prepared(op, code, *operands.raw, None)
    data, updates = params[0], None
    if operands.updates is not None:
        updates = params[_marshal.KINDS[op].index("updates")]
    return _marshal.string_result(operands.strings, pointers, out,
                                  _marshal.string_result_dtype(data, updates))


if available:
    ext._setup(errors.error_for, _dtypes.USER_DTYPES, general)
    globals().update((name, getattr(ext, name)) for name in OPERATORS)


def __getattr__(name):
    """Without the extension, each operator raises why it is missing."""
    if not available:
        return getattr(ext, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _shape_of(x):
    """An array's shape, or x itself taken as a shape."""
    return tuple(int(d) for d in (np.shape(x) if hasattr(x, "shape") else x))


def gather_nd_shape(data, indices, batch_dims=0):
    """GatherND's output shape, as a tuple.  data and indices may be arrays
    (their shapes are used) or shapes."""
    return ext.output_shape("gather_nd", _shape_of(data), _shape_of(indices), batch_dims)


def gather_shape(data, indices, axis=0):
    """Gather's output shape, data.shape[:axis] + indices.shape +
    data.shape[axis+1:]; data and indices may be arrays or shapes."""
    return ext.output_shape("gather", _shape_of(data), _shape_of(indices), axis)
