"""Gather (ONNX 1, 11, 13; NumPy's take along an axis) and TensorScatter
(ONNX 24, the KV-cache write), with their plans.

Kept in a module of their own, declaring their own C prototypes, so that
the package's other operators can change without touching these::

    rows = sgk.gather(table, ids)                       # axis 0: embedding
    sgk.tensor_scatter(cache, kv, positions, out=cache)  # in place
    with sgk.TensorScatterPlan(cache, kv, positions, mode="circular") as plan:
        plan.execute(cache, kv, out=cache)
"""
import ctypes

from . import _dtypes, _lib
from . import (_Desc, _DUMMY, _Output, _Values, _bind_strings, _check, _dtypes_compatible,
               _flags, _pointer, _spec, _string_result_dtype, Plan)
from .errors import InvalidArgumentError

__all__ = ["gather", "gather_shape", "tensor_scatter", "GatherPlan", "TensorScatterPlan",
           "TENSOR_SCATTER_MODES"]

TENSOR_SCATTER_MODES = ("linear", "circular")

_T = ctypes.POINTER(_lib.Tensor)
_PP = ctypes.POINTER(ctypes.c_void_p)
_PROTOTYPES = {
    "sgk_gather": (ctypes.c_int, [_T, _T, ctypes.c_int64, ctypes.c_void_p]),
    "sgk_gather_shape": (ctypes.c_int, [_T, _T, ctypes.c_int64, ctypes.POINTER(ctypes.c_int64),
                                        ctypes.POINTER(ctypes.c_int32)]),
    "sgk_tensor_scatter": (ctypes.c_int, [_T, _T, _T, ctypes.c_int64, ctypes.c_int,
                                          ctypes.c_void_p]),
    "sgk_plan_gather": (ctypes.c_int, [_PP, _T, _T, ctypes.c_int64, ctypes.c_uint32]),
    "sgk_plan_tensor_scatter": (ctypes.c_int, [_PP, _T, _T, _T, ctypes.c_int64, ctypes.c_int,
                                               ctypes.c_uint32]),
}
_declared = None


def _c():
    """The library, with this module's entry points declared."""
    global _declared
    lib = _lib.lib()
    if _declared is not lib:
        for name, (restype, argtypes) in _PROTOTYPES.items():
            fn = getattr(lib, name)
            fn.restype, fn.argtypes = restype, argtypes
        _declared = lib
    return lib


def _mode(mode):
    if isinstance(mode, str) and mode in TENSOR_SCATTER_MODES:
        return TENSOR_SCATTER_MODES.index(mode)
    raise InvalidArgumentError(f"mode must be one of {', '.join(TENSOR_SCATTER_MODES)}, "
                               f"not {mode!r}")


def _shape_of(x):
    return tuple(int(d) for d in (x.shape if hasattr(x, "shape") else x))


def _gather_shape(code, d_shape, i_shape, axis):
    dummy = ctypes.addressof(_DUMMY)
    dd, ii = _Desc(code, d_shape, dummy), _Desc(_dtypes.INT64, i_shape, dummy)
    shape = (ctypes.c_int64 * (len(d_shape) + len(i_shape) + 1))()
    rank = ctypes.c_int32()
    _check(_c().sgk_gather_shape(dd.ref, ii.ref, int(axis), shape, ctypes.byref(rank)))
    return tuple(shape[:rank.value])


def gather_shape(data, indices, axis=0):
    """Gather's output shape, data.shape[:axis] + indices.shape +
    data.shape[axis+1:]; data and indices may be arrays or shapes."""
    return _gather_shape(_dtypes.FLOAT32, _shape_of(data), _shape_of(indices), axis)


def gather(data, indices, axis=0, out=None, *, dtype=None):
    """Gather (ONNX 1, 11, 13), numpy.take(data, indices, axis) with
    negative indices counted from the end: every index checked first."""
    d = _Values(data, dtype)
    i_arr, i_code = _dtypes.as_indices(indices)
    shape = _gather_shape(d.code, d.array.shape, i_arr.shape, axis)
    table = _bind_strings(d)
    o = _Output(out, shape, d)
    dd, ii = d.desc(), _Desc(i_code, i_arr.shape, _pointer(i_arr))
    _check(_c().sgk_gather(dd.ref, ii.ref, int(axis), o.pointer))
    return o.finish(table, _string_result_dtype(data))


def _write_indices(write_indices):
    """(array, descriptor) of the write indices, or (None, None) for zeros;
    the descriptor keeps a reference to the array."""
    if write_indices is None:
        return None, None
    w_arr, w_code = _dtypes.as_indices(write_indices)
    desc = _Desc(w_code, w_arr.shape, _pointer(w_arr))
    desc.array = w_arr
    return w_arr, desc


def tensor_scatter(past_cache, update, write_indices=None, axis=-2, mode="linear", out=None,
                   *, dtype=None):
    """TensorScatter (ONNX 24): a copy of past_cache (or past_cache itself,
    with out=past_cache) with update's sequence positions (along axis, not
    0) written from write_indices[b] on for each batch b (zeros when None);
    mode "linear" (positions must fit) or "circular" (they wrap)."""
    c = _Values(past_cache, dtype)
    u = _Values(update, dtype, like=c.array.dtype)
    _, ww = _write_indices(write_indices)  # ww keeps the array alive
    code = _mode(mode)
    table = _bind_strings(c, u)
    o = _Output(out, c.array.shape, c)
    cc, uu = c.desc(), u.desc()
    _check(_c().sgk_tensor_scatter(cc.ref, uu.ref, ww.ref if ww else None, int(axis), code,
                                   o.pointer))
    return o.finish(table, _string_result_dtype(past_cache, update))


class GatherPlan(Plan):
    """Plan for gather: data gives the shape and type only (any object with
    .shape and .dtype), indices are read now.  execute(data[, out=])."""
    op = "gather"

    def __init__(self, data, indices, axis=0, *, flags=None, dtype=None):
        super().__init__()
        dspec = _spec(data, dtype)
        i_arr, i_code = _dtypes.as_indices(indices)
        shape = _gather_shape(dspec[2], dspec[0], i_arr.shape, axis)
        dd = _Desc(dspec[2], dspec[0])
        ii = _Desc(i_code, i_arr.shape, _pointer(i_arr))
        self._build(_c().sgk_plan_gather, (dd.ref, ii.ref, int(axis), _flags(None, False, flags)),
                    dspec, None, shape, dtype)


class TensorScatterPlan(Plan):
    """Plan for tensor_scatter: past_cache and update give the shapes and
    type only, write_indices (None: zeros) are read and checked now.
    execute(past_cache, update, out=past_cache) writes in place."""
    op = "tensor_scatter"
    _scatter = True

    def __init__(self, past_cache, update, write_indices=None, axis=-2, mode="linear", *,
                 flags=None, dtype=None):
        super().__init__()
        cspec = _spec(past_cache, dtype)
        uspec = _spec(update, dtype)
        _, ww = _write_indices(write_indices)
        cc = _Desc(cspec[2], cspec[0])
        uu = _Desc(cspec[2] if _dtypes_compatible(cspec, uspec) else uspec[2], uspec[0])
        self._build(_c().sgk_plan_tensor_scatter,
                    (cc.ref, uu.ref, ww.ref if ww else None, int(axis), _mode(mode),
                     _flags(None, False, flags)),
                    cspec, uspec, cspec[0], dtype)
