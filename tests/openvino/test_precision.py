#!/usr/bin/env python3
"""A float32 model compiled at the CPU plugin's default inference precision
(bf16 on CPUs with AVX512-BF16 or AMX, f32 elsewhere): the plugin rounds
the inputs of its own nodes to bf16, but an sgk node, a reference node
to the plugin, keeps the model's f32 (docs/integration.md, "Limits").
On a CPU with bf16 arithmetic the test checks that this is where the two
differ, and that the extension's result is the closer one to the model
compiled at f32; elsewhere, that the two are equal bit for bit."""
import sys

import numpy as np

import common
from onnx import TensorProto, helper, numpy_helper

ov = common.ov


def message_passing_layer():
    """Gather of 4000 rows of a [500, 64] input, ScatterElements add into
    500 rows, MatMul: float32 throughout."""
    rng = np.random.default_rng(1)
    n, f, e = 500, 64, 4000
    src = rng.integers(0, n, e).astype(np.int64)
    dst = rng.integers(0, n, e).astype(np.int64)
    weight = (rng.standard_normal((f, f)) / 8).astype(np.float32)
    nodes = [helper.make_node("Gather", ["x", "src"], ["rows"], axis=0),
             helper.make_node("ScatterElements", ["zeros", "dst_rows", "rows"], ["sums"],
                              axis=0, reduction="add"),
             helper.make_node("MatMul", ["sums", "weight"], ["y"])]
    inits = [numpy_helper.from_array(src, "src"),
             numpy_helper.from_array(np.repeat(dst[:, None], f, 1), "dst_rows"),
             numpy_helper.from_array(np.zeros((n, f), np.float32), "zeros"),
             numpy_helper.from_array(weight, "weight")]
    info = helper.make_tensor_value_info
    graph = helper.make_graph(nodes, "layer", [info("x", TensorProto.FLOAT, [n, f])],
                              [info("y", TensorProto.FLOAT, [n, f])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    return model, {"x": rng.standard_normal((n, f)).astype(np.float32)}


def compiled(model, with_sgk, config):
    return common.core(with_sgk).compile_model(common.read(model, with_sgk), "CPU", config)


def runtime_precision(compiled_model, friendly_name):
    for node in compiled_model.get_runtime_model().get_ordered_ops():
        if node.get_friendly_name() == friendly_name:
            return node.get_rt_info()["runtimePrecision"].astype(str)
    raise AssertionError(f"no node {friendly_name!r} in the compiled model")


def default_precision_rounds_only_openvinos_nodes():
    model, feeds = message_passing_layer()
    alone, with_sgk = compiled(model, False, {}), compiled(model, True, {})
    hint = alone.get_property("INFERENCE_PRECISION_HINT")
    exact = common.compile_model(model, False)[1].infer_new_request(feeds)[0]
    got = {name: c.infer_new_request(feeds)[0] for name, c in (("alone", alone),
                                                               ("sgk", with_sgk))}
    for name in ("rows", "sums"):
        assert runtime_precision(with_sgk, name) == "f32", \
            f"sgk node {name} runs in {runtime_precision(with_sgk, name)}"
    if hint != ov.Type.bf16:
        for name, y in got.items():
            assert np.array_equal(y, exact), f"{name}: differs from f32 at hint {hint}"
        return f"hint {hint}: with and without sgk equal to the f32 model"
    assert runtime_precision(alone, "rows") == "bf16", \
        f"OpenVINO's Gather runs in {runtime_precision(alone, 'rows')} at bf16"
    error = {name: np.abs(y - exact).mean() for name, y in got.items()}
    assert not np.array_equal(got["alone"], got["sgk"]), "no difference at bf16"
    assert error["sgk"] < error["alone"], f"mean error against f32: {error}"
    return (f"hint bf16: OpenVINO's Gather in bf16, sgk's nodes in f32; mean error "
            f"against the f32 model {error['alone']:.4f} alone, {error['sgk']:.4f} with sgk")


def main():
    tally = common.Tally("test_precision")
    tally.run("default inference precision rounds OpenVINO's nodes, not sgk's",
              default_precision_rounds_only_openvinos_nodes)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
