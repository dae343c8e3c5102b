#!/usr/bin/env python3
"""Multi-node ONNX models of the patterns sgk is for, run through OpenVINO's
CPU plugin with the sgk extension and compared bit for bit with
onnx.reference (or, for types it lacks, the sequential definition of
tests/conformance/definition.py); OpenVINO without the extension runs the
same inputs and where it disagrees the test says so (a finding, not a
failure: that is what the extension is for).

Also: every opset version of each operator converts (Gather 1, 11, 13
and TensorScatter 24 included; gathers of shapes stay OpenVINO's); constant indices are
planned once and the plan reused across requests and streams; dynamic
indices take one-shot calls; concurrent requests on two streams; dynamic
shapes; out-of-range indices raise an OpenVINO error carrying sgk's
message and leave the inputs intact; the 64-bit types exact in the
operators themselves (node.evaluate), which the CPU plugin lowers to 32
bits around any operator (docs/integration.md, "Limits").

The patterns are in model_patterns.py, the building of models and the
running with and without sgk in onnx_models.py; this script runs them all.
"""
import os
import subprocess
import sys

import numpy as np

import common
import definition
import onnx
from model_patterns import (
    beam_search_step, boolean_reductions, float16_add_with_duplicates,
    gather_and_tensor_scatter_opsets, gnn_layer, llm_decode_step,
    llm_decode_step_tensor_scatter, scatter_into_transposed_cache,
    scatter_into_transposed_cache_bad_updates, scatter_into_transposed_cache_dynamic,
    shape_gathers_stay_openvino, tensor_scatter_dynamic_shapes, tensor_scatter_out_of_range,
    wide_types_in_the_operator)
from onnx import TensorProto, helper
from onnx_models import findings, make_model

ov = common.ov


# ---- conversions, plans, threads, shapes -----------------------------------------

OPSET_SWEEP = [("ScatterND", [11, 13, 16, 18]), ("GatherND", [11, 12, 13]),
               ("ScatterElements", [11, 13, 16, 18]), ("Scatter", [9, 10]),
               ("GatherElements", [11, 13])]


def every_opset():
    data = np.arange(12, dtype=np.float32).reshape(3, 4)
    done = []
    for op, opsets in OPSET_SWEEP:
        for opset in opsets:
            if op in ("ScatterND", "GatherND"):
                indices = np.array([[2], [0]], np.int64)
            else:
                indices = np.array([[2, 0, 1, 2]], np.int64)
            names = ["data", "indices"]
            inputs = {"data": data}
            if op.startswith("Scatter"):
                names.append("updates")
                shape = (2, 4) if op == "ScatterND" else indices.shape
                inputs["updates"] = np.full(shape, -1, np.float32)
            node = helper.make_node(op, names, ["y"])
            model = make_model([node], inputs, {"y": TensorProto.FLOAT}, {"indices": indices},
                               opset)
            ov_model, compiled = common.compile_model(model)
            kinds = [o.get_type_name() for o in common.sgk_nodes(ov_model)]
            assert kinds, f"{op}-{opset} was not converted"
            got = common.infer(compiled, inputs)[0]
            fn = {"ScatterND": definition.scatter_nd, "GatherND": definition.gather_nd,
                  "GatherElements": definition.gather_elements}.get(
                      op, definition.scatter_elements)
            want = fn(*[inputs.get(n, indices) for n in names])
            assert definition.same(got, want), f"{op}-{opset}: " + \
                definition.describe_difference(got, want)
            done.append(f"{op}-{opset}")
    return ", ".join(done)


def plans_for_constant_indices():
    """One plan for a model's constant indices, however many requests and
    streams; none for dynamic indices, which make one-shot calls."""
    rng = np.random.default_rng(4)
    table = rng.standard_normal((1000, 64)).astype(np.float32)
    ids = rng.integers(0, 1000, (256, 1)).astype(np.int64)
    node = helper.make_node("GatherND", ["table", "ids"], ["rows"])
    fixed = make_model([node], {"table": table}, {"rows": TensorProto.FLOAT}, {"ids": ids})
    dynamic = make_model([node], {"table": table, "ids": ids}, {"rows": TensorProto.FLOAT})
    want = table[ids[:, 0]]

    before = common.counters()
    compiled = common.compile_model(fixed, streams=2)[1]
    queue = ov.AsyncInferQueue(compiled, 4)
    results = {}
    queue.set_callback(lambda request, i: results.__setitem__(
        i, np.array(request.get_output_tensor(0).data)))
    for i in range(16):
        queue.start_async({"table": table}, i)
    queue.wait_all()
    after = common.counters()
    assert all(definition.same(results[i], want) for i in range(16))
    assert after[0] - before[0] == 1, f"{after[0] - before[0]} plans built for one node"
    assert after[1] - before[1] == 16, f"{after[1] - before[1]} plan runs for 16 requests"

    compiled = common.compile_model(dynamic, streams=2)[1]
    for _ in range(3):
        got = common.infer(compiled, {"table": table, "ids": ids})[0]
        assert definition.same(got, want)
    last = common.counters()
    assert last[0] == after[0] and last[2] - after[2] == 3, f"counters {after} -> {last}"
    return "1 plan, 16 runs on 2 streams; 3 one-shot runs"


def concurrent_requests():
    """Requests on two streams at once, each with its own inputs, through
    one shared operator object (its plan and its one-shot calls)."""
    rng = np.random.default_rng(5)
    data = np.zeros((64, 32), np.float32)
    indices = rng.integers(-64, 64, (512, 32)).astype(np.int64)
    node = helper.make_node("ScatterElements", ["data", "indices", "updates"], ["y"],
                            axis=0, reduction="add")
    notes = []
    for constant in (True, False):
        inputs = {"data": data, "updates": np.zeros((512, 32), np.float32)}
        inits = {"indices": indices} if constant else {}
        if not constant:
            inputs["indices"] = indices
        model = make_model([node], inputs, {"y": TensorProto.FLOAT}, inits)
        compiled = common.compile_model(model, streams=2)[1]
        queue = ov.AsyncInferQueue(compiled, 4)
        feeds = []
        for i in range(24):
            feed = {"data": rng.standard_normal((64, 32)).astype(np.float32),
                    "updates": rng.standard_normal((512, 32)).astype(np.float32)}
            if not constant:
                feed["indices"] = indices
            feeds.append(feed)
        results = {}
        queue.set_callback(lambda request, i: results.__setitem__(
            i, np.array(request.get_output_tensor(0).data)))
        for i, feed in enumerate(feeds):
            queue.start_async(feed, i)
        queue.wait_all()
        for i, feed in enumerate(feeds):
            want = definition.scatter_elements(feed["data"], indices, feed["updates"], 0, "add")
            assert definition.same(results[i], want), \
                f"request {i}: " + definition.describe_difference(results[i], want)
        notes.append("constant" if constant else "dynamic")
    return "24 requests x " + " and ".join(notes) + " indices"


def dynamic_shapes():
    """Shapes unknown until inference: rows gathered from tables of two
    sizes by one compiled model."""
    node = helper.make_node("GatherND", ["table", "ids"], ["rows"], batch_dims=1)
    model = make_model([node], {"table": (TensorProto.FLOAT, ["b", "n", 8]),
                                "ids": (TensorProto.INT64, ["b", "m", 1])},
                       {"rows": TensorProto.FLOAT})
    ov_model, compiled = common.compile_model(model)
    shape = common.sgk_nodes(ov_model)[0].get_output_partial_shape(0)
    assert str(shape) == "[?,?,8]", f"inferred {shape}"
    rng = np.random.default_rng(6)
    for b, n, m in ((2, 10, 3), (3, 40, 7)):
        table = rng.standard_normal((b, n, 8)).astype(np.float32)
        ids = rng.integers(-n, n, (b, m, 1)).astype(np.int64)
        got = common.infer(compiled, {"table": table, "ids": ids})[0]
        want = definition.gather_nd(table, ids, 1)
        assert definition.same(got, want), definition.describe_difference(got, want)
    return f"output shape {shape}"


def out_of_range(constant):
    """ScatterElements with index -5 into 3 elements (OpenVINO alone
    corrupted its heap on this model): an error carrying sgk's message,
    nothing written."""
    data = np.array([[1, 2, 3]], np.float32)
    updates = np.array([[9, 9]], np.float32)
    indices = np.array([[0, -5]], np.int64)
    node = helper.make_node("ScatterElements", ["data", "indices", "updates"], ["y"], axis=1)
    inputs = {"data": data, "updates": updates}
    inits = {"indices": indices} if constant else {}
    if not constant:
        inputs["indices"] = indices
    model = make_model([node], inputs, {"y": TensorProto.FLOAT}, inits)
    compiled = common.compile_model(model)[1]
    kept = {k: v.copy() for k, v in inputs.items()}
    try:
        common.infer(compiled, inputs)
    except RuntimeError as exc:
        message = str(exc)
        assert "SGK_ERR_INDEX_OUT_OF_RANGE" in message and "-5" in message, message
        assert all(np.array_equal(inputs[k], kept[k]) for k in inputs)
        return message.strip().splitlines()[-1]
    raise AssertionError("no error for index -5 into 3 elements")


def openmp_threads():
    """SGK_OPENVINO_THREADS=openmp keeps sgk's own OpenMP threads (for the
    benchmark's comparison); the default runs on oneTBB."""
    assert common.extension_library().sgk_openvino_threading() == b"tbb"
    code = ("import ctypes, openvino as ov; c = ov.Core(); c.add_extension(%r); "
            "l = ctypes.CDLL(%r); l.sgk_openvino_threading.restype = ctypes.c_char_p; "
            "print(l.sgk_openvino_threading().decode())" % (common.EXTENSION, common.EXTENSION))
    env = dict(os.environ, SGK_OPENVINO_THREADS="openmp")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "openmp", out
    return "tbb by default, openmp on request"


def three_line_recipe():
    """sgk.openvino_extension_path() finds this build's module (beside
    libsgk, or in the build tree), and the README's three lines work."""
    import sgk
    explicit = os.environ.pop("SGK_OPENVINO_EXTENSION", None)
    try:
        path = sgk.openvino_extension_path()
    finally:
        if explicit is not None:
            os.environ["SGK_OPENVINO_EXTENSION"] = explicit
    assert os.path.samefile(path, common.EXTENSION), f"{path} is not {common.EXTENSION}"
    data = np.arange(6, dtype=np.float32)
    node = helper.make_node("ScatterElements", ["data", "indices", "updates"], ["y"])
    model = make_model([node], {"data": data, "updates": data[:2]}, {"y": TensorProto.FLOAT},
                       {"indices": np.array([5, -6], np.int64)})
    core = ov.Core()
    core.add_extension(path)
    ov_model = core.read_model(model.SerializeToString(), b"")
    assert common.sgk_nodes(ov_model)
    got = np.array(core.compile_model(ov_model, "CPU")({"data": data, "updates": data[:2]})[0])
    assert got.tolist() == [1, 1, 2, 3, 4, 0], got
    return path


def ir_round_trip():
    """The operators serialize to OpenVINO IR and read back (with the
    extension loaded), attributes and all."""
    import tempfile
    data = np.array([1, 2, 3, 4], np.float16)
    node = helper.make_node("ScatterND", ["data", "indices", "updates"], ["y"], reduction="max")
    model = make_model([node], {"data": data, "updates": data[:2]}, {"y": TensorProto.FLOAT16},
                       {"indices": np.array([[1], [1]], np.int64)})
    with tempfile.TemporaryDirectory(prefix="sgk-ov-ir-") as folder:
        path = os.path.join(folder, "model.xml")
        ov.save_model(common.read(model), path)
        ov_model = common.core(True).read_model(path)
        op = common.sgk_nodes(ov_model)[0]
        assert op.get_attributes() == {"reduction": "max", "declared_type": "f16"}, \
            op.get_attributes()
        compiled = common.core(True).compile_model(ov_model, "CPU", common.CONFIG)
        feeds = {"data": data, "updates": np.array([5, -1], np.float16)}
        got = common.infer(compiled, feeds)[0]
    assert got.tolist() == [1, 5, 3, 4], got
    return "SgkScatterND with its attributes"


def main():
    tally = common.Tally("test_models")
    print(f"test_models: OpenVINO {ov.__version__.split('-')[0]}, onnx {onnx.__version__}, "
          f"{common.EXTENSION}")
    tally.run("every opset version converts", every_opset)
    tally.run("Gather and TensorScatter opsets", gather_and_tensor_scatter_opsets)
    tally.run("gathers of shapes stay OpenVINO's", shape_gathers_stay_openvino)
    for constant in (True, False):
        kind = "constant" if constant else "dynamic"
        tally.run(f"gnn layer, {kind} edges", gnn_layer, constant)
        tally.run(f"llm decode step, {kind} position", llm_decode_step, constant)
    for mode in ("linear", "circular"):
        tally.run(f"llm decode step, TensorScatter {mode} and Gather",
                  llm_decode_step_tensor_scatter, mode)
    for reduction, order, writes in (("none", [2, 0, 1, 3], 4), ("add", [1, 0, 2, 3], 4),
                                     ("none", [2, 1, 0, 3], 4), ("none", [0, 1, 2, 3], 4),
                                     ("none", [2, 0, 1, 3], 8), ("add", [2, 0, 1, 3], 0)):
        tally.run(f"scatter into a transposed cache, {reduction}, order {order}, {writes} writes",
                  scatter_into_transposed_cache, reduction, order, writes)
    tally.run("scatter into a transposed cache, writes known at run time",
              scatter_into_transposed_cache_dynamic)
    tally.run("scatter into a transposed cache, updates of another rank",
              scatter_into_transposed_cache_bad_updates)
    tally.run("beam search step", beam_search_step)
    tally.run("scatter_nd add float16, duplicates", float16_add_with_duplicates, "float16")
    tally.run("scatter_nd add bfloat16, duplicates", float16_add_with_duplicates, "bfloat16")
    for name in ("int64", "uint64", "float64"):
        tally.run(f"scatter_nd add {name}, beyond 32 bits", wide_types_in_the_operator, name)
    tally.run("scatter_nd add bool, 256 duplicates", boolean_reductions)
    tally.run("plans for constant indices", plans_for_constant_indices)
    tally.run("concurrent requests", concurrent_requests)
    tally.run("dynamic shapes", dynamic_shapes)
    tally.run("TensorScatter dynamic shapes", tensor_scatter_dynamic_shapes)
    tally.run("TensorScatter out of range", tensor_scatter_out_of_range)
    tally.run("out of range, constant indices", out_of_range, True)
    tally.run("out of range, dynamic indices", out_of_range, False)
    tally.run("threads", openmp_threads)
    tally.run("sgk.openvino_extension_path() and the three-line recipe", three_line_recipe)
    tally.run("IR round trip", ir_round_trip)
    for finding in findings:
        print(f"finding: {finding}")
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
