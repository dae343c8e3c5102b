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

import os

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
