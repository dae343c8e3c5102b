"""NumPy dtypes <-> sgk_dtype, and the string (const char *) marshalling."""
import ctypes

import numpy as np

from .errors import IndexOutOfRangeError, InvalidArgumentError, UnsupportedError

BOOL, INT8, UINT8, INT16, UINT16, INT32, UINT32, INT64, UINT64, FLOAT16, BFLOAT16, \
    FLOAT32, FLOAT64, COMPLEX64, COMPLEX128, STRING = range(16)

NAMES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
         "float16", "bfloat16", "float32", "float64", "complex64", "complex128", "string"]
CODES = {name: code for code, name in enumerate(NAMES)}

try:  # optional: a real bfloat16 NumPy dtype
    import ml_dtypes as _ml_dtypes
    BFLOAT16_DTYPE = np.dtype(_ml_dtypes.bfloat16)
except Exception:  # pragma: no cover - depends on the environment
    BFLOAT16_DTYPE = None

_FROM_NUMPY = {
    np.dtype(np.bool_): BOOL,
    np.dtype(np.int8): INT8, np.dtype(np.uint8): UINT8,
    np.dtype(np.int16): INT16, np.dtype(np.uint16): UINT16,
    np.dtype(np.int32): INT32, np.dtype(np.uint32): UINT32,
    np.dtype(np.int64): INT64, np.dtype(np.uint64): UINT64,
    np.dtype(np.float16): FLOAT16, np.dtype(np.float32): FLOAT32,
    np.dtype(np.float64): FLOAT64,
    np.dtype(np.complex64): COMPLEX64, np.dtype(np.complex128): COMPLEX128,
}
if BFLOAT16_DTYPE is not None:
    _FROM_NUMPY[BFLOAT16_DTYPE] = BFLOAT16

_ITEMSIZE = {BOOL: 1, INT8: 1, UINT8: 1, INT16: 2, UINT16: 2, INT32: 4, UINT32: 4, INT64: 8,
             UINT64: 8, FLOAT16: 2, BFLOAT16: 2, FLOAT32: 4, FLOAT64: 8, COMPLEX64: 8,
             COMPLEX128: 16}


def _is_string_dtype(dt):
    return dt.kind in ("O", "U", "S")


def code_of(dt, override=None):
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
        if _is_string_dtype(dt) or dt.itemsize != _ITEMSIZE[code] or dt.kind not in "biufcV":
            raise UnsupportedError(f"a {dt} array cannot be passed as {name}")
        return code
    if _is_string_dtype(dt):
        return STRING
    code = _FROM_NUMPY.get(dt)
    if code is None:
        hint = ""
        if dt.itemsize == 2 and dt.kind == "V" or "bfloat16" in str(dt):
            hint = " (for bfloat16 pass a uint16 array with dtype='bfloat16')"
        raise UnsupportedError(f"NumPy dtype {dt} has no sgk equivalent{hint}")
    return code


def as_values(x, override=None, like=None):
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


def as_indices(x):
    """x as a C-contiguous int32/int64 array and its sgk code; other integer
    types become int64."""
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
    arr = np.require(arr, requirements="C")
    return arr, (INT32 if arr.dtype == np.int32 else INT64)


class StringTable:
    """Encodes the elements of object arrays (str, bytes or None) once into
    one NUL-separated buffer, hands sgk a const char * per element, and maps
    the pointers sgk returns back to the original Python objects.

    Every element gets its own address (even equal strings), so the mapping
    back is exact; the buffer lives as long as the table.
    """

    def __init__(self, *arrays):
        self._shapes = [a.shape for a in arrays]
        flat = [a.reshape(-1) for a in arrays]
        self._objects = np.concatenate(flat) if flat else np.empty(0, dtype=object)
        encoded = []
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
        self._buffer = ctypes.create_string_buffer(b"\0".join(encoded))
        self._base = ctypes.addressof(self._buffer)
        pointers = (self._offsets + self._base).astype(np.uintp)
        self.pointers = []
        start = 0
        for shape, a in zip(self._shapes, flat):
            self.pointers.append(pointers[start:start + a.size].reshape(shape))
            start += a.size

    def objects(self, pointers):
        """The original objects behind an array of pointers sgk produced."""
        offsets = pointers.astype(np.int64).reshape(-1) - self._base
        where = np.searchsorted(self._offsets, offsets)
        where = np.minimum(where, max(len(self._offsets) - 1, 0))
        if offsets.size and (len(self._offsets) == 0
                             or not np.array_equal(self._offsets[where], offsets)):
            raise InvalidArgumentError("sgk returned a string pointer it was not given")
        return self._objects[where].reshape(pointers.shape)


def empty_pointers(shape):
    return np.empty(shape, dtype=np.uintp)
