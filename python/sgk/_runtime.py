"""The runtime: threads, descriptions, names (queries, on ctypes)."""
from . import _dtypes, _lib
from ._marshal import check


def set_num_threads(n):
    """Worker threads for later plans and calls; 0 restores the default."""
    check(_lib.lib().sgk_set_num_threads(int(n)))


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
