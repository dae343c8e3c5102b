"""The runtime and the registry: threads, descriptions, names, and what
types and reductions the library knows (the extension's queries).

Each raises LibraryNotFoundError (an OSError) when libsgk or the extension
module could not be loaded, saying why."""
from __future__ import annotations

from typing import SupportsInt

from . import _dtypes
from ._native import ext


def set_num_threads(n: SupportsInt) -> None:
    """Worker threads for later plans and calls: n >= 1, or 0 to restore the
    default (SGK_NUM_THREADS, else the physical cores).  Raises
    InvalidArgumentError for a count the library refuses (negative, or
    above its maximum)."""
    ext.set_num_threads(int(n))


def runtime_describe() -> str:
    """sgk_runtime_describe(): one line of "; "-separated facts: version, SIMD
    target chosen and the targets this CPU runs, threads and their backend,
    NUMA nodes and caches, thresholds, and the SGK_* environment overrides
    taken and ignored.  `python -m sgk` prints it one fact a line."""
    return str(ext.runtime_describe())


def version() -> str:
    """The loaded libsgk's version (sgk_version()), e.g. "0.1.0"."""
    return str(ext.version())


def library_path() -> str:
    """The file the libsgk in use was loaded from (dladdr on an sgk symbol)."""
    return str(ext.library_path())


def dtype_size(name: str) -> int:
    """Bytes per element of the sgk dtype called name (one of dtypes();
    pointer size for "string").  Raises KeyError for an unknown name."""
    return _dtypes.SIZES[_dtypes.CODES[name]]


def status_name(status: SupportsInt) -> str:
    """The name of the sgk_status code status, e.g. "SGK_ERR_SHAPE"."""
    return str(ext.status_name(int(status)))


def dtypes() -> tuple[str, ...]:
    """The names of the element types sgk knows, in sgk_dtype code order:
    ("bool", "int8", ..., "string")."""
    ext.version()  # without the library: LibraryNotFoundError, not ()
    return tuple(_dtypes.NAMES)


def reductions() -> tuple[str, ...]:
    """The names of the reductions in sgk_reduction code order: ("none",
    "add", "sub", "mul", "max", "min"); the operators also take OpenVINO's
    "sum" and "prod"."""
    return tuple(ext.reduction_names())


def reduction_supported(dtype: str, reduction: str) -> bool:
    """Whether the semantics define reduction (a name, e.g. "max") for dtype
    (an sgk dtype name, e.g. "complex64"): complex has no max or min,
    strings only "none".  Raises KeyError for an unknown dtype and
    InvalidArgumentError for an unknown reduction."""
    flags = ext.reduction_flags(_dtypes.CODES[dtype], ext.reduction_from_name(reduction))
    return bool(flags & ext.CELL_SUPPORTED)
