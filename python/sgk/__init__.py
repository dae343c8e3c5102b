"""sgk: ctypes binding of libsgk, the scatter/gather kernels for the ONNX and
OpenVINO ScatterND / GatherND / ScatterElements / GatherElements family.

NumPy arrays in and out::

    import numpy as np, sgk
    out = sgk.scatter_nd(data, indices, updates, reduction="add")
    rows = sgk.gather_nd(table, ids[:, None])
    with sgk.ScatterNDPlan(data, indices, updates, "add") as plan:
        for step in steps:
            plan.execute(data, updates, out=data)      # in place

Types: bool, int8..uint64, float16/32/64, complex64/128; bfloat16 as the
ml_dtypes.bfloat16 dtype when ml_dtypes is installed, or as a uint16 array of
bits with dtype="bfloat16"; strings as object (or str/bytes) arrays, whose
results are the very objects passed in (sgk copies pointers only).

The library is found through SGK_LIBRARY (path to libsgk.so), SGK_BUILD_DIR
(a build directory), the source tree this package sits in, and then the
system's library path.  Errors raise a subclass of SgkError per status,
carrying sgk_last_error().
"""
import ctypes

import numpy as np

from . import _dtypes, _lib
from ._dtypes import BFLOAT16_DTYPE
from ._lib import LibraryNotFoundError
from ._openvino import openvino_extension_path
from .errors import (InvalidArgumentError, IndexOutOfRangeError, OutOfMemoryError,
                     SgkError, ShapeError, SizeOverflowError, UnsupportedError, error_for)

__all__ = [
    "scatter_nd", "gather_nd", "scatter_elements", "gather_elements", "gather_nd_shape",
    "Plan", "ScatterNDPlan", "GatherNDPlan", "ScatterElementsPlan", "GatherElementsPlan",
    "set_num_threads", "runtime_describe", "version", "library_path", "dtype_size",
    "SgkError", "InvalidArgumentError", "ShapeError", "IndexOutOfRangeError",
    "UnsupportedError", "OutOfMemoryError", "SizeOverflowError", "LibraryNotFoundError",
    "BFLOAT16_DTYPE", "PLAN_DETERMINISTIC", "PLAN_ALLOW_REORDER", "PLAN_WIDE_ACCUMULATE",
    "gather", "gather_shape", "tensor_scatter", "GatherPlan", "TensorScatterPlan",
]

PLAN_DETERMINISTIC = 1 << 0
PLAN_ALLOW_REORDER = 1 << 1
PLAN_WIDE_ACCUMULATE = 1 << 2

_REDUCTION_NAMES = ("none", "add", "sub", "mul", "max", "min")


# ---- small helpers ----------------------------------------------------------

def _check(status):
    """Raise the status's exception with this thread's sgk_last_error()."""
    if status != 0:
        detail = _lib.lib().sgk_last_error()
        raise error_for(status, detail.decode("utf-8", "replace") if detail else "")


def _reduction(reduction):
    if isinstance(reduction, (int, np.integer)) and not isinstance(reduction, bool):
        return int(reduction)
    if not isinstance(reduction, str):
        raise InvalidArgumentError(f"reduction must be a name or an int, not {reduction!r}")
    code = ctypes.c_int()
    if _lib.lib().sgk_reduction_from_name(reduction.encode(), ctypes.byref(code)) != 0:
        raise InvalidArgumentError(f"unknown reduction {reduction!r}")
    return code.value


def _flags(deterministic, wide_accumulate, flags):
    value = 0 if flags is None else int(flags)
    if deterministic is True:
        value |= PLAN_DETERMINISTIC
    elif deterministic is False:
        value |= PLAN_ALLOW_REORDER
    if wide_accumulate:
        value |= PLAN_WIDE_ACCUMULATE
    return value


class _Desc:
    """An sgk_tensor over a NumPy array (or over a shape, with data NULL),
    keeping the shape storage alive."""

    def __init__(self, code, shape, pointer=None):
        self.shape = tuple(int(d) for d in shape)
        self._dims = (ctypes.c_int64 * max(len(self.shape), 1))(*self.shape)
        self.struct = _lib.Tensor(code, len(self.shape), self._dims, pointer)

    @property
    def ref(self):
        return ctypes.byref(self.struct)


def _pointer(arr):
    return arr.ctypes.data if arr is not None else None


class _Values:
    """data/updates prepared for a call: the contiguous array, the sgk code,
    and for strings the pointer array standing in for the objects."""

    def __init__(self, x, override=None, like=None):
        self.array, self.code = _dtypes.as_values(x, override, like)
        self.pointers = None  # filled for strings by _bind_strings

    @property
    def raw(self):
        return self.pointers if self.code == _dtypes.STRING else self.array

    def desc(self):
        return _Desc(self.code, self.array.shape, _pointer(self.raw))


def _bind_strings(*values):
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


def _string_result_dtype(data, updates=None):
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


class _Output:
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

    @property
    def pointer(self):
        return self.raw.ctypes.data

    def finish(self, table, result_dtype=None):
        if self.code != _dtypes.STRING:
            return self.raw
        objects = table.objects(self.raw)
        if self.user is not None:
            self.user[...] = objects
            return self.user
        return objects if result_dtype is None else objects.astype(result_dtype)


# ---- one-shot operators -----------------------------------------------------

def scatter_nd(data, indices, updates, reduction="none", out=None, *, dtype=None):
    """ScatterND / ScatterNDUpdate: out = copy(data), then
    out[indices[i]] = f(out[indices[i]], updates[i]) in row-major order.
    reduction: none, add (sum), sub, mul (prod), max, min.  out may be data
    (in place).  dtype: an sgk type name reinterpreting data, e.g. a uint16
    array with dtype="bfloat16"."""
    d = _Values(data, dtype)
    u = _Values(updates, dtype, like=d.array.dtype)
    i_arr, i_code = _dtypes.as_indices(indices)
    red = _reduction(reduction)
    table = _bind_strings(d, u)
    o = _Output(out, d.array.shape, d)
    dd, ii, uu = d.desc(), _Desc(i_code, i_arr.shape, _pointer(i_arr)), u.desc()
    _check(_lib.lib().sgk_scatter_nd(dd.ref, ii.ref, uu.ref, red, o.pointer))
    return o.finish(table, _string_result_dtype(data, updates))


def gather_nd_shape(data, indices, batch_dims=0):
    """GatherND's output shape, as a tuple.  data and indices may be arrays
    (their shapes are used) or shapes."""
    d_shape = tuple(np.shape(data)) if hasattr(data, "shape") else tuple(data)
    i_shape = tuple(np.shape(indices)) if hasattr(indices, "shape") else tuple(indices)
    return _gather_nd_shape(_dtypes.FLOAT32, d_shape, i_shape, batch_dims)


# gather_nd_shape only looks at shapes, but the library wants non-NULL buffers
_DUMMY = (ctypes.c_int64 * 1)()


def _gather_nd_shape(code, d_shape, i_shape, batch_dims):
    dummy = ctypes.addressof(_DUMMY)
    dd, ii = _Desc(code, d_shape, dummy), _Desc(_dtypes.INT64, i_shape, dummy)
    shape = (ctypes.c_int64 * (len(d_shape) + len(i_shape) + 1))()
    rank = ctypes.c_int32()
    _check(_lib.lib().sgk_gather_nd_shape(dd.ref, ii.ref, int(batch_dims), shape,
                                          ctypes.byref(rank)))
    return tuple(shape[:rank.value])


def gather_nd(data, indices, batch_dims=0, *, out=None, dtype=None):
    """GatherND (ONNX 11-13, OpenVINO GatherND-8) with batch_dims."""
    d = _Values(data, dtype)
    i_arr, i_code = _dtypes.as_indices(indices)
    shape = _gather_nd_shape(d.code, d.array.shape, i_arr.shape, batch_dims)
    table = _bind_strings(d)
    o = _Output(out, shape, d)
    dd, ii = d.desc(), _Desc(i_code, i_arr.shape, _pointer(i_arr))
    _check(_lib.lib().sgk_gather_nd(dd.ref, ii.ref, int(batch_dims), o.pointer))
    return o.finish(table, _string_result_dtype(data))


def scatter_elements(data, indices, updates, axis=0, reduction="none", out=None, *,
                     dtype=None):
    """ScatterElements (ONNX 11-18; Scatter-9/11 is reduction "none"):
    out[..., indices[pos], ...] (along axis) = f(out[...], updates[pos])."""
    d = _Values(data, dtype)
    u = _Values(updates, dtype, like=d.array.dtype)
    i_arr, i_code = _dtypes.as_indices(indices)
    red = _reduction(reduction)
    table = _bind_strings(d, u)
    o = _Output(out, d.array.shape, d)
    dd, ii, uu = d.desc(), _Desc(i_code, i_arr.shape, _pointer(i_arr)), u.desc()
    _check(_lib.lib().sgk_scatter_elements(dd.ref, ii.ref, uu.ref, int(axis), red, o.pointer))
    return o.finish(table, _string_result_dtype(data, updates))


def gather_elements(data, indices, axis=0, *, out=None, dtype=None):
    """GatherElements (ONNX 11, 13): out[pos] = data[pos with indices[pos] on axis]."""
    d = _Values(data, dtype)
    i_arr, i_code = _dtypes.as_indices(indices)
    table = _bind_strings(d)
    o = _Output(out, i_arr.shape, d)
    dd, ii = d.desc(), _Desc(i_code, i_arr.shape, _pointer(i_arr))
    _check(_lib.lib().sgk_gather_elements(dd.ref, ii.ref, int(axis), o.pointer))
    return o.finish(table, _string_result_dtype(data))


# ---- plans ------------------------------------------------------------------

def _spec(x, override):
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


class Plan:
    """A planned operator: validated indices and a chosen execution path,
    executed many times on buffers of the planned shapes and type.  Free it
    with close() (or a with block); it is also freed when collected.
    execute() may be called from several threads at once."""

    op = None
    _scatter = False

    def __init__(self):
        self._handle = None

    def _build(self, fn, args, data_spec, updates_spec, output_shape, override):
        self._data_shape, self._dtype, self._code = data_spec
        self._updates_shape = updates_spec[0] if updates_spec else None
        self._updates_dtype = updates_spec[1] if updates_spec else None
        self.output_shape = tuple(output_shape)
        self._override = override
        handle = ctypes.c_void_p()
        _check(fn(ctypes.byref(handle), *args))
        self._handle = handle.value

    # -- lifetime
    def close(self):
        handle, self._handle = getattr(self, "_handle", None), None
        if handle:
            _lib.lib().sgk_plan_destroy(handle)

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @property
    def closed(self):
        return not self._handle

    def _live(self):
        if not self._handle:
            raise InvalidArgumentError(f"{self.op} plan is closed")
        return self._handle

    # -- queries
    def describe(self):
        """The path, threads and SIMD target chosen for this plan."""
        text = _lib.lib().sgk_plan_describe(self._live())
        return text.decode("utf-8", "replace") if text else ""

    @property
    def dtype(self):
        return self._dtype

    def __repr__(self):
        state = "closed" if self.closed else self.describe()
        return f"<sgk.{type(self).__name__} {self.op} -> {self.output_shape}: {state}>"

    # -- execution
    def _fits(self, arr, shape):
        return (type(arr) is np.ndarray and arr.dtype == self._dtype and arr.shape == shape
                and arr.flags.c_contiguous)

    def execute(self, data, updates=None, out=None):
        """Run the plan: returns out (a new array when out is None).  data and
        updates must have the planned shapes; out may be data for scatters."""
        handle = self._live()
        # fast path: contiguous arrays of exactly the planned type and shapes
        if (self._code != _dtypes.STRING and self._fits(data, self._data_shape)
                and (self._fits(updates, self._updates_shape) if self._scatter
                     else updates is None)
                and (out is None or (self._fits(out, self.output_shape)
                                     and out.flags.writeable))):
            if out is None:
                out = np.empty(self.output_shape, self._dtype)
            _check(_lib.lib().sgk_execute(handle, data.ctypes.data,
                                          updates.ctypes.data if self._scatter else None,
                                          out.ctypes.data))
            return out
        d = _Values(data, self._override)
        if d.code != self._code or d.array.shape != self._data_shape:
            raise InvalidArgumentError(
                f"{self.op}: data is {d.array.dtype}{list(d.array.shape)}, planned for "
                f"{self._dtype}{list(self._data_shape)}")
        u = None
        if self._scatter:
            if updates is None:
                raise InvalidArgumentError(f"{self.op}: updates are required")
            u = _Values(updates, self._override, like=d.array.dtype)
            if u.array.shape != self._updates_shape:
                raise InvalidArgumentError(
                    f"{self.op}: updates have shape {list(u.array.shape)}, planned for "
                    f"{list(self._updates_shape)}")
        elif updates is not None:
            raise InvalidArgumentError(f"{self.op}: a gather takes no updates")
        table = _bind_strings(d, u) if u is not None else _bind_strings(d)
        o = _Output(out, self.output_shape, d)
        _check(_lib.lib().sgk_execute(handle, _pointer(d.raw), _pointer(u.raw) if u else None,
                                      o.pointer))
        return o.finish(table, _string_result_dtype(data, updates))


class ScatterNDPlan(Plan):
    """Plan for scatter_nd.  data/updates give the shapes and type only (any
    object with .shape and .dtype will do); indices are read now.
    deterministic: None (library default), True, or False (float add/sub/mul
    may reorder); wide_accumulate: fp16/bf16 duplicate runs in float32."""
    op = "scatter_nd"
    _scatter = True

    def __init__(self, data, indices, updates, reduction="none", *, deterministic=None,
                 wide_accumulate=False, flags=None, dtype=None):
        super().__init__()
        dspec = _spec(data, dtype)
        uspec = _spec(updates, dtype)
        i_arr, i_code = _dtypes.as_indices(indices)
        dd = _Desc(dspec[2], dspec[0])
        uu = _Desc(dspec[2] if _dtypes_compatible(dspec, uspec) else uspec[2], uspec[0])
        ii = _Desc(i_code, i_arr.shape, _pointer(i_arr))
        self._build(_lib.lib().sgk_plan_scatter_nd,
                    (dd.ref, ii.ref, uu.ref, _reduction(reduction),
                     _flags(deterministic, wide_accumulate, flags)),
                    dspec, uspec, dspec[0], dtype)


class GatherNDPlan(Plan):
    """Plan for gather_nd."""
    op = "gather_nd"

    def __init__(self, data, indices, batch_dims=0, *, flags=None, dtype=None):
        super().__init__()
        dspec = _spec(data, dtype)
        i_arr, i_code = _dtypes.as_indices(indices)
        shape = _gather_nd_shape(dspec[2], dspec[0], i_arr.shape, batch_dims)
        dd = _Desc(dspec[2], dspec[0])
        ii = _Desc(i_code, i_arr.shape, _pointer(i_arr))
        self._build(_lib.lib().sgk_plan_gather_nd,
                    (dd.ref, ii.ref, int(batch_dims), _flags(None, False, flags)),
                    dspec, None, shape, dtype)


class ScatterElementsPlan(Plan):
    """Plan for scatter_elements."""
    op = "scatter_elements"
    _scatter = True

    def __init__(self, data, indices, updates, axis=0, reduction="none", *,
                 deterministic=None, wide_accumulate=False, flags=None, dtype=None):
        super().__init__()
        dspec = _spec(data, dtype)
        uspec = _spec(updates, dtype)
        i_arr, i_code = _dtypes.as_indices(indices)
        dd = _Desc(dspec[2], dspec[0])
        uu = _Desc(dspec[2] if _dtypes_compatible(dspec, uspec) else uspec[2], uspec[0])
        ii = _Desc(i_code, i_arr.shape, _pointer(i_arr))
        self._build(_lib.lib().sgk_plan_scatter_elements,
                    (dd.ref, ii.ref, uu.ref, int(axis), _reduction(reduction),
                     _flags(deterministic, wide_accumulate, flags)),
                    dspec, uspec, dspec[0], dtype)


class GatherElementsPlan(Plan):
    """Plan for gather_elements."""
    op = "gather_elements"

    def __init__(self, data, indices, axis=0, *, flags=None, dtype=None):
        super().__init__()
        dspec = _spec(data, dtype)
        i_arr, i_code = _dtypes.as_indices(indices)
        dd = _Desc(dspec[2], dspec[0])
        ii = _Desc(i_code, i_arr.shape, _pointer(i_arr))
        self._build(_lib.lib().sgk_plan_gather_elements,
                    (dd.ref, ii.ref, int(axis), _flags(None, False, flags)),
                    dspec, None, i_arr.shape, dtype)


def _dtypes_compatible(dspec, uspec):
    """Updates given as, e.g., float64 for float32 data are planned as data's
    type (execute casts them); unrelated types are left for the library to
    reject."""
    if dspec[2] == uspec[2]:
        return True
    if dspec[2] == _dtypes.STRING or uspec[2] == _dtypes.STRING:
        return False
    return np.can_cast(uspec[1], dspec[1], casting="same_kind")


# ---- runtime ----------------------------------------------------------------

def set_num_threads(n):
    """Worker threads for later plans and calls; 0 restores the default."""
    _check(_lib.lib().sgk_set_num_threads(int(n)))


def runtime_describe():
    """SIMD target, threads, topology and environment overrides."""
    return _lib.lib().sgk_runtime_describe().decode("utf-8", "replace")


def version():
    return _lib.lib().sgk_version().decode("utf-8", "replace")


def library_path():
    """The libsgk the binding loaded."""
    return _lib.path()


def dtype_size(name):
    """Bytes per element of an sgk dtype name (pointer size for strings)."""
    return int(_lib.lib().sgk_dtype_size(_dtypes.CODES[name]))


def status_name(status):
    return _lib.lib().sgk_status_name(int(status)).decode()


# Gather and TensorScatter live in their own module, built on the helpers
# above (imported last, once they exist).
from ._gather_tensor_scatter import (GatherPlan, TensorScatterPlan, gather,  # noqa: E402
                                     gather_shape, tensor_scatter)
