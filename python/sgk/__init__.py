"""sgk: Python binding of libsgk, the scatter/gather kernels for the ONNX and
OpenVINO ScatterND / GatherND / ScatterElements / GatherElements family, and
Gather and TensorScatter (the KV-cache write).

NumPy arrays in and out::

    import numpy as np, sgk
    out = sgk.scatter_nd(data, indices, updates, reduction="add")
    rows = sgk.gather_nd(table, ids[:, None])
    with sgk.ScatterNDPlan(data, indices, updates, "add") as plan:
        for step in steps:
            plan.execute(data, updates, out=data)      # in place

Types: bool, int8..uint64, float16/32/64, complex64/128; bfloat16 as the
ml_dtypes.bfloat16 dtype when ml_dtypes is installed, or as a uint16 array of
bits with dtype="bfloat16"; strings as object (or str/bytes) arrays, whose
results are the very objects passed in (sgk copies pointers only).

The package is a C extension module over libsgk (python/ext/): the
operators are its functions, generated from the library's registry of
operators; types, reductions, statuses and flags are the library's own
(sgk.dtypes(), sgk.reductions()).  An installed package carries its own
libsgk; a source tree's package uses the tree's build, an out-of-tree one
SGK_BUILD_DIR's (_native.py).  Errors raise a subclass of SgkError per
status, carrying sgk_last_error().
"""
from ._dtypes import BFLOAT16_DTYPE
from ._marshal import (PLAN_ALLOW_REORDER, PLAN_DETERMINISTIC, PLAN_WIDE_ACCUMULATE,
                       TENSOR_SCATTER_MODES)
from ._native import LibraryNotFoundError
from ._openvino import openvino_counters, openvino_extension_path
from ._oneshot import (gather, gather_elements, gather_nd, gather_nd_shape, gather_shape,
                       scatter_elements, scatter_nd, tensor_scatter)
from ._plans import (GatherElementsPlan, GatherNDPlan, GatherPlan, Plan, ScatterElementsPlan,
                     ScatterNDPlan, TensorScatterPlan)
from ._runtime import (dtype_size, dtypes, library_path, reduction_supported, reductions,
                       runtime_describe, set_num_threads, status_name, version)
from .errors import (InvalidArgumentError, IndexOutOfRangeError, OutOfMemoryError,
                     SgkError, ShapeError, SizeOverflowError, UnsupportedError)

__all__ = [
    "scatter_nd", "gather_nd", "scatter_elements", "gather_elements", "gather_nd_shape",
    "Plan", "ScatterNDPlan", "GatherNDPlan", "ScatterElementsPlan", "GatherElementsPlan",
    "set_num_threads", "runtime_describe", "version", "library_path", "dtype_size",
    "status_name",
    "dtypes", "reductions", "reduction_supported",
    "SgkError", "InvalidArgumentError", "ShapeError", "IndexOutOfRangeError",
    "UnsupportedError", "OutOfMemoryError", "SizeOverflowError", "LibraryNotFoundError",
    "BFLOAT16_DTYPE", "PLAN_DETERMINISTIC", "PLAN_ALLOW_REORDER", "PLAN_WIDE_ACCUMULATE",
    "gather", "gather_shape", "tensor_scatter", "GatherPlan", "TensorScatterPlan",
    "TENSOR_SCATTER_MODES",
    "openvino_counters",
    "openvino_extension_path",
]
