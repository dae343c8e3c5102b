"""A user's script calling every public function and class of sgk, as an
editor or mypy sees them: tests/python/test_typing.py runs `mypy --strict`
on it (and runs it).  Keep it calling everything in sgk.__all__ (the test
checks that it names each)."""
from __future__ import annotations

import numpy as np
import numpy.typing as npt

import sgk


def operators() -> None:
    data = np.arange(12, dtype=np.float32).reshape(3, 4)
    indices = np.array([[0], [2]], dtype=np.int64)
    updates = np.ones((2, 4), dtype=np.float32)
    out: npt.NDArray[np.float32] = np.empty_like(data)
    r1: npt.NDArray[np.float32] = sgk.scatter_nd(data, indices, updates, reduction="add")
    sgk.scatter_nd(data, indices, updates, "max", out=out)
    sgk.scatter_nd(data.tolist(), [[1]], [[1.0, 2.0, 3.0, 4.0]])
    sgk.gather(np.zeros(3, np.uint16), [0], dtype="bfloat16")  # bfloat16 bits
    rows = sgk.gather_nd(data, indices, batch_dims=0)
    shape: tuple[int, ...] = sgk.gather_nd_shape(data, indices)
    assert rows.shape == shape == sgk.gather_nd_shape((3, 4), (2, 1), 0)
    e = np.array([[1, 0, 2, 3]] * 3)
    sgk.scatter_elements(data, e, np.zeros((3, 4), np.float32), axis=1, reduction="none")
    sgk.gather_elements(data, e, axis=1)
    taken = sgk.gather(data, [2, -1], axis=0)
    assert taken.shape == sgk.gather_shape(data, (2,), axis=0)
    cache = np.zeros((1, 2, 8, 4), dtype=np.float16)
    token = np.ones((1, 2, 1, 4), dtype=np.float16)
    sgk.tensor_scatter(cache, token, np.array([3]), axis=-2, mode="linear", out=cache)
    assert r1.shape == data.shape


def plans() -> None:
    data = np.zeros((4, 3), dtype=np.float64)
    idx = np.array([[1], [3]])
    upd = np.ones((2, 3))
    with sgk.ScatterNDPlan(data, idx, upd, "add", deterministic=True) as plan:
        result = plan.execute(data, upd)
        plan.execute(data, upd, out=data)
        text: str = plan.describe()
        assert result.shape == plan.output_shape and plan.dtype == data.dtype and text
    assert plan.closed
    g = sgk.GatherNDPlan(data, idx, 0, flags=sgk.PLAN_DETERMINISTIC)
    g.execute(data)
    g.close()
    e = np.zeros((4, 3), dtype=np.int64)
    se = sgk.ScatterElementsPlan(data, e, data, axis=0, reduction="sum", wide_accumulate=False)
    se.execute(data, data)
    ge = sgk.GatherElementsPlan(data, e, 1)
    ge.execute(data)
    gp = sgk.GatherPlan(data, [0, 0], axis=0)
    gp.execute(data)
    flags = sgk.PLAN_ALLOW_REORDER | sgk.PLAN_WIDE_ACCUMULATE
    cache = np.zeros((2, 1, 5, 2), dtype=np.float32)
    tp = sgk.TensorScatterPlan(cache, np.ones((2, 1, 1, 2), np.float32), None, -2,
                               sgk.TENSOR_SCATTER_MODES[-1], flags=flags & 0)
    tp.execute(cache, np.ones((2, 1, 1, 2), np.float32), out=cache)
    plan_base: sgk.Plan = tp
    plan_base.close()


def runtime() -> None:
    sgk.set_num_threads(1)
    sgk.set_num_threads(0)
    described: str = sgk.runtime_describe()
    version: str = sgk.version()
    path: str = sgk.library_path()
    size: int = sgk.dtype_size("float16")
    name: str = sgk.status_name(2)
    names: tuple[str, ...] = sgk.dtypes() + sgk.reductions()
    ok: bool = sgk.reduction_supported("complex64", "max")
    assert described and version and path and size == 2 and name and names and not ok
    if sgk.BFLOAT16_DTYPE is not None:
        sgk.gather(np.zeros(3, dtype=sgk.BFLOAT16_DTYPE), [0])
    try:
        print("OpenVINO extension:", sgk.openvino_extension_path())
    except FileNotFoundError as why:
        print("OpenVINO extension: not found:", why)
    served: dict[str, dict[str, object]] = sgk.openvino_counters()
    assert all("calls" in node for node in served.values())


def errors() -> None:
    bad = np.array([[9]])
    try:
        sgk.gather_nd(np.zeros(3), bad)
    except sgk.IndexOutOfRangeError as exc:
        status: int | None = exc.status
        status_name: str | None = exc.status_name
        message: str = exc.message
        assert status is not None and status_name and message
    caught: tuple[type[sgk.SgkError], ...] = (
        sgk.InvalidArgumentError, sgk.ShapeError, sgk.UnsupportedError,
        sgk.OutOfMemoryError, sgk.SizeOverflowError)
    try:
        sgk.scatter_nd(np.zeros(3, np.complex64), [[0]], np.zeros(1, np.complex64), "max")
    except caught as exc:
        assert isinstance(exc, sgk.UnsupportedError)
    missing: type[OSError] = sgk.LibraryNotFoundError
    assert issubclass(missing, OSError)


if __name__ == "__main__":
    operators()
    plans()
    runtime()
    errors()
    print("typing_user: every public function called")
