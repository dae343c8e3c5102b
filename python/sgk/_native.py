"""The extension module sgk._sgk (python/ext/): the package's one way into
libsgk, for the operators, plans and every query of the library.

The extension links libsgk.so.0 and finds it through its run path: an
installed package's own copy beside it ($ORIGIN), a build tree's
src/.libs/.  LD_LIBRARY_PATH (or LD_PRELOAD) chooses another;
library_path() names the one loaded.  The extension is the one an
out-of-tree build made under $SGK_BUILD_DIR/python/sgk/ when that is set,
else this package's own (installed by pip, or built into the source tree
by make).

Importing sgk never fails: when the extension cannot be loaded (not built,
libsgk missing, or a libsgk too old for the sgk.h it was built with),
`ext` stands in, `available` is False, and every call raises
LibraryNotFoundError saying why.
"""
from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import sys
from types import ModuleType
from typing import Any, NoReturn

_NAME = (__package__ or "sgk") + "._sgk"
PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
SOURCE_TREE = os.path.dirname(os.path.dirname(PACKAGE_DIR))


class LibraryNotFoundError(OSError):
    """libsgk or sgk's extension module could not be loaded."""


def package_dir() -> str:
    """The folder of the sgk package: where an installed package keeps its
    libsgk and, when built, libsgk_openvino.so (setup.py copies them in)."""
    return PACKAGE_DIR


def adapter_candidates(variable: str, folder: str, module: str) -> list[str]:
    """Where an adapter's module (libsgk_openvino.so, libsgk_torch.so) may
    be, in order: $variable alone when it is set; beside the libsgk this
    package loads, and in the package (an installed package or `make
    install` keeps them together); then a build tree's
    adapters/<folder>/.libs/: $SGK_BUILD_DIR's, then the source tree's."""
    explicit = os.environ.get(variable)
    if explicit:
        return [explicit]
    found = []
    try:
        found.append(os.path.join(os.path.dirname(os.path.abspath(ext.library_path())), module))
    except LibraryNotFoundError:
        pass  # a build tree's module finds its libsgk through its own run path
    found.append(os.path.join(PACKAGE_DIR, module))
    build = os.environ.get("SGK_BUILD_DIR")
    if build:
        found.append(os.path.join(build, "adapters", folder, ".libs", module))
    found.append(os.path.join(SOURCE_TREE, "adapters", folder, ".libs", module))
    return list(dict.fromkeys(found))


def recorded_string(path: str, marker: bytes) -> str | None:
    """The NUL-terminated string that follows marker in the file at path
    (what an adapter records of its build, e.g. the torch version), read
    without loading the file; None when the marker is not there."""
    with open(path, "rb") as f:
        data = f.read()
    at = data.find(marker)
    if at < 0:
        return None
    end = data.find(b"\0", at)
    return data[at + len(marker):end if end >= 0 else len(data)].decode(errors="replace")


def _from_build_dir() -> ModuleType | None:
    """The extension an out-of-tree build made, or None."""
    build = os.environ.get("SGK_BUILD_DIR")
    if not build:
        return None
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = os.path.join(build, "python", "sgk", "_sgk" + suffix)
        if os.path.exists(path):
            spec = importlib.util.spec_from_file_location(_NAME, path)
            if spec is None or spec.loader is None:
                continue
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            sys.modules[_NAME] = module
            return module
    return None


def _load() -> ModuleType:
    try:
        module = _from_build_dir()
        if module is not None:
            return module
        return importlib.import_module(_NAME)
    except ImportError as exc:
        raise LibraryNotFoundError(
            f"sgk's extension module could not be loaded ({exc}); install the package "
            "(pip install ./python after scripts/build), or run make in the source tree, "
            "or set SGK_BUILD_DIR to an out-of-tree build") from exc


class _Missing:
    """Stands in for the extension module when it cannot be loaded: each
    of its functions raises the reason when called."""

    def __init__(self, error: BaseException) -> None:
        self._message = str(error)

    def __getattr__(self, name: str) -> Any:
        def unavailable(*args: object, **kwargs: object) -> NoReturn:
            raise LibraryNotFoundError(self._message)
        unavailable.__name__ = name
        return unavailable


class _MissingPlanBase:
    """Stands in for _sgk.PlanBase: planning raises before a plan exists."""
    closed = True
    output_shape: tuple[int, ...] | None = None

    def close(self) -> None:
        pass


# The extension module (typed Any: its functions are the library's, and
# what the package exports of them is typed in _oneshot.pyi and _plans.pyi).
ext: Any
PlanBase: Any
try:
    ext = _load()
    available = True
    PlanBase = ext.PlanBase
    load_error: str | None = None
except LibraryNotFoundError as _error:
    ext = _Missing(_error)
    available = False
    PlanBase = _MissingPlanBase
    load_error = str(_error)
