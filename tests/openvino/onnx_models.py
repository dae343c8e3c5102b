"""Building the ONNX models of tests/openvino/test_models.py and running
them through OpenVINO with and without the sgk extension: with sgk a
model must give the expected outputs exactly; where OpenVINO alone
disagrees, the disagreement is recorded in findings (a finding, not a
failure: that is what the extension is for).
"""
import numpy as np

import common
import definition
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

findings = []


# ---- building models ----------------------------------------------------------

def tensor_type(array):
    if definition.BFLOAT16 is not None and array.dtype == definition.BFLOAT16:
        return TensorProto.BFLOAT16
    return helper.np_dtype_to_tensor_dtype(array.dtype)


def make_model(nodes, inputs, outputs, initializers=(), opset=18):
    """inputs: {name: example array or (elem type, shape)}; outputs: {name:
    elem type}; initializers: {name: array} (constant indices)."""
    def info(name, spec):
        if isinstance(spec, tuple):
            return helper.make_tensor_value_info(name, spec[0], spec[1])
        return helper.make_tensor_value_info(name, tensor_type(spec), list(spec.shape))
    graph = helper.make_graph(
        nodes, "g", [info(n, s) for n, s in inputs.items()],
        [helper.make_tensor_value_info(n, t, None) for n, t in outputs.items()],
        [numpy_helper.from_array(a, n) for n, a in dict(initializers).items()])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def reference(model, feeds):
    return [np.asarray(x) for x in ReferenceEvaluator(model).run(None, feeds)]


def run_both(model, feeds, want, label, streams=1):
    """The model with sgk must give want exactly; OpenVINO alone is
    compared too and its disagreement recorded."""
    ov_model, compiled = common.compile_model(model, True, streams)
    assert common.sgk_nodes(ov_model), "no node was converted to an sgk operator"
    got = common.infer(compiled, feeds)
    for g, w in zip(got, want):
        assert definition.same(g, w), definition.describe_difference(g, w)
    try:
        alone = common.infer(common.compile_model(model, False)[1], feeds)
        wrong = [definition.describe_difference(a, w, names=("openvino", "want"))
                 for a, w in zip(alone, want) if not definition.same(a, w)]
    except RuntimeError as exc:
        lines = [line for line in str(exc).splitlines() if line.strip()]
        cause = next((line.strip(" -") for line in lines if "conversion rule" in line),
                     lines[-1] if lines else type(exc).__name__)
        wrong = [f"raised {cause}"]
    if wrong:
        findings.append(f"{label}: OpenVINO alone differs: {'; '.join(wrong)}")
        return "OpenVINO alone differs"
    return "OpenVINO alone agrees"

