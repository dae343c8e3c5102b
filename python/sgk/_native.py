"""The extension module sgk._sgk (python/ext/), which carries every call
whose cost is per call: the one-shot operators, planning, Plan.execute.

It depends on libsgk.so.0 by name, so libsgk is loaded first, by _lib's
lookup order; the extension's dependency then resolves to that very library.
The extension is this package's own (installed by pip, or built into the
source tree by make), else the one an out-of-tree build made under
$SGK_BUILD_DIR/python/sgk/.

Importing sgk never fails: when libsgk or the extension cannot be loaded,
`ext` stands in and the first call raises LibraryNotFoundError saying why.
"""
import importlib.machinery
import importlib.util
import os
import sys

from . import _dtypes, _lib, errors
from ._lib import LibraryNotFoundError

_NAME = __package__ + "._sgk"


def _from_build_dir():
    """The extension an out-of-tree build made, or None."""
    build = os.environ.get("SGK_BUILD_DIR")
    if not build:
        return None
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = os.path.join(build, "python", "sgk", "_sgk" + suffix)
        if os.path.exists(path):
            spec = importlib.util.spec_from_file_location(_NAME, path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            sys.modules[_NAME] = module
            return module
    return None


def _load():
    _lib.lib()  # first: the extension binds to the library this loads
    try:
        from . import _sgk
        return _sgk
    except ImportError as exc:
        module = _from_build_dir()
        if module is None:
            raise LibraryNotFoundError(
                f"sgk's extension module is not built ({exc}); install the package "
                "(pip install ./python after scripts/build), or run make in the source "
                "tree, or set SGK_BUILD_DIR to an out-of-tree build") from exc
        return module


class _Missing:
    """Stands in for the extension module when it cannot be loaded: every
    use raises the reason."""

    def __init__(self, error):
        self._message = str(error)

    def __getattr__(self, name):
        raise LibraryNotFoundError(self._message)


class _MissingPlanBase:
    """Stands in for _sgk.PlanBase; planning raises before a plan exists."""
    closed = True

    def close(self):
        pass


try:
    ext = _load()
    ext._setup(errors.error_for, _dtypes.BFLOAT16_DTYPE)
    PlanBase = ext.PlanBase
except LibraryNotFoundError as _error:
    ext = _Missing(_error)
    PlanBase = _MissingPlanBase
