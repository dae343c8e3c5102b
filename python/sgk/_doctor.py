"""`python -m sgk`: what a user needs when something is off.

What libsgk says of itself comes from the library (sgk_version,
sgk_runtime_describe: the SIMD target chosen and the ones the CPU runs,
threads and their backend, the caches hwloc saw, the environment
overrides taken and ignored), printed one fact a line as the C program
sgk-info prints it; this module adds what only the Python side knows:
which files were found where (libsgk, the extension module, the OpenVINO
extension, the PyTorch adapter), the versions they were built against, and
the variables that chose them.  It loads neither OpenVINO nor torch (their
versions come from their installed metadata), so it works, and says why,
when either is missing or broken.
"""
from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import platform
import re
import sys
from typing import TextIO

import numpy as np

from . import _dtypes, _native, _openvino

# The variables the Python package reads, and the loader's.
PACKAGE_VARIABLES = ("SGK_BUILD_DIR", "SGK_OPENVINO_EXTENSION", "SGK_TORCH_ADAPTER",
                     "SGK_TORCH", "LD_LIBRARY_PATH", "LD_PRELOAD")


def _installed(distribution: str) -> str | None:
    """The installed version of a distribution, read from its metadata
    (nothing is imported), or None."""
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


def _facts(description: str) -> list[str]:
    """sgk_runtime_describe's "; "-separated facts, one per item."""
    return [fact for fact in description.split("; ") if fact]


def _package_lines() -> list[str]:
    ml_dtypes = _dtypes._ml_dtypes
    bf16 = (f"ml_dtypes {ml_dtypes.__version__} (bfloat16 arrays)" if ml_dtypes is not None
            else "no ml_dtypes (bfloat16 only as uint16 bits, dtype='bfloat16')")
    return [f"package {_native.PACKAGE_DIR}",
            f"python {platform.python_version()} ({sys.executable}), numpy {np.__version__}, {bf16}"]


def _library_lines() -> tuple[list[str], bool]:
    """libsgk and the extension module; False when they did not load."""
    if not _native.available:
        return [f"libsgk: not loaded: {_native.load_error}",
                "(the C program sgk-info, installed beside libsgk, prints what the library "
                "itself reports)"], False
    ext = _native.ext
    lines = [f"libsgk {ext.version()} at {ext.library_path()}",
             f"extension module {getattr(ext, '__file__', '?')}, built against sgk.h "
             f"{ext.VERSION_MAJOR}.{ext.VERSION_MINOR}"]
    return lines, True


def _openvino_lines() -> list[str]:
    """Where the OpenVINO extension is, the libopenvino it was linked
    against, and whether the installed openvino provides that one."""
    soname = None
    try:
        path = _openvino.openvino_extension_path()
    except FileNotFoundError as why:
        lines = [f"OpenVINO extension: not found: {why}"]
    else:
        with open(path, "rb") as f:  # its DT_NEEDED entry, without loading it
            needed = re.search(rb"libopenvino\.so\.[0-9][0-9.]*", f.read())
        soname = needed.group().decode() if needed else None
        lines = [f"OpenVINO extension: {path}, built against "
                 f"{soname or 'an OpenVINO it does not name'}"]
    version = _installed("openvino")
    spec = importlib.util.find_spec("openvino") if version else None
    if version is None or spec is None or not spec.submodule_search_locations:
        lines.append("  openvino: not installed in this Python (pip install openvino); "
                     "the extension loads only into the OpenVINO release it was built against")
        return lines
    libs = os.path.join(list(spec.submodule_search_locations)[0], "libs")
    where = f"openvino {version} installed ({libs})"
    if soname is None:
        lines.append(f"  {where}")
    elif os.path.exists(os.path.join(libs, soname)):
        lines.append(f"  {where}: provides {soname}: matches")
    else:
        lines.append(f"  {where}: has no {soname}: the extension was built against another "
                     "OpenVINO release and will not load into this one; rebuild sgk "
                     "(./configure --with-openvino) against it")
    return lines


def _torch_lines() -> list[str]:
    """Where the PyTorch adapter is, the torch it was built against, and
    the torch installed."""
    tried = _native.adapter_candidates("SGK_TORCH_ADAPTER", "torch", "libsgk_torch.so")
    path = next((os.path.abspath(p) for p in tried if os.path.isfile(p)), None)
    installed = _installed("torch")
    if path is None:
        lines = ["PyTorch adapter: not found (./configure builds it when its Python has "
                 "torch; set SGK_TORCH_ADAPTER to its path); tried: " + "; ".join(tried)]
        built = None
    else:
        built = _native.recorded_string(path, b"sgk-torch-built-against:")
        lines = [f"PyTorch adapter: {path}, built against torch "
                 f"{built or '(no version recorded: not an sgk adapter)'}"]
    if installed is None:
        lines.append("  torch: not installed in this Python (sgk.torch needs the torch the "
                     "adapter was built against)")
    elif built is None:
        lines.append(f"  torch {installed} installed")
    elif built.split("+")[0] == installed.split("+")[0]:
        lines.append(f"  torch {installed} installed: matches; `import sgk.torch` loads it")
    else:
        lines.append(f"  torch {installed} installed: does not match {built}; sgk.torch "
                     "refuses to load it (rebuild sgk with ./configure --with-torch=PYTHON)")
    return lines


def _environment_lines() -> list[str]:
    taken = [f"{name}={os.environ[name]}" for name in PACKAGE_VARIABLES if name in os.environ]
    return ["read by the Python package and the loader: " + (", ".join(taken) or "none set")]


def report(out: TextIO = sys.stdout) -> int:
    """Prints the report; 0 when libsgk and the extension module loaded,
    else 1 (the adapters are optional: their absence is said, not an
    error)."""
    def section(title: str, lines: list[str]) -> None:
        print(title, file=out)
        for line in lines:
            print(f"  {line}", file=out)

    library, loaded = _library_lines()
    print(f"sgk {_native.ext.version() if loaded else '(libsgk not loaded)'} "
          "(python -m sgk)", file=out)
    section("python:", _package_lines())
    section("library:", library)
    if loaded:
        section("runtime (sgk_runtime_describe):", _facts(str(_native.ext.runtime_describe())))
    section("environment:", _environment_lines())
    section("adapters:", _openvino_lines() + _torch_lines())
    return 0 if loaded else 1


USAGE = """usage: python -m sgk

Prints what to check when sgk misbehaves: the library's version and where
it was loaded from, the SIMD target chosen and the ones this CPU runs, the
threads and their backend, the caches, the environment overrides taken and
ignored (all as libsgk reports them: sgk_runtime_describe), and where the
extension module, the OpenVINO extension and the PyTorch adapter were found
(or why not) with the versions they were built against.  Exits 1 when
libsgk or the extension module cannot be loaded."""


def main(argv: list[str] | None = None) -> int:
    """`python -m sgk [--help]`."""
    args = sys.argv[1:] if argv is None else argv
    if args in (["-h"], ["--help"]):
        print(USAGE)
        return 0
    if args:
        print(USAGE, file=sys.stderr)
        return 2
    return report()
