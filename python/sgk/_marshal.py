"""The general path's argument handling: what the operators do with
arguments the extension module declines (lists, other dtypes, strides,
strings, reinterpreted bits, a wrong `out`), turning them into the
C-contiguous arrays the library takes, and every error about them.
"""
import ctypes

import numpy as np

from . import _dtypes, _lib
from .errors import InvalidArgumentError, error_for

PLAN_DETERMINISTIC = 1 << 0
PLAN_ALLOW_REORDER = 1 << 1
PLAN_WIDE_ACCUMULATE = 1 << 2

# TensorScatter's modes, in the order of sgk_tensor_scatter_mode.
TENSOR_SCATTER_MODES = ("linear", "circular")


def check(status):
    """Raise the status's exception with this thread's sgk_last_error()."""
    if status != 0:
        detail = _lib.lib().sgk_last_error()
        raise error_for(status, detail.decode("utf-8", "replace") if detail else "")


def reduction_code(reduction):
    if isinstance(reduction, (int, np.integer)) and not isinstance(reduction, bool):
        return int(reduction)
    if not isinstance(reduction, str):
        raise InvalidArgumentError(f"reduction must be a name or an int, not {reduction!r}")
    code = ctypes.c_int()
    if _lib.lib().sgk_reduction_from_name(reduction.encode(), ctypes.byref(code)) != 0:
        raise InvalidArgumentError(f"unknown reduction {reduction!r}")
    return code.value


def tensor_scatter_mode_code(mode):
    if isinstance(mode, str) and mode in TENSOR_SCATTER_MODES:
        return TENSOR_SCATTER_MODES.index(mode)
    raise InvalidArgumentError(f"mode must be one of {', '.join(TENSOR_SCATTER_MODES)}, "
                               f"not {mode!r}")


def plan_flags(deterministic, wide_accumulate, flags):
    value = 0 if flags is None else int(flags)
    if deterministic is True:
        value |= PLAN_DETERMINISTIC
    elif deterministic is False:
        value |= PLAN_ALLOW_REORDER
    if wide_accumulate:
        value |= PLAN_WIDE_ACCUMULATE
    return value


class Values:
    """data/updates prepared for a call: the contiguous array, the sgk code,
    and for strings the pointer array standing in for the objects."""

    def __init__(self, x, override=None, like=None):
        self.array, self.code = _dtypes.as_values(x, override, like)
        self.pointers = None  # filled for strings by bind_strings

    @property
    def raw(self):
        return self.pointers if self.code == _dtypes.STRING else self.array


def bind_strings(*values):
    """Give string operands pointer arrays from one shared table."""
    if values[0].code != _dtypes.STRING:
        return None
    present = [v for v in values if v is not None]
    table = _dtypes.StringTable(*(v.array for v in present))
    for v, ptrs in zip(present, table.pointers):
        v.pointers = ptrs
    return table


def _is_string_kind(dtype):
    return np.dtype(dtype).kind in ("O", "U", "S")


def string_result_dtype(data, updates=None):
    """str/bytes (fixed-width) arrays in give the same kind out; object
    arrays and lists give object arrays of the original objects."""
    if not (isinstance(data, np.ndarray) and data.dtype.kind in "US"):
        return None
    dtypes = [data.dtype]
    if isinstance(updates, np.ndarray) and updates.dtype.kind in "US":
        dtypes.append(updates.dtype)
    try:
        return np.result_type(*dtypes)
    except TypeError:
        return None


class Output:
    """The destination of a call: the caller's out= array (checked for shape,
    type and layout; it may be data, for in-place scatters) or a new array.
    For strings sgk writes a pointer array, turned back into the original
    objects by finish()."""

    def __init__(self, out, shape, values):
        self.shape = tuple(shape)
        self.user = out
        self.code = values.code
        if out is not None:
            self._check_user(out, None if values.code == _dtypes.STRING else values.array.dtype)
        if values.code == _dtypes.STRING:
            self.raw = np.empty(self.shape, dtype=np.uintp)
        else:
            self.raw = out if out is not None else np.empty(self.shape, values.array.dtype)

    def _check_user(self, out, dtype):
        if not isinstance(out, np.ndarray):
            raise InvalidArgumentError(f"out must be a NumPy array, not {type(out).__name__}")
        if out.shape != self.shape:
            raise InvalidArgumentError(f"out has shape {out.shape}, expected {self.shape}")
        if not out.flags.writeable:
            raise InvalidArgumentError("out is read-only")
        if dtype is None:
            if not _is_string_kind(out.dtype):
                raise InvalidArgumentError(f"out must be an object array for strings, "
                                           f"not {out.dtype}")
            return
        if out.dtype != dtype:
            raise InvalidArgumentError(f"out is {out.dtype}, expected {dtype}")
        if not out.flags.c_contiguous:
            raise InvalidArgumentError("out must be C-contiguous")

    def finish(self, table, result_dtype=None):
        if self.code != _dtypes.STRING:
            return self.raw
        objects = table.objects(self.raw)
        if self.user is not None:
            self.user[...] = objects
            return self.user
        return objects if result_dtype is None else objects.astype(result_dtype)


def spec(x, override):
    """(shape, numpy dtype, sgk code) of an array-like, without copying an
    ndarray (or any object with .shape and .dtype)."""
    if hasattr(x, "shape") and hasattr(x, "dtype"):
        dt = np.dtype(x.dtype)
        shape = tuple(int(s) for s in x.shape)
    else:
        arr = np.asarray(x)
        dt, shape = arr.dtype, arr.shape
    code = _dtypes.code_of(dt, override)
    return shape, dt, code


def planned_updates_code(dspec, uspec):
    """Updates given as, e.g., float64 for float32 data are planned as data's
    type (execute casts them); unrelated types are left for the library to
    reject."""
    if dspec[2] == uspec[2]:
        return dspec[2]
    if dspec[2] == _dtypes.STRING or uspec[2] == _dtypes.STRING:
        return uspec[2]
    return dspec[2] if np.can_cast(uspec[1], dspec[1], casting="same_kind") else uspec[2]


# ---- ctypes calls: the output shapes of GatherND and Gather (queries, not
# per-call work: the extension computes them itself on its direct path) ------

class Desc:
    """An sgk_tensor for ctypes calls (over a shape, with data at pointer),
    keeping the shape storage alive."""

    def __init__(self, code, shape, pointer=None):
        self.shape = tuple(int(d) for d in shape)
        self._dims = (ctypes.c_int64 * max(len(self.shape), 1))(*self.shape)
        self.struct = _lib.Tensor(code, len(self.shape), self._dims, pointer)

    @property
    def ref(self):
        return ctypes.byref(self.struct)


# the shape queries only look at shapes, but the library wants non-NULL buffers
_DUMMY = (ctypes.c_int64 * 1)()


def _output_shape(query, code, d_shape, i_shape, arg):
    dummy = ctypes.addressof(_DUMMY)
    dd, ii = Desc(code, d_shape, dummy), Desc(_dtypes.INT64, i_shape, dummy)
    shape = (ctypes.c_int64 * (len(d_shape) + len(i_shape) + 1))()
    rank = ctypes.c_int32()
    check(query(dd.ref, ii.ref, int(arg), shape, ctypes.byref(rank)))
    return tuple(shape[:rank.value])


def gather_nd_shape(code, d_shape, i_shape, batch_dims):
    return _output_shape(_lib.lib().sgk_gather_nd_shape, code, d_shape, i_shape, batch_dims)


def gather_shape(code, d_shape, i_shape, axis):
    return _output_shape(_lib.lib().sgk_gather_shape, code, d_shape, i_shape, axis)
