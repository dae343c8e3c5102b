"""Finding and loading libsgk.

Lookup order: the SGK_LIBRARY environment variable (a path to libsgk.so),
then a build tree (SGK_BUILD_DIR), then the copy installed inside this
package (libsgk.so.0 beside this file), then the source tree this package
sits in (<repo>/src/.libs/libsgk.so), then the system's
(ctypes.util.find_library).  Paths that do not exist are skipped.

The library is loaded with ctypes before the extension module (_native.py),
whose dependency on libsgk.so.0 then resolves to it by its soname: whichever
library this lookup finds is the one every call goes to.  The ctypes
declarations below serve what is not per-call work: the runtime queries,
names, and GatherND's and Gather's output shapes.
"""
import ctypes
import ctypes.util
import os
import threading

_PACKAGE = os.path.dirname(os.path.abspath(__file__))
_REPO = os.path.dirname(os.path.dirname(_PACKAGE))

# The shared objects an installed package carries beside its modules
# (setup.py copies them in): libsgk itself and, when it was built, the
# OpenVINO extension (adapters/openvino).
BUNDLED_LIBRARY = "libsgk.so.0"
BUNDLED_OPENVINO_EXTENSION = "libsgk_openvino.so"


def package_dir():
    """The folder of the sgk package: where an installed package keeps its
    libsgk (BUNDLED_LIBRARY) and, when built, libsgk_openvino.so."""
    return _PACKAGE


class LibraryNotFoundError(OSError):
    """libsgk could not be found or loaded."""


class Tensor(ctypes.Structure):
    """sgk_tensor: dtype, rank, shape, data (dense, row-major)."""
    _fields_ = [
        ("dtype", ctypes.c_int),
        ("rank", ctypes.c_int32),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("data", ctypes.c_void_p),
    ]


_T = ctypes.POINTER(Tensor)
_status = ctypes.c_int

_PROTOTYPES = {
    "sgk_gather_nd_shape": (_status, [_T, _T, ctypes.c_int64, ctypes.POINTER(ctypes.c_int64),
                                      ctypes.POINTER(ctypes.c_int32)]),
    "sgk_gather_shape": (_status, [_T, _T, ctypes.c_int64, ctypes.POINTER(ctypes.c_int64),
                                   ctypes.POINTER(ctypes.c_int32)]),
    "sgk_status_name": (ctypes.c_char_p, [ctypes.c_int]),
    "sgk_last_error": (ctypes.c_char_p, []),
    "sgk_dtype_size": (ctypes.c_size_t, [ctypes.c_int]),
    "sgk_reduction_from_name": (_status, [ctypes.c_char_p, ctypes.POINTER(ctypes.c_int)]),
    "sgk_version": (ctypes.c_char_p, []),
    "sgk_runtime_describe": (ctypes.c_char_p, []),
    "sgk_set_num_threads": (_status, [ctypes.c_int]),
}


def candidates():
    """The paths tried, in order (names for the dynamic loader last)."""
    found = []
    explicit = os.environ.get("SGK_LIBRARY")
    if explicit:
        return [explicit]
    build = os.environ.get("SGK_BUILD_DIR")
    if build:
        found += [os.path.join(build, "src", ".libs", "libsgk.so"),
                  os.path.join(build, ".libs", "libsgk.so")]
    found.append(os.path.join(_PACKAGE, BUNDLED_LIBRARY))
    found.append(os.path.join(_REPO, "src", ".libs", "libsgk.so"))
    system = ctypes.util.find_library("sgk")
    if system:
        found.append(system)
    found += ["libsgk.so.0", "libsgk.so"]
    return found


_lock = threading.Lock()
_loaded = None
_loaded_path = None


def _declare(lib):
    for name, (restype, argtypes) in _PROTOTYPES.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes
    return lib


def lib():
    """The loaded library (loading it on the first call)."""
    global _loaded, _loaded_path
    if _loaded is not None:
        return _loaded
    with _lock:
        if _loaded is not None:
            return _loaded
        errors = []
        for path in candidates():
            is_path = os.sep in path
            if is_path and not os.path.exists(path):
                errors.append(f"{path}: not found")
                continue
            try:
                handle = ctypes.CDLL(path)
            except OSError as exc:
                errors.append(f"{path}: {exc}")
                continue
            _loaded = _declare(handle)
            _loaded_path = path
            return _loaded
        raise LibraryNotFoundError(
            "libsgk not found; set SGK_LIBRARY to libsgk.so or SGK_BUILD_DIR to a build "
            "directory (tried: " + "; ".join(errors) + ")")


def path():
    """Where the loaded library came from."""
    lib()
    return _loaded_path
