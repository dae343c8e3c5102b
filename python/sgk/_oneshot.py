"""The one-shot operators.

Each is the extension's own function (python/ext/oneshot.c), one per row
of the registry's operator list, with its Python signature and docstring.
It calls the library directly when every operand is what the library
takes; otherwise it hands its bound arguments to general() here, which
converts them (_marshal.py) and calls the extension's call_prepared with
the prepared arrays.

Type checkers read _oneshot.pyi, which python/stubgen.py generates from the
extension's operator table and signatures (and this module's annotated
functions): tests/python/test_typing.py fails while it is stale.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from . import _dtypes, _marshal, errors
from ._typing import ShapeLike
from ._native import available, ext

OPERATORS: tuple[str, ...] = tuple(_marshal.KINDS)


def general(op: str, *arguments: Any) -> Any:
    """The general path of operator op: arguments are its parameters in
    registry order, then out and dtype."""
    *params, out, dtype = arguments
    operands = _marshal.CallOperands(_marshal.KINDS[op], params, dtype)
    assert operands.data is not None  # every row has data
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


def __getattr__(name: str) -> Any:
    """Without the extension, each operator raises why it is missing."""
    if not available:
        return getattr(ext, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _shape_of(x: ShapeLike) -> tuple[int, ...]:
    """An array's shape, or x itself taken as a shape."""
    dims = np.shape(x) if hasattr(x, "shape") else x
    return tuple(int(d) for d in dims)


def gather_nd_shape(data: ShapeLike, indices: ShapeLike, batch_dims: int = 0) -> tuple[int, ...]:
    """GatherND's output shape, as a tuple: indices.shape[:-1] +
    data.shape[batch_dims + indices.shape[-1]:].  data and indices may be
    arrays (their shapes are used; any type) or shapes.  Raises ShapeError
    when the shapes break GatherND's rules, InvalidArgumentError for a
    batch_dims out of range."""
    return tuple(ext.output_shape("gather_nd", _shape_of(data), _shape_of(indices), batch_dims))


def gather_shape(data: ShapeLike, indices: ShapeLike, axis: int = 0) -> tuple[int, ...]:
    """Gather's output shape, data.shape[:axis] + indices.shape +
    data.shape[axis+1:]; data and indices may be arrays (their shapes are
    used; any type) or shapes.  Raises ShapeError or InvalidArgumentError
    (an axis outside [-r, r-1])."""
    return tuple(ext.output_shape("gather", _shape_of(data), _shape_of(indices), axis))
