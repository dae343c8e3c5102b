"""The path of sgk's OpenVINO extension module, for ov.Core.add_extension::

    core = ov.Core()
    core.add_extension(sgk.openvino_extension_path())
    model = core.read_model("model.onnx")   # its scatter/gather nodes run on sgk

Lookup order: SGK_OPENVINO_EXTENSION (a path to libsgk_openvino.so); beside
the libsgk this package loads, and in the package (an installed package or
`make install` keeps the two together); then a build tree: SGK_BUILD_DIR,
then the source tree this package sits in (<tree>/adapters/openvino/.libs/);
see _native.adapter_candidates.  Importing sgk has
loaded libsgk, so the module's own dependency on libsgk.so.0 is that same
library, whatever its search path.
"""
from __future__ import annotations

import ctypes
import json
import os
from typing import Any

from . import _native

MODULE = "libsgk_openvino.so"


def _candidates() -> list[str]:
    return _native.adapter_candidates("SGK_OPENVINO_EXTENSION", "openvino", MODULE)


def openvino_extension_path() -> str:
    """The path of libsgk_openvino.so, which ov.Core.add_extension loads.
    Raises FileNotFoundError, naming the places tried, when sgk was built
    without OpenVINO (./configure found no OpenVINO development files)."""
    tried = _candidates()
    for path in tried:
        if os.path.isfile(path):
            return os.path.abspath(path)
    raise FileNotFoundError(
        "sgk's OpenVINO extension was not found (configure builds it when it finds OpenVINO; "
        "set SGK_OPENVINO_EXTENSION to its path); tried: " + "; ".join(tried))


def openvino_counters() -> dict[str, dict[str, Any]]:
    """Which nodes of the models OpenVINO ran in this process sgk served,
    how often, and what they cost, as {node name: {"op": "SgkScatterND",
    "calls": n, "plan_runs": n, "seconds": s}}: "calls" counts evaluations,
    "plan_runs" those that ran a plan kept for constant indices, "seconds"
    their time inside the extension, summed over threads.  OpenVINO's own
    profiling shows these nodes only as "Reference".  Empty when the
    extension at openvino_extension_path() has not been loaded into this
    process (this function does not load it)."""
    try:
        path = openvino_extension_path()
        module = ctypes.CDLL(path, mode=os.RTLD_NOLOAD | os.RTLD_LAZY)
    except (FileNotFoundError, OSError):
        return {}
    text_of = module.sgk_openvino_node_counters_json
    text_of.restype = ctypes.c_size_t
    text_of.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    while True:
        size = text_of(None, 0) + 1
        buf = ctypes.create_string_buffer(size)
        if text_of(buf, size) < size:  # no node was added in between
            counters: dict[str, dict[str, Any]] = json.loads(buf.value.decode())
            return counters
