"""The runtime and the registry: threads, descriptions, names, and what
types and reductions the library knows (the extension's queries)."""
from . import _dtypes
from ._native import ext


def set_num_threads(n):
    """Worker threads for later plans and calls; 0 restores the default."""
    ext.set_num_threads(int(n))


def runtime_describe():
    """SIMD target, threads, topology and environment overrides."""
    return ext.runtime_describe()


def version():
    """The library's version, e.g. "0.1.0"."""
    return ext.version()


def library_path():
    """The file the libsgk in use was loaded from."""
    return ext.library_path()


def dtype_size(name):
    """Bytes per element of an sgk dtype name (pointer size for strings)."""
    return _dtypes.SIZES[_dtypes.CODES[name]]


def status_name(status):
    """The sgk_status's name, e.g. "SGK_ERR_SHAPE"."""
    return ext.status_name(int(status))


def dtypes():
    """The names of the element types sgk knows, e.g. ("bool", "int8", ...)."""
    ext.version()  # without the library: LibraryNotFoundError, not ()
    return tuple(_dtypes.NAMES)


def reductions():
    """The names of the reductions, e.g. ("none", "add", ...); the operators
    also take OpenVINO's "sum" and "prod"."""
    return ext.reduction_names()


def reduction_supported(dtype, reduction):
    """Whether the semantics define reduction (a name) for dtype (an sgk
    dtype name): complex has no max or min, strings only "none"."""
    flags = ext.reduction_flags(_dtypes.CODES[dtype], ext.reduction_from_name(reduction))
    return bool(flags & ext.CELL_SUPPORTED)
