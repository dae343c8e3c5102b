#!/usr/bin/env python3
"""What a user sees at run time of the nodes sgk serves inside OpenVINO:
sgk.openvino_counters() names each node (by its model's name), its
operator, how often it ran, how often on a kept plan, and its time; an
extension not loaded into the process reports nothing rather than being
loaded by the query."""
import subprocess
import sys

import numpy as np

import common
import sgk
from onnx import TensorProto, helper, numpy_helper

ov = common.ov


def model_of_two_nodes():
    """A GatherND on constant ids (a kept plan) and a ScatterElements on an
    input index (one-shot calls)."""
    rng = np.random.default_rng(7)
    table = rng.standard_normal((100, 8)).astype(np.float32)
    ids = rng.integers(0, 100, (16, 1)).astype(np.int64)
    edges = rng.integers(0, 16, (32, 8)).astype(np.int64)
    nodes = [
        helper.make_node("GatherND", ["table", "ids"], ["rows"], name="embedding_rows"),
        helper.make_node("ScatterElements", ["zeros", "edges", "messages"], ["sums"],
                         name="edge_sum", axis=0, reduction="add"),
    ]
    info = helper.make_tensor_value_info
    graph = helper.make_graph(
        nodes, "g",
        [info("table", TensorProto.FLOAT, [100, 8]), info("zeros", TensorProto.FLOAT, [16, 8]), info("edges", TensorProto.INT64, [32, 8]),
         info("messages", TensorProto.FLOAT, [32, 8])],
        [info("rows", TensorProto.FLOAT, None), info("sums", TensorProto.FLOAT, None)],
        [numpy_helper.from_array(ids, "ids")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    feeds = {"table": table, "zeros": np.zeros((16, 8), np.float32), "edges": edges,
             "messages": rng.standard_normal((32, 8)).astype(np.float32)}
    return model, feeds


def counters_name_nodes():
    model, feeds = model_of_two_nodes()
    compiled = common.compile_model(model)[1]
    before = sgk.openvino_counters()
    for _ in range(3):
        common.infer(compiled, feeds)
    after = sgk.openvino_counters()
    notes = []
    # OpenVINO's ONNX frontend names a node after its output, as its own
    # profiling (get_profiling_info) shows it.
    for name, op, plan_runs in (("rows", "SgkGatherND", 3), ("sums", "SgkScatterElements", 0)):
        assert name in after, f"no counters for node {name!r}: {sorted(after)}"
        node, was = after[name], before.get(name, {"calls": 0, "plan_runs": 0, "seconds": 0.0})
        assert node["op"] == op, f"{name}: op {node['op']!r}, want {op!r}"
        assert node["calls"] - was["calls"] == 3, f"{name}: {node['calls'] - was['calls']} calls"
        assert node["plan_runs"] - was["plan_runs"] == plan_runs, f"{name}: {node}"
        assert node["seconds"] > was["seconds"], f"{name}: no time counted: {node}"
        notes.append(f"{name}: {op}, 3 calls, {node['seconds'] * 1e6:.0f} us in all")
    return "; ".join(notes)


def nothing_before_the_extension_is_loaded():
    """A fresh interpreter that imports sgk but never loads the extension
    gets {} and does not load it by asking."""
    code = ("import sgk, sys\n"
            "assert sgk.openvino_counters() == {}\n"
            "maps = open('/proc/self/maps').read()\n"
            "sys.exit(1 if 'libsgk_openvino' in maps else 0)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, f"status {done.returncode}: {done.stderr[-400:]}"
    return "{} and not loaded"


def main():
    tally = common.Tally("test_visibility")
    tally.run("sgk.openvino_counters() names each node, its calls and time",
              counters_name_nodes)
    tally.run("sgk.openvino_counters() before the extension is loaded",
              nothing_before_the_extension_is_loaded)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
