"""The path of sgk's OpenVINO extension module, for ov.Core.add_extension::

    core = ov.Core()
    core.add_extension(sgk.openvino_extension_path())
    model = core.read_model("model.onnx")   # its scatter/gather nodes run on sgk

Lookup order: SGK_OPENVINO_EXTENSION (a path to libsgk_openvino.so); beside
the libsgk this package loads (an installed package or `make install` keeps
the two together); then a build tree: SGK_BUILD_DIR, then the source tree
this package sits in (<tree>/adapters/openvino/.libs/).  Importing sgk has
loaded libsgk, so the module's own dependency on libsgk.so.0 is that same
library, whatever its search path.
"""
import os

from . import _native

MODULE = "libsgk_openvino.so"


def _candidates():
    explicit = os.environ.get("SGK_OPENVINO_EXTENSION")
    if explicit:
        return [explicit]
    found = []
    try:
        found.append(os.path.join(os.path.dirname(os.path.abspath(_native.ext.library_path())),
                                  MODULE))
    except _native.LibraryNotFoundError:
        pass  # a build tree's module finds its libsgk through its own run path
    build = os.environ.get("SGK_BUILD_DIR")
    if build:
        found.append(os.path.join(build, "adapters", "openvino", ".libs", MODULE))
    found.append(os.path.join(_native.SOURCE_TREE, "adapters", "openvino", ".libs", MODULE))
    return found


def openvino_extension_path():
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
