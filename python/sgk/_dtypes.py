"""NumPy dtypes <-> sgk_dtype, from the library's registry, and the string
(const char *) marshalling.

Each registry type (sgk_dtype_name, _size, _flags) is NumPy's type of the
same name, kind and size (float16, int32, ...), else ml_dtypes' type of
that name (bfloat16), else none; strings (pointers) are object, str and
bytes arrays.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ._native import available, ext
from .errors import IndexOutOfRangeError, InvalidArgumentError, UnsupportedError

_ml_dtypes: Any
try:  # optional: NumPy dtypes for the types NumPy lacks (bfloat16)
    import ml_dtypes as _ml_dtypes
except Exception:  # pragma: no cover - depends on the environment
    _ml_dtypes = None

# (name, item size, SGK_DTYPE_* flags) by sgk_dtype code
TABLE: tuple[tuple[str, int, int], ...] = ext.dtype_table() if available else ()
NAMES = [name for name, _, _ in TABLE]
CODES = {name: code for code, name in enumerate(NAMES)}
SIZES = [size for _, size, _ in TABLE]
# the pointer type's code (strings); -1 without the library
STRING: int = next((code for code, (_, _, flags) in enumerate(TABLE)
                    if flags & ext.DTYPE_POINTER), -1)


def _numpy_kind(flags: int) -> str | None:
    if flags & ext.DTYPE_BOOLEAN:
        return "b"
    if flags & ext.DTYPE_INTEGER:
        return "i" if flags & ext.DTYPE_SIGNED else "u"
    if flags & ext.DTYPE_FLOAT:
        return "f"
    if flags & ext.DTYPE_COMPLEX:
        return "c"
    return None


def _numpy_dtype(name: str, size: int, flags: int) -> np.dtype[Any] | None:
    """NumPy's dtype for a registry type, or None."""
    kind = _numpy_kind(flags)
    if kind is None:
        return None
    try:
        dt = np.dtype(name)
        if dt.kind == kind and dt.itemsize == size:
            return dt
    except TypeError:
        pass
    extra = getattr(_ml_dtypes, name, None)
    if extra is not None and np.dtype(extra).itemsize == size:
        found: np.dtype[Any] = np.dtype(extra)
        return found
    return None


_FROM_NUMPY: dict[np.dtype[Any], int] = {}
# The types NumPy does not know itself, which the extension is told of.
USER_DTYPES: dict[np.dtype[Any], int] = {}
for _code, (_name, _size, _flags) in enumerate(TABLE):
    _dt = _numpy_dtype(_name, _size, _flags)
    if _dt is not None:
        _FROM_NUMPY[_dt] = _code
        if _dt.num >= np.dtype(np.void).num and _dt.kind not in "biufc":
            USER_DTYPES[_dt] = _code

BFLOAT16_DTYPE = next((dt for dt, code in USER_DTYPES.items() if NAMES[code] == "bfloat16"),
                      None)


def _is_string_dtype(dt: np.dtype[Any]) -> bool:
    return dt.kind in ("O", "U", "S")


def code_of(dt: npt.DTypeLike, override: npt.DTypeLike | None = None) -> int:
    """The sgk_dtype code for NumPy dtype dt; override is an sgk dtype name
    ("bfloat16", ...) reinterpreting an array of the same item size, e.g. a
    uint16 array holding bfloat16 bits."""
    dt = np.dtype(dt)
    if override is not None:
        name = override if isinstance(override, str) else np.dtype(override).name
        if name not in CODES:
            raise UnsupportedError(f"unknown sgk dtype {override!r}")
        code = CODES[name]
        if code == STRING:
            if not _is_string_dtype(dt):
                raise UnsupportedError(f"dtype='string' needs an object, str or bytes array, "
                                       f"not {dt}")
            return STRING
        if _is_string_dtype(dt) or dt.itemsize != SIZES[code] or dt.kind not in "biufcV":
            raise UnsupportedError(f"a {dt} array cannot be passed as {name}")
        return code
    if _is_string_dtype(dt):
        return STRING
    known = _FROM_NUMPY.get(dt)
    if known is None:
        hint = ""
        if dt.itemsize == 2 and dt.kind == "V" or "bfloat16" in str(dt):
            hint = " (for bfloat16 pass a uint16 array with dtype='bfloat16')"
        raise UnsupportedError(f"NumPy dtype {dt} has no sgk equivalent{hint}")
    return known


def as_values(x: Any, override: npt.DTypeLike | None = None,
              like: np.dtype[Any] | None = None) -> tuple[npt.NDArray[Any], int]:
    """x as a C-contiguous array and its sgk code.  like: a dtype x is cast
    to (updates take data's type)."""
    if like is not None and not isinstance(x, np.ndarray):
        arr = np.asarray(x, dtype=like)
    else:
        arr = np.asarray(x)
        if like is not None and arr.dtype != like and not (
                _is_string_dtype(arr.dtype) and _is_string_dtype(like)):
            if override is not None:  # reinterpreted bits: only the very same dtype
                raise UnsupportedError(f"updates are {arr.dtype} but data is {like}")
            arr = arr.astype(like, casting="same_kind")
    code = code_of(arr.dtype, override)
    if code == STRING and arr.dtype.kind != "O":
        arr = arr.astype(object)
    return np.require(arr, requirements="C"), code  # keeps 0-d arrays 0-d


_INDEX_DTYPES = (np.dtype(np.int32), np.dtype(np.int64))
_INT64_MAX = np.iinfo(np.int64).max


def as_indices(x: Any) -> npt.NDArray[Any]:
    """x as a C-contiguous int32/int64 array; other integer types become
    int64."""
    arr = np.asarray(x)
    if arr.dtype not in _INDEX_DTYPES:
        if arr.size == 0 and arr.dtype.kind == "f":  # np.asarray([]) is float64
            arr = arr.astype(np.int64)
        elif arr.dtype.kind not in "iu":
            raise UnsupportedError(f"indices must be integers, not {arr.dtype}")
        elif arr.dtype == np.uint64 and arr.size and arr.max() > _INT64_MAX:
            raise IndexOutOfRangeError(f"index {int(arr.max())} does not fit in int64")
        else:
            arr = arr.astype(np.int64)
    result: npt.NDArray[Any] = np.require(arr, requirements="C")
    return result


class StringTable:
    """Encodes the elements of object arrays (str, bytes or None) once into
    one NUL-separated buffer, hands sgk a const char * per element, and maps
    the pointers sgk returns back to the original Python objects.

    Every element gets its own address (even equal strings), so the mapping
    back is exact; the buffer lives as long as the table.
    """

    def __init__(self, *arrays: npt.NDArray[Any]) -> None:
        self._shapes = [a.shape for a in arrays]
        flat = [a.reshape(-1) for a in arrays]
        self._objects = np.concatenate(flat) if flat else np.empty(0, dtype=object)
        encoded: list[bytes] = []
        for obj in self._objects:
            if isinstance(obj, bytes):
                encoded.append(obj)
            elif isinstance(obj, str):
                encoded.append(obj.encode("utf-8", "surrogatepass"))
            elif obj is None:
                encoded.append(b"")
            else:
                raise UnsupportedError(f"string tensors hold str, bytes or None, "
                                       f"not {type(obj).__name__}")
        n = len(encoded)
        sizes = np.fromiter((len(e) + 1 for e in encoded), dtype=np.int64, count=n)
        self._offsets = np.zeros(n, dtype=np.int64)
        if n:
            np.cumsum(sizes[:-1], out=self._offsets[1:])
        # every string NUL-terminated, in memory that stays where it is
        self._buffer = np.frombuffer(b"\0".join(encoded) + b"\0", dtype=np.uint8)
        self._base = self._buffer.__array_interface__["data"][0]
        pointers = (self._offsets + self._base).astype(np.uintp)
        self.pointers: list[npt.NDArray[Any]] = []
        start = 0
        for shape, a in zip(self._shapes, flat):
            self.pointers.append(pointers[start:start + a.size].reshape(shape))
            start += a.size

    def objects(self, pointers: npt.NDArray[Any]) -> npt.NDArray[Any]:
        """The original objects behind an array of pointers sgk produced."""
        offsets = pointers.astype(np.int64).reshape(-1) - self._base
        where = np.searchsorted(self._offsets, offsets)
        where = np.minimum(where, max(len(self._offsets) - 1, 0))
        if offsets.size and (len(self._offsets) == 0
                             or not np.array_equal(self._offsets[where], offsets)):
            raise InvalidArgumentError("sgk returned a string pointer it was not given")
        found: npt.NDArray[Any] = self._objects[where].reshape(pointers.shape)
        return found
