"""sgk as PyTorch's CPU kernel for aten's scatter/gather ops::

    import torch, sgk.torch
    sgk.torch.enable()          # or SGK_TORCH=1 in the environment before import
    out = x.scatter_reduce(0, index, src, reduce="amax", include_self=False)  # on sgk
    sgk.torch.disable()         # PyTorch's own kernels again
    with sgk.torch.enabled():   # on for a block
        ...
    sgk.torch.counters()        # {op: {"sgk": served, "fallback": n, "reasons": {...}}}

The adapter (adapters/torch/, libsgk_torch.so) registers its kernels on
aten's CPU dispatch key, under autograd, so that gradients, torch.no_grad,
out= and in-place forms keep working; whatever sgk does not serve exactly
as PyTorch defines it goes to PyTorch's own kernel (docs/torch.md).

The module is built against one torch version (configure's torch) and
refuses any other with an ImportError before loading: a C++ extension of
another torch would fail to link, or worse.  Lookup order:
SGK_TORCH_ADAPTER (a path to libsgk_torch.so); beside the libsgk this
package loads (an installed package or `make install` keeps them
together); then a build tree: SGK_BUILD_DIR, then the source tree this
package sits in (<tree>/adapters/torch/.libs/).
"""
from __future__ import annotations

import contextlib
import ctypes
import json
import os
import threading
from typing import Any, Iterator

import torch as _torch

from . import _native

MODULE = "libsgk_torch.so"
MARKER = b"sgk-torch-built-against:"

__all__ = ["enable", "disable", "enabled", "is_enabled", "counters", "reset_counters",
           "empty_cache", "adapter_path", "built_against"]


def _candidates() -> list[str]:
    return _native.adapter_candidates("SGK_TORCH_ADAPTER", "torch", MODULE)


def adapter_path() -> str:
    """The path of libsgk_torch.so.  Raises ImportError, naming the places
    tried, when sgk was built without the adapter."""
    tried = _candidates()
    for path in tried:
        if os.path.isfile(path):
            return os.path.abspath(path)
    raise ImportError(
        "sgk's PyTorch adapter was not found (./configure builds it when its Python has "
        "torch; set SGK_TORCH_ADAPTER to its path); tried: " + "; ".join(tried))


def built_against(path: str | None = None) -> str:
    """The torch version the adapter at `path` (by default adapter_path())
    was built against, read from the file without loading it.  Raises
    ImportError when the file records none (not an sgk torch adapter)."""
    path = path or adapter_path()
    version = _native.recorded_string(path, MARKER)
    if version is None:
        raise ImportError(f"{path}: no torch version recorded; not an sgk torch adapter")
    return version


def _release(version: str) -> str:
    return version.split("+")[0]


_lock = threading.Lock()
_adapter: Any = None  # the ctypes.CDLL of libsgk_torch.so, once loaded


def _load() -> Any:
    global _adapter
    if _adapter is not None:
        return _adapter
    with _lock:
        if _adapter is not None:
            return _adapter
        path = adapter_path()
        wanted = built_against(path)
        if _release(wanted) != _release(_torch.__version__):
            raise ImportError(
                f"sgk's PyTorch adapter {path} was built against torch {wanted}, but this "
                f"process runs torch {_torch.__version__}: rebuild sgk (./configure "
                f"--with-torch=PYTHON) for this torch, or install torch=={wanted}")
        _native.ext.library_path()  # loaded: the adapter's libsgk.so.0 is this library
        adapter = ctypes.CDLL(path)
        adapter.sgk_torch_enable.restype = ctypes.c_int
        adapter.sgk_torch_is_enabled.restype = ctypes.c_int
        adapter.sgk_torch_error.restype = ctypes.c_char_p
        adapter.sgk_torch_counters_json.restype = ctypes.c_size_t
        adapter.sgk_torch_counters_json.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
        _adapter = adapter
        return adapter


def enable() -> None:
    """Serves aten's scatter/gather ops on the CPU through sgk from now on."""
    adapter = _load()
    if adapter.sgk_torch_enable() != 0:
        raise RuntimeError("sgk.torch.enable: " + bytes(adapter.sgk_torch_error()).decode())


def disable() -> None:
    """Restores PyTorch's own CPU kernels."""
    if _adapter is not None:
        _adapter.sgk_torch_disable()


def is_enabled() -> bool:
    """Whether sgk serves aten's scatter/gather ops now (enable())."""
    return _adapter is not None and bool(_adapter.sgk_torch_is_enabled())


@contextlib.contextmanager
def enabled() -> Iterator[None]:
    """sgk on for the block, and back to what it was after."""
    was = is_enabled()
    enable()
    try:
        yield
    finally:
        if not was:
            disable()


def counters() -> dict[str, Any]:
    """Per op, the calls sgk served and those that fell back to PyTorch, and
    why: {op: {"sgk": served, "fallback": fell_back, "reasons": {reason: n}}}."""
    adapter = _load()
    size = adapter.sgk_torch_counters_json(None, 0)
    buf = ctypes.create_string_buffer(size + 1)
    adapter.sgk_torch_counters_json(buf, size + 1)
    result: dict[str, Any] = json.loads(buf.value.decode())
    return result


def reset_counters() -> None:
    """Sets every counter of counters() back to zero."""
    _load().sgk_torch_reset_counters()


def empty_cache() -> None:
    """Frees the large output buffers sgk keeps for reuse (at most
    SGK_TORCH_POOL_MB, by default 512 MiB or an eighth of memory), as
    torch.cuda.empty_cache() does for CUDA's; buffers of tensors still alive
    return to the pool when those are freed."""
    if _adapter is not None:
        _adapter.sgk_torch_empty_cache()


_load()
if os.environ.get("SGK_TORCH", "") not in ("", "0"):
    enable()
