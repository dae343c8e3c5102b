"""The one-shot operators.

Each first offers its arguments to the extension module as they are (the
direct path: ndarrays the library can take); when the extension declines
(returns NotImplemented), the general path converts them (_marshal.py) and
calls the extension again with the prepared arrays and their sgk code.
"""
import numpy as np

from . import _dtypes, _marshal
from ._native import ext as _ext


def scatter_nd(data, indices, updates, reduction="none", out=None, *, dtype=None):
    """ScatterND / ScatterNDUpdate: out = copy(data), then
    out[indices[i]] = f(out[indices[i]], updates[i]) in row-major order.
    reduction: none, add (sum), sub, mul (prod), max, min.  out may be data
    (in place).  dtype: an sgk type name reinterpreting data, e.g. a uint16
    array with dtype="bfloat16"."""
    if dtype is None:
        result = _ext.scatter_nd(data, indices, updates, reduction, out)
        if result is not NotImplemented:
            return result
    d = _marshal.Values(data, dtype)
    u = _marshal.Values(updates, dtype, like=d.array.dtype)
    i_arr, _ = _dtypes.as_indices(indices)
    red = _marshal.reduction_code(reduction)
    table = _marshal.bind_strings(d, u)
    o = _marshal.Output(out, d.array.shape, d)
    _ext.scatter_nd(d.raw, i_arr, u.raw, red, o.raw, d.code)
    return o.finish(table, _marshal.string_result_dtype(data, updates))


def _shape_of(x):
    """An array's shape, or x itself taken as a shape."""
    return tuple(int(d) for d in (np.shape(x) if hasattr(x, "shape") else x))


def gather_nd_shape(data, indices, batch_dims=0):
    """GatherND's output shape, as a tuple.  data and indices may be arrays
    (their shapes are used) or shapes."""
    return _marshal.gather_nd_shape(_dtypes.FLOAT32, _shape_of(data), _shape_of(indices),
                                    batch_dims)


def gather_nd(data, indices, batch_dims=0, *, out=None, dtype=None):
    """GatherND (ONNX 11-13, OpenVINO GatherND-8) with batch_dims."""
    if dtype is None:
        result = _ext.gather_nd(data, indices, batch_dims, out)
        if result is not NotImplemented:
            return result
    d = _marshal.Values(data, dtype)
    i_arr, _ = _dtypes.as_indices(indices)
    shape = _marshal.gather_nd_shape(d.code, d.array.shape, i_arr.shape, batch_dims)
    table = _marshal.bind_strings(d)
    o = _marshal.Output(out, shape, d)
    _ext.gather_nd(d.raw, i_arr, int(batch_dims), o.raw, d.code)
    return o.finish(table, _marshal.string_result_dtype(data))


def scatter_elements(data, indices, updates, axis=0, reduction="none", out=None, *,
                     dtype=None):
    """ScatterElements (ONNX 11-18; Scatter-9/11 is reduction "none"):
    out[..., indices[pos], ...] (along axis) = f(out[...], updates[pos])."""
    if dtype is None:
        result = _ext.scatter_elements(data, indices, updates, axis, reduction, out)
        if result is not NotImplemented:
            return result
    d = _marshal.Values(data, dtype)
    u = _marshal.Values(updates, dtype, like=d.array.dtype)
    i_arr, _ = _dtypes.as_indices(indices)
    red = _marshal.reduction_code(reduction)
    table = _marshal.bind_strings(d, u)
    o = _marshal.Output(out, d.array.shape, d)
    _ext.scatter_elements(d.raw, i_arr, u.raw, int(axis), red, o.raw, d.code)
    return o.finish(table, _marshal.string_result_dtype(data, updates))


def gather_elements(data, indices, axis=0, *, out=None, dtype=None):
    """GatherElements (ONNX 11, 13): out[pos] = data[pos with indices[pos] on axis]."""
    if dtype is None:
        result = _ext.gather_elements(data, indices, axis, out)
        if result is not NotImplemented:
            return result
    d = _marshal.Values(data, dtype)
    i_arr, _ = _dtypes.as_indices(indices)
    table = _marshal.bind_strings(d)
    o = _marshal.Output(out, i_arr.shape, d)
    _ext.gather_elements(d.raw, i_arr, int(axis), o.raw, d.code)
    return o.finish(table, _marshal.string_result_dtype(data))


def gather_shape(data, indices, axis=0):
    """Gather's output shape, data.shape[:axis] + indices.shape +
    data.shape[axis+1:]; data and indices may be arrays or shapes."""
    return _marshal.gather_shape(_dtypes.FLOAT32, _shape_of(data), _shape_of(indices), axis)


def gather(data, indices, axis=0, out=None, *, dtype=None):
    """Gather (ONNX 1, 11, 13), numpy.take(data, indices, axis) with
    negative indices counted from the end: every index checked first."""
    if dtype is None:
        result = _ext.gather(data, indices, axis, out)
        if result is not NotImplemented:
            return result
    d = _marshal.Values(data, dtype)
    i_arr, _ = _dtypes.as_indices(indices)
    shape = _marshal.gather_shape(d.code, d.array.shape, i_arr.shape, axis)
    table = _marshal.bind_strings(d)
    o = _marshal.Output(out, shape, d)
    _ext.gather(d.raw, i_arr, int(axis), o.raw, d.code)
    return o.finish(table, _marshal.string_result_dtype(data))


def tensor_scatter(past_cache, update, write_indices=None, axis=-2, mode="linear", out=None,
                   *, dtype=None):
    """TensorScatter (ONNX 24), the KV-cache write: a copy of past_cache (or
    past_cache itself, with out=past_cache) with update's sequence positions
    (along axis, not 0) written from write_indices[b] on for each batch b
    (zeros when None); mode "linear" (positions must fit) or "circular"
    (they wrap)."""
    if dtype is None:
        result = _ext.tensor_scatter(past_cache, update, write_indices, axis, mode, out)
        if result is not NotImplemented:
            return result
    c = _marshal.Values(past_cache, dtype)
    u = _marshal.Values(update, dtype, like=c.array.dtype)
    w_arr = None if write_indices is None else _dtypes.as_indices(write_indices)[0]
    code = _marshal.tensor_scatter_mode_code(mode)
    table = _marshal.bind_strings(c, u)
    o = _marshal.Output(out, c.array.shape, c)
    _ext.tensor_scatter(c.raw, u.raw, w_arr, int(axis), code, o.raw, c.code)
    return o.finish(table, _marshal.string_result_dtype(past_cache, update))
