#!/usr/bin/env python3
"""sgk against its peers on the workloads of sgk-bench (docs/performance.md), on the same inputs
in the same run.

Implementations, each in a process of its own so that their thread pools
do not compete for the cores: sgk (plan made once, execute timed; and one-shot calls),
onnxruntime (CPU provider, one-node model per operator), OpenVINO (CPU),
PyTorch and NumPy.  A peer that is not installed or fails is reported and
skipped.  Every figure is relative to this run: of_copy is the workload's
minimal traffic over its median time, divided by this machine's copy
bandwidth measured at the start; speedup is peer time / sgk plan time.
With --rounds N every implementation runs N times, in turn (the order
reversed every other round, so that none always runs first): a median is
then the median of the rounds' medians, and a speedup the median of the
ratios measured within each round, each of which is printed too.  On a
shared machine whose speed drifts over minutes, that keeps a slow spell
from falling on one implementation alone.  reps then counts the timed
calls of all rounds, and an implementation that failed in any round, or
whose result differed from sgk's, is reported so.

    bench/setup-peers                         # once: .venv with the peers
    .venv/bin/python bench/peers.py --quick --json out.json --png out.png

Gather and TensorScatter (gather_axis*, tensor_scatter_*): onnxruntime's
Gather-13 and TensorScatter-24 (in place with the present cache IO-bound to
the past cache's buffer, the only way it skips its copy; copying, its
default), OpenVINO's Gather-8 (it has no TensorScatter), PyTorch's
index_select and slice assignment, NumPy's take and slice assignment.

Minimal traffic: bytes any implementation must move.  Every byte written to
the output, every update and index read once, and the data read once where
the output is a copy of it; source bytes a gather (or an in-place scatter's
destination) touches are counted per distinct 64-byte cache line.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
import zlib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))

import sgk  # noqa: E402
from bench_provenance import describe as describe_run  # noqa: E402
from bench_tables import peers_caption, peers_table  # noqa: E402

LINE = 64
ALIGN = 64  # byte alignment of every input and output buffer
IMPLS = ["sgk", "sgk_oneshot", "onnxruntime", "openvino", "torch", "numpy"]


# ---- workloads ------------------------------------------------------------------

def aligned_empty(shape, dtype):
    """An uninitialised C-contiguous array starting on an ALIGN-byte boundary.
    NumPy's allocator promises only 16 bytes, and where a large array starts
    varies from run to run; sgk-bench's buffers (bench_alloc) and the peers'
    own allocators start on 64.  A row gather's output 16 bytes off a line
    boundary costs sgk about half again its time, so every implementation
    gets the same 64-byte-aligned inputs and outputs, as sgk-bench's do."""
    dtype = np.dtype(dtype)
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    raw = np.empty(nbytes + ALIGN, dtype=np.uint8)
    start = -raw.ctypes.data % ALIGN
    return raw[start:start + nbytes].view(dtype).reshape(shape)


_ALIGNED = {}


def aligned(a):
    """a, or an ALIGN-byte-aligned contiguous copy of it (one copy per
    array, so workloads that share an input still share it)."""
    if a is None:
        return None
    if a.flags.c_contiguous and a.ctypes.data % ALIGN == 0:
        return a
    key = id(a)
    if key not in _ALIGNED:
        copy = aligned_empty(a.shape, a.dtype)
        copy[...] = a
        _ALIGNED[key] = (a, copy)  # a kept alive so that its id is not reused
    return _ALIGNED[key][1]


@dataclass
class Workload:
    name: str
    op: str                 # scatter_nd, gather_nd, scatter_elements, gather_elements,
                            # gather, tensor_scatter (data: the cache, indices: the write
                            # indices, updates: the update)
    data: np.ndarray
    indices: np.ndarray
    updates: np.ndarray = None
    reduction: str = "none"
    batch_dims: int = 0
    axis: int = 0
    in_place: bool = False
    traffic: int = 0
    description: str = ""
    has_duplicates: bool = False
    mode: str = "linear"    # tensor_scatter

    def __post_init__(self):
        self.data, self.indices, self.updates = (aligned(self.data), aligned(self.indices),
                                                 aligned(self.updates))

    @property
    def scatter(self):
        return self.op.startswith("scatter") or self.op == "tensor_scatter"

    @property
    def output_shape(self):
        if self.scatter:
            return self.data.shape
        if self.op == "gather_elements":
            return self.indices.shape
        if self.op == "gather":
            return sgk.gather_shape(self.data, self.indices, self.axis)
        return sgk.gather_nd_shape(self.data, self.indices, self.batch_dims)

    @property
    def float_order_matters(self):
        return (self.reduction in ("add", "sub", "mul") and self.data.dtype.kind in "fc"
                and self.has_duplicates)


def distinct_lines(byte_offsets):
    """How many 64-byte lines the given byte offsets touch."""
    return int(np.unique(np.asarray(byte_offsets, dtype=np.int64) // LINE).size)


def nd_slots(data, indices, k):
    """Flat slot numbers (over data.shape[:k]) of ScatterND/GatherND tuples."""
    shape = data.shape[:k]
    t = indices.reshape(-1, k)
    t = np.where(t < 0, t + np.array(shape), t)
    return np.ravel_multi_index(tuple(t.T), shape)


def slice_lines(slots, slice_bytes):
    """Distinct lines covered by whole slices at the given slots."""
    uniq = np.unique(slots)
    if slice_bytes % LINE == 0:
        return int(uniq.size) * (slice_bytes // LINE)
    starts = uniq.astype(np.int64) * slice_bytes
    lines = [np.arange(s // LINE, (s + slice_bytes - 1) // LINE + 1) for s in starts[:200000]]
    return int(np.unique(np.concatenate(lines)).size) if lines else 0


def scaled(n, scale, minimum=1):
    return max(minimum, int(round(n * scale)))


def make_workloads(scale, rng):
    w = []
    isz = 8  # int64 indices throughout (ONNX's index type)

    # KV cache: [1, heads, seq, head_dim]; one new token per head at one position
    for dtype in (np.float32, np.float16):
        seq = scaled(2048, scale, 16)
        data = rng.standard_normal((1, 32, seq, 128)).astype(dtype)
        pos = seq - 7
        idx = np.array([[0, h, pos] for h in range(32)], dtype=np.int64)
        upd = rng.standard_normal((32, 128)).astype(dtype)
        tname = np.dtype(dtype).name.replace("float", "f")
        slice_bytes = 128 * data.itemsize
        written = slice_lines(nd_slots(data, idx, 3), slice_bytes) * LINE
        for in_place in (True, False):
            mode = "inplace" if in_place else "copy"
            traffic = upd.nbytes + idx.nbytes + (written if in_place else 2 * data.nbytes)
            w.append(Workload(
                f"kv_cache_token_{mode}_{tname}", "scatter_nd", data, idx, upd,
                in_place=in_place, traffic=traffic,
                description=f"ScatterND none {'in place' if in_place else 'copying'}, data "
                            f"{list(data.shape)} {tname}, one token per head"))

    # ScatterNDUpdate-15 example 5: data [1000,256,10,15], indices [25,125,3]
    data = rng.standard_normal((scaled(1000, scale), 256, 10, 15)).astype(np.float32)
    slots = rng.choice(int(np.prod(data.shape[:3])), 25 * 125, replace=False)
    idx = np.stack(np.unravel_index(slots, data.shape[:3]), -1).reshape(25, 125, 3)
    upd = rng.standard_normal((25, 125, 15)).astype(np.float32)
    w.append(Workload("ov_example5", "scatter_nd", data, idx.astype(np.int64), upd,
                      traffic=2 * data.nbytes + upd.nbytes + idx.size * isz,
                      description=f"ScatterND none, data {list(data.shape)} f32, "
                                  f"indices [25,125,3] distinct"))

    # embedding gradient: Zipf-distributed rows, add
    rows, n = scaled(50000, scale, 64), scaled(65536, scale, 64)
    data = rng.standard_normal((rows, 256)).astype(np.float32)
    perm = rng.permutation(rows)
    ids = perm[(rng.zipf(1.1, n) - 1) % rows].astype(np.int64)
    upd = rng.standard_normal((n, 256)).astype(np.float32)
    w.append(Workload("embedding_grad_add", "scatter_nd", data, ids[:, None], upd, "add",
                      traffic=2 * data.nbytes + upd.nbytes + ids.nbytes,
                      has_duplicates=np.unique(ids).size < n,
                      description=f"ScatterND add, data {list(data.shape)} f32, {n} Zipf "
                                  f"rows ({np.unique(ids).size} distinct)"))

    # element-wise updates, k = r
    side, n = scaled(2048, scale, 64), scaled(2 * 1024 * 1024, scale, 1024)
    data = rng.standard_normal((side, 2048)).astype(np.float32)
    idx = np.stack([rng.integers(0, side, n), rng.integers(0, 2048, n)], -1).astype(np.int64)
    upd = rng.standard_normal(n).astype(np.float32)
    dup = np.unique(idx[:, 0] * 2048 + idx[:, 1]).size < n
    for red in ("add", "max"):
        w.append(Workload(f"elementwise_{red}", "scatter_nd", data, idx, upd, red,
                          traffic=2 * data.nbytes + upd.nbytes + idx.nbytes, has_duplicates=dup,
                          description=f"ScatterND {red}, k = r, data {list(data.shape)} f32, "
                                      f"{n} random elements"))

    # several updates per element into a destination that fits the last-level
    # cache but not L2 (NumPy's np.maximum.at case)
    size = scaled(2 * 1024 * 1024, scale, 1024)
    data = rng.standard_normal(size).astype(np.float32)
    idx = rng.integers(0, size, (4 * size, 1)).astype(np.int64)
    upd = rng.standard_normal(4 * size).astype(np.float32)
    w.append(Workload("dense_max_l3", "scatter_nd", data, idx, upd, "max",
                      traffic=2 * data.nbytes + upd.nbytes + idx.nbytes, has_duplicates=True,
                      description=f"ScatterND max, data [{size}] f32 (fits L3, not L2), "
                                  f"{4 * size} random elements"))

    # rows of 64 and 512 bytes, between single elements and KiB rows
    rows = scaled(1024 * 1024, scale, 64)
    data = rng.standard_normal((rows, 16)).astype(np.float32)
    ids = rng.integers(0, rows, rows).astype(np.int64)
    w.append(Workload("gather_rows_64b", "gather_nd", data, ids[:, None],
                      traffic=ids.size * 64 + ids.nbytes + slice_lines(ids, 64) * LINE,
                      description=f"GatherND, data {list(data.shape)} f32 (64-byte rows), "
                                  f"{rows} rows"))
    rows = scaled(131072, scale, 64)
    data = rng.standard_normal((rows, 128)).astype(np.float32)
    ids = rng.integers(0, rows, rows).astype(np.int64)
    upd = rng.standard_normal((rows, 128)).astype(np.float32)
    w.append(Workload("scatter_rows_512b_add", "scatter_nd", data, ids[:, None], upd, "add",
                      traffic=2 * data.nbytes + upd.nbytes + ids.nbytes, has_duplicates=True,
                      description=f"ScatterND add, data {list(data.shape)} f32 (512-byte "
                                  f"rows), {rows} random rows"))

    # embedding lookup
    rows, n = scaled(50000, scale, 64), scaled(65536, scale, 64)
    data = rng.standard_normal((rows, 256)).astype(np.float32)
    ids = rng.integers(0, rows, n).astype(np.int64)
    out_bytes = n * 256 * 4
    w.append(Workload("gather_embedding", "gather_nd", data, ids[:, None],
                      traffic=out_bytes + ids.nbytes + slice_lines(ids, 1024) * LINE,
                      description=f"GatherND, data {list(data.shape)} f32, {n} rows"))

    # batched gather
    b = scaled(64, scale)
    data = rng.standard_normal((b, 2048, 128)).astype(np.float32)
    idx = rng.integers(0, 2048, (b, 512, 1)).astype(np.int64)
    slots = (np.arange(b)[:, None] * 2048 + idx[..., 0]).reshape(-1)
    w.append(Workload("gather_batch1", "gather_nd", data, idx, batch_dims=1,
                      traffic=b * 512 * 128 * 4 + idx.nbytes + slice_lines(slots, 512) * LINE,
                      description=f"GatherND batch_dims=1, data {list(data.shape)} f32, "
                                  f"indices [{b},512,1]"))

    # element ops along axis 1
    r = scaled(4096, scale, 16)
    data = rng.standard_normal((r, 4096)).astype(np.float32)
    idx = rng.integers(0, 4096, (r, 1024)).astype(np.int64)
    upd = rng.standard_normal((r, 1024)).astype(np.float32)
    for red in ("add", "none"):
        w.append(Workload(f"scatter_elements_{red}", "scatter_elements", data, idx, upd, red,
                          axis=1, traffic=2 * data.nbytes + upd.nbytes + idx.nbytes,
                          has_duplicates=True,
                          description=f"ScatterElements {red} axis 1, data {list(data.shape)} "
                                      f"f32 by [{r},1024]"))
    flat = (np.arange(r)[:, None] * 4096 + idx).reshape(-1) * 4
    w.append(Workload("gather_elements", "gather_elements", data, idx, axis=1,
                      traffic=idx.size * 4 + idx.nbytes + distinct_lines(flat) * LINE,
                      description=f"GatherElements axis 1, data {list(data.shape)} f32 by "
                                  f"[{r},1024]"))
    # whole rows: an index constant along the last axis (torch.gather with an
    # expanded index), output row i = data row rows[i]
    rows = rng.integers(0, r, r).astype(np.int64)
    idx = np.repeat(rows[:, None], 4096, axis=1)
    w.append(Workload("gather_elements_rows", "gather_elements", data, idx, axis=0,
                      traffic=data.nbytes + idx.nbytes + np.unique(rows).size * 4096 * 4,
                      description=f"GatherElements axis 0, data {list(data.shape)} f32 by "
                                  f"[{r},4096] constant along rows"))
    w += gather_and_tensor_scatter_workloads(scale, rng)
    return w


def gather_and_tensor_scatter_workloads(scale, rng):
    """Gather along axis 0 (an embedding lookup) and axis 1; TensorScatter
    writing one decode token into a [B,32,4096,128] float16 KV cache, batch 1
    and 8, linear and circular, in place (onnxruntime IO-bound to the past
    cache's buffer) and copying (onnxruntime's default)."""
    w = []
    rows, n = scaled(50000, scale, 64), scaled(65536, scale, 64)
    data = rng.standard_normal((rows, 256)).astype(np.float32)
    ids = rng.integers(0, rows, n).astype(np.int64)
    w.append(Workload("gather_axis0", "gather", data, ids, axis=0,
                      traffic=n * 256 * 4 + ids.nbytes + slice_lines(ids, 1024) * LINE,
                      description=f"Gather axis 0, data {list(data.shape)} f32 by {n} ids"))
    b = scaled(64, scale)
    data = rng.standard_normal((b, 2048, 128)).astype(np.float32)
    ids = rng.integers(0, 2048, 512).astype(np.int64)
    slots = (np.arange(b)[:, None] * 2048 + ids[None, :]).reshape(-1)
    w.append(Workload("gather_axis1", "gather", data, ids, axis=1,
                      traffic=b * 512 * 128 * 4 + ids.nbytes + slice_lines(slots, 512) * LINE,
                      description=f"Gather axis 1, data {list(data.shape)} f32 by 512 ids"))
    seq = scaled(4096, scale, 16)
    for batch in (1, 8):
        cache = rng.standard_normal((batch, 32, seq, 128)).astype(np.float16)
        token = rng.standard_normal((batch, 32, 1, 128)).astype(np.float16)
        for mode in ("linear", "circular"):
            pos = (seq * 3 // 4 + np.arange(batch)) % seq
            write = pos if mode == "linear" else 5 * seq + seq * 3 // 4 - np.arange(batch)
            write = write.astype(np.int64)
            for in_place in (True, False):
                kind = "inplace" if in_place else "copy"
                traffic = token.nbytes + write.nbytes + (token.nbytes if in_place
                                                         else 2 * cache.nbytes)
                w.append(Workload(
                    f"tensor_scatter_b{batch}_{mode}_{kind}", "tensor_scatter", cache, write,
                    token, axis=-2, mode=mode, in_place=in_place, traffic=traffic,
                    description=f"TensorScatter {mode} {'in place' if in_place else 'copying'}"
                                f", cache {list(cache.shape)} f16, one token"))
    return w


def _token_writes(w):
    """TensorScatter's writes per batch item: (b, first position, count),
    split where a circular write wraps (the workloads' axis is -2)."""
    seq, length = w.data.shape[-2], w.updates.shape[-2]
    writes = []
    for b, start in enumerate(w.indices.tolist()):
        start = start % seq if w.mode == "circular" else start
        first = min(length, seq - start)
        writes.append((b, start, 0, first))
        if first < length:
            writes.append((b, 0, first, length - first))
    return writes


# ---- implementations ------------------------------------------------------------
# Each setup returns (run, result, note, close): run() computes once into a
# buffer fixed at setup; result() gives that output as a NumPy array.

class Missing(Exception):
    """The peer is not installed."""


def _out_buffer(w):
    out = aligned_empty(w.output_shape, w.data.dtype)
    if w.in_place:
        out[...] = w.data  # each in-place implementation gets its own copy
    return out


def setup_sgk(w, threads):
    sgk.set_num_threads(threads)
    if w.op == "scatter_nd":
        plan = sgk.ScatterNDPlan(w.data, w.indices, w.updates, w.reduction)
    elif w.op == "scatter_elements":
        plan = sgk.ScatterElementsPlan(w.data, w.indices, w.updates, w.axis, w.reduction)
    elif w.op == "gather_nd":
        plan = sgk.GatherNDPlan(w.data, w.indices, w.batch_dims)
    elif w.op == "gather":
        plan = sgk.GatherPlan(w.data, w.indices, w.axis)
    elif w.op == "tensor_scatter":
        plan = sgk.TensorScatterPlan(w.data, w.updates, w.indices, w.axis, w.mode)
    else:
        plan = sgk.GatherElementsPlan(w.data, w.indices, w.axis)
    out = _out_buffer(w)
    src = out if w.in_place else w.data
    if w.scatter:
        def run():
            plan.execute(src, w.updates, out=out)
    else:
        def run():
            plan.execute(src, out=out)
    return run, lambda: out, plan.describe(), plan.close


def setup_sgk_oneshot(w, threads):
    sgk.set_num_threads(threads)
    out = _out_buffer(w)
    src = out if w.in_place else w.data
    calls = {
        "scatter_nd": lambda: sgk.scatter_nd(src, w.indices, w.updates, w.reduction, out=out),
        "scatter_elements": lambda: sgk.scatter_elements(src, w.indices, w.updates, w.axis,
                                                         w.reduction, out=out),
        "gather_nd": lambda: sgk.gather_nd(w.data, w.indices, w.batch_dims, out=out),
        "gather_elements": lambda: sgk.gather_elements(w.data, w.indices, w.axis, out=out),
        "gather": lambda: sgk.gather(w.data, w.indices, w.axis, out=out),
        "tensor_scatter": lambda: sgk.tensor_scatter(src, w.updates, w.indices, w.axis, w.mode,
                                                     out=out),
    }
    return calls[w.op], lambda: out, "plan + execute per call", None


def _copy_note(w, peer):
    return f"{peer} has no in-place form: copies the data" if w.in_place else ""


def setup_onnxruntime(w, threads):
    try:
        import onnxruntime as ort
        from onnx import helper, TensorProto
    except ImportError as exc:
        raise Missing(str(exc))
    elem = helper.np_dtype_to_tensor_dtype(w.data.dtype)
    names = ["data", "indices"] + (["updates"] if w.scatter else [])
    arrays = [w.data, w.indices] + ([w.updates] if w.scatter else [])
    if w.op == "tensor_scatter":
        return _onnxruntime_tensor_scatter(w, threads, ort, helper, elem)
    if w.op == "scatter_nd":
        node = helper.make_node("ScatterND", names, ["out"], reduction=w.reduction)
        opset = 18
    elif w.op == "scatter_elements":
        node = helper.make_node("ScatterElements", names, ["out"], axis=w.axis,
                                reduction=w.reduction)
        opset = 18
    elif w.op == "gather_nd":
        node = helper.make_node("GatherND", names, ["out"], batch_dims=w.batch_dims)
        opset = 13
    elif w.op == "gather":
        node = helper.make_node("Gather", names, ["out"], axis=w.axis)
        opset = 13
    else:
        node = helper.make_node("GatherElements", names, ["out"], axis=w.axis)
        opset = 13
    inputs = [helper.make_tensor_value_info(n, elem if a is not w.indices else TensorProto.INT64,
                                            list(a.shape)) for n, a in zip(names, arrays)]
    output = helper.make_tensor_value_info("out", elem, list(w.output_shape))
    graph = helper.make_graph([node], w.op, inputs, [output])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    sess = ort.InferenceSession(model.SerializeToString(), so,
                                providers=["CPUExecutionProvider"])
    out = _out_buffer(w)
    binding = sess.io_binding()
    keep = []
    for n, a in zip(names, arrays):
        v = ort.OrtValue.ortvalue_from_numpy(a)
        keep.append(v)
        binding.bind_ortvalue_input(n, v)
    out_value = ort.OrtValue.ortvalue_from_numpy(out)
    binding.bind_ortvalue_output("out", out_value)

    def run():
        sess.run_with_iobinding(binding)
    run.keep = (keep, out_value, sess)
    note = f"{node.op_type}-{opset} via IOBinding"
    if w.in_place:
        note += "; " + _copy_note(w, "onnxruntime")
    return run, lambda: out, note, None


def _ort_session(ort, model, threads):
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    so.log_severity_level = 3  # TensorScatter warns of its copy on every run
    return ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])


def _onnxruntime_tensor_scatter(w, threads, ort, helper, elem):
    """TensorScatter-24 through IOBinding: in place, the present cache bound
    to the past cache's buffer (the only way onnxruntime skips its copy);
    copying, a separate output, as it runs by default."""
    from onnx import TensorProto
    names = ["past_cache", "update", "write_indices"]
    node = helper.make_node("TensorScatter", names, ["out"], axis=w.axis, mode=w.mode)
    inputs = [helper.make_tensor_value_info(n, t, list(a.shape)) for n, t, a in
              zip(names, (elem, elem, TensorProto.INT64), (w.data, w.updates, w.indices))]
    output = helper.make_tensor_value_info("out", elem, list(w.data.shape))
    model = helper.make_model(helper.make_graph([node], w.op, inputs, [output]),
                              opset_imports=[helper.make_opsetid("", 24)])
    model.ir_version = 10
    sess = _ort_session(ort, model, threads)
    out = _out_buffer(w)
    out_value = ort.OrtValue.ortvalue_from_numpy(out)
    cache_value = out_value if w.in_place else ort.OrtValue.ortvalue_from_numpy(w.data)
    binding = sess.io_binding()
    keep = [ort.OrtValue.ortvalue_from_numpy(a) for a in (w.updates, w.indices)]
    binding.bind_ortvalue_input("past_cache", cache_value)
    binding.bind_ortvalue_input("update", keep[0])
    binding.bind_ortvalue_input("write_indices", keep[1])
    binding.bind_ortvalue_output("out", out_value)

    def run():
        sess.run_with_iobinding(binding)
    run.keep = (keep, cache_value, out_value, sess)
    note = ("TensorScatter-24, present cache IO-bound to the past cache (in place)"
            if w.in_place else "TensorScatter-24 via IOBinding, copying (its default)")
    return run, lambda: out, note, None


def _ov_opsets():
    try:
        import openvino as ov
    except ImportError as exc:
        raise Missing(str(exc))
    try:
        import openvino.opset15 as o15, openvino.opset12 as o12
        import openvino.opset8 as o8, openvino.opset6 as o6
    except ImportError:
        import openvino.runtime.opset15 as o15, openvino.runtime.opset12 as o12  # noqa: E401
        import openvino.runtime.opset8 as o8, openvino.runtime.opset6 as o6  # noqa: E401
    return ov, o15, o12, o8, o6


def setup_openvino(w, threads):
    ov, o15, o12, o8, o6 = _ov_opsets()
    if w.op == "tensor_scatter":
        raise NotImplementedError("OpenVINO has no TensorScatter (its ONNX frontend cannot "
                                  "convert one)")
    ov_red = {"none": "none", "add": "sum", "mul": "prod", "max": "max", "min": "min",
              "sub": "sub"}[w.reduction]
    arrays = [w.data, w.indices] + ([w.updates] if w.scatter else [])
    params = [o15.parameter(list(a.shape), a.dtype, name=f"in{i}") for i, a in enumerate(arrays)]
    if w.op == "scatter_nd":
        node, opname = o15.scatter_nd_update(*params, reduction=ov_red), "ScatterNDUpdate-15"
    elif w.op == "scatter_elements":
        node = o12.scatter_elements_update(params[0], params[1], params[2], w.axis,
                                           reduction=ov_red, use_init_val=True)
        opname = "ScatterElementsUpdate-12"
    elif w.op == "gather_nd":
        node, opname = o8.gather_nd(params[0], params[1], w.batch_dims), "GatherND-8"
    elif w.op == "gather":
        node, opname = o8.gather(params[0], params[1], w.axis, 0), "Gather-8"
    else:
        node, opname = o6.gather_elements(params[0], params[1], w.axis), "GatherElements-6"
    model = ov.Model([node], params, w.name)
    config = {"INFERENCE_NUM_THREADS": threads, "INFERENCE_PRECISION_HINT": "f32",
              "PERFORMANCE_HINT": "LATENCY", "NUM_STREAMS": 1}
    compiled = ov.Core().compile_model(model, "CPU", config)
    req = compiled.create_infer_request()
    for i, a in enumerate(arrays):
        req.set_input_tensor(i, ov.Tensor(a, shared_memory=True))
    out = _out_buffer(w)
    req.set_output_tensor(0, ov.Tensor(out, shared_memory=True))

    def run():
        req.infer()

    def result():
        return np.asarray(req.get_output_tensor(0).data)
    run.keep = (compiled, req, out)
    note = opname + ("; " + _copy_note(w, "OpenVINO") if w.in_place else "")
    return run, result, note, None


def setup_torch(w, threads):
    try:
        import torch
    except ImportError as exc:
        raise Missing(str(exc))
    torch.set_num_threads(threads)
    data = torch.from_numpy(w.data)
    idx = torch.from_numpy(w.indices)
    upd = torch.from_numpy(w.updates) if w.scatter else None
    out_np = _out_buffer(w)
    out = torch.from_numpy(out_np)
    note = ""
    if w.op == "gather":
        o2 = out.view(*w.data.shape[:w.axis], -1, *w.data.shape[w.axis + 1:])
        rows = idx.reshape(-1)

        def run():
            torch.index_select(data, w.axis, rows, out=o2)
        return run, lambda: out_np, "index_select", None
    if w.op == "tensor_scatter":
        writes = [(b, p, s, n) for b, p, s, n in _token_writes(w)]

        def op():
            for b, p, s, n in writes:
                out[b, :, p:p + n, :] = upd[b, :, s:s + n, :]
        if w.in_place:
            run, note = op, "slice assignment in place"
        else:
            def run():
                out.copy_(data)
                op()
            note = "slice assignment after copy_"
        return run, lambda: out_np, note, None
    if w.op == "scatter_nd":
        k = w.indices.shape[-1]
        cols = tuple(c.contiguous() for c in idx.reshape(-1, k).unbind(1))
        u2 = upd.reshape((-1,) + tuple(w.data.shape[k:]))
        if w.reduction == "none":
            def op():
                out.index_put_(cols, u2)
            note = "index_put_"
        elif w.reduction == "add" and k == 1:
            rows = cols[0]

            def op():
                out.index_add_(0, rows, u2)
            note = "index_add_"
        elif w.reduction == "add":
            def op():
                out.index_put_(cols, u2, accumulate=True)
            note = "index_put_(accumulate=True)"
        elif k == w.data.ndim:
            flat = torch.from_numpy(nd_slots(w.data, w.indices, k).astype(np.int64))
            red = {"max": "amax", "min": "amin", "mul": "prod"}[w.reduction]
            flat_out = out.view(-1)
            u1 = upd.reshape(-1)

            def op():
                flat_out.scatter_reduce_(0, flat, u1, red, include_self=True)
            note = f"scatter_reduce_({red}) on flat indices computed once"
        else:
            raise NotImplementedError(f"no torch form for ScatterND {w.reduction} with k < r")
        if w.in_place:
            run = op
            note += " in place"
        else:
            def run():
                out.copy_(data)
                op()
            note += " after copy_"
    elif w.op == "scatter_elements":
        red = {"add": "sum", "mul": "prod", "max": "amax", "min": "amin"}.get(w.reduction)

        def run():
            out.copy_(data)
            if red is None:
                out.scatter_(w.axis, idx, upd)
            else:
                out.scatter_reduce_(w.axis, idx, upd, red, include_self=True)
        note = "scatter_" if red is None else f"scatter_reduce_({red})"
    elif w.op == "gather_nd":
        if w.batch_dims == 0 and w.indices.shape[-1] == 1:
            rows = idx.reshape(-1)
            o2 = out.view(-1, *w.data.shape[1:])

            def run():
                torch.index_select(data, 0, rows, out=o2)
            note = "index_select"
        elif w.batch_dims == 1 and w.indices.shape[-1] == 1 and w.data.ndim == 3:
            expanded = idx.expand(-1, -1, w.data.shape[2])

            def run():
                torch.gather(data, 1, expanded, out=out)
            note = "gather with an expanded index"
        else:
            raise NotImplementedError("no torch form for this GatherND")
    else:
        def run():
            torch.gather(data, w.axis, idx, out=out)
        note = "gather"
    return run, lambda: out_np, note, None


def setup_numpy(w, threads):
    out = _out_buffer(w)
    note = "single-threaded"
    if w.op == "gather":
        def run():
            np.take(w.data, w.indices, axis=w.axis, out=out)
        return run, lambda: out, note + "; np.take(out=)", None
    if w.op == "tensor_scatter":
        writes = _token_writes(w)

        def op():
            for b, p, s, n in writes:
                out[b, :, p:p + n, :] = w.updates[b, :, s:s + n, :]
        if w.in_place:
            run = op
        else:
            def run():
                np.copyto(out, w.data)
                op()
        return run, lambda: out, note + "; slice assignment" + (
            " in place" if w.in_place else " after copyto"), None
    if w.op == "scatter_nd":
        k = w.indices.shape[-1]
        cols = tuple(w.indices.reshape(-1, k).T)
        u2 = w.updates.reshape((-1,) + w.data.shape[k:])
        ufunc = {"add": np.add, "mul": np.multiply, "max": np.maximum, "min": np.minimum,
                 "sub": np.subtract}.get(w.reduction)
        if ufunc is None:
            def op():
                out[cols] = u2
            note += "; fancy-index assignment"
        else:
            def op():
                ufunc.at(out, cols, u2)
            note += f"; np.{ufunc.__name__}.at"
        if w.in_place:
            run = op
        else:
            def run():
                np.copyto(out, w.data)
                op()
    elif w.op == "scatter_elements":
        rows = np.arange(w.indices.shape[0])[:, None]
        ufunc = {"add": np.add, "mul": np.multiply, "max": np.maximum,
                 "min": np.minimum}.get(w.reduction)

        def run():
            np.copyto(out, w.data)
            if ufunc is None:
                np.put_along_axis(out, w.indices, w.updates, axis=w.axis)
            else:
                ufunc.at(out, (rows, w.indices), w.updates)
        note += "; put_along_axis" if ufunc is None else f"; np.{ufunc.__name__}.at"
    elif w.op == "gather_nd":
        if w.batch_dims == 0 and w.indices.shape[-1] == 1:
            rows = w.indices.reshape(-1)
            o2 = out.reshape(-1, *w.data.shape[1:])

            def run():
                np.take(w.data, rows, axis=0, out=o2)
            note += "; np.take(out=)"
        elif w.batch_dims == 1 and w.indices.shape[-1] == 1 and w.data.ndim == 3:
            def run():
                out[...] = np.take_along_axis(w.data, w.indices, axis=1)
            note += "; take_along_axis (allocates)"
        else:
            raise NotImplementedError("no numpy form for this GatherND")
    else:
        def run():
            out[...] = np.take_along_axis(w.data, w.indices, axis=w.axis)
        note += "; take_along_axis (allocates)"
    return run, lambda: out, note, None


SETUPS = {"sgk": setup_sgk, "sgk_oneshot": setup_sgk_oneshot, "onnxruntime": setup_onnxruntime,
          "openvino": setup_openvino, "torch": setup_torch, "numpy": setup_numpy}


# ---- measuring ------------------------------------------------------------------

def measure(run, warmup, reps, budget):
    """Warm-up calls, then up to reps timed calls within about budget seconds."""
    t0 = time.perf_counter()
    run()
    first = time.perf_counter() - t0
    for _ in range(max(0, warmup - 1)):
        run()
    n = reps if first * reps <= budget else max(1, int(budget / max(first, 1e-9)))
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        run()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), min(times), max(times), n


def copy_bandwidth(threads, reps, mib=256):
    """Bytes/s of read+write for np.copyto of mib MiB: single-threaded and
    with threads concurrent chunk copies; returns (single, threaded)."""
    n = mib * 1024 * 1024 // 8
    src = np.ones(n)
    dst = np.empty_like(src)
    np.copyto(dst, src)  # fault in the pages
    single = []
    for _ in range(reps):
        t0 = time.perf_counter()
        np.copyto(dst, src)
        single.append(time.perf_counter() - t0)
    bounds = np.linspace(0, n, threads + 1).astype(np.int64)
    chunks = [(dst[a:b], src[a:b]) for a, b in zip(bounds[:-1], bounds[1:])]
    threaded = []
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(lambda c: np.copyto(*c), chunks))
        for _ in range(reps):
            t0 = time.perf_counter()
            list(pool.map(lambda c: np.copyto(*c), chunks))
            threaded.append(time.perf_counter() - t0)
    nbytes = 2 * src.nbytes
    return nbytes / statistics.median(single), nbytes / statistics.median(threaded)


def compare(w, ref, got):
    """(matches, note): exact equality, or how far a float result is off."""
    got = np.asarray(got)
    if got.shape != ref.shape or got.dtype != ref.dtype:
        return False, f"result {got.dtype}{list(got.shape)} vs sgk {ref.dtype}{list(ref.shape)}"
    if np.array_equal(got, ref, equal_nan=ref.dtype.kind in "fc"):
        return True, ""
    differ = int(np.count_nonzero(~((got == ref) | (np.isnan(got) & np.isnan(ref)))
                                  if ref.dtype.kind in "fc" else got != ref))
    note = f"{differ} of {ref.size} elements differ"
    if ref.dtype.kind == "f":
        with np.errstate(invalid="ignore", over="ignore"):
            diff = np.abs(got.astype(np.float64) - ref.astype(np.float64))
        itype = {2: np.int16, 4: np.int32, 8: np.int64}[ref.itemsize]
        sign = np.int64(1) << (8 * ref.itemsize - 1)

        def ordered(a):
            i = a.view(itype).astype(np.int64)
            return np.where(i < 0, -(i & (sign - 1)), i)
        ulp = np.abs(ordered(got) - ordered(ref))
        note += f"; max |diff| {np.nanmax(diff):.3g}"
        if np.all(np.signbit(got) == np.signbit(ref)):
            note += f", max {int(ulp.max())} ulp"
    beyond = 0
    if ref.dtype.kind in "fc":
        with np.errstate(invalid="ignore", over="ignore"):
            beyond = int(np.count_nonzero(np.abs(got.astype(np.complex128) - ref)
                                          > 1e-3 * (1 + np.abs(ref))))
    if w.float_order_matters and beyond:
        note += (f"; {beyond} elements off by more than rounding: updates lost or misapplied, "
                 f"not reordered (the sequential loop of sgk's semantics, like numpy's ufunc.at, "
                 f"gives sgk's result)")
    elif w.float_order_matters:
        note += ("; rounding-level: float add with duplicate destinations reordered; "
                 "sgk's semantics fix the sequential order (sgk, numpy's ufunc.at)")
    elif w.reduction == "none" and w.has_duplicates:
        note += ("; duplicate destinations under 'none': the spec leaves the winner "
                 "undefined, sgk defines it as the last update (sgk's semantics)")
    return False, note


class ForeignLoad:
    """CPU time other processes took during the run, from /proc/stat minus this
    process's and its children's own: a busy machine makes the figures noisy
    (a two-thread region then waits for a time slice, ~4-8 ms here)."""

    def __init__(self):
        self.start = self._sample()

    @staticmethod
    def _sample():
        try:
            with open("/proc/stat") as f:
                fields = [int(x) for x in f.readline().split()[1:]]
        except (OSError, ValueError):
            return None
        busy = sum(fields) - fields[3] - (fields[4] if len(fields) > 4 else 0)
        t = os.times()
        own = t.user + t.system + t.children_user + t.children_system
        return busy / os.sysconf("SC_CLK_TCK"), own, time.monotonic()

    def fraction(self):
        """Share of all CPUs used by other processes since construction."""
        end = self._sample()
        if self.start is None or end is None:
            return None
        busy, own, elapsed = (e - s for e, s in zip(end, self.start))
        cpus = os.cpu_count() or 1
        return max(0.0, (busy - own) / max(elapsed * cpus, 1e-9))


def default_threads():
    m = re.search(r"physical cores (\d+)", sgk.runtime_describe())
    return int(m.group(1)) if m else (os.cpu_count() or 1)


# ---- output ---------------------------------------------------------------------

def print_table(records, out=sys.stdout):
    head = (f"{'workload':<26} {'impl':<12} {'median ms':>10} {'min ms':>9} {'max ms':>9} "
            f"{'of_copy':>8} {'sgk speedup':>11}  matches_sgk  note")
    print(head, file=out)
    print("-" * len(head), file=out)
    last = None
    for r in records:
        if last is not None and r["workload"] != last:
            print(file=out)
        last = r["workload"]
        if r["status"] != "ok":
            print(f"{r['workload']:<26} {r['impl']:<12} {r['status']:>10}  {r['note']}", file=out)
            continue
        sp = "" if r["speedup_of_sgk"] is None else f"{r['speedup_of_sgk']:.2f}x"
        m = {True: "yes", False: "NO", None: "-"}[r["matches_sgk"]]
        print(f"{r['workload']:<26} {r['impl']:<12} {r['median_ms']:>10.3f} {r['min_ms']:>9.3f} "
              f"{r['max_ms']:>9.3f} {r['of_copy']:>8.3f} {sp:>11}  {m:<11}  {r['note']}",
              file=out)


def write_markdown(records, path):
    """The table of docs/performance.md (bench/bench_tables.py): per
    workload, each implementation's median and of_copy, and sgk's speedup
    over it (peer time / sgk plan time)."""
    lines = [peers_caption(records), ""] + peers_table(records)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


# distribution name of each peer, for the versions a run records
PACKAGES = {"onnxruntime": "onnxruntime", "openvino": "openvino", "torch": "torch",
            "numpy": "numpy"}


def versions(impls):
    """The version of sgk and of every peer package installed."""
    from importlib import metadata
    out = {"python": sys.version.split()[0], "sgk": sgk.version()}
    for impl in impls:
        if impl in PACKAGES:
            try:
                out[impl] = metadata.version(PACKAGES[impl])
            except metadata.PackageNotFoundError:
                out[impl] = "not installed"
    return out


def draw_png(records, path, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    workloads = list(dict.fromkeys(r["workload"] for r in records))
    impls = [i for i in IMPLS if any(r["impl"] == i and r["status"] == "ok" for r in records)]
    fig, ax = plt.subplots(figsize=(max(10, 1.3 * len(workloads)), 5.5))
    width = 0.8 / max(1, len(impls))
    colors = {"sgk": "#1f77b4", "sgk_oneshot": "#aec7e8", "onnxruntime": "#ff7f0e",
              "openvino": "#9467bd", "torch": "#d62728", "numpy": "#2ca02c"}
    for j, impl in enumerate(impls):
        xs, ys = [], []
        for i, wname in enumerate(workloads):
            for r in records:
                if r["workload"] == wname and r["impl"] == impl and r["status"] == "ok":
                    xs.append(i + (j - (len(impls) - 1) / 2) * width)
                    ys.append(max(r["of_copy"], 1e-4))
        ax.bar(xs, ys, width, label=impl, color=colors.get(impl))
    ax.axhline(1.0, color="black", linewidth=0.8, linestyle="--")
    ax.text(len(workloads) - 0.5, 1.0, " copy bandwidth", va="bottom", ha="right", fontsize=8)
    ax.set_yscale("log")
    ax.set_xticks(range(len(workloads)))
    ax.set_xticklabels(workloads, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("of_copy = (minimal traffic / median time) / copy bandwidth")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, ncol=len(impls), loc="upper center", bbox_to_anchor=(0.5, -0.28))
    ax.grid(axis="y", which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


# ---- running ----------------------------------------------------------------------

def fingerprint(w):
    """CRC-32 of the inputs, to show every process ran on the same arrays."""
    crc = 0
    for a in (w.data, w.indices, w.updates):
        if a is not None:
            crc = zlib.crc32(memoryview(np.ascontiguousarray(a)).cast("B"), crc)
    return crc


def sgk_reference(w):
    """sgk's result for w, from a single-threaded one-shot call (so that no
    sgk worker pool sits beside a peer's).  Made after the peer is timed: an
    sgk call before the timing slowed the sgk plan executions that followed
    it in the same process (gather_elements 4.8-6.1 ms without it, 6.3-7.5
    with it; PyTorch's gather 10.9-12.3 against 12.2-12.4)."""
    sgk.set_num_threads(1)
    run, result, _, _ = setup_sgk_oneshot(w, 1)
    run()
    return result().copy()


def run_impl(impl, workloads, threads, warmup, reps, budget):
    """Time one implementation on every workload, then compare its results
    with sgk's reference.  Returns one record per workload."""
    records = []
    for w in workloads:
        rec = {"workload": w.name, "impl": impl,
               "threads": 1 if impl == "numpy" else threads, "median_ms": None,
               "min_ms": None, "max_ms": None, "matches_sgk": None, "status": "ok",
               "note": "", "reps": 0, "inputs_crc32": fingerprint(w)}
        close = None
        try:
            run, result, note, close = SETUPS[impl](w, threads)
            med, lo, hi, n = measure(run, warmup, reps, budget)
            rec.update(median_ms=med * 1e3, min_ms=lo * 1e3, max_ms=hi * 1e3, reps=n,
                       note=note)
            try:
                ref = sgk_reference(w)
            except Exception as exc:  # noqa: BLE001 - the timing still stands
                ref = None
                rec["note"] = f"{note}; no sgk reference: {exc}" if note else \
                    f"no sgk reference: {exc}"
            if ref is not None:
                ok, why = compare(w, ref, result())
                rec["matches_sgk"] = ok
                if why:
                    rec["note"] = f"{note}; {why}" if note else why
        except Missing as exc:
            rec.update(status="missing", note=f"not installed ({exc})")
        except Exception as exc:  # noqa: BLE001 - a failing peer is reported, not fatal
            msg = " ".join(str(exc).split())[:240]
            rec.update(status="error", note=f"{type(exc).__name__}: {msg}")
            if os.environ.get("PEERS_DEBUG"):
                traceback.print_exc()
        finally:
            if close:
                close()
        state = (f"{rec['median_ms']:.3f} ms" if rec["status"] == "ok"
                 else f"{rec['status']}: {rec['note']}")
        print(f"  {impl:<12} {w.name:<28} {state}", file=sys.stderr, flush=True)
        records.append(rec)
    return records


def run_isolated(impl, argv, timeout):
    """run_impl in a fresh interpreter, so that no other runtime's thread pool
    (OpenMP, TBB, onnxruntime's) shares the two cores with this one's."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    try:
        cmd = [sys.executable, os.path.abspath(__file__), "--child", impl, "--child-out", path]
        proc = subprocess.run(cmd + argv, timeout=timeout, stdout=subprocess.DEVNULL)
        if proc.returncode != 0:
            raise RuntimeError(f"{impl} process exited with status {proc.returncode}")
        with open(path) as f:
            return json.load(f)
    finally:
        os.unlink(path)


def child_argv(args, scale, reps, warmup, budget, threads):
    argv = ["--scale", repr(scale), "--reps", str(reps), "--warmup", str(warmup),
            "--budget", repr(budget), "--threads", str(threads), "--seed", str(args.seed)]
    if args.workloads:
        argv += ["--workloads", args.workloads]
    return argv


# ---- main -----------------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scale", type=float, default=None,
                    help="size factor on the workloads' shapes (default 1, --quick 0.125)")
    ap.add_argument("--quick", action="store_true", help="small scale, few repetitions")
    ap.add_argument("--reps", type=int, default=None, help="timed calls (default 10, quick 5)")
    ap.add_argument("--warmup", type=int, default=None, help="warm-up calls (default 2, quick 1)")
    ap.add_argument("--budget", type=float, default=None,
                    help="seconds of timed calls per implementation and workload before "
                         "reps are cut (default 20, quick 3)")
    ap.add_argument("--threads", type=int, default=None,
                    help="threads for every implementation (default: sgk's, physical cores)")
    ap.add_argument("--impls", default=",".join(IMPLS), help="comma-separated subset")
    ap.add_argument("--workloads", default="", help="comma-separated name prefixes")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=1,
                    help="run every implementation this many times, in turn (default 1)")
    ap.add_argument("--no-isolate", dest="isolate", action="store_false",
                    help="run every implementation in this process (their thread pools then "
                         "compete for the cores)")
    ap.add_argument("--json", help="write the run here: machine, date, commit, versions and "
                    "the records")
    ap.add_argument("--png", help="draw of_copy per workload and implementation here")
    ap.add_argument("--markdown", help="write a markdown table (median, of_copy, speedup of "
                                       "sgk) here")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--child-out", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    scale = args.scale if args.scale is not None else (0.125 if args.quick else 1.0)
    reps = args.reps or (5 if args.quick else 10)
    warmup = args.warmup if args.warmup is not None else (1 if args.quick else 2)
    budget = args.budget or (3.0 if args.quick else 20.0)
    threads = args.threads or default_threads()
    impls = [i.strip() for i in args.impls.split(",") if i.strip()]
    for i in impls:
        if i not in SETUPS:
            ap.error(f"unknown implementation {i!r}; choose from {', '.join(IMPLS)}")

    workloads = make_workloads(scale, np.random.default_rng(args.seed))
    if args.workloads:
        prefixes = [p.strip() for p in args.workloads.split(",") if p.strip()]
        workloads = [w for w in workloads if any(w.name.startswith(p) for p in prefixes)]

    if args.child:
        records = run_impl(args.child, workloads, threads, warmup, reps, budget)
        with open(args.child_out, "w") as f:
            json.dump(records, f)
        return 0

    load = ForeignLoad()
    provenance = describe_run()
    sgk.set_num_threads(threads)
    print(f"sgk {sgk.version()} from {sgk.library_path()}")
    print(f"runtime: {sgk.runtime_describe()}")
    bw_single, bw_threaded = copy_bandwidth(threads, max(3, reps))
    copy_bw = max(bw_single, bw_threaded)
    print(f"copy bandwidth (np.copyto 256 MiB, read+write): 1 thread {bw_single / 1e9:.2f} GB/s, "
          f"{threads} threads {bw_threaded / 1e9:.2f} GB/s; using {copy_bw / 1e9:.2f} GB/s")
    print(f"threads: {threads} for sgk, onnxruntime (intra-op), OpenVINO "
          f"(INFERENCE_NUM_THREADS), torch; numpy is single-threaded")
    print(f"scale {scale}, warm-up {warmup}, up to {reps} timed calls (budget {budget:g} s "
          f"per implementation and workload), "
          f"{'one process per implementation' if args.isolate else 'all in one process'}; "
          f"every buffer {ALIGN}-byte aligned")
    for w in workloads:
        print(f"  {w.name:<28} {w.description}; minimal traffic {w.traffic / 2**20:.2f} MiB")
    print(flush=True)

    rounds = []  # per round, each implementation's records
    sub_argv = child_argv(args, scale, reps, warmup, budget, threads)
    for k in range(max(1, args.rounds)):
        by_impl = {}
        for impl in impls if k % 2 == 0 else impls[::-1]:
            print(f"[{impl}]" + (f" round {k + 1}" if args.rounds > 1 else ""),
                  file=sys.stderr, flush=True)
            try:
                if args.isolate:
                    by_impl[impl] = run_isolated(impl, sub_argv, 600 if args.quick else 7200)
                else:
                    by_impl[impl] = run_impl(impl, workloads, threads, warmup, reps, budget)
            except Exception as exc:  # noqa: BLE001 - a crashed or hung peer is reported
                note = " ".join(str(exc).split())[:240]
                by_impl[impl] = [{"workload": w.name, "impl": impl, "status": "error",
                                  "note": f"{type(exc).__name__}: {note}"} for w in workloads]
        rounds.append(by_impl)

    foreign = load.fraction()
    records = []
    for w in workloads:
        crc = fingerprint(w)
        # rows[impl][k]: impl's record for w in round k
        rows = {i: [next(r for r in rnd[i] if r["workload"] == w.name) for rnd in rounds]
                for i in impls}
        sgk_ok = "sgk" in rows and all(r["status"] == "ok" for r in rows["sgk"])
        for impl in impls:
            rs = rows[impl]
            rec = {"workload": w.name, "impl": impl, "median_ms": None, "min_ms": None,
                   "max_ms": None, "of_copy": None, "speedup_of_sgk": None,
                   "matches_sgk": None, "threads": threads, "note": "", "status": "ok",
                   "reps": 0}
            # a round that failed, or whose result disagreed with sgk's, speaks
            # for the whole run
            rec.update(next((r for r in rs if r["status"] != "ok"),
                            next((r for r in rs if r.get("matches_sgk") is False), rs[0])))
            if any(r.get("inputs_crc32", crc) != crc for r in rs):
                rec.update(status="error", note="ran on different inputs (CRC mismatch)")
            if rec["status"] == "ok":
                rec.update(median_ms=statistics.median(r["median_ms"] for r in rs),
                           min_ms=min(r["min_ms"] for r in rs),
                           max_ms=max(r["max_ms"] for r in rs),
                           reps=sum(r["reps"] for r in rs),
                           round_medians_ms=[r["median_ms"] for r in rs])
                med = rec["median_ms"] / 1e3
                rec["of_copy"] = (w.traffic / med) / copy_bw
                if sgk_ok:
                    ratios = [r["median_ms"] / s["median_ms"] for r, s in zip(rs, rows["sgk"])]
                    rec.update(speedup_of_sgk=statistics.median(ratios), speedup_rounds=ratios)
            rec.update(traffic_bytes=w.traffic, copy_bw_bytes_per_s=copy_bw, scale=scale,
                       description=w.description, inputs_crc32=crc, foreign_load=foreign,
                       rounds=len(rounds))
            records.append(rec)

    print_table(records)
    if len(rounds) > 1:
        print("\nsgk's speedup in each round (peer median / sgk median of the same round):")
        for r in records:
            if r["impl"] != "sgk" and r.get("speedup_rounds"):
                print(f"  {r['workload']:<26} {r['impl']:<12} "
                      + " ".join(f"{x:.2f}x" for x in r["speedup_rounds"]))
    if foreign is not None:
        print(f"\nother processes used {100 * foreign:.0f}% of the CPUs during the run"
              + ("; figures are noisy, rerun on a quiet machine" if foreign > 0.05 else ""))
    disagreements = [r for r in records if r["matches_sgk"] is False]
    print(f"\n{len(disagreements)} result(s) disagree with sgk"
          + (":" if disagreements else "."))
    for r in disagreements:
        print(f"  {r['workload']} / {r['impl']}: {r['note']}")
    failed = [r for r in records if r["status"] != "ok"]
    if failed:
        print(f"{len(failed)} run(s) missing or failed (see the table)")
    if args.json:
        doc = dict(provenance, runtime=sgk.runtime_describe(), versions=versions(impls),
                   threads=threads, copy_gbps=copy_bw / 1e9, scale=scale, rounds=len(rounds),
                   records=records)
        with open(args.json, "w") as f:
            json.dump(doc, f, indent=1)
        print(f"wrote {args.json}")
    if args.markdown:
        write_markdown(records, args.markdown)
        print(f"wrote {args.markdown}")
    if args.png:
        try:
            draw_png(records, args.png,
                     f"sgk vs peers, {threads} threads, copy bandwidth "
                     f"{copy_bw / 1e9:.1f} GB/s, scale {scale}")
            print(f"wrote {args.png}")
        except ImportError as exc:
            print(f"no chart: matplotlib missing ({exc})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
