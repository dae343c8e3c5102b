"""The general path's argument handling: what the operators and plans do
with arguments the extension module declines (lists, other dtypes,
strides, strings, reinterpreted bits), turning them into the C-contiguous
arrays the library takes, parameter by parameter according to its kind in
the registry's operator rows (the extension's operator_table()).  The
extension checks what it is then given (shapes, out) itself.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np
import numpy.typing as npt

from . import _dtypes
from ._native import available, ext
from .errors import InvalidArgumentError

# Plan flags and TensorScatter's modes, as sgk.h defines them.
PLAN_DETERMINISTIC: int
PLAN_ALLOW_REORDER: int
PLAN_WIDE_ACCUMULATE: int
if available:
    PLAN_DETERMINISTIC = ext.PLAN_DETERMINISTIC
    PLAN_ALLOW_REORDER = ext.PLAN_ALLOW_REORDER
    PLAN_WIDE_ACCUMULATE = ext.PLAN_WIDE_ACCUMULATE
else:  # no library: nothing can be planned anyway
    PLAN_DETERMINISTIC = PLAN_ALLOW_REORDER = PLAN_WIDE_ACCUMULATE = None  # type: ignore[assignment]
TENSOR_SCATTER_MODES: tuple[str, ...] = ext.TENSOR_SCATTER_MODES if available else ()

# operator name -> its parameters' kinds, in the library's order
KINDS: dict[str, tuple[str, ...]] = dict(ext.operator_table()) if available else {}


def reduction_code(reduction: object) -> int:
    if isinstance(reduction, (int, np.integer)) and not isinstance(reduction, bool):
        return int(reduction)
    if not isinstance(reduction, str):
        raise InvalidArgumentError(f"reduction must be a name or an int, not {reduction!r}")
    return int(ext.reduction_from_name(reduction))


def tensor_scatter_mode_code(mode: object) -> int:
    if isinstance(mode, str) and mode in TENSOR_SCATTER_MODES:
        return int(ext.tensor_scatter_mode_from_name(mode))
    raise InvalidArgumentError(f"mode must be one of {', '.join(TENSOR_SCATTER_MODES)}, "
                               f"not {mode!r}")


def plan_flags(deterministic: bool | None, wide_accumulate: bool | None,
               flags: int | None) -> int:
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

    def __init__(self, x: Any, override: npt.DTypeLike | None = None,
                 like: np.dtype[Any] | None = None) -> None:
        self.array, self.code = _dtypes.as_values(x, override, like)
        self.pointers: npt.NDArray[Any] | None = None  # filled for strings by bind_strings

    @property
    def raw(self) -> npt.NDArray[Any] | None:
        return self.pointers if self.code == _dtypes.STRING else self.array


def bind_strings(*values: Values | None) -> _dtypes.StringTable | None:
    """Give string operands pointer arrays from one shared table; the
    table, or None when the values are not strings."""
    present = [v for v in values if v is not None]
    if not present or values[0] is None or values[0].code != _dtypes.STRING:
        return None
    table = _dtypes.StringTable(*(v.array for v in present))
    for v, ptrs in zip(present, table.pointers):
        v.pointers = ptrs
    return table


def string_result_dtype(data: object, updates: object = None) -> np.dtype[Any] | None:
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


def string_result(table: _dtypes.StringTable, pointers: npt.NDArray[Any], out: object,
                  result_dtype: np.dtype[Any] | None) -> npt.NDArray[Any]:
    """The objects behind the pointers sgk wrote, in out when given (the
    extension never sees a string out: it writes pointers)."""
    objects = table.objects(pointers)
    if out is None:
        return objects if result_dtype is None else objects.astype(result_dtype)
    if not isinstance(out, np.ndarray) or out.dtype.kind not in "OUS" \
            or out.shape != objects.shape or not out.flags.writeable:
        raise InvalidArgumentError(
            f"out must be a writeable object, str or bytes array of shape {objects.shape} for "
            f"strings, not {type(out).__name__} {getattr(out, 'dtype', '')}"
            f"{getattr(out, 'shape', '')}")
    out[...] = objects
    return out


def spec(x: Any, override: npt.DTypeLike | None) -> tuple[tuple[int, ...], np.dtype[Any], int]:
    """(shape, numpy dtype, sgk code) of an array-like, without copying an
    ndarray (or any object with .shape and .dtype)."""
    if hasattr(x, "shape") and hasattr(x, "dtype"):
        dt = np.dtype(x.dtype)
        shape = tuple(int(s) for s in x.shape)
    else:
        arr = np.asarray(x)
        dt, shape = arr.dtype, tuple(arr.shape)
    return shape, dt, _dtypes.code_of(dt, override)


def planned_updates_code(dspec: tuple[tuple[int, ...], np.dtype[Any], int],
                         uspec: tuple[tuple[int, ...], np.dtype[Any], int]) -> int:
    """Updates given as, e.g., float64 for float32 data are planned as data's
    type (execute casts them); unrelated types are left for the library to
    reject."""
    if dspec[2] == uspec[2]:
        return dspec[2]
    if dspec[2] == _dtypes.STRING or uspec[2] == _dtypes.STRING:
        return uspec[2]
    return dspec[2] if np.can_cast(uspec[1], dspec[1], casting="same_kind") else uspec[2]


# What the library takes for a parameter of each kind but data and
# updates (which calls and plans take differently).
_CONVERT: dict[str, Callable[[Any], Any]] = {
    "indices": _dtypes.as_indices,
    "optional_indices": lambda x: None if x is None else _dtypes.as_indices(x),
    "axis": int,
    "batch_dims": int,
    "reduction": reduction_code,
    "mode": tensor_scatter_mode_code,
}


class CallOperands:
    """An operator's arguments (its parameters in registry order) converted
    for the extension's prepared call: data and updates as Values."""

    def __init__(self, kinds: Sequence[str], arguments: Sequence[Any],
                 override: npt.DTypeLike | None) -> None:
        self.data: Values | None = None
        self.updates: Values | None = None
        self.converted: list[Any] = []
        value: Any
        for kind, x in zip(kinds, arguments):
            if kind == "data":
                self.data = value = Values(x, override)
            elif kind == "updates":
                assert self.data is not None  # data comes first in every row
                self.updates = value = Values(x, override, like=self.data.array.dtype)
            else:
                value = _CONVERT[kind](x)
            self.converted.append(value)
        self.strings = bind_strings(self.data, self.updates)

    @property
    def raw(self) -> list[Any]:
        return [v.raw if isinstance(v, Values) else v for v in self.converted]


class PlanOperands:
    """An operator's arguments converted for planning: data and updates
    by their shapes (any object with .shape and .dtype will do), the rest
    as for a call."""

    def __init__(self, kinds: Sequence[str], arguments: Sequence[Any],
                 override: npt.DTypeLike | None) -> None:
        self.data: tuple[tuple[int, ...], np.dtype[Any], int] | None = None
        self.updates: tuple[tuple[int, ...], np.dtype[Any], int] | None = None
        self.converted: list[Any] = []
        value: Any
        for kind, x in zip(kinds, arguments):
            if kind == "data":
                self.data = s = spec(x, override)
                value = s[0]
            elif kind == "updates":
                self.updates = s = spec(x, override)
                value = s[0]
            else:
                value = _CONVERT[kind](x)
            self.converted.append(value)
        assert self.data is not None  # every row has data
        self.code = self.data[2]
        self.updates_code = (planned_updates_code(self.data, self.updates)
                             if self.updates is not None else self.code)
